"""What players read says words, not stored keys: house-rule messages and the Sologear page's texts
(no key names, no dice formula repeated, no table code standing alone, no "1 bunkers")."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel

from campaign_app.gui.main_window import MainWindow
from campaign_app.rules.dice import TypedDice
from campaign_app.rules.enums import TurnAction
from campaign_app.services import campaigns
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
    play_service.play_turn(sid, TurnAction.FIG, 2, dice=TypedDice([[4, 5], [3, 2], [1, 2, 3, 4], [3]]))
    play_service.record_turn(sid, 1, glory=1, enemy_tv=0, bunkers=bunkers)
    return int(sid)


def test_sologear_page_texts_have_no_internal_words(qtbot, gui_ctx) -> None:
    sid = played_sheet(length=2)
    play_service.play_turn(sid, TurnAction.DEC, None, dice=TypedDice([]))  # turn 2 of 2: the campaign ends
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
