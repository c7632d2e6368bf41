"""Shared fixtures: every test runs offscreen in its own temporary folder.

A test that uses the database asks for it: the ``fresh_db`` fixture (directly, through ``gui_ctx``, or with
``pytestmark = pytest.mark.usefixtures("fresh_db")`` for a whole module; every test under tests/services has
it). Rules, printing and widget tests get none and pay nothing for it. A test that did not ask has no
database bound at all, so touching one fails at once ("Cannot use uninitialized Proxy") instead of quietly
using the previous test's file.

``fresh_db`` is a copy of a database migrated once per run (copying is ~15 times cheaper than running the
migrations); the migrations themselves are tested in tests/store on new and stored files.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# offscreen by default; CI runs the keyboard, focus and layout tests a second time on a real X server with
# CAMPAIGN_APP_TEST_PLATFORM=xcb (and DISPLAY set): a GUI test that passes only offscreen is a bug in the test
os.environ["QT_QPA_PLATFORM"] = os.environ.get("CAMPAIGN_APP_TEST_PLATFORM") or "offscreen"
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")
os.environ["CAMPAIGN_APP_JOURNAL_DAYS"] = "0"
"""The journal's budget folds operations older than 90 days when a file is opened; the stored test
files (tests/store/data) must not age into it. The tests of the budget set it themselves."""

from campaign_app.paths import AppPaths  # noqa: E402
from campaign_app.store import close_db, init_db  # noqa: E402
from campaign_app.store.models import database_proxy  # noqa: E402
from tests.pg_server import SKIP_REASON, PgServer, find_bin_dir  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _collect_in_the_main_thread() -> Iterator[None]:
    """As in the app (``gui/collector.py``): no automatic collection, which could start in a window's database
    thread and free Qt widgets there; the main thread collects after each test instead."""
    import gc

    gc.disable()
    yield
    gc.enable()


@pytest.fixture(autouse=True)
def _collect_after_each_test(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    import gc

    qt = {"qapp", "qtbot"} & set(request.fixturenames)  # a window's garbage is freed before the next test
    gc.collect(2 if qt else 1)


@pytest.fixture
def app_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppPaths:
    data = tmp_path / "data"
    monkeypatch.setenv("CAMPAIGN_APP_DATA_DIR", str(data))
    return AppPaths(data_dir=data, db_file=data / "campaign.db").ensure()


@pytest.fixture(autouse=True)
def _no_database_unless_asked() -> Iterator[None]:
    """No database is bound before a test (``fresh_db``, or the code under test, opens one); whatever the
    test opened is closed and unbound after it."""
    database_proxy.initialize(None)
    yield
    close_db()
    database_proxy.initialize(None)


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file built by every migration, once per test run (never opened by a test)."""
    folder = tmp_path_factory.mktemp("migrated-template")
    init_db(folder / "campaign.db", folder / "backups", daily_backup=False)
    close_db()
    database_proxy.initialize(None)
    assert not (folder / "campaign.db-wal").exists()  # closed cleanly: the one file holds everything
    return folder / "campaign.db"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A throwaway PostgreSQL server for the whole run (tests/pg_server.py). Where no PostgreSQL binaries exist
    the tests that need it skip, saying so; under CI (``CI`` set) they fail instead: CI must run them."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        if os.environ.get("CI"):
            pytest.fail(f"{SKIP_REASON} (CI must run them: install the postgresql package)")
        pytest.skip(SKIP_REASON)
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install '.[test]')")
    # not under pytest's temporary folder: that is private to this user, and the server may run as 'postgres'
    root = Path(tempfile.mkdtemp(prefix="campaign-app-pg-"))
    server = PgServer(root, bin_dir).start()
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_template(pg_server: PgServer) -> str:
    """A migrated campaign database on the test server, once per run; tests copy it (CREATE DATABASE ...
    TEMPLATE), never open it."""
    name = pg_server.new_database_name("template")
    url = pg_server.create_database(name)
    init_db(url)
    close_db()
    database_proxy.initialize(None)
    return name


@pytest.fixture
def db_engine() -> str:
    """Which engine ``fresh_db`` uses: the file (SQLite) here; tests/services and tests/cli run on both."""
    return "sqlite"


@pytest.fixture
def db_target(db_engine: str, app_paths: AppPaths, request: pytest.FixtureRequest) -> Iterator[str]:
    """Where the test's database is: the data folder's file, or a fresh database on the test server (a copy
    of the migrated template, dropped after the test)."""
    if db_engine == "sqlite":
        yield str(app_paths.db_file)
        return
    server: PgServer = request.getfixturevalue("pg_server")
    template: str = request.getfixturevalue("pg_template")
    name = server.new_database_name()
    url = server.create_database(name, template=template)
    yield url
    close_db()
    database_proxy.initialize(None)
    server.drop_database(name)


@pytest.fixture
def fresh_db(app_paths: AppPaths, db_engine: str, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh, migrated database bound to the models: on the file engine a copy of a migrated file in the
    test's data folder (as the app opens a new file: no backup made), on PostgreSQL a copy of the migrated
    template database on the test server."""
    target: str = request.getfixturevalue("db_target")
    if db_engine == "sqlite":
        shutil.copyfile(request.getfixturevalue("migrated_template"), app_paths.db_file)
    database = init_db(target, app_paths.backup_dir, daily_backup=False)
    yield database
    close_db()


@pytest.fixture
def gui_ctx(app_paths: AppPaths, fresh_db: object, qapp):  # type: ignore[no-untyped-def]
    """An AppContext for GUI tests: settings in the test's folder, a fresh undo stack."""
    from PySide6.QtCore import QSettings

    from campaign_app.gui.context import AppContext

    settings = QSettings(str(app_paths.data_dir / "window.ini"), QSettings.Format.IniFormat)
    ctx = AppContext(paths=app_paths, settings=settings)
    yield ctx
    ctx.undo_stack.clear()  # the view only (the journal is in the database)


@pytest.fixture
def congo_platoon(fresh_db: object) -> Callable[..., int]:
    """``congo_platoon(leader_xp=2, rival=False)`` writes the tests' usual platoon in one operation: campaign
    "Congo 1960" with "2nd Platoon" (d10/d10/d8, Armor 2, 6 XP) led by Lt. Okafor; ``rival`` adds "Red
    Company" (d8, Armor 2, 3 XP). Returns the 2nd Platoon's id."""
    from campaign_app.store.journal import operation
    from campaign_app.store.models import Campaign, Leader, Platoon

    def make(leader_xp: int = 2, rival: bool = False) -> int:
        with operation("test.setup", "test data"):
            c = Campaign.create(name="Congo 1960", system="atomic_africa")
            p = Platoon.create(campaign=c, name="2nd Platoon", training=10, equipment=10, morale=8, armor=2, xp=6)
            if rival:
                Platoon.create(campaign=c, name="Red Company", training=8, equipment=8, morale=8, armor=2, xp=3)
            Leader.create(platoon=p, name="Lt. Okafor", xp=leader_xp, xp_at_join=leader_xp)
        return int(p.id)

    return make
