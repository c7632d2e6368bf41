"""Club play in the desktop app, driven as a person does it: the connect dialog (a pasted URL fills
the fields, the password is kept only in the keyring when "Remember password" is ticked, a bad port is refused
with a message), the message when the server is away with Try Again and Open Local File Instead, and who logged
each battle in the History tab. The tests against a real PostgreSQL server are in test_club_server.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from driving import focused, in_modal
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from campaign_app.gui.connect_dialog import RECENT_KEY, ConnectDialog, recent_servers
from campaign_app.gui.context import AppContext
from campaign_app.gui.history_view import HistoryView
from campaign_app.gui.main_window import MainWindow
from campaign_app.rules.dice import TypedDice
from campaign_app.server_target import (
    KEYRING_SERVICE,
    BadServerAddress,
    PasswordRequired,
    ServerTarget,
    ServerUnavailable,
    parse_server_url,
)
from campaign_app.services import battles, server_link

LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier
SECRET = "s3cret-Pa55"


@pytest.fixture
def fake_keyring() -> Any:
    """A keyring backend in memory instead of the system's (``.kept``: what it holds)."""
    keyring = pytest.importorskip("keyring")
    from keyring.backend import KeyringBackend

    class FakeKeyring(KeyringBackend):
        priority = 10

        def __init__(self) -> None:
            super().__init__()
            self.kept: dict[tuple[str, str], str] = {}

        def get_password(self, service: str, username: str) -> str | None:
            return self.kept.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            self.kept[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            self.kept.pop((service, username), None)

    before = keyring.get_keyring()
    fake = FakeKeyring()
    keyring.set_keyring(fake)
    yield fake
    keyring.set_keyring(before)


@pytest.fixture
def no_keyring() -> Any:
    """No keyring backend works (the test never reaches the system's keyring)."""
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:  # without the package the dialog says that instead
        yield
        return
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(before)


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def tries(monkeypatch: pytest.MonkeyPatch) -> list[tuple[ServerTarget, str | None]]:
    """The logins the dialog tried (on its worker thread): the password SECRET lets ana in, no other."""
    made: list[tuple[ServerTarget, str | None]] = []

    def probe(target: ServerTarget, password: str | None = None) -> None:
        made.append((target, password))
        if password != SECRET:
            raise PasswordRequired(
                f"the campaign server {target.server} did not let {target.user} in (the password "
                "was not accepted); nothing was written"
            )

    monkeypatch.setattr(server_link, "probe", probe)
    return made


def open_dialog(qtbot, settings: QSettings, **kwargs: Any) -> ConnectDialog:  # type: ignore[no-untyped-def]
    dialog = ConnectDialog(settings, **kwargs)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    return dialog


# --- the address ------------------------------------------------------------------------------------------------
def test_a_server_url_is_read_and_written_without_its_password() -> None:
    target, password = parse_server_url(
        "postgresql://ana:s%40cret@club.example.org:5433/league?sslmode=require&application_name=laptop"
    )
    assert (target.host, target.port, target.dbname, target.user, target.sslmode) == (
        "club.example.org",
        5433,
        "league",
        "ana",
        "require",
    )
    assert password == "s@cret"
    assert target.url() == "postgresql://ana@club.example.org:5433/league?sslmode=require&application_name=laptop"
    assert "cret" not in target.url(timeout=True) and "connect_timeout=10" in target.url(timeout=True)
    assert target.display() == "ana@club.example.org:5433/league"
    assert target.keyring_key() == "ana@club.example.org:5433/league"
    socket, _ = parse_server_url("postgresql:///league?host=/run/Postgres&user=bo")
    assert socket.host == "/run/Postgres" and parse_server_url(socket.url())[0] == socket  # the case is kept
    with pytest.raises(BadServerAddress, match="port must be a whole number from 1 to 65535.*'70000'"):
        parse_server_url("postgresql://ana@club.example.org:70000/league")
    with pytest.raises(BadServerAddress, match="names no host"):
        parse_server_url("postgresql://ana@/league")


# --- the dialog -------------------------------------------------------------------------------------------------
def test_pasting_a_url_fills_the_fields_and_keeps_the_password_off_the_screen(qtbot, settings, no_keyring) -> None:  # type: ignore[no-untyped-def]
    dialog = open_dialog(qtbot, settings)
    assert not dialog.recent.isVisible()  # nothing used before
    qtbot.keyClick(dialog, Qt.Key.Key_L, CTRL)  # the address field, as in a browser
    assert focused() is dialog.url
    QApplication.clipboard().setText(f"postgresql://ana:{SECRET}@club.example.org:5433/league?sslmode=verify-full")
    qtbot.keyClick(focused(), Qt.Key.Key_V, CTRL)
    assert dialog.host.text() == "club.example.org"
    assert dialog.port.text() == "5433"
    assert dialog.dbname.text() == "league"
    assert dialog.user.text() == "ana"
    assert dialog.sslmode.currentData() == "verify-full"
    assert dialog.password.text() == SECRET
    assert dialog.password.echoMode() == dialog.password.EchoMode.Password
    assert SECRET not in dialog.url.text()  # the address shown lost its password
    assert dialog.url.text() == "postgresql://ana@club.example.org:5433/league?sslmode=verify-full"
    assert not dialog.message.text()

    # a field typed into changes the address shown
    dialog.dbname.setFocus()
    dialog.dbname.selectAll()
    qtbot.keyClicks(focused(), "cup")
    assert dialog.url.text() == "postgresql://ana@club.example.org:5433/cup?sslmode=verify-full"

    # an address that is not one says so
    dialog.url.setFocus()
    dialog.url.selectAll()
    qtbot.keyClicks(focused(), "postgresql://ana@club.example.org:port/league")
    assert "port must be a whole number" in dialog.message.text()


def test_remember_password_keeps_it_in_the_keyring_only_and_recent_servers_without_it(  # type: ignore[no-untyped-def]
    qtbot, settings, fake_keyring, tries, tmp_path
) -> None:
    dialog = open_dialog(qtbot, settings)
    assert dialog.remember.isEnabled()
    for field, text in (
        (dialog.host, "club.example.org"),
        (dialog.dbname, "league"),
        (dialog.user, "ana"),
        (dialog.password, "wrong"),
    ):
        field.setFocus()
        qtbot.keyClicks(focused(), text)
    qtbot.mouseClick(dialog.remember, LEFT, pos=_box(dialog.remember))
    assert dialog.remember.isChecked()
    qtbot.mouseClick(dialog.connect_button, LEFT)
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=5000)  # the try ran off the GUI thread
    assert tries[-1][1] == "wrong"
    assert "did not let ana in (the password was not accepted)" in dialog.message.text()
    assert dialog.isVisible() and focused() is dialog.password  # the password again, selected
    assert fake_keyring.kept == {}  # a refused password is not kept

    qtbot.keyClicks(focused(), SECRET)  # typed over the selected wrong one
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)
    login = dialog.login()
    assert login is not None and login.password == SECRET and login.remember
    assert login.target == ServerTarget("club.example.org", "league", "ana")
    assert fake_keyring.kept == {(KEYRING_SERVICE, "ana@club.example.org:5432/league"): SECRET}
    settings.sync()
    stored = Path(settings.fileName()).read_text(encoding="utf-8")
    assert "club.example.org" in stored and SECRET not in stored  # the recent server, never its password
    assert recent_servers(settings) == [login.target]

    # next time: the recent server is filled in with its remembered password (masked) and the box ticked
    again = open_dialog(qtbot, settings)
    assert again.recent.isVisible() and again.recent.count() == 2
    assert again.host.text() == "club.example.org" and again.password.text() == SECRET
    assert again.remember.isChecked()
    assert focused() is again.connect_button  # everything is filled in: Enter connects
    # unticking "Remember password" and connecting forgets the kept password
    qtbot.mouseClick(again.remember, LEFT, pos=_box(again.remember))
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not again.isVisible(), timeout=5000)
    assert fake_keyring.kept == {}


def _box(check: Any) -> Any:
    """Where a person clicks a check box: on its box (at the left)."""
    from PySide6.QtCore import QPoint

    return QPoint(8, check.height() // 2)


def test_without_a_keyring_remember_is_disabled_and_says_why(qtbot, settings, no_keyring) -> None:  # type: ignore[no-untyped-def]
    dialog = open_dialog(qtbot, settings)
    assert not dialog.remember.isEnabled()
    assert "passwords cannot be remembered" in dialog.remember.toolTip()


def test_a_bad_port_is_refused_with_a_message_and_nothing_is_tried(qtbot, settings, no_keyring, tries) -> None:  # type: ignore[no-untyped-def]
    dialog = open_dialog(qtbot, settings)
    for field, text in ((dialog.host, "club.example.org"), (dialog.dbname, "league"), (dialog.user, "ana")):
        field.setFocus()
        qtbot.keyClicks(focused(), text)
    dialog.port.setFocus()
    dialog.port.selectAll()
    qtbot.keyClicks(focused(), "54x2")
    qtbot.mouseClick(dialog.connect_button, LEFT)
    assert "The port must be a whole number from 1 to 65535" in dialog.message.text()
    assert "'54x2'" in dialog.message.text()
    assert focused() is dialog.port and dialog.isVisible()
    assert tries == []
    assert settings.value(RECENT_KEY) is None  # nothing remembered either


def test_an_empty_login_is_named(qtbot, settings, no_keyring, tries) -> None:  # type: ignore[no-untyped-def]
    dialog = open_dialog(qtbot, settings)
    dialog.host.setFocus()
    qtbot.keyClicks(focused(), "club.example.org")
    dialog.dbname.setFocus()
    qtbot.keyClicks(focused(), "league")
    dialog.user.setFocus()
    dialog.user.selectAll()
    qtbot.keyClick(focused(), Qt.Key.Key_Delete)
    qtbot.mouseClick(dialog.connect_button, LEFT)
    assert "login is missing" in dialog.message.text() and focused() is dialog.user
    assert tries == []


def test_connecting_never_waits_on_the_gui_thread(qtbot, settings, no_keyring, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A server that takes long to answer: the window keeps painting and Cancel ends the wait at once."""
    import threading

    release = threading.Event()

    def slow(target: ServerTarget, password: str | None = None) -> None:
        release.wait(10)
        raise ServerUnavailable(
            f"cannot reach the campaign server {target.server} (no answer in time); nothing was written"
        )

    monkeypatch.setattr(server_link, "probe", slow)
    dialog = open_dialog(qtbot, settings, initial=ServerTarget("slow.example.org", "league", "ana"))
    qtbot.mouseClick(dialog.connect_button, LEFT)
    assert "Connecting to slow.example.org" in dialog.status.text()
    assert not dialog.host.isEnabled()  # locked while it tries
    qtbot.wait(200)  # the event loop runs meanwhile (a blocking connect would stop it)
    worker = dialog.worker
    assert worker is not None and worker.isRunning()
    cancel = dialog.buttons.button(dialog.buttons.StandardButton.Cancel)
    qtbot.mouseClick(cancel, LEFT)
    assert not dialog.isVisible() and dialog.login() is None
    release.set()
    assert worker.wait(5000)


# --- the server is away ---------------------------------------------------------------------------------------
def _click(box: QMessageBox, text: str, qtbot) -> None:  # type: ignore[no-untyped-def]
    button = next(b for b in box.buttons() if b.text().replace("&", "") == text)
    assert isinstance(button, QPushButton)
    qtbot.mouseClick(button, LEFT)


def test_server_away_offers_try_again_and_the_local_file(
    qtbot,
    gui_ctx: AppContext,
    congo_platoon,  # type: ignore[no-untyped-def]
    monkeypatch,
    no_keyring,
) -> None:
    from campaign_app.gui import club

    congo_platoon()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    target = ServerTarget("club.example.org", "league", "ana")
    attempts: list[str | None] = []

    def away(t: ServerTarget, password: str | None, backup_dir: Any, busy_timeout: Any = None) -> None:
        attempts.append(password)
        raise ServerUnavailable(
            f"cannot reach the campaign server {t.server} (connection refused); nothing was written"
        )

    monkeypatch.setattr(club, "open_server", away)
    seen: list[str] = []

    def try_again() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.text())
        seen.append(box.informativeText())
        names = [b.text().replace("&", "") for b in box.buttons()]
        assert names.count("Try Again") == 1 and "Open Local File Instead" in names
        _click(box, "Try Again", qtbot)
        errors.extend(in_modal(qtbot, open_local))

    def open_local() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        _click(box, "Open Local File Instead", qtbot)

    errors = in_modal(qtbot, try_again)
    assert win.open_server(target, "pw") is True
    assert not errors, errors
    assert attempts == ["pw", "pw"]  # the first try and Try Again
    assert seen[0] == "Cannot reach the campaign server club.example.org (connection refused); nothing was written."
    assert str(gui_ctx.paths.data_dir / "campaign.db") in seen[1]
    assert gui_ctx.server is None and gui_ctx.paths.db_file == gui_ctx.paths.data_dir / "campaign.db"
    assert win.navigator.select("campaign", 1, emit=False)  # the local file's campaign is shown
    assert "Club server" not in win.db_label.text()


def test_server_away_at_start_quits_cleanly_or_opens_the_local_file(
    qtbot,
    tmp_path,
    monkeypatch,  # type: ignore[no-untyped-def]
    no_keyring,
    caplog,
) -> None:
    from campaign_app import app
    from campaign_app.gui import club

    def away(t: ServerTarget, password: str | None, backup_dir: Any, busy_timeout: Any = None) -> None:
        raise ServerUnavailable(f"cannot reach the campaign server {t.server} (no such host name); nothing was written")

    monkeypatch.setattr(club, "open_server", away)
    monkeypatch.setattr(app, "install_exception_hook", lambda: None)
    caplog.set_level("INFO")
    data = tmp_path / "d"
    texts: list[str] = []

    def quit_() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        texts.append(box.text())
        _click(box, "Quit", qtbot)

    errors = in_modal(qtbot, quit_)
    assert (
        app.main(
            [
                "--data-dir",
                str(data),
                "--db",
                f"postgresql://ana:{SECRET}@nowhere.invalid/league",
                "--screenshot",
                str(tmp_path / "x.png"),
            ]
        )
        == 1
    )
    assert not errors, errors
    assert texts == ["Cannot reach the campaign server nowhere.invalid (no such host name); nothing was written."]
    assert not (data / "campaign.db").exists()  # nothing made
    assert "nowhere.invalid" in caplog.text and SECRET not in caplog.text  # the reason is logged, the password never

    def local() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        _click(box, "Open Local File Instead", qtbot)

    errors = in_modal(qtbot, local)
    shot = tmp_path / "local.png"
    assert (
        app.main(
            ["--data-dir", str(data), "--db", "postgresql://ana@nowhere.invalid/league", "--screenshot", str(shot)]
        )
        == 0
    )
    assert not errors, errors
    assert shot.exists() and (data / "campaign.db").exists()
    for widget in QApplication.topLevelWidgets():  # the window main() made lives on: later tests must not see it
        if isinstance(widget, MainWindow):
            widget.close()
            widget.deleteLater()
    qtbot.wait(10)


def _answers_as_a_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """The open file answers "what can you do?" as a club server does (several logins, announcements, no backups
    here), for the window's tests of a server that is not there."""
    from campaign_app.store.file_engine import CampaignDatabase
    from campaign_app.store.opened import Capability

    monkeypatch.setattr(
        CampaignDatabase,
        "can",
        lambda self, capability: capability in (Capability.SEVERAL_LOGINS, Capability.ANNOUNCES),
    )


# --- who logged each battle -------------------------------------------------------------------------------------
def test_the_timeline_says_who_logged_each_battle_when_several_logins_wrote(
    qtbot,
    gui_ctx,
    congo_platoon,  # type: ignore[no-untyped-def]
    monkeypatch,
) -> None:
    from campaign_app.store import journal

    pid = congo_platoon()
    monkeypatch.setattr(journal, "_login", lambda: "ana")  # who a club server would say is logged in
    battles.log_battle(pid, wounds=1, outcome="victory", scenario="Bridge", dice=TypedDice([[3], [12, 12]]))
    view = HistoryView(gui_ctx)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show_platoon(pid)
    view.show()
    qtbot.waitExposed(view)
    model = view.model

    def battle_rows() -> list[tuple[str, str]]:
        """(Logged by, tooltip) of each battle row, newest first ("" without the column)."""
        rows = [r for r in range(model.rowCount()) if model.event_at(model.index(r, 0)).kind == "battle"]
        by = [str(model.index(r, model.BY).data() or "") for r in rows]
        return list(
            zip(by, [str(model.index(r, model.EVENT).data(Qt.ItemDataRole.ToolTipRole)) for r in rows], strict=True)
        )

    # one login on a file: unobtrusive (the tooltip names it; no column)
    assert model.columnCount() == 4 and view.tree.header().stretchLastSection()
    [(by, tip)] = battle_rows()
    assert by == "" and tip.splitlines()[-1].endswith("by ana")

    monkeypatch.setattr(journal, "_login", lambda: "bo")  # who a club server would say is logged in
    battles.log_battle(pid, wounds=1, outcome="defeat", scenario="Swamp", dice=TypedDice([[3], [12, 12]]))
    view.reload()
    assert model.columnCount() == 5 and model.headerData(4, Qt.Orientation.Horizontal) == "Logged by"
    assert [by for by, _tip in battle_rows()] == ["bo", "ana"]  # newest first
    header = view.tree.header()
    assert not header.stretchLastSection() and header.sectionSize(model.BY) < header.sectionSize(model.EVENT)
    assert header.sectionViewportPosition(model.BY) + header.sectionSize(model.BY) <= view.tree.viewport().width()

    # on a club server the column is there even while one login logged every battle
    undo = view.undo_button
    qtbot.mouseClick(undo, LEFT)  # bo's battle goes: one login left
    assert model.columnCount() == 4
    with monkeypatch.context() as patched:
        _answers_as_a_server(patched)
        view.reload()
        assert model.columnCount() == 5 and [by for by, _tip in battle_rows()] == ["ana"]


def test_the_changes_tab_and_journal_json_name_the_login(gui_ctx, congo_platoon, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    from campaign_app.cli import main
    from campaign_app.gui.journal_view import COL_WHO, JournalModel
    from campaign_app.services import journal as journal_service
    from campaign_app.store import journal

    pid = congo_platoon()
    monkeypatch.setattr(journal, "_login", lambda: "ana")  # who a club server would say is logged in
    battles.log_battle(pid, wounds=1, outcome="victory", dice=TypedDice([[3], [12, 12]]))
    model = JournalModel()
    model.set_rows(journal_service.operations(platoon=pid))
    assert model.index(0, COL_WHO).data() == "ana"
    assert main(["--db", str(gui_ctx.paths.db_file), "journal", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = out if isinstance(out, list) else out.get("operations", out)
    assert any(r.get("user") == "ana" and "battle" in r.get("kind", "") for r in rows)


def test_a_connection_lost_mid_session_is_one_clear_message_not_a_traceback(
    qtbot,
    gui_ctx,
    congo_platoon,  # type: ignore[no-untyped-def]
    monkeypatch,
    no_keyring,
) -> None:
    """Any error that means the server went away (psycopg's, or peewee's over a broken connection, or the
    store's ServerUnavailable) reaches the exception hook as the server-away message with Try Again."""
    import sys

    psycopg = pytest.importorskip("psycopg")
    from campaign_app.app import install_exception_hook

    pid = congo_platoon()
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    install_exception_hook()
    gui_ctx.server = ServerTarget("club.example.org", "league", "ana")
    _answers_as_a_server(monkeypatch)
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    win.open_item("platoon", pid)
    title = "2nd Platoon \u2014 Congo 1960 \u2014 ana@club.example.org/league"
    qtbot.waitUntil(lambda: win.windowTitle() == title, timeout=5000)  # the navigator is read off the event loop
    assert win.db_label.text() == "Club server: ana@club.example.org/league"
    assert not win.act_backups.isEnabled() and not win.act_check.isEnabled()  # the server's administrator's job
    resets: list[int] = []
    monkeypatch.setattr(server_link, "reset_connection", lambda: resets.append(1))
    shown: list[str] = []

    def try_again() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        shown.append(box.text())
        assert "(not reachable)" in win.db_label.text()
        assert not box.detailedText()  # no traceback
        _click(box, "Try Again", qtbot)

    for problem in (
        psycopg.OperationalError(
            "server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally"
        ),
        ServerUnavailable(
            "cannot reach the campaign server club.example.org (connection refused); nothing was written"
        ),
    ):
        errors = in_modal(qtbot, try_again)
        try:
            raise problem
        except Exception:  # noqa: BLE001 - handed to the hook as a slot's error would be
            sys.excepthook(*sys.exc_info())
        assert not errors, errors
    assert shown == [
        "Cannot reach the campaign server ana@club.example.org/league (server closed the connection "
        "unexpectedly); nothing was written.",
        "Cannot reach the campaign server club.example.org (connection refused); nothing was written.",
    ]
    assert len(resets) == 2  # the dead connection is dropped: the next query connects again
    assert win.db_label.text() == "Club server: ana@club.example.org/league"
    assert "again" in win.statusBar().currentMessage()

    # another error is not mistaken for a lost server
    assert server_link.lost_connection(ValueError("a bug"), gui_ctx.server) is None
    gui_ctx.server = None
