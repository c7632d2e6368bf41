"""The print dialog's option panels, one per kind of print: each builds its widgets, fills them from what
the dialog opens on, restores and remembers its settings, and gives its typed request
(:mod:`campaign_app.services.print_requests`) and its own refusal. The dialog (``gui/print_dialog.py``) keeps the
kind chooser, the paper, the preview, the progress, Save and Print, and the cache of what was built.

- ``unit_sheet.UnitSheetPanel``: Unit Data Sheets (platoons; filled, pencil or blank; only what changed)
- ``cards.CardsPanel``: play-aid cards (decks and cards, size, backs, house rules, margin, bleed, duplex offset)
- ``sologear.SologearPanel``: a Sologear campaign's sheet and battle form, or blank forms
- ``history.HistoryPanel``: a platoon's history report
- ``campaign_reports.StandingsPanel`` / ``ChroniclePanel``: a campaign's standings page and chronicle
"""

from __future__ import annotations

from .base import DATA, SEP, Opening, OptionPanel
from .campaign_reports import ChroniclePanel, StandingsPanel
from .cards import CardsPanel
from .history import HistoryPanel
from .sologear import SologearPanel
from .unit_sheet import UnitSheetPanel

PANEL_TYPES: tuple[type[OptionPanel], ...] = (
    UnitSheetPanel,
    CardsPanel,
    SologearPanel,
    HistoryPanel,
    StandingsPanel,
    ChroniclePanel,
)
"""Every panel, in the order the dialog's chooser offers the kinds."""

KINDS: tuple[tuple[str, str], ...] = tuple((panel.kind, panel.label) for panel in PANEL_TYPES)
"""(kind, what the chooser says), in the chooser's order."""

__all__ = [
    "DATA",
    "KINDS",
    "PANEL_TYPES",
    "SEP",
    "CardsPanel",
    "ChroniclePanel",
    "HistoryPanel",
    "Opening",
    "OptionPanel",
    "SologearPanel",
    "StandingsPanel",
    "UnitSheetPanel",
]
