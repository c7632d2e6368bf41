"""A d12 Death Blow fighter's page: level, the 12 XP boxes, lifetime XP, record, what the level gives (Reaction
Speed of face cards, signature bonus); bouts, timeline, chart and head-to-head; log a bout (Ctrl+B), play a solo
bout, correct, retire, delete, export the history, print the sheet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...errors import CampaignError
from ...services import death_blow as service
from ...services.common import NotFound
from ...services.journal import OpChanges
from ..context import AppContext
from ..feed import ViewFeed, is_everything
from ..loader import PageLoad
from ..page_header import PageHeader
from ..roster_models import ID_ROLE, fit_columns
from ..sizing import cap_fields
from ..undo_commands import EditT, ServiceArgs, perform_later
from ..widgets import CommitTextEdit, confirm
from .models import BoutListModel, EventRow, HeadToHeadModel, RoundsModel, TimelineModel
from .widgets import CareerChart, XpBoxes


def _table(parent: QWidget, name: str) -> QTableView:
    view = QTableView(parent)
    view.setAccessibleName(name)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setTabKeyNavigation(False)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    return view


def _read_fighter(fighter_id: int) -> tuple[service.FighterDetail, Any]:
    """The fighter page's read (Qt-free; on the window's database thread on a club server)."""
    return service.show_fighter(fighter_id), service.fighter_history(fighter_id)


class FighterPage(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.fid: int | None = None
        self.detail: service.FighterDetail | None = None
        self.loading: PageLoad[int, tuple[service.FighterDetail, Any]] | None = None
        self.feed = ViewFeed(ctx, self, self._concerns, self.load)
        self._build()
        cap_fields(self)  # fields stop at a readable width; the tables take the rest

    def _build(self) -> None:
        body = QWidget()
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

        self.header = PageHeader("Fighter's name", "The fighter's name (Enter to rename)", body)
        self.name_edit, self.info_label, self.message = (
            self.header.name_edit,
            self.header.info_label,
            self.header.message,
        )

        career = QGroupBox("Career", body)
        self.level_label = QLabel(career)
        big = QFont(self.level_label.font())
        big.setPointSizeF(big.pointSizeF() * 1.4)
        big.setBold(True)
        self.level_label.setFont(big)
        self.boxes = XpBoxes(career)
        self.xp_label = QLabel(career)
        self.lifetime_label = QLabel(career)
        self.record_label = QLabel(career)
        self.gives_label = QLabel(career)
        self.gives_label.setWordWrap(True)
        grid = QGridLayout(career)
        grid.addWidget(self.level_label, 0, 0)
        grid.addWidget(self.boxes, 0, 1)
        grid.addWidget(self.xp_label, 0, 2)
        grid.addWidget(self.lifetime_label, 1, 0)
        grid.addWidget(self.record_label, 1, 1, 1, 2)
        grid.addWidget(self.gives_label, 2, 0, 1, 3)
        grid.setColumnStretch(2, 1)

        self.log_button = QPushButton("&Log bout\u2026", body)
        self.log_button.setToolTip("Record a bout played at the table (Ctrl+B)")
        self.solo_button = QPushButton("&Solo bout\u2026", body)
        self.solo_button.setToolTip("The app plays two shuffled decks against each other, round by round")
        self.correct_button = QPushButton("&Correct\u2026", body)
        self.correct_button.setToolTip("Correct the level or the XP toward the next level (kept with a reason)")
        self.retire_button = QPushButton("&Retire", body)
        self.delete_button = QPushButton("&Delete fighter\u2026", body)
        self.export_button = QPushButton("E&xport history\u2026", body)
        self.print_button = QPushButton("&Print sheet\u2026", body)
        self.print_button.setToolTip("Save this fighter's sheet as a PDF (filled in)")
        buttons = QHBoxLayout()
        for b in (
            self.log_button,
            self.solo_button,
            self.correct_button,
            self.retire_button,
            self.delete_button,
            self.export_button,
            self.print_button,
        ):
            buttons.addWidget(b)
        buttons.addStretch(1)

        self.tabs = QTabWidget(body)
        self.bouts_model = BoutListModel(self)
        self.bouts_view = _table(self.tabs, "Bouts of the fighter")
        self.bouts_view.setModel(self.bouts_model)
        self.bouts_view.setToolTip("Double click (or Enter) a bout to see its rounds")
        self.timeline_model = TimelineModel(self)
        self.timeline_view = _table(self.tabs, "Timeline of the fighter")
        self.timeline_view.setModel(self.timeline_model)
        self.chart = CareerChart(self.tabs)
        self.h2h_model = HeadToHeadModel(self)
        self.h2h_view = _table(self.tabs, "Head-to-head records")
        self.h2h_view.setModel(self.h2h_model)
        self.tabs.addTab(self.bouts_view, "Bo&uts")
        self.tabs.addTab(self.timeline_view, "Ti&meline")
        self.tabs.addTab(self.chart, "Ch&art")
        self.tabs.addTab(self.h2h_view, "Head t&o head")
        self.tabs.setMinimumHeight(260)

        notes_box = QGroupBox("Notes", body)
        self.notes = CommitTextEdit(notes_box)
        self.notes.setAccessibleName("Fighter's notes")
        self.notes.setFixedHeight(60)
        QVBoxLayout(notes_box).addWidget(self.notes)

        layout = QVBoxLayout(body)
        layout.addWidget(self.header)
        layout.addWidget(career)
        layout.addLayout(buttons)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(notes_box)

        self.name_edit.committed.connect(self._rename)
        self.notes.committed.connect(self._notes)
        self.log_button.clicked.connect(self.log_bout)
        self.solo_button.clicked.connect(self.solo_bout)
        self.correct_button.clicked.connect(self.correct)
        self.retire_button.clicked.connect(self.toggle_retired)
        self.delete_button.clicked.connect(self.delete)
        self.export_button.clicked.connect(self.export_history)
        self.print_button.clicked.connect(self.print_sheet)
        self.bouts_view.activated.connect(self._show_bout)

    # --- showing -----------------------------------------------------------------------------------------
    def show_fighter(self, fighter_id: int) -> None:
        self.fid = fighter_id
        self.message.show_problem(None)
        self.load()

    def load(self) -> None:
        """Read the fighter (off the event loop on a club server) and show it."""
        self.feed.dirty = False
        if self.fid is None:
            return
        if self.loading is None:
            self.loading = PageLoad(self.ctx, _read_fighter, self._show_fighter, self._not_read)
        self.loading.request(self.fid)

    def _not_read(self, _fid: int, exc: Exception) -> None:
        if not isinstance(exc, CampaignError):
            raise exc
        if not isinstance(exc, NotFound):
            self.message.show_problem(str(exc))
            return
        self.detail = None
        self.info_label.setText("This fighter no longer exists (Edit \u25b8 Undo may bring it back).")
        for w in (
            self.log_button,
            self.solo_button,
            self.correct_button,
            self.retire_button,
            self.delete_button,
            self.export_button,
            self.print_button,
            self.name_edit,
            self.notes,
        ):
            w.setEnabled(False)

    def _show_fighter(self, _fid: int, data: tuple[Any, Any]) -> None:
        f, history = data
        self.detail = f
        self.name_edit.setCommittedText(f.name)
        retired = " \u00b7 retired" if f.retired else ""
        owner = f" \u00b7 {f.owner}'s fighter" if f.owner else ""  # on a club server
        self.info_label.setText(
            f"d12 Death Blow fighter \u00b7 {f.campaign} \u00b7 started at level {f.start_level}{retired}{owner}"
        )
        self.level_label.setText(f"Level {f.level}")
        self.boxes.set_xp(f.xp, f.level)
        self.xp_label.setText(
            "Level 11: the last level" if f.level >= 11 else f"{f.xp}/12 XP toward level {f.level + 1}"
        )
        self.lifetime_label.setText(f"Lifetime XP: {f.lifetime_xp}")
        self.record_label.setText(f"Record: {f.bouts} bouts – {f.wins} won, {f.draws} drawn, {f.losses} lost")
        self.gives_label.setText(
            f"At level {f.level}: a face card (J, Q, K) has Reaction Speed {f.level}; a "
            f"signature move (Joker) adds {f.level} damage after the Defense."
        )
        self.bouts_model.set_fighter(f.id)
        self.bouts_model.set_rows(f.recent)
        fit_columns(self.bouts_view, self.bouts_model, stretch=1)
        self.timeline_model.set_rows([EventRow(i, e.date, e.kind, e.text) for i, e in enumerate(history.events, 1)])
        fit_columns(self.timeline_view, self.timeline_model, stretch=2)
        self.chart.set_series(history.series)
        self.h2h_model.set_pairs(history.head_to_head, f.name)
        fit_columns(self.h2h_view, self.h2h_model, stretch=4)
        self.notes.setCommittedText(f.notes)
        self.retire_button.setText("Bring &back" if f.retired else "&Retire")
        for w in (
            self.correct_button,
            self.retire_button,
            self.delete_button,
            self.export_button,
            self.print_button,
            self.name_edit,
            self.notes,
        ):
            w.setEnabled(True)
        self.log_button.setEnabled(not f.retired)
        self.solo_button.setEnabled(not f.retired)

    def _concerns(self, changes: OpChanges) -> bool:
        return self.fid is not None and (
            is_everything(changes)
            or bool(changes.tables & {"fighter", "bout", "bout_round", "fighter_change", "campaign"})
        )

    # --- writing -----------------------------------------------------------------------------------------
    def _run(
        self, fn: Callable[ServiceArgs, EditT], /, *args: ServiceArgs.args, **kwargs: ServiceArgs.kwargs
    ) -> EditT | None:
        return self._run_then(None, fn, *args, **kwargs)

    def _run_then(
        self,
        then: Callable[[EditT], None] | None,
        fn: Callable[ServiceArgs, EditT],
        /,
        *args: ServiceArgs.args,
        **kwargs: ServiceArgs.kwargs,
    ) -> EditT | None:
        """A write of the page, then ``then(edit)`` (off the event loop on a club server: None is returned at
        once; see :func:`~..undo_commands.perform_later`); a refusal is shown on the page."""

        def done(edit: EditT) -> None:
            self.message.show_problem(None)
            self.ctx.signals.status.emit(edit.message)
            if then is not None:
                then(edit)

        def refused(exc: CampaignError) -> None:
            self.message.show_problem(str(exc))
            self.ctx.signals.status.emit(str(exc))
            self.load()

        return perform_later(self.ctx, done, refused, fn, *args, **kwargs)

    def _rename(self, name: str) -> None:
        if self.fid is not None:
            self._run(service.rename_fighter, self.fid, name)

    def _notes(self, text: str) -> None:
        if self.fid is not None:
            self._run(service.edit_fighter, self.fid, notes=text)

    def log_bout(self) -> None:
        if self.fid is not None:
            from .bout_dialogs import log_bout

            log_bout(self.ctx, self.window(), self.fid)

    def solo_bout(self) -> None:
        if self.fid is not None:
            from .bout_dialogs import play_solo_bout

            play_solo_bout(self.ctx, self.window(), self.fid)

    def correct(self) -> None:
        if self.detail is not None:
            from .bout_dialogs import correct_fighter

            correct_fighter(self.ctx, self.window(), self.detail)

    def toggle_retired(self) -> None:
        if self.detail is not None:
            self._run(service.retire_fighter, self.detail.id, retired=not self.detail.retired)

    def delete(self) -> None:
        f = self.detail
        if f is None:
            return
        if confirm(
            self, "Delete fighter", f"Delete {f.name} with their {f.bouts} bouts?\nEdit \u25b8 Undo brings them back."
        ):
            self._run_then(
                lambda _edit: self.ctx.signals.open_item.emit("campaign", f.campaign_id), service.delete_fighter, f.id
            )

    def export_history(self) -> None:
        f = self.detail
        if f is None:
            return
        path, chosen = QFileDialog.getSaveFileName(
            self, f"Export the history of {f.name}", f"{f.name}.csv", "CSV (*.csv);;JSON (*.json)"
        )
        if not path:
            return
        fmt = "json" if path.lower().endswith(".json") or "JSON" in chosen else "csv"
        try:
            n = service.export_history(f.id, path, fmt)
        except CampaignError as exc:
            self.message.show_problem(str(exc))
            return
        self.ctx.signals.status.emit(f"wrote {n} events to {path}")

    def print_sheet(self) -> None:
        if self.detail is None:
            return
        from ...services.print_requests import FighterRequest
        from .printing import save_pdf

        save_pdf(
            self.ctx,
            self.window(),
            FighterRequest(fighters=(self.detail.id,)),
            f"{self.detail.name} - fighter sheet.pdf",
        )

    def _show_bout(self, index: QModelIndex) -> None:
        bout_id = index.data(ID_ROLE)
        if bout_id is not None:
            show_bout_dialog(self.ctx, self.window(), int(bout_id))


class BoutDialog(QDialog):
    """A bout's result and, for a solo bout, every round."""

    def __init__(self, bout: service.BoutDetail, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bout = bout
        self.setWindowTitle(f"Bout #{bout.id}: {bout.fighter} vs {bout.opponent}")
        result = (
            "a draw"
            if bout.winner == "draw"
            else f"{bout.winner} won with {bout.face_cards_left} face cards left (+{bout.xp_gained} XP)"
        )
        mode = (
            f"played by the app (seed {bout.seed}; {bout.dice_note})" if bout.mode == "solo" else "played at the table"
        )
        head = QLabel(f"{bout.date}: {result}; {mode}." + (f"\nNotes: {bout.notes}" if bout.notes else ""), self)
        head.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(head)
        if bout.rounds:
            model = RoundsModel(self)
            model.set_names(bout.fighter, bout.opponent)
            model.set_round_dicts(bout.rounds)
            view = _table(self, "Rounds of the bout")
            view.setModel(model)
            fit_columns(view, model, stretch=-1)
            layout.addWidget(view, 1)
            self.resize(1000, 560)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.print_button = buttons.addButton("&Print round log\u2026", QDialogButtonBox.ButtonRole.ActionRole)
        self.print_button.setEnabled(bool(bout.rounds))
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


def show_bout_dialog(ctx: AppContext, parent: QWidget | None, bout_id: int) -> None:
    try:
        bout = service.show_bout(bout_id)
    except CampaignError as exc:
        ctx.signals.status.emit(str(exc))
        return
    dialog = BoutDialog(bout, parent)

    def print_log() -> None:
        from ...services.print_requests import BoutRequest
        from .printing import save_pdf

        save_pdf(ctx, dialog, BoutRequest(bout=bout_id), f"bout {bout_id}.pdf")

    dialog.print_button.clicked.connect(print_log)
    try:
        dialog.exec()
    finally:
        dialog.deleteLater()
