"""GUI start to a platoon page on a club server: direct against a 50 ms round trip (goal: at most 1.5 s more).

A throwaway PostgreSQL (``tests/pg_server.py``) holds a club database with one campaign and one platoon with a
few battles. Each run is a fresh ``campaign-app --db URL --open platoon:NAME --screenshot x.png`` process
(offscreen): the time from starting the process to the saved picture of the window with the platoon page
filled (``--screenshot`` waits until the window's database worker has no read left). The links take turns run
by run: the server's TCP port directly, and the latency proxy of ``bench_club_latency.py`` at ``--delay`` ms
each way (25: a 50 ms round trip). Printed: the median per link, the difference, and the reads' figures on a
file for comparison (why a file keeps reading in the event loop: ``platoon_detail`` and the history there).

Usage: ``QT_QPA_PLATFORM=offscreen python benchmarks/bench_gui_server_start.py [--runs 7] [--delay 25]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bench_club_latency import LatencyProxy  # noqa: E402 - after the path set-up

LOGIN, PASSWORD, DBNAME = "benchgui", "pw-benchgui", "benchgui"
CAMPAIGN, PLATOON = "Congo 1960", "2nd Platoon"


def set_up(server: object) -> str:
    """The club database (built as its owner over TCP); returns the owner's TCP URL."""
    from campaign_app.rules.dice import TypedDice
    from campaign_app.rules.enums import Outcome
    from campaign_app.services import battles, campaigns, platoons
    from campaign_app.store import close_db, init_db

    server.sql(f"CREATE ROLE {LOGIN} LOGIN SUPERUSER PASSWORD '{PASSWORD}'")  # type: ignore[attr-defined]
    server.create_database(DBNAME)  # type: ignore[attr-defined]
    url = str(server.url(DBNAME, user=LOGIN, password=PASSWORD, tcp=True))  # type: ignore[attr-defined]
    init_db(url, daily_backup=False)
    try:
        campaign = campaigns.create_campaign(CAMPAIGN).id
        made = platoons.create_platoon(
            campaign, PLATOON, training=10, equipment=10, morale=8, armor=2, leader_name="Lt. O"
        )
        for n in range(5):
            battles.log_battle(
                made.id, wounds=1, outcome=Outcome.VICTORY, scenario=f"Bridge {n}", dice=TypedDice([[3], [12, 12]])
            )
    finally:
        close_db()
    return url


def start_to_page(url: str, data_dir: Path) -> float:
    shot = data_dir / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    started = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "campaign_app.app",
            "--data-dir",
            str(data_dir),
            "--db",
            url,
            "--open",
            f"platoon:{PLATOON}",
            "--size",
            "1280x800",
            "--screenshot",
            str(shot),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=ROOT,
    )
    seconds = time.perf_counter() - started
    if done.returncode or not shot.exists():
        raise RuntimeError(f"campaign-app failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    shot.unlink()
    return seconds


def file_reads(tmp: Path, runs: int) -> tuple[float, float]:
    """Median ms of the platoon page's and the History tab's reads on a database file of the same content."""
    from campaign_app.rules.dice import TypedDice
    from campaign_app.rules.enums import Outcome
    from campaign_app.services import authors, battles, campaigns, history, platoons
    from campaign_app.store import close_db, init_db

    init_db(tmp / "bench.db", daily_backup=False)
    try:
        campaign = campaigns.create_campaign(CAMPAIGN).id
        edit = platoons.create_platoon(
            campaign, PLATOON, training=10, equipment=10, morale=8, armor=2, leader_name="Lt. O"
        )
        for n in range(5):
            battles.log_battle(
                edit.id, wounds=1, outcome=Outcome.VICTORY, scenario=f"Bridge {n}", dice=TypedDice([[3], [12, 12]])
            )
        page, hist = [], []
        for _ in range(runs):
            t = time.perf_counter()
            platoons.platoon_detail(edit.id)
            page.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            history.history_report(edit.id, lazy_text=True)
            authors.battle_loggers(edit.id)
            hist.append((time.perf_counter() - t) * 1000)
    finally:
        close_db()
    return statistics.median(page), statistics.median(hist)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--delay", type=float, default=25.0, help="one-way delay in ms (default 25)")
    args = parser.parse_args()
    from tests.pg_server import PgServer, find_bin_dir

    bin_dir = find_bin_dir()
    if bin_dir is None:
        print("no PostgreSQL server binaries (initdb, pg_ctl) here")
        return 2
    root = Path(tempfile.mkdtemp(prefix="bench-gui-server-"))
    data_dir = Path(tempfile.mkdtemp(prefix="bench-gui-server-data-"))
    server = PgServer(root, bin_dir)
    try:
        server.start()
        url = set_up(server)
        times: dict[str, list[float]] = {"direct": [], "slow": []}
        with LatencyProxy(server.port, args.delay) as proxy:
            slow = url.replace(f":{server.port}/", f":{proxy.port}/")
            start_to_page(url, data_dir)  # warm the caches (Python's bytecode, the fonts)
            for n in range(args.runs):
                order = [("direct", url), ("slow", slow)]
                for name, target in order if n % 2 == 0 else order[::-1]:
                    times[name].append(start_to_page(target, data_dir))
        direct, slowed = statistics.median(times["direct"]), statistics.median(times["slow"])
        print(f"GUI start to a platoon page, median of {args.runs} (load average {os.getloadavg()[0]:.1f}):")
        print(f"  direct (127.0.0.1)             {direct * 1000:7.0f} ms")
        print(f"  {2 * args.delay:g} ms round trip            {slowed * 1000:7.0f} ms")
        extra = slowed - direct
        verdict = "met" if extra <= 1.5 else "NOT met"
        print(f"  more over the slow link        {extra * 1000:7.0f} ms  (goal <= 1500 ms: {verdict})")
        page, hist = file_reads(root, 21)
        print(f"on a database file: the platoon page's read {page:.1f} ms, the History tab's {hist:.1f} ms (median)")
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(data_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
