"""d12 Death Blow GUI, driven by keys and clicks: the campaign page's fighters, a new fighter, the fighter page,
Ctrl+B on a fighter's page logs a bout, a solo bout round by round (typed dice, play to the end, save; cancel
writes nothing), the odds shown as an estimate, and the table models."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from campaign_app.gui.death_blow.bout_dialogs import LogBoutDialog, NewFighterDialog, SoloBoutDialog
from campaign_app.gui.death_blow.fighter_page import FighterPage
from campaign_app.gui.death_blow.models import BoutListModel, FighterListModel, RoundsModel
from campaign_app.gui.main_window import MainWindow
from campaign_app.rules.enums import BoutWinner
from campaign_app.services import campaigns as campaign_service
from campaign_app.services import death_blow as service
from campaign_app.store import journal_read
from campaign_app.store.models import Bout, BoutRound, Fighter
from tests.gui.driving import in_modal
from tests.ids import campaign_id, fighter_id

LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def pit(gui_ctx):  # type: ignore[no-untyped-def]
    edit = campaign_service.create_campaign("Pit", "death-blow")
    kenji = service.create_fighter(campaign_id("Pit"), "Kenji", level=2).id
    mara = service.create_fighter(campaign_id("Pit"), "Mara").id
    return edit.id, kenji, mara


@pytest.fixture
def window(qtbot, gui_ctx, pit):  # type: ignore[no-untyped-def]
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    return win


def counts() -> tuple[int, int, int]:
    return Fighter.select().count(), Bout.select().count(), BoutRound.select().count()


def test_campaign_page_lists_fighters_and_adds_one(qtbot, window, pit) -> None:  # type: ignore[no-untyped-def]
    cid, _kenji, _mara = pit
    window.open_item("campaign", cid)
    page = window.stack.currentWidget()
    panel = page.fighters
    assert panel is not None and panel.isVisible()
    assert [panel.model.row_data(i).name for i in range(panel.model.rowCount())] == ["Kenji", "Mara"]
    assert not page.platoons_box.isVisible()

    def fill() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, NewFighterDialog)
        qtbot.keyClicks(dlg.name_edit, "Old Wu")
        dlg.level.selectAll()
        qtbot.keyClicks(dlg.level, "7")
        qtbot.mouseClick(dlg.ok_button, LEFT)

    errors = in_modal(qtbot, fill, NewFighterDialog)
    qtbot.mouseClick(panel.new_button, LEFT)
    assert errors == []
    wu = Fighter.get(Fighter.name == "Old Wu")
    assert wu.level == 7
    qtbot.waitUntil(lambda: isinstance(window.stack.currentWidget(), FighterPage))
    assert window.stack.currentWidget().level_label.text() == "Level 7"
    assert "Old Wu (level 7)" in [window.navigator.model.item(0).child(i).text() for i in range(3)]


def test_ctrl_b_on_a_fighter_page_logs_a_bout(qtbot, window, pit) -> None:  # type: ignore[no-untyped-def]
    _cid, kenji, mara = pit
    window.open_item("fighter", kenji)
    page = window.stack.currentWidget()
    assert isinstance(page, FighterPage)
    assert window.act_log_battle.iconText() == "Log bout"  # the toolbar and menu say what Ctrl+B does here

    def fill() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, LogBoutDialog)
        assert dlg.vs_fighter.isChecked() and dlg.opponent_pick.value() == mara
        assert dlg.odds.text().startswith(("Estimating", "Estimate"))
        qtbot.waitUntil(lambda: dlg.odds.text().startswith("Estimate:"), timeout=20000)
        assert "Kenji wins" in dlg.odds.text() and "\u00b1" in dlg.odds.text()
        dlg.winner.setFocus()
        qtbot.keyClicks(dlg.winner, "Kenji")
        dlg.face_cards.selectAll()
        qtbot.keyClicks(dlg.face_cards, "11")
        qtbot.mouseClick(dlg.ok_button, LEFT)

    errors = in_modal(qtbot, fill, LogBoutDialog)
    qtbot.keyClick(window, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert errors == []
    k = service.show_fighter(kenji)
    assert (k.wins, k.xp, k.lifetime_xp) == (1, 11, 11)
    qtbot.waitUntil(lambda: page.xp_label.text() == "11/12 XP toward level 3")
    assert page.bouts_model.rowCount() == 1
    # one operation: Edit ▸ Undo takes the whole bout back
    window.undo()
    assert service.show_fighter(kenji).lifetime_xp == 0
    qtbot.waitUntil(lambda: page.bouts_model.rowCount() == 0)
    assert window.stack.currentWidget() is page and page.fid == kenji  # the fighter's page stays in view


def test_a_refused_bout_keeps_the_dialog_open_and_writes_nothing(qtbot, window, pit) -> None:  # type: ignore[no-untyped-def]
    _cid, kenji, _mara = pit
    window.open_item("fighter", kenji)
    seen: list[str] = []

    def fill() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, LogBoutDialog)
        dlg.vs_outside.setChecked(True)
        qtbot.mouseClick(dlg.ok_button, LEFT)  # no name for the outside opponent
        seen.append(dlg.problem.text())
        assert dlg.isVisible()
        qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.StandardButton.Cancel), LEFT)

    before = counts()
    errors = in_modal(qtbot, fill, LogBoutDialog)
    qtbot.keyClick(window, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert errors == []
    assert seen and "opponent" in seen[0]
    assert counts() == before


def test_solo_bout_round_by_round_typed_dice_then_to_the_end(qtbot, gui_ctx, pit) -> None:  # type: ignore[no-untyped-def]
    _cid, kenji, mara = pit
    dlg = SoloBoutDialog(gui_ctx, kenji)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.keyClicks(dlg.seed, "table 7")
    qtbot.keyClick(dlg.seed, Qt.Key.Key_Return)
    assert dlg.solo is not None and dlg.solo.seed == "table 7"
    assert "Kenji: 54 cards left, 12 face cards" in dlg.deck_a.text()
    qtbot.mouseClick(dlg.typed, LEFT)
    qtbot.keyClicks(dlg.dice_a, "7,3")
    qtbot.keyClicks(dlg.dice_b, "11,2")
    qtbot.mouseClick(dlg.next_button, LEFT)
    assert dlg.model.rowCount() == 1
    first = dlg.model.row_data(0)
    assert first.a["dice"] == [7, 3] and first.b["dice"] == [11, 2] and first.a["dice_source"] == "entered"
    assert not dlg.opponent_pick.isEnabled() and not dlg.seed.isEnabled()  # the bout has begun
    qtbot.mouseClick(dlg.typed, LEFT)  # the app's dice from now on
    qtbot.mouseClick(dlg.next_button, LEFT)
    assert dlg.model.rowCount() == 2 and dlg.model.row_data(1).a["dice_source"] == "app"
    assert not dlg.save_button.isEnabled()
    qtbot.mouseClick(dlg.end_button, LEFT)
    assert dlg.solo.over and dlg.save_button.isEnabled()
    assert "rounds" in dlg.result_label.text()
    n_rounds = dlg.model.rowCount()
    before = counts()
    qtbot.mouseClick(dlg.save_button, LEFT)
    assert counts() == (before[0], before[1] + 1, before[2] + n_rounds)
    bout = Bout.get()
    assert (bout.mode, bout.seed, bout.fighter_id, bout.opponent_fighter_id) == ("solo", "table 7", kenji, mara)
    ops = journal_read.list_operations(limit=1)
    assert ops[0].kind == "bout.play"


def test_a_bad_typed_pair_is_shown_and_cancel_writes_nothing(qtbot, gui_ctx, pit) -> None:  # type: ignore[no-untyped-def]
    _cid, kenji, _mara = pit
    before = counts()
    dlg = SoloBoutDialog(gui_ctx, kenji)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.mouseClick(dlg.typed, LEFT)
    qtbot.keyClicks(dlg.dice_a, "13,2")
    qtbot.keyClicks(dlg.dice_b, "1,1")
    qtbot.mouseClick(dlg.next_button, LEFT)
    assert "two d12 faces" in dlg.problem.text() and dlg.model.rowCount() == 0
    qtbot.mouseClick(dlg.typed, LEFT)
    qtbot.mouseClick(dlg.end_button, LEFT)
    assert dlg.solo is not None and dlg.solo.over
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.StandardButton.Cancel), LEFT)
    assert counts() == before and not dlg.isVisible()


def test_models_pass_the_model_tester(qtmodeltester, pit) -> None:  # type: ignore[no-untyped-def]
    cid, kenji, _mara = pit
    service.log_bout(fighter_id("Kenji"), opponent_fighter=fighter_id("Mara"), winner=BoutWinner.OPPONENT, face_cards=4)
    edit, _solo = service.play_bout(fighter_id("Kenji"), fighter_id("Mara"), seed=3)
    fighters = FighterListModel()
    fighters.set_rows(service.list_fighters(cid))
    qtmodeltester.check(fighters)
    bouts = BoutListModel()
    bouts.set_fighter(kenji)
    bouts.set_rows(service.show_fighter(kenji).recent)
    qtmodeltester.check(bouts)
    assert bouts.index(1, 2).data() == "lost"
    rounds = RoundsModel()
    rounds.set_names("Kenji", "Mara")
    rounds.set_round_dicts(edit.result.rounds)
    qtmodeltester.check(rounds)
    assert rounds.rowCount() == len(edit.result.rounds)


def test_print_sheet_saves_a_filled_pdf(qtbot, window, pit, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from pypdf import PdfReader

    from campaign_app.gui.death_blow import printing

    _cid, kenji, _mara = pit
    target = tmp_path / "kenji.pdf"
    monkeypatch.setattr(printing, "SAVE_DIALOG", lambda *_a: (str(target), "PDF (*.pdf)"))
    window.open_item("fighter", kenji)
    page = window.stack.currentWidget()
    qtbot.mouseClick(page.print_button, LEFT)
    body = "".join(p.extract_text() for p in PdfReader(str(target)).pages)
    assert "Kenji" in body and "Reaction Speed 2" in body


def test_no_mnemonic_clashes_and_nothing_cut_off(qtbot, window, gui_ctx, pit) -> None:  # type: ignore[no-untyped-def]
    from layout_checks import layout_problems, walk_mnemonic_clashes

    cid, kenji, _mara = pit
    service.log_bout(fighter_id("Kenji"), opponent_fighter=fighter_id("Mara"), winner=BoutWinner.FIGHTER, face_cards=3)
    for kind, obj in (("campaign", cid), ("fighter", kenji)):
        window.open_item(kind, obj)
        qtbot.wait(10)
        assert walk_mnemonic_clashes(window, kind) == []
        assert layout_problems(window) == []
    dlg = SoloBoutDialog(gui_ctx, kenji)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    assert walk_mnemonic_clashes(dlg, "solo bout") == []
    assert layout_problems(dlg) == []
    dlg.reject()
    log = LogBoutDialog(gui_ctx, kenji)
    qtbot.addWidget(log)
    log.show()
    qtbot.waitExposed(log)
    assert walk_mnemonic_clashes(log, "log bout") == []
    assert layout_problems(log) == []
    log.reject()


def test_a_bouts_rounds_open_from_the_fighter_page(qtbot, window, pit) -> None:  # type: ignore[no-untyped-def]
    from campaign_app.gui.death_blow.fighter_page import BoutDialog

    _cid, kenji, _mara = pit
    edit, solo = service.play_bout(fighter_id("Kenji"), fighter_id("Mara"), seed="view")
    window.open_item("fighter", kenji)
    page = window.stack.currentWidget()
    qtbot.waitUntil(lambda: page.bouts_model.rowCount() == 1)
    seen: list[int] = []

    def look() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, BoutDialog)
        views = [v for v in dlg.findChildren(type(page.bouts_view)) if v.model() is not None]
        seen.append(views[0].model().rowCount())
        assert dlg.print_button.isEnabled()
        qtbot.keyClick(dlg, Qt.Key.Key_Escape)

    errors = in_modal(qtbot, look, BoutDialog)
    page.bouts_view.setFocus()
    page.bouts_view.selectRow(0)
    qtbot.keyClick(page.bouts_view, Qt.Key.Key_Return)
    assert errors == []
    assert seen == [len(solo.rounds)]


def test_campaign_page_prints_every_fighter_or_a_blank_sheet(qtbot, window, pit, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from pypdf import PdfReader

    from campaign_app.gui.death_blow import printing

    cid, _kenji, _mara = pit
    targets = iter([tmp_path / "all.pdf", tmp_path / "blank.pdf"])
    monkeypatch.setattr(printing, "SAVE_DIALOG", lambda *_a: (str(next(targets)), "PDF (*.pdf)"))
    window.open_item("campaign", cid)
    panel = window.stack.currentWidget().fighters
    panel.print_all_action.trigger()
    panel.print_blank_action.trigger()
    every = PdfReader(str(tmp_path / "all.pdf"))
    assert len(every.pages) == 2 and "Kenji" in every.pages[0].extract_text()
    blank = PdfReader(str(tmp_path / "blank.pdf")).pages[0].extract_text()
    assert "Name:" in blank and "Pit" in blank
