"""``server init`` and ``server add-player`` (store.club_server) on a throwaway PostgreSQL server:
every table gets row-level security and the club's policies, again and again without harm; logins are made
players or organisers, with their password stored hashed; and each refusal is one line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from clubpg import ORGANISER, OWNER, ClubServer, bind, build_schema, club_pg, make_club, unbind  # noqa: F401

from campaign_app.store import club_server
from campaign_app.store.club_server import ServerSetupError
from campaign_app.store.models import JOURNAL_MODELS, MODELS

DB = "club_setup"


@pytest.fixture(scope="module")
def club(club_pg: ClubServer) -> dict[str, Any]:
    return make_club(club_pg, DB)


@pytest.fixture
def as_login(club_pg: ClubServer, club: dict[str, Any]) -> Iterator[Any]:
    yield lambda who, dbname=DB: bind(club_pg, dbname, who)
    unbind()


def _security(server: ClubServer) -> dict[str, tuple[bool, list[str]]]:
    with server.connect(DB) as su:
        tables = su.execute(
            "SELECT c.relname, c.relrowsecurity FROM pg_class c JOIN pg_namespace n ON "
            "n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'"
        ).fetchall()
        policies = su.execute("SELECT tablename, policyname FROM pg_policies ORDER BY policyname").fetchall()
    return {t: (bool(on), [p for pt, p in policies if pt == t]) for t, on in tables}


def test_every_table_has_row_level_security_and_the_clubs_policies(
    club_pg: ClubServer,
    club: dict[str, Any],
) -> None:
    security = _security(club_pg)
    private = set(club_server.PRIVATE_TABLES)  # the server journal's bookkeeping: the owner's alone
    assert set(security) == {m._meta.table_name for m in (*MODELS, *JOURNAL_MODELS)} | private
    for table, (enabled, policies) in security.items():
        assert enabled, table
        assert ("club_select" in policies) is (table not in private), table
    assert security["platoon"][1] == ["club_delete", "club_insert", "club_select", "club_update"]
    assert security["operation"][1] == ["club_select"]  # the server writes the journal: players only read it
    assert security["operation_change"][1] == ["club_select"]
    assert security["schema_migration"][1] == ["club_select"]  # only the owner migrates


def test_init_again_changes_nothing(club_pg: ClubServer, as_login: Any, club: dict[str, Any]) -> None:
    before = _security(club_pg)
    as_login(OWNER)
    report = club_server.init_server()
    assert report.created_groups == [] and report.without_rules == []
    assert report.policies == sum(len(p) for _on, p in before.values())
    assert _security(club_pg) == before
    assert "club server ready: database club_setup, owned by clubadmin" in report.text()


def test_init_is_for_the_owner(as_login: Any) -> None:
    as_login(ORGANISER)
    with pytest.raises(
        ServerSetupError,
        match=r"^server init must be run by the owner of the database's tables "
        r"\(clubadmin\); you are connected as olga$",
    ):
        club_server.init_server()


def test_add_player_makes_a_login_with_a_hashed_password(club_pg: ClubServer, as_login: Any) -> None:
    as_login(OWNER)
    made = club_server.add_player("carla", password="s3cret pass")
    assert made == {"login": "carla", "created": True, "organiser": False, "password_set": True, "connections": 8}
    again = club_server.add_player("carla", organiser=True, connections=3)  # made an organiser, password kept
    assert again == {"login": "carla", "created": False, "organiser": True, "password_set": False, "connections": 3}
    with club_pg.connect() as su:
        (stored,) = su.execute("SELECT rolpassword FROM pg_authid WHERE rolname = 'carla'").fetchone()
    assert stored.startswith("SCRAM-SHA-256$") and "s3cret" not in stored
    found = {p.login: p for p in club_server.players()}
    assert found["carla"].organiser and found["carla"].can_log_in and found["carla"].campaigns == ()
    assert not found["ada"].organiser and found["ada"].campaigns == (("Congo 1960", "player"),)
    assert found[ORGANISER].campaigns == (("Congo 1960", "organiser"), ("Secret War", "organiser"))
    assert OWNER not in found  # the owner is the club's administrator, not a player


@pytest.mark.parametrize("login", ["Ana", "ada smith", "", "pg_ana", "1ana", "a" * 64])
def test_a_login_postgresql_would_not_keep_as_typed_is_refused(as_login: Any, login: str) -> None:
    as_login(OWNER)
    with pytest.raises(ServerSetupError, match="is not a usable login"):
        club_server.add_player(login)


def test_a_group_is_not_a_player(as_login: Any) -> None:
    as_login(OWNER)
    with pytest.raises(ServerSetupError, match="one of the club's group roles"):
        club_server.add_player("club_setup_players")


def test_a_player_cannot_make_logins(as_login: Any) -> None:
    as_login("ada")
    for login in ("dave", "bob"):  # a new login, or one the server has already
        with pytest.raises(
            ServerSetupError,
            match=f"^cannot add {login}: ada may not manage the club's logins "
            r"\(that takes CREATEROLE",
        ):
            club_server.add_player(login)


def test_add_player_before_init_says_to_init_first(club_pg: ClubServer, as_login: Any) -> None:
    build_schema(club_pg, "bare")
    as_login(OWNER, "bare")
    with pytest.raises(
        ServerSetupError,
        match="not set up as a club server yet: run 'campaign-cli --db URL server init' as its owner first",
    ):
        club_server.add_player("dave")


def test_check_reports_the_rules_a_restore_lost_and_init_puts_them_back(
    club_pg: ClubServer,
    as_login: Any,
    club: dict[str, Any],
) -> None:
    """What ``pg_restore`` without ``--create`` loses (the database's own revoke and settings), and a policy
    dropped by hand, are reported by ``check`` on the server, each with what to run; ``server init`` mends them."""
    from campaign_app.store.check import check_database

    database = as_login(OWNER)
    assert check_database(database).problems == []  # the control: a club set up as documented is fine
    with club_pg.connect(DB) as su:
        su.execute(f'GRANT CONNECT ON DATABASE "{DB}" TO PUBLIC')
        su.execute(f'ALTER DATABASE "{DB}" RESET idle_in_transaction_session_timeout')
    with club_pg.connect(DB, OWNER) as owner:
        owner.execute("DROP POLICY club_select ON battle")
    problems = check_database(as_login(OWNER)).problems
    assert any(p.startswith("every login of the server may connect to this database") for p in problems)
    assert any("does not end transactions left idle" in p for p in problems)
    assert any(p.startswith("the club's rules for the table battle are missing") for p in problems)
    assert all(p.endswith("run 'campaign-cli --db URL server init' as the tables' owner") for p in problems)
    club_server.init_server()
    assert check_database(as_login(OWNER)).problems == []
