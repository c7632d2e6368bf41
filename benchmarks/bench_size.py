"""Costs that should not grow with the size of the database file: the big file against a small one.

    python benchmarks/make_big_db.py --platoons 200 --battles 250 -o /tmp/big.db      # once, minutes
    QT_QPA_PLATFORM=offscreen python benchmarks/bench_size.py --big /tmp/big.db [--small FILE] [--runs 7]

Both files are copied to a temporary folder first (``battle log`` writes). The small file is made here (1
platoon x 10 battles, through the same services) unless given. Measured, each on both files, with the ratio
big / small (goal <= 1.2x):

- opening the database in-process (``init_db``);
- ``campaign-cli platoon show``, ``battle log`` and ``history`` (subprocesses, paired runs);
- ``campaign-app --screenshot`` (start of the GUI with the navigator) and, in-process, opening a platoon page
  and painting it;
- in-process writes on the big file, goal < 30 ms each: ``log_battle`` and the end of a Sologear turn
  (``play_turn`` + ``record_turn``).

Note: ``platoon show`` and ``history`` of "Platoon 0001" read that platoon's own battles (250 on the big file,
10 on the small one), so part of their ratio is the platoon's size, not the file's.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchlib import figure, median_ms, paired_ms, summary

PLATOON = "Platoon 0001"


def _open_ms(path: Path, runs: int) -> float:
    from campaign_app.store import close_db, init_db

    def once() -> None:
        init_db(path, path.parent / "backups")
        close_db()

    return median_ms(once, runs)


def _gui_open_platoon(paths: dict[str, Path], runs: int) -> dict[str, float]:
    """Open the platoon page of PLATOON (first time and again) and paint it, on each file in turn."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from campaign_app.gui.context import AppContext
    from campaign_app.gui.main_window import MainWindow
    from campaign_app.paths import AppPaths
    from campaign_app.store import close_db, init_db
    from campaign_app.store.models import Platoon

    app = QApplication.instance() or QApplication([])
    times: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(runs):
        for name, path in paths.items():
            init_db(path, path.parent / "backups")
            data = path.parent / f"gui-{name}"
            ctx = AppContext(
                paths=AppPaths(data, path), settings=QSettings(str(data / "w.ini"), QSettings.Format.IniFormat)
            )
            window = MainWindow(ctx)
            window.resize(1180, 760)
            window.show()
            app.processEvents()
            pid = Platoon.get(Platoon.name == PLATOON).id
            start = time.perf_counter()
            window.open_item("platoon", pid)
            window.grab()
            times[name].append(1000 * (time.perf_counter() - start))
            window.close()
            window.deleteLater()
            app.processEvents()
            close_db()
    return {name: statistics.median(t) for name, t in times.items()}


def _writes(path: Path, runs: int) -> tuple[float, float]:
    from campaign_app.rules.dice import SeededDice
    from campaign_app.rules.enums import Outcome
    from campaign_app.services import battles
    from campaign_app.services import sologear_play as play_service
    from campaign_app.services import sologear_sheet as sheet_service
    from campaign_app.store import close_db, init_db
    from campaign_app.store.models import Platoon

    init_db(path, path.parent / "backups")
    pid = Platoon.get(Platoon.name == PLATOON).id
    n = [0]

    def log() -> None:
        n[0] += 1
        battles.log_battle(
            pid,
            wounds=4,
            leader_wounds=1,
            objectives=1,
            outcome=Outcome.VICTORY,
            scenario=f"Bench {n[0]}",
            dice=SeededDice(n[0]),
            replacement_name="Lt. Bench",
        )

    t_log = median_ms(log, runs)
    turns: list[float] = []
    for i in range(runs):  # a fresh 5-turn Sologear campaign each time; its first turn is timed
        sheet = sheet_service.create_sheet(f"Bench Sologear {path.stat().st_size}-{i}", "Janne", 250).id
        sheet_service.add_force(sheet, "player", "1st Company", base_power=350, skill="regular", loyalty="reliable")
        sheet_service.add_force(sheet, "enemy", "2nd Company", base_power=400, skill="veteran", loyalty="firm")
        play_service.roll_length(sheet, SeededDice(i))
        start = time.perf_counter()
        play_service.play_turn(sheet, "dec", dice=SeededDice(100 + i))
        play_service.record_turn(sheet, 1, gear_damaged=False)  # the Gear's state at the end of the turn
        turns.append(1000 * (time.perf_counter() - start))
    close_db()
    return t_log, statistics.median(turns)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--big", type=Path, required=True, help="made by make_big_db.py")
    ap.add_argument("--small", type=Path, help="default: made here, 1 platoon x 10 battles")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-size-"))
    big = tmp / "big" / "campaign.db"
    small = tmp / "small" / "campaign.db"
    big.parent.mkdir()
    shutil.copyfile(args.big, big)
    if args.small:
        small.parent.mkdir()
        shutil.copyfile(args.small, small)
    else:
        from make_big_db import build

        build(small, 1, 10, quiet=True)
    print(
        f"big {big.stat().st_size / 2**20:.1f} MiB, small {small.stat().st_size / 2**20:.2f} MiB; "
        f"{args.runs} runs, medians\n"
    )

    t_big, t_small = _open_ms(big, args.runs), _open_ms(small, args.runs)
    figure("open the database (init_db)", t_big, base_ms=t_small, ratio_goal=1.2, base_label="small")

    py = sys.executable
    for label, words in (
        ("campaign-cli platoon show", ["platoon", "show", PLATOON]),
        (
            "campaign-cli battle log",
            [
                "battle",
                "log",
                "--platoon",
                PLATOON,
                "--wounds",
                "3",
                "--leader-wounds",
                "1",
                "--seed",
                "7",
                "--replacement-name",
                "Lt. Cli",
            ],
        ),
        ("campaign-cli history", ["history", "--platoon", PLATOON]),
    ):
        times = paired_ms(
            {
                name: [py, "-m", "campaign_app.cli", "--data-dir", str(path.parent / "cli"), "--db", str(path), *words]
                for name, path in (("big", big), ("small", small))
            },
            repeat=args.runs,
        )
        figure(label, times["big"], base_ms=times["small"], ratio_goal=1.2, base_label="small")

    times = paired_ms(
        {
            name: [
                py,
                "-m",
                "campaign_app",
                "--data-dir",
                str(path.parent / "app"),
                "--db",
                str(path),
                "--size",
                "1180x760",
                "--screenshot",
                str(path.parent / "start.png"),
            ]
            for name, path in (("big", big), ("small", small))
        },
        repeat=args.runs,
    )
    figure(
        "campaign-app start with the navigator",
        times["big"],
        base_ms=times["small"],
        ratio_goal=1.2,
        base_label="small",
    )

    opened = _gui_open_platoon({"big": big, "small": small}, args.runs)
    figure(
        "open a platoon page and paint it", opened["big"], base_ms=opened["small"], ratio_goal=1.2, base_label="small"
    )

    log_big, turn_big = _writes(big, args.runs)
    log_small, turn_small = _writes(small, args.runs)
    figure("log_battle in-process (big file)", log_big, goal_ms=30)
    figure("  the same on the small file", log_small)
    figure("end of a Sologear turn in-process (big file)", turn_big, goal_ms=30)
    figure("  the same on the small file", turn_small)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
