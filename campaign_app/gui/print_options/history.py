"""The platoon history report's one option: which platoon."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QFormLayout

from ...services.navigator import PlatoonNode
from ...services.print_requests import HistoryRequest, PrintRequest
from .base import SEP, Opening, OptionPanel


class HistoryPanel(OptionPanel):
    kind = "history"
    label = "Platoon history report"

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        lay = QFormLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.history_combo = QComboBox(self)
        self.history_combo.setAccessibleName("Platoon for the history report")
        lay.addRow("P&latoon:", self.history_combo)

    def fill(self, opening: Opening) -> None:
        combo = self.history_combo
        for camp in opening.tree:
            for child in camp.children:
                if isinstance(child, PlatoonNode):
                    combo.addItem(f"{child.name}{SEP}{camp.name}", child.id)
        if opening.kind == "platoon":
            combo.setCurrentIndex(max(0, combo.findData(opening.ident)))
        elif opening.kind == "campaign" and opening.campaign is not None and opening.campaign.system != "sologear":
            ids = {c.id for c in opening.campaign.children if isinstance(c, PlatoonNode)}
            if ids:
                first = min(ids, key=lambda i: combo.findData(i))
                combo.setCurrentIndex(max(0, combo.findData(first)))

    def connect_changes(self) -> None:
        self.history_combo.currentIndexChanged.connect(self.changed)

    def request(self, paper: str, qr: bool) -> HistoryRequest:
        return HistoryRequest(platoon=self.history_combo.currentData(), paper=paper, qr=qr)

    def problem(self, request: PrintRequest) -> str | None:
        match request:
            case HistoryRequest(platoon=None):
                return "There is no platoon yet."
        return None

    def file_name(self) -> str:
        return f"{self.history_combo.currentText().split(SEP)[0]} - history"
