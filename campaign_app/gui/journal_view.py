"""The "Changes" list: the journal's operations that concern one platoon or one Sologear pilot, newest first,
with Undo and Redo of the one selected.

Shown as a tab of a platoon's History view and of a Sologear pilot's page. Each row is one operation of the
journal (:mod:`campaign_app.services.journal`): when it was made (local time), what it was ("Log battle 4 of 2nd
Platoon"), who made it (the login name of the window or campaign-cli) and whether it is undone (the word
"undone", the label struck through and greyed). **Undo this change** undoes the selected operation even if it is
not the newest; a refusal is shown beside the list, names the operation in the way and selects it, and nothing
changes. **Redo this change** puts an undone one back. Enter on a row does what its button offers; Delete does
nothing (a change is taken back with Undo, never deleted).
"""

from __future__ import annotations

import datetime as _dt
import logging
import re
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..services import journal as journal_service
from ..services.journal import OpChanges, OperationInfo
from .context import AppContext
from .feed import ViewFeed, concerns
from .loader import PageLoad
from .table_model import TableModel
from .widgets import ErrorLabel

log = logging.getLogger(__name__)

LIST_LIMIT = 1000
"""The newest operations listed (the CLI's ``campaign-cli journal`` lists them all)."""

ID_ROLE = Qt.ItemDataRole.UserRole + 1
UNDONE_ROLE = Qt.ItemDataRole.UserRole + 2

COL_TIME, COL_CHANGE, COL_WHO, COL_STATE = range(4)
HEADERS = ("Time", "Change", "Who", "State")

_OPERATION_REF = re.compile(r"\(operation (\d+)\)")


def _read_operations(scope: tuple[str, int]) -> list[OperationInfo]:
    """The panel's read (Qt-free; on the window's database thread on a club server)."""
    kind, obj_id = scope
    if kind == "platoon":
        return journal_service.operations(platoon=obj_id, limit=LIST_LIMIT)
    return journal_service.operations(pilot=obj_id, limit=LIST_LIMIT)


def local_time(stamp: str) -> str:
    """A stored UTC time as local time, "2026-11-23 07:12" (the stored text when it cannot be read)."""
    try:
        moment = _dt.datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return stamp or ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_dt.UTC)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


class JournalModel(TableModel[OperationInfo]):
    """Operations, newest first: time, change, who, state."""

    HEADERS = HEADERS

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.grey: Any = None

    def info(self, row: int) -> OperationInfo | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, op_id: int) -> int | None:
        for i, info in enumerate(self._rows):
            if info.id == op_id:
                return i
        return None

    def cell_data(self, info: OperationInfo, col: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_TIME:
                return local_time(info.created_at)
            if col == COL_CHANGE:
                return info.label
            if col == COL_WHO:
                return info.user or "\u2014"
            if col == COL_STATE:
                if info.folded:  # beyond the journal's budget
                    return "folded: cannot be undone"
                return "undone" if info.undone else ("" if info.undoable else "start of the journal")
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            when = local_time(info.created_at)
            lines = [
                info.label,
                f"Operation {info.id} ({info.kind}), made {when}" + (f" by {info.user}" if info.user else ""),
            ]
            if info.folded:
                lines.append(
                    "Folded into the history to save space: kept as a record, it can no longer be undone or redone"
                )
            elif info.undone:
                lines.append(f"Undone {local_time(info.undone_at or '')}: Redo this change puts it back")
            return "\n".join(lines)
        if role == Qt.ItemDataRole.FontRole and info.undone:
            from PySide6.QtGui import QFont

            font = QFont()
            font.setStrikeOut(col == COL_CHANGE)
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and info.undone and self.grey is not None:
            return self.grey
        if role == Qt.ItemDataRole.AccessibleTextRole and col == COL_CHANGE:
            return f"{info.label} (undone)" if info.undone else info.label
        if role == ID_ROLE:
            return info.id
        if role == UNDONE_ROLE:
            return info.undone
        return None


class _Keys(QObject):
    """Enter on a row does what its button offers; Delete does nothing to the data (it says so)."""

    def __init__(self, panel: JournalPanel) -> None:
        super().__init__(panel)
        self.panel = panel

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers():
                self.panel.toggle_selected()
                return True
            if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
                self.panel.say("A change is never deleted: Undo this change takes it back, Redo puts it back.")
                return True
        return False


class JournalPanel(QWidget):
    """The Changes list of one platoon (``show_platoon``) or one Sologear sheet (``show_sheet``)."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.scope: tuple[str, int] | None = None
        self.campaign_id: int | None = None
        self.intro = QLabel(
            "Every change of this platoon, newest first, whoever made it (this window, another "
            "one or campaign-cli). Undo or redo any of them; one that later changes depend on "
            "is refused, naming the change in the way.",
            self,
        )
        self.intro.setWordWrap(True)
        self.model = JournalModel(self)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.verticalHeader().setVisible(False)
        self.view.setAccessibleName("Changes")
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(COL_TIME, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_CHANGE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(COL_WHO, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_STATE, QHeaderView.ResizeMode.ResizeToContents)
        self.view.installEventFilter(_Keys(self))
        self.undo_button = QPushButton("&Undo this change", self)
        self.undo_button.setToolTip("Undo the selected change, even if it is not the newest (Enter)")
        self.redo_button = QPushButton("Redo this chan&ge", self)
        self.redo_button.setToolTip("Put the selected undone change back (Enter)")
        self.message = ErrorLabel(self)
        self.message.setAccessibleName("Why not")
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.redo_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.view, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.note)
        self.setFocusProxy(self.view)
        self.undo_button.clicked.connect(lambda: self.step("undo"))
        self.redo_button.clicked.connect(lambda: self.step("redo"))
        self.view.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self.view.doubleClicked.connect(lambda _index: self.toggle_selected())
        self.loading: PageLoad[tuple[str, int], list[OperationInfo]] = PageLoad(
            ctx, _read_operations, self._show_rows, self._not_read
        )
        self.feed = ViewFeed(ctx, self, self._concerns, self.reload)
        self._apply_palette()
        self._update_buttons()

    # --- what is shown ------------------------------------------------------------------------------------
    def show_platoon(self, platoon_id: int, campaign_id: int | None = None) -> None:
        self._show(("platoon", platoon_id), campaign_id)
        self.intro.setText(
            "Every change of this platoon, newest first, whoever made it (this window, another "
            "one or campaign-cli). Undo or redo any of them; one that later changes depend on is "
            "refused, naming the change in the way."
        )

    def show_sheet(self, sheet_id: int, campaign_id: int | None = None) -> None:
        self._show(("sheet", sheet_id), campaign_id)
        self.intro.setText(
            "Every change of this pilot's campaign, newest first, whoever made it (this window, "
            "another one or campaign-cli). Undo or redo any of them; one that later changes depend "
            "on is refused, naming the change in the way."
        )

    def _show(self, scope: tuple[str, int], campaign_id: int | None) -> None:
        if scope != self.scope:
            self.say("")
        self.scope = scope
        self.campaign_id = campaign_id
        self.reload()

    def reload(self) -> None:
        """Read the list (off the event loop on a club server) and show it."""
        self.feed.dirty = False
        if self.scope is None:
            return
        self.loading.request(self.scope)

    def _not_read(self, scope: tuple[str, int], exc: Exception) -> None:
        if not isinstance(exc, CampaignError):
            raise exc
        self.say(str(exc))  # gone (deleted elsewhere), busy: say so, keep nothing stale
        self._show_rows(scope, [])

    def _show_rows(self, _scope: tuple[str, int], rows: list[OperationInfo]) -> None:
        keep = self.selected()
        if keep is not None and self.model.row_of(keep.id) == 0:
            keep = None  # the newest was selected: the newest stays selected
        self.model.set_rows(rows)
        if not (keep is not None and self.select(keep.id)) and rows:
            self.view.selectRow(0)  # the newest: Enter and the buttons work at once
        self.note.setVisible(len(rows) >= LIST_LIMIT)
        self.note.setText(f"The newest {LIST_LIMIT} changes are listed; campaign-cli journal lists them all.")
        self._update_buttons()

    def _concerns(self, changes: OpChanges) -> bool:
        if self.scope is None:
            return False
        kind, obj_id = self.scope
        return concerns(changes, campaign=self.campaign_id, **{kind: obj_id})

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_palette()

    def _apply_palette(self) -> None:
        self.model.grey = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)

    # --- selection -------------------------------------------------------------------------------------------
    def selected(self) -> OperationInfo | None:
        rows = self.view.selectionModel().selectedRows()
        return self.model.info(rows[0].row()) if rows else None

    def select(self, op_id: int) -> bool:
        row = self.model.row_of(op_id)
        if row is None:
            return False
        self.view.selectRow(row)
        self.view.scrollTo(self.model.index(row, COL_CHANGE))
        return True

    def _update_buttons(self) -> None:
        info = self.selected()
        self.undo_button.setEnabled(info is not None and not info.undone and info.undoable)
        self.redo_button.setEnabled(info is not None and info.undone and not info.folded)

    def say(self, text: str) -> None:
        self.message.show_problem(text or None)

    # --- acting ----------------------------------------------------------------------------------------------
    def toggle_selected(self) -> None:
        """Enter: undo the selected change, or redo it when it is undone."""
        info = self.selected()
        if info is None:
            return
        self.step("redo" if info.undone else "undo")

    def step(self, verb: str) -> bool:
        """Undo or redo the selected operation; a refusal is shown beside the list (the operation in the way is
        selected when it is listed) and nothing changes."""
        info = self.selected()
        if info is None:
            return False
        self.say("")
        stack = self.ctx.undo_stack
        if stack.step_later(verb, info.id, lambda _step: self._stepped(info), lambda exc: self._not_stepped(info, exc)):
            return True  # a club server: sent off the event loop, shown when the answer comes
        try:
            stack.step(verb, info.id)
        except CampaignError as exc:
            self._not_stepped(info, exc)
            return False
        self._stepped(info)
        return True

    def _stepped(self, info: OperationInfo) -> None:
        self.reload()
        self.select(info.id)
        self.view.setFocus()

    def _not_stepped(self, info: OperationInfo, exc: CampaignError) -> None:
        text = str(exc)
        self.say(text[:1].upper() + text[1:])
        self.reload()
        found = _OPERATION_REF.search(text)
        if found and not self.select(int(found.group(1))):
            self.select(info.id)
        self.view.setFocus()


__all__ = ["JournalModel", "JournalPanel", "local_time"]
