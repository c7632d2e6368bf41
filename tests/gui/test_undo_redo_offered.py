"""Undo and Redo are offered when they can do something: at once after an import (the welcome page offers the
import), and Redo no longer after a new change."""

from __future__ import annotations

from driving import focused
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from campaign_app.gui.main_window import MainWindow
from campaign_app.services import campaigns, portable
from campaign_app.services import platoons as platoon_service

LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier


def window(qtbot, ctx) -> MainWindow:  # type: ignore[no-untyped-def]
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    return win


def test_import_makes_undo_ready_at_once_and_the_welcome_page_offers_it(qtbot, gui_ctx, tmp_path) -> None:
    camp = campaigns.create_campaign("Congo 1960")
    portable.export_campaign(camp.id, tmp_path / "congo.json")
    campaigns.delete_campaign(camp.id)
    gui_ctx.undo_stack.sync()
    win = window(qtbot, gui_ctx)
    win.refresh()
    assert win.stack.currentWidget() is win.first_run
    button = win.first_run.import_button
    assert button.isVisible() and "Import" in button.text()
    import campaign_app.gui.portable_dialogs as dialogs

    original = dialogs.import_campaign
    dialogs.import_campaign = lambda ctx, parent, path=None: original(ctx, parent, str(tmp_path / "congo.json"))
    try:
        qtbot.mouseClick(button, LEFT)
    finally:
        dialogs.import_campaign = original
    assert win.act_undo.isEnabled() and "Import" in win.act_undo.text()
    qtbot.keyClick(focused(), Qt.Key.Key_Z, CTRL)
    assert not campaigns.list_campaigns()


def test_redo_is_not_offered_after_a_new_change(qtbot, gui_ctx, congo_platoon) -> None:
    pid = congo_platoon()
    win = window(qtbot, gui_ctx)
    platoon_service.set_xp(pid, 7, reason="first")
    gui_ctx.undo_stack.sync()
    qtbot.keyClick(focused(), Qt.Key.Key_Z, CTRL)
    assert win.act_redo.isEnabled()
    platoon_service.set_xp(pid, 8, reason="a new change")
    gui_ctx.undo_stack.sync()
    assert not win.act_redo.isEnabled()
