"""The GUI with other writers on the same file: a write refused because another program holds the lock says
so and every widget shows the stored value again; changes made by another program show up by themselves."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMessageBox

from campaign_app.gui.context import AppContext
from campaign_app.gui.feed import EVERYTHING
from campaign_app.gui.main_window import MainWindow
from campaign_app.gui.platoon_page import PlatoonPage
from campaign_app.services import campaigns
from campaign_app.services import platoons as platoon_service
from campaign_app.store import close_db, init_db
from campaign_app.store.models import Platoon, XpChange
from tests.ids import campaign_id


@pytest.fixture
def short_timeout(app_paths) -> Iterator[None]:  # type: ignore[no-untyped-def]
    close_db()
    init_db(app_paths.db_file, app_paths.backup_dir, busy_timeout=0.2)
    yield


@pytest.fixture
def platoon_id(short_timeout) -> int:  # type: ignore[no-untyped-def]
    campaigns.create_campaign("Congo 1960")
    return platoon_service.create_platoon(
        campaign_id("Congo 1960"),
        "2nd Platoon",
        training=10,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader_name="Lt. Okafor",
        leader_xp=2,
    ).id


@pytest.fixture
def ctx(qtbot, app_paths, tmp_path) -> AppContext:  # type: ignore[no-untyped-def]
    return AppContext(paths=app_paths, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


def other_writer(app_paths) -> sqlite3.Connection:  # type: ignore[no-untyped-def]
    """Another program: its own connection to the same file."""
    return sqlite3.connect(app_paths.db_file, isolation_level=None, timeout=5)


def test_busy_write_says_so_and_the_xp_track_shows_the_stored_value(qtbot, ctx, platoon_id, app_paths):
    page = PlatoonPage(ctx)
    qtbot.addWidget(page)
    page.resize(1100, 1300)
    page.show_platoon(platoon_id)
    page.show()
    qtbot.waitExposed(page)
    track = page.platoon_track
    other = other_writer(app_paths)
    other.execute("BEGIN IMMEDIATE")  # the other program is writing
    try:
        qtbot.mouseClick(track, Qt.MouseButton.LeftButton, pos=track.box_rect(10).center())
        assert track.xp() == 6, "the track went back to the stored value"
        assert "busy" in page.message.text() and page.message.isVisible()
        assert ctx.undo_stack.count() == 0
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert Platoon.get_by_id(platoon_id).xp == 6
    assert XpChange.select().where(XpChange.xp_after == 10).count() == 0
    qtbot.mouseClick(track, Qt.MouseButton.LeftButton, pos=track.box_rect(10).center())
    assert track.xp() == 10 and Platoon.get_by_id(platoon_id).xp == 10
    assert not page.message.isVisible()


def test_unhandled_busy_error_is_one_dialog_and_views_reload(qtbot, ctx, platoon_id, monkeypatch):
    """A refused write that reaches the exception hook: one plain dialog (no traceback), views reload."""
    import sys

    from campaign_app.app import install_exception_hook
    from campaign_app.errors import BUSY_MESSAGE, DatabaseBusyError

    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, title, text, *a: shown.append((title, text))))
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    reloads: list[str] = []
    ctx.signals.op_changed.connect(lambda changes: reloads.append(changes.kind))
    old_hook = sys.excepthook
    install_exception_hook()
    try:
        sys.excepthook(DatabaseBusyError, DatabaseBusyError(BUSY_MESSAGE), None)
    finally:
        sys.excepthook = old_hook
    assert len(shown) == 1 and "busy" in shown[0][1] and "Traceback" not in shown[0][1]
    assert EVERYTHING in reloads


def test_changes_by_another_program_show_up_within_seconds(qtbot, ctx, platoon_id, app_paths):
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    win.open_item("platoon", platoon_id)
    page = win.page("platoon")
    assert page.name_edit.text() == "2nd Platoon"
    other = other_writer(app_paths)
    with other:  # another program writing around the app's journal (the app only sees the file change)
        other.execute("UPDATE journal_state SET mode = 'off'")
        other.execute("UPDATE platoon SET name = '3rd Platoon', xp = 9 WHERE id = ?", (platoon_id,))
        other.execute("UPDATE journal_state SET mode = 'record'")
    other.close()
    qtbot.waitUntil(lambda: page.name_edit.text() == "3rd Platoon", timeout=5000)
    assert page.platoon_track.xp() == 9
    assert win.navigator.select("platoon", platoon_id, emit=False)


def test_poll_sees_other_programs_but_not_our_own_writes(qtbot, ctx, platoon_id, app_paths):
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.watcher.timer.stop()  # only the focus check is left
    reloads: list[str] = []
    ctx.signals.op_changed.connect(lambda changes: reloads.append(changes.kind))
    other = other_writer(app_paths)
    with other:
        other.execute("UPDATE journal_state SET mode = 'off'")
        other.execute("UPDATE campaign SET notes = 'changed elsewhere'")
        other.execute("UPDATE journal_state SET mode = 'record'")
    other.close()
    assert win.watcher.poll() is True and reloads == [EVERYTHING]
    assert win.watcher.poll() is False  # our own state is up to date now
    platoon_service.set_xp(platoon_id, 7)  # our own writes do not count as news
    assert win.watcher.poll() is False


def test_undo_refused_while_busy_keeps_the_step_for_later(qtbot, ctx, platoon_id, app_paths):
    from campaign_app.gui.undo_commands import perform

    perform(ctx, platoon_service.set_xp, platoon_id, 9, reason="test")
    stack = ctx.undo_stack
    steps, label = stack.index(), stack.undoText()
    assert "XP 6 \u2192 9" in label
    messages: list[str] = []
    ctx.signals.status.connect(messages.append)
    other = other_writer(app_paths)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert stack.undo() is None
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert messages and "Cannot undo now" in messages[-1] and "busy" in messages[-1]
    assert Platoon.get_by_id(platoon_id).xp == 9 and (stack.index(), stack.undoText()) == (steps, label)
    stack.undo()  # the lock is free now: the step can still be undone
    assert Platoon.get_by_id(platoon_id).xp == 6 and stack.index() == steps - 1 and stack.redoText() == label
