"""A campaign database on a PostgreSQL server (club play).

``init_db("postgresql://ana@club.example.org/league")`` opens a :class:`ServerDatabase`: peewee's
``PostgresqlDatabase`` on psycopg 3 (``pip install 'campaign-app[server]'``). libpq's usual ways of giving the
password work (``PGPASSWORD``, ``~/.pgpass``), as do ``sslmode`` and the other libpq options in the URL; the GUI
may pass a password it asked for.

The schema is the file database's, built by the same numbered migrations: on an empty server database the
first four (SQLite-only DDL, with table rebuilds) are replaced by one frozen baseline,
``db/migrations/postgresql_0004.py``, that builds schema 4 with identity ids, BOOLEAN, TIMESTAMP, DOUBLE PRECISION
and the same CHECKs, indexes and foreign keys (deferrable, so undo can put rows back in any order); migrations 5
onward run on both engines (``database.dialect`` tells them which).

Writers are serialised: an operation takes a transaction-level advisory lock first (as SQLite's ``BEGIN
IMMEDIATE`` takes the write lock), so the journal's order of operations is the order of commits, and a writer
that waits longer than the busy timeout gets the same "busy" message as on a file. Errors of the server or the
network become :mod:`campaign_app.errors` types with one sentence naming the server.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import unquote, urlsplit

from peewee import PostgresqlDatabase

from ..errors import (
    BUSY_MESSAGE,
    SERVER_SUPPORT_MESSAGE,
    DatabaseBusyError,
    DiskFullError,
    PasswordRequired,
    ReadOnlyError,
    Refused,
    ServerSupportMissing,
    ServerUnavailable,
    StoreProblem,
)
from ..paths import is_server_url as is_server_url  # re-exported: the one test of "is this a server?"

WRITE_LOCK_KEY = 0x43414D50  # "CAMP": the one advisory lock all writers of a campaign database take
DEFAULT_CONNECT_TIMEOUT = 10


def server_support() -> bool:
    return importlib.util.find_spec("psycopg") is not None


def server_name(url: str) -> str:
    """``login@host:port/dbname`` for messages and titles: never the password."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or os.environ.get("PGHOST") or "localhost"
        if unquote(host).startswith("/"):  # a socket folder, written as /tmp/x or %2Ftmp%2Fx
            host = "local socket"
        port = parts.port or int(os.environ.get("PGPORT") or 5432)
        user = unquote(parts.username) if parts.username else os.environ.get("PGUSER", "")
        dbname = parts.path.lstrip("/") or user
    except ValueError:
        return "the campaign server"
    query = dict(p.split("=", 1) for p in parts.query.split("&") if "=" in p)
    if "host" in query:
        host = "local socket" if unquote(query["host"]).startswith("/") else unquote(query["host"])
    if "port" in query and query["port"].isdigit():
        port = int(query["port"])
    if "user" in query:
        user = unquote(query["user"])
    if "dbname" in query:
        dbname = unquote(query["dbname"])
    who = f"{user}@" if user else ""
    return f"{who}{host}:{port}/{unquote(dbname)}"


# ------------------------------------------------------------------------------------ placeholder translation

def translate_placeholders(sql: str) -> str:
    """The app's raw SQL uses SQLite's ``?`` placeholders; psycopg wants ``%s`` (and a literal ``%`` doubled).
    Query text peewee made for PostgreSQL has no ``?`` outside quotes and is returned as it is."""
    if "?" not in sql:
        return sql
    out: list[str] = []
    quote: str | None = None
    found = False
    for ch in sql:
        if quote:
            if ch == quote:
                quote = None
            out.append("%%" if ch == "%" else ch)
            continue
        if ch in ("'", '"'):
            quote = ch
            out.append(ch)
        elif ch == "?":
            found = True
            out.append("%s")
        elif ch == "%":
            out.append("%%")
        else:
            out.append(ch)
    return "".join(out) if found else sql


# ------------------------------------------------------------------------------------------- errors

def _psycopg_error(exc: BaseException) -> BaseException | None:
    try:
        import psycopg
    except ImportError:  # pragma: no cover - only without the server extra
        return None
    seen: list[BaseException] = []
    todo: list[BaseException | None] = [exc]
    while todo:
        cur = todo.pop()
        if cur is None or cur in seen:
            continue
        seen.append(cur)
        if isinstance(cur, psycopg.Error):
            return cur
        todo += [a for a in getattr(cur, "args", ())[:1] if isinstance(a, BaseException)]
        todo += [cur.__cause__, cur.__context__]
    return None


def _reason(text: str) -> str:
    """The useful words of a libpq message: its first line, without the "connection to server ... failed:"
    preamble."""
    line = next((s.strip() for s in str(text).splitlines() if s.strip()), str(text)).strip()
    if "failed: " in line:
        line = line.rsplit("failed: ", 1)[1]
    return line.rstrip(".")


def server_problem(exc: BaseException, where: str) -> StoreProblem | Refused | None:
    """The one-sentence app error for a psycopg error, or ``None`` when it is not trouble with the server or the
    network (a constraint, a programming error...)."""
    if isinstance(exc, (StoreProblem, Refused)):
        return exc
    inner = _psycopg_error(exc)
    if inner is None:
        return None
    import psycopg
    from psycopg import errors as pg

    text = str(inner)
    lowered = text.lower()
    if isinstance(inner, pg.LockNotAvailable) or isinstance(inner, pg.QueryCanceled) and "lock" in lowered:
        return DatabaseBusyError(BUSY_MESSAGE)
    if isinstance(inner, (pg.DiskFull, pg.OutOfMemory)) or "no space left" in lowered:
        return DiskFullError(f"the campaign server {where} is out of disk space; nothing was written")
    if isinstance(inner, pg.ReadOnlySqlTransaction):
        return ReadOnlyError(f"the campaign server {where} is read-only just now (a standby?); nothing was written")
    if isinstance(inner, pg.InsufficientPrivilege):
        return Refused(f"the campaign server {where} does not allow that to your login ({_reason(text)}); "
                       "nothing was written")
    if isinstance(inner, (pg.InvalidPassword, pg.InvalidAuthorizationSpecification)) or (
            "password" in lowered and ("authentication failed" in lowered or "no password" in lowered)):
        return PasswordRequired(f"the campaign server {where} wants a password, or refused the one given "
                                f"({_reason(text)})")
    if isinstance(inner, (psycopg.OperationalError, psycopg.InterfaceError)):
        if "does not exist" in lowered and "database" in lowered:
            return ServerUnavailable(f"the campaign server {where} has no such database ({_reason(text)})")
        return ServerUnavailable(f"cannot reach the campaign server {where} ({_reason(text)}); nothing was "
                                 "written")
    return None


# ------------------------------------------------------------------------------------------- times

def local_times(conn: Any) -> None:
    """Times on the server are instants (TIMESTAMPTZ); the app keeps working in the computer's local time.

    A naive datetime the app writes is taken as this computer's local time and sent with its offset, so the
    server stores the true instant; a time read back is turned into this computer's local time, naive again. So
    two players in different time zones see each other's battles at the right moment, in their own zone."""
    from datetime import datetime

    from psycopg.types.datetime import DatetimeDumper, TimestamptzLoader

    class LocalDatetimeDumper(DatetimeDumper):
        def upgrade(self, obj: datetime, format: Any) -> Any:
            return self

        def dump(self, obj: datetime) -> Any:
            return super().dump(obj if obj.tzinfo else obj.astimezone())

    class LocalTimestamptzLoader(TimestamptzLoader):
        def load(self, data: Any) -> datetime:
            return super().load(data).astimezone().replace(tzinfo=None)

    conn.adapters.register_dumper(datetime, LocalDatetimeDumper)
    conn.adapters.register_loader("timestamptz", LocalTimestamptzLoader)


# ------------------------------------------------------------------------------------------- the database

class ServerDatabase(PostgresqlDatabase):
    """peewee's PostgresqlDatabase with ``?`` placeholders, the writers' lock and translated errors."""

    dialect = "postgresql"

    def __init__(self, url: str, *, password: str | None = None, busy_timeout: float = 10.0) -> None:
        if not server_support():
            raise ServerSupportMissing(SERVER_SUPPORT_MESSAGE)
        params: dict[str, Any] = {}
        if "connect_timeout" not in url:
            params["connect_timeout"] = DEFAULT_CONNECT_TIMEOUT
        if "application_name" not in url:
            params["application_name"] = "campaign_app"
        if password:
            params["password"] = password
        if "options" not in url:
            params["options"] = "-c TimeZone=UTC"  # the journal's row images show times in UTC, whoever wrote them
        url = "postgresql://" + url.split("://", 1)[1]
        super().__init__(url, prefer_psycopg3=True, **params)
        self.url = url
        self.where = server_name(url)
        self.busy_timeout = busy_timeout
        self.db_file = None
        self.backup_dir = None

    def __repr__(self) -> str:
        return f"<ServerDatabase {self.where}>"

    @contextmanager
    def translated(self) -> Iterator[None]:
        try:
            yield
        except Exception as exc:
            problem = server_problem(exc, self.where)
            if problem is None or problem is exc:
                raise
            if isinstance(problem, ServerUnavailable):
                self._drop_connection()
            raise problem from exc

    def _drop_connection(self) -> None:
        """After the connection was lost: forget it, so the next use connects afresh."""
        try:
            if not self.is_closed():
                self.close()
        except Exception:  # noqa: BLE001 - the connection is gone anyway
            self._state.reset()  # type: ignore[attr-defined]  # peewee's per-thread state, untyped in types-peewee

    def connect(self, reuse_if_open: bool = False) -> bool:
        with self.translated():
            return bool(super().connect(reuse_if_open=reuse_if_open))

    def _connect(self) -> Any:
        conn = super()._connect()  # type: ignore[misc]  # not in types-peewee
        local_times(conn)
        return conn

    def execute_sql(self, sql: str, params: Any = None) -> Any:
        if params:
            sql = translate_placeholders(sql)
        elif "%" in sql:
            sql = sql.replace("%", "%%")  # psycopg reads % as the start of a placeholder even with no parameters
        with self.translated():
            return super().execute_sql(sql, params)  # type: ignore[no-untyped-call]  # unannotated in types-peewee

    def begin(self, isolation_level: Any = None, lock_type: str | None = None) -> None:
        """``atomic(lock_type="DEFERRED")`` (the file engine's read transaction, one snapshot for a whole read
        such as an export) is a REPEATABLE READ transaction here; writers use the default and the writers'
        lock."""
        if lock_type == "DEFERRED" and isolation_level is None:
            isolation_level = "REPEATABLE READ"
        with self.translated():
            super().begin(isolation_level)

    def commit(self) -> None:
        with self.translated():
            super().commit()

    def rollback(self) -> None:
        try:
            super().rollback()
        except Exception as exc:  # noqa: BLE001 - the rollback of a lost connection: the first error matters
            if server_problem(exc, self.where) is None:
                raise
            self._drop_connection()

    def lock_writers(self) -> None:
        """Wait (up to the busy timeout) for the one write lock, inside the open transaction."""
        millis = max(1, int(self.busy_timeout * 1000))
        # one round trip: the wait is bounded by the busy timeout, the rest of the transaction is not
        self.execute_sql(f"SET LOCAL lock_timeout = {millis}; SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY}); "
                         "SET LOCAL lock_timeout = 0")

    def login(self) -> str:
        """The server login of this connection (asked once per connection)."""
        conn = self.connection()  # type: ignore[no-untyped-call]  # unannotated in types-peewee
        cached = getattr(self, "_login", None)
        if cached is None or cached[0] is not conn:
            cached = (conn, str(self.execute_sql("SELECT current_user").fetchone()[0]))
            self._login: tuple[Any, str] | None = cached
        return cached[1]
