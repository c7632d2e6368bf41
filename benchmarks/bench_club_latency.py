"""Club play across a slow link: what each ``campaign-cli`` command costs in time, round trips and statements
when the server is 0, 10 or 25 ms away (each way), and what eight players logging battles at once get.

The benchmark starts a throwaway PostgreSQL server (``tests/pg_server.py``, as the tests do) and sets up a club
the documented way, as the README's three commands do (here through the same functions in-process, over the
server's trusted socket, to be quick): the owner ``clubadmin`` runs ``server init``; it adds the players (each
with a password: the players connect over TCP, where the server asks for it) and the organiser ``olga``; olga
creates the campaigns and puts the players into them; each player creates their own platoon.

In front of the server's TCP port (127.0.0.1) it puts a latency proxy of its own: an asyncio TCP forwarder in a
background thread that holds every chunk it reads for D ms before writing it on, in each direction (the kernel
here has no netem). Chunks keep their order and are not serialised behind each other's delay (the link's
bandwidth is unlimited, its latency is D). A new connection also pays the TCP handshake's round trip: the
client's first bytes leave the proxy no earlier than 2·D after it connected, then D later reach the server.
Everything is on the loopback interface.

**Part 1, per command.** Over four links (no proxy; the proxy at D = 0, 10, 25 ms), ``--runs`` rounds of fresh
``campaign-cli`` processes as the player ada (``--db postgresql://ada:PW@127.0.0.1:PORT/bench``):
``battle log`` of her platoon (the same dice each time), ``undo`` (of that battle), ``redo``, ``platoon show``,
``history``, ``journal`` (after one warm-up run of each, which also lets ``campaign-cli`` remember the server's
schema version, as any second command does). The links take turns command by command (in an order rotating
from round to round), so that a busy moment of the shared machine hits them alike. Printed per command:

- the median wall time of the process on each link (Python's start-up included, as a user waits for it);
- *RT@y*: the round trips implied by the times, (t(D) − t(0)) / y with y = 2·D the round trip and t(0) the same
  command through the proxy at D = 0 (so the proxy's own cost cancels out). Noisy on a busy machine;
- *counted*: the round trips the proxy itself saw, exact and independent of the machine's load: one for the TCP
  handshake, then one each time the server answered after the client had sent something (statements the client
  sends together before it waits count once);
- *statements*: the statements the client sent, from the server's statement log: the benchmark turns on
  ``log_statement = 'all'`` for ada's login only (``ALTER ROLE ada SET``: nobody else's statements are logged,
  and ``log_line_prefix`` gets the login) and counts the ``statement:`` and ``execute …:`` lines of ada's
  sessions written while that one process ran (commands run one at a time). A batch sent as one simple query
  (the session's ``SET …; SET …``) is one line; a statement run inside a server function is not a line (it
  costs no round trip). pg_stat_statements was not used: it needs ``shared_preload_libraries`` (a restart),
  merges statements by their shape and does not tell one process's statements from another's;
- *conns*: the connections the process opened (``log_connections``); each costs the handshake, the SSL
  negotiation and the SCRAM password exchange (5 round trips counted) before its first statement;
- *CPU*: the process's own processor time (``wait4``).

**Part 2, under load** through the proxy at ``--load-delay`` (25 ms each way by default: the issue's 50 ms round
trip). First the baselines on that link, uncontended (median of 5): one ``battle log`` and one ``platoon show``.
Then, the clients starting together, each running its commands one after another as fresh processes:

- 8 clients × 3 battles, each client a player logging battles of their own platoon, all in one campaign;
- the same, the eight platoons split over two campaigns (4 + 4);
- 2 clients × 3 battles of one platoon (the same player in two programs);
- the control: 8 clients × 3 ``platoon show`` of their platoons. It writes nothing, so what it costs over one
  read alone is what eight programs at once cost this machine (two cores for the clients, the server and the
  proxy), not the server's locks; battle logs that wait for each other show as more than that.

Printed per load: commands ok; refused (exit 2: busy, "changed since you started", another reason); failed
(another exit); tracebacks (on standard error, or the CLI's "unexpected problem" line, whose traceback is in its
log file); battles lost (reported logged but not in the database; the database is then checked: each platoon's
battle numbers run 1..n and its XP is its last battle's); the wall time of the whole load; the median, mean and
slowest command, its median CPU, and the median minus and over the uncontended command (+ms, median/1).

Usage: ``python benchmarks/bench_club_latency.py [--runs 5] [--delays 0,10,25] [--load-delay 25] [--battles 3]
[--no-load]``. It needs the server extra (``pip install -e '.[test]'``) and PostgreSQL's initdb/pg_ctl. It took
about 4 minutes on a 2-core machine that other work shared (load average 7-9); it removes its server, proxies
and folders at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DBNAME = "bench"
OWNER = "clubadmin"
ORGANISER = "olga"
PLAYER = "ada"
PLATOON = "2nd Platoon"
CAMPAIGN = "Congo 1960"
LEAGUE = "League"
LEAGUE_B = "League B"
LOAD_CLIENTS = 8
COMMANDS = ("battle log", "undo", "redo", "platoon show", "history", "journal")
LINE_PREFIX = "%m [%p] user=%u "
STATEMENT_LINE = re.compile(r"\buser=(\S+) LOG:  (?:statement|execute [^:]*): ")
CONNECTION_LINE = re.compile(r"LOG:  connection authorized: user=(\S+)")


def password_of(login: str) -> str:
    return f"pw-{login}-bench"


# ------------------------------------------------------------------------------------------ the latency proxy


class LatencyProxy:
    """A TCP forwarder on 127.0.0.1 (port chosen by the system) to ``127.0.0.1:target_port`` that delays every
    chunk by ``delay_ms`` in each direction; its asyncio loop runs on a daemon thread. ``with`` starts and stops
    it (closing every connection it carries)."""

    def __init__(self, target_port: int, delay_ms: float) -> None:
        self.target_port = target_port
        self.delay = delay_ms / 1000.0
        self.port = 0
        self.connections = 0
        self.round_trips = 0
        """Counted as the forwarder sees them: one per connection (the TCP handshake), and one each time the server
        answers after the client has sent something since the server last spoke (a client that sends several
        statements before it waits pays one round trip for them)."""
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"latency-proxy-{delay_ms:g}ms", daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    def __enter__(self) -> LatencyProxy:
        self._thread.start()
        if not self._ready.wait(10) or not self.port:
            raise RuntimeError("the latency proxy did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._server = self._loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
            self.port = int(self._server.sockets[0].getsockname()[1])
        finally:
            self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            self._server.close()
            for writer in list(self._writers):
                writer.close()
            pending = asyncio.all_tasks(self._loop)
            for task in pending:
                task.cancel()
            self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            self._loop.close()

    async def _handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        accepted = self._loop.time()
        self.connections += 1
        self.round_trips += 1  # the handshake
        last = [""]  # who spoke last on this connection: "client" or "server"
        self._writers.add(client_writer)
        server_writer: asyncio.StreamWriter | None = None
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
            self._writers.add(server_writer)
            # the client's first bytes would leave only after the TCP handshake's round trip (2 D)
            await asyncio.gather(
                self._pipe(client_reader, server_writer, accepted + 2 * self.delay, "client", last),
                self._pipe(server_reader, client_writer, 0.0, "server", last),
            )
        except (OSError, asyncio.CancelledError):
            pass  # the server refused the connection, or the proxy is stopping
        finally:
            for writer in (client_writer, server_writer):
                if writer is not None:
                    writer.close()
                    self._writers.discard(writer)

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, not_before: float, side: str, last: list[str]
    ) -> None:
        """Copy ``reader`` to ``writer``, each chunk D after it was read (in order; reading goes on meanwhile)."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def read() -> None:
            try:
                while True:
                    data = await reader.read(65536)
                    if data and last[0] != side:
                        if side == "server" and last[0] == "client":
                            self.round_trips += 1
                        last[0] = side
                    queue.put_nowait((max(self._loop.time(), not_before) + self.delay, data))
                    if not data:
                        return
            except (ConnectionError, OSError):
                queue.put_nowait((0.0, b""))

        async def write() -> None:
            try:
                while True:
                    due, data = await queue.get()
                    wait = due - self._loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    if not data:
                        if writer.can_write_eof():
                            writer.write_eof()
                        return
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                return

        await asyncio.gather(read(), write())


# ------------------------------------------------------------------------------------------- the server's log


class StatementLog:
    """The server's log file: what one login's sessions sent between two marks."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0

    def mark(self) -> None:
        self.offset = self.path.stat().st_size

    def since_mark(self, login: str) -> tuple[int, int]:
        """(statements, connections) of ``login`` written to the log since :meth:`mark`."""
        with self.path.open("rb") as f:
            f.seek(self.offset)
            text = f.read().decode("utf-8", "replace")
        statements = sum(1 for m in STATEMENT_LINE.finditer(text) if m.group(1) == login)
        connections = sum(1 for m in CONNECTION_LINE.finditer(text) if m.group(1) == login)
        return statements, connections


# ------------------------------------------------------------------------------------------------- the club


def set_up_club(server: Any, su_url: Any) -> dict[tuple[str, str], int]:
    """The club, as the README's set-up commands make it; returns the load platoons' ids by (campaign, name)."""
    from campaign_app.services import campaigns, club, names, platoons
    from campaign_app.store import close_db, init_db
    from campaign_app.store.club_server import add_player, init_server

    server.sql(f"CREATE ROLE {OWNER} LOGIN CREATEROLE")
    server.create_database(DBNAME)
    server.sql(f'ALTER DATABASE "{DBNAME}" OWNER TO {OWNER}')
    server.sql(f"ALTER SCHEMA public OWNER TO {OWNER}", dbname=DBNAME)
    loads = [f"p{i}" for i in range(1, LOAD_CLIENTS + 1)]
    init_db(str(server.url(DBNAME, user=OWNER)), daily_backup=False)
    try:
        init_server()
        add_player(ORGANISER, organiser=True, password=password_of(ORGANISER))
        for login in (PLAYER, *loads):
            add_player(login, password=password_of(login))
    finally:
        close_db()
    init_db(str(server.url(DBNAME, user=ORGANISER)), daily_backup=False)
    try:
        campaigns.create_campaign(CAMPAIGN, period=3)
        club.add_member(names.campaign_id(CAMPAIGN), PLAYER)
        campaigns.create_campaign(LEAGUE, period=3)
        campaigns.create_campaign(LEAGUE_B, period=3)
        for i, login in enumerate(loads):
            club.add_member(names.campaign_id(LEAGUE), login)
            if i >= LOAD_CLIENTS // 2:
                club.add_member(names.campaign_id(LEAGUE_B), login)
    finally:
        close_db()
    for i, login in enumerate((PLAYER, *loads)):
        init_db(str(server.url(DBNAME, user=login)), daily_backup=False)
        try:
            if login == PLAYER:
                platoons.create_platoon(
                    names.campaign_id(CAMPAIGN),
                    PLATOON,
                    training=8,
                    equipment=8,
                    morale=8,
                    armor=2,
                    leader_name="Lt. Ada",
                )
                continue
            platoons.create_platoon(
                names.campaign_id(LEAGUE),
                f"Own {i}",
                training=8,
                equipment=8,
                morale=8,
                armor=2,
                leader_name=f"Lt. {login}",
            )
            if i > LOAD_CLIENTS // 2:
                platoons.create_platoon(
                    names.campaign_id(LEAGUE_B),
                    f"Own {i}",
                    training=8,
                    equipment=8,
                    morale=8,
                    armor=2,
                    leader_name=f"Lt. {login} B",
                )
        finally:
            close_db()
    import psycopg

    with psycopg.connect(su_url(DBNAME), autocommit=True) as su:
        rows = su.execute(
            "SELECT c.name, p.name, p.id FROM platoon p JOIN campaign c ON c.id = p.campaign_id "
            "WHERE c.name IN (%s, %s)",
            (LEAGUE, LEAGUE_B),
        ).fetchall()
        su.execute(f"ALTER ROLE {PLAYER} SET log_statement = 'all'")
        su.execute("ALTER SYSTEM SET log_connections = on")
        su.execute(f"ALTER SYSTEM SET log_line_prefix = '{LINE_PREFIX}'")
        su.execute("SELECT pg_reload_conf()")
    time.sleep(0.5)  # the reload reaches the postmaster and its children
    return {(str(c), str(n)): int(i) for c, n, i in rows}


# ---------------------------------------------------------------------------------------------- running the CLI


@dataclass
class Run:
    seconds: float
    rc: int
    stderr: str
    cpu: float = 0.0
    statements: int = 0
    connections: int = 0
    round_trips: int | None = None


class Cli:
    """Fresh ``campaign-cli`` processes, timed from start to exit."""

    def __init__(self, data_dir: Path) -> None:
        found = Path(sys.executable).with_name("campaign-cli")
        self.argv0 = [str(found)] if found.exists() else [sys.executable, "-m", "campaign_app.cli"]
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        self.env["CAMPAIGN_APP_DATA_DIR"] = str(data_dir)
        self.env.pop("CAMPAIGN_APP_BUSY_TIMEOUT", None)

    def run(self, url: str, *argv: str) -> Run:
        """Run one command to its end (killed after 5 minutes): its wall time, exit code, standard error and the
        processor time it used (user + system, from ``wait4``)."""
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.perf_counter()
            proc = subprocess.Popen([*self.argv0, "--db", url, *argv], stdout=out, stderr=err, env=self.env)
            killer = threading.Timer(300, proc.kill)
            killer.start()
            try:
                _, status, usage = os.wait4(proc.pid, 0)
            finally:
                killer.cancel()
            seconds = time.perf_counter() - start
            proc.returncode = os.waitstatus_to_exitcode(status)
            err.seek(0)
            text = err.read().decode("utf-8", "replace")
        return Run(seconds, proc.returncode, text, cpu=usage.ru_utime + usage.ru_stime)


def url_for(login: str, port: int) -> str:
    return f"postgresql://{login}:{password_of(login)}@127.0.0.1:{port}/{DBNAME}"


def battle_args(platoon: str, campaign: str, seed: int) -> list[str]:
    return [
        "battle",
        "log",
        "--platoon",
        platoon,
        "--campaign",
        campaign,
        "--wounds",
        "2",
        "--leader-wounds",
        "1",
        "--objectives",
        "1",
        "--outcome",
        "victory",
        "--seed",
        str(seed),
    ]


def command_args(name: str) -> list[str]:
    """Part 1's commands; the battle's dice are the same each time (seed 7: the same rolls, the same statements)."""
    return {
        "battle log": battle_args(PLATOON, CAMPAIGN, 7),
        "undo": ["undo"],
        "redo": ["redo"],
        "platoon show": ["platoon", "show", PLATOON, "--campaign", CAMPAIGN],
        "history": ["history", "--platoon", PLATOON, "--campaign", CAMPAIGN],
        "journal": ["journal"],
    }[name]


# ----------------------------------------------------------------------------------------- part 1: per command


def per_command(
    cli: Cli, log: StatementLog, server_port: int, delays: Sequence[float], runs: int
) -> dict[float | None, dict[str, list[Run]]]:
    """Every command ``runs`` times on every link; the links take turns command by command (their order rotating
    from round to round), so that a busy moment of the machine hits them alike."""
    results: dict[float | None, dict[str, list[Run]]] = {d: {name: [] for name in COMMANDS} for d in [None, *delays]}
    for name in COMMANDS:  # warm-up (disk cache, the first connection): not counted
        cli.run(url_for(PLAYER, server_port), *command_args(name))
    with contextlib.ExitStack() as stack:
        proxies: dict[float | None, LatencyProxy | None] = {None: None}
        proxies.update({d: stack.enter_context(LatencyProxy(server_port, d)) for d in delays})
        order = list(proxies)
        for r in range(runs):
            turn = order[r % len(order) :] + order[: r % len(order)]
            for name in COMMANDS:
                for delay in turn:
                    proxy = proxies[delay]
                    trips = proxy.round_trips if proxy else 0
                    log.mark()
                    run = cli.run(url_for(PLAYER, proxy.port if proxy else server_port), *command_args(name))
                    run.statements, run.connections = log.since_mark(PLAYER)
                    run.round_trips = proxy.round_trips - trips if proxy else None
                    results[delay][name].append(run)
            print(f"  round {r + 1} of {runs} done", flush=True)
    return results


def print_per_command(results: dict[float | None, dict[str, list[Run]]], runs: int) -> list[str]:
    delays = [d for d in results if d is not None]
    failures: list[str] = []
    print()
    print(f"Part 1: one command at a time, as {PLAYER} (a fresh campaign-cli process each; median of {runs} runs)")
    head = f"{'command':<13} {'no proxy':>8}" + "".join(f" {f'D={d:g}':>6}" for d in delays)
    head += "".join(f" {f'RT@{2 * d:g}':>6}" for d in delays if d)
    head += f" {'counted':>11} {'statements':>11} {'conns':>5} {'CPU':>4}"
    print(head)
    for name in COMMANDS:
        med = {d: 1000 * statistics.median(r.seconds for r in rs[name]) for d, rs in results.items()}
        line = f"{name:<13} {med[None]:>8.0f}" + "".join(f" {med[d]:>6.0f}" for d in delays)
        line += "".join(f" {(med[d] - med[0.0]) / (2 * d):>6.1f}" for d in delays if d)
        proxied = [r for d, rs in results.items() if d is not None for r in rs[name]]
        every = [r for rs in results.values() for r in rs[name]]

        def values(xs: Iterator[int | None]) -> str:
            """The median, and the range when the runs differed: ``33 (29-33)``."""
            got = sorted(x for x in xs if x is not None)
            if not got:
                return "-"
            middle = f"{statistics.median(got):g}"
            return middle if got[0] == got[-1] else f"{middle} ({got[0]}-{got[-1]})"

        line += f" {values(r.round_trips for r in proxied):>11} {values(r.statements for r in every):>11}"
        line += f" {values(r.connections for r in every):>5} {1000 * statistics.median(r.cpu for r in every):>4.0f}"
        print(line)
        for r in every:
            if r.rc != 0:
                last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""
                failures.append(f"{name}: exit {r.rc}: {last}")
    print(
        "Times in ms. D=x: through the proxy, x ms each way. RT@y: round trips implied by the times, "
        "(t(D) - t(D=0)) / y, y = 2 D the round trip in ms. counted: round trips the proxy saw (the TCP "
        "handshake, then each time the server answered the client). statements, conns: what the server logged "
        "for the process (median, and the range when the runs differed: the battle's rolls follow the platoon's "
        "state). CPU: the process's own processor time (ms, median)."
    )
    return failures


# ------------------------------------------------------------------------------------------ part 2: under load


@dataclass
class Outcome:
    label: str
    runs: list[tuple[tuple[str, str], Run]] = field(default_factory=list)
    wall: float = 0.0
    lost: int = 0
    problems: list[str] = field(default_factory=list)


def battle_counts(su_url: Any, ids: Sequence[int]) -> dict[int, int]:
    import psycopg

    with psycopg.connect(su_url(DBNAME), autocommit=True) as su:
        rows = su.execute(
            "SELECT platoon_id, count(*) FROM battle WHERE platoon_id = ANY(%s) GROUP BY platoon_id", (list(ids),)
        ).fetchall()
    found = {int(p): int(n) for p, n in rows}
    return {i: found.get(i, 0) for i in ids}


def consistency(su_url: Any, ids: Sequence[int]) -> list[str]:
    """Each platoon's battle numbers run 1..n, and its XP is its last battle's."""
    import psycopg

    problems = []
    with psycopg.connect(su_url(DBNAME), autocommit=True) as su:
        for pid in ids:
            name, xp = su.execute("SELECT name, xp FROM platoon WHERE id = %s", (pid,)).fetchone() or ("?", None)
            rows = su.execute(
                "SELECT number, platoon_xp_after FROM battle WHERE platoon_id = %s ORDER BY number", (pid,)
            ).fetchall()
            numbers = [int(r[0]) for r in rows]
            if numbers != list(range(1, len(numbers) + 1)):
                problems.append(f"{name}: battle numbers {numbers} have gaps or repeats")
            if rows and rows[-1][1] != xp:
                problems.append(f"{name}: XP {xp} but its last battle says {rows[-1][1]}")
    return problems


def load(
    cli: Cli,
    su_url: Any,
    platoon_ids: dict[tuple[str, str], int],
    port: int,
    label: str,
    clients: Sequence[tuple[str, str, str]],
    battles: int,
    seeds: Iterator[int],
    *,
    reads: bool = False,
) -> Outcome:
    """``clients``: (login, campaign, platoon) each; the clients start together and each logs ``battles`` battles
    in a row (``reads``: shows its platoon as often instead, the control that writes nothing)."""
    outcome = Outcome(label)
    ids = sorted({platoon_ids[(c, p)] for _, c, p in clients})
    before = battle_counts(su_url, ids)
    plan = [[next(seeds) for _ in range(battles)] for _ in clients]
    gate = threading.Barrier(len(clients))
    lock = threading.Lock()

    def client(k: int) -> None:
        login, campaign, platoon = clients[k]
        gate.wait()
        for seed in plan[k]:
            argv = (
                ["platoon", "show", platoon, "--campaign", campaign] if reads else battle_args(platoon, campaign, seed)
            )
            run = cli.run(url_for(login, port), *argv)
            with lock:
                outcome.runs.append(((campaign, platoon), run))

    threads = [threading.Thread(target=client, args=(k,)) for k in range(len(clients))]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    outcome.wall = time.perf_counter() - start
    after = battle_counts(su_url, ids)
    for key in sorted({k for k, _ in outcome.runs}):
        pid = platoon_ids[key]
        told = 0 if reads else sum(1 for k, r in outcome.runs if k == key and r.rc == 0)
        written = after[pid] - before[pid]
        outcome.lost += max(told - written, 0)
        if written != told:
            outcome.problems.append(f"{key[1]} ({key[0]}): {told} battles reported logged, {written} written")
    outcome.problems += consistency(su_url, ids)
    return outcome


def kind_of(run: Run) -> str:
    """ok; busy, changed or refused (exit 2: the database is busy, changed since you started, another reason);
    traceback (a Python traceback on standard error, or the CLI's "unexpected problem" line, whose traceback went
    to its log file); failed (any other exit)."""
    text = run.stderr.lower()
    if "traceback (most recent call last)" in text or "unexpected problem:" in text:
        return "traceback"
    if run.rc == 0:
        return "ok"
    if run.rc == 2:
        return "busy" if "busy" in text else "changed" if "changed since" in text else "refused"
    return "failed"


KINDS = ("ok", "busy", "changed", "refused", "failed", "traceback")


def print_load(outcomes: Sequence[tuple[Outcome, float]], delay: float, alone: dict[str, list[Run]]) -> list[str]:
    failures: list[str] = []
    print()
    print(
        f"Part 2: under load through the {delay:g} ms-each-way link ({2 * delay:g} ms round trip). Uncontended, "
        "the same link (median of 5): "
        + ", ".join(
            f"{name} {1000 * statistics.median(r.seconds for r in rs):.0f} ms "
            f"(CPU {1000 * statistics.median(r.cpu for r in rs):.0f} ms)"
            for name, rs in alone.items()
        )
    )
    print(
        f"{'load':<38} {'cmds':>4} "
        + " ".join(f"{k:>{max(len(k), 4)}}" for k in KINDS)
        + f" {'lost':>4} {'wall s':>6} {'median':>6} {'mean':>6} {'max':>6} {'CPU':>4} {'+ms':>5} {'median/1':>8}"
    )
    for o, baseline_ms in outcomes:
        kinds = [kind_of(r) for _, r in o.runs]
        times = [1000 * r.seconds for _, r in o.runs]
        median = statistics.median(times)
        cpu = 1000 * statistics.median(r.cpu for _, r in o.runs)
        print(
            f"{o.label:<38} {len(kinds):>4} "
            + " ".join(f"{kinds.count(k):>{max(len(k), 4)}}" for k in KINDS)
            + f" {o.lost:>4} {o.wall:>6.1f} {median:>6.0f} {statistics.fmean(times):>6.0f} {max(times):>6.0f} "
            f"{cpu:>4.0f} {median - baseline_ms:>5.0f} {median / baseline_ms:>8.2f}"
        )
        for p in o.problems:
            print(f"    problem: {p}")
        shown: set[str] = set()
        for _, r in o.runs:
            k = kind_of(r)
            if k != "ok" and k not in shown:
                shown.add(k)
                last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""
                print(f"    e.g. {k}: {last[:300]}")
            if k in ("failed", "traceback"):
                failures.append(f"{o.label}: {k}: {r.stderr.strip()[-300:]}")
    print(
        "Counts of commands: ok; busy / changed / refused: exit 2 (the database is busy / changed since you started "
        "/ another reason); failed: another exit; traceback: an unexpected error (its traceback on standard error "
        "or in the CLI's log). lost: reported logged but not in the database. Times: ms per command; CPU: median "
        "processor ms of one command (the machine's cores are shared by every client); +ms and median/1: the median "
        "minus and over the same command uncontended. The reads row is the control: what 8 programs at once cost "
        "this machine (its processor, the link) without any write; writes that wait for each other show as +ms "
        "beyond the control's."
    )
    return failures


def load_part(
    cli: Cli,
    su_url: Any,
    platoon_ids: dict[tuple[str, str], int],
    server_port: int,
    delay: float,
    battles: int,
    seeds: Iterator[int],
) -> list[str]:
    half = LOAD_CLIENTS // 2
    one = [(f"p{i}", LEAGUE, f"Own {i}") for i in range(1, LOAD_CLIENTS + 1)]
    two = [(f"p{i}", LEAGUE if i <= half else LEAGUE_B, f"Own {i}") for i in range(1, LOAD_CLIENTS + 1)]
    shared = [("p1", LEAGUE, "Own 1")] * 2
    failures: list[str] = []
    with LatencyProxy(server_port, delay) as proxy:
        url = url_for("p1", proxy.port)
        alone = {
            "battle log": [cli.run(url, *battle_args("Own 1", LEAGUE, next(seeds))) for _ in range(5)],
            "platoon show": [cli.run(url, "platoon", "show", "Own 1", "--campaign", LEAGUE) for _ in range(5)],
        }
        failures += [
            f"uncontended {name}: exit {r.rc}: {r.stderr.strip()[-300:]}"
            for name, rs in alone.items()
            for r in rs
            if r.rc
        ]
        base = {name: 1000 * statistics.median(r.seconds for r in rs) for name, rs in alone.items()}
        outcomes = []
        for label, clients, reads in (
            (f"{len(one)} clients x {battles} battles, one campaign", one, False),
            (f"{len(two)} clients x {battles} battles, two campaigns", two, False),
            (f"2 clients x {battles} battles, one platoon", shared, False),
            (f"{len(one)} clients x {battles} reads (control)", one, True),
        ):
            outcome = load(cli, su_url, platoon_ids, proxy.port, label, clients, battles, seeds, reads=reads)
            outcomes.append((outcome, base["platoon show" if reads else "battle log"]))
            print(f"  measured: {label}", flush=True)
    return failures + print_load(outcomes, delay, alone)


def logged_tracebacks(log_dir: Path) -> list[str]:
    """The commands that logged a traceback in the CLI's log file: how many, and how the first one ended."""
    text = "".join(p.read_text("utf-8", "replace") for p in sorted(log_dir.glob("campaign_app.log*")))
    records = [r for r in re.split(r"\n(?=\d{4}-\d\d-\d\d )", text) if "Traceback (most recent call last)" in r]
    if not records:
        return []
    first = [line for line in records[0].splitlines() if line.strip()]
    return [
        f"the CLI's log holds {len(records)} traceback(s); the first: {first[0][:200]}",
        *[f"  {line}" for line in first[-4:]],
    ]


# ---------------------------------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="rounds of the six commands per link (default 5)")
    parser.add_argument(
        "--delays",
        default="0,10,25",
        help="one-way delays in ms, comma-separated (default 0,10,25; 0 is the baseline of the round trips)",
    )
    parser.add_argument("--load-delay", type=float, default=25.0, help="one-way delay of the load part (ms)")
    parser.add_argument("--battles", type=int, default=3, help="battles per client in the load part (default 3)")
    parser.add_argument("--no-load", action="store_true", help="leave out the load part")
    args = parser.parse_args()
    delays = [float(d) for d in args.delays.split(",") if d.strip()]
    if not 1 <= args.runs <= 50 or not 1 <= args.battles <= 20 or any(not 0 <= d <= 500 for d in delays):
        parser.error("--runs 1-50, --battles 1-20, delays 0-500 ms")
    if 0.0 not in delays:
        delays.insert(0, 0.0)
    from tests.pg_server import PgServer, find_bin_dir

    bin_dir = find_bin_dir()
    if bin_dir is None:
        print("no PostgreSQL server binaries (initdb, pg_ctl) here")
        return 2
    root = Path(tempfile.mkdtemp(prefix="bench-club-latency-"))
    data_dir = Path(tempfile.mkdtemp(prefix="bench-club-latency-data-"))
    server = PgServer(root, bin_dir)
    failures: list[str] = []
    try:
        server.start()

        def su_url(dbname: str) -> str:
            return str(server.url(dbname))

        started = time.perf_counter()
        platoon_ids = set_up_club(server, su_url)
        print(
            f"club set up in {time.perf_counter() - started:.1f} s (PostgreSQL {bin_dir.parent.name}, server on "
            f"127.0.0.1:{server.port}); the machine's load average: {os.getloadavg()[0]:.1f} on "
            f"{os.cpu_count()} cores",
            flush=True,
        )
        cli = Cli(data_dir)
        seeds = iter(range(1, 10**6))
        results = per_command(cli, StatementLog(root / "server.log"), server.port, delays, args.runs)
        failures += print_per_command(results, args.runs)
        if not args.no_load:
            failures += load_part(cli, su_url, platoon_ids, server.port, args.load_delay, args.battles, seeds)
        print(f"\nthe machine's load average at the end: {os.getloadavg()[0]:.1f}")
        failures += logged_tracebacks(data_dir / "logs")
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(data_dir, ignore_errors=True)
    if failures:
        print()
        print("failures and tracebacks (the refusals are counted above):")
        for f in failures[:20]:
            print(f"  {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
