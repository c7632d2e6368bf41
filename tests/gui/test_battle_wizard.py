"""The post-battle wizard driven as a user would: app-rolled and typed dice, cancel at every step, undo/redo."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWizard

from campaign_app.gui.battle_wizard import (
    PAGE_BATTLE,
    PAGE_CASUALTIES,
    PAGE_REPLACEMENT,
    PAGE_ROLLS,
    PAGE_SUMMARY,
    BattleWizard,
    log_battle,
)
from campaign_app.rules.dice import DiceError, SeededDice, parse_faces
from campaign_app.services import battle_edits
from campaign_app.services.common import ServiceError
from campaign_app.store.database import db
from campaign_app.store.journal import operation
from campaign_app.store.models import AttributeChange, Battle, Campaign, Leader, Platoon, Roll, XpChange

LEFT = Qt.MouseButton.LeftButton


def dump() -> dict[str, list[tuple[Any, ...]]]:
    tables = [
        r[0]
        for r in db.execute_sql(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN "
            "('operation', 'operation_change', 'journal_state')"
        ).fetchall()
    ]
    return {t: db.execute_sql(f'SELECT * FROM "{t}" ORDER BY rowid').fetchall() for t in sorted(tables)}


@pytest.fixture
def pid(congo_platoon) -> int:  # type: ignore[no-untyped-def]
    return int(congo_platoon(rival=True))


def make(qtbot, gui_ctx, pid: int, seed: int = 1) -> BattleWizard:  # type: ignore[no-untyped-def]
    wizard = BattleWizard(gui_ctx, pid, dice=SeededDice(seed))
    # closing at the end of a test discards without asking (a test left mid-rolls would wait on the question)
    qtbot.addWidget(wizard, before_close_func=lambda w: setattr(w, "ask_discard", lambda: True))
    wizard.show()
    qtbot.waitExposed(wizard)
    return wizard


def click(qtbot, wizard: BattleWizard, which: QWizard.WizardButton) -> None:  # type: ignore[no-untyped-def]
    button = wizard.button(which)
    assert button.isVisible() and button.isEnabled(), which
    qtbot.mouseClick(button, LEFT)


def set_spin(qtbot, spin, value: int) -> None:  # type: ignore[no-untyped-def]
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(spin, str(value))
    assert spin.value() == value


def fill_battle_page(qtbot, wizard: BattleWizard) -> None:  # type: ignore[no-untyped-def]
    page = wizard.battle_page
    qtbot.keyClicks(page.scenario, "Hold the bridge")
    qtbot.keyClicks(page.opponent, "Red Company (Congo 1960)")
    page.outcome.setFocus()
    qtbot.keyClicks(page.outcome, "V")
    page.objectives.setFocus()
    qtbot.keyClick(page.objectives, Qt.Key.Key_Down)
    qtbot.mouseClick(page.fire_support, LEFT, pos=QPoint(8, page.fire_support.height() // 2))
    assert page.fire_support.isChecked()
    qtbot.keyClicks(page.notes, "Held until dusk")


def test_app_rolled_battle_end_to_end_then_undo_and_redo(qtbot, gui_ctx, pid: int) -> None:
    before = dump()
    wizard = make(qtbot, gui_ctx, pid, seed=8)
    assert "2nd Platoon: 6 XP (Regular)" in wizard.battle_page.subTitle()
    fill_battle_page(qtbot, wizard)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert wizard.currentId() == PAGE_CASUALTIES
    page = wizard.casualties_page
    set_spin(qtbot, page.wounds, 20)
    set_spin(qtbot, page.leader_wounds, 20)
    assert "Platoon 6 \u2192 8 XP" in page.award.text()
    assert [r[0] for r in page.leader_bars.rows()] == ["Casualty", "Promoted", "Stays"]
    assert page.leader_bars.rows()[0][2] == "93.1 %"  # P(2d12 <= 20) = 134/144
    assert page.recovery_bars.rows() and "Expected XP loss" in page.mean.text()
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert wizard.currentId() == PAGE_ROLLS
    rolls = wizard.rolls_page
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    assert rolls.step.text() == "Recovery roll 1: 1d8"
    seen_steps = []
    while rolls.dice_input.roll_button.isEnabled():
        seen_steps.append(rolls.step.text())
        qtbot.mouseClick(rolls.dice_input.roll_button, LEFT)
    assert seen_steps[0] == "Recovery roll 1: 1d8" and seen_steps[-1] == "Leader's fate: 2d12"
    assert rolls.model.rowCount() == len(seen_steps)
    assert all(rolls.model.index(r, 5).data() == "app" for r in range(rolls.model.rowCount()))
    fate = wizard.session.fate
    assert fate is not None
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    if wizard.session.needs_replacement:
        assert wizard.currentId() == PAGE_REPLACEMENT
        rep = wizard.replacement_page
        assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
        qtbot.keyClicks(rep.name, "Lt. Adebayo")
        assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()  # XP not rolled yet
        qtbot.mouseClick(rep.dice_input.roll_button, LEFT)
        assert "New leader's XP" in rep.result.text()
        click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert wizard.currentId() == PAGE_SUMMARY
    html = wizard.summary_page.text.toPlainText()
    assert "Hold the bridge" in html and "Red Company" in html and "RULES 1.2 recovery" in html
    assert dump() == before, "nothing is written before Commit"
    assert wizard.button(QWizard.WizardButton.FinishButton).text().replace("&", "") == "Commit"
    with qtbot.waitSignal(gui_ctx.signals.op_changed):
        click(qtbot, wizard, QWizard.WizardButton.FinishButton)
    assert wizard.result() == QDialog.DialogCode.Accepted
    b = Battle.get_by_id(wizard.battle_id)
    assert (b.scenario, b.opponent, b.outcome, b.objectives, b.fire_support, b.notes) == (
        "Hold the bridge",
        "Red Company",
        "victory",
        1,
        True,
        "Held until dusk",
    )
    assert b.opponent_platoon_id == Platoon.get(Platoon.name == "Red Company").id
    assert (b.wounds, b.leader_wounds, b.leader_fate) == (20, 20, fate)
    assert Roll.select().where(Roll.battle == b.id).count() == len(seen_steps) + (
        1 if wizard.session.needs_replacement else 0
    )
    after = dump()
    # the undo stack is the journal's view: the test data's operations, then the battle on top
    assert gui_ctx.undo_stack.undoText() == "Log battle 1 of 2nd Platoon" and not gui_ctx.undo_stack.canRedo()
    with qtbot.waitSignal(gui_ctx.signals.op_changed):
        gui_ctx.undo_stack.undo()
    assert dump() == before
    gui_ctx.undo_stack.redo()
    assert dump() == after


def test_typed_dice_are_checked_and_recovery_goes_one_step_at_a_time(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    set_spin(qtbot, wizard.casualties_page.wounds, 7)
    set_spin(qtbot, wizard.casualties_page.leader_wounds, 2)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    rolls = wizard.rolls_page
    faces = rolls.dice_input.faces
    qtbot.keyClicks(faces, "9")
    qtbot.keyClick(faces, Qt.Key.Key_Return)
    assert rolls.error.isVisible() and "9 is not a face of a d8" in rolls.error.text()
    assert rolls.model.rowCount() == 0
    for bad in ("7x", "3;", "3,,"):  # read by rules.dice.parse_faces, the one grammar of typed faces
        faces.clear()
        qtbot.keyClicks(faces, bad)
        qtbot.keyClick(faces, Qt.Key.Key_Return)
        with pytest.raises(DiceError) as shared:
            parse_faces(bad)
        assert rolls.error.text() == str(shared.value)
    assert rolls.model.rowCount() == 0
    faces.clear()
    qtbot.keyClicks(faces, "3")
    qtbot.mouseClick(rolls.dice_input.enter_button, LEFT)
    assert not rolls.error.isVisible()
    assert "3 removed, 4 remaining" in rolls.state.text() and "XP lost so far: 1" in rolls.state.text()
    assert rolls.step.text() == "Recovery roll 2: 2d8"
    qtbot.keyClicks(faces, "2")
    qtbot.keyClick(faces, Qt.Key.Key_Return)
    assert "2d8 needs 2 faces" in rolls.error.text()
    faces.clear()
    qtbot.keyClicks(faces, "2, 2")
    qtbot.keyClick(faces, Qt.Key.Key_Return)
    assert "7 removed, 0 remaining" in rolls.state.text()
    assert rolls.step.text() == "Leader's fate: 2d12"
    qtbot.keyClicks(faces, "2 1")  # 3: above 2 wound counters, not above 3 XP
    qtbot.keyClick(faces, Qt.Key.Key_Return)
    assert wizard.session.fate == "promoted" and "promoted" in rolls.step.text()
    assert [rolls.model.index(r, 5).data() for r in range(3)] == ["typed in"] * 3
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    rep = wizard.replacement_page
    assert wizard.currentId() == PAGE_REPLACEMENT and "promoted out of the platoon" in rep.subTitle()
    assert "lower of 2d10" in rep.step.text()
    qtbot.keyClicks(rep.dice_input.faces, "11, 3")
    qtbot.keyClick(rep.dice_input.faces, Qt.Key.Key_Return)
    assert "11 is not a face of a d10" in rep.error.text()
    rep.dice_input.faces.clear()
    qtbot.keyClicks(rep.dice_input.faces, "6")  # one face: the rule asks for two
    qtbot.keyClick(rep.dice_input.faces, Qt.Key.Key_Return)
    assert "2d10 needs 2 faces" in rep.error.text()
    rep.dice_input.faces.clear()
    qtbot.keyClicks(rep.dice_input.faces, "9, 6")
    qtbot.keyClick(rep.dice_input.faces, Qt.Key.Key_Return)
    assert "New leader's XP: 5 (rolled 9, 6: the lower die minus one)" in rep.result.text()
    qtbot.keyClicks(rep.name, "Lt. Adebayo")
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    text = wizard.summary_page.text.toPlainText()
    assert "Platoon XP: 6 \u2192 6" in text and "Lt. Okafor: XP 2 \u2192 3" in text and "Lt. Adebayo" in text
    click(qtbot, wizard, QWizard.WizardButton.FinishButton)
    new = Leader.get(Leader.status == "active")
    assert (new.name, new.xp, new.joined_battle_id) == ("Lt. Adebayo", 5, wizard.battle_id)
    assert [r.source for r in Roll.select()] == ["entered"] * 4
    assert Platoon.get_by_id(pid).xp == 6 and XpChange.select().count() == 3


def _go_to(qtbot, wizard: BattleWizard, stop: str) -> None:  # type: ignore[no-untyped-def]
    """Walk the wizard with app dice until ``stop``: battle, casualties, rolls-midway, rolls, replacement,
    summary."""
    if stop == "battle":
        fill_battle_page(qtbot, wizard)
        return
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    set_spin(qtbot, wizard.casualties_page.wounds, 30)
    set_spin(qtbot, wizard.casualties_page.leader_wounds, 30)
    if stop == "casualties":
        return
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    qtbot.mouseClick(wizard.rolls_page.dice_input.roll_button, LEFT)
    if stop == "rolls-midway":
        return
    while wizard.rolls_page.dice_input.roll_button.isEnabled():
        qtbot.mouseClick(wizard.rolls_page.dice_input.roll_button, LEFT)
    if stop == "rolls":
        return
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert wizard.currentId() == PAGE_REPLACEMENT  # 30 wounds on the leader: always a casualty
    qtbot.mouseClick(wizard.replacement_page.dice_input.roll_button, LEFT)
    qtbot.keyClicks(wizard.replacement_page.name, "Lt. Diallo")
    if stop == "replacement":
        return
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert wizard.currentId() == PAGE_SUMMARY


def test_suggest_offers_a_generated_leader_name(qtbot, gui_ctx, pid: int) -> None:
    """The replacement page's Suggest button fills in a name from the RULES.md 4 charts; the user can still
    type over it, and the new leader gets the name shown."""
    wizard = make(qtbot, gui_ctx, pid)
    _go_to(qtbot, wizard, "rolls")
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    rep = wizard.replacement_page
    qtbot.mouseClick(rep.dice_input.roll_button, LEFT)
    assert rep.suggest.isVisible() and rep.name.text() == ""
    qtbot.mouseClick(rep.suggest, LEFT)
    suggested = rep.name.text()
    # the Rank field says Lieutenant: the name comes without "Lt." (never "Lt. Woann", Lieutenant)
    assert suggested and not suggested.startswith("Lt.") and suggested[0].isupper()
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    click(qtbot, wizard, QWizard.WizardButton.FinishButton)
    assert Leader.get(Leader.status == "active").name == suggested


@pytest.mark.parametrize("stop", ["battle", "casualties", "rolls-midway", "rolls", "replacement", "summary"])
def test_cancel_at_any_step_writes_nothing(qtbot, gui_ctx, pid: int, stop: str) -> None:
    before = dump()
    wizard = make(qtbot, gui_ctx, pid)
    _go_to(qtbot, wizard, stop)
    asked: list[str] = []
    answer_discard_box(QMessageBox.StandardButton.Discard, asked)
    click(qtbot, wizard, QWizard.WizardButton.CancelButton)
    assert wizard.result() == QDialog.DialogCode.Rejected and wizard.battle_id is None
    assert bool(asked) == (stop not in ("battle", "casualties"))  # asked only once rolls were made
    assert dump() == before
    assert gui_ctx.undo_stack.count() == 0


def answer_discard_box(button: QMessageBox.StandardButton, asked: list[str]) -> None:
    def answer() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            asked.append(box.text())
            box.button(button).click()

    QTimer.singleShot(0, answer)


def test_cancel_after_rolls_can_be_called_off(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid)
    _go_to(qtbot, wizard, "rolls-midway")
    made = len(wizard.session.records)
    asked: list[str] = []
    answer_discard_box(QMessageBox.StandardButton.Cancel, asked)
    click(qtbot, wizard, QWizard.WizardButton.CancelButton)
    assert asked and "nothing has been saved" in asked[0]
    assert wizard.isVisible() and len(wizard.session.records) == made  # still there, rolls kept
    answer_discard_box(QMessageBox.StandardButton.Discard, asked)
    click(qtbot, wizard, QWizard.WizardButton.CancelButton)
    assert not wizard.isVisible() and len(asked) == 2


def test_back_keeps_the_rolls_and_changing_what_they_depend_on_asks_first(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid)
    _go_to(qtbot, wizard, "rolls-midway")
    made = [r.faces for r in wizard.session.records]
    assert wizard.rolls_page.model.rowCount() == 1
    click(qtbot, wizard, QWizard.WizardButton.BackButton)
    assert "1 roll already made for these counts: they are kept." in wizard.casualties_page.kept.text()
    click(qtbot, wizard, QWizard.WizardButton.BackButton)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert wizard.currentId() == PAGE_ROLLS
    assert [r.faces for r in wizard.session.records] == made, "Back and Next again keep the rolls made"
    # other counts: previewed, and Next asks; Cancel keeps the rolls and the counts they were made for
    click(qtbot, wizard, QWizard.WizardButton.BackButton)
    set_spin(qtbot, wizard.casualties_page.wounds, 35)
    assert "Next asks before discarding them" in wizard.casualties_page.kept.text()
    assert len(wizard.session.records) == 1 and wizard.session.wounds == 30
    asked: list[str] = []
    answer_discard_box(QMessageBox.StandardButton.Cancel, asked)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert asked and "1 roll made were for 30 wound counters" in asked[0]
    assert wizard.currentId() == PAGE_CASUALTIES and wizard.casualties_page.wounds.value() == 30
    assert [r.faces for r in wizard.session.records] == made
    set_spin(qtbot, wizard.casualties_page.wounds, 35)
    answer_discard_box(QMessageBox.StandardButton.Discard, asked)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert len(asked) == 2 and wizard.currentId() == PAGE_ROLLS
    assert wizard.rolls_page.model.rowCount() == 0
    assert wizard.rolls_page.step.text() == "Recovery roll 1: 1d8"


def test_changing_the_objectives_after_rolling_asks_first(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid)
    _go_to(qtbot, wizard, "rolls-midway")
    click(qtbot, wizard, QWizard.WizardButton.BackButton)
    click(qtbot, wizard, QWizard.WizardButton.BackButton)
    page = wizard.battle_page
    page.objectives.setFocus()
    qtbot.keyClick(page.objectives, Qt.Key.Key_Down)
    asked: list[str] = []
    answer_discard_box(QMessageBox.StandardButton.Cancel, asked)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert asked and "objectives change the award" in asked[0]
    assert wizard.currentId() == PAGE_BATTLE and page.objectives.currentIndex() == 0  # as rolled for
    assert len(wizard.session.records) == 1


def test_bad_details_keep_the_first_page(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid)
    qtbot.keyClicks(wizard.battle_page.opponent, "2nd Platoon (Congo 1960)")  # itself: not offered
    assert wizard.battle_page.opponent.findText("2nd Platoon (Congo 1960)") == -1
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert wizard.currentId() == PAGE_CASUALTIES
    assert wizard.session.details.opponent == "2nd Platoon (Congo 1960)"
    assert wizard.session.details.opponent_platoon is None


def test_platoon_without_leader_needs_no_leader_roll(qtbot, gui_ctx, pid: int) -> None:
    with operation("test.setup", "test data"):
        p = Platoon.create(campaign=Campaign.get(), name="Leaderless", training=6, equipment=6, morale=6, armor=1, xp=2)
    wizard = make(qtbot, gui_ctx, p.id)
    assert "with no leader" in wizard.battle_page.subTitle()
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    set_spin(qtbot, wizard.casualties_page.wounds, 1)
    assert "no leader" in wizard.casualties_page.leader_title.text()
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    qtbot.mouseClick(wizard.rolls_page.dice_input.roll_button, LEFT)
    assert "no leader's fate roll" in wizard.rolls_page.step.text()
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert wizard.currentId() == PAGE_SUMMARY
    click(qtbot, wizard, QWizard.WizardButton.FinishButton)
    assert Battle.get_by_id(wizard.battle_id).leader_fate is None


def test_commit_refused_when_the_platoon_changed_meanwhile(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid)
    _go_to(qtbot, wizard, "summary")
    with operation("test.setup", "test data"):
        Platoon.update(xp=9).where(Platoon.id == pid).execute()
    before = dump()
    click(qtbot, wizard, QWizard.WizardButton.FinishButton)
    assert wizard.isVisible() and wizard.summary_page.error.isVisible()
    assert "changed since you started logging this battle" in wizard.summary_page.error.text()
    assert dump() == before and Battle.select().count() == 0


def test_undo_after_an_edit_is_refused_in_the_status_bar(qtbot, gui_ctx, pid: int) -> None:

    wizard = make(qtbot, gui_ctx, pid)
    _go_to(qtbot, wizard, "summary")
    click(qtbot, wizard, QWizard.WizardButton.FinishButton)
    battle_op = gui_ctx.undo_stack.next_undo()
    assert battle_op is not None and battle_op.label == "Log battle 1 of 2nd Platoon"
    battle_edits.edit_battle_text(wizard.battle_id, notes="edited outside this window")  # as campaign-cli would
    before = dump()
    with qtbot.waitSignal(gui_ctx.signals.status) as blocker, pytest.raises(ServiceError):
        gui_ctx.undo_stack.step("undo", battle_op.id)  # undoing the battle itself is refused...
    assert "Cannot undo" in blocker.args[0] and "“Edit battle 1 of 2nd Platoon” (operation" in blocker.args[0]
    assert dump() == before and Battle.select().count() == 1 and AttributeChange.select().count() == 1
    # ...while Edit ▸ Undo takes the newest change first (the edit, the journal is shared), then the battle
    assert gui_ctx.undo_stack.undo().operation.label == "Edit battle 1 of 2nd Platoon"
    assert gui_ctx.undo_stack.undo().operation.label == "Log battle 1 of 2nd Platoon"
    assert Battle.select().count() == 0


def test_log_battle_hook_runs_the_wizard_modally(qtbot, gui_ctx, pid: int) -> None:
    from driving import in_modal

    def drive() -> None:
        wizard = QApplication.activeModalWidget()
        assert isinstance(wizard, BattleWizard)
        assert wizard.currentId() == PAGE_BATTLE
        qtbot.keyClicks(wizard.battle_page.scenario, "Patrol")
        for _ in range(2):
            click(qtbot, wizard, QWizard.WizardButton.NextButton)
        while wizard.rolls_page.dice_input.roll_button.isEnabled():
            qtbot.mouseClick(wizard.rolls_page.dice_input.roll_button, LEFT)
        click(qtbot, wizard, QWizard.WizardButton.NextButton)
        click(qtbot, wizard, QWizard.WizardButton.FinishButton)

    errors = in_modal(qtbot, drive, BattleWizard)  # a failed step closes the wizard: the test fails, not hangs
    battle_id = log_battle(gui_ctx, None, pid)
    assert errors == []
    assert battle_id is not None and Battle.get_by_id(battle_id).scenario == "Patrol"

    def cancel() -> None:
        wizard = QApplication.activeModalWidget()
        assert isinstance(wizard, BattleWizard)
        wizard.reject()

    errors = in_modal(qtbot, cancel, BattleWizard)
    assert log_battle(gui_ctx, None, pid) is None
    assert errors == []
    assert Battle.select().count() == 1


def test_more_leader_wounds_than_the_total_shows_why_and_keeps_next_disabled(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    page = wizard.casualties_page
    set_spin(qtbot, page.wounds, 3)
    set_spin(qtbot, page.leader_wounds, 5)
    next_button = wizard.button(QWizard.WizardButton.NextButton)
    assert page.error.isVisible() and "cannot exceed the battle's total wound counters (3)" in page.error.text()
    assert not next_button.isEnabled() and not page.odds_box.isVisible()
    set_spin(qtbot, page.wounds, 5)
    assert not page.error.isVisible() and page.odds_box.isVisible() and next_button.isEnabled()
    assert (wizard.session.wounds, wizard.session.leader_wounds) == (5, 5)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    assert wizard.currentId() == PAGE_ROLLS


def test_with_many_wound_counters_the_likely_results_are_in_view(qtbot, gui_ctx, pid: int) -> None:  # type: ignore[no-untyped-def]
    """With many wound counters the line under the recovery odds names the most likely result, and that row is
    inside the visible part of the list."""
    from campaign_app.services import platoons as platoon_service

    platoon_service.set_xp(pid, 30)
    wizard = make(qtbot, gui_ctx, pid, seed=8)
    fill_battle_page(qtbot, wizard)
    click(qtbot, wizard, QWizard.WizardButton.NextButton)
    page = wizard.casualties_page
    set_spin(qtbot, page.wounds, 30)
    rows = page.recovery_bars.rows()
    likely = max(range(len(rows)), key=lambda i: rows[i][1])
    assert rows[likely][0] != "lose 0 \u2192 32 XP"
    assert f"most likely: {rows[likely][0]} ({rows[likely][2]})" in page.mean.text()
    qtbot.wait(50)
    top = page.recovery_scroll.verticalScrollBar().value()
    view = page.recovery_scroll.viewport().height()
    row_y = likely * page.recovery_bars.ROW
    assert top <= row_y and row_y + page.recovery_bars.ROW <= top + view
