"""The file size per battle with and without the journal (prints figures, asserts nothing).

    python benchmarks/bench_journal_size.py [--battles 10 100 1000] [--compact]
    PYTHONPATH=/path/to/another/checkout python benchmarks/bench_journal_size.py    # "before": that code

For each count, a fresh database gets one campaign with platoons of 25 battles each, every battle logged on its
own (one operation each, as a user does) with the app's seeded dice. Measured, each file checkpointed and
VACUUMed so that free pages do not count:

- ``with``: the file as the app leaves it (the journal as it keeps it; with ``--compact`` after
  ``journal compact`` with the default budget, which is what a user's file settles at);
- ``without``: the same file with the journal's tables emptied (``no-trig``: and its triggers dropped too, a file
  with no journal at all);
- the ratios with / without (goal <= 1.5 at 1,000 battles) and with / no-trig, bytes per battle, change rows
  per battle and the bytes of the row images per battle; and how many operations can still be undone.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

if not os.environ.get("PYTHONPATH"):  # PYTHONPATH may name another checkout ("before")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PER_PLATOON = 25


def build(path: Path, battles_total: int) -> None:
    """The file as logging leaves it (with this code, folding at each open does not run: one process)."""
    from campaign_app.rules.dice import SeededDice
    from campaign_app.services import battles, campaigns
    from campaign_app.services import platoons as platoon_service
    from campaign_app.store import close_db, init_db

    init_db(path, path.parent / "backups", daily_backup=False)
    dice = SeededDice(23)
    camp = campaigns.create_campaign("Size Campaign", "atomic_africa").id
    pid = 0
    for n in range(battles_total):
        if n % PER_PLATOON == 0:
            pid = platoon_service.create_platoon(
                camp,
                f"Platoon {n // PER_PLATOON + 1:03d}",
                training=8,
                equipment=10,
                morale=8,
                armor=2,
                xp=3,
                leader_name=f"Lt. Start {n}",
                leader_xp=2,
            ).id
        wounds = (n * 7) % 13
        battles.log_battle(
            pid,
            wounds=wounds,
            leader_wounds=min((n * 5) % 8, wounds),
            objectives=n % 3,
            outcome=battles.OUTCOMES[n % 3],
            scenario=f"Scenario {n + 1}",
            opponent=f"Enemy {n % 11 + 1}",
            dice=dice,
            replacement_name=f"Lt. {n + 1}",
        )
    close_db()


def compact(path: Path) -> str:
    try:
        from campaign_app.store import journal_budget
    except ImportError:
        return "no journal compaction in this code"
    from campaign_app.store import close_db, init_db

    init_db(path, path.parent / "backups", daily_backup=False)
    result = journal_budget.compact()
    close_db()
    return str(result.message)


def vacuumed_size(path: Path) -> int:
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("VACUUM")
    con.close()
    return path.stat().st_size


def without_journal(path: Path, target: Path, triggers: bool = True) -> int:
    """The same data with the journal's tables emptied (and, with ``triggers=False``, its triggers dropped:
    a file with no journal at all)."""
    shutil.copy(path, target)
    con = sqlite3.connect(target)
    con.execute("DELETE FROM operation_change")
    con.execute("DELETE FROM operation")
    if not triggers:
        for (name,) in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'journal%'"
        ).fetchall():
            con.execute(f'DROP TRIGGER "{name}"')
    con.commit()
    con.close()
    return vacuumed_size(target)


def facts(path: Path) -> tuple[int, int, int]:
    con = sqlite3.connect(path)
    rows, image = con.execute(
        "SELECT count(*), COALESCE(SUM(COALESCE(length(old), 0) + COALESCE(length(new), 0)), 0) FROM operation_change"
    ).fetchone()
    undoable = con.execute(
        "SELECT count(*) FROM operation o WHERE kind != 'journal.start' AND EXISTS "
        "(SELECT 1 FROM operation_change c WHERE c.operation_id = o.id)"
    ).fetchone()[0]
    con.close()
    return int(rows), int(image), int(undoable)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--compact", action="store_true", help="run 'journal compact' before measuring")
    args = ap.parse_args(argv)
    import campaign_app

    print(f"code: {Path(campaign_app.__file__).parent.parent}")
    print(
        f"{'battles':>8} {'with':>10} {'without':>10} {'ratio':>6} {'no-trig':>10} {'ratio2':>6} {'B/battle':>9} "
        f"{'rows/b':>7} {'image B/b':>9} {'undoable':>8}"
    )
    for n in args.battles:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "size.db"
            build(path, n)
            note = compact(path) if args.compact else ""
            rows, image, undoable = facts(path)
            with_size = vacuumed_size(path)
            bare = without_journal(path, Path(tmp) / "bare.db")
            none = without_journal(path, Path(tmp) / "none.db", triggers=False)
            print(
                f"{n:>8} {with_size:>10} {bare:>10} {with_size / bare:>6.2f} {none:>10} {with_size / none:>6.2f} "
                f"{with_size / n:>9.0f} "
                f"{rows / n:>7.1f} {image / n:>9.0f} {undoable:>8}" + (f"  ({note})" if note else "")
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
