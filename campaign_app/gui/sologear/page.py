"""The Sologear page: one pilot's campaign sheet (both sides' units, live totals and odds), the battle form
(one row per turn, Play turn / Record result / Undo), the end-of-campaign reckoning with its breakdowns,
the history of turns and rolls, and the optional rules.

Each tab is built and filled by its own mixin (:mod:`.sheet_tab`, :mod:`.turns_tab`, :mod:`.end_tab`,
:mod:`.record_tabs`); this module holds what they share: loading the sheet, the state line, writes, dialogs.
All writes go through the services via ``undo_commands.perform`` (one transaction each, on the app-wide
undo stack); the page refreshes when the change feed (:mod:`..feed`) says a change concerns it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDialog, QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from ...errors import CampaignError
from ...services import sologear_sheet as sheet_service
from ...services.common import NotFound, StoreProblem
from ...services.journal import OpChanges
from ...services.sologear_results import SheetData
from ..context import AppContext
from ..feed import ViewFeed, concerns
from ..loader import PageLoad
from ..sizing import cap_fields
from ..undo_commands import EditT, ServiceArgs, perform_later
from .end_tab import EndTab
from .record_tabs import HistoryTab, OptionsTab
from .sheet_tab import SheetTab
from .turns_tab import TurnsTab

log = logging.getLogger(__name__)


class PageBase(QWidget):
    """What a tab uses of the page and of another tab (for type checking only: at run time the tab classes
    are plain mixins of :class:`SologearPage`)."""

    ctx: AppContext
    sheet_id: int | None
    data: SheetData | None
    tabs: QTabWidget
    auto_record: bool
    end_tab: QWidget  # EndTab
    end_button: QPushButton  # TurnsTab

    def status(self, text: str) -> None:
        raise NotImplementedError

    def act(
        self, service: Callable[ServiceArgs, EditT], /, *args: ServiceArgs.args, **kwargs: ServiceArgs.kwargs
    ) -> EditT | None:
        raise NotImplementedError

    def act_then(
        self,
        then: Callable[[EditT], None] | None,
        service: Callable[ServiceArgs, EditT],
        /,
        *args: ServiceArgs.args,
        **kwargs: ServiceArgs.kwargs,
    ) -> EditT | None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def _open(self, dialog: QDialog, done: Callable[[QDialog], None] | None = None) -> QDialog:
        raise NotImplementedError

    def update_totals(self) -> None:  # SheetTab
        raise NotImplementedError

    def end_campaign(self) -> QDialog | None:  # EndTab
        raise NotImplementedError

    def undo_last(self) -> None:  # TurnsTab
        raise NotImplementedError


class SologearPage(SheetTab, TurnsTab, EndTab, HistoryTab, OptionsTab, QWidget):
    """The central page for a Sologear pilot's campaign; each tab's building and filling lives in its mixin."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.sheet_id: int | None = None
        self.data: SheetData | None = None
        self.dialog: QDialog | None = None
        self.auto_record = True

        self.title = QLabel(self)
        title_font = QFont(self.title.font())
        title_font.setPointSizeF(title_font.pointSizeF() * 1.4)
        title_font.setBold(True)
        self.title.setFont(title_font)
        self.state_label = QLabel(self)
        self.state_label.setAccessibleName("Campaign state")
        self.state_label.setWordWrap(True)
        self.tabs = QTabWidget(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.state_label)
        layout.addWidget(self.tabs, 1)

        self._build_sheet_tab()
        self._build_battle_tab()
        self._build_end_tab()
        self._build_history_tab()
        self._build_options_tab()
        from ..journal_view import JournalPanel

        self.changes_panel = JournalPanel(ctx, self)  # the journal's operations of this pilot
        self.tabs.addTab(self.changes_panel, "&Changes")
        cap_fields(self)  # fields stop at a readable width; the tables take the rest of a wide window
        self.loading: PageLoad[int, SheetData] = PageLoad(
            ctx, sheet_service.sheet_data, self._show_data, self._not_read
        )
        self.feed = ViewFeed(ctx, self, self._concerns, self.reload)

    # --- helpers ------------------------------------------------------------------------------------------------
    def status(self, text: str) -> None:
        self.ctx.signals.status.emit(text)

    def act(
        self, service: Callable[ServiceArgs, EditT], /, *args: ServiceArgs.args, **kwargs: ServiceArgs.kwargs
    ) -> EditT | None:
        """Call a service through the undo stack; a refusal goes to the status bar and the page reloads. On a
        club server it is sent off the event loop and None is returned at once (see :meth:`act_then`)."""
        return self.act_then(None, service, *args, **kwargs)

    def act_then(
        self,
        then: Callable[[EditT], None] | None,
        service: Callable[ServiceArgs, EditT],
        /,
        *args: ServiceArgs.args,
        **kwargs: ServiceArgs.kwargs,
    ) -> EditT | None:
        """:meth:`act`, then ``then(edit)`` once the write is done (at once on a file)."""

        def refused(exc: CampaignError) -> None:
            self.ctx.signals.status.emit(str(exc))
            if isinstance(exc, StoreProblem):  # busy, disk full...: every view shows the stored values again
                from ..feed import announce_everything

                announce_everything(self.ctx, "a write was refused")
            self.reload()

        return perform_later(self.ctx, then, refused, service, *args, **kwargs)

    def _concerns(self, changes: OpChanges) -> bool:
        campaign = self.data.campaign.id if self.data is not None else None
        return self.sheet_id is not None and concerns(changes, sheet=self.sheet_id, campaign=campaign)

    # --- showing ------------------------------------------------------------------------------------------------
    def show_sheet(self, sheet_id: int) -> None:
        self.sheet_id = sheet_id
        self.changes_panel.show_sheet(sheet_id)
        for box in (self.player_box, self.enemy_box):
            box.clear_entry()
        self.reload()

    def reload(self) -> None:
        """Read the sheet (off the event loop on a club server) and show it."""
        self.feed.dirty = False
        if self.sheet_id is None:
            return
        self.loading.request(self.sheet_id)

    def _not_read(self, _sheet_id: int, exc: Exception) -> None:
        if not isinstance(exc, CampaignError):
            raise exc
        if not isinstance(exc, NotFound):
            self.status(str(exc))
            return
        self.data = None
        self.title.setText("This Sologear campaign no longer exists.")
        self.tabs.setEnabled(False)

    def _show_data(self, _sheet_id: int, d: SheetData) -> None:
        self.data = d
        self.tabs.setEnabled(True)
        self.title.setText(f"{d.name} — {d.pilot}" + (f" in {d.gear_name}" if d.gear_name else ""))
        self._fill_state(d)
        self._fill_sheet(d)
        self._fill_battle(d)
        self._fill_end(d)
        self._fill_history(d)
        self._fill_options(d)

    def _fill_state(self, d: SheetData) -> None:
        s = d.state
        parts = []
        if d.length:
            if not d.turns_played:
                parts.append(f"{d.length} battle turns")
            elif d.turns_played <= d.length:
                parts.append(f"turn {d.turns_played} of {d.length}")
            else:
                parts.append(f"turn {d.turns_played} (past the {d.length} planned: break-out)")
        if s.status == "ended":
            parts.append("campaign over: " + (s.end_text or ""))
            if s.reckoned:
                parts.append("reckoning done")
        else:
            parts.append("campaign under way" if d.turns_played else "campaign not started")
        if s.breakout:
            parts.append("break-out under way")
        gear = []
        if s.gear_damaged:
            gear.append("damaged")
        if s.short_ammo:
            gear.append("short of ammunition")
        parts.append("Gear " + (" and ".join(gear) if gear else "in order"))
        if s.pilot_status != "active":
            parts.append(f"pilot {s.pilot_status}")
        self.state_label.setText(" · ".join(parts))

    # --- dialogs ------------------------------------------------------------------------------------------------
    def _open(self, dialog: QDialog, done: Callable[[QDialog], None] | None = None) -> QDialog:
        """Open a dialog window-modal without blocking; ``done(dialog)`` runs when it is accepted."""
        self.dialog = dialog

        def finished(result: int) -> None:
            if self.dialog is dialog:
                self.dialog = None
            if result == QDialog.DialogCode.Accepted and done is not None:
                done(dialog)
            dialog.deleteLater()

        dialog.finished.connect(finished)
        dialog.open()
        return dialog
