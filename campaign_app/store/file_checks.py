"""Cheap checks of a database file before it is opened, creating nothing beside it: its header, its size
against the header's page count, a ``-wal`` file that is not its own (:mod:`.walcheck`), and, read-only, that it
is a campaign_app database of a schema this version knows. A file that fails is refused untouched, naming the
file and the newest good backup. Also how a reading command opens a file it cannot write
(:func:`read_only_mode`)."""

from __future__ import annotations

import os
import sqlite3
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from .errors import DatabaseOpenError, DatabaseTooNewError, ForeignWalError
from .file_engine import _disk_full, _read_only_folder

SQLITE_HEADER = b"SQLite format 3\x00"


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
        raise _refuse(
            db_file,
            "is empty (0 bytes), so it holds no campaign: delete it to start afresh or restore a backup",
            backup_dir,
        )
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        raise _refuse(db_file, "is not a campaign database (not an SQLite file)", backup_dir)
    (raw_page_size,) = struct.unpack(">H", header[16:18])
    page_size = 65536 if raw_page_size == 1 else raw_page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise _refuse(db_file, f"is damaged (its header gives an impossible page size, {raw_page_size})", backup_dir)
    change_counter, count = struct.unpack(">II", header[24:32])
    (valid_for,) = struct.unpack(">I", header[92:96])
    page_count = count if count and valid_for == change_counter else None
    wal_mode = header[18] == 2 and header[19] == 2
    if size % page_size:
        raise _refuse(
            db_file,
            f"is damaged: its size ({size} bytes) is not a whole number of {page_size}-byte pages (was it cut short?)",
            backup_dir,
        )
    if page_count is not None and page_count * page_size != size:
        wal = wal_path(db_file)
        in_use = wal.exists() and wal.stat().st_size > 0
        # while another program checkpoints its WAL the header can run ahead of the file for a moment
        if not in_use:
            raise _refuse(
                db_file,
                f"is damaged: it has {size // page_size} pages but its header says "
                f"{page_count} (was it cut short or copied while in use?)",
                backup_dir,
            )
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
        f"{_hint(backup_dir, db_file)}".strip()
    )


def _read_only_uri(db_file: Path) -> str:
    """A read-only URI that creates nothing beside the file (``immutable``: no -wal/-shm, no locks). Only
    used when no -wal file exists, i.e. when nobody has the database open in WAL mode."""
    return f"{db_file.as_uri()}?mode=ro&immutable=1"


def schema_facts(con: sqlite3.Connection, db_file: Path, backup_dir: Path | None) -> int:
    """The applied schema version (0 for an SQLite file without tables); refuses other SQLite files."""
    has_table = con.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_migration'").fetchone()
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


def _too_new(db_file: Path, version: int, supported: int) -> DatabaseTooNewError:
    return DatabaseTooNewError(
        f"{db_file} was made by a newer version of campaign_app (schema {version}; this is version "
        f"{__version__}, schema {supported}). Please update campaign_app. The file was left untouched."
    )


def read_only_mode(db_file: Path) -> str | None:
    """How a reading command opens ``db_file``: ``None`` (as usual) when the file and its folder can be written
    and the disk has room; else ``"immutable"`` (nothing is created or locked: no ``-wal`` is in use), or
    ``"ro"`` when a ``-wal`` holds changes that must be read (through its index)."""
    folder = db_file.parent
    constrained = _read_only_folder(folder) or not os.access(db_file, os.W_OK) or _disk_full(folder)
    if not constrained:
        return None
    wal = wal_path(db_file)
    try:
        in_use = wal.exists() and wal.stat().st_size > 0
    except OSError:
        in_use = True
    return "ro" if in_use else "immutable"
