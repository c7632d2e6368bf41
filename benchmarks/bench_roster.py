"""Roster timings with 200 platoons in one campaign (run by hand; prints figures, asserts nothing).

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_roster.py [--platoons 200] [--repeat 20]

Measures the services (create, platoon_detail, list_platoons, set_xp, undo/redo of a change) and the GUI:
building the platoon page, showing a platoon (the navigator's click), a reload after a change, and the
campaign page with all platoons listed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(median, max) in milliseconds."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs), max(runs)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--platoons", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from campaign_app.paths import AppPaths
    from campaign_app.rules.dice import SeededDice
    from campaign_app.services import attachments as attachment_service
    from campaign_app.services import campaigns
    from campaign_app.services import leaders as leader_service
    from campaign_app.services import platoons as platoon_service
    from campaign_app.store import init_db, journal_replay

    app = QApplication.instance() or QApplication(sys.argv[:1])
    folder = Path(tempfile.mkdtemp(prefix="bench_roster_"))
    paths = AppPaths(folder, folder / "campaign.db").ensure()
    init_db(paths.db_file, paths.backup_dir)

    cid = campaigns.create_campaign("Bench", period=3).id
    dice = SeededDice(1)
    start = time.perf_counter()
    ids = []
    for i in range(args.platoons):
        e = platoon_service.create_platoon(
            cid, f"Platoon {i:03d}", training=8, equipment=8, morale=8, armor=2, leader_name=f"Lt. {i}", dice=dice
        )
        ids.append(e.id)
        team = attachment_service.add_attached(e.id, "Weapons team", "team", training=8, equipment=8, morale=8, armor=2)
        attachment_service.add_attached(e.id, "Battery", "fire_support", support="light")
        attachment_service.add_equipment(e.id, "MMG", attached=team.result.unit.id, targets="dispersed")
        attachment_service.add_equipment(e.id, "Recoilless rifle", targets="point", ap=-2)
        leader_service.replace_leader(e.id, f"Capt. {i}", xp=3, how="promoted")
    build = (time.perf_counter() - start) * 1000
    mid = ids[len(ids) // 2]
    rows: list[tuple[str, float, float]] = []

    def add(name: str, fn: Callable[[], object], repeat: int = args.repeat) -> None:
        med, worst = timed(fn, repeat)
        rows.append((name, med, worst))

    add("service platoon_detail(one platoon)", lambda: platoon_service.platoon_detail(mid))
    add(f"service list_platoons(campaign of {args.platoons})", lambda: platoon_service.list_platoons(cid))
    add("service show_campaign (with platoon list)", lambda: campaigns.show_campaign(cid))
    xp = iter(range(10**6))
    add("service set_xp (write + XpChange row)", lambda: platoon_service.set_xp(mid, next(xp) % 33, reason="bench"))
    edit = platoon_service.set_platoon(mid, morale=6, reason="bench")

    def undo_redo() -> None:
        journal_replay.undo(edit.operation_id)
        journal_replay.redo(edit.operation_id)

    add("service undo+redo of a dice change", undo_redo)

    from campaign_app.gui.campaign_page import CampaignPage
    from campaign_app.gui.context import AppContext
    from campaign_app.gui.platoon_page import PlatoonPage

    ctx = AppContext(paths=paths, settings=QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat))

    def build_page() -> None:
        page = PlatoonPage(ctx)
        page.deleteLater()

    add("GUI PlatoonPage() construction", build_page, 5)
    page = PlatoonPage(ctx)
    page.resize(1200, 900)
    page.show()
    app.processEvents()
    cycle = iter(ids * 10)

    def show_next() -> None:
        page.show_platoon(next(cycle))
        app.processEvents()

    add("GUI show_platoon (navigator click) + paint", show_next)

    def xp_click() -> None:
        page.platoon_track.request((page.platoon_track.xp() + 1) % 33)
        app.processEvents()

    page.show_platoon(mid)
    add("GUI XP click: service + undo push + reload + paint", xp_click)
    cpage = CampaignPage(ctx)
    cpage.resize(1200, 900)
    cpage.show()

    def show_campaign() -> None:
        cpage.show_campaign(cid)
        app.processEvents()

    add(f"GUI campaign page with {args.platoons} platoons", show_campaign, 10)

    print(
        f"{args.platoons} platoons (each: leader + former leader, 2 attached units, 2 weapons, force roll) "
        f"built in {build:.0f} ms"
    )
    print(f"{'measurement':55s} {'median ms':>10s} {'max ms':>8s}")
    for name, med, worst in rows:
        print(f"{name:55s} {med:10.2f} {worst:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
