"""The history view driven as a user would: timeline filter and search, battles expanding to their rolls, charts,
leaders' roll, export, undo of the newest battle and editing a battle's text; the models pass qtmodeltester."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QPoint, Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog

from campaign_app.gui.history_models import LeadersModel, RollsModel, TimelineModel
from campaign_app.gui.history_view import LEADERS_TAB, HistoryView
from campaign_app.rules.dice import SeededDice, TypedDice
from campaign_app.services import battle_edits, battles, history
from campaign_app.store.journal import OpChanges, operation
from campaign_app.store.models import AttributeChange, Battle, Campaign, Leader, Platoon, Roll

LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    state = {"t": dt.datetime.now().replace(microsecond=0)}

    def tick() -> dt.datetime:
        state["t"] += dt.timedelta(minutes=1)
        return state["t"]

    monkeypatch.setattr(battles, "now", tick)
    monkeypatch.setattr(battle_edits, "now", tick)  # battle edits are stamped by the same clock


@pytest.fixture
def pid(clock: None, congo_platoon) -> int:  # type: ignore[no-untyped-def]
    p = Platoon.get_by_id(congo_platoon())
    battles.log_battle(
        p.id, wounds=3, leader_wounds=0, outcome="victory", scenario="Bridge", dice=TypedDice([[3], [12, 12]])
    )
    battles.log_battle(
        p.id,
        wounds=9,
        leader_wounds=9,
        outcome="defeat",
        scenario="Swamp",
        dice=TypedDice([[1], [1, 1], [3, 3, 3], [2, 3], [8, 9]]),
        replacement_name="Lt. Bello",
    )
    battles.log_battle(
        p.id, wounds=2, leader_wounds=1, outcome="draw", scenario="Village", dice=TypedDice([[2], [10, 11]])
    )
    return p.id


@pytest.fixture
def view(qtbot, gui_ctx, pid: int) -> HistoryView:  # type: ignore[no-untyped-def]
    v = HistoryView(gui_ctx)
    qtbot.addWidget(v)
    v.resize(1300, 850)
    v.show_platoon(pid)
    v.show()
    qtbot.waitExposed(v)
    return v


def top_kinds(model: TimelineModel) -> list[str]:
    return [model.event_at(model.index(r, 0)).kind for r in range(model.rowCount())]  # type: ignore[union-attr]


def test_models_pass_the_model_tester(qtmodeltester, view: HistoryView) -> None:
    qtmodeltester.check(view.model)
    qtmodeltester.check(view.leaders_model)
    rolls = RollsModel()
    rolls.set_rows(history.history(view.platoon_id).battles[0].rolls)
    qtmodeltester.check(rolls)
    view.kind_buttons["battle"].click()
    qtmodeltester.check(view.model)
    empty = TimelineModel()
    qtmodeltester.check(empty)
    qtmodeltester.check(LeadersModel())


def test_timeline_model_takes_qt_events(qtbot, view: HistoryView) -> None:  # type: ignore[no-untyped-def]
    """The model used to define ``event(index)``, which hid ``QObject.event()``: every event Qt sent it (a
    property change, deleteLater) raised AttributeError. Qt's own events now reach QObject.event()."""
    model = view.model
    QCoreApplication.sendEvent(model, QEvent(QEvent.Type.User))  # raised AttributeError before
    model.setProperty("probe", 1)  # sends a DynamicPropertyChange event
    spare = TimelineModel()
    with qtbot.waitSignal(spare.destroyed, timeout=2000):
        spare.deleteLater()  # a DeferredDelete event
    assert top_kinds(model)[0] == "battle"


def test_timeline_newest_first_and_battles_expand_to_their_rolls(view: HistoryView) -> None:
    model = view.model
    assert view.title.text() == "History of 2nd Platoon (Congo 1960)"
    first = model.index(0, 0)
    assert model.event_at(first).kind == "battle" and model.event_at(first).battle_number == 3
    assert model.rowCount(first) == 2  # battle 3: one recovery roll and the leader's fate
    assert view.tree.isExpanded(first)
    child = model.index(0, TimelineModel.EVENT, first)
    assert child.data().startswith("Recovery 1d8 [2] = 2")
    assert model.index(1, TimelineModel.EVENT, first).data().startswith("Leader's fate 2d12 [10, 11] = 21: stays")
    battle_rows = [
        model.event_at(model.index(r, 0))
        for r in range(model.rowCount())
        if model.event_at(model.index(r, 0)).kind == "battle"
    ]
    assert [b.battle_number for b in battle_rows] == [3, 2, 1]
    swamp = model.row_of_battle(battle_rows[1].id)
    assert model.rowCount(swamp) == 5 and not view.tree.isExpanded(swamp)
    total = len(history.history(view.platoon_id).events)
    assert view.count.text() == f"{total} of {total} events shown"
    assert model.index(0, TimelineModel.BATTLE).data() == "#3"
    assert "RULES 1.2 recovery" in model.index(0, TimelineModel.EVENT, first).data(Qt.ItemDataRole.ToolTipRole)


def test_kind_filter_and_search(qtbot, view: HistoryView) -> None:
    model = view.model
    qtbot.mouseClick(view.kind_buttons["battle"], LEFT)
    kinds = set(top_kinds(model))
    assert "battle" not in kinds and "roll" in kinds  # without battles the rolls stand on their own
    assert model.rowCount() == model.visible_count()
    for kind in ("xp", "leader", "attribute"):
        qtbot.mouseClick(view.kind_buttons[kind], LEFT)
    assert set(top_kinds(model)) == {"roll"} and model.rowCount() == Roll.select().count()
    qtbot.mouseClick(view.kind_buttons["battle"], LEFT)
    qtbot.mouseClick(view.kind_buttons["roll"], LEFT)
    assert set(top_kinds(model)) == {"battle"} and all(
        model.rowCount(model.index(r, 0)) == 0 for r in range(model.rowCount())
    )
    qtbot.mouseClick(view.kind_buttons["roll"], LEFT)
    for kind in ("xp", "leader", "attribute"):
        qtbot.mouseClick(view.kind_buttons[kind], LEFT)
    qtbot.keyClicks(view.search, "bello")
    texts = [model.event_at(model.index(r, 0)).text for r in range(model.rowCount())]
    assert texts and all("bello" in t.lower() for t in texts if "Battle" not in t)
    assert "of" in view.count.text() and view.count.text().split()[0] != view.count.text().split()[2]
    view.search.clear()
    qtbot.keyClicks(view.search, "[1, 1]")
    # battle 2 is shown because one of its rolls matched (its own text does not); only that roll is under it
    battle_rows = [
        model.index(r, 0) for r in range(model.rowCount()) if model.event_at(model.index(r, 0)).kind == "battle"
    ]
    assert len(battle_rows) == 1 and model.event_at(battle_rows[0]).battle_number == 2
    assert model.rowCount(battle_rows[0]) == 1
    view.search.clear()
    qtbot.keyClicks(view.search, "no such thing at all")
    assert model.rowCount() == 0 and view.count.text().startswith("0 of")


def _click_tab(qtbot, view: HistoryView, index: int) -> None:  # type: ignore[no-untyped-def]
    bar = view.tabs.tabBar()
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(index).center())
    assert view.tabs.currentIndex() == index


def test_charts_summary_and_leaders(qtbot, view: HistoryView) -> None:  # type: ignore[no-untyped-def]
    series = history.xp_series(view.platoon_id)
    assert view.xp_chart.platoon_points == [(0.0, 6.0)] + [
        (float(p.battle), float(p.platoon_xp)) for p in series.points
    ]
    assert view.xp_chart.leader_points[0] == (0.0, 2.0) and view.xp_chart.leader_points[2] == (2.0, 7.0)
    assert [battle for battle, _change in view.xp_chart.changes] == [2]
    chart = view.xp_chart.chart()
    names = [s.name() for s in chart.series()]
    for name in ("Platoon XP", "Leader XP", "Leader lost", "New leader", "Untested", "Legendary"):
        assert name in names
    assert view.wounds_chart.mode == "bars"
    bars = view.wounds_chart.chart().series()[0]
    assert [bars.barSets()[0].at(i) for i in range(4)] == [0.0, 3.0, 9.0, 2.0]  # bar i is battle i
    text = view.summary.text()
    assert "<b>3 battles</b> (1 victory, 1 defeat, 1 draw" in text and "<b>14 wound counters</b>" in text
    assert "<b>1 leader</b> lost (1 casualty, 0 promoted)" in text and "led by <b>Lt. Bello</b>" in text
    leaders = view.leaders_model
    assert leaders.rowCount() == 0  # filled when its tab is first shown
    _click_tab(qtbot, view, LEADERS_TAB)
    assert leaders.rowCount() == 2
    assert [leaders.index(r, 0).data() for r in range(2)] == ["Lt. Okafor", "Lt. Bello"]
    # the campaign's own dates: the first leader joined "at the start", never on the day he was typed in
    assert leaders.index(0, 2).data() == "at the start"
    # shown short ("battle 2"), the date in the tip (every column fits a 1024-pixel window)
    assert leaders.index(1, 2).data() == "battle 2" and leaders.index(0, 3).data().startswith("battle 2")
    assert leaders.index(1, 2).data(Qt.ItemDataRole.ToolTipRole).startswith("battle 2 (")
    assert leaders.index(0, 4).data() == "casualty"
    assert leaders.index(0, 4).data(Qt.ItemDataRole.ToolTipRole) == "casualty (killed or invalided out)"
    assert leaders.index(1, 4).data() == "still in command" and leaders.index(1, 5).data() == "1"


def test_many_battles_use_lines_for_the_wounds_chart(qtbot, gui_ctx, clock: None) -> None:
    with operation("test.setup", "test data"):
        c = Campaign.create(name="Long war", system="atomic_africa")
    with operation("test.setup", "test data"):
        p = Platoon.create(campaign=c, name="Old Guard", training=8, equipment=8, morale=8, armor=1, xp=3)
    with operation("test.setup", "test data"):
        Leader.create(platoon=p, name="Capt. Long", xp=1, xp_at_join=1)
    for i in range(45):
        battles.log_battle(
            p.id, wounds=i % 7, leader_wounds=min(i % 3, i % 7), dice=SeededDice(i), replacement_name=f"L{i}"
        )
    v = HistoryView(gui_ctx)
    qtbot.addWidget(v)
    v.show_platoon(p.id)
    assert v.report is None  # hidden: nothing read yet
    v.show()
    assert v.wounds_chart.mode == "lines"
    assert len(v.xp_chart.platoon_points) == 46


def test_undo_newest_battle_then_edit_undo_and_redo(qtbot, gui_ctx, view: HistoryView) -> None:
    newest = Battle.get(Battle.number == 3)
    with qtbot.waitSignal(view.loaded):
        qtbot.mouseClick(view.undo_button, LEFT)
    assert Battle.get_or_none(Battle.id == newest.id) is None
    assert "Battle 3 undone" in view.message.text()
    assert [b.number for b in view.report.history.battles] == [2, 1]  # type: ignore[union-attr]
    # the battle's operation is undone in the journal: Edit ▸ Redo names it and brings it back
    assert "Edit \u25b8 Redo brings it back" in view.message.text()
    assert gui_ctx.undo_stack.redoText() == "Log battle 3 of 2nd Platoon"
    assert gui_ctx.undo_stack.undoText() == "Log battle 2 of 2nd Platoon"
    with qtbot.waitSignal(view.loaded):
        gui_ctx.undo_stack.redo()  # the battle comes back, with its rolls
    assert Battle.get_by_id(newest.id).scenario == "Village"
    assert Roll.select().where(Roll.battle == newest.id).count() == 2
    assert "undone" not in view.message.text()  # the message about the undo is out of date now
    gui_ctx.undo_stack.undo()
    assert Battle.get_or_none(Battle.id == newest.id) is None
    gui_ctx.undo_stack.redo()
    assert view.model.event_at(view.model.index(0, 0)).battle_number == 3


def test_undo_newest_refused_shows_why(qtbot, view: HistoryView) -> None:
    with operation("test.setup", "test data"):
        Platoon.update(xp=30).where(Platoon.id == view.platoon_id).execute()
    qtbot.mouseClick(view.undo_button, LEFT)
    assert view.message.isVisible() and "changed the same data later" in view.message.text()
    assert Battle.select().count() == 3


def test_edit_battle_text(qtbot, gui_ctx, view: HistoryView) -> None:
    assert not view.edit_button.isEnabled()
    swamp = view.model.row_of_battle(Battle.get(Battle.number == 2).id)
    rect = view.tree.visualRect(view.model.index(swamp.row(), TimelineModel.EVENT))
    qtbot.mouseClick(view.tree.viewport(), LEFT, pos=rect.center())
    assert view.edit_button.isEnabled()
    qtbot.mouseClick(view.edit_button, LEFT)
    dialog = view.edit_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.scenario.text() == "Swamp" and dialog.outcome.currentData() == "defeat"
    dialog.scenario.clear()
    qtbot.keyClicks(dialog.scenario, "Swamp ambush")
    qtbot.keyClicks(dialog.notes, "Radio lost")
    qtbot.keyClicks(dialog.reason, "remembered later")
    with qtbot.waitSignal(view.loaded):
        qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), LEFT)
    b = Battle.get(Battle.number == 2)
    assert (b.scenario, b.notes, b.outcome) == ("Swamp ambush", "Radio lost", "defeat")
    rows = [(a.field, a.reason) for a in AttributeChange.select().order_by(AttributeChange.id)]
    assert rows == [("battle.scenario", "remembered later"), ("battle.notes", "remembered later")]
    top = view.model.event_at(view.model.index(0, 0))
    assert top is not None and top.kind == "attribute"
    assert top.text == "Battle 2: Notes (empty) \u2192 Radio lost (remembered later)"
    gui_ctx.undo_stack.undo()
    assert Battle.get(Battle.number == 2).scenario == "Swamp" and AttributeChange.select().count() == 0
    # selecting one of a battle's rolls also selects the battle for editing
    first = view.model.index(0, 0)
    view.tree.expand(first)
    roll_rect = view.tree.visualRect(view.model.index(0, TimelineModel.EVENT, first))
    qtbot.mouseClick(view.tree.viewport(), LEFT, pos=roll_rect.center() + QPoint(0, 0))
    assert view.selected_battle().number == 3  # type: ignore[union-attr]


def test_export_csv_and_json(qtbot, view: HistoryView, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "CSV files (*.csv)"))
    qtbot.mouseClick(view.csv_button, LEFT)
    rows = list(csv.DictReader(target.read_text(encoding="utf-8").splitlines()))
    assert len(rows) == len(view.report.history.events)  # type: ignore[union-attr]
    assert rows[0]["kind"] == "battle" and "Exported" in view.message.text()
    target = tmp_path / "out.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "JSON files (*.json)"))
    qtbot.mouseClick(view.json_button, LEFT)
    data = json.loads(target.read_text(encoding="utf-8"))
    assert [b["number"] for b in data["battles"]] == [3, 2, 1] and data["battles"][0]["rolls"]
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))
    assert view.export("csv") is None  # cancelled
    assert view.export("csv", tmp_path / "missing" / "x.csv") is None
    assert "cannot write" in view.message.text()


def test_reloads_when_a_battle_is_logged_elsewhere(qtbot, gui_ctx, view: HistoryView) -> None:
    logged = battles.log_battle(view.platoon_id, wounds=1, leader_wounds=0, dice=SeededDice(3))
    with qtbot.waitSignal(view.loaded):
        gui_ctx.signals.op_changed.emit(logged.changes)
    assert view.report.summary.battles == 4  # type: ignore[union-attr]
    view.hide()
    gui_ctx.signals.op_changed.emit(battles.undo_last_battle(view.platoon_id).changes)
    assert view.report.summary.battles == 4  # type: ignore[union-attr]  # hidden: reloads when shown
    with qtbot.waitSignal(view.loaded):
        view.show()
    assert view.report.summary.battles == 3  # type: ignore[union-attr]


def test_each_change_is_read_once(
    qtbot,
    gui_ctx,
    view: HistoryView,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reads: list[int] = []
    real = history.history_report

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        reads.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(history, "history_report", counting)
    logged = battles.log_battle(view.platoon_id, wounds=1, leader_wounds=0, dice=SeededDice(3))
    gui_ctx.signals.op_changed.emit(logged.changes)
    assert len(reads) == 1 and view.report.summary.battles == 4  # type: ignore[union-attr]
    from campaign_app.services import platoons as platoon_service

    set_xp = platoon_service.set_xp(view.platoon_id, 3, reason="house rule")  # a write since: read again
    gui_ctx.signals.op_changed.emit(set_xp.changes)
    assert len(reads) == 2 and view.report.summary.xp == 3  # type: ignore[union-attr]


def test_a_platoon_without_battles_and_a_deleted_one(qtbot, gui_ctx, pid: int) -> None:
    c = Campaign.get()
    with operation("test.setup", "test data"):
        p = Platoon.create(campaign=c, name="Fresh", training=6, equipment=6, morale=6, armor=1, xp=0)
    v = HistoryView(gui_ctx)
    qtbot.addWidget(v)
    v.show()
    v.show_platoon(p.id)
    assert not v.undo_button.isEnabled() and v.log_button.isEnabled()
    assert v.model.rowCount() == 0 and v.xp_chart.platoon_points == [(0.0, 0.0)]
    with operation("test.setup", "test data"):
        Platoon.delete().where(Platoon.id == p.id).execute()
    v.reload()
    assert "no platoon with id" in v.message.text() and not v.log_button.isEnabled()


def test_platoon_page_has_a_history_tab(qtbot, gui_ctx, pid: int) -> None:
    from campaign_app.gui.platoon_page import PlatoonPage

    page = PlatoonPage(gui_ctx)
    qtbot.addWidget(page)
    page.resize(1300, 850)
    page.show()
    page.show_platoon(pid)
    titles = [page.tabs.tabText(i).replace("&", "") for i in range(page.tabs.count())]
    assert "History" in titles
    history = page.tabs.widget(titles.index("History"))
    assert isinstance(history, HistoryView) and history.report is None  # read only when shown
    with qtbot.waitSignal(history.loaded):
        page.tabs.setCurrentIndex(titles.index("History"))
    assert history.report.summary.battles == 3  # type: ignore[union-attr]


def test_coming_back_to_a_platoon_reuses_its_history_until_something_changes(
    qtbot, gui_ctx, pid: int, app_paths
) -> None:
    import sqlite3

    with operation("test.setup", "test data"):
        other = Platoon.create(
            campaign=Campaign.get(), name="Other", training=6, equipment=6, morale=6, armor=1, xp=0
        ).id
    v = HistoryView(gui_ctx)
    qtbot.addWidget(v)
    v.show()
    v.show_platoon(pid)
    first = v.report
    v.show_platoon(other)
    v.show_platoon(pid)
    assert v.report is first  # nothing changed: no second read
    v.show_platoon(pid)
    assert v.report is not first  # the same platoon shown again (Refresh): read again
    again = v.report
    v.show_platoon(other)
    gui_ctx.signals.op_changed.emit(
        OpChanges(None, "test", "a change anywhere", frozenset({("platoon", other)}), platoon_id=other)
    )
    v.show_platoon(pid)
    assert v.report is not again
    seen = v.report
    v.show_platoon(other)
    con = sqlite3.connect(app_paths.db_file)  # another program writes to the file
    with con:
        con.execute("UPDATE journal_state SET mode = 'off'")
        con.execute("UPDATE battle SET scenario = 'Renamed elsewhere' WHERE number = 1")
        con.execute("UPDATE journal_state SET mode = 'record'")
    con.close()
    v.show_platoon(pid)
    assert v.report is not seen
    assert any(b.scenario == "Renamed elsewhere" for b in v.report.history.battles)  # type: ignore[union-attr]
