"""The Death Blow dialogs: log a bout played at the table, play a solo bout round by round, correct a fighter,
add a fighter. The odds of a bout between two fighters are estimated in a worker thread and shown as an
estimate. Cancelling a dialog writes nothing; saving is one undoable operation."""

from __future__ import annotations

import datetime as _dt
from typing import Any

from PySide6.QtCore import QDate, QThread, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...errors import CampaignError
from ...rules import death_blow as rules
from ...rules.enums import BoutWinner
from ...services import death_blow as service
from ..context import AppContext
from ..sizing import cap_fields
from ..undo_commands import perform, push_edit
from ..widgets import ChoicePicker, ErrorLabel, date_of
from .models import RoundsModel

GUI_ODDS_BOUTS = rules.DEFAULT_ODDS_BOUTS


class OddsWorker(QThread):
    """Plays the odds' seeded bouts off the GUI thread (rules only: no database); ``done(odds)`` at the end."""

    done = Signal(object)

    def __init__(self, level_a: int, level_b: int, bouts: int = GUI_ODDS_BOUTS, parent: Any = None) -> None:
        super().__init__(parent)
        self.levels = (level_a, level_b)
        self.bouts = bouts

    def run(self) -> None:
        counts = (0, 0, 0)
        for running in rules.odds_runs(*self.levels, self.bouts, seed=0):
            if self.isInterruptionRequested():
                return
            counts = running
        self.done.emit(rules.odds_from_counts(*counts, seed=0))


def odds_text(name_a: str, name_b: str, odds: rules.Odds) -> str:
    def pct(p: float) -> str:
        return f"{100 * p:.0f} %"

    return (
        f"Estimate: {name_a} wins {pct(odds.fighter_wins)}, {name_b} wins {pct(odds.opponent_wins)}, "
        f"draw {pct(odds.draws)} (\u00b1{100 * odds.margin:.1f} points; from {odds.bouts:,} solo bouts "
        "played by the app)"
    )


class OddsLabel(QLabel):
    """ "Estimating the odds…", then the estimate (never exact: played bouts, with their margin)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setAccessibleName("Odds (estimate)")
        self._worker: OddsWorker | None = None
        self._names = ("", "")
        self.last: rules.Odds | None = None

    def estimate(self, name_a: str, level_a: int, name_b: str, level_b: int) -> None:
        self.stop()
        self.last = None
        self._names = (name_a, name_b)
        self.setText(f"Estimating the odds of {name_a} (level {level_a}) against {name_b} (level {level_b})\u2026")
        worker = OddsWorker(level_a, level_b, parent=self)
        worker.done.connect(self._show)
        self._worker = worker
        worker.start()

    def clear_odds(self, text: str = "") -> None:
        self.stop()
        self.setText(text)

    def _show(self, odds: rules.Odds) -> None:
        self.last = odds
        self.setText(odds_text(*self._names, odds))

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.done.disconnect(self._show)
            self._worker.requestInterruption()
            self._worker.wait()
            self._worker = None

    @property
    def running(self) -> bool:
        return self._worker is not None and self._worker.isRunning()


def _others(fighter: service.FighterDetail) -> list[service.FighterRow]:
    return [r for r in service.list_fighters(fighter.campaign_id, include_retired=False) if r.id != fighter.id]


# --- log a bout played at the table ----------------------------------------------------------------------


class LogBoutDialog(QDialog):
    def __init__(self, ctx: AppContext, fighter_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.fighter = service.show_fighter(fighter_id)
        f = self.fighter
        self.setWindowTitle(f"Log a bout of {f.name}")
        self.others = _others(f)
        intro = QLabel(
            f"A bout {f.name} (level {f.level}) fought at the table: type the result; the app works "
            "out the XP (1 per face card left in the victor's deck) and any level gained.",
            self,
        )
        intro.setWordWrap(True)
        self.vs_fighter = QRadioButton("A &fighter of the campaign:", self)
        self.vs_outside = QRadioButton("An &outside opponent:", self)
        group = QButtonGroup(self)
        group.addButton(self.vs_fighter)
        group.addButton(self.vs_outside)
        self.opponent_pick = ChoicePicker(
            [(r.id, f"{r.name} (level {r.level})") for r in self.others], "Opponent fighter", self
        )
        self.outside_name = QLineEdit(self)
        self.outside_name.setPlaceholderText("name")
        self.outside_name.setAccessibleName("Outside opponent's name")
        self.outside_level = QSpinBox(self)
        self.outside_level.setRange(0, rules.MAX_LEVEL)
        self.outside_level.setPrefix("level ")
        self.outside_level.setAccessibleName("Outside opponent's level")
        self.winner = ChoicePicker([], "Winner", self)
        self.face_cards = QSpinBox(self)
        self.face_cards.setRange(0, rules.MAX_XP_GAIN)
        self.face_cards.setAccessibleName("Face cards left in the victor's deck")
        self.face_cards.setToolTip("J, Q, K still in the victor's deck (not played, not discarded): 0..12")
        self.date = QDateEdit(QDate.currentDate(), self)
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.notes = QPlainTextEdit(self)
        self.notes.setTabChangesFocus(True)
        self.notes.setFixedHeight(54)
        self.odds = OddsLabel(self)
        self.problem = ErrorLabel(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Log bout")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        opp = QGroupBox("Opponent", self)
        grid = QFormLayout(opp)
        grid.addRow(self.vs_fighter, self.opponent_pick)
        row = QHBoxLayout()
        row.addWidget(self.outside_name, 1)
        row.addWidget(self.outside_level)
        grid.addRow(self.vs_outside, row)
        form = QFormLayout()
        form.addRow("&Winner:", self.winner)
        form.addRow("Face &cards left:", self.face_cards)
        form.addRow("&Date:", self.date)
        form.addRow("&Notes:", self.notes)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(opp)
        layout.addLayout(form)
        layout.addWidget(self.odds)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)

        for signal in (self.vs_fighter.toggled, self.opponent_pick.currentIndexChanged):
            signal.connect(lambda *_a: self._opponent_changed())
        self.outside_name.textChanged.connect(lambda _t: self._fill_winner())
        self.winner.currentIndexChanged.connect(lambda _i: self._winner_changed())
        (self.vs_fighter if self.others else self.vs_outside).setChecked(True)
        self.vs_fighter.setEnabled(bool(self.others))
        self._opponent_changed()
        self.edit: Any = None
        cap_fields(self)

    def _opponent_name(self) -> str:
        if self.vs_fighter.isChecked():
            chosen = self.opponent_pick.value()
            return next((r.name for r in self.others if r.id == chosen), "")
        return " ".join(self.outside_name.text().split())

    def _opponent_changed(self) -> None:
        fighter_side = self.vs_fighter.isChecked()
        self.opponent_pick.setEnabled(fighter_side)
        self.outside_name.setEnabled(not fighter_side)
        self.outside_level.setEnabled(not fighter_side)
        self._fill_winner()
        chosen = self.opponent_pick.value() if fighter_side else None
        other = next((r for r in self.others if r.id == chosen), None)
        if other is not None:
            self.odds.estimate(self.fighter.name, self.fighter.level, other.name, other.level)
        else:
            self.odds.clear_odds("")

    def _fill_winner(self) -> None:
        keep = self.winner.value()
        other = self._opponent_name() or "the opponent"
        choices: list[tuple[Any, str]] = [(self.fighter.name, self.fighter.name), (other, other), ("draw", "draw")]
        blocked = self.winner.blockSignals(True)
        self.winner.clear()
        for value, text in choices:
            self.winner.addItem(text, value)
        index = self.winner.findData(keep) if keep is not None else -1
        self.winner.setCurrentIndex(index if index >= 0 else 0)
        self.winner.blockSignals(blocked)
        self._winner_changed()

    def _winner_changed(self) -> None:
        draw = self.winner.value() == "draw"
        self.face_cards.setEnabled(not draw)
        if draw:
            self.face_cards.setValue(0)

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "winner": (BoutWinner.FIGHTER, BoutWinner.OPPONENT, BoutWinner.DRAW)[self.winner.currentIndex()],
            "face_cards": self.face_cards.value(),
            "date": date_of(self.date.date()),
            "notes": self.notes.toPlainText(),
        }
        if self.vs_fighter.isChecked():
            out["opponent_fighter"] = self.opponent_pick.value()
        else:
            out["opponent"] = self.outside_name.text()
            out["opponent_level"] = self.outside_level.value()
        return out

    def accept(self) -> None:
        try:
            self.edit = perform(self.ctx, service.log_bout, self.fighter.id, **self.values())
        except CampaignError as exc:
            self.problem.show_problem(str(exc))
            return
        self.odds.stop()
        super().accept()

    def reject(self) -> None:
        self.odds.stop()
        super().reject()


def log_bout(ctx: AppContext, parent: QWidget | None, fighter_id: int) -> int | None:
    """Ctrl+B on a fighter's page: the bout's id, or None when cancelled."""
    try:
        dialog = LogBoutDialog(ctx, fighter_id, parent)
    except CampaignError as exc:
        ctx.signals.status.emit(str(exc))
        return None
    return _run_saving_dialog(ctx, dialog)


def _run_saving_dialog(ctx: AppContext, dialog: LogBoutDialog | SoloBoutDialog) -> int | None:
    """Run a bout dialog; when it saved, say so in the status bar and give the bout's id (None: cancelled)."""
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.edit is None:
            return None
        ctx.signals.status.emit(dialog.edit.message)
        return int(dialog.edit.id)
    finally:
        dialog.deleteLater()


# --- a solo bout, round by round ---------------------------------------------------------------------------


class SoloBoutDialog(QDialog):
    """The app plays both shuffled decks (§5.2): Next round, or Play to the end, with the app's dice or the
    dice typed for the next round. Nothing is written until Save bout; Cancel drops it."""

    def __init__(
        self, ctx: AppContext, fighter_id: int, parent: QWidget | None = None, opponent_id: int | None = None
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.fighter = service.show_fighter(fighter_id)
        self.others = _others(self.fighter)
        if not self.others:
            raise CampaignError(
                f"{self.fighter.name} has nobody to fight: a solo bout needs another active fighter in the campaign"
            )
        self.setWindowTitle(f"Solo bout: {self.fighter.name}")
        self.solo: service.SoloBout | None = None
        self.edit: Any = None
        self.opponent_pick = ChoicePicker(
            [(r.id, f"{r.name} (level {r.level})") for r in self.others], "Opponent", self
        )
        if opponent_id is not None:
            self.opponent_pick.setValue(opponent_id)
        self.seed = QLineEdit(self)
        self.seed.setPlaceholderText("any text; empty: a new shuffle")
        self.seed.setAccessibleName("Seed")
        self.seed.setToolTip("The same seed and the same fighters give the same decks and the same app dice")
        self.odds = OddsLabel(self)
        self.typed = QCheckBox("&Type the dice for the next round", self)
        self.dice_a = QLineEdit(self)
        self.dice_b = QLineEdit(self)
        for edit, who in ((self.dice_a, self.fighter.name), (self.dice_b, "opponent")):
            edit.setPlaceholderText("two d12, e.g. 7,3")
            edit.setAccessibleName(f"Dice of {who}")
            edit.setMaximumWidth(120)
        self.deck_a = QLabel(self)
        self.deck_b = QLabel(self)
        self.result_label = QLabel(self)
        self.result_label.setWordWrap(True)
        font = self.result_label.font()
        font.setBold(True)
        self.result_label.setFont(font)
        self.model = RoundsModel(self)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.setAccessibleName("Rounds of the bout")
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.view.setMinimumHeight(200)
        self.problem = ErrorLabel(self)
        self.next_button = QPushButton("&Next round", self)
        self.end_button = QPushButton("Play to the &end", self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setText("&Save bout")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        top = QFormLayout()
        top.addRow("&Opponent:", self.opponent_pick)
        top.addRow("See&d:", self.seed)
        dice_row = QHBoxLayout()
        dice_row.addWidget(self.typed)
        self.dice_a_label = QLabel(f"{self.fighter.name}:", self)
        self.dice_a_label.setBuddy(self.dice_a)
        self.dice_b_label = QLabel("opponent:", self)
        self.dice_b_label.setBuddy(self.dice_b)
        for w in (self.dice_a_label, self.dice_a, self.dice_b_label, self.dice_b):
            dice_row.addWidget(w)
        dice_row.addStretch(1)
        decks = QHBoxLayout()
        decks.addWidget(self.deck_a, 1)
        decks.addWidget(self.deck_b, 1)
        play = QHBoxLayout()
        play.addWidget(self.next_button)
        play.addWidget(self.end_button)
        play.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.odds)
        layout.addLayout(dice_row)
        layout.addLayout(decks)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.result_label)
        layout.addWidget(self.problem)
        layout.addLayout(play)
        layout.addWidget(self.buttons)

        self.opponent_pick.currentIndexChanged.connect(lambda _i: self._reset())
        self.seed.editingFinished.connect(self._seed_changed)
        self.typed.toggled.connect(self._typed_toggled)
        self.next_button.clicked.connect(self.next_round)
        self.end_button.clicked.connect(self.play_to_end)
        self._typed_toggled(False)
        self._reset()
        cap_fields(self)
        self.resize(1000, 620)

    # --- state ---------------------------------------------------------------------------------------------
    def _opponent(self) -> service.FighterRow:
        chosen = self.opponent_pick.value()
        return next(r for r in self.others if r.id == chosen)

    def _seed_changed(self) -> None:
        if self.solo is None or not self.solo.rounds:
            self._reset()

    def _reset(self) -> None:
        """A new bout (before the first round): the chosen opponent, the seed, both decks shuffled."""
        o = self._opponent()
        self.model.set_names(self.fighter.name, o.name)
        self.dice_b_label.setText(f"{o.name}:")
        self.problem.show_problem(None)
        try:
            self.solo = service.SoloBout(self.fighter.id, o.id, seed=self.seed.text().strip() or None)
        except CampaignError as exc:
            self.solo = None
            self.problem.show_problem(str(exc))
        self.odds.estimate(self.fighter.name, self.fighter.level, o.name, o.level)
        self._refresh()

    def _typed_toggled(self, on: bool) -> None:
        for w in (self.dice_a, self.dice_b, self.dice_a_label, self.dice_b_label):
            w.setEnabled(on)
        if on:
            self.dice_a.setFocus()

    def _refresh(self) -> None:
        solo = self.solo
        started = solo is not None and bool(solo.rounds)
        self.opponent_pick.setEnabled(not started)
        self.seed.setEnabled(not started)
        if solo is None:
            for w in (self.next_button, self.end_button, self.save_button):
                w.setEnabled(False)
            return
        self.model.set_round_dicts([r.to_dict() for r in solo.rounds])
        if solo.rounds:
            self.view.scrollToBottom()
        (left_a, left_b), (faces_a, faces_b) = solo.cards_left(), solo.face_cards_left()
        self.deck_a.setText(f"{solo.fighter_name}: {left_a} cards left, {faces_a} face cards")
        self.deck_b.setText(f"{solo.opponent_name}: {left_b} cards left, {faces_b} face cards")
        over = solo.over
        self.next_button.setEnabled(not over)
        self.end_button.setEnabled(not over)
        self.typed.setEnabled(not over)
        self.save_button.setEnabled(over)
        if over:
            r = solo.bout.result
            if r.winner == "draw":
                text = f"A draw after {len(r.rounds)} rounds: both decks ran out together. No XP."
            else:
                name = solo.fighter_name if r.winner == "a" else solo.opponent_name
                text = (
                    f"{name} wins after {len(r.rounds)} rounds with {r.face_cards_left} face cards left: "
                    f"+{r.xp_gained} XP. Save bout records it (one step, undoable)."
                )
            self.result_label.setText(text)
            self.save_button.setFocus()
        else:
            self.result_label.setText(f"Seed {solo.seed}. Round {len(solo.rounds) + 1} next.")

    # --- playing -------------------------------------------------------------------------------------------
    def _typed_pairs(self) -> tuple[list[int], list[int]] | None:
        if not self.typed.isChecked():
            return None
        pairs = service.parse_dice_pairs([self.dice_a.text(), self.dice_b.text()])
        return list(pairs[0]), list(pairs[1])

    def next_round(self) -> None:
        if self.solo is None or self.solo.over:
            return
        try:
            typed = self._typed_pairs()
            if typed is None:
                self.solo.next_round()
            else:
                self.solo.next_round(*typed)
                self.dice_a.clear()
                self.dice_b.clear()
                self.dice_a.setFocus()
        except CampaignError as exc:
            self.problem.show_problem(str(exc))
            return
        self.problem.show_problem(None)
        self._refresh()

    def play_to_end(self) -> None:
        if self.solo is None:
            return
        try:
            typed = self._typed_pairs()
            if typed is not None:
                self.solo.next_round(*typed)
            if not self.solo.over:
                self.solo.play_to_end()
        except CampaignError as exc:
            self.problem.show_problem(str(exc))
            return
        self.problem.show_problem(None)
        self._refresh()

    def accept(self) -> None:
        if self.solo is None or not self.solo.over:
            return
        try:
            self.edit = self.solo.save(date=_dt.date.today())
        except CampaignError as exc:
            self.problem.show_problem(str(exc))
            return
        push_edit(self.ctx, self.edit)
        self.odds.stop()
        super().accept()

    def reject(self) -> None:
        self.odds.stop()
        super().reject()


def play_solo_bout(
    ctx: AppContext, parent: QWidget | None, fighter_id: int, opponent_id: int | None = None
) -> int | None:
    try:
        dialog = SoloBoutDialog(ctx, fighter_id, parent, opponent_id)
    except CampaignError as exc:
        ctx.signals.status.emit(str(exc))
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.information(parent, "Solo bout", str(exc))
        return None
    return _run_saving_dialog(ctx, dialog)


# --- new fighter, correction ------------------------------------------------------------------------------


class NewFighterDialog(QDialog):
    def __init__(self, campaign_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"New fighter in {campaign_name}")
        self.name_edit = QLineEdit(self)
        self.name_edit.setAccessibleName("Fighter's name")
        self.level = QSpinBox(self)
        self.level.setRange(0, rules.MAX_LEVEL)
        self.level.setAccessibleName("Starting level")
        self.level.setToolTip("A new fighter starts at level 0, unless the players agree on another (with 0 XP)")
        self.notes = QPlainTextEdit(self)
        self.notes.setTabChangesFocus(True)
        self.notes.setFixedHeight(54)
        self.problem = ErrorLabel(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Add fighter")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("&Name:", self.name_edit)
        form.addRow("Starting &level:", self.level)
        form.addRow("N&otes:", self.notes)
        form.addRow(self.problem)
        form.addRow(self.buttons)
        self.name_edit.textChanged.connect(lambda t: self.ok_button.setEnabled(bool(t.strip())))
        self.ok_button.setEnabled(False)
        cap_fields(self)


def new_fighter(ctx: AppContext, parent: QWidget | None, campaign_id: int, campaign_name: str) -> int | None:
    dialog = NewFighterDialog(campaign_name, parent)
    try:
        while dialog.exec() == QDialog.DialogCode.Accepted:
            try:
                edit = perform(
                    ctx,
                    service.create_fighter,
                    campaign_id,
                    dialog.name_edit.text(),
                    level=dialog.level.value(),
                    notes=dialog.notes.toPlainText(),
                )
            except CampaignError as exc:
                dialog.problem.show_problem(str(exc))
                continue
            return int(edit.id)
        return None
    finally:
        dialog.deleteLater()


class CorrectionDialog(QDialog):
    def __init__(self, fighter: service.FighterDetail, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Correct {fighter.name}")
        self.level = QSpinBox(self)
        self.level.setRange(0, rules.MAX_LEVEL)
        self.level.setValue(fighter.level)
        self.level.setAccessibleName("Level")
        self.xp = QSpinBox(self)
        self.xp.setRange(0, rules.XP_PER_LEVEL - 1)
        self.xp.setValue(fighter.xp)
        self.xp.setAccessibleName("XP toward the next level")
        self.reason = QLineEdit(self)
        self.reason.setAccessibleName("Reason")
        self.reason.setPlaceholderText("why (kept with the correction)")
        self.problem = ErrorLabel(self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("&Level:", self.level)
        form.addRow("&XP toward the next level:", self.xp)
        form.addRow("&Reason:", self.reason)
        form.addRow(self.problem)
        form.addRow(buttons)
        cap_fields(self)


def correct_fighter(ctx: AppContext, parent: QWidget | None, fighter: service.FighterDetail) -> bool:
    dialog = CorrectionDialog(fighter, parent)
    try:
        while dialog.exec() == QDialog.DialogCode.Accepted:
            try:
                perform(
                    ctx,
                    service.set_fighter,
                    fighter.id,
                    level=dialog.level.value(),
                    xp=dialog.xp.value(),
                    reason=dialog.reason.text(),
                )
            except CampaignError as exc:
                dialog.problem.show_problem(str(exc))
                continue
            return True
        return False
    finally:
        dialog.deleteLater()
