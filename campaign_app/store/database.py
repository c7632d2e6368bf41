"""The one database entry point.

``init_db(path, backup_dir)`` first checks an existing file cheaply and without creating anything beside it
(its header, its size against the header's page count, and, read-only, that it is a campaign_app database
of a schema this version knows). A file that fails is refused untouched, naming the file and the newest good
backup. Otherwise it opens the file with ``foreign_keys=1``, WAL and a busy timeout, and if migrations are
pending it backs the file up first (the backup is integrity-checked), applies the numbered migrations of
``db/migrations/`` and, should one fail, puts the backup back and says so. Once per day of use it makes a
``daily`` backup (see :mod:`.backups`).

Every write transaction starts with ``BEGIN IMMEDIATE``: it takes the write lock at once and waits up to the
busy timeout (``CAMPAIGN_APP_BUSY_TIMEOUT`` seconds, default 10) for another writer to finish. SQLite errors
are turned into :mod:`campaign_app.errors` types with one clear sentence (busy, disk full, read-only, I/O).
The full ``PRAGMA integrity_check`` runs in :func:`check_database` (``campaign-cli check``, the GUI's
background check) and before a backup or a migration, never at every open.
"""

from __future__ import annotations

import contextlib
import errno
import importlib.util
import logging
import os
import sqlite3
import stat
import struct
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

import peewee
from peewee import SqliteDatabase

from .. import __version__
from ..errors import (
    BUSY_MESSAGE,
    CampaignError,
    DatabaseBusyError,
    DiskFullError,
    ReadOnlyError,
    StorageIOError,
    StoreProblem,
)
from ..paths import clean_target, is_server_url
from ..resources import migrations_dir
from .damage import DatabaseDamagedError as DatabaseDamagedError  # the damage mark (issue 23), re-exported
from .damage import damage_of as damage_of
from .models import MODELS, SchemaMigration, database_proxy, name_key
from .opened import Capability, Engine
from .server import ServerDatabase

log = logging.getLogger(__name__)

db = database_proxy
"""Use ``db.atomic()`` in services; the real database is bound by :func:`init_db`."""

SQLITE_HEADER = b"SQLite format 3\x00"
ENV_BUSY_TIMEOUT = "CAMPAIGN_APP_BUSY_TIMEOUT"
DEFAULT_BUSY_TIMEOUT = 10.0
MAX_BUSY_TIMEOUT = 3600.0


class DatabaseError(CampaignError):
    """Base class of the errors that keep a database from opening."""

    exit_code = 2


class DatabaseOpenError(DatabaseError):
    """Not an SQLite database, or damaged. The file is left untouched."""


class ForeignWalError(DatabaseOpenError):
    """The ``-wal`` file beside the database is not its own (:mod:`.walcheck`). Both files are left untouched;
    ``restore`` still works (it moves the ``-wal`` aside into the backup folder)."""


class DatabaseTooNewError(DatabaseError):
    """The file was written by a newer campaign_app. The file is left untouched."""


class MigrationFailedError(DatabaseError):
    """A migration failed; the file was put back from the backup made just before."""

    exit_code = 1


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
            return DiskFullError(f"disk full: cannot write {where}; nothing was written (free some space and "
                                 "try again)")
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return ReadOnlyError(f"cannot write {where}: {exc.strerror} (read-only file or folder); nothing "
                                 "was written")
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
        return DiskFullError(f"disk full: {name} cannot grow; nothing was written (free some space and try "
                             "again)")
    if primary == sqlite3.SQLITE_READONLY or "readonly database" in lowered:
        return ReadOnlyError(f"{name} cannot be written (the file or its folder {folder} is read-only); "
                             "nothing was written")
    if primary == sqlite3.SQLITE_CANTOPEN or "unable to open database" in lowered:
        if db_file and _read_only_folder(Path(db_file).parent):
            return ReadOnlyError(f"cannot open {name}: its folder {folder} is read-only (SQLite needs to write "
                                 "beside the file); nothing was written")
        return ReadOnlyError(f"cannot open {name}: check that the folder {folder} exists and can be written")
    if primary == sqlite3.SQLITE_IOERR or "disk i/o error" in lowered:
        if db_file and _disk_full(Path(db_file).parent):
            # e.g. SQLITE_IOERR_SHMSIZE: the -shm/-wal file beside the database could not grow
            return DiskFullError(f"disk full: {name} cannot be used, there is no space left in {folder}; "
                                 "nothing was written (free some space and try again)")
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

    def __init__(self, database: str, busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
                 backup_dir: Path | None = None, read_only: str | None = None) -> None:
        millis = int(busy_timeout * 1000)
        db_file = Path(database)
        pragmas: list[tuple[str, Any]] = [("busy_timeout", millis), ("foreign_keys", 1)]
        if read_only is None:
            pragmas.append(("journal_mode", "wal"))
            super().__init__(database, timeout=busy_timeout, lock_type="IMMEDIATE", pragmas=pragmas)
        else:  # issue 23: reading where nothing can be written beside the file ("ro" or "immutable")
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
        return check_open_file(self)

    def can(self, capability: Capability) -> bool:
        return capability in (Capability.BACKUP, Capability.COMPACT)

    def reading(self) -> AbstractContextManager[Any]:
        return self.atomic(lock_type="DEFERRED")

    def insert_returning_id(self, sql: str, params: list[Any]) -> int:
        return int(self.execute_sql(sql, params).lastrowid)

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
            if (conn is not None and conn.in_transaction
                    and conn.total_changes != self._changes_at_begin):
                # the file's write serial (see .walcheck): page 1 of every write names the state it follows
                serial = int(conn.execute("PRAGMA user_version").fetchone()[0])
                conn.execute(f"PRAGMA user_version = {(serial + 1) % 0x7FFFFFFF}")
            super().commit()

    def rollback(self) -> None:
        if not self.is_closed() and not self._in_transaction():
            return  # nothing to roll back: SQLite did it already; the original error is what matters
        with translated(self.db_file):
            super().rollback()


# ------------------------------------------------------------------------------------------- migrations

@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    path: Path

    def load(self) -> ModuleType:
        spec = importlib.util.spec_from_file_location(f"campaign_app_migration_{self.number:04d}", self.path)
        if spec is None or spec.loader is None:  # pragma: no cover - only on a broken install
            raise DatabaseError(f"cannot load migration {self.path}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


def available_migrations(folder: Path | None = None) -> list[Migration]:
    import re

    folder = folder or migrations_dir()
    pattern = re.compile(r"^(\d{4})_([a-z0-9_]+)\.py$")
    found = []
    for path in sorted(folder.iterdir()):
        m = pattern.match(path.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), path))
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise DatabaseError(f"migration scripts in {folder} are not numbered 1..n: {numbers}")
    return found


def schema_version_supported() -> int:
    return len(available_migrations())


# ------------------------------------------------------------------------------------ cheap file checks

@dataclass(frozen=True)
class HeaderFacts:
    page_size: int
    page_count: int | None
    """The header's page count, or ``None`` when the header says it is not valid (very old writers)."""
    size: int
    wal_mode: bool


def wal_path(db_file: Path) -> Path:
    return db_file.with_name(db_file.name + "-wal")


def _hint(backup_dir: Path | None, db_file: Path) -> str:
    from .backups import newest_good_backup

    if backup_dir is None:
        return ""
    newest = newest_good_backup(backup_dir, db_file)
    return f"The newest good backup is {newest}." if newest else "No backup of it was found."


def _refuse(db_file: Path, why: str, backup_dir: Path | None) -> DatabaseOpenError:
    return DatabaseOpenError(f"{db_file} {why}. It was left untouched. {_hint(backup_dir, db_file)}".strip())


def read_header(db_file: Path, backup_dir: Path | None = None) -> HeaderFacts:
    """Check the first 100 bytes and the size of an existing file (plain reads: nothing is created).

    Refused: a 0-byte file, a file that is not SQLite, an impossible page size, a size that is not a whole
    number of pages or that differs from the header's page count (a file cut short or padded)."""
    try:
        if not stat.S_ISREG(db_file.stat().st_mode):
            raise DatabaseOpenError(f"{db_file} is not a regular file, so it cannot be a database file")
        with db_file.open("rb") as fh:
            header = fh.read(100)
            size = os.fstat(fh.fileno()).st_size
    except IsADirectoryError:
        raise DatabaseOpenError(f"{db_file} is a folder, not a database file") from None
    except OSError as exc:
        raise DatabaseOpenError(f"cannot read {db_file}: {exc.strerror or exc}") from None
    if size == 0:
        raise _refuse(db_file, "is empty (0 bytes), so it holds no campaign: delete it to start afresh or "
                               "restore a backup", backup_dir)
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        raise _refuse(db_file, "is not a campaign database (not an SQLite file)", backup_dir)
    (raw_page_size,) = struct.unpack(">H", header[16:18])
    page_size = 65536 if raw_page_size == 1 else raw_page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise _refuse(db_file, f"is damaged (its header gives an impossible page size, {raw_page_size})",
                      backup_dir)
    change_counter, count = struct.unpack(">II", header[24:32])
    (valid_for,) = struct.unpack(">I", header[92:96])
    page_count = count if count and valid_for == change_counter else None
    wal_mode = header[18] == 2 and header[19] == 2
    if size % page_size:
        raise _refuse(db_file, f"is damaged: its size ({size} bytes) is not a whole number of {page_size}-byte "
                               "pages (was it cut short?)", backup_dir)
    if page_count is not None and page_count * page_size != size:
        wal = wal_path(db_file)
        in_use = wal.exists() and wal.stat().st_size > 0
        # while another program checkpoints its WAL the header can run ahead of the file for a moment
        if not in_use:
            raise _refuse(db_file, f"is damaged: it has {size // page_size} pages but its header says "
                                   f"{page_count} (was it cut short or copied while in use?)", backup_dir)
    return HeaderFacts(page_size, page_count, size, wal_mode)


def check_own_wal(db_file: Path, backup_dir: Path | None = None) -> None:
    """Refuse (:class:`ForeignWalError`, both files untouched, nothing created) when a ``-wal`` file beside
    ``db_file`` is not the database's own (:mod:`.walcheck`)."""
    from .walcheck import foreign_wal

    wal = wal_path(db_file)
    try:
        if not wal.is_file() or wal.stat().st_size == 0:
            return
        why = foreign_wal(db_file, wal)
    except OSError:
        return  # unreadable: opening it says what is wrong
    if why is None:
        return
    raise ForeignWalError(
        f"{db_file} was not opened: the file {wal} beside it is not its own write-ahead log ({why}), and "
        f"SQLite would mix the two. Both were left untouched. Move {wal} out of the folder to open the "
        f"database as it is, or restore a backup ('campaign-cli restore FILE'). "
        f"{_hint(backup_dir, db_file)}".strip())


def _read_only_uri(db_file: Path) -> str:
    """A read-only URI that creates nothing beside the file (``immutable``: no -wal/-shm, no locks). Only
    used when no -wal file exists, i.e. when nobody has the database open in WAL mode."""
    return f"{db_file.as_uri()}?mode=ro&immutable=1"


def schema_facts(con: sqlite3.Connection, db_file: Path, backup_dir: Path | None) -> int:
    """The applied schema version (0 for an SQLite file without tables); refuses other SQLite files."""
    has_table = con.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND "
                            "name='schema_migration'").fetchone()
    if not has_table:
        other = con.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
        if other:
            raise _refuse(db_file, "is an SQLite file but not a campaign database", backup_dir)
        return 0
    version = con.execute("SELECT max(number) FROM schema_migration").fetchone()[0]
    return int(version or 0)


def inspect_file(db_file: Path, backup_dir: Path | None = None) -> int | None:
    """Cheap read-only checks of an existing file. Returns its schema version, or ``None`` when the file is
    in use (a -wal file exists); then the version is read once the file is open."""
    read_header(db_file, backup_dir)
    check_own_wal(db_file, backup_dir)
    wal = wal_path(db_file)
    if wal.exists():
        # in use (or left by a crash): read it through the WAL, read-only, so closing checkpoints nothing
        try:
            con = sqlite3.connect(f"{db_file.as_uri()}?mode=ro", uri=True, timeout=1)
            try:
                return schema_facts(con, db_file, backup_dir)
            finally:
                con.close()
        except sqlite3.Error:
            return None  # busy or not readable read-only: decided once the file is open
    try:
        con = sqlite3.connect(_read_only_uri(db_file), uri=True)
    except sqlite3.Error as exc:
        raise _refuse(db_file, f"cannot be read as a database ({exc})", backup_dir) from None
    try:
        return schema_facts(con, db_file, backup_dir)
    except sqlite3.DatabaseError as exc:
        if wal.exists():  # someone opened it meanwhile; read it properly once open
            return None
        raise _refuse(db_file, f"cannot be read as a database ({exc})", backup_dir) from None
    finally:
        con.close()


def integrity_problems(con: sqlite3.Connection, limit: int = 20) -> list[str]:
    """SQLite's full ``PRAGMA integrity_check`` (reads every page): its findings, empty when ok."""
    rows = con.execute(f"PRAGMA integrity_check({int(limit)})").fetchall()
    return [] if rows == [("ok",)] else [str(r[0]) for r in rows]


def _too_new(db_file: Path, version: int, supported: int) -> DatabaseTooNewError:
    return DatabaseTooNewError(
        f"{db_file} was made by a newer version of campaign_app (schema {version}; this is version "
        f"{__version__}, schema {supported}). Please update campaign_app. The file was left untouched.")


# ------------------------------------------------------------------------------------------------- open

def init_db(path: str | os.PathLike[str], backup_dir: str | os.PathLike[str] | None = None, *,
            busy_timeout: float | None = None, daily_backup: bool = True,
            password: str | None = None, reading: bool = False) -> CampaignDatabase | ServerDatabase:
    """Open (creating if needed) the database at ``path``, migrate it, bind the models to it. ``path`` may be a
    ``postgresql://`` URL (:mod:`.server`; ``password`` is then used if the URL and libpq have none).

    With ``reading`` (a command that only reads), an existing, current file whose folder or file cannot be
    written, or whose disk is full, is opened read-only (``immutable`` when no ``-wal`` is in use), so that
    nothing is created beside it and the read succeeds."""
    from . import backups

    if is_server_url(path):
        return _init_server(clean_target(path), busy_timeout=busy_timeout_setting(busy_timeout), password=password)
    db_file = Path(path)
    bdir = Path(backup_dir) if backup_dir else db_file.parent / "backups"
    timeout = busy_timeout_setting(busy_timeout)
    migrations = available_migrations()
    supported = len(migrations)
    with contextlib.suppress(OSError):  # copies a killed program left half-written (issue 23)
        backups.remove_stale_parts(bdir)
    existed = db_file.exists()
    read_only: str | None = None
    if existed:
        version = inspect_file(db_file, bdir)
        if version is not None and version > supported:
            raise _too_new(db_file, version, supported)
        if reading and version in (None, supported):
            read_only = read_only_mode(db_file)
    close_db()
    if read_only is not None:
        return _open_read_only(db_file, bdir, timeout, read_only, daily_backup)
    with translated(db_file):
        db_file.parent.mkdir(parents=True, exist_ok=True)
    database = CampaignDatabase(str(db_file), timeout, bdir)
    database_proxy.initialize(database)
    database.connect(reuse_if_open=True)
    try:
        with translated(db_file):
            version = schema_facts(database.connection(), db_file, bdir)
    except (DatabaseError, StoreProblem):
        database.close()
        raise
    if version > supported:
        database.close()
        raise _too_new(db_file, version, supported)
    pending = [m for m in migrations if m.number > version]
    made: Path | None = None
    if pending and existed:
        # a full integrity check of the copy, then the upgrade; a damaged file is not upgraded
        made = backups.make_backup(database, db_file, bdir, reason="upgrade")
    if pending:
        try:
            _migrate(database, pending, version, db_file)
        except Exception as exc:
            database.close()
            if made is None:
                raise
            backups.copy_database(made, db_file)
            raise MigrationFailedError(
                f"upgrading {db_file} to schema {supported} failed ({exc}); the file was put back as it was "
                f"from the backup {made} made just before") from exc
    _ensure_identity(database)
    _journal_budget(database)
    if not pending and daily_backup:
        problems: list[str] = []
        backups.daily_backup(database, db_file, bdir, problems=problems)
        database.backup_problem = problems[0] if problems else None
    return database


def read_only_mode(db_file: Path) -> str | None:
    """How a reading command opens ``db_file``: ``None`` (as usual) when the file and its folder can be written
    and the disk has room; else ``"immutable"`` (nothing is created or locked: no ``-wal`` is in use), or
    ``"ro"`` when a ``-wal`` holds changes that must be read (through its index)."""
    folder = db_file.parent
    constrained = (_read_only_folder(folder) or not os.access(db_file, os.W_OK) or _disk_full(folder))
    if not constrained:
        return None
    wal = wal_path(db_file)
    try:
        in_use = wal.exists() and wal.stat().st_size > 0
    except OSError:
        in_use = True
    return "ro" if in_use else "immutable"


def _open_read_only(db_file: Path, bdir: Path, timeout: float, mode: str,
                    daily_backup: bool) -> CampaignDatabase:
    from . import backups

    database = CampaignDatabase(str(db_file), timeout, bdir, read_only=mode)
    database_proxy.initialize(database)
    try:
        database.connect(reuse_if_open=True)
        with translated(db_file):
            version = schema_facts(database.connection(), db_file, bdir)
    except (DatabaseError, StoreProblem):
        database.close()
        raise
    if version != schema_version_supported():  # pragma: no cover - read before, changed meanwhile
        database.close()
        raise DatabaseError(f"{db_file} changed while it was being opened; try again")
    if daily_backup:
        problems: list[str] = []
        backups.daily_backup(database, db_file, bdir, problems=problems)
        database.backup_problem = problems[0] if problems else None
    return database


def _journal_budget(database: CampaignDatabase) -> None:
    """Issue 23: the journal's lighter triggers on an older file, and folding what is beyond its budget (see
    :mod:`.journal_budget`). Never in the way of opening: a busy or damaged file is left for the next time."""
    from . import journal_budget
    from .damage import damage_of

    if damage_of(database.db_file) is not None:
        return
    try:
        journal_budget.ensure_triggers(database)
        journal_budget.fold_if_due()
    except (StoreProblem, CampaignError) as exc:
        log.warning("the journal of %s was not compacted: %s", database.db_file, exc)


def _ensure_identity(database: CampaignDatabase) -> None:
    """Give the file its random identity (``application_id``, see :mod:`.walcheck`) if it has none yet."""
    import secrets

    with translated(database.db_file):
        if int(database.execute_sql("PRAGMA application_id").fetchone()[0]):
            return
        from .damage import damage_of

        if damage_of(database.db_file) is not None:
            return
        with database.atomic():
            database.execute_sql(f"PRAGMA application_id = {secrets.randbelow(0x7FFFFFFE) + 1}")


def _init_server(url: str, *, busy_timeout: float, password: str | None) -> ServerDatabase:
    """Open a campaign database on a PostgreSQL server, building or upgrading its schema if needed."""
    close_db()
    database = ServerDatabase(url, password=password, busy_timeout=busy_timeout)
    database.connect()
    database_proxy.initialize(database)
    supported = schema_version_supported()
    try:
        version = server_schema_version(database)
        if version > supported:
            raise DatabaseTooNewError(
                f"the campaign database {database.where} was made by a newer version of campaign_app (schema "
                f"{version}; this is version {__version__}, schema {supported}). Please update campaign_app.")
        if version < supported:
            _migrate_server(database, supported)
    except BaseException:
        database.close()
        database_proxy.initialize(None)
        raise
    return database


def server_schema_version(database: ServerDatabase) -> int:
    """The applied schema version of a server database (0 for an empty one); refuses a database that holds
    other tables."""
    has = database.execute_sql("SELECT to_regclass('schema_migration') IS NOT NULL").fetchone()[0]
    if not has:
        other = database.execute_sql("SELECT count(*) FROM pg_catalog.pg_tables "
                                     "WHERE schemaname = current_schema()").fetchone()[0]
        if other:
            raise DatabaseOpenError(f"the database {database.where} holds other tables, so it is not a campaign "
                                    "database; it was left untouched (use an empty database for a campaign)")
        return 0
    return int(database.execute_sql("SELECT COALESCE(MAX(number), 0) FROM schema_migration").fetchone()[0])


def _migrate_server(database: ServerDatabase, supported: int) -> None:
    """Build (baseline at schema 4) or upgrade a server database in one transaction, holding the writers' lock
    so that two programs opening a new database at once do not both build it."""
    from playhouse.migrate import PostgresqlMigrator

    from . import journal

    migrator = PostgresqlMigrator(database)
    with database.atomic():
        database.lock_schema()
        version = server_schema_version(database)
        if version == 0:
            baseline = Migration(0, "postgresql", migrations_dir() / "postgresql_0004.py").load()
            baseline.migrate(migrator, database)
            for mig in available_migrations()[:baseline.VERSION]:
                SchemaMigration.create(number=mig.number, name=mig.name, app_version=__version__)
            version = baseline.VERSION
        for mig in available_migrations():
            if mig.number <= version:
                continue
            with journal.recording_off(database):
                mig.load().migrate(migrator, database)
            SchemaMigration.create(number=mig.number, name=mig.name, app_version=__version__)
            log.info("applied migration %04d_%s to %s", mig.number, mig.name, database.where)


def _migrate(database: CampaignDatabase, pending: list[Migration], version: int, db_file: Path) -> None:
    from playhouse.migrate import SqliteMigrator  # only when migrating (~30 ms of imports at every start)

    migrator = SqliteMigrator(database)
    if version == 0:
        with database.atomic():
            database.create_tables([SchemaMigration], safe=True)
    for mig in pending:
        module = mig.load()
        fk_off = bool(getattr(module, "FOREIGN_KEYS_OFF", False))
        if fk_off:
            _set_foreign_keys(database, False)
        try:
            with database.atomic():
                # another program may have applied it while we waited for the write lock
                if SchemaMigration.get_or_none(SchemaMigration.number == mig.number) is not None:
                    continue
                from . import journal

                if journal.has_journal(database):  # converting stored rows is not a user's change
                    with journal.recording_off(database):
                        module.migrate(migrator, database)
                else:
                    module.migrate(migrator, database)
                SchemaMigration.create(number=mig.number, name=mig.name, app_version=__version__)
                bad = database.execute_sql("PRAGMA foreign_key_check").fetchall()
                if bad:
                    raise DatabaseError(f"migration {mig.number:04d} left broken references: {bad[:3]}")
        finally:
            if fk_off:
                _set_foreign_keys(database, True)
        log.info("applied migration %04d_%s to %s", mig.number, mig.name, db_file)


def _set_foreign_keys(database: CampaignDatabase, on: bool) -> None:
    """Switch foreign key enforcement (a migration that rebuilds tables declares ``FOREIGN_KEYS_OFF = True``,
    the first step of SQLite's documented table rebuild). SQLite ignores the pragma inside a transaction, so it
    is set between transactions and read back."""
    database.execute_sql(f"PRAGMA foreign_keys={1 if on else 0}")
    if bool(database.execute_sql("PRAGMA foreign_keys").fetchone()[0]) != on:  # pragma: no cover - in a transaction
        raise DatabaseError(f"cannot switch foreign keys {'on' if on else 'off'} for a migration")


def current_db() -> CampaignDatabase | None:
    """The open campaign *file* (``None`` when none is open, or when the campaign is on a server)."""
    obj = database_proxy.obj
    return obj if isinstance(obj, CampaignDatabase) else None


def close_db() -> None:
    current = database_proxy.obj
    if current is not None and not current.is_closed():
        current.close()


# ------------------------------------------------------------------------------------------------ check

@dataclass
class CheckReport:
    db_file: str
    problems: list[str] = field(default_factory=list)
    facts: dict[str, object] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, object]:
        return {"file": self.db_file, "ok": self.ok, "problems": list(self.problems), **self.facts}

    def text(self) -> str:
        """The report in the user's words (no table or column names)."""
        lines = [f"Database: {self.db_file}"]
        if "schema_version" in self.facts:
            lines.append(f"  Format version: {self.facts['schema_version']} "
                         f"(this app reads up to {self.facts.get('schema_supported')})")
        if self.counts:
            shown = [_counted(n, table) for table, n in self.counts.items() if n and table in _ROW_WORDS]
            lines.append(f"  Contents: {', '.join(shown) if shown else 'empty'}")
        if self.ok:
            lines.append("Result: OK, no problems found.")
        else:
            n = len(self.problems)
            lines.append(f"Result: {n} {'problem' if n == 1 else 'problems'}:")
            lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


_ROW_WORDS: dict[str, tuple[str, str]] = {
    "campaign": ("campaign", "campaigns"), "platoon": ("platoon", "platoons"), "battle": ("battle", "battles"),
    "leader": ("leader", "leaders"), "attached_unit": ("attached unit", "attached units"),
    "equipment": ("heavy weapon", "heavy weapons"), "roll": ("roll", "rolls"),
    "sologear_sheet": ("Sologear sheet", "Sologear sheets"), "sologear_turn": ("Sologear turn", "Sologear turns"),
}


def _counted(n: int, table: str) -> str:
    one, many = _ROW_WORDS[table]
    return f"{n} {one if n == 1 else many}"


def check_connection(con: sqlite3.Connection, db_file: str) -> CheckReport:
    """Integrity check over a plain sqlite3 connection (read-only is enough): SQLite's own full check, the
    foreign keys, and the app's invariants. Used by :func:`check_database` and the GUI's background check."""
    report = CheckReport(db_file=db_file)
    try:
        report.problems += [f"integrity: {p}" for p in integrity_problems(con)]
    except sqlite3.DatabaseError as exc:
        report.problems.append(f"integrity: {exc}")
        return report
    try:
        for table, rowid, parent, _fk in con.execute("PRAGMA foreign_key_check").fetchall():
            report.problems.append(f"row {rowid} of {table} points to a missing {parent}")
        columns = {t: {r[1] for r in con.execute(f'PRAGMA table_info("{t}")')}
                   for t in ("campaign", "platoon", "attached_unit")}
        check_invariants(lambda sql: con.execute(sql).fetchall(), report, columns)
    except sqlite3.DatabaseError as exc:
        report.problems.append(f"cannot read the tables: {exc}")
    return report


def check_invariants(rows: Callable[[str], list[Any]], report: CheckReport,
                     columns: dict[str, set[str]]) -> None:
    """The app's own invariants, on either engine (``rows(sql)`` runs a query; ``columns`` are the name
    tables' columns, to tell schemas before 4)."""
    version = rows("SELECT count(*) FROM schema_migration")[0][0]
    report.facts["schema_version"] = version
    report.facts["schema_supported"] = schema_version_supported()
    counts = {}
    for m in MODELS:
        if m is SchemaMigration:
            continue
        table = m._meta.table_name
        counts[table] = int(rows(f'SELECT count(*) FROM "{table}"')[0][0])
    report.facts["rows"] = ", ".join(f"{k} {v}" for k, v in counts.items() if v) or "none"
    report.counts = counts
    for (platoon_id, name, n) in rows(
            "SELECT p.id, p.name, count(l.id) FROM platoon p JOIN leader l ON l.platoon_id = p.id "
            "AND l.status = 'active' GROUP BY p.id, p.name HAVING count(l.id) > 1"):
        report.problems.append(f"platoon {name!r} (id {platoon_id}) has {n} active leaders")
    for (name, n_battles, top) in rows(
            "SELECT p.name, count(b.id), max(b.number) FROM platoon p JOIN battle b ON b.platoon_id = p.id "
            "GROUP BY p.id, p.name HAVING count(b.id) != max(b.number)"):
        report.problems.append(f"platoon {name!r}: battle numbers have gaps ({n_battles} battles, "
                               f"highest number {top})")
    for (name, xp, after) in rows(
            "SELECT p.name, p.xp, x.xp_after FROM platoon p JOIN xp_change x ON x.id = "
            "(SELECT max(id) FROM xp_change WHERE platoon_id = p.id AND who = 'platoon') "
            "WHERE p.xp != x.xp_after"):
        report.problems.append(f"platoon {name!r}: XP is {xp} but its last XP change says {after}")
    for table, what in (("campaign", "campaign"), ("platoon", "platoon"), ("attached_unit", "attached unit")):
        if "name_key" not in columns.get(table, set()):
            continue  # a schema before 4 (read-only check of an old file)
        for row_id, name, key in rows(f'SELECT id, name, name_key FROM "{table}"'):
            if key != name_key(name):
                report.problems.append(f"{what} {name!r} (id {row_id}) has a stale name key (written by another "
                                       "program?); names may not be found or kept apart")


def check_server(database: ServerDatabase) -> CheckReport:
    """The check of a server database: the app's invariants (the server looks after its own pages and
    enforces the foreign keys itself)."""
    report = CheckReport(db_file=database.where)

    def rows(sql: str) -> list[Any]:
        return list(database.execute_sql(sql).fetchall())

    columns = {t: {c for c, _ in _server_columns(database, t)} for t in ("campaign", "platoon", "attached_unit")}
    check_invariants(rows, report, columns)
    from .club_server import rules_problems

    report.problems.extend(rules_problems(database))
    return report


def _server_columns(database: ServerDatabase, table: str) -> list[tuple[str, str]]:
    from .journal import _columns

    return _columns(database, table)


def check_database(database: Engine) -> CheckReport:
    """The integrity check of an open database, file or server (:meth:`.opened.Engine.check`)."""
    return database.check()


def check_open_file(database: CampaignDatabase) -> CheckReport:
    """The file engine's check: SQLite's own checks plus the app's invariants."""
    db_file = database.db_file
    with translated(db_file):
        report = check_connection(database.connection(), str(db_file))
    _record_damage(db_file, report)
    return report


def _record_damage(db_file: Path, report: CheckReport) -> None:
    """Damage SQLite's own check found marks the file damaged (writes refused, :mod:`.damage`); a clean check
    lifts an old mark."""
    from .damage import record_check

    record_check(db_file, [p for p in report.problems if p.startswith(("integrity:", "cannot read the tables"))])


def check_file(db_file: str | os.PathLike[str]) -> CheckReport:
    """The same check over a separate read-only connection (for a background thread)."""
    path = Path(db_file)
    con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
    try:
        with translated(path):
            report = check_connection(con, str(path))
    finally:
        con.close()
    _record_damage(path, report)
    return report
