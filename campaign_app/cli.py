"""``campaign-cli``: headless commands over the same services as the GUI (JSON out with ``--json``).

Exit status: 0 done, 1 a check found problems, 2 bad input (one line on stderr, nothing written).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__
from .commands import COMMAND_MODULES, COMMAND_NAMES
from .commands.base import CliError, Context, add_json, emit, fail
from .paths import resolve_paths

log = logging.getLogger(__name__)


class OneLineParser(argparse.ArgumentParser):
    """Usage mistakes are one line on stderr and exit status 2 (sub-parsers inherit this class)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _common_parent() -> argparse.ArgumentParser:
    parent = OneLineParser(add_help=False)
    parent.add_argument("--data-dir", default=argparse.SUPPRESS, metavar="DIR",
                        help="folder for the database, backups and logs (or set CAMPAIGN_APP_DATA_DIR)")
    parent.add_argument("--db", default=argparse.SUPPRESS, metavar="FILE",
                        help="open this database file instead of <data folder>/campaign.db")
    return parent


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``command`` (see :func:`command_in`) only the module that registers it (``""``:
    none, e.g. for ``--version``), so that one command starts without building all the others."""
    parent = _common_parent()
    parser = OneLineParser(prog="campaign-cli", parents=[parent],
                                     description="campaign_app headless commands")
    parser.add_argument("--version", action="version", version=f"campaign-cli {__version__}")
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
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub, parent)
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
    return emit(args, result, lambda: "\n".join(result["messages"]))


def _cmd_check(args: argparse.Namespace, ctx: Context) -> int:
    from .store import check_database

    report = check_database(ctx.open_db())
    emit(args, report.to_dict(), report.text)
    return 0 if report.ok else 1



def _user_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that are the user's problem (one line, exit 2). Only the modules already imported are
    asked: a command that never loaded the database cannot raise its errors, and ``level`` or ``--help``
    stay free of peewee (issue 13)."""
    found: list[type[BaseException]] = [CliError]
    for module, name in (("campaign_app.rules.dice", "DiceError"), ("campaign_app.rules.experience", "RulesError"),
                         ("campaign_app.services.common", "ServiceError"),
                         ("campaign_app.store.database", "DatabaseError")):
        cls = getattr(sys.modules.get(module), name, None)
        if isinstance(cls, type) and issubclass(cls, BaseException):
            found.append(cls)
    return tuple(found)


def main(argv: Sequence[str] | None = None) -> int:
    from .logsetup import setup_logging

    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(command_in(words))  # only the command's own module: a fast start
    args = parser.parse_args(words)
    paths = resolve_paths(getattr(args, "data_dir", None), getattr(args, "db", None))
    ctx = Context(paths)
    with contextlib.suppress(OSError):
        setup_logging(paths.log_dir, console=False)
    try:
        return int(args.handler(args, ctx))
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
    except Exception as exc:
        if isinstance(exc, _user_errors()):
            return fail(str(exc))
        raise
    finally:
        store = sys.modules.get("campaign_app.store")
        if store is not None:
            store.close_db()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
