"""Small things at the keyboard and in forms: Suggest gives a leader's name without the rank, Ctrl+B on a
pilot page plays the next turn, a new Sologear campaign starts in its name field and forgets a problem once
fixed, the status bar's database name leaves room for messages."""

from __future__ import annotations

from driving import focused
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from campaign_app.gui.main_window import MainWindow
from campaign_app.rules.dice import TypedDice
from campaign_app.services import sologear_play as play_service
from campaign_app.services import sologear_sheet as sheet_service

LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier


def window(qtbot, ctx) -> MainWindow:  # type: ignore[no-untyped-def]
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    return win


def test_suggest_gives_a_name_without_the_rank(qtbot, gui_ctx, congo_platoon) -> None:
    from campaign_app.gui.battle_wizard import BattleWizard

    wizard = BattleWizard(gui_ctx, congo_platoon())
    qtbot.addWidget(wizard)
    wizard.show()
    page = wizard.replacement_page
    qtbot.mouseClick(page.suggest, LEFT)
    assert page.name.text() and not page.name.text().startswith(("Lt.", "Lieutenant"))
    assert page.rank.text() == "Lieutenant"


def test_ctrl_b_on_a_pilot_page_plays_the_next_turn(qtbot, gui_ctx) -> None:
    from campaign_app.gui.battle_wizard import BattleWizard
    from campaign_app.gui.sologear_dialogs import PlayTurnDialog

    sid = sheet_service.create_sheet("Hill 214", "Janne", 250, gear_name="Hunter").id
    sheet_service.add_force(sid, "player", "1st Company", base_power=350)
    sheet_service.add_force(sid, "enemy", "Johnboy's Company", base_power=400)
    play_service.roll_length(sid, TypedDice([[2]]))
    win = window(qtbot, gui_ctx)
    win.open_item("sheet", sid)
    qtbot.keyClick(focused(), Qt.Key.Key_B, CTRL)
    page = win.page("sheet")
    assert isinstance(page.dialog, PlayTurnDialog)
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, BattleWizard) and w.isVisible()]
    page.dialog.reject()


def test_new_sologear_campaign_starts_in_the_name_and_forgets_a_fixed_problem(qtbot, gui_ctx) -> None:
    from campaign_app.gui.sologear_dialogs import NewSologearDialog

    dialog = NewSologearDialog(gui_ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    qtbot.wait(50)
    assert focused() is dialog.name_edit, focused().accessibleName()
    qtbot.keyClicks(focused(), "Hill 214")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), LEFT)  # no pilot yet
    assert dialog.error.text()
    qtbot.keyClicks(dialog.pilot_edit, "Janne")
    assert not dialog.error.text()


def test_the_database_name_leaves_room_for_messages(qtbot, gui_ctx) -> None:
    win = window(qtbot, gui_ctx)
    assert win.db_label.width() <= max(200, win.width() // 3) + 10
    assert win.db_label.toolTip().endswith(str(gui_ctx.paths.db_file))
