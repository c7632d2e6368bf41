"""File ▸ New campaign… and File ▸ New platoon… (by hand or with force generation, RULES.md 1.3).

``new_campaign(ctx, parent) -> id | None`` and ``new_platoon(ctx, parent, campaign_id, generate=False) ->
id | None`` show the dialog, call the service (one undoable step on ``ctx.undo_stack``) and return the new id.
The forms offer only legal values and keep OK disabled until the name is usable.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..rules.aftermath import PERIODS, force_dice, force_record, period_sides
from ..rules.dice import SeededDice, TypedDice
from ..rules.experience import DEFAULT_THRESHOLDS, LEVELS, XP_MAX, Thresholds, level_name
from ..services import campaigns as campaign_service
from ..services import platoons as platoon_service
from ..services.campaigns import CampaignInfo
from .context import AppContext
from .undo_commands import perform
from .widgets import (
    ArmorPicker,
    ChoicePicker,
    DiePicker,
    ErrorLabel,
    NumberSpin,
    error_style,
    first_number_problem,
)


def period_choices() -> list[tuple[int | None, str]]:
    return [(None, f"not set  (d{period_sides(None)})"), *((p, f"{p}  (d{period_sides(p)})") for p in PERIODS)]


class ThresholdsEditor(QWidget):
    """Four spin boxes (Green, Regular, Veteran, Legendary) whose ranges keep them strictly rising within
    1..32, and a button that puts the defaults back. ``edited(Thresholds)`` after a user change."""

    edited = Signal(object)

    def __init__(self, parent: QWidget | None = None, keep_stored: bool = False) -> None:
        """``keep_stored``: on a page (each change written at once) a refused value is not left in its field:
        the field shows the stored value again and the message says why."""
        super().__init__(parent)
        self.spins: list[NumberSpin] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        layout = QHBoxLayout()
        outer.addLayout(layout)
        for name in LEVELS[1:]:
            spin = NumberSpin(self)
            spin.setPrefix(f"{name[0]} ")
            spin.setAccessibleName(f"XP for {name}")
            spin.setToolTip(f"XP needed to be {name}")
            spin.setKeyboardTracking(False)
            self.spins.append(spin)
            layout.addWidget(spin)
        self.reset_button = QPushButton("Defaults", self)
        self.reset_button.setToolTip(f"Put back the default thresholds {DEFAULT_THRESHOLDS}")
        layout.addWidget(self.reset_button)
        layout.addStretch(1)
        # one message under the four fields (each must stay between its neighbours), as wide as they are with
        # the button; its line is kept, so a message never moves the form
        self.message = ErrorLabel(self, lines=1, wrap=False)  # never widens a page: the text is cut, with a tip
        outer.addWidget(self.message)
        for spin in self.spins:
            spin.share_message(self.message)
            spin.problemChanged.connect(self._show_problem)
            if keep_stored:
                spin.keep_stored_when_refused(self.message.show_problem)
        self.set_thresholds(DEFAULT_THRESHOLDS)
        for spin in self.spins:
            spin.valueChanged.connect(self._on_changed)
        self.reset_button.clicked.connect(self._reset)

    def _show_problem(self, _problem: str) -> None:
        self.message.show_problem(next((s.problem() for s in self.spins if s.problem()), ""))

    def thresholds(self) -> Thresholds:
        return Thresholds(*(s.value() for s in self.spins))

    def set_thresholds(self, t: Thresholds) -> None:
        values = t.as_tuple()
        for spin in self.spins:
            blocked = spin.blockSignals(True)
            spin.setRange(1, XP_MAX)
            spin.blockSignals(blocked)
        for spin, value in zip(self.spins, values, strict=True):
            blocked = spin.blockSignals(True)
            spin.setValue(value)
            spin.blockSignals(blocked)
        self._fix_ranges()
        self.reset_button.setEnabled(t != DEFAULT_THRESHOLDS)

    def _fix_ranges(self) -> None:
        values = [s.value() for s in self.spins]
        for i, spin in enumerate(self.spins):
            low = values[i - 1] + 1 if i > 0 else 1
            high = values[i + 1] - 1 if i < 3 else XP_MAX
            blocked = spin.blockSignals(True)
            spin.setRange(low, high)
            spin.blockSignals(blocked)

    def _on_changed(self, _value: int) -> None:
        self.message.show_problem(None)  # a good value: an earlier refusal is old news
        self._fix_ranges()
        t = self.thresholds()
        self.reset_button.setEnabled(t != DEFAULT_THRESHOLDS)
        self.edited.emit(t)

    def _reset(self) -> None:
        self.set_thresholds(DEFAULT_THRESHOLDS)
        self.edited.emit(DEFAULT_THRESHOLDS)


# --- new campaign -----------------------------------------------------------------------------------------


class NewCampaignDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New campaign")
        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText("e.g. Congo 1960")
        self.name_edit.setAccessibleName("Campaign name")
        self.problem = ErrorLabel(self)
        self.system = ChoicePicker(list(campaign_service.SYSTEMS.items()), "Game system", self)
        self.period = ChoicePicker(period_choices(), "Campaign period", self)
        self.thresholds = ThresholdsEditor(self)
        self.objective = ChoicePicker(list(campaign_service.OBJECTIVE_XP_TARGETS.items()), "Objective XP goes to", self)
        self.notes = QPlainTextEdit(self)
        self.notes.setTabChangesFocus(True)
        self.notes.setFixedHeight(60)
        self.notes.setAccessibleName("Campaign notes")

        self.rules_box = QGroupBox("House rules (Atomic Africa; defaults shown)", self)
        rules = QFormLayout(self.rules_box)
        rules.addRow("Campaign &period:", self.period)
        rules.addRow(QLabel("The period sets the die for force generation and replacement leaders.", self))
        rules.addRow("XP &thresholds:", self.thresholds)
        rules.addRow("&Objective XP to:", self.objective)

        form = QFormLayout()
        form.addRow("&Name:", self.name_edit)
        form.addRow("", self.problem)
        form.addRow("&System:", self.system)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Create campaign")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.rules_box)
        notes_form = QFormLayout()
        notes_form.addRow("Not&es:", self.notes)
        layout.addLayout(notes_form)
        layout.addWidget(self.buttons)

        self.name_edit.textChanged.connect(lambda _t: self._validate())
        self.system.currentIndexChanged.connect(lambda _i: self._validate())
        self.name_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        self._validate()

    def accept(self) -> None:
        if first_number_problem(self) is None:
            super().accept()

    def _validate(self) -> None:
        problem = campaign_service.name_problem(self.name_edit.text()) if self.name_edit.text().strip() else None
        self.problem.show_problem(problem)
        self.ok_button.setEnabled(bool(self.name_edit.text().strip()) and problem is None)
        self.rules_box.setEnabled(self.system.value() == "atomic_africa")

    def values(self) -> dict[str, Any]:
        """Keyword arguments for ``campaigns.create_campaign``."""
        return {
            "name": self.name_edit.text().strip(),
            "system": self.system.value(),
            "period": self.period.value(),
            "thresholds": self.thresholds.thresholds(),
            "objective_xp_to": self.objective.value(),
            "notes": self.notes.toPlainText(),
        }


def new_campaign(ctx: AppContext, parent: QWidget | None) -> int | None:
    """File ▸ New campaign…: the new campaign's id (None when cancelled). With System = Sologear the pilot
    sheet's dialog follows at once (a Sologear campaign is its pilot's sheet): Cancel there writes nothing,
    Create makes the campaign and the sheet in one undoable step and opens the sheet (None is returned: there
    is no campaign page left to open)."""
    dialog = NewCampaignDialog(parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        values = dialog.values()
        if values["system"] == "sologear":
            from .sologear_dialogs import new_sologear_campaign

            sheet_id = new_sologear_campaign(ctx, parent, name=values["name"], notes=values["notes"])
            if sheet_id is None:
                return None
            ctx.signals.open_item.emit("sheet", sheet_id)
            return None  # made and opened already: the caller has no campaign page to open
        try:
            edit = perform(ctx, campaign_service.create_campaign, **dialog.values())
        except CampaignError as exc:
            QMessageBox.warning(parent, "New campaign", str(exc))
            return None
        return edit.id
    finally:
        dialog.deleteLater()


# --- new platoon ------------------------------------------------------------------------------------------

BY_HAND, GENERATE = 0, 1
ROLL_FOR_ME, I_ROLLED = 0, 1


class NewPlatoonDialog(QDialog):
    def __init__(self, campaign: CampaignInfo, generate: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.campaign = campaign
        self.thresholds = Thresholds(*campaign.thresholds)
        self.dice = force_dice(campaign.period)
        self.setWindowTitle(f"New platoon in {campaign.name}")

        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText("e.g. 2nd Platoon")
        self.name_edit.setAccessibleName("Platoon name")
        self.problem = ErrorLabel(self)
        self.pickers = {a: DiePicker(a, self) for a in ("training", "equipment", "morale")}
        for picker in self.pickers.values():
            picker.setValue(8)
        self.armor = ArmorPicker(5, self)
        self.leader_edit = QLineEdit(self)
        self.leader_edit.setPlaceholderText("e.g. Lt. Okafor")
        self.leader_edit.setAccessibleName("Leader's name")
        self.rank_edit = QLineEdit(platoon_service.DEFAULT_RANK, self)
        self.rank_edit.setAccessibleName("Leader's rank")
        self.notes = QPlainTextEdit(self)
        self.notes.setTabChangesFocus(True)
        self.notes.setFixedHeight(50)
        self.notes.setAccessibleName("Platoon notes")

        form = QFormLayout()
        form.addRow("&Name:", self.name_edit)
        form.addRow("", self.problem)
        form.addRow("&Training:", self.pickers["training"])
        form.addRow("&Equipment:", self.pickers["equipment"])
        form.addRow("&Morale:", self.pickers["morale"])
        form.addRow("&Armor:", self.armor)
        form.addRow("&Leader:", self.leader_edit)
        # a note, not an error: said quietly while nothing is wrong yet, in red once a name is typed without it
        self.leader_problem = QLabel(self)
        self.leader_problem.setAccessibleName("Leader note")
        self.leader_problem.setFixedHeight(self.leader_problem.fontMetrics().lineSpacing() + 4)
        form.addRow("", self.leader_problem)
        form.addRow("Ran&k:", self.rank_edit)

        xp_box = QGroupBox("Experience", self)
        self.by_hand = QRadioButton("By &hand", xp_box)
        self.generate = QRadioButton(
            f"&Force generation (2d{self.dice.sides}, each \u2212 1: the lower to the "
            "leader, the higher to the platoon)",
            xp_box,
        )
        self.mode_group = QButtonGroup(self)
        self.mode_group.addButton(self.by_hand, BY_HAND)
        self.mode_group.addButton(self.generate, GENERATE)
        self.xp_spin = NumberSpin(xp_box)
        self.xp_spin.setRange(0, XP_MAX)
        self.xp_spin.setAccessibleName("Platoon XP")
        self.leader_xp_spin = NumberSpin(xp_box)
        self.leader_xp_spin.setRange(0, XP_MAX)
        self.leader_xp_spin.setAccessibleName("Leader XP")
        self.roll_for_me = QRadioButton("&Roll for me", xp_box)
        self.i_rolled = QRadioButton("I r&olled", xp_box)
        self.roll_group = QButtonGroup(self)
        self.roll_group.addButton(self.roll_for_me, ROLL_FOR_ME)
        self.roll_group.addButton(self.i_rolled, I_ROLLED)
        self.face_spins = []
        for i in (1, 2):
            spin = NumberSpin(xp_box)
            spin.setRange(1, self.dice.sides)
            spin.setPrefix(f"d{self.dice.sides}: ")
            spin.setAccessibleName(f"Face of die {i}")
            self.face_spins.append(spin)
        self.preview = QLabel(xp_box)
        self.preview.setAccessibleName("Force generation result")
        period = campaign.period
        period_note = QLabel(f"Campaign period: {period if period else 'not set'} \u2192 d{self.dice.sides}", xp_box)

        grid = QGridLayout(xp_box)
        grid.addWidget(self.by_hand, 0, 0, 1, 4)
        grid.addWidget(QLabel("Platoon XP:", xp_box), 1, 1)
        grid.addWidget(self.xp_spin, 1, 2)
        grid.addWidget(self.xp_spin.message, 1, 3, 1, 2)
        grid.addWidget(QLabel("Leader XP:", xp_box), 2, 1)
        grid.addWidget(self.leader_xp_spin, 2, 2)
        grid.addWidget(self.leader_xp_spin.message, 2, 3, 1, 2)
        grid.addWidget(self.generate, 3, 0, 1, 4)
        grid.addWidget(period_note, 4, 1, 1, 3)
        grid.addWidget(self.roll_for_me, 5, 1)
        grid.addWidget(self.i_rolled, 6, 1)
        grid.addWidget(self.face_spins[0], 6, 2)
        grid.addWidget(self.face_spins[1], 6, 3)
        self.faces_message = ErrorLabel(xp_box, lines=1, wrap=False)
        self.faces_message.setAccessibleName("Problem with the faces")
        for spin in self.face_spins:
            spin.share_message(self.faces_message)
            spin.problemChanged.connect(
                lambda _p: self.faces_message.show_problem(
                    next((s.problem() for s in self.face_spins if s.problem()), "")
                )
            )
        grid.addWidget(self.faces_message, 7, 1, 1, 4)  # its own line under the faces: the whole text shows
        grid.addWidget(self.preview, 8, 1, 1, 4)
        grid.setColumnMinimumWidth(0, 16)
        grid.setColumnStretch(4, 1)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Create platoon")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(xp_box)
        notes_form = QFormLayout()
        notes_form.addRow("Note&s:", self.notes)
        layout.addLayout(notes_form)
        layout.addWidget(self.buttons)

        (self.generate if generate else self.by_hand).setChecked(True)
        self.roll_for_me.setChecked(True)
        self.mode_group.idToggled.connect(lambda _i, _on: self._update())
        self.roll_group.idToggled.connect(lambda _i, _on: self._update())
        for spin in (*self.face_spins, self.xp_spin, self.leader_xp_spin):
            spin.valueChanged.connect(lambda _v: self._update())
            spin.problemChanged.connect(lambda _p: self._update())  # a refused face: no preview from the old one
        self.name_edit.textChanged.connect(lambda _t: self._update())
        self.leader_edit.textChanged.connect(lambda _t: self._update())
        chain = [
            self.name_edit,
            *self.pickers.values(),
            self.armor,
            self.leader_edit,
            self.rank_edit,
            self.by_hand,
            self.xp_spin,
            self.leader_xp_spin,
            self.generate,
            self.roll_for_me,
            self.i_rolled,
            *self.face_spins,
            self.notes,
        ]
        for a, b in zip(chain, chain[1:], strict=False):
            self.setTabOrder(a, b)
        self.name_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        self._update()

    def mode(self) -> int:
        return self.mode_group.checkedId()

    def accept(self) -> None:
        if first_number_problem(self) is None and self.ok_button.isEnabled():
            super().accept()

    def faces(self) -> list[int]:
        return [s.value() for s in self.face_spins]

    def _update(self) -> None:
        generating = self.mode() == GENERATE
        entered = self.roll_group.checkedId() == I_ROLLED
        has_leader = bool(self.leader_edit.text().strip())
        self.xp_spin.setEnabled(not generating)
        self.leader_xp_spin.setEnabled(not generating and has_leader)
        self.roll_for_me.setEnabled(generating)
        self.i_rolled.setEnabled(generating)
        for spin in self.face_spins:
            spin.setEnabled(generating and entered)
        if not generating:
            self.preview.setText("")
        elif entered and any(s.problem() for s in self.face_spins):
            self.preview.setText(f"Type the faces you rolled, each 1 to {self.dice.sides}.")
        elif entered:
            result = force_record(self.faces(), "entered", self.campaign.period)
            self.preview.setText(
                f"Leader <b>{result.leader_xp} XP</b> ({level_name(result.leader_xp, self.thresholds)}), "
                f"platoon <b>{result.platoon_xp} XP</b> ({level_name(result.platoon_xp, self.thresholds)})"
            )
        else:
            self.preview.setText(f"The app rolls 2d{self.dice.sides} when you press Create platoon.")
        name = self.name_edit.text()
        problem = platoon_service.platoon_name_problem(self.campaign.id, name) if name.strip() else None
        self.problem.show_problem(problem)
        # a generated force rolls the leader's XP too: that leader needs a name (never a made-up "New leader")
        leader_problem = (
            "Force generation rolls the leader's XP too: name the leader." if generating and not has_leader else None
        )
        self.leader_problem.setText(leader_problem or "")
        # red once the rest is ready (the name typed): before that it is a hint, not a mistake
        urgent = bool(leader_problem) and bool(name.strip())
        self.leader_problem.setStyleSheet(error_style(self) if urgent else "")
        self.leader_problem.setEnabled(urgent)  # a quiet (disabled-grey) hint until then
        self.ok_button.setEnabled(
            bool(name.strip())
            and problem is None
            and leader_problem is None
            and not any(s.problem() for s in self.face_spins if s.isEnabled())
        )

    def values(self, seed: int | None = None) -> dict[str, Any]:
        """Keyword arguments for ``platoons.create_platoon`` (campaign and name included)."""
        leader = self.leader_edit.text().strip() or None
        out: dict[str, Any] = {
            "campaign": self.campaign.id,
            "name": self.name_edit.text().strip(),
            **{a: p.value() for a, p in self.pickers.items()},
            "armor": self.armor.value(),
            "leader_name": leader,
            "leader_rank": self.rank_edit.text().strip() or platoon_service.DEFAULT_RANK,
            "notes": self.notes.toPlainText(),
        }
        if self.mode() == GENERATE:
            out["dice"] = TypedDice([self.faces()]) if self.roll_group.checkedId() == I_ROLLED else SeededDice(seed)
        else:
            out["xp"] = self.xp_spin.value()
            if leader:
                out["leader_xp"] = self.leader_xp_spin.value()
        return out


def new_platoon(ctx: AppContext, parent: QWidget | None, campaign_id: int, generate: bool = False) -> int | None:
    campaign = campaign_service.show_campaign(campaign_id)
    if campaign.system != "atomic_africa":
        QMessageBox.information(
            parent,
            "New platoon",
            f"{campaign.name} is a {campaign.system_label} campaign; platoons belong to Atomic Africa campaigns.",
        )
        return None
    dialog = NewPlatoonDialog(campaign, generate, parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        try:
            edit = perform(ctx, platoon_service.create_platoon, **dialog.values())
        except CampaignError as exc:
            QMessageBox.warning(parent, "New platoon", str(exc))
            return None
        return edit.id
    finally:
        dialog.deleteLater()
