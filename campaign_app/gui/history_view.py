"""The campaign history of a platoon (platoon page ▸ History).

- A summary line, then three tabs: **Timeline** (every battle, XP change, leader change, attribute change and
  roll, newest first, filtered by kind and searchable; each battle expands to its rolls,
  :class:`~.history_models.TimelineModel`), **Charts** (platoon and leader XP over the level bands; wound
  counters and XP lost per battle; :mod:`.history_charts`, whose QtCharts import waits until the tab is first
  shown) and the **Leaders' roll**.
- Buttons: Log battle…, Undo newest battle (its operation is undone in the journal: Edit ▸ Redo brings it
  back), Edit battle… (scenario, outcome, notes; logged), Export CSV… / Export JSON…. A fourth tab,
  **Changes**, lists the journal's operations of the platoon (:mod:`.journal_view`).

Everything comes from one ``services.history.history_report`` call (a fixed number of queries); the timeline's
text is made per painted row, the charts are filled only when shown and update their series in place.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal
from PySide6.QtGui import QFontMetrics, QPalette, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QTabWidget,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..services import authors, battles, history
from ..services.journal import OpChanges
from ..words import plural as _plural
from .context import AppContext
from .feed import ViewFeed, concerns
from .history_models import KIND_LABELS, LeadersModel, TimelineModel
from .loader import PageLoad
from .widgets import error_style

if TYPE_CHECKING:
    from ..services.history import HistoryReport
    from ..services.history_results import CampaignSummary, HistoryBattle
    from .history_charts import WoundsChart, XpChart

log = logging.getLogger(__name__)

FILTER_LABELS: dict[str, str] = {
    "battle": "Battles",
    "xp": "XP",
    "leader": "Leaders",
    "attribute": "Changes",
    "roll": "Rolls",
}
TIMELINE_TAB, CHARTS_TAB, LEADERS_TAB = range(3)


# Edit battle… (every field not from a roll) lives in battle_edit.py; the old name stays for callers
from .battle_edit import EditBattleDialog as BattleTextDialog  # noqa: E402


def _safe_file_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "platoon"


FILTER_BUTTON_STYLE = (
    "QToolButton { padding: 2px 8px; border-radius: 3px; border: 1px dashed palette(mid); "
    "color: palette(text); background: transparent; } "
    "QToolButton:checked { background: palette(highlight); color: palette(highlighted-text); "
    "border: 1px solid palette(highlight); }"
)
"""The timeline's filter buttons: on (shown) filled with the highlight colour, off (hidden) a dashed outline."""


class HistoryView(QWidget):
    """The History tab of a platoon: summary, timeline, charts, leaders' roll, export, undo, edit."""

    loaded = Signal(int)
    """Emitted after (re)loading a platoon's history (its id)."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.platoon_id: int | None = None
        self.report: HistoryReport | None = None
        self.edit_dialog: BattleTextDialog | None = None
        self._charts: tuple[XpChart, WoundsChart] | None = None
        self._charts_dirty = True
        self._timeline_dirty = False
        """The timeline model waits for its tab (a reload while the Charts tab is shown does not fill it)."""
        self._leaders_dirty = False
        """The leaders' roll waits for its tab."""
        self._changes = 0
        """Counts the app's data changes: a cached history is used only while no change was seen."""
        self._cache: dict[int, tuple[tuple[Any, ...], HistoryReport]] = {}
        """The last histories read (by platoon id), with the stamp they were read at."""
        self._use_cache = False

        outer = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        outer.addWidget(self.title)
        top = QHBoxLayout()
        self.log_button = QPushButton("Log battle\u2026")
        self.log_button.setToolTip("Log a new battle of this platoon (Ctrl+B)")
        self.undo_button = QPushButton("Undo newest battle")
        self.undo_button.setToolTip(
            "Remove the newest battle: XP, leaders and rolls return to their state "
            "before it (Edit \u25b8 Redo brings it back)"
        )
        self.edit_button = QPushButton("Edit battle\u2026")
        self.edit_button.setToolTip("Change the selected battle's scenario, outcome or notes")
        self.csv_button = QPushButton("Export CSV\u2026")
        self.json_button = QPushButton("Export JSON\u2026")
        for b in (self.log_button, self.undo_button, self.edit_button, self.csv_button, self.json_button):
            top.addWidget(b)
        top.addStretch(1)
        outer.addLayout(top)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.hide()
        outer.addWidget(self.message)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setAccessibleName("Campaign summary")
        outer.addWidget(self.summary)

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        outer.addWidget(self.tabs, 1)

        # timeline
        left = QWidget()
        left_layout = QVBoxLayout(left)
        filters = QHBoxLayout()
        filters.addWidget(QLabel("Show:"))
        self.kind_buttons: dict[str, QToolButton] = {}
        for kind, label in FILTER_LABELS.items():
            button = QToolButton()
            button.setText(label)
            button.setCheckable(True)
            button.setChecked(True)
            button.setToolTip(f"Show {label.lower()} in the timeline")
            # on and off must be told apart at a glance, light and dark: on is filled with the highlight
            # colour, off is a dashed outline
            button.setStyleSheet(FILTER_BUTTON_STYLE)
            button.toggled.connect(self._filter_changed)
            self.kind_buttons[kind] = button
            filters.addWidget(button)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search the timeline\u2026")
        self.search.setAccessibleName("Search the timeline")
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
        for col, sample, indent in ((0, "2026-12-31", 2 * self.tree.indentation()), (1, "Change", 0), (2, "#1000", 0)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            self.tree.setColumnWidth(col, fm.horizontalAdvance(sample) + indent + 24)
        left_layout.addWidget(self.tree, 1)
        self.count = QLabel()
        left_layout.addWidget(self.count)
        self.tabs.addTab(left, "Ti&meline")

        # charts: made when the tab is first shown (QtCharts is imported then)
        self.charts_area = QScrollArea()
        self.charts_area.setWidgetResizable(True)
        self.charts_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.chart_split = QSplitter(Qt.Orientation.Horizontal)
        self.chart_split.setChildrenCollapsible(False)
        self.charts_area.setWidget(self.chart_split)
        self.tabs.addTab(self.charts_area, "Cha&rts")

        # leaders' roll
        self.leaders_model = LeadersModel(self)
        self.leaders = QTableView()
        self.leaders.setModel(self.leaders_model)
        self.leaders.verticalHeader().hide()
        self.leaders.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.leaders.setAlternatingRowColors(True)
        self.leaders.setWordWrap(False)
        lh = self.leaders.horizontalHeader()
        lh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # sized from a sample, not every row
        lh.setStretchLastSection(True)
        self.leaders.setAccessibleName("Leaders' roll")
        self.tabs.addTab(self.leaders, "Lea&ders' roll")
        from .journal_view import JournalPanel

        self.changes_panel = JournalPanel(ctx, self)  # the journal's operations of this platoon
        self.tabs.addTab(self.changes_panel, "&Changes")
        self.tabs.currentChanged.connect(self._tab_changed)

        self.log_button.clicked.connect(self.log_battle)
        self.undo_button.clicked.connect(self.undo_newest)
        self.edit_button.clicked.connect(self.edit_selected)
        self.csv_button.clicked.connect(lambda: self.export("csv"))
        self.json_button.clicked.connect(lambda: self.export("json"))
        self.tree.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        ctx.signals.op_changed.connect(self._forget_cached)  # before the feed reloads
        self._cache_ok = False
        self.loading: PageLoad[int, tuple[HistoryReport, dict[int, str]]] = PageLoad(
            ctx, self._read_all, self._show_read, self._not_read, self._waiting
        )
        self.feed = ViewFeed(
            ctx,
            self,
            lambda ch: self.platoon_id is not None and concerns(ch, platoon=self.platoon_id),
            lambda: self.reload(use_cache=self._use_cache),
        )
        self._apply_palette()
        self._update_buttons()

    # -- charts (lazy) ------------------------------------------------------------------------------------
    def charts(self) -> tuple[XpChart, WoundsChart]:
        """The two charts, made on first use and filled with the current history."""
        if self._charts is None:
            from .history_charts import WoundsChart, XpChart

            xp, wounds = XpChart(), WoundsChart()
            self.chart_split.addWidget(xp)
            self.chart_split.addWidget(wounds)
            self.chart_split.setStretchFactor(0, 3)
            self.chart_split.setStretchFactor(1, 2)
            self._charts = (xp, wounds)
            self._orient_charts()
        if self._charts_dirty and self.report is not None:
            self._charts_dirty = False
            self._charts[0].set_data(self.report.xp_series)
            self._charts[1].set_data(self.report.wounds_series)
        return self._charts

    @property
    def xp_chart(self) -> XpChart:
        return self.charts()[0]

    @property
    def wounds_chart(self) -> WoundsChart:
        return self.charts()[1]

    def _tab_changed(self, index: int) -> None:
        if not self.isVisible():
            return
        if index == CHARTS_TAB:
            self.charts()
            self._orient_charts()
        elif index == TIMELINE_TAB:
            self._fill_timeline()
        elif index == LEADERS_TAB:
            self._fill_leaders()

    def _fill_timeline(self) -> None:
        """Hand the timeline model the events read last (when its tab is shown, or the model is asked for)."""
        if not self._timeline_dirty:
            return
        self._timeline_dirty = False
        self.model.set_events(self.report.history.events if self.report is not None else [])
        self._expand_newest()
        self._update_count()

    def _fill_leaders(self) -> None:
        if not self._leaders_dirty:
            return
        self._leaders_dirty = False
        self.leaders_model.set_rows(self.report.leaders if self.report is not None else [])
        self._size_leader_columns()

    def _fit_logged_by(self, loggers: dict[int, str]) -> None:
        """With the "Logged by" column, the Event column takes the spare width and "Logged by" fits the
        longest login; without it, Event is the last column and stretches."""
        header = self.tree.header()
        shown = self.model.columnCount() > TimelineModel.BY
        header.setStretchLastSection(not shown)
        if not shown:
            header.setSectionResizeMode(TimelineModel.EVENT, QHeaderView.ResizeMode.Interactive)
            return
        header.setSectionResizeMode(TimelineModel.EVENT, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(TimelineModel.BY, QHeaderView.ResizeMode.Interactive)
        bold = self.tree.font()
        bold.setBold(True)
        fm = QFontMetrics(bold)
        widest = max([fm.horizontalAdvance(who) for who in set(loggers.values())] or [0])
        title = QFontMetrics(header.font()).horizontalAdvance(TimelineModel.BY_HEADER)
        self.tree.setColumnWidth(TimelineModel.BY, min(max(widest, title) + 24, 240))

    def _orient_charts(self) -> None:
        """Side by side when both charts fit across, else one above the other (the tab scrolls if needed)."""
        if self._charts is None:
            return
        need = sum(c.minimumWidth() for c in self._charts) + self.chart_split.handleWidth() + 4
        # the area's own width less a scroll bar (its viewport is not laid out while the tab is hidden)
        width = self.charts_area.width() - self.charts_area.verticalScrollBar().sizeHint().width()
        orientation = Qt.Orientation.Horizontal if width >= need else Qt.Orientation.Vertical
        if orientation != self.chart_split.orientation():
            self.chart_split.setOrientation(orientation)
            if orientation == Qt.Orientation.Horizontal:  # the XP chart (more to show) gets the larger part
                self.chart_split.setSizes([width * 11 // 20, width * 9 // 20])

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._orient_charts()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_palette()

    def _apply_palette(self) -> None:
        dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
        self.model.set_dark(dark)
        self.leaders_model.set_dark(dark)

    def _size_leader_columns(self) -> None:
        """Column widths from the header and a sample of rows (the first and last 25), not from every row."""
        model = self.leaders_model
        fm = QFontMetrics(self.leaders.font())
        bold = self.leaders.font()
        bold.setBold(True)
        fm_bold = QFontMetrics(bold)
        rows = model.rowCount()
        sample = sorted(set(range(min(25, rows))) | set(range(max(0, rows - 25), rows)))
        header_fm = QFontMetrics(self.leaders.horizontalHeader().font())
        for col in range(model.columnCount()):
            width = header_fm.horizontalAdvance(str(model.headerData(col, Qt.Orientation.Horizontal))) + 24
            for r in sample:
                row = model.row(r)
                text = str(model.data(model.index(r, col)) or "")  # as shown (short in some columns)
                metrics = fm_bold if row.current else fm
                width = max(width, metrics.horizontalAdvance(text) + 16)
            self.leaders.setColumnWidth(col, min(width, 320))

    # -- loading ------------------------------------------------------------------------------------------
    def show_platoon(self, platoon_id: int) -> None:
        """Show a platoon's history; read at once when visible, else when the view is next shown (e.g. the
        History tab of the platoon page is chosen). Coming back to a platoon shown a moment ago, with no
        change since, uses the history read then; showing the same platoon again reads it again (Refresh)."""
        changed = platoon_id != self.platoon_id
        self.platoon_id = platoon_id
        self.changes_panel.show_platoon(platoon_id)
        self._use_cache = changed
        if changed:
            self._say("")
        self.feed.refresh()

    CACHE_SIZE = 4

    def _stamp(self) -> tuple[Any, ...]:
        """What a cached history must still match: this app's changes seen, the open database, and SQLite's
        data_version (it moves when another program, e.g. campaign-cli, commits to the file)."""
        from ..store.opened import data_stamp

        return (self._changes, data_stamp())

    def _read(self, platoon_id: int) -> HistoryReport:
        cached = self._cache.get(platoon_id)
        if cached is not None and cached[0] == self._stamp():
            return cached[1]
        return self._read_fresh(platoon_id)

    def _read_fresh(self, platoon_id: int) -> HistoryReport:
        stamp = self._stamp()
        report = history.history_report(platoon_id, lazy_text=True)
        self._cache.pop(platoon_id, None)
        self._cache[platoon_id] = (stamp, report)
        while len(self._cache) > self.CACHE_SIZE:
            self._cache.pop(next(iter(self._cache)))
        return report

    def reload(self, use_cache: bool = False) -> None:
        """Read the platoon's history again (``use_cache``: unless it was read since the last change). On a
        club server the read runs off the GUI thread (:mod:`.loader`): a platoon shown before shows its history
        at once and the fresh one when it comes."""
        if self.platoon_id is None:
            return
        self.feed.dirty = False
        self._cache_ok = use_cache
        self.loading.request(self.platoon_id)

    def _read_all(self, platoon_id: int) -> tuple[HistoryReport, dict[int, str]]:
        """The history and who logged each battle (plain data; on a server this runs on the worker)."""
        if self.ctx.server is not None:  # the page load keeps the last answers; a stamp would cost a round trip
            report = history.history_report(platoon_id, lazy_text=True)
        else:
            report = self._read(platoon_id) if self._cache_ok else self._read_fresh(platoon_id)
        return report, authors.battle_loggers(platoon_id)

    def _not_read(self, _platoon_id: int, exc: Exception) -> None:
        if not isinstance(exc, CampaignError):
            raise exc
        self.report = None
        self.title.setText("History")
        self._say(str(exc), error=True)
        self._timeline_dirty = self._leaders_dirty = False
        self.model.set_events([])
        self.leaders_model.set_rows([])
        self._update_count()
        self._update_buttons()

    def _waiting(self, waiting: bool) -> None:
        if waiting:
            self.title.setText("History")
            self.summary.setText("Reading the history from the club server\u2026")

    def _show_read(self, platoon_id: int, data: tuple[HistoryReport, dict[int, str]]) -> None:
        report, loggers = data
        self.report = report
        # who logged each battle: on a club server (or a file several logins wrote to) on the battle's line
        from ..store.opened import Capability, can

        self.model.set_loggers(loggers, can(Capability.SEVERAL_LOGINS) or len(set(loggers.values())) > 1)
        self._fit_logged_by(loggers)
        summary = report.summary  # the timeline is put in order only if its tab is shown
        self.title.setText(f"History of {summary.platoon} ({summary.campaign})")
        self.summary.setText(self._summary_html(summary))
        # each tab is filled when it is shown: the timeline, the charts (in place) and the leaders' roll
        self._timeline_dirty = self._charts_dirty = self._leaders_dirty = True
        tab = self.tabs.currentIndex()
        if tab == TIMELINE_TAB:
            self._fill_timeline()
        elif tab == CHARTS_TAB and self.isVisible():
            self.charts()
        elif tab == LEADERS_TAB:
            self._fill_leaders()
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
    def _summary_html(s: CampaignSummary) -> str:
        """One or two lines: battles and outcomes, wounds, XP lost, leaders lost, XP and leader now."""
        leader = f", led by <b>{s.leader}</b>" if s.leader else ", no leader"
        if s.battles:
            outcomes = [
                _plural(s.victories, "victory", "victories"),
                _plural(s.defeats, "defeat"),
                _plural(s.draws, "draw"),
            ]
            if s.unrecorded:
                outcomes.append(f"{s.unrecorded} not recorded")
            bits = [
                f"<b>{_plural(s.battles, 'battle')}</b> ({', '.join(outcomes)}, {s.first_battle} to {s.last_battle})",
                f"<b>{_plural(s.total_wounds, 'wound counter')}</b>",
                f"<b>{s.xp_lost} XP</b> lost to recovery",
                f"<b>{_plural(s.leaders_lost, 'leader')}</b> lost "
                f"({_plural(s.casualties, 'casualty', 'casualties')}, {s.promotions} promoted)",
            ]
        else:
            bits = ["No battles yet"]
        return " \u00b7 ".join(bits) + f" \u00b7 Now <b>{s.xp}\u00a0XP\u00a0({s.level})</b>{leader}."

    def _forget_cached(self, _changes: OpChanges) -> None:
        self._changes += 1  # any change: cached histories are read again
        self._say("")  # a message about an earlier step is out of date now

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)  # the feed has reloaded what changed while hidden
        if self.tabs.currentIndex() == CHARTS_TAB:
            self.charts()

    # -- filter -------------------------------------------------------------------------------------------
    def _filter_changed(self, *_args: Any) -> None:
        kinds = {k for k, b in self.kind_buttons.items() if b.isChecked()}
        if self._timeline_dirty:
            self.model.set_filter(kinds, self.search.text(), rebuild=False)
            self._fill_timeline()  # with the new filter
            self._update_buttons()
            return
        self.model.set_filter(kinds, self.search.text())
        self._expand_newest()
        self._update_count()
        self._update_buttons()

    def _update_count(self) -> None:
        total = len(self.report.history.events) if self.report else 0
        self.count.setText(f"{self.model.visible_count()} of {total} events shown")

    # -- actions ------------------------------------------------------------------------------------------
    def _say(self, text: str, error: bool = False) -> None:
        self.message.setStyleSheet(error_style(self.message) if error else "")
        self.message.setText(text)
        self.message.setVisible(bool(text))
        if text and not error:
            self.ctx.signals.status.emit(text)

    def selected_battle(self) -> HistoryBattle | None:
        self._fill_timeline()
        index = self.tree.currentIndex()
        if not index.isValid():
            return None
        event = self.model.battle_of(index)
        if event is None or self.report is None:
            return None
        battles = self.report.history.battles
        if isinstance(battles, history.Battles):
            return battles.by_id(event.id)
        return next((b for b in battles if b.id == event.id), None)

    def _update_buttons(self) -> None:
        has = self.report is not None
        has_battles = self.report is not None and self.report.summary.battles > 0
        self.log_button.setEnabled(has)
        self.undo_button.setEnabled(has_battles)
        self.csv_button.setEnabled(has)
        self.json_button.setEnabled(has)
        # a timeline that waits for its tab has no selection (its model is reset when it is filled)
        self.edit_button.setEnabled(not self._timeline_dirty and self.selected_battle() is not None)

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
        except CampaignError as exc:
            self._say(str(exc), error=True)
            return
        s = edit.result
        push_edit(self.ctx, edit, self.platoon_id, f"Remove battle {s.number} of {s.platoon.name}")
        self.reload()
        self._say(
            f"Battle {s.number} undone: platoon XP {s.platoon.xp_before} \u2192 "
            f"{s.platoon.xp_after}. Edit \u25b8 Redo brings it back."
        )

    def edit_selected(self) -> BattleTextDialog | None:
        battle = self.selected_battle()
        if battle is None:
            return None
        dialog = BattleTextDialog(battle, self.platoon_id, self)
        dialog.accepted.connect(lambda: self._apply_edit(dialog))
        self.edit_dialog = dialog
        dialog.open()
        return dialog

    def _apply_edit(self, dialog: BattleTextDialog) -> None:
        """The dialog made the change (a refusal keeps it open with the reason): put it on the undo stack."""
        from .battle_wizard import push_edit

        edit = dialog.edit
        if self.platoon_id is None or edit is None:
            return
        push_edit(self.ctx, edit, self.platoon_id)
        self.reload()
        self._say(edit.message if edit.changed else "Nothing changed.")

    def export(self, fmt: str, path: str | Path | None = None) -> Path | None:
        if self.platoon_id is None or self.report is None:
            return None
        if path is None:
            name = _safe_file_name(self.report.summary.platoon)
            from .file_dialogs import ask_save_path

            filters = "CSV files (*.csv)" if fmt == "csv" else "JSON files (*.json)"
            chosen = ask_save_path(
                self, self.ctx.settings, f"Export the timeline as {fmt.upper()}", f"{name}-history.{fmt}", filters
            )
            if chosen is None:
                return None
            path = chosen
        try:
            n = history.export_history(self.platoon_id, path, fmt)
        except CampaignError as exc:
            self._say(str(exc), error=True)
            return None
        self._say(f"Exported {n} events to {path}")
        return Path(path)

    def index_of_battle(self, battle_id: int) -> QModelIndex:
        self._fill_timeline()
        return self.model.row_of_battle(battle_id)


__all__ = ["HistoryView", "BattleTextDialog", "KIND_LABELS"]
