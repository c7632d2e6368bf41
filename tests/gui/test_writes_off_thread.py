"""Logging a battle and undo/redo off the GUI thread on a club server: a real PostgreSQL behind the latency proxy
(tests/gui/test_page_load_off_thread.py's fixture). The write runs on the window's worker; meanwhile the window
handles input; the result arrives through the one change feed (``op_changed``); a refusal is shown as on a
file."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard
from test_page_load_off_thread import _platoon_page, _window, slow_club  # noqa: F401 - the fixture

from campaign_app.gui.battle_wizard import BattleWizard
from campaign_app.gui.undo_commands import perform
from campaign_app.rules.dice import SeededDice
from campaign_app.services import platoons as platoon_service

pytest.importorskip("psycopg")

LEFT = Qt.MouseButton.LeftButton


def _kinds(win: Any) -> list[str]:
    heard: list[str] = []
    win.ctx.signals.op_changed.connect(lambda changes: heard.append(changes.kind))
    return heard


def test_undo_and_redo_run_on_the_worker_and_arrive_as_the_feed(qtbot, app_paths, slow_club) -> None:  # type: ignore[no-untyped-def]
    url, ids = slow_club
    win = _window(qtbot, app_paths, url)
    page = _platoon_page(win)
    pid = ids["2nd Platoon"]
    win.open_item("platoon", pid)
    qtbot.waitUntil(lambda: page.name_edit.text() == "2nd Platoon" and not page.loading.waiting, timeout=10000)
    perform(win.ctx, platoon_service.rename_platoon, pid, "2nd Rifles")
    qtbot.waitUntil(lambda: page.name_edit.text() == "2nd Rifles", timeout=10000)
    heard = _kinds(win)
    stack = win.ctx.undo_stack
    assert "2nd Rifles" in stack.undoText()

    assert stack.undo() is None  # sent to the worker: the event loop is free
    worker = win.ctx.db_worker
    assert worker is not None and worker.pending >= 1
    qtbot.keyClicks(win.navigator.filter_edit, "2nd")  # typing works meanwhile
    assert win.navigator.filter_edit.text() == "2nd"
    assert stack.undo() is None  # a second Undo while the first runs is refused, not queued
    assert "still being sent" in win.statusBar().currentMessage()
    qtbot.waitUntil(lambda: page.name_edit.text() == "2nd Platoon", timeout=10000)
    assert heard == ["platoon.rename"]  # the undo's changes, once, through the feed
    assert platoon_service.platoon_detail(pid).name == "2nd Platoon"

    stack.redo()
    qtbot.waitUntil(lambda: page.name_edit.text() == "2nd Rifles", timeout=10000)
    assert platoon_service.platoon_detail(pid).name == "2nd Rifles"


def test_a_refused_undo_is_shown_in_the_status_bar(qtbot, app_paths, slow_club) -> None:  # type: ignore[no-untyped-def]
    url, ids = slow_club
    win = _window(qtbot, app_paths, url)
    pid = ids["2nd Platoon"]
    perform(win.ctx, platoon_service.rename_platoon, pid, "2nd Rifles")
    stack = win.ctx.undo_stack
    stack.sync()  # on a server: read on the window's database thread
    qtbot.waitUntil(lambda: stack.next_undo() is not None, timeout=10000)
    op = stack.next_undo()
    assert op is not None
    platoon_service.rename_platoon(pid, "2nd Lancers")  # a later operation on the same row, not in the view yet
    stack.sync = lambda: True  # type: ignore[method-assign]  # the view still names the rename
    assert stack.undo() is None
    worker = win.ctx.db_worker
    assert worker is not None
    qtbot.waitUntil(lambda: worker.pending == 0, timeout=10000)
    assert "2nd Lancers" in win.statusBar().currentMessage() or "later" in win.statusBar().currentMessage()
    assert platoon_service.platoon_detail(pid).name == "2nd Lancers"  # nothing was written


def test_a_battle_is_committed_on_the_worker(qtbot, app_paths, slow_club) -> None:  # type: ignore[no-untyped-def]
    url, ids = slow_club
    win = _window(qtbot, app_paths, url)
    pid = ids["3rd Platoon"]
    heard = _kinds(win)
    wizard = BattleWizard(win.ctx, pid, win, dice=SeededDice(3))
    qtbot.addWidget(wizard, before_close_func=lambda w: setattr(w, "ask_discard", lambda: True))
    wizard.show()
    qtbot.waitExposed(wizard)
    qtbot.keyClicks(wizard.battle_page.scenario, "Hold the bridge")
    wizard.battle_page.outcome.setFocus()
    qtbot.keyClicks(wizard.battle_page.outcome, "V")
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)
    rolls = wizard.rolls_page
    while rolls.dice_input.roll_button.isEnabled():
        qtbot.mouseClick(rolls.dice_input.roll_button, LEFT)
    while (
        wizard.button(QWizard.WizardButton.NextButton).isVisible() and wizard.currentPage() is not wizard.summary_page
    ):
        qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)
    commit = wizard.button(QWizard.WizardButton.FinishButton)
    qtbot.mouseClick(commit, LEFT)
    assert wizard.committing  # on its way: the wizard waits, its buttons off
    assert not commit.isEnabled()
    assert wizard.isVisible()
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=15000)
    assert wizard.edit is not None
    assert heard == ["battle.log"]
    assert platoon_service.platoon_detail(pid).battles == 1
    qtbot.waitUntil(lambda: "Log battle 1 of 3rd Platoon" in win.ctx.undo_stack.undoText(), timeout=10000)


def test_an_undo_on_the_worker_is_not_news_to_the_window_that_made_it(qtbot, app_paths, slow_club) -> None:  # type: ignore[no-untyped-def]
    url, ids = slow_club
    win = _window(qtbot, app_paths, url)
    win.start_live()
    assert win.live is not None and win.live.connected
    pid = ids["2nd Platoon"]
    perform(win.ctx, platoon_service.rename_platoon, pid, "2nd Rifles")
    delivered: list[int] = []
    win.live.delivered.connect(delivered.append)
    heard = _kinds(win)
    win.ctx.undo_stack.undo()
    worker = win.ctx.db_worker
    assert worker is not None
    qtbot.waitUntil(lambda: worker.pending == 0, timeout=10000)
    qtbot.wait(1500)  # the server's announcement of the undo arrives meanwhile
    assert heard == ["platoon.rename"]  # once: from the worker's answer, not again as news
    assert delivered == []
    assert worker.session is not None  # the worker knows its server process (no round trip asked)
