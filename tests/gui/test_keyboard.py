"""Keyboard: no two visible Alt+letter mnemonics share a letter in any window, page, tab, menu or dialog the
app can open; Help ▸ Keyboard shortcuts lists the real shortcuts; focus comes back after a dialog."""

from __future__ import annotations

import pytest
from layout_checks import (
    check_dialog,
    demo_scenes,
    menu_clashes,
    mnemonic,
    mnemonic_clashes,
    show_scene,
    walk_dialogs,
    walk_mnemonic_clashes,
)
from PySide6.QtWidgets import QFileDialog, QWidget, QWizard

from campaign_app.gui.main_window import MainWindow
from campaign_app.services.demo import DEMO_PLATOON, create_demo
from campaign_app.store.models import Platoon


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
    return demo_scenes()


def test_main_window_pages_tabs_and_menus_have_no_clashing_mnemonics(qtbot, window):
    problems = walk_mnemonic_clashes(window, "first-run page")
    create_demo()
    window.refresh()
    for label, target in _scenes(window):
        show_scene(window, target)
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


def dialog_mnemonic_clashes(dialog: QWidget, where: str) -> list[str]:
    if isinstance(dialog, QWizard):
        return mnemonic_clashes(dialog, where)
    if isinstance(dialog, QFileDialog):
        return []  # Qt's own file dialog is Qt's business
    return walk_mnemonic_clashes(dialog, where)


def test_every_dialog_has_no_clashing_mnemonics(qtbot, window):
    """Every dialog the main window and its pages open, as a person opens them: menu items and buttons whose
    text ends in "…", and the Help dialogs."""
    create_demo()
    window.refresh()
    seen, problems = walk_dialogs(qtbot, window, _scenes(window), dialog_mnemonic_clashes)
    titles = "\n".join(seen)
    for expected in ("New campaign", "Keyboard shortcuts", "Log battle", "Print"):
        assert expected.lower() in titles.lower(), titles
    assert len(seen) >= 15, titles
    wizard = [p for p in problems if p.split(": ")[1].startswith("Log battle")]
    # the wizard's own clashes: see test_battle_wizard_has_no_clashing_mnemonics
    assert not [p for p in problems if p not in wizard], "\n".join(problems)


def test_battle_wizard_has_no_clashing_mnemonics(qtbot, window):
    create_demo()
    window.refresh()
    window.open_item("platoon", Platoon.get(Platoon.name == DEMO_PLATOON).id)
    problems: list[str] = []
    seen: list[str] = []
    check_dialog(qtbot, window.act_log_battle.trigger, "Battle menu", seen, problems, dialog_mnemonic_clashes)
    assert seen and "Log battle" in seen[0]
    assert not problems, "\n".join(problems)
