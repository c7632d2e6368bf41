"""Replace a platoon's leader by hand (RULES.md 1.2 step 4): name and rank of the new leader, how the old one
left, and the new leader's XP: the app rolls the replacement die, the user types the face they rolled, or
sets the XP outright."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
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
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ..rules.aftermath import die_to_xp, replacement_die
from ..rules.dice import SeededDice, TypedDice
from ..rules.experience import XP_MAX, Thresholds, level_name
from ..services.platoons import DEFAULT_RANK, LEADER_EXITS, PlatoonDetail
from .widgets import ChoicePicker, NumberSpin, first_number_problem

ROLL, ENTERED, BY_HAND = 0, 1, 2


class ReplaceLeaderDialog(QDialog):
    def __init__(self, platoon: PlatoonDetail, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Replace the leader of {platoon.name}")
        self.platoon = platoon
        self.thresholds = Thresholds(*platoon.thresholds)
        self.dice = replacement_die(platoon.period, platoon.replacement_dice)
        current = platoon.leader

        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText("e.g. Lt. Diallo")
        self.name_edit.setAccessibleName("New leader's name")
        self.rank_edit = QLineEdit(DEFAULT_RANK, self)
        self.rank_edit.setAccessibleName("New leader's rank")
        self.how = ChoicePicker(list(LEADER_EXITS.items()), "How the leader left", self)
        self.how.setValue("replaced")

        form = QFormLayout()
        if current:
            form.addRow(QLabel(f"Current leader: <b>{current.name}</b> ({current.rank}, {current.xp} XP)", self))
            form.addRow("How they &left:", self.how)
        else:
            self.how.hide()
            form.addRow(QLabel("The platoon has no leader at the moment.", self))
        form.addRow("New leader's &name:", self.name_edit)
        form.addRow("&Rank:", self.rank_edit)

        box = QGroupBox("New leader's XP", self)
        sides = self.dice.sides
        two = self.dice.count == 2
        self.roll_radio = QRadioButton(f"Roll for &me ({'lower of 2' if two else '1'}d{sides} \u2212 1)", box)
        self.entered_radio = QRadioButton("I r&olled a", box)
        self.hand_radio = QRadioButton("Set by &hand", box)
        self.group = QButtonGroup(self)
        for i, b in enumerate((self.roll_radio, self.entered_radio, self.hand_radio)):
            self.group.addButton(b, i)
        self.face_spin = NumberSpin(box)
        self.face_spin.setRange(1, sides)
        self.face_spin.setPrefix(f"d{sides}: ")
        self.face_spin.setAccessibleName(f"Face of the {'first ' if two else ''}d{sides} you rolled")
        self.face2_spin = NumberSpin(box)  # the second die (RULES 1.2 step 4: the lower of two counts)
        self.face2_spin.setRange(1, sides)
        self.face2_spin.setPrefix(f"d{sides}: ")
        self.face2_spin.setAccessibleName(f"Face of the second d{sides} you rolled")
        self.face2_spin.setVisible(two)
        self.xp_spin = NumberSpin(box)
        self.xp_spin.setRange(0, XP_MAX)
        self.xp_spin.setSuffix(" XP")
        self.xp_spin.setAccessibleName("New leader's XP")
        period = platoon.period
        how = f"the lower of two d{sides} minus one" if two else f"one d{sides} minus one (house rule)"
        rule = QLabel(
            f"Replacement roll (RULES 1.2): {how}, at least 0 "
            f"({'period ' + str(period) if period else 'no campaign period set'}).",
            box,
        )
        rule.setWordWrap(True)
        self.preview = QLabel(box)
        self.preview.setAccessibleName("Resulting XP")
        grid = QGridLayout(box)
        grid.addWidget(rule, 0, 0, 1, 2)
        grid.addWidget(self.roll_radio, 1, 0, 1, 2)
        grid.addWidget(self.entered_radio, 2, 0)
        faces = QHBoxLayout()
        faces.addWidget(self.face_spin)
        faces.addWidget(self.face2_spin)
        grid.addLayout(faces, 2, 1)
        messages = QVBoxLayout()
        messages.addWidget(self.face_spin.message)
        messages.addWidget(self.face2_spin.message)
        grid.addLayout(messages, 2, 2)
        grid.addWidget(self.hand_radio, 3, 0)
        grid.addWidget(self.xp_spin, 3, 1)
        grid.addWidget(self.xp_spin.message, 3, 2)
        grid.addWidget(self.preview, 4, 0, 1, 2)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Replace leader")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(box)
        layout.addWidget(self.buttons)

        self.roll_radio.setChecked(True)
        self.group.idToggled.connect(lambda _i, _on: self._update())
        self.name_edit.textChanged.connect(lambda _t: self._update())
        self.face_spin.valueChanged.connect(lambda _v: self._update())
        self.face2_spin.valueChanged.connect(lambda _v: self._update())
        self.xp_spin.valueChanged.connect(lambda _v: self._update())
        self.setTabOrder(self.how, self.name_edit)
        self.setTabOrder(self.name_edit, self.rank_edit)
        self.setTabOrder(self.rank_edit, self.roll_radio)
        self.name_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        self._update()

    def _faces(self) -> list[int]:
        spins = (self.face_spin, self.face2_spin) if self.dice.count == 2 else (self.face_spin,)
        return [spin.value() for spin in spins]

    def mode(self) -> int:
        return self.group.checkedId()

    def accept(self) -> None:
        if first_number_problem(self) is None and self.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled():
            super().accept()

    def _update(self) -> None:
        mode = self.mode()
        self.face_spin.setEnabled(mode == ENTERED)
        self.face2_spin.setEnabled(mode == ENTERED)
        self.xp_spin.setEnabled(mode == BY_HAND)
        if mode == ROLL:
            self.preview.setText(f"The app rolls {self.dice.expression} when you press Replace leader.")
        else:
            xp = die_to_xp(min(self._faces())) if mode == ENTERED else self.xp_spin.value()
            self.preview.setText(f"New leader: <b>{xp} XP</b> ({level_name(xp, self.thresholds)})")
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.name_edit.text().strip()))

    def values(self, seed: int | None = None) -> dict[str, Any]:
        """Keyword arguments for ``leaders.replace_leader`` (without the platoon)."""
        out: dict[str, Any] = {
            "name": self.name_edit.text().strip(),
            "rank": self.rank_edit.text().strip() or DEFAULT_RANK,
            "how": self.how.value() if self.platoon.leader else "replaced",
        }
        mode = self.mode()
        if mode == ROLL:
            out["dice"] = SeededDice(seed)
        elif mode == ENTERED:
            out["dice"] = TypedDice([self._faces()])
        else:
            out["xp"] = self.xp_spin.value()
        return out
