"""Small input widgets that only offer legal values: die pickers (d4..d12 with the level words), the Armor
picker (1..5 with its class), choice pickers, a line edit that commits on Enter / leaving the field, the
number field every dialog and page uses (:class:`NumberSpin`: its whole text is selected when it gets the
focus, and a value out of range is refused with a message beside it, never clamped), and the one style of
inline problem message (:class:`ErrorLabel`, :func:`error_color`).

Every picker emits a ``...Chosen`` signal only when the *user* picks a value (``activated``), never when the
program sets one with ``setValue``; the pages write to the database on those signals.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QDate, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QFocusEvent, QKeyEvent, QPalette, QValidator, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QSpinBox,
    QWidget,
)

from ..rules.dice import DIE_SIDES
from ..rules.experience import ARMOR_CLASSES, attribute_word
from ..words import number
from ..words import plural as plural  # re-exported: pages import it from here

DATA = Qt.ItemDataRole.UserRole


class _Combo(QComboBox):
    """A combo box that ignores the mouse wheel unless it has the focus (so scrolling a page never changes
    a value by accident)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()

    def _select_data(self, value: Any) -> None:
        index = self.findData(value)
        if index < 0:
            raise ValueError(f"{value!r} is not offered by {self.accessibleName() or type(self).__name__}")
        blocked = self.blockSignals(True)
        self.setCurrentIndex(index)
        self.blockSignals(blocked)


class DiePicker(_Combo):
    """d4..d12 for one attribute (Training, Equipment or Morale), each shown with its level word."""

    dieChosen = Signal(int)

    def __init__(self, attribute: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.attribute = attribute
        for sides in DIE_SIDES:
            word = f"  {attribute_word(attribute, sides)}" if attribute else ""
            self.addItem(f"d{sides}{word}", sides)
            self.setItemData(
                self.count() - 1,
                f"{(attribute or 'attribute').capitalize()} d{sides}"
                + (f": {attribute_word(attribute, sides)}" if attribute else ""),
                Qt.ItemDataRole.ToolTipRole,
            )
        if attribute:
            self.setAccessibleName(f"{attribute.capitalize()} die")
        self.setCurrentIndex(DIE_SIDES.index(6))
        self.activated.connect(lambda i: self.dieChosen.emit(int(self.itemData(i))))

    def value(self) -> int:
        return int(self.currentData())

    def setValue(self, sides: int) -> None:  # noqa: N802 - Qt naming
        self._select_data(int(sides))


class ArmorPicker(_Combo):
    """Armor 1..``maximum`` with its class (1 light, 2 medium, 3 heavy infantry, 4-5 vehicle)."""

    armorChosen = Signal(int)

    def __init__(self, maximum: int = 5, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Armor")
        self._maximum = 0
        self.setMaximum(maximum)
        self.activated.connect(lambda i: self.armorChosen.emit(int(self.itemData(i))))

    def setMaximum(self, maximum: int) -> None:  # noqa: N802 - Qt naming
        if maximum == self._maximum:
            return
        keep = self.currentData()
        blocked = self.blockSignals(True)
        self.clear()
        for armor in range(1, maximum + 1):
            self.addItem(f"{armor}  {ARMOR_CLASSES[armor]}", armor)
        self._maximum = maximum
        if keep is not None and int(keep) <= maximum:
            self.setCurrentIndex(self.findData(int(keep)))
        self.blockSignals(blocked)

    def maximum(self) -> int:
        return self._maximum

    def value(self) -> int:
        return int(self.currentData())

    def setValue(self, armor: int) -> None:  # noqa: N802 - Qt naming
        self._select_data(int(armor))


class ChoicePicker(_Combo):
    """A fixed list of (value, label) choices; ``chosen(value)`` on a user pick."""

    chosen = Signal(object)

    def __init__(
        self, choices: Sequence[tuple[Any, str]], accessible_name: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        for value, label in choices:
            self.addItem(label, value)
        if accessible_name:
            self.setAccessibleName(accessible_name)
        self.activated.connect(lambda i: self.chosen.emit(self.itemData(i)))

    def value(self) -> Any:
        return self.currentData()

    def setValue(self, value: Any) -> None:  # noqa: N802 - Qt naming
        self._select_data(value)


class CommitLineEdit(QLineEdit):
    """Emits ``committed(text)`` when the user presses Enter or leaves the field after changing the text;
    Escape puts the last committed text back."""

    committed = Signal(str)

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._committed = text
        self.editingFinished.connect(self._maybe_commit)

    def setCommittedText(self, text: str) -> None:  # noqa: N802 - Qt naming
        self._committed = text
        if not self.hasFocus() or self.text() == text or not self.isModified():
            blocked = self.blockSignals(True)
            self.setText(text)
            self.setModified(False)
            self.blockSignals(blocked)

    def revert(self) -> None:
        self.setText(self._committed)
        self.setModified(False)

    def _maybe_commit(self) -> None:
        if self.text() != self._committed:
            self._committed = self.text()
            self.setModified(False)
            self.committed.emit(self.text())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() == Qt.Key.Key_Escape and self.text() != self._committed:
            self.revert()
            return
        super().keyPressEvent(event)


class CommitTextEdit(QPlainTextEdit):
    """Multi-line notes: ``committed(text)`` when the field loses focus after a change (or Ctrl+Enter).
    Tab moves the focus on instead of inserting a tab."""

    committed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._committed = ""
        self.setTabChangesFocus(True)

    def setCommittedText(self, text: str) -> None:  # noqa: N802 - Qt naming
        self._committed = text
        if not self.hasFocus() or self.toPlainText() == text:
            blocked = self.blockSignals(True)
            self.setPlainText(text)
            self.blockSignals(blocked)

    def commit(self) -> None:
        if self.toPlainText() != self._committed:
            self._committed = self.toPlainText()
            self.committed.emit(self._committed)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt override
        self.commit()
        super().focusOutEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if (
            event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.commit()
            return
        super().keyPressEvent(event)


def confirm(parent: QWidget | None, title: str, text: str, yes: str = "Delete") -> bool:
    """Ask before something drastic (one place, so tests can answer it)."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Cancel, parent)
    yes_button = box.addButton(yes, QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is yes_button


def confirm_with_option(
    parent: QWidget | None, title: str, text: str, option: str, yes: str = "Delete"
) -> tuple[bool, bool]:
    """:func:`confirm` with a check box under the question (off by default): ``(confirmed, option ticked)``."""
    from PySide6.QtWidgets import QCheckBox, QMessageBox

    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Cancel, parent)
    yes_button = box.addButton(yes, QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    check = QCheckBox(option, box)
    check.setObjectName("confirm_option")
    box.setCheckBox(check)
    box.exec()
    return box.clickedButton() is yes_button, check.isChecked()


def is_dark(widget: QWidget) -> bool:
    """The widget's palette is a dark one (light text on a dark window)."""
    return widget.palette().color(QPalette.ColorRole.Window).lightness() < 128


def error_color(widget: QWidget) -> QColor:
    """The one red of problem messages: dark enough on light windows, light enough on dark ones."""
    return QColor("#ff8a80" if is_dark(widget) else "#b3261e")


def error_style(widget: QWidget) -> str:
    """The style sheet of a problem message on ``widget`` (for labels that show either a note or a problem;
    :class:`ErrorLabel` is the usual way)."""
    return f"color: {error_color(widget).name()}; font-weight: bold;"


def reserve_message_space(label: QLabel, lines: int = 2) -> None:
    """Keep room for a message of up to ``lines`` lines, so showing one does not resize the dialog (or move
    the buttons under the pointer): the label stays in the layout, empty while there is nothing to say
    (``setVisible(False)`` on it is turned into clearing it)."""
    label.setMinimumHeight(label.fontMetrics().lineSpacing() * lines + 2)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    label.setProperty("reserved", True)


class ErrorLabel(QLabel):
    """The one way to show a problem inline: bold text in :func:`error_color`.

    With ``lines`` it keeps the room of exactly that many lines while empty (and never grows): a message
    appearing or going never resizes the dialog around it. Without, in a dialog (``reserve``: by default when
    its parent's window is a dialog) it keeps the room of two lines; on a page it takes no room until there is
    a problem.
    """

    def __init__(
        self, parent: QWidget | None = None, lines: int | None = None, wrap: bool = True, reserve: bool | None = None
    ) -> None:
        super().__init__(parent)
        self.setWordWrap(wrap)
        self.setAccessibleName("Problem")
        self._color = ""
        self._lines = lines
        self._restyle()
        if lines is not None:
            policy = QSizePolicy(
                QSizePolicy.Policy.Preferred if wrap else QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed
            )
            policy.setRetainSizeWhenHidden(True)
            self.setSizePolicy(policy)
            self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            self._fit_height()
            self.hide()
            return
        if reserve is None:
            from PySide6.QtWidgets import QDialog

            reserve = parent is not None and isinstance(parent.window(), QDialog)
        if reserve:
            reserve_message_space(self)
        else:
            self.hide()

    def _fit_height(self) -> None:
        if self._lines is not None:
            self.setFixedHeight(self.fontMetrics().lineSpacing() * max(1, self._lines) + 4)

    def _restyle(self) -> None:
        color = error_color(self).name()
        if color != self._color:  # a style sheet change is itself a palette change: only when needed
            self._color = color
            self.setStyleSheet(f"color: {color}; font-weight: bold;")

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_height()

    def show_problem(self, text: str | None) -> None:
        self._restyle()
        self.setText(text or "")
        self.setToolTip(text or "")
        if not self.property("reserved"):
            self.setVisible(bool(text))


def show_error(label: ErrorLabel, text: str | None) -> None:
    """Show (or clear, with an empty text) a problem in an :class:`ErrorLabel`."""
    label.show_problem(text)


# --- numbers --------------------------------------------------------------------------------------------------

_INTEGER = re.compile(r"[+\-\u2212]?\d+")


if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    class _SpinBox(QAbstractSpinBox):
        """What the mixin uses of QSpinBox and QDoubleSpinBox (each class below is one of them)."""

        problemChanged: SignalInstance

        def minimum(self) -> Any: ...
        def maximum(self) -> Any: ...
        def setRange(self, minimum: Any, maximum: Any) -> None: ...  # noqa: N802 - Qt naming
        def setValue(self, value: Any) -> None: ...  # noqa: N802 - Qt naming
        def prefix(self) -> str: ...
        def suffix(self) -> str: ...
        def value(self) -> Any: ...
        def textFromValue(self, value: Any) -> str: ...  # noqa: N802 - Qt naming
else:
    _SpinBox = object  # at run time a plain mixin: the spin box comes second in each class's bases


class _RefusingNumberField(_SpinBox):
    """What every number field of the app does (:class:`NumberSpin` for whole numbers, :class:`DecimalSpin`).

    * It selects its whole text whenever it gets the focus (Tab, a mnemonic, a click, the program), so typing
      "5" into a field showing "0" gives 5, never 50.
    * A value out of range is *refused*, never clamped: while the typed text is outside ``minimum()..
      maximum()`` the field keeps it, shows why beside itself (:attr:`message`, an :class:`ErrorLabel`; put it
      in the layout with :func:`number_field` or by hand), :meth:`problem` says why and ``value()`` stays at the
      last good value. Enter does not leave a bad value (the dialog's default button is not pressed) and
      dialogs refuse OK while a field has a problem (:func:`first_number_problem`).
    * The mouse wheel changes it only while it has the focus (scrolling a page never changes a number).
    """

    _pattern = _INTEGER

    @staticmethod
    def _parse(text: str) -> Any:
        return int(text.replace("\u2212", "-"))

    @staticmethod
    def _show(n: Any) -> str:
        return number(int(n))

    def __init__(
        self, parent: QWidget | None = None, minimum: Any = None, maximum: Any = None, value: Any = None
    ) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        if minimum is not None or maximum is not None:
            self.setRange(
                self.minimum() if minimum is None else minimum, self.maximum() if maximum is None else maximum
            )
        if value is not None:
            self.setValue(value)
        self._problem = ""
        self._select_on_release = False
        self._message: ErrorLabel | None = None
        self._shared_message = False
        self.lineEdit().installEventFilter(self)
        self.lineEdit().textChanged.connect(self._check_text)

    # --- the message beside the field ---------------------------------------------------------------------
    @property
    def message(self) -> ErrorLabel:
        """The problem message shown beside the field (made on first use, a sibling of the field: whoever asks
        for it puts it into the layout, see :func:`number_field`; or one label shared by several fields,
        :meth:`share_message`)."""
        if self._message is None:
            self._message = ErrorLabel(self.parentWidget(), lines=1, wrap=False)
            self._message.setAccessibleName(f"Problem with {self.accessibleName() or 'the number'}")
        return self._message

    def share_message(self, label: ErrorLabel) -> None:
        """Several fields report into one label already in the layout (thresholds, the two faces of a roll):
        the owner of the label shows the first problem of its fields (``problemChanged``); this field never
        makes a label of its own (one outside any layout was drawn over the fields at its parent's corner)."""
        self._message = label
        self._shared_message = True

    def problem(self) -> str:
        """Why the typed text is refused ("" when it is a good value)."""
        return self._problem

    def keep_stored_when_refused(self, show: Callable[[str], None]) -> None:
        """For a field on a page (written as soon as it is left): when the user leaves it (Tab, a click
        elsewhere, Enter) with a refused text, the field shows the stored value again and ``show(text)`` says
        why beside it ("XP for Regular: 1 is too low (at least 3); kept 3"): a refusal never looks accepted."""
        self.editingFinished.connect(lambda: self._revert_refused(show))

    def _revert_refused(self, show: Callable[[str], None]) -> None:
        problem = self._problem
        if not problem:
            return
        blocked = self.blockSignals(True)
        self.lineEdit().setText(self.prefix() + self.textFromValue(self.value()) + self.suffix())
        self.blockSignals(blocked)
        self._set_problem("")
        show(f"{problem}; kept {self._show(self.value())}")

    def short_problem(self) -> str:
        """The problem without the field's name (the message beside the field; its label names it)."""
        what = (self.accessibleName() or "The number") + ": "
        return self._problem[len(what) :] if self._problem.startswith(what) else self._problem

    def _number_text(self, text: str) -> str:
        text = text.strip()
        if self.prefix() and text.startswith(self.prefix().strip()):
            text = text[len(self.prefix().strip()) :]
        if self.suffix() and text.endswith(self.suffix().strip()):
            text = text[: -len(self.suffix().strip())]
        return text.strip()

    def _range_problem(self, text: str) -> str:
        if self.specialValueText() and text.strip() == self.specialValueText().strip():
            return ""
        number = self._number_text(text)
        if not self._pattern.fullmatch(number):
            return ""  # empty or half typed: judged when the user leaves the field
        n = self._parse(number)
        low, high = self.minimum(), self.maximum()
        if low <= n <= high:
            return ""
        what = self.accessibleName() or "The number"
        if n > high:
            return f"{what}: {self._show(n)} is too high (at most {self._show(high)})"
        return f"{what}: {self._show(n)} is too low (at least {self._show(low)})"

    def _set_problem(self, problem: str) -> None:
        if problem == self._problem:
            return
        self._problem = problem
        if self._message is not None and not self._shared_message:
            self._message.show_problem(self.short_problem())
            self._message.setToolTip(problem)
        self.problemChanged.emit(problem)

    def _check_text(self, text: str) -> None:
        self._set_problem(self._range_problem(text))

    # --- refusing, not clamping ---------------------------------------------------------------------------
    def validate(self, text: str, pos: int) -> Any:
        result = super().validate(text, pos)
        state = result[0] if isinstance(result, tuple) else result
        if state == QValidator.State.Invalid and self._pattern.fullmatch(self._number_text(text)):
            # a whole number out of range: let it stand (refused with a message), do not drop the keystroke
            return (QValidator.State.Intermediate, text, pos)
        return result

    def event(self, event: QEvent) -> bool:
        """Qt puts the old value back over a refused text when the field or the window loses the focus (without
        a signal): show what was typed again, with its message, so a refused 40 never turns silently into 4."""
        kept = self.lineEdit().text() if self._problem else None
        result = super().event(event)
        if kept is not None and self._problem and self.lineEdit().text() != kept:
            blocked = self.lineEdit().blockSignals(True)
            self.lineEdit().setText(kept)
            self.lineEdit().blockSignals(blocked)
        return result

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self._problem:
            self.selectAll()
            event.accept()  # Enter must not press OK / Next with a refused value
            return
        super().keyPressEvent(event)

    def setValue(self, value: Any) -> None:  # noqa: N802 - Qt naming
        super().setValue(value)
        self._check_text(self.lineEdit().text())

    def setRange(self, minimum: Any, maximum: Any) -> None:  # noqa: N802 - Qt naming
        super().setRange(minimum, maximum)
        if hasattr(self, "_problem"):
            self._check_text(self.lineEdit().text())

    def setMaximum(self, maximum: Any) -> None:  # noqa: N802 - Qt naming
        self.setRange(min(self.minimum(), maximum), maximum)

    def setMinimum(self, minimum: Any) -> None:  # noqa: N802 - Qt naming
        self.setRange(minimum, max(self.maximum(), minimum))

    # --- room for a refused number ------------------------------------------------------------------------
    def _widened(self, hint: Any) -> Any:
        """Room for one digit more than the longest allowed value (a refused 12 in a field of 0 to 5 must show
        as "12", not as a cut "l2")."""
        metrics = self.fontMetrics()
        texts = [self.textFromValue(self.minimum()), self.textFromValue(self.maximum()), self.specialValueText()]
        allowed = max(metrics.horizontalAdvance(self.prefix() + t + self.suffix()) for t in texts)
        digits = max(len(t.lstrip("-\u2212")) for t in texts[:2]) + 1
        extra = metrics.horizontalAdvance(self.prefix() + "0" * digits + self.suffix()) - allowed
        if extra > 0:
            hint.setWidth(hint.width() + extra)
        return hint

    def sizeHint(self) -> Any:  # noqa: N802 - Qt override
        return self._widened(super().sizeHint())

    def minimumSizeHint(self) -> Any:  # noqa: N802 - Qt override
        return self._widened(super().minimumSizeHint())

    # --- select all on focus ------------------------------------------------------------------------------
    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt override
        super().focusInEvent(event)
        self.selectAll()
        # a click places the cursor after the focus arrived: select again when the button comes up
        self._select_on_release = event.reason() == Qt.FocusReason.MouseFocusReason

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self.lineEdit() and event.type() == QEvent.Type.MouseButtonRelease and self._select_on_release:
            self._select_on_release = False
            if not self.lineEdit().hasSelectedText():  # the user did not drag out a selection of their own
                self.selectAll()
        return super().eventFilter(watched, event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class NumberSpin(_RefusingNumberField, QSpinBox):
    """A whole-number field for every form of the app (see :class:`_RefusingNumberField`)."""

    problemChanged = Signal(str)


_DECIMAL = re.compile(r"[+\-\u2212]?(\d+([.,]\d*)?|[.,]\d+)")


class DecimalSpin(_RefusingNumberField, QDoubleSpinBox):
    """The same field for numbers with decimals (base combat power, millimetres): selected on focus, a value
    out of range refused with a message beside it, never clamped."""

    problemChanged = Signal(str)
    _pattern = _DECIMAL

    @staticmethod
    def _parse(text: str) -> Any:
        return float(text.replace("\u2212", "-").replace(",", "."))

    @staticmethod
    def _show(n: Any) -> str:
        text = f"{float(n):g}"
        return "\u2212" + text[1:] if text.startswith("-") else text


_fmt = number  # a number for display: the minus sign (U+2212) for negatives


def number_field(spin: Any, *extra: QWidget) -> QWidget:
    """A row widget: the number field, any ``extra`` widgets, then its problem message beside it (the room
    for the message is kept, so a message never resizes the form)."""
    row = QWidget(spin.parentWidget())
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    spin.setParent(row)
    layout.addWidget(spin)
    for w in extra:
        layout.addWidget(w)
    message = spin.message
    message.setParent(row)
    message.setMinimumWidth(spin.fontMetrics().horizontalAdvance("0" * 28))  # "12 is too high (at most 5)"
    layout.addWidget(message, 1)
    return row


def add_number_row(form: Any, text: str, spin: Any, *extra: QWidget) -> QLabel:
    """A form row: ``text`` (its mnemonic goes to the field), the field and its problem message beside it."""
    label = QLabel(text, spin.parentWidget())
    label.setBuddy(spin)
    form.addRow(label, number_field(spin, *extra))
    return label


def first_number_problem(root: QWidget, spins: Iterable[Any] | None = None) -> Any:
    """The first enabled number field (:class:`NumberSpin` or :class:`DecimalSpin`) under ``root`` whose text
    is refused (focused and selected, so the user can type again), or None: dialogs call it before they
    accept."""
    if spins is None:
        spins = [w for w in root.findChildren(QAbstractSpinBox) if isinstance(w, _RefusingNumberField)]
    for spin in spins:
        if spin.isEnabled() and spin.problem():
            if spin._shared_message:
                spin.message.show_problem(spin.problem())
            else:
                spin.message.show_problem(spin.short_problem())
            spin.setFocus(Qt.FocusReason.OtherFocusReason)
            spin.selectAll()
            return spin
    return None


def date_of(value: QDate) -> _dt.date:
    """A date field's date as the services take it (a ``datetime.date``)."""
    return _dt.date(value.year(), value.month(), value.day())
