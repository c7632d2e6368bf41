"""Helpers shared by the CLI command modules: output, errors, dice options, the lazy database context."""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import CampaignError, Refused
from ..paths import AppPaths
from ..rules.dice import Dice, DiceError, DiceSource, SeededDice, TypedDice, parse_faces


class CliError(Refused):
    """A one-line problem with a command's arguments: printed on stderr, exit status 2, nothing written."""


class OutputError(CampaignError):
    """Standard output could not be written (disk full, an I/O error): exit status 1."""

    exit_code = 1


class GuardedOutput:
    """Standard output whose write errors (other than a closed pipe) become one clear :class:`OutputError`
    instead of being taken for a failure of the database."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def _failed(self, exc: OSError) -> OutputError:
        import errno

        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return OutputError("disk full: the command's output could not be written to standard output")
        return OutputError(f"the command's output could not be written to standard output ({exc.strerror or exc})")

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@dataclass
class Context:
    paths: AppPaths
    busy_timeout: Any = None
    """Seconds a write waits for the lock (``--busy-timeout``; None: the setting or 10)."""
    warnings: list[str] = field(default_factory=list)
    """Said on stderr after the command's output when it ran to its end (a failed command says only why)."""

    def open_db(self, daily_backup: bool = True, reading: bool = False) -> Any:
        """Open (create, migrate) the database; only commands that need it call this. A command that only
        reads says so (``reading``): where nothing can be written beside the file (a read-only folder or
        file, a full disk) it opens the file read-only and still works."""

        try:
            self.paths.ensure()
        except OSError as exc:
            if reading and self.paths.db_file.is_file():
                return self._open(daily_backup, reading)  # reading an existing file needs no new folder
            from ..store.file_engine import store_problem

            folder = exc.filename or self.paths.data_dir
            if isinstance(exc, FileExistsError | NotADirectoryError):
                from ..errors import ServiceError

                raise ServiceError(
                    f"cannot use the data folder {folder}: it (or a folder above it) is a file, "
                    "not a folder (choose another with --data-dir)"
                ) from None
            problem = store_problem(exc, None)
            if problem is not None and "disk full" not in str(problem):
                raise type(problem)(
                    f"cannot create or write the data folder {folder}: {exc.strerror or exc} "
                    "(choose another with --data-dir)"
                ) from None
            raise
        return self._open(daily_backup, reading)

    def _open(self, daily_backup: bool, reading: bool) -> Any:
        from ..services.server_link import ServerSchemas
        from ..store import init_db

        known = ServerSchemas(self.paths.data_dir)
        target = str(self.paths.db_target)
        database = init_db(
            self.paths.db_target,
            self.paths.backup_dir,
            busy_timeout=self.busy_timeout,
            daily_backup=daily_backup,
            reading=reading,
            known_schema=known.get(target),
        )
        from ..services.server_link import RememberedNames
        from . import lookup

        lookup.remembered = None
        if hasattr(database, "expect_schema"):  # a server: remember its version (and names) for the next command
            known.remember(target, database)
            lookup.remembered = RememberedNames(self.paths.data_dir, target)
        problem = getattr(database, "backup_problem", None)
        if problem:  # the work goes on, but the user is told
            self.warnings.append(problem)
        return database


def emit(args: argparse.Namespace, data: Any, text: str | Callable[[], str] | None = None) -> int:
    """Print ``data`` as JSON with ``--json``, else ``text`` (or a readable rendering of ``data``)."""
    if getattr(args, "json", False):
        print(json.dumps(data, indent=None, ensure_ascii=False, default=str))
    else:
        out = text() if callable(text) else text
        print(out if out is not None else render(data))
    return 0


def render(data: Any, indent: int = 0) -> str:
    pad = "  " * indent
    if isinstance(data, dict):
        lines = []
        for k, v in data.items():
            if isinstance(v, dict | list) and v:
                lines.append(f"{pad}{k}:")
                lines.append(render(v, indent + 1))
            else:
                lines.append(f"{pad}{k}: {v if v is not None else '-'}")
        return "\n".join(lines)
    if isinstance(data, list):
        return "\n".join(render(item, indent) if isinstance(item, dict | list) else f"{pad}- {item}" for item in data)
    return f"{pad}{data}"


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def whole_arg(text: str | None, what: str) -> int | None:
    """A whole number typed on the command line (a minus sign allowed; the range is the service's to check), or
    None when it was not given."""
    if text is None:
        return None
    value = text.strip()
    if not value.removeprefix("-").isdigit() or len(value) > 19:
        raise CliError(f"{what} must be a whole number, not {text!r}")
    return int(value)


def number_arg(text: str | None, what: str) -> float | None:
    """A number typed on the command line ("350", "17.5", "1e3"; the range, and whether it is finite, are the
    service's to check), or None when it was not given."""
    if text is None:
        return None
    try:
        return float(text.strip())
    except ValueError:
        raise CliError(f"{what} must be a number, not {text!r}") from None


def date_arg(text: str | None, what: str) -> _dt.date | None:
    """``--date``: a date as YYYY-MM-DD (None when it was not given: the service's default)."""
    if text is None:
        return None
    try:
        return _dt.date.fromisoformat(text.strip())
    except ValueError:
        raise CliError(f"{what} must be a date like 2024-05-31 (YYYY-MM-DD), not {text!r}") from None


def add_dice_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--seed", type=int, help="roll the app's dice with this seed (reproducible)")
    group.add_argument(
        "--dice",
        nargs="+",
        metavar="FACES",
        help="the faces you rolled: one argument per roll, its faces separated by commas (e.g. --dice 3 5,2)",
    )


_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}


class EnteredDice(TypedDice):
    """Typed faces whose errors say how ``--dice`` is written when the faces of one roll were given as
    separate arguments (``--dice 3 7`` for a 2d10: the shell hands over two rolls of one face each)."""

    def roll(self, dice: Dice, purpose: str = "") -> list[int]:
        at = self._next
        try:
            return super().roll(dice, purpose)
        except DiceError as exc:
            given = self._groups[at] if at < len(self._groups) else []
            if dice.count > 1 and len(given) < dice.count:
                singles = [g[0] for g in self._groups[at : at + dice.count] if len(g) == 1]
                before = [",".join(str(f) for f in g) for g in self._groups[:at]]
                if len(singles) == dice.count:  # the user's own faces, written the way --dice reads them
                    example = "as --dice " + " ".join([*before, ",".join(str(f) for f in singles)])
                else:
                    example = "e.g. --dice " + " ".join([*before, ",".join(str(f) for f in range(1, dice.count + 1))])
                count = _COUNT_WORDS.get(dice.count, str(dice.count))
                raise DiceError(
                    f"{exc}. One roll of {dice.count}d{dice.sides} is one --dice argument: give the "
                    f"{count} faces together, separated by commas, {example}"
                ) from None
            if len(given) > dice.count:
                raise DiceError(
                    f"{exc}. Each roll is its own --dice argument (separated by spaces); the faces "
                    "of one roll are separated by commas"
                ) from None
            raise


def dice_groups(args: Sequence[str]) -> list[list[int]]:
    """``--dice 3 5,2`` -> ``[[3], [5, 2]]``: one argument per roll, its faces written as
    :func:`~campaign_app.rules.dice.parse_faces` reads them (the grammar of the GUI's faces fields too)."""
    groups: list[list[int]] = []
    for i, arg in enumerate(args, start=1):
        try:
            groups.append(parse_faces(arg))
        except DiceError as exc:
            raise DiceError(f"--dice argument {i}: {exc}") from None
    return groups


def dice_source(args: argparse.Namespace) -> DiceSource:
    """``--dice`` -> the typed faces (with errors that say how --dice is written, for every command that
    takes dice), else the app's dice (seeded with ``--seed`` if given)."""
    if getattr(args, "dice", None):
        return EnteredDice(dice_groups(args.dice))
    return SeededDice(getattr(args, "seed", None))


def warn(message: str) -> None:
    """One warning line on stderr (the command goes on)."""
    line = " ".join(str(message).split())
    print(f"campaign-cli: warning: {line}", file=sys.stderr)


def fail(message: str, code: int = 2) -> int:
    """Print ``message`` as one line on stderr; returns the exit status ``code``."""
    line = " ".join(str(message).split())
    print(f"campaign-cli: error: {line}", file=sys.stderr)
    return code
