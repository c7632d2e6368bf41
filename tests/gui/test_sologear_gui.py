"""Sologear GUI: a new campaign, sheet entry with live odds, a full short campaign played to its end with
typed dice, dice validation, undo, and the table models."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from campaign_app.gui.sologear.page import SologearPage
from campaign_app.gui.sologear_dialogs import (
    EndDialog,
    LengthDialog,
    NewSologearDialog,
    PlayTurnDialog,
    RecordDialog,
    new_sologear_campaign,
)
from campaign_app.rules.dice import TypedDice
from campaign_app.rules.enums import TurnAction
from campaign_app.services import sologear_play as play_service
from campaign_app.services import sologear_sheet as sheet_service
from campaign_app.store.models import SologearSheet, SologearTurn

LEFT = Qt.MouseButton.LeftButton


def shared_message(text: str) -> str:
    from campaign_app.rules.dice import DiceError, parse_faces

    with pytest.raises(DiceError) as info:
        parse_faces(text)
    return str(info.value)


def click(qtbot, widget) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(widget, LEFT)


def type_into(qtbot, widget, text: str) -> None:  # type: ignore[no-untyped-def]
    widget.setFocus()
    widget.selectAll()
    qtbot.keyClicks(widget, text)


def make_page(qtbot, ctx, sheet_id: int) -> SologearPage:  # type: ignore[no-untyped-def]
    page = SologearPage(ctx)
    qtbot.addWidget(page)
    page.resize(980, 760)
    page.show_sheet(sheet_id)
    page.show()
    return page


def roll(qtbot, steps, faces: str) -> None:  # type: ignore[no-untyped-def]
    steps.faces_edit.clear()
    qtbot.keyClicks(steps.faces_edit, faces)
    qtbot.keyClick(steps.faces_edit, Qt.Key.Key_Return)


def test_new_sologear_campaign_dialog(qtbot, gui_ctx) -> None:  # type: ignore[no-untyped-def]
    seen: list[str] = []
    tries = [0]

    def fill() -> None:
        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, NewSologearDialog):
            tries[0] += 1
            if tries[0] < 200:
                QTimer.singleShot(10, fill)
            return
        try:
            qtbot.keyClicks(dlg.name_edit, "Hill 214")
            click(qtbot, dlg.buttons.button(QDialogButtonBox.StandardButton.Ok))  # no pilot yet
            seen.append(dlg.error.text())
            qtbot.keyClicks(dlg.pilot_edit, "Janne")
            qtbot.keyClicks(dlg.gear_name_edit, "Hunter")
            type_into(qtbot, dlg.gear_tv_spin, "250")
            qtbot.keyClicks(dlg.player_unit_edit, "Janne's Regiment")
            qtbot.keyClicks(dlg.enemy_unit_edit, "Johnboy's Company")
            dlg.ferocious_check.setChecked(True)
            click(qtbot, dlg.buttons.button(QDialogButtonBox.StandardButton.Ok))
        finally:
            if dlg.isVisible():
                dlg.reject()

    QTimer.singleShot(0, fill)
    sheet_id = new_sologear_campaign(gui_ctx, None)
    assert seen and "pilot" in seen[0]
    assert sheet_id is not None
    sheet = SologearSheet.get_by_id(sheet_id)
    assert (sheet.pilot, sheet.gear_name, sheet.gear_tv, sheet.ferocious) == ("Janne", "Hunter", 250, True)
    assert gui_ctx.undo_stack.count() == 1


def add_unit(
    qtbot,
    box,
    name: str,
    *,
    base: str | None = None,
    tv: str | None = None,  # type: ignore[no-untyped-def]
    skill: str | None = None,
    loyalty: str | None = None,
    commit: bool = True,
) -> None:
    qtbot.keyClicks(box.name_edit, name)
    if tv is not None:
        type_into(qtbot, box.tv_spin, tv)
    if base is not None:
        type_into(qtbot, box.base_spin, base)
    if skill is not None:
        box.skill_combo.setFocus()
        qtbot.keyClicks(box.skill_combo, skill)
    if loyalty is not None:
        box.loyalty_combo.setFocus()
        qtbot.keyClicks(box.loyalty_combo, loyalty)
    if commit:
        click(qtbot, box.add_button)


def test_sheet_entry_with_live_odds(qtbot, gui_ctx) -> None:  # type: ignore[no-untyped-def]
    sid = sheet_service.create_sheet("Hill 214", "Janne", 250).id
    page = make_page(qtbot, gui_ctx, sid)
    assert "enter the enemy's units" in page.odds_label.text()
    # typing the first unit: its total shows before it is added
    add_unit(qtbot, page.player_box, "1st Company", base="350", commit=False)
    assert page.player_box.preview_label.text() == "350"
    assert "700" not in page.player_box.total_label.text() and "350" in page.player_box.total_label.text()
    click(qtbot, page.player_box.add_button)
    assert page.player_box.model.rowCount() == 1 and page.player_box.name_edit.text() == ""
    # the second company from its TV: base = TV / 20
    add_unit(qtbot, page.player_box, "2nd Company", tv="7000", commit=False)
    assert page.player_box.base_spin.value() == 350
    click(qtbot, page.player_box.add_button)
    assert page.player_box.total_label.text() == "Total combat power: 700"
    # the enemy, typed: the odds update before Add is pressed
    add_unit(qtbot, page.enemy_box, "Johnboy's Company", base="400", skill="V", loyalty="F", commit=False)
    assert page.enemy_box.preview_label.text() == "1 350"
    assert "0.519" in page.odds_label.text() and "Equal" in page.odds_label.text()
    assert "preview" in page.odds_label.text()
    click(qtbot, page.enemy_box.add_button)
    assert page.odds_label.text() == "Odds: 700 ÷ 1 350 = 0.519, read as 0.52  →  Equal"
    force = sheet_service.sheet_data(sid).forces.enemy[0]
    assert (force.skill, force.loyalty, force.total) == ("veteran", "firm", 1350)
    # an edit in the table: Elite instead of Veteran -> Disadvantaged? 400*4*1.5 = 2400 -> 0.29 Losing
    model = page.enemy_box.model
    assert model.setData(model.index(0, 3), "elite")
    qtbot.waitUntil(lambda: "Losing" in page.odds_label.text())
    # Edit > Undo puts Veteran back
    gui_ctx.undo_stack.undo()
    assert "Equal" in page.odds_label.text()
    assert page.length_button.isEnabled() and "1d6" in page.length_label.text()


def sheet_with_units(length: int | None = None) -> int:
    sid = sheet_service.create_sheet("Hill 214", "Janne", 250, gear_name="Hunter").id
    sheet_service.add_force(sid, "player", "1st Company", base_power=350)
    sheet_service.add_force(sid, "player", "2nd Company", base_power=350)
    sheet_service.add_force(sid, "enemy", "Johnboy's Company", base_power=400, skill="veteran", loyalty="firm")
    if length:
        play_service.roll_length(sid, TypedDice([[length]]))
    return sid


def test_full_short_campaign_with_typed_dice(qtbot, gui_ctx) -> None:  # type: ignore[no-untyped-def]
    sid = sheet_with_units()
    page = make_page(qtbot, gui_ctx, sid)
    # length: 1d6 typed as 2
    click(qtbot, page.length_button)
    dlg = page.dialog
    assert isinstance(dlg, LengthDialog)
    assert dlg.steps.ask_label.text() == "Roll 1: 1d6 for campaign length"
    roll(qtbot, dlg.steps, "2")
    click(qtbot, dlg.ok_button)
    assert page.dialog is None and "2 battle turns" in page.length_label.text()

    # turn 1: FIG, Bold
    click(qtbot, page.play_button)
    dlg = page.dialog
    assert isinstance(dlg, PlayTurnDialog)
    assert not dlg.rep_radio.isEnabled()  # the Gear is not damaged
    click(qtbot, dlg.fig_radio)
    dlg.posture_combo.setFocus()
    qtbot.keyClicks(dlg.posture_combo, "+2")
    assert dlg.posture == 2
    click(qtbot, dlg.start_button)
    assert "2d6+2" in dlg.steps.ask_label.text()
    roll(qtbot, dlg.steps, "4,5")  # 9 + 2 = 11 on Equal: 2D6G,##
    assert "Row 11, Equal: 2D6G,##" in dlg.cell_label.text()
    assert not dlg.ok_button.isEnabled()
    roll(qtbot, dlg.steps, "3,2")  # 5 Glory markers
    roll(qtbot, dlg.steps, "1,2,3,4")
    roll(qtbot, dlg.steps, "3")  # South
    assert dlg.ok_button.isEnabled() and dlg.steps.log.count() == 4
    click(qtbot, dlg.ok_button)
    # the record dialog follows at once
    rec = page.dialog
    assert isinstance(rec, RecordDialog)
    assert rec.glory_spin.maximum() == 5 and rec.damaged_check.isChecked()  # ## took a light critical
    type_into(qtbot, rec.glory_spin, "3")
    type_into(qtbot, rec.bunkers_spin, "1")
    click(qtbot, rec.buttons.button(QDialogButtonBox.StandardButton.Ok))
    assert page.dialog is None
    assert page.turn_model.rows()[0][:4] == ["1", "FIG(+2)", "", "3"]
    assert "1 bunker" in page.turn_model.rows()[0][4]
    turn = SologearTurn.get(SologearTurn.sheet == sid)
    assert (turn.glory_collected, turn.bunkers_destroyed, turn.recorded) == (3, 1, True)

    # turn 2: DEC ends the campaign
    click(qtbot, page.play_button)
    dlg = page.dialog
    assert dlg.rep_radio.isEnabled()  # damaged now
    click(qtbot, dlg.dec_radio)
    click(qtbot, dlg.start_button)
    assert dlg.ok_button.isEnabled()
    click(qtbot, dlg.ok_button)
    assert page.tabs.currentWidget() is page.end_tab
    assert not page.play_button.isEnabled()
    assert page.recognition_total.text().startswith("<b>Recognition 15</b>")

    # the reckoning: D66 14 (noticed on 11-14), then 1d6 3 - 4 impression = -1
    click(qtbot, page.reckon_button)
    dlg = page.dialog
    assert isinstance(dlg, EndDialog)
    roll(qtbot, dlg.steps, "1,4")
    assert "noticed" in dlg.result_label.text()
    assert "1d6-4" in dlg.steps.ask_label.text()
    roll(qtbot, dlg.steps, "3")
    click(qtbot, dlg.ok_button)
    assert page.dialog is None
    assert "Punishments roll 1d6 [3] -4 = -1 (0 to −4)" in page.outcome_label.text()
    assert page.noticed_label.text() == "D66 rolled 14: noticed."
    assert page.recognition_model.rows()[0] == ["DEC", "1", "+8", "+8"]
    assert page.impression_model.rows()[0] == ["DEC", "1", "-9", "-9"]
    history = [r[1].strip() for r in page.history_model.rows()]
    assert history[-1].startswith("Reckoning: recognition 15, impression -4")
    assert sum("· typed" in h for h in history) == 1 + 4 + 2

    # undo the reckoning with the page's button, then redo it from the app-wide undo stack (the journal's view)
    click(qtbot, page.undo_reckoning_button)
    assert page.noticed_label.text() == "Not rolled yet." and page.reckon_button.isEnabled()
    assert gui_ctx.undo_stack.redoText().startswith("Janne") or gui_ctx.undo_stack.canRedo()
    gui_ctx.undo_stack.redo()
    assert page.noticed_label.text() == "D66 rolled 14: noticed."


def test_typed_dice_are_checked(qtbot, gui_ctx) -> None:  # type: ignore[no-untyped-def]
    sid = sheet_with_units(length=3)
    page = make_page(qtbot, gui_ctx, sid)
    click(qtbot, page.play_button)
    dlg = page.dialog
    click(qtbot, dlg.start_button)
    steps = dlg.steps
    roll(qtbot, steps, "7,1")
    assert steps.error.isVisible() and "not a face of a d6" in steps.error.text()
    roll(qtbot, steps, "3")
    assert "needs 2 faces" in steps.error.text()
    for bad in ("three", "5;2", "6,,1"):  # read by rules.dice.parse_faces, the one grammar of typed faces
        roll(qtbot, steps, bad)
        assert steps.error.text() == shared_message(bad)
    assert steps.log.count() == 0 and "Roll 1: 2d6" in steps.ask_label.text()
    # "Roll for me" with the app's dice (a typed source stands in for the random generator)
    steps.app_dice = TypedDice([[1, 1], [1, 1, 1, 1], [4]])
    click(qtbot, steps.roll_button)
    assert not steps.error.text() and steps.log.count() == 1
    click(qtbot, steps.roll_button)
    click(qtbot, steps.roll_button)
    assert steps.done
    click(qtbot, dlg.ok_button)
    rolls = sheet_service.sheet_data(sid).turns[0].rolls
    assert [r.source for r in rolls] == ["app", "app", "app"] and rolls[2].outcome.endswith("West edge")
    page.dialog.reject()
    # undo the turn with the page's button
    assert page.undo_button.text().replace("&", "") == "Undo turn 1"
    click(qtbot, page.undo_button)
    assert sheet_service.sheet_data(sid).turns_played == 0


def test_cancelled_turn_writes_nothing(qtbot, gui_ctx) -> None:  # type: ignore[no-untyped-def]
    sid = sheet_with_units(length=3)
    page = make_page(qtbot, gui_ctx, sid)
    click(qtbot, page.play_button)
    dlg = page.dialog
    click(qtbot, dlg.start_button)
    roll(qtbot, dlg.steps, "6,6")
    click(qtbot, dlg.buttons.button(QDialogButtonBox.StandardButton.Cancel))
    assert SologearTurn.select().count() == 0 and gui_ctx.undo_stack.count() == 0


def test_models_pass_the_model_tester(qtbot, gui_ctx, qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    sid = sheet_with_units(length=2)
    play_service.play_turn(sid, TurnAction.FIG, 0, dice=TypedDice([[4, 5], [2], [4], [1, 1, 1, 1], [2]]))
    play_service.record_turn(sid, 1, glory=2, enemy_tv=300)
    page = make_page(qtbot, gui_ctx, sid)
    for model in (
        page.player_box.model,
        page.enemy_box.model,
        page.turn_model,
        page.recognition_model,
        page.impression_model,
        page.history_model,
    ):
        assert model.rowCount() > 0
        qtmodeltester.check(model)
    assert page.turn_model.rows()[0][2] == "300/300 TV"


def test_options_tab(qtbot, gui_ctx) -> None:  # type: ignore[no-untyped-def]
    sid = sheet_with_units(length=2)
    page = make_page(qtbot, gui_ctx, sid)
    page.tabs.setCurrentWidget(page.options_tab)
    page.variable_check.setFocus()
    qtbot.keyClick(page.variable_check, Qt.Key.Key_Space)
    assert SologearSheet.get_by_id(sid).variable_tables
    type_into(qtbot, page.reward_dice_edit, "2d6")
    qtbot.keyClick(page.reward_dice_edit, Qt.Key.Key_Return)
    assert SologearSheet.get_by_id(sid).reward_dice == "2d6"
    type_into(qtbot, page.reward_dice_edit, "lots")
    qtbot.keyClick(page.reward_dice_edit, Qt.Key.Key_Return)
    assert SologearSheet.get_by_id(sid).reward_dice == "2d6" and page.reward_dice_edit.text() == "2d6"
    play_service.play_turn(sid, TurnAction.DEC, dice=TypedDice([]))
    page.reload()
    assert not page.ferocious_check.isEnabled()


def test_header_edits(qtbot, gui_ctx) -> None:  # type: ignore[no-untyped-def]
    sid = sheet_with_units()
    page = make_page(qtbot, gui_ctx, sid)
    type_into(qtbot, page.fields["area"], "Badlands")
    qtbot.keyClick(page.fields["area"], Qt.Key.Key_Return)
    type_into(qtbot, page.gear_tv_spin, "450")
    qtbot.keyClick(page.gear_tv_spin, Qt.Key.Key_Return)
    data = sheet_service.sheet_data(sid)
    assert data.area == "Badlands" and data.gear_tv == 450
    assert page.enemy_column_label.text() == "enemy-quality column ≤500"


def test_unit_table_edits_through_the_item_editors(qtbot, gui_ctx) -> None:  # type: ignore[no-untyped-def]
    sid = sheet_with_units()
    page = make_page(qtbot, gui_ctx, sid)
    view, model = page.enemy_box.table, page.enemy_box.model
    # the name: a line edit
    index = model.index(0, 0)
    view.setCurrentIndex(index)
    view.edit(index)
    editor = view.focusWidget()
    editor.selectAll()
    qtbot.keyClicks(editor, "Rabid Company")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: model.index(0, 0).data() == "Rabid Company")
    # the skill: a combo box offering the rules' words
    index = model.index(0, 3)
    view.setCurrentIndex(index)
    view.edit(index)
    combo = view.focusWidget()
    assert [combo.itemData(i) for i in range(combo.count())] == ["rookie", "regular", "veteran", "elite", "legendary"]
    combo.setCurrentIndex(combo.findData("regular"))
    qtbot.keyClick(combo, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "1.167" in page.odds_label.text())  # 700 / 600
    # the company TV: the base follows (TV / 20)
    index = model.index(0, 1)
    view.setCurrentIndex(index)
    view.edit(index)
    spin = view.focusWidget()
    spin.selectAll()
    qtbot.keyClicks(spin, "14000")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: model.index(0, 2).data() == "700")
    odds = sheet_service.sheet_data(sid).odds
    assert odds is not None and odds.band == "Equal" and odds.ratio == 700 / 1050


def test_unit_controls_are_locked_once_the_length_is_rolled(qtbot, gui_ctx) -> None:  # type: ignore[no-untyped-def]
    sid = sheet_with_units(length=4)
    page = make_page(qtbot, gui_ctx, sid)
    box, model = page.enemy_box, page.enemy_box.model
    for w in (
        box.name_edit,
        box.tv_spin,
        box.base_spin,
        box.skill_combo,
        box.loyalty_combo,
        box.add_button,
        box.remove_button,
    ):
        assert not w.isEnabled()
    assert "undo the length roll first" in box.add_button.toolTip()
    columns = [key for key, _title in model.COLUMNS]
    editable = {key for i, key in enumerate(columns) if model.flags(model.index(0, i)) & Qt.ItemFlag.ItemIsEditable}
    assert editable == {"name"}, "only names can change once the length is rolled"
    play_service.undo_last(sid)
    page.show_sheet(sid)
    assert box.add_button.isEnabled() and box.remove_button.isEnabled() and box.add_button.toolTip() == ""
    assert {key for i, key in enumerate(columns) if model.flags(model.index(0, i)) & Qt.ItemFlag.ItemIsEditable} == set(
        model.EDITABLE
    )


def test_odds_line_shows_the_two_decimal_value_the_table_is_read_with() -> None:
    from campaign_app.gui.sologear.tables import odds_text

    assert odds_text(100, 300) == "Odds: 100 ÷ 300 = 0.333, read as 0.33  →  Losing"
    assert odds_text(599, 200) == "Odds: 599 ÷ 200 = 2.995, read as 3.00  →  Winning"


def test_base_power_out_of_range_is_refused_not_clamped(qtbot, gui_ctx) -> None:  # type: ignore[no-untyped-def]
    """The decimal field works like every number field: focus selects its text, and 2,000,000 (above the
    1,000,000 limit) is refused by Add with the reason, never added as 1,000,000 or as the last good value."""
    sid = sheet_service.create_sheet("Hill 214", "Janne", 250).id
    page = make_page(qtbot, gui_ctx, sid)
    box = page.player_box
    statuses: list[str] = []
    gui_ctx.signals.status.connect(statuses.append)
    qtbot.keyClicks(box.name_edit, "1st Company")
    qtbot.keyClick(box.name_edit, Qt.Key.Key_Tab)  # to the TV field
    qtbot.keyClick(box.tv_spin, Qt.Key.Key_Tab)  # to base power: its text is selected on focus
    qtbot.keyClicks(box.base_spin, "2000000")
    assert box.base_spin.lineEdit().text().startswith("2000000")  # kept as typed, not clamped
    assert "too high" in box.base_spin.problem()
    click(qtbot, box.add_button)
    assert box.model.rowCount() == 0
    assert any("too high" in s for s in statuses)
    box.base_spin.selectAll()
    qtbot.keyClicks(box.base_spin, "350")
    click(qtbot, box.add_button)
    assert box.model.rowCount() == 1 and box.model.row_data(0).base_power == 350
