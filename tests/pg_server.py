"""A throwaway PostgreSQL server for the tests (club play): ``initdb`` and ``pg_ctl`` into a temporary folder.

It listens on a Unix socket in its own folder (no clash with another server or test run) where every login is
trusted, and on 127.0.0.1 at a free port where logins need their password (SCRAM), for the tests of passwords.
fsync is off: a test server needs no durability. Run as root (CI containers), the server runs as the
``postgres`` system user, as PostgreSQL insists.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

SKIP_REASON = "no PostgreSQL server binaries (initdb, pg_ctl) on this machine: the club-server tests need them"


def find_bin_dir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are: ``CAMPAIGN_APP_PG_BIN``, the newest /usr/lib/postgresql/*/bin, or
    the PATH."""
    env = os.environ.get("CAMPAIGN_APP_PG_BIN")
    candidates = [Path(env)] if env else []
    candidates += [
        Path(p)
        for p in sorted(
            glob.glob("/usr/lib/postgresql/*/bin"),
            key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
            reverse=True,
        )
    ]
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).resolve().parent)
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """A running throwaway server. ``url(db, user=..., password=...)`` names a database on it."""

    superuser = "postgres"

    def __init__(self, root: Path, bin_dir: Path) -> None:
        self.root = root
        self.bin_dir = bin_dir
        self.data = root / "data"
        self.socket_dir = root
        self.port = _free_port()
        self._names = itertools.count(1)
        self._run_as: str | None = None
        if os.geteuid() == 0:
            self._run_as = "postgres"
            try:
                pw = pwd.getpwnam(self._run_as)
            except KeyError:
                raise RuntimeError(
                    "running as root but there is no 'postgres' system user to run the test server"
                ) from None
            os.chown(root, pw.pw_uid, pw.pw_gid)
        os.chmod(root, 0o777)

    def _run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin_dir / argv[0]), *argv[1:]]
        if self._run_as:
            cmd = ["runuser", "-u", self._run_as, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
        return done

    def start(self) -> PgServer:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            self.superuser,
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = (
            f"-k {self.socket_dir} -c listen_addresses=127.0.0.1 -p {self.port} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "server.log"), "-w", "start")
        return self

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.SubprocessError, OSError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(
        self, dbname: str = "postgres", user: str | None = None, password: str | None = None, *, tcp: bool = False
    ) -> str:
        """A ``postgresql://`` URL: over the trusted socket, or with ``tcp`` over 127.0.0.1 (password needed)."""
        who = user or self.superuser
        if password is not None:
            who += f":{password}"
        if tcp:
            return f"postgresql://{who}@127.0.0.1:{self.port}/{dbname}"
        return f"postgresql://{who}@/{dbname}?host={self.socket_dir}&port={self.port}"

    def sql(self, statement: str, dbname: str = "postgres") -> None:
        """Run one statement as the superuser, outside a transaction (CREATE DATABASE...)."""
        import psycopg

        with psycopg.connect(self.url(dbname), autocommit=True) as con:
            con.execute(statement)  # type: ignore[arg-type]  # test SQL written here

    def new_database_name(self, prefix: str = "t") -> str:
        return f"{prefix}_{os.getpid()}_{next(self._names)}"

    def create_database(self, name: str | None = None, template: str | None = None) -> str:
        """A new empty (or copied from ``template``) database; returns its superuser URL."""
        name = name or self.new_database_name()
        copy = f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""
        self.sql(f'CREATE DATABASE "{name}"{copy}')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        self.sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def both_engines_only_where_aware(
    config: pytest.Config, items: list[pytest.Item], folder: Path, aware: frozenset[str]
) -> None:
    """Under ``folder`` the ``db_engine`` fixture is parametrized over both engines. A test's PostgreSQL run
    is dropped (deselected, counted in pytest's summary) when it is about the file itself (``file_db``) or does
    not use any fixture of ``aware`` (it opens the data folder's file whatever the engine, so its second run
    would only repeat the first)."""
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_server = callspec is not None and callspec.params.get("db_engine") == "postgresql"
        if (
            on_server
            and folder in Path(str(item.path)).parents
            and (item.get_closest_marker("file_db") or not aware & set(getattr(item, "fixturenames", ())))
        ):
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
