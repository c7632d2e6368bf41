"""The ``cli`` fixture shared by the CLI tests: run ``campaign-cli`` in the test's data folder."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from campaign_app.cli import main
from campaign_app.paths import AppPaths


@pytest.fixture
def cli(app_paths: AppPaths, capsys: pytest.CaptureFixture[str]) -> Callable[..., str]:
    """``cli(*argv, rc=0)`` runs a command and returns its stdout; with ``rc=2`` it checks the error contract
    (nothing on stdout, one line on stderr) and returns stderr."""

    def run(*argv: str, rc: int = 0) -> str:
        capsys.readouterr()
        code = main([*argv, "--data-dir", str(app_paths.data_dir)])
        out, err = capsys.readouterr()
        assert code == rc, (out, err)
        if rc == 2:
            assert out == "" and len(err.strip().splitlines()) == 1, err
            return err
        return out

    return run


@pytest.fixture
def cli_result(app_paths: AppPaths, capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``cli_result(*argv)`` runs a command and returns ``(exit status, stdout, stderr)`` unchecked."""

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(["--data-dir", str(app_paths.data_dir), *argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run
