"""``campaign-cli journal | undo | redo``: the journal of every change, and undo/redo of any of them.

``journal`` lists operations newest first (id, kind, label, time, who, undone), for everything or one campaign,
platoon or Sologear pilot. ``undo`` undoes the newest operation that is not undone (or ``--operation ID``) and
says what it restored; ``redo`` redoes the one undone most recently (or ``--operation ID``). A refusal names
the operation in the way and changes nothing (exit 2).
"""

from __future__ import annotations

import argparse
import datetime as _dt
from typing import Any

from ..words import plural
from . import lookup
from .base import Context, add_json, emit


def _local(stamp: str) -> str:
    try:
        return _dt.datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return stamp


def _line(op: Any) -> str:
    state = "  (undone)" if op.undone else ""
    if getattr(op, "folded", False):
        state += "  (folded: kept in the history, can no longer be undone)"
    who = f"  by {op.user}" if op.user else ""
    return f"{op.id:>6}  {_local(op.created_at)}  {op.kind:<16} {op.label}{who}{state}"


def _cmd_journal(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import journal

    if args.action == "compact":
        return _cmd_compact(args, ctx)
    if args.keep is not None or args.days is not None:
        from .base import CliError

        raise CliError("--keep and --days go with 'journal compact'")
    ctx.open_db(daily_backup=False, reading=True)
    platoon = lookup.platoon_id(args.platoon, args.campaign) if args.platoon is not None else None
    ops = journal.operations(
        campaign=lookup.optional_campaign_id(args.campaign),
        platoon=platoon,
        pilot=lookup.sheet_id(args.pilot) if args.pilot is not None else None,
        limit=args.limit,
    )
    return emit(
        args, [op.to_dict() for op in ops], lambda: "\n".join(_line(op) for op in ops) or "the journal is empty"
    )


ROW_WORDS: dict[str, tuple[str, str]] = {
    "equipment": ("piece of equipment", "pieces of equipment"),
    "xp_change": ("XP change", "XP changes"),
    "attribute_change": ("logged change", "logged changes"),
    "sologear_force": ("Sologear unit", "Sologear units"),
    "sologear_sheet": ("Sologear sheet", "Sologear sheets"),
    "sologear_turn": ("Sologear turn", "Sologear turns"),
}


def _rows(table: str, n: int) -> str:
    one, many = ROW_WORDS.get(table, (table.replace("_", " "), table.replace("_", " ") + "s"))
    return plural(n, one, many)


def _step_text(step: Any) -> str:
    tables = ", ".join(_rows(table, len(ids)) for table, ids in step.to_dict()["restored"].items())
    return f"{step.message} (operation {step.operation.id}); restored {tables or 'nothing'}"


def _cmd_undo(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import journal

    ctx.open_db(daily_backup=False)
    step = journal.undo(args.operation)
    return emit(args, step.to_dict(), lambda: _step_text(step))


def _cmd_redo(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import journal

    ctx.open_db(daily_backup=False)
    step = journal.redo(args.operation)
    return emit(args, step.to_dict(), lambda: _step_text(step))


def _cmd_compact(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import journal

    ctx.open_db(daily_backup=False)
    result = journal.compact(keep=args.keep, days=args.days, campaign=lookup.optional_campaign_id(args.campaign))
    return emit(args, result.to_dict(), result.message)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if not 0 < value < 2**63:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {text!r}")
    return value


def _days(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of days, not {text!r}") from None
    if not 0 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"must be 0 (no age limit) to 100000 days, not {text!r}")
    return value


def register(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "journal",
        parents=[parent],
        help="list the changes made, newest first",
        description="Every change (from the app or this command line) is one operation in the "
        "journal: its id, kind, label, time, who made it and whether it is undone. "
        "Give a campaign, platoon or Sologear pilot to see only theirs.",
    )
    p.add_argument(
        "action",
        nargs="?",
        choices=["compact"],
        help="compact: fold the operations beyond the journal's budget into its history (they stay "
        "listed but can no longer be undone) and report what it freed",
    )
    p.add_argument(
        "--keep",
        type=_positive,
        metavar="N",
        help="compact: keep the newest N operations undoable (default 1000, or set "
        "CAMPAIGN_APP_JOURNAL_KEEP; on a club server it becomes the campaign's budget)",
    )
    p.add_argument(
        "--days",
        type=_days,
        metavar="DAYS",
        help="compact: fold operations older than DAYS days too (default 90, 0 for no age limit, or set "
        "CAMPAIGN_APP_JOURNAL_DAYS)",
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--campaign",
        metavar="NAME",
        help="only what concerns this campaign (compact, on a club server: only this campaign's "
        "journal; by default every campaign you organise)",
    )
    which.add_argument("--platoon", metavar="NAME", help="only what concerns this platoon")
    which.add_argument("--pilot", metavar="CAMPAIGN", help="only what concerns this Sologear campaign's pilot")
    p.add_argument("--limit", type=_positive, metavar="N", help="at most N operations")
    add_json(p)
    p.set_defaults(handler=_cmd_journal)

    p = sub.add_parser(
        "undo",
        parents=[parent],
        help="undo the newest change (or --operation ID)",
        description="Undo the newest operation that is not undone, or the one given: every row it "
        "touched comes back exactly. Refused, naming it, when a later change touched "
        "the same data (undo that first).",
    )
    p.add_argument("--operation", type=_positive, metavar="ID", help="the operation to undo (see 'journal')")
    add_json(p)
    p.set_defaults(handler=_cmd_undo)

    p = sub.add_parser(
        "redo",
        parents=[parent],
        help="redo the change undone most recently (or --operation ID)",
        description="Redo the operation undone most recently, or the one given: the same rows, "
        "the same ids, the same dice. Refused once a newer change touched the same "
        "data.",
    )
    p.add_argument("--operation", type=_positive, metavar="ID", help="the operation to redo (see 'journal')")
    add_json(p)
    p.set_defaults(handler=_cmd_redo)
