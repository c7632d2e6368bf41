"""A battle logged elsewhere while the wizard is open is said at once, on the page shown (Commit on
the Rolls page did nothing at all; only the Summary page explained, and until then the wizard showed the
stale "Battle 7")."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from driving import focused
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWizard

from campaign_app.gui.battle_wizard import PAGE_ROLLS, BattleWizard
from campaign_app.gui.main_window import MainWindow
from campaign_app.rules.dice import SeededDice
from campaign_app.store.models import Battle

CTRL = Qt.KeyboardModifier.ControlModifier
LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def pid(congo_platoon) -> int:  # type: ignore[no-untyped-def]
    return int(congo_platoon(leader_xp=0))


def test_a_battle_logged_by_the_cli_is_said_on_the_rolls_page(qtbot, gui_ctx, app_paths, pid: int) -> None:
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    win.watcher.timer.stop()  # polled by hand below (its timer does the same every 2 s)
    wizard = BattleWizard(gui_ctx, pid, win, dice=SeededDice(3))
    qtbot.addWidget(wizard, before_close_func=lambda w: setattr(w, "ask_discard", lambda: True))
    wizard.show()
    wizard.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is wizard)
    qtbot.waitUntil(lambda: focused() is wizard.battle_page.scenario)
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    assert wizard.currentId() == PAGE_ROLLS
    qtbot.keyClick(focused(), Qt.Key.Key_R, CTRL)  # every roll made
    assert "battle 1" in wizard.battle_page.subTitle().lower()
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "campaign_app.cli",
            "--db",
            str(app_paths.db_file),
            "battle",
            "log",
            "--platoon",
            "2nd Platoon",
            "--wounds",
            "0",
            "--leader-wounds",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert out.returncode == 0, out.stderr
    assert win.watcher.poll() is True
    error = wizard.rolls_page.error
    assert error.isVisible() and "changed since you started logging this battle" in error.text()
    assert "Log battle 1 of 2nd Platoon" in error.text()  # names what happened
    commit = wizard.button(QWizard.WizardButton.FinishButton)
    qtbot.mouseClick(commit, LEFT)
    assert wizard.isVisible() and "Not committed" in error.text()
    assert Battle.select().count() == 1  # the CLI's battle only


def test_each_page_checks_when_it_is_shown(qtbot, gui_ctx, pid: int) -> None:
    from campaign_app.services import platoons as platoon_service

    wizard = BattleWizard(gui_ctx, pid, dice=SeededDice(3))
    qtbot.addWidget(wizard, before_close_func=lambda w: setattr(w, "ask_discard", lambda: True))
    wizard.show()
    wizard.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is wizard)
    platoon_service.set_xp(pid, 9, reason="changed in another window")
    qtbot.waitUntil(lambda: focused() is wizard.battle_page.scenario)
    qtbot.keyClick(focused(), Qt.Key.Key_Return)  # on to the casualties page: checked at once
    error = wizard.casualties_page.error
    assert error.isVisible() and "changed since you started" in error.text()
