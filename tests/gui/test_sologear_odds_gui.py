"""The Sologear turn dialog shows the combat roll's exact odds for the posture chosen, before rolling, and the
reckoning shows the chance of being noticed and of each reward or punishment band."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from campaign_app.gui.sologear_dialogs import EndDialog, PlayTurnDialog
from campaign_app.rules.dice import TypedDice
from campaign_app.rules.enums import TurnAction
from campaign_app.rules.sologear.odds import combat_odds, noticed_chance, percent
from campaign_app.services import sologear_play as play_service
from campaign_app.services import sologear_sheet as sheet_service

LEFT = Qt.MouseButton.LeftButton


def sheet(length: int = 3) -> int:
    sid = sheet_service.create_sheet("Hill 214", "Janne", 250, gear_name="Hunter").id
    sheet_service.add_force(sid, "player", "1st Company", base_power=350)
    sheet_service.add_force(sid, "player", "2nd Company", base_power=350)
    sheet_service.add_force(sid, "enemy", "Johnboy's Company", base_power=400, skill="veteran", loyalty="firm")
    play_service.roll_length(sid, TypedDice([[length]]))
    return int(sid)


def test_turn_dialog_shows_the_odds_for_the_posture_typed(qtbot, gui_ctx) -> None:
    sid = sheet()
    dlg = PlayTurnDialog(gui_ctx, sid)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dlg)
    column = sheet_service.sheet_data(sid).next.band
    text = dlg.odds_label.text()
    average = combat_odds(column, 0)
    assert f"{column} column" in text and f"hit on the way in <b>{percent(average.chance('hit'))}</b>" in text
    dlg.posture_combo.setFocus()
    qtbot.keyClicks(dlg.posture_combo, "+2")  # Bold
    bold = combat_odds(column, 2)
    assert "2d6+2" in dlg.odds_label.text() and "2d6+0" not in dlg.odds_label.text()
    assert f"hit on the way in <b>{percent(bold.chance('hit'))}</b>" in dlg.odds_label.text()
    tip = dlg.odds_label.toolTip().splitlines()
    assert len(tip) == sum(1 for r in bold.rows if r.probability)  # every reachable row, in its tip
    assert tip[-1].startswith("14:") and bold.rows[14].result in tip[-1]
    qtbot.mouseClick(dlg.dec_radio, LEFT, pos=QPoint(8, dlg.dec_radio.height() // 2))
    assert dlg.odds_label.text() == "No combat roll for this choice."


def test_reckoning_shows_noticed_and_band_odds(qtbot, gui_ctx) -> None:
    sid = sheet(length=1)
    play_service.play_turn(sid, TurnAction.DEC, None, dice=TypedDice([]))  # recognition 8, impression -9; ends
    dlg = EndDialog(gui_ctx, sid)
    qtbot.addWidget(dlg)
    dlg.show()
    text = dlg.odds_label.text()
    rk = sheet_service.sheet_data(sid).reckoning
    assert f"noticed <b>{percent(noticed_chance(rk.recognition))}</b>" in text
    assert rk.impression < 0 and "punishments" in text and "rewards" not in text
