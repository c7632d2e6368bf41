"""How long the navigator takes to load with many platoons (200 platoons in a campaign).

Run by hand:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_navigator.py [N]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(n: int = 200) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from campaign_app.gui.context import AppContext
    from campaign_app.gui.main_window import MainWindow
    from campaign_app.paths import AppPaths
    from campaign_app.store import init_db
    from campaign_app.store.journal import operation
    from campaign_app.store.models import Campaign, Leader, Platoon

    tmp = Path(tempfile.mkdtemp())
    paths = AppPaths(tmp, tmp / "campaign.db").ensure()
    init_db(paths.db_file, paths.backup_dir)
    with operation("bench.setup", f"{n} platoons"):
        camp = Campaign.create(name="Big campaign", system="atomic_africa")
        for i in range(n):
            p = Platoon.create(
                campaign=camp, name=f"Platoon {i:03d}", training=10, equipment=8, morale=8, armor=2, xp=i % 33
            )
            Leader.create(platoon=p, name=f"Lt. {i}", xp=i % 20)
    app = QApplication.instance() or QApplication([])
    ctx = AppContext(paths=paths, settings=QSettings(str(tmp / "w.ini"), QSettings.Format.IniFormat))
    t0 = time.perf_counter()
    win = MainWindow(ctx)
    win.show()
    app.processEvents()
    t1 = time.perf_counter()
    reloads = []
    for _ in range(10):
        s = time.perf_counter()
        win.navigator.reload()
        app.processEvents()
        reloads.append(time.perf_counter() - s)
    s = time.perf_counter()
    win.navigator.filter_edit.setText("Platoon 19")
    app.processEvents()
    t_filter = time.perf_counter() - s
    first = Platoon.select().first()
    s = time.perf_counter()
    win.open_item("platoon", first.id)
    app.processEvents()
    t_page = time.perf_counter() - s
    model = win.navigator.model
    items = sum(1 + model.item(r).rowCount() for r in range(model.rowCount()))  # campaigns and what they hold
    print(
        f"{n} platoons: main window with navigator {1000 * (t1 - t0):.1f} ms; navigator reload "
        f"median {1000 * sorted(reloads)[len(reloads) // 2]:.1f} ms; filter {1000 * t_filter:.1f} ms; "
        f"open platoon page {1000 * t_page:.1f} ms; items {items}"
    )
    win.close()
    os._exit(0)  # skip interpreter teardown of Qt objects


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
