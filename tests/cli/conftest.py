"""The ``cli`` fixture shared by the CLI tests: run ``campaign-cli`` in the test's data folder, once on each
engine: the data folder's file, and (``--db postgresql://...``) a fresh database on the test server."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from campaign_app.cli import main
from campaign_app.paths import AppPaths
from tests.pg_server import both_engines_only_where_aware


@pytest.fixture(params=["sqlite", "postgresql"])
def db_engine(request: pytest.FixtureRequest) -> str:
    """Both engines for the tests that pass the database on (``cli``, ``cli_result``, ``db_args``,
    ``db_target``); the others open the data folder's file and run once."""
    return str(request.param)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    both_engines_only_where_aware(
        config, items, Path(__file__).parent, frozenset({"cli", "cli_result", "db_args", "db_target"})
    )


@pytest.fixture
def db_args(db_engine: str, request: pytest.FixtureRequest) -> list[str]:
    """The ``--db URL`` a command needs on the server engine (nothing on the file engine)."""
    if db_engine == "sqlite":
        return []
    return ["--db", str(request.getfixturevalue("db_target"))]


@pytest.fixture
def cli(app_paths: AppPaths, capsys: pytest.CaptureFixture[str], db_args: list[str]) -> Callable[..., str]:
    """``cli(*argv, rc=0)`` runs a command and returns its stdout; with ``rc=2`` it checks the error contract
    (nothing on stdout, one line on stderr) and returns stderr."""

    def run(*argv: str, rc: int = 0) -> str:
        capsys.readouterr()
        code = main([*argv, "--data-dir", str(app_paths.data_dir), *db_args])
        out, err = capsys.readouterr()
        assert code == rc, (out, err)
        if rc == 2:
            assert out == "" and len(err.strip().splitlines()) == 1, err
            return err
        return out

    return run


@pytest.fixture
def cli_result(
    app_paths: AppPaths, capsys: pytest.CaptureFixture[str], db_args: list[str]
) -> Callable[..., tuple[int, str, str]]:
    """``cli_result(*argv)`` runs a command and returns ``(exit status, stdout, stderr)`` unchecked."""

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(["--data-dir", str(app_paths.data_dir), *db_args, *argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run
