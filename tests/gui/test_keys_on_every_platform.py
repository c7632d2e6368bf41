"""Keys that work on every platform, driven as a person presses them. These tests run twice in CI:
offscreen and on a real X server (xcb, with a window manager), where Qt's standard keys differ (X11's Redo is
Ctrl+Shift+Z, offscreen's Ctrl+Y).

* No key is bound twice: not within one action (Qt calls that ambiguous and does nothing), not across the
  window's actions.
* Ctrl+Shift+Z and Ctrl+Y redo; the first Ctrl+Z after start undoes even with the cursor in an empty text
  field (the navigator's filter box, where the window starts)."""

from __future__ import annotations

import pytest
from driving import focused
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication

from campaign_app.gui.focus import unique_keys
from campaign_app.gui.help_dialogs import shortcut_rows
from campaign_app.gui.main_window import MainWindow
from campaign_app.services import campaigns
from campaign_app.services.demo import create_demo
from campaign_app.store.models import Campaign

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def window(qtbot, ctx) -> MainWindow:  # type: ignore[no-untyped-def]
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    return win


def _portable(seq: QKeySequence) -> str:
    return seq.toString(QKeySequence.SequenceFormat.PortableText)


def test_unique_keys_keeps_each_key_once(qapp) -> None:
    keys = [_portable(k) for k in unique_keys("Ctrl+Shift+Z", "Ctrl+Y", QKeySequence.StandardKey.Redo)]
    assert len(keys) == len(set(keys))
    assert keys[:2] == ["Ctrl+Shift+Z", "Ctrl+Y"]
    # whatever this platform's standard Redo key is, it is there once
    assert keys.count(_portable(QKeySequence(QKeySequence.StandardKey.Redo))) == 1


def test_no_key_is_bound_twice_on_this_platform(qtbot, gui_ctx) -> None:
    """Every action of the window (menus, toolbar, window-wide keys), read with this platform's bindings."""
    create_demo()
    win = window(qtbot, gui_ctx)
    win.refresh()
    for kind in ("campaign", "platoon", "sheet"):
        win.page(kind)  # the pages add their own actions and shortcuts
    actions = {id(a): a for a in win.findChildren(QAction)}
    owners: dict[str, list[str]] = {}
    problems: list[str] = []
    for action in actions.values():
        keys = [_portable(k) for k in action.shortcuts() if not k.isEmpty()]
        for key in set(keys):
            if keys.count(key) > 1:
                problems.append(f"{action.text()!r} has {key} {keys.count(key)} times")
        if action.shortcutContext() == Qt.ShortcutContext.WidgetShortcut:
            continue  # a key of one widget only
        for key in set(keys):
            owners.setdefault(key, []).append(action.text().replace("&", ""))
    problems += [f"{key} is on {' and '.join(names)}" for key, names in owners.items() if len(names) > 1]
    assert not problems, "\n".join(problems)
    redo = [_portable(k) for k in win.act_redo.shortcuts()]
    assert "Ctrl+Shift+Z" in redo and "Ctrl+Y" in redo
    listed = {row.what: row.keys for row in shortcut_rows(win)}
    redo_row = next(keys for what, keys in listed.items() if what.startswith("Redo"))
    shown = QKeySequence("Ctrl+Shift+Z").toString(QKeySequence.SequenceFormat.NativeText)
    assert shown in redo_row and QKeySequence("Ctrl+Y").toString(QKeySequence.SequenceFormat.NativeText) in redo_row


@pytest.fixture
def renamed(fresh_db) -> int:
    """A campaign renamed once: one step to undo."""
    camp = campaigns.create_campaign("Congo 1960")
    campaigns.rename_campaign(camp.id, "Congo 1961")
    return int(camp.id)


def _name(camp_id: int) -> str:
    return str(Campaign.get_by_id(camp_id).name)


def test_first_ctrl_z_after_start_undoes_and_both_redo_keys_redo(qtbot, gui_ctx, renamed: int) -> None:
    win = window(qtbot, gui_ctx)
    # the window starts with the cursor in the navigator's (empty) filter box
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)
    start = focused()
    assert start is win.navigator.filter_edit
    qtbot.keyClick(start, Qt.Key.Key_Z, CTRL)
    assert _name(renamed) == "Congo 1960"
    qtbot.keyClick(focused(), Qt.Key.Key_Z, CTRL | SHIFT)
    assert _name(renamed) == "Congo 1961"
    qtbot.keyClick(focused(), Qt.Key.Key_Z, CTRL)
    assert _name(renamed) == "Congo 1960"
    qtbot.keyClick(focused(), Qt.Key.Key_Y, CTRL)
    assert _name(renamed) == "Congo 1961"


def test_a_field_with_its_own_typing_undoes_that_first(qtbot, gui_ctx, renamed: int) -> None:
    win = window(qtbot, gui_ctx)
    win.navigator.filter_edit.setFocus()
    qtbot.keyClicks(win.navigator.filter_edit, "Con")
    qtbot.keyClick(win.navigator.filter_edit, Qt.Key.Key_Z, CTRL)
    assert win.navigator.filter_edit.text() != "Con"  # the field's own undo
    assert _name(renamed) == "Congo 1961"
    win.navigator.filter_edit.clear()  # clear() empties the field's own undo history
    qtbot.keyClick(win.navigator.filter_edit, Qt.Key.Key_Z, CTRL)
    assert _name(renamed) == "Congo 1960"
