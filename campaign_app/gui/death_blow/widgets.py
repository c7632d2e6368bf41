"""Two painted widgets of the fighter page: the 12 XP boxes and the career chart (level and lifetime XP)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...rules.death_blow import MAX_LEVEL, XP_PER_LEVEL


class XpBoxes(QWidget):
    """The sheet's 12 boxes: XP toward the next level, filled from the left (all empty at level 11)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.xp = 0
        self.level = 0
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("XP toward the next level")

    def set_xp(self, xp: int, level: int) -> None:
        self.xp, self.level = xp, level
        self.setToolTip(
            "Level 11 is the last level: XP now counts in lifetime XP only"
            if level >= MAX_LEVEL
            else f"{xp} of {XP_PER_LEVEL} XP toward level {level + 1}"
        )
        self.setAccessibleDescription(self.toolTip())
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        side = self.fontMetrics().height() + 6
        return QSize(XP_PER_LEVEL * (side + 3) + 1, side + 1)

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        side = self.height() - 1
        fill = pal.color(QPalette.ColorRole.Highlight)
        pen = QPen(pal.color(QPalette.ColorRole.WindowText))
        for i in range(XP_PER_LEVEL):
            rect = QRectF(i * (side + 3) + 0.5, 0.5, side - 1, side - 1)
            p.setPen(pen)
            p.setBrush(fill if i < self.xp else pal.color(QPalette.ColorRole.Base))
            p.drawRect(rect)
        p.end()


class CareerChart(QWidget):
    """Level (left axis, 0..11) and lifetime XP (right axis) after each bout, bout 0 being the start."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.points: list[dict[str, Any]] = []
        self.setMinimumSize(320, 200)
        self.setAccessibleName("Level and lifetime XP over the bouts")

    def set_series(self, points: list[dict[str, Any]]) -> None:
        self.points = list(points)
        last = self.points[-1] if self.points else None
        self.setAccessibleDescription(
            f"{len(self.points) - 1} bouts; now level {last['level']}, lifetime XP {last['lifetime_xp']}"
            if last
            else "no bouts"
        )
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        text = pal.color(QPalette.ColorRole.WindowText)
        p.fillRect(self.rect(), pal.color(QPalette.ColorRole.Base))
        fm = self.fontMetrics()
        left, right = fm.horizontalAdvance("11") + 34, fm.horizontalAdvance("9999") + 34
        top, bottom = fm.height() * 2 + 8, fm.height() * 2 + 10
        plot = QRectF(left, top, max(10, self.width() - left - right), max(10, self.height() - top - bottom))
        dark = pal.color(QPalette.ColorRole.Base).lightness() < 128
        level_color = QColor("#7fb2ff" if dark else "#1f5fbf")
        xp_color = QColor("#ffb35c" if dark else "#c0580c")
        p.setPen(text)
        p.drawText(
            QRectF(0, 2, self.width(), fm.height() + 2),
            Qt.AlignmentFlag.AlignHCenter,
            "Level and lifetime XP after each bout",
        )
        n = max(1, len(self.points) - 1)
        top_xp = max([1] + [int(pt["lifetime_xp"] or 0) for pt in self.points])
        grid = QColor(pal.color(QPalette.ColorRole.Mid))
        grid.setAlpha(110)
        for lv in range(0, MAX_LEVEL + 1):
            y = plot.bottom() - plot.height() * lv / MAX_LEVEL
            p.setPen(QPen(grid))
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            if lv % 2 == 1 or lv == 0:
                p.setPen(level_color)
                p.drawText(
                    QRectF(0, y - fm.height() / 2, left - 6, fm.height()),
                    Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                    str(lv),
                )
        p.setPen(xp_color)
        for frac in (0, 0.5, 1):
            y = plot.bottom() - plot.height() * frac
            p.drawText(
                QRectF(plot.right() + 6, y - fm.height() / 2, right - 6, fm.height()),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                str(round(top_xp * frac)),
            )
        p.setPen(text)
        p.drawRect(plot)
        p.drawText(
            QRectF(plot.left(), plot.bottom() + 4, plot.width(), fm.height()), Qt.AlignmentFlag.AlignLeft, "start"
        )
        p.drawText(
            QRectF(plot.left(), plot.bottom() + 4, plot.width(), fm.height()),
            Qt.AlignmentFlag.AlignRight,
            f"bout {len(self.points) - 1}" if len(self.points) > 1 else "",
        )
        if not self.points:
            p.end()
            return

        def x_of(i: int) -> float:
            return plot.left() + plot.width() * i / n

        for key, color, scale in (("level", level_color, MAX_LEVEL), ("lifetime_xp", xp_color, top_xp)):
            poly = QPolygonF(
                [
                    QPointF(x_of(i), plot.bottom() - plot.height() * (pt[key] or 0) / scale)
                    for i, pt in enumerate(self.points)
                ]
            )
            p.setPen(QPen(color, 2))
            p.drawPolyline(poly)
            for i in range(poly.size()):
                p.drawEllipse(poly.at(i), 2.5, 2.5)
        ly = plot.bottom() + fm.height() + 6
        for i, (label, color) in enumerate((("level (left)", level_color), ("lifetime XP (right)", xp_color))):
            x = plot.left() + i * (plot.width() / 2)
            p.setPen(QPen(color, 3))
            p.drawLine(QPointF(x, ly + fm.height() / 2), QPointF(x + 18, ly + fm.height() / 2))
            p.setPen(text)
            p.drawText(QPointF(x + 24, ly + fm.ascent()), label)
        p.end()
