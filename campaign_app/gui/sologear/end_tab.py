"""The End of campaign tab of the Sologear page: recognition and impression breakdowns, the reckoning's
rolls and outcome."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...rules import codes
from ...services.sologear_results import SheetData
from ..sologear_dialogs import EndDialog
from .tables import TextRowsModel, fit_height

if TYPE_CHECKING:
    from .page import PageBase
else:
    PageBase = object


class EndTab(PageBase):
    """Builds and fills the End of campaign tab (a part of :class:`~.page.SologearPage`)."""

    def _build_end_tab(self) -> None:
        tab = QWidget()
        self.end_status = QLabel(tab)
        self.end_status.setWordWrap(True)
        self.end_status.setAccessibleName("End of campaign status")
        self.recognition_model = TextRowsModel(["Recognition", "Count", "Each", "Points"], self)
        self.impression_model = TextRowsModel(["Impression", "Count", "Each", "Points"], self)
        for m in (self.recognition_model, self.impression_model):
            m.align_right = {1, 2, 3}
        self.recognition_view = QTableView(tab)
        self.impression_view = QTableView(tab)
        for view, model, name in (
            (self.recognition_view, self.recognition_model, "Recognition breakdown"),
            (self.impression_view, self.impression_model, "Impression breakdown"),
        ):
            view.setModel(model)
            view.setAccessibleName(name)
            view.verticalHeader().hide()
            view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            view.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
            view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.recognition_total = QLabel(tab)
        self.recognition_total.setAccessibleName("Recognition total")
        self.impression_total = QLabel(tab)
        self.impression_total.setAccessibleName("Impression total")
        self.noticed_label = QLabel(tab)
        self.noticed_label.setWordWrap(True)
        self.noticed_label.setAccessibleName("Noticed")
        self.outcome_label = QLabel(tab)
        self.outcome_label.setWordWrap(True)
        self.outcome_label.setAccessibleName("Outcome")
        self.outcome_label.setFrameShape(QFrame.Shape.StyledPanel)
        self.outcome_label.setMinimumHeight(56)
        big = QFont(self.outcome_label.font())
        big.setPointSizeF(big.pointSizeF() * 1.15)
        self.outcome_label.setFont(big)
        self.reckon_button = QPushButton("Roll the &reckoning…", tab)
        self.undo_reckoning_button = QPushButton("Undo reckoning", tab)
        rec_box = QGroupBox("Recognition: were the pilot's deeds noticed?", tab)
        rl = QVBoxLayout(rec_box)
        rl.addWidget(self.recognition_view)
        rl.addWidget(self.recognition_total)
        rl.addWidget(self.noticed_label)
        imp_box = QGroupBox("Impression: reward or punishment", tab)
        il = QVBoxLayout(imp_box)
        il.addWidget(self.impression_view)
        il.addWidget(self.impression_total)
        row = QHBoxLayout()
        row.addWidget(rec_box)
        row.addWidget(imp_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.reckon_button)
        buttons.addWidget(self.undo_reckoning_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(tab)
        layout.addWidget(self.end_status)
        layout.addLayout(row)
        layout.addWidget(self.outcome_label)
        layout.addLayout(buttons)
        layout.addStretch(1)
        self.reckon_button.clicked.connect(self.end_campaign)
        self.undo_reckoning_button.clicked.connect(self.undo_last)
        self.tabs.addTab(tab, "E&nd of campaign")
        self.end_tab = tab

    def _fill_end(self, d: SheetData) -> None:
        rk = d.reckoning
        for model, items in (
            (self.recognition_model, rk.recognition_breakdown),
            (self.impression_model, rk.impression_breakdown),
        ):
            model.set_texts(
                [[i.label, str(i.count), "X" if i.per is None else f"{i.per:+d}", f"{i.points:+d}"] for i in items]
            )
        self.recognition_view.resizeColumnsToContents()
        self.impression_view.resizeColumnsToContents()
        for view in (self.recognition_view, self.impression_view):
            view.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
            fit_height(view)
        self.recognition_total.setText(f"<b>Recognition {rk.recognition}</b>: noticed on a D66 of {rk.noticed_on}")
        self.impression_total.setText(
            f"<b>Impression {rk.impression}</b>: "
            f"{'rewards' if rk.impression >= 0 else 'punishments'} table, roll "
            f"{d.options.reward_dice} {rk.impression:+d}"
            f"{' (variable tables)' if d.options.variable_tables else ''}"
        )
        s = d.state
        if rk.final:
            self.end_status.setText(f"The campaign is over ({s.end_text}) and its reckoning is done.")
            self.noticed_label.setText(f"D66 rolled {rk.d66}: {'noticed' if rk.noticed else 'not noticed'}.")
            band = rk.band
            if rk.table and band is not None:
                roll = next((r for r in rk.rolls if r.purpose in codes.RESULT_PURPOSES), None)
                how = ""
                if roll is not None:
                    dice = roll.expression.split("+")[0].split("-")[0]
                    how = f"{dice} [{', '.join(map(str, roll.faces))}] {rk.impression:+d} = "
                self.outcome_label.setText(
                    f"<b>{rk.table.capitalize()} roll {how}{rk.result} ({band.label}): {band.title}.</b> {band.text}"
                )
            else:
                self.outcome_label.setText(f"<b>{rk.outcome}</b>")
        else:
            if s.status == "ended":
                self.end_status.setText(f"The campaign is over ({s.end_text}). Roll the reckoning.")
            else:
                self.end_status.setText("The campaign is still going on: these are the totals so far.")
            self.noticed_label.setText("Not rolled yet.")
            self.outcome_label.setText("")
        self.reckon_button.setEnabled(self.end_button.isEnabled())
        self.undo_reckoning_button.setEnabled(rk.final)

    def end_campaign(self) -> QDialog | None:
        if self.sheet_id is None:
            return None
        self.tabs.setCurrentWidget(self.end_tab)
        return self._open(EndDialog(self.ctx, self.sheet_id, self))
