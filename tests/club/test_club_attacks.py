"""A hostile club member with ``psql``: every attack on the club server tried with plain SQL under a player's own
login (bob), against a club set up the way the README says.

Each attack has a control that runs the same statement where it is allowed (as the tables' owner, or on the
player's own rows), so a test cannot pass because of a typo. After the attacks an organiser undoes and redoes
(the newest, and by id) and the tests prove that no other player's row changed, nobody gained a role, and every
login can still write."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from clubpg import ORGANISER, OWNER, ClubServer, club_pg, ensure_role, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.errors import Conflict, DatabaseBusyError
from campaign_app.rules.dice import SeededDice
from campaign_app.services import battles, campaigns, club, journal, platoons
from campaign_app.store import close_db, init_db
from campaign_app.store.access import NotYours
from campaign_app.store.club_server import add_player, init_server
from campaign_app.store.models import database_proxy as db
from campaign_app.store.server import AddressRefused
from tests.ids import campaign_id
from tests.ids import platoon_id as pid_of

DB = "club_attacks"


@pytest.fixture(scope="module")
def club_db(club_pg: ClubServer) -> str:
    """Olga organises "Congo 1960" with ada and bob in it; each has a platoon with one battle, logged through the
    app (so the journal holds real operations of theirs)."""
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
    campaigns.create_campaign("Secret War", "sologear")  # olga's alone
    close_db()
    for login, platoon in (("ada", "2nd Platoon"), ("bob", "Red Devils")):
        init_db(club_pg.url(DB, user=login))
        platoons.create_platoon(
            campaign_id("Congo 1960"),
            platoon,
            training=8,
            equipment=8,
            morale=8,
            armor=2,
            leader_name=f"Lt. {login.title()}",
        )
        battles.log_battle(pid_of(platoon), wounds=2, objectives=1, outcome="victory", dice=SeededDice(5))
        close_db()
    unbind()
    return DB


@pytest.fixture
def as_login(club_pg: ClubServer, club_db: str) -> Iterator[Any]:
    def connect(login: str, busy_timeout: float | None = None, url: str | None = None) -> Any:
        close_db()
        return init_db(url or club_pg.url(club_db, user=login), busy_timeout=busy_timeout)

    yield connect
    unbind()


@contextmanager
def psql(server: ClubServer, who: str = "bob") -> Iterator[Any]:
    """A player's own connection, as with ``psql`` (autocommit: each statement its own transaction)."""
    con = server.connect(DB, who, autocommit=True)
    try:
        yield con
    finally:
        con.close()


def owner_sql(server: ClubServer, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The control: the same statement as the tables' owner (inside a transaction that is rolled back), which
    proves it is valid SQL that the server refuses only to the player."""
    with server.connect(DB, OWNER, autocommit=False) as con:
        try:
            cur = con.execute(sql, params)
            return list(cur.fetchall()) if cur.description else [(cur.rowcount,)]
        finally:
            con.rollback()


def refused(con: Any, sql: str, params: tuple[Any, ...] = (), *, state: str = "42501") -> str:
    import psycopg

    with pytest.raises(psycopg.Error) as caught:
        con.execute(sql, params)
    assert caught.value.sqlstate == state, caught.value
    return str(caught.value)


def snapshot(server: ClubServer) -> dict[str, Any]:
    """Everything of the club as the owner sees it, minus the journal: what an attack must leave unchanged."""
    tables = (
        "campaign",
        "campaign_member",
        "platoon",
        "battle",
        "leader",
        "xp_change",
        "attribute_change",
        "roll",
        "attached_unit",
        "equipment",
        "sologear_sheet",
    )
    with server.connect(DB, OWNER) as con:
        out: dict[str, Any] = {
            t: con.execute(f'SELECT to_jsonb(t) FROM "{t}" t ORDER BY id').fetchall() for t in tables
        }
        out["roles"] = con.execute(
            "SELECT r.rolname, g.rolname FROM pg_auth_members m JOIN pg_roles r ON "
            "r.oid = m.member JOIN pg_roles g ON g.oid = m.roleid WHERE r.rolname IN "
            "('ada', 'bob', 'olga') ORDER BY 1, 2"
        ).fetchall()
    return out


def platoon_id(server: ClubServer, name: str) -> int:
    with server.connect(DB, OWNER) as con:
        return int(con.execute("SELECT id FROM platoon WHERE name = %s", (name,)).fetchone()[0])


def op_of(server: ClubServer, user: str) -> int:
    with server.connect(DB, OWNER) as con:
        return int(
            con.execute(
                "SELECT max(id) FROM operation WHERE \"user\" = %s AND kind = 'battle.log'", (user,)
            ).fetchone()[0]
        )


def organiser_round_trip(as_login: Any, server: ClubServer) -> None:
    """Olga undoes and redoes the newest operation in her campaigns and one by id: what comes back is exactly
    what went."""
    before = snapshot(server)
    as_login(ORGANISER)
    undone = journal.undo()
    assert undone.changes
    journal.redo()
    by_id = op_of(server, "ada")
    journal.undo(by_id)
    journal.redo(by_id)
    assert snapshot(server) == before


def everyone_can_write(as_login: Any) -> None:
    for login, platoon in (("ada", "2nd Platoon"), ("bob", "Red Devils")):
        as_login(login, busy_timeout=2)
        done = (
            platoons.set_platoon_notes(pid_of(platoon), f"{login} still writes")
            if hasattr(platoons, "set_platoon_notes")
            else platoons.update_platoon(pid_of(platoon), notes=f"{login} still writes")
        )
        assert done.changed
        journal.undo()


# ------------------------------------------------------------------------------------------------ the journal

JOURNAL_WRITES = [
    (
        "forged operation",
        "INSERT INTO operation (id, kind, label, campaign_id, platoon_id, created_at, updated_at, "
        "\"user\") VALUES (987654, 'platoon.edit', 'Congo 1960: change the notes', 1, 1, 'now', "
        "'now', 'bob')",
    ),
    (
        "forged change record",
        "INSERT INTO operation_change (operation_id, table_name, row_id, action, old, new) "
        "SELECT max(id), 'platoon', 1, 'update', '{}', '{}' FROM operation",
    ),
    (
        "forged table name",
        "INSERT INTO operation_change (operation_id, table_name, row_id, action, old, new) "
        "SELECT max(id), 'platoon\" ; DELETE FROM battle; --', 1, 'delete', '{}', NULL "
        "FROM operation",
    ),
    ("editing one's own operation", "UPDATE operation SET label = 'nothing', undone = 1 WHERE \"user\" = 'bob'"),
    ("erasing one's own history", "DELETE FROM operation WHERE \"user\" = 'bob'"),
    (
        "erasing one's own change records",
        "DELETE FROM operation_change WHERE operation_id IN (SELECT id FROM operation WHERE \"user\" = 'bob')",
    ),
    (
        "the bigint id",
        'INSERT INTO operation (id, kind, label, created_at, updated_at, "user") VALUES '
        "(9223372036854775807, 'x', 'x', 'now', 'now', 'bob')",
    ),
    ("the undo stamp", "UPDATE operation SET undo_seq = 9223372036854775807 WHERE \"user\" = 'bob'"),
    ("the journal's bookkeeping", "INSERT INTO journal_open (xact, operation_id) VALUES (1, 1)"),
    ("the journal's lock", "SELECT * FROM journal_state FOR UPDATE"),
]


@pytest.mark.parametrize("sql", [s for _, s in JOURNAL_WRITES], ids=[n for n, _ in JOURNAL_WRITES])
def test_a_player_cannot_write_the_journal(club_pg: ClubServer, club_db: str, as_login: Any, sql: str) -> None:
    before = snapshot(club_pg)
    with club_pg.connect(DB, OWNER) as con:
        journal_before = con.execute("SELECT to_jsonb(o) FROM operation o ORDER BY id").fetchall()
    with psql(club_pg) as bob:
        refused(bob, sql)
    owner_sql(club_pg, sql)  # the control: the statement itself is good SQL (the owner may run it)
    with club_pg.connect(DB, OWNER) as con:
        assert con.execute("SELECT to_jsonb(o) FROM operation o ORDER BY id").fetchall() == journal_before
    organiser_round_trip(as_login, club_pg)
    assert snapshot(club_pg) == before
    everyone_can_write(as_login)


def test_the_trigger_cannot_be_aimed_at_another_players_operation(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
) -> None:
    adas = op_of(club_pg, "ada")
    bobs = platoon_id(club_pg, "Red Devils")
    with club_pg.connect(DB, "bob", autocommit=False) as bob:
        # the setting the journal used to trust is only a setting now: bob's write is refused (outside an operation)
        bob.execute("SELECT set_config('campaign_app.operation_id', %s, true)", (str(adas),))
        refused(bob, "UPDATE platoon SET notes = 'x' WHERE id = %s", (bobs,), state="CA400")
        bob.rollback()
        # the control: inside an operation the server opened for him, the same statement is recorded as his
        op = bob.execute("SELECT id FROM campaign_app_begin('platoon.edit', 'notes')").fetchone()[0]
        assert bob.execute("UPDATE platoon SET notes = 'x' WHERE id = %s", (bobs,)).rowcount == 1
        final = bob.execute("SELECT id FROM campaign_app_end(%s, 'notes')", (op,)).fetchone()[0]
        user = bob.execute('SELECT "user" FROM operation WHERE id = %s', (final,)).fetchone()[0]
        assert user == "bob" and final != adas
        bob.rollback()
    with club_pg.connect(DB, OWNER) as con:
        assert (
            con.execute(
                "SELECT count(*) FROM operation_change WHERE operation_id = %s AND table_name = "
                "'platoon' AND row_id = %s",
                (adas, bobs),
            ).fetchone()[0]
            == 0
        )


def test_an_operation_is_labelled_with_what_it_touched_not_what_the_client_says(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
) -> None:
    ada_platoon, bob_platoon = platoon_id(club_pg, "2nd Platoon"), platoon_id(club_pg, "Red Devils")
    as_login("bob")
    from campaign_app.store import journal as store_journal
    from campaign_app.store import journal_read, journal_replay

    # bob's program names ada's platoon as the target; the server records the platoon he really changed
    with store_journal.operation("platoon.edit", "ada's platoon", platoon=bob_platoon) as op:
        db.execute_sql("UPDATE platoon SET notes = 'mine' WHERE id = ?", (bob_platoon,))
        op.platoon_id = ada_platoon
    assert op.changes.platoon_id == bob_platoon
    info = journal_read.get_operation(op.changes.operation_id or 0)
    assert (info.platoon_id, info.user) == (bob_platoon, "bob")
    journal_replay.undo(info.id)


def test_a_replay_names_only_the_apps_tables(club_pg: ClubServer, club_db: str, as_login: Any) -> None:
    """A change record naming another table (one the owner could write by hand, or an old forged one) is never
    formatted into SQL: the undo refuses, naming no table, and nothing changes."""
    bobs = platoon_id(club_pg, "Red Devils")
    as_login("bob")
    edit = platoons.update_platoon(pid_of("Red Devils"), notes="before the forgery")
    op_id = edit.changes.operation_id
    with club_pg.connect(DB, OWNER) as con:
        con.execute(
            "INSERT INTO operation_change (operation_id, table_name, row_id, action, old, new) VALUES "
            "(%s, %s, 1, 'delete', '{}', NULL)",
            (op_id, 'battle" WHERE true; DELETE FROM "platoon'),
        )
    before = snapshot(club_pg)
    as_login(ORGANISER)
    with pytest.raises(Conflict, match="names a table that is not one of the app's; nothing was changed"):
        journal.undo(op_id)
    assert snapshot(club_pg) == before
    with club_pg.connect(DB, OWNER) as con:
        con.execute("DELETE FROM operation_change WHERE operation_id = %s AND table_name LIKE 'battle\"%%'", (op_id,))
    journal.undo(op_id)  # the control: the genuine record undoes
    as_login("bob")
    assert platoons.show_platoon(bobs).notes != "before the forgery" if hasattr(platoons, "show_platoon") else True


def test_who_may_undo_is_decided_by_the_server(club_pg: ClubServer, club_db: str, as_login: Any) -> None:
    adas = op_of(club_pg, "ada")
    as_login("bob")
    with pytest.raises(
        NotYours,
        match=r"^\u201cLog battle 1 of 2nd Platoon\u201d was made by ada; only they or an "
        r"organiser of Congo 1960 can undo it$",
    ):
        journal.undo(adas)
    with club_pg.connect(DB, "bob") as bob:  # the same by hand: the server's own function refuses him
        refused(bob, "SELECT campaign_app_replay(%s, true)", (adas,), state="CA403")
        refused(bob, "SELECT campaign_app_replay_open(%s, true)", (adas,), state="CA403")
    as_login("ada")  # the control: ada herself may
    journal.undo(adas)
    journal.redo(adas)


def test_replay_functions_called_by_hand_cannot_fake_an_undo(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
) -> None:
    bob_op = op_of(club_pg, "bob")
    with club_pg.connect(DB, "bob", autocommit=False) as bob:
        bob.execute("SELECT campaign_app_replay_open(%s, true)", (bob_op,))
        refused(bob, "SELECT campaign_app_replay_close(%s)", (bob_op,), state="CA409")  # nothing was undone
        bob.rollback()
        # the control: the whole replay, in the same transaction shape, is allowed and marks it undone
        bob.execute("SELECT campaign_app_replay(%s, true)", (bob_op,))
        assert bob.execute("SELECT undone FROM operation WHERE id = %s", (bob_op,)).fetchone()[0] == 1
        bob.rollback()


# ------------------------------------------------------------------------------------------------ references


def test_a_row_cannot_be_hung_on_another_players_battle(club_pg: ClubServer, club_db: str, as_login: Any) -> None:
    with club_pg.connect(DB, OWNER) as con:
        ada_battle, bob_battle = (
            int(
                con.execute(
                    "SELECT b.id FROM battle b JOIN platoon p ON p.id = b.platoon_id WHERE p.name = %s", (n,)
                ).fetchone()[0]
            )
            for n in ("2nd Platoon", "Red Devils")
        )
    bobs = platoon_id(club_pg, "Red Devils")
    roll = (
        "INSERT INTO roll (platoon_id, battle_id, seq, purpose, expression, faces, modifier, total, source, "
        "rule, outcome, created_at) VALUES (%s, %s, 99, 'recovery', '1d6', '[3]', 0, 3, 'app', '', '', now())"
    )
    xp = (
        "INSERT INTO xp_change (platoon_id, battle_id, who, delta, xp_after, reason, created_at) VALUES "
        "(%s, %s, 'platoon', 0, 0, 'x', now())"
    )
    with club_pg.connect(DB, "bob", autocommit=False) as bob:
        for sql in (roll, xp):
            bob.execute("SELECT id FROM campaign_app_begin('x', 'x')")
            refused(bob, sql, (bobs, ada_battle))
            bob.rollback()
            bob.execute("SELECT id FROM campaign_app_begin('x', 'x')")
            assert bob.execute(sql, (bobs, bob_battle)).rowcount == 1  # the control: his own battle
            bob.rollback()
    # so ada can still undo her battle (nothing of bob's hangs on it)
    as_login("ada")
    adas = op_of(club_pg, "ada")
    journal.undo(adas)
    journal.redo(adas)


# ------------------------------------------------------------------------------------------------ ids


@pytest.mark.parametrize("ahead", [5, None], ids=["ahead-of-the-sequence", "bigint-max"])
def test_a_player_cannot_choose_the_ids_of_new_rows(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
    ahead: int | None,
) -> None:
    bobs = platoon_id(club_pg, "Red Devils")
    sql = (
        "INSERT INTO attribute_change (id, platoon_id, field, reason, created_at) VALUES (%s, %s, 'armor', 'x', now())"
    )
    with club_pg.connect(DB, OWNER) as con:
        top = int(con.execute("SELECT coalesce(max(id), 0) FROM attribute_change").fetchone()[0])
    wanted = top + ahead if ahead else 9223372036854775807
    with club_pg.connect(DB, "bob", autocommit=False) as bob:
        bob.execute("SELECT id FROM campaign_app_begin('x', 'x')")
        message = refused(bob, sql, (wanted, bobs), state="CA400")
        assert "the server numbers new rows itself" in message
        bob.rollback()
        bob.execute("SELECT id FROM campaign_app_begin('x', 'x')")  # the control: without the id it is written
        assert bob.execute(sql.replace("(id, ", "(").replace("(%s, %s,", "(%s,"), (bobs,)).rowcount == 1
        bob.rollback()
        refused(bob, "SELECT nextval(pg_get_serial_sequence('attribute_change', 'id'))")  # nor draw or move them
        bob.rollback()
        refused(bob, "SELECT setval(pg_get_serial_sequence('attribute_change', 'id'), 10000)")
        bob.rollback()
    everyone_can_write(as_login)
    as_login("ada")
    for _ in range(3):  # the next battles of anyone get good ids
        battles.log_battle(pid_of("2nd Platoon"), wounds=0, objectives=0, outcome="draw", dice=SeededDice(1))
    for _ in range(3):
        journal.undo()


# ------------------------------------------------------------------------------------------------ waiting


def test_the_old_writers_lock_stops_nobody(club_pg: ClubServer, club_db: str, as_login: Any) -> None:
    with psql(club_pg) as bob:
        bob.execute("SELECT pg_advisory_lock(%s)", (0x43414D50,))
        as_login("ada", busy_timeout=1)
        assert platoons.update_platoon(pid_of("2nd Platoon"), notes="not waiting for bob").changed
        journal.undo()


@pytest.mark.parametrize(
    "hold,what",
    [
        ("LOCK TABLE platoon IN ACCESS EXCLUSIVE MODE", "the platoon table"),
        (
            "SELECT id FROM campaign_app_begin('x', 'x'); UPDATE platoon SET notes = 'held' WHERE name = 'Red Devils'; "
            "SELECT id FROM campaign_app_end(0, 'x')",
            "the journal",
        ),
    ],
)
def test_a_lock_held_in_an_idle_transaction_stops_a_write_within_its_timeout(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
    hold: str,
    what: str,
) -> None:
    with club_pg.connect(DB, "bob", autocommit=False) as bob:
        if "campaign_app_begin" in hold:
            op = bob.execute("SELECT id FROM campaign_app_begin('x', 'x')").fetchone()[0]
            bob.execute("UPDATE platoon SET notes = 'held' WHERE name = 'Red Devils'")
            bob.execute("SELECT id FROM campaign_app_end(%s, 'x')", (op,))
        else:
            bob.execute(hold)
        assert bob.execute("SHOW idle_in_transaction_session_timeout").fetchone()[0] == "1min"  # set for his login
        as_login("ada", busy_timeout=0.5)
        started = time.monotonic()
        with pytest.raises(DatabaseBusyError) as caught:
            platoons.update_platoon(pid_of("2nd Platoon"), notes="waits for bob")
        waited = time.monotonic() - started
        assert f"bob's session holds {what}" in str(caught.value), caught.value
        assert "nothing was written" in str(caught.value) and "\n" not in str(caught.value)
        assert waited < 10  # bounded by the lock timeout (0.5 s), not by bob
        bob.rollback()
    assert platoons.update_platoon(pid_of("2nd Platoon"), notes="after bob").changed  # the control: free again
    journal.undo()


def test_a_players_connections_are_limited(club_pg: ClubServer, club_db: str, as_login: Any) -> None:
    import psycopg

    ensure_role(club_pg, "cara")
    as_login(OWNER)
    add_player("cara", connections=2)
    held = [club_pg.connect(DB, "cara") for _ in range(2)]
    try:
        with pytest.raises(psycopg.OperationalError, match="too many connections for role"):
            club_pg.connect(DB, "cara")
        club_pg.connect(DB, "ada").close()  # the others still get in
    finally:
        for con in held:
            con.close()


# ------------------------------------------------------------------------------------------------ the address


@pytest.mark.parametrize(
    "options", ["-c role=congo_organisers", "-csearch_path=evil", "--role=olga", "-c session_authorization=olga"]
)
def test_an_address_that_would_change_who_you_are_is_refused(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
    options: str,
) -> None:
    from urllib.parse import quote

    url = club_pg.url(DB, user=ORGANISER)
    url += ("&" if "?" in url else "?") + "options=" + quote(options)
    with pytest.raises(AddressRefused, match="the server address sets .* in its options"):
        as_login(ORGANISER, url=url)


def test_the_address_cannot_change_the_role_or_the_time_zone(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
) -> None:
    from urllib.parse import quote

    base = club_pg.url(DB, user="ada")
    sep = "&" if "?" in base else "?"
    as_login("ada", url=base + sep + "options=" + quote("-c TimeZone=Asia/Tokyo"))
    assert db.execute_sql("SELECT current_setting('TimeZone'), current_user, session_user").fetchone() == (
        "UTC",
        "ada",
        "ada",
    )
    edit = battles.log_battle(pid_of("2nd Platoon"), wounds=1, objectives=0, outcome="defeat", dice=SeededDice(2))
    op_id = edit.changes.operation_id
    with club_pg.connect(DB, OWNER) as con:
        images = [
            json.loads(r[0])
            for r in con.execute(
                "SELECT new FROM operation_change WHERE operation_id = %s AND table_name = 'battle'", (op_id,)
            )
        ]
    assert images and images[0]["created_at"].endswith("+00:00")
    as_login("ada")  # a plain address undoes it
    journal.undo(op_id)


def test_the_rights_functions_answer_for_the_caller_only(club_pg: ClubServer, club_db: str) -> None:
    import psycopg

    with psql(club_pg) as bob:
        for sql in (
            "SELECT club_campaigns_seen('ada')",
            "SELECT club_can_platoon(1, 'ada')",
            "SELECT club_is_admin('clubadmin')",
        ):
            with pytest.raises(psycopg.errors.UndefinedFunction):
                bob.execute(sql)
        assert bob.execute("SELECT club_can_platoon(%s)", (platoon_id(club_pg, "Red Devils"),)).fetchone()[0]
        assert not bob.execute("SELECT club_can_platoon(%s)", (platoon_id(club_pg, "2nd Platoon"),)).fetchone()[0]
        seen = {r[0] for r in bob.execute("SELECT name FROM campaign WHERE id IN (SELECT club_campaigns_seen())")}
        assert seen == {"Congo 1960"}  # not olga's Secret War


def test_a_player_undo_offers_their_own_newest_change(club_pg: ClubServer, club_db: str, as_login: Any) -> None:
    as_login("ada")
    mine = platoons.update_platoon(pid_of("2nd Platoon"), notes="ada's newest").changes.operation_id
    as_login("bob")
    platoons.update_platoon(pid_of("Red Devils"), notes="bob's newest")
    as_login("ada")
    offered = journal.newest_undoable()
    assert offered is not None and offered.id == mine  # not bob's newer one
    # the window's Edit ▸ Undo list (the undo stack's view) is hers alone too
    assert {op.user for op in journal.live_operations(50)} == {"ada"}
    journal.undo()
    assert {op.user for op in journal.redo_queue(50)} <= {"ada"}
    as_login(ORGANISER)  # an organiser: the newest in her campaigns (bob's)
    offered = journal.newest_undoable()
    assert offered is not None and offered.user == "bob"
    assert {op.user for op in journal.live_operations(50)} >= {"ada", "bob"}
    journal.undo()


def test_a_fake_announcement_costs_one_small_query(club_pg: ClubServer, club_db: str, as_login: Any) -> None:
    """A NOTIFY is a hint: the reader asks the journal what is new since the last id it knows; a fake one finds
    nothing."""
    from campaign_app.services.server_link import ChangeFeed

    as_login("ada")
    feed = ChangeFeed()
    assert feed.since_last() == []
    with psql(club_pg) as bob:
        bob.execute("NOTIFY campaign_app, '999999'")
        bob.execute("SELECT pg_notify('campaign_app', 'all')")
    assert feed.since_last() == []  # nothing new
    done = platoons.update_platoon(pid_of("2nd Platoon"), notes="real news")  # the control: a real change is found
    assert [c.operation_id for c in feed.since_last()] == [done.changes.operation_id]
    journal.undo()


def test_a_lost_connection_mid_write_is_one_line(club_pg: ClubServer, club_db: str, as_login: Any) -> None:
    from campaign_app.errors import ServerUnavailable
    from campaign_app.store import journal as store_journal

    database = as_login("ada")
    pid = database.execute_sql("SELECT pg_backend_pid()").fetchone()[0]
    ada_platoon = platoon_id(club_pg, "2nd Platoon")

    def kill() -> None:
        with club_pg.connect(DB) as su:
            su.execute("SELECT pg_terminate_backend(%s)", (pid,))

    with (
        pytest.raises(ServerUnavailable, match="cannot reach the campaign server"),
        store_journal.operation("platoon.edit", "notes"),
    ):
        db.execute_sql("UPDATE platoon SET notes = 'half' WHERE id = ?", (ada_platoon,))
        threading.Thread(target=kill).start()
        time.sleep(0.5)
        db.execute_sql("UPDATE platoon SET notes = 'written?' WHERE id = ?", (ada_platoon,))
    assert platoons.update_platoon(pid_of("2nd Platoon"), notes="after the loss").changed  # the next action reconnects
    journal.undo()


# ------------------------------------------------------------------------------------------------ the second pass


@pytest.mark.parametrize(
    "opening",
    ["SELECT id FROM campaign_app_begin('xp.secret', 'quiet')", "SELECT campaign_app_replay_open({op}, true)"],
    ids=["operation-never-closed", "replay-never-closed"],
)
def test_a_write_in_an_operation_left_open_cannot_commit(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
    opening: str,
) -> None:
    """What a player writes after opening an operation (or a replay) and never closing it would be nobody's
    operation: unannounced, unnumbered, beyond anyone's undo. The commit is refused; the control closes it."""
    import psycopg

    before = snapshot(club_pg)
    bobs = platoon_id(club_pg, "Red Devils")
    with club_pg.connect(DB, "bob", autocommit=False) as bob:
        bob.execute(opening.format(op=op_of(club_pg, "bob")))
        bob.execute("UPDATE platoon SET notes = 'hidden', xp = 12 WHERE id = %s", (bobs,))
        with pytest.raises(psycopg.Error) as caught:
            bob.commit()
        assert caught.value.sqlstate == "CA400" and "not" in str(caught.value)
    assert snapshot(club_pg) == before
    with club_pg.connect(DB, "bob", autocommit=False) as bob:  # the control: closed, the same write commits
        op = bob.execute("SELECT id FROM campaign_app_begin('platoon.edit', 'notes')").fetchone()[0]
        bob.execute("UPDATE platoon SET notes = 'seen' WHERE id = %s", (bobs,))
        final = bob.execute("SELECT id FROM campaign_app_end(%s, 'notes')", (op,)).fetchone()[0]
        bob.commit()
    as_login(ORGANISER)
    assert journal.undo(final).changes  # olga sees it and may undo it


def test_operations_of_other_campaigns_are_not_named_to_a_player(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
) -> None:
    as_login(ORGANISER)
    from campaign_app.services import sologear_sheet

    made = sologear_sheet.create_sheet(
        "", "Kael", 30, campaign=int(db.execute_sql("SELECT id FROM campaign WHERE name = 'Secret War'").fetchone()[0])
    )
    secret = made.changes.operation_id
    with psql(club_pg) as bob:
        message = refused(bob, "SELECT campaign_app_replay_open(%s, true)", (secret,), state="CA404")
        assert "Kael" not in message and "olga" not in message and "Secret War" not in message
        missing = refused(bob, "SELECT campaign_app_replay_open(%s, true)", (secret + 10**6,), state="CA404")
        assert message.replace(str(secret), "N") == missing.replace(str(secret + 10**6), "N")  # the same answer
    with psql(club_pg, ORGANISER) as olga:  # the control: its campaign's organiser is told
        assert olga.execute("SELECT campaign_app_op_named(%s)", (secret,)).fetchone()[0].startswith("\u201cCreate")
    as_login(ORGANISER)
    journal.undo(secret)


def test_an_organiser_undoes_a_platoons_deletion_that_cleared_anothers_opponent(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
) -> None:
    """ada names bob's platoon as her battle's opponent; bob deletes his platoon (the server clears the opponent of
    her battle). Olga's undo of the deletion puts every row back, parents first, and then ada can undo her battle
    again."""
    before = snapshot(club_pg)
    as_login("ada")
    logged = battles.log_battle(
        pid_of("2nd Platoon"),
        wounds=0,
        objectives=0,
        outcome="draw",
        dice=SeededDice(3),
        opponent_platoon=platoon_id(club_pg, "Red Devils"),
    )
    as_login("bob")
    gone = platoons.delete_platoon(pid_of("Red Devils"))
    as_login("ada")
    with pytest.raises(Conflict, match="changed the same data later"):
        journal.undo(logged.changes.operation_id)
    as_login(ORGANISER)
    journal.undo(gone.changes.operation_id)
    as_login("ada")
    journal.undo(logged.changes.operation_id)
    assert snapshot(club_pg) == before


def test_two_writers_of_one_platoon_at_once_one_waits_and_is_refused(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
) -> None:
    """Two programs commit a battle of the same platoon at the same moment: the second waits for the first (the
    platoon's row lock) and is refused "changed since you started", never a duplicate-key traceback; nothing is
    lost. Writers of different platoons do not wait for each other (the other tests' single writes)."""
    from campaign_app.store.models import Battle

    as_login("ada", busy_timeout=10)
    results: list[str] = []
    sessions = [battles.BattleSession(pid_of("2nd Platoon")) for _ in range(2)]
    for seed, s in enumerate(sessions):
        s.set_casualties(1, 0)
        s.roll_all(SeededDice(seed))
    barrier = threading.Barrier(2)

    def commit(s: Any) -> None:
        barrier.wait()
        try:
            s.commit()
            results.append("ok")
        except Conflict as exc:
            results.append(f"conflict: {exc}")
        except Exception as exc:  # noqa: BLE001 - the test reports any other failure
            results.append(f"error: {type(exc).__name__}: {exc}")
        finally:
            db.close()

    before = Battle.select().count()
    threads = [threading.Thread(target=commit, args=(s,)) for s in sessions]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(r.split(":")[0] for r in results) == ["conflict", "ok"], results
    assert "changed since you started" in next(r for r in results if r.startswith("conflict"))
    assert Battle.select().count() == before + 1
    journal.undo()


def test_the_change_feed_hears_undo_redo_and_each_step_of_a_run(
    club_pg: ClubServer,
    club_db: str,
    as_login: Any,
) -> None:
    from campaign_app.services.server_link import ChangeFeed

    as_login("ada")
    feed = ChangeFeed()
    first = platoons.set_xp(pid_of("2nd Platoon"), 20)
    assert [c.operation_id for c in feed.since_last()] == [first.operation_id]
    second = platoons.set_xp(pid_of("2nd Platoon"), 21)  # joins the run: the same operation, heard again
    assert second.operation_id == first.operation_id
    assert [c.operation_id for c in feed.since_last()] == [first.operation_id]
    journal.undo(first.operation_id)
    assert [c.operation_id for c in feed.since_last()] == [first.operation_id]
    journal.redo(first.operation_id)
    assert [c.operation_id for c in feed.since_last()] == [first.operation_id]
    assert feed.since_last() == []
    journal.undo(first.operation_id)
