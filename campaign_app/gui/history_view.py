"""The campaign history of a platoon (platoon page ▸ History).

- Timeline: every battle, XP change, leader change, attribute change and roll, newest first, filtered by kind
  and searchable; each battle expands to its rolls (:class:`~.history_models.TimelineModel`).
- Charts (QtCharts): platoon and leader XP over battles with the level thresholds as bands and the leader
  changes marked; wound counters and XP lost per battle.
- Leaders' roll and the campaign summary.
- Buttons: Log battle…, Undo newest battle (on the undo stack, so Edit ▸ Undo brings it back), Edit battle…
  (scenario, outcome, notes; logged), Export CSV… / Export JSON….

Everything comes from one ``services.battles.history_report`` call (a fixed number of queries).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from PySide6.QtCharts import (
    QAreaSeries,
    QBarCategoryAxis,
    QBarSeries,
    QBarSet,
    QCategoryAxis,
    QChart,
    QChartView,
    QLineSeries,
    QScatterSeries,
    QValueAxis,
)
from PySide6.QtCore import QMargins, QModelIndex, QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QPainter, QPen, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
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
    QSplitter,
    QTableView,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from ..rules.experience import LEVELS, XP_MAX
from ..services import battles
from ..services.common import ServiceError
from .context import AppContext
from .history_models import FATE_COLORS, KIND_LABELS, LeadersModel, TimelineModel

log = logging.getLogger(__name__)

BAND_COLORS = ("#f4f4f4", "#e8f1e4", "#e3ecf7", "#efe6f5", "#f9efd9")
"""Background bands of the XP chart, Untested .. Legendary."""
PLATOON_COLOR = "#1f4e79"
LEADER_COLOR = "#8e24aa"
NEW_LEADER_COLOR = "#2e7d32"  # a new leader's first point: green, apart from the purple leader line
BARS_MAX = 40
"""Up to this many battles the wounds chart uses bars; above it, lines."""
FILTER_LABELS: dict[str, str] = {"battle": "Battles", "xp": "XP", "leader": "Leaders", "attribute": "Changes",
                                 "roll": "Rolls"}


def _hide_from_legend(chart: QChart, series: Any) -> None:
    for marker in chart.legend().markers(series):
        marker.setVisible(False)


def _battle_axis(first: int, last: int) -> QValueAxis:
    """An x axis of battle numbers with ticks on whole numbers (about ten of them)."""
    axis = QValueAxis()
    axis.setRange(first, last)
    axis.setLabelFormat("%d")
    span = max(1, last - first)
    step = 1
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        step = nice
        if span / nice <= 12:
            break
    axis.setTickType(QValueAxis.TickType.TicksDynamic)
    axis.setTickAnchor(0)
    axis.setTickInterval(step)
    axis.setTitleText("Battle")
    return axis


class XpChart(QChartView):
    """Platoon and leader XP after each battle over the level bands; leader changes marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        chart = QChart()
        chart.setAnimationOptions(QChart.AnimationOption.NoAnimation)
        chart.setTitle("XP over the battles")
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        chart.setMargins(QMargins(4, 4, 4, 4))
        super().__init__(chart, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumHeight(220)
        self.platoon_points: list[tuple[float, float]] = []
        self.leader_points: list[tuple[float, float]] = []
        self.changes: list[dict[str, Any]] = []
        self._band_lines: list[QLineSeries] = []
        """The boundary lines of the bands: QAreaSeries does not own them, so they are kept alive here."""

    def set_data(self, series: dict[str, Any]) -> None:
        chart = self.chart()
        chart.removeAllSeries()
        for axis in chart.axes():
            chart.removeAxis(axis)
        self._band_lines = []
        points = series["points"]
        start = series["start"]
        last = max(1, len(points))
        x_axis = _battle_axis(0, last)
        y_axis = QValueAxis()
        y_axis.setRange(0, XP_MAX)
        y_axis.setLabelFormat("%d")
        y_axis.setTickCount(9)
        y_axis.setTitleText("XP")
        levels = QCategoryAxis()
        levels.setRange(0, XP_MAX)
        levels.setLabelsPosition(QCategoryAxis.AxisLabelsPosition.AxisLabelsPositionCenter)
        levels.setGridLineVisible(False)
        chart.addAxis(x_axis, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(y_axis, Qt.AlignmentFlag.AlignLeft)
        chart.addAxis(levels, Qt.AlignmentFlag.AlignRight)
        bounds = [0, *series["thresholds"], XP_MAX]
        for i, name in enumerate(series.get("levels") or LEVELS):
            low, high = bounds[i], bounds[i + 1]
            levels.append(name, high if i < len(bounds) - 2 else XP_MAX)
            upper = QLineSeries()
            upper.append(0, high)
            upper.append(last, high)
            lower = QLineSeries()
            lower.append(0, low)
            lower.append(last, low)
            self._band_lines += [upper, lower]
            band = QAreaSeries(upper, lower)
            band.setName(name)
            band.setBrush(QBrush(QColor(BAND_COLORS[i % len(BAND_COLORS)])))
            band.setPen(QPen(QColor(0, 0, 0, 30), 1))
            chart.addSeries(band)
            band.attachAxis(x_axis)
            band.attachAxis(y_axis)
            _hide_from_legend(chart, band)
        self.platoon_points = [(0.0, float(start["platoon_xp"]))] + [
            (float(p["battle"]), float(p["platoon_xp"])) for p in points]
        self.leader_points = ([(0.0, float(start["leader_xp"]))] if start["leader_xp"] is not None else []) + [
            (float(p["battle"]), float(p["leader_xp"])) for p in points if p["leader_xp"] is not None]
        self.changes = [p for p in points if p["leader_change"]]
        small = len(points) <= 60
        for name, pts, color, width in (("Leader XP", self.leader_points, LEADER_COLOR, 2.0),
                                        ("Platoon XP", self.platoon_points, PLATOON_COLOR, 2.6)):
            line = QLineSeries()
            line.setName(name)
            line.replace([QPointF(x, y) for x, y in pts])
            line.setPen(QPen(QColor(color), width))
            line.setPointsVisible(small)
            chart.addSeries(line)
            line.attachAxis(x_axis)
            line.attachAxis(y_axis)
        if self.changes:
            lost = QScatterSeries()
            lost.setName("Leader lost")
            lost.setMarkerShape(QScatterSeries.MarkerShape.MarkerShapeRotatedRectangle)
            lost.setMarkerSize(11 if small else 7)
            lost.setColor(QColor(FATE_COLORS["casualty"]))
            lost.setBorderColor(QColor("#ffffff"))
            lost.replace([QPointF(float(p["battle"]), float(p["leader_change"]["old_xp"] or 0))
                          for p in self.changes])
            new = QScatterSeries()
            new.setName("New leader")
            new.setMarkerShape(QScatterSeries.MarkerShape.MarkerShapeTriangle)
            new.setMarkerSize(12 if small else 8)
            new.setColor(QColor(NEW_LEADER_COLOR))
            new.setBorderColor(QColor("#ffffff"))
            new.replace([QPointF(float(p["battle"]), float(p["leader_change"]["new_xp"]))
                         for p in self.changes if p["leader_change"]["new_xp"] is not None])
            for s in (new, lost):
                chart.addSeries(s)
                s.attachAxis(x_axis)
                s.attachAxis(y_axis)
            tips = {int(p["battle"]): p["leader_change"] for p in self.changes}

            def tip(point: QPointF, state: bool) -> None:
                from PySide6.QtGui import QCursor
                from PySide6.QtWidgets import QToolTip

                change = tips.get(round(point.x()))
                if state and change:
                    QToolTip.showText(QCursor.pos(), f"Battle {round(point.x())}: {change['old']} "
                                                     f"{change['fate']}; {change['new'] or 'no one'} takes over")
            lost.hovered.connect(tip)
            new.hovered.connect(tip)


class WoundsChart(QChartView):
    """Wound counters (all, and on the leader's element) and XP lost to recovery, per battle."""

    def __init__(self, parent: QWidget | None = None) -> None:
        chart = QChart()
        chart.setAnimationOptions(QChart.AnimationOption.NoAnimation)
        chart.setTitle("Wound counters and XP lost per battle")
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        chart.setMargins(QMargins(4, 4, 4, 4))
        super().__init__(chart, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumHeight(180)
        self.mode = "bars"

    def set_data(self, rows: list[dict[str, Any]]) -> None:
        chart = self.chart()
        chart.removeAllSeries()
        for axis in chart.axes():
            chart.removeAxis(axis)
        top = max([1] + [max(r["wounds"], r["leader_wounds"], r["xp_lost"]) for r in rows])
        y_axis = QValueAxis()
        y_axis.setRange(0, top + 1)
        y_axis.setLabelFormat("%d")
        y_axis.applyNiceNumbers()
        data = (("Wound counters", "wounds", "#ef8a17"), ("On the leader's element", "leader_wounds", "#7b5ea7"),
                ("XP lost", "xp_lost", "#c62828"))
        if len(rows) <= BARS_MAX:
            self.mode = "bars"
            bars = QBarSeries()
            for name, key, color in data:
                bar_set = QBarSet(name)
                bar_set.append([float(r[key]) for r in rows])
                bar_set.setColor(QColor(color))
                bar_set.setBorderColor(QColor(color))
                bars.append(bar_set)
            chart.addSeries(bars)
            x_axis: Any = QBarCategoryAxis()
            x_axis.append([str(r["battle"]) for r in rows] or ["\u2013"])
            x_axis.setTitleText("Battle")
            chart.addAxis(x_axis, Qt.AlignmentFlag.AlignBottom)
            chart.addAxis(y_axis, Qt.AlignmentFlag.AlignLeft)
            bars.attachAxis(x_axis)
            bars.attachAxis(y_axis)
            return
        self.mode = "lines"
        x_axis = _battle_axis(1, max(2, len(rows)))
        chart.addAxis(x_axis, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(y_axis, Qt.AlignmentFlag.AlignLeft)
        for name, key, color in data:
            line = QLineSeries()
            line.setName(name)
            line.replace([QPointF(float(r["battle"]), float(r[key])) for r in rows])
            line.setPen(QPen(QColor(color), 1.4))
            chart.addSeries(line)
            line.attachAxis(x_axis)
            line.attachAxis(y_axis)


class BattleTextDialog(QDialog):
    """Edit a logged battle's scenario, outcome and notes (each change is logged; rolls stay)."""

    def __init__(self, battle: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.battle = battle
        self.setWindowTitle(f"Edit battle {battle['number']}")
        form = QFormLayout(self)
        form.addRow(QLabel(f"Battle {battle['number']} ({battle['date']}). Its rolls cannot be edited; undo "
                           "the battle to redo them."))
        self.scenario = QLineEdit(battle.get("scenario") or "")
        self.scenario.setMaxLength(battles.SCENARIO_MAX)
        self.outcome = QComboBox()
        for label, value in (("not recorded", None), ("Victory", "victory"), ("Defeat", "defeat"),
                             ("Draw", "draw")):
            self.outcome.addItem(label, value)
        self.outcome.setCurrentIndex(max(0, self.outcome.findData(battle.get("outcome"))))
        self.notes = QPlainTextEdit(battle.get("notes") or "")
        self.notes.setTabChangesFocus(True)
        self.notes.setMaximumHeight(100)
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("why (optional, kept with the change)")
        form.addRow("&Scenario:", self.scenario)
        form.addRow("O&utcome:", self.outcome)
        form.addRow("&Notes:", self.notes)
        form.addRow("&Reason:", self.reason)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)


def _safe_file_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "platoon"


class HistoryView(QWidget):
    """The History tab of a platoon: timeline, charts, leaders' roll, summary, export, undo, edit."""

    loaded = Signal(int)
    """Emitted after (re)loading a platoon's history (its id)."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.platoon_id: int | None = None
        self.report: dict[str, Any] | None = None
        self.edit_dialog: BattleTextDialog | None = None
        self._dirty = False

        outer = QVBoxLayout(self)
        top = QHBoxLayout()
        self.title = QLabel()
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        top.addWidget(self.title, 1)
        self.log_button = QPushButton("Log battle\u2026")
        self.log_button.setToolTip("Log a new battle of this platoon (Ctrl+B)")
        self.undo_button = QPushButton("Undo newest battle")
        self.undo_button.setToolTip("Remove the newest battle: XP, leaders and rolls return to their state "
                                    "before it (Edit \u25b8 Undo brings it back)")
        self.edit_button = QPushButton("Edit battle\u2026")
        self.edit_button.setToolTip("Change the selected battle's scenario, outcome or notes")
        self.csv_button = QPushButton("Export CSV\u2026")
        self.json_button = QPushButton("Export JSON\u2026")
        for b in (self.log_button, self.undo_button, self.edit_button, self.csv_button, self.json_button):
            top.addWidget(b)
        outer.addLayout(top)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.hide()
        outer.addWidget(self.message)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setAccessibleName("Campaign summary")
        summary_box = QGroupBox("Campaign summary")
        QVBoxLayout(summary_box).addWidget(self.summary)
        outer.addWidget(summary_box)

        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        filters = QHBoxLayout()
        filters.addWidget(QLabel("Show:"))
        self.kind_buttons: dict[str, QToolButton] = {}
        for kind, label in FILTER_LABELS.items():
            button = QToolButton()
            button.setText(label)
            button.setCheckable(True)
            button.setChecked(True)
            button.setToolTip(f"Show {label.lower()} in the timeline")
            button.toggled.connect(self._filter_changed)
            self.kind_buttons[kind] = button
            filters.addWidget(button)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search the timeline\u2026")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter_changed)
        filters.addWidget(self.search, 1)
        left_layout.addLayout(filters)
        self.model = TimelineModel(self)
        self.tree = QTreeView()
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setAccessibleName("Timeline")
        bold = self.tree.font()
        bold.setBold(True)
        fm = QFontMetrics(bold)
        header = self.tree.header()
        header.setStretchLastSection(True)
        for col, sample, indent in ((0, "2026-12-31", 2 * self.tree.indentation()), (1, "Change", 0),
                                    (2, "#1000", 0)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            self.tree.setColumnWidth(col, fm.horizontalAdvance(sample) + indent + 24)
        left_layout.addWidget(self.tree, 1)
        self.count = QLabel()
        left_layout.addWidget(self.count)
        split.addWidget(left)

        right = QSplitter(Qt.Orientation.Vertical)
        self.xp_chart = XpChart()
        self.wounds_chart = WoundsChart()
        right.addWidget(self.xp_chart)
        right.addWidget(self.wounds_chart)
        leaders_box = QGroupBox("Leaders' roll")
        leaders_layout = QVBoxLayout(leaders_box)
        self.leaders_model = LeadersModel(self)
        self.leaders = QTableView()
        self.leaders.setModel(self.leaders_model)
        self.leaders.verticalHeader().hide()
        self.leaders.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.leaders.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.leaders.horizontalHeader().setResizeContentsPrecision(40)  # size columns by the first rows only
        self.leaders.horizontalHeader().setStretchLastSection(True)
        self.leaders.setAccessibleName("Leaders' roll")
        leaders_layout.addWidget(self.leaders)
        right.addWidget(leaders_box)
        right.setStretchFactor(0, 3)
        right.setStretchFactor(1, 2)
        right.setStretchFactor(2, 2)
        right.setSizes([340, 240, 200])
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([700, 640])
        self.splitter = split
        outer.addWidget(split, 1)

        self.log_button.clicked.connect(self.log_battle)
        self.undo_button.clicked.connect(self.undo_newest)
        self.edit_button.clicked.connect(self.edit_selected)
        self.csv_button.clicked.connect(lambda: self.export("csv"))
        self.json_button.clicked.connect(lambda: self.export("json"))
        self.tree.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        ctx.signals.data_changed.connect(self._data_changed)
        self._update_buttons()

    # -- loading ------------------------------------------------------------------------------------------
    def show_platoon(self, platoon_id: int) -> None:
        """Show a platoon's history; read at once when visible, else when the view is next shown (e.g. the
        History tab of the platoon page is chosen)."""
        changed = platoon_id != self.platoon_id
        self.platoon_id = platoon_id
        if changed:
            self._say("")
        if self.isVisible():
            self.reload()
        else:
            self._dirty = True

    def reload(self) -> None:
        if self.platoon_id is None:
            return
        self._dirty = False
        try:
            report = battles.history_report(self.platoon_id)
        except ServiceError as exc:  # the platoon is gone
            self.report = None
            self.title.setText("History")
            self._say(str(exc), error=True)
            self.model.set_events([])
            self._update_buttons()
            return
        self.report = report
        hist = report["history"]
        p = hist["platoon"]
        self.title.setText(f"History of {p['name']} ({p['campaign']})")
        self.model.set_events(hist["events"])
        self._expand_newest()
        self.summary.setText(self._summary_html(report["summary"]))
        self.xp_chart.set_data(report["xp_series"])
        self.wounds_chart.set_data(report["wounds_series"])
        self.leaders_model.set_rows(report["leaders"])
        self._update_count()
        self._update_buttons()
        self.loaded.emit(self.platoon_id)

    def _expand_newest(self) -> None:
        """Open the newest battle to show its rolls."""
        for row in range(self.model.rowCount()):
            index = self.model.index(row, 0)
            if self.model.hasChildren(index):
                self.tree.expand(index)
                return

    @staticmethod
    def _summary_html(s: dict[str, Any]) -> str:
        leader = f", led by <b>{s['leader']}</b>" if s["leader"] else ", no leader"
        lost = (f"{s['leaders_lost']} ({s['casualties']} casualt{'y' if s['casualties'] == 1 else 'ies'}, "
                f"{s['promotions']} promoted)")
        cells = [
            ("Battles", f"{s['battles']}"),
            ("Victories / defeats / draws", f"{s['victories']} / {s['defeats']} / {s['draws']}"),
            ("Wound counters", f"{s['total_wounds']}"),
            ("XP lost to recovery", f"{s['xp_lost']}"),
            ("Leaders lost", lost),
        ]
        row = "".join(f"<td style='padding-right:18px'>{label}<br><b style='font-size:large'>{value}</b></td>"
                      for label, value in cells)
        return (f"<table><tr>{row}</tr></table>"
                f"Now: <b>{s['xp']} XP ({s['level']})</b>{leader}."
                + (f" First battle {s['first_battle']}, last {s['last_battle']}." if s["battles"] else ""))

    def _data_changed(self, kind: str, obj_id: int) -> None:
        self._say("")  # a message about an earlier step is out of date now
        if self.platoon_id is None or kind not in ("battle", "platoon", "all"):
            return
        if kind == "platoon" and obj_id not in (0, self.platoon_id):
            return
        if self.isVisible():
            self.reload()
        else:
            self._dirty = True

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._dirty:
            self.reload()

    # -- filter -------------------------------------------------------------------------------------------
    def _filter_changed(self, *_args: Any) -> None:
        kinds = {k for k, b in self.kind_buttons.items() if b.isChecked()}
        self.model.set_filter(kinds, self.search.text())
        self._expand_newest()
        self._update_count()
        self._update_buttons()

    def _update_count(self) -> None:
        total = len(self.report["history"]["events"]) if self.report else 0
        self.count.setText(f"{self.model.visible_count()} of {total} events shown")

    # -- actions ------------------------------------------------------------------------------------------
    def _say(self, text: str, error: bool = False) -> None:
        self.message.setStyleSheet("color: #b00020;" if error else "")
        self.message.setText(text)
        self.message.setVisible(bool(text))
        if text and not error:
            self.ctx.signals.status.emit(text)

    def selected_battle(self) -> dict[str, Any] | None:
        index = self.tree.currentIndex()
        if not index.isValid():
            return None
        event = self.model.battle_of(index)
        if event is None or self.report is None:
            return None
        return next((b for b in self.report["history"]["battles"] if b["id"] == event["id"]), None)

    def _update_buttons(self) -> None:
        has = self.report is not None
        has_battles = has and bool(self.report and self.report["history"]["battles"])
        self.log_button.setEnabled(has)
        self.undo_button.setEnabled(has_battles)
        self.csv_button.setEnabled(has)
        self.json_button.setEnabled(has)
        self.edit_button.setEnabled(self.selected_battle() is not None)

    def log_battle(self) -> None:
        if self.platoon_id is None:
            return
        from .battle_wizard import log_battle

        battle_id = log_battle(self.ctx, self, self.platoon_id)
        if battle_id:
            self.reload()

    def undo_newest(self) -> None:
        if self.platoon_id is None:
            return
        from .battle_wizard import push_edit

        try:
            edit = battles.undo_last_battle(self.platoon_id)
        except ServiceError as exc:
            self._say(str(exc), error=True)
            return
        s = edit.summary
        push_edit(self.ctx, edit, self.platoon_id, f"Remove battle {s['number']} of {s['platoon']['name']}")
        self.reload()
        self._say(f"Battle {s['number']} undone: platoon XP {s['platoon']['xp_before']} \u2192 "
                  f"{s['platoon']['xp_after']}. Edit \u25b8 Undo brings it back.")

    def edit_selected(self) -> BattleTextDialog | None:
        battle = self.selected_battle()
        if battle is None:
            return None
        dialog = BattleTextDialog(battle, self)
        dialog.accepted.connect(lambda: self._apply_edit(dialog))
        self.edit_dialog = dialog
        dialog.open()
        return dialog

    def _apply_edit(self, dialog: BattleTextDialog) -> None:
        from .battle_wizard import push_edit

        if self.platoon_id is None:
            return
        try:
            edit = battles.edit_battle_text(dialog.battle["id"], scenario=dialog.scenario.text(),
                                            notes=dialog.notes.toPlainText(), outcome=dialog.outcome.currentData(),
                                            reason=dialog.reason.text())
        except ServiceError as exc:
            self._say(str(exc), error=True)
            return
        push_edit(self.ctx, edit, self.platoon_id)
        self.reload()
        self._say(edit.message if edit.changed else "Nothing changed.")

    def export(self, fmt: str, path: str | Path | None = None) -> Path | None:
        if self.platoon_id is None or self.report is None:
            return None
        if path is None:
            name = _safe_file_name(self.report["history"]["platoon"]["name"])
            from .file_dialogs import ask_save_path

            filters = "CSV files (*.csv)" if fmt == "csv" else "JSON files (*.json)"
            chosen = ask_save_path(self, self.ctx.settings, f"Export the timeline as {fmt.upper()}",
                                   f"{name}-history.{fmt}", filters)
            if chosen is None:
                return None
            path = chosen
        try:
            n = battles.export_history(self.platoon_id, path, fmt)
        except ServiceError as exc:
            self._say(str(exc), error=True)
            return None
        self._say(f"Exported {n} events to {path}")
        return Path(path)

    def index_of_battle(self, battle_id: int) -> QModelIndex:
        return self.model.row_of_battle(battle_id)


__all__ = ["HistoryView", "XpChart", "WoundsChart", "BattleTextDialog", "KIND_LABELS"]
