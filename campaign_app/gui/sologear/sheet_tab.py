"""The Sheet tab of the Sologear page: the campaign sheet's header, both sides' forces with live totals
and odds, and the campaign length roll."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ...errors import CampaignError
from ...rules.sologear.forces import force_total, unit_total
from ...services import sologear_play as play_service
from ...services import sologear_sheet as sheet_service
from ...services.sologear_results import SheetData
from ..sologear_dialogs import LengthDialog
from ..widgets import CommitLineEdit, NumberSpin
from .forces import SideBox
from .tables import fmt, odds_text

if TYPE_CHECKING:
    from .page import PageBase
else:
    PageBase = object


class SheetTab(PageBase):
    """Builds and fills the Sheet tab (a part of :class:`~.page.SologearPage`)."""

    def _field(self, key: str, name: str) -> CommitLineEdit:
        edit = CommitLineEdit("", self)
        edit.setAccessibleName(name)
        edit.committed.connect(lambda text, k=key: self._header_changed(k, text))
        self.fields[key] = edit
        return edit

    def _build_sheet_tab(self) -> None:
        tab = QWidget()
        self.fields: dict[str, CommitLineEdit] = {}
        header = QGroupBox("Campaign sheet", tab)
        grid = QGridLayout(header)
        self.gear_tv_spin = NumberSpin(header)
        self.gear_tv_spin.setRange(1, 100000)
        self.gear_tv_spin.setSuffix(" TV")
        self.gear_tv_spin.setAccessibleName("Gear TV")
        self.gear_tv_spin.setKeyboardTracking(False)
        self.gear_tv_spin.editingFinished.connect(self._gear_tv_changed)
        left = (
            ("name", "Campaign:"),
            ("date", "Date:"),
            ("area", "Area:"),
            ("pilot", "Pilot:"),
            ("gear_name", "Gear:"),
        )
        right = (
            ("player_unit", "Player unit:"),
            ("player_affiliation", "Player affiliation:"),
            ("enemy_unit", "Enemy unit:"),
            ("enemy_affiliation", "Enemy affiliation:"),
        )
        for row, (key, label) in enumerate(left):
            grid.addWidget(QLabel(label, header), row, 0)
            grid.addWidget(self._field(key, label.rstrip(":")), row, 1)
        for row, (key, label) in enumerate(right):
            grid.addWidget(QLabel(label, header), row, 2)
            grid.addWidget(self._field(key, label.rstrip(":")), row, 3)
        grid.addWidget(QLabel("Gear TV:", header), len(right), 2)
        tv_row = QHBoxLayout()
        tv_row.addWidget(self.gear_tv_spin)
        self.enemy_column_label = QLabel(header)
        tv_row.addWidget(self.enemy_column_label)
        tv_row.addWidget(self.gear_tv_spin.message, 1)
        grid.addLayout(tv_row, len(right), 3)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)

        self.player_box = SideBox(self, "player")
        self.enemy_box = SideBox(self, "enemy")

        bar = QFrame(tab)
        bar.setFrameShape(QFrame.Shape.StyledPanel)
        bar_layout = QHBoxLayout(bar)
        self.odds_label = QLabel(bar)
        self.odds_label.setAccessibleName("Odds")
        big = QFont(self.odds_label.font())
        big.setPointSizeF(big.pointSizeF() * 1.25)
        big.setBold(True)
        self.odds_label.setFont(big)
        self.length_label = QLabel(bar)
        self.length_label.setAccessibleName("Campaign length")
        self.length_button = QPushButton("Roll &length…", bar)
        bar_layout.addWidget(self.odds_label, 1)
        bar_layout.addWidget(self.length_label)
        bar_layout.addWidget(self.length_button)
        self.length_button.clicked.connect(self.roll_length)

        inner = QWidget()
        v = QVBoxLayout(inner)
        v.addWidget(header)
        v.addWidget(self.player_box, 1)
        v.addWidget(self.enemy_box, 1)
        v.addWidget(bar)
        scroll = QScrollArea(tab)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(inner)
        tab_layout = QVBoxLayout(tab)
        tab_layout.addWidget(scroll)
        tab_layout.setContentsMargins(0, 0, 0, 0)
        self.tabs.addTab(tab, "&Sheet")
        self.sheet_tab = tab

    def _fill_sheet(self, d: SheetData) -> None:
        for key, edit in self.fields.items():
            edit.setCommittedText(str(d.header(key) or ""))
        if not self.gear_tv_spin.hasFocus():
            blocked = self.gear_tv_spin.blockSignals(True)
            self.gear_tv_spin.setValue(int(d.gear_tv))
            self.gear_tv_spin.blockSignals(blocked)
        self.enemy_column_label.setText(f"enemy-quality column {d.enemy_quality_column}")
        locked = d.state.reckoned
        rolled = d.length is not None
        self.player_box.set_rows(d.forces.player, locked, names_only=rolled)
        self.enemy_box.set_rows(d.forces.enemy, locked, names_only=rolled)
        if d.length:
            self.length_label.setText(f"Length: {d.length} battle turns")
        else:
            self.length_label.setText(f"Length: not rolled ({d.length_dice or 'enter both sides first'})")
        self.length_button.setEnabled(d.length is None and bool(d.length_dice))
        self.update_totals()

    def update_totals(self) -> None:
        """Both sides' totals and the odds, counting the unit being typed in (live)."""
        if self.data is None:
            return
        totals: dict[str, float] = {}
        typing = False
        for box in (self.player_box, self.enemy_box):
            units = box.committed_units()
            pending = box.pending()
            if pending is not None:
                typing = True
                box.preview_label.setText(fmt(unit_total(*pending)))
                units.append(pending)
            else:
                box.preview_label.setText("")
            totals[box.side] = force_total(units)
            extra = " (with the unit being entered)" if pending is not None else ""
            box.total_label.setText(f"Total combat power: {fmt(totals[box.side])}{extra}")
        text = odds_text(totals["player"], totals["enemy"])
        self.odds_label.setText(text + ("  (preview)" if typing else ""))

    def _header_changed(self, key: str, text: str) -> None:
        if self.sheet_id is not None:
            self.act(sheet_service.update_sheet, self.sheet_id, **{key: text})

    def _gear_tv_changed(self) -> None:
        if self.sheet_id is not None and self.data is not None and self.gear_tv_spin.value() != self.data.gear_tv:
            self.act(sheet_service.update_sheet, self.sheet_id, gear_tv=self.gear_tv_spin.value())

    def roll_length(self) -> QDialog | None:
        if self.sheet_id is None:
            return None
        try:
            play_service.length_procedure(self.sheet_id)
        except CampaignError as exc:
            self.status(str(exc))
            return None
        return self._open(LengthDialog(self.ctx, self.sheet_id, self))
