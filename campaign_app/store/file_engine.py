"""The file engine: a campaign database in an SQLite file (:class:`CampaignDatabase`, one of the two
:class:`~.opened.Engine` classes), its settings, and SQLite's errors in the user's words.

Every write transaction starts with ``BEGIN IMMEDIATE``: it takes the write lock at once and waits up to the
busy timeout (``CAMPAIGN_APP_BUSY_TIMEOUT`` seconds, default 10) for another writer to finish. SQLite errors
are turned into :mod:`campaign_app.errors` types with one clear sentence (busy, disk full, read-only, I/O). Each
commit that changed rows moves the file's write serial (:mod:`.walcheck`). The journal's triggers of a file are
written here too (:func:`trigger_statements`, :func:`install_file_triggers`; the server's are in :mod:`.journal_pg`).
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import peewee
from peewee import SqliteDatabase

from ..errors import (
    BUSY_MESSAGE,
    DatabaseBusyError,
    DiskFullError,
    ReadOnlyError,
    StorageIOError,
    StoreProblem,
)
from .errors import DatabaseError
from .journal import _is_real, image_sql
from .opened import Capability

if TYPE_CHECKING:
    from .check import CheckReport


ENV_BUSY_TIMEOUT = "CAMPAIGN_APP_BUSY_TIMEOUT"
DEFAULT_BUSY_TIMEOUT = 10.0
MAX_BUSY_TIMEOUT = 3600.0


# --------------------------------------------------------------------------------------------- settings

_system_login: str | None = None


def system_login() -> str:
    """Who uses a file: the system login (asked once)."""
    global _system_login
    if _system_login is None:
        import getpass

        try:
            _system_login = getpass.getuser()
        except Exception:  # noqa: BLE001 - no login name on this system
            _system_login = ""
    return _system_login


def busy_timeout_setting(value: Any = None) -> float:
    """Seconds a writer waits for the write lock: ``value`` if given, else ``CAMPAIGN_APP_BUSY_TIMEOUT``,
    else 10."""
    raw = value if value is not None else os.environ.get(ENV_BUSY_TIMEOUT)
    if raw is None or raw == "":
        return DEFAULT_BUSY_TIMEOUT
    try:
        seconds = float(raw)
    except (TypeError, ValueError):
        raise DatabaseError(f"the busy timeout must be a number of seconds, not {raw!r}") from None
    if not 0 <= seconds <= MAX_BUSY_TIMEOUT:
        raise DatabaseError(f"the busy timeout must be between 0 and {MAX_BUSY_TIMEOUT:g} seconds, not {raw!r}")
    return seconds


# ------------------------------------------------------------------------------------ error translation


def _sqlite_error(exc: BaseException) -> BaseException:
    """The sqlite3 error behind a peewee error (peewee passes it as the first argument)."""
    if isinstance(exc, sqlite3.Error):
        return exc
    for candidate in (*getattr(exc, "args", ())[:1], exc.__cause__, exc.__context__):
        if isinstance(candidate, sqlite3.Error):
            return candidate
    return exc


def store_problem(exc: BaseException, db_file: str | os.PathLike[str] | None) -> StoreProblem | None:
    """The one-sentence :class:`StoreProblem` for an SQLite or OS error, or ``None`` when ``exc`` is not
    trouble in the environment (a constraint, a programming error...)."""
    name = str(db_file) if db_file else "the database"
    folder = str(Path(db_file).parent) if db_file else "its folder"
    if isinstance(exc, StoreProblem):
        return exc
    if isinstance(exc, OSError):
        where = exc.filename or name
        from ..errors import bad_path

        refused = bad_path(where, exc)
        if refused is not None:
            return refused
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return DiskFullError(
                f"disk full: cannot write {where}; nothing was written (free some space and try again)"
            )
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return ReadOnlyError(
                f"cannot write {where}: {exc.strerror} (read-only file or folder); nothing was written"
            )
        return StorageIOError(f"cannot use {where}: {exc.strerror or exc}")
    inner = _sqlite_error(exc)
    if not isinstance(inner, sqlite3.Error):
        return None
    code = getattr(inner, "sqlite_errorcode", None)
    text = str(inner)
    primary = code & 0xFF if isinstance(code, int) else None
    lowered = text.lower()
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "database is locked" in lowered:
        return DatabaseBusyError(BUSY_MESSAGE)
    if primary == sqlite3.SQLITE_FULL or "database or disk is full" in lowered:
        return DiskFullError(f"disk full: {name} cannot grow; nothing was written (free some space and try again)")
    if primary == sqlite3.SQLITE_READONLY or "readonly database" in lowered:
        return ReadOnlyError(
            f"{name} cannot be written (the file or its folder {folder} is read-only); nothing was written"
        )
    if primary == sqlite3.SQLITE_CANTOPEN or "unable to open database" in lowered:
        if db_file and _read_only_folder(Path(db_file).parent):
            return ReadOnlyError(
                f"cannot open {name}: its folder {folder} is read-only (SQLite needs to write "
                "beside the file); nothing was written"
            )
        return ReadOnlyError(f"cannot open {name}: check that the folder {folder} exists and can be written")
    if primary == sqlite3.SQLITE_IOERR or "disk i/o error" in lowered:
        if db_file and _disk_full(Path(db_file).parent):
            # e.g. SQLITE_IOERR_SHMSIZE: the -shm/-wal file beside the database could not grow
            return DiskFullError(
                f"disk full: {name} cannot be used, there is no space left in {folder}; "
                "nothing was written (free some space and try again)"
            )
        return StorageIOError(f"the disk reported an error while using {name} ({text}); nothing was written")
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or "malformed" in lowered:
        return StorageIOError(f"{name} is damaged ({text}); run 'campaign-cli check' or restore a backup")
    return None


LOW_SPACE_BYTES = 256 * 1024
"""An I/O error while less than this is free on the database's file system is reported as disk full."""


def free_bytes(folder: Path) -> int | None:
    """Bytes free for an ordinary user in ``folder``'s file system, or ``None`` when it cannot be told."""
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):
        return None
    return int(st.f_bavail) * int(st.f_frsize)


def _disk_full(folder: Path) -> bool:
    free = free_bytes(folder)
    return free is not None and free < LOW_SPACE_BYTES


def _read_only_folder(folder: Path) -> bool:
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):
        return False
    return bool(st.f_flag & os.ST_RDONLY) or not os.access(folder, os.W_OK)


@contextmanager
def translated(db_file: str | os.PathLike[str] | None) -> Iterator[None]:
    """Re-raise environment trouble (busy, full, read-only, I/O) as a :class:`StoreProblem`."""
    try:
        yield
    except (sqlite3.Error, peewee.PeeweeException, OSError) as exc:
        problem = store_problem(exc, db_file)
        if problem is None:
            raise
        raise problem from exc


class _ConnectionState(Protocol):
    conn: sqlite3.Connection | None


class CampaignDatabase(SqliteDatabase):
    """The file engine (:class:`~.opened.Engine`): peewee's SqliteDatabase with ``BEGIN IMMEDIATE`` transactions
    and translated errors."""

    dialect = "sqlite"
    """The SQL the migrations write for it (db/migrations/); code outside ``store/`` asks :mod:`.opened`."""
    server_journal = False
    """The journal is this program's: the file's triggers record, :mod:`.journal` replays."""
    _state: _ConnectionState  # peewee's per-thread connection state (types-peewee leaves it out)
    _changes_at_begin: int | None = None
    backup_problem: str | None = None
    """Why the daily backup made at open was not made (shown to the user: a warning line, a dialog)."""

    if TYPE_CHECKING:  # types-peewee leaves it unannotated; on SQLite it is the sqlite3 connection

        def connection(self) -> sqlite3.Connection: ...

    def __init__(
        self,
        database: str,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        backup_dir: Path | None = None,
        read_only: str | None = None,
    ) -> None:
        millis = int(busy_timeout * 1000)
        db_file = Path(database)
        pragmas: list[tuple[str, Any]] = [("busy_timeout", millis), ("foreign_keys", 1)]
        if read_only is None:
            pragmas.append(("journal_mode", "wal"))
            super().__init__(database, timeout=busy_timeout, lock_type="IMMEDIATE", pragmas=pragmas)
        else:  # reading where nothing can be written beside the file ("ro" or "immutable")
            uri = f"{db_file.as_uri()}?mode=ro" + ("&immutable=1" if read_only == "immutable" else "")
            super().__init__(uri, timeout=busy_timeout, lock_type="IMMEDIATE", pragmas=pragmas, uri=True)
        self.read_only = read_only
        """``None`` (read-write), or how a reading command opened it: ``"ro"`` or ``"immutable"``."""
        self.busy_timeout = busy_timeout
        self.db_file = db_file
        self.backup_dir = backup_dir or self.db_file.parent / "backups"
        self.where = str(db_file)

    # --- the engine's interface (store.opened.Engine) -----------------------------------------------------
    def login(self) -> str:
        """The system login (whoever can open the file owns it all)."""
        return system_login()

    def begin_write(self) -> None:
        """A file an integrity check found damaged takes no more writes."""
        self.refuse_if_damaged()

    def set_open(self, op_id: int | None) -> None:
        """The operation the file's triggers record into (``None``: none is open, a write is refused)."""
        self.execute_sql("UPDATE journal_state SET operation_id = ? WHERE id = 1", (op_id,))

    def data_version(self) -> int:
        """``PRAGMA data_version``: it changes when *another* connection commits."""
        return int(self.execute_sql("PRAGMA data_version").fetchone()[0])

    def changed_rows(self) -> int:
        return int(self.connection().total_changes)

    def check(self) -> CheckReport:
        from .check import check_open_file

        return check_open_file(self)

    def can(self, capability: Capability) -> bool:
        return capability in (Capability.BACKUP, Capability.COMPACT)

    def reading(self) -> AbstractContextManager[Any]:
        return self.atomic(lock_type="DEFERRED")

    def insert_returning_id(self, sql: str, params: list[Any]) -> int:
        return int(self.execute_sql(sql, params).lastrowid)

    def write_row(self, table: str, values: dict[str, Any], ref: Any) -> int:
        """``INSERT`` one row now (a file has no round trips to save); its id."""
        names = ", ".join(f'"{c}"' for c in values)
        marks = ", ".join("?" for _ in values)
        return int(
            self.execute_sql(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', list(values.values())).lastrowid
        )

    def update_row(self, table: str, row_id: Any, values: dict[str, Any]) -> None:
        sets = ", ".join(f'"{c}" = ?' for c in values)
        self.execute_sql(f'UPDATE "{table}" SET {sets} WHERE id = ?', [*values.values(), int(row_id)])

    def expect(self, sql: str, params: Any) -> None:
        """The guard, now: the file's write lock is held, so what it finds is what the writes will meet."""
        from .batch import ChangedMeanwhile

        if not self.execute_sql(sql, params).fetchone()[0]:
            raise ChangedMeanwhile("the data changed since it was read; nothing was written")

    def defer_handled(self, sql: str, params: Any, handler: Any, *, refuses: bool = False) -> None:
        handler(self.execute_sql(sql, params).fetchall())

    def check_with_next_message(self, sql: str, params: Any, handler: Any) -> None:
        handler(self.execute_sql(sql, params).fetchall())

    def read_together(self, statements: Sequence[tuple[str, Any]]) -> list[tuple[Any, list[Any]]]:
        """One by one: a file has no round trips to save."""
        found = []
        for sql, params in statements:
            cursor = self.execute_sql(sql, params)
            found.append((cursor.description, cursor.fetchall()))
        return found

    # --- the journal's recording (store.journal) ---------------------------------------------------------
    def table_columns(self, table: str) -> list[tuple[str, str]]:
        rows = self.execute_sql(f'PRAGMA table_info("{table}")').fetchall()
        return [(r[1], (r[2] or "").upper()) for r in rows]

    def app_table_names(self) -> list[str]:
        from .journal import JOURNAL_TABLES

        rows = self.execute_sql(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        ).fetchall()
        return [r[0] for r in rows if r[0] not in JOURNAL_TABLES]

    def has_journal(self) -> bool:
        return bool(
            self.execute_sql(
                "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal_state')"
            ).fetchone()[0]
        )

    @contextmanager
    def recording_off(self) -> Iterator[None]:
        """The file's triggers record nothing and refuse nothing inside (a migration)."""
        self.execute_sql("UPDATE journal_state SET mode = 'off' WHERE id = 1")
        try:
            yield
        finally:
            self.execute_sql("UPDATE journal_state SET mode = 'record' WHERE id = 1")

    def install_journal_triggers(self) -> None:
        install_file_triggers(self, {table: self.table_columns(table) for table in self.app_table_names()})

    def refuse_if_damaged(self) -> None:
        """Refuse a write (:class:`~.damage.DatabaseDamagedError`) while the file is marked damaged."""
        from .damage import refuse_writes_if_damaged

        refuse_writes_if_damaged(self.db_file, self.backup_dir)

    def _in_transaction(self) -> bool:
        conn = self._state.conn
        return bool(conn is not None and conn.in_transaction)

    def connect(self, reuse_if_open: bool = False) -> bool:
        with translated(self.db_file):
            return bool(super().connect(reuse_if_open=reuse_if_open))

    def execute_sql(self, sql: str, params: Any = None) -> Any:
        if sql.startswith(("ROLLBACK TO SAVEPOINT", "RELEASE SAVEPOINT")) and not self._in_transaction():
            return None  # SQLite already rolled the whole transaction back (e.g. disk full): keep the cause
        with translated(self.db_file):
            return super().execute_sql(sql, params)  # type: ignore[no-untyped-call]  # unannotated in types-peewee

    def begin(self, lock_type: str | None = None) -> None:
        with translated(self.db_file):
            # opened for reading only: a read transaction (a consistent view), never the write lock
            super().begin("DEFERRED" if self.read_only is not None else lock_type)
            self._changes_at_begin = self.connection().total_changes

    def commit(self) -> None:
        with translated(self.db_file):
            conn = self._state.conn
            if conn is not None and conn.in_transaction and conn.total_changes != self._changes_at_begin:
                # the file's write serial (see .walcheck): page 1 of every write names the state it follows
                serial = int(conn.execute("PRAGMA user_version").fetchone()[0])
                conn.execute(f"PRAGMA user_version = {(serial + 1) % 0x7FFFFFFF}")
            super().commit()

    def rollback(self) -> None:
        if not self.is_closed() and not self._in_transaction():
            return  # nothing to roll back: SQLite did it already; the original error is what matters
        with translated(self.db_file):
            super().rollback()


# ------------------------------------------------------------------------------------ the journal's triggers

_STATE = "(SELECT operation_id FROM journal_state WHERE id = 1)"
_RECORDING = "(SELECT mode FROM journal_state WHERE id = 1) = 'record'"
_REFUSE = (
    f"SELECT RAISE(ABORT, 'campaign_app: a write outside an operation (use store.journal.operation)') "
    f"WHERE {_STATE} IS NULL;"
)


def changed_image_sql(columns: list[tuple[str, str]], prefix: str) -> str:
    """The journal's budget on a file: ``json_group_object`` of only the columns an UPDATE changed, as
    they were (``prefix`` ``OLD.``) or became (``NEW.``); JSON nulls are kept. REAL values as in
    :func:`image_sql`."""
    parts = []
    for name, decl in columns:
        ref = f'{prefix}"{name}"'
        value = f"CASE WHEN {ref} IS NULL THEN NULL ELSE printf('%!.17g', {ref}) END" if _is_real(decl) else ref
        parts.append(f'SELECT \'{name}\' AS k, {value} AS v WHERE OLD."{name}" IS NOT NEW."{name}"')
    return "(SELECT json_group_object(k, v) FROM (" + " UNION ALL ".join(parts) + "))"


def trigger_statements(table: str, columns: list[tuple[str, str]]) -> list[str]:
    # an insert records no image (the row is in its table; undo keeps it before deleting it), an
    # update only the columns it changed; a delete keeps the whole row
    old = image_sql(columns, "OLD.")
    changed_old, changed_new = changed_image_sql(columns, "OLD."), changed_image_sql(columns, "NEW.")
    changed = " OR ".join(f'OLD."{c}" IS NOT NEW."{c}"' for c, _ in columns) or "0"
    insert = "INSERT INTO operation_change (operation_id, table_name, row_id, action, old, new) VALUES "
    return [
        f'CREATE TRIGGER "journal_{table}_insert" AFTER INSERT ON "{table}" WHEN {_RECORDING} BEGIN {_REFUSE} '
        f"{insert}({_STATE}, '{table}', NEW.id, 'insert', NULL, NULL); END",
        f'CREATE TRIGGER "journal_{table}_update" AFTER UPDATE ON "{table}" WHEN {_RECORDING} AND ({changed}) '
        f"BEGIN {_REFUSE} {insert}({_STATE}, '{table}', NEW.id, 'update', {changed_old}, {changed_new}); END",
        f'CREATE TRIGGER "journal_{table}_delete" AFTER DELETE ON "{table}" WHEN {_RECORDING} BEGIN {_REFUSE} '
        f"{insert}({_STATE}, '{table}', OLD.id, 'delete', {old}, NULL); END",
    ]


def install_file_triggers(database: CampaignDatabase, tables: dict[str, list[tuple[str, str]]]) -> None:
    """(Re)create the journal's triggers of a file on each of ``tables`` (name: its columns)."""
    existing = database.execute_sql(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'journal\\_%' ESCAPE '\\'"
    ).fetchall()
    for (name,) in existing:
        database.execute_sql(f'DROP TRIGGER "{name}"')
    for table, columns in tables.items():
        for statement in trigger_statements(table, columns):
            database.execute_sql(statement)
