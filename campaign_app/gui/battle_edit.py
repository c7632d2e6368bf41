"""Edit battle… (History tab): change what a logged battle records that did not come from a roll: date,
scenario, opponent, outcome, fire support and notes (each change logged, one undoable step). The objectives and
the wound counters are shown with the reason they cannot change here: they set the XP award and the rolls, so
the battle is undone and logged again instead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from ..errors import CampaignError
from ..rules.enums import Outcome
from ..services import battle_edits, battles
from ..services.edits import Edit
from .widgets import ErrorLabel, date_of

if TYPE_CHECKING:
    from ..services.history_results import HistoryBattle

OUTCOME_ITEMS = (("Not recorded", None), *((o.value.capitalize(), o.value) for o in Outcome))
OBJECTIVE_TEXT = ("none met (+0 XP)", "a hard objective (+1 XP)", "a near-impossible objective (+2 XP)")


class EditBattleDialog(QDialog):
    """OK calls :func:`battle_edits.edit_battle` once; a refusal stays in the dialog with its message."""

    def __init__(self, battle: HistoryBattle, platoon_id: int | None, parent: QWidget | None = None) -> None:
        """``battle`` as the platoon's history lists it; ``platoon_id`` (its platoon) lists the other platoons
        it may have fought."""
        super().__init__(parent)
        self.battle = battle
        self.edit: Edit[battle_edits.BattleEdited] | None = None
        self.setWindowTitle(f"Edit battle {battle.number}")
        form = QFormLayout(self)
        self.date = QDateEdit(self)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.date.setCalendarPopup(True)
        self.date.setDate(QDate.fromString((battle.date or "")[:10], "yyyy-MM-dd"))
        self.date.setMaximumWidth(160)
        self.scenario = QLineEdit(battle.scenario or "", self)
        self.scenario.setMaxLength(battles.SCENARIO_MAX)
        self.opponent = QComboBox(self)
        self.opponent.setEditable(True)
        self.opponent.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.opponent.addItem("", None)
        for o in battles.opponent_choices(platoon_id) if platoon_id else []:
            self.opponent.addItem(o.name, o.id)
        self.opponent.setCurrentText(battle.opponent or "")
        line = self.opponent.lineEdit()
        if line is not None:
            line.setMaxLength(battles.OPPONENT_MAX)
            line.setPlaceholderText("who you fought: type a name or pick a platoon")
        self.outcome = QComboBox(self)
        for label, value in OUTCOME_ITEMS:
            self.outcome.addItem(label, value)
        self.outcome.setCurrentIndex(max(0, self.outcome.findData(battle.outcome.value if battle.outcome else None)))
        self.fire_support = QCheckBox("&Fire support was used", self)
        self.fire_support.setChecked(battle.fire_support)
        self.notes = QPlainTextEdit(battle.notes or "", self)
        self.notes.setTabChangesFocus(True)
        self.notes.setMaximumHeight(100)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText("why (optional, kept with the change)")
        fixed = QLabel(
            f"Objectives: {OBJECTIVE_TEXT[battle.objectives]} \u00b7 wound counters: {battle.wounds} "
            f"(on the leader's element: {battle.leader_wounds}).<br><i>These set the XP award and the "
            "rolls, so they cannot be edited: undo the battle and log it again to change them.</i>",
            self,
        )
        fixed.setWordWrap(True)
        fixed.setAccessibleName("Fields that cannot be edited")
        self.error = ErrorLabel(self, lines=2)
        form.addRow(fixed)
        form.addRow("&Date:", self.date)
        form.addRow("&Scenario:", self.scenario)
        form.addRow("O&pponent:", self.opponent)
        form.addRow("O&utcome:", self.outcome)
        form.addRow("", self.fire_support)
        form.addRow("No&tes:", self.notes)
        form.addRow("&Reason:", self.reason)
        form.addRow(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.scenario.setFocus(Qt.FocusReason.OtherFocusReason)

    def opponent_value(self) -> tuple[str, Any]:
        """The typed opponent, and the platoon id when a listed platoon is picked (else the stored one stays
        only while the text is unchanged)."""
        text = self.opponent.currentText().strip()
        index = self.opponent.findText(text)
        if index > 0:
            return text, self.opponent.itemData(index)
        return text, battle_edits.KEEP if text == (self.battle.opponent or "") else None

    def accept(self) -> None:
        opponent, opponent_platoon = self.opponent_value()
        try:
            self.edit = battle_edits.edit_battle(
                self.battle.id,
                date=date_of(self.date.date()),
                scenario=self.scenario.text(),
                opponent=opponent,
                opponent_platoon=opponent_platoon,
                outcome=self.outcome.currentData(),
                fire_support=self.fire_support.isChecked(),
                notes=self.notes.toPlainText(),
                reason=self.reason.text(),
            )
        except CampaignError as exc:
            self.error.show_problem(str(exc))
            return
        super().accept()


__all__ = ["EditBattleDialog"]
