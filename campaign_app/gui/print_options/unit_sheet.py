"""The Unit Data Sheet's options: the platoons ticked (one page each), filled, pencil or blank, and "only what
changed since the last print"."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QButtonGroup, QLabel, QListWidget, QListWidgetItem, QPushButton, QRadioButton, QVBoxLayout

from ...errors import CampaignError
from ...services.navigator import PlatoonNode
from ...services.print_requests import PrintRequest, UnitSheetRequest
from .base import DATA, SEP, Opening, OptionPanel

SHEET_MODES = (
    ("filled", "Filled in"),
    ("pencil", "Pencil: XP boxes, levels and cards left empty"),
    ("blank", "Blank sheet to fill in by hand"),
)


class UnitSheetPanel(OptionPanel):
    kind = "sheet"
    label = "Unit Data Sheet"

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("Platoons (one page each):", self))
        self.platoon_list = QListWidget(self)
        self.platoon_list.setAccessibleName("Platoons")
        lay.addWidget(self.platoon_list, 1)
        self.mode_group = QButtonGroup(self)
        self.mode_buttons: dict[str, QRadioButton] = {}
        for index, (key, label) in enumerate(SHEET_MODES):
            button = QRadioButton(label, self)
            self.mode_group.addButton(button, index)
            self.mode_buttons[key] = button
            lay.addWidget(button)
        self.mode_buttons["filled"].setChecked(True)
        self.changed_button = QPushButton("Only what &changed since the last print", self)
        self.changed_button.setToolTip("Tick only the platoons whose printed sheet is out of date")
        self.changed_button.clicked.connect(self.tick_only_changed)
        lay.addWidget(self.changed_button)
        self.changed_label = QLabel(self)
        self.changed_label.setWordWrap(True)
        self.changed_label.setAccessibleName("Out-of-date sheets")
        lay.addWidget(self.changed_label)

    def fill(self, opening: Opening) -> None:
        for camp in opening.tree:
            for child in camp.children:
                if isinstance(child, PlatoonNode):
                    item = QListWidgetItem(f"{child.name}{SEP}{camp.name}", self.platoon_list)
                    item.setData(DATA, child.id)
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    item.setCheckState(Qt.CheckState.Unchecked)
        if opening.kind == "platoon":
            self.check_platoons({opening.ident})
        elif opening.kind == "campaign" and opening.campaign is not None and opening.campaign.system != "sologear":
            self.check_platoons({c.id for c in opening.campaign.children if isinstance(c, PlatoonNode)})

    def blank_when_none_ticked(self) -> None:
        """Opened on the unit sheet with no platoon to fill in: the blank sheet is what can be printed."""
        if not self.checked_platoons():
            self.mode_buttons["blank"].setChecked(True)

    def connect_changes(self) -> None:
        self.platoon_list.itemChanged.connect(self.changed)
        self.mode_group.idToggled.connect(lambda _i, on: self.changed.emit() if on else None)

    def check_platoons(self, ids: set[Any]) -> None:
        for row in range(self.platoon_list.count()):
            item = self.platoon_list.item(row)
            item.setCheckState(Qt.CheckState.Checked if item.data(DATA) in ids else Qt.CheckState.Unchecked)

    def checked_platoons(self) -> list[int]:
        return [
            self.platoon_list.item(r).data(DATA)
            for r in range(self.platoon_list.count())
            if self.platoon_list.item(r).checkState() == Qt.CheckState.Checked
        ]

    def sheet_mode(self) -> str:
        return next(key for key, button in self.mode_buttons.items() if button.isChecked())

    def tick_only_changed(self) -> list[int]:
        """Tick the platoons whose last printed sheet is out of date; say which and why."""
        from ...services.prints import stale_sheet_platoons

        try:
            stale = stale_sheet_platoons()
        except CampaignError as exc:
            self.refused.emit(str(exc))
            return []
        self.check_platoons(set(stale))
        self.mode_buttons["filled"].setChecked(True)
        if not stale:
            self.changed_label.setText("Every printed sheet is up to date.")
        else:
            names = {
                self.platoon_list.item(r).data(DATA): self.platoon_list.item(r).text().split(SEP)[0]
                for r in range(self.platoon_list.count())
            }
            self.changed_label.setText(
                "Out of date: "
                + "; ".join(
                    f"{names.get(pid, pid)} ({', '.join(why[:3])}{', …' if len(why) > 3 else ''})"
                    for pid, why in stale.items()
                )
            )
        self.changed.emit()
        return list(stale)

    def request(self, paper: str, qr: bool) -> UnitSheetRequest:
        mode = self.sheet_mode()
        return UnitSheetRequest(
            platoons=tuple(self.checked_platoons()),
            blank=mode == "blank",
            pencil=mode == "pencil",
            paper=paper,
            qr=qr,
        )

    def problem(self, request: PrintRequest) -> str | None:
        match request:
            case UnitSheetRequest(blank=False, platoons=()):
                return "Tick at least one platoon, or choose a blank sheet."
        return None

    def file_name(self) -> str:
        names = [
            self.platoon_list.item(r).text().split(SEP)[0]
            for r in range(self.platoon_list.count())
            if self.platoon_list.item(r).checkState() == Qt.CheckState.Checked
        ]
        if self.sheet_mode() == "blank":
            return "Unit Data Sheet (blank)"
        if len(names) == 1:
            return f"{names[0]} - Unit Data Sheet"
        return "Unit Data Sheets"
