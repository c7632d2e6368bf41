"""How long the printed sheets take: Unit Data Sheets, Sologear forms and a long history report.

Run by hand:  python benchmarks/bench_sheets.py [--runs N]
Builds from plain data (no database): 20 Unit Data Sheets in one PDF, one blank sheet, blank and filled
Sologear forms with 30 turns, and a history report of 100 battles; prints the best time of each.
"""

from __future__ import annotations

import argparse
import datetime
import time
from collections.abc import Callable


def _best(fn: Callable[[], bytes], runs: int) -> tuple[float, int]:
    times = []
    size = 0
    for _ in range(runs):
        t = time.perf_counter()
        size = len(fn())
        times.append(time.perf_counter() - t)
    return min(times), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    t0 = time.perf_counter()
    from campaign_app.printing.history_report import (
        BattleRow,
        HistoryData,
        LeaderRow,
        Summary,
        XpPoint,
        build_history_report,
    )
    from campaign_app.printing.sologear_sheet import ForceRow, FormRow, SologearSheetData, build_sologear_sheet
    from campaign_app.printing.unit_sheet import (
        AttachedUnitData,
        BlankSheet,
        LeaderData,
        UnitSheet,
        Weapon,
        build_unit_sheets,
    )

    day = datetime.date(2024, 5, 1)
    sheets = [
        UnitSheet(
            f"Platoon {n}",
            "Benchmark",
            10,
            8,
            6,
            2,
            n,
            LeaderData(f"Lt. {n}", "Lieutenant", n // 2),
            weapons=(Weapon("Recoilless rifle", "point", -2, "point"),),
            attached=(AttachedUnitData("Team", "team", 8, 8, 8, 2),),
            notes="Notes " * 20,
        )
        for n in range(20)
    ]
    build_unit_sheets(sheets[:1], paper="a4", printed_on=day)
    cold = time.perf_counter() - t0
    sologear = SologearSheetData(
        name="Bench",
        pilot="Kara",
        gear_tv=250,
        length=30,
        player=(ForceRow("A", 350, "regular", 1, "reliable", 1, 350),),
        enemy=(ForceRow("B", 400, "veteran", 2.25, "firm", 1.5, 1350),),
        player_total=350,
        enemy_total=1350,
        odds_ratio=350 / 1350,
        odds_band="Disadvantaged",
        turns=tuple(FormRow(str(n), "FIG(+1)", "300/300 TV", "2", "1 bunker") for n in range(1, 31)),
    )
    battles = tuple(
        BattleRow(
            n,
            "2024-01-01",
            f"Scenario {n}",
            "Rebels",
            "victory",
            1,
            3,
            1,
            min(n - 1, 32),
            min(n, 32),
            0,
            "Lt. A",
            0,
            1,
            "stays",
        )
        for n in range(1, 101)
    )
    history = HistoryData(
        "Long",
        "Bench",
        Summary(battles=100),
        battles,
        (LeaderRow("Lt. A", current=True),),
        (XpPoint(0, 0, 0), *(XpPoint(n, min(n, 32), min(n, 32)) for n in range(1, 101))),
    )
    cases: list[tuple[str, Callable[[], bytes]]] = [
        ("20 Unit Data Sheets", lambda: build_unit_sheets(sheets, paper="a4", printed_on=day)),
        ("1 blank Unit Data Sheet", lambda: build_unit_sheets([BlankSheet()], paper="a4", printed_on=day)),
        ("Sologear forms, blank", lambda: build_sologear_sheet(None, paper="a4", printed_on=day)),
        ("Sologear forms, 30 turns", lambda: build_sologear_sheet(sologear, paper="a4", printed_on=day)),
        ("history, 100 battles", lambda: build_history_report(history, paper="a4", printed_on=day)),
    ]
    print(f"first sheet (imports, fonts): {cold:.3f} s")
    for label, fn in cases:
        best, size = _best(fn, args.runs)
        print(f"{label:28s} {best:.3f} s  {size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
