"""The History tab of a platoon with many battles (1,000 battles).

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_history.py [N] [--runs 7]

Logs N battles through the services (one transaction), then measures, each against its goal:

- the history read (``history_report``, as the view asks for it) against the raw sqlite3 floor of the same
  queries (the same SQL through ``sqlite3`` straight to tuples): goal <= 3x;
- opening the History tab (read, models, first paint of the window's page) the first time (goal < 150 ms)
  and again (goal < 100 ms), measured from the tab switch to a grabbed (painted) window;
- the Charts tab: first show (QtCharts import and chart build) and each later update (in place, no new
  series or axes), the Leaders' roll, filtering and searching the timeline, and how many times the models'
  ``data()`` is asked for when the tab opens (text is made only for painted rows).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import figure, median_ms, paired_inprocess, summary


def _make(n: int, tmp: Path) -> tuple[Any, int]:
    from campaign_app.paths import AppPaths
    from campaign_app.rules.dice import SeededDice
    from campaign_app.services import battles
    from campaign_app.store import init_db
    from campaign_app.store.journal import operation
    from campaign_app.store.models import Campaign, Leader, Platoon

    paths = AppPaths(tmp, tmp / "campaign.db").ensure()
    init_db(paths.db_file, paths.backup_dir)
    dice = SeededDice(2024)
    start = time.perf_counter()
    with operation("bench.setup", f"{n} battles of one platoon"):  # one transaction
        camp = Campaign.create(name="Long war", system="atomic_africa")
        p = Platoon.create(campaign=camp, name="Old Guard", training=10, equipment=10, morale=8, armor=2, xp=6)
        Leader.create(platoon=p, name="Lt. First", xp=2, xp_at_join=2)
        for i in range(n):
            wounds = (i * 7) % 15
            battles.log_battle(
                p.id,
                wounds=wounds,
                leader_wounds=min((i * 5) % 9, wounds),
                objectives=i % 3,
                outcome=battles.OUTCOMES[i % 3],
                scenario=f"Scenario {i + 1}",
                dice=dice,
                replacement_name=f"Lt. {i + 1}",
            )
    print(f"{n} battles logged in {time.perf_counter() - start:.1f} s")
    return paths, p.id


def _floor_queries(pid: int) -> list[tuple[str, Any]]:
    """The read's own SQL: the platoon's row, then :data:`campaign_app.services.history.HISTORY_SQL`."""
    from campaign_app.services.history import HISTORY_SQL
    from campaign_app.store.models import Campaign, Platoon

    head = Platoon.select(Platoon, Campaign).join(Campaign).where(Platoon.id == pid).sql()
    return [head] + [(sql, (pid,)) for sql in HISTORY_SQL.values()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=1000, help="battles (default 1000)")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-history-"))
    paths, pid = _make(args.n, tmp)

    from campaign_app.services import history
    from campaign_app.store.database import db

    report = history.history_report(pid)
    print(
        f"{len(report.history.events)} timeline events, "
        f"{sum(len(b.rolls) for b in report.history.battles)} rolls, "
        f"{len(report.leaders)} leaders\n"
    )
    seen: list[str] = []
    real = db.obj
    original = real.execute_sql

    def counting(sql: str, params: Any = None, *a: Any, **k: Any) -> Any:
        seen.append(sql)
        return original(sql, params, *a, **k)

    real.execute_sql = counting
    history.history_report(pid, lazy_text=True)
    del real.execute_sql
    con = sqlite3.connect(str(paths.db_file))
    queries = _floor_queries(pid)

    def floor() -> None:
        for sql, params in queries:
            con.execute(sql, params).fetchall()

    def view_read() -> None:
        """What the History tab asks for when it opens: the timeline in order and the summary."""
        report = history.history_report(pid, lazy_text=True)
        report.history  # noqa: B018 - made when first asked for
        report.summary  # noqa: B018

    def full_read() -> None:
        """Every part, every event made with its text (export, print)."""
        report = history.history_report(pid)
        for event in report.history.events:
            event.text  # noqa: B018 - made when first asked for
        report.leaders, report.summary, report.xp_series, report.wounds_series  # noqa: B018

    # paired: the floor and the read in turn, so that the machine's noise hits both alike
    times = paired_inprocess({"floor": floor, "read": view_read, "full": full_read}, args.runs)
    t_floor, t_read, t_full = times["floor"], times["read"], times["full"]
    print(f"history read: {len(seen)} queries (the floor runs the same {len(queries)})")
    figure(
        "history read (timeline and summary, lazy)", t_read, base_ms=t_floor, ratio_goal=3.0, base_label="sqlite3 floor"
    )
    figure("  every part, every event's text (export)", t_full, base_ms=t_floor, base_label="sqlite3 floor")
    # the timeline's order: grouped by battle (the read's way) against one sort of every event by its key
    rows = history.read_rows(pid)
    order = paired_inprocess(
        {"plain": lambda: history.plain_timeline(rows), "grouped": lambda: history.Timeline(rows)}, args.runs
    )
    figure(
        "  timeline put in order, grouped by battle",
        order["grouped"],
        base_ms=order["plain"],
        base_label="one sort of every event",
    )

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from campaign_app.gui.context import AppContext
    from campaign_app.gui.history_models import LeadersModel, TimelineModel
    from campaign_app.gui.history_view import CHARTS_TAB, LEADERS_TAB, TIMELINE_TAB, HistoryView
    from campaign_app.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    ctx = AppContext(paths=paths, settings=QSettings(str(tmp / "w.ini"), QSettings.Format.IniFormat))
    window = MainWindow(ctx)
    window.resize(1280, 800)
    window.show()
    window.open_item("platoon", pid)
    app.processEvents()
    page = window.stack.currentWidget()
    view = page.findChild(HistoryView)
    sheet_tab = page.tabs.currentIndex()
    calls = {"n": 0}
    for model in (TimelineModel, LeadersModel):
        original_data = model.data

        def data(self: Any, index: Any, role: int = 0, _orig: Any = original_data) -> Any:
            calls["n"] += 1
            return _orig(self, index, role)

        model.data = data  # type: ignore[method-assign]

    def open_history() -> float:
        page.tabs.setCurrentIndex(sheet_tab)
        app.processEvents()
        view._changes += 1  # as after a change (what a data_changed signal does): the tab must read again
        view.platoon_id = None
        view.show_platoon(pid)  # the hidden tab reads when shown
        start = time.perf_counter()
        page.tabs.setCurrentWidget(view)
        app.processEvents()
        window.grab()
        return 1000 * (time.perf_counter() - start)

    first = open_history()
    figure("History tab open and painted, first time", first, goal_ms=150)
    data_calls = calls["n"]
    print(
        f"  data() calls while opening: {data_calls} (for {view.model.rowCount()} top-level rows handed "
        f"to the view of {len(view.model.top_level_events())})"
    )
    reread = sorted(open_history() for _ in range(args.runs))[args.runs // 2]
    figure("History tab open and painted after a change", reread, goal_ms=100)

    from campaign_app.gui.feed import announce
    from campaign_app.store.journal import operation
    from campaign_app.store.models import Platoon

    with operation("bench.setup", "a second platoon") as op:
        other = Platoon.create(
            campaign=Platoon.get_by_id(pid).campaign, name="Fresh", training=6, equipment=6, morale=6, armor=1, xp=0
        ).id
    announce(ctx, [op.changes])

    def come_back() -> float:
        window.open_item("platoon", other)
        app.processEvents()
        start = time.perf_counter()
        window.open_item("platoon", pid)
        app.processEvents()
        window.grab()
        return 1000 * (time.perf_counter() - start)

    page.tabs.setCurrentWidget(view)
    come_back()
    back = sorted(come_back() for _ in range(args.runs))[args.runs // 2]
    figure("back to the platoon's History tab, no change since", back, goal_ms=100)

    def switch(tab: int) -> float:
        view.tabs.setCurrentIndex(TIMELINE_TAB)
        app.processEvents()
        start = time.perf_counter()
        view.tabs.setCurrentIndex(tab)
        app.processEvents()
        window.grab()
        return 1000 * (time.perf_counter() - start)

    figure("Charts tab first shown (QtCharts import, build)", switch(CHARTS_TAB))
    series_before = [id(s) for c in view.charts() for s in c.chart().series()]
    axes_before = [id(a) for c in view.charts() for a in c.chart().axes()]
    figure("Charts tab shown again", sorted(switch(CHARTS_TAB) for _ in range(3))[1])

    def update_charts() -> None:
        view.reload()
        app.processEvents()
        window.grab()

    view.tabs.setCurrentIndex(CHARTS_TAB)
    figure("reload with the Charts tab shown (read + charts)", median_ms(update_charts, 5), goal_ms=100)
    same = series_before == [id(s) for c in view.charts() for s in c.chart().series()] and axes_before == [
        id(a) for c in view.charts() for a in c.chart().axes()
    ]
    print(f"  charts kept their series and axes (updated in place): {same}")

    from campaign_app.rules.dice import SeededDice
    from campaign_app.services import battles

    def battle_logged() -> float:
        """A battle logged (not timed), then the app's change signal: the charts read and redraw (every
        point list is new: the series grow by one battle)."""
        edit = battles.log_battle(
            pid, wounds=3, leader_wounds=1, objectives=1, dice=SeededDice(7), replacement_name="Lt. New"
        )
        start = time.perf_counter()
        announce(ctx, [edit.changes])  # the window's news of the battle's operation: a battle and its platoon
        app.processEvents()
        window.grab()
        return 1000 * (time.perf_counter() - start)

    battle_logged()
    # (no goal of its own: the platoon page behind the tab also reads the platoon again on each signal)
    figure("a battle logged, Charts tab shown (whole page)", sorted(battle_logged() for _ in range(5))[2])
    figure("Leaders' roll tab shown", sorted(switch(LEADERS_TAB) for _ in range(3))[1])
    view.tabs.setCurrentIndex(TIMELINE_TAB)
    app.processEvents()

    def toggle() -> None:
        view.kind_buttons["xp"].click()
        app.processEvents()

    figure("timeline kind filter", median_ms(toggle, 4))

    def search() -> None:
        view.search.setText("Scenario 99")
        app.processEvents()
        view.search.clear()
        app.processEvents()

    figure("timeline search and clear", median_ms(search, 3))
    window.close()
    return summary()


if __name__ == "__main__":
    sys.exit(main())
