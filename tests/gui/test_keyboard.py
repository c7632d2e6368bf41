"""Keyboard: no two visible Alt+letter mnemonics share a letter in any window, page, tab, menu or dialog the
app can open; Help ▸ Keyboard shortcuts lists the real shortcuts; focus comes back after a dialog."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from layout_checks import menu_clashes, mnemonic, mnemonic_clashes, walk_mnemonic_clashes
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QPushButton, QTabWidget, QWidget, QWizard

from campaign_app.gui.main_window import MainWindow
from campaign_app.services.demo import DEMO_CAMPAIGN, DEMO_PLATOON, DEMO_SOLOGEAR, create_demo
from campaign_app.store.models import Campaign, Platoon, SologearSheet


def test_mnemonic_helper_reads_qt_text():
    assert mnemonic("&File") == "f"
    assert mnemonic("Save && &quit") == "q"
    assert mnemonic("Fish && chips") is None
    assert mnemonic("Re&place leader…") == "p"


@pytest.fixture
def window(qtbot, gui_ctx):
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    qtbot.waitExposed(win)
    return win


def _scenes(win: MainWindow) -> list[tuple[str, tuple[str, int] | None]]:
    sheet = SologearSheet.select().first()
    return [
        ("empty page", None),
        ("campaign page (Atomic Africa)", ("campaign", Campaign.get(Campaign.name == DEMO_CAMPAIGN).id)),
        ("campaign page (Sologear)", ("campaign", Campaign.get(Campaign.name == DEMO_SOLOGEAR).id)),
        ("platoon page", ("platoon", Platoon.get(Platoon.name == DEMO_PLATOON).id)),
        ("Sologear page", ("sheet", sheet.id)),
    ]


def _show(win: MainWindow, target: tuple[str, int] | None) -> None:
    if target is None:
        win._current = None
        win.stack.setCurrentWidget(win.empty_page)
    else:
        win.open_item(*target)
    QApplication.processEvents()


def test_main_window_pages_tabs_and_menus_have_no_clashing_mnemonics(qtbot, window):
    problems = walk_mnemonic_clashes(window, "first-run page")
    create_demo()
    window.refresh()
    for label, target in _scenes(window):
        _show(window, target)
        problems += walk_mnemonic_clashes(window, label)
    for action in window.menuBar().actions():
        problems += menu_clashes(action.menu(), "main window")
    assert not problems, "\n".join(problems)


def test_platoon_page_alt_letters_open_the_menus(qtbot, window):
    """Alt+E, Alt+T, Alt+H reach the Edit, Tools and Help menus, not a field or tab of the page."""
    create_demo()
    window.refresh()
    window.open_item("platoon", Platoon.get(Platoon.name == DEMO_PLATOON).id)
    page = window.page("platoon")
    page.reason_edit.setFocus()
    letters = {mnemonic(a.text()): a.text() for a in window.menuBar().actions()}
    for letter in "eth":
        assert letter in letters
    problems = walk_mnemonic_clashes(window, "platoon page")
    assert not [p for p in problems if any(f"Alt+{x.upper()} " in p for x in "eth")], problems


def _check_dialog(qtbot, opener: Callable[[], object], where: str, seen: list[str],
                  problems: list[str]) -> None:
    """Run ``opener`` (a click or an action, as a person does), check the dialog it opens, close it."""
    found: list[QWidget] = []
    tries = [0]

    def inspect() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            visible = [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]
            dialog = visible[0] if visible else None
        if dialog is None:
            tries[0] += 1
            if tries[0] < 100:
                QTimer.singleShot(20, inspect)
            return
        found.append(dialog)
        title = dialog.windowTitle() or type(dialog).__name__
        seen.append(f"{where}: {title}")
        if isinstance(dialog, QWizard):
            problems.extend(mnemonic_clashes(dialog, f"{where}: {title}"))
        elif not isinstance(dialog, QFileDialog):  # Qt's own file dialog is Qt's business
            problems.extend(walk_mnemonic_clashes(dialog, f"{where}: {title}"))
        dialog.done(QDialog.DialogCode.Rejected) if isinstance(dialog, QDialog) else dialog.close()

    QTimer.singleShot(0, inspect)
    opener()
    qtbot.waitUntil(lambda: bool(found) or tries[0] >= 100, timeout=5000)
    QApplication.processEvents()


def _dialog_buttons(page: QWidget) -> list[QPushButton]:
    """Buttons that open a dialog ("…"), on every tab of the page."""
    return [b for b in page.findChildren(QPushButton) if b.text().endswith("\u2026")]


def _bring_to_front(button: QWidget) -> None:
    child: QWidget | None = button
    while child is not None:
        parent = child.parentWidget()
        if isinstance(parent, QWidget) and isinstance(parent.parentWidget(), QTabWidget):
            tabs = parent.parentWidget()
            tabs.setCurrentWidget(child)
        if parent is not None and parent.objectName() == "qt_tabwidget_stackedwidget":
            tabs = parent.parentWidget()
            if isinstance(tabs, QTabWidget):
                tabs.setCurrentWidget(child)
        child = parent


def test_every_dialog_has_no_clashing_mnemonics(qtbot, window):
    """Every dialog the main window and its pages open, as a person opens them: menu items and buttons whose
    text ends in "…", and the Help dialogs."""
    create_demo()
    window.refresh()
    problems: list[str] = []
    seen: list[str] = []
    done_actions: set[str] = set()
    for label, target in _scenes(window):
        _show(window, target)
        page = window.stack.currentWidget()
        for button in _dialog_buttons(page):
            _bring_to_front(button)
            QApplication.processEvents()
            if not (button.isVisible() and button.isEnabled()):
                continue
            _check_dialog(qtbot, lambda b=button: qtbot.mouseClick(b, Qt.MouseButton.LeftButton),
                          f"{label} button {button.text()!r}", seen, problems)
        for menu_action in window.menuBar().actions():
            for action in menu_action.menu().actions():
                text = action.text()
                if not (text.endswith("\u2026") or action in (window.act_shortcuts, window.act_about)):
                    continue
                if text in done_actions or not action.isEnabled():
                    continue
                done_actions.add(text)
                _check_dialog(qtbot, action.trigger, f"{label} menu {text!r}", seen, problems)
    # what was walked (so a dialog that silently stops opening shows up here)
    titles = "\n".join(seen)
    for expected in ("New campaign", "Keyboard shortcuts", "Log battle", "Print"):
        assert expected.lower() in titles.lower(), titles
    assert len(seen) >= 15, titles
    wizard = [p for p in problems if p.split(": ")[1].startswith("Log battle")]
    # the wizard's own clashes: see test_battle_wizard_has_no_clashing_mnemonics
    assert not [p for p in problems if p not in wizard], "\n".join(problems)
    print(titles)


@pytest.mark.xfail(strict=True, reason="the battle wizard's Alt+N (Next and Notes / Name) is fixed with the "
                                       "wizard work of issue 12; remove this mark when that lands")
def test_battle_wizard_has_no_clashing_mnemonics(qtbot, window):
    create_demo()
    window.refresh()
    window.open_item("platoon", Platoon.get(Platoon.name == DEMO_PLATOON).id)
    problems: list[str] = []
    seen: list[str] = []
    _check_dialog(qtbot, window.act_log_battle.trigger, "Battle menu", seen, problems)
    assert seen and "Log battle" in seen[0]
    assert not problems, "\n".join(problems)
