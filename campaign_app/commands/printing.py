"""``campaign-cli print ...``: PDFs from campaign_app.printing (no Qt).

This module owns the ``print`` group and its ``cards``, ``decks`` and ``alignment`` sub-commands; ``sheet``,
``sologear`` and ``history`` come from :mod:`campaign_app.commands.print_sheets`. Building the parser imports
no reportlab: each handler imports what it draws with.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..words import plural
from . import lookup, print_sheets
from .base import Context, add_json, emit


def register(subparsers: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    """Called by campaign_app.cli: the ``print`` group and all its sub-commands, in help order."""
    group = subparsers.add_parser(
        "print",
        parents=[parent],
        help="print cards and sheets as PDF",
        description="Make PDFs: play-aid cards, sheets, reports.",
    )
    sub = group.add_subparsers(dest="print_command", metavar="WHAT")
    sub.required = True
    from .overview import PRINT_SUBCOMMANDS  # standings, chronicle, stale

    for register_fn in (
        _register_cards,
        _register_decks,
        _register_alignment,
        *print_sheets.SUBCOMMANDS,
        *PRINT_SUBCOMMANDS,
    ):
        register_fn(sub, parent)


# ---------------------------------------------------------------------------------------------- shared


def user_decks_dir(ctx: Context) -> Path:
    return ctx.paths.user_decks_dir


def _library(ctx: Context, *, warn: bool) -> object:
    from ..printing.decks import load_decks

    library = load_decks(user_decks_dir(ctx))
    if warn:
        for problem in library.problems:
            print(f"campaign-cli: warning: skipped {problem}", file=sys.stderr)
    return library


# ---------------------------------------------------------------------------------------------- print cards


def _register_cards(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    from ..printing.sizes import CARD_PAPERS, CARD_SIZES, CARD_STOCK_SIZES, DEFAULT_MARGIN_MM, DEFAULT_SIZE

    p = sub.add_parser(
        "cards",
        parents=[parent],
        help="play-aid cards as a PDF (N-up with cut marks)",
        description="Print play-aid cards from the shipped decks and your own "
        "(<data folder>/decks). Without --deck or --card: every card. With "
        "--campaign, the Atomic Africa and Sologear cards print that campaign's "
        "house rules; without, the default rules (the cards say which).",
    )
    p.add_argument(
        "--deck",
        action="append",
        default=[],
        metavar="ID",
        help="every card of this deck (repeat for more; see 'print decks')",
    )
    p.add_argument(
        "--card",
        action="append",
        default=[],
        metavar="ID",
        help="one card, as DECK/CARD or a card id (repeat for more)",
    )
    p.add_argument(
        "--size",
        choices=tuple(CARD_SIZES),
        default=DEFAULT_SIZE,
        help=f"card size (default {DEFAULT_SIZE}: 63×88 mm; postcard is 4×6 in)",
    )
    p.add_argument(
        "--paper",
        choices=CARD_PAPERS,
        default=None,
        help="paper (default from your locale: Letter in the US and Canada, else A4); 'card': one "
        f"card per page on card stock of the card's size ({', '.join(CARD_STOCK_SIZES)})",
    )
    p.add_argument(
        "--campaign",
        metavar="NAME",
        help="print this campaign's house rules (thresholds, objective XP, replacement leader, reward dice ...)",
    )
    p.add_argument(
        "--margin",
        metavar="MM",
        default=None,
        help=f"safe margin: nothing printed closer to the paper's edge (default {DEFAULT_MARGIN_MM:g})",
    )
    p.add_argument(
        "--bleed",
        metavar="MM",
        default=None,
        help="header bands and solid backs run this far past the cut line (default 0, e.g. 2)",
    )
    p.add_argument(
        "--duplex-offset",
        metavar="X,Y",
        default=None,
        help="shift every back page by X,Y mm (measure it with 'print alignment')",
    )
    p.add_argument(
        "--solid-backs",
        action="store_true",
        help="fill the backs with the deck colour (default: a light pattern and frame)",
    )
    p.add_argument("--grayscale", action="store_true", help="gray, ink-saving cards (no colour fills)")
    faces = p.add_mutually_exclusive_group()
    faces.add_argument(
        "--backs",
        action="store_true",
        help="after each page of fronts, a page of backs (print double-sided, flip on the long edge)",
    )
    faces.add_argument(
        "--fold",
        action="store_true",
        help="front and back side by side: cut out the pair and fold it on the dashed mark",
    )
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the PDF to write")
    add_json(p)
    p.set_defaults(handler=_cmd_cards)


def _setup_and_rules(args: argparse.Namespace, ctx: Context) -> tuple[Any, Any]:
    from ..services.printing import card_rules, print_setup

    setup = print_setup(
        args.margin,
        getattr(args, "bleed", None),
        args.duplex_offset,
        "solid" if getattr(args, "solid_backs", False) else None,
    )
    rules = None
    if getattr(args, "campaign", None):
        ctx.open_db(reading=True)
        rules = card_rules(lookup.optional_campaign_id(args.campaign))
    return setup, rules


def _cmd_cards(args: argparse.Namespace, ctx: Context) -> int:
    from ..printing.cards import build_cards_pdf
    from ..printing.decks import select_cards

    setup, rules = _setup_and_rules(args, ctx)
    library = _library(ctx, warn=True)
    from .. import fileio

    out = fileio.check_output(args.output, "cards.pdf")
    layout = "backs" if args.backs else "fold" if args.fold else "fronts"
    cards = select_cards(library, args.deck, args.card)  # type: ignore[arg-type]
    job = None
    if rules is not None:  # a campaign's cards: stamped and remembered
        from ..services.print_requests import CardsRequest
        from ..services.printing import prepare

        job = prepare(
            CardsRequest(  # no QR: no free corner on cards
                campaign=lookup.optional_campaign_id(args.campaign),
                decks=tuple(args.deck),
                cards=tuple(args.card),
                library=library,  # type: ignore[arg-type]
            )
        )
        rules = job.data  # the very rules the job's fingerprint was made of
    from ..printing.stamp import stamping

    with fileio.atomic_output(out, "cards.pdf") as tmp, stamping(job.stamp if job else None):
        result = build_cards_pdf(
            cards,
            tmp,
            decks=library,  # type: ignore[arg-type]
            size=args.size,
            paper=args.paper,
            grayscale=args.grayscale,
            layout=layout,
            setup=setup,
            rules=rules,
        )
    if job is not None:
        job.remember()
    data = {"output": str(out), **result.to_dict()}
    return emit(
        args,
        data,
        f"wrote {out}: {plural(result.cards, 'card')} on {plural(result.pages, 'page')} "
        f"({result.per_page} per page, {args.size}, {result.paper}, {layout}, "
        f"margin {setup.margin:g} mm; {data['rules']})",
    )


# ---------------------------------------------------------------------------------------------- alignment


def _register_alignment(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    from ..printing.sizes import CARD_SIZES, DEFAULT_SIZE, SHEET_PAPERS

    p = sub.add_parser(
        "alignment",
        parents=[parent],
        help="a one-sheet duplex alignment test",
        description="A two-sided test sheet: print it double-sided like your cards, hold it "
        "against the light and read the back's shift on the front's millimetre "
        "scales; pass the opposite numbers as --duplex-offset X,Y to 'print cards'.",
    )
    p.add_argument("--paper", choices=SHEET_PAPERS, default=None, help="paper (default from your locale)")
    p.add_argument("--size", choices=tuple(CARD_SIZES), default=DEFAULT_SIZE, help="card size of the outlines")
    p.add_argument("--margin", metavar="MM", default=None, help="safe margin (default 6.5)")
    p.add_argument("--duplex-offset", metavar="X,Y", default=None, help="the offset to test (default 0,0)")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the PDF to write")
    add_json(p)
    p.set_defaults(handler=_cmd_alignment)


def _cmd_alignment(args: argparse.Namespace, ctx: Context) -> int:
    import io

    from ..printing.cards import build_alignment_test
    from ..services.printing import write_pdf_atomic

    setup, _rules = _setup_and_rules(args, ctx)
    buffer = io.BytesIO()
    pages = build_alignment_test(buffer, paper=args.paper, size=args.size, setup=setup)
    out = write_pdf_atomic(args.output, buffer.getvalue())
    return emit(
        args,
        {"output": str(out), "pages": pages, **setup.to_dict()},
        f"wrote {out}: duplex alignment test, {pages} pages (print both sides)",
    )


# ---------------------------------------------------------------------------------------------- print decks


def _register_decks(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "decks",
        parents=[parent],
        help="list the card decks and their cards",
        description="The decks you can print: shipped ones and those in <data folder>/decks. "
        "Files that could not be read are listed under 'problems'.",
    )
    add_json(p)
    p.set_defaults(handler=_cmd_decks)


def _cmd_decks(args: argparse.Namespace, ctx: Context) -> int:
    from ..printing.decks import DeckLibrary

    library = _library(ctx, warn=False)
    assert isinstance(library, DeckLibrary)
    from ..rules.tables import RULE_TABLES

    data = {
        "decks": [deck.to_dict() for deck in library.decks.values()],
        "user_decks_dir": str(user_decks_dir(ctx)),
        "rule_tables": [{"name": t.name, "description": t.description} for t in RULE_TABLES.values()],
        "problems": [{"file": str(p.path), "line": p.line, "message": p.message} for p in library.problems],
    }

    def text() -> str:
        lines = []
        for deck in library.decks.values():
            n = len(deck.cards)
            lines.append(f"{deck.id}: {deck.title} ({deck.system}) - {n} card{'' if n == 1 else 's'} [{deck.origin}]")
            for card in deck.cards:
                lines.append(f"  {card.full_id}: {card.title}")
        lines.append(f"your decks folder: {user_decks_dir(ctx)}")
        lines.append(f"rule tables a card can name: {', '.join(RULE_TABLES)}")
        for problem in library.problems:
            lines.append(f"problem: {problem}")
        return "\n".join(lines)

    return emit(args, data, text)
