"""The 32-box XP track of the Unit Data Sheet (RULES.md 1.1) as a widget.

Filled boxes are the XP; G, R, V and L stand over the boxes of the campaign's thresholds. The user changes
the XP by clicking a box (click the last filled box to empty it) or with the keyboard: Right/Up/+ one more,
Left/Down/- one less, Home 0, End 32, Page Up / Page Down to the next / previous threshold. The widget sets
its own value and emits ``xpEdited(new, old)``; the owner stores the change (with a reason) and puts the old
value back with ``setXp`` if the store refuses.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAccessible,
    QAccessibleValueChangeEvent,
    QColor,
    QFocusEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import QAccessibleWidget, QSizePolicy, QToolTip, QWidget

from ..rules.experience import DEFAULT_THRESHOLDS, LEVEL_LETTERS, XP_MAX, Thresholds, level_name

MAX_BOX = 22
MIN_BOX = 11
GAP = 2
GROUP_GAP = 4
"""A wider gap after every eighth box, as on a paper track, so boxes are easy to count."""

KEYS: tuple[tuple[str, str], ...] = (
    ("\u2192  \u2191  +", "one more XP"),
    ("\u2190  \u2193  \u2212", "one XP less"),
    ("Home", "0 XP"),
    ("End", f"{XP_MAX} XP"),
    ("Page Up", "up to the next level's threshold"),
    ("Page Down", "down to the previous threshold"),
)
"""The track's keys (its tooltip and Help \u25b8 Keyboard shortcuts both read this table)."""


class XpTrackAccessible(QAccessibleWidget):
    """What assistive technology reads of an XP track: a slider named "Platoon XP track" whose value is
    "6 XP, Green" (the boxes are painted, so Qt alone would report nothing)."""

    def __init__(self, track: XpTrack) -> None:
        super().__init__(track, QAccessible.Role.Slider, "")
        self.track = track

    def text(self, kind: QAccessible.Text) -> str:
        if kind == QAccessible.Text.Value:
            return f"{self.track.xp()} XP, {self.track.level()}"
        if kind == QAccessible.Text.Name:
            return self.track.accessibleName()
        return str(super().text(kind))


_interfaces: dict[int, XpTrackAccessible] = {}


def _accessible_factory(_key: str, obj: object) -> XpTrackAccessible | None:
    if not isinstance(obj, XpTrack):
        return None
    key = id(obj)
    interface = _interfaces.get(key)
    if interface is None:
        interface = _interfaces[key] = XpTrackAccessible(obj)
        obj.destroyed.connect(lambda _o=None: _interfaces.pop(key, None))
    return interface


_factory_installed: list[bool] = []


class XpTrack(QWidget):
    xpEdited = Signal(int, int)
    """(new XP, old XP) after the user changed it."""

    def __init__(
        self, thresholds: Thresholds = DEFAULT_THRESHOLDS, who: str = "XP", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._xp = 0
        self._thresholds = thresholds
        self._who = who
        self._hover: int | None = None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(f"{who} track")
        if not _factory_installed:
            QAccessible.installFactory(_accessible_factory)
            _factory_installed.append(True)
        self._update_texts()

    # --- value --------------------------------------------------------------------------------------------
    def xp(self) -> int:
        return self._xp

    def setXp(self, xp: int) -> None:  # noqa: N802 - Qt naming
        xp = max(0, min(XP_MAX, int(xp)))
        if xp != self._xp:
            self._xp = xp
            self._update_texts()
            self.update()
            if QAccessible.isActive():
                QAccessible.updateAccessibility(QAccessibleValueChangeEvent(self, xp))

    def thresholds(self) -> Thresholds:
        return self._thresholds

    def setThresholds(self, thresholds: Thresholds) -> None:  # noqa: N802 - Qt naming
        if thresholds != self._thresholds:
            self._thresholds = thresholds
            self._update_texts()
            self.update()

    def level(self) -> str:
        return level_name(self._xp, self._thresholds)

    def request(self, xp: int) -> None:
        """Change the XP as if the user had done it (clamped to 0..32); emits ``xpEdited`` if it changed."""
        xp = max(0, min(XP_MAX, xp))
        old = self._xp
        if xp != old and self.isEnabled():
            self.setXp(xp)
            self.xpEdited.emit(xp, old)

    def _update_texts(self) -> None:
        text = f"{self._who}: {self._xp} of {XP_MAX}, {self.level()}"
        self.setAccessibleDescription(text)
        keys = "; ".join(f"{k.replace('  ', ' ')} {what}" for k, what in KEYS)
        self.setToolTip(f"{text}.\nClick a box to set the XP (click the last filled box to empty it).\nKeys: {keys}.")

    # --- geometry -----------------------------------------------------------------------------------------
    def _letter_height(self) -> int:
        return self.fontMetrics().height() + 2

    def _box_size(self) -> int:
        usable = self.width() - 2 - 3 * (GROUP_GAP - GAP) - (XP_MAX - 1) * GAP
        return max(MIN_BOX, min(MAX_BOX, usable // XP_MAX))

    def box_rect(self, box: int) -> QRect:
        """Rectangle of box ``box`` (1..32)."""
        size = self._box_size()
        x = 1 + (box - 1) * (size + GAP) + ((box - 1) // 8) * (GROUP_GAP - GAP)
        return QRect(x, self._letter_height(), size, size)

    def box_at(self, pos: QPoint) -> int | None:
        for box in range(1, XP_MAX + 1):
            if self.box_rect(box).adjusted(-1, -self._letter_height(), 1, 1).contains(pos):
                return box
        return None

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(2 + XP_MAX * (MAX_BOX + GAP) + 3 * GROUP_GAP, self._letter_height() + MAX_BOX + 3)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(2 + XP_MAX * (MIN_BOX + GAP) + 3 * GROUP_GAP, self._letter_height() + MAX_BOX + 3)

    def heightForWidth(self, _width: int) -> int:  # noqa: N802 - Qt override
        return self._letter_height() + MAX_BOX + 3

    # --- painting -----------------------------------------------------------------------------------------
    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        pal = self.palette()
        enabled = self.isEnabled()
        group = QPalette.ColorGroup.Active if enabled else QPalette.ColorGroup.Disabled
        text = pal.color(group, QPalette.ColorRole.WindowText)
        base = pal.color(group, QPalette.ColorRole.Base)
        fill = pal.color(group, QPalette.ColorRole.Highlight)
        if not enabled:
            fill = pal.color(group, QPalette.ColorRole.Mid)
        line = QColor(text)
        line.setAlpha(150)
        thresholds = self._thresholds.as_tuple()
        bold = self.font()
        bold.setBold(True)
        p.setFont(bold)
        for box in range(1, XP_MAX + 1):
            r = self.box_rect(box)
            is_threshold = box in thresholds
            if is_threshold:
                letter = LEVEL_LETTERS[thresholds.index(box)]
                p.setPen(text)
                p.drawText(
                    QRect(r.x() - 4, 0, r.width() + 8, self._letter_height()),
                    int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom),
                    letter,
                )
            p.setBrush(fill if box <= self._xp else base)
            pen = QPen(text if is_threshold else line, 2.0 if is_threshold else 1.0)
            p.setPen(pen)
            p.drawRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5))
            if self._hover == box and enabled:
                hover = QColor(fill)
                hover.setAlpha(90)
                p.fillRect(r.adjusted(2, 2, -2, -2), hover)
        if self.hasFocus():
            # a focus frame around the box that holds the last point of XP (or the first box at 0)
            r = self.box_rect(max(1, self._xp)).adjusted(-2, -2, 2, 2)
            focus = QPen(pal.color(QPalette.ColorRole.Highlight) if self._xp == 0 else text, 1.5, Qt.PenStyle.DashLine)
            p.setPen(focus)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5))
        p.end()

    # --- input --------------------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        box = self.box_at(event.position().toPoint())
        if box is None:
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self.request(box - 1 if box == self._xp else box)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        box = self.box_at(event.position().toPoint())
        if box != self._hover:
            self._hover = box
            self.update()
            if box is not None:
                QToolTip.showText(
                    event.globalPosition().toPoint(), f"{box} XP: {level_name(box, self._thresholds)}", self
                )

    def leaveEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        self._hover = None
        self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        key = event.key()
        k = Qt.Key
        if key in (k.Key_Right, k.Key_Up, k.Key_Plus):
            self.request(self._xp + 1)
        elif key in (k.Key_Left, k.Key_Down, k.Key_Minus):
            self.request(self._xp - 1)
        elif key == k.Key_Home:
            self.request(0)
        elif key == k.Key_End:
            self.request(XP_MAX)
        elif key == k.Key_PageUp:
            higher = [t for t in self._thresholds.as_tuple() if t > self._xp]
            self.request(higher[0] if higher else XP_MAX)
        elif key == k.Key_PageDown:
            lower = [t for t in self._thresholds.as_tuple() if t < self._xp]
            self.request(lower[-1] if lower else 0)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt override
        self.update()
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt override
        self.update()
        super().focusOutEvent(event)
