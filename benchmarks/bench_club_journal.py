"""What the club server's journal costs per operation, and how long a write waits at most behind a lock.

On a club database set up the documented way (``server init``, a player "ada" with her platoon), as ada:

- ``battle log`` (the whole wizard through the service), ``undo`` and ``redo`` of it, and one XP step, each
  ``--rounds`` times: the median time and the statements the app sent per operation (counted at the connection:
  each one is a round trip to the server);
- the same battle log on a SQLite file, as the baseline in the same run (ratio);
- a write while another session holds the platoon table in an idle transaction, with busy timeouts of 0.5, 1
  and 2 s: how long it waited before its one-line refusal.

Run it on two checkouts to compare the journal before and after a change (the script uses only services both
have). Usage: ``python benchmarks/bench_club_journal.py [--rounds 20]`` (starts its own throwaway server).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


class Counter:
    """Counts the statements the app sends (peewee's ``execute_sql`` on the bound database)."""

    def __init__(self) -> None:
        self.count = 0

    def install(self, database: Any) -> None:
        real = database.execute_sql

        def counted(sql: str, params: Any = None) -> Any:
            self.count += 1
            return real(sql, params)

        database.execute_sql = counted


def measure(label: str, rounds: int, step: Callable[[], Any], counter: Counter) -> tuple[float, float]:
    times: list[float] = []
    counts: list[int] = []
    for _ in range(rounds):
        before = counter.count
        started = time.perf_counter()
        step()
        times.append((time.perf_counter() - started) * 1000)
        counts.append(counter.count - before)
    median = statistics.median(times)
    statements = statistics.median(counts)
    print(f"  {label:<24} {median:8.1f} ms   {statements:5.0f} statements")
    return median, statements


def run_ops(target: str, rounds: int, platoon: str) -> dict[str, tuple[float, float]]:
    from campaign_app.rules.dice import SeededDice
    from campaign_app.rules.enums import Outcome
    from campaign_app.services import battles, journal, names, platoons
    from campaign_app.store import close_db, init_db

    database = init_db(target, daily_backup=False)
    pid = names.platoon_id(platoon)  # looked up before the counting starts, as the CLI's argument layer does
    counter = Counter()
    counter.install(database)
    out: dict[str, tuple[float, float]] = {}
    seed = iter(range(10**6))
    out["battle log"] = measure(
        "battle log",
        rounds,
        lambda: battles.log_battle(pid, wounds=2, objectives=1, outcome=Outcome.VICTORY, dice=SeededDice(next(seed))),
        counter,
    )
    out["undo"] = measure("undo (newest)", rounds, journal.undo, counter)
    out["redo"] = measure("redo", rounds, journal.redo, counter)
    xp = iter(range(rounds * 2))
    out["xp step"] = measure("XP step", rounds, lambda: platoons.set_xp(pid, next(xp) % 30 + 1), counter)
    close_db()
    return out


def lock_wait(url: str, owner_url: str, busy: float) -> float:
    import psycopg

    from campaign_app.errors import DatabaseBusyError
    from campaign_app.services import names, platoons
    from campaign_app.store import close_db, init_db

    init_db(url, daily_backup=False, busy_timeout=busy)
    pid = names.platoon_id("2nd Platoon")
    with psycopg.connect(owner_url) as other:
        other.execute("BEGIN")
        other.execute("LOCK TABLE platoon IN ACCESS EXCLUSIVE MODE")
        started = time.perf_counter()
        try:
            platoons.update_platoon(pid, notes="waits")
        except DatabaseBusyError as exc:
            waited = time.perf_counter() - started
            print(f"  busy timeout {busy:.1f} s: refused after {waited:.2f} s: {exc}")
        else:  # pragma: no cover - the lock was not in the way
            waited = float("nan")
        other.execute("ROLLBACK")
    close_db()
    return waited


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument(
        "--no-lock",
        action="store_true",
        help="leave out the lock part (a version without statement timeouts would wait forever)",
    )
    args = parser.parse_args()
    from tests.pg_server import PgServer, find_bin_dir

    bin_dir = find_bin_dir()
    if bin_dir is None:
        print("no PostgreSQL server binaries (initdb, pg_ctl) here")
        return 1
    root = Path(tempfile.mkdtemp(prefix="bench-club-journal-"))
    server = PgServer(root, bin_dir).start()
    try:
        from campaign_app.services import campaigns, club, platoons
        from campaign_app.store import close_db, init_db
        from campaign_app.store.club_server import add_player, init_server

        server.sql("CREATE ROLE clubadmin LOGIN CREATEROLE")
        for login in ("ada", "olga"):
            server.sql(f"CREATE ROLE {login} LOGIN")
        server.create_database("bench")
        server.sql('ALTER DATABASE "bench" OWNER TO clubadmin')
        server.sql("ALTER SCHEMA public OWNER TO clubadmin", dbname="bench")
        owner = str(server.url("bench", user="clubadmin"))
        init_db(owner, daily_backup=False)
        init_server()
        add_player("ada")
        add_player("olga", organiser=True)
        close_db()
        init_db(str(server.url("bench", user="olga")), daily_backup=False)
        congo = campaigns.create_campaign("Congo 1960", period=3).id
        club.add_member(congo, "ada")
        close_db()
        ada = str(server.url("bench", user="ada"))
        init_db(ada, daily_backup=False)
        platoons.create_platoon(congo, "2nd Platoon", training=8, equipment=8, morale=8, armor=2, leader_name="Lt. Ada")
        close_db()

        print(f"club server, as a player ({args.rounds} rounds each; median):")
        on_server = run_ops(ada, args.rounds, "2nd Platoon")
        folder = Path(tempfile.mkdtemp(prefix="bench-club-journal-file-"))
        init_db(folder / "campaign.db", daily_backup=False)
        congo = campaigns.create_campaign("Congo 1960", period=3).id
        platoons.create_platoon(congo, "2nd Platoon", training=8, equipment=8, morale=8, armor=2, leader_name="Lt. Ada")
        close_db()
        print("a file (the baseline, same run):")
        on_file = run_ops(str(folder / "campaign.db"), args.rounds, "2nd Platoon")
        shutil.rmtree(folder, ignore_errors=True)
        for key in on_server:
            print(f"  ratio server/file, {key}: {on_server[key][0] / on_file[key][0]:.2f}")
        if not args.no_lock:
            print("a write behind a table lock held in an idle transaction:")
            for busy in (0.5, 1.0, 2.0):
                lock_wait(ada, owner, busy)
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
