"""Writers at once on a club server: two writers of different platoons commit while the other's transaction is
open (neither waits for the other), the journal numbers operations in the order they commit, and undo and redo
stay exact when operations were opened in one order and committed in another. Writers of one platoon are
serialised by its row lock, and undo then refuses in the right order. Runs against a real PostgreSQL server."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from clubpg import ORGANISER, OWNER, ClubServer, club_pg, ensure_role, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.errors import Conflict
from campaign_app.services import campaigns, club, journal, platoons
from campaign_app.store import close_db, init_db
from campaign_app.store.club_server import add_player, init_server
from campaign_app.store.journal import operation
from campaign_app.store.models import Platoon
from campaign_app.store.models import database_proxy as db
from tests.ids import campaign_id

DB = "club_concurrent"


@pytest.fixture(scope="module")
def club_db(club_pg: ClubServer) -> Iterator[str]:
    ensure_role(club_pg, OWNER, createrole=True)
    club_pg.create_database(DB, owner=OWNER)
    init_db(club_pg.url(DB, user=OWNER))
    init_server()
    for login in ("ada", "bob"):
        ensure_role(club_pg, login)
        add_player(login)
    ensure_role(club_pg, ORGANISER)
    add_player(ORGANISER, organiser=True)
    close_db()
    init_db(club_pg.url(DB, user=ORGANISER))
    campaigns.create_campaign("Congo 1960", period=3)
    club.add_member(campaign_id("Congo 1960"), "ada")
    club.add_member(campaign_id("Congo 1960"), "bob")
    close_db()
    for login, platoon in (("ada", "2nd Platoon"), ("bob", "Red Devils")):
        init_db(club_pg.url(DB, user=login))
        platoons.create_platoon(campaign_id("Congo 1960"), platoon, training=8, equipment=8, morale=8, armor=2)
        close_db()
    unbind()
    yield DB


@pytest.fixture
def owner(club_pg: ClubServer, club_db: str) -> Iterator[dict[str, int]]:
    """The database opened as its owner (who may write every platoon), short busy waits; the two platoons' ids."""
    init_db(club_pg.url(club_db, user=OWNER), busy_timeout=3)
    ids = {p.name: int(p.id) for p in Platoon.select()}
    yield ids
    unbind()


def notes() -> dict[int, str]:
    return {int(p.id): p.notes for p in Platoon.select().order_by(Platoon.id)}


def in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """``work`` on a thread of its own (its own connection to the server): the thread and its outcome."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            outcome.append(exc)
        finally:
            db.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def held_open(platoon: int, text: str, entered: threading.Event, release: threading.Event) -> Callable[[], int]:
    """An operation that writes the platoon's notes, then keeps its transaction open until ``release``."""

    def work() -> int:
        with operation("test.notes", f"notes {text}", platoon=platoon) as op:
            Platoon.update(notes=text).where(Platoon.id == platoon).execute()
            entered.set()
            if not release.wait(30):
                raise TimeoutError("never released")
        assert op.changes.operation_id is not None
        return op.changes.operation_id

    return work


def write_notes(platoon: int, text: str) -> int:
    with operation("test.notes", f"notes {text}", platoon=platoon) as op:
        Platoon.update(notes=text).where(Platoon.id == platoon).execute()
    assert op.changes.operation_id is not None
    return op.changes.operation_id


def test_writers_of_different_platoons_do_not_wait_for_each_other(owner: dict[str, int]) -> None:
    ada, bob = owner["2nd Platoon"], owner["Red Devils"]
    entered, release = threading.Event(), threading.Event()
    first, outcome = in_thread(held_open(ada, "first opened", entered, release))
    try:
        assert entered.wait(20), outcome
        started = time.monotonic()
        second_id = write_notes(bob, "second opened")  # commits while the first's transaction is open
        waited = time.monotonic() - started
        assert notes()[bob] == "second opened"
        assert notes()[ada] == ""  # the first has not committed: its write is not seen yet
    finally:
        release.set()
        first.join(30)
    assert waited < 3, f"the second writer waited {waited:.1f} s for the first"  # the busy timeout is 3 s
    (first_id,) = outcome
    assert isinstance(first_id, int), first_id
    # numbered in the order of commits: the one opened first but committed last has the larger id
    assert second_id < first_id
    assert notes() == {ada: "first opened", bob: "second opened"}
    journal.undo(first_id)
    journal.undo(second_id)


def test_undo_and_redo_stay_exact_when_operations_commit_out_of_order(owner: dict[str, int]) -> None:
    ada, bob = owner["2nd Platoon"], owner["Red Devils"]
    write_notes(ada, "ada at the start")
    write_notes(bob, "bob at the start")
    start = notes()
    entered, release = threading.Event(), threading.Event()
    first, outcome = in_thread(held_open(ada, "ada later", entered, release))
    assert entered.wait(20), outcome
    second_id = write_notes(bob, "bob later")
    release.set()
    first.join(30)
    (first_id,) = outcome
    after = notes()
    assert after == {ada: "ada later", bob: "bob later"}

    # Undo steps back in commit order: the newest is the one that committed last
    assert journal.newest_undoable() is not None and journal.newest_undoable().id == first_id  # type: ignore[union-attr]
    assert journal.undo().operation.id == first_id
    assert notes() == {ada: "ada at the start", bob: "bob later"}
    assert journal.undo().operation.id == second_id
    assert notes() == start
    assert journal.redo().operation.id == second_id
    assert journal.redo().operation.id == first_id
    assert notes() == after

    # either can be undone alone: they touched different rows, so neither blocks the other
    journal.undo(second_id)
    assert notes() == {ada: "ada later", bob: "bob at the start"}
    journal.redo(second_id)
    assert notes() == after


def test_writers_of_one_platoon_are_serialised_and_undo_keeps_their_order(owner: dict[str, int]) -> None:
    ada = owner["2nd Platoon"]
    write_notes(ada, "before both")
    entered, release = threading.Event(), threading.Event()
    first, outcome = in_thread(held_open(ada, "by the first", entered, release))
    assert entered.wait(20), outcome
    second, second_outcome = in_thread(lambda: write_notes(ada, "by the second"))
    time.sleep(0.5)
    assert second.is_alive(), second_outcome  # waits for the first's row lock
    release.set()
    first.join(30)
    second.join(30)
    (first_id,), (second_id,) = outcome, second_outcome
    assert isinstance(first_id, int) and isinstance(second_id, int), (outcome, second_outcome)
    assert first_id < second_id
    assert notes()[ada] == "by the second"  # no lost update: the second wrote after the first committed
    with pytest.raises(Conflict, match="changed the same data later"):
        journal.undo(first_id)
    assert notes()[ada] == "by the second"  # nothing written by the refusal
    journal.undo(second_id)
    assert notes()[ada] == "by the first"
    journal.undo(first_id)
    assert notes()[ada] == "before both"
