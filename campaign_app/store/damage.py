"""A database file the app knows is damaged takes no more writes.

When an integrity check finds damage (``campaign-cli check``, the window's background check, the check of a
backup's copy before it is kept), :func:`mark_damaged` records it in a small file beside the database,
``.<name>.damaged`` (JSON: the problem, and the file's inode and identity, see :mod:`.walcheck`, so that a file
replaced since by another is not held to an old finding). From then on every write (each operation, undo
and redo: :func:`refuse_writes_if_damaged`, called as a write transaction begins) is refused in one line that
names the problem and offers a restore; reads go on. The mark goes when a check finds the file sound again
(:func:`clear_damaged`), when a backup is restored, or when another file is put in its place.

When the folder cannot be written the mark is kept in memory for this program only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import StoreProblem


class DatabaseDamagedError(StoreProblem):
    """A write to a database an integrity check found damaged: refused, nothing was written."""


@dataclass(frozen=True)
class DamageMark:
    problem: str
    fingerprint: str


_in_memory: dict[str, DamageMark] = {}


def mark_path(db_file: Path) -> Path:
    return db_file.with_name(f".{db_file.name}.damaged")


def _fingerprint(db_file: Path) -> str | None:
    try:
        st = db_file.stat()
        with db_file.open("rb") as fh:
            header = fh.read(100)
    except OSError:
        return None
    return f"{st.st_ino}:{hashlib.sha256(header[68:72]).hexdigest()[:16]}"


def _key(db_file: Path) -> str:
    return str(Path(db_file).resolve())


def mark_damaged(db_file: Path, problems: list[str]) -> None:
    """Record that ``db_file`` is damaged (the first problems, in the check's words)."""
    db_file = Path(db_file)
    fingerprint = _fingerprint(db_file)
    if fingerprint is None:
        return
    mark = DamageMark(summary(problems), fingerprint)
    _in_memory[_key(db_file)] = mark
    with contextlib.suppress(OSError):
        tmp = mark_path(db_file).with_name(mark_path(db_file).name + ".tmp")
        tmp.write_text(json.dumps({"problem": mark.problem, "fingerprint": mark.fingerprint}), encoding="utf-8")
        os.replace(tmp, mark_path(db_file))


def summary(problems: list[str]) -> str:
    """The first finding of a check in a few words, and how many more there are."""
    lines = [line.strip() for p in problems for line in str(p).splitlines()]
    lines = [line for line in lines if line and "***" not in line and line not in ("integrity:",)]
    if not lines:
        return "the integrity check failed"
    more = f" and {len(lines) - 1} more {'problem' if len(lines) == 2 else 'problems'}" if len(lines) > 1 else ""
    return f"{lines[0]}{more}"


def clear_damaged(db_file: Path) -> None:
    db_file = Path(db_file)
    _in_memory.pop(_key(db_file), None)
    with contextlib.suppress(OSError):
        mark_path(db_file).unlink()


def damage_of(db_file: Path) -> str | None:
    """The recorded problem of ``db_file`` if it is marked damaged (and is still the file that was checked)."""
    db_file = Path(db_file)
    mark = _in_memory.get(_key(db_file))
    if mark is None:
        try:
            data = json.loads(mark_path(db_file).read_text(encoding="utf-8"))
            mark = DamageMark(str(data["problem"]), str(data["fingerprint"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
    if _fingerprint(db_file) != mark.fingerprint:
        return None  # replaced or changed since: the next check decides again
    return mark.problem


def damaged_message(db_file: Path, problem: str, backup_dir: Path | None) -> str:
    from .file_checks import _hint

    return (
        f"{db_file} is damaged ({problem}), so changes are refused to keep from writing into the damage; "
        f"nothing was written. Restore a backup ('campaign-cli restore FILE' or File \u25b8 Backups\u2026). "
        f"{_hint(backup_dir, db_file)}"
    ).strip()


def refuse_writes_if_damaged(db_file: Path, backup_dir: Path | None) -> None:
    problem = damage_of(db_file)
    if problem is not None:
        raise DatabaseDamagedError(damaged_message(Path(db_file), problem, backup_dir))


def record_check(db_file: Path, problems: list[str]) -> None:
    """After a full integrity check of ``db_file``: mark it damaged, or clear an old mark."""
    if problems:
        mark_damaged(db_file, problems)
    else:
        clear_damaged(db_file)
