"""``campaign-cli``: headless commands over the same services as the GUI (JSON out with ``--json``).

Exit status: 0 done; 2 input the user can fix or retry (bad arguments, unknown names, a file that is not a
campaign database, an output path that cannot be written, the database busy); 1 trouble in the environment
(disk full, read-only file or folder, I/O errors) or a check that found problems. Every failure is one line
on stderr and nothing was written.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from .commands import COMMAND_MODULES, COMMAND_NAMES
from .commands.base import Context, GuardedOutput, add_json, emit, fail, warn
from .paths import resolve_paths
from .resources import version_text

log = logging.getLogger(__name__)


class OneLineParser(argparse.ArgumentParser):
    """Usage mistakes are one line on stderr and exit status 2 (sub-parsers inherit this class)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _common_parent() -> OneLineParser:
    parent = OneLineParser(add_help=False)
    parent.add_argument(
        "--data-dir",
        default=argparse.SUPPRESS,
        metavar="DIR",
        help="folder for the database, backups and logs (or set CAMPAIGN_APP_DATA_DIR)",
    )
    parent.add_argument(
        "--db",
        default=argparse.SUPPRESS,
        metavar="FILE|URL",
        help="open this database file instead of <data folder>/campaign.db, or a club server's "
        "campaign database: postgresql://LOGIN@HOST[:PORT]/DBNAME (password from PGPASSWORD "
        "or ~/.pgpass)",
    )
    parent.add_argument(
        "--busy-timeout",
        default=argparse.SUPPRESS,
        metavar="SECONDS",
        help="how long a write waits for another window or command to finish writing "
        "(default 10, or set CAMPAIGN_APP_BUSY_TIMEOUT)",
    )
    return parent


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``command`` (see :func:`command_in`) only the module that registers it (``""``:
    none, e.g. for ``--version``), so that one command starts without building all the others."""
    parent = _common_parent()
    parser = OneLineParser(prog="campaign-cli", parents=[parent], description="campaign_app headless commands")
    parser.add_argument("--version", action="version", version=version_text("campaign-cli"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("demo", parents=[parent], help="create the sample campaigns")
    add_json(p)
    p.set_defaults(handler=_cmd_demo)
    p = sub.add_parser("check", parents=[parent], help="integrity check of the database (exit 0 ok, 1 not)")
    add_json(p)
    p.set_defaults(handler=_cmd_check)

    modules: tuple[str, ...] = COMMAND_MODULES
    if command == "":
        modules = ()
    elif command is not None:
        owners = tuple(m for m in COMMAND_MODULES if command in COMMAND_NAMES.get(m, ()))
        modules = owners or COMMAND_MODULES
    for name in modules:  # imported here, not at the top: only the command's own module (a fast start)
        importlib.import_module(name).register(sub, parent)
    return parser


def command_in(argv: Sequence[str]) -> str | None:
    """The command named in ``argv`` (its first word that is not an option), ``""`` when there is none and
    ``--version`` is asked for, ``None`` when the whole parser is needed (help, or no command)."""
    takes_value = {"--data-dir", "--db"}
    skip = False
    for word in argv:
        if skip:
            skip = False
            continue
        if word in ("-h", "--help"):
            return None
        if word in takes_value:
            skip = True
            continue
        if not word.startswith("-"):
            return word
    return "" if "--version" in argv else None


def _cmd_demo(args: argparse.Namespace, ctx: Context) -> int:
    from .services.demo import create_demo

    ctx.open_db()
    result = create_demo()
    return emit(args, result.to_dict(), lambda: "\n".join(result.messages))


def _cmd_check(args: argparse.Namespace, ctx: Context) -> int:
    from .store import check_database

    report = check_database(ctx.open_db(daily_backup=False, reading=True))
    emit(args, report.to_dict(), report.text)
    return 0 if report.ok else 1


def _not_text(argv: Sequence[str]) -> str | None:
    """Why an argument is not usable text (bytes that are not UTF-8 arrive as lone surrogates; a NUL cannot
    be in a name or a path), or ``None``."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "surrogateescape").decode("ascii", "backslashreplace")
            return f"the argument {shown!r} is not valid text (UTF-8)"
        if "\x00" in arg:
            return f"the argument {arg!r} contains a NUL character"
    return None


MAX_DIGITS = 4300
"""Python's limit for turning text into a whole number: no value the app takes comes near it."""


def _too_many_digits(argv: Sequence[str]) -> str | None:
    """A number in the arguments too long for any value (and for Python to read), named with its option."""
    import re

    for i, arg in enumerate(argv):
        if len(arg) > MAX_DIGITS and re.fullmatch(r"\s*[+-]?[0-9_]+\s*", arg):
            before = argv[i - 1] if i and argv[i - 1].startswith("-") else ""
            where = f" for {before}" if before else ""
            digits = sum(ch.isdigit() for ch in arg)
            return f"the number given{where} has {digits} digits: far out of range for any value here"
    return None


def _never_fail_printing() -> None:
    """A file name that is not valid text (e.g. a data folder from the environment with bytes that are not
    UTF-8) is printed with escapes instead of failing after the work was done (a strict UTF-8 locale)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "") == "strict":
            with contextlib.suppress(Exception):
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    from .errors import CampaignError  # no peewee, no Qt: every command's errors derive from it

    _never_fail_printing()
    raw = list(sys.argv[1:] if argv is None else argv)
    bad = _not_text(raw) or _too_many_digits(raw)
    if bad is not None:
        return fail(bad)
    parser = build_parser(command_in(raw))  # only the command's own module: a fast start
    args = parser.parse_args(raw)
    stdout = sys.stdout
    if stdout is not None:
        sys.stdout = GuardedOutput(stdout)
    try:
        paths = resolve_paths(getattr(args, "data_dir", None), getattr(args, "db", None))
        ctx = Context(paths, busy_timeout=getattr(args, "busy_timeout", None))
        _start_logging(paths)
        code = _run(args, ctx)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk is found here, not after main() returned
        for message in ctx.warnings:
            warn(message)
        return code
    except CampaignError as exc:  # refused (2), busy (2), disk full / read-only / I/O (1), cannot open (2)
        return fail(str(exc), exc.exit_code)
    except OverflowError as exc:  # a number too large for SQLite, typed where a whole number is asked for
        return fail(f"a number is out of range ({exc})")
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
    except OSError as exc:
        from .store.file_engine import store_problem

        problem = store_problem(exc, None)
        assert problem is not None
        return fail(str(problem), problem.exit_code)
    except KeyboardInterrupt:
        return fail("interrupted; a write in progress was rolled back", 130)
    except RuntimeError as exc:
        from .errors import bad_path

        path_problem = bad_path(getattr(exc, "filename", "given"), exc)
        if path_problem is not None:
            return fail(str(path_problem), path_problem.exit_code)
        return _unexpected(raw, exc)
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # a number too long for Python to read
            return fail(f"a number given has more than {MAX_DIGITS} digits: far out of range for any value here")
        return _unexpected(raw, exc)
    except Exception as exc:  # the last net: one line, the traceback goes to the log file
        return _unexpected(raw, exc)
    finally:
        if isinstance(sys.stdout, GuardedOutput):
            sys.stdout = stdout
        lookup = sys.modules.get("campaign_app.commands.lookup")
        if lookup is not None:
            lookup.remembered = None  # type: ignore[attr-defined]  # the remembered names serve this command only
        store = sys.modules.get("campaign_app.store")  # nothing to close if the database code never loaded
        if store is not None:
            with contextlib.suppress(Exception):
                store.close_db()


def _run(args: argparse.Namespace, ctx: Context) -> int:
    """The command; once more with fresh name look-ups when a name remembered from an earlier command on this club
    server named another row by now (found by the command's first message, before anything was written)."""
    from .commands import lookup
    from .errors import StaleName

    try:
        return int(args.handler(args, ctx))
    except StaleName:
        known = lookup.remembered
        if known is None:
            raise
        known.forget()
        return int(args.handler(args, ctx))


def _unexpected(raw: Sequence[str], exc: BaseException) -> int:
    """The last net: one line; the traceback goes to the log file when there is one (never to the screen)."""
    logged = any(not isinstance(h, logging.NullHandler) for h in logging.getLogger().handlers)
    if logged:
        log.error("campaign-cli %s failed", " ".join(raw), exc_info=exc)
    where = " (the details are in the log file)" if logged else ""
    from .logsetup import mask_password

    return fail(mask_password(f"unexpected problem: {type(exc).__name__}: {exc}{where}"), 1)


def _start_logging(paths: Any) -> None:
    from .logsetup import setup_logging

    try:
        setup_logging(paths.log_dir, console=False)
    except OSError:  # no log file (a read-only folder): warnings are not printed instead of the one line
        root = logging.getLogger()
        if not root.handlers:
            root.addHandler(logging.NullHandler())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
