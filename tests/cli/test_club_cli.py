"""The club commands (issue 15) on a file database: each says in one line that it needs a club server (exit 2)
and opens nothing (no database file is created)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from campaign_app.paths import AppPaths
from campaign_app.store import database as store_database

FILE_REFUSALS = [
    (("server", "init"), "server init"),
    (("server", "add-player", "ana", "--organiser"), "server add-player"),
    (("server", "players", "--json"), "server players"),
    (("campaign", "add-player", "--campaign", "Congo 1960", "--player", "ana"), "campaign add-player"),
    (("campaign", "remove-player", "--campaign", "Congo 1960", "--player", "ana"), "campaign remove-player"),
    (("campaign", "players", "--campaign", "Congo 1960"), "campaign players"),
    (("platoon", "set-owner", "2nd Platoon", "--owner", "ana"), "platoon set-owner"),
    (("sologear", "set-owner", "--campaign", "Iron Rain", "--owner", "ana"), "sologear set-owner"),
]


@pytest.mark.parametrize(("argv", "command"), FILE_REFUSALS, ids=[c for _a, c in FILE_REFUSALS])
def test_club_commands_need_a_club_server(cli: Callable[..., str], app_paths: AppPaths, argv: tuple[str, ...],
                                          command: str) -> None:
    err = cli(*argv, rc=2)
    assert f"'{command}' needs a club server: give --db postgresql://USER@HOST/DBNAME" in err
    assert not app_paths.db_file.exists()  # nothing opened, nothing created


@pytest.mark.skipif(not hasattr(store_database, "is_server_url"), reason="--db takes a URL once the engine lands")
def test_a_bad_login_is_refused_before_anything_is_opened(cli: Callable[..., str], app_paths: AppPaths) -> None:
    err = cli("--db", "postgresql://owner@localhost/club", "server", "add-player", "Ana Smith", rc=2)
    assert "'Ana Smith' is not a usable login: use lower-case letters" in err
