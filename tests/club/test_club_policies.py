"""The club server's row-level security, proven with plain SQL as the players themselves.

A player connecting with their own login (as with ``psql``) sees only the campaigns they belong to and cannot
change another player's platoon or any row under it: PostgreSQL skips the rows of an UPDATE or DELETE the
policies do not let them change (0 rows, the row unchanged) and refuses an INSERT or a changed row outright
(SQLSTATE 42501). Each refusal has a control beside it that the same statement works on the player's own rows,
so a test would fail if the policies refused everything."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from clubpg import (  # noqa: F401
    ORGANISER,
    OWNER,
    ClubServer,
    close_operation,
    club_pg,
    make_club,
    open_operation,
    owner_writes,
)

DB = "club_policies"

UNDER_PLATOON = {
    # table -> (the key of ada's row in the ids, a harmless UPDATE of it)
    "platoon": ("ada_platoon", "xp = 9"),
    "battle": ("ada_battle", "notes = 'bob was here'"),
    "leader": ("ada_leader", "xp = 9"),
    "attached_unit": ("ada_attached", "notes = 'bob was here'"),
    "equipment": ("ada_equipment", "notes = 'bob was here'"),
    "xp_change": ("ada_xp", "reason = 'bob was here'"),
    "attribute_change": ("ada_attr", "reason = 'bob was here'"),
    "roll": ("ada_roll", "outcome = 'bob was here'"),
}


@pytest.fixture(scope="module")
def club(club_pg: ClubServer) -> dict[str, Any]:  # - the fixture imported above
    return make_club(club_pg, DB)


@contextmanager
def login(server: ClubServer, who: str) -> Iterator[Any]:
    """A connection as ``who``, in one transaction that is always rolled back (the club stays as made), with an
    operation of ``who``'s open as the app (or a careful ``psql`` user) opens one before writing."""
    con = server.connect(DB, who, autocommit=False)
    open_operation(con, who)  # the transaction is open: each transaction() block below is a savepoint in it
    try:
        yield con
    finally:
        con.rollback()
        con.close()


def rows(con: Any, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    return list(con.execute(sql, params).fetchall())


def changed(con: Any, sql: str, params: tuple[Any, ...] = ()) -> int:
    with con.transaction():  # a savepoint: a refusal does not end the test's transaction
        return int(con.execute(sql, params).rowcount)


def refused(con: Any, sql: str, params: tuple[Any, ...] = ()) -> str:
    import psycopg

    with pytest.raises(psycopg.errors.InsufficientPrivilege) as caught, con.transaction():
        con.execute(sql, params)
    return str(caught.value)


def as_owner(server: ClubServer, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with owner_writes(server, DB) as con:
        return rows(con, sql, params)


# ------------------------------------------------------------------------------------------------ seeing


def test_a_player_sees_only_the_campaigns_they_belong_to(club_pg: ClubServer, club: dict[str, Any]) -> None:
    with login(club_pg, "bob") as bob:
        assert rows(bob, "SELECT name FROM campaign ORDER BY name") == [("Congo 1960",)]
        assert rows(bob, "SELECT count(*) FROM campaign WHERE id = %s", (club["secret"],)) == [(0,)]
        assert rows(bob, "SELECT count(*) FROM sologear_sheet") == [(0,)]  # the sheet of Secret War
        assert rows(bob, "SELECT DISTINCT campaign_id FROM campaign_member") == [(club["congo"],)]
        # the whole of Congo 1960 is there to look at, ada's platoon and what is under it included
        assert rows(bob, "SELECT name, owner FROM platoon ORDER BY name") == [
            ("2nd Platoon", "ada"),
            ("Red Devils", "bob"),
        ]
        for table in UNDER_PLATOON:
            assert rows(bob, f"SELECT count(*) FROM {table}") == [(2,)], table
    with login(club_pg, ORGANISER) as olga:
        assert rows(olga, "SELECT name FROM campaign ORDER BY name") == [("Congo 1960",), ("Secret War",)]


def test_the_journal_of_other_campaigns_is_hidden(club_pg: ClubServer, club: dict[str, Any]) -> None:
    with club_pg.connect(DB, ORGANISER, autocommit=False) as olga:
        op = open_operation(olga, ORGANISER, "sheet.edit")
        olga.execute("UPDATE sologear_sheet SET notes = 'secret work' WHERE id = %s", (club["secret_sheet"],))
        op = close_operation(olga, op)
        olga.commit()
    try:
        with login(club_pg, "bob") as bob:
            assert rows(bob, "SELECT count(*) FROM operation WHERE id = %s", (op,)) == [(0,)]
            assert rows(bob, "SELECT count(*) FROM operation_change WHERE operation_id = %s", (op,)) == [(0,)]
        with login(club_pg, ORGANISER) as olga:  # the control: its organiser sees it, and what it changed
            assert rows(olga, "SELECT table_name FROM operation_change WHERE operation_id = %s", (op,)) == [
                ("sologear_sheet",)
            ]
    finally:
        as_owner(club_pg, "DELETE FROM operation WHERE id = %s RETURNING id", (op,))


# ------------------------------------------------------------------------------------------------ changing


def test_a_player_taken_out_of_the_campaign_no_longer_changes_their_platoon(
    club_pg: ClubServer,
    club: dict[str, Any],
) -> None:
    as_owner(club_pg, "DELETE FROM campaign_member WHERE login = 'bob' RETURNING id")
    try:
        with login(club_pg, "bob") as bob:
            assert rows(bob, "SELECT name FROM platoon") == [("Red Devils",)]  # still his to look at
            assert changed(bob, "UPDATE platoon SET xp = 9 WHERE id = %s", (club["bob_platoon"],)) == 0
            assert changed(bob, "DELETE FROM platoon WHERE id = %s", (club["bob_platoon"],)) == 0
            assert changed(bob, "UPDATE battle SET notes = 'x' WHERE id = %s", (club["bob_battle"],)) == 0
    finally:
        as_owner(
            club_pg,
            "INSERT INTO campaign_member (campaign_id, login, role) VALUES (%s, 'bob', 'player') RETURNING id",
            (club["congo"],),
        )


@pytest.mark.parametrize("table", list(UNDER_PLATOON))
def test_another_players_rows_cannot_be_updated_or_deleted(
    club_pg: ClubServer,
    club: dict[str, Any],
    table: str,
) -> None:
    key, assignment = UNDER_PLATOON[table]
    before = as_owner(club_pg, f"SELECT * FROM {table} WHERE id = %s", (club[key],))
    with login(club_pg, "bob") as bob:
        assert changed(bob, f"UPDATE {table} SET {assignment} WHERE id = %s", (club[key],)) == 0
        assert changed(bob, f"DELETE FROM {table} WHERE id = %s", (club[key],)) == 0
        # the control: the same statements on bob's own row do change it
        own = club[key.replace("ada_", "bob_")]
        assert changed(bob, f"UPDATE {table} SET {assignment} WHERE id = %s", (own,)) == 1
        assert changed(bob, f"DELETE FROM {table} WHERE id = %s", (own,)) == 1
        bob.rollback()
    assert as_owner(club_pg, f"SELECT * FROM {table} WHERE id = %s", (club[key],)) == before
    with login(club_pg, ORGANISER) as olga:  # an organiser changes anything in the campaign
        assert changed(olga, f"UPDATE {table} SET {assignment} WHERE id = %s", (club[key],)) == 1


INSERTS = {
    "battle": "INSERT INTO battle (platoon_id, number, date, scenario, opponent, objectives, fire_support, notes, "
    "wounds, leader_wounds, platoon_xp_before, platoon_xp_after, xp_lost, created_at) VALUES "
    "(%s, 7, current_date, '', '', 0, false, '', 0, 0, 0, 3, 0, now())",
    "leader": "INSERT INTO leader (platoon_id, name, rank, xp, xp_at_join, status, joined_at, notes) VALUES "
    "(%s, 'Sgt. Intruder', 'Sergeant', 0, 0, 'casualty', now(), '')",
    "attached_unit": "INSERT INTO attached_unit (platoon_id, name, name_key, kind, support, notes, position) "
    "VALUES (%s, 'Mortars', 'mortars', 'fire_support', 'light', '', 1)",
    "equipment": "INSERT INTO equipment (platoon_id, name, targets, notes, position) VALUES (%s, 'RPG', 'point', "
    "'', 1)",
    "xp_change": "INSERT INTO xp_change (platoon_id, who, delta, xp_after, reason, created_at) VALUES "
    "(%s, 'platoon', -3, 0, 'sabotage', now())",
    "attribute_change": "INSERT INTO attribute_change (platoon_id, field, reason, created_at) VALUES "
    "(%s, 'morale', 'sabotage', now())",
    "roll": "INSERT INTO roll (platoon_id, seq, purpose, expression, faces, modifier, total, source, rule, "
    "outcome, created_at) VALUES (%s, 1, 'recovery', '1d6', '[1]', 0, 1, 'entered', '', '', now())",
}


@pytest.mark.parametrize("table", list(INSERTS))
def test_nothing_can_be_added_under_another_players_platoon(
    club_pg: ClubServer,
    club: dict[str, Any],
    table: str,
) -> None:
    with login(club_pg, "bob") as bob:
        message = refused(bob, INSERTS[table], (club["ada_platoon"],))
        assert "row-level security" in message and f'"{table}"' in message
        assert changed(bob, INSERTS[table], (club["bob_platoon"],)) == 1  # the control: under his own


def test_equipment_of_another_players_attached_unit_cannot_be_added(
    club_pg: ClubServer,
    club: dict[str, Any],
) -> None:
    sql = "INSERT INTO equipment (attached_id, name, targets, notes, position) VALUES (%s, 'AT gun', 'point', '', 1)"
    with login(club_pg, "bob") as bob:
        refused(bob, sql, (club["ada_attached"],))
        assert changed(bob, sql, (club["bob_attached"],)) == 1


def test_a_row_cannot_be_moved_under_another_players_platoon(club_pg: ClubServer, club: dict[str, Any]) -> None:
    with login(club_pg, "bob") as bob:
        refused(
            bob,
            "UPDATE battle SET platoon_id = %s, number = 9 WHERE id = %s",
            (club["ada_platoon"], club["bob_battle"]),
        )
        refused(bob, "UPDATE platoon SET owner = 'ada' WHERE id = %s", (club["bob_platoon"],))  # nor given away


def test_ownership_changes_only_by_an_organiser(club_pg: ClubServer, club: dict[str, Any]) -> None:
    with login(club_pg, "bob") as bob:  # taking ada's platoon: not even seen as changeable
        assert changed(bob, "UPDATE platoon SET owner = 'bob' WHERE id = %s", (club["ada_platoon"],)) == 0
    with login(club_pg, "ada") as ada:  # giving it away: refused
        refused(ada, "UPDATE platoon SET owner = 'bob' WHERE id = %s", (club["ada_platoon"],))
        assert changed(ada, "UPDATE platoon SET notes = 'mine' WHERE id = %s", (club["ada_platoon"],)) == 1
    with login(club_pg, ORGANISER) as olga:
        assert changed(olga, "UPDATE platoon SET owner = 'bob' WHERE id = %s", (club["ada_platoon"],)) == 1
    assert as_owner(club_pg, "SELECT owner FROM platoon WHERE id = %s", (club["ada_platoon"],)) == [("ada",)]


PLATOON = (
    "INSERT INTO platoon (campaign_id, name, name_key, training, equipment, morale, armor, xp, notes, "
    "created_at, owner) VALUES (%s, %s, %s, 8, 8, 8, 2, 0, '', now(), %s)"
)


def test_a_player_creates_platoons_only_as_their_own_and_only_in_their_campaigns(
    club_pg: ClubServer,
    club: dict[str, Any],
) -> None:
    with login(club_pg, "bob") as bob:
        refused(bob, PLATOON, (club["congo"], "Ana's 2nd", "ada's 2nd", "ada"))
        refused(bob, PLATOON, (club["secret"], "Gatecrashers", "gatecrashers", "bob"))
        assert changed(bob, PLATOON, (club["congo"], "Blue Devils", "blue devils", "bob")) == 1


def test_only_organisers_create_campaigns_and_the_creator_enrols_first(
    club_pg: ClubServer,
    club: dict[str, Any],
) -> None:
    sql = (
        "INSERT INTO campaign (name, name_key, system, threshold_green, threshold_regular, threshold_veteran, "
        "threshold_legendary, objective_xp_to, replacement_dice, archived, notes, created_at, created_by) VALUES "
        "(%s, %s, 'atomic_africa', 1, 4, 9, 16, 'both', 2, false, '', now(), %s) RETURNING id"
    )
    with login(club_pg, "bob") as bob:
        refused(bob, sql, ("Bob's War", "bob's war", "bob"))
    with login(club_pg, ORGANISER) as olga:
        refused(olga, sql, ("Framed", "framed", "ada"))  # created by someone else: no
        new = rows(olga, sql, ("Olga's War", "olga's war", ORGANISER))[0][0]
        assert (
            changed(
                olga,
                "INSERT INTO campaign_member (campaign_id, login, role) VALUES (%s, %s, 'organiser')",
                (new, ORGANISER),
            )
            == 1
        )
        assert (
            changed(olga, "INSERT INTO campaign_member (campaign_id, login, role) VALUES (%s, 'bob', 'player')", (new,))
            == 1
        )


def test_membership_is_the_organisers_business(club_pg: ClubServer, club: dict[str, Any]) -> None:
    with login(club_pg, "bob") as bob:
        refused(
            bob,
            "INSERT INTO campaign_member (campaign_id, login, role) VALUES (%s, 'bob', 'organiser')",
            (club["secret"],),
        )
        assert changed(bob, "UPDATE campaign_member SET role = 'organiser' WHERE login = 'bob'") == 0
        assert changed(bob, "DELETE FROM campaign_member WHERE login = %s", (ORGANISER,)) == 0
        assert changed(bob, "UPDATE campaign SET notes = 'bob rules' WHERE id = %s", (club["congo"],)) == 0
        assert changed(bob, "DELETE FROM campaign WHERE id = %s", (club["congo"],)) == 0
    with login(club_pg, ORGANISER) as olga:
        assert changed(olga, "UPDATE campaign_member SET role = 'organiser' WHERE login = 'bob'") == 1
        assert changed(olga, "UPDATE campaign SET notes = 'olga rules' WHERE id = %s", (club["congo"],)) == 1


def test_a_players_writes_are_always_journaled(club_pg: ClubServer, club: dict[str, Any]) -> None:
    """The journal's off switch (for the owner's migrations) does not let a player write unrecorded."""
    with login(club_pg, "bob") as bob:
        bob.execute("SELECT set_config('campaign_app.journal_mode', 'off', true)")
        assert changed(bob, "UPDATE platoon SET xp = 9 WHERE id = %s", (club["bob_platoon"],)) == 0
        refused(bob, INSERTS["battle"], (club["bob_platoon"],))
        bob.execute("SELECT set_config('campaign_app.journal_mode', 'record', true)")
        assert changed(bob, "UPDATE platoon SET xp = 9 WHERE id = %s", (club["bob_platoon"],)) == 1  # the control


def test_a_player_cannot_touch_the_schema_or_the_policies(club_pg: ClubServer, club: dict[str, Any]) -> None:
    with login(club_pg, "bob") as bob:
        for sql in (
            "ALTER TABLE platoon DISABLE ROW LEVEL SECURITY",
            "DROP POLICY club_update ON platoon",
            "INSERT INTO schema_migration (number, name, applied_at, app_version) VALUES (99, 'x', now(), 'x')",
            "CREATE TABLE mine (id integer)",
            # a temporary table cannot stand in for the club's membership (the check functions' own
            # search_path has pg_temp last, and players may not make temporary tables at all)
            "CREATE TEMPORARY TABLE campaign_member (campaign_id integer, login text, role text)",
        ):
            import psycopg

            with pytest.raises(psycopg.errors.InsufficientPrivilege), bob.transaction():
                bob.execute(sql)


def test_a_login_outside_the_club_cannot_connect(club_pg: ClubServer, club: dict[str, Any]) -> None:
    import psycopg
    from clubpg import ensure_role

    ensure_role(club_pg, "eve")
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        club_pg.connect(DB, "eve")
    club_pg.connect(DB, "bob").close()  # the control: a player can
