"""The campaign at a glance: ``campaign standings``, ``chronicle`` (list, add, edit, remove, report),
``print standings|chronicle|stale`` (the ``print`` group takes them from :data:`PRINT_SUBCOMMANDS`) and
``stats``."""

from __future__ import annotations

import argparse
from typing import Any

from . import lookup
from .base import Context, add_json, date_arg, emit


def _cmd_standings(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.standings import standings, standings_text

    ctx.open_db()
    result = standings(lookup.campaign_id(args.campaign))
    return emit(args, result.to_dict(), lambda: standings_text(result))


def register_campaign_actions(group: Any, parent: argparse.ArgumentParser) -> None:
    """``campaign standings`` (added to the ``campaign`` group by :mod:`campaign_app.commands.roster`)."""
    p = group.add_parser(
        "standings",
        parents=[parent],
        help="the campaign's standings and head-to-head records",
        description="The campaign's standings (RULES.md §6): each platoon's battles, "
        "victories, draws, defeats, objective XP, wounds, XP lost, leaders lost, XP "
        "and level, in ranking order; the head-to-head record of each pair that "
        "fought each other (disputed results are shown, never resolved); the "
        "Sologear pilots.",
    )
    p.add_argument("--campaign", required=True, metavar="NAME", help="the campaign")
    add_json(p)
    p.set_defaults(handler=_cmd_standings)


# ------------------------------------------------------------------------------------------------ print


def _register_print_standings(sub: Any, parent: argparse.ArgumentParser) -> None:
    from .print_sheets import _add_common

    p = sub.add_parser(
        "standings",
        parents=[parent],
        help="a campaign's standings on one page",
        description="Print the campaign's standings, head-to-head records and pilots on one page.",
    )
    p.add_argument("--campaign", required=True, metavar="NAME", help="the campaign")
    _add_common(p, "standings.pdf")
    p.set_defaults(handler=_cmd_print_campaign, print_kind="standings")


def _register_print_chronicle(sub: Any, parent: argparse.ArgumentParser) -> None:
    from .print_sheets import _add_common

    p = sub.add_parser(
        "chronicle",
        parents=[parent],
        help="a campaign's chronicle as a diary",
        description="Print the campaign's chronicle as a diary: the platoons' XP over campaign "
        "time, then each entry, battle (outcome, aftermath, after-action report) and "
        "Sologear turn in order.",
    )
    p.add_argument("--campaign", required=True, metavar="NAME", help="the campaign")
    _add_common(p, "chronicle.pdf")
    p.set_defaults(handler=_cmd_print_campaign, print_kind="chronicle")


def _cmd_print_campaign(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.print_requests import ChronicleRequest, StandingsRequest
    from ..services.printing import check_output, print_pdf
    from .print_sheets import _done

    check_output(args.output)
    ctx.open_db()
    request_type = StandingsRequest if args.print_kind == "standings" else ChronicleRequest
    printed = print_pdf(
        request_type(campaign=lookup.optional_campaign_id(args.campaign), paper=args.paper, qr=args.qr), args.output
    )
    return _done(args, printed)


def _register_print_stale(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "stale",
        parents=[parent],
        help="printouts of a campaign that are out of date",
        description="List the campaign's remembered printouts (the newest of each sheet, report, "
        "card set...) whose content has changed since they were printed, with what "
        "changed. A change that was undone makes a printout current again.",
    )
    p.add_argument("--campaign", required=True, metavar="NAME", help="the campaign")
    p.add_argument("--all", action="store_true", help="list the current printouts too")
    add_json(p)
    p.set_defaults(handler=_cmd_print_stale)


def _cmd_print_stale(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.prints import print_states

    ctx.open_db()
    states = [s for s in print_states(lookup.campaign_id(args.campaign)) if args.all or s.stale]

    def text() -> str:
        if not states:
            return "every remembered printout is up to date" if not args.all else "nothing printed yet"
        return "\n".join(
            f"{'STALE  ' if s.stale else 'current'} {s.title} (printed {str(s.printed_at)[:16]}, "
            f"journal {s.position})" + (f": {', '.join(s.changes)}" if s.changes else "")
            for s in states
        )

    return emit(args, [s.to_dict() for s in states], text)


PRINT_SUBCOMMANDS = (_register_print_standings, _register_print_chronicle, _register_print_stale)
"""Added to the ``print`` group by :mod:`campaign_app.commands.printing`."""


# --------------------------------------------------------------------------------------------- chronicle


def _cmd_chronicle(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.chronicle import chronicle, chronicle_text

    ctx.open_db()
    story = chronicle(lookup.campaign_id(args.campaign), platoon=args.platoon, search=args.search)
    return emit(args, story.to_dict(), lambda: chronicle_text(story))


def _cmd_chronicle_add(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.chronicle import add_entry

    ctx.open_db()
    edit = add_entry(
        lookup.campaign_id(args.campaign), args.title, args.text or "", date_arg(args.date, "the entry's date")
    )
    return emit(args, edit.to_dict(), edit.message)


def _cmd_chronicle_edit(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.chronicle import edit_entry

    ctx.open_db()
    edit = edit_entry(
        _entry_id(args.entry), title=args.title, text=args.text, date=date_arg(args.date, "the entry's date")
    )
    return emit(args, edit.to_dict(), edit.message)


def _cmd_chronicle_remove(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.chronicle import remove_entry

    ctx.open_db()
    edit = remove_entry(_entry_id(args.entry))
    return emit(args, edit.to_dict(), edit.message)


def _cmd_chronicle_report(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.chronicle import write_report

    ctx.open_db()
    edit = write_report(lookup.platoon_id(args.platoon, args.campaign), args.text, battle=_battle_number(args.battle))
    return emit(args, edit.to_dict(), edit.message)


def _battle_number(text: str | None) -> int | None:
    """``--battle 3`` (none given or empty: the platoon's newest battle)."""
    if text is None or not text.strip():
        return None
    if not text.strip().isdigit():
        from .base import CliError

        raise CliError(f"battle must be a battle number like 3, not {text!r}")
    return int(text.strip())


def _entry_id(text: str) -> int:
    if not text.isdigit():
        from .base import CliError

        raise CliError(f"an entry id is a number like 3, not {text!r} (see 'chronicle --campaign NAME')")
    return int(text)


def register(sub: Any, parent: argparse.ArgumentParser) -> None:
    cp = sub.add_parser(
        "chronicle",
        parents=[parent],
        help="a campaign's chronicle: battles, turns and entries",
        description="The campaign's chronicle in campaign time: every battle of every platoon "
        "(outcome, aftermath, after-action report), every Sologear turn, and the "
        "campaign's own entries. 'chronicle add|edit|remove' write entries; "
        "'chronicle report' writes a battle's after-action report.",
    )
    cp.add_argument("--campaign", metavar="NAME", help="the campaign")
    cp.add_argument("--platoon", metavar="NAME", help="only this platoon's (or pilot's) battles, with the entries")
    cp.add_argument("--search", metavar="TEXT", help="only what mentions TEXT")
    add_json(cp)
    cp.set_defaults(handler=_cmd_chronicle_or_fail)
    cs = cp.add_subparsers(dest="chronicle_command", metavar="ACTION")
    p = cs.add_parser("add", parents=[parent], help="add a dated campaign entry")
    p.add_argument("--campaign", required=True, metavar="NAME")
    p.add_argument("--title", required=True, help="the entry's title, e.g. 'Season 2 begins'")
    p.add_argument("--text", help="what happened")
    p.add_argument("--date", help="its date in campaign time, YYYY-MM-DD (default today)")
    add_json(p)
    p.set_defaults(handler=_cmd_chronicle_add)
    p = cs.add_parser("edit", parents=[parent], help="change a campaign entry")
    p.add_argument("entry", metavar="ID", help="the entry's id (see 'chronicle')")
    p.add_argument("--title")
    p.add_argument("--text")
    p.add_argument("--date", help="YYYY-MM-DD")
    add_json(p)
    p.set_defaults(handler=_cmd_chronicle_edit)
    p = cs.add_parser("remove", parents=[parent], help="remove a campaign entry")
    p.add_argument("entry", metavar="ID", help="the entry's id (see 'chronicle')")
    add_json(p)
    p.set_defaults(handler=_cmd_chronicle_remove)
    p = cs.add_parser("report", parents=[parent], help="write a battle's after-action report")
    p.add_argument("--platoon", required=True, metavar="NAME")
    p.add_argument("--campaign", metavar="NAME", help="the platoon's campaign (when two share the name)")
    p.add_argument("--battle", metavar="N", help="battle number (default: the newest)")
    p.add_argument("--text", required=True, help="the report (replaces the battle's notes)")
    add_json(p)
    p.set_defaults(handler=_cmd_chronicle_report)


def _cmd_chronicle_or_fail(args: argparse.Namespace, ctx: Context) -> int:
    if not args.campaign:
        from .base import CliError

        raise CliError("name the campaign: chronicle --campaign NAME")
    return _cmd_chronicle(args, ctx)
