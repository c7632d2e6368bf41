"""The Sologear print's options: the campaign sheet and battle form of one Sologear campaign, or blank forms."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout

from ...services.navigator import PilotNode
from ...services.print_requests import PrintRequest, SologearRequest
from .base import SEP, Opening, OptionPanel


class SologearPanel(OptionPanel):
    kind = "sologear"
    label = "Sologear campaign sheet and battle form"

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        lay = QFormLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.sologear_combo = QComboBox(self)
        self.sologear_combo.setAccessibleName("Sologear campaign")
        lay.addRow("&Campaign:", self.sologear_combo)
        self.sologear_blank = QCheckBox("B&lank forms to fill in by hand", self)
        lay.addRow(self.sologear_blank)

    def fill(self, opening: Opening) -> None:
        combo = self.sologear_combo
        for camp in opening.tree:
            for child in camp.children:
                if isinstance(child, PilotNode):  # not a platoon, nor a d12 Death Blow fighter
                    combo.addItem(f"{camp.name}{SEP}{child.name}", child.id)
        if opening.kind == "sheet":
            combo.setCurrentIndex(max(0, combo.findData(opening.ident)))
        elif opening.kind == "campaign" and opening.campaign is not None and opening.campaign.system == "sologear":
            sheets = [c.id for c in opening.campaign.children if isinstance(c, PilotNode)]
            if sheets:
                combo.setCurrentIndex(max(0, combo.findData(sheets[0])))
            else:
                self.sologear_blank.setChecked(True)
        if combo.count() == 0:
            self.sologear_blank.setChecked(True)
            self.sologear_blank.setEnabled(False)

    def connect_changes(self) -> None:
        self.sologear_combo.currentIndexChanged.connect(self.changed)
        self.sologear_blank.toggled.connect(self._blank_toggled)

    def _blank_toggled(self, on: bool) -> None:
        self.sologear_combo.setEnabled(not on)
        self.changed.emit()

    def request(self, paper: str, qr: bool) -> SologearRequest:
        blank = self.sologear_blank.isChecked()
        return SologearRequest(
            campaign=None if blank else self.sologear_combo.currentData(), blank=blank, paper=paper, qr=qr
        )

    def problem(self, request: PrintRequest) -> str | None:
        match request:
            case SologearRequest(blank=False, campaign=None):
                return "There is no Sologear campaign yet: print blank forms."
        return None

    def file_name(self) -> str:
        if self.sologear_blank.isChecked():
            return "Sologear forms (blank)"
        return f"{self.sologear_combo.currentText()} - Sologear"
