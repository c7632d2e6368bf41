"""Qt item models of the battle wizard and the history view: thin models over the plain data of
``services.history`` and ``services.battles`` (no queries here).

- :class:`TimelineModel`: the timeline as a two-level tree: events newest first; a battle's rolls are its
  children. Filtered by kind and by a search text; when battles are hidden but rolls are shown, a battle's
  rolls appear at the top level instead.
- :class:`LeadersModel`: the leaders' roll.
- :class:`RollsModel`: the rolls made so far in the wizard (or of one battle).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypeVar

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from ..rules.codes import purpose_text, rule_text
from ..rules.enums import LeaderFate
from ..services.history_results import BattleEvent, HistoryLeader, RollEvent, TimelineEvent
from .table_model import TableModel

Index = QModelIndex | QPersistentModelIndex

EVENT_ROLE = Qt.ItemDataRole.UserRole
"""The event (or row) behind an index."""
KIND_LABELS: dict[str, str] = {
    "battle": "Battle",
    "xp": "XP",
    "leader": "Leader",
    "attribute": "Change",
    "roll": "Roll",
}
KIND_COLORS: dict[str, str] = {
    "battle": "#1f4e79",
    "xp": "#2e7d32",
    "leader": "#8e24aa",
    "attribute": "#6d4c41",
    "roll": "#37474f",
}
KIND_COLORS_DARK: dict[str, str] = {
    "battle": "#8cc2f2",
    "xp": "#86d08a",
    "leader": "#d58fe6",
    "attribute": "#d7b49e",
    "roll": "#b0bec5",
}
"""Kind colours on a dark palette (readable on the dark base)."""
_ITEM_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_DISPLAY, _TOOLTIP, _FONT = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole
_FOREGROUND, _ALIGNMENT = Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.TextAlignmentRole
_ROLES = frozenset((_DISPLAY, _TOOLTIP, _FONT, _FOREGROUND, _ALIGNMENT, EVENT_ROLE))
"""The roles the timeline answers (a painted cell asks for about eight)."""
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
FATE_COLORS: dict[str, str] = {
    LeaderFate.CASUALTY: "#c62828",
    LeaderFate.PROMOTED: "#1565c0",
    LeaderFate.STAYS: "#2e7d32",
}
FATE_COLORS_DARK: dict[str, str] = {
    LeaderFate.CASUALTY: "#ff7b7b",
    LeaderFate.PROMOTED: "#8cc2f2",
    LeaderFate.STAYS: "#86d08a",
}


_SEARCHED = ("reason", "rule_text", "outcome", "scenario", "opponent")
"""Fields of some kinds of event that the search looks in, besides the text, kind, date and time."""


def _matches(event: TimelineEvent, needle: str) -> bool:
    if not needle:
        return True
    # the text is made on demand (TimelineEvent.text)
    hay = " ".join(
        [
            event.text,
            event.kind,
            event.date or "",
            event.at or "",
            *(str(getattr(event, k, None) or "") for k in _SEARCHED),
        ]
    )
    return needle in hay.casefold()


class TimelineModel(QAbstractItemModel):
    """Events of ``services.history.history`` as a tree (top level: events; under a battle: its rolls).

    The model keeps event positions, not events: grouping and filtering by kind read the kinds and battle ids
    of a lazy :class:`~campaign_app.services.history.Events` without making its events, and an event
    (and text) is made when a row is painted. The top level is handed to the view in batches of :attr:`BATCH`
    rows (``canFetchMore``/``fetchMore``, as the view scrolls down), so that a long campaign's timeline opens
    as fast as a short one; the filter and the counts cover every event."""

    COLUMNS: tuple[str, ...] = ("When", "Kind", "Battle", "Event")
    WHEN, KIND, BATTLE, EVENT, BY = range(5)
    BY_HEADER = "Logged by"
    """The fifth column, shown on a shared campaign: the login that logged each battle."""
    BATCH = 200

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._events: Sequence[TimelineEvent] = []
        self._kinds_of: Sequence[str] = []
        self._battles_of: Sequence[int | None] = []
        self._top: list[int] = []
        """Positions (in the events) of the top-level rows."""
        self._children: dict[int, list[int]] = {}
        """Positions of the children (a battle's rolls) by top-level row."""
        self._shown = 0
        """Top-level rows handed to the view so far."""
        self._kinds: set[str] = set(KIND_LABELS)
        self._needle = ""
        self._bold = QFont()
        self._bold.setBold(True)
        self._kind_brushes = {k: QBrush(QColor(c)) for k, c in KIND_COLORS.items()}
        self._loggers: dict[int, str] = {}
        self._show_loggers = False

    def set_loggers(self, loggers: dict[int, str], shown: bool) -> None:
        """Who logged each battle (battle id -> login). ``shown``: a "Logged by" column names it on each
        battle's line (a shared campaign); else only the battle's tooltip does (a file one person uses)."""
        if loggers == self._loggers and shown == self._show_loggers:
            return
        if shown != self._show_loggers:  # the column comes or goes
            self.beginResetModel()
            self._loggers, self._show_loggers = dict(loggers), shown
            self.endResetModel()
            return
        self._loggers = dict(loggers)
        if self._shown:
            self.dataChanged.emit(
                self.index(0, self.EVENT), self.index(self._shown - 1, self.columnCount() - 1), [_DISPLAY, _TOOLTIP]
            )

    @property
    def columns(self) -> tuple[str, ...]:
        return (*self.COLUMNS, self.BY_HEADER) if self._show_loggers else self.COLUMNS

    def logged_by(self, event: TimelineEvent) -> str | None:
        """The login that logged a battle event (None for other events, or when the journal has none)."""
        if not isinstance(event, BattleEvent) or event.battle_id is None:
            return None
        return self._loggers.get(int(event.battle_id))

    def set_dark(self, dark: bool) -> None:
        """Kind colours for a dark (or light) palette."""
        colors = KIND_COLORS_DARK if dark else KIND_COLORS
        self._kind_brushes = {k: QBrush(QColor(c)) for k, c in colors.items()}
        if self._shown:
            self.dataChanged.emit(
                self.index(0, self.KIND), self.index(self._shown - 1, self.KIND), [Qt.ItemDataRole.ForegroundRole]
            )

    # -- data in ------------------------------------------------------------------------------------------
    def set_events(self, events: Sequence[TimelineEvent]) -> None:
        """The timeline, newest first: a lazy ``Events`` (its ``kinds`` and ``battle_ids`` are read, its
        events made per painted row) or a plain sequence of events."""
        self._events = events
        kinds = getattr(events, "kinds", None)
        battle_ids = getattr(events, "battle_ids", None)
        if kinds is None or battle_ids is None:
            kinds = [e.kind for e in events]
            battle_ids = [e.battle_id for e in events]
        self._kinds_of, self._battles_of = kinds, battle_ids
        self._rebuild()

    def set_filter(self, kinds: Iterable[str] | None = None, text: str | None = None, *, rebuild: bool = True) -> None:
        """Show only ``kinds`` and events whose text has ``text`` (``rebuild=False``: for the next
        :meth:`set_events`)."""
        if kinds is not None:
            self._kinds = set(kinds)
        if text is not None:
            self._needle = text.strip().casefold()
        if rebuild:
            self._rebuild()

    @property
    def kinds(self) -> set[str]:
        return set(self._kinds)

    def _rebuild(self) -> None:
        self.beginResetModel()
        show_battles = "battle" in self._kinds
        show_rolls = "roll" in self._kinds
        kinds_of, battles_of = self._kinds_of, self._battles_of
        shown = self._kinds
        needle = self._needle
        events = self._events
        top: list[int] = []
        children: dict[int, list[int]] = {}
        if not needle:
            # a battle's rolls (which follow it in the timeline) become its children
            battle_row: dict[int | None, int] = {}
            pending: list[int] = []
            for i, kind in enumerate(kinds_of):
                if kind == "battle":
                    if show_battles:
                        battle_row[battles_of[i]] = len(top)
                        top.append(i)
                    continue
                if kind not in shown:
                    continue
                if kind == "roll" and show_battles and battles_of[i] is not None:
                    row = battle_row.get(battles_of[i])
                    if row is None:
                        pending.append(i)
                    else:
                        kids = children.get(row)
                        if kids is None:
                            children[row] = [i]
                        else:
                            kids.append(i)
                    continue  # shown under its battle
                top.append(i)
            for i in pending:  # a roll listed before its battle (not in the services' order)
                row = battle_row.get(battles_of[i])
                if row is not None:
                    children.setdefault(row, []).append(i)
        else:
            rolls_of: dict[int, list[int]] = {}
            if show_battles and show_rolls:
                for i, kind in enumerate(kinds_of):
                    if kind == "roll" and battles_of[i] is not None:
                        rolls_of.setdefault(battles_of[i], []).append(i)  # type: ignore[arg-type]
            for i, kind in enumerate(kinds_of):
                if kind == "battle":
                    if not show_battles:
                        continue
                    kids = rolls_of.get(battles_of[i], [])  # type: ignore[arg-type]
                    if not _matches(events[i], needle):
                        kids = [c for c in kids if _matches(events[c], needle)]
                        if not kids:
                            continue
                    if kids:
                        children[len(top)] = list(kids)
                    top.append(i)
                    continue
                if kind not in shown:
                    continue
                if kind == "roll" and show_battles and battles_of[i] is not None:
                    continue  # shown under its battle
                if _matches(events[i], needle):
                    top.append(i)
        self._top = top
        self._children = children
        self._shown = min(self.BATCH, len(top))
        self.endResetModel()

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: N802, B008
        return not parent.isValid() and self._shown < len(self._top)

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: N802, B008
        if parent.isValid() or self._shown >= len(self._top):
            return
        more = min(self.BATCH, len(self._top) - self._shown)
        self.beginInsertRows(QModelIndex(), self._shown, self._shown + more - 1)
        self._shown += more
        self.endInsertRows()

    def fetch_until(self, row: int) -> None:
        """Hand the view the top-level rows up to ``row`` (to select or scroll to it)."""
        while self._shown <= row and self.canFetchMore():
            self.fetchMore()

    # -- helpers ------------------------------------------------------------------------------------------
    def _position(self, index: Index) -> int:
        parent_row = index.internalId()
        if parent_row == 0:
            return self._top[index.row()]
        return self._children[parent_row - 1][index.row()]

    def event_at(self, index: Index) -> TimelineEvent | None:
        """The event shown at ``index`` (None for an invalid index). Not named ``event``: that is
        ``QObject.event()``, which Qt calls with every event sent to the model."""
        if not index.isValid():
            return None
        return self._events[self._position(index)]

    def battle_of(self, index: Index) -> TimelineEvent | None:
        """The battle event of a battle row or of one of its rolls."""
        if not index.isValid():
            return None
        parent_row = index.internalId()
        position = self._top[index.row() if parent_row == 0 else parent_row - 1]
        return self._events[position] if self._kinds_of[position] == "battle" else None

    def top_level_events(self) -> list[TimelineEvent]:
        return [self._events[i] for i in self._top]

    def top_level_count(self) -> int:
        return len(self._top)

    def visible_count(self) -> int:
        return len(self._top) + sum(len(c) for c in self._children.values())

    def row_of_battle(self, battle_id: int) -> QModelIndex:
        for row, i in enumerate(self._top):
            if self._kinds_of[i] == "battle" and self._battles_of[i] == battle_id:
                self.fetch_until(row)
                return self.index(row, 0)
        return QModelIndex()

    # -- QAbstractItemModel ------------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column < 0 or column >= self.columnCount() or row < 0:
            return QModelIndex()
        if not parent.isValid():
            if row >= self._shown:
                return QModelIndex()
            return self.createIndex(row, column, 0)
        if parent.internalId() != 0 or parent.row() >= self._shown:
            return QModelIndex()
        if row >= len(self._children.get(parent.row(), ())):
            return QModelIndex()
        return self.createIndex(row, column, parent.row() + 1)

    # (QObject.parent() with no argument is hidden, as in every tree model; the stubs overload the two)
    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        if not parent.isValid():
            return self._shown
        if parent.internalId() != 0 or parent.column() != 0:
            return 0
        return len(self._children.get(parent.row(), ()))

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return len(self.COLUMNS) + (1 if self._show_loggers else 0)

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: N802, B008
        return self.rowCount(parent) > 0

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,  # noqa: N802
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < self.columnCount()
        ):
            return self.columns[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _ITEM_FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # the roles a painted cell asks for, cheapest first; the event is made only for its text
        if role not in _ROLES or not index.isValid():
            return None
        col = index.column()
        if role == _FONT:
            return self._bold if self._kinds_of[self._position(index)] == "battle" else None
        if role == _FOREGROUND:
            return self._kind_brushes.get(self._kinds_of[self._position(index)]) if col == self.KIND else None
        if role == _ALIGNMENT:
            return _RIGHT if col == self.BATTLE else None
        if role == _DISPLAY and col == self.KIND:
            kind = self._kinds_of[self._position(index)]
            return KIND_LABELS.get(kind, kind)
        e = self._events[self._position(index)]
        if role == _DISPLAY:
            if col == self.WHEN:
                return e.date or ""
            if col == self.BATTLE:
                return "" if e.battle_number is None else f"#{e.battle_number}"
            if col == self.BY:
                return self.logged_by(e) or ""
            return e.text  # made for the rows that are painted, not for all
        if role == _TOOLTIP:
            who = self.logged_by(e)
            extra = f"\nLogged {e.at}" if e.at else ""
            if who:
                extra += f" by {who}" if extra else f"\nLogged by {who}"
            if isinstance(e, RollEvent) and e.rule:
                extra += f"\n{rule_text(e.rule)}" + (f": {e.table_row}" if e.table_row else "")
            return f"{e.text}{extra}"
        return e  # EVENT_ROLE


class RollRow(Protocol):
    """What a row of :class:`RollsModel` shows: a battle's roll (``services.history``), or a roll record of the
    battle being logged (:class:`~campaign_app.rules.dice.RollRecord`)."""

    @property
    def purpose(self) -> str: ...

    @property
    def expression(self) -> str: ...

    @property
    def faces(self) -> Sequence[int]: ...

    @property
    def total(self) -> int: ...

    @property
    def outcome(self) -> str: ...

    @property
    def source(self) -> str: ...

    @property
    def rule(self) -> str: ...


RowT = TypeVar("RowT")


class _TableModel(TableModel[RowT]):
    """Rows whose cells show ``cell(row, column)`` as text and tool tip, the row itself as ``EVENT_ROLE``, and
    what ``extra`` adds for the other roles (fonts, colours, alignment)."""

    ROW_NUMBERS = True

    def cell(self, row: RowT, column: int) -> Any:
        raise NotImplementedError

    def extra(self, row: RowT, column: int, role: int) -> Any:
        return None

    def cell_data(self, row: RowT, column: int, role: int) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            value = self.cell(row, column)
            return "" if value is None else str(value)
        if role == EVENT_ROLE:
            return row
        return self.extra(row, column, role)


class LeadersModel(_TableModel[HistoryLeader]):
    """The leaders' roll (``services.history.leaders_roll``)."""

    HEADERS = ("Leader", "Rank", "Joined", "Left", "How", "Battles", "XP joined", "XP", "Gained")
    FULL_HEADERS = (
        "Leader",
        "Rank",
        "Joined",
        "Left",
        "How they left",
        "Battles led",
        "XP at joining",
        "XP now (level)",
        "XP gained",
    )
    SHORTENED = (2, 3, 4)
    """Columns shown short (a 1024-pixel window holds every column); the tool tip has them in full: "battle 3"
    for "battle 3 (2026-11-27)", "casualty" for "casualty (killed or invalided out)"."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._bold = QFont()
        self._bold.setBold(True)
        self._fate_colors = FATE_COLORS

    def set_dark(self, dark: bool) -> None:
        self._fate_colors = FATE_COLORS_DARK if dark else FATE_COLORS
        if self._rows:
            self.dataChanged.emit(
                self.index(0, 4), self.index(len(self._rows) - 1, 4), [Qt.ItemDataRole.ForegroundRole]
            )

    def cell(self, row: HistoryLeader, column: int) -> Any:
        if column == 0:
            return row.name
        if column == 1:
            return row.rank
        if column == 2:
            return row.joined  # in the campaign's own time ("at the start", "battle 3 (date)")
        if column == 3:
            return row.left
        if column == 4:
            return row.how
        if column == 5:
            return row.battles_led
        if column == 6:
            return row.xp_at_join
        if column == 7:
            return f"{row.xp} ({row.level})"
        gained = row.xp_gained
        return f"+{gained}" if gained > 0 else str(gained)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (
            index.isValid()
            and 0 <= index.row() < len(self._rows)
            and index.column() in self.SHORTENED
            and role == Qt.ItemDataRole.DisplayRole
        ):
            full = self.cell(self._rows[index.row()], index.column())
            return str(full or "").split(" (", 1)[0]
        return super().data(index, role)

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,  # noqa: N802
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if (
            role == Qt.ItemDataRole.ToolTipRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(self.FULL_HEADERS)
        ):
            return self.FULL_HEADERS[section]
        return super().headerData(section, orientation, role)

    def extra(self, row: HistoryLeader, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.FontRole and row.current:
            return self._bold
        if role == Qt.ItemDataRole.ForegroundRole and column == 4 and row.status in self._fate_colors:
            return QBrush(QColor(self._fate_colors[row.status]))
        if role == Qt.ItemDataRole.TextAlignmentRole and column >= 5:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class RollsModel(_TableModel[RollRow]):
    """Rolls: those of the battle being logged (``BattleSession.records``) or a battle's ``rolls``."""

    HEADERS = ("Roll", "Dice", "Faces", "Total", "Result", "Source", "Rule")

    def cell(self, row: RollRow, column: int) -> Any:
        if column == 0:
            return purpose_text(row.purpose).capitalize()
        if column == 1:
            return row.expression
        if column == 2:
            return ", ".join(str(f) for f in row.faces)
        if column == 3:
            return row.total
        if column == 4:
            return row.outcome or ""
        if column == 5:
            return "typed in" if row.source == "entered" else "app"
        return rule_text(row.rule)

    def extra(self, row: RollRow, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and column == 4:
            color = FATE_COLORS.get(str(row.outcome))
            if color:
                return QBrush(QColor(color))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (2, 3):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


__all__ = ["TimelineModel", "LeadersModel", "RollsModel", "RollRow", "EVENT_ROLE", "KIND_LABELS"]
