"""How long a platoon with many battles takes to show its history (issue 5: 1,000 battles).

Times the history queries (and counts them), opening the history view, building the two charts, filtering and
searching the timeline. Run by hand:

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_history.py [N]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _median_ms(func: Callable[[], Any], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main(n: int = 1000) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from campaign_app.gui.context import AppContext
    from campaign_app.gui.history_view import HistoryView
    from campaign_app.paths import AppPaths
    from campaign_app.rules.dice import SeededDice
    from campaign_app.services import battles
    from campaign_app.store import init_db
    from campaign_app.store.database import db
    from campaign_app.store.models import Campaign, Leader, Platoon

    tmp = Path(tempfile.mkdtemp())
    paths = AppPaths(tmp, tmp / "campaign.db").ensure()
    init_db(paths.db_file, paths.backup_dir)
    camp = Campaign.create(name="Long war", system="atomic_africa")
    p = Platoon.create(campaign=camp, name="Old Guard", training=10, equipment=10, morale=8, armor=2, xp=6)
    Leader.create(platoon=p, name="Lt. First", xp=2, xp_at_join=2)
    dice = SeededDice(2024)
    start = time.perf_counter()
    with db.atomic():
        for i in range(n):
            wounds = (i * 7) % 15
            battles.log_battle(p.id, wounds=wounds, leader_wounds=min((i * 5) % 9, wounds), objectives=i % 3,
                               outcome=battles.OUTCOMES[i % 3], scenario=f"Scenario {i + 1}", dice=dice,
                               replacement_name=f"Lt. {i + 1}")
    t_log = time.perf_counter() - start
    report = battles.history_report(p.id)
    events = len(report["history"]["events"])
    rolls = sum(len(b["rolls"]) for b in report["history"]["battles"])

    real = db.obj
    seen: list[str] = []
    original = real.execute_sql

    def counting(sql: str, params: Any = None, *args: Any, **kwargs: Any) -> Any:
        seen.append(sql)
        return original(sql, params, *args, **kwargs)

    real.execute_sql = counting
    battles.history_report(p.id)
    del real.execute_sql

    t_history = _median_ms(lambda: battles.history(p.id))
    t_report = _median_ms(lambda: battles.history_report(p.id))
    t_csv = _median_ms(lambda: battles.timeline_csv(p.id), 3)

    app = QApplication.instance() or QApplication([])
    ctx = AppContext(paths=paths, settings=QSettings(str(tmp / "w.ini"), QSettings.Format.IniFormat))
    start = time.perf_counter()
    view = HistoryView(ctx)
    view.resize(1400, 900)
    view.show_platoon(p.id)
    view.show()
    app.processEvents()
    t_open = time.perf_counter() - start
    t_reload = _median_ms(lambda: (view.reload(), app.processEvents()), 3)
    t_xp_chart = _median_ms(lambda: (view.xp_chart.set_data(report["xp_series"]), app.processEvents()), 3)
    t_wounds_chart = _median_ms(lambda: (view.wounds_chart.set_data(report["wounds_series"]),
                                         app.processEvents()), 3)
    t_paint = _median_ms(lambda: view.grab(), 3)

    def toggle() -> None:
        view.kind_buttons["xp"].click()
        app.processEvents()

    t_filter = _median_ms(toggle, 4)

    def search() -> None:
        view.search.setText("Scenario 99")
        app.processEvents()
        view.search.clear()
        app.processEvents()

    t_search = _median_ms(search, 3) / 2
    print(f"{n} battles ({rolls} rolls, {events} timeline events); logging them took {t_log:.1f} s")
    print(f"history_report: {len(seen)} queries; history() {t_history:.0f} ms; history_report() "
          f"{t_report:.0f} ms; timeline CSV {t_csv:.0f} ms")
    print(f"history view: open (read + models + charts + first paint) {1000 * t_open:.0f} ms; reload "
          f"{t_reload:.0f} ms; XP chart {t_xp_chart:.0f} ms; wounds chart {t_wounds_chart:.0f} ms; "
          f"full repaint {t_paint:.0f} ms; kind filter {t_filter:.0f} ms; search {t_search:.0f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
