"""What the operation journal costs: logging a battle with the journal's triggers against the same database
with the triggers dropped (the baseline, measured in the same run), undo and redo of a battle, undo of an old
operation behind a long journal tail, and the journal's share of the file.

    python benchmarks/bench_journal.py [--battles 300]
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import benchlib  # noqa: F401 - puts the checkout on sys.path

from campaign_app.rules.dice import SeededDice
from campaign_app.services import battles, demo, names
from campaign_app.store import close_db, init_db, journal, journal_read, journal_replay
from campaign_app.store.database import db


def _log_times(n: int, seed: int) -> list[float]:
    times = []
    platoon = names.platoon_id("2nd Platoon")
    for i in range(n):
        start = time.perf_counter()
        battles.log_battle(platoon, wounds=3, leader_wounds=1, dice=SeededDice(seed + i))
        times.append(1000 * (time.perf_counter() - start))
    return times


def _drop_triggers() -> None:
    for (name,) in db.execute_sql(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'journal_%'"
    ).fetchall():
        db.execute_sql(f'DROP TRIGGER "{name}"')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--battles", type=int, default=300, help="battles logged per variant (default 300)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-journal-"))
    try:
        base = folder / "base.db"
        init_db(base, folder / "b0", daily_backup=False)
        demo.create_demo()
        close_db()
        plain = folder / "plain.db"
        shutil.copy(base, plain)

        init_db(plain, folder / "b1", daily_backup=False)
        _drop_triggers()  # the baseline: the same schema and services, nothing recorded
        without = _log_times(args.battles, 1)
        close_db()

        init_db(base, folder / "b2", daily_backup=False)
        with_journal = _log_times(args.battles, 1)
        m_with, m_without = statistics.median(with_journal), statistics.median(without)
        benchlib.figure(
            "log_battle, journal recorded (median)", m_with, base_ms=m_without, base_label="no triggers", goal_ms=30
        )

        undo_t, redo_t = [], []
        for _ in range(25):
            start = time.perf_counter()
            step = journal_replay.undo()
            undo_t.append(1000 * (time.perf_counter() - start))
            start = time.perf_counter()
            journal_replay.redo(step.operation_id)
            redo_t.append(1000 * (time.perf_counter() - start))
        benchlib.figure("undo the newest battle (median)", statistics.median(undo_t), goal_ms=100)
        benchlib.figure("redo it (median)", statistics.median(redo_t), goal_ms=100)

        # an old operation behind a long tail: the refusal has to look at every later change
        first = journal_read.list_operations(kinds=("battle.log",), limit=args.battles)[-1]
        start = time.perf_counter()
        with contextlib.suppress(journal.Conflict):
            journal_replay.undo(first.id)
        benchlib.figure(
            f"refuse undo of a battle {args.battles - 1} operations back",
            1000 * (time.perf_counter() - start),
            goal_ms=500,
        )
        pages = (
            db.execute_sql("SELECT COUNT(*) FROM dbstat WHERE name LIKE 'operation%'").fetchone()[0]
            if _has_dbstat()
            else None
        )
        total = db.execute_sql("PRAGMA page_count").fetchone()[0]
        if pages is not None:
            print(f"journal share of the file: {pages} of {total} pages ({100 * pages / total:.0f} %)")
        close_db()
    finally:
        close_db()
        shutil.rmtree(folder, ignore_errors=True)
    return benchlib.summary()


def _has_dbstat() -> bool:
    try:
        db.execute_sql("SELECT COUNT(*) FROM dbstat LIMIT 1")
        return True
    except Exception:  # noqa: BLE001 - dbstat is compiled in or not
        return False


if __name__ == "__main__":
    raise SystemExit(main())
