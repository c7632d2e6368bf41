"""Backups of the database file: made with SQLite's backup API (WAL-safe: what is still in the -wal file is
included), checked with a full ``integrity_check``, written under a temporary name and renamed, so a backup in
the folder is always whole.

Names are ``<db stem>-<YYYYmmdd-HHMMSS-ffffff>-<reason>.db`` in the backup folder; reasons are ``upgrade``
(before a schema upgrade), ``restore``, ``import``, ``delete`` (before a campaign deletion), ``daily`` (first
open of a day) and ``manual`` (``campaign-cli backup``). Older names without a reason count as ``upgrade``.

Rotation keeps the newest 14 ``daily`` backups and the newest 20 of the other reasons, and never deletes the
newest good backup of each schema version.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import logging
import os
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import StorageIOError, StoreProblem
from .check import integrity_problems
from .errors import DatabaseError, DatabaseOpenError
from .file_checks import read_header, schema_facts, wal_path
from .file_engine import LOW_SPACE_BYTES, CampaignDatabase, busy_timeout_setting, free_bytes, store_problem, translated

log = logging.getLogger(__name__)

REASONS: tuple[str, ...] = ("upgrade", "restore", "import", "delete", "daily", "manual")
KEEP_DAILY = 14
KEEP_OTHER = 20
_NAME = re.compile(r"^(?P<stem>.+)-(?P<stamp>\d{8}-\d{6}-\d{6})(?:-(?P<reason>[a-z]+))?\.db$")


@dataclass(frozen=True)
class BackupInfo:
    path: Path
    time: _dt.datetime
    reason: str
    size: int
    schema_version: int | None = None
    campaigns: int | None = None
    battles: int | None = None
    good: bool = False
    problem: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "time": self.time.isoformat(timespec="seconds"),
            "reason": self.reason,
            "size": self.size,
            "campaigns": self.campaigns,
            "battles": self.battles,
            "schema_version": self.schema_version,
            "good": self.good,
            "problem": self.problem,
        }


def _parse(path: Path, stem: str) -> tuple[_dt.datetime, str] | None:
    m = _NAME.match(path.name)
    if not m or m.group("stem") != stem:
        return None
    try:
        when = _dt.datetime.strptime(m.group("stamp"), "%Y%m%d-%H%M%S-%f")
    except ValueError:
        return None
    return when, m.group("reason") or "upgrade"


def _candidates(backup_dir: Path | None, db_file: Path) -> list[tuple[Path, _dt.datetime, str]]:
    """Backup files of ``db_file`` by name, newest first (nothing is opened)."""
    if backup_dir is None or not backup_dir.is_dir():
        return []
    found = []
    for path in backup_dir.glob(f"{glob_escape(db_file.stem)}-*.db"):
        parsed = _parse(path, db_file.stem)
        if parsed and path.is_file():
            found.append((path, *parsed))
    found.sort(key=lambda item: item[1], reverse=True)
    return found


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


def describe(path: Path, when: _dt.datetime, reason: str) -> BackupInfo:
    """Read a backup's facts (read-only, creates nothing): schema version, campaigns, battles, good or not
    (good: whole by its header and readable as a campaign_app database)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return BackupInfo(path, when, reason, 0, problem=str(exc.strerror or exc))
    try:
        read_header(path)
        con = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            version = schema_facts(con, path, None)
            if version == 0:
                raise DatabaseOpenError("holds no campaign_app tables")
            campaigns = con.execute("SELECT count(*) FROM campaign").fetchone()[0]
            battles = con.execute("SELECT count(*) FROM battle").fetchone()[0]
        finally:
            con.close()
    except (DatabaseError, sqlite3.Error) as exc:
        return BackupInfo(path, when, reason, size, problem=str(exc))
    return BackupInfo(path, when, reason, size, version, campaigns, battles, True)


def list_backups(backup_dir: Path | None, db_file: Path) -> list[BackupInfo]:
    """Every backup of ``db_file`` with its facts, newest first."""
    return [describe(*item) for item in _candidates(backup_dir, db_file)]


def newest_good_backup(backup_dir: Path | None, db_file: Path) -> Path | None:
    for item in _candidates(backup_dir, db_file):
        if describe(*item).good:
            return item[0]
    return None


def _new_name(db_file: Path, backup_dir: Path, reason: str) -> Path:
    when = _dt.datetime.now()
    while True:
        target = backup_dir / f"{db_file.stem}-{when:%Y%m%d-%H%M%S-%f}-{reason}.db"
        if not target.exists():
            return target
        when += _dt.timedelta(microseconds=1)


def make_backup(
    source: CampaignDatabase | Path, db_file: Path, backup_dir: Path, reason: str, check: bool = True
) -> Path:
    """Copy the database (the open ``CampaignDatabase`` or a file) to a new backup. With ``check``, the copy
    gets a full integrity check first: a damaged database is not backed up (DatabaseOpenError)."""
    if reason not in REASONS:
        raise ValueError(f"unknown backup reason {reason!r}")
    with _copy_problems(db_file, backup_dir):
        return _make_backup(source, db_file, backup_dir, reason, check)


@contextlib.contextmanager
def _copy_problems(db_file: Path, backup_dir: Path) -> Iterator[None]:
    """A full disk or a read-only folder while a backup is made is the backup copy's problem, not the
    database's: the message names the backup folder (not "campaign.db cannot grow": the database is not what is
    full)."""
    from ..errors import DiskFullError, ReadOnlyError

    try:
        yield
    except DiskFullError as exc:
        raise DiskFullError(
            f"disk full: the backup copy of {db_file} cannot be written in {backup_dir}; "
            "the database itself was not changed (free some space and try again)"
        ) from exc
    except ReadOnlyError as exc:
        if not _writable(backup_dir):
            raise ReadOnlyError(
                f"the backup copy of {db_file} cannot be written: the folder {backup_dir} is "
                "read-only; the database itself was not changed"
            ) from exc
        raise


def _writable(folder: Path) -> bool:
    probe = folder if folder.is_dir() else folder.parent
    try:
        return os.access(probe, os.W_OK) and not os.statvfs(probe).f_flag & os.ST_RDONLY
    except OSError:
        return False


def _make_backup(source: CampaignDatabase | Path, db_file: Path, backup_dir: Path, reason: str, check: bool) -> Path:
    with translated(backup_dir):
        backup_dir.mkdir(parents=True, exist_ok=True)
        target = _new_name(db_file, backup_dir, reason)
        fd, tmp_name = tempfile.mkstemp(prefix=_part_prefix(target), suffix=".part", dir=backup_dir)
        os.close(fd)
    tmp = Path(tmp_name)
    try:
        own = not isinstance(source, CampaignDatabase)
        with translated(db_file):
            src = (
                source.connection()
                if isinstance(source, CampaignDatabase)
                else sqlite3.connect(f"{Path(source).as_uri()}?mode=ro", uri=True, timeout=busy_timeout_setting())
            )
        try:
            with translated(tmp):
                dst = sqlite3.connect(tmp)
            try:
                with translated(db_file):
                    sqlite_backup(src, dst, busy_timeout_setting(getattr(source, "busy_timeout", None)))
                with translated(tmp):
                    dst.execute("PRAGMA journal_mode=DELETE")  # a standalone file: no -wal/-shm when read
                problems = _problems(dst) if check else []
            finally:
                dst.close()
        finally:
            if own:
                src.close()
        if problems:
            from .damage import mark_damaged
            from .file_checks import _hint

            mark_damaged(db_file, [f"integrity: {p}" for p in problems])

            raise DatabaseOpenError(
                f"{db_file} is damaged (integrity check: {'; '.join(problems[:3])}), so it "
                f"was not backed up and was left untouched. {_hint(backup_dir, db_file)}"
            )
        with translated(target):
            os.replace(tmp, target)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    log.info("backed up %s to %s (%s)", db_file, target, reason)
    rotate(backup_dir, db_file)
    return target


def _problems(con: sqlite3.Connection) -> list[str]:
    try:
        return integrity_problems(con)
    except sqlite3.DatabaseError as exc:
        if store_problem(exc, None) is not None and not isinstance(store_problem(exc, None), StorageIOError):
            raise
        return [str(exc)]


def rotate(backup_dir: Path, db_file: Path, keep_daily: int = KEEP_DAILY, keep_other: int = KEEP_OTHER) -> list[Path]:
    """Delete old backups: keep the newest ``keep_daily`` daily ones and ``keep_other`` others, and always the
    newest good backup of each schema version. Returns the deleted files."""
    remove_stale_parts(backup_dir)
    infos = list_backups(backup_dir, db_file)
    protected: set[Path] = set()
    seen_versions: set[int] = set()
    for info in infos:  # newest first
        if info.good and info.schema_version is not None and info.schema_version not in seen_versions:
            seen_versions.add(info.schema_version)
            protected.add(info.path)
    deleted = []
    daily = [i for i in infos if i.reason == "daily"]
    other = [i for i in infos if i.reason != "daily"]
    for info in daily[keep_daily:] + other[keep_other:]:
        if info.path in protected:
            continue
        with contextlib.suppress(OSError):
            info.path.unlink()
            deleted.append(info.path)
    return deleted


def room_for_backup(db_file: Path, backup_dir: Path) -> bool:
    """Whether a copy of ``db_file`` still leaves room to write: the automatic daily backup is skipped when it
    would leave less than the database's own size (plus a margin) free, so it is never what fills the disk."""
    folder = backup_dir if backup_dir.is_dir() else backup_dir.parent
    free = free_bytes(folder)
    if free is None:
        return True
    try:
        size = db_file.stat().st_size + (wal_path(db_file).stat().st_size if wal_path(db_file).exists() else 0)
    except OSError:
        return True
    return free - size >= size + 4 * LOW_SPACE_BYTES


def has_daily_backup_today(backup_dir: Path, db_file: Path) -> bool:
    today = _dt.date.today()
    return any(reason == "daily" and when.date() == today for _p, when, reason in _candidates(backup_dir, db_file))


def daily_backup(
    database: CampaignDatabase | Path,
    db_file: Path,
    backup_dir: Path,
    check: bool = True,
    problems: list[str] | None = None,
) -> Path | None:
    """The first open of a day backs the database up (when it holds a campaign). ``database`` is the open
    database or, from a background thread, the file (read through its own connection). A failure is logged,
    not raised: the user's work goes on; its one-line reason is added to ``problems`` so that the caller tells
    the user (a warning line in the CLI, a dialog in the window)."""
    if has_daily_backup_today(backup_dir, db_file):
        return None
    from .damage import damage_of

    damaged = damage_of(db_file)
    if damaged is not None:  # known damaged: not checked again at every start, but the user is told
        if problems is not None:
            problems.append(f"today's backup of {db_file} was not made: the file is damaged ({damaged})")
        return None
    try:
        if isinstance(database, CampaignDatabase):
            with translated(db_file):
                has_data = database.execute_sql("SELECT 1 FROM campaign LIMIT 1").fetchone() is not None
        else:
            with translated(db_file):
                con = sqlite3.connect(f"{Path(database).as_uri()}?mode=ro", uri=True, timeout=5)
                try:
                    has_data = con.execute("SELECT 1 FROM campaign LIMIT 1").fetchone() is not None
                finally:
                    con.close()
        if not has_data:
            return None
        if not room_for_backup(db_file, backup_dir):
            why = (
                f"too little free space in {backup_dir} (a copy would leave no room for your own changes); "
                "free some space"
            )
            log.warning("daily backup of %s not made: %s", db_file, why)
            if problems is not None:
                problems.append(f"today's backup of {db_file} was not made: {why}")
            return None
        return make_backup(database, db_file, backup_dir, "daily", check=check)
    except (StoreProblem, DatabaseError, sqlite3.Error) as exc:
        log.warning("daily backup of %s not made: %s", db_file, exc)
        if problems is not None:
            problems.append(f"today's backup of {db_file} was not made: {exc}")
        return None


def _part_prefix(target: Path) -> str:
    """A backup is written as ``.<name>.pid<N>.<random>.part`` and renamed when whole: the process id tells a
    copy still being written by a live program from one a killed program left behind."""
    return f".{target.name}.pid{os.getpid()}."


_PART_PID = re.compile(r"\.pid(\d+)\.[^.]*\.part$")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def remove_stale_parts(backup_dir: Path, max_age_s: float = 3600) -> int:
    """Temporary files of backups interrupted by a crash are removed: at once when the program that wrote them
    is gone, else once older than an hour (and a name without a process id, from an older version, too)."""
    import time

    removed = 0
    if not backup_dir.is_dir():
        return 0
    for part in backup_dir.glob(".*.db.*.part"):
        with contextlib.suppress(OSError):
            m = _PART_PID.search(part.name)
            if (m is not None and not _alive(int(m.group(1)))) or time.time() - part.stat().st_mtime > max_age_s:
                part.unlink()
                removed += 1
    return removed


def sqlite_backup(src: sqlite3.Connection, dst: sqlite3.Connection, busy_timeout: float) -> None:
    """``src.backup(dst)`` that gives up once another program has kept a database locked for longer than
    ``busy_timeout`` seconds (Python's backup loop alone retries a busy step forever)."""
    import time

    from ..errors import BUSY_MESSAGE, DatabaseBusyError

    deadline: list[float] = []

    def progress(status: int, _remaining: int, _total: int) -> None:
        if status not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            deadline.clear()
            return
        now = time.monotonic()
        if not deadline:
            deadline.append(now + busy_timeout)
        elif now >= deadline[0]:
            raise DatabaseBusyError(BUSY_MESSAGE)

    src.backup(dst, progress=progress, sleep=0.05)


def copy_database(
    source: Path, db_file: Path, into: sqlite3.Connection | None = None, busy_timeout: float | None = None
) -> None:
    """Put the content of the database file ``source`` into ``db_file`` (SQLite's backup API, under the write
    lock: other programs see the old or the new content, never a mix). Waits up to the busy timeout for
    another writer, then refuses (DatabaseBusyError, nothing changed)."""
    timeout = busy_timeout_setting(busy_timeout)
    with translated(source):
        src = sqlite3.connect(f"{source.as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        own = into is None
        with translated(db_file):
            dst = into or sqlite3.connect(db_file, timeout=timeout)
            try:
                sqlite_backup(src, dst, timeout)
                dst.execute("PRAGMA journal_mode=WAL")
                dst.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the restored file stands alone at once
            finally:
                if own:
                    dst.close()
    finally:
        src.close()


def raw_copy(db_file: Path, backup_dir: Path, reason: str) -> Path:
    """A plain file copy (for a database SQLite cannot read whole any more)."""
    with translated(backup_dir):
        backup_dir.mkdir(parents=True, exist_ok=True)
        target = _new_name(db_file, backup_dir, reason)
        fd, tmp_name = tempfile.mkstemp(prefix=_part_prefix(target), suffix=".part", dir=backup_dir)
        os.close(fd)
        try:
            shutil.copyfile(db_file, tmp_name)
            os.replace(tmp_name, target)  # a copy in the folder is always whole
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
    return target
