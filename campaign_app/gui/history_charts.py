"""The two charts of the History tab (QtCharts, imported only when the charts are first shown).

- :class:`XpChart`: platoon and leader XP after each battle over the level bands (their names at the right of
  the plot, each beside its band; a thin band's name is moved just clear of its neighbour rather than hidden),
  leader changes marked.
- :class:`WoundsChart`: wound counters, those on the leader's element and XP lost to recovery per battle; bars
  up to :data:`BARS_MAX` battles, lines above.

Both build their series and axes once and update them in place (``set_data``); ticks are whole numbers spaced
so that their labels fit the width the chart has; colours follow the palette (light or dark).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCharts import (
    QAreaSeries,
    QBarSeries,
    QBarSet,
    QChart,
    QChartView,
    QLineSeries,
    QScatterSeries,
    QValueAxis,
    QXYSeries,
)
from PySide6.QtCore import QEvent, QMargins, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QPainter, QPalette, QPen, QResizeEvent
from PySide6.QtWidgets import QGraphicsSimpleTextItem, QWidget

from ..rules.experience import LEVELS, XP_MAX

if TYPE_CHECKING:
    from ..services.history_results import LeaderChange, WoundsSeriesPoint, XpSeries

BARS_MAX = 40
"""Up to this many battles the wounds chart uses bars; above it, lines."""
NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000)

COLORS: dict[str, dict[str, Any]] = {
    "light": {
        "bands": ("#f4f4f4", "#e8f1e4", "#e3ecf7", "#efe6f5", "#f9efd9"),
        "band_edge": QColor(0, 0, 0, 30),
        "platoon": "#1f4e79",
        "leader": "#8e24aa",
        "new_leader": "#2e7d32",
        "lost": "#c62828",
        "marker_edge": "#ffffff",
        "wounds": "#ef8a17",
        "leader_wounds": "#7b5ea7",
        "xp_lost": "#c62828",
    },
    "dark": {
        "bands": ("#38383b", "#2f3d2b", "#29374a", "#3c3045", "#463d2d"),
        "band_edge": QColor(255, 255, 255, 40),
        "platoon": "#8cc2f2",
        "leader": "#d58fe6",
        "new_leader": "#86d08a",
        "lost": "#ff7b7b",
        "marker_edge": "#1e1e20",
        "wounds": "#ffb35c",
        "leader_wounds": "#b9a2e6",
        "xp_lost": "#ff7b7b",
    },
}
"""Series colours for a light and a dark palette (chart text, axes and background come from the palette)."""


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def nice_step(span: float, room: int) -> int:
    """The smallest whole step from :data:`NICE_STEPS` that puts at most ``room`` ticks on ``span``."""
    room = max(1, room)
    for step in NICE_STEPS:
        if span / step <= room:
            return step
    return NICE_STEPS[-1]


def set_int_ticks(axis: QValueAxis, low: float, high: float, pixels: float, label_px: float, anchor: float = 0) -> None:
    """Whole-number ticks from ``low`` to ``high``, as many as fit ``pixels`` with labels ``label_px`` apart.
    Only what differs is set (each setter lays the chart out again)."""
    step = nice_step(high - low, int(pixels // max(1.0, label_px)))
    if axis.tickType() != QValueAxis.TickType.TicksDynamic:
        axis.setTickType(QValueAxis.TickType.TicksDynamic)
    if axis.tickAnchor() != anchor:
        axis.setTickAnchor(anchor)
    if axis.tickInterval() != step:
        axis.setTickInterval(step)
    if axis.min() != low or axis.max() != high:
        axis.setRange(low, high)


def replace_points(series: QXYSeries, points: list[tuple[float, float]], kept: dict[int, Any]) -> None:
    """Put ``points`` in ``series`` (in place), unless it has them already (``kept``: the last points given
    to each series, by id): replacing a long series makes QtCharts compute its whole path again."""
    if kept.get(id(series)) == points:
        return
    series.replace([QPointF(x, y) for x, y in points])
    kept[id(series)] = points


class _Chart(QChartView):
    """Shared setup: no animation, legend at the bottom, palette colours, ticks refitted on resize."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        chart = QChart()
        chart.setAnimationOptions(QChart.AnimationOption.NoAnimation)
        chart.setTitle(title)
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        chart.setMargins(QMargins(4, 4, 4, 4))
        chart.setBackgroundRoundness(0)
        super().__init__(chart, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.dark = False

    def axes(self) -> list[Any]:
        return list(self.chart().axes())

    def apply_palette(self) -> None:
        pal = self.palette()
        self.dark = is_dark(pal)
        chart = self.chart()
        text = pal.color(QPalette.ColorRole.WindowText)
        chart.setBackgroundBrush(QBrush(pal.color(QPalette.ColorRole.Base)))
        chart.setBackgroundPen(QPen(pal.color(QPalette.ColorRole.Mid)))
        chart.setTitleBrush(QBrush(text))
        chart.legend().setLabelColor(text)
        grid = QColor(pal.color(QPalette.ColorRole.Mid))
        grid.setAlpha(110)
        for axis in chart.axes():
            axis.setLabelsBrush(QBrush(text))
            axis.setTitleBrush(QBrush(text))
            axis.setLinePenColor(pal.color(QPalette.ColorRole.Mid))
            axis.setGridLineColor(grid)
        self.apply_colors(COLORS["dark" if self.dark else "light"])

    def apply_colors(self, colors: dict[str, Any]) -> None:
        raise NotImplementedError

    def fit_ticks(self) -> None:
        raise NotImplementedError

    def label_px(self, sample: str) -> float:
        axis = self.chart().axes(Qt.Orientation.Horizontal)
        font = axis[0].labelsFont() if axis else self.font()
        return QFontMetrics(font).horizontalAdvance(sample) + 18

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.apply_palette()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.fit_ticks()


class XpChart(_Chart):
    """Platoon and leader XP after each battle over the level bands; leader changes marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("XP over the battles", parent)
        self.setMinimumSize(480, 400)  # room for the legend beside the band names
        chart = self.chart()
        self.platoon_points: list[tuple[float, float]] = []
        self.leader_points: list[tuple[float, float]] = []
        self.changes: list[tuple[int, LeaderChange]] = []
        """(battle, leader change) of each battle where the leader changed."""
        self._tips: dict[int, LeaderChange] = {}
        self._last = 1
        self._kept: dict[int, Any] = {}
        """The points last given to each series (see :func:`replace_points`)."""
        self.x_axis = QValueAxis()
        self.x_axis.setLabelFormat("%d")
        self.x_axis.setTitleText("Battle")
        self.y_axis = QValueAxis()
        self.y_axis.setLabelFormat("%d")
        self.y_axis.setTitleText("XP")
        chart.addAxis(self.x_axis, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(self.y_axis, Qt.AlignmentFlag.AlignLeft)
        self._bounds: list[int] = [0, *(XP_MAX * (i + 1) // len(LEVELS) for i in range(len(LEVELS)))]
        self.band_labels: list[QGraphicsSimpleTextItem] = []
        """The level names beside the bands (in the chart's right margin)."""
        for name in LEVELS:
            label = QGraphicsSimpleTextItem(name, chart)
            label.setFont(self.y_axis.labelsFont())
            self.band_labels.append(label)
        chart.plotAreaChanged.connect(lambda _rect: self.place_band_labels())
        self.bands: list[QAreaSeries] = []
        self._band_lines: list[QLineSeries] = []
        """The boundary lines of the bands: QAreaSeries does not own them, so they are kept alive here."""
        for name in LEVELS:
            upper, lower = QLineSeries(), QLineSeries()
            self._band_lines += [upper, lower]
            band = QAreaSeries(upper, lower)
            band.setName(name)
            self._add(band)
            self.bands.append(band)
        self.leader_line = QLineSeries()
        self.leader_line.setName("Leader XP")
        self.platoon_line = QLineSeries()
        self.platoon_line.setName("Platoon XP")
        self.lost = QScatterSeries()
        self.lost.setName("Leader lost")
        self.lost.setMarkerShape(QScatterSeries.MarkerShape.MarkerShapeRotatedRectangle)
        self.new = QScatterSeries()
        self.new.setName("New leader")
        self.new.setMarkerShape(QScatterSeries.MarkerShape.MarkerShapeTriangle)
        for s in (self.leader_line, self.platoon_line, self.new, self.lost):
            self._add(s)
        for band in self.bands:
            for marker in chart.legend().markers(band):
                marker.setVisible(False)
        self.lost.hovered.connect(self._tip)
        self.new.hovered.connect(self._tip)
        self.apply_palette()

    def _add(self, series: Any) -> None:
        self.chart().addSeries(series)
        series.attachAxis(self.x_axis)
        series.attachAxis(self.y_axis)

    def apply_colors(self, colors: dict[str, Any]) -> None:
        for i, band in enumerate(self.bands):
            band.setBrush(QBrush(QColor(colors["bands"][i % len(colors["bands"])])))
            band.setPen(QPen(colors["band_edge"], 1))
        self.leader_line.setPen(QPen(QColor(colors["leader"]), 2.0))
        self.platoon_line.setPen(QPen(QColor(colors["platoon"]), 2.6))
        text = QBrush(self.palette().color(QPalette.ColorRole.WindowText))
        for label in self.band_labels:
            label.setBrush(text)
        self.lost.setColor(QColor(colors["lost"]))
        self.lost.setBorderColor(QColor(colors["marker_edge"]))
        self.new.setColor(QColor(colors["new_leader"]))
        self.new.setBorderColor(QColor(colors["marker_edge"]))

    def set_data(self, series: XpSeries) -> None:
        points = series.points
        start = series.start
        last = max(1, len(points))
        self._last = last
        names = tuple(series.levels or LEVELS)
        bounds = [0, *series.thresholds, XP_MAX]
        moved = bounds != self._bounds
        self._bounds = bounds
        renamed = False
        for label, name in zip(self.band_labels, names, strict=False):
            if label.text() != name:
                label.setText(name)
                renamed = True
        kept = self._kept
        for i, band in enumerate(self.bands):
            low, high = bounds[i], bounds[i + 1]
            upper, lower = self._band_lines[2 * i], self._band_lines[2 * i + 1]
            replace_points(upper, [(0.0, float(high)), (float(last), float(high))], kept)
            replace_points(lower, [(0.0, float(low)), (float(last), float(low))], kept)
            name = names[i] if i < len(names) else ""
            if band.name() != name:
                band.setName(name)
        self.platoon_points = [(0.0, float(start.platoon_xp))] + [
            (float(p.battle), float(p.platoon_xp)) for p in points
        ]
        self.leader_points = ([(0.0, float(start.leader_xp))] if start.leader_xp is not None else []) + [
            (float(p.battle), float(p.leader_xp)) for p in points if p.leader_xp is not None
        ]
        self.changes = [(p.battle, p.leader_change) for p in points if p.leader_change is not None]
        small = len(points) <= 60
        for line, pts in ((self.leader_line, self.leader_points), (self.platoon_line, self.platoon_points)):
            replace_points(line, pts, kept)
            if line.pointsVisible() != small:
                line.setPointsVisible(small)
        if self.lost.markerSize() != (11 if small else 7):
            self.lost.setMarkerSize(11 if small else 7)
            self.new.setMarkerSize(12 if small else 8)
        replace_points(self.lost, [(float(battle), float(change.old_xp or 0)) for battle, change in self.changes], kept)
        replace_points(
            self.new,
            [(float(battle), float(change.new_xp)) for battle, change in self.changes if change.new_xp is not None],
            kept,
        )
        shown = bool(self.changes)
        for s in (self.lost, self.new):
            if s.isVisible() != shown:
                s.setVisible(shown)
                for marker in self.chart().legend().markers(s):
                    marker.setVisible(shown)
        self._tips = dict(self.changes)
        self.fit_ticks()
        if renamed or moved:
            self.place_band_labels()  # else where they are (the plot area calls back when it changes)

    def place_band_labels(self) -> None:
        """Each level's name in the right margin, centred on its band; thin bands' names are pushed apart
        (upwards from the bottom, then down from the top) so that none overlaps another or leaves the plot."""
        chart = self.chart()
        widest = max(label.boundingRect().width() for label in self.band_labels)
        margins = chart.margins()
        if margins.right() != int(widest) + 14:
            chart.setMargins(QMargins(margins.left(), margins.top(), int(widest) + 14, margins.bottom()))
            return  # the plot area changes and calls back
        plot = chart.plotArea()
        if plot.height() <= 1:
            return
        height = self.band_labels[0].boundingRect().height()
        tops = []
        for i in range(len(self.band_labels)):
            middle = (self._bounds[i] + self._bounds[i + 1]) / 2 if i + 1 < len(self._bounds) else XP_MAX
            tops.append(plot.bottom() - plot.height() * middle / XP_MAX - height / 2)
        limit = plot.bottom() - height
        for i, top in enumerate(tops):  # upwards: never below the plot or into the label below
            tops[i] = min(top, limit)
            limit = tops[i] - height - 1
        limit = plot.top()
        for i in range(len(tops) - 1, -1, -1):  # downwards: never above the plot or into the label above
            tops[i] = max(tops[i], limit)
            limit = tops[i] + height + 1
        for label, top in zip(self.band_labels, tops, strict=True):
            label.setPos(plot.right() + 8, top)

    def fit_ticks(self) -> None:
        plot = self.chart().plotArea()
        width = plot.width() if plot.width() > 10 else self.width() - 160
        height = plot.height() if plot.height() > 10 else self.height() - 150
        set_int_ticks(self.x_axis, 0, self._last, width, self.label_px(str(self._last)))
        line = QFontMetrics(self.y_axis.labelsFont()).height() + 8
        set_int_ticks(self.y_axis, 0, XP_MAX, height, line)

    def _tip(self, point: QPointF, state: bool) -> None:
        from PySide6.QtGui import QCursor
        from PySide6.QtWidgets import QToolTip

        change = self._tips.get(round(point.x()))
        if state and change:
            QToolTip.showText(
                QCursor.pos(),
                f"Battle {round(point.x())}: {change.old} {change.fate}; {change.new or 'no one'} takes over",
            )


class WoundsChart(_Chart):
    """Wound counters (all, and on the leader's element) and XP lost to recovery, per battle."""

    DATA: tuple[tuple[str, str, Callable[[WoundsSeriesPoint], int]], ...] = (
        ("Wound counters", "wounds", lambda r: r.wounds),
        ("On the leader's element", "leader_wounds", lambda r: r.leader_wounds),
        ("XP lost", "xp_lost", lambda r: r.xp_lost),
    )
    """Each series: its name, its colour's key in :data:`COLORS`, its value of a battle."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Wound counters and XP lost per battle", parent)
        self.setMinimumSize(360, 300)
        chart = self.chart()
        self.mode = "bars"
        self._shown_mode = ""
        self._kept: dict[int, Any] = {}
        self._first, self._last, self._top = 0, 1, 1
        self.x_axis = QValueAxis()
        self.x_axis.setLabelFormat("%d")
        self.x_axis.setTitleText("Battle")
        self.y_axis = QValueAxis()
        self.y_axis.setLabelFormat("%d")
        self.y_axis.setTitleText("Count")
        chart.addAxis(self.x_axis, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(self.y_axis, Qt.AlignmentFlag.AlignLeft)
        # bars sit at their index on a value axis: index = battle number (index 0 stays empty)
        self.bars = QBarSeries()
        self.bar_sets: list[QBarSet] = []
        for name, _color, _value in self.DATA:
            bar_set = QBarSet(name)
            self.bar_sets.append(bar_set)
            self.bars.append(bar_set)
        chart.addSeries(self.bars)
        self.bars.attachAxis(self.x_axis)
        self.bars.attachAxis(self.y_axis)
        self.lines: list[QLineSeries] = []
        for name, _color, _value in self.DATA:
            line = QLineSeries()
            line.setName(name)
            chart.addSeries(line)
            line.attachAxis(self.x_axis)
            line.attachAxis(self.y_axis)
            self.lines.append(line)
        self._show_mode()
        self.apply_palette()

    def apply_colors(self, colors: dict[str, Any]) -> None:
        for (_name, key, _value), bar_set, line in zip(self.DATA, self.bar_sets, self.lines, strict=True):
            color = QColor(colors[key])
            bar_set.setColor(color)
            bar_set.setBorderColor(color)
            line.setPen(QPen(color, 1.4))

    def _show_mode(self) -> None:
        if self._shown_mode == self.mode:
            return
        self._shown_mode = self.mode
        legend = self.chart().legend()
        bars = self.mode == "bars"
        self.bars.setVisible(bars)
        for marker in legend.markers(self.bars):
            marker.setVisible(bars)
        for line in self.lines:
            line.setVisible(not bars)
            for marker in legend.markers(line):
                marker.setVisible(not bars)

    def set_data(self, rows: Sequence[WoundsSeriesPoint]) -> None:
        top = max([1] + [max(r.wounds, r.leader_wounds, r.xp_lost) for r in rows])
        self._top = top
        self.mode = "bars" if len(rows) <= BARS_MAX else "lines"
        last = max([0] + [r.battle for r in rows])
        if self.mode == "bars":
            for (_name, _color, key), bar_set in zip(self.DATA, self.bar_sets, strict=True):
                values = [0.0] * (last + 1)
                for r in rows:
                    values[r.battle] = float(key(r))
                if self._kept.get(id(bar_set)) != values:
                    bar_set.remove(0, bar_set.count())
                    bar_set.append(values)
                    self._kept[id(bar_set)] = values
            for line in self.lines:
                replace_points(line, [], self._kept)
            self._first, self._last = 0, max(1, last)
        else:
            for (_name, _color, key), line in zip(self.DATA, self.lines, strict=True):
                replace_points(line, [(float(r.battle), float(key(r))) for r in rows], self._kept)
            for bar_set in self.bar_sets:
                if bar_set.count():
                    bar_set.remove(0, bar_set.count())
                self._kept.pop(id(bar_set), None)
            self._first, self._last = 1, max(2, last)
        self._show_mode()
        self.fit_ticks()

    def fit_ticks(self) -> None:
        plot = self.chart().plotArea()
        width = plot.width() if plot.width() > 10 else self.width() - 100
        height = plot.height() if plot.height() > 10 else self.height() - 150
        if self.mode == "bars":  # whole bars: half a battle of room on each side
            low, high = self._first + 0.5, self._last + 0.5
            set_int_ticks(self.x_axis, low, high, width, self.label_px(str(self._last)), anchor=1)
        else:
            set_int_ticks(self.x_axis, self._first, self._last, width, self.label_px(str(self._last)))
        line = QFontMetrics(self.y_axis.labelsFont()).height() + 8
        top = self._top + 1
        step = nice_step(top, int(height // line))
        top = -(-top // step) * step  # round the top up to a whole step
        set_int_ticks(self.y_axis, 0, top, height, line)


__all__ = ["XpChart", "WoundsChart", "BARS_MAX", "COLORS", "is_dark", "nice_step"]
