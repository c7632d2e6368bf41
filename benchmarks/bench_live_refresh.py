"""How soon a window sees another program's change (goal: within 2 s): the club server's LISTEN/NOTIFY
(``gui.club.LiveUpdates``) against the file's ``data_version`` watcher (``gui.watch.ChangeWatcher``, a 2 s poll),
measured in the same run.

Run by hand:  QT_QPA_PLATFORM=offscreen python benchmarks/bench_live_refresh.py URL [--battles 20]
URL names an empty PostgreSQL database the benchmark may fill (e.g. postgresql://postgres@%2Ftmp%2Fpg/bench).
Another process logs the battles, one every 0.3 s, and writes the moment each commits; this process records when
the window hears of it: ``op_changed`` (the server's notice, or the watcher's news read from the file's journal;
one poll may cover several commits). Prints the median, p95 and max delay per commit.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

WRITER = """
import json, sys, time
from campaign_app.store import init_db
from campaign_app.rules.dice import TypedDice
from campaign_app.rules.enums import Outcome
from campaign_app.services import battles, names
init_db(sys.argv[1], daily_backup=False)
platoon = names.platoon_id('2nd Platoon')
for i in range(int(sys.argv[2])):
    time.sleep(0.3)
    battles.log_battle(platoon, wounds=1, outcome=Outcome.VICTORY, dice=TypedDice([[3], [12, 12]]))
    print(json.dumps(time.time()), flush=True)
"""


def _prepare(target: str) -> None:
    from campaign_app.services import campaigns
    from campaign_app.services import platoons as platoon_service
    from campaign_app.store import init_db

    init_db(target, daily_backup=False)
    congo = campaigns.create_campaign("Congo 1960").id
    platoon_service.create_platoon(
        congo,
        "2nd Platoon",
        training=10,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader_name="Lt. Okafor",
        leader_xp=0,
    )


def measure(target: str, battles: int, server: bool) -> list[float]:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QWidget

    from campaign_app.gui.context import AppContext
    from campaign_app.paths import AppPaths
    from campaign_app.server_target import parse_server_url

    app = QApplication.instance() or QApplication([])
    _prepare(target)
    folder = Path(tempfile.mkdtemp())
    ctx = AppContext(
        paths=AppPaths(folder, Path(target) if not server else folder / "campaign.db"),
        settings=QSettings(str(folder / "w.ini"), QSettings.Format.IniFormat),
    )
    seen: list[float] = []
    window = QWidget()
    window.ctx = ctx  # type: ignore[attr-defined]
    if server:
        from campaign_app.gui.club import LiveUpdates

        ctx.server, _password = parse_server_url(target)
        live: Any = LiveUpdates(ctx, ctx.server, None)
        assert live.start()
        ctx.signals.op_changed.connect(lambda _ch: seen.append(time.time()))
    else:
        from campaign_app.gui.watch import ChangeWatcher

        live = ChangeWatcher(window)
        ctx.signals.op_changed.connect(lambda _ch: seen.append(time.time()))
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, target, str(battles)], stdout=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    committed: list[float] = []
    assert writer.stdout is not None
    stream = writer.stdout
    reader = threading.Thread(target=lambda: committed.extend(float(json.loads(line)) for line in stream), daemon=True)
    reader.start()
    deadline = time.time() + 60 + battles * 3
    while time.time() < deadline and not (len(committed) == battles and seen and seen[-1] >= committed[-1]):
        app.processEvents()
        time.sleep(0.005)
    writer.wait(10)
    if server:
        live.stop()
    from campaign_app.store import close_db

    close_db()
    # each commit's delay: until the first refresh at or after it (the file's poll sees several commits at once)
    return [next((s for s in seen if s >= c), float("inf")) - c for c in committed]


def report(name: str, delays: list[float]) -> None:
    ordered = sorted(delays)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)] if ordered else float("nan")
    print(
        f"{name:<34} n={len(delays):3d}  median {statistics.median(ordered) * 1000:7.1f} ms  "
        f"p95 {p95 * 1000:7.1f} ms  max {max(ordered) * 1000:7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", help="an empty PostgreSQL database (postgresql://...)")
    parser.add_argument("--battles", type=int, default=20)
    args = parser.parse_args()
    file_db = str(Path(tempfile.mkdtemp()) / "campaign.db")
    report("file: data_version watcher (2 s)", measure(file_db, args.battles, server=False))
    report("server: LISTEN/NOTIFY", measure(args.url, args.battles, server=True))


if __name__ == "__main__":
    main()
