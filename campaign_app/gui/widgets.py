"""Small input widgets that only offer legal values: die pickers (d4..d12 with the level words), the Armor
picker (1..5 with its class), choice pickers, and a line edit that commits on Enter / leaving the field.

Every picker emits a ``...Chosen`` signal only when the *user* picks a value (``activated``), never when the
program sets one with ``setValue``; the pages write to the database on those signals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QPalette, QWheelEvent
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPlainTextEdit, QWidget

from ..rules.dice import DIE_SIDES
from ..rules.experience import ARMOR_CLASSES, attribute_word

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
            self.setItemData(self.count() - 1, f"{(attribute or 'attribute').capitalize()} d{sides}"
                             + (f": {attribute_word(attribute, sides)}" if attribute else ""),
                             Qt.ItemDataRole.ToolTipRole)
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

    def __init__(self, choices: Sequence[tuple[Any, str]], accessible_name: str = "",
                 parent: QWidget | None = None) -> None:
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
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and \
                event.modifiers() & Qt.KeyboardModifier.ControlModifier:
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


def reserve_message_space(label: QLabel, lines: int = 2) -> None:
    """Keep room for a message of up to ``lines`` lines, so showing one does not resize the dialog (or move
    the buttons under the pointer): the label stays in the layout, empty while there is nothing to say
    (``setVisible(False)`` on it is turned into clearing it)."""
    label.setMinimumHeight(label.fontMetrics().lineSpacing() * lines + 2)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    label.setProperty("reserved", True)


class ErrorLabel(QLabel):
    """A problem message in a red that reads on both light and dark palettes (hidden while empty). In a
    dialog it keeps its room while hidden (``reserve``: by default when its parent is a dialog), so an error
    does not resize the dialog; on a page it takes no room until there is a problem."""

    def __init__(self, parent: QWidget | None = None, reserve: bool | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setAccessibleName("Problem")
        self._color = ""
        self._restyle()
        if reserve is None:
            from PySide6.QtWidgets import QDialog

            reserve = parent is not None and isinstance(parent.window(), QDialog)
        if reserve:
            reserve_message_space(self)
        else:
            self.hide()

    def _restyle(self) -> None:
        dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
        color = "#ff8a80" if dark else "#b3261e"
        if color != self._color:  # a style sheet change is itself a palette change: only when needed
            self._color = color
            self.setStyleSheet(f"color: {color}; font-weight: bold;")

    def show_problem(self, text: str | None) -> None:
        self._restyle()
        self.setText(text or "")
        if not self.property("reserved"):
            self.setVisible(bool(text))
