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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import fileio
from ..printing.sizes import CARD_PAPERS, PAPER_SIZES, PrintSetup
from ..store.models import Campaign
from ..words import plural
from .common import ServiceError, resolve_campaign, thresholds_of
from .edits import Edit
from .print_requests import (
    REQUEST_TYPES,
    BoutRequest,
    CardsRequest,
    ChronicleRequest,
    FighterRequest,
    HistoryRequest,
    PrintRequest,
    SologearRequest,
    StandingsRequest,
    UnitSheetRequest,
)
from .results import Result

if TYPE_CHECKING:  # the builders import reportlab: only when a PDF is made
    from ..printing.cards import CardsPdf
    from ..printing.chronicle_report import ChronicleData
    from ..printing.decks import DeckLibrary
    from ..printing.history_report import ChangeRow, HistoryData
    from ..printing.sologear_sheet import SologearSheetData
    from ..printing.standings_report import StandingsData
    from ..printing.unit_sheet import BlankSheet, SheetEntry, UnitSheet
    from ..rules.tables import CardRules
    from .chronicle import Chronicle
    from .history import HistoryReport
    from .history_results import TimelineEvent
    from .prints import Subject
    from .standings import Standings

KINDS: tuple[str, ...] = tuple(t.kind for t in REQUEST_TYPES)
"""What can be printed: Unit Data Sheets, Sologear forms, a platoon's history report, play-aid cards, a
campaign's standings and its chronicle, d12 Death Blow fighter sheets and a bout's round log."""

Progress = Callable[[int, int], None]


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_read_umask()
"""New PDFs get the usual permissions (the temporary file starts private)."""


@dataclass(frozen=True)
class SheetDetails(Result):
    """Unit Data Sheets printed: the platoons' names (none when blank), blank forms, pencil-friendly."""

    platoons: tuple[str, ...]
    blank: bool
    pencil: bool


@dataclass(frozen=True)
class SologearDetails(Result):
    """A Sologear campaign's forms (``campaign`` None: blank forms)."""

    campaign: str | None
    blank: bool


@dataclass(frozen=True)
class HistoryDetails(Result):
    """A platoon's history report."""

    platoon: str


@dataclass(frozen=True)
class CardsDetails(Result):
    """Play-aid cards: whose rules they print, and (once built) the layout
    (:class:`~campaign_app.printing.cards.CardsPdf`: cards, per page, paper, size, print setup...)."""

    rules: str
    """"Rules: campaign X" or "Rules: default rules", as the cards say."""
    cards: CardsPdf | None = None

    def to_dict(self) -> dict[str, Any]:  # the layout's own JSON, beside the rules
        return {"rules": self.rules, **(self.cards.to_dict() if self.cards is not None else {})}


@dataclass(frozen=True)
class CampaignDetails(Result):
    """A campaign's standings or chronicle."""

    campaign: str


@dataclass(frozen=True)
class FighterDetails(Result):
    """d12 Death Blow fighter sheets: the fighters' names (none when blank)."""

    fighters: tuple[str, ...]
    blank: bool


@dataclass(frozen=True)
class BoutDetails(Result):
    """A bout's round log."""

    bout: int
    rounds: int


PrintDetails = (
    SheetDetails | SologearDetails | HistoryDetails | CardsDetails | CampaignDetails | FighterDetails | BoutDetails
)
"""What was printed, by kind (each kind's JSON keys beside ``pages`` and ``bytes``)."""


@dataclass(frozen=True)
class BuiltPdf(Result):
    """A PDF a :class:`PrintJob` built: the bytes, its pages and size, and what it prints."""

    data: bytes = field(repr=False, metadata={"json": False})
    pages: int
    size: int = field(metadata={"json": "bytes"})
    details: PrintDetails

    def to_dict(self) -> dict[str, Any]:  # flat: what was printed, then pages and bytes
        return {**self.details.to_dict(), "pages": self.pages, "bytes": self.size}


@dataclass(frozen=True)
class Printed(Result):
    """What a print call wrote (``campaign-cli print ... --json``: kind, output, pages, bytes, then what was
    printed)."""

    kind: str
    path: Path
    pages: int
    size: int
    details: PrintDetails

    def to_dict(self) -> dict[str, Any]:  # flat, as the CLI always printed it
        details = {k: v for k, v in self.details.to_dict().items() if k not in ("pages", "bytes")}
        return {"kind": self.kind, "output": str(self.path), "pages": self.pages, "bytes": self.size, **details}


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


def _campaign_of(ref: int | None) -> Campaign | None:
    return None if ref is None else resolve_campaign(ref)


def check_card_paper(paper: str | None) -> str | None:
    """``None`` (the locale's default), a paper name, or "card" (card stock of the card's size)."""
    if paper is None or paper == "":
        return None
    name = str(paper).strip().lower()
    if name not in CARD_PAPERS:
        raise ServiceError(f"unknown paper {paper!r} for cards: use one of {', '.join(CARD_PAPERS)}")
    return name


def print_setup(
    margin: str | float | None = None,
    bleed: str | float | None = None,
    offset: str | tuple[str | float, str | float] | None = None,
    back_style: str | None = None,
) -> PrintSetup:
    """A :class:`PrintSetup` from loose values (numbers or text in mm; ``offset`` an (x, y) pair or "x,y");
    None keeps a default. Bad values raise ServiceError naming the value."""
    from ..printing.sizes import DEFAULT_BACK_STYLE, DEFAULT_BLEED_MM, DEFAULT_MARGIN_MM, parse_mm, parse_offset

    ox, oy = (0.0, 0.0)  # the printing module's errors are Refused (ServiceError) already
    if offset not in (None, ""):
        ox, oy = (
            parse_offset(offset)
            if isinstance(offset, str)
            else (parse_mm(offset[0], "duplex offset x"), parse_mm(offset[1], "duplex offset y"))
        )
    return PrintSetup(
        margin=DEFAULT_MARGIN_MM if margin in (None, "") else parse_mm(margin, "safe margin"),
        bleed=DEFAULT_BLEED_MM if bleed in (None, "") else parse_mm(bleed, "bleed"),
        offset_x=ox,
        offset_y=oy,
        back_style=back_style or DEFAULT_BACK_STYLE,
    )


def card_rules(campaign: int | None) -> CardRules:
    """The house rules a campaign's cards print (:class:`~campaign_app.rules.tables.CardRules`): an Atomic
    Africa campaign's thresholds, objective XP, replacement leader and period; a Sologear campaign's reward
    dice, tables and ferocious battles (from its sheet). None: the default rules."""
    from ..rules.tables import CardRules

    camp = _campaign_of(campaign)
    if camp is None:
        return CardRules()
    if camp.system == "atomic_africa":
        return CardRules(
            campaign=camp.name,
            thresholds=thresholds_of(camp),
            objective_xp_to=camp.objective_xp_to,
            replacement_dice=camp.replacement_dice,
            period=camp.period,
        )
    if camp.system == "death_blow":  # the fighters' figures, for the cards that show them
        from .death_blow import list_fighters

        fighters = tuple((f.name, f.level, f.xp, f.lifetime_xp) for f in list_fighters(camp, include_retired=False))
        return CardRules(campaign=camp.name, fighters=fighters)
    from ..store.models import SologearSheet

    sheet = SologearSheet.select().where(SologearSheet.campaign == camp.id).order_by(SologearSheet.id.desc()).first()
    if sheet is None:
        return CardRules(campaign=camp.name)
    return CardRules(
        campaign=camp.name,
        reward_dice=sheet.reward_dice,
        variable_tables=bool(sheet.variable_tables),
        ferocious=bool(sheet.ferocious),
    )


# -------------------------------------------------------------------------------------- Unit Data Sheet


def unit_sheet_data(platoon: int) -> UnitSheet:
    """The plain data of one platoon's Unit Data Sheet (from the roster's ``platoon_detail``)."""
    from ..printing.unit_sheet import unit_sheet_from_detail
    from .platoons import platoon_detail

    return unit_sheet_from_detail(platoon_detail(platoon))


def blank_sheet_data(campaign: int | None = None) -> BlankSheet:
    """A blank sheet, carrying the campaign's name and XP thresholds when a campaign is named."""
    from ..printing.unit_sheet import BlankSheet

    camp = _campaign_of(campaign)
    if camp is None:
        return BlankSheet()
    if camp.system != "atomic_africa":
        raise ServiceError(f"{camp.name!r} is a Sologear campaign: its forms are printed with 'sologear'")
    return BlankSheet(campaign=camp.name, thresholds=thresholds_of(camp))


def unit_sheet_entries(
    platoons: Sequence[int] = (), *, blank: bool = False, campaign: int | None = None
) -> list[SheetEntry]:
    """One entry per page. ``blank``: one blank sheet (for ``campaign`` if named, else for the campaign of
    each distinct campaign of ``platoons``, else with the default thresholds); otherwise one filled sheet per
    platoon (by id)."""
    if blank:
        if not platoons:
            return [blank_sheet_data(campaign)]
        from .common import resolve_platoon

        seen: list[int] = []
        for ref in platoons:
            camp_id = int(resolve_platoon(ref).campaign_id)
            if camp_id not in seen:
                seen.append(camp_id)
        return [blank_sheet_data(camp_id) for camp_id in seen]
    if not platoons:
        raise ServiceError("name at least one platoon (or ask for a blank sheet)")
    return [unit_sheet_data(ref) for ref in platoons]


# --------------------------------------------------------------------------------------------- Sologear


def sologear_data(campaign: int) -> SologearSheetData:
    """A Sologear campaign's sheet data (by campaign name or sheet id)."""
    from .sologear_sheet import print_data, sheet_data

    return print_data(sheet_data(campaign))


# ---------------------------------------------------------------------------------------------- history


def changes_by_hand(events: Sequence[TimelineEvent]) -> tuple[ChangeRow, ...]:
    """The changes made by hand since the first battle (those before it set the roster up), oldest first:
    every attribute change, and XP changes that no battle made; the text is the event's own sentence."""
    events = list(events)
    first_battle = max((i for i, e in enumerate(events) if e.kind == "battle"), default=len(events))
    from ..printing.history_report import ChangeRow

    return tuple(
        ChangeRow((e.date or "")[:10], e.text)
        for e in reversed(events[:first_battle])
        if e.kind == "attribute" or (e.kind == "xp" and e.battle_id is None)
    )


def history_from_report(report: HistoryReport) -> HistoryData:
    """The printed report's plain data (:class:`~campaign_app.printing.history_report.HistoryData`) from
    ``services.history.history_report`` (one read of everything)."""
    from ..printing.history_report import BattleRow, HistoryData, LeaderRow, RollRow, Summary, WoundsPoint, XpPoint
    from ..rules.experience import DEFAULT_THRESHOLDS, Thresholds

    s = report.summary
    summary = Summary(
        xp=s.xp,
        level=s.level,
        leader=s.leader,
        battles=s.battles,
        victories=s.victories,
        defeats=s.defeats,
        draws=s.draws,
        unrecorded=s.unrecorded,
        total_wounds=s.total_wounds,
        leader_wounds=s.leader_wounds,
        xp_lost=s.xp_lost,
        xp_awarded=s.xp_awarded,
        leaders_lost=s.leaders_lost,
        casualties=s.casualties,
        promotions=s.promotions,
        leaders=s.leaders,
        first_battle=s.first_battle,
        last_battle=s.last_battle,
    )
    hist = report.history
    battles = []
    for b in sorted(hist.battles, key=lambda b: b.number):
        battles.append(
            BattleRow(
                number=b.number,
                date=(b.date or "")[:10],
                scenario=b.scenario,
                opponent=b.opponent,
                outcome=b.outcome,
                objectives=b.objectives,
                wounds=b.wounds,
                leader_wounds=b.leader_wounds,
                xp_before=b.platoon_xp_before,
                xp_after=b.platoon_xp_after,
                xp_lost=b.xp_lost,
                leader=b.leader or "",
                leader_xp_before=b.leader_xp_before,
                leader_xp_after=b.leader_xp_after,
                leader_fate=b.leader_fate,
                replacement=b.replacement.name if b.replacement else "",
                fire_support=b.fire_support,
                notes=b.notes.strip(),
                rolls=tuple(
                    RollRow(
                        r.purpose_text,
                        r.expression,
                        tuple(r.faces),
                        r.total,
                        r.rule_text,
                        r.table_row or "",
                        r.outcome,
                        r.source,
                    )
                    for r in b.rolls
                ),
            )
        )
    leaders = tuple(
        LeaderRow(
            name=ld.name,
            rank=ld.rank,
            how=ld.how,
            joined=ld.joined,
            left="" if ld.current else ld.left,
            battles_led=ld.battles_led,
            xp_at_join=ld.xp_at_join,
            xp=ld.xp,
            level=ld.level,
            current=ld.current,
        )
        for ld in report.leaders
    )
    series = report.xp_series
    points = [XpPoint(0, series.start.platoon_xp, series.start.leader_xp)]
    for p in series.points:
        change = p.leader_change
        points.append(
            XpPoint(
                p.battle, p.platoon_xp, p.leader_xp, change.fate if change else None, change.old_xp if change else None
            )
        )
    thresholds = Thresholds(*series.thresholds) if series.thresholds else DEFAULT_THRESHOLDS
    wounds = tuple(WoundsPoint(w.battle, w.wounds, w.leader_wounds, w.xp_lost) for w in report.wounds_series)
    return HistoryData(
        platoon=s.platoon,
        campaign=s.campaign,
        summary=summary,
        battles=tuple(battles),
        leaders=leaders,
        xp_points=tuple(points),
        thresholds=thresholds,
        wounds=wounds,
        changes=changes_by_hand(hist.events),
    )


def history_data(platoon: int) -> HistoryData:
    from .history import history_report

    return history_from_report(history_report(platoon))


# ------------------------------------------------------------------------------------------------ cards


def cards_pdf(
    decks: Sequence[str] = (),
    cards: Sequence[str] = (),
    *,
    user_decks_dir: Path | None = None,
    library: DeckLibrary | None = None,
    size: str | None = None,
    paper: str | None = None,
    grayscale: bool = False,
    layout: str = "fronts",
    progress: Progress | None = None,
    setup: PrintSetup | None = None,
    rules: CardRules | None = None,
) -> tuple[bytes, CardsPdf]:
    """Play-aid cards (:func:`campaign_app.printing.cards.build_cards_pdf`) as bytes, with its layout.
    ``library`` is a loaded DeckLibrary (else the decks are loaded, with ``user_decks_dir``). No deck and no
    card chosen means every card. ``setup``: margin, bleed, duplex offset, backs; ``rules``: a campaign's
    CardRules (see :func:`card_rules`; read it before, in the thread that owns the database). Unknown
    decks/cards or a card that does not fit raise ServiceError. Reads no database: safe to run in a worker
    thread."""
    import io

    from ..printing.cards import build_cards_pdf
    from ..printing.decks import DeckError, load_decks, select_cards
    from ..printing.sizes import DEFAULT_SIZE

    if library is None:
        library = load_decks(user_decks_dir)
    buffer = io.BytesIO()
    try:
        chosen = select_cards(library, list(decks), list(cards))
        result = build_cards_pdf(
            chosen,
            buffer,
            decks=library,
            size=size or DEFAULT_SIZE,
            paper=check_card_paper(paper),
            grayscale=grayscale,
            layout=layout,
            progress=progress,
            setup=setup,
            rules=rules,
        )
    except DeckError as exc:
        raise ServiceError(str(exc)) from None
    return buffer.getvalue(), result


# ------------------------------------------------------------------------------------------- Death Blow


def fighter_sheets(fighters: Sequence[int] = (), *, blank: bool = False, campaign: int | None = None) -> list[Any]:
    """The fighter sheets to print: one per fighter (by id), every active fighter of ``campaign`` (by id) when
    none is given, or one blank sheet."""
    from ..printing.death_blow_sheets import FighterSheet
    from . import death_blow

    if blank:
        camp = _campaign_of(campaign)
        return [FighterSheet(campaign=camp.name if camp else "")]
    refs: list[int] = list(fighters)
    if not refs:
        if campaign is None:
            raise ServiceError("name a fighter (or a Death Blow campaign, or ask for a blank sheet)")
        refs = [f.id for f in death_blow.list_fighters(campaign, include_retired=False)]
        if not refs:
            raise ServiceError("the campaign has no active fighters to print (ask for a blank sheet)")
    out = []
    for ref in refs:
        f = death_blow.show_fighter(ref)
        recent = []
        for b in f.recent[:8]:
            mine = b.fighter if b.fighter_id == f.id else b.opponent
            other = b.opponent if b.fighter_id == f.id else b.fighter
            result = "draw" if b.winner == "draw" else (f"won, +{b.xp_gained} XP" if b.winner == mine else "lost")
            recent.append((b.date, other, result))
        out.append(
            FighterSheet(
                name=f.name,
                campaign=f.campaign,
                level=f.level,
                xp=f.xp,
                lifetime_xp=f.lifetime_xp,
                bouts=f.bouts,
                wins=f.wins,
                draws=f.draws,
                losses=f.losses,
                notes=f.notes,
                recent=tuple(recent),
            )
        )
    return out


def bout_log(bout: int) -> Any:
    from ..printing.death_blow_sheets import BoutLog
    from ..store.models import Bout as BoutModel
    from ..store.models import Fighter
    from . import death_blow

    b = death_blow.show_bout(bout)
    row = BoutModel.get_by_id(b.id)
    camp = Campaign.get_by_id(Fighter.get_by_id(row.fighter_id).campaign_id)
    return BoutLog(
        b.id,
        b.date,
        camp.name,
        b.fighter,
        b.opponent,
        b.fighter_level,
        b.opponent_level,
        b.winner,
        b.face_cards_left,
        b.xp_gained,
        b.seed,
        b.dice_note,
        tuple(b.rounds),
    )


# ------------------------------------------------------------------------------------------------- jobs


@dataclass
class PrintJob:
    """A PDF ready to be built: the data was read from the database when the job was prepared, so
    :meth:`run` touches no database and may run in a worker thread (the GUI does so). ``build`` gives the
    PDF's bytes and what it prints."""

    kind: str
    build: Callable[[Progress | None], tuple[bytes, PrintDetails]]
    subjects: list[Subject] = field(default_factory=list)
    """What the printout holds that the app remembers when it is printed (``services.prints``)."""
    stamp: Any = None
    """The :class:`~campaign_app.printing.stamp.Stamp` on every page (None: none)."""
    data: Any = None
    """The data the PDF is built from, when one object (the card rules of a campaign's cards)."""

    def run(self, progress: Progress | None = None) -> BuiltPdf:
        """The PDF, its pages and size, and what was printed."""
        from ..printing.stamp import stamping

        with stamping(self.stamp):
            data, details = self.build(progress)
        return BuiltPdf(data=data, pages=page_count(data), size=len(data), details=details)

    def remember(self) -> Edit[dict[str, Any]]:
        """Remember the printout (after it was written or sent to the printer): one operation, or an Edit that
        changed nothing when the printout holds nothing to remember (blank forms, the default rules' cards)."""
        from .prints import remember

        return remember(self.subjects)


def _stamp(subjects: Sequence[Subject], what: str, campaign: str, qr: bool) -> Any:
    """The stamp of a printout of ``subjects`` (None when it holds nothing of a campaign: blank forms)."""
    import datetime as _dt
    import hashlib

    from ..printing.stamp import Stamp
    from .prints import position

    if not subjects:
        return None
    code = hashlib.sha256("".join(x.fingerprint for x in subjects).encode()).hexdigest()[:8]
    return Stamp(campaign=campaign, what=what, position=position(), date=_dt.date.today().isoformat(), code=code, qr=qr)


def _subjects(kind: str, refs: Sequence[Any], options: dict[str, Any], **where: Any) -> tuple[list[Subject], list[Any]]:
    from .prints import subject

    pairs = [subject(kind, options=options, **{**where, **ref}) for ref in refs]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def _prepare_sheet(req: UnitSheetRequest) -> PrintJob:
    from ..printing.unit_sheet import build_unit_sheets

    paper = check_paper(req.paper)
    if req.blank:
        entries: list[Any] = unit_sheet_entries(req.platoons, blank=True, campaign=req.campaign)
        subjects: list[Subject] = []
    else:
        from .common import resolve_platoon

        if not req.platoons:
            raise ServiceError("name at least one platoon (or ask for a blank sheet)")
        ids = [resolve_platoon(ref).id for ref in req.platoons]
        subjects, entries = _subjects("sheet", [{"platoon": i} for i in ids], {"pencil": req.pencil})
    sheets = SheetDetails(
        platoons=tuple(x.title.split(": ", 1)[1] for x in subjects), blank=req.blank, pencil=req.pencil
    )
    what = "Unit Data Sheet" + ("s: " if len(subjects) > 1 else ": ") + ", ".join(sheets.platoons)
    stamp = _stamp(subjects, what, subjects[0].campaign if subjects else "", req.qr)
    return PrintJob(
        req.kind,
        lambda _p: (build_unit_sheets(entries, paper=paper, pencil=req.pencil, printed_on=req.printed_on), sheets),
        subjects,
        stamp,
    )


def _prepare_sologear(req: SologearRequest) -> PrintJob:
    from ..printing.sologear_sheet import build_sologear_sheet

    paper = check_paper(req.paper)
    if not req.blank and req.campaign is None:
        raise ServiceError("name a Sologear campaign (or ask for blank forms)")
    subjects: list[Subject] = []
    sheet = None
    if not req.blank:
        from .common import resolve_sheet

        assert req.campaign is not None
        found = resolve_sheet(req.campaign)
        subjects, datas = _subjects("sologear", [{"sheet": found.id}], {})
        sheet = datas[0]
    forms = SologearDetails(campaign=sheet.name if sheet else None, blank=req.blank)
    stamp = _stamp(
        subjects,
        f"Sologear forms: {subjects[0].title.split(': ', 1)[1]}" if subjects else "",
        subjects[0].campaign if subjects else "",
        req.qr,
    )
    return PrintJob(
        req.kind,
        lambda _p: (build_sologear_sheet(sheet, paper=paper, printed_on=req.printed_on), forms),
        subjects,
        stamp,
    )


def _prepare_history(req: HistoryRequest) -> PrintJob:
    from ..printing.history_report import build_history_report
    from .common import resolve_platoon

    paper = check_paper(req.paper)
    if req.platoon is None:
        raise ServiceError("name the platoon whose history to print")
    pid = resolve_platoon(req.platoon).id
    subjects, datas = _subjects("history", [{"platoon": pid}], {})
    history = datas[0]
    report = HistoryDetails(platoon=history.platoon)
    stamp = _stamp(subjects, f"History report: {history.platoon}", subjects[0].campaign, req.qr)
    return PrintJob(
        req.kind,
        lambda _p: (build_history_report(history, paper=paper, printed_on=req.printed_on), report),
        subjects,
        stamp,
    )


def _prepare_cards(req: CardsRequest) -> PrintJob:
    check_card_paper(req.paper)
    subjects: list[Subject] = []
    rules = req.rules
    if rules is None:
        camp = _campaign_of(req.campaign)
        if camp is not None:  # a campaign's cards are remembered; the default rules' are nobody's
            selection = {"decks": list(req.decks), "cards": list(req.cards)}
            subjects, datas = _subjects("cards", [{}], selection, campaign=camp.id)
            rules = datas[0]
        else:
            rules = card_rules(req.campaign)  # read now: the build may run in a worker thread
    assert rules is not None
    chosen_rules = rules
    stamp = _stamp(subjects, "Play-aid cards", subjects[0].campaign if subjects else "", req.qr)

    def build_cards(progress: Progress | None) -> tuple[bytes, PrintDetails]:
        data, layout = cards_pdf(
            req.decks,
            req.cards,
            user_decks_dir=req.user_decks_dir,
            library=req.library,
            size=req.size,
            paper=req.paper,
            grayscale=req.grayscale,
            layout=req.layout,
            progress=progress,
            setup=req.setup,
            rules=chosen_rules,
        )
        return data, CardsDetails(rules=str(chosen_rules.note), cards=layout)

    return PrintJob(req.kind, build_cards, subjects, stamp, chosen_rules)


def _prepare_campaign_page(req: StandingsRequest | ChronicleRequest) -> PrintJob:
    paper = check_paper(req.paper)
    if req.campaign is None:
        raise ServiceError(f"name the campaign whose {req.kind} to print")
    camp = resolve_campaign(req.campaign)
    subjects, datas = _subjects(req.kind, [{}], {}, campaign=camp.id)
    data = datas[0]
    details = CampaignDetails(campaign=camp.name)
    if isinstance(req, StandingsRequest):
        from ..printing.standings_report import build_standings_report

        stamp = _stamp(subjects, "Standings", camp.name, req.qr)
        return PrintJob(
            req.kind,
            lambda _p: (build_standings_report(data, paper=paper, printed_on=req.printed_on), details),
            subjects,
            stamp,
        )
    from ..printing.chronicle_report import build_chronicle_report

    stamp = _stamp(subjects, "Chronicle", camp.name, req.qr)
    return PrintJob(
        req.kind,
        lambda _p: (build_chronicle_report(data, paper=paper, printed_on=req.printed_on), details),
        subjects,
        stamp,
    )


def _prepare_fighter(req: FighterRequest) -> PrintJob:
    from ..printing.death_blow_sheets import build_fighter_sheets

    paper = check_paper(req.paper)
    fighters = fighter_sheets(req.fighters, blank=req.blank, campaign=req.campaign)
    details = FighterDetails(fighters=tuple(f.name for f in fighters if f.name), blank=req.blank)
    return PrintJob(
        req.kind, lambda _p: (build_fighter_sheets(fighters, paper=paper, printed_on=req.printed_on), details)
    )


def _prepare_bout(req: BoutRequest) -> PrintJob:
    from ..printing.death_blow_sheets import build_bout_log

    paper = check_paper(req.paper)
    if req.bout is None:
        raise ServiceError("name the bout whose round log to print (its number)")
    log = bout_log(req.bout)
    details = BoutDetails(bout=log.bout_id, rounds=len(log.rounds))
    return PrintJob(req.kind, lambda _p: (build_bout_log(log, paper=paper, printed_on=req.printed_on), details))


def prepare(request: PrintRequest) -> PrintJob:
    """Read what ``request`` needs now and return the job that builds its PDF (one kind of request per kind of
    printout: :mod:`campaign_app.services.print_requests`).

    The job knows the subjects it prints (``job.subjects``, remembered by :meth:`PrintJob.remember`) and stamps
    every page with the campaign, what it prints, the journal position and a check code. The data a PDF is built
    from is the very data the subject's fingerprint is made of (``services.prints.subject``).
    """
    match request:
        case UnitSheetRequest():
            return _prepare_sheet(request)
        case SologearRequest():
            return _prepare_sologear(request)
        case HistoryRequest():
            return _prepare_history(request)
        case CardsRequest():
            return _prepare_cards(request)
        case StandingsRequest() | ChronicleRequest():
            return _prepare_campaign_page(request)
        case FighterRequest():
            return _prepare_fighter(request)
        case BoutRequest():
            return _prepare_bout(request)
    raise ServiceError(f"nothing called {request!r} can be printed (one of {', '.join(KINDS)})")


# --------------------------------------------------------------------------------------- standings data


def standings_data(s: Standings) -> StandingsData:
    """The standings page's plain data from ``services.standings.standings``."""
    from ..printing.standings_report import StandingsData

    headers = [
        "#",
        "Platoon",
        *(["Player"] if s.on_server else []),
        "Battles",
        "Won",
        "Drawn",
        "Lost",
        "Obj. XP",
        "Wounds",
        "XP lost",
        "Leaders lost",
        "XP",
        "Level",
    ]
    rows = []
    for i, p in enumerate(s.platoons, start=1):
        rows.append(
            (
                str(i),
                p.platoon,
                *([p.owner or "\u2013"] if s.on_server else []),
                str(p.battles),
                str(p.victories),
                str(p.draws),
                str(p.defeats),
                str(p.objective_xp),
                str(p.wounds),
                str(p.xp_lost),
                str(p.leaders_lost),
                str(p.xp),
                p.level,
            )
        )
    pairs = []
    disputed = []
    for i, h in enumerate(s.head_to_head):
        a, b = h.platoons
        games = "; ".join(g.text(a, b) for g in h.games)
        pairs.append(
            (
                f"{a} \u2013 {b}",
                str(h.a_victories),
                str(h.b_victories),
                str(h.draws),
                str(h.disagreements) if h.disagreements else "\u2013",
                games,
            )
        )
        if h.disagreements:
            disputed.append(i)
    pilots = []
    for pl in s.pilots:
        noticed = "\u2013" if pl.noticed is None else ("yes" if pl.noticed else "no")
        pilots.append(
            (
                pl.pilot,
                str(pl.turns),
                "\u2013" if pl.recognition is None else str(pl.recognition),
                noticed,
                f"{pl.result}: {pl.outcome}" if pl.result else "not reckoned yet",
            )
        )
    note = plural(len(s.platoons), "platoon") if s.platoons else ""
    return StandingsData(
        campaign=s.campaign,
        headers=tuple(headers),
        platoons=tuple(rows),
        pairs=tuple(pairs),
        disputed_pairs=tuple(disputed),
        pilots=tuple(pilots),
        note=note,
    )


def chronicle_data(c: Chronicle) -> ChronicleData:
    """The chronicle's printed data (``printing.chronicle_report``) from ``services.chronicle.chronicle``."""
    from .chronicle import printable

    return printable(c)


# ------------------------------------------------------------------------------------------------ write


def print_pdf(
    request: PrintRequest, output: str | os.PathLike[str], *, progress: Progress | None = None, remember: bool = True
) -> Printed:
    """Prepare and build the PDF ``request`` asks for and write it atomically to ``output``; ``remember``: the
    app remembers what was printed (to tell when it is out of date). The output path is checked before any
    work is done."""
    out = check_output(output)
    job = prepare(request)
    built = job.run(progress)
    written = write_pdf_atomic(out, built.data)
    if remember:
        job.remember()  # the app remembers what was printed, to tell when it is out of date
    return Printed(request.kind, written, built.pages, built.size, built.details)
