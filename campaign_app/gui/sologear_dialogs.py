"""Sologear dialogs: a new campaign, the roll-by-roll dice panel, the length roll, Play turn, Record result,
and the end-of-campaign reckoning.

The dialogs hold no rules: a service hands out the step-wise procedure (``length_procedure``,
``turn_procedure``, ``end_procedure``); the user feeds it one roll at a time, either "Roll for me" (the app's
dice) or typed faces checked against the dice asked for. On OK the service is called once with the faces
gathered (``MixedDice``), so it re-runs the very same procedure, stores everything in one transaction, and
the change goes on the undo stack.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..rules import codes
from ..rules.dice import DiceError, DiceSource, SeededDice, Source, parse_faces
from ..rules.enums import TurnAction
from ..rules.sologear.combat import BUNKER_TV, BUNKERS_TOTAL, POSTURES
from ..rules.sologear.reckoning import DEFAULT_REWARD_DICE, EndProcedure, check_reward_dice
from ..rules.sologear.steps import MixedDice, Procedure
from ..rules.sologear.turn import TurnProcedure
from ..services import sologear_play as play_service
from ..services import sologear_sheet as sheet_service
from ..services.edits import Edit
from .context import AppContext
from .sizing import fit_resize
from .undo_commands import perform
from .widgets import ErrorLabel, NumberSpin, add_number_row, first_number_problem, plural


def _error_label(parent: QWidget) -> ErrorLabel:
    return ErrorLabel(parent, lines=2)  # the one error style; its room is kept, so an error never resizes


def _show_error(label: ErrorLabel, text: str) -> None:
    label.show_problem(text)


# --- new campaign ----------------------------------------------------------------------------------------------


class NewSologearDialog(QDialog):
    """File ▸ New Sologear campaign… (or New campaign… with System Sologear): the campaign sheet's header and the
    optional rules. ``name`` fills in the campaign's name; ``campaign_id`` puts the pilot sheet into that existing
    Sologear campaign (its name is shown, not edited)."""

    def __init__(
        self,
        ctx: AppContext,
        parent: QWidget | None = None,
        name: str = "",
        campaign_id: int | None = None,
        notes: str = "",
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.sheet_id: int | None = None
        self.campaign_id = campaign_id
        self.notes = notes
        self.setWindowTitle("New Sologear campaign" if campaign_id is None else f"Pilot sheet for {name}")
        form = QFormLayout()
        self.name_edit = QLineEdit(name, self)
        self.name_edit.setPlaceholderText("e.g. Hill 214")
        self.name_edit.setReadOnly(campaign_id is not None)
        self.pilot_edit = QLineEdit(self)
        self.pilot_edit.setPlaceholderText("the pilot's name (needed)")
        self.gear_name_edit = QLineEdit(self)
        self.gear_name_edit.setPlaceholderText("e.g. Hunter")
        self.gear_tv_spin = NumberSpin(self)
        self.gear_tv_spin.setRange(1, 100000)
        self.gear_tv_spin.setValue(250)
        self.gear_tv_spin.setSuffix(" TV")
        self.date_edit = QLineEdit(self)
        self.date_edit.setPlaceholderText("e.g. TN1932")
        self.area_edit = QLineEdit(self)
        self.player_unit_edit = QLineEdit(self)
        self.player_aff_edit = QLineEdit(self)
        self.enemy_unit_edit = QLineEdit(self)
        self.enemy_aff_edit = QLineEdit(self)
        for label, w, spoken in (
            ("Campaign &name:", self.name_edit, "Campaign name"),
            ("&Pilot:", self.pilot_edit, "Pilot"),
            ("&Gear:", self.gear_name_edit, "Gear name"),
            ("&Date:", self.date_edit, "Date"),
            ("&Area:", self.area_edit, "Area"),
            ("P&layer unit:", self.player_unit_edit, "Player unit"),
            ("Player affiliation:", self.player_aff_edit, "Player affiliation"),
            ("&Enemy unit:", self.enemy_unit_edit, "Enemy unit"),
            ("Enemy affiliation:", self.enemy_aff_edit, "Enemy affiliation"),
        ):
            w.setAccessibleName(spoken)  # (not "name": that is the campaign's name given to the dialog)
            if w is self.pilot_edit:
                self.gear_tv_spin.setAccessibleName("Gear TV")
            if isinstance(w, NumberSpin):
                add_number_row(form, label, w)
            else:
                form.addRow(label, w)
            if w is self.gear_name_edit:
                add_number_row(form, "Gear &TV:", self.gear_tv_spin)
        options = QGroupBox("Optional rules", self)
        opt_layout = QFormLayout(options)
        self.variable_check = QCheckBox("Variable (milder) reward and punishment tables", options)
        self.ferocious_check = QCheckBox("Ferocious battles (no surrender: fight your way out)", options)
        self.reward_dice_edit = QLineEdit(DEFAULT_REWARD_DICE, options)
        self.reward_dice_edit.setAccessibleName("Reward dice")
        opt_layout.addRow(self.variable_check)
        opt_layout.addRow(self.ferocious_check)
        opt_layout.addRow("Reward-roll dice:", self.reward_dice_edit)
        self.error = _error_label(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create")
        self.buttons.accepted.connect(self.create_sheet)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(options)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        # the first field to fill: the campaign's name, or the pilot when the name was given already
        self.first_field = self.pilot_edit if name else self.name_edit
        self.first_field.setFocus(Qt.FocusReason.OtherFocusReason)
        for edit in (self.name_edit, self.pilot_edit, self.reward_dice_edit):
            edit.textEdited.connect(lambda _t: _show_error(self.error, ""))  # a fixed problem's message goes

    def create_sheet(self) -> None:  # (not "create": that is QWidget.create(), which it would hide)
        if first_number_problem(self) is not None:
            return
        try:
            edit = perform(
                self.ctx,
                sheet_service.create_sheet,
                self.name_edit.text(),
                self.pilot_edit.text(),
                self.gear_tv_spin.value(),
                date=self.date_edit.text(),
                area=self.area_edit.text(),
                gear_name=self.gear_name_edit.text(),
                player_unit=self.player_unit_edit.text(),
                player_affiliation=self.player_aff_edit.text(),
                enemy_unit=self.enemy_unit_edit.text(),
                enemy_affiliation=self.enemy_aff_edit.text(),
                variable_tables=self.variable_check.isChecked(),
                ferocious=self.ferocious_check.isChecked(),
                reward_dice=self.reward_dice_edit.text(),
                notes=self.notes,
                campaign=self.campaign_id,
            )
        except CampaignError as exc:
            _show_error(self.error, str(exc))
            return
        self.sheet_id = edit.id
        self.accept()


def new_sologear_campaign(
    ctx: AppContext, parent: QWidget | None = None, name: str = "", campaign_id: int | None = None, notes: str = ""
) -> int | None:
    """File ▸ New Sologear campaign…: the new sheet's id, or None if cancelled (nothing is written then)."""
    dialog = NewSologearDialog(ctx, parent, name=name, campaign_id=campaign_id, notes=notes)
    try:
        if dialog.exec() == QDialog.DialogCode.Accepted:
            return dialog.sheet_id
        return None
    finally:
        dialog.deleteLater()


# --- the dice panel ----------------------------------------------------------------------------------------------


class FacesEdit(QLineEdit):
    """The faces field: Enter confirms the typed faces (``entered``) and goes no further, so the dialog's
    default button (OK, or whatever has the focus after the roll) is never pressed by the same key."""

    entered = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            self.entered.emit()
            return
        super().keyPressEvent(event)


class DiceSteps(QWidget):
    """Feeds a step-wise procedure one roll at a time: "Roll for me" or typed faces ("I rolled")."""

    stepped = Signal()
    completed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.proc: Procedure | None = None
        self.groups: list[tuple[list[int], Source]] = []
        self.app_dice: DiceSource = SeededDice()
        self.ask_label = QLabel(self)
        self.ask_label.setWordWrap(True)
        self.ask_label.setAccessibleName("Roll asked for")
        bold = QFont(self.ask_label.font())
        bold.setBold(True)
        self.ask_label.setFont(bold)
        self.hint_label = QLabel(self)
        self.hint_label.setWordWrap(True)
        self.roll_button = QPushButton("&Roll for me", self)
        self.roll_button.setAccessibleName("Roll for me")
        self.faces_edit = FacesEdit(self)
        self.faces_edit.setAccessibleName("Faces you rolled")
        self.faces_edit.setPlaceholderText("faces you rolled, e.g. 6,5")
        self.use_button = QPushButton("&I rolled these", self)
        self.use_button.setAccessibleName("I rolled these")
        self.restart_button = QPushButton("Start &over", self)
        self.restart_button.setAccessibleName("Start over")
        self.restart_button.setToolTip("Forget the rolls made so far and roll again (asks first)")
        self.restart_button.setAutoDefault(False)  # never the button Enter presses
        self.error = _error_label(self)
        self.log = QListWidget(self)
        self.log.setAccessibleName("Rolls made")
        self.log.setMinimumHeight(90)
        self.log.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.roll_button)
        row.addWidget(QLabel("or", self))
        row.addWidget(self.faces_edit, 1)
        row.addWidget(self.use_button)
        row.addWidget(self.restart_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.ask_label)
        layout.addWidget(self.hint_label)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addWidget(self.log, 1)
        self.roll_button.clicked.connect(self.roll_for_me)
        self.use_button.clicked.connect(self.use_typed)
        self.faces_edit.entered.connect(self.use_typed)  # Enter confirms the faces, and only that
        self.restart_button.clicked.connect(self.ask_restart)
        self._factory: Any = None
        self.focus_after_done: QWidget | None = None
        """Where the cursor goes once every roll is made (the dialog's OK button)."""
        self._update()

    def start(self, factory: Any) -> None:
        """``factory()`` makes a fresh procedure (kept for Start over)."""
        self._factory = factory
        self.restart()

    def ask_restart(self) -> None:
        """Start over: the rolls made so far are forgotten, so ask first (No is the default answer)."""
        if self.groups:
            n = len(self.groups)
            answer = QMessageBox.question(
                self,
                "Start over?",
                f"Forget the {plural(n, 'roll')} made so far and roll again?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.restart()

    def restart(self) -> None:
        self.groups = []
        self.log.clear()
        self.proc = self._factory() if self._factory is not None else None
        _show_error(self.error, "")
        self._update()
        self.stepped.emit()
        if self.proc is not None and self.proc.done:
            self.completed.emit()

    @property
    def done(self) -> bool:
        return self.proc is not None and self.proc.done

    def _update(self) -> None:
        req = self.proc.pending() if self.proc is not None else None
        active = req is not None
        for w in (self.roll_button, self.faces_edit, self.use_button):
            w.setEnabled(active)
        self.restart_button.setEnabled(bool(self.groups))
        if req is None:
            self.ask_label.setText(
                "All rolls made."
                if self.proc is not None and self.proc.records
                else "No dice needed."
                if self.proc is not None
                else ""
            )
            self.hint_label.setText("")
        else:
            n = len(self.groups) + 1
            self.ask_label.setText(f"Roll {n}: {req.expression} for {req.purpose_text}")
            self.hint_label.setText(req.hint)
            self.faces_edit.setPlaceholderText(
                "faces you rolled, e.g. " + ",".join(str(min(req.dice.sides, i + 3)) for i in range(req.dice.count))
            )
        if active:
            self.faces_edit.setFocus()
        elif (
            self.proc is not None
            and self.isVisible()
            and self.focus_after_done is not None
            and self.focus_after_done.isEnabled()
        ):
            # every roll made: the dialog's OK (its next step), never Start over
            self.focus_after_done.setFocus(Qt.FocusReason.OtherFocusReason)

    def _feed(self, faces: list[int], source: Source) -> None:
        assert self.proc is not None
        try:
            rec = self.proc.feed(faces, source)
        except CampaignError as exc:
            _show_error(self.error, str(exc))
            return
        _show_error(self.error, "")
        self.groups.append((list(faces), source))
        line = sheet_service.roll_words(rec) + ("  (typed)" if source == "entered" else "  (app)")
        self.log.addItem(line)
        self.faces_edit.clear()
        self._update()
        self.stepped.emit()
        if self.proc.done:
            self.completed.emit()

    def roll_for_me(self) -> None:
        req = self.proc.pending() if self.proc is not None else None
        if req is None:
            return
        self._feed(self.app_dice.roll(req.dice, req.purpose_text), "app")

    def use_typed(self) -> None:
        if self.proc is None or self.proc.pending() is None:
            return
        try:
            faces = parse_faces(self.faces_edit.text())
        except DiceError as exc:
            _show_error(self.error, str(exc))
            return
        self._feed(faces, "entered")

    def dice(self) -> MixedDice:
        return MixedDice(self.groups)


class _StepDialog(QDialog):
    """A dialog around a DiceSteps panel whose OK is enabled once every roll is made."""

    def __init__(self, ctx: AppContext, sheet_id: int, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.sheet_id = sheet_id
        self.edit: Edit[Any] | None = None
        self.setWindowTitle(title)
        self.steps = DiceSteps(self)
        self.error = _error_label(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setEnabled(False)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self.steps.stepped.connect(self._on_step)
        self.steps.focus_after_done = self.ok_button
        self.steps.completed.connect(self._on_completed)

    def _on_step(self) -> None:
        self.ok_button.setEnabled(self.steps.done)

    def _on_completed(self) -> None:
        self.ok_button.setEnabled(True)
        if self.isVisible():
            self.ok_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def _call(self) -> Edit[Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def save(self) -> None:
        if not self.steps.done:
            return
        try:
            self.edit = self._call()
        except CampaignError as exc:
            _show_error(self.error, str(exc))
            return
        self.accept()


class LengthDialog(_StepDialog):
    """Roll the campaign length: as many d6 as the smaller side has units."""

    def __init__(self, ctx: AppContext, sheet_id: int, parent: QWidget | None = None) -> None:
        super().__init__(ctx, sheet_id, "Roll the campaign length", parent)
        intro = QLabel(
            "Roll as many d6 as the side with fewer company-sized units has units; the sum is the "
            "number of battle turns.",
            self,
        )
        intro.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.steps, 1)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.steps.start(lambda: play_service.length_procedure(sheet_id))

    def _call(self) -> Edit[Any]:
        return perform(self.ctx, play_service.roll_length, self.sheet_id, self.steps.dice())


class PlayTurnDialog(_StepDialog):
    """Play turn: choose DEC, REP (only while the Gear needs it) or FIG with a posture; then the rolls the
    turn asks for, each shown with its table row and meaning."""

    def __init__(self, ctx: AppContext, sheet_id: int, parent: QWidget | None = None) -> None:
        super().__init__(ctx, sheet_id, "Play turn", parent)
        data = sheet_service.sheet_data(sheet_id)
        self.info = data.next
        self.setWindowTitle(f"Play turn {self.info.number} – {data.name}")
        head = QLabel(self)
        head.setWordWrap(True)
        state = []
        if data.state.gear_damaged:
            state.append("Gear damaged")
        if data.state.short_ammo:
            state.append("short of ammunition")
        odds = (
            "break-out: Losing column, always Bold"
            if self.info.breakout
            else f"odds {self.info.ratio_text}, column {self.info.band}"
            if self.info.band
            else "no odds yet"
        )
        length = f" of {self.info.length}" if self.info.length and not self.info.breakout else ""
        head.setText(
            f"<b>Turn {self.info.number}{length}</b> · {odds} · Gear TV {data.gear_tv} "
            f"(enemy column {data.enemy_quality_column})" + (f" · {', '.join(state)}" if state else "")
        )
        self.head = head

        choice = QGroupBox("The pilot chooses", self)
        grid = QGridLayout(choice)
        self.action_group = QButtonGroup(self)
        self.dec_radio = QRadioButton("&DEC – decline the battle", choice)
        self.rep_radio = QRadioButton("R&EP – repairs (1d6−2 hours, at least 1)", choice)
        self.fig_radio = QRadioButton("&FIG – fight, posture:", choice)
        for i, (radio, key) in enumerate(((self.dec_radio, "dec"), (self.rep_radio, "rep"), (self.fig_radio, "fig"))):
            radio.setProperty("action", key)
            radio.setEnabled(key in self.info.actions)
            self.action_group.addButton(radio, i)
            grid.addWidget(radio, i, 0)
        if not self.info.can_rep:
            self.rep_radio.setToolTip("Only while the Gear is damaged or short of ammunition")
        self.posture_combo = QComboBox(choice)
        self.posture_combo.setAccessibleName("Posture")
        for x, name in POSTURES.items():
            self.posture_combo.addItem(f"{x:+d} {name}" if x else f"0 {name}", x)
        self.posture_combo.setCurrentIndex(
            self.posture_combo.findData(self.info.posture_fixed if self.info.posture_fixed is not None else 0)
        )
        self.posture_combo.setEnabled(self.info.posture_fixed is None)
        grid.addWidget(self.posture_combo, 2, 1)
        self.start_button = QPushButton("&Start rolling", choice)
        grid.addWidget(self.start_button, 3, 0, 1, 2, Qt.AlignmentFlag.AlignLeft)
        (self.fig_radio if "fig" in self.info.actions else self.dec_radio).setChecked(True)

        # the exact odds of the combat roll for the action and posture chosen (RULES.md 2.2), before rolling
        self.odds_label = QLabel(self)
        self.odds_label.setWordWrap(True)
        self.odds_label.setAccessibleName("Odds of the combat roll")
        self.odds_label.setTextFormat(Qt.TextFormat.RichText)

        self.cell_label = QLabel(self)
        self.cell_label.setWordWrap(True)
        self.cell_label.setAccessibleName("Combat result")
        self.cell_label.setFrameShape(QFrame.Shape.StyledPanel)
        self.cell_label.setMinimumHeight(48)
        self.cell_label.setTextFormat(Qt.TextFormat.RichText)

        layout = QVBoxLayout(self)
        layout.addWidget(head)
        layout.addWidget(choice)
        layout.addWidget(self.odds_label)
        layout.addWidget(self.steps, 1)
        layout.addWidget(QLabel("What it means:", self))
        layout.addWidget(self.cell_label)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.steps.setEnabled(False)
        self.start_button.clicked.connect(self.start)
        self.steps.stepped.connect(self._show_meaning)
        self.action_group.idToggled.connect(lambda _i, _on: self._show_odds())
        self.posture_combo.currentIndexChanged.connect(lambda _i: self._show_odds())
        self._show_odds()
        fit_resize(self, 660, 700)  # the odds, the rolls and what they mean, unsqueezed
        if self.info.blocked:
            _show_error(self.error, self.info.blocked)
            choice.setEnabled(False)

    def choose(self, action: str, posture: int | None = None) -> None:
        """Pick an action (and posture) as the user would."""
        {"dec": self.dec_radio, "rep": self.rep_radio, "fig": self.fig_radio}[action].setChecked(True)
        if posture is not None and self.posture_combo.isEnabled():
            self.posture_combo.setCurrentIndex(self.posture_combo.findData(posture))

    @property
    def action(self) -> str:
        button = self.action_group.checkedButton()
        return str(button.property("action")) if button is not None else "dec"

    @property
    def posture(self) -> int | None:
        return int(self.posture_combo.currentData()) if self.action == "fig" else None

    def start(self) -> None:
        action, posture = self.action, self.posture
        try:
            play_service.turn_procedure(self.sheet_id, TurnAction(action), posture)
        except CampaignError as exc:
            _show_error(self.error, str(exc))
            return
        _show_error(self.error, "")
        for w in (self.dec_radio, self.rep_radio, self.fig_radio, self.posture_combo, self.start_button):
            w.setEnabled(False)
        self.steps.setEnabled(True)
        self.steps.start(lambda: play_service.turn_procedure(self.sheet_id, TurnAction(action), posture))

    def _show_odds(self) -> None:
        """The combat roll's odds for the posture chosen (FIG only; DEC and REP roll no combat dice)."""
        from ..rules.sologear.odds import KINDS, percent, posture_words
        from ..services.sologear_odds import turn_odds

        if self.action != "fig" or self.info.blocked:
            self.odds_label.setText("No combat roll for this choice." if not self.info.blocked else "")
            self.odds_label.setToolTip("")
            return
        try:
            odds = turn_odds(self.sheet_id, self.posture)
        except CampaignError as exc:
            self.odds_label.setText(f"No odds: {exc}.")
            return
        c = odds.combat
        kinds = c.kinds()
        parts = [f"{words} <b>{percent(kinds[kind])}</b>" for kind, words in KINDS if kind in kinds]
        likely = sorted((r for r in c.rows if r.probability), key=lambda r: -r.probability)[:3]
        self.odds_label.setText(
            f"Odds of the combat roll (2d6{f'{c.posture:+d}' if c.posture else ''}, {posture_words(c.posture)}, "
            f"{c.column} column): "
            + ", ".join(parts)
            + ". Most likely: "
            + "; ".join(f"{r.total} {r.result} ({percent(r.probability)})" for r in likely)
            + "."
        )
        self.odds_label.setToolTip(
            "\n".join(
                f"{r.total:>2}: {percent(r.probability):>7}  {r.result}  {r.words}" for r in c.rows if r.probability
            )
        )

    def _show_meaning(self) -> None:
        proc = self.steps.proc
        if not isinstance(proc, TurnProcedure):
            self.cell_label.setText("")
            return
        res = proc.result
        lines = []
        if res.cell_text is not None:
            lines.append(f"<b>Row {res.combat_total}, {res.column}: {res.cell_text}</b>")
        lines.extend(res.meaning)
        if proc.done and res.battle:
            lines.append("<i>Play the battle on the table, then record what happened.</i>")
        if proc.done and res.ends:
            lines.append(f"<b>The campaign ends: {codes.END_REASONS.get(res.ends, res.ends.replace('_', ' '))}.</b>")
        self.cell_label.setText("<br>".join(lines) if lines else "")

    def _call(self) -> Edit[Any]:
        return perform(
            self.ctx,
            play_service.play_turn,
            self.sheet_id,
            TurnAction(self.action),
            self.posture,
            dice=self.steps.dice(),
        )


class RecordDialog(QDialog):
    """Record what happened on the table in a turn: Glory collected, enemy TV destroyed, bunkers destroyed;
    for the last turn also the Gear's state and the pilot's fate."""

    def __init__(self, ctx: AppContext, sheet_id: int, turn_number: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.sheet_id = sheet_id
        self.turn_number = turn_number
        self.edit: Edit[Any] | None = None
        data = sheet_service.sheet_data(sheet_id)
        turn = next(t for t in data.turns if t.turn == turn_number)
        is_last = turn_number == data.turns[-1].turn
        self.setWindowTitle(f"Record turn {turn_number} – {data.name}")
        res = turn.result
        form = QFormLayout()
        self.glory_spin = NumberSpin(self)
        self.glory_spin.setRange(0, turn.glory or 0)
        self.glory_spin.setValue(res.glory_collected)
        self.glory_spin.setAccessibleName("Glory collected")
        self.enemy_spin = NumberSpin(self)
        self.enemy_spin.setRange(0, turn.enemy_tv or 0)
        self.enemy_spin.setSingleStep(50)
        self.enemy_spin.setValue(res.enemy_tv_destroyed)
        self.enemy_spin.setAccessibleName("Enemy TV destroyed")
        self.bunkers_spin = NumberSpin(self)
        self.bunkers_spin.setRange(0, BUNKERS_TOTAL)
        self.bunkers_spin.setValue(res.bunkers_destroyed)
        self.bunkers_spin.setAccessibleName("Bunkers destroyed")
        battle = turn.battle
        for w in (self.glory_spin, self.enemy_spin, self.bunkers_spin):
            w.setEnabled(battle)
        if not turn.enemy_tv:
            self.enemy_spin.setEnabled(False)  # no enemy unit: nothing to destroy (never a typed 150 stored as 0)
        add_number_row(form, f"&Glory collected (of {turn.glory or 0} placed):", self.glory_spin)
        add_number_row(
            form,
            "&Enemy TV destroyed" + (f" (unit of TV {turn.enemy_tv}):" if turn.enemy_tv else " (no enemy unit):"),
            self.enemy_spin,
        )
        add_number_row(form, f"&Bunkers destroyed (TV {BUNKER_TV} each):", self.bunkers_spin)
        self.damaged_check = QCheckBox("Gear &damaged", self)
        self.damaged_check.setChecked(data.state.gear_damaged if is_last else res.gear_damaged)
        self.ammo_check = QCheckBox("&Short of ammunition", self)
        self.ammo_check.setChecked(data.state.short_ammo if is_last else res.short_ammo)
        self.dead_check = QCheckBox("Pilot de&ad", self)
        self.dead_check.setChecked(res.pilot_dead)
        self.captured_check = QCheckBox("Pilot &captured", self)
        self.captured_check.setChecked(res.pilot_captured)
        for check in (self.damaged_check, self.ammo_check):
            check.setEnabled(is_last)
        for check in (self.dead_check, self.captured_check):
            check.setEnabled(is_last and battle)
        self.dead_check.toggled.connect(lambda on: self.captured_check.setChecked(False) if on else None)
        self.captured_check.toggled.connect(lambda on: self.dead_check.setChecked(False) if on else None)
        state = QHBoxLayout()
        for check in (self.damaged_check, self.ammo_check, self.dead_check, self.captured_check):
            state.addWidget(check)
        self.notes_edit = QLineEdit(turn.notes, self)
        self.notes_edit.setAccessibleName("Notes")
        form.addRow(state)
        form.addRow("&Notes:", self.notes_edit)
        summary = QLabel("<br>".join(turn.meaning) or turn.label, self)
        summary.setWordWrap(True)
        self.error = _error_label(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Record")
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"<b>Turn {turn_number}: {turn.label}</b>", self))
        layout.addWidget(summary)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self._is_last = is_last

    def save(self) -> None:
        if first_number_problem(self) is not None:
            return
        try:
            self.edit = perform(
                self.ctx,
                play_service.record_turn,
                self.sheet_id,
                self.turn_number,
                glory=self.glory_spin.value(),
                enemy_tv=self.enemy_spin.value(),
                bunkers=self.bunkers_spin.value(),
                gear_damaged=self.damaged_check.isChecked() if self._is_last else None,
                short_ammo=self.ammo_check.isChecked() if self._is_last else None,
                pilot_dead=self.dead_check.isChecked(),
                pilot_captured=self.captured_check.isChecked(),
                notes=self.notes_edit.text(),
            )
        except CampaignError as exc:
            _show_error(self.error, str(exc))
            return
        self.accept()


class EndDialog(_StepDialog):
    """The end-of-campaign reckoning: recognition, the D66 noticed roll, impression, the reward or punishment
    roll."""

    def __init__(self, ctx: AppContext, sheet_id: int, parent: QWidget | None = None) -> None:
        super().__init__(ctx, sheet_id, "End of campaign", parent)
        data = sheet_service.sheet_data(sheet_id)
        rk = data.reckoning
        self.setWindowTitle(f"End of campaign – {data.name}")
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        rec_parts = ", ".join(f"{i.label} {i.points:+d}" for i in rk.recognition_breakdown if i.points)
        imp_parts = ", ".join(f"{i.label} {i.points:+d}" for i in rk.impression_breakdown if i.points)
        self.summary.setText(
            f"<b>Recognition {rk.recognition}</b> ({rec_parts or 'nothing'}) – noticed on a D66 of "
            f"{rk.noticed_on}.<br><b>Impression {rk.impression}</b> ({imp_parts or 'nothing'}) – "
            f"if noticed, roll {data.options.reward_dice} + impression on the "
            f"{'rewards' if rk.impression >= 0 else 'punishments'} table"
            f"{' (variable tables)' if data.options.variable_tables else ''}."
        )
        self.result_label = QLabel(self)
        self.result_label.setWordWrap(True)
        self.result_label.setAccessibleName("Reckoning result")
        self.odds_label = QLabel(self)
        self.odds_label.setWordWrap(True)
        self.odds_label.setTextFormat(Qt.TextFormat.RichText)
        self.odds_label.setAccessibleName("Odds of the reckoning")
        self.odds_label.setText(
            self._odds_text(rk.recognition, rk.impression, data.options.reward_dice, data.options.variable_tables)
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.odds_label)
        layout.addWidget(self.steps, 1)
        layout.addWidget(self.result_label)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.steps.stepped.connect(self._show_result)
        fit_resize(self, 620, 520)
        try:
            play_service.end_procedure(sheet_id)
        except CampaignError as exc:
            _show_error(self.error, str(exc))
            self.steps.setEnabled(False)
            return
        self.steps.start(lambda: play_service.end_procedure(sheet_id))

    @staticmethod
    def _odds_text(recognition: int, impression: int, reward_dice: str, variable: bool) -> str:
        """The chance of being noticed and of each band of the reward or punishment roll (RULES.md 2.3)."""
        from ..rules.sologear.odds import noticed_chance, percent, result_odds

        try:
            bands = result_odds(check_reward_dice(reward_dice), impression, variable=variable)
        except CampaignError:
            return ""
        return (
            f"Odds: noticed <b>{percent(noticed_chance(recognition))}</b>; if noticed, "
            + ", ".join(f"{b.table} {b.label} ({b.title}) <b>{percent(b.probability)}</b>" for b in bands)
            + "."
        )

    def _show_result(self) -> None:
        proc = self.steps.proc
        if not isinstance(proc, EndProcedure):
            return
        res = proc.result
        lines = []
        if res.d66 is not None:
            lines.append(f"D66 {res.d66}: {'noticed' if res.noticed else 'not noticed'}.")
        if res.band is not None:
            lines.append(
                f"{(res.table or '').capitalize()} roll {res.result} ({res.band.label}): "
                f"{res.band.title}. {res.band.text}"
            )
        elif res.noticed is False:
            lines.append(res.outcome)
        self.result_label.setText(" ".join(lines))

    def _call(self) -> Edit[Any]:
        return perform(self.ctx, play_service.end_campaign, self.sheet_id, self.steps.dice())
