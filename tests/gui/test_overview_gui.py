"""The campaign page's Standings, Chronicle and Statistics tabs, the platoon page's stale-print notice, the print
dialog's "only what changed" and the battle wizard's after-action report, driven as a person does."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QDialog, QPlainTextEdit, QWizard

from campaign_app.gui.battle_wizard import PAGE_REPLACEMENT, PAGE_ROLLS, PAGE_SUMMARY, BattleWizard
from campaign_app.gui.campaign_page import CampaignPage
from campaign_app.gui.context import AppContext
from campaign_app.gui.overview_views import EntryDialog
from campaign_app.gui.platoon_page import PlatoonPage
from campaign_app.gui.print_dialog import PrintDialog
from campaign_app.rules.dice import SeededDice
from campaign_app.services import battles, platoons, printing
from campaign_app.services.chronicle import add_entry
from campaign_app.services.print_requests import UnitSheetRequest
from campaign_app.store.models import Battle, ChronicleEntry, Platoon
from tests.gui.driving import in_modal

pytestmark = pytest.mark.usefixtures("fresh_db")
LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def ctx(qtbot, app_paths, fresh_db, tmp_path) -> AppContext:  # type: ignore[no-untyped-def]
    return AppContext(paths=app_paths, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def league(congo_platoon) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    pid = congo_platoon(rival=True)
    red = Platoon.get(Platoon.name == "Red Company").id
    # Jan 1: both claim the victory (a dispute); Jan 2: Red Company's victory, logged by it alone
    for n, (who, against, day) in enumerate([(red, pid, 1), (pid, red, 1), (red, pid, 2)]):
        battles.log_battle(
            who,
            wounds=2,
            leader_wounds=0,
            outcome="victory",
            opponent_platoon=against,
            date=_dt.date(2026, 1, day),
            dice=SeededDice(n),
            notes="Held the ford." if n else "",
        )
    return pid, red


def _page(qtbot, ctx: AppContext, campaign_id: int) -> CampaignPage:  # type: ignore[no-untyped-def]
    page = CampaignPage(ctx)
    qtbot.addWidget(page)
    page.resize(1100, 760)
    page.show()
    page.show_campaign(campaign_id)
    qtbot.waitExposed(page)
    return page


def _click_tab(qtbot, page: CampaignPage, title: str) -> None:  # type: ignore[no-untyped-def]
    bar = page.tabs.tabBar()
    index = next(i for i in range(page.tabs.count()) if page.tabs.tabText(i).replace("&", "") == title)
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(index).center())
    assert page.tabs.currentIndex() == index


def test_standings_tab_ranks_sorts_by_a_click_and_marks_the_dispute(qtbot, ctx, league) -> None:
    pid, red = league
    page = _page(qtbot, ctx, Platoon.get_by_id(pid).campaign_id)
    _click_tab(qtbot, page, "Standings")
    view = page.standings.view
    names = [view.model().index(r, 1).data() for r in range(view.model().rowCount())]
    assert names == ["Red Company", "2nd Platoon"]  # 2 victories before 1
    header = view.horizontalHeader()
    xp_col = 11
    qtbot.mouseClick(header.viewport(), LEFT, pos=QPoint(header.sectionViewportPosition(xp_col) + 5, 5))
    first = [view.model().index(r, xp_col).data() for r in range(view.model().rowCount())]
    qtbot.mouseClick(header.viewport(), LEFT, pos=QPoint(header.sectionViewportPosition(xp_col) + 5, 5))
    second = [view.model().index(r, xp_col).data() for r in range(view.model().rowCount())]
    assert sorted(first, key=int) in (first, first[::-1]) and second == first[::-1]  # by number, both ways
    pairs = page.standings.pairs_view.model()
    assert pairs.rowCount() == 1 and pairs.index(0, 4).data() == "\u26a0 1"  # the two logs of Jan 1 disagree
    assert page.standings.disputes.isVisible() and "Red Company battle 1: victory" in page.standings.disputes.text()
    assert "Disputed games" in pairs.index(0, 4).data(Qt.ItemDataRole.ToolTipRole)
    # a new battle shows up while the tab is shown
    logged = battles.log_battle(pid, wounds=0, leader_wounds=0, outcome="victory", dice=SeededDice(9))
    ctx.signals.op_changed.emit(logged.changes)  # as the watcher delivers another program's battle
    qtbot.waitUntil(
        lambda: any(
            (view.model().index(r, 1).data(), view.model().index(r, 3).data()) == ("2nd Platoon", "2") for r in range(2)
        )
    )


def test_chronicle_tab_filters_searches_and_writes_entries(qtbot, ctx, league) -> None:
    pid, _red = league
    cid = Platoon.get_by_id(pid).campaign_id
    add_entry(cid, "Season 2 begins", "The rains end.", _dt.date(2026, 1, 2))
    page = _page(qtbot, ctx, cid)
    _click_tab(qtbot, page, "Chronicle")
    chron = page.chronicle
    assert chron.model.rowCount() == 4
    assert [chron.model.index(r, 0).data() for r in range(4)] == [
        "2026-01-01",
        "2026-01-01",
        "2026-01-02",
        "2026-01-02",
    ]
    assert chron.model.index(2, 3).data() == "Season 2 begins"  # on a day, the entry before the battles
    qtbot.keyClicks(chron.search, "ford")
    qtbot.waitUntil(lambda: chron.model.rowCount() == 2)
    chron.search.clear()
    chron.platoon_filter.setFocus()
    index = chron.platoon_filter.findData("2nd Platoon")
    chron.platoon_filter.setCurrentIndex(index)
    assert chron.model.rowCount() == 2  # its battle and the entry
    qtbot.mouseClick(chron.view.viewport(), LEFT, pos=chron.view.visualRect(chron.model.index(1, 3)).center())
    assert "Season 2 begins" in chron.story.toPlainText() and chron.remove_button.isEnabled()

    def write_entry() -> None:
        dialog = next(w for w in page.findChildren(EntryDialog) if w.isVisible())
        qtbot.keyClicks(dialog.title, "Truce")
        qtbot.keyClicks(dialog.text, "Both sides rest.")
        qtbot.keyClick(dialog.title, Qt.Key.Key_Return)

    errors = in_modal(qtbot, write_entry)
    qtbot.mouseClick(chron.add_button, LEFT)
    assert errors == []
    assert ChronicleEntry.select().where(ChronicleEntry.title == "Truce").count() == 1
    qtbot.waitUntil(lambda: any(chron.model.index(r, 3).data() == "Truce" for r in range(chron.model.rowCount())))
    assert ctx.undo_stack.undoText().startswith("Chronicle: Truce")


def test_statistics_tab_shows_platoons_leaders_and_luck(qtbot, ctx, league) -> None:
    pid, _red = league
    page = _page(qtbot, ctx, Platoon.get_by_id(pid).campaign_id)
    _click_tab(qtbot, page, "Statistics")
    stats = page.statistics
    assert stats.platoons_model.rowCount() == 2 and stats.leaders_model.rowCount() >= 1
    assert "percentile" in stats.luck_words.text()
    assert not stats.inner.isTabVisible(stats.players_index)  # players: on a club server only


def test_models_pass_qtmodeltester(qtmodeltester, qtbot, ctx, league) -> None:
    pid, _red = league
    page = _page(qtbot, ctx, Platoon.get_by_id(pid).campaign_id)
    for title in ("Standings", "Chronicle", "Statistics"):
        _click_tab(qtbot, page, title)
    for model in (
        page.standings.model,
        page.standings.pairs_model,
        page.chronicle.model,
        page.statistics.platoons_model,
        page.statistics.luck_model,
        page.statistics.outcome_model,
    ):
        qtmodeltester.check(model)


def test_platoon_page_says_which_printouts_are_out_of_date(qtbot, ctx, league, tmp_path: Path) -> None:
    pid, _red = league
    printing.print_pdf(UnitSheetRequest(platoons=(pid,)), tmp_path / "s.pdf")
    page = PlatoonPage(ctx)
    qtbot.addWidget(page)
    page.show()
    page.show_platoon(pid)
    assert not page.stale_label.isVisible()
    platoons.set_platoon(pid, training=12)
    battles.log_battle(pid, wounds=0, leader_wounds=0, outcome="draw", dice=SeededDice(4))
    page.load()
    assert page.stale_label.isVisible()
    assert page.stale_label.text() == (
        "\u26a0 printed sheet out of date: 2 changes since (battle 2, Training d10 \u2192 d12)"
    )


def test_print_dialog_ticks_only_what_changed_and_remembers_the_print(qtbot, ctx, league, tmp_path: Path) -> None:
    pid, red = league
    printing.print_pdf(UnitSheetRequest(platoons=(pid, red)), tmp_path / "s.pdf")
    platoons.set_platoon(red, morale=12)
    dialog = PrintDialog(ctx, None, {"kind": "platoon", "id": pid})
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.unit_sheet.checked_platoons() == [pid]
    qtbot.mouseClick(dialog.unit_sheet.changed_button, LEFT)
    assert dialog.unit_sheet.checked_platoons() == [red]
    assert "Red Company (Morale d8 \u2192 d12)" in dialog.unit_sheet.changed_label.text()
    qtbot.mouseClick(dialog.qr_check, LEFT, pos=QPoint(8, dialog.qr_check.height() // 2))
    dialog.choose_path = lambda _name: str(tmp_path / "again.pdf")  # the file dialog answers
    dialog.open_check.setChecked(False)
    with qtbot.waitSignal(dialog.saved, timeout=20000):
        qtbot.mouseClick(dialog.save_button, LEFT)
    assert (tmp_path / "again.pdf").is_file()
    qtbot.waitUntil(lambda: ctx.undo_stack.undoText().startswith("Print Unit Data Sheet"))
    from campaign_app.services.prints import stale_sheet_platoons

    assert stale_sheet_platoons() == {}


def test_battle_wizard_writes_the_after_action_report(qtbot, ctx, league) -> None:
    pid, _red = league
    wizard = BattleWizard(ctx, pid, dice=SeededDice(2))
    qtbot.addWidget(wizard, before_close_func=lambda w: setattr(w, "ask_discard", lambda: True))
    wizard.show()
    qtbot.waitExposed(wizard)
    qtbot.keyClicks(wizard.battle_page.notes, "Short notes.")
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)  # to the casualties
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)  # to the rolls
    assert wizard.currentId() == PAGE_ROLLS
    while wizard.rolls_page.dice_input.roll_button.isEnabled():
        qtbot.mouseClick(wizard.rolls_page.dice_input.roll_button, LEFT)
    for _ in range(3):
        if wizard.currentId() == PAGE_SUMMARY:
            break
        if wizard.currentId() == PAGE_REPLACEMENT:
            qtbot.keyClicks(wizard.replacement_page.name, "Lt. New")
            qtbot.mouseClick(wizard.replacement_page.dice_input.roll_button, LEFT)
        qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), LEFT)
    assert wizard.currentId() == PAGE_SUMMARY
    report = wizard.summary_page.report
    assert isinstance(report, QPlainTextEdit) and report.toPlainText() == "Short notes."
    report.setFocus()
    qtbot.keyClick(report, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(report, " We held the ford until the relief arrived.")
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.FinishButton), LEFT)
    assert wizard.result() == QDialog.DialogCode.Accepted
    b = Battle.get_by_id(wizard.battle_id)
    assert b.notes == "Short notes. We held the ford until the relief arrived."
