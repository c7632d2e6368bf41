"""``campaign-cli print sheet | sologear | history``: Unit Data Sheets, Sologear forms, history reports.

:data:`SUBCOMMANDS` are added to the ``print`` group by :mod:`campaign_app.commands.printing`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..words import plural
from . import lookup
from .base import Context, add_json, emit

if TYPE_CHECKING:
    from ..services.printing import Printed

PAPERS = ("a4", "letter")


def _add_common(p: argparse.ArgumentParser, default_name: str) -> None:
    p.add_argument(
        "--paper",
        choices=PAPERS,
        default=None,
        help="paper (default from your locale: Letter in the US and Canada, else A4)",
    )
    p.add_argument("--qr", action="store_true", help="a QR code with the print stamp on every page")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help=f"the PDF to write (e.g. {default_name})")
    add_json(p)


def _register_sheet(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "sheet",
        parents=[parent],
        help="Unit Data Sheets of platoons (one page each)",
        description="Print the Unit Data Sheet of one or more platoons, or a blank sheet to "
        "fill in by hand. Several --platoon give one page each in one PDF.",
    )
    p.add_argument(
        "--platoon", action="append", default=[], metavar="NAME", help="a platoon (name or id; repeat for several)"
    )
    p.add_argument(
        "--campaign",
        metavar="NAME",
        help="look platoon names up in this campaign; with --blank, print its name and thresholds",
    )
    p.add_argument(
        "--blank",
        action="store_true",
        help="a blank sheet to fill in by hand (one per campaign of the platoons given, if any)",
    )
    p.add_argument(
        "--pencil", action="store_true", help="leave the XP boxes, levels and cards empty (keep them in pencil)"
    )
    _add_common(p, "sheet.pdf")
    p.set_defaults(handler=_cmd_sheet)


def _register_sologear(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "sologear",
        parents=[parent],
        help="Sologear campaign sheet and battle form",
        description="Print a Sologear campaign's sheet and battle form (with the reckoning "
        "once the campaign is over), or blank forms.",
    )
    p.add_argument("--campaign", metavar="NAME", help="the Sologear campaign (name or sheet id)")
    p.add_argument("--blank", action="store_true", help="blank forms to fill in by hand")
    _add_common(p, "sologear.pdf")
    p.set_defaults(handler=_cmd_sologear)


def _register_history(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "history",
        parents=[parent],
        help="a platoon's history report",
        description="Print a platoon's history: summary, XP chart, battles, leaders' roll.",
    )
    p.add_argument("--platoon", required=True, metavar="NAME", help="the platoon (name or id)")
    p.add_argument("--campaign", metavar="NAME", help="the platoon's campaign (when two share the name)")
    _add_common(p, "history.pdf")
    p.set_defaults(handler=_cmd_history)


def _done(args: argparse.Namespace, printed: Printed) -> int:
    return emit(args, printed.to_dict(), f"wrote {printed.path}: {plural(printed.pages, 'page')}")


def _cmd_sheet(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.print_requests import UnitSheetRequest
    from ..services.printing import check_output, print_pdf

    check_output(args.output)
    ctx.open_db(reading=True)
    request = UnitSheetRequest(
        platoons=tuple(lookup.platoon_id(p, args.campaign) for p in args.platoon),
        blank=args.blank,
        pencil=args.pencil,
        campaign=lookup.optional_campaign_id(args.campaign),
        paper=args.paper,
        qr=args.qr,
    )
    printed = print_pdf(request, args.output)
    return _done(args, printed)


def _cmd_sologear(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.print_requests import SologearRequest
    from ..services.printing import check_output, print_pdf

    check_output(args.output)
    campaign = None
    if not args.blank:
        ctx.open_db()
        campaign = lookup.sheet_id(args.campaign) if args.campaign else None
    request = SologearRequest(campaign=campaign, blank=args.blank, paper=args.paper, qr=args.qr)
    printed = print_pdf(request, args.output)
    return _done(args, printed)


def _cmd_history(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.print_requests import HistoryRequest
    from ..services.printing import check_output, print_pdf

    check_output(args.output)
    ctx.open_db(reading=True)
    platoon = lookup.platoon_id(args.platoon, args.campaign) if args.platoon else None
    request = HistoryRequest(platoon=platoon, paper=args.paper, qr=args.qr)
    printed = print_pdf(request, args.output)
    return _done(args, printed)


def _register_fighter(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "fighter",
        parents=[parent],
        help="d12 Death Blow fighter sheets (one page each)",
        description="Print fighter sheets filled in (level, the 12 XP boxes, record, what the level "
        "gives, the Scale of Styles), or a blank one.",
    )
    p.add_argument("fighters", nargs="*", metavar="NAME", help="fighters (default: every active fighter of --campaign)")
    p.add_argument("--campaign", metavar="NAME", help="the Death Blow campaign")
    p.add_argument("--blank", action="store_true", help="a blank sheet to fill in by hand")
    _add_common(p, "fighters.pdf")
    p.set_defaults(handler=_cmd_fighter)


def _register_bout(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "bout",
        parents=[parent],
        help="a d12 Death Blow bout's round log",
        description="Print a bout's result and every round: cards, dice, Initiative, styles, "
        "Attack/Defense, damage, cards left.",
    )
    p.add_argument("bout", metavar="ID", help="the bout's number (bout show ID)")
    _add_common(p, "bout.pdf")
    p.set_defaults(handler=_cmd_bout)


def _cmd_fighter(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.print_requests import FighterRequest
    from ..services.printing import check_output, print_pdf

    check_output(args.output)
    ctx.open_db()
    request = FighterRequest(
        fighters=tuple(lookup.fighter_id(name, args.campaign) for name in args.fighters),
        blank=args.blank,
        campaign=lookup.optional_campaign_id(args.campaign),
        paper=args.paper,
    )
    printed = print_pdf(request, args.output)
    return _done(args, printed)


def _cmd_bout(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.print_requests import BoutRequest
    from ..services.printing import check_output, print_pdf

    check_output(args.output)
    ctx.open_db()
    printed = print_pdf(BoutRequest(bout=lookup.bout_id(args.bout), paper=args.paper), args.output)
    return _done(args, printed)


SUBCOMMANDS = (_register_sheet, _register_sologear, _register_history, _register_fighter, _register_bout)
"""Each adds one sub-command to the ``print`` group's subparsers, in help order."""
