"""``journal compact`` and ``campaign delete --forget`` on a club server, from the command line: the organiser
folds her campaign's journal by its own budget and erases a campaign she deletes; a player is refused in one line
(exit 2) and nothing changes."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from clubpg import ClubServer, club_pg, ensure_role  # noqa: F401 - club_pg is a fixture


@pytest.fixture
def db_engine() -> str:
    """These tests name their database themselves (a club database on the test server): one run."""
    return "sqlite"


def test_compact_and_forget_on_a_club_server(club_pg: ClubServer, cli: Callable[..., str]) -> None:
    admin = club_pg.create_database("club_cli_budget")
    for login in ("ada", "olga"):
        ensure_role(club_pg, login)
    cli("--db", admin, "server", "init")
    cli("--db", admin, "server", "add-player", "olga", "--organiser")
    cli("--db", admin, "server", "add-player", "ada")
    olga, ada = club_pg.url("club_cli_budget", user="olga"), club_pg.url("club_cli_budget", user="ada")
    cli("--db", olga, "campaign", "new", "--name", "Congo 1960")
    cli("--db", olga, "campaign", "add-player", "--campaign", "Congo 1960", "--player", "ada")
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
    for seed in (1, 2, 3):
        cli(
            "--db",
            ada,
            "battle",
            "log",
            "--platoon",
            "2nd Platoon",
            "--wounds",
            "1",
            "--leader-wounds",
            "0",
            "--seed",
            str(seed),
        )
    before = cli("--db", ada, "journal", "--json")

    err = cli("--db", ada, "journal", "compact", "--campaign", "Congo 1960", "--keep", "1", rc=2)
    assert err.strip() == (
        "campaign-cli: error: only an organiser of a campaign may compact its journal or set its "
        f"budget (campaign {json.loads(before)[0]['campaign_id']})"
    )
    err = cli("--db", ada, "journal", "compact", rc=2)
    assert "you organise no campaign on this server" in err
    assert cli("--db", ada, "journal", "--json") == before  # nothing folded

    out = cli("--db", olga, "journal", "compact", "--campaign", "Congo 1960", "--keep", "2", "--days", "0")
    assert out.startswith("Congo 1960: folded ") and "the newest 2 operations stay undoable" in out
    again = json.loads(cli("--db", olga, "journal", "compact", "--json"))  # her campaigns, by their budgets
    assert again["folded"] == 0 and again["campaigns"] == [
        {"campaign": "Congo 1960", "folded": 0, "records": 0, "keep": 2, "days": 0}
    ]
    listed = json.loads(cli("--db", ada, "journal", "--json"))
    assert [op["folded"] for op in listed[:2]] == [False, False] and all(op["folded"] for op in listed[2:])

    err = cli("--db", ada, "campaign", "delete", "Congo 1960", "--forget", rc=2)
    assert "Congo 1960" in err
    out = cli("--db", olga, "campaign", "delete", "Congo 1960", "--forget")
    assert "removed it from the journal" in out and "backup" not in out
    listed = json.loads(cli("--db", olga, "journal", "--json"))
    assert not any("2nd Platoon" in op["label"] or "Congo" in op["label"] for op in listed)
