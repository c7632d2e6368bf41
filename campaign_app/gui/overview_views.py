"""The campaign page's Standings, Chronicle and Statistics tabs. Thin views over
``services.standings``, ``services.chronicle`` and ``services.statistics``: each reads its service when shown
(and again after a change while shown), its tables sort by any column (numbers as numbers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QDate, QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDateEdit,
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
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..services import chronicle as chronicle_service
from ..services import standings as standings_service
from ..services.chronicle import ChronicleItem
from ..services.edits import Edit
from ..services.standings import HeadToHead, PilotStanding, PlatoonStanding
from .context import AppContext
from .feed import ViewFeed, concerns
from .loader import PageLoad
from .roster_models import ID_ROLE, Column, RowsModel, fit_columns
from .undo_commands import ServiceArgs, perform, perform_later
from .widgets import ErrorLabel, confirm, date_of

SORT_ROLE = Qt.ItemDataRole.EditRole
"""The proxies sort by each column's value (numbers as numbers), not by its text."""


# ------------------------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class RankedPlatoon:
    rank: int
    row: PlatoonStanding

    @property
    def id(self) -> int:
        return self.row.platoon_id

    def __getattr__(self, name: str) -> Any:
        return getattr(self.row, name)


def _col(key: str, header: str, tip: str = "") -> Column[Any]:
    return Column[Any](key, header, tip=tip)


class StandingsModel(RowsModel[Any]):
    COLUMNS = (
        _col("rank", "#", "Place in the standings (RULES §6)"),
        _col("platoon", "Platoon"),
        _col("owner", "Player", "The login that owns the platoon (club server)"),
        _col("battles", "Battles"),
        _col("victories", "Won"),
        _col("draws", "Drawn"),
        _col("defeats", "Lost"),
        _col("objective_xp", "Obj. XP", "XP earned by objectives met (+1 hard, +2 near-impossible)"),
        _col("wounds", "Wounds", "Wound counters suffered"),
        _col("xp_lost", "XP lost", "XP lost to recovery rolls"),
        _col("leaders_lost", "Leaders lost", "Leaders lost as casualties or promoted away"),
        _col("xp", "XP", "Current XP"),
        _col("level", "Level"),
    )


@dataclass(frozen=True)
class PairRow:
    index: int
    pair: HeadToHead

    @property
    def id(self) -> int:
        return self.index

    @property
    def names(self) -> str:
        return " \u2013 ".join(self.pair.platoons)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pair, name)


def _disputed_text(row: PairRow) -> str:
    return f"\u26a0 {row.pair.disagreements}" if row.pair.disagreements else ""


class HeadToHeadModel(RowsModel[Any]):
    COLUMNS = (
        Column[Any]("names", "Pair (A \u2013 B)"),
        _col("a_victories", "A won"),
        _col("b_victories", "B won"),
        _col("draws", "Draws"),
        Column[Any](
            "disagreements",
            "Disputed",
            _disputed_text,
            tip="Games whose two logged results cannot both be true: shown, never settled by the app",
        ),
    )

    def tooltip(self, row: Any, col: Column[Any]) -> str | None:
        pair: HeadToHead = row.pair
        if not pair.games:
            return None
        a, b = pair.platoons
        return "Disputed games:\n" + "\n".join(g.text(a, b) for g in pair.games)


@dataclass(frozen=True)
class PilotRow:
    row: PilotStanding

    @property
    def id(self) -> int:
        return self.row.sheet_id

    def __getattr__(self, name: str) -> Any:
        return getattr(self.row, name)


def _noticed(r: Any) -> str:
    return "\u2013" if r.noticed is None else ("yes" if r.noticed else "no")


class PilotsModel(RowsModel[Any]):
    COLUMNS = (
        _col("pilot", "Pilot"),
        _col("turns", "Turns"),
        Column[Any]("recognition", "Recognition", lambda r: "\u2013" if r.recognition is None else str(r.recognition)),
        Column[Any]("noticed", "Noticed", _noticed),
        Column[Any](
            "result", "Reward or punishment", lambda r: f"{r.result}: {r.outcome}" if r.result else "not reckoned yet"
        ),
    )


def sortable_table(model: RowsModel[Any], name: str, parent: QWidget) -> tuple[QTableView, QSortFilterProxyModel]:
    proxy = QSortFilterProxyModel(parent)
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    proxy.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    view = QTableView(parent)
    view.setModel(proxy)
    view.setAccessibleName(name)
    view.setSortingEnabled(True)
    view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the service's order (the ranking) until a click
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setTabKeyNavigation(False)
    view.verticalHeader().hide()
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    return view, proxy


def fit_height(view: QTableView, rows: int, at_least: int = 3) -> None:
    """A short table is only as tall as its rows (the room below goes to the next table); a long one scrolls."""
    height = view.horizontalHeader().sizeHint().height() + 2 * view.frameWidth() + 2
    height += view.verticalHeader().defaultSectionSize() * max(rows, at_least)
    view.setMaximumHeight(height)


class _LazyView(QWidget):
    """A tab that reads its service when shown, and again after a change of its campaign while shown. It reads
    through a :class:`~.loader.PageLoad`: ``query()`` says what to read from what the tab shows (its campaign,
    its filters), ``read(key)`` reads it (off the event loop on a club server) and ``fill(data)`` shows it."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.cid: int | None = None
        self.feed = ViewFeed(
            ctx, self, lambda ch: self.cid is not None and concerns(ch, campaign=self.cid), self.reload
        )
        self.shown_cid: int | None = None
        """The campaign whose data the tab shows."""
        self.loading: PageLoad[Any, Any] = PageLoad(ctx, self.read, self._answered, self._failed, self._waiting)

    def show_campaign(self, campaign_id: int) -> None:
        self.cid = campaign_id
        self.feed.refresh()

    def reload(self) -> None:
        self.feed.dirty = False
        if self.cid is not None:
            self.loading.request(self.query())

    def load(self) -> None:
        """Read again now (the same as a change of the campaign would)."""
        self.reload()

    def _answered(self, _key: Any, data: Any) -> None:
        self.shown_cid = self.cid
        self.fill(data)

    def _waiting(self, waiting: bool) -> None:
        # another search or filter of the campaign shown keeps the tab usable (the field being typed in keeps
        # the keyboard); another campaign waits greyed
        self.waiting(waiting and self.shown_cid != self.cid)

    def waiting(self, waiting: bool) -> None:
        """On a club server, while a campaign never shown is read: the tab is greyed (nothing of another
        campaign can be clicked meanwhile)."""
        self.setEnabled(not waiting)

    def _failed(self, _key: Any, exc: Exception) -> None:
        if not isinstance(exc, CampaignError):
            raise exc
        self.show_problem(str(exc))

    def query(self) -> Any:
        return self.cid

    def read(self, key: Any) -> Any:
        raise NotImplementedError

    def fill(self, data: Any) -> None:
        raise NotImplementedError

    def show_problem(self, text: str) -> None:
        self.ctx.signals.status.emit(text)


class StandingsView(_LazyView):
    """The Standings tab: the league table, head to head, the pilots; Print standings…"""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.result: standings_service.Standings | None = None
        self.intro = QLabel(
            "Ranked by victories, then victories \u2212 defeats, then current XP, then name "
            "(RULES \u00a76). Click a column to sort by it.",
            self,
        )
        self.intro.setWordWrap(True)
        self.model = StandingsModel(self)
        self.view, self.proxy = sortable_table(self.model, "Standings", self)
        self.view.activated.connect(self._open)
        self.pairs_box = QGroupBox("Head to head", self)
        self.pairs_model = HeadToHeadModel(self)
        self.pairs_view, self.pairs_proxy = sortable_table(self.pairs_model, "Head to head", self.pairs_box)
        self.disputes = QLabel(self.pairs_box)
        self.disputes.setWordWrap(True)
        self.disputes.setAccessibleName("Disputed games")
        self.disputes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        pairs = QVBoxLayout(self.pairs_box)
        pairs_intro = QLabel(
            "Battles that name another platoon of the campaign as the opponent, each side's own "
            "logged result (the two logs of a game: the same date). A pair whose results disagree "
            "is marked \u26a0.",
            self.pairs_box,
        )
        pairs_intro.setWordWrap(True)
        pairs.addWidget(pairs_intro)
        pairs.addWidget(self.pairs_view, 1)
        pairs.addWidget(self.disputes)
        self.pilots_box = QGroupBox("Pilots", self)
        self.pilots_model = PilotsModel(self)
        self.pilots_view, _p = sortable_table(self.pilots_model, "Pilots", self.pilots_box)
        QVBoxLayout(self.pilots_box).addWidget(self.pilots_view)
        self.empty = QLabel(self.NOTHING, self)
        self.print_button = QPushButton("&Print standings\u2026", self)
        self.print_button.setToolTip("One page: the table, head to head and the pilots (File \u25b8 Print)")
        self.print_button.clicked.connect(self.print_standings)
        row = QHBoxLayout()
        row.addWidget(self.intro, 1)
        row.addWidget(self.print_button, 0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        lay = QVBoxLayout(self)
        lay.addLayout(row)
        lay.addWidget(self.empty)
        lay.addWidget(self.view, 1)
        lay.addWidget(self.pairs_box, 2)
        lay.addWidget(self.pilots_box, 0)
        lay.addStretch(0)  # takes the room below short tables when there is no head to head
        self.main_layout = lay

    NOTHING = "Nothing to rank yet: log battles of the campaign's platoons."

    def waiting(self, waiting: bool) -> None:
        super().waiting(waiting)
        if waiting:  # not "nothing to rank" before the server said so
            for box in (self.view, self.intro, self.pairs_box, self.pilots_box):
                box.hide()
            self.empty.setText("Reading the standings from the club server\u2026")
            self.empty.show()

    def read(self, key: Any) -> standings_service.Standings:
        return standings_service.standings(key)

    def fill(self, s: standings_service.Standings) -> None:
        self.result = s
        self.empty.setText(self.NOTHING)
        self.model.set_rows([RankedPlatoon(i, p) for i, p in enumerate(s.platoons, start=1)])
        self.view.setColumnHidden(2, not s.on_server)
        fit_columns(self.view, self.model, stretch=1)
        fit_height(self.view, len(s.platoons))
        self.pairs_model.set_rows([PairRow(i, h) for i, h in enumerate(s.head_to_head)])
        fit_columns(self.pairs_view, self.pairs_model, stretch=0)
        disputed = [h for h in s.head_to_head if h.disagreements]
        self.disputes.setVisible(bool(disputed))
        self.disputes.setText(
            "\u26a0 Disputed: "
            + "; ".join(g.text(*h.platoons) for h in disputed for g in h.games)
            + ". Correct one side's battle "
            "(Edit battle on its History tab) to settle it."
            if disputed
            else ""
        )
        self.pilots_model.set_rows([PilotRow(p) for p in s.pilots])
        fit_columns(self.pilots_view, self.pilots_model, stretch=0)
        fit_height(self.pilots_view, len(s.pilots))
        has_platoons = bool(s.platoons)
        self.view.setVisible(has_platoons or not s.pilots)
        self.intro.setVisible(has_platoons)
        self.pairs_box.setVisible(bool(s.head_to_head))
        self.pilots_box.setVisible(bool(s.pilots))
        self.empty.setVisible(not has_platoons and not s.pilots)
        self.main_layout.setStretch(self.main_layout.count() - 1, 0 if s.head_to_head else 1)

    def _open(self, index: QModelIndex) -> None:
        pid = self.proxy.mapToSource(index).data(ID_ROLE)
        if pid is not None:
            self.ctx.signals.open_item.emit("platoon", int(pid))

    def print_standings(self) -> None:
        from .print_dialog import open_print_dialog

        open_print_dialog(self.ctx, self.window(), {"kind": "campaign", "id": self.cid, "print": "standings"})


# ------------------------------------------------------------------------------------------- chronicle

KIND_MARK = {"battle": "\u2694", "entry": "\u25a0", "turn": "\u25b8"}


class ChronicleModel(RowsModel[Any]):
    COLUMNS = (
        _col("date", "Date"),
        Column[Any]("kind", "", lambda r: KIND_MARK.get(r.kind, "")),
        _col("who", "Platoon"),
        _col("headline", "What happened"),
    )

    def set_rows(self, rows: Any) -> None:
        super().set_rows([_Keyed(r) for r in rows])

    def tooltip(self, row: Any, col: Column[Any]) -> str | None:
        return "\n".join(x for x in (row.aftermath, row.report) if x) or None


@dataclass(frozen=True)
class _Keyed:
    item: ChronicleItem

    @property
    def id(self) -> int:
        return hash(self.item.key) & 0x7FFFFFFF

    def __getattr__(self, name: str) -> Any:
        return getattr(self.item, name)


class EntryDialog(QDialog):
    """A campaign entry: date, title, text."""

    def __init__(self, parent: QWidget | None, title: str = "", text: str = "", date: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Campaign entry")
        self.date = QDateEdit(self)
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.date.setDate(QDate.fromString(date, "yyyy-MM-dd") if date else QDate.currentDate())
        self.title = QLineEdit(title, self)
        self.title.setPlaceholderText("e.g. Season 2 begins")
        self.text = QPlainTextEdit(text, self)
        self.message = ErrorLabel(self)
        form = QFormLayout(self)
        form.addRow("&Date:", self.date)
        form.addRow("&Title:", self.title)
        form.addRow("Te&xt:", self.text)
        form.addRow(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.resize(520, 360)

    def values(self) -> dict[str, Any]:
        return {
            "title": self.title.text(),
            "text": self.text.toPlainText(),
            "date": date_of(self.date.date()),
        }


class ChronicleView(_LazyView):
    """The Chronicle tab: every battle, turn and entry in campaign time; filter by platoon, search; the selected
    item's story below; add, change and remove entries; write a battle's after-action report."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.items: list[ChronicleItem] = []
        self.platoon_filter = QComboBox(self)
        self.platoon_filter.setAccessibleName("Show the battles of")
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search the chronicle")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search the chronicle")
        self.add_button = QPushButton("&New entry\u2026", self)
        self.edit_button = QPushButton("Chan&ge\u2026", self)
        self.remove_button = QPushButton("&Remove entry", self)
        self.print_button = QPushButton("&Print chronicle\u2026", self)
        top = QHBoxLayout()
        show = QLabel("Sho&w:", self)
        show.setBuddy(self.platoon_filter)
        top.addWidget(show)
        top.addWidget(self.platoon_filter)
        top.addWidget(self.search, 1)
        top.addWidget(self.add_button)
        top.addWidget(self.edit_button)
        top.addWidget(self.remove_button)
        top.addWidget(self.print_button)
        self.model = ChronicleModel(self)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.setAccessibleName("Chronicle")
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setTabKeyNavigation(False)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.story = QTextBrowser(self)
        self.story.setAccessibleName("The story")
        self.story.setOpenLinks(False)
        self.count = QLabel(self)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.view, 3)
        lay.addWidget(self.count)
        lay.addWidget(self.story, 2)
        self.platoon_filter.currentIndexChanged.connect(lambda _i: self.reload())
        self.search.textChanged.connect(lambda _t: self.reload())
        self.view.selectionModel().selectionChanged.connect(lambda *_a: self._selected_changed())
        self.view.activated.connect(lambda _i: self.change_selected())
        self.add_button.clicked.connect(self.new_entry)
        self.edit_button.clicked.connect(self.change_selected)
        self.remove_button.clicked.connect(self.remove_selected)
        self.print_button.clicked.connect(self.print_chronicle)

    def show_campaign(self, campaign_id: int) -> None:
        if campaign_id != self.cid:
            self.platoon_filter.blockSignals(True)
            self.platoon_filter.clear()
            self.platoon_filter.blockSignals(False)
            self.search.blockSignals(True)
            self.search.clear()
            self.search.blockSignals(False)
        super().show_campaign(campaign_id)

    def query(self) -> tuple[int | None, str | None, str | None]:
        return self.cid, self.platoon_filter.currentData() or None, self.search.text() or None

    def read(self, key: tuple[int, str | None, str | None]) -> Any:
        cid, chosen, search = key
        return chronicle_service.chronicle(cid, platoon=chosen, search=search)

    def fill(self, story: Any) -> None:
        chosen = self.platoon_filter.currentData()
        self.platoon_filter.blockSignals(True)
        names = ["", *story.platoons]
        if [self.platoon_filter.itemData(i) for i in range(self.platoon_filter.count())] != names:
            self.platoon_filter.clear()
            self.platoon_filter.addItem("Everything", "")
            for name in story.platoons:
                self.platoon_filter.addItem(name, name)
            self.platoon_filter.setCurrentIndex(max(0, self.platoon_filter.findData(chosen or "")))
        self.platoon_filter.blockSignals(False)
        keep = self._selected()
        self.items = list(story.items)
        self.model.set_rows(self.items)
        fit_columns(self.view, self.model, stretch=3)
        n = len(self.items)
        self.count.setText(f"{n} item{'s' if n != 1 else ''}" + (" found" if self.search.text() else ""))
        if keep is not None:
            for row, item in enumerate(self.items):
                if item.key == keep.key:
                    self.view.selectRow(row)
                    break
        self._selected_changed()

    def _selected(self) -> ChronicleItem | None:
        rows = self.view.selectionModel().selectedRows() if self.view.selectionModel() else []
        if not rows or rows[0].row() >= len(self.items):
            return None
        return self.items[rows[0].row()]

    def _selected_changed(self) -> None:
        item = self._selected()
        self.edit_button.setEnabled(item is not None and item.kind in ("entry", "battle"))
        self.edit_button.setText("Rep&ort\u2026" if item is not None and item.kind == "battle" else "Chan&ge\u2026")
        self.remove_button.setEnabled(item is not None and item.kind == "entry")
        if item is None:
            self.story.setPlainText(
                "Select a line to read its story."
                if self.items
                else "Nothing yet: log a battle, or write the first entry (New entry\u2026)."
            )
            return
        from html import escape

        parts = [f"<h3>{escape(item.date)} \u00b7 {escape(item.headline)}</h3>"]
        if item.aftermath:
            parts.append(f"<p><i>{escape(item.aftermath)}</i></p>")
        if item.report:
            label = "After-action report" if item.kind == "battle" else ""
            parts.append(
                (f"<p><b>{label}</b></p>" if label else "")
                + "".join(f"<p>{escape(p)}</p>" for p in item.report.split("\n\n"))
            )
        elif item.kind == "battle":
            parts.append("<p>No after-action report yet: Report\u2026 writes one.</p>")
        self.story.setHtml("".join(parts))

    # --- writing -------------------------------------------------------------------------------------------
    def _run(
        self, service: Callable[ServiceArgs, Edit[Any]], /, *args: ServiceArgs.args, **kwargs: ServiceArgs.kwargs
    ) -> bool:
        refusals: list[CampaignError] = []

        def refused(exc: CampaignError) -> None:
            refusals.append(exc)
            self.ctx.signals.status.emit(str(exc))

        perform_later(self.ctx, None, refused, service, *args, **kwargs)  # on a server: off the event loop
        return not refusals

    def new_entry(self) -> None:
        if self.cid is None:
            return
        dialog = EntryDialog(self)
        while dialog.exec():
            try:
                perform(self.ctx, chronicle_service.add_entry, self.cid, **dialog.values())
                break
            except CampaignError as exc:
                dialog.message.show_problem(str(exc))
        dialog.deleteLater()

    def change_selected(self) -> None:
        item = self._selected()
        if item is None:
            return
        if item.kind == "battle":
            self._write_report(item)
            return
        if item.kind != "entry":
            return
        dialog = EntryDialog(self, item.headline, item.report, item.date)
        while dialog.exec():
            try:
                perform(self.ctx, chronicle_service.edit_entry, item.id, **dialog.values())
                break
            except CampaignError as exc:
                dialog.message.show_problem(str(exc))
        dialog.deleteLater()

    def _write_report(self, item: ChronicleItem) -> None:
        dialog = QDialog(self)
        dialog.setWindowTitle(f"After-action report: {item.headline}")
        text = QPlainTextEdit(item.report, dialog)
        text.setAccessibleName("After-action report")
        message = ErrorLabel(dialog)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, dialog
        )
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        lay = QVBoxLayout(dialog)
        lay.addWidget(QLabel(f"{item.date} \u00b7 {item.headline}\n{item.aftermath}", dialog))
        lay.addWidget(text, 1)
        lay.addWidget(message)
        lay.addWidget(buttons)
        dialog.resize(560, 380)
        while dialog.exec():
            try:
                perform(self.ctx, chronicle_service.set_report, item.id, text.toPlainText())
                break
            except CampaignError as exc:
                message.show_problem(str(exc))
        dialog.deleteLater()

    def remove_selected(self) -> None:
        item = self._selected()
        if item is None or item.kind != "entry":
            return
        if confirm(
            self,
            "Remove entry",
            f"Remove the entry \u201c{item.headline}\u201d?\nEdit \u25b8 Undo brings it back.",
            yes="Remove",
        ):
            self._run(chronicle_service.remove_entry, item.id)

    def print_chronicle(self) -> None:
        from .print_dialog import open_print_dialog

        open_print_dialog(self.ctx, self.window(), {"kind": "campaign", "id": self.cid, "print": "chronicle"})


# ------------------------------------------------------------------------------------------ statistics


def _pct(x: float | None) -> str:
    return "\u2013" if x is None else f"{100 * x:.0f} %"


def _avg(x: float | None) -> str:
    return "\u2013" if x is None else f"{x:.1f}"


@dataclass(frozen=True)
class _Row:
    index: int
    row: Any

    @property
    def id(self) -> int:
        return self.index

    def __getattr__(self, name: str) -> Any:
        return getattr(self.row, name)


_RECORD_COLUMNS: tuple[Column[Any], ...] = (
    _col("battles", "Battles"),
    Column[Any]("win_rate", "Win rate", lambda r: _pct(r.win_rate), tip="Victories per battle"),
    Column[Any](
        "average_wounds",
        "Wounds / battle",
        lambda r: _avg(r.average_wounds),
        tip="Average wound counters suffered per battle",
    ),
    _col("xp_lost", "XP lost", "XP lost to recovery rolls"),
    _col("leaders_lost", "Leaders lost", "Leaders lost as casualties or promoted away"),
)


class PlatoonStatsModel(RowsModel[Any]):
    COLUMNS = (_col("campaign", "Campaign"), _col("platoon", "Platoon"), *_RECORD_COLUMNS)


class LeaderStatsModel(RowsModel[Any]):
    COLUMNS = (
        _col("leader", "Leader"),
        _col("platoon", "Platoon"),
        _col("campaign", "Campaign"),
        _col("status", "Now"),
        *_RECORD_COLUMNS[:3],
    )


class PlayerStatsModel(RowsModel[Any]):
    COLUMNS = (_col("player", "Player"), _col("platoons", "Platoons"), *_RECORD_COLUMNS)


def _source(r: Any) -> str:
    from ..services.statistics import SOURCE_WORDS

    return SOURCE_WORDS.get(str(r.source), str(r.source))


def _purpose(r: Any) -> str:
    from ..rules.codes import purpose_text

    return "every roll" if r.purpose == "all" else purpose_text(r.purpose)


class LuckModel(RowsModel[Any]):
    COLUMNS = (
        Column[Any]("source", "Dice", _source),
        Column[Any]("purpose", "Rolls of", _purpose),
        _col("rolls", "Rolls"),
        Column[Any](
            "mean_percentile",
            "Mean percentile",
            lambda r: "\u2013" if r.mean_percentile is None else f"{r.mean_percentile:.1f}",
            tip="Where the rolls fell in their dice's distribution, on average: 50 is exactly average "
            "luck, higher is luckier high rolls",
        ),
    )


class OutcomeModel(RowsModel[Any]):
    COLUMNS = (
        Column[Any]("source", "Dice", _source),
        _col("roll", "Roll"),
        _col("outcome", "Outcome"),
        Column[Any]("observed", "Happened", lambda r: f"{r.observed:g}"),
        Column[Any](
            "expected", "Expected", lambda r: f"{r.expected:.2f}", tip="The sum of each battle's exact odds (RULES 1.2)"
        ),
    )


class StatisticsView(_LazyView):
    """The Statistics tab: this campaign's or every campaign's platoons, leaders, players (club server) and luck."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        from PySide6.QtWidgets import QTabWidget

        self.scope = QComboBox(self)
        self.scope.setAccessibleName("Statistics of")
        self.scope.addItem("This campaign", "campaign")
        self.scope.addItem("Every campaign", "all")
        self.scope.currentIndexChanged.connect(lambda _i: self.reload())
        top = QHBoxLayout()
        label = QLabel("Statistics &of:", self)
        label.setBuddy(self.scope)
        top.addWidget(label)
        top.addWidget(self.scope)
        top.addStretch(1)
        self.inner = QTabWidget(self)
        self.platoons_model = PlatoonStatsModel(self)
        self.platoons_view, _a = sortable_table(self.platoons_model, "Platoon statistics", self)
        self.leaders_model = LeaderStatsModel(self)
        self.leaders_view, _b = sortable_table(self.leaders_model, "Leader statistics", self)
        self.players_model = PlayerStatsModel(self)
        self.players_view, _c = sortable_table(self.players_model, "Player statistics", self)
        luck = QWidget(self)
        self.luck_words = QLabel(luck)
        self.luck_words.setWordWrap(True)
        self.luck_words.setAccessibleName("Luck in words")
        self.luck_model = LuckModel(self)
        self.luck_view, _d = sortable_table(self.luck_model, "Luck by roll", luck)
        self.outcome_model = OutcomeModel(self)
        self.outcome_view, _e = sortable_table(self.outcome_model, "Outcomes against the odds", luck)
        ll = QVBoxLayout(luck)
        ll.addWidget(self.luck_words)
        ll.addWidget(self.luck_view, 1)
        ll.addWidget(QLabel("Outcomes against their exact odds:", luck))
        ll.addWidget(self.outcome_view, 1)
        self.inner.addTab(self.platoons_view, "Platoons")
        self.inner.addTab(self.leaders_view, "Leaders")
        self.players_index = self.inner.addTab(self.players_view, "Players")
        self.inner.addTab(luck, "Luck")
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.inner, 1)

    def query(self) -> tuple[int | None, bool]:
        return self.cid, self.scope.currentData() == "all"

    def read(self, key: tuple[int | None, bool]) -> Any:
        from ..services.statistics import statistics

        cid, every = key
        return every, statistics(None if every else cid)

    def fill(self, data: Any) -> None:
        from ..services.statistics import luck_words

        every, s = data
        for model, view, rows, stretch in (
            (self.platoons_model, self.platoons_view, s.platoons, 1),
            (self.leaders_model, self.leaders_view, s.leaders, 0),
            (self.players_model, self.players_view, s.players, 0),
            (self.luck_model, self.luck_view, s.luck, 1),
            (self.outcome_model, self.outcome_view, s.outcomes, 2),
        ):
            model.set_rows([_Row(i, r) for i, r in enumerate(rows)])
            fit_columns(view, model, stretch=stretch)
        self.inner.setTabVisible(self.players_index, bool(s.players))
        self.platoons_view.setColumnHidden(0, not every)
        overall = [luck_words(r) for r in s.luck if r.purpose == "all"]
        self.luck_words.setText(("; ".join(overall) + ".") if overall else "No rolls yet.")
