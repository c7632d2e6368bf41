"""Printing use cases: gather the data for a sheet or report from the other services, build the PDF with
``campaign_app.printing`` and write it **atomically** (a temporary file in the same folder, then a rename), so
a failure never leaves half a file behind.

Nothing here writes to the database. The GUI's print dialog and ``campaign-cli print sheet|sologear|history``
both call these functions.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import fileio
from ..printing.sizes import CARD_PAPERS, PAPER_SIZES, PrintSetup
from ..store.models import Campaign
from .common import ServiceError, find_campaign, thresholds_of

if TYPE_CHECKING:  # the builders import reportlab: only when a PDF is made
    from ..printing.history_report import HistoryData
    from ..printing.sologear_sheet import SologearSheetData
    from ..printing.unit_sheet import BlankSheet, SheetEntry, UnitSheet

KINDS: tuple[str, ...] = ("sheet", "sologear", "history", "cards")
"""What can be printed: Unit Data Sheets, Sologear forms, a platoon's history report, play-aid cards."""

Progress = Callable[[int, int], None]


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_read_umask()
"""New PDFs get the usual permissions (the temporary file starts private)."""


@dataclass(frozen=True)
class Printed:
    """What a print call wrote."""

    kind: str
    path: Path
    pages: int
    size: int
    details: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "output": str(self.path), "pages": self.pages, "bytes": self.size,
                **self.details}


# --------------------------------------------------------------------------------------------- helpers


def check_paper(paper: str | None) -> str | None:
    """``None`` (the locale's default) or a known paper name, lower-cased."""
    if paper is None or paper == "":
        return None
    name = str(paper).strip().lower()
    if name not in PAPER_SIZES:
        raise ServiceError(f"unknown paper {paper!r}: use one of {', '.join(PAPER_SIZES)}")
    return name


def page_count(pdf: bytes) -> int:
    """Pages in a PDF made by reportlab (its page objects are written uncompressed)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def check_output(path: str | os.PathLike[str]) -> Path:
    """The output path, refused when it is a folder or its folder does not exist."""
    return fileio.check_output(path, "sheet.pdf")


def write_pdf_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` through a randomly named temporary file in the same folder and a rename
    (:mod:`campaign_app.fileio`): the file is either the whole new PDF or untouched."""
    return fileio.write_atomic(path, data, "sheet.pdf")


def _campaign_of(ref: str | int | None) -> Campaign | None:
    return None if ref is None or ref == "" else find_campaign(ref)


def check_card_paper(paper: str | None) -> str | None:
    """``None`` (the locale's default), a paper name, or "card" (card stock of the card's size)."""
    if paper is None or paper == "":
        return None
    name = str(paper).strip().lower()
    if name not in CARD_PAPERS:
        raise ServiceError(f"unknown paper {paper!r} for cards: use one of {', '.join(CARD_PAPERS)}")
    return name


def print_setup(margin: Any = None, bleed: Any = None, offset: Any = None, back_style: str | None = None) -> PrintSetup:
    """A :class:`PrintSetup` from loose values (numbers or text in mm; ``offset`` an (x, y) pair or "x,y");
    None keeps a default. Bad values raise ServiceError naming the value."""
    from ..printing.sizes import DEFAULT_BACK_STYLE, DEFAULT_BLEED_MM, DEFAULT_MARGIN_MM, parse_mm, parse_offset

    ox, oy = (0.0, 0.0)  # the printing module's errors are Refused (ServiceError) already
    if offset not in (None, ""):
        ox, oy = parse_offset(offset) if isinstance(offset, str) else (parse_mm(offset[0], "duplex offset x"),
                                                                      parse_mm(offset[1], "duplex offset y"))
    return PrintSetup(margin=DEFAULT_MARGIN_MM if margin in (None, "") else parse_mm(margin, "safe margin"),
                      bleed=DEFAULT_BLEED_MM if bleed in (None, "") else parse_mm(bleed, "bleed"),
                      offset_x=ox, offset_y=oy, back_style=back_style or DEFAULT_BACK_STYLE)


def card_rules(campaign: str | int | None) -> Any:
    """The house rules a campaign's cards print (:class:`~campaign_app.rules.tables.CardRules`): an Atomic
    Africa campaign's thresholds, objective XP, replacement leader and period; a Sologear campaign's reward
    dice, tables and ferocious battles (from its sheet). None: the default rules."""
    from ..rules.tables import CardRules

    camp = _campaign_of(campaign)
    if camp is None:
        return CardRules()
    if camp.system == "atomic_africa":
        return CardRules(campaign=camp.name, thresholds=thresholds_of(camp), objective_xp_to=camp.objective_xp_to,
                         replacement_dice=camp.replacement_dice, period=camp.period)
    from ..store.models import SologearSheet

    sheet = (SologearSheet.select().where(SologearSheet.campaign == camp.id).order_by(SologearSheet.id.desc())
             .first())
    if sheet is None:
        return CardRules(campaign=camp.name)
    return CardRules(campaign=camp.name, reward_dice=sheet.reward_dice, variable_tables=bool(sheet.variable_tables),
                     ferocious=bool(sheet.ferocious))


# -------------------------------------------------------------------------------------- Unit Data Sheet


def unit_sheet_data(platoon: str | int, campaign: str | int | None = None) -> UnitSheet:
    """The plain data of one platoon's Unit Data Sheet (from the roster's ``platoon_detail``)."""
    from ..printing.unit_sheet import unit_sheet_from_detail
    from .platoons import platoon_detail

    return unit_sheet_from_detail(platoon_detail(platoon, campaign))


def blank_sheet_data(campaign: str | int | None = None) -> BlankSheet:
    """A blank sheet, carrying the campaign's name and XP thresholds when a campaign is named."""
    from ..printing.unit_sheet import BlankSheet

    camp = _campaign_of(campaign)
    if camp is None:
        return BlankSheet()
    if camp.system != "atomic_africa":
        raise ServiceError(f"{camp.name!r} is a Sologear campaign: its forms are printed with 'sologear'")
    return BlankSheet(campaign=camp.name, thresholds=thresholds_of(camp))


def unit_sheet_entries(platoons: Sequence[str | int] = (), *, blank: bool = False,
                       campaign: str | int | None = None) -> list[SheetEntry]:
    """One entry per page. ``blank``: one blank sheet (for ``campaign`` if named, else for the campaign of
    each distinct campaign of ``platoons``, else with the default thresholds); otherwise one filled sheet per
    platoon (names looked up within ``campaign`` when given)."""
    if blank:
        if not platoons:
            return [blank_sheet_data(campaign)]
        from .platoons import platoon_detail

        seen: list[str] = []
        for ref in platoons:
            name = platoon_detail(ref, campaign).campaign
            if name not in seen:
                seen.append(name)
        return [blank_sheet_data(name) for name in seen]
    if not platoons:
        raise ServiceError("name at least one platoon (or ask for a blank sheet)")
    return [unit_sheet_data(ref, campaign) for ref in platoons]


# --------------------------------------------------------------------------------------------- Sologear


def sologear_data(campaign: str | int) -> SologearSheetData:
    """A Sologear campaign's sheet data (by campaign name or sheet id)."""
    from .sologear_sheet import print_data, sheet_data

    return print_data(sheet_data(campaign))


# ---------------------------------------------------------------------------------------------- history


def history_data(platoon: str | int, campaign: str | int | None = None) -> HistoryData:
    from ..printing.history_report import history_from_report
    from .history import history_report

    return history_from_report(history_report(platoon, campaign))


# ------------------------------------------------------------------------------------------------ cards


def cards_pdf(decks: Sequence[str] = (), cards: Sequence[str] = (), *, user_decks_dir: Path | None = None,
              library: Any = None, size: str | None = None, paper: str | None = None, grayscale: bool = False,
              layout: str = "fronts", progress: Progress | None = None, setup: PrintSetup | None = None,
              rules: Any = None) -> tuple[bytes, dict[str, Any]]:
    """Play-aid cards (:func:`campaign_app.printing.cards.build_cards_pdf`) as bytes, with its summary.
    ``library`` is a loaded DeckLibrary (else the decks are loaded, with ``user_decks_dir``). No deck and no
    card chosen means every card. ``setup``: margin, bleed, duplex offset, backs; ``rules``: a campaign's
    CardRules (see :func:`card_rules`; read it before, in the thread that owns the database). Unknown
    decks/cards or a card that does not fit raise ServiceError. Reads no database: safe to run in a worker
    thread."""
    import io

    from ..printing.cards import DEFAULT_SIZE, build_cards_pdf
    from ..printing.decks import DeckError, load_decks, select_cards

    if library is None:
        library = load_decks(user_decks_dir)
    buffer = io.BytesIO()
    try:
        chosen = select_cards(library, list(decks), list(cards))
        result = build_cards_pdf(chosen, buffer, decks=library, size=size or DEFAULT_SIZE,
                                 paper=check_card_paper(paper), grayscale=grayscale, layout=layout,
                                 progress=progress, setup=setup, rules=rules)
    except DeckError as exc:
        raise ServiceError(str(exc)) from None
    return buffer.getvalue(), result.to_dict()


# ------------------------------------------------------------------------------------------------- jobs


@dataclass
class PrintJob:
    """A PDF ready to be built: the data was read from the database when the job was prepared, so
    :meth:`run` touches no database and may run in a worker thread (the GUI does so)."""

    kind: str
    build: Callable[[Progress | None], tuple[bytes, dict[str, Any]]]
    details: dict[str, Any]

    def run(self, progress: Progress | None = None) -> tuple[bytes, dict[str, Any]]:
        """(PDF bytes, details: what was printed, pages ...)."""
        data, extra = self.build(progress)
        return data, {**self.details, **extra, "pages": page_count(data), "bytes": len(data)}


def prepare(kind: str, **options: Any) -> PrintJob:
    """Read what ``kind`` (see :data:`KINDS`) needs now and return the job that builds its PDF.

    Options: sheet: ``platoons``, ``blank``, ``pencil``, ``campaign``, ``paper``, ``printed_on``;
    sologear: ``campaign``, ``blank``, ``paper``, ``printed_on``; history: ``platoon``, ``campaign``,
    ``paper``, ``printed_on``; cards: the keyword arguments of :func:`cards_pdf` (``decks``, ``cards``,
    ``library`` or ``user_decks_dir``, ``size``, ``paper``, ``grayscale``, ``layout``, ``setup``) and
    ``campaign`` (print that campaign's house rules).
    """
    opts = dict(options)
    if kind == "sheet":
        from ..printing.unit_sheet import UnitSheet, build_unit_sheets

        paper = check_paper(opts.get("paper"))
        entries = unit_sheet_entries(opts.get("platoons", ()), blank=bool(opts.get("blank")),
                                     campaign=opts.get("campaign"))
        pencil, printed_on = bool(opts.get("pencil")), opts.get("printed_on")
        details = {"platoons": [e.name for e in entries if isinstance(e, UnitSheet)],
                   "blank": bool(opts.get("blank")), "pencil": pencil}
        return PrintJob(kind, lambda _p: (build_unit_sheets(entries, paper=paper, pencil=pencil,
                                                             printed_on=printed_on), {}), details)
    if kind == "sologear":
        from ..printing.sologear_sheet import build_sologear_sheet

        paper = check_paper(opts.get("paper"))
        campaign, blank = opts.get("campaign"), bool(opts.get("blank"))
        if not blank and (campaign is None or campaign == ""):
            raise ServiceError("name a Sologear campaign (or ask for blank forms)")
        sheet = None if blank else sologear_data(campaign)  # type: ignore[arg-type]
        details = {"campaign": sheet.name if sheet else None, "blank": blank}
        return PrintJob(kind, lambda _p: (build_sologear_sheet(sheet, paper=paper,
                                                                printed_on=opts.get("printed_on")), {}), details)
    if kind == "history":
        from ..printing.history_report import build_history_report

        paper = check_paper(opts.get("paper"))
        if opts.get("platoon") in (None, ""):
            raise ServiceError("name the platoon whose history to print")
        history = history_data(opts["platoon"], opts.get("campaign"))
        details = {"platoon": history.platoon}
        return PrintJob(kind, lambda _p: (build_history_report(history, paper=paper,
                                                                printed_on=opts.get("printed_on")), {}), details)
    if kind == "cards":
        check_card_paper(opts.get("paper"))
        campaign = opts.pop("campaign", None)
        if opts.get("rules") is None:
            opts["rules"] = card_rules(campaign)  # read now: the build may run in a worker thread
        return PrintJob(kind, lambda progress: cards_pdf(**opts, progress=progress),
                        {"rules": opts["rules"].note})
    raise ServiceError(f"nothing called {kind!r} can be printed (one of {', '.join(KINDS)})")


# ------------------------------------------------------------------------------------------------ write


def print_pdf(kind: str, output: str | os.PathLike[str], *, progress: Progress | None = None,
              **options: Any) -> Printed:
    """Prepare and build the PDF of ``kind`` (options as for :func:`prepare`) and write it atomically to
    ``output``. The output path is checked before any work is done."""
    out = check_output(output)
    data, details = prepare(kind, **options).run(progress)
    written = write_pdf_atomic(out, data)
    details = {k: v for k, v in details.items() if k not in ("pages", "bytes")}
    return Printed(kind, written, page_count(data), len(data), details)
