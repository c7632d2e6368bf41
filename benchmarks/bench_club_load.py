"""Club play under load: 8 client processes x 50 battles at once on one PostgreSQL server, beside the same load
on one SQLite file.

Each client logs its battles the way the battle wizard does: it opens a session (reads the platoon), rolls
the app's dice, "thinks" for a few milliseconds, and commits. Clients 0-1 share one platoon, clients 2-3 share
another, clients 4-7 each have their own. When a commit is refused because another writer logged a battle of
the same platoon meanwhile, the client starts that battle again (as a player would), until its 50 battles are
in. Then the run checks:

- lost: battles in the database != battles the clients were told were logged (must be 0);
- battle numbers of each platoon run 1..n with no gap, and each platoon's XP is its last battle's;
- tracebacks: any error but the one refusal (must be 0);
- refusals: only on the shared platoons;

and prints throughput (battles per second over the whole run) and the median and p95 of a commit's time.

Usage: ``python benchmarks/bench_club_load.py [--clients 8] [--battles 50]`` (starts its own throwaway server
with initdb/pg_ctl, like the tests).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import shutil
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def platoon_of(client: int) -> str:
    return {0: "Shared A", 1: "Shared A", 2: "Shared B", 3: "Shared B"}.get(client, f"Own {client}")


def setup(target: str, clients: int) -> None:
    from campaign_app.services import campaigns, platoons
    from campaign_app.store import close_db, init_db

    init_db(target, daily_backup=False)
    league = campaigns.create_campaign("League", "atomic_africa").id
    for name in sorted({platoon_of(c) for c in range(clients)}):
        platoons.create_platoon(
            league, name, training=8, equipment=8, morale=8, armor=2, xp=4, leader_name=f"Lt. {name}", leader_xp=2
        )
    close_db()


def client(target: str, index: int, battles: int, out: Any) -> None:
    from campaign_app.errors import Conflict
    from campaign_app.rules.dice import SeededDice
    from campaign_app.services import names
    from campaign_app.services.battles import BattleSession
    from campaign_app.store import close_db, init_db

    rng = random.Random(index)
    logged = refused = 0
    commit_ms: list[float] = []
    errors: list[str] = []
    try:
        init_db(target, daily_backup=False)
        platoon = names.platoon_id(platoon_of(index), "League")
        while logged < battles:
            try:
                session = BattleSession(platoon)
                session.set_casualties(rng.randint(0, 6), 0)
                session.roll_all(SeededDice(rng.randrange(1 << 30)))
                if session.needs_replacement:
                    session.set_replacement(f"Lt. {index}-{logged}")
                time.sleep(rng.uniform(0.0, 0.01))  # the player looks at the rolls
                start = time.perf_counter()
                session.commit()
                commit_ms.append(1000 * (time.perf_counter() - start))
                logged += 1
            except Conflict:
                refused += 1
    except Exception:  # noqa: BLE001 - counted and shown: the benchmark's point is that there are none
        errors.append(traceback.format_exc())
    finally:
        close_db()
    out.put({"client": index, "logged": logged, "refused": refused, "commit_ms": commit_ms, "errors": errors})


def verify(target: str) -> list[str]:
    from campaign_app.store import close_db, init_db
    from campaign_app.store.models import Battle, Platoon

    problems = []
    init_db(target, daily_backup=False)
    try:
        for p in Platoon.select():
            numbers = [b.number for b in Battle.select().where(Battle.platoon == p.id).order_by(Battle.number)]
            if numbers != list(range(1, len(numbers) + 1)):
                problems.append(f"{p.name}: battle numbers {numbers[:5]}... have gaps")
            last = Battle.select().where(Battle.platoon == p.id).order_by(Battle.number.desc()).first()
            if last is not None and last.platoon_xp_after != p.xp:
                problems.append(f"{p.name}: XP {p.xp} but its last battle says {last.platoon_xp_after}")
        total = Battle.select().count()
    finally:
        close_db()
    problems.append(f"__total__={total}")
    return problems


def run(engine: str, target: str, clients: int, battles: int) -> dict[str, Any]:
    setup(target, clients)
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=client, args=(target, i, battles, queue)) for i in range(clients)]
    start = time.perf_counter()
    for p in procs:
        p.start()
    results = [queue.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    elapsed = time.perf_counter() - start
    problems = verify(target)
    total = int(problems.pop()[len("__total__=") :])
    logged = sum(r["logged"] for r in results)
    times = sorted(t for r in results for t in r["commit_ms"])
    shared = {r["client"]: r["refused"] for r in results}
    errors = [e for r in results for e in r["errors"]]
    return {
        "engine": engine,
        "logged": logged,
        "in_db": total,
        "lost": logged - total,
        "elapsed_s": elapsed,
        "per_s": total / elapsed if elapsed else 0.0,
        "median_ms": statistics.median(times) if times else 0.0,
        "p95_ms": times[int(0.95 * (len(times) - 1))] if times else 0.0,
        "refused_shared": sum(n for c, n in shared.items() if platoon_of(c).startswith("Shared")),
        "refused_own": sum(n for c, n in shared.items() if not platoon_of(c).startswith("Shared")),
        "errors": errors,
        "problems": problems,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--battles", type=int, default=50)
    args = parser.parse_args()
    from tests.pg_server import PgServer, find_bin_dir

    bin_dir = find_bin_dir()
    if bin_dir is None:
        print("no PostgreSQL server binaries (initdb, pg_ctl) here")
        return 2
    root = Path(tempfile.mkdtemp(prefix="campaign-app-bench-pg-"))
    folder = Path(tempfile.mkdtemp(prefix="campaign-app-bench-file-"))
    server = PgServer(root, bin_dir).start()
    ok = True
    try:
        rows = [
            run("PostgreSQL", server.create_database("league"), args.clients, args.battles),
            run("SQLite file", str(folder / "campaign.db"), args.clients, args.battles),
        ]
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{args.clients} clients x {args.battles} battles (clients 0-1 and 2-3 share a platoon, 4-7 have their own)")
    print(
        f"{'engine':<12} {'logged':>6} {'in db':>6} {'lost':>4} {'battles/s':>9} {'median ms':>9} "
        f"{'p95 ms':>7} {'refused shared':>14} {'refused own':>11} {'tracebacks':>10}"
    )
    for r in rows:
        print(
            f"{r['engine']:<12} {r['logged']:>6} {r['in_db']:>6} {r['lost']:>4} {r['per_s']:>9.1f} "
            f"{r['median_ms']:>9.1f} {r['p95_ms']:>7.1f} {r['refused_shared']:>14} {r['refused_own']:>11} "
            f"{len(r['errors']):>10}"
        )
        for e in r["errors"][:3]:
            print(e)
        for p in r["problems"]:
            print(f"  problem: {p}")
        ok = ok and r["lost"] == 0 and not r["errors"] and not r["problems"] and r["refused_own"] == 0
        ok = ok and r["in_db"] == args.clients * args.battles
    print("OK" if ok else "NOT OK")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
