"""The club commands on a file database: each says in one line that it needs a club server (exit 2)
and opens nothing (no database file is created)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from clubpg import ClubServer, club_pg, ensure_role  # noqa: F401 - club_pg is a fixture

from campaign_app.paths import AppPaths


@pytest.fixture
def db_engine() -> str:
    """These tests name their database themselves (a file, or a club database on the test server): one run."""
    return "sqlite"


FILE_REFUSALS = [
    (("server", "init"), "server init"),
    (("server", "add-player", "ada", "--organiser"), "server add-player"),
    (("server", "players", "--json"), "server players"),
    (("campaign", "add-player", "--campaign", "Congo 1960", "--player", "ada"), "campaign add-player"),
    (("campaign", "remove-player", "--campaign", "Congo 1960", "--player", "ada"), "campaign remove-player"),
    (("campaign", "players", "--campaign", "Congo 1960"), "campaign players"),
    (("platoon", "set-owner", "2nd Platoon", "--owner", "ada"), "platoon set-owner"),
    (("sologear", "set-owner", "--campaign", "Iron Rain", "--owner", "ada"), "sologear set-owner"),
]


@pytest.mark.parametrize(("argv", "command"), FILE_REFUSALS, ids=[c for _a, c in FILE_REFUSALS])
def test_club_commands_need_a_club_server(
    cli: Callable[..., str], app_paths: AppPaths, argv: tuple[str, ...], command: str
) -> None:
    err = cli(*argv, rc=2)
    assert f"'{command}' needs a club server: give --db postgresql://USER@HOST/DBNAME" in err
    assert not app_paths.db_file.exists()  # nothing opened, nothing created


def test_a_bad_login_is_refused_before_anything_is_opened(cli: Callable[..., str], app_paths: AppPaths) -> None:
    err = cli("--db", "postgresql://owner@localhost/club", "server", "add-player", "Ana Smith", rc=2)
    assert "'Ana Smith' is not a usable login: use lower-case letters" in err


# ------------------------------------------------------------------------------------------------ a server


def test_the_three_commands_of_the_readme(
    club_pg: ClubServer,
    cli: Callable[..., str],
    cli_result: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = club_pg
    admin = server.create_database("club_cli")
    for login in ("ada", "bob", "olga"):
        ensure_role(server, login)
    out = cli("--db", admin, "server", "init")
    assert "club server ready: database club_cli" in out and "row-level security on" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("olgas secret\n"))
    out = cli("--db", admin, "server", "add-player", "olga", "--organiser", "--password-stdin")
    assert (
        out.strip() == "the login already existed: olga; olga is an organiser (may create campaigns) of this "
        "club server, with at most 8 connections at once; password set"
    )
    for login in ("ada", "bob"):
        cli("--db", admin, "server", "add-player", login)
    olga = server.url("club_cli", user="olga")
    cli("--db", olga, "campaign", "new", "--name", "Congo 1960", "--period", "3")
    assert (
        cli("--db", olga, "campaign", "add-player", "--campaign", "Congo 1960", "--player", "ada").strip()
        == "ada joined Congo 1960 as a player"
    )
    cli("--db", olga, "campaign", "add-player", "--campaign", "Congo 1960", "--player", "bob")
    players = json.loads(cli("--db", admin, "server", "players", "--json"))
    assert {p["login"]: (p["organiser"], [c["campaign"] for c in p["campaigns"]]) for p in players} == {
        "ada": (False, ["Congo 1960"]),
        "bob": (False, ["Congo 1960"]),
        "olga": (True, ["Congo 1960"]),
    }

    ada = server.url("club_cli", user="ada")
    bob = server.url("club_cli", user="bob")
    cli(
        "--db",
        ada,
        "platoon",
        "new",
        "--campaign",
        "Congo 1960",
        "--name",
        "2nd Platoon",
        "--training",
        "d8",
        "--equipment",
        "d8",
        "--morale",
        "d8",
        "--armor",
        "2",
    )
    # bob may look but not change: one line, exit 2, nothing written
    shown = json.loads(cli("--db", bob, "platoon", "show", "2nd Platoon", "--json"))
    err = cli("--db", bob, "platoon", "set", "2nd Platoon", "--armor", "3", rc=2)
    assert err.strip() == "campaign-cli: error: 2nd Platoon belongs to ada; you can look but not change it"
    err = cli(
        "--db",
        bob,
        "battle",
        "log",
        "--platoon",
        "2nd Platoon",
        "--wounds",
        "1",
        "--leader-wounds",
        "0",
        "--seed",
        "3",
        rc=2,
    )
    assert "2nd Platoon belongs to ada" in err
    assert json.loads(cli("--db", bob, "platoon", "show", "2nd Platoon", "--json")) == shown
    err = cli("--db", bob, "platoon", "set-owner", "2nd Platoon", "--owner", "bob", rc=2)
    assert err.strip() == "campaign-cli: error: only an organiser of Congo 1960 can give a platoon to another player"
    err = cli("--db", bob, "server", "add-player", "eve", rc=2)
    assert "cannot add eve: bob may not manage the club's logins" in err
    assert (
        cli("--db", olga, "platoon", "set-owner", "2nd Platoon", "--owner", "bob").strip()
        == "2nd Platoon now belongs to bob (was ada)"
    )

    # a player makes a pilot's sheet in a Sologear campaign she belongs to, as in the window
    cli("--db", olga, "campaign", "new", "--name", "Iron Rain", "--system", "sologear")
    cli("--db", olga, "campaign", "add-player", "--campaign", "Iron Rain", "--player", "ada")
    err = cli("--db", ada, "sologear", "new", "--name", "Her Own", "--pilot", "Kael", "--gear-tv", "30", rc=2)
    assert "only the club's organisers can create campaigns" in err  # the control: a new campaign is not hers to make
    out = cli("--db", ada, "sologear", "new", "--campaign", "Iron Rain", "--pilot", "Kael", "--gear-tv", "30")
    assert "added the pilot sheet of Kael to the Sologear campaign 'Iron Rain'" in out
    sheets = json.loads(cli("--db", ada, "sologear", "show", "--campaign", "Iron Rain", "--json"))
    assert sheets["pilot"] == "Kael"
    err = cli("--db", bob, "sologear", "new", "--campaign", "Iron Rain", "--pilot", "Bo", "--gear-tv", "30", rc=2)
    assert "no campaign named 'Iron Rain'" in err or "already has its pilot sheet" in err


def test_an_empty_password_on_stdin_is_refused(
    club_pg: ClubServer,
    cli: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    admin = club_pg.create_database("club_cli_pw")
    cli("--db", admin, "server", "init")
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    err = cli("--db", admin, "server", "add-player", "ada", "--password-stdin", rc=2)
    assert err.strip() == ("campaign-cli: error: --password-stdin: standard input gave no password (one line is read)")
