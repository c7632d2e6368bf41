"""The post-battle wizard (Battle ▸ Log battle…, Ctrl+B from anywhere): battle → casualties and exact odds →
rolls → replacement leader → summary and **Commit**.

The wizard walks a :class:`~campaign_app.services.battles.BattleSession`; nothing is written until Commit,
so Cancel at any step leaves the database as it was. Each roll is either **Roll for me** (the app's dice) or
**I rolled** (the faces typed in, checked against the dice asked for). Recovery asks for one roll at a time.
Commit is one operation of the journal: Edit ▸ Undo ("Undo Log battle 4 of 2nd Platoon") removes the whole
battle, also after a restart, Edit ▸ Redo puts it back (same rows, same dice).

Quick logging: page 1 starts in the Scenario field and Enter moves on from every field but Notes; page 2
starts in Wound counters with the number selected; **Roll all remaining** (Alt+A or Ctrl+R) makes every
remaining roll with the app's dice, each shown in the table; Commit is offered as soon as nothing else is
needed. With the app's dice a battle takes six actions from the open app: Ctrl+B, Enter, the wound count,
Enter, Ctrl+R, Alt+C (``tests/gui/test_battle_wizard.py::test_six_actions_from_the_open_app``). Back keeps the
rolls made; changing what they depend on (the casualties, the objectives) asks before discarding them.
"""

from __future__ import annotations

import copy
import logging
import random
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QDate, QEvent, QObject, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QShortcut,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from ..errors import CampaignError
from ..rules.aftermath import period_sides
from ..rules.codes import purpose_text, rule_text
from ..rules.dice import DiceSource, SeededDice
from ..rules.enums import LeaderFate, Outcome
from ..rules.experience import level_name
from ..rules.names import suggest_name
from ..services import battles
from ..services.edits import Edit
from ..services.navigator import CampaignNode, PlatoonNode
from .context import AppContext
from .history_models import FATE_COLORS, RollsModel
from .sizing import fit_resize
from .undo_commands import push_edit
from .widgets import ErrorLabel, NumberSpin, add_number_row, date_of, first_number_problem, is_dark, plural

log = logging.getLogger(__name__)

PAGE_BATTLE, PAGE_CASUALTIES, PAGE_ROLLS, PAGE_REPLACEMENT, PAGE_SUMMARY = range(5)
OUTCOME_ITEMS = (("Not recorded", None), *((o.value.capitalize(), o.value) for o in Outcome))
OBJECTIVE_ITEMS = ("None met (+0 XP)", "A hard objective (+1 XP)", "A near-impossible objective (+2 XP)")


# --- undo ---------------------------------------------------------------------------------------------------
# A committed battle is one operation of the journal: Edit ▸ Undo (the undo stack is the journal's view, see
# undo_commands) removes it whole, Redo puts it back. ``push_edit`` stays importable from here.

# --- small widgets ------------------------------------------------------------------------------------------


class OddsBars(QWidget):
    """Horizontal probability bars: one row per (label, probability, text)."""

    ROW = 20

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, float, str, str]] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_rows(self, rows: list[tuple[str, float, str, str]]) -> None:
        """``(label, probability, text, colour)`` per row."""
        self._rows = rows
        self.setFixedHeight(max(1, len(rows)) * self.ROW + 4)
        self.setAccessibleDescription("; ".join(f"{label}: {text}" for label, _p, text, _c in rows))
        self.update()

    def rows(self) -> list[tuple[str, float, str, str]]:
        return list(self._rows)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(360, max(1, len(self._rows)) * self.ROW + 4)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = painter.fontMetrics()
        label_w = max([fm.horizontalAdvance(r[0]) for r in self._rows] + [40]) + 10
        text_w = max([fm.horizontalAdvance(r[2]) for r in self._rows] + [40]) + 10
        bar_w = max(40, self.width() - label_w - text_w - 8)
        pal = self.palette()
        for i, (label, p, text, colour) in enumerate(self._rows):
            y = 2 + i * self.ROW
            painter.setPen(pal.color(pal.ColorRole.WindowText))
            painter.drawText(
                QRectF(0, y, label_w - 6, self.ROW),
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                label,
            )
            track = QRectF(label_w, y + 4, bar_w, self.ROW - 8)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(0, 0, 0, 22))
            painter.drawRoundedRect(track, 3, 3)
            if p > 0:
                painter.setBrush(QColor(colour))
                painter.drawRoundedRect(QRectF(track.x(), track.y(), max(2.0, bar_w * p), track.height()), 3, 3)
            painter.setPen(pal.color(pal.ColorRole.WindowText))
            painter.drawText(
                QRectF(label_w + bar_w + 8, y, text_w, self.ROW),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                text,
            )
        painter.end()


def _error_label() -> ErrorLabel:
    return ErrorLabel(lines=2)


def _show_error(label: ErrorLabel, text: str) -> None:
    label.show_problem(text)


def example_faces(count: int, sides: int) -> str:
    """A placeholder example that fits the roll: one face for 1d8 ("5"), two for 2d12 ("5,2")..."""
    picks = (5, 2, 7, 3, 6, 1, 4, 8)
    return ",".join(str(min(sides, picks[i % len(picks)])) for i in range(max(1, count)))


class FacesEdit(QLineEdit):
    """The typed faces. Enter uses them and stops there: it must not also press the wizard's Next."""

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        super().keyPressEvent(event)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()


OWN_DICE_KEY = "dice/own_dice"
"""QSettings: JSON-free list of database keys whose player rolls their own dice (one value per database)."""


def own_dice(ctx: AppContext) -> bool:
    """The player of this database rolls their own dice ("I roll my own dice", remembered per database)."""
    return str(ctx.settings.value(f"{OWN_DICE_KEY}/{_settings_name(ctx.database_key)}", "") or "") == "yes"


def set_own_dice(ctx: AppContext, on: bool) -> None:
    ctx.settings.setValue(f"{OWN_DICE_KEY}/{_settings_name(ctx.database_key)}", "yes" if on else "no")


def _settings_name(database: str) -> str:
    """A settings key for a database path or server URL (slashes would make sub-groups)."""
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in database)[-120:]


class DiceInput(QWidget):
    """**Roll for me** or **I rolled** [faces] for one roll, and **Roll all remaining**. The buttons keep fixed
    places and widths whatever the dice asked for (repeated clicks never miss)."""

    rollRequested = Signal()
    rollAllRequested = Signal()
    facesEntered = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.roll_button = QPushButton("&Roll for me")
        self.roll_button.setToolTip("The app rolls the dice of this roll for you")
        self.roll_button.setAccessibleName("Roll for me")
        fm = self.roll_button.fontMetrics()
        self.roll_button.setFixedWidth(fm.horizontalAdvance("Roll 10d12\u22121 for me") + 32)
        self.all_button = QPushButton("Roll &all remaining")
        self.all_button.setToolTip(
            "The app makes every remaining roll of this battle, one after the other; "
            "each is listed with its faces (Ctrl+R)"
        )
        self.all_button.setFixedWidth(self.all_button.sizeHint().width())
        self.faces = FacesEdit()
        self.faces.setPlaceholderText("faces, e.g. 5")
        self.faces.setAccessibleName("Faces you rolled")
        self.faces.setFixedWidth(fm.horizontalAdvance("faces, e.g. 5,2,7,3,6") + 16)
        self.enter_button = QPushButton("I rolled")
        self.enter_button.setToolTip("Use the faces you rolled yourself (typed on the left)")
        row.addWidget(self.roll_button)
        row.addWidget(self.all_button)
        row.addSpacing(16)
        row.addWidget(QLabel("or type your faces:"))
        row.addWidget(self.faces)
        row.addWidget(self.enter_button)
        row.addStretch(1)
        self.roll_button.clicked.connect(self.rollRequested)
        self.all_button.clicked.connect(self.rollAllRequested)
        self.enter_button.clicked.connect(self._enter)
        self.faces.returnPressed.connect(self._enter)

    def _enter(self) -> None:
        self.facesEntered.emit(self.faces.text())

    def set_dice(self, expression: str | None, count: int = 1, sides: int = 6, more: bool = True) -> None:
        """The roll asked for (``None`` when no roll is wanted); ``more``: offer Roll all remaining."""
        enabled = expression is not None
        for w in (self.roll_button, self.faces, self.enter_button, self.all_button):
            w.setEnabled(enabled)
        self.all_button.setEnabled(enabled and more)
        self.roll_button.setText(f"&Roll {expression} for me" if expression else "&Roll for me")
        self.faces.setPlaceholderText(f"faces, e.g. {example_faces(count, sides)}")
        self.faces.clear()


class EnterMovesOn(QObject):
    """Enter in a one-line field presses the wizard's Next (or Commit on the last page)."""

    def __init__(self, wizard: QWizard, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.wizard = wizard

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ):
            combo = watched if isinstance(watched, QComboBox) else watched.parent()
            if isinstance(combo, QComboBox) and combo.view().isVisible():
                return False  # Enter picks the item of an open list
            if isinstance(watched, NumberSpin) and watched.problem():
                return False  # the field refuses it and says why
            for which in (QWizard.WizardButton.NextButton, QWizard.WizardButton.FinishButton):
                button = self.wizard.button(which)
                if button.isVisible() and button.isEnabled():
                    button.click()
                    return True
            # nothing to go on to yet (a roll still to make): the page says where Enter leads
            ahead = getattr(self.wizard.currentPage(), "enter_leads_to", None)
            target = ahead() if callable(ahead) else None
            if isinstance(target, QWidget):
                target.setFocus(Qt.FocusReason.TabFocusReason)
            return True
        return False


# --- pages ----------------------------------------------------------------------------------------------------


class BattlePage(QWizardPage):
    """1. Date, scenario, opponent, outcome, objectives, fire support, notes."""

    def __init__(self, wizard: BattleWizard) -> None:
        super().__init__()
        self.w = wizard
        s = wizard.session
        self.setTitle("1. The battle")
        leader = (
            f"led by {s.leader_name} ({s.leader_xp} XP, {level_name(s.leader_xp, s.thresholds)})"
            if s.leader_name and s.leader_xp is not None
            else "with no leader"
        )
        self.setSubTitle(
            f"{s.platoon_name}: {s.platoon_xp} XP ({level_name(s.platoon_xp, s.thresholds)}), "
            f"{leader}. This is battle {s.number}."
        )
        outer = QVBoxLayout(self)
        form = QFormLayout()
        outer.addLayout(form)
        outer.addStretch(1)
        self.date = QDateEdit(QDate.currentDate())
        self.date.setMaximumWidth(160)
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.scenario = QLineEdit()
        self.scenario.setMaxLength(battles.SCENARIO_MAX)
        self.scenario.setPlaceholderText("e.g. Hold the river crossing")
        self.opponent = QComboBox()
        self.opponent.setEditable(True)
        self.opponent.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.opponent.addItem("", None)
        for o in battles.opponent_choices(s.platoon_id):
            self.opponent.addItem(f"{o.name} ({o.campaign})", o)
        self.opponent.setCurrentIndex(0)
        line = self.opponent.lineEdit()
        if line is not None:
            line.setPlaceholderText("who you fought: type a name or pick a platoon")
            line.setMaxLength(battles.OPPONENT_MAX)
        self.outcome = QComboBox()
        for label, value in OUTCOME_ITEMS:
            self.outcome.addItem(label, value)
        self.objectives = QComboBox()
        self.objectives.addItems(list(OBJECTIVE_ITEMS))
        self.fire_support = QCheckBox("Fire support was used")
        self.notes = QPlainTextEdit()
        self.notes.setPlaceholderText("anything worth remembering")
        self.notes.setMaximumHeight(90)
        self.notes.setTabChangesFocus(True)
        self.error = _error_label()
        form.addRow("&Date:", self.date)
        form.addRow("&Scenario:", self.scenario)
        form.addRow("&Opponent:", self.opponent)
        form.addRow("O&utcome:", self.outcome)
        form.addRow("Ob&jectives met:", self.objectives)
        form.addRow("", self.fire_support)
        form.addRow("No&tes:", self.notes)
        form.addRow(self.error)
        # Enter moves on from every one-line field (the editable opponent combo would keep it otherwise)
        self._enter_moves_on = EnterMovesOn(wizard, self)
        for w in (self.date, self.scenario, self.opponent, self.outcome, self.objectives, self.fire_support):
            w.installEventFilter(self._enter_moves_on)
        opponent_line = self.opponent.lineEdit()
        if opponent_line is not None:
            opponent_line.installEventFilter(self._enter_moves_on)

    def initializePage(self) -> None:  # noqa: N802 - Qt override
        # the first field a player fills after a game (the date is today's already)
        QTimer.singleShot(0, lambda: self.scenario.setFocus(Qt.FocusReason.OtherFocusReason))

    def opponent_value(self) -> tuple[str, int | None]:
        text = self.opponent.currentText().strip()
        index = self.opponent.findText(text)
        data = self.opponent.itemData(index) if index > 0 else None
        if isinstance(data, battles.OpponentChoice):
            return data.name, data.id
        return text, None

    def validatePage(self) -> bool:  # noqa: N802 - Qt override
        opponent, opponent_id = self.opponent_value()
        s = self.w.session
        if s.records and self.objectives.currentIndex() != s.details.objectives:
            n = len(s.records)
            if not self.w.ask_discard_for(
                f"The objectives change the award, so the {plural(n, 'roll')} made would no longer fit."
            ):
                self.objectives.setCurrentIndex(s.details.objectives)
                return False
        try:
            self.w.session.set_details(
                date=date_of(self.date.date()),
                scenario=self.scenario.text(),
                opponent=opponent,
                opponent_platoon=opponent_id,
                outcome=self.outcome.currentData(),
                objectives=self.objectives.currentIndex(),
                fire_support=self.fire_support.isChecked(),
                notes=self.notes.toPlainText(),
            )
        except CampaignError as exc:
            _show_error(self.error, str(exc))
            return False
        _show_error(self.error, "")
        return True


class CasualtiesPage(QWizardPage):
    """2. Wound counters, and the exact odds for them before any roll."""

    def __init__(self, wizard: BattleWizard) -> None:
        super().__init__()
        self.w = wizard
        self.setTitle("2. Casualties")
        self.setSubTitle(
            "Count every wound counter of the battle, including those of units removed before "
            "the end, and those on the leader's element."
        )
        outer = QVBoxLayout(self)
        form = QFormLayout()
        self.wounds = NumberSpin(self, 0, battles.WOUNDS_MAX)
        self.wounds.setAccessibleName("Wound counters")
        self.leader_wounds = NumberSpin(self, 0, battles.WOUNDS_MAX)
        self.leader_wounds.setAccessibleName("Wound counters on the leader's element")
        for spin in (self.wounds, self.leader_wounds):
            spin.setFixedWidth(spin.fontMetrics().horizontalAdvance("0000") + 48)
        add_number_row(form, "&Wound counters (whole battle):", self.wounds)
        add_number_row(form, "Wound counters on the &leader's element:", self.leader_wounds)
        outer.addLayout(form)
        self.error = _error_label()
        outer.addWidget(self.error)
        self.kept = QLabel()
        self.kept.setWordWrap(True)
        self.kept.setAccessibleName("Rolls made so far")
        outer.addWidget(self.kept)
        self._valid = True
        self._enter_moves_on = EnterMovesOn(wizard, self)
        self.award = QLabel()
        self.award.setWordWrap(True)
        outer.addWidget(self.award)
        box = QGroupBox("Exact odds before any roll")
        self.odds_box = box
        inner = QVBoxLayout(box)
        self.recovery_title = QLabel()
        self.recovery_title.setWordWrap(True)
        inner.addWidget(self.recovery_title)
        self.recovery_bars = OddsBars()
        scroll = QScrollArea()
        scroll.setWidget(self.recovery_bars)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.recovery_scroll = scroll
        inner.addWidget(scroll)
        self.mean = QLabel()
        inner.addWidget(self.mean)
        self.leader_title = QLabel()
        self.leader_title.setWordWrap(True)
        inner.addWidget(self.leader_title)
        self.leader_bars = OddsBars()
        inner.addWidget(self.leader_bars)
        outer.addWidget(box)
        outer.addStretch(1)
        for spin in (self.wounds, self.leader_wounds):
            spin.valueChanged.connect(self._changed)
            spin.problemChanged.connect(lambda _p: self.completeChanged.emit())
            spin.installEventFilter(self._enter_moves_on)

    def initializePage(self) -> None:  # noqa: N802 - Qt override
        s = self.w.session
        for spin, value in ((self.wounds, s.wounds or 0), (self.leader_wounds, s.leader_wounds)):
            blocked = spin.blockSignals(True)
            spin.setValue(value)
            spin.blockSignals(blocked)
        self._changed()
        # the first thing to type: the wound count, selected so that typing replaces it
        QTimer.singleShot(0, lambda: self.wounds.setFocus(Qt.FocusReason.OtherFocusReason))

    def isComplete(self) -> bool:  # noqa: N802 - Qt override
        return self._valid and not self.wounds.problem() and not self.leader_wounds.problem() and super().isComplete()

    def _counts(self) -> tuple[int, int]:
        return self.wounds.value(), self.leader_wounds.value()

    def _changes_rolls(self) -> bool:
        s = self.w.session
        return bool(s.records) and self._counts() != (s.wounds, s.leader_wounds)

    def validatePage(self) -> bool:  # noqa: N802 - Qt override
        """Next: counts that differ from those the rolls were made for ask before the rolls are discarded."""
        if first_number_problem(self, [self.wounds, self.leader_wounds]) is not None:
            return False
        s = self.w.session
        if self._changes_rolls():
            n = len(s.records)
            made_for = plural(s.wounds or 0, "wound counter")
            if not self.w.ask_discard_for(
                f"The {plural(n, 'roll')} made were for {made_for} ({s.leader_wounds} on the leader's element)."
            ):
                self.initializePage()  # put back the counts the rolls were made for
                return False
        try:
            s.set_casualties(*self._counts())
        except CampaignError as exc:
            self._set_valid(False, str(exc))
            return False
        return True

    def _changed(self) -> None:
        s = self.w.session
        # while rolls are kept, other counts are only previewed: the session changes on Next (after asking)
        target = copy.copy(s) if self._changes_rolls() else s
        try:
            target.set_casualties(*self._counts())
        except CampaignError as exc:
            self._set_valid(False, str(exc))
            return
        self._set_valid(True, "")
        n = len(s.records)
        if not n:
            self.kept.setText("")
        elif target is s:
            self.kept.setText(f"{plural(n, 'roll')} already made for these counts: they are kept.")
        else:
            self.kept.setText(
                f"The {plural(n, 'roll')} made were for {plural(s.wounds or 0, 'wound counter')}: "
                "Next asks before discarding them."
            )
        self.kept.setVisible(bool(n))
        s = target
        odds = s.odds()
        self.award.setText(f"<b>Award</b> (RULES 1.2, no dice): {s.award_text()}")
        rec = odds.recovery
        if s.wounds == 0:
            self.recovery_title.setText("<b>Recovery</b>: no wound counters, so no recovery roll and no XP lost.")
        else:
            self.recovery_title.setText(
                f"<b>Recovery</b>: {plural(s.wounds or 0, 'wound counter')} against a "
                f"platoon at {rec.xp} XP after the award. XP lost:"
            )
        self.recovery_bars.set_rows(
            [(f"lose {o.xp_lost} \u2192 {o.xp_after} XP", o.p, o.percent, "#5b8def") for o in rec.xp_lost]
        )
        self.recovery_scroll.setVisible(bool(s.wounds))
        shown = min(len(rec.xp_lost), 8)
        self.recovery_scroll.setFixedHeight(shown * OddsBars.ROW + 6)
        likely = max(range(len(rec.xp_lost)), key=lambda i: rec.xp_lost[i].p) if rec.xp_lost else None
        said = f"Expected XP loss: {rec.mean:.2f}"
        if likely is not None:
            best = rec.xp_lost[likely]
            said += f"; most likely: lose {best.xp_lost} \u2192 {best.xp_after} XP ({best.percent})"
            # many wound counters make a long list: the likely results are shown, not the first rows only
            QTimer.singleShot(0, lambda row=likely: self._show_row(row))
        self.mean.setText(said if s.wounds else "")
        self.mean.setVisible(bool(s.wounds))
        lo = odds.leader
        if lo is None:
            self.leader_title.setText("<b>Leader's fate</b>: the platoon has no leader, so no roll.")
            self.leader_bars.set_rows([])
            self.leader_bars.hide()
            return
        self.leader_bars.show()
        self.leader_title.setText(
            f"<b>Leader's fate</b> (2d12): {s.leader_name} is a casualty on {lo.survival} or less (wound "
            f"counters), else promoted on {lo.xp} or less (XP after the award), else stays."
        )
        self.leader_bars.set_rows(
            [
                (fate.value.capitalize(), lo.chance(fate).p, lo.chance(fate).percent, FATE_COLORS[fate])
                for fate in LeaderFate
            ]
        )

    def _show_row(self, row: int) -> None:
        """Scroll the recovery odds so that ``row`` (the most likely result) sits in the middle of the view."""
        if shiboken6.isValid(self.recovery_scroll):
            view = self.recovery_scroll.viewport().height()
            self.recovery_scroll.ensureVisible(0, row * OddsBars.ROW + OddsBars.ROW // 2, 0, view // 2)

    def _set_valid(self, valid: bool, message: str) -> None:
        """Bad counts (e.g. more on the leader's element than in the whole battle): say why, hide the odds
        of the previous counts and keep Next disabled."""
        _show_error(self.error, message)
        self.award.setVisible(valid)
        self.odds_box.setVisible(valid)
        if valid != self._valid:
            self._valid = valid
            self.completeChanged.emit()


class _RollingPage(QWizardPage):
    """Shared by the rolls page and the replacement page: one roll at a time, app-rolled or typed."""

    def __init__(self, wizard: BattleWizard) -> None:
        super().__init__()
        self.w = wizard
        self.dice_input = DiceInput()
        self.error = ErrorLabel(lines=1)  # dice problems are one line; the room is kept so nothing moves
        self.dice_input.rollRequested.connect(self.roll_for_me)
        self.dice_input.rollAllRequested.connect(self.roll_all)
        self.dice_input.facesEntered.connect(self.enter_faces)
        self.roll_all_shortcut = QShortcut(QKeySequence("Ctrl+R"), self)
        self.roll_all_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.roll_all_shortcut.activated.connect(self._roll_all_key)

    def _roll_all_key(self) -> None:
        if self.dice_input.all_button.isEnabled() or self.dice_input.roll_button.isEnabled():
            self.roll_all()

    def set_step(self, step: battles.RollStep | None) -> None:
        """Offer the roll ``step`` asks for (or none); the cursor goes to the faces field for a player who
        rolls their own dice (:func:`own_dice`), else to Roll for me."""
        if step is None:
            self.dice_input.set_dice(None)
            return
        self.dice_input.set_dice(step.dice.expression, step.dice.count, step.dice.sides, more=True)
        target = self.dice_input.faces if own_dice(self.w.ctx) else self.dice_input.roll_button
        QTimer.singleShot(
            0,
            lambda: (
                target.setFocus(Qt.FocusReason.OtherFocusReason)
                if shiboken6.isValid(target) and target.isVisible() and target.isEnabled()
                else None
            ),
        )

    def _make(self, action: Callable[[], Any]) -> None:
        try:
            action()
        except CampaignError as exc:
            _show_error(self.error, str(exc))
            return
        _show_error(self.error, "")
        self.refresh()
        self.completeChanged.emit()
        if not self.dice_input.faces.isEnabled():  # this page's last roll: on to Commit or Next, never Back
            QTimer.singleShot(0, self._focus_next)

    def roll_for_me(self) -> None:
        self._make(lambda: self.w.session.roll(self.w.dice))

    def roll_all(self) -> None:
        """Every remaining roll with the app's dice, one after the other (each one listed)."""
        self._make(lambda: self.w.session.roll_all(self.w.dice))
        if self.w.session.next_step is None:
            QTimer.singleShot(0, self._focus_next)

    def _focus_next(self) -> None:
        for which in (QWizard.WizardButton.FinishButton, QWizard.WizardButton.NextButton):
            button = self.w.button(which)
            if button.isVisible() and button.isEnabled():
                button.setFocus(Qt.FocusReason.OtherFocusReason)
                return

    def enter_faces(self, text: str) -> None:
        self._make(lambda: self.w.session.enter(text))

    def refresh(self) -> None:
        raise NotImplementedError


class RollsPage(_RollingPage):
    """3. Award (no dice), recovery one roll at a time, the leader's fate."""

    def __init__(self, wizard: BattleWizard) -> None:
        super().__init__(wizard)
        self.setTitle("3. Rolls")
        self.setSubTitle(
            "In the rules' order: the award, recovery (1d8, then 2d8, \u2026 while counters remain), "
            "then the leader's fate. Let the app roll, or type the faces you rolled."
        )
        outer = QVBoxLayout(self)
        box = QGroupBox("Next roll")
        inner = QVBoxLayout(box)
        self.step = QLabel()
        font = QFont(self.step.font())
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.step.setFont(font)
        self.step.setWordWrap(False)
        self.step.setFixedHeight(QFontMetrics(font).lineSpacing() + 4)
        # the buttons sit right under the one-line step title: the texts that wrap come after them, so the
        # buttons never move while the user clicks on
        inner.addWidget(self.step)
        inner.addWidget(self.dice_input)
        self.own_dice = QCheckBox("I roll my o&wn dice (the cursor starts in the faces field)")
        self.own_dice.setToolTip(
            "Remembered for this database: each roll starts with the cursor in the faces "
            "field, so you type the faces and press Enter"
        )
        self.own_dice.setChecked(own_dice(wizard.ctx))
        self.own_dice.toggled.connect(self._own_dice_toggled)
        inner.addWidget(self.own_dice)
        inner.addWidget(self.error)
        self.state = QLabel()
        self.state.setWordWrap(True)
        inner.addWidget(self.state)
        self.award = QLabel()
        self.award.setWordWrap(True)
        inner.addWidget(self.award)
        outer.addWidget(box)
        self.model = RollsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setAccessibleName("Rolls made")
        outer.addWidget(QLabel("Rolls made:"))
        outer.addWidget(self.table, 1)

    def initializePage(self) -> None:  # noqa: N802 - Qt override
        _show_error(self.error, "")
        self.refresh()

    def _own_dice_toggled(self, on: bool) -> None:
        set_own_dice(self.w.ctx, on)
        if on and self.dice_input.faces.isEnabled():
            self.dice_input.faces.setFocus(Qt.FocusReason.OtherFocusReason)

    def refresh(self) -> None:
        s = self.w.session
        self.award.setText(f"<b>Award</b> (RULES 1.2 step 1, no dice): {s.award_text()}")
        rec = s.recovery
        removed = rec.wounds - rec.remaining
        state = (
            f"Recovery: {plural(rec.wounds, 'wound counter')}: {removed} removed, {rec.remaining} remaining. "
            f"XP lost so far: {rec.xp_lost} (platoon now at {rec.xp} XP)."
        )
        step = s.next_step
        if step is not None and step.kind in ("recovery", "leader"):
            self.step.setText(f"{step.label}")
            if step.kind == "leader":
                state += (
                    f" Leader's fate: {s.leader_name} is a casualty on {s.leader_wounds} or less, promoted "
                    f"on {s.award.leader_xp_after} or less, else stays."
                )
            self.set_step(step)
        else:
            if s.fate is None:
                done = "All rolls made." + (
                    " The platoon has no leader, so no leader's fate roll." if not s.has_leader else ""
                )
            else:
                done = f"All rolls made. {s.leader_name}: {battles.FATE_WORDS[s.fate]}."
                if s.needs_replacement:
                    done += " Next: name the new leader."
            self.step.setText(done)
            self.step.setToolTip(done)
            self.dice_input.set_dice(None)
        self.state.setText(state)
        self.model.set_rows(s.records)
        # Commit is offered here as soon as nothing else is needed (the summary stays one Next away)
        self.setFinalPage(s.ready)
        self.w.number_pages()

    def isComplete(self) -> bool:  # noqa: N802 - Qt override
        step = self.w.session.next_step
        return step is None or step.kind == "replacement"

    def nextId(self) -> int:  # noqa: N802 - Qt override
        return PAGE_REPLACEMENT if self.w.session.needs_replacement else PAGE_SUMMARY


class ReplacementPage(_RollingPage):
    """4. The new leader's name (typed or suggested) and XP (the lower of two dice of the period minus one;
    ⚙ one die)."""

    def __init__(self, wizard: BattleWizard) -> None:
        super().__init__(wizard)
        self.setTitle("4. Replacement leader")
        self.number = 4
        outer = QVBoxLayout(self)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        outer.addWidget(self.intro)
        form = QFormLayout()
        name_row = QHBoxLayout()
        self.name = QLineEdit()
        self.name.setMaxLength(battles.NAME_MAX)
        self.name.setPlaceholderText("the new leader's name")
        name_row.addWidget(self.name, 1)
        self.suggest = QPushButton("Suggest")
        self.suggest.setToolTip("Offer a generated name")
        name_row.addWidget(self.suggest)
        self.rank = QLineEdit(battles.DEFAULT_RANK)
        self.rank.setMaxLength(battles.NAME_MAX)
        name_label = QLabel("Na&me:")  # Alt+N is Next, Alt+R Roll
        name_label.setBuddy(self.name)
        form.addRow(name_label, name_row)
        form.addRow("Ran&k:", self.rank)
        outer.addLayout(form)
        box = QGroupBox("The new leader's XP")
        inner = QVBoxLayout(box)
        self.step = QLabel()
        inner.addWidget(self.step)
        inner.addWidget(self.dice_input)
        inner.addWidget(self.error)
        self.result = QLabel()
        font = QFont(self.result.font())
        font.setBold(True)
        self.result.setFont(font)
        inner.addWidget(self.result)
        outer.addWidget(box)
        outer.addStretch(1)
        self.name.textChanged.connect(lambda _t: self.completeChanged.emit())
        self.suggest.clicked.connect(self._suggest)
        self._enter_moves_on = EnterMovesOn(wizard, self)
        for w in (self.name, self.rank):
            w.installEventFilter(self._enter_moves_on)

    def _suggest(self) -> None:
        # RULES.md 4: a name from the charts; the Rank field says "Lieutenant" already, so no "Lt." before it
        self.name.setText(suggest_name(random.Random(), rank_prefix=""))

    def initializePage(self) -> None:  # noqa: N802 - Qt override
        s = self.w.session
        words: dict[str, str] = {
            LeaderFate.CASUALTY: "is a casualty (killed or invalided out)",
            LeaderFate.PROMOTED: "was promoted out of the platoon",
        }
        gone = words.get(s.fate or "", "has left")
        self.setSubTitle(f"{s.leader_name} {gone}. Name the new leader and roll their XP.")
        sides = period_sides(s.period)
        period = f"campaign period {s.period}" if s.period else "no campaign period set"
        dice = f"the lower of two d{sides}" if s.replacement_dice == 2 else f"one d{sides}"
        self.intro.setText(
            f"The new leader's XP is {dice} minus one ({period}; the campaign's rule for "
            "replacement leaders; RULES 1.2 step 4)."
        )
        if s.replacement_name and not self.name.text():
            self.name.setText(s.replacement_name)
        _show_error(self.error, "")
        self.refresh()
        QTimer.singleShot(0, lambda: self.name.setFocus(Qt.FocusReason.OtherFocusReason))

    def refresh(self) -> None:
        s = self.w.session
        step = s.next_step
        if step is not None and step.kind == "replacement":
            self.step.setText(step.label)
            self.set_step(step)
            self.result.setText("")
        else:
            self.step.setText("Rolled.")
            self.dice_input.set_dice(None)
            record = s.records[-1] if s.records else None
            faces = ", ".join(str(f) for f in record.faces) if record else ""
            lower = "the lower die" if record is not None and len(record.faces) > 1 else "the die"
            self.result.setText(f"New leader's XP: {s.replacement_xp} (rolled {faces}: {lower} minus one)")
        self.setFinalPage(s.replacement_xp is not None)  # Commit here once the XP is in (and a name typed)
        self.completeChanged.emit()

    def isComplete(self) -> bool:  # noqa: N802 - Qt override
        return bool(self.name.text().strip()) and self.w.session.replacement_xp is not None

    def enter_leads_to(self) -> QWidget | None:
        """Enter in the name or rank before the XP is rolled: on to the roll (the faces field for a player
        who rolls their own dice, else Roll for me)."""
        if self.w.session.replacement_xp is not None:
            return None
        return self.dice_input.faces if own_dice(self.w.ctx) else self.dice_input.roll_button

    def validatePage(self) -> bool:  # noqa: N802 - Qt override
        try:
            self.w.session.set_replacement(self.name.text(), self.rank.text())
        except CampaignError as exc:
            _show_error(self.error, str(exc))
            return False
        return True

    def nextId(self) -> int:  # noqa: N802 - Qt override
        return PAGE_SUMMARY


def _esc(text: Any) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


DARK_FATE_COLORS: dict[str, str] = {
    LeaderFate.CASUALTY: "#ef9a9a",
    LeaderFate.PROMOTED: "#90caf9",
    LeaderFate.STAYS: "#a5d6a7",
}
"""The fate colours lightened for a dark palette (the light ones are FATE_COLORS)."""


def summary_html(d: battles.BattleSummary, dark: bool = False) -> str:
    """The summary page: every roll with its faces and rule, XP before → after, the leader's fate."""
    det = d.details
    facts = [f"Battle {d.number} of <b>{_esc(d.platoon.name)}</b>, {det.date.isoformat()}"]
    for label, value in (
        ("Scenario", det.scenario),
        ("Opponent", det.opponent),
        ("Outcome", det.outcome or "not recorded"),
        ("Objectives", OBJECTIVE_ITEMS[det.objectives]),
        ("Fire support", "used" if det.fire_support else "not used"),
    ):
        if value:
            facts.append(f"{label}: {_esc(value)}")
    html = [
        "<p>" + "<br>".join(facts) + "</p>",
        f"<p>Wound counters: {d.wounds} (on the leader's element: {d.leader_wounds})</p>",
        f"<p><b>Award</b> ({_esc(rule_text(d.award.rule))}): {_esc(d.award.text)}</p>",
        "<table cellspacing='0' cellpadding='4' border='1' style='border-collapse: collapse'>"
        "<tr><th>Roll</th><th>Dice</th><th>Faces</th><th>Total</th><th>Result</th><th>Rule and row</th>"
        "<th>Source</th></tr>",
    ]
    for r in d.rolls:
        colours = DARK_FATE_COLORS if dark else FATE_COLORS
        colour = colours.get(r.outcome, "")
        outcome = f"<span style='color:{colour}'><b>{_esc(r.outcome)}</b></span>" if colour else _esc(r.outcome)
        html.append(
            f"<tr><td>{_esc(purpose_text(r.purpose).capitalize())}</td><td>{r.expression}</td>"
            f"<td align='center'>{', '.join(str(f) for f in r.faces)}</td>"
            f"<td align='center'>{r.total}</td><td>{outcome}</td>"
            f"<td>{_esc(rule_text(r.rule))}: {_esc(r.table_row or '')}</td>"
            f"<td>{'typed in' if r.source == 'entered' else 'app'}</td></tr>"
        )
    if not d.rolls:
        html.append("<tr><td colspan='7'>No rolls: no wound counters and no leader.</td></tr>")
    html.append("</table>")
    pl = d.platoon
    html.append(
        f"<p><b>Platoon XP</b>: {pl.xp_before} \u2192 <b>{pl.xp_after}</b> "
        f"(award +{pl.award}, recovery \u2212{pl.xp_lost})<br>"
    )
    ld = d.leader
    if ld:
        colour = (DARK_FATE_COLORS if dark else FATE_COLORS).get(ld.fate or "", "")
        html.append(
            f"<b>{_esc(ld.name or '')}</b>: XP {ld.xp_before} \u2192 <b>{ld.xp_after}</b>, "
            f"<span style='color:{colour}'><b>{_esc(battles.FATE_WORDS.get(ld.fate or '', ''))}</b>"
            "</span><br>"
        )
    else:
        html.append("No leader: no leader's fate roll.<br>")
    rep = d.replacement
    if rep:
        html.append(f"New leader: <b>{_esc(rep.name)}</b> ({_esc(rep.rank)}), {rep.xp} XP<br>")
    html.append(
        "</p><p>Commit writes the battle, its rolls, the XP changes and the leader changes in one step "
        "(Edit \u25b8 Undo takes it all back). Cancel writes nothing.</p>"
    )
    return "".join(html)


class SummaryPage(QWizardPage):
    """5. What Commit will write."""

    def __init__(self, wizard: BattleWizard) -> None:
        super().__init__()
        self.w = wizard
        self.setTitle("5. Summary")
        self.setSubTitle("Check the results, then Commit.")
        outer = QVBoxLayout(self)
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.setAccessibleName("Summary of the battle")
        outer.addWidget(self.text, 1)
        # the story of the battle, for the campaign's chronicle (it starts as the notes of page 1)
        report_label = QLabel("&After-action report (for the campaign's chronicle; it can be written later too):")
        self.report = QPlainTextEdit()
        self.report.setAccessibleName("After-action report")
        self.report.setPlaceholderText("what happened, who did what, what it meant for the campaign")
        self.report.setTabChangesFocus(True)
        self.report.setMaximumHeight(110)
        report_label.setBuddy(self.report)
        outer.addWidget(report_label)
        outer.addWidget(self.report)
        self.error = _error_label()
        outer.addWidget(self.error)
        self.setFinalPage(True)

    def initializePage(self) -> None:  # noqa: N802 - Qt override
        _show_error(self.error, "")
        self.report.setPlainText(self.w.session.details.notes)
        self.text.setHtml(summary_html(self.w.session.summary(), dark=is_dark(self)))
        QTimer.singleShot(0, lambda: self.w.button(QWizard.WizardButton.FinishButton).setFocus())

    def show_error(self, text: str) -> None:
        _show_error(self.error, text)


# --- the wizard -----------------------------------------------------------------------------------------------


class BattleWizard(QWizard):
    """Log one battle of a platoon. ``dice`` is what **Roll for me** uses (the app's dice by default)."""

    committed = Signal(int)

    def __init__(
        self, ctx: AppContext, platoon_id: int, parent: QWidget | None = None, dice: DiceSource | None = None
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.session = battles.BattleSession(platoon_id)
        self.dice: DiceSource = dice or SeededDice()
        self.edit: Edit[battles.BattleSummary] | None = None
        self.setWindowTitle(f"Log battle \u2013 {self.session.platoon_name}")
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setButtonText(QWizard.WizardButton.FinishButton, "&Commit")
        self.setButtonText(QWizard.WizardButton.NextButton, "&Next >")
        self.setButtonText(QWizard.WizardButton.BackButton, "< &Back")
        self.setOption(QWizard.WizardOption.HaveFinishButtonOnEarlyPages, False)
        self.battle_page = BattlePage(self)
        self.casualties_page = CasualtiesPage(self)
        self.rolls_page = RollsPage(self)
        self.replacement_page = ReplacementPage(self)
        self.summary_page = SummaryPage(self)
        for page_id, page in (
            (PAGE_BATTLE, self.battle_page),
            (PAGE_CASUALTIES, self.casualties_page),
            (PAGE_ROLLS, self.rolls_page),
            (PAGE_REPLACEMENT, self.replacement_page),
            (PAGE_SUMMARY, self.summary_page),
        ):
            self.setPage(page_id, page)
        self.setStartId(PAGE_BATTLE)
        fit_resize(self, 780, 640)
        self.number_pages()
        self.conflict: str | None = None
        self.committing = False
        self.currentIdChanged.connect(self._on_page)
        # another program's change (the file watcher, a club server's news): is this battle still right?
        ctx.signals.op_changed.connect(self._on_news)

    def _on_news(self, *_args: object) -> None:
        self.check_conflict()

    def _on_page(self, page_id: int) -> None:
        if page_id == PAGE_CASUALTIES:  # back from the rolls: say that the rolls are kept
            self.casualties_page._changed()
        self.check_conflict()

    def check_conflict(self) -> str | None:
        """The platoon changed after the wizard read it (a battle logged by campaign-cli, an undo in another
        window): say so at once on the page shown, and keep Commit from pretending. Asked on every page and
        whenever another program's change arrives."""
        if self.edit is not None or not self.isVisible():
            return None
        try:
            problem = self.session.conflict()
        except CampaignError as exc:  # the database is away: Commit will say so
            log.info("cannot check the platoon for changes: %s", exc)
            return None
        if problem:
            self.conflict = problem
            self._page_error(f"Cannot be committed: {problem}.")
        return problem

    def _page_error(self, text: str) -> None:
        page = self.currentPage()
        error = getattr(page, "error", None)
        if isinstance(error, ErrorLabel):
            _show_error(error, text)
        else:
            self.summary_page.show_error(text)

    def number_pages(self) -> None:
        """Pages numbered 1, 2, 3, 4 (, 5): the replacement page counts only when a replacement is needed."""
        summary = 5 if self.session.needs_replacement else 4
        self.summary_page.setTitle(f"{summary}. Summary")

    @property
    def battle_id(self) -> int | None:
        return self.edit.id if self.edit else None

    def accept(self) -> None:
        """Commit: one transaction; on refusal the wizard stays open with the message."""
        if self.edit is not None:
            super().accept()
            return
        if not self.validateCurrentPage():  # the page's own fields first (the replacement's name and rank)
            return
        if self.committing:
            return  # the commit is on its way to the club server
        try:
            self.session.set_report(self.summary_page.report.toPlainText())
        except CampaignError as exc:
            self._page_error(f"Not committed: {exc}")
            return
        from .loader import run_write

        self._set_committing(True)
        if not run_write(self.ctx, self.session.commit, self._committed, self._not_committed):
            return  # on a file it ran at once
        self.ctx.signals.status.emit("Committing the battle to the club server\u2026")

    def _set_committing(self, on: bool) -> None:
        """While the commit is sent to a club server the wizard waits: its buttons are off, the window stays
        usable (it keeps painting, other windows take input)."""
        self.committing = on
        for which in (
            QWizard.WizardButton.FinishButton,
            QWizard.WizardButton.BackButton,
            QWizard.WizardButton.NextButton,
            QWizard.WizardButton.CancelButton,
        ):
            self.button(which).setEnabled(not on)
        if on:
            self.setCursor(Qt.CursorShape.BusyCursor)
        else:
            self.unsetCursor()

    def _not_committed(self, exc: Exception) -> None:
        self._set_committing(False)
        if not isinstance(exc, CampaignError):
            raise exc
        self._page_error(f"Not committed: {exc}")  # on the page shown (Commit is offered on the rolls page)

    def _committed(self, edit: Edit[battles.BattleSummary]) -> None:
        self._set_committing(False)
        self.edit = edit
        s = self.session
        push_edit(self.ctx, edit, s.platoon_id, f"Log battle {s.number} of {s.platoon_name}")
        self.committed.emit(edit.id)
        super().accept()

    def rolls_made(self) -> bool:
        """Rolls were made (or typed in) and not committed: cancelling would throw them away."""
        return self.edit is None and bool(self.session.records)

    def ask_discard(self) -> bool:
        n = len(self.session.records)
        answer = QMessageBox.question(
            self,
            "Discard this battle?",
            f"{plural(n, 'roll was', 'rolls were')} made for this battle and nothing has been saved yet.\n"
            "Discard the battle and its rolls?",
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Discard

    def ask_discard_for(self, why: str) -> bool:
        """A change would throw away the rolls made: ask first (Discard, or Cancel to keep them)."""
        answer = QMessageBox.question(
            self,
            "Discard the rolls made?",
            f"{why}\nDiscard them and roll again? Cancel keeps the rolls and what they were made for.",
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Discard

    def reject(self) -> None:
        """Cancel, Esc or closing the window: ask first when rolls would be lost; nothing is ever written."""
        if self.rolls_made() and not self.ask_discard():
            return
        super().reject()


class ChoosePlatoonDialog(QDialog):
    """Log battle with no platoon open: which platoon fought? The platoons of the campaign in view come
    first (and the first of them is picked); Enter or a double click goes on."""

    def __init__(self, platoons: list[tuple[PlatoonNode, CampaignNode]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Log battle \u2013 which platoon?")
        self.list = QListWidget(self)
        self.list.setAccessibleName("Platoons")
        for p, camp in platoons:
            item = QListWidgetItem(f"{p.name}  \u2013  {camp.name}  ({p.xp} XP, {p.level})")
            item.setData(Qt.ItemDataRole.UserRole, p.id)
            self.list.addItem(item)
        self.list.setCurrentRow(0)
        label = QLabel("&Platoon that fought the battle:", self)
        label.setBuddy(self.list)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Log battle\u2026")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.list.itemActivated.connect(lambda _item: self.accept())
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.buttons)
        fit_resize(self, 460, 320)
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)

    def platoon_id(self) -> int | None:
        item = self.list.currentItem()
        return int(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None


def platoon_choices(campaign_id: int | None = None) -> list[tuple[PlatoonNode, CampaignNode]]:
    """Every Atomic Africa platoon (not in archived campaigns) with its campaign, those of ``campaign_id``
    first."""
    from ..services.navigator import navigator_tree

    out = [
        (p, c)
        for c in navigator_tree()
        if c.system == "atomic_africa"
        for p in c.children
        if isinstance(p, PlatoonNode)
    ]
    out.sort(key=lambda pc: pc[1].id != campaign_id)  # stable: the campaign in view first
    return out


def choose_platoon(ctx: AppContext, parent: QWidget | None, campaign_id: int | None = None) -> int | None:
    """Ask which platoon fought (or say how to make one when there is none)."""
    choices = platoon_choices(campaign_id)
    if not choices:
        QMessageBox.information(
            parent,
            "Log battle",
            "There is no platoon to log a battle for yet.\n"
            "Create a campaign (File \u25b8 New campaign\u2026), then a platoon in it "
            "(File \u25b8 New platoon\u2026).",
        )
        return None
    if len(choices) == 1:
        return choices[0][0].id
    dialog = ChoosePlatoonDialog(choices, parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.platoon_id()
    finally:
        dialog.deleteLater()


def log_battle(
    ctx: AppContext, parent: QWidget | None, platoon_id: int | None = None, campaign_id: int | None = None
) -> int | None:
    """Battle ▸ Log battle… (Ctrl+B from anywhere): run the wizard; the new battle's id, or ``None`` when
    cancelled. Without a platoon (a campaign page, nothing selected) it first asks which platoon fought, and
    opens that platoon after the battle is logged."""
    asked = platoon_id is None
    if platoon_id is None:
        platoon_id = choose_platoon(ctx, parent, campaign_id)
        if platoon_id is None:
            return None
    try:
        wizard = BattleWizard(ctx, platoon_id, parent)
    except CampaignError as exc:
        QMessageBox.warning(parent, "Log battle", str(exc))
        return None
    wizard.exec()
    if asked and wizard.battle_id is not None:
        ctx.signals.open_item.emit("platoon", platoon_id)
    return wizard.battle_id


__all__ = ["BattleWizard", "log_battle", "push_edit", "summary_html", "OddsBars"]
