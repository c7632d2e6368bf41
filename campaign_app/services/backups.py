"""Backups and restore of the open database (``campaign-cli backup|restore``, File ▸ Backups…).

The work is done by :mod:`campaign_app.store.backups`; this module finds the open database and its backup
folder and gives typed results (:class:`Backup`, :class:`RestorableFile`, :class:`Restored`).
"""

from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..store import close_db, init_db
from ..store.backups import (
    BackupInfo,
    copy_database,
    describe,
    list_backups,
    make_backup,
    raw_copy,
)
from ..store.check import integrity_problems
from ..store.errors import DatabaseOpenError
from ..store.file_checks import _refuse, _too_new, read_header, schema_facts
from ..store.file_engine import CampaignDatabase, translated
from ..store.migrate import schema_version_supported
from ..store.opened import Capability, current, require
from .common import ServiceError, StoreProblem
from .results import Result


class _FileFacts(Result):
    """JSON of file facts: paths as text, times as ISO text to the second."""

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for key, value in out.items():
            if isinstance(value, Path):
                out[key] = str(value)
            elif isinstance(value, _dt.datetime):
                out[key] = value.isoformat(timespec="seconds")
        return out


@dataclass(frozen=True)
class Backup(_FileFacts):
    """A backup file: when and why it was made, its size, and (``good``: it opens and is whole) how many
    campaigns and battles it holds, else what is wrong with it (``problem``)."""

    file: Path
    time: _dt.datetime
    reason: str
    size: int
    campaigns: int | None
    battles: int | None
    schema_version: int | None
    good: bool
    problem: str | None

    @classmethod
    def of(cls, info: BackupInfo) -> Backup:
        return cls(
            file=info.path,
            time=info.time,
            reason=info.reason,
            size=info.size,
            campaigns=info.campaigns,
            battles=info.battles,
            schema_version=info.schema_version,
            good=info.good,
            problem=info.problem,
        )


@dataclass(frozen=True)
class RestorableFile(_FileFacts):
    """A file that passed the checks before a restore: its schema version and what it holds."""

    file: Path
    schema_version: int
    campaigns: int
    battles: int


@dataclass(frozen=True)
class Restored(_FileFacts):
    """A restore done: from which file, into which database, where the previous content was saved, and what
    the restored database holds."""

    restored_from: Path
    database: Path
    previous_saved_as: Path
    schema_version: int
    campaigns: int
    battles: int


def _db() -> CampaignDatabase:
    database = require().file(
        "the campaigns are on a database server: backups and restores here are of a "
        "campaign file; back the server's database up on the server"
    )
    if database.is_closed():
        raise ServiceError("no database is open")
    return database


def backup_now(reason: str = "manual") -> Backup:
    """A backup of the open database now; returns its facts (file, time, reason, size, campaigns, battles)."""
    database = _db()
    path = make_backup(database, database.db_file, database.backup_dir, reason)
    return _info(path)


def backup_before(reason: str) -> Path | None:
    """The automatic backup before a risky change (import, campaign deletion): made when the database holds
    a campaign. A damaged database refuses (DatabaseOpenError): nothing is changed then."""
    opened = current()
    if opened is None or not opened.can(Capability.BACKUP) or opened.engine.is_closed():
        return None
    database = opened.file("a campaign on a server is backed up on the server")
    with translated(database.db_file):
        if database.execute_sql("SELECT 1 FROM campaign LIMIT 1").fetchone() is None:
            return None
    return make_backup(database, database.db_file, database.backup_dir, reason)


def _info(path: Path) -> Backup:
    from ..store.backups import _parse

    parsed = _parse(path, path.name.rsplit("-", 4)[0]) if path.name.count("-") >= 4 else None
    if parsed is None:
        import datetime as _dt

        parsed = (_dt.datetime.fromtimestamp(path.stat().st_mtime), "manual")
    return Backup.of(describe(path, *parsed))


def backups() -> list[Backup]:
    """The backups of the open database, newest first."""
    database = _db()
    return [Backup.of(info) for info in list_backups(database.backup_dir, database.db_file)]


def check_restorable(source: str | os.PathLike[str]) -> RestorableFile:
    """Read-only checks of a file to restore: whole, undamaged (full integrity check), a campaign_app database
    of a schema this version knows. Returns its facts; refuses with a message naming the file."""
    from .. import fileio

    path = fileio.check_path(source)
    if not path.exists():
        raise ServiceError(f"{path} does not exist")
    if not path.is_file():
        raise ServiceError(f"{path} is not a file")
    opened = current()
    if opened is not None and opened.can(Capability.BACKUP) and path.resolve() == Path(opened.where).resolve():
        raise ServiceError(f"{path} is the open database itself; choose a backup")
    backup_dir = None  # a refusal names this file only (a hint would name backups of the open database)
    read_header(path, backup_dir)
    import sqlite3

    try:
        con = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error as exc:
        raise _refuse(path, f"cannot be read ({exc})", backup_dir) from None
    try:
        try:
            problems = integrity_problems(con)
        except sqlite3.DatabaseError as exc:
            problems = [str(exc)]
        if problems:
            raise _refuse(path, f"is damaged (integrity check: {'; '.join(problems[:3])})", backup_dir)
        try:
            version = schema_facts(con, path, backup_dir)
            if version == 0:
                raise _refuse(path, "holds no campaign_app data", backup_dir)
            campaigns = con.execute("SELECT count(*) FROM campaign").fetchone()[0]
            battles = con.execute("SELECT count(*) FROM battle").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise _refuse(path, f"cannot be read as a campaign database ({exc})", backup_dir) from None
    finally:
        con.close()
    if version > schema_version_supported():
        raise _too_new(path, version, schema_version_supported())
    return RestorableFile(file=path, schema_version=version, campaigns=campaigns, battles=battles)


def restore_unopened(
    db_file: Path, backup_dir: Path, source: str | os.PathLike[str], busy_timeout: float | None = None
) -> Restored:
    """Restore a database that cannot be opened because a ``-wal`` file beside it is not its own
    (:class:`~campaign_app.store.errors.ForeignWalError`): the file's bytes are saved in the backup folder
    (reason ``restore``) with the ``-wal`` moved beside that copy (``…-restore.db-wal``), then ``source`` is
    copied in and opened."""
    from ..store.file_checks import wal_path

    facts = check_restorable(source)
    db_file = Path(db_file)
    saved = raw_copy(db_file, backup_dir, "restore")
    wal = wal_path(db_file)
    with translated(wal):
        os.replace(wal, saved.with_name(saved.name + "-wal"))
        shm = db_file.with_name(db_file.name + "-shm")
        if shm.exists():
            shm.unlink()  # the index of the -wal just moved away; SQLite makes a new one
    copy_database(facts.file, db_file, busy_timeout=busy_timeout)
    close_db()
    init_db(db_file, backup_dir, busy_timeout=busy_timeout, daily_backup=False)
    _clear_damage(db_file)
    return Restored(
        restored_from=facts.file,
        database=db_file,
        previous_saved_as=saved,
        schema_version=facts.schema_version,
        campaigns=facts.campaigns,
        battles=facts.battles,
    )


def _clear_damage(db_file: Path) -> None:
    from ..store.damage import clear_damaged

    clear_damaged(db_file)


def restore(source: str | os.PathLike[str]) -> Restored:
    """Restore the open database from ``source`` (a backup or any campaign_app database file): check it, back
    up the current database (reason ``restore``), copy it in under the write lock, then upgrade it if it is of
    an older schema. Other windows see the restored data on their next refresh."""
    database = _db()  # first: a campaign on a server is not restored from a file at all
    facts = check_restorable(source)
    db_file, backup_dir, timeout = Path(database.db_file), database.backup_dir, database.busy_timeout
    try:
        saved = make_backup(database, db_file, backup_dir, "restore", check=False)
    except (StoreProblem, DatabaseOpenError):  # SQLite cannot read it whole any more: keep the bytes
        saved = raw_copy(db_file, backup_dir, "restore")
    copy_database(facts.file, db_file, into=database.connection(), busy_timeout=timeout)
    close_db()
    init_db(db_file, backup_dir, busy_timeout=timeout, daily_backup=False)
    _clear_damage(db_file)
    return Restored(
        restored_from=facts.file,
        database=db_file,
        previous_saved_as=saved,
        schema_version=facts.schema_version,
        campaigns=facts.campaigns,
        battles=facts.battles,
    )
