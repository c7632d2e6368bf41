"""How long switching the main window between a platoon and its campaign takes (the title, the reopened-last
setting and the toolbar follow every switch).

Run by hand:  python benchmarks/bench_page_switch.py [--runs 60]
Prints the time to build and show the window and the median of platoon→campaign switches, offscreen, on the
sample campaigns in a temporary folder. Compare against a checkout of main run the same way, in the same
minute (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from campaign_app.paths import AppPaths
    from campaign_app.services.demo import DEMO_CAMPAIGN, DEMO_PLATOON, create_demo
    from campaign_app.store import init_db
    from campaign_app.store.models import Campaign, Platoon

    folder = Path(tempfile.mkdtemp())
    paths = AppPaths(data_dir=folder, db_file=folder / "campaign.db").ensure()
    init_db(paths.db_file, paths.backup_dir)
    create_demo()
    app = QApplication([])
    t0 = time.perf_counter()
    from campaign_app.gui.context import AppContext
    from campaign_app.gui.main_window import MainWindow

    ctx = AppContext(paths=paths, settings=QSettings(str(folder / "window.ini"), QSettings.Format.IniFormat))
    window = MainWindow(ctx)
    window.resize(1180, 760)
    window.show()
    app.processEvents()
    built = time.perf_counter() - t0
    platoon = Platoon.get(Platoon.name == DEMO_PLATOON).id
    campaign = Campaign.get(Campaign.name == DEMO_CAMPAIGN).id
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        window.open_item("platoon", platoon)
        window.open_item("campaign", campaign)
        app.processEvents()
        times.append(time.perf_counter() - start)
    print(
        f"window built and shown: {1000 * built:.0f} ms; platoon+campaign switch: median "
        f"{1000 * statistics.median(times):.1f} ms, best {1000 * min(times):.1f} ms ({args.runs} runs)"
    )


if __name__ == "__main__":
    main()
