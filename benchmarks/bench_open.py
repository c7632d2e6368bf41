"""Cost of opening a database, small against big (run by hand; prints figures, asserts nothing).

    python benchmarks/bench_open.py [--platoons 200] [--battles 250] [--repeat 15]

The big file is filled with raw SQL (fast; the rows look like the services' rows: every battle has rolls and
XP changes). Measured in this process: ``init_db`` of an up-to-date file (the cheap check: header, page count
against the size, schema version), the full ``PRAGMA integrity_check`` that used to run at every open, and
``campaign-cli check``. Goal: opening stays within 1.2x between the two files.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - started) * 1000)
    return statistics.median(runs)


def fill(db_file: Path, platoons: int, battles: int) -> None:
    from campaign_app.store.models import name_key

    rng = random.Random(1)
    con = sqlite3.connect(db_file)
    con.execute("BEGIN")
    # filled as a migration writes: the journal's triggers record and refuse nothing meanwhile
    con.execute("UPDATE journal_state SET mode = 'off' WHERE id = 1")
    camp = con.execute(
        "INSERT INTO campaign (name, name_key, system, threshold_green, threshold_regular, threshold_veteran, "
        "threshold_legendary, objective_xp_to, replacement_dice, archived, notes, created_at) VALUES "
        "('Big', 'big', 'atomic_africa', 1, 4, 9, 16, 'both', 2, 0, '', '2026-01-01 10:00:00')"
    ).lastrowid
    for p in range(platoons):
        pid = con.execute(
            "INSERT INTO platoon (campaign_id, name, name_key, training, equipment, morale, armor, xp, notes, "
            "created_at) VALUES (?, ?, ?, 10, 10, 8, 2, 0, '', '2026-01-01 10:00:00')",
            (camp, f"Platoon {p}", name_key(f"Platoon {p}")),
        ).lastrowid
        for n in range(1, battles + 1):
            bid = con.execute(
                "INSERT INTO battle (platoon_id, number, date, scenario, opponent, objectives, fire_support, notes, "
                "wounds, leader_wounds, platoon_xp_before, platoon_xp_after, xp_lost, created_at) VALUES "
                "(?, ?, '2026-01-01', 'Scenario', 'Them', 1, 0, ?, 3, 1, 0, 0, 0, '2026-01-01 10:00:00')",
                (pid, n, "notes " * rng.randint(5, 40)),
            ).lastrowid
            con.executemany(
                "INSERT INTO roll (platoon_id, battle_id, seq, purpose, expression, faces, modifier, "
                "total, source, rule, outcome, created_at) VALUES (?, ?, ?, 'recovery', '1d6', '[3]', 0, "
                "3, 'app', '1.2', 'kept', '2026-01-01 10:00:00')",
                [(pid, bid, s) for s in range(3)],
            )
            con.execute(
                "INSERT INTO xp_change (platoon_id, who, delta, xp_after, reason, battle_id, created_at) "
                "VALUES (?, 'platoon', 0, 0, 'battle', ?, '2026-01-01 10:00:00')",
                (pid, bid),
            )
    con.execute("UPDATE journal_state SET mode = 'record' WHERE id = 1")
    con.execute("COMMIT")
    con.close()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--platoons", type=int, default=200)
    ap.add_argument("--battles", type=int, default=250)
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()

    from campaign_app.cli import main as cli_main
    from campaign_app.services.demo import create_demo
    from campaign_app.store import check_database, close_db, init_db
    from campaign_app.store.check import integrity_problems

    work = Path(tempfile.mkdtemp(prefix="bench-open-"))
    small, big = work / "small.db", work / "big.db"
    init_db(small, work / "b")
    create_demo()
    close_db()
    init_db(big, work / "b")
    close_db()
    started = time.perf_counter()
    fill(big, args.platoons, args.battles)
    print(
        f"big file: {big.stat().st_size / 2**20:.1f} MiB, {args.platoons * args.battles} battles "
        f"(filled in {time.perf_counter() - started:.1f} s); small file: {small.stat().st_size / 2**10:.0f} KiB"
    )

    def open_close(path: Path) -> None:
        init_db(path, work / "b", daily_backup=False)
        close_db()

    def full_check(path: Path) -> None:
        con = sqlite3.connect(path)
        integrity_problems(con)
        con.close()

    rows = []
    for what, fn in (("open (init_db, cheap check)", open_close), ("full integrity_check", full_check)):
        t_small, t_big = timed(lambda f=fn: f(small), args.repeat), timed(lambda f=fn: f(big), args.repeat)
        rows.append((what, t_small, t_big))
    old_small = rows[0][1] + rows[1][1]
    old_big = rows[0][2] + rows[1][2]
    rows.append(("open as before (cheap + full check at every open)", old_small, old_big))

    def cli_check(path: Path) -> None:
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):
            cli_main(["check", "--json", "--db", str(path), "--data-dir", str(work)])

    rows.append(
        ("campaign-cli check (in-process)", timed(lambda: cli_check(small), 3), timed(lambda: cli_check(big), 3))
    )
    print(f"{'':52} {'small ms':>9} {'big ms':>9} {'big/small':>9}   goal")
    for what, a, b in rows:
        goal = "<= 1.2x" if what.startswith("open (") else ""
        print(f"{what:52} {a:9.1f} {b:9.1f} {b / a:8.2f}x   {goal}")
    database = init_db(big, work / "b", daily_backup=False)
    print("the big file passes the full check:", json.dumps(check_database(database).ok))
    close_db()
    return 0


if __name__ == "__main__":
    sys.exit(main())
