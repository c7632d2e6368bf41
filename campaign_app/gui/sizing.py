"""Sensible widths: one-line fields stop growing at a readable width (tables and text boxes take the rest of
a wide window instead), and a label that must not move its neighbours gets a fixed width."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLineEdit, QWidget

FIELD_CHARS = 48
"""A one-line field is at most about this many average characters wide."""

QWIDGETSIZE_MAX = (1 << 24) - 1


def chars_width(widget: QWidget, chars: int) -> int:
    """Pixels for ``chars`` average characters of ``widget``'s font, frame and margins included."""
    return widget.fontMetrics().averageCharWidth() * chars + 24


MAX_FIELD_PX = 720
"""A one-line field never grows past this many pixels, whatever the text size (View ▸ Text size)."""


def cap_width(widget: QWidget, chars: int = FIELD_CHARS) -> None:
    widget.setMaximumWidth(min(chars_width(widget, chars), MAX_FIELD_PX))


def cap_fields(root: QWidget, chars: int = FIELD_CHARS) -> None:
    """Cap every line edit, combo box and spin box inside ``root`` that has no maximum width of its own yet
    (Qt's inner line edit of a spin box or combo box is left alone)."""
    for w in root.findChildren(QWidget):
        if not isinstance(w, QLineEdit | QComboBox | QAbstractSpinBox):
            continue
        if isinstance(w.parentWidget(), QAbstractSpinBox | QComboBox) or w.maximumWidth() != QWIDGETSIZE_MAX:
            continue
        cap_width(w, chars)


FRAME_ALLOWANCE = (16, 48)
"""Room for the window manager's frame around a window (borders; the title bar)."""

USABLE_SIZE = (1024, 700)
"""A window that reopens smaller than this on a screen with room for it is enlarged (a saved size from a
smaller screen, a window manager that shrank it)."""


def available_rect(widget: QWidget) -> QRect:
    """The part of ``widget``'s screen (or its parent's, or the primary one) that windows may cover."""
    screen = widget.screen() if widget.isVisible() else None
    parent = widget.parentWidget()
    if screen is None and parent is not None:
        screen = parent.window().screen()
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1920, 1080)


def fit_size(widget: QWidget, width: int, height: int) -> QSize:
    """``width`` x ``height``, made smaller where the screen is (its frame included), never below the widget's
    minimum size."""
    room = available_rect(widget)
    w = min(width, room.width() - FRAME_ALLOWANCE[0])
    h = min(height, room.height() - FRAME_ALLOWANCE[1])
    return QSize(max(w, widget.minimumWidth()), max(h, widget.minimumHeight()))


def fit_resize(widget: QWidget, width: int, height: int) -> None:
    """A dialog's first size: what it asks for, but never larger than the screen (at 1024x700 a 700-px-high
    dialog put its buttons below the screen's edge)."""
    widget.resize(fit_size(widget, width, height))


def fit_window(window: QWidget, default: tuple[int, int] = (1180, 760)) -> None:
    """A main window as it reopens: inside the screen, and not tiny on a screen with room (a saved 842x545 on
    a 1920x1080 screen grows back to the default size)."""
    room = available_rect(window)
    size = window.size()
    if (
        (size.width() < USABLE_SIZE[0] or size.height() < USABLE_SIZE[1])
        and room.width() >= default[0]
        and room.height() >= default[1]
    ):
        size = QSize(*default)
    fitted = fit_size(window, size.width(), size.height())
    if fitted != window.size():
        window.resize(fitted)
