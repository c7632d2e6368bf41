"""Logging a battle at the table, driven with the keys and clicks a player uses: six actions from the open app,
numbers that are never misread (5 stays 5) nor clamped, Roll all remaining, Ctrl+B from anywhere."""

from __future__ import annotations

import datetime as _dt

import pytest
from driving import focused, in_modal, shown_item
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QMessageBox, QWizard

from campaign_app.gui.battle_wizard import (
    PAGE_CASUALTIES,
    PAGE_ROLLS,
    PAGE_SUMMARY,
    BattleWizard,
    ChoosePlatoonDialog,
)
from campaign_app.gui.main_window import MainWindow
from campaign_app.rules.dice import SeededDice
from campaign_app.rules.enums import TurnAction
from campaign_app.store.journal import operation
from campaign_app.store.models import Battle, Campaign, Platoon, Roll

LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier


@pytest.fixture
def pid(congo_platoon) -> int:  # type: ignore[no-untyped-def]
    # a leader at 0 XP with no wounds on their element always stays (2d12 is never 1 or less): the path
    # below needs no replacement leader whatever the dice
    return int(congo_platoon(leader_xp=0, rival=True))


def test_six_actions_from_the_open_app(qtbot, gui_ctx, pid: int) -> None:
    """Ctrl+B, Enter, "3", Enter, Ctrl+R, Alt+C: a battle logged with the app's dice, each roll shown."""
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    win.open_item("platoon", pid)
    actions: list[str] = []
    seen: dict[str, object] = {}

    def steps() -> None:
        wizard = QApplication.activeModalWidget()
        assert isinstance(wizard, BattleWizard)
        # 2. Enter on page 1: the cursor starts in Scenario (not the date's year) and Enter moves on
        qtbot.waitUntil(lambda: focused() is wizard.battle_page.scenario)
        qtbot.keyClick(focused(), Qt.Key.Key_Return)
        actions.append("Enter")
        assert wizard.currentId() == PAGE_CASUALTIES
        # 3. the wound count, typed into the field that has the focus, its 0 selected
        qtbot.waitUntil(lambda: focused() is wizard.casualties_page.wounds)
        qtbot.keyClicks(focused(), "3")
        actions.append("3")
        assert wizard.casualties_page.wounds.value() == 3
        # 4. Enter: to the rolls
        qtbot.keyClick(focused(), Qt.Key.Key_Return)
        actions.append("Enter")
        assert wizard.currentId() == PAGE_ROLLS
        # 5. Ctrl+R: every remaining roll with the app's dice, each one listed
        qtbot.keyClick(focused(), Qt.Key.Key_R, CTRL)
        actions.append("Ctrl+R")
        session = wizard.session
        assert session.next_step is None and session.fate == "stays"
        assert wizard.rolls_page.model.rowCount() == len(session.records) >= 2
        seen["rolls"] = len(session.records)
        # 6. Alt+C: Commit is offered on the rolls page as soon as nothing else is needed
        commit = wizard.button(QWizard.WizardButton.FinishButton)
        assert commit.isVisible() and commit.isEnabled()
        qtbot.keyClick(focused(), Qt.Key.Key_C, ALT)
        actions.append("Alt+C")

    errors = in_modal(qtbot, steps, BattleWizard)
    qtbot.keyClick(win, Qt.Key.Key_B, CTRL)  # 1. Ctrl+B
    actions.insert(0, "Ctrl+B")
    assert not errors, errors
    assert actions == ["Ctrl+B", "Enter", "3", "Enter", "Ctrl+R", "Alt+C"] and len(actions) <= 6
    b = Battle.get()
    assert (b.platoon_id, b.wounds, b.leader_wounds, b.leader_fate) == (pid, 3, 0, "stays")
    assert Roll.select().where(Roll.battle == b.id).count() == seen["rolls"]
    assert gui_ctx.undo_stack.undoText() == "Log battle 1 of 2nd Platoon"


def make(qtbot, gui_ctx, pid: int, seed: int = 1) -> BattleWizard:  # type: ignore[no-untyped-def]
    wizard = BattleWizard(gui_ctx, pid, dice=SeededDice(seed))
    qtbot.addWidget(wizard, before_close_func=lambda w: setattr(w, "ask_discard", lambda: True))
    wizard.show()
    wizard.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is wizard)
    return wizard


def test_typing_5_into_the_wound_counters_gives_5_not_50(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid)
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)
    page = wizard.casualties_page
    # the page opens with the focus in Wound counters: the user just types
    qtbot.waitUntil(lambda: focused() is page.wounds)
    qtbot.keyClicks(focused(), "5")
    assert page.wounds.value() == 5 and page.wounds.text() == "5"
    assert wizard.session.wounds == 5
    # Tab into the next field and type: replaces its 0
    qtbot.keyClick(focused(), Qt.Key.Key_Tab)
    assert focused() is page.leader_wounds
    qtbot.keyClicks(focused(), "2")
    assert page.leader_wounds.value() == 2
    # a click into the middle of the text selects it all too
    qtbot.mouseClick(page.wounds.lineEdit(), LEFT, pos=page.wounds.lineEdit().rect().center())
    assert focused() is page.wounds and page.wounds.lineEdit().selectedText() == "5"
    qtbot.keyClicks(focused(), "7")
    assert page.wounds.value() == 7
    # and with the label's mnemonic (Alt+L) as well
    qtbot.keyClick(focused(), Qt.Key.Key_L, ALT)
    assert focused() is page.leader_wounds and page.leader_wounds.lineEdit().selectedText() == "2"


def test_out_of_range_wounds_are_refused_beside_the_field(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid)
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)
    page = wizard.casualties_page
    qtbot.waitUntil(lambda: focused() is page.wounds)
    qtbot.keyClicks(focused(), "4")
    size = wizard.size()
    qtbot.keyClicks(focused(), "000")  # 4000: over the 999 a battle can have
    assert page.wounds.text() == "4000", "the typed text stays (not cut to 400)"
    assert page.wounds.value() == 400 and wizard.session.wounds == 400  # the last good value
    assert page.wounds.message.isVisible()
    # beside the field its label names it; the tool tip and problem() say it in full
    assert page.wounds.message.text() == "4000 is too high (at most 999)"
    assert page.wounds.problem() == "Wound counters: 4000 is too high (at most 999)"
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    qtbot.keyClick(focused(), Qt.Key.Key_Return)  # Enter does not go on with a refused value
    assert wizard.currentId() == PAGE_CASUALTIES and wizard.size() == size
    qtbot.keyClick(focused(), Qt.Key.Key_Backspace)
    assert page.wounds.value() == 400 and not page.wounds.message.isVisible()
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def test_roll_all_remaining_shows_each_roll_and_buttons_stay_put(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid, seed=4)
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)
    qtbot.waitUntil(lambda: focused() is wizard.casualties_page.wounds)
    qtbot.keyClicks(focused(), "12")
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    page = wizard.rolls_page
    dice = page.dice_input
    assert wizard.currentId() == PAGE_ROLLS
    assert dice.faces.placeholderText() == "faces, e.g. 5"  # 1d8: one face
    where = dice.roll_button.mapTo(wizard, dice.roll_button.rect().topLeft())
    width = dice.roll_button.width()
    qtbot.mouseClick(dice.roll_button, LEFT)
    if wizard.session.next_step is not None and wizard.session.next_step.dice.count == 2:
        assert dice.faces.placeholderText() == "faces, e.g. 5,2"
    assert dice.roll_button.mapTo(wizard, dice.roll_button.rect().topLeft()) == where
    assert dice.roll_button.width() == width
    assert dice.all_button.isEnabled()
    qtbot.mouseClick(dice.all_button, LEFT)
    assert wizard.session.next_step is None
    assert page.model.rowCount() == len(wizard.session.records) >= 3
    assert [page.model.index(r, 5).data() for r in range(page.model.rowCount())] == ["app"] * page.model.rowCount()
    assert dice.roll_button.mapTo(wizard, dice.roll_button.rect().topLeft()) == where
    assert not dice.roll_button.isEnabled() and not dice.all_button.isEnabled()


def test_pages_are_numbered_one_after_the_other_and_alt_n_is_next(qtbot, gui_ctx, pid: int) -> None:
    wizard = make(qtbot, gui_ctx, pid)
    assert wizard.battle_page.title().startswith("1.")
    qtbot.waitUntil(lambda: focused() is wizard.battle_page.scenario)
    qtbot.keyClick(focused(), Qt.Key.Key_N, ALT)  # a mnemonic "animates" the click: it lands a moment later
    qtbot.waitUntil(lambda: wizard.currentId() == PAGE_CASUALTIES)
    assert wizard.casualties_page.title().startswith("2.")
    qtbot.keyClick(focused(), Qt.Key.Key_N, ALT)
    qtbot.waitUntil(lambda: wizard.currentId() == PAGE_ROLLS)
    assert wizard.rolls_page.title().startswith("3.")
    qtbot.keyClick(focused(), Qt.Key.Key_R, CTRL)  # no wounds: only the leader's 2d12, who stays
    qtbot.keyClick(focused(), Qt.Key.Key_N, ALT)
    qtbot.waitUntil(lambda: wizard.currentId() == PAGE_SUMMARY)
    assert wizard.summary_page.title().startswith("4.")


def test_ctrl_b_on_a_campaign_page_asks_which_platoon(qtbot, gui_ctx, pid: int) -> None:
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    win.open_item("campaign", Campaign.get().id)
    assert win.act_log_battle.isEnabled()
    asked: list[list[str]] = []

    def steps() -> None:
        chooser = QApplication.activeModalWidget()
        assert isinstance(chooser, ChoosePlatoonDialog)
        asked.append([chooser.list.item(i).text() for i in range(chooser.list.count())])
        errors.extend(in_modal(qtbot, wizard_steps, BattleWizard))
        qtbot.keyClick(focused(), Qt.Key.Key_Down)  # Red Company
        qtbot.keyClick(focused(), Qt.Key.Key_Return)

    def wizard_steps() -> None:
        wizard = QApplication.activeModalWidget()
        assert isinstance(wizard, BattleWizard) and wizard.session.platoon_name == "Red Company"
        wizard.reject()

    errors = in_modal(qtbot, steps, ChoosePlatoonDialog)
    qtbot.keyClick(win, Qt.Key.Key_B, CTRL)
    qtbot.waitUntil(lambda: len(asked) == 1 and QApplication.activeModalWidget() is None)
    assert not errors, errors
    assert asked and asked[0][0].startswith("2nd Platoon") and asked[0][1].startswith("Red Company")
    assert Battle.select().count() == 0


def test_ctrl_b_with_nothing_selected_asks_too_and_opens_the_platoon_after(qtbot, gui_ctx, pid: int) -> None:
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    assert shown_item(win) is None

    def steps() -> None:
        chooser = QApplication.activeModalWidget()
        assert isinstance(chooser, ChoosePlatoonDialog)
        errors.extend(in_modal(qtbot, wizard_steps, BattleWizard))
        qtbot.keyClick(focused(), Qt.Key.Key_Return)  # the first: 2nd Platoon

    def wizard_steps() -> None:
        wizard = QApplication.activeModalWidget()
        assert isinstance(wizard, BattleWizard)
        qtbot.waitUntil(lambda: focused() is wizard.battle_page.scenario)
        qtbot.keyClick(focused(), Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: focused() is wizard.casualties_page.wounds)
        qtbot.keyClick(focused(), Qt.Key.Key_Return)
        qtbot.keyClick(focused(), Qt.Key.Key_R, CTRL)
        qtbot.keyClick(focused(), Qt.Key.Key_C, ALT)

    errors = in_modal(qtbot, steps, ChoosePlatoonDialog)
    qtbot.keyClick(win, Qt.Key.Key_B, CTRL)
    qtbot.waitUntil(lambda: Battle.select().count() == 1 or bool(errors))
    assert not errors, errors
    assert Battle.get().platoon_id == pid
    assert shown_item(win) == ("platoon", pid)


def test_ctrl_b_without_any_platoon_says_what_to_do(qtbot, gui_ctx) -> None:
    with operation("test.setup", "test data"):
        Campaign.create(name="Empty", system="atomic_africa")
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    seen: list[str] = []

    def steps() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.text())
        box.accept()

    errors = in_modal(qtbot, steps, QMessageBox)
    qtbot.keyClick(win, Qt.Key.Key_B, CTRL)
    assert not errors, errors
    assert seen and "no platoon" in seen[0] and "New platoon" in seen[0]


def test_platoon_chooser_cancel_logs_nothing(qtbot, gui_ctx, pid: int) -> None:
    from campaign_app.gui.battle_wizard import log_battle

    def steps() -> None:
        chooser = QApplication.activeModalWidget()
        assert isinstance(chooser, ChoosePlatoonDialog)
        qtbot.keyClick(focused(), Qt.Key.Key_Escape)

    errors = in_modal(qtbot, steps, ChoosePlatoonDialog)
    assert log_battle(gui_ctx, None) is None
    assert not errors, errors
    assert Battle.select().count() == 0


# --- numbers in the dialogs: refused with a message beside the field, never clamped --------------------------


def test_platoon_xp_40_is_refused_not_turned_into_4(qtbot, fresh_db) -> None:
    from campaign_app.gui.campaign_dialog import NewPlatoonDialog
    from campaign_app.services import campaigns

    congo = campaigns.show_campaign(campaigns.create_campaign("Congo 1960", period=3).id)
    dialog = NewPlatoonDialog(congo)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    qtbot.keyClicks(focused(), "2nd Platoon")
    size = dialog.size()
    qtbot.mouseClick(dialog.xp_spin.lineEdit(), LEFT, pos=dialog.xp_spin.lineEdit().rect().center())
    qtbot.keyClicks(focused(), "40")
    assert dialog.xp_spin.text() == "40" and dialog.xp_spin.value() == 4
    assert dialog.xp_spin.message.isVisible()
    assert dialog.xp_spin.message.text() == "40 is too high (at most 32)"  # its label names the field
    assert dialog.size() == size, "the message does not resize the dialog"
    qtbot.keyClick(focused(), Qt.Key.Key_Return)  # Enter does not create a platoon at 4 XP
    assert dialog.isVisible() and dialog.result() == 0
    qtbot.mouseClick(dialog.ok_button, LEFT)  # nor does OK
    assert dialog.isVisible() and focused() is dialog.xp_spin
    qtbot.keyClicks(focused(), "12")  # the refused text is selected: typing replaces it
    assert dialog.xp_spin.value() == 12 and not dialog.xp_spin.message.isVisible()
    qtbot.mouseClick(dialog.ok_button, LEFT)
    assert dialog.result() == QDialog.DialogCode.Accepted and dialog.values()["xp"] == 12


def test_generated_platoon_needs_a_named_leader(qtbot, fresh_db) -> None:
    from campaign_app.gui.campaign_dialog import NewPlatoonDialog
    from campaign_app.services import campaigns

    congo = campaigns.show_campaign(campaigns.create_campaign("Congo 1960", period=3).id)
    dialog = NewPlatoonDialog(congo, generate=True)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.name_edit, "2nd Platoon")
    assert not dialog.ok_button.isEnabled()
    assert "name the leader" in dialog.leader_problem.text() and dialog.leader_problem.isEnabled()
    qtbot.keyClicks(dialog.leader_edit, "   ")
    assert not dialog.ok_button.isEnabled()  # blank is no name: never a made-up "New leader"
    qtbot.keyClicks(dialog.leader_edit, "Lt. Okafor")
    assert dialog.ok_button.isEnabled() and not dialog.leader_problem.text()


@pytest.fixture
def played_turn(fresh_db) -> tuple[int, int]:
    from campaign_app.rules.dice import TypedDice
    from campaign_app.services import sologear_play as play_service
    from campaign_app.services import sologear_sheet as sheet_service

    sid = sheet_service.create_sheet("Hill 214", "Janne", 250, gear_name="Hunter").id
    sheet_service.add_force(sid, "player", "1st Company", base_power=350)
    sheet_service.add_force(sid, "player", "2nd Company", base_power=350)
    sheet_service.add_force(sid, "enemy", "Johnboy's Company", base_power=400, skill="veteran", loyalty="firm")
    play_service.roll_length(sid, TypedDice([[2]]))
    play_service.play_turn(
        sid, TurnAction.FIG, 2, dice=TypedDice([[4, 5], [3, 2], [1, 2, 3, 4], [3]])
    )  # 5 Glory placed
    return sid, 1


def test_record_turn_refuses_glory_12_of_5(qtbot, gui_ctx, played_turn) -> None:
    from campaign_app.gui.sologear_dialogs import RecordDialog
    from campaign_app.store.models import SologearTurn

    sid, number = played_turn
    dialog = RecordDialog(gui_ctx, sid, number)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    # no enemy unit in this turn: Enemy TV destroyed is not offered at all (a typed 150 was stored as 0)
    assert not dialog.enemy_spin.isEnabled()
    spin = dialog.glory_spin
    qtbot.keyClick(focused(), Qt.Key.Key_G, ALT)  # the label's mnemonic
    assert focused() is spin
    qtbot.keyClicks(focused(), "12")
    assert spin.text() == "12" and spin.message.isVisible()
    assert spin.message.text() == "12 is too high (at most 5)"
    assert spin.message.toolTip() == "Glory collected: 12 is too high (at most 5)"
    before = SologearTurn.get(SologearTurn.sheet == sid)
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), LEFT)
    assert dialog.isVisible() and dialog.edit is None, "nothing recorded with a refused number"
    after = SologearTurn.get(SologearTurn.sheet == sid)
    assert (after.glory_collected, after.enemy_tv_destroyed) == (before.glory_collected, before.enemy_tv_destroyed)


# --- no dead ends: a Sologear campaign from File ▸ New campaign gets its pilot sheet ------------------------


def test_new_campaign_with_system_sologear_goes_on_to_the_pilot_sheet(qtbot, gui_ctx) -> None:
    from campaign_app.gui.campaign_dialog import NewCampaignDialog
    from campaign_app.gui.sologear_dialogs import NewSologearDialog
    from campaign_app.store.models import SologearSheet

    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)

    def campaign_steps() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, NewCampaignDialog)
        errors.extend(in_modal(qtbot, pilot_steps, NewSologearDialog))
        qtbot.keyClicks(focused(), "Hill 214")
        qtbot.keyClick(focused(), Qt.Key.Key_S, ALT)  # System
        qtbot.keyClicks(focused(), "S")  # Sologear
        assert dialog.system.value() == "sologear"
        qtbot.mouseClick(dialog.ok_button, LEFT)

    def pilot_steps() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, NewSologearDialog)
        assert dialog.name_edit.text() == "Hill 214" and focused() is dialog.pilot_edit
        qtbot.keyClicks(focused(), "Janne")
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), LEFT)

    errors = in_modal(qtbot, campaign_steps, NewCampaignDialog)
    qtbot.keyClick(win, Qt.Key.Key_N, CTRL)  # File ▸ New campaign…
    assert not errors, errors
    sheet = SologearSheet.get()
    assert (sheet.pilot, Campaign.get_by_id(sheet.campaign_id).name) == ("Janne", "Hill 214")
    assert Campaign.select().count() == 1
    qtbot.waitUntil(lambda: shown_item(win) == ("sheet", sheet.id))
    gui_ctx.undo_stack.undo()  # one step: the campaign and its sheet
    assert Campaign.select().count() == 0 and SologearSheet.select().count() == 0


def test_sologear_campaign_without_a_sheet_offers_to_make_it(qtbot, gui_ctx) -> None:
    from campaign_app.gui.campaign_page import CampaignPage
    from campaign_app.gui.sologear_dialogs import NewSologearDialog
    from campaign_app.services import campaigns
    from campaign_app.store.models import SologearSheet

    cid = campaigns.create_campaign("Hill 214", system="sologear").id  # as `campaign new --system sologear`
    page = CampaignPage(gui_ctx)
    qtbot.addWidget(page)
    page.show_campaign(cid)
    page.show()
    assert "no pilot yet" in page.sheets_label.text()
    assert page.sheet_button.isVisible() and page.sheet_button.text().replace("&", "") == "Create the pilot sheet\u2026"
    opened: list[tuple[str, int]] = []
    gui_ctx.signals.open_item.connect(lambda kind, i: opened.append((kind, i)))

    def pilot_steps() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, NewSologearDialog)
        assert dialog.name_edit.isReadOnly() and dialog.name_edit.text() == "Hill 214"
        qtbot.keyClicks(focused(), "Janne")
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), LEFT)

    errors = in_modal(qtbot, pilot_steps, NewSologearDialog)
    qtbot.mouseClick(page.sheet_button, LEFT)
    assert not errors, errors
    sheet = SologearSheet.get()
    assert sheet.campaign_id == cid and Campaign.select().count() == 1
    assert opened == [("sheet", sheet.id)]
    page.load()
    assert page.sheet_button.text().replace("&", "") == "Open the pilot sheet"


def test_edit_battle_dialog_changes_date_and_opponent_and_explains_the_fixed_fields(qtbot, pid: int) -> None:
    from campaign_app.gui.battle_edit import EditBattleDialog
    from campaign_app.services import battles, history

    logged = battles.log_battle(
        pid, wounds=2, leader_wounds=0, objectives=1, opponent="Bandits", date=_dt.date(2026, 3, 1), dice=SeededDice(3)
    )
    battle = next(b for b in history.history(pid).battles if b.id == logged.id)
    dialog = EditBattleDialog(battle, pid)
    qtbot.addWidget(dialog)
    dialog.show()
    fixed = next(w for w in dialog.findChildren(QLabel) if w.accessibleName() == "Fields that cannot be edited")
    assert "a hard objective" in fixed.text() and "wound counters: 2" in fixed.text()
    assert "undo the battle and log it again" in fixed.text()
    dialog.opponent.setFocus()
    dialog.opponent.lineEdit().selectAll()
    qtbot.keyClicks(dialog.opponent, "Red Company")  # a listed platoon
    dialog.date.setFocus()
    dialog.date.setSelectedSection(dialog.date.Section.DaySection)
    qtbot.keyClicks(dialog.date, "05")
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), LEFT)
    assert dialog.result() == QDialog.DialogCode.Accepted and dialog.edit is not None
    b = Battle.get_by_id(logged.id)
    assert (str(b.date), b.opponent) == ("2026-03-05", "Red Company")
    assert b.opponent_platoon_id == Platoon.get(Platoon.name == "Red Company").id
    assert (b.objectives, b.wounds) == (1, 2)


def test_selected_unit_none_shows_no_values_of_another_platoon(qtbot, gui_ctx, pid: int) -> None:
    from campaign_app.gui.platoon_page import PlatoonPage
    from campaign_app.services import attachments as attachment_service

    attachment_service.add_attached(
        pid, "Weapons team", "team", training=8, equipment=10, morale=8, armor=2, notes="MG team"
    )
    other = Platoon.get(Platoon.name == "Red Company").id
    page = PlatoonPage(gui_ctx)
    qtbot.addWidget(page)
    page.resize(1100, 1300)
    page.show_platoon(pid)
    page.show()
    page.attached_view.selectRow(0)
    assert page.unit_pickers["equipment"].currentText().startswith("d10")
    page.show_platoon(other)  # no attached units
    assert page.unit_box.title() == "Selected unit (none)" and not page.unit_box.isEnabled()
    shown = [
        page.unit_kind.currentText(),
        page.unit_armor.currentText(),
        page.unit_notes.text(),
        *(p.currentText() for p in page.unit_pickers.values()),
    ]
    assert shown == [""] * len(shown)
