"""Crash safety under SIGKILL (run by hand; prints figures, asserts nothing).

    python benchmarks/bench_kill.py [--trials 200] [--seed 1]
    python benchmarks/bench_kill.py --mode compact --trials 50     # kills during 'journal compact'
    python benchmarks/bench_kill.py --mode forget --trials 50      # kills during 'campaign delete --forget'

Starts ``campaign-cli battle log`` on a copy of the sample database, kills it with SIGKILL at a random moment
(uniform over 0 .. 1.3 x the median time of an undisturbed run, so some kills land after the end), then
checks the file: SQLite's full integrity check and the app's invariants, and that every battle present is
whole: identical (row, rolls, XP changes, leader changes) to the same battle logged without interruption on a
copy of the starting file (same seed: the dice are the same). A battle is whole or absent; the count of
battles that differ must stay 0.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ARGS = [
    "battle",
    "log",
    "--platoon",
    "2nd Platoon",
    "--wounds",
    "3",
    "--leader-wounds",
    "1",
    "--objectives",
    "1",
    "--outcome",
    "victory",
    "--seed",
    "7",
    "--notes",
    "kill test",
]


def cli(data: Path, *argv: str) -> list[str]:
    return [sys.executable, "-m", "campaign_app.cli", *argv, "--data-dir", str(data)]


def battle_facts(con: sqlite3.Connection, number: int) -> tuple[object, ...] | None:
    """Everything the battle numbered ``number`` wrote: its row, rolls, XP changes and leader changes."""
    row = con.execute(
        "SELECT id, wounds, leader_wounds, platoon_xp_before, platoon_xp_after, leader_xp_before, "
        "leader_xp_after, leader_fate, xp_lost, notes FROM battle WHERE number = ?",
        (number,),
    ).fetchone()
    if row is None:
        return None
    bid = row[0]
    rolls = con.execute(
        "SELECT seq, purpose, faces, total, outcome FROM roll WHERE battle_id = ? ORDER BY id", (bid,)
    ).fetchall()
    xp = con.execute("SELECT who, delta, xp_after FROM xp_change WHERE battle_id = ? ORDER BY id", (bid,)).fetchall()
    leaders = con.execute(
        "SELECT name, xp_at_join, joined_battle_id = ? FROM leader WHERE joined_battle_id = ? "
        "OR left_battle_id = ? ORDER BY id",
        (bid, bid, bid),
    ).fetchall()
    return (row[1:], tuple(rolls), tuple(xp), tuple(leaders))


class Reference:
    """The same battles logged without interruption, in this process, on a copy of the starting file."""

    def __init__(self, start_db: Path, folder: Path) -> None:
        self.data = folder
        folder.mkdir()
        shutil.copy(start_db, folder / "campaign.db")
        self.count = 0

    def facts(self, number: int) -> tuple[object, ...] | None:
        from campaign_app.cli import main as cli_main

        while self.count < number:
            with open(os.devnull, "w") as sink:
                import contextlib

                with contextlib.redirect_stdout(sink):
                    assert cli_main([*ARGS, "--data-dir", str(self.data)]) == 0
            self.count += 1
        con = sqlite3.connect(self.data / "campaign.db")
        try:
            return battle_facts(con, number)
        finally:
            con.close()


def check(db_file: Path, reference: Reference, first_new: int) -> tuple[int, list[int], list[str]]:
    """(battles now, numbers of battles that differ from the reference, problems of the full check)."""
    from campaign_app.store.check import check_connection

    con = sqlite3.connect(db_file)  # read-write: recovers a WAL left by a killed writer, as the app does
    try:
        problems = check_connection(con, str(db_file)).problems
        count = con.execute("SELECT count(*) FROM battle").fetchone()[0]
        bad = [n for n in range(first_new, count + 1) if battle_facts(con, n) != reference.facts(n)]
    finally:
        con.close()
    return count, bad, problems


def dump(con: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every app table (not the journal's), in id order."""
    tables = [
        r[0]
        for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        if r[0] not in ("operation", "operation_change", "journal_state", "schema_migration")
    ]
    return {t: con.execute(f'SELECT * FROM "{t}" ORDER BY id').fetchall() for t in tables}


def journal_facts(con: sqlite3.Connection) -> tuple[int, int, int]:
    """(operations, operations that still hold row images, change records)."""
    return (
        con.execute("SELECT count(*) FROM operation").fetchone()[0],
        con.execute("SELECT count(DISTINCT operation_id) FROM operation_change").fetchone()[0],
        con.execute("SELECT count(*) FROM operation_change").fetchone()[0],
    )


def quiet_cli(data: Path, *argv: str) -> int:
    return subprocess.run(cli(data, *argv), capture_output=True).returncode


UNDO_STEPS = 3


def undone_state(db_file: Path, folder: Path) -> tuple[int, dict[str, list[tuple[object, ...]]]]:
    """Undo the newest UNDO_STEPS operations through the CLI on a copy; (exit codes summed, the data after)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    shutil.copy(db_file, folder / "campaign.db")
    codes = sum(quiet_cli(folder, "undo") for _ in range(UNDO_STEPS))
    con = sqlite3.connect(folder / "campaign.db")
    try:
        return codes, dump(con)
    finally:
        con.close()


def main_journal(args: argparse.Namespace) -> int:
    """Kills during 'journal compact' (--mode compact) or 'campaign delete --forget' (--mode forget): every
    trial starts from the same prepared file; afterwards the file passes the full check, the data and the
    journal are as before the command or as after it (never between), and undo of the newest operations
    still gives exactly what it gives on the untouched file."""
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix=f"bench-kill-{args.mode}-"))
    prepared = work / "prepared"
    subprocess.run(cli(prepared, "demo"), check=True, capture_output=True)
    for n in range(args.battles):
        subprocess.run(cli(prepared, *ARGS[:-4], "--seed", str(n + 1)), check=True, capture_output=True)
    con = sqlite3.connect(prepared / "campaign.db")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before_data, before_journal = dump(con), journal_facts(con)
    con.close()
    if args.mode == "compact":
        command = ["journal", "compact", "--keep", str(args.keep), "--days", "0"]
    else:
        command = ["campaign", "delete", "Congo 1960 (sample)", "--forget"]
    # the state after an uninterrupted run, and what undo gives on each
    after_dir = work / "after"
    shutil.copytree(prepared, after_dir)
    runs = []
    for _ in range(3):
        shutil.rmtree(after_dir)
        shutil.copytree(prepared, after_dir)
        started = time.perf_counter()
        assert quiet_cli(after_dir, *command) == 0
        runs.append(time.perf_counter() - started)
    median = statistics.median(runs)
    con = sqlite3.connect(after_dir / "campaign.db")
    after_data, after_journal = dump(con), journal_facts(con)
    con.close()
    undo_before = undone_state(prepared / "campaign.db", work / "undo-ref-before")
    undo_after = undone_state(after_dir / "campaign.db", work / "undo-ref-after")
    print(
        f"'{' '.join(command)}' on demo + {args.battles} battles: median {median * 1000:.0f} ms; journal "
        f"(operations, with images, records) {before_journal} -> {after_journal}"
    )
    killed = finished = mixed = failed_check = undo_wrong = as_before = as_after = 0
    trial_dir = work / "trial"
    started_all = time.perf_counter()
    for trial in range(args.trials):
        if trial_dir.exists():
            shutil.rmtree(trial_dir)
        shutil.copytree(prepared, trial_dir)
        delay = rng.uniform(0, 1.3 * median)
        proc = subprocess.Popen(cli(trial_dir, *command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(delay)
        was_killed = proc.poll() is None
        if was_killed:
            proc.send_signal(signal.SIGKILL)
        _out, err = proc.communicate()
        if was_killed and proc.returncode == -signal.SIGKILL:
            killed += 1
        else:
            finished += 1
            if proc.returncode != 0:
                print(f"trial {trial}: exit {proc.returncode}: {err.decode(errors='replace').strip()}")
        from campaign_app.store.check import check_connection

        con = sqlite3.connect(trial_dir / "campaign.db")  # read-write: recovers the WAL as the app does
        try:
            problems = check_connection(con, "trial").problems
            data, journal = dump(con), journal_facts(con)
        finally:
            con.close()
        if problems:
            failed_check += 1
            print(f"trial {trial}: check problems: {problems[:3]}")
        if (data, journal) == (before_data, before_journal):
            as_before += 1
            expected = undo_before
        elif (data, journal) == (after_data, after_journal):
            as_after += 1
            expected = undo_after
        else:
            mixed += 1
            print(f"trial {trial}: neither before nor after: journal {journal}")
            continue
        if undone_state(trial_dir / "campaign.db", work / "undo-trial") != expected:
            undo_wrong += 1
            print(f"trial {trial}: undo of the newest {UNDO_STEPS} operations differs")
    elapsed = time.perf_counter() - started_all
    print(
        f"trials: {args.trials} in {elapsed:.0f} s; killed while running: {killed}; finished before the kill: "
        f"{finished}; file as before: {as_before}, as after: {as_after}"
    )
    print(
        f"partial (neither before nor after): {mixed} (goal 0); failed the full check: {failed_check} (goal 0); "
        f"undo of the newest {UNDO_STEPS} not exact: {undo_wrong} (goal 0)"
    )
    shutil.rmtree(work, ignore_errors=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", choices=["log", "compact", "forget"], default="log")
    ap.add_argument("--battles", type=int, default=40, help="compact/forget: battles logged before (default 40)")
    ap.add_argument("--keep", type=int, default=10, help="compact: operations kept undoable (default 10)")
    args = ap.parse_args()
    if args.mode != "log":
        return main_journal(args)
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="bench-kill-"))
    data = work / "data"
    env = dict(os.environ)
    subprocess.run(cli(data, "demo"), check=True, capture_output=True, env=env)
    con = sqlite3.connect(data / "campaign.db")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    reference = Reference(data / "campaign.db", work / "reference")
    start_count = sqlite3.connect(data / "campaign.db").execute("SELECT count(*) FROM battle").fetchone()[0]
    reference.count = start_count
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        subprocess.run(cli(data, *ARGS), check=True, capture_output=True, env=env)
        runs.append(time.perf_counter() - started)
    median = statistics.median(runs)
    count, bad, problems = check(data / "campaign.db", reference, start_count + 1)
    print(
        f"undisturbed 'battle log' (a process each): median {median * 1000:.0f} ms over {len(runs)} runs; "
        f"they match the in-process reference: {not bad and not problems}"
    )

    killed = finished = partial = problem_trials = present_after_kill = absent_after_kill = 0
    started_all = time.perf_counter()
    for trial in range(args.trials):
        before = count
        delay = rng.uniform(0, 1.3 * median)
        proc = subprocess.Popen(cli(data, *ARGS), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        time.sleep(delay)
        was_killed = proc.poll() is None
        if was_killed:
            proc.send_signal(signal.SIGKILL)
        _out, err = proc.communicate()
        was_killed = was_killed and proc.returncode == -signal.SIGKILL
        if was_killed:
            killed += 1
        else:
            finished += 1
            if proc.returncode != 0:
                print(f"trial {trial}: exit {proc.returncode}: {err.decode(errors='replace').strip()}")
        count, bad, problems = check(data / "campaign.db", reference, before + 1)
        if problems:
            problem_trials += 1
            print(f"trial {trial}: check problems: {problems[:3]}")
        if bad or count > before + 1:
            partial += 1
            print(f"trial {trial}: battle(s) {bad} differ from the uninterrupted ones (count {before} -> {count})")
        if was_killed:
            if count > before:
                present_after_kill += 1
            else:
                absent_after_kill += 1
    elapsed = time.perf_counter() - started_all
    backups = data / "backups"
    leftovers = [p.name for p in backups.iterdir() if p.name.endswith(".part")] if backups.is_dir() else []
    print(
        f"trials: {args.trials} in {elapsed:.0f} s; killed while running: {killed} (battle absent afterwards: "
        f"{absent_after_kill}, whole: {present_after_kill}); finished before the kill: {finished}"
    )
    print(
        f"battles not identical to the uninterrupted run: {partial} (goal 0); trials whose file failed the full "
        f"check: {problem_trials} (goal 0); battles now: {count}; temporary backup files left by kills: "
        f"{len(leftovers)}"
    )
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
