"""A campaign database on a PostgreSQL server (club play).

``init_db("postgresql://ana@club.example.org/league")`` opens a :class:`ServerDatabase`: peewee's
``PostgresqlDatabase`` on psycopg 3 (``pip install 'campaign-app[server]'``). libpq's usual ways of giving the
password work (``PGPASSWORD``, ``~/.pgpass``), as do ``sslmode`` and the other libpq options in the URL; the GUI
may pass a password it asked for.

The schema is the file database's, built by the same numbered migrations: on an empty server database the
first four (SQLite-only DDL, with table rebuilds) are replaced by one frozen baseline,
``db/migrations/postgresql_0004.py``, that builds schema 4 with identity ids, BOOLEAN, TIMESTAMP, DOUBLE PRECISION
and the same CHECKs, indexes and foreign keys (deferrable, so undo can put rows back in any order); migrations 5
onward run on both engines (``database.dialect`` tells them which SQL to write).

The journal is the server's (:mod:`.journal_pg`): it numbers operations in commit order under a lock it holds
only at the end of each write. Every statement the app sends has a bounded wait: ``lock_timeout`` is the busy
timeout and ``statement_timeout`` a little more, so a writer held up by another session gets one "busy" line
(naming that session's login when the server can tell) instead of hanging. The session settings the app relies
on (role, search path, time zone, the timeouts) are set by the app after connecting, whatever the address says;
an address whose ``options`` would change the role or the search path is refused. In the window a statement that
waits runs on a helper thread while the window keeps painting (:attr:`ServerDatabase.pump`). Errors of the server
or the network become :mod:`campaign_app.errors` types with one sentence naming the server.
"""

from __future__ import annotations

import importlib.util
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote, urlsplit

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
from .batch import RowRef
from .opened import Capability

if TYPE_CHECKING:
    from .check import CheckReport

SCHEMA_LOCK_KEY = 0x43414D50  # "CAMP": the advisory lock of building or upgrading the schema (the owner's)
DEFAULT_CONNECT_TIMEOUT = 10
IDLE_IN_TRANSACTION_SECONDS = 60
"""A transaction left open and idle longer than this is ended by the server (set for the app's own sessions and,
by ``server init`` and ``server add-player``, for the club's logins)."""

FORBIDDEN_OPTIONS = re.compile(r"(?:^|[\s,])(?:-c\s*|--)(role|search_path|session_authorization)\s*=", re.I)


class AddressRefused(Refused):
    """A server address whose ``options`` would change who the app is or where it looks for its tables."""


def check_options(url: str) -> None:
    """Refuse (one line) an address whose ``options=`` sets the role, the search path or the session
    authorization: the app's identity on a club server is the login, and its tables are the database's own."""
    try:
        query = urlsplit(url).query
    except ValueError:
        return
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key.lower() != "options":
            continue
        found = FORBIDDEN_OPTIONS.search(value)
        if found:
            raise AddressRefused(
                f"the server address sets {found.group(1).lower()} in its options; campaign_app "
                "works as the login you connect with and in the database's own tables, so take "
                f"'{found.group(1)}' out of the address"
            )


def session_options(busy_timeout: float) -> str:
    """The settings the app relies on, sent in the connection's start-up packet (libpq's ``options``: no round
    trip of their own, and no transaction can undo them): whatever the login's or the database's defaults say
    (``ALTER ROLE ... SET``), the session is the login itself, sees the database's own tables first, keeps times
    in UTC and waits at most the busy timeout for a lock. A start-up setting outranks the role's and the
    database's defaults."""
    lock_ms = max(1, int(busy_timeout * 1000))
    statement_ms = lock_ms + 30_000
    return (
        "-c role=none -c search_path=public -c TimeZone=UTC "
        f"-c lock_timeout={lock_ms} -c statement_timeout={statement_ms} "
        f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_SECONDS * 1000}"
    )


def address_options(url: str) -> str:
    """The ``options`` the address itself gives (or ``PGOPTIONS``): kept, before the app's own."""
    try:
        query = urlsplit(url).query
    except ValueError:
        query = ""
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key.lower() == "options":
            return value
    return os.environ.get("PGOPTIONS", "")


CONNECTION_FACTS = (
    "SELECT session_user::text, to_regprocedure('club_can_platoon(bigint)') IS NOT NULL, "
    "CASE WHEN to_regclass('schema_migration') IS NULL THEN NULL ELSE (xpath('/row/v/text()', query_to_xml("
    "'SELECT COALESCE(MAX(number), 0) AS v FROM schema_migration', false, true, '')))[1]::text::int END"
)
"""What the app asks of every new connection: the login, whether the club's rules are installed, and the schema
version (NULL without a ``schema_migration`` table). It is not a message of its own: it goes in front of the
connection's first read (or the first statement of its first transaction), and is sent alone only when someone
needs the answer before that (:meth:`ServerDatabase.login`, ...)."""


class SchemaChanged(StoreProblem):
    """The schema version the first message found is not the one the opener expected (another program upgraded
    the database since this computer last used it): nothing was written; the command can simply run again."""


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
        return Refused(
            f"the campaign server {where} does not allow that to your login ({_reason(text)}); nothing was written"
        )
    if isinstance(inner, (pg.InvalidPassword, pg.InvalidAuthorizationSpecification)) or (
        "password" in lowered and ("authentication failed" in lowered or "no password" in lowered)
    ):
        return PasswordRequired(
            f"the campaign server {where} wants a password, or refused the one given ({_reason(text)})"
        )
    if isinstance(inner, (psycopg.OperationalError, psycopg.InterfaceError)):
        if "does not exist" in lowered and "database" in lowered:
            return ServerUnavailable(f"the campaign server {where} has no such database ({_reason(text)})")
        return ServerUnavailable(f"cannot reach the campaign server {where} ({_reason(text)}); nothing was written")
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
    """The server engine (:class:`~.opened.Engine`): peewee's PostgresqlDatabase with ``?`` placeholders, the
    writers' lock and translated errors."""

    dialect = "postgresql"
    """The SQL the migrations write for it (db/migrations/); code outside ``store/`` asks :mod:`.opened`."""
    server_journal = True
    """The journal is the server's (:mod:`.journal_pg`): its functions open, record, close and replay."""
    _club_rules: bool | None = None
    _state: Any  # peewee's per-thread connection state (untyped in types-peewee)

    def __init__(self, url: str, *, password: str | None = None, busy_timeout: float = 10.0) -> None:
        if not server_support():
            raise ServerSupportMissing(SERVER_SUPPORT_MESSAGE)
        params: dict[str, Any] = {}
        if "connect_timeout" not in url:
            params["connect_timeout"] = DEFAULT_CONNECT_TIMEOUT
        if "sslmode" not in url and not os.environ.get("PGSSLMODE"):
            params["sslmode"] = "prefer"  # encrypted when the server offers it; ?sslmode=require across the internet
        if "gssencmode" not in url and not os.environ.get("PGGSSENCMODE"):
            # libpq tries GSSAPI encryption first when it holds a Kerberos ticket: a round trip a club server
            # (SSL or nothing) always answers "no"; GSSAPI authentication still works
            params["gssencmode"] = "disable"
        if "application_name" not in url:
            params["application_name"] = "campaign_app"
        if password:
            params["password"] = password
        check_options(url)
        params["options"] = (address_options(url) + " " + session_options(busy_timeout)).strip()
        url = "postgresql://" + url.split("://", 1)[1]
        from .pg_driver import ensure_peewee_postgres

        ensure_peewee_postgres()  # the desktop start imports peewee without its PostgreSQL driver
        super().__init__(url, prefer_psycopg3=True, **params)
        self.url = url
        self.where = server_name(url)
        self.busy_timeout = busy_timeout
        self.db_file = None
        self.backup_dir = None
        self.pump: Callable[[float], None] | None = None
        """Set by the window: called every few milliseconds while a statement waits for the server (it keeps the
        window painting); the statement then runs on a helper thread."""
        self._drop_after_transaction = False
        self._expected_schema: int | None = None
        self.on_schema_changed: Callable[[], None] | None = None
        """Called (by the opener's choice) when the first message finds another schema version than expected."""

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
            if isinstance(problem, DatabaseBusyError):
                problem = DatabaseBusyError(self.busy_sentence())
            raise problem from exc

    def busy_sentence(self) -> str:
        """The busy line, naming the sessions that hold locks on the app's tables when the server shows them
        (asked over a separate connection: this one's transaction has failed)."""
        waited = f"{self.busy_timeout:g} s"
        try:
            import psycopg

            me = self._state.conn.info.backend_pid if self._state.conn is not None else 0
            with psycopg.connect(
                self.url,
                autocommit=True,
                connect_timeout=3,
                **{k: v for k, v in self.connect_params.items() if k == "password"},
            ) as side:
                rows = side.execute(
                    "SELECT DISTINCT a.usename, c.relname FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                    "LEFT JOIN pg_class c ON c.oid = l.relation WHERE l.granted AND l.pid <> %s "
                    "AND l.pid <> pg_backend_pid() AND l.database = (SELECT oid FROM pg_database WHERE datname = "
                    "current_database()) AND (l.mode IN ('AccessExclusiveLock', 'ExclusiveLock', "
                    "'ShareRowExclusiveLock', 'ShareLock') OR (c.relname = 'journal_state' "
                    "AND l.mode = 'RowShareLock')) ORDER BY 1, 2",
                    (me,),
                ).fetchall()
        except Exception:  # noqa: BLE001 - the sentence without names is still true
            rows = []
        if not rows:
            return (
                f"the club server {self.where} is busy (another session holds what this change needs; waited "
                f"{waited}); nothing was written, try again"
            )
        what = {"journal_state": "the journal"}
        held = "; ".join(
            f"{who}'s session holds {what.get(rel, f'the {rel} table' if rel else 'a lock')}" for who, rel in rows[:3]
        )
        return (
            f"the club server {self.where} is busy: {held} (waited {waited}); nothing was written, try again "
            "later or ask them to close it"
        )

    def _drop_connection(self) -> None:
        """After the connection was lost: forget it, so the next use connects afresh (at once, or when the
        transaction it was lost in has unwound)."""
        if self.in_transaction():
            self._drop_after_transaction = True
            return
        self._drop_after_transaction = False
        try:
            if not self.is_closed():
                self.close()
        except Exception:  # noqa: BLE001 - the connection is gone anyway
            self._state.reset()

    def connect(self, reuse_if_open: bool = False) -> bool:
        with self.translated():
            return bool(super().connect(reuse_if_open=reuse_if_open))

    def pop_transaction(self) -> Any:
        popped = super().pop_transaction()  # type: ignore[no-untyped-call]  # unannotated in types-peewee
        if self._drop_after_transaction and not self.in_transaction():
            self._drop_connection()
        return popped

    def _connect(self) -> Any:
        conn = super()._connect()  # type: ignore[misc]  # not in types-peewee
        local_times(conn)
        self._pending().clear()
        self._state.committed_early = False
        self._state.facts_due = True  # asked in front of the first read: no round trip of its own
        return conn

    def _facts_due(self) -> bool:
        return bool(getattr(self._state, "facts_due", False)) and not self.is_closed()

    def _take_facts(self, row: Any) -> None:
        login, club_rules, version = row
        self._state.facts_due = False
        self._facts = {"conn": self._state.conn, "login": str(login), "schema_version": version}
        if self._club_rules is None:
            self._club_rules = bool(club_rules)
        expected, self._expected_schema = self._expected_schema, None
        if expected is not None and version != expected:
            self._facts.pop("schema_version", None)
            if self.on_schema_changed is not None:
                self.on_schema_changed()
            raise SchemaChanged(
                f"the campaign database {self.where} is at schema {version}, not {expected} as when this computer "
                "last used it (another program upgraded it); nothing was written: run the command again"
            )

    def ask_facts(self) -> None:
        """The connection's facts now, in a message of their own (someone needs them before the first read)."""
        conn = self.connection()  # type: ignore[no-untyped-call]  # unannotated in types-peewee
        if not self._facts_due():
            return
        with self.translated():
            row = conn.execute(CONNECTION_FACTS).fetchone()
        self._take_facts(row)

    def expect_schema(self, version: int) -> None:
        """Open without asking: the schema version is checked when the first message's answer comes (that
        message is a read, or a transaction's first statement, so nothing is committed before the check). Another
        version raises :class:`SchemaChanged` (and calls :attr:`on_schema_changed`)."""
        self._expected_schema = version

    def fresh_schema_version(self) -> int | None:
        """The schema version read with the connection's facts, once (the open path asks it right after
        connecting); ``None`` when it was already used or the table is missing."""
        self.ask_facts()
        facts = getattr(self, "_facts", None)
        if not facts or facts.get("schema_version") is None or facts["conn"] is not self._state.conn:
            return None
        version = int(facts.pop("schema_version"))
        return version

    def cursor(self, named_cursor: Any = None) -> Any:
        found = super().cursor(named_cursor)  # type: ignore[no-untyped-call]  # unannotated in types-peewee
        pump = self.pump
        if pump is None or threading.current_thread() is not threading.main_thread():
            return found
        return _PumpedCursor(found, pump)

    # --- fewer round trips: statements without a result wait for the next one ------------------------------
    def _pending(self) -> list[str]:
        """``BEGIN``, ``SAVEPOINT`` and ``RELEASE SAVEPOINT`` not yet sent (this thread's connection): they go
        in one message with the next statement, so a transaction costs no round trip of its own."""
        state = self._state
        found: list[str] | None = getattr(state, "pending", None)
        if found is None:
            found = []
            state.pending = found
        return found

    def _glued(self, sql: str, params: Any, *, commit: bool = False) -> tuple[str, list[str]]:
        """The statement, with its parameters bound here, after the pending statements and before ``COMMIT``:
        one simple-protocol message; the number of results before the statement's own."""
        pending = self._pending()
        if params:
            import psycopg

            sql = psycopg.ClientCursor(self.connection()).mogrify(translate_placeholders(sql), params)  # type: ignore[no-untyped-call]
        parts = [p.rstrip("; ") for p in pending] + [sql.rstrip("; ")] + (["COMMIT"] if commit else [])
        before = list(pending)
        pending.clear()
        if self._facts_due():  # the connection's facts, after a BEGIN (which must open the message's transaction)
            at = 1 if before and before[0].startswith("BEGIN") else 0
            facts = _Handled(CONNECTION_FACTS, lambda rows: self._take_facts(rows[0]), True)
            before.insert(at, facts)
            parts.insert(at, facts)
        return "; ".join(parts).replace("%", "%%"), before

    def _send_glued(self, glued: str, before: list[str]) -> Any:
        """Send one glued message (the connection's facts in front when they are due); the cursor stands on the
        statement's own result. The answers of the statements that went before it are handed to their handlers
        (:meth:`defer_handled`); a handler's refusal is raised once the whole answer is read."""
        with self.translated():
            cursor = super().execute_sql(glued, ())  # type: ignore[no-untyped-call]  # unannotated in types-peewee
        refusal: BaseException | None = None
        for item in before:
            if isinstance(item, _Handled):
                try:
                    item.handler(cursor.fetchall())
                except Exception as exc:  # noqa: BLE001 - raised once the message's answer is read
                    refusal = refusal or exc
            cursor.nextset()
        if refusal is not None:
            raise refusal
        return cursor

    def defer_handled(
        self, sql: str, params: Any, handler: Callable[[list[Any]], None], *, refuses: bool = False
    ) -> None:
        """A read whose answer is wanted later: sent with the transaction's next statement, before it; ``handler``
        gets its rows when that message's answer comes (``refuses``: it may raise a refusal, so it never rides
        with a message that commits). Outside a transaction: run at once."""
        if not self.in_transaction():
            handler(self.execute_sql(sql, params).fetchall())
            return
        if params:
            import psycopg

            sql = psycopg.ClientCursor(self.connection()).mogrify(translate_placeholders(sql), params)  # type: ignore[no-untyped-call]
        self._pending().append(_Handled(sql, handler, refuses))

    def check_with_next_message(self, sql: str, params: Any, handler: Callable[[list[Any]], None]) -> None:
        """A check that rides in front of the next message, in a transaction or not (a remembered name's id,
        confirmed by the same query that looked it up): ``handler`` gets its rows and may refuse; the refusal is
        raised once that message's answer is read, and a write outside a transaction waits for it."""
        if params:
            import psycopg

            sql = psycopg.ClientCursor(self.connection()).mogrify(translate_placeholders(sql), params)  # type: ignore[no-untyped-call]
        self._pending().append(_Handled(sql, handler, True))

    def _flush_refusals(self) -> None:
        """Send what is pending now when a deferred check could refuse: a refusal must come before a commit."""
        if any(isinstance(p, _Handled) and p.refuses for p in self._pending()):
            self.execute_sql("SELECT 1")

    # --- writes that travel with the commit -------------------------------------------------------------
    def write_row(self, table: str, values: dict[str, Any], ref: RowRef | None) -> int | RowRef:
        """``INSERT`` one row, deferred to the transaction's next message (the commit's, for the last writes of an
        operation); its id comes back as ``ref`` (usable as a value of the writes after it) once that message is
        answered. Outside a transaction: at once."""
        names = ", ".join(f'"{c}"' for c in values)
        row_sql, params = self._values_sql(values)
        sql = f'INSERT INTO "{table}" ({names}) VALUES ({row_sql}) RETURNING id'
        if not self.in_transaction() or ref is None:
            return int(self.execute_sql(self._bound(sql, params)).fetchone()[0])
        self._refs = getattr(self, "_refs", 0) + 1
        ref.setting = f"campaign_app.row_{self._refs}"
        wrapped = f"WITH r AS ({sql}) SELECT set_config('{ref.setting}', id::text, true) FROM r"

        def took(rows: list[Any]) -> None:
            ref.value = int(rows[0][0])

        self._pending().append(_Handled(self._bound(wrapped, params), took, False))
        return ref

    def update_row(self, table: str, row_id: int | RowRef, values: dict[str, Any]) -> None:
        """``UPDATE`` one row by id, deferred to the transaction's next message."""
        sets = []
        params: list[Any] = []
        for column, value in values.items():
            part, more = self._value_sql(value)
            sets.append(f'"{column}" = {part}')
            params += more
        key, more = self._value_sql(row_id)
        sql = f'UPDATE "{table}" SET {", ".join(sets)} WHERE id = {key}'
        self.defer(self._bound(sql, params + more))

    def expect(self, sql: str, params: Any) -> None:
        """A guard that travels with the next message: when ``sql`` (one value) is not true there, that message
        fails with the journal's "changed meanwhile" SQLSTATE (``CA412``) and nothing of the transaction is kept."""
        cond = self._bound(sql, params).replace("$g$", "")
        self.defer(
            f"DO $g$ BEGIN IF NOT coalesce(({cond}), false) THEN RAISE EXCEPTION 'campaign_app: changed' "
            "USING ERRCODE = 'CA412'; END IF; END $g$"
        )

    def _bound(self, sql: str, params: Any) -> str:
        if not params:
            return sql
        import psycopg

        return str(psycopg.ClientCursor(self.connection()).mogrify(translate_placeholders(sql), params))  # type: ignore[no-untyped-call]

    @staticmethod
    def _value_sql(value: Any) -> tuple[str, list[Any]]:
        if isinstance(value, RowRef):
            if value.value is not None:
                return "?", [value.value]
            return f"current_setting('{value.setting}')::bigint", []
        return "?", [value]

    def _values_sql(self, values: dict[str, Any]) -> tuple[str, list[Any]]:
        parts: list[str] = []
        params: list[Any] = []
        for value in values.values():
            part, more = self._value_sql(value)
            parts.append(part)
            params += more
        return ", ".join(parts), params

    def _facts_may_go_with(self, sql: str) -> bool:
        """The facts may go in front of ``sql`` when nothing in that message commits before they are checked: a
        read, or the first statement of a transaction (its ``BEGIN`` is pending)."""
        pending = [p for p in self._pending() if not isinstance(p, _Handled)]  # checks only read
        return _is_read(sql) or (bool(pending) and pending[0].startswith("BEGIN"))

    def execute_sql(self, sql: str, params: Any = None) -> Any:
        if not params and sql.startswith(("SAVEPOINT ", "RELEASE SAVEPOINT ")):
            self._state.savepoints = self._savepoints() + (1 if sql.startswith("SAVEPOINT ") else -1)
            self._pending().append(sql)
            return None
        if not params and sql.startswith("ROLLBACK TO SAVEPOINT "):
            self._state.savepoints = self._savepoints() - 1
            pending = self._pending()
            begun = "SAVEPOINT " + sql.removeprefix("ROLLBACK TO SAVEPOINT ")
            if begun in pending:  # never sent: nothing to roll back on the server
                del pending[pending.index(begun) :]
                return None
        if self._facts_due() and not self._facts_may_go_with(sql):
            self.ask_facts()
        if not self.in_transaction() and not _is_read(sql):
            self._flush_refusals()  # a pending check may refuse: never glued to a write that commits by itself
        if self._pending() or self._facts_due():
            glued, before = self._glued(sql, params)
            return self._send_glued(glued, before)
        if params:
            sql = translate_placeholders(sql)
        elif "%" in sql:
            sql = sql.replace("%", "%%")  # psycopg reads % as the start of a placeholder even with no parameters
        retry = not self.in_transaction() and not self.is_closed() and _is_read(sql)
        try:
            with self.translated():
                return super().execute_sql(sql, params)  # type: ignore[no-untyped-call]  # unannotated in types-peewee
        except ServerUnavailable:
            if not retry:
                raise
        # a read outside a transaction on a connection that was lost: once more on a new connection (a write is
        # never sent again: it may have committed)
        with self.translated():
            return super().execute_sql(sql, params)  # type: ignore[no-untyped-call]  # unannotated in types-peewee

    def defer(self, sql: str, params: Any = None) -> None:
        """A statement whose result nobody reads (a row lock), sent with the next statement of the transaction,
        before it. Outside a transaction: run at once."""
        if not self.in_transaction():
            self.execute_sql(sql, params)
            return
        if params:
            import psycopg

            sql = psycopg.ClientCursor(self.connection()).mogrify(translate_placeholders(sql), params)  # type: ignore[no-untyped-call]
        self._pending().append(sql)

    def _savepoints(self) -> int:
        """How many savepoints (peewee's nested ``atomic``) are open in this thread's transaction."""
        return int(getattr(self._state, "savepoints", 0))

    def execute_and_commit(self, sql: str, params: Any = None) -> Any:
        """Run the last statement of the outermost transaction and commit it in the same message (one round
        trip): what the statement locks is held only while the server runs it and the commit. The transaction's
        own commit then has nothing left to do. Inside a savepoint, no commit. ``sql`` may hold several
        statements (their parameters are bound here); the cursor stands on the first one's result."""
        commit = self.transaction_depth() == 1 and not self._savepoints()
        if self._facts_due():
            self.ask_facts()
        self._flush_refusals()
        glued, before = self._glued(sql, params, commit=commit)
        cursor = self._send_glued(glued, before)
        if commit:
            self._state.committed_early = True
        return cursor

    def begin(self, isolation_level: Any = None, lock_type: str | None = None) -> None:
        """``atomic(lock_type="DEFERRED")`` (the file engine's read transaction, one snapshot for a whole read
        such as an export) is a REPEATABLE READ transaction here; writers use the default. The ``BEGIN`` goes
        with the transaction's first statement."""
        if lock_type == "DEFERRED" and isolation_level is None:
            isolation_level = "REPEATABLE READ"
        if isolation_level is None:
            isolation_level = self._isolation_level  # type: ignore[attr-defined]  # not in types-peewee
        stmt = "BEGIN"
        if isolation_level:
            stmt += " TRANSACTION ISOLATION LEVEL " + self._adapter.isolation_level_str(isolation_level)  # type: ignore[attr-defined]
        self.connection()  # type: ignore[no-untyped-call]  # connects now if needed (errors as before)
        self._state.committed_early = False
        self._state.savepoints = 0
        pending = self._pending()
        pending.clear()
        pending.append(stmt)

    def _unsent_transaction(self) -> bool:
        """The transaction's ``BEGIN`` was never sent: nothing to commit or roll back on the server."""
        pending = self._pending()
        unsent = bool(pending) and pending[0].startswith("BEGIN")
        pending.clear()
        return unsent

    def commit(self) -> None:
        if getattr(self._state, "committed_early", False):
            self._state.committed_early = False
            self._pending().clear()
            return
        if self._unsent_transaction():
            return
        with self.translated():
            super().commit()

    def rollback(self) -> None:
        if getattr(self._state, "committed_early", False):
            self._state.committed_early = False
            self._pending().clear()
            return
        if self._unsent_transaction():
            return
        try:
            super().rollback()
        except Exception as exc:  # noqa: BLE001 - the rollback of a lost connection: the first error matters
            if server_problem(exc, self.where) is None:
                raise
            self._drop_connection()

    def lock_schema(self) -> None:
        """Inside the transaction that builds or upgrades the schema: wait (up to the busy timeout) until no other
        program does the same."""
        self.execute_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK_KEY})")

    # --- the engine's interface (store.opened.Engine) -----------------------------------------------------
    def login(self) -> str:
        """The server login of this connection (``session_user``; asked once per connection)."""
        conn = self.connection()  # type: ignore[no-untyped-call]  # unannotated in types-peewee
        facts = getattr(self, "_facts", None)
        if facts and facts["conn"] is conn:
            return str(facts["login"])
        if self._facts_due() and conn.info.user:
            # the role the start-up packet named is the session's login (session_user): nothing to ask
            return str(conn.info.user)
        cached = getattr(self, "_login", None)
        if cached is None or cached[0] is not conn:
            cached = (conn, str(self.execute_sql("SELECT session_user").fetchone()[0]))
            self._login: tuple[Any, str] | None = cached
        return cached[1]

    def begin_write(self) -> None:
        """Nothing: the server looks after its own pages (its ``campaign_app_begin`` opens the operation)."""

    def set_open(self, op_id: int | None) -> None:
        """Nothing: the server's own functions keep the open operation (:mod:`.journal_pg`)."""

    def data_version(self) -> int:
        """A number that moves whenever anyone commits an operation, an undo or a redo (the server's stand-in for
        SQLite's ``data_version``)."""
        row = self.execute_sql(
            "SELECT COALESCE(MAX(id), 0), COALESCE(MAX(undo_seq), 0), COUNT(*), "
            "COALESCE(MAX(updated_at), ''), COALESCE(MAX(undone_at), '') "
            "FROM operation"
        ).fetchone()
        return hash(tuple(row)) & 0x7FFFFFFFFFFFFFFF

    def changed_rows(self) -> int:
        return 0  # the data version moves with this program's writes too

    def check(self) -> CheckReport:
        from .check import check_server

        return check_server(self)

    def club_rules(self) -> bool:
        """Whether ``server init`` installed the club's rules here (its SQL functions exist); asked once per
        opened database (``server init`` sets it)."""
        if self._club_rules is None and not self.is_closed():
            self.ask_facts()
        if self._club_rules is None:
            row = self.execute_sql("SELECT to_regprocedure('club_can_platoon(bigint)') IS NOT NULL").fetchone()
            self._club_rules = bool(row[0])
        return self._club_rules

    def can(self, capability: Capability) -> bool:
        if capability is Capability.CLUB_RULES:
            return self.club_rules()
        return capability in (Capability.SEVERAL_LOGINS, Capability.ANNOUNCES, Capability.SHARED_CONNECTION)

    def reading(self) -> AbstractContextManager[Any]:
        return self.atomic(isolation_level="REPEATABLE READ")

    def insert_returning_id(self, sql: str, params: list[Any]) -> int:
        return int(self.execute_sql(sql + " RETURNING id", params).fetchone()[0])

    def read_together(self, statements: Sequence[tuple[str, Any]]) -> list[tuple[Any, list[Any]]]:
        """Several reads in one message (their parameters bound here; the pending ``BEGIN`` and the connection's
        facts in front): one round trip for all. Outside a transaction, a connection found lost is opened again
        once, as for a single read."""
        if not statements:
            return []
        retry = not self.in_transaction() and not self.is_closed()
        checks = [p for p in self._pending() if isinstance(p, _Handled)]
        try:
            return self._read_together(statements)
        except ServerUnavailable:
            if not retry:
                raise
        # a new connection starts with nothing pending: the checks go again with the reads
        self.connection()  # type: ignore[no-untyped-call]  # unannotated in types-peewee
        self._pending()[:0] = checks
        return self._read_together(statements)

    def _read_together(self, statements: Sequence[tuple[str, Any]]) -> list[tuple[Any, list[Any]]]:
        import psycopg

        client = psycopg.ClientCursor(self.connection())  # type: ignore[no-untyped-call]  # unannotated in types-peewee
        sql = "; ".join((client.mogrify(translate_placeholders(q), p) if p else q).rstrip("; ") for q, p in statements)
        glued, before = self._glued(sql, None)
        cursor = self._send_glued(glued, before)
        found = []
        for i in range(len(statements)):
            if i:
                cursor.nextset()
            found.append((cursor.description, cursor.fetchall()))
        return found

    # --- the journal's recording (store.journal; the server's triggers and functions: store.journal_pg) -----
    def table_columns(self, table: str) -> list[tuple[str, str]]:
        rows = self.execute_sql(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = ? "
            "ORDER BY ordinal_position",
            (table,),
        ).fetchall()
        return [(r[0], (r[1] or "").upper()) for r in rows]

    def app_table_names(self) -> list[str]:
        from .journal import JOURNAL_TABLES

        rows = self.execute_sql(
            "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
        ).fetchall()
        return [r[0] for r in rows if r[0] not in JOURNAL_TABLES]

    def has_journal(self) -> bool:
        return bool(self.execute_sql("SELECT to_regclass('journal_state') IS NOT NULL").fetchone()[0])

    @contextmanager
    def recording_off(self) -> Iterator[None]:
        """The server's trigger records nothing inside this transaction (a migration; the owner's alone)."""
        from .journal import _MODE_SETTING

        self.execute_sql("SELECT set_config(?, 'off', true)", (_MODE_SETTING,))
        try:
            yield
        finally:
            self.execute_sql("SELECT set_config(?, 'record', true)", (_MODE_SETTING,))

    def install_journal_triggers(self) -> None:
        from . import journal_pg

        journal_pg.install(self, self.app_table_names())


class _Handled(str):
    """A deferred statement whose answer someone wants (:meth:`ServerDatabase.defer_handled`)."""

    handler: Callable[[list[Any]], None]
    refuses: bool

    def __new__(cls, sql: str, handler: Callable[[list[Any]], None], refuses: bool) -> _Handled:
        made = super().__new__(cls, sql)
        made.handler = handler
        made.refuses = refuses
        return made


_READ = re.compile(r"\s*SELECT\b", re.I)
_WRITES = re.compile(
    r"\b(?:campaign_app_\w+|club_\w+_set\w*|nextval|setval|pg_notify|set_config)\s*\(|\bFOR\s+(?:NO\s+KEY\s+)?UPDATE\b|\bFOR\s+SHARE\b|;",
    re.I,
)


def _is_read(sql: str) -> bool:
    """A single SELECT that changes nothing (no journal function, no sequence, no lock): safe to send again."""
    return bool(_READ.match(sql)) and not _WRITES.search(sql)


class _PumpedCursor:
    """A psycopg cursor whose ``execute`` runs on a helper thread while the calling (window) thread keeps calling
    ``pump``: a statement that waits for a lock or a slow network never freezes the window."""

    def __init__(self, cursor: Any, pump: Callable[[float], None]) -> None:
        self._cursor = cursor
        self._pump = pump

    def execute(self, sql: Any, params: Any = None) -> Any:
        done = threading.Event()
        outcome: list[Any] = []

        def run() -> None:
            try:
                outcome.append((True, self._cursor.execute(sql, params)))
            except BaseException as exc:  # noqa: BLE001 - handed back to the calling thread
                outcome.append((False, exc))
            finally:
                done.set()

        worker = threading.Thread(target=run, name="campaign_app-sql", daemon=True)
        worker.start()
        if not done.wait(0.05):  # a quick statement: no event processing at all
            started = time.monotonic()
            try:
                while not done.wait(0.03):
                    self._pump(time.monotonic() - started)
            finally:
                finish = getattr(self._pump, "done", None)
                if callable(finish):
                    finish()
        worker.join()
        ok, value = outcome[0]
        if not ok:
            raise value
        return value

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._cursor)
