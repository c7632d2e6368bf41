"""View ▸ Theme and Text size (remembered, the pages holding at the largest size), File ▸ Open recent (files
and servers, never a password), the error dialog's Copy report and Open log folder."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pytest
from driving import focused
from layout_checks import demo_scenes, layout_problems, show_scene
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from campaign_app.app import build_parser
from campaign_app.gui.appearance import TEXT_STEPS, apply_saved_look, apply_text_step, apply_theme
from campaign_app.gui.main_window import RECENT_KEY, MainWindow
from campaign_app.gui.widgets import is_dark
from campaign_app.services.demo import create_demo
from campaign_app.store import init_db

CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def look(qapp) -> Iterator[None]:  # type: ignore[no-untyped-def]
    keep_palette, keep_style, keep_font = qapp.palette(), qapp.style().name(), qapp.font()
    yield
    apply_theme(qapp, "system")
    apply_text_step(qapp, 0)
    qapp.setStyle(keep_style)
    qapp.setPalette(keep_palette)
    qapp.setFont(keep_font)


def window(qtbot, ctx, size=(1280, 800)) -> MainWindow:  # type: ignore[no-untyped-def]
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    return win


def test_palette_has_help_text() -> None:
    text = build_parser().format_help()
    assert "--palette {system,light,dark}" in text and "View \u25b8 Theme" in text


def test_theme_from_the_view_menu_is_remembered(qtbot, gui_ctx, look) -> None:
    win = window(qtbot, gui_ctx)
    assert [a.text().replace("&", "") for a in win.theme_menu.actions()] == ["System", "Light", "Dark"]
    win.theme_actions["dark"].trigger()
    QApplication.processEvents()
    assert is_dark(win) and win.theme_actions["dark"].isChecked()
    assert gui_ctx.settings.value("view/theme") == "dark"
    win.theme_actions["system"].trigger()
    QApplication.processEvents()
    assert not is_dark(win)
    win.theme_actions["dark"].trigger()
    apply_theme(QApplication.instance(), "system")  # as if the app started again:
    apply_saved_look(QApplication.instance(), gui_ctx.settings)
    QApplication.processEvents()
    assert is_dark(win), (QApplication.palette().window().color().name(), QApplication.style().name())
    apply_saved_look(QApplication.instance(), gui_ctx.settings, "light")  # --palette wins for one run
    QApplication.processEvents()
    assert not is_dark(win) and gui_ctx.settings.value("view/theme") == "dark"


def test_larger_text_with_the_keyboard_is_remembered_and_the_pages_hold(qtbot, gui_ctx, look) -> None:
    create_demo()
    win = window(qtbot, gui_ctx)
    win.refresh()
    before = QApplication.font().pointSizeF()
    for _ in range(len(TEXT_STEPS)):  # more presses than steps: it stops at the largest
        qtbot.keyClick(focused(), Qt.Key.Key_Plus, CTRL)
    assert QApplication.font().pointSizeF() == before + TEXT_STEPS[-1]
    assert int(gui_ctx.settings.value("view/text_step")) == TEXT_STEPS[-1]
    assert not win.act_larger.isEnabled()
    problems = []
    for label, target in demo_scenes():
        show_scene(win, target)
        qtbot.wait(20)
        QApplication.processEvents()
        problems += [f"{label}: {p}" for p in layout_problems(win)]
    assert not problems, "\n".join(problems)
    qtbot.keyClick(focused(), Qt.Key.Key_0, CTRL)
    assert QApplication.font().pointSizeF() == before


def test_open_recent_lists_files_and_servers_without_passwords(qtbot, gui_ctx, app_paths, tmp_path) -> None:
    win = window(qtbot, gui_ctx)
    first = str(gui_ctx.paths.db_file)
    other = tmp_path / "league.db"
    init_db(other, app_paths.backup_dir, daily_backup=False)
    init_db(first, app_paths.backup_dir, daily_backup=False)
    assert win.open_database_file(str(other))
    assert gui_ctx.database_key == str(other.resolve())
    recent = json.loads(gui_ctx.settings.value(RECENT_KEY))
    assert recent[:2] == [str(other.resolve()), first]
    # a server that was used is listed by its address, never with its password
    gui_ctx.settings.setValue(RECENT_KEY, json.dumps([*recent, "postgresql://ana@club.example.org:5432/league"]))
    win.recent_menu.aboutToShow.emit()
    texts = [a.text() for a in win.recent_menu.actions()]
    assert texts[0] == f"&1 {first}" and any("Club server" in t and "ana@club.example.org" in t for t in texts)
    assert not any(":secret" in t or "password" in t for t in texts)
    win.recent_menu.actions()[0].trigger()  # back to the first file
    assert gui_ctx.database_key == first


def test_error_dialog_copies_a_report_and_opens_the_log_folder(qtbot, gui_ctx, monkeypatch) -> None:
    from campaign_app.app import install_exception_hook

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    opened: list[str] = []
    from campaign_app.gui import file_dialogs

    monkeypatch.setattr(file_dialogs, "open_with_desktop", lambda path: opened.append(str(path)) or True)
    install_exception_hook()
    window(qtbot, gui_ctx)
    clicks = ["Copy report", "Open log folder", "OK"]
    seen: list[str] = []

    def press() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or not clicks:
            QTimer.singleShot(10, press)
            return
        seen.append(box.informativeText())
        which = clicks.pop(0)
        button = next(b for b in box.buttons() if b.text().replace("&", "") == which)
        button.click()
        if clicks:
            QTimer.singleShot(10, press)

    QTimer.singleShot(0, press)
    try:
        raise RuntimeError("a bug in a view")
    except RuntimeError:
        sys.excepthook(*sys.exc_info())
    report = QApplication.clipboard().text()
    assert "RuntimeError: a bug in a view" in report and "Campaign App" in report
    assert opened == [str(gui_ctx.paths.log_dir)]
    assert not clicks
