"""The smaller things a newcomer hit (issue 22), each driven as a person does it."""

from __future__ import annotations

import re

import pytest
from driving import focused
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QMessageBox

from campaign_app.gui.main_window import MainWindow
from campaign_app.rules.dice import TypedDice
from campaign_app.services import campaigns, portable
from campaign_app.services import platoons as platoon_service
from campaign_app.services import sologear_play as play_service
from campaign_app.services import sologear_sheet as sheet_service

LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier

INTERNAL = [
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a stored key"),
    (re.compile(r"\d+d\d+[-+]\d+ = -?\d+"), "a dice formula repeated"),
    (re.compile(r"= -?\d+ \u2192 \d*D6G\b"), "a table code standing alone"),
    (re.compile(r"\b1 (bunkers|rolls|turns|platoons|battles|units)\b"), "a wrong plural"),
]


def internal_words(text: str) -> list[str]:
    """What a player should never read: stored keys, a formula repeated, a table code alone, "1 bunkers"."""
    plain = re.sub(r"<[^>]+>", " ", text)
    plain = re.sub(r"\S+@\S+|/\S+|\S+\.(db|pdf|json|png)\b", " ", plain)  # paths, file names, logins
    return [f"{why}: {m.group(0)!r} in {plain[:120]!r}" for pattern, why in INTERNAL for m in pattern.finditer(plain)]


def window(qtbot, ctx) -> MainWindow:  # type: ignore[no-untyped-def]
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    return win


def answer_next_box(found: list[str], button: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok) -> None:
    def reply() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, reply)
            return
        found.append(box.text())
        box.button(button).click()

    QTimer.singleShot(0, reply)


def test_the_checker_finds_internal_words() -> None:
    assert internal_words("campaign 'Congo': replacement_dice 2 \u2192 1")
    assert internal_words("The campaign ends (turns_used_up).")
    assert internal_words("Recorded: 1 Glory, 0 enemy TV destroyed, 1 bunkers")
    assert internal_words("Repairs: 1d6-2 [1] = -1 \u2192 1d6-2 = -1")
    assert internal_words("Glory markers: 2d6 [3, 5] = 8 \u2192 2D6G")
    assert not internal_words("Glory markers: 2d6 rolled 3, 5 = 8: 8 Glory markers scattered over the two maps")


def test_house_rule_messages_say_words_not_keys(qtbot, gui_ctx) -> None:
    camp = campaigns.create_campaign("Congo 1960")
    win = window(qtbot, gui_ctx)
    win.open_item("campaign", camp.id)
    page = win.page("campaign")
    messages: list[str] = []
    gui_ctx.signals.status.connect(messages.append)
    page.replacement.setFocus()
    qtbot.keyClick(page.replacement, Qt.Key.Key_Down)  # one die - 1
    page.period.setFocus()
    qtbot.keyClick(page.period, Qt.Key.Key_Down)
    assert messages, "the change is announced"
    assert not [p for m in messages for p in internal_words(m)], messages
    assert any("replacement leader's dice 2 \u2192 1" in m for m in messages), messages


def played_sheet(bunkers: int = 1, length: int = 1) -> int:
    sid = sheet_service.create_sheet("Hill 214", "Janne", 250, gear_name="Hunter").id
    sheet_service.add_force(sid, "player", "1st Company", base_power=350)
    sheet_service.add_force(sid, "player", "2nd Company", base_power=350)
    sheet_service.add_force(sid, "enemy", "Johnboy's Company", base_power=400, skill="veteran", loyalty="firm")
    play_service.roll_length(sid, TypedDice([[length]]))
    play_service.play_turn(sid, "fig", 2, dice=TypedDice([[4, 5], [3, 2], [1, 2, 3, 4], [3]]))
    play_service.record_turn(sid, 1, glory=1, enemy_tv=0, bunkers=bunkers)
    return int(sid)


def test_sologear_page_texts_have_no_internal_words(qtbot, gui_ctx) -> None:
    sid = played_sheet(length=2)
    play_service.play_turn(sid, "dec", None, dice=TypedDice([]))  # turn 2 of 2: the campaign ends
    win = window(qtbot, gui_ctx)
    win.open_item("sheet", sid)
    page = win.page("sheet")
    texts = [w.text() for w in page.findChildren(QLabel) if w.text()]
    texts += [str(r) for r in page.history_model.rows()]
    texts += [" ".join(row) for row in page.turn_model.rows()]
    problems = [p for t in texts for p in internal_words(t)]
    assert not problems, "\n".join(problems)
    page.turn_table.selectRow(0)
    assert "1 bunker," in page.turn_detail.text() or page.turn_detail.text().endswith("1 bunker")
    assert any("all battle turns were played" in t for t in texts), texts


def test_suggest_gives_a_name_without_the_rank(qtbot, gui_ctx, congo_platoon) -> None:
    from campaign_app.gui.battle_wizard import BattleWizard

    wizard = BattleWizard(gui_ctx, congo_platoon())
    qtbot.addWidget(wizard)
    wizard.show()
    page = wizard.replacement_page
    qtbot.mouseClick(page.suggest, LEFT)
    assert page.name.text() and not page.name.text().startswith(("Lt.", "Lieutenant"))
    assert page.rank.text() == "Lieutenant"


def test_opening_the_data_folder_without_a_program_says_where_it_is(qtbot, gui_ctx, monkeypatch) -> None:
    from campaign_app.gui import file_dialogs

    monkeypatch.setattr(file_dialogs, "open_with_desktop", lambda _path: False)
    win = window(qtbot, gui_ctx)
    said: list[str] = []
    answer_next_box(said)
    win.act_data_folder.trigger()
    assert said and str(gui_ctx.paths.data_dir) in said[0] and "No program" in said[0]


def test_open_the_pdf_when_saved_without_a_viewer_says_where_it_is(qtbot, gui_ctx, monkeypatch, tmp_path) -> None:
    from campaign_app.gui import file_dialogs, print_dialog

    monkeypatch.setattr(file_dialogs, "open_with_desktop", lambda _path: False)
    said: list[str] = []
    answer_next_box(said)
    print_dialog.open_pdf_or_say(None, tmp_path / "cards.pdf")
    assert said and "cards.pdf" in said[0]


def test_import_makes_undo_ready_at_once_and_the_welcome_page_offers_it(qtbot, gui_ctx, tmp_path) -> None:
    camp = campaigns.create_campaign("Congo 1960")
    portable.export_campaign(camp.id, tmp_path / "congo.json")
    campaigns.delete_campaign(camp.id)
    gui_ctx.undo_stack.sync()
    win = window(qtbot, gui_ctx)
    win.refresh()
    assert win.stack.currentWidget() is win.first_run
    button = win.first_run.import_button
    assert button.isVisible() and "Import" in button.text()
    import campaign_app.gui.portable_dialogs as dialogs

    original = dialogs.import_campaign
    dialogs.import_campaign = lambda ctx, parent, path=None: original(ctx, parent, str(tmp_path / "congo.json"))
    try:
        qtbot.mouseClick(button, LEFT)
    finally:
        dialogs.import_campaign = original
    assert win.act_undo.isEnabled() and "Import" in win.act_undo.text()
    qtbot.keyClick(focused(), Qt.Key.Key_Z, CTRL)
    assert not campaigns.list_campaigns()


def test_redo_is_not_offered_after_a_new_change(qtbot, gui_ctx, congo_platoon) -> None:
    pid = congo_platoon()
    win = window(qtbot, gui_ctx)
    platoon_service.set_xp(pid, 7, reason="first")
    gui_ctx.undo_stack.sync()
    qtbot.keyClick(focused(), Qt.Key.Key_Z, CTRL)
    assert win.act_redo.isEnabled()
    platoon_service.set_xp(pid, 8, reason="a new change")
    gui_ctx.undo_stack.sync()
    assert not win.act_redo.isEnabled()


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


@pytest.mark.parametrize(("status", "opened"), [(0, True), (3, False)])
def test_xdg_open_without_a_program_counts_as_not_opened(monkeypatch, tmp_path, status: int, opened: bool) -> None:
    """Qt calls starting xdg-open a success even when xdg-open then finds no program (exit 3): the exit
    status is what counts."""
    import shutil
    import sys

    from campaign_app.gui import file_dialogs

    fake = tmp_path / "xdg-open"
    fake.write_text(f"#!/bin/sh\nexit {status}\n")
    fake.chmod(0o755)
    monkeypatch.setattr(shutil, "which", lambda name: str(fake) if name == "xdg-open" else None)
    monkeypatch.setattr(sys, "platform", "linux")
    assert file_dialogs.open_with_desktop(tmp_path) is opened
