"""Problem messages live in their dialog's layout, say the problem the moment it is typed, and are never cut
("XP for Regular…" was drawn over the G and R boxes, "Face of die 1: 9" over the Experience heading,
the Record-turn dialog clipped its own message and its one-digit box showed "l2"). The layout checker
(layout_checks.placement_problems) fails on a child drawn outside any layout or overlapping a sibling."""

from __future__ import annotations

import pytest
from driving import focused
from layout_checks import layout_problems, placement_problems
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QWidget

from campaign_app.gui.campaign_dialog import NewCampaignDialog, NewPlatoonDialog
from campaign_app.rules.enums import TurnAction
from campaign_app.services import campaigns

LEFT = Qt.MouseButton.LeftButton


def shown(qtbot, dialog: QWidget) -> QWidget:  # type: ignore[no-untyped-def]
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    return dialog


def type_over(qtbot, spin, text: str) -> None:  # type: ignore[no-untyped-def]
    """Click into a number field (its text is selected) and type."""
    qtbot.mouseClick(spin.lineEdit(), LEFT, pos=spin.lineEdit().rect().center())
    assert focused() is spin
    qtbot.keyClicks(focused(), text)


def visible_problems(dialog: QWidget) -> list[str]:
    return [
        w.text()
        for w in dialog.findChildren(QLabel)
        if w.isVisible() and w.text() and w.accessibleName().startswith("Problem")
    ]


def test_checker_finds_a_label_outside_the_layout(qtbot) -> None:
    from PySide6.QtWidgets import QLineEdit, QVBoxLayout

    box = QWidget()
    layout = QVBoxLayout(box)
    layout.addWidget(QLineEdit(box))
    stray = QLabel("Face of die 1: 9", box)  # made, never put into the layout
    shown(qtbot, box)
    assert stray.isVisible()
    problems = placement_problems(box)
    assert any("in no layout" in p and "Face of die 1" in p for p in problems), problems


def test_regular_below_green_is_said_beside_the_thresholds(qtbot, fresh_db) -> None:
    dialog = shown(qtbot, NewCampaignDialog())
    qtbot.keyClicks(focused(), "Congo 1960")
    regular = dialog.thresholds.spins[1]
    type_over(qtbot, regular, "1")  # Green is 2 by default
    QApplication.processEvents()
    assert regular.problem().startswith("XP for Regular: 1 is too low")
    assert dialog.thresholds.message.isVisible() and dialog.thresholds.message.text() == regular.problem()
    assert not layout_problems(dialog), layout_problems(dialog)


def test_a_9_for_a_d8_is_said_at_once_and_the_preview_does_not_guess(qtbot, fresh_db) -> None:
    congo = campaigns.show_campaign(campaigns.create_campaign("Congo 1960", period=3).id)
    dialog = shown(qtbot, NewPlatoonDialog(congo, generate=True))
    qtbot.keyClicks(focused(), "2nd Platoon")
    qtbot.mouseClick(dialog.i_rolled, LEFT, pos=QPoint(10, dialog.i_rolled.height() // 2))  # on its words
    assert dialog.i_rolled.isChecked() and dialog.face_spins[0].isEnabled()
    sides = dialog.dice.sides
    type_over(qtbot, dialog.face_spins[0], str(sides + 1))
    assert dialog.face_spins[0].text().endswith(str(sides + 1))
    assert dialog.faces_message.isVisible()
    assert dialog.faces_message.text() == f"Face of die 1: {sides + 1} is too high (at most {sides})"
    assert "XP</b>" not in dialog.preview.text() and "face" in dialog.preview.text().lower()
    assert not dialog.ok_button.isEnabled() or dialog.face_spins[0].problem()
    qtbot.mouseClick(dialog.ok_button, LEFT)
    assert dialog.isVisible()  # refused: nothing made
    assert visible_problems(dialog).count(dialog.faces_message.text()) == 1  # one message, in its place
    assert not placement_problems(dialog), placement_problems(dialog)
    assert not layout_problems(dialog), layout_problems(dialog)


def test_name_the_leader_is_a_quiet_note_until_it_matters(qtbot, fresh_db) -> None:
    congo = campaigns.show_campaign(campaigns.create_campaign("Congo 1960", period=3).id)
    dialog = shown(qtbot, NewPlatoonDialog(congo, generate=True))
    assert not visible_problems(dialog)  # nothing typed yet: nothing is wrong
    height = dialog.leader_problem.height()
    qtbot.keyClicks(focused(), "2nd Platoon")
    assert "name the leader" in dialog.leader_problem.text()
    qtbot.keyClicks(dialog.leader_edit, "Lt. Okafor")
    assert dialog.ok_button.isEnabled() and not dialog.leader_problem.text()
    assert dialog.leader_problem.height() == height  # the form does not jump


@pytest.fixture
def played_turn(fresh_db) -> int:
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
    return int(sid)


def test_record_turn_shows_12_and_its_whole_message(qtbot, gui_ctx, played_turn: int) -> None:
    from campaign_app.gui.sologear_dialogs import RecordDialog

    dialog = shown(qtbot, RecordDialog(gui_ctx, played_turn, 1))
    spin = dialog.glory_spin
    qtbot.keyClick(focused(), Qt.Key.Key_G, Qt.KeyboardModifier.AltModifier)  # the label's mnemonic
    assert focused() is spin
    qtbot.keyClicks(focused(), "12")
    room = spin.lineEdit().width()
    assert spin.lineEdit().fontMetrics().horizontalAdvance(spin.lineEdit().text()) <= room  # "12", not "l2"
    assert spin.message.isVisible() and spin.message.text() == "12 is too high (at most 5)"
    assert spin.message.toolTip().startswith("Glory collected: 12")
    assert not layout_problems(dialog), layout_problems(dialog)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), LEFT)
    assert dialog.isVisible()


def test_a_threshold_the_page_refuses_shows_why_and_the_stored_value(qtbot, gui_ctx) -> None:
    """Regular typed below Green on the campaign page: the message says why, the field shows the stored
    value again (it is not saved), and nothing looks accepted."""
    from campaign_app.gui.main_window import MainWindow

    camp = campaigns.create_campaign("Congo 1960")
    stored = tuple(campaigns.show_campaign(camp.id).thresholds)
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    win.open_item("campaign", camp.id)
    page = win.page("campaign")
    regular = page.thresholds.spins[1]
    type_over(qtbot, regular, "1")
    qtbot.keyClick(focused(), Qt.Key.Key_Tab)  # leave the field
    assert regular.value() == stored[1] and regular.text() == f"R {stored[1]}"
    message = page.thresholds.message
    assert message.isVisible() and message.text().startswith("XP for Regular: 1 is too low")
    assert message.text().endswith(f"kept {stored[1]}")
    assert tuple(campaigns.show_campaign(camp.id).thresholds) == stored
    assert not placement_problems(page), placement_problems(page)
    # a good value then: saved, and the old message goes
    type_over(qtbot, regular, str(stored[1] + 1))
    qtbot.keyClick(focused(), Qt.Key.Key_Tab)
    assert campaigns.show_campaign(camp.id).thresholds[1] == stored[1] + 1
    assert not message.text()
