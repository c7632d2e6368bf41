"""Writing the user's output files safely (PDFs, exports): through a randomly named temporary file created
in the target folder (``O_EXCL``: it never follows a symlink or reuses a file someone placed there), flushed
to disk and renamed over the target at the end. A failure leaves the target as it was and removes only the
temporary file this process created; a file of the user's is never deleted."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import CampaignError, DiskFullError, ServiceError


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


FILE_MODE = 0o666 & ~_read_umask()
"""New files get the usual permissions (the temporary file starts private)."""


def output_error(out: Path, exc: OSError) -> CampaignError:
    """One sentence for a failure to write ``out``: disk full (exit 1) or a path the user can change."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return DiskFullError(f"disk full: cannot write {out}; nothing was written (free some space and try again)")
    return ServiceError(f"cannot write {out}: {exc.strerror or exc}")


def check_path(path: str | os.PathLike[str]) -> Path:
    """A path the user gave, refused when it cannot name a file (a NUL character)."""
    if "\x00" in os.fspath(path):
        raise ServiceError(f"the file name {os.fspath(path)!r} contains a NUL character")
    full = Path(path).expanduser().absolute()
    from .errors import bad_path

    for probe in (full, full.parent):
        try:
            os.stat(probe)
        except OSError as exc:
            problem = bad_path(full, exc)
            if problem is not None:
                raise problem from None
    return full


def check_output(path: str | os.PathLike[str], example: str = "out.pdf") -> Path:
    """The output path, refused when it is a folder or its folder does not exist."""
    out = check_path(path)
    if out.is_dir():
        raise ServiceError(f"{out} is a folder; give a file name such as {example}")
    if not out.parent.is_dir():
        raise ServiceError(f"cannot write {out}: the folder {out.parent} does not exist")
    if not _replaceable(out):
        # the rename at the end would put a plain file in place of a device (/dev/null), a pipe or a socket
        raise ServiceError(
            f"cannot write {out}: it is not a regular file (a device, pipe or socket); give a file "
            f"name such as {example}"
        )
    if _is_database(out):
        raise ServiceError(
            f"{out} is a database file (the campaigns, a backup or its journal); it is not "
            f"replaced. Give another file name such as {example}"
        )
    return out


SQLITE_HEADER = b"SQLite format 3\x00"
JOURNAL_SUFFIXES = ("-wal", "-shm", "-journal")


def _is_database(out: Path) -> bool:
    """Whether ``out`` is an SQLite database (the open one, a backup, another campaign file) or the journal of
    one: an output file must never be renamed over it."""
    for suffix in JOURNAL_SUFFIXES:
        if out.name.endswith(suffix) and out.with_name(out.name[: -len(suffix)]).exists():
            return True
    try:
        with open(out, "rb") as fh:
            return fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _replaceable(out: Path) -> bool:
    """Whether ``out`` is missing or a regular file (also through a symlink, which is replaced, not followed)."""
    for look in (os.lstat, os.stat):
        try:
            mode = look(out).st_mode
        except FileNotFoundError:
            return True
        except OSError:
            return True  # decided when the file is written
        if stat.S_ISLNK(mode):
            continue
        return stat.S_ISREG(mode)
    return True


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str], example: str = "out.pdf") -> Iterator[Path]:
    """``with atomic_output(out) as tmp:`` write ``tmp``; at the end it is renamed to ``out``."""
    out = check_output(path, example)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".part", dir=out.parent)
        os.close(fd)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise output_error(out, exc) from None
        raise ServiceError(
            f"cannot write {out}: no file can be created in the folder {out.parent} ({exc.strerror or exc})"
        ) from None
    tmp = Path(tmp_name)
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        mode = out.stat().st_mode & 0o777 if out.is_file() and not out.is_symlink() else FILE_MODE
        os.chmod(tmp, mode)
        os.replace(tmp, out)
    except OSError as exc:
        raise output_error(out, exc) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def write_atomic(path: str | os.PathLike[str], data: bytes | str, example: str = "out.pdf") -> Path:
    """Write ``data`` (text is written as UTF-8) to ``path`` through :func:`atomic_output`."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_output(path, example) as tmp:
        try:
            tmp.write_bytes(raw)
        except OSError as exc:
            raise output_error(Path(path), exc) from None
    return Path(path).expanduser().absolute()
