"""Sensible widths: one-line fields stop growing at a readable width (tables and text boxes take the rest of
a wide window instead), and a label that must not move its neighbours gets a fixed width."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLineEdit, QWidget

FIELD_CHARS = 48
"""A one-line field is at most about this many average characters wide."""

QWIDGETSIZE_MAX = (1 << 24) - 1


def chars_width(widget: QWidget, chars: int) -> int:
    """Pixels for ``chars`` average characters of ``widget``'s font, frame and margins included."""
    return widget.fontMetrics().averageCharWidth() * chars + 24


def cap_width(widget: QWidget, chars: int = FIELD_CHARS) -> None:
    widget.setMaximumWidth(chars_width(widget, chars))


def cap_fields(root: QWidget, chars: int = FIELD_CHARS) -> None:
    """Cap every line edit, combo box and spin box inside ``root`` that has no maximum width of its own yet
    (Qt's inner line edit of a spin box or combo box is left alone)."""
    for w in root.findChildren(QWidget):
        if not isinstance(w, QLineEdit | QComboBox | QAbstractSpinBox):
            continue
        if isinstance(w.parentWidget(), QAbstractSpinBox | QComboBox) or w.maximumWidth() != QWIDGETSIZE_MAX:
            continue
        cap_width(w, chars)
