"""The top of an item's page (a campaign, a platoon, a fighter): the name, large and renamed in place (Enter),
the page's buttons at the right, a line about the item, and the line that shows why a change was refused."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QWidget

from .widgets import CommitLineEdit, ErrorLabel


class PageHeader(QWidget):
    """``name_edit`` (emits ``committed`` on Enter), ``button_row`` (the buttons at the top right: add buttons
    with :meth:`button`), ``info_label`` and ``message`` (an :class:`ErrorLabel`)."""

    def __init__(self, name: str, tooltip: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name_edit = CommitLineEdit("", self)
        self.name_edit.setAccessibleName(name)
        self.name_edit.setToolTip(tooltip)
        font = QFont(self.name_edit.font())
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.name_edit.setFont(font)
        self.name_edit.setFrame(False)
        self.name_edit.setStyleSheet("QLineEdit:!focus { background: transparent; }")
        self.info_label = QLabel(self)
        self.message = ErrorLabel(self)
        self.button_row = QHBoxLayout()
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.name_edit, 0, 0)  # it stops at a readable width (cap_fields); the buttons stay right
        grid.addLayout(self.button_row, 0, 1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        grid.addWidget(self.info_label, 1, 0, 1, 2)
        grid.addWidget(self.message, 2, 0, 1, 2)
        grid.setColumnStretch(0, 1)

    def button(self, text: str, tooltip: str = "") -> QPushButton:
        """A button at the end of the row at the top right."""
        button = QPushButton(text, self)
        if tooltip:
            button.setToolTip(tooltip)
        self.button_row.addWidget(button)
        return button
