"""The History and Options tabs of the Sologear page: what happened turn by turn, and the optional rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QAbstractItemView, QCheckBox, QFormLayout, QLabel, QTableView, QVBoxLayout, QWidget

from ...services import sologear_sheet as sheet_service
from ...services.sologear_results import SheetData
from ..widgets import CommitLineEdit
from .tables import TextRowsModel

if TYPE_CHECKING:
    from .page import PageBase
else:
    PageBase = object


class HistoryTab(PageBase):
    """Builds and fills the History tab (a part of :class:`~.page.SologearPage`)."""

    def _build_history_tab(self) -> None:
        tab = QWidget()
        self.history_model = TextRowsModel(["Turn", "What happened"], self)
        self.history_view = QTableView(tab)
        self.history_view.setModel(self.history_model)
        self.history_view.setAccessibleName("History")
        self.history_view.verticalHeader().hide()
        self.history_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.history_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.history_view.horizontalHeader().setStretchLastSection(True)
        self.history_view.setWordWrap(False)
        QVBoxLayout(tab).addWidget(self.history_view)
        self.tabs.addTab(tab, "Hist&ory")
        self.history_tab = tab

    def _fill_history(self, d: SheetData) -> None:
        entries = sheet_service.history(d.id, d)
        self.history_model.set_texts(
            [["" if e.turn is None else str(e.turn), ("    " if e.kind == "roll" else "") + e.text] for e in entries],
            tips=[e.text for e in entries],
        )
        self.history_view.resizeColumnToContents(0)


class OptionsTab(PageBase):
    """Builds and fills the Options tab (a part of :class:`~.page.SologearPage`)."""

    def _build_options_tab(self) -> None:
        tab = QWidget()
        form = QFormLayout(tab)
        self.variable_check = QCheckBox("Variable (milder) reward and punishment tables", tab)
        self.ferocious_check = QCheckBox("Ferocious battles", tab)
        ferocious_note = QLabel(
            "No surrender: a surrounded pilot fights her way out (Bold, Losing column, "
            "enemy +1, Glory doubled, until a roll of 12–14).",
            tab,
        )
        ferocious_note.setWordWrap(True)
        ferocious_note.setIndent(24)
        self.reward_dice_edit = CommitLineEdit("", tab)
        self.reward_dice_edit.setAccessibleName("Reward dice")
        self.reward_dice_edit.setMaximumWidth(120)
        self.options_note = QLabel(tab)
        self.options_note.setWordWrap(True)
        form.addRow(self.variable_check)
        form.addRow(self.ferocious_check)
        form.addRow(ferocious_note)
        form.addRow("Reward-roll dice (default 1d6):", self.reward_dice_edit)
        form.addRow(self.options_note)
        self.variable_check.clicked.connect(lambda on: self._set_option(variable_tables=bool(on)))
        self.ferocious_check.clicked.connect(lambda on: self._set_option(ferocious=bool(on)))
        self.reward_dice_edit.committed.connect(lambda text: self._set_option(reward_dice=text))
        self.tabs.addTab(tab, "Opt&ions")
        self.options_tab = tab

    def _fill_options(self, d: SheetData) -> None:
        o, s = d.options, d.state
        for check, on in ((self.variable_check, o.variable_tables), (self.ferocious_check, o.ferocious)):
            blocked = check.blockSignals(True)
            check.setChecked(on)
            check.blockSignals(blocked)
        self.reward_dice_edit.setCommittedText(o.reward_dice)
        locked = s.reckoned
        self.variable_check.setEnabled(not locked)
        self.reward_dice_edit.setEnabled(not locked)
        self.ferocious_check.setEnabled(not locked and d.turns_played == 0)
        notes = []
        if d.turns_played:
            notes.append("Ferocious battles are fixed once a turn has been played.")
        if locked:
            notes.append("The reckoning is done: undo it to change the options.")
        self.options_note.setText(" ".join(notes))

    def _set_option(self, **kwargs: Any) -> None:
        if self.sheet_id is not None:
            self.act(sheet_service.set_options, self.sheet_id, **kwargs)
