"""Desktop basics: toolbar, icons, window title, reopening the last item, focus after dialogs, file dialogs,
Help ▸ User guide and Keyboard shortcuts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from driving import shown_item
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QToolButton

from campaign_app import APP_TITLE
from campaign_app.gui import file_dialogs
from campaign_app.gui.main_window import MainWindow
from campaign_app.services.demo import DEMO_CAMPAIGN, DEMO_PLATOON, create_demo
from campaign_app.store.models import Campaign, Platoon, SologearSheet


@pytest.fixture
def window(qtbot, gui_ctx):
    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    qtbot.waitExposed(win)
    return win


def _platoon_id() -> int:
    return Platoon.get(Platoon.name == DEMO_PLATOON).id


def test_toolbar_has_the_main_actions_with_icons(qtbot, window):
    buttons = {b.defaultAction(): b for b in window.toolbar.findChildren(QToolButton) if b.defaultAction()}
    for action, label in (
        (window.act_new_platoon, "New platoon"),
        (window.act_log_battle, "Log battle"),
        (window.act_undo, "Undo"),
        (window.act_print, "Print"),
    ):
        assert action in buttons, label
        assert not action.icon().isNull() and action.iconText() == label
        assert buttons[action].isVisible()
    assert not window.windowIcon().isNull()


def test_toolbar_buttons_follow_the_selection_and_undo(qtbot, window):
    buttons = {b.defaultAction(): b for b in window.toolbar.findChildren(QToolButton) if b.defaultAction()}
    log_button = buttons[window.act_log_battle]
    undo_button = buttons[window.act_undo]
    window.open_item("campaign", Campaign.get(Campaign.name == DEMO_CAMPAIGN).id)
    # Log battle works from anywhere: on a campaign page it asks which platoon fought
    assert log_button.isEnabled() and buttons[window.act_new_platoon].isEnabled()
    window.open_item("platoon", _platoon_id())
    assert log_button.isEnabled()
    # the journal is kept in the file: loading the sample is the newest change, named in the tooltip
    assert undo_button.isEnabled() and undo_button.toolTip() == "Undo Create the sample campaigns"
    page = window.page("platoon")
    page.reason_edit.setFocus()
    page.platoon_track.setFocus()
    qtbot.keyClick(page.platoon_track, Qt.Key.Key_Right)  # one more XP, as a person does it
    assert Platoon.get_by_id(_platoon_id()).xp == 7
    assert undo_button.isEnabled() and undo_button.text() == "Undo"  # fixed label, the menu names the step
    name = Platoon.get_by_id(_platoon_id()).name
    assert window.act_undo.text().replace("&", "") == f"Undo {name}: Platoon XP 6 \u2192 7"
    qtbot.mouseClick(undo_button, Qt.MouseButton.LeftButton)
    assert Platoon.get_by_id(_platoon_id()).xp == 6


def test_print_button_opens_the_print_dialog_for_the_shown_platoon(qtbot, window):
    window.open_item("platoon", _platoon_id())
    button = next(b for b in window.toolbar.findChildren(QToolButton) if b.defaultAction() is window.act_print)
    seen: list[str] = []

    def close() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            QTimer.singleShot(20, close)
            return
        seen.append(dialog.windowTitle())
        dialog.reject()

    QTimer.singleShot(0, close)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(seen))
    assert "Print" in seen[0]


def test_window_title_names_the_platoon_pilot_or_campaign(qtbot, window):
    assert window.windowTitle() == APP_TITLE
    window.open_item("platoon", _platoon_id())
    assert window.windowTitle() == f"{DEMO_PLATOON} \u2014 {DEMO_CAMPAIGN} \u2014 {APP_TITLE}"
    sheet = SologearSheet.select().first()
    window.open_item("sheet", sheet.id)
    assert window.windowTitle().startswith(f"{sheet.pilot} (pilot) \u2014 {sheet.campaign.name}")
    window.open_item("campaign", Campaign.get(Campaign.name == DEMO_CAMPAIGN).id)
    assert window.windowTitle() == f"{DEMO_CAMPAIGN} \u2014 {APP_TITLE}"


def test_window_title_follows_a_rename(qtbot, window):
    window.open_item("platoon", _platoon_id())
    page = window.page("platoon")
    page.name_edit.setFocus()
    page.name_edit.selectAll()
    qtbot.keyClicks(page.name_edit, "Lions")
    qtbot.keyClick(page.name_edit, Qt.Key.Key_Return)
    assert window.windowTitle().startswith("Lions \u2014 ")
    window.act_undo.trigger()
    assert window.windowTitle().startswith(f"{DEMO_PLATOON} \u2014 ")


def test_the_last_platoon_is_reopened_at_start(qtbot, gui_ctx):
    create_demo()
    first = MainWindow(gui_ctx)
    qtbot.addWidget(first)
    first.show()
    first.open_item("platoon", _platoon_id())
    first.close()
    again = MainWindow(gui_ctx)
    qtbot.addWidget(again)
    assert again.reopen_last()
    assert shown_item(again) == ("platoon", _platoon_id())
    assert again.stack.currentWidget() is again.page("platoon")
    assert again.navigator.current() == ("platoon", _platoon_id())


def test_reopen_last_ignores_another_database_and_deleted_items(qtbot, gui_ctx):
    create_demo()
    gui_ctx.settings.setValue("session/last_item", f"platoon:{_platoon_id()}")
    gui_ctx.settings.setValue("session/last_database", "/elsewhere/other.db")
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    assert not win.reopen_last() and shown_item(win) is None
    gui_ctx.settings.setValue("session/last_database", str(gui_ctx.paths.db_file))
    gui_ctx.settings.setValue("session/last_item", "platoon:9999")
    assert not win.reopen_last() and shown_item(win) is None
    gui_ctx.settings.setValue("session/last_item", "nonsense")
    assert not win.reopen_last()


def test_app_start_reopens_the_last_pilot(app_paths, fresh_db):
    """The real start-up path (in its own process): campaign-app shows the pilot shown when it last closed."""
    import subprocess
    import sys

    create_demo()
    sheet = SologearSheet.select().first()
    settings = QSettings(str(app_paths.data_dir / "window.ini"), QSettings.Format.IniFormat)
    settings.setValue("session/last_item", f"sheet:{sheet.id}")
    settings.setValue("session/last_database", str(app_paths.db_file))
    settings.sync()
    code = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from campaign_app import app\n"
        "from campaign_app.gui.main_window import MainWindow\n"
        "shown = []\n"
        "QApplication.exec = lambda *a: shown.append(QApplication.topLevelWidgets()) or 0\n"
        "rc = app.main(['--data-dir', sys.argv[1]])\n"
        "win = [w for ws in shown for w in ws if isinstance(w, MainWindow)][0]\n"
        "print(rc, win.navigator.current(), win.windowTitle())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(app_paths.data_dir)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith(f"0 ('sheet', {sheet.id}) {sheet.pilot} (pilot)"), out.stdout


def _answer_next_dialog(qtbot, action) -> list[str]:  # type: ignore[no-untyped-def]
    """Run ``action``; when its dialog is open and has the keyboard focus, press Esc in it."""
    seen: list[str] = []

    def close() -> None:
        dialog = QApplication.activeModalWidget()
        focus = QApplication.focusWidget()
        if dialog is None or focus is None or focus.window() is not dialog:
            QTimer.singleShot(20, close)
            return
        seen.append(dialog.windowTitle())
        qtbot.keyClick(focus, Qt.Key.Key_Escape)

    QTimer.singleShot(0, close)
    action()
    qtbot.waitUntil(lambda: bool(seen))
    return seen


def test_focus_returns_to_the_widget_that_had_it_after_a_dialog(qtbot, window):
    window.activateWindow()
    window.open_item("platoon", _platoon_id())
    page = window.page("platoon")
    page.reason_edit.setFocus()
    qtbot.waitUntil(page.reason_edit.hasFocus)
    # a dialog from the keyboard shortcut; the page reloads while it is open (as after a battle)
    _answer_next_dialog(
        qtbot, lambda: qtbot.keyClick(page.reason_edit, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    )
    qtbot.waitUntil(page.reason_edit.hasFocus)
    assert not window.navigator.filter_edit.hasFocus()
    # the leader dialog from its button: focus comes back to the button
    page.replace_button.setFocus()
    qtbot.keyClick(page.replace_button, Qt.Key.Key_Space)
    dialog = page.leader_dialog
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None and QApplication.focusWidget().window() is dialog)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    qtbot.waitUntil(page.replace_button.hasFocus)


def test_focus_goes_to_the_page_when_the_widget_is_gone(qtbot, window):
    """Deleting the platoon from its page: the button that had the focus is hidden with the page; focus goes
    to the page shown now, not the navigator's filter box."""
    window.activateWindow()
    camp = Campaign.get(Campaign.name == DEMO_CAMPAIGN).id
    window.open_item("platoon", _platoon_id())
    page = window.page("platoon")
    page.delete_button.setFocus()
    qtbot.waitUntil(page.delete_button.hasFocus)

    def answer() -> None:
        box = QApplication.activeModalWidget()
        focus = QApplication.focusWidget()
        if not isinstance(box, QMessageBox) or focus is None or focus.window() is not box:
            QTimer.singleShot(20, answer)
            return
        window.open_item("campaign", camp)  # the page changes while the box is open
        qtbot.keyClick(focus, Qt.Key.Key_Escape)  # Cancel: nothing is deleted

    QTimer.singleShot(0, answer)
    qtbot.mouseClick(page.delete_button, Qt.MouseButton.LeftButton)
    campaign_page = window.page("campaign")
    qtbot.waitUntil(
        lambda: QApplication.focusWidget() is not None and campaign_page.isAncestorOf(QApplication.focusWidget())
    )
    assert not window.navigator.filter_edit.hasFocus()
    assert Platoon.get_or_none(Platoon.name == DEMO_PLATOON) is not None


def test_keyboard_shortcuts_dialog_lists_the_real_shortcuts(qtbot, window):
    from campaign_app.gui.help_dialogs import ShortcutsDialog, shortcut_rows

    rows = shortcut_rows(window)
    as_text = {(r.what, r.keys) for r in rows}
    native = QKeySequence.SequenceFormat.NativeText
    for action in (
        window.act_log_battle,
        window.act_undo,
        window.act_print,
        window.act_find,
        window.act_new_platoon,
        window.act_shortcuts,
        window.act_guide,
    ):
        keys = action.shortcut().toString(native)
        assert keys and any(k.startswith(keys) for w, k in as_text if w), (action.text(), keys)
    # every menu's Alt+letter
    for letter, menu in (("F", "File"), ("E", "Edit"), ("B", "Battle"), ("T", "Tools"), ("H", "Help")):
        assert (f"Open the {menu} menu", f"Alt+{letter}") in as_text
    # the XP track's keys come from the track's own table
    from campaign_app.gui.xp_track import KEYS

    assert all(any(r.keys == k for r in rows) for k, _ in KEYS)
    # a shortcut changed in code shows up in the list (no second copy of the table)
    window.act_refresh.setShortcut(QKeySequence("Ctrl+Alt+R"))
    assert any(
        r.what == "Refresh" and r.keys == QKeySequence("Ctrl+Alt+R").toString(native) for r in shortcut_rows(window)
    )
    seen = _answer_next_dialog(
        qtbot, lambda: qtbot.keyClick(window, Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier)
    )
    assert seen == ["Keyboard shortcuts"]
    dialog = ShortcutsDialog(window)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == len(shortcut_rows(window))


def test_user_guide_opens_in_the_app_with_f1(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_F1)
    guide = window.guide_window
    qtbot.waitUntil(guide.isVisible)
    text = guide.browser.toPlainText()
    assert "Logging a battle" in text or "logging a battle" in text
    assert "Keyboard" in text
    guide.close()


def test_file_dialogs_start_in_documents_then_remember_the_folder(qtbot, gui_ctx, tmp_path, monkeypatch):
    asked: list[str] = []
    target = tmp_path / "exports" / "x.csv"
    target.parent.mkdir()

    def fake_save(parent, title, start, filters):  # type: ignore[no-untyped-def]
        asked.append(start)
        return str(target), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake_save))
    docs = file_dialogs.documents_folder()
    assert file_dialogs.ask_save_path(None, gui_ctx.settings, "Export", "a.csv", "CSV (*.csv)") == target
    assert Path(asked[0]) == docs / "a.csv"
    assert file_dialogs.ask_save_path(None, gui_ctx.settings, "Export", "b.csv", "CSV (*.csv)") == target
    assert Path(asked[1]) == target.parent.resolve() / "b.csv"
    # a remembered folder that was deleted since: back to Documents
    target.parent.rename(tmp_path / "gone")
    file_dialogs.ask_save_path(None, gui_ctx.settings, "Export", "c.csv", "CSV (*.csv)")
    assert Path(asked[2]) == docs / "c.csv"


def test_history_csv_export_starts_in_documents_not_the_data_folder(qtbot, window, monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr(
        QFileDialog,
        "getSaveFileName",
        staticmethod(lambda parent, title, start, filters: (asked.append(start), ("", ""))[1]),
    )
    window.open_item("platoon", _platoon_id())
    page = window.page("platoon")
    history = next(
        page.tabs.widget(i) for i in range(page.tabs.count()) if page.tabs.tabText(i).replace("&", "") == "History"
    )
    page.tabs.setCurrentWidget(history)
    qtbot.waitUntil(lambda: history.report is not None)
    assert history.export("csv") is None  # cancelled: nothing written
    assert asked and Path(asked[0]).parent == file_dialogs.documents_folder()
    assert str(window.ctx.paths.data_dir) not in asked[0]


def test_page_keys_are_listed_and_work(qtbot, window):
    """The Delete key of a weapons table and Down in the navigator's filter are QShortcuts with a description:
    they work and Help ▸ Keyboard shortcuts lists them (once, however many tables there are)."""
    from campaign_app.gui.help_dialogs import shortcut_rows

    window.open_item("platoon", _platoon_id())
    page = window.page("platoon")
    rows = [r for r in shortcut_rows(window) if r.group == "Pages"]
    whats = [r.what for r in rows]
    assert whats.count("Remove the selected weapon (in a weapons table)") == 1
    assert "In the navigator's filter box: go to the first match" in whats
    view = page.equipment.view
    before = view.model().rowCount()
    view.setFocus()
    view.selectRow(0)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert view.model().rowCount() == before - 1
    window.navigator.filter_edit.setFocus()
    qtbot.keyClicks(window.navigator.filter_edit, "Janne")
    qtbot.keyClick(window.navigator.filter_edit, Qt.Key.Key_Down)
    assert window.navigator.tree.hasFocus() and window.navigator.current()[0] == "sheet"


def test_window_title_forgets_a_deleted_platoon_and_undo_brings_it_back(qtbot, window):
    window.open_item("platoon", _platoon_id())
    page = window.page("platoon")

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        delete = next(b for b in box.buttons() if b.text() == "Delete")
        qtbot.mouseClick(delete, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, answer)
    qtbot.mouseClick(page.delete_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: Platoon.get_or_none(Platoon.name == DEMO_PLATOON) is None)
    assert DEMO_PLATOON not in window.windowTitle()
    window.act_undo.trigger()
    window.open_item("platoon", _platoon_id())
    assert window.windowTitle().startswith(f"{DEMO_PLATOON} \u2014 ")


def test_shortcut_list_is_complete_before_any_page_was_shown(qtbot, window):
    """Help ▸ Keyboard shortcuts opened at start (no platoon shown yet) still lists the platoon page's keys,
    and the keys that work through a widget's own key handling: Enter in the navigator's filter, Enter on a
    campaign's platoon list, Esc in a field with unsaved typing, Ctrl+Enter in a notes field."""
    from campaign_app.gui.help_dialogs import shortcut_rows
    from campaign_app.gui.platoon_page import PlatoonPage

    assert not window.stack.findChildren(PlatoonPage)  # no platoon page was built yet
    rows = {(r.what, r.keys) for r in shortcut_rows(window)}
    assert ("Remove the selected weapon (in a weapons table)", "Del") in rows
    whats = " / ".join(w for w, _k in rows)
    keys = {k for _w, k in rows}
    assert "In the navigator's filter box: go to the first match" in whats
    assert any("Enter" in k and "Down" in k for w, k in rows if "filter box" in w), rows
    assert any("open the platoon" in w.lower() and "Enter" in k for w, k in rows), rows
    assert any("Esc" in k and "field" in w.lower() for w, k in rows), rows
    assert any("Ctrl+Enter" in k or "Ctrl+Return" in k for k in keys), rows


def test_enter_in_the_navigator_filter_goes_to_the_first_match(qtbot, window):
    window.navigator.filter_edit.setFocus()
    qtbot.keyClicks(window.navigator.filter_edit, "Janne")
    qtbot.keyClick(window.navigator.filter_edit, Qt.Key.Key_Return)
    assert window.navigator.tree.hasFocus() and window.navigator.current()[0] == "sheet"


def test_field_keys_listed_in_help_work(qtbot, window):
    """Esc takes back typing not saved yet; Ctrl+Enter saves a notes field at once (both listed in Help)."""
    pid = _platoon_id()
    window.open_item("platoon", pid)
    page = window.page("platoon")
    page.leader_name.setFocus()
    qtbot.keyClicks(page.leader_name, " Jr")
    qtbot.keyClick(page.leader_name, Qt.Key.Key_Escape)
    assert page.leader_name.text() == "Lt. Okafor"
    page.notes.setFocus()
    page.notes.moveCursor(page.notes.textCursor().MoveOperation.End)
    qtbot.keyClicks(page.notes, " Good lads.")
    qtbot.keyClick(page.notes, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert page.notes.hasFocus()
    assert Platoon.get_by_id(pid).notes.endswith(" Good lads.")


def _guide_menu_paths() -> list[tuple[str, str, str]]:
    """(menu, item, keys) for every "**Menu ▸ Item** (Keys" the user guide names."""
    import re

    from campaign_app.resources import guide_dir

    text = " ".join((guide_dir() / "user-guide.md").read_text(encoding="utf-8").split())
    return [
        (m, i.strip(), k or "")
        for m, i, k in re.findall(r"\*\*(\w+) \u25b8 ([^*]+)\*\*(?: \(((?:Ctrl|Alt|Shift|F\d)[^),]*))?", text)
    ]


def test_user_guide_names_real_menu_items_and_keys(qtbot, window):
    """Every menu path the guide names is a menu item of the app, with the keys the guide gives; the sample
    item is named as on the first-run page (it loads two campaigns)."""
    from campaign_app.gui.help_dialogs import _plain

    menus = {_plain(a.text()): a.menu() for a in window.menuBar().actions() if a.menu() is not None}
    paths = _guide_menu_paths()
    assert len(paths) >= 10
    for menu, item, keys in paths:
        assert menu in menus, menu
        actions = {_plain(a.text()): a for a in menus[menu].actions() if not a.isSeparator()}
        # Undo and Redo name the step they take ("Undo Log battle 4 of 2nd Platoon")
        actions.update(
            {
                name: a
                for name, a in ((_plain(a.text()).split(" ")[0], a) for a in actions.values())
                if name in ("Undo", "Redo")
            }
        )
        assert item.rstrip("…") in actions, (menu, item, sorted(actions))
        if keys:
            action = actions[item.rstrip("…")]
            shown = [s.toString(QKeySequence.SequenceFormat.PortableText) for s in action.shortcuts()]
            assert keys in shown, (menu, item, keys, shown)
    assert _plain(window.act_sample.text()) == _plain(window.first_run.sample_button.text())


def test_each_database_reopens_its_own_last_item(qtbot, gui_ctx, tmp_path):
    """Closing the app on another database (--db) does not make this database forget what it showed."""
    from campaign_app.gui.context import AppContext
    from campaign_app.paths import AppPaths

    create_demo()
    first = MainWindow(gui_ctx)
    qtbot.addWidget(first)
    first.open_item("platoon", _platoon_id())
    first.close()
    other_ctx = AppContext(
        paths=AppPaths(data_dir=gui_ctx.paths.data_dir, db_file=tmp_path / "other.db"), settings=gui_ctx.settings
    )
    other = MainWindow(other_ctx)
    qtbot.addWidget(other)
    other.open_item("sheet", SologearSheet.select().first().id)
    other.close()
    again = MainWindow(gui_ctx)
    qtbot.addWidget(again)
    assert again.reopen_last()
    assert shown_item(again) == ("platoon", _platoon_id())


def test_desktop_entry_names_the_window_class(tmp_path):
    """On X11 a dock or task bar ties the window to the installed launcher (and its icon) by WM_CLASS: Qt's
    class is the application name, so the entry says StartupWMClass with that name; the files it installs
    pass desktop-file-validate where it is installed."""
    import shutil
    import subprocess

    from campaign_app import APP_NAME
    from campaign_app.desktop import desktop_entry_text, install_desktop

    lines = desktop_entry_text("campaign-app").splitlines()
    assert f"StartupWMClass={APP_NAME}" in lines
    installed = install_desktop(tmp_path, "campaign-app")
    validator = shutil.which("desktop-file-validate")
    if validator:
        entry = next(p for p in installed if p.suffix == ".desktop")
        out = subprocess.run([validator, str(entry)], capture_output=True, text=True, timeout=30)
        assert out.returncode == 0 and not out.stdout.strip(), out.stdout + out.stderr


def test_every_battle_wizard_shortcut_is_listed(qtbot, window):
    """The wizard is made when it opens, so its keys are declared in help_dialogs.WIZARD_KEYS: every QShortcut
    the wizard has is listed there (a new one added without a row fails here)."""
    from PySide6.QtGui import QShortcut

    from campaign_app.gui.battle_wizard import BattleWizard
    from campaign_app.gui.help_dialogs import shortcut_rows

    wizard = BattleWizard(window.ctx, _platoon_id(), window)
    qtbot.addWidget(wizard)
    native = QKeySequence.SequenceFormat.NativeText
    keys = {s.key().toString(native) for s in wizard.findChildren(QShortcut) if not s.key().isEmpty()}
    assert keys
    listed = {r.keys for r in shortcut_rows(window) if r.group == "Battle wizard"}
    assert keys <= listed, (keys, listed)
    assert any("Enter" in k for k in listed)
