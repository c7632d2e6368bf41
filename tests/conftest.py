"""Shared fixtures: every test runs offscreen on a fresh database in its own temporary folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")

from campaign_app.paths import AppPaths  # noqa: E402
from campaign_app.store import close_db, init_db  # noqa: E402


@pytest.fixture
def app_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppPaths:
    data = tmp_path / "data"
    monkeypatch.setenv("CAMPAIGN_APP_DATA_DIR", str(data))
    return AppPaths(data_dir=data, db_file=data / "campaign.db").ensure()


@pytest.fixture(autouse=True)
def fresh_db(app_paths: AppPaths) -> Iterator[object]:
    """A fresh, migrated database bound to the models for each test."""
    database = init_db(app_paths.db_file, app_paths.backup_dir)
    yield database
    close_db()


@pytest.fixture
def gui_ctx(app_paths: AppPaths, qapp):  # type: ignore[no-untyped-def]
    """An AppContext for GUI tests: settings in the test's folder, a fresh undo stack."""
    from PySide6.QtCore import QSettings

    from campaign_app.gui.context import AppContext

    settings = QSettings(str(app_paths.data_dir / "window.ini"), QSettings.Format.IniFormat)
    ctx = AppContext(paths=app_paths, settings=settings)
    yield ctx
    ctx.undo_stack.clear()  # the view only (the journal is in the database)


_exit_status: list[int] = []


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _exit_status.append(int(exitstatus))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Leave without the interpreter's teardown of Qt objects: PySide6 can crash while Python frees its
    wrappers at exit (seen as "none_dealloc"/"bool_dealloc" after all results were reported). The run's
    outcome is final here, so exit with pytest's own status."""
    if _exit_status and os.environ.get("CAMPAIGN_APP_TEST_HARD_EXIT", "1") == "1":
        import sys

        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_exit_status[-1])
