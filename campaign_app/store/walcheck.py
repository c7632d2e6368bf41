"""Is the ``-wal`` file beside a database the database's own?

SQLite merges whatever valid ``-wal`` file it finds beside a database into what it reads, and writes it into
the file at the next checkpoint: a ``-wal`` left by a crash and then joined by an older backup copied over the
file by hand, or a ``-wal`` copied from another database, would silently mix two files. SQLite itself does not
link a ``-wal`` to its database, so the app does, with two numbers in the database header that it keeps:

- ``application_id`` (header bytes 68-71): a random number given to a campaign file when it is made (or first
  opened by this version); copies and backups of the file share it, other files do not;
- ``user_version`` (bytes 60-63): a serial number that every write transaction of the app raises by one
  (:meth:`CampaignDatabase.commit`), so the first page 1 in a ``-wal`` says which state of the file it builds on.

:func:`foreign_wal` reads the ``-wal`` exactly as SQLite would (its header checksum, then each frame's salts
and running checksum, up to the last commit) with plain file reads (nothing is created, no lock is taken),
and says why it does not belong, or ``None``:

- its page size differs from the database's;
- it holds a page 1 (every app write does) whose ``application_id`` differs from the file's, or the file's
  serial is outside what the ``-wal`` continues from (its first page 1's serial, less one) up to its last
  page 1's (a checkpoint may have copied that one in), while the file's page 1 is not one of the ``-wal``'s own;
- it holds no page 1 at all while a commit in it gives another database size than the file's header (the
  size lives on page 1, so a ``-wal`` of this file that changed the size would hold page 1), or names pages
  beyond it.

A ``-wal`` whose first transaction rewrites every page with a campaign file's (one with an identity: a restore
or a VACUUM) is the file's own whatever its page 1 says; :func:`~.backups.copy_database` checkpoints at once.
An empty or invalid ``-wal`` (SQLite ignores it and starts a new one) is not refused.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
FRAME_HEADER = 24
SERIAL_OFFSET = 60  # user_version
IDENTITY_OFFSET = 68  # application_id


@dataclass(frozen=True)
class WalFacts:
    page_size: int
    frames: int
    """Frames up to and including the last valid commit frame (what SQLite would read)."""
    page_ones: list[bytes]
    """Every committed image of page 1, oldest first."""
    commit_sizes: list[int]
    """The database size in pages after each commit."""
    pages: set[int]
    first_commit_pages: set[int]
    first_commit_size: int


def _checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    mask = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & mask
        s1 = (s1 + words[i + 1] + s0) & mask
    return s0, s1


def read_wal(wal: Path) -> WalFacts | None:
    """The committed content of a ``-wal`` file, or ``None`` when it holds none (empty, not a valid ``-wal``,
    or no complete transaction).

    The header and the frames of the first transaction are verified as SQLite does (salts and the running
    checksum); later frames by their salts and commit marks only, reading just their 24-byte headers and the
    images of page 1 (a ``-wal`` of a thousand frames is read in milliseconds: this runs at every open while
    another program has the file open)."""
    with wal.open("rb") as fh:
        header = fh.read(WAL_HEADER)
        if len(header) < WAL_HEADER:
            return None
        magic, version, page_size, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", header)
        if (
            magic not in WAL_MAGIC
            or version != 3007000
            or page_size < 512
            or page_size > 65536
            or page_size & (page_size - 1)
        ):
            return None
        big = bool(magic & 1)
        if _checksum(header[:24], big, 0, 0) != (c0, c1):
            return None
        size = os.fstat(fh.fileno()).st_size
        s0, s1 = c0, c1
        page_ones: list[bytes] = []
        commit_sizes: list[int] = []
        pages: set[int] = set()
        pending_ones: list[bytes] = []
        pending_pages: set[int] = set()
        first_pages: set[int] = set()
        first_size = 0
        frames = count = 0
        offset = WAL_HEADER
        while offset + FRAME_HEADER + page_size <= size:
            fh.seek(offset)
            verify = not commit_sizes  # the first transaction: every byte, as SQLite does
            head = fh.read(FRAME_HEADER)
            pgno, commit, f_salt1, f_salt2, f0, f1 = struct.unpack(">6I", head)
            if pgno == 0 or (f_salt1, f_salt2) != (salt1, salt2):
                break
            body = fh.read(page_size) if verify or pgno == 1 else b""
            if verify:
                s0, s1 = _checksum(head[:8], big, s0, s1)
                s0, s1 = _checksum(body, big, s0, s1)
                if (s0, s1) != (f0, f1):
                    break
            offset += FRAME_HEADER + page_size
            count += 1
            pending_pages.add(pgno)
            if pgno == 1:
                pending_ones.append(body)
            if commit:
                if not commit_sizes:
                    first_pages, first_size = set(pending_pages), commit
                page_ones += pending_ones
                pages |= pending_pages
                commit_sizes.append(commit)
                pending_ones, pending_pages = [], set()
                frames = count
    if not commit_sizes:
        return None
    return WalFacts(page_size, frames, page_ones, commit_sizes, pages, first_pages, first_size)


def _u32(page: bytes, offset: int) -> int:
    return int(struct.unpack(">I", page[offset : offset + 4])[0])


def _stamp(db_file: Path, wal: Path) -> tuple[object, ...]:
    a, b = db_file.stat(), wal.stat()
    with wal.open("rb") as fh:
        head = fh.read(WAL_HEADER)
    return (a.st_size, a.st_mtime_ns, b.st_size, b.st_mtime_ns, head)


def foreign_wal(db_file: Path, wal: Path, attempts: int = 3) -> str | None:
    """Why ``wal`` is not ``db_file``'s own ``-wal`` (a few words), or ``None`` when it is (or holds nothing
    SQLite would read). Plain reads only.

    A finding counts only when neither file changed while it was read: files that change are in use by a
    program that has the database open, and SQLite's shared index keeps such a live ``-wal`` and its file in
    step (a read in the middle of a checkpoint would otherwise see the two at different moments)."""
    for _ in range(attempts):
        try:
            before = _stamp(db_file, wal)
            why = _foreign_wal(db_file, wal)
            if why is None or _stamp(db_file, wal) == before:
                return why
        except OSError:
            return None  # unreadable (or gone meanwhile): opening it says what is wrong
    return None  # in use and changing all along: live, SQLite's own locking applies


def _foreign_wal(db_file: Path, wal: Path) -> str | None:
    try:
        facts = read_wal(wal)
    except OSError:
        return None  # unreadable: SQLite will say so itself
    if facts is None:
        return None
    with db_file.open("rb") as fh:
        header = fh.read(100)
    if len(header) < 100:
        return None
    (raw,) = struct.unpack(">H", header[16:18])
    page_size = 65536 if raw == 1 else raw
    if facts.page_size != page_size:
        return f"its pages are of {facts.page_size} bytes, the database's of {page_size}"
    with db_file.open("rb") as fh:
        page_one = fh.read(page_size)
    db_pages = _u32(header, 28)
    if (
        facts.page_ones
        and _u32(facts.page_ones[0], IDENTITY_OFFSET)
        and facts.first_commit_pages >= set(range(1, facts.first_commit_size + 1))
    ):
        return None  # its first transaction rewrote the whole file with a campaign file (a restore, a VACUUM)
    if facts.page_ones:
        if page_one in facts.page_ones:
            return None  # a checkpoint has copied one of its page 1 images into the file
        first = facts.page_ones[0]
        db_id, wal_id = _u32(header, IDENTITY_OFFSET), _u32(first, IDENTITY_OFFSET)
        if db_id and wal_id != db_id:
            return "it was written for another database"
        db_serial, wal_serial = _u32(header, SERIAL_OFFSET), _u32(first, SERIAL_OFFSET)
        last_serial = _u32(facts.page_ones[-1], SERIAL_OFFSET)
        if not wal_serial - 1 <= db_serial <= last_serial:  # a checkpoint may have copied a later page 1 in
            newer = "a newer" if db_serial < wal_serial else "an older"
            return f"it continues {newer} state of the file than the one in place (was another copy put there?)"
        return None
    if any(size != db_pages for size in facts.commit_sizes) or max(facts.pages) > db_pages:
        return "its pages do not fit the database (it was written for another file)"
    return None
