"""The desktop app on a real PostgreSQL server, end to end: a window on a club database shows a battle
that another player's program logs within 2 s (LISTEN/NOTIFY → op_changed → the views); the server dropping the
window's connections mid-session is silent for the next read (a write cut off in its commit asks the journal),
a server that is really gone gives the server-away message and Try Again carries on;
``campaign-app --db URL`` to a server that is not there says so and quits cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from driving import in_modal
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from server_window import server_window

from campaign_app.gui.main_window import MainWindow
from campaign_app.server_target import parse_server_url
from campaign_app.services import campaigns, server_link
from campaign_app.services import platoons as platoon_service
from campaign_app.services.history_results import BattleEvent
from campaign_app.store import close_db, init_db
from tests.ids import campaign_id, platoon_id

psycopg = pytest.importorskip("psycopg")

LEFT = Qt.MouseButton.LeftButton
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def club_url(pg_server: Any, app_paths: Any) -> Any:
    """A club database of its own on the test server, built by the app, with Congo 1960 / 2nd Platoon."""
    url = pg_server.create_database(f"gui_{uuid.uuid4().hex[:10]}")
    init_db(url, app_paths.backup_dir, daily_backup=False)
    campaigns.create_campaign("Congo 1960")
    platoon_service.create_platoon(
        campaign_id("Congo 1960"),
        "2nd Platoon",
        training=10,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader_name="Lt. Okafor",
        leader_xp=0,
    )
    yield url
    close_db()


def _window(qtbot: Any, app_paths: Any, url: str) -> MainWindow:
    win = server_window(qtbot, app_paths, url)
    win.start_live()
    assert win.live is not None and win.live.connected
    return win


def _another_player(url: str, code: str) -> None:
    """Another program on the same database: a process of its own, through the services."""
    script = "import sys\nfrom campaign_app.store import init_db\ninit_db(sys.argv[1], daily_backup=False)\n" + code
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(
        [sys.executable, "-c", script, url], capture_output=True, text=True, env=env, timeout=60, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr


def test_a_battle_another_player_logs_shows_up_within_two_seconds(qtbot, app_paths, club_url) -> None:  # type: ignore[no-untyped-def]
    from campaign_app.services.navigator import find_item

    win = _window(qtbot, app_paths, club_url)
    pid = find_item("platoon", "2nd Platoon")
    assert pid
    win.open_item("platoon", pid)
    from campaign_app.gui.history_view import HistoryView

    page = win.stack.currentWidget()
    history = page.findChild(HistoryView)
    assert history is not None
    page.tabs.setCurrentWidget(history)  # type: ignore[attr-defined]
    qtbot.waitUntil(history.isVisible)
    worker = win.ctx.db_worker  # the page, its history and the change feed's mark are read on it
    qtbot.waitUntil(lambda: worker is not None and worker.pending == 0, timeout=10000)

    def battles_shown() -> list[BattleEvent]:
        return [e for e in history.model.top_level_events() if e.kind == "battle"]

    assert battles_shown() == []
    heard: list[int] = []
    win.live.delivered.connect(heard.append)  # type: ignore[union-attr]
    _another_player(
        club_url,
        "from campaign_app.rules.dice import TypedDice\n"
        "from campaign_app.services import battles\n"
        "from tests.ids import platoon_id\n"
        "battles.log_battle(platoon_id('2nd Platoon'), wounds=1, outcome='victory', scenario='Bridge', "
        "dice=TypedDice([[3], [12, 12]]))\n",
    )
    qtbot.waitUntil(lambda: bool(battles_shown()), timeout=2000)  # within 2 s of the other commit
    assert len(heard) == 1
    [battle] = battles_shown()
    assert battle.scenario == "Bridge"
    row = history.model.row_of_battle(battle.battle_id).row()
    assert history.model.index(row, history.model.BY).data() == "postgres"  # on a club server: "Logged by"
    assert win.ctx.undo_stack.canUndo()  # Edit ▸ Undo knows the newest change, whoever made it


def _app_sessions(url: str) -> list[int]:
    """The server processes of this test's database other than the asker's: the window's connections."""
    name, other = _database_of(url)
    with psycopg.connect(other, autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (name,)).fetchall()
    return [int(r[0]) for r in rows]


def _database_of(url: str) -> tuple[str, str]:
    """The test database's name, and the server's ``postgres`` database (to ask from outside it)."""
    from urllib.parse import urlsplit

    name = urlsplit(url).path.lstrip("/").split("?")[0]
    return name, url.replace(f"/{name}", "/postgres", 1)


def _drop_sessions(url: str) -> list[int]:
    """The server ends every connection the window has (as a server restart or a lost link does)."""
    pids = _app_sessions(url)
    with psycopg.connect(_database_of(url)[1], autocommit=True) as conn:
        for pid in pids:
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
    return pids


@pytest.mark.qt_no_exception_capture
def test_after_the_server_drops_the_connection_the_next_read_just_works(  # type: ignore[no-untyped-def]
    qtbot, app_paths, club_url, monkeypatch
) -> None:
    """A dropped connection is opened again silently for a read: no message, the page shows the platoon. When
    the server is really gone (it takes no connections), the same action gives the clear "cannot reach" message,
    and Try Again carries on once it is back: the control that proves a message would have been seen."""
    from campaign_app.app import install_exception_hook
    from campaign_app.services.navigator import find_item

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    install_exception_hook()
    win = _window(qtbot, app_paths, club_url)
    own = server_link.own_session()
    assert own is not None
    shown: list[str] = []

    def try_again() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        shown.append(box.text())
        club_url_sql(club_url, "ALTER DATABASE {db} ALLOW_CONNECTIONS true")  # the server is back
        button = next(b for b in box.buttons() if b.text().replace("&", "") == "Try Again")
        assert isinstance(button, QPushButton)
        qtbot.mouseClick(button, LEFT)

    errors = in_modal(qtbot, try_again)
    dropped = _drop_sessions(club_url)
    assert own in dropped
    qtbot.waitUntil(lambda: own not in _app_sessions(club_url))
    pid = find_item("platoon", "2nd Platoon")  # the next read: a new connection, no message
    assert pid
    win.open_item("platoon", pid)
    page = win.stack.currentWidget()
    qtbot.waitUntil(lambda: "2nd Platoon" in page.header.name_edit.text(), timeout=5000)  # type: ignore[attr-defined]
    qtbot.keyClick(win, Qt.Key.Key_F5)  # View ▸ Refresh
    qtbot.wait(300)
    assert shown == [] and not errors, (shown, errors)
    assert server_link.own_session() not in (None, own)

    # the control: the server really gone. The same action now says so (the dialog the first part did not see)
    club_url_sql(club_url, "ALTER DATABASE {db} ALLOW_CONNECTIONS false")
    _drop_sessions(club_url)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    qtbot.keyClick(win, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: bool(shown), timeout=10000)
    assert not errors, errors
    assert shown[0].startswith("Cannot reach the campaign server postgres@local socket"), shown[0]
    assert "is not currently accepting connections" in shown[0] and "nothing was written" in shown[0]
    qtbot.waitUntil(lambda: "again" in win.statusBar().currentMessage(), timeout=10000)
    assert server_link.own_session() is not None  # Try Again connected anew


def club_url_sql(url: str, statement: str) -> None:
    """Run ``statement`` as the superuser from another database of the server (``{db}``: this test's)."""
    name, other = _database_of(url)
    with psycopg.connect(other, autocommit=True) as conn:
        conn.execute(statement.format(db=f'"{name}"'))  # type: ignore[arg-type]  # test SQL written here


@pytest.mark.parametrize("saved", [True, False], ids=["committed", "not-committed"])
def test_a_write_whose_commit_was_cut_off_asks_the_journal(  # type: ignore[no-untyped-def]
    qtbot, app_paths, club_url, monkeypatch, saved
) -> None:
    """The connection is lost in the message that commits a write: the window never sends it again; it asks the
    journal on a new connection. Committed: the change is shown as done, once, and can be undone. Not committed:
    the status bar says nothing was written, and nothing was."""
    from campaign_app.gui.undo_commands import try_perform
    from campaign_app.store.models import Campaign
    from campaign_app.store.server import ServerDatabase

    win = _window(qtbot, app_paths, club_url)
    real = ServerDatabase.execute_and_commit
    sent: list[str] = []

    def cut_off(self: ServerDatabase, sql: str, params: Any = None) -> Any:
        sent.append(sql)
        if saved:
            real(self, sql, params)
        with psycopg.connect(club_url, autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(%s)", (self.connection().info.backend_pid,))
        with self.translated():
            self.execute_sql("SELECT 1 FOR UPDATE")  # on the dead connection: the app's "cannot reach" error

    monkeypatch.setattr(ServerDatabase, "execute_and_commit", cut_off)
    edit = try_perform(win.ctx, campaigns.rename_campaign, campaign_id("Congo 1960"), "Congo 1961")
    monkeypatch.undo()
    assert len(sent) == 1  # the commit's message went once, never again
    names = [c.name for c in Campaign.select()]
    with psycopg.connect(club_url, autocommit=True) as conn:
        renames = conn.execute("SELECT count(*) FROM operation WHERE kind = 'campaign.rename'").fetchone()[0]
    if saved:
        assert edit is not None and edit.changes.operation_id is not None
        assert names == ["Congo 1961"] and renames == 1
        # the undo list is read off the event loop
        qtbot.waitUntil(lambda: "Congo 1961" in win.ctx.undo_stack.undoText(), timeout=10_000)
    else:
        assert edit is None
        assert "shows it was not saved, so nothing was written" in win.statusBar().currentMessage()
        assert names == ["Congo 1960"] and renames == 0


def test_starting_on_a_server_that_is_not_there_quits_cleanly(qtbot, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from campaign_app import app

    monkeypatch.setattr(app, "install_exception_hook", lambda: None)
    shown: list[str] = []

    def quit_() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        shown.append(box.text())
        button = next(b for b in box.buttons() if b.text().replace("&", "") == "Quit")
        assert isinstance(button, QPushButton)
        qtbot.mouseClick(button, LEFT)

    errors = in_modal(qtbot, quit_)
    data = tmp_path / "d"
    assert (
        app.main(
            [
                "--data-dir",
                str(data),
                "--db",
                "postgresql://ana:hush@127.0.0.1:1/league",
                "--screenshot",
                str(tmp_path / "x.png"),
            ]
        )
        == 1
    )
    assert not errors, errors
    assert shown and shown[0].startswith("Cannot reach the campaign server ana@127.0.0.1:1/league (Connection refused)")
    assert "hush" not in shown[0]
    assert not (data / "campaign.db").exists()


def test_a_server_that_wants_a_password_asks_for_it_at_start(qtbot, tmp_path, monkeypatch, pg_server) -> None:  # type: ignore[no-untyped-def]
    """``campaign-app --db postgresql://ana@host/db`` where the server wants a password: the connect dialog asks
    (with the server's reason), a wrong one is refused in the dialog, the right one opens the campaign."""
    from campaign_app import app
    from campaign_app.gui.connect_dialog import ConnectDialog

    name = pg_server.new_database_name("pw")
    pg_server.create_database(name)
    pg_server.sql(
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ana_pw') THEN "
        "CREATE ROLE ana_pw LOGIN PASSWORD 'right-one'; END IF; END $$"
    )
    pg_server.sql(f'ALTER DATABASE "{name}" OWNER TO ana_pw')
    monkeypatch.setattr(app, "install_exception_hook", lambda: None)
    from campaign_app import passwords

    monkeypatch.setattr(passwords, "_keyring", lambda: None)  # never the system's keyring
    seen: list[str] = []

    def type_password() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ConnectDialog)
        seen.append(dialog.message.text())
        assert QApplication.focusWidget() is dialog.password
        qtbot.keyClicks(dialog.password, "wrong-one")
        qtbot.keyClick(dialog.password, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: dialog.worker is None, timeout=10000)
        seen.append(dialog.message.text())
        assert dialog.isVisible() and QApplication.focusWidget() is dialog.password
        qtbot.keyClicks(dialog.password, "right-one")  # over the selected wrong one
        qtbot.keyClick(dialog.password, Qt.Key.Key_Return)

    errors = in_modal(qtbot, type_password, ConnectDialog)
    shot = tmp_path / "on-server.png"
    url = pg_server.url(name, user="ana_pw", tcp=True)
    assert app.main(["--data-dir", str(tmp_path / "d"), "--db", url, "--screenshot", str(shot)]) == 0
    assert not errors, errors
    assert "wants a password" in seen[0] and "ana_pw@127.0.0.1" in seen[0]
    assert "wants a password, or refused the one given" in seen[1]
    assert "wrong-one" not in " ".join(seen)
    assert shot.exists()
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    assert [w.ctx.server.display() for w in windows if w.ctx.server] == [f"ana_pw@127.0.0.1:{pg_server.port}/{name}"]
    assert windows[0].windowTitle().endswith(f"ana_pw@127.0.0.1:{pg_server.port}/{name}")
    for window in windows:
        window.close()
        window.deleteLater()
    qtbot.wait(10)
    close_db()


def test_a_database_that_is_not_a_campaign_is_refused_and_the_window_keeps_its_own(
    qtbot,
    gui_ctx,
    pg_server,  # type: ignore[no-untyped-def]
    congo_platoon,
) -> None:
    """A server database holding other tables: the message names it, offers no pointless Try Again, and Close
    leaves the window on the file it had (which still works)."""
    pid = congo_platoon()
    name = pg_server.new_database_name("other")
    url = pg_server.create_database(name)
    pg_server.sql("CREATE TABLE accounts (id int)", name)
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    shown: list[tuple[str, list[str]]] = []

    def close() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        names = [b.text().replace("&", "") for b in box.buttons()]
        shown.append((box.text(), names))
        button = next(b for b in box.buttons() if b.text().replace("&", "") == "Close")
        assert isinstance(button, QPushButton)
        qtbot.mouseClick(button, LEFT)

    errors = in_modal(qtbot, close)
    target, _password = parse_server_url(url)
    assert win.open_server(target, None) is False
    assert not errors, errors
    [(text, names)] = shown
    assert "holds other tables, so it is not a campaign database" in text
    assert "Try Again" not in names and "Open Local File Instead" in names
    assert gui_ctx.server is None and win.live is None
    win.open_item("platoon", pid)  # the file is open again
    assert win.windowTitle() == "2nd Platoon \u2014 Congo 1960 \u2014 Campaign App"


def test_the_window_keeps_painting_while_another_session_holds_a_table(qtbot, app_paths, club_url) -> None:  # type: ignore[no-untyped-def]
    """A player's ``psql`` holds the platoon table in an idle transaction: the window's change waits for it on a
    helper thread while the window's event loop keeps running (its timers fire, the status bar says what it waits
    for), and after the busy timeout it refuses in one line naming that player's session."""
    from PySide6.QtCore import QTimer

    from campaign_app.errors import DatabaseBusyError
    from campaign_app.gui.club import open_server

    target, password = parse_server_url(club_url)
    close_db()
    open_server(target, password, app_paths.backup_dir, busy_timeout=1.5)
    win = _window(qtbot, app_paths, club_url)
    ticks: list[int] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(20)
    said: list[str] = []
    win.statusBar().messageChanged.connect(said.append)
    with psycopg.connect(club_url) as other:
        other.execute("BEGIN")
        other.execute("LOCK TABLE platoon IN ACCESS EXCLUSIVE MODE")
        before = len(ticks)
        with pytest.raises(DatabaseBusyError, match="postgres's session holds the platoon table"):
            platoon_service.update_platoon(platoon_id("2nd Platoon"), notes="waits")
        during = len(ticks) - before
        other.execute("ROLLBACK")
    timer.stop()
    assert during >= 10, f"the event loop ran {during} times in 1.5 s"
    assert any(text.startswith("Waiting for the club server") for text in said)
    assert QApplication.overrideCursor() is None  # the waiting cursor is gone again
    assert platoon_service.update_platoon(platoon_id("2nd Platoon"), notes="free again").changed  # the control
