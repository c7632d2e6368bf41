"""The campaign page's part for a d12 Death Blow campaign: its fighters (level, XP, record) and the buttons to add
one, open one, log a bout or play a solo bout."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...errors import CampaignError
from ...services import death_blow as service
from ..context import AppContext
from ..loader import PageLoad
from ..roster_models import ID_ROLE, fit_columns
from .models import FighterListModel


class FighterTable(QTableView):
    """Enter opens the selected fighter (as a double click does)."""

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.activated.emit(self.currentIndex())
            return
        super().keyPressEvent(event)


class FightersPanel(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__("Fighters", parent)
        self.ctx = ctx
        self.cid: int | None = None
        self.campaign_name = ""
        self.loading: PageLoad[int, list[Any]] | None = None
        self.model = FighterListModel(self)
        self.view = FighterTable(self)
        self.view.setModel(self.model)
        self.view.setAccessibleName("Fighters of the campaign")
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setTabKeyNavigation(False)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().hide()
        self.view.setMinimumHeight(160)
        self.empty_label = QLabel(
            "No fighters yet: New fighter\u2026 adds one (level 0 unless the players agree on another).", self
        )
        self.empty_label.setWordWrap(True)
        self.new_button = QPushButton("&New fighter\u2026", self)
        self.open_button = QPushButton("O&pen", self)
        self.log_button = QPushButton("&Log bout\u2026", self)
        self.log_button.setToolTip("Record a bout played at the table (the result; the app works out the XP)")
        self.solo_button = QPushButton("&Solo bout\u2026", self)
        self.solo_button.setToolTip("Let the app play a bout of two shuffled decks, round by round")
        self.print_button = QPushButton("P&rint sheets", self)
        self.print_button.setToolTip("Save fighter sheets as a PDF: every active fighter's, filled in, or a blank one")
        menu = QMenu(self.print_button)
        self.print_all_action = menu.addAction("Every active fighter, filled in\u2026", self.print_all)
        self.print_blank_action = menu.addAction("A blank fighter sheet\u2026", self.print_blank)
        self.print_button.setMenu(menu)
        buttons = QHBoxLayout()
        for b in (self.new_button, self.open_button, self.log_button, self.solo_button, self.print_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.view, 1)
        layout.addLayout(buttons)
        self.new_button.clicked.connect(self.new_fighter)
        self.open_button.clicked.connect(self.open_selected)
        self.log_button.clicked.connect(self.log_bout)
        self.solo_button.clicked.connect(self.solo_bout)
        self.view.activated.connect(lambda index: self._open(index.data(ID_ROLE)))
        self.view.selectionModel().selectionChanged.connect(lambda *_a: self._update_buttons())

    def show_campaign(self, campaign_id: int, name: str) -> None:
        """List the campaign's fighters (read off the event loop on a club server)."""
        self.cid, self.campaign_name = campaign_id, name
        if self.loading is None:
            self.loading = PageLoad(self.ctx, service.list_fighters, self._show_rows, self._not_read)
        self.loading.request(campaign_id)

    def _not_read(self, _campaign_id: int, exc: Exception) -> None:
        if not isinstance(exc, CampaignError):
            raise exc
        self.ctx.signals.status.emit(str(exc))

    def _show_rows(self, _campaign_id: int, rows: list[Any]) -> None:
        keep = self.selected_id()
        self.model.set_rows(rows)
        fit_columns(self.view, self.model)
        self.empty_label.setVisible(not rows)
        self.print_all_action.setEnabled(any(not r.retired for r in rows))
        if keep is not None and (row := self.model.row_of_id(keep)) is not None:
            self.view.selectRow(row)
        self._update_buttons()

    def selected_id(self) -> int | None:
        rows = self.view.selectionModel().selectedRows()
        return int(rows[0].data(ID_ROLE)) if rows else None

    def _update_buttons(self) -> None:
        chosen = self.selected_id()
        row = self.model.row_data(self.model.row_of_id(chosen)) if chosen is not None else None  # type: ignore[arg-type]
        active = row is not None and not row.retired
        self.open_button.setEnabled(chosen is not None)
        self.log_button.setEnabled(active)
        self.solo_button.setEnabled(active and sum(1 for r in self.model.rows() if not r.retired) > 1)

    def _open(self, fighter_id: int | None) -> None:
        if fighter_id is not None:
            self.ctx.signals.open_item.emit("fighter", int(fighter_id))

    def open_selected(self) -> None:
        self._open(self.selected_id())

    def new_fighter(self) -> None:
        if self.cid is None:
            return
        from .bout_dialogs import new_fighter

        new_id = new_fighter(self.ctx, self.window(), self.cid, self.campaign_name)
        if new_id:
            self.ctx.signals.open_item.emit("fighter", new_id)

    def log_bout(self) -> None:
        chosen = self.selected_id()
        if chosen is not None:
            from .bout_dialogs import log_bout

            log_bout(self.ctx, self.window(), chosen)

    def solo_bout(self) -> None:
        chosen = self.selected_id()
        if chosen is not None:
            from .bout_dialogs import play_solo_bout

            play_solo_bout(self.ctx, self.window(), chosen)

    def print_all(self) -> None:
        if self.cid is not None:
            from ...services.print_requests import FighterRequest
            from .printing import save_pdf

            save_pdf(self.ctx, self.window(), FighterRequest(campaign=self.cid), f"{self.campaign_name} - fighters.pdf")

    def print_blank(self) -> None:
        from ...services.print_requests import FighterRequest
        from .printing import save_pdf

        save_pdf(self.ctx, self.window(), FighterRequest(blank=True, campaign=self.cid), "fighter sheet (blank).pdf")
