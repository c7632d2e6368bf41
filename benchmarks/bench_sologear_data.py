"""How long reading a long Sologear campaign takes: the sheet's data (what the Sologear page and ``sologear
show`` read after every change), its JSON, and the history.

Run by hand:  python benchmarks/bench_sologear_data.py [--turns N] [--runs N]
Plays a campaign of N battle turns (FIG with the app's seeded dice, each battle recorded) into a fresh
database in a temporary folder, then times each read (median of the runs) against a baseline measured in the
same run: one ``SELECT`` of the sheet's turns with their rolls through raw sqlite3.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchlib import median_ms  # noqa: E402


def _json_of(value: Any) -> str:
    return json.dumps(value.to_dict(), ensure_ascii=False, default=str)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=36, help="campaign length (6-36: six d6, typed in)")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    turns = max(6, min(36, args.turns))

    from campaign_app.rules.dice import SeededDice, TypedDice
    from campaign_app.services import sologear_play as play_service
    from campaign_app.services import sologear_sheet as sheet_service
    from campaign_app.store import close_db, init_db

    folder = Path(tempfile.mkdtemp(prefix="bench-sologear-"))
    db_file = folder / "campaign.db"
    init_db(db_file, folder / "backups", daily_backup=False)
    sid = sheet_service.create_sheet("Long campaign", "Janne", 250).id
    for i in range(6):
        sheet_service.add_force(sid, "player", f"P{i}", base_power=350)
        sheet_service.add_force(sid, "enemy", f"E{i}", base_power=400)
    faces = [turns // 6 + (1 if i < turns % 6 else 0) for i in range(6)]
    play_service.roll_length(sid, TypedDice([faces]))  # one 6d6 roll: the length is its sum
    seed = 0
    while not sheet_service.next_turn(sid).blocked:
        seed += 1
        turn = play_service.play_turn(sid, "fig", 0, dice=SeededDice(seed)).result
        if turn.battle:
            play_service.record_turn(sid, turn.turn, glory=turn.glory or 0, enemy_tv=turn.enemy_tv or 0)

    con = sqlite3.connect(db_file)

    def baseline() -> None:
        con.execute(
            "SELECT t.*, r.* FROM sologear_turn t LEFT JOIN roll r ON r.turn_id = t.id "
            "WHERE t.sheet_id = ? ORDER BY t.number, r.seq",
            [sid],
        ).fetchall()

    data = sheet_service.sheet_data(sid)
    figures = {
        "baseline: raw SELECT of turns and rolls": median_ms(baseline, args.runs),
        "sheet_data": median_ms(lambda: sheet_service.sheet_data(sid), args.runs),
        "sheet_data + its JSON (sologear show --json)": median_ms(
            lambda: _json_of(sheet_service.sheet_data(sid)), args.runs
        ),
        "history from the sheet's data": median_ms(lambda: sheet_service.history(sid, data), args.runs),
    }
    played = len(data.turns)
    base = figures["baseline: raw SELECT of turns and rolls"]
    print(f"{played} turns played")
    for name, ms in figures.items():
        print(f"{name:<46} {ms:8.2f} ms   x{ms / base:6.1f} of the baseline")
    con.close()
    close_db()


if __name__ == "__main__":
    main()
