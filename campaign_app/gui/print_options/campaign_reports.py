"""The options of a campaign's standings page and of its chronicle: which campaign (one panel class, one
panel for each of the two kinds)."""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel

from ...services.print_requests import ChronicleRequest, PrintRequest, StandingsRequest
from .base import Opening, OptionPanel


class _CampaignReportPanel(OptionPanel):
    note: ClassVar[str]
    """What the printout holds, under the chooser."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        lay = QFormLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.campaign_combo = QComboBox(self)
        self.campaign_combo.setAccessibleName(f"Campaign for the {self.kind}")
        lay.addRow("Ca&mpaign:", self.campaign_combo)
        note = QLabel(self.note, self)
        note.setWordWrap(True)
        lay.addRow(note)

    def fill(self, opening: Opening) -> None:
        for camp in opening.tree:
            self.campaign_combo.addItem(camp.name, camp.id)
        if opening.kind == "campaign":
            self.campaign_combo.setCurrentIndex(max(0, self.campaign_combo.findData(opening.ident)))

    def connect_changes(self) -> None:
        self.campaign_combo.currentIndexChanged.connect(self.changed)

    def problem(self, request: PrintRequest) -> str | None:
        match request:
            case StandingsRequest(campaign=None) | ChronicleRequest(campaign=None):
                return "There is no campaign yet."
        return None

    def file_name(self) -> str:
        return f"{self.campaign_combo.currentText()} - {self.kind}"


class StandingsPanel(_CampaignReportPanel):
    kind = "standings"
    label = "Campaign standings"
    note = "One page: the league table, head to head and the pilots."

    def request(self, paper: str, qr: bool) -> StandingsRequest:
        return StandingsRequest(campaign=self.campaign_combo.currentData(), paper=paper, qr=qr)


class ChroniclePanel(_CampaignReportPanel):
    kind = "chronicle"
    label = "Campaign chronicle (a diary)"
    note = (
        "The platoons' XP over campaign time, then every entry, battle (outcome, aftermath and "
        "after-action report) and Sologear turn in order."
    )

    def request(self, paper: str, qr: bool) -> ChronicleRequest:
        return ChronicleRequest(campaign=self.campaign_combo.currentData(), paper=paper, qr=qr)
