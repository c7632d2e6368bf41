"""What to print, one typed request per kind: the GUI's print dialog and ``campaign-cli print ...`` build one of
these and hand it to :func:`campaign_app.services.printing.prepare`, which dispatches on its type.

Every request is frozen and compares by value, so the dialog can tell whether what is chosen now was built
already. ``paper`` None is the locale's default; ``printed_on`` None is today (the date in the footer); ``qr`` puts
a QR code beside each page's stamp (kinds that stamp their pages).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from ..printing.decks import DeckLibrary
    from ..printing.sizes import PrintSetup
    from ..rules.tables import CardRules


@dataclass(frozen=True)
class UnitSheetRequest:
    """Unit Data Sheets: one page per platoon (by id), or a blank sheet (for
    ``campaign``, or for each campaign of ``platoons``, or with the default thresholds). ``pencil`` leaves the
    XP boxes, levels and cards empty."""

    kind: ClassVar[str] = "sheet"
    platoons: tuple[int, ...] = ()
    blank: bool = False
    pencil: bool = False
    campaign: int | None = None
    paper: str | None = None
    printed_on: _dt.date | None = None
    qr: bool = False


@dataclass(frozen=True)
class SologearRequest:
    """A Sologear campaign's sheet and battle form (``campaign``: the id of its Sologear sheet), or blank forms."""

    kind: ClassVar[str] = "sologear"
    campaign: int | None = None
    blank: bool = False
    paper: str | None = None
    printed_on: _dt.date | None = None
    qr: bool = False


@dataclass(frozen=True)
class HistoryRequest:
    """A platoon's history report (the platoon by id)."""

    kind: ClassVar[str] = "history"
    platoon: int | None = None
    paper: str | None = None
    printed_on: _dt.date | None = None
    qr: bool = False


@dataclass(frozen=True)
class CardsRequest:
    """Play-aid cards: whole ``decks`` and single ``cards`` (none of either: every card), from ``library`` (else
    the shipped decks and those in ``user_decks_dir``). ``campaign`` prints that campaign's house rules and
    remembers the printout; ``rules`` gives the rules directly (nothing is remembered). ``paper`` may be
    "card" (card stock of the card's size); ``layout`` is fronts, backs or fold; ``setup`` the margin, bleed,
    duplex offset and back style."""

    kind: ClassVar[str] = "cards"
    decks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    campaign: int | None = None
    size: str | None = None
    paper: str | None = None
    grayscale: bool = False
    layout: str = "fronts"
    setup: PrintSetup | None = None
    rules: CardRules | None = None
    library: DeckLibrary | None = field(default=None, compare=False)
    """The loaded decks (not part of what is printed: two requests with the same choice are equal)."""
    user_decks_dir: Path | None = None
    qr: bool = False


@dataclass(frozen=True)
class StandingsRequest:
    """A campaign's standings page."""

    kind: ClassVar[str] = "standings"
    campaign: int | None = None
    paper: str | None = None
    printed_on: _dt.date | None = None
    qr: bool = False


@dataclass(frozen=True)
class ChronicleRequest:
    """A campaign's chronicle."""

    kind: ClassVar[str] = "chronicle"
    campaign: int | None = None
    paper: str | None = None
    printed_on: _dt.date | None = None
    qr: bool = False


@dataclass(frozen=True)
class FighterRequest:
    """d12 Death Blow fighter sheets: the fighters given (by id), every active fighter of ``campaign`` (by id)
    when none is given, or one blank sheet."""

    kind: ClassVar[str] = "fighter"
    fighters: tuple[int, ...] = ()
    blank: bool = False
    campaign: int | None = None
    paper: str | None = None
    printed_on: _dt.date | None = None


@dataclass(frozen=True)
class BoutRequest:
    """A d12 Death Blow bout's round log (the bout's id)."""

    kind: ClassVar[str] = "bout"
    bout: int | None = None
    paper: str | None = None
    printed_on: _dt.date | None = None


PrintRequest = (
    UnitSheetRequest
    | SologearRequest
    | HistoryRequest
    | CardsRequest
    | StandingsRequest
    | ChronicleRequest
    | FighterRequest
    | BoutRequest
)
"""Anything that can be printed."""

REQUEST_TYPES: tuple[type[PrintRequest], ...] = (
    UnitSheetRequest,
    SologearRequest,
    HistoryRequest,
    CardsRequest,
    StandingsRequest,
    ChronicleRequest,
    FighterRequest,
    BoutRequest,
)
"""Every kind of request, in the order the kinds are offered."""
