"""What the club's checks cost, on a throwaway PostgreSQL server:

- ``store.access.require_change`` as an operation makes it, against the same connection's bare round trip
  (``SELECT 1``) measured in the same run; on a file database the check asks nothing of the database (measured
  too, against a no-op call);
- writing under them: one roll inserted under a platoon (a player's own; the organiser-free owner as the
  baseline), in the same run;
- reading under the row-level security policies: every battle and roll of a campaign (``BATTLES`` battles with
  three rolls each) read by a player, against the same query by the tables' owner (whom the policies do not
  bind), in the same run.

    python benchmarks/bench_club_access.py [N]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from clubpg import ClubServer, bind, make_club, unbind  # noqa: E402

from campaign_app.store import access  # noqa: E402
from tests.pg_server import PgServer, find_bin_dir  # noqa: E402


def timed(fn: Callable[[], object], n: int) -> tuple[float, float]:
    runs = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    runs.sort()
    return statistics.median(runs) * 1e6, runs[int(len(runs) * 0.95)] * 1e6


BATTLES = 2000


def reads(server: ClubServer, ids: dict[str, int], n: int) -> None:
    from clubpg import OWNER, open_operation, owner_writes

    with owner_writes(server, "bench_access") as owner:
        owner.execute(
            "INSERT INTO battle (platoon_id, number, date, scenario, opponent, objectives, fire_support, notes, "
            "wounds, leader_wounds, platoon_xp_before, platoon_xp_after, xp_lost, created_at) SELECT %s, g, "
            "current_date, '', '', 0, false, '', 0, 0, 0, 3, 0, now() FROM generate_series(2, %s) g",
            (ids["ada_platoon"], BATTLES),
        )
        owner.execute(
            "INSERT INTO roll (platoon_id, battle_id, seq, purpose, expression, faces, modifier, total, source, rule, "
            "outcome, created_at) SELECT b.platoon_id, b.id, s, 'recovery', '1d6', '[3]', 0, 3, 'app', '', '', "
            "now() FROM battle b CROSS JOIN generate_series(1, 3) s"
        )
        owner.execute("ANALYZE")
    insert = (
        "INSERT INTO roll (platoon_id, seq, purpose, expression, faces, modifier, total, source, rule, outcome, "
        "created_at) VALUES (%s, 0, 'recovery', '1d6', '[3]', 0, 3, 'app', '', '', now())"
    )
    results = {}
    for who, platoon in ((OWNER, ids["bob_platoon"]), ("bob", ids["bob_platoon"])):
        with server.connect("bench_access", who, autocommit=False) as con:
            open_operation(con, who)
            results[who] = timed(lambda con=con, platoon=platoon: con.execute(insert, (platoon,)), n * 20)
            con.rollback()
    (base, _), (median, p95) = results[OWNER], results["bob"]
    print(
        f"write: one roll        owner {base:7.1f} µs   player {median:7.1f} µs p95 {p95:7.1f} µs   "
        f"{median / base:4.1f}x"
    )
    queries = {
        "battles": "SELECT * FROM battle ORDER BY id",
        "rolls": "SELECT * FROM roll ORDER BY id",
        "one platoon's rolls": f"SELECT * FROM roll WHERE platoon_id = {ids['ada_platoon']} ORDER BY id",
    }
    print(f"reads: {BATTLES} battles, {3 * BATTLES} rolls; n={n}")
    for name, sql in queries.items():
        results = {}
        for who in (OWNER, "bob"):
            with server.connect("bench_access", who) as con:
                count = len(con.execute(sql).fetchall())
                results[who] = (timed(lambda con=con, sql=sql: con.execute(sql).fetchall(), n), count)
        (base, _), count = results[OWNER]
        (median, p95), seen = results["bob"]
        print(
            f"  {name:<20} owner {base / 1000:7.2f} ms ({count} rows)   player {median / 1000:7.2f} ms "
            f"p95 {p95 / 1000:7.2f} ms ({seen} rows)   {median / base:4.1f}x"
        )


def main(n: int) -> None:
    import shutil
    import tempfile

    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise SystemExit("no PostgreSQL server binaries (initdb, pg_ctl) on this machine")
    root = Path(tempfile.mkdtemp(prefix="campaign-app-bench-pg-"))
    pg = PgServer(root, bin_dir).start()
    server = ClubServer(pg)
    try:
        ids = make_club(server, "bench_access")
        database = bind(server, "bench_access", "bob")
        access.rules_installed()  # cached from here on, as in the app
        rows = {
            "baseline: SELECT 1 round trip": lambda: database.execute_sql("SELECT 1").fetchone(),
            "require_change(own platoon)": lambda: access.require_change(
                campaign=ids["congo"], platoon=ids["bob_platoon"]
            ),
            "why_not(another's platoon)": lambda: access.why_not(platoon=ids["ada_platoon"]),
            "require_change(campaign) as a player": lambda: access.why_not(campaign=ids["congo"]),
        }
        base = None
        print(f"PostgreSQL {database.execute_sql('SHOW server_version').fetchone()[0]}, unix socket, n={n}")
        for name, fn in rows.items():
            timed(fn, 50)  # warm up
            median, p95 = timed(fn, n)
            base = base or median
            print(f"  {name:<40} median {median:8.1f} µs  p95 {p95:8.1f} µs  ({median / base:4.1f}x)")
        unbind()
        reads(server, ids, max(20, n // 20))
        from campaign_app.store import close_db, init_db

        init_db(root / "file.db", daily_backup=False)  # a database file, opened as the app opens it
        noop_median, _ = timed(lambda: None, n)
        median, p95 = timed(lambda: access.require_change(campaign=1, platoon=1), n)
        close_db()
        print(f"file database: require_change median {median:.2f} µs (a no-op call: {noop_median:.2f} µs)")
    finally:
        pg.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
