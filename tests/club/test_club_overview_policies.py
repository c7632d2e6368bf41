"""The club server's row-level security of the overview's tables (``chronicle_entry``, ``print_record``), proven with
plain SQL as the players themselves: a campaign's members see its entries and remembered printouts, each player
changes their own, its organisers any; nobody writes into a campaign they do not belong to. Each refusal has a
control beside it (the same statement works on the player's own rows)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from clubpg import ORGANISER, ClubServer, club_pg, make_club, open_operation, owner_writes  # noqa: F401

DB = "club_overview"

ENTRY = (
    "INSERT INTO chronicle_entry (campaign_id, date, title, text, created_at, owner) VALUES "
    "(%s, '2026-01-01', %s, '', now(), %s) RETURNING id"
)
PRINT = (
    "INSERT INTO print_record (campaign_id, platoon_id, kind, title, position, fingerprint, snapshot, "
    "printed_at, owner) VALUES (%s, %s, 'sheet', %s, 0, 'f', '{}', now(), %s) RETURNING id"
)


@pytest.fixture(scope="module")
def club(club_pg: ClubServer) -> dict[str, Any]:  # - the fixture imported above
    ids = make_club(club_pg, DB)
    with owner_writes(club_pg, DB) as con:
        ids["ada_entry"] = con.execute(ENTRY, (ids["congo"], "ada's entry", "ada")).fetchone()[0]
        ids["ada_print"] = con.execute(PRINT, (ids["congo"], ids["ada_platoon"], "ada's sheet", "ada")).fetchone()[0]
        ids["secret_entry"] = con.execute(ENTRY, (ids["secret"], "secret", ORGANISER)).fetchone()[0]
    return ids


@contextmanager
def login(server: ClubServer, who: str) -> Iterator[Any]:
    con = server.connect(DB, who, autocommit=False)
    open_operation(con, who)
    try:
        yield con
    finally:
        con.rollback()
        con.close()


def changed(con: Any, sql: str, params: tuple[Any, ...] = ()) -> int:
    with con.transaction():
        return int(con.execute(sql, params).rowcount)


def refused(con: Any, sql: str, params: tuple[Any, ...] = ()) -> None:
    import psycopg

    with pytest.raises(psycopg.errors.InsufficientPrivilege), con.transaction():
        con.execute(sql, params)


@pytest.mark.parametrize("table, key", [("chronicle_entry", "ada_entry"), ("print_record", "ada_print")])
def test_members_see_and_owners_change_their_own(
    club_pg: ClubServer,
    club: dict[str, Any],
    table: str,
    key: str,
) -> None:
    column = "title"
    with login(club_pg, "bob") as bob:
        assert bob.execute(f"SELECT count(*) FROM {table} WHERE id = %s", (club[key],)).fetchone() == (1,)
        assert changed(bob, f"UPDATE {table} SET {column} = 'bob was here' WHERE id = %s", (club[key],)) == 0
        assert changed(bob, f"DELETE FROM {table} WHERE id = %s", (club[key],)) == 0
    with login(club_pg, "ada") as ada:  # the control: its writer changes it
        assert changed(ada, f"UPDATE {table} SET {column} = 'mine' WHERE id = %s", (club[key],)) == 1
    with login(club_pg, ORGANISER) as olga:  # and the campaign's organiser
        assert changed(olga, f"DELETE FROM {table} WHERE id = %s", (club[key],)) == 1


def test_nobody_writes_into_a_campaign_they_do_not_belong_to(club_pg: ClubServer, club: dict[str, Any]) -> None:
    with login(club_pg, "bob") as bob:
        assert bob.execute(
            "SELECT count(*) FROM chronicle_entry WHERE id = %s", (club["secret_entry"],)
        ).fetchone() == (0,)
        refused(bob, ENTRY, (club["secret"], "sneaky", "bob"))
        refused(bob, ENTRY, (club["congo"], "in ada's name", "ada"))
        with bob.transaction():  # the control: in his own campaign, as himself
            assert bob.execute(ENTRY, (club["congo"], "Season 2", "bob")).fetchone()[0] > 0
        with bob.transaction():
            assert bob.execute(PRINT, (club["congo"], club["bob_platoon"], "my sheet", "bob")).fetchone()[0] > 0
        refused(bob, PRINT, (club["secret"], None, "sneaky", "bob"))
