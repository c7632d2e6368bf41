"""The Battle form tab of the Sologear page: one row per turn, playing a turn, recording its result and
undoing the last step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...services import sologear_play as play_service
from ...services.edits import Edit
from ...services.sologear_results import PlayedTurn, SheetData
from ..sologear_dialogs import PlayTurnDialog, RecordDialog
from ..widgets import plural
from .tables import TextRowsModel

if TYPE_CHECKING:
    from .page import PageBase
else:
    PageBase = object


def _played(dialog: QDialog) -> PlayedTurn | None:
    """The turn a Play turn / Record dialog played or recorded (None: cancelled)."""
    edit = getattr(dialog, "edit", None)
    if isinstance(edit, Edit) and isinstance(edit.result, PlayedTurn):
        return edit.result
    return None


class TurnsTab(PageBase):
    """Builds and fills the Battle form tab (a part of :class:`~.page.SologearPage`)."""

    def _build_battle_tab(self) -> None:
        tab = QWidget()
        self.next_label = QLabel(tab)
        self.next_label.setWordWrap(True)
        self.next_label.setAccessibleName("Next turn")
        self.play_button = QPushButton("&Play turn…", tab)
        self.record_button = QPushButton("&Record result…", tab)
        self.undo_button = QPushButton("&Undo last turn", tab)
        self.end_button = QPushButton("End of campai&gn…", tab)
        buttons = QHBoxLayout()
        for b in (self.play_button, self.record_button, self.undo_button, self.end_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.turn_model = TextRowsModel(["Turn", "Action", "Enemy", "Glory", "Special"], self)
        self.turn_table = QTableView(tab)
        self.turn_table.setModel(self.turn_model)
        self.turn_table.setAccessibleName("Battle form")
        self.turn_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.turn_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.turn_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.turn_table.verticalHeader().hide()
        self.turn_table.horizontalHeader().setStretchLastSection(True)
        self.turn_detail = QLabel(tab)
        self.turn_detail.setWordWrap(True)
        self.turn_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.turn_detail.setAccessibleName("Turn details")
        self.turn_detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.turn_detail.setMinimumHeight(80)
        layout = QVBoxLayout(tab)
        layout.addWidget(self.next_label)
        layout.addLayout(buttons)
        layout.addWidget(self.turn_table, 2)
        layout.addWidget(self.turn_detail, 1)
        self.play_button.clicked.connect(self.play_turn)
        self.record_button.clicked.connect(lambda: self.record_turn())
        self.undo_button.clicked.connect(self.undo_last)
        self.end_button.clicked.connect(self.end_campaign)
        self.turn_table.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._show_turn(cur.row()))
        self.turn_table.doubleClicked.connect(lambda idx: self.record_turn(self._turn_number_at(idx.row())))
        self.tabs.addTab(tab, "Battle for&m")
        self.battle_tab = tab

    def _fill_battle(self, d: SheetData) -> None:
        turns = d.turns
        self.turn_model.set_texts(
            [list(t.form.cells()) for t in turns],
            tips=["\n".join(t.meaning) for t in turns],
            ids=[t.turn for t in turns],
        )
        self.turn_table.resizeColumnsToContents()
        self.turn_table.horizontalHeader().setStretchLastSection(True)
        nxt = d.next
        if nxt.blocked:
            self.next_label.setText(nxt.blocked.capitalize() + ".")
        else:
            column = "break-out (Losing column, Bold)" if nxt.breakout else f"column {nxt.band}"
            of = f" of {nxt.length}" if not nxt.breakout else ""
            self.next_label.setText(
                f"Next: turn {nxt.number}{of}, {column}; "
                f"{'REP allowed' if nxt.can_rep else 'REP only when damaged or short of ammo'}."
            )
        self.play_button.setEnabled(not nxt.blocked)
        unrecorded = [t for t in turns if t.battle and not t.recorded]
        self.record_button.setEnabled(bool(turns) and not d.state.reckoned)
        self.record_button.setText("&Record result…" if not unrecorded else f"&Record turn {unrecorded[-1].turn}…")
        if d.state.reckoned:
            self.undo_button.setText("&Undo reckoning")
        elif turns:
            self.undo_button.setText(f"&Undo turn {turns[-1].turn}")
        elif d.length:
            self.undo_button.setText("&Undo length roll")
        else:
            self.undo_button.setText("&Undo last turn")
        self.undo_button.setEnabled(bool(turns) or d.length is not None or d.state.reckoned)
        self.end_button.setEnabled(d.state.status == "ended" and not d.state.reckoned and not unrecorded)
        if turns:
            self.turn_table.selectRow(len(turns) - 1)
            self._show_turn(len(turns) - 1)
        else:
            self.turn_detail.setText("No turns played yet.")

    def _turn_number_at(self, row: int) -> int | None:
        turns = self.data.turns if self.data is not None else ()
        return turns[row].turn if 0 <= row < len(turns) else None

    def _show_turn(self, row: int) -> None:
        turns = self.data.turns if self.data is not None else ()
        if not 0 <= row < len(turns):
            return
        t = turns[row]
        lines = [
            f"<b>Turn {t.turn}: {t.label}</b>"
            + (f" – row {t.combat_total}, {t.column}: {t.cell_text}" if t.cell_text else "")
        ]
        lines.extend(t.meaning)
        if t.battle:
            r = t.result
            lines.append(
                f"Recorded: {r.glory_collected} Glory, {r.enemy_tv_destroyed} enemy TV destroyed, "
                f"{plural(r.bunkers_destroyed, 'bunker')}"
                if t.recorded
                else "<i>Not recorded yet.</i>"
            )
        if t.notes:
            lines.append(f"Notes: {t.notes}")
        self.turn_detail.setText("<br>".join(lines))

    def play_turn(self) -> QDialog | None:
        if self.sheet_id is None:
            return None
        self.tabs.setCurrentWidget(self.battle_tab)

        def after(dialog: QDialog) -> None:
            turn = _played(dialog)
            if turn is not None and turn.battle and self.auto_record:
                self.record_turn(turn.turn)
            elif turn is not None and turn.campaign_ended:
                self.tabs.setCurrentWidget(self.end_tab)

        return self._open(PlayTurnDialog(self.ctx, self.sheet_id, self), after)

    def record_turn(self, number: int | None = None) -> QDialog | None:
        if self.sheet_id is None or self.data is None or not self.data.turns:
            return None
        if number is None:
            unrecorded = [t for t in self.data.turns if t.battle and not t.recorded]
            current = self._turn_number_at(self.turn_table.currentIndex().row())
            number = unrecorded[-1].turn if unrecorded else current or self.data.turns[-1].turn

        def after(dialog: QDialog) -> None:
            turn = _played(dialog)
            if turn is not None and turn.campaign_ended:
                self.tabs.setCurrentWidget(self.end_tab)

        return self._open(RecordDialog(self.ctx, self.sheet_id, number, self), after)

    def undo_last(self) -> None:
        if self.sheet_id is not None:
            self.act(play_service.undo_last, self.sheet_id)
