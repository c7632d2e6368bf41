"""Focus after a step never rests on a destructive button, and Enter in a faces field confirms that roll only
(on a real X display the Enter that confirmed the last typed roll of a Sologear turn pressed Start
over and erased every roll; in the one-roll dialogs it pressed OK before "What it means" could be read).

Driven as a person does it: the dialog is the active window, keys go to the focused widget. These tests run
offscreen and on xcb (see .ci/run)."""

from __future__ import annotations

import pytest
from driving import focused
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from campaign_app.gui.sologear.page import SologearPage
from campaign_app.gui.sologear_dialogs import LengthDialog, PlayTurnDialog
from campaign_app.rules.dice import TypedDice
from campaign_app.services import sologear_play as play_service
from campaign_app.services import sologear_sheet as sheet_service
from campaign_app.store.models import SologearTurn

LEFT = Qt.MouseButton.LeftButton


def sheet(length: int | None = None) -> int:
    sid = sheet_service.create_sheet("Hill 214", "Janne", 250, gear_name="Hunter").id
    sheet_service.add_force(sid, "player", "1st Company", base_power=350)
    sheet_service.add_force(sid, "player", "2nd Company", base_power=350)
    sheet_service.add_force(sid, "enemy", "Johnboy's Company", base_power=400, skill="veteran", loyalty="firm")
    if length:
        play_service.roll_length(sid, TypedDice([[length]]))
    return sid


def page_for(qtbot, ctx, sid: int) -> SologearPage:  # type: ignore[no-untyped-def]
    page = SologearPage(ctx)
    qtbot.addWidget(page)
    page.resize(1000, 700)
    page.show_sheet(sid)
    page.show()
    page.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is page)
    return page


def active_dialog(qtbot, page: SologearPage):  # type: ignore[no-untyped-def]
    dialog = page.dialog
    assert dialog is not None
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    return dialog


def type_roll(qtbot, faces: str) -> None:  # type: ignore[no-untyped-def]
    """Type the faces where the cursor is, and Enter."""
    qtbot.keyClicks(focused(), faces)
    qtbot.keyClick(focused(), Qt.Key.Key_Return)


def test_enter_after_the_last_typed_roll_keeps_every_roll(qtbot, gui_ctx) -> None:
    sid = sheet(length=3)
    page = page_for(qtbot, gui_ctx, sid)
    qtbot.mouseClick(page.play_button, LEFT)
    dlg = active_dialog(qtbot, page)
    assert isinstance(dlg, PlayTurnDialog)
    qtbot.mouseClick(dlg.fig_radio, LEFT)
    dlg.posture_combo.setFocus()
    qtbot.keyClicks(dlg.posture_combo, "+2")  # Bold: 9 + 2 = 11 on Equal, 2D6G,## (four rolls)
    qtbot.mouseClick(dlg.start_button, LEFT)
    qtbot.waitUntil(lambda: focused() is dlg.steps.faces_edit)  # the cursor starts in the faces field
    for faces in ("4,5", "3,2", "1,2,3,4"):
        type_roll(qtbot, faces)
        assert focused() is dlg.steps.faces_edit  # and is there again after each roll
    type_roll(qtbot, "3")  # the last roll: the same Enter must not press Start over, nor OK
    assert dlg.steps.log.count() == 4 and dlg.steps.done, (
        [dlg.steps.log.item(i).text() for i in range(dlg.steps.log.count())],
        dlg.steps.error.text(),
    )
    assert dlg.isVisible() and not SologearTurn.select().count()
    assert focused() is dlg.ok_button and focused() is not dlg.steps.restart_button
    assert "Row 11, Equal: 2D6G,##" in dlg.cell_label.text()  # "What it means" is there to read
    qtbot.keyClick(focused(), Qt.Key.Key_Return)  # a second Enter, on OK, plays the turn
    qtbot.waitUntil(lambda: SologearTurn.select().count() == 1)


def test_one_roll_dialog_waits_for_a_second_enter(qtbot, gui_ctx) -> None:
    sid = sheet()
    page = page_for(qtbot, gui_ctx, sid)
    qtbot.mouseClick(page.length_button, LEFT)
    dlg = active_dialog(qtbot, page)
    assert isinstance(dlg, LengthDialog)
    qtbot.waitUntil(lambda: focused() is dlg.steps.faces_edit)
    type_roll(qtbot, "2")
    assert dlg.isVisible() and sheet_service.sheet_data(sid).length is None  # not committed by that Enter
    assert focused() is dlg.ok_button
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: sheet_service.sheet_data(sid).length == 2)


@pytest.mark.parametrize("answer", ["No", "Yes"])
def test_start_over_asks_before_it_forgets_the_rolls(qtbot, gui_ctx, answer: str) -> None:
    sid = sheet(length=3)
    page = page_for(qtbot, gui_ctx, sid)
    qtbot.mouseClick(page.play_button, LEFT)
    dlg = active_dialog(qtbot, page)
    qtbot.mouseClick(dlg.start_button, LEFT)
    qtbot.waitUntil(lambda: focused() is dlg.steps.faces_edit)
    type_roll(qtbot, "4,5")
    assert not dlg.steps.restart_button.autoDefault()
    asked: list[str] = []

    def reply() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, reply)
            return
        asked.append(box.text())
        assert box.defaultButton() is box.button(QMessageBox.StandardButton.No)
        box.button(getattr(QMessageBox.StandardButton, answer)).click()

    QTimer.singleShot(0, reply)
    qtbot.mouseClick(dlg.steps.restart_button, LEFT)
    assert asked and "1 roll" in asked[0]
    assert dlg.steps.log.count() == (1 if answer == "No" else 0)


DESTRUCTIVE = ("start over", "discard", "delete", "remove", "restore", "clear")


def destructive_default_buttons(dialog, where: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Buttons that forget or destroy something at once and that Enter could press: the default button, the
    focused one, or an auto-default one (Enter presses it once the focus lands there after a step). A button
    that asks first ("Restore…") and the answer of a question box (its default is Cancel) are fine."""
    problems = []
    for b in dialog.findChildren(QPushButton):
        text = b.text().replace("&", "").lower()
        if not any(text.startswith(word) for word in DESTRUCTIVE):
            continue
        question = isinstance(dialog, QMessageBox)
        if b.isDefault() or b.hasFocus() or (b.autoDefault() and not question and not text.endswith("\u2026")):
            problems.append(f"{where}: {b.text()!r} can be pressed by Enter")
    return problems


def test_no_dialog_lets_enter_press_a_destructive_button(qtbot, gui_ctx) -> None:
    from layout_checks import demo_scenes, walk_dialogs

    from campaign_app.gui.main_window import MainWindow
    from campaign_app.services.demo import create_demo

    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    qtbot.waitExposed(win)
    win.refresh()
    seen, problems = walk_dialogs(qtbot, win, demo_scenes(), destructive_default_buttons)
    assert any("Play turn" in s for s in seen), seen
    assert not problems, "\n".join(problems)


def test_a_player_who_rolls_their_own_dice_types_every_roll_without_a_click(qtbot, gui_ctx, congo_platoon) -> None:
    """ "I roll my own dice" (remembered for this database): every roll of the battle starts with the cursor
    in the faces field: type the faces, Enter, type, Enter... (no click, no Tab)."""
    from campaign_app.gui.battle_wizard import PAGE_ROLLS, BattleWizard, own_dice
    from campaign_app.store.models import Battle, Roll

    pid = congo_platoon(leader_xp=0)
    wizard = BattleWizard(gui_ctx, pid)
    qtbot.addWidget(wizard, before_close_func=lambda w: setattr(w, "ask_discard", lambda: True))
    wizard.show()
    wizard.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is wizard)
    qtbot.waitUntil(lambda: focused() is wizard.battle_page.scenario)
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    qtbot.keyClicks(focused(), "2")  # two wound counters
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    assert wizard.currentId() == PAGE_ROLLS
    page = wizard.rolls_page
    qtbot.waitUntil(lambda: focused() is page.dice_input.roll_button)  # the app's dice by default
    qtbot.mouseClick(page.own_dice, LEFT, pos=page.own_dice.rect().topLeft() + QPoint(8, 8))
    assert own_dice(gui_ctx)
    keys = 0
    while wizard.session.next_step is not None:
        qtbot.waitUntil(lambda: focused() is page.dice_input.faces)
        step = wizard.session.next_step
        qtbot.keyClicks(focused(), ",".join(["1"] * step.dice.count))
        qtbot.keyClick(focused(), Qt.Key.Key_Return)
        keys += 2
    assert keys >= 4 and all(r.source == "entered" for r in wizard.session.records)
    qtbot.mouseClick(wizard.button(wizard.WizardButton.FinishButton), LEFT)
    assert Battle.select().count() == 1 and Roll.select().where(Roll.source == "entered").count() >= 2
    # remembered: the next battle of this database starts in the faces field at once
    again = BattleWizard(gui_ctx, pid)
    qtbot.addWidget(again, before_close_func=lambda w: setattr(w, "ask_discard", lambda: True))
    assert again.rolls_page.own_dice.isChecked()


def test_losing_the_leader_with_own_dice_ends_on_commit_not_back(qtbot, gui_ctx, congo_platoon) -> None:
    """Found in the evening walk: after the replacement's typed roll the cursor fell on Back, so the next
    Enter went back to the Rolls page; and Commit was not offered on the replacement page."""
    from campaign_app.gui.battle_wizard import PAGE_REPLACEMENT, BattleWizard, set_own_dice
    from campaign_app.store.models import Leader

    pid = congo_platoon(leader_xp=0)
    set_own_dice(gui_ctx, True)
    wizard = BattleWizard(gui_ctx, pid)
    qtbot.addWidget(wizard, before_close_func=lambda w: setattr(w, "ask_discard", lambda: True))
    wizard.show()
    wizard.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is wizard)
    qtbot.waitUntil(lambda: focused() is wizard.battle_page.scenario)
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    qtbot.keyClicks(focused(), "2")
    qtbot.keyClick(focused(), Qt.Key.Key_L, Qt.KeyboardModifier.AltModifier)
    qtbot.keyClicks(focused(), "2")  # both wounds on the leader's element
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    for faces in ("1", "1,1", "1,1"):  # recovery 1d8, 2d8; the leader's 2d12 = 2: a casualty
        qtbot.waitUntil(lambda: focused() is wizard.rolls_page.dice_input.faces)
        qtbot.keyClicks(focused(), faces)
        qtbot.keyClick(focused(), Qt.Key.Key_Return)
    assert wizard.session.needs_replacement
    qtbot.waitUntil(lambda: focused() is wizard.button(wizard.WizardButton.NextButton))
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    assert wizard.currentId() == PAGE_REPLACEMENT
    qtbot.waitUntil(lambda: focused() is wizard.replacement_page.name)
    qtbot.keyClicks(focused(), "Mbeki")
    page = wizard.replacement_page
    qtbot.keyClick(focused(), Qt.Key.Key_Return)  # Enter after the name: on to the roll's faces field
    assert focused() is page.dice_input.faces
    qtbot.keyClicks(focused(), "3,4")
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    commit = wizard.button(wizard.WizardButton.FinishButton)
    assert commit.isVisible() and commit.isEnabled()
    qtbot.waitUntil(lambda: focused() is commit)
    assert "the lower die minus one" in page.result.text()
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    assert not wizard.isVisible(), (page.error.text(), wizard.summary_page.error.text(), wizard.currentId())
    assert Leader.get(Leader.status == "active").name == "Mbeki"
