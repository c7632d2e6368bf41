"""d12 Death Blow on a club server: a fighter belongs to the player who created it; the row-level
security policies cover the new tables; a bout is logged only by a login that may change every fighter in it
(the owner of both, or an organiser); a refusal is one line and writes nothing; the server refuses raw writes
too. Runs against a real PostgreSQL server (skips without one)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from clubpg import ORGANISER, ClubServer, club_pg, ensure_role, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.rules.enums import BoutWinner
from campaign_app.services import campaigns, club
from campaign_app.services import death_blow as service
from campaign_app.store import close_db, init_db, journal_replay
from campaign_app.store import journal as store_journal
from campaign_app.store.access import NotYours
from campaign_app.store.club_server import add_player, init_server, table_rules
from campaign_app.store.death_blow_club import TABLES
from campaign_app.store.models import Bout, BoutRound, Fighter
from campaign_app.store.models import database_proxy as db
from tests.ids import campaign_id, fighter_id


@pytest.fixture(scope="module")
def pit_db(club_pg: ClubServer) -> str:
    server = club_pg
    name = "club_death_blow"
    admin = server.create_database(name)
    init_db(admin)
    init_server()
    for login in ("ada", "bob"):
        ensure_role(server, login)
        add_player(login)
    ensure_role(server, ORGANISER)
    add_player(ORGANISER, organiser=True)
    close_db()
    init_db(server.url(name, user=ORGANISER))
    campaigns.create_campaign("Pit", "death-blow")
    club.add_member(campaign_id("Pit"), "ada")
    club.add_member(campaign_id("Pit"), "bob")
    close_db()
    for login, fighter in (("ada", "Kenji"), ("bob", "Mara")):
        init_db(server.url(name, user=login))
        service.create_fighter(campaign_id("Pit"), fighter)
        close_db()
    unbind()
    return name


@pytest.fixture
def as_login(club_pg: ClubServer, pit_db: str) -> Iterator[Any]:
    def connect(login: str) -> Any:
        close_db()
        return init_db(club_pg.url(pit_db, user=login))

    yield connect
    unbind()


def state() -> tuple[Any, ...]:
    return (list(Fighter.select().order_by(Fighter.id).dicts()), Bout.select().count(), BoutRound.select().count())


def test_every_new_table_has_club_rules() -> None:
    rules = table_rules("x_organisers")
    assert set(TABLES) <= set(rules)


def test_the_creator_owns_the_fighter(as_login: Any) -> None:
    as_login("ada")
    assert {f.name: f.owner for f in Fighter.select()} == {"Kenji": "ada", "Mara": "bob"}


@pytest.mark.parametrize(
    "change",
    [
        lambda: service.rename_fighter(fighter_id("Mara"), "Stolen"),
        lambda: service.set_fighter(fighter_id("Mara"), level=5, reason="why not"),
        lambda: service.retire_fighter(fighter_id("Mara")),
        lambda: service.log_bout(
            fighter_id("Mara"), opponent="Old Wu", opponent_level=2, winner=BoutWinner.FIGHTER, face_cards=3
        ),
        lambda: service.log_bout(
            fighter_id("Kenji"), opponent_fighter=fighter_id("Mara"), winner=BoutWinner.FIGHTER, face_cards=3
        ),
        lambda: service.play_bout(fighter_id("Kenji"), fighter_id("Mara"), seed=1),
    ],
)
def test_another_players_fighter_is_refused_in_one_line(as_login: Any, change: Any) -> None:
    as_login("ada")
    before = state()
    with pytest.raises(NotYours) as caught:
        change()
    assert str(caught.value).startswith("Mara belongs to bob; you can look but not change it")
    assert state() == before


def test_own_fighter_bouts_and_undo(as_login: Any) -> None:
    as_login("ada")
    edit = service.log_bout(
        fighter_id("Kenji"), opponent="Old Wu", opponent_level=2, winner=BoutWinner.FIGHTER, face_cards=4
    )
    assert service.show_fighter(fighter_id("Kenji")).lifetime_xp == 4
    journal_replay.undo(edit.operation_id)  # a player undoes their own bout (judged by the fighters)
    assert service.show_fighter(fighter_id("Kenji")).lifetime_xp == 0


def test_an_organiser_logs_a_bout_between_two_players_fighters(as_login: Any) -> None:
    as_login(ORGANISER)
    edit, solo = service.play_bout(fighter_id("Kenji"), fighter_id("Mara"), seed="club")
    assert BoutRound.select().where(BoutRound.bout == edit.id).count() == len(solo.rounds)
    as_login("bob")  # bob sees it (and its rounds) but may not undo it: olga made it
    assert service.show_bout(edit.id).rounds
    with pytest.raises(NotYours):
        journal_replay.undo(edit.operation_id)
    as_login(ORGANISER)
    journal_replay.undo(edit.operation_id)


def test_the_server_refuses_a_raw_write_to_another_players_fighter(as_login: Any) -> None:
    as_login("ada")
    mara = Fighter.get(Fighter.name == "Mara").id
    before = state()
    with pytest.raises(Exception), store_journal.operation("test.raw", "raw"):  # noqa: B017 - the server's words
        db.execute_sql(
            "INSERT INTO bout (fighter_id, opponent_fighter_id, opponent_name, opponent_level, date, "
            "notes, mode, winner, face_cards_left, xp_gained, fighter_level_before, fighter_xp_before, "
            "fighter_lifetime_before, fighter_level_after, fighter_xp_after, fighter_lifetime_after, "
            "created_at) VALUES (?, NULL, 'X', 0, current_date, '', 'table', 'fighter', 1, 1, 0, 0, 0, 0, "
            "1, 1, now())",
            (mara,),
        )
    as_login("ada")
    assert state() == before
    updated = None
    with store_journal.operation("test.raw", "raw"):
        updated = db.execute_sql("UPDATE fighter SET level = 9 WHERE id = ?", (mara,)).rowcount
    assert updated == 0  # row-level security: the row is not hers to change
