"""Undo and redo from the operation journal, driven as a person does it: Edit ▸ Undo names the step and works
after a restart and for a change made by campaign-cli; a refused undo says why and changes nothing; the
Changes tab of a platoon's History lists its operations and undoes or redoes an older one."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from driving import focused, in_modal, shown_item
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from campaign_app.gui.battle_wizard import PAGE_CASUALTIES, PAGE_ROLLS, BattleWizard
from campaign_app.gui.context import AppContext
from campaign_app.gui.feed import concerns
from campaign_app.gui.history_view import HistoryView
from campaign_app.gui.journal_view import COL_CHANGE, COL_STATE, JournalModel, JournalPanel, local_time
from campaign_app.gui.main_window import MainWindow
from campaign_app.gui.platoon_page import PlatoonPage
from campaign_app.gui.undo_commands import perform
from campaign_app.rules.dice import SeededDice
from campaign_app.services import attachments as attachment_service
from campaign_app.services import battles, campaigns
from campaign_app.services import journal as journal_service
from campaign_app.services import platoons as platoon_service
from campaign_app.store import close_db, init_db
from campaign_app.store.database import db
from campaign_app.store.models import Battle, Platoon
from tests.ids import campaign_id

LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier


@pytest.fixture
def pid(fresh_db) -> int:
    campaigns.create_campaign("Congo 1960")
    # a leader at 0 XP with no leader wounds always stays: the battle needs no replacement whatever the dice
    return platoon_service.create_platoon(
        campaign_id("Congo 1960"),
        "2nd Platoon",
        training=10,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader_name="Lt. Okafor",
        leader_xp=0,
    ).id


def dump() -> list[tuple[str, list[tuple[object, ...]]]]:
    tables = [
        r[0]
        for r in db.execute_sql(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
            "'sqlite_%' AND name NOT IN ('operation', 'operation_change', "
            "'journal_state', 'schema_migration') ORDER BY name"
        ).fetchall()
    ]
    return [(t, db.execute_sql(f'SELECT * FROM "{t}" ORDER BY id').fetchall()) for t in tables]


def window(qtbot, ctx: AppContext) -> MainWindow:  # type: ignore[no-untyped-def]
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    return win


def log_battle_with_the_wizard(qtbot, win: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """Ctrl+B, Enter, "3", Enter, Ctrl+R, Alt+C."""

    def steps() -> None:
        wizard = QApplication.activeModalWidget()
        assert isinstance(wizard, BattleWizard)
        qtbot.waitUntil(lambda: focused() is wizard.battle_page.scenario)
        qtbot.keyClick(focused(), Qt.Key.Key_Return)
        assert wizard.currentId() == PAGE_CASUALTIES
        qtbot.waitUntil(lambda: focused() is wizard.casualties_page.wounds)
        qtbot.keyClicks(focused(), "3")
        qtbot.keyClick(focused(), Qt.Key.Key_Return)
        assert wizard.currentId() == PAGE_ROLLS
        qtbot.keyClick(focused(), Qt.Key.Key_R, CTRL)
        qtbot.keyClick(focused(), Qt.Key.Key_C, ALT)

    errors = in_modal(qtbot, steps, BattleWizard)
    qtbot.keyClick(win, Qt.Key.Key_B, CTRL)
    assert not errors, errors


def menu_text(action) -> str:  # type: ignore[no-untyped-def]
    return action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")


# --- Edit ▸ Undo / Redo ---------------------------------------------------------------------------------------


def test_a_battle_logged_before_a_restart_is_undone_with_ctrl_z(qtbot, gui_ctx, app_paths, pid: int) -> None:
    win = window(qtbot, gui_ctx)
    win.open_item("platoon", pid)
    log_battle_with_the_wizard(qtbot, win)
    assert Battle.select().count() == 1
    assert menu_text(win.act_undo) == "Undo Log battle 1 of 2nd Platoon"
    win.close()
    close_db()  # the app is closed...

    init_db(app_paths.db_file, app_paths.backup_dir)  # ...and started again the next day
    ctx = AppContext(
        paths=app_paths, settings=QSettings(str(app_paths.data_dir / "again.ini"), QSettings.Format.IniFormat)
    )
    again = window(qtbot, ctx)
    assert menu_text(again.act_undo) == "Undo Log battle 1 of 2nd Platoon" and again.act_undo.isEnabled()
    assert not again.act_redo.isEnabled() and menu_text(again.act_redo) == "Redo"
    after = dump()
    qtbot.keyClick(again, Qt.Key.Key_Z, CTRL)
    assert Battle.select().count() == 0 and Platoon.get_by_id(pid).xp == 6
    assert again.statusBar().currentMessage() == "Undone: Log battle 1 of 2nd Platoon"
    assert menu_text(again.act_redo) == "Redo Log battle 1 of 2nd Platoon"
    assert menu_text(again.act_undo) == "Undo Create platoon 2nd Platoon"
    assert shown_item(again) == ("platoon", pid)  # Undo shows the platoon it changed
    qtbot.keyClick(again, Qt.Key.Key_Z, CTRL | SHIFT)  # redo: the same rows, the same dice
    assert dump() == after
    qtbot.keyClick(again, Qt.Key.Key_Z, CTRL)
    qtbot.keyClick(again, Qt.Key.Key_Y, CTRL)
    assert dump() == after
    ctx.undo_stack.clear()


def test_a_change_made_by_campaign_cli_is_in_the_edit_menu_after_the_watcher_sees_it(
    qtbot, gui_ctx, app_paths, pid: int
) -> None:
    win = window(qtbot, gui_ctx)
    win.watcher.timer.stop()  # polled by hand below
    win.open_item("platoon", pid)
    assert menu_text(win.act_undo) == "Undo Create platoon 2nd Platoon"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "campaign_app.cli",
            "--db",
            str(app_paths.db_file),
            "platoon",
            "set",
            "2nd Platoon",
            "--xp",
            "9",
            "--reason",
            "from the command line",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert out.returncode == 0, out.stderr
    label = journal_service.newest_undoable().label  # type: ignore[union-attr]
    assert "XP 6 \u2192 9" in label
    assert win.watcher.poll() is True
    assert menu_text(win.act_undo) == f"Undo {label}"
    assert win.page("platoon").platoon_track.xp() == 9
    qtbot.keyClick(win, Qt.Key.Key_Z, CTRL)
    assert Platoon.get_by_id(pid).xp == 6 and win.page("platoon").platoon_track.xp() == 6
    assert menu_text(win.act_redo) == f"Redo {label}"


def test_the_edit_menu_names_the_newest_change_when_it_opens(qtbot, gui_ctx, pid: int) -> None:
    """Another program wrote a moment ago (the 2-second poll has not run): opening Edit shows its change."""
    win = window(qtbot, gui_ctx)
    win.watcher.timer.stop()
    platoon_service.rename_platoon(pid, "Tom & Jerry")  # the app's own connection, as if by another window
    win.edit_menu.aboutToShow.emit()
    assert menu_text(win.act_undo) == "Undo Rename platoon 2nd Platoon \u2192 Tom & Jerry"


def test_edit_menu_undo_refused_by_a_later_change_says_why_and_changes_nothing(qtbot, gui_ctx, pid: int) -> None:
    win = window(qtbot, gui_ctx)
    perform(gui_ctx, battles.log_battle, pid, wounds=2, leader_wounds=0, dice=SeededDice(3))
    battle_op = gui_ctx.undo_stack.next_undo()
    perform(gui_ctx, platoon_service.set_xp, pid, 20, reason="house rule")
    before = dump()
    # undo the XP, then put it back: the battle is in the way of nothing; now undo the battle itself by id
    with pytest.raises(Exception, match="changed the same data later"):
        gui_ctx.undo_stack.step("undo", battle_op.id)
    assert dump() == before
    assert "Cannot undo \u201cLog battle 1 of 2nd Platoon\u201d" in win.statusBar().currentMessage()
    assert "(operation " in win.statusBar().currentMessage()
    assert menu_text(win.act_undo).startswith("Undo 2nd Platoon: Platoon XP")


# --- the Changes tab ------------------------------------------------------------------------------------------


@pytest.fixture
def history(qtbot, gui_ctx, pid: int) -> HistoryView:  # type: ignore[no-untyped-def]
    view = HistoryView(gui_ctx)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show_platoon(pid)
    view.show()
    qtbot.waitExposed(view)
    return view


def open_changes(qtbot, view: HistoryView) -> JournalPanel:  # type: ignore[no-untyped-def]
    view.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is view)
    qtbot.keyClick(view, Qt.Key.Key_C, ALT)  # the tab's mnemonic
    panel = view.changes_panel
    assert view.tabs.currentWidget() is panel
    return panel


def test_changes_tab_lists_undoes_and_redoes_an_older_operation(qtbot, gui_ctx, pid: int, history: HistoryView) -> None:
    perform(gui_ctx, battles.log_battle, pid, wounds=2, leader_wounds=0, dice=SeededDice(3))
    perform(
        gui_ctx,
        attachment_service.add_attached,
        pid,
        "Weapons team",
        "team",
        training=8,
        equipment=8,
        morale=8,
        armor=1,
    )  # a later change of other rows
    panel = open_changes(qtbot, history)
    labels = [panel.model.info(r).label for r in range(panel.model.rowCount())]  # type: ignore[union-attr]
    assert labels[1] == "Log battle 1 of 2nd Platoon" and "Weapons team" in labels[0], labels
    assert labels[-1] == "Create platoon 2nd Platoon"
    assert panel.model.index(0, 0).data() == local_time(journal_service.newest_undoable().created_at)  # type: ignore[union-attr]
    # pick the battle (the second row) with the keyboard and undo it: an older change, not the newest
    assert panel.selected().id == panel.model.info(0).id  # type: ignore[union-attr]  # the newest, at once
    panel.view.setFocus()
    qtbot.keyClick(panel.view, Qt.Key.Key_Home, CTRL)
    qtbot.keyClick(panel.view, Qt.Key.Key_Down)
    assert panel.selected().label == "Log battle 1 of 2nd Platoon"  # type: ignore[union-attr]
    qtbot.mouseClick(panel.undo_button, LEFT)
    assert Battle.select().count() == 0 and len(platoon_service.platoon_detail(pid).attached) == 1
    row = panel.model.row_of(panel.selected().id)  # type: ignore[union-attr]
    assert panel.model.index(row, COL_STATE).data() == "undone"
    font = panel.model.index(row, COL_CHANGE).data(Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont) and font.strikeOut()
    assert not panel.undo_button.isEnabled() and panel.redo_button.isEnabled()
    assert gui_ctx.undo_stack.redoText() == "Log battle 1 of 2nd Platoon"
    # Delete does nothing to the data; Enter on an undone row redoes it
    before = dump()
    qtbot.keyClick(panel.view, Qt.Key.Key_Delete)
    assert dump() == before and "never deleted" in panel.message.text()
    qtbot.keyClick(panel.view, Qt.Key.Key_Return)
    assert Battle.select().count() == 1 and panel.model.index(row, COL_STATE).data() == ""
    assert panel.undo_button.isEnabled() and not panel.redo_button.isEnabled()


def test_changes_tab_refusal_names_the_operation_in_the_way_and_selects_it(
    qtbot, gui_ctx, pid: int, history: HistoryView
) -> None:
    perform(gui_ctx, battles.log_battle, pid, wounds=2, leader_wounds=0, dice=SeededDice(3))
    perform(gui_ctx, platoon_service.set_xp, pid, 20, reason="house rule")
    blocker = gui_ctx.undo_stack.next_undo()
    panel = open_changes(qtbot, history)
    panel.select(panel.model.info(1).id)  # type: ignore[union-attr]
    assert panel.selected().label == "Log battle 1 of 2nd Platoon"  # type: ignore[union-attr]
    before = dump()
    assert panel.undo_button.isEnabled()
    panel.view.setFocus()
    qtbot.keyClick(panel.view, Qt.Key.Key_U, ALT)  # &Undo this change (a mnemonic clicks after a moment)
    qtbot.waitUntil(lambda: bool(panel.message.text()))
    assert dump() == before
    text = panel.message.text()
    assert panel.message.isVisible() and text.startswith("Cannot undo \u201cLog battle 1 of 2nd Platoon\u201d")
    assert f"(operation {blocker.id})" in text and blocker.label in text  # type: ignore[union-attr]
    assert panel.selected().id == blocker.id  # type: ignore[union-attr]  # the one to undo first
    qtbot.keyClick(panel.view, Qt.Key.Key_Return)  # undo it...
    assert Platoon.get_by_id(pid).xp != 20
    panel.select(panel.model.info(1).id)  # type: ignore[union-attr]
    qtbot.keyClick(panel.view, Qt.Key.Key_Return)  # ...then the battle goes
    assert Battle.select().count() == 0 and not panel.message.isVisible()


def test_changes_tab_follows_changes_made_elsewhere(qtbot, gui_ctx, pid: int, history: HistoryView) -> None:
    panel = open_changes(qtbot, history)
    rows = panel.model.rowCount()
    perform(gui_ctx, platoon_service.set_platoon, pid, notes="Resting")  # another page of this window
    assert panel.model.rowCount() == rows + 1
    renamed = platoon_service.rename_platoon(pid, "Third")  # another program: the watcher delivers its changes
    gui_ctx.signals.op_changed.emit(renamed.changes)
    assert panel.model.rowCount() == rows + 2
    assert panel.model.index(0, COL_CHANGE).data() == "Rename platoon 2nd Platoon \u2192 Third"


def test_journal_model_passes_qtmodeltester(qtmodeltester, pid: int) -> None:
    perform_free = platoon_service.set_platoon(pid, notes="x")
    assert perform_free.changed
    journal_service.undo()
    model = JournalModel()
    model.set_rows(journal_service.operations(platoon=pid))
    assert model.rowCount() == 2
    qtmodeltester.check(model, force_py=True)


def test_sologear_page_has_a_changes_tab(qtbot, gui_ctx) -> None:
    from campaign_app.gui.sologear.page import SologearPage
    from campaign_app.services import sologear_sheet as sheet_service

    sheet_id = sheet_service.create_sheet("Hill 214", "Janne", 30).id
    page = SologearPage(gui_ctx)
    qtbot.addWidget(page)
    page.show_sheet(sheet_id)
    page.show()
    page.tabs.setCurrentWidget(page.changes_panel)
    assert page.changes_panel.model.rowCount() >= 1
    assert (
        "Janne" in page.changes_panel.model.index(0, COL_CHANGE).data()
        or "Hill 214" in page.changes_panel.model.index(0, COL_CHANGE).data()
    )


# --- the change feed ------------------------------------------------------------------------------------------


def test_one_change_feed_reaches_only_the_views_it_concerns(qtbot, gui_ctx, pid: int, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    other = platoon_service.create_platoon(
        campaign_id("Congo 1960"), "Red Company", training=8, equipment=8, morale=8, armor=2, xp=3
    ).id
    loads: list[int] = []
    original = PlatoonPage.load
    monkeypatch.setattr(PlatoonPage, "load", lambda self: (loads.append(1), original(self))[1])
    page = PlatoonPage(gui_ctx)
    qtbot.addWidget(page)
    page.show_platoon(pid)
    page.show()
    loads.clear()
    feed: list[object] = []
    gui_ctx.signals.op_changed.connect(feed.append)
    perform(gui_ctx, platoon_service.set_xp, other, 5, reason="elsewhere")
    assert len(feed) == 1 and not loads  # another platoon's change: this page is left alone
    assert not concerns(feed[0], platoon=pid, campaign=Platoon.get_by_id(pid).campaign_id)  # type: ignore[arg-type]
    perform(gui_ctx, platoon_service.set_xp, pid, 8, reason="here")
    assert len(feed) == 2 and loads and page.platoon_track.xp() == 8
    gui_ctx.undo_stack.undo()  # undo is on the same feed
    assert len(feed) == 3 and page.platoon_track.xp() == 6


def test_ctrl_z_never_undoes_a_change_the_menu_did_not_name(qtbot, gui_ctx, pid: int) -> None:
    """Another program changed something after the Edit menu was last drawn: the first Ctrl+Z names that
    change instead of undoing it unseen; the second undoes it."""
    win = window(qtbot, gui_ctx)
    win.watcher.timer.stop()
    assert menu_text(win.act_undo) == "Undo Create platoon 2nd Platoon"
    platoon_service.rename_platoon(pid, "Third")  # not through this window: the menu still names the platoon's creation
    qtbot.keyClick(win, Qt.Key.Key_Z, CTRL)
    assert Platoon.get_by_id(pid).name == "Third"
    assert (
        "The newest change is now \u201cRename platoon 2nd Platoon \u2192 Third\u201d"
        in win.statusBar().currentMessage()
    )
    assert menu_text(win.act_undo) == "Undo Rename platoon 2nd Platoon \u2192 Third"
    qtbot.keyClick(win, Qt.Key.Key_Z, CTRL)
    assert Platoon.get_by_id(pid).name == "2nd Platoon"


def test_a_qundoview_click_moves_through_the_journal(qtbot, gui_ctx, pid: int) -> None:
    """Qt itself moving the index (as a QUndoView does) runs the command's operation through the journal, then
    the view is put back in line with the journal."""
    from PySide6.QtWidgets import QUndoView

    perform(gui_ctx, platoon_service.set_xp, pid, 9, reason="a")
    perform(gui_ctx, platoon_service.set_platoon, pid, notes="b")
    stack = gui_ctx.undo_stack
    view = QUndoView(stack)
    qtbot.addWidget(view)
    top = stack.index()
    QUndoView.setCurrentIndex(view, view.model().index(top - 1, 0))  # the row before the newest: one undo
    assert Platoon.get_by_id(pid).notes == "" and Platoon.get_by_id(pid).xp == 9
    qtbot.waitUntil(lambda: stack.index() == top - 1 and stack.redoText().endswith("notes"))
    stack.redo()
    assert Platoon.get_by_id(pid).notes == "b" and stack.index() == top
