"""The GUI's one change feed: every change reaches the views as ``OpChanges``, and each affected view reloads
once per change (counted by wrapping the views' reload methods on their classes)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWizard

from campaign_app.gui.campaign_dialog import NewCampaignDialog
from campaign_app.gui.context import AppContext
from campaign_app.gui.history_view import HistoryView
from campaign_app.gui.main_window import MainWindow
from campaign_app.gui.navigator import Navigator
from campaign_app.gui.platoon_page import PlatoonPage
from campaign_app.store.journal import OpChanges
from campaign_app.store.models import Battle, Campaign, Platoon

LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def reloads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often the platoon page, its History tab and the navigator read the database again."""
    counts: Counter[str] = Counter()

    def counting(cls: type, name: str, key: str) -> None:
        original: Callable[..., Any] = getattr(cls, name)

        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            counts[key] += 1
            return original(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, wrapper)

    counting(PlatoonPage, "load", "platoon page")
    counting(HistoryView, "reload", "history")
    counting(Navigator, "reload", "navigator")
    return counts


@pytest.fixture
def pid(congo_platoon) -> int:  # type: ignore[no-untyped-def]
    return int(congo_platoon(rival=True))


@pytest.fixture
def win(qtbot, gui_ctx: AppContext) -> Iterator[MainWindow]:  # type: ignore[no-untyped-def]
    """The main window, opened on the database as the test's fixtures left it."""
    window = MainWindow(gui_ctx)
    qtbot.addWidget(window)
    window.watcher.timer.stop()  # the feed is polled by the tests themselves
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    yield window


def heard(ctx: AppContext) -> list[OpChanges]:
    seen: list[OpChanges] = []
    ctx.signals.op_changed.connect(seen.append)
    return seen


def log_battle_in_wizard(qtbot, win: MainWindow) -> None:  # type: ignore[no-untyped-def]
    from driving import in_modal

    from campaign_app.gui.battle_wizard import BattleWizard

    def drive() -> None:
        wizard = QApplication.activeModalWidget()
        assert isinstance(wizard, BattleWizard)
        qtbot.keyClicks(wizard.battle_page.scenario, "Patrol")
        for _ in range(2):
            qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)
        while wizard.rolls_page.dice_input.roll_button.isEnabled():
            qtbot.mouseClick(wizard.rolls_page.dice_input.roll_button, LEFT)
        qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)
        if wizard.session.needs_replacement:
            qtbot.keyClicks(wizard.replacement_page.name, "Lt. Adebayo")
            qtbot.mouseClick(wizard.replacement_page.dice_input.roll_button, LEFT)
            qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)
        qtbot.mouseClick(wizard.button(QWizard.WizardButton.FinishButton), LEFT)

    errors = in_modal(qtbot, drive, BattleWizard)
    win.log_battle()  # Battle ▸ Log Battle… (Ctrl+B) on the platoon's page
    assert errors == []


def open_platoon_history(qtbot, win: MainWindow, pid: int) -> PlatoonPage:  # type: ignore[no-untyped-def]
    win.open_item("platoon", pid)
    page = win.page("platoon")
    assert isinstance(page, PlatoonPage)
    history = page.findChild(HistoryView)
    assert history is not None
    page.tabs.setCurrentWidget(history)
    qtbot.waitUntil(history.isVisible)
    return page


def test_logging_a_battle_reloads_each_affected_view_once(qtbot, pid, win, reloads) -> None:  # type: ignore[no-untyped-def]
    open_platoon_history(qtbot, win, pid)
    seen = heard(win.ctx)
    reloads.clear()
    log_battle_in_wizard(qtbot, win)
    assert Battle.select().where(Battle.platoon == pid).count() == 1
    assert [c.label for c in seen] == ["Log battle 1 of 2nd Platoon"]
    assert reloads == {"platoon page": 1, "history": 1, "navigator": 1}


def test_the_count_would_catch_a_second_announcement(qtbot, win, congo_platoon, reloads) -> None:  # type: ignore[no-untyped-def]
    """The control: announcing the same operation twice (what a caller repeating the news did) is counted as
    two reloads of each view."""
    pid = congo_platoon(rival=True)
    open_platoon_history(qtbot, win, pid)
    seen = heard(win.ctx)
    log_battle_in_wizard(qtbot, win)
    reloads.clear()
    win.ctx.signals.op_changed.emit(seen[-1])
    win.ctx.signals.op_changed.emit(seen[-1])
    assert reloads == {"platoon page": 2, "history": 2, "navigator": 2}


def test_a_new_campaign_reloads_the_navigator_once(qtbot, win, reloads) -> None:  # type: ignore[no-untyped-def]
    from driving import in_modal

    def fill() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, NewCampaignDialog)
        qtbot.keyClicks(dialog.name_edit, "Katanga 1961")
        qtbot.mouseClick(dialog.ok_button, LEFT)

    errors = in_modal(qtbot, fill, NewCampaignDialog)
    reloads.clear()
    win.new_campaign()  # File ▸ New Campaign…
    assert errors == []
    new_id = Campaign.get(Campaign.name == "Katanga 1961").id
    assert win.navigator.select("campaign", new_id, emit=False)
    assert reloads["navigator"] == 1


def test_another_programs_change_arrives_naming_its_operation(qtbot, pid, win, app_paths, reloads) -> None:  # type: ignore[no-untyped-def]
    page = open_platoon_history(qtbot, win, pid)
    seen = heard(win.ctx)
    reloads.clear()
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "campaign_app.cli",
            "--db",
            str(app_paths.db_file),
            "platoon",
            "rename",
            "2nd Platoon",
            "3rd Platoon",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.returncode == 0, cli.stderr
    assert win.watcher.poll() is True
    assert len(seen) == 1 and isinstance(seen[0], OpChanges)
    assert seen[0].operation_id is not None and seen[0].platoon_id == pid
    assert "3rd Platoon" in seen[0].label or "2nd Platoon" in seen[0].label
    assert seen[0].touches("platoon", pid)
    assert page.name_edit.text() == "3rd Platoon" and Platoon.get_by_id(pid).name == "3rd Platoon"
    assert reloads == {"platoon page": 1, "history": 1, "navigator": 1}
    assert win.watcher.poll() is False  # nothing new since: no second delivery


def test_own_writes_are_not_delivered_again_by_the_watcher(qtbot, pid, win, app_paths) -> None:  # type: ignore[no-untyped-def]
    page = open_platoon_history(qtbot, win, pid)
    seen = heard(win.ctx)
    page.name_edit.setFocus()
    page.name_edit.selectAll()
    qtbot.keyClicks(page.name_edit, "Able Platoon")
    qtbot.keyClick(page.name_edit, Qt.Key.Key_Return)
    assert Platoon.get_by_id(pid).name == "Able Platoon" and len(seen) == 1
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "campaign_app.cli",
            "--db",
            str(app_paths.db_file),
            "platoon",
            "set",
            "Able Platoon",
            "--notes",
            "from the CLI",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.returncode == 0, cli.stderr
    qtbot.waitUntil(lambda: win.watcher.poll() or len(seen) > 1, timeout=3000)
    assert [c.operation_id for c in seen[1:]] and seen[0].operation_id not in [c.operation_id for c in seen[1:]]


def test_several_changes_from_another_program_reload_each_view_once(qtbot, pid, win, app_paths, reloads) -> None:  # type: ignore[no-untyped-def]
    open_platoon_history(qtbot, win, pid)
    seen = heard(win.ctx)
    for args in (
        ["platoon", "set", "2nd Platoon", "--notes", "dug in"],
        ["platoon", "set", "2nd Platoon", "--xp", "9"],
    ):
        cli = subprocess.run(
            [sys.executable, "-m", "campaign_app.cli", "--db", str(app_paths.db_file), *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert cli.returncode == 0, cli.stderr
    reloads.clear()
    assert win.watcher.poll() is True
    assert len(seen) == 2 and all(c.platoon_id == pid for c in seen)  # both operations, by name, oldest first
    assert seen[0].operation_id < seen[1].operation_id  # type: ignore[operator]
    assert reloads == {"platoon page": 1, "history": 1, "navigator": 1}  # once each, not once per operation
    assert win.page("platoon").platoon_track.xp() == 9  # type: ignore[attr-defined]
    assert win.ctx.undo_stack.undoText().startswith("2nd Platoon")  # Edit ▸ Undo names the newest of them


def test_a_redo_by_another_program_reloads_everything(qtbot, pid, win, app_paths) -> None:  # type: ignore[no-untyped-def]
    """A change the journal's feed does not name (here: a redo made by another program on a file) still
    reaches every view, as "everything changed"."""
    from campaign_app.gui.feed import is_everything

    page = open_platoon_history(qtbot, win, pid)
    run = [sys.executable, "-m", "campaign_app.cli", "--db", str(app_paths.db_file)]
    for args in (["platoon", "set", "2nd Platoon", "--xp", "9"], ["undo"]):
        assert subprocess.run(run + args, capture_output=True, timeout=60).returncode == 0
    assert win.watcher.poll() is True and page.platoon_track.xp() == 6
    seen = heard(win.ctx)
    assert subprocess.run(run + ["redo"], capture_output=True, timeout=60).returncode == 0
    assert win.watcher.poll() is True
    assert len(seen) == 1 and (is_everything(seen[0]) or seen[0].platoon_id == pid)
    assert page.platoon_track.xp() == 9
