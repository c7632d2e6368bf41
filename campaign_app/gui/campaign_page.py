"""The campaign page: name, system, the ⚙ house rules (RULES.md 1.1-1.3) shown with their defaults, notes, and
the list of its platoons with New platoon / Generate platoon. Every change is one undoable service call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..rules.experience import DEFAULT_THRESHOLDS, Thresholds
from ..services import campaigns as campaign_service
from ..services import platoons as platoon_service
from ..services.campaigns import AtomicAfricaCampaignDetail, CampaignDetail, DeathBlowCampaign, SologearCampaign
from ..services.common import NotFound
from .campaign_dialog import ThresholdsEditor, new_platoon, period_choices
from .context import AppContext
from .feed import ViewFeed, concerns
from .loader import PageLoad
from .page_header import PageHeader
from .roster_models import ID_ROLE, PlatoonListModel, fit_columns
from .sizing import cap_fields
from .undo_commands import EditT, ServiceArgs, perform_later
from .widgets import ChoicePicker, CommitTextEdit, confirm, confirm_with_option, plural


class PlatoonTable(QTableView):
    """Enter opens the selected platoon (as a double click does)."""

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.activated.emit(self.currentIndex())
            return
        super().keyPressEvent(event)


class CampaignPage(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.cid: int | None = None
        self.detail: CampaignDetail | None = None
        self.feed = ViewFeed(ctx, self, lambda ch: self.cid is not None and concerns(ch, campaign=self.cid), self.load)
        self.loading: PageLoad[int, CampaignDetail] = PageLoad(
            ctx, campaign_service.show_campaign, self._fill, self._failed, self._waiting
        )
        self._build()
        cap_fields(self)  # fields stop at a readable width; the platoon table takes the rest

    def _build(self) -> None:
        body = QWidget()
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        # the campaign at a glance, beside its settings
        from .overview_views import ChronicleView, StandingsView, StatisticsView

        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(scroll, "Ca&mpaign")
        self.standings = StandingsView(self.ctx, self.tabs)
        self.tabs.addTab(self.standings, "Stand&ings")
        self.chronicle = ChronicleView(self.ctx, self.tabs)
        self.tabs.addTab(self.chronicle, "&Chronicle")
        self.statistics = StatisticsView(self.ctx, self.tabs)
        self.tabs.addTab(self.statistics, "Statistics")  # every letter is taken (Ctrl+Tab reaches it)
        outer.addWidget(self.tabs)

        self.header = PageHeader("Campaign name", "The campaign's name (Enter to rename)", body)
        self.name_edit, self.info_label, self.message = (
            self.header.name_edit,
            self.header.info_label,
            self.header.message,
        )
        self.archive_button = self.header.button("&Archive")
        self.delete_button = self.header.button("Delete campaign…")

        # house rules
        self.rules_box = QGroupBox("House rules", body)
        self.period = ChoicePicker(period_choices(), "Campaign period", self.rules_box)
        self.period_default = QLabel("default: not set (d10)", self.rules_box)
        self.thresholds = ThresholdsEditor(self.rules_box, keep_stored=True)
        self.thresholds_default = QLabel(f"default: {DEFAULT_THRESHOLDS}", self.rules_box)
        self.objective = ChoicePicker(
            list(campaign_service.OBJECTIVE_XP_TARGETS.items()), "Objective XP goes to", self.rules_box
        )
        self.objective_default = QLabel("default: platoon and leader", self.rules_box)
        self.replacement = ChoicePicker(
            [(2, "the lower of two dice \u2212 1"), (1, "one die \u2212 1")], "Replacement leader's XP", self.rules_box
        )
        self.replacement_default = QLabel("default: the lower of two dice \u2212 1", self.rules_box)
        form = QFormLayout(self.rules_box)
        for label, widget, default in (
            ("Campaign pe&riod:", self.period, self.period_default),
            ("XP thre&sholds:", self.thresholds, self.thresholds_default),
            ("&Objective XP goes to:", self.objective, self.objective_default),
            ("Replacement &leader:", self.replacement, self.replacement_default),
        ):
            row = QHBoxLayout()
            row.addWidget(widget)
            if isinstance(widget, ThresholdsEditor):  # beside the fields, not beside their message line
                row.addWidget(default, 0, Qt.AlignmentFlag.AlignTop)
                default.setContentsMargins(0, 4, 0, 0)
            else:
                row.addWidget(default)
            row.addStretch(1)
            buddy = QLabel(label, self.rules_box)
            buddy.setBuddy(widget.spins[0] if isinstance(widget, ThresholdsEditor) else widget)
            form.addRow(buddy, row)
        hint = QLabel(
            "The period sets the die of force generation and replacement leaders (period 1..5 \u2192 "
            "d4..d12). Thresholds are the XP needed for Green, Regular, Veteran and Legendary.",
            self.rules_box,
        )
        hint.setWordWrap(True)
        form.addRow(hint)
        self.period.chosen.connect(lambda value: self._set(period=value))
        self.thresholds.edited.connect(lambda t: self._set(thresholds=t))
        self.objective.chosen.connect(lambda value: self._set(objective_xp_to=value))
        self.replacement.chosen.connect(lambda value: self._set(replacement_dice=value))

        # platoons
        self.platoons_box = QGroupBox("Platoons", body)
        self.model = PlatoonListModel(self)
        self.view = PlatoonTable(self.platoons_box)
        self.view.setModel(self.model)
        self.view.setAccessibleName("Platoons of the campaign")
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setTabKeyNavigation(False)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().hide()
        self.view.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.setMinimumHeight(160)
        self.new_button = QPushButton("&New platoon…", self.platoons_box)
        self.generate_button = QPushButton("&Generate platoon…", self.platoons_box)
        self.generate_button.setToolTip("Force generation (RULES 1.3): the dice give the leader's and the platoon's XP")
        self.open_button = QPushButton("O&pen", self.platoons_box)
        self.delete_platoon_button = QPushButton("&Delete platoon…", self.platoons_box)
        self.empty_label = QLabel("No platoons yet: New platoon… or Generate platoon… adds one.", self.platoons_box)
        buttons = QHBoxLayout()
        for b in (self.new_button, self.generate_button, self.open_button, self.delete_platoon_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        playout = QVBoxLayout(self.platoons_box)
        playout.addWidget(self.empty_label)
        playout.addWidget(self.view, 1)
        playout.addLayout(buttons)
        self.sheets_label = QLabel(body)
        self.sheets_label.setWordWrap(True)
        # Sologear: the campaign is its pilot's sheet; open it, or make it when there is none (no dead end)
        self.sheet_button = QPushButton("Open the pilot &sheet", body)
        self.sheet_button.clicked.connect(self.open_or_create_sheet)
        sheets_row = QHBoxLayout()
        sheets_row.addWidget(self.sheets_label, 1)
        sheets_row.addWidget(self.sheet_button)

        notes_box = QGroupBox("Notes", body)
        self.notes = CommitTextEdit(notes_box)
        self.notes.setAccessibleName("Campaign notes")
        self.notes.setFixedHeight(70)
        QVBoxLayout(notes_box).addWidget(self.notes)
        self.notes_box = notes_box

        layout = QVBoxLayout(body)
        self._body_layout = layout
        self.fighters: Any = None  # d12 Death Blow: gui.death_blow.fighters_panel, made when first needed
        layout.addWidget(self.header)
        layout.addWidget(self.rules_box)
        layout.addWidget(self.platoons_box, 1)
        layout.addLayout(sheets_row)
        layout.addWidget(notes_box)
        layout.addStretch(0)  # takes the spare room when the platoon list is hidden (Sologear campaigns)
        notes_box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)

        self.name_edit.committed.connect(self._rename)
        self.notes.committed.connect(lambda text: self._set(notes=text))
        self.archive_button.clicked.connect(self.toggle_archive)
        self.delete_button.clicked.connect(self.delete_campaign)
        self.new_button.clicked.connect(lambda: self.new_platoon(False))
        self.generate_button.clicked.connect(lambda: self.new_platoon(True))
        self.open_button.clicked.connect(self.open_selected)
        self.delete_platoon_button.clicked.connect(self.delete_selected)
        self.view.activated.connect(lambda index: self.open_platoon(index))
        self.view.selectionModel().selectionChanged.connect(lambda *_a: self._update_buttons())

        chain: list[QWidget] = [
            self.name_edit,
            self.archive_button,
            self.delete_button,
            self.period,
            *self.thresholds.spins,
            self.thresholds.reset_button,
            self.objective,
            self.view,
            self.new_button,
            self.generate_button,
            self.open_button,
            self.delete_platoon_button,
            self.notes,
        ]
        for before, after in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(before, after)

    # --- showing ------------------------------------------------------------------------------------------
    def show_campaign(self, campaign_id: int) -> None:
        self.cid = campaign_id
        self._clear_message()
        self.load()
        for view in (self.standings, self.chronicle, self.statistics):
            view.show_campaign(campaign_id)

    def load(self) -> None:
        """Read the campaign and fill the page; on a club server off the GUI thread (:mod:`.loader`)."""
        self.feed.dirty = False
        if self.cid is None:
            return
        self.loading.request(self.cid)

    def _enable_editing(self, enabled: bool) -> None:
        for w in (
            self.rules_box,
            self.platoons_box,
            self.notes_box,
            self.name_edit,
            self.archive_button,
            self.delete_button,
        ):
            w.setEnabled(enabled)

    def _waiting(self, waiting: bool) -> None:
        self._enable_editing(not waiting)
        if waiting:  # the campaign shown before must not look like this one
            self.name_edit.setCommittedText("")
            self.info_label.setText("Reading the campaign from the club server\u2026")

    def _failed(self, _campaign_id: int, exc: Exception) -> None:
        if not isinstance(exc, CampaignError):
            raise exc  # a bug: the window's exception hook says so
        if not isinstance(exc, NotFound):  # busy, the server away (the window says that once, with Try Again)
            self.message.show_problem(str(exc))
            self.ctx.signals.status.emit(str(exc))
            return
        self.detail = None
        from .undo_commands import undo_stack_holds

        self.info_label.setText(
            "This campaign no longer exists (Edit \u25b8 Undo or Redo brings it back)."
            if undo_stack_holds(self.ctx, {("campaign", self.cid)})
            else "This campaign no longer exists: it was deleted in another window or by campaign-cli. "
            "Pick another campaign in the navigator."
        )
        self._enable_editing(False)

    def _fill(self, _campaign_id: int, c: CampaignDetail) -> None:
        for w in (
            self.rules_box,
            self.platoons_box,
            self.notes_box,
            self.name_edit,
            self.archive_button,
            self.delete_button,
        ):
            w.setEnabled(True)
        self.detail = c
        self.name_edit.setCommittedText(c.name)
        state = " \u00b7 archived (hidden from the navigator unless View \u25b8 Show archived)" if c.archived else ""
        self.info_label.setText(f"{c.system_label} campaign \u00b7 started {(c.created_at or '')[:10]}{state}")
        self.archive_button.setText("Un&archive" if c.archived else "&Archive")
        aa = isinstance(c, AtomicAfricaCampaignDetail)
        self.rules_box.setVisible(aa)
        self.platoons_box.setVisible(aa)
        self.sheets_label.setVisible(isinstance(c, SologearCampaign))
        self.sheet_button.setVisible(isinstance(c, SologearCampaign))
        self._show_fighters(c)
        if isinstance(c, SologearCampaign):
            if c.sheet_count:
                self.sheets_label.setText(
                    "The campaign is played on its pilot's sheet: roll the length, play the turns, record the battles."
                )
                self.sheet_button.setText("Open the pilot &sheet")
            else:
                self.sheets_label.setText(
                    "This Sologear campaign has no pilot yet. Create the pilot's sheet (the "
                    "pilot, the Gear and its TV) to start playing."
                )
                self.sheet_button.setText("Create the pilot &sheet\u2026")
        rules = {r.key: r for r in c.house_rules}
        self.period.setValue(c.period)
        self.thresholds.set_thresholds(Thresholds(*c.thresholds))
        self.objective.setValue(c.objective_xp_to)
        self.replacement.setValue(c.replacement_dice)
        for key, label in (
            ("period", self.period_default),
            ("thresholds", self.thresholds_default),
            ("objective_xp_to", self.objective_default),
            ("replacement_dice", self.replacement_default),
        ):
            is_default = rules[key].is_default
            base = label.text().split(" \u2014 ")[0].replace("<i>", "").replace("</i>", "")
            label.setText(base if is_default else f"<i>{base} \u2014 changed</i>")
        self.notes.setCommittedText(c.notes)
        keep = self._selected_id()
        platoons = c.platoons if isinstance(c, AtomicAfricaCampaignDetail) else ()
        self.model.set_rows(platoons)
        fit_columns(self.view, self.model)
        self.empty_label.setVisible(not platoons)
        if keep is not None and (row := self.model.row_of_id(keep)) is not None:
            self.view.selectRow(row)
        self._update_buttons()

    def _show_fighters(self, c: CampaignDetail) -> None:
        """A d12 Death Blow campaign lists its fighters (gui/death_blow/fighters_panel.py)."""
        if not isinstance(c, DeathBlowCampaign):
            if self.fighters is not None:
                self.fighters.hide()
            return
        if self.fighters is None:
            from .death_blow.fighters_panel import FightersPanel

            self.fighters = FightersPanel(self.ctx, self.platoons_box.parentWidget())
            self._body_layout.insertWidget(self._body_layout.indexOf(self.platoons_box) + 1, self.fighters, 1)
        self.fighters.show()
        self.fighters.show_campaign(c.id, c.name)

    def _update_buttons(self) -> None:
        selected = self._selected_id() is not None
        self.open_button.setEnabled(selected)
        self.delete_platoon_button.setEnabled(selected)

    def _selected_id(self) -> int | None:
        rows = self.view.selectionModel().selectedRows()
        return rows[0].data(ID_ROLE) if rows else None

    # --- writing ------------------------------------------------------------------------------------------
    def run(
        self, service: Callable[ServiceArgs, EditT], /, *args: ServiceArgs.args, **kwargs: ServiceArgs.kwargs
    ) -> EditT | None:
        """A write of the page (off the event loop on a club server: None is returned at once; see
        :func:`~.undo_commands.perform_later`); a refusal is shown on the page, which reads the stored values."""

        def refused(exc: CampaignError) -> None:
            self.message.show_problem(str(exc))
            self.ctx.signals.status.emit(str(exc))
            self.load()

        return perform_later(self.ctx, lambda _edit: self._clear_message(), refused, service, *args, **kwargs)

    def _clear_message(self) -> None:
        self.message.show_problem(None)

    def _set(self, **values: Any) -> None:
        if self.cid is not None:
            self.run(campaign_service.set_campaign, self.cid, **values)

    def _rename(self, name: str) -> None:
        if self.cid is not None:
            self.run(campaign_service.rename_campaign, self.cid, name)

    def toggle_archive(self) -> None:
        if self.detail is not None:
            self.run(campaign_service.archive_campaign, self.detail.id, archived=not self.detail.archived)

    def delete_campaign(self) -> None:
        if self.detail is None:
            return
        c = self.detail
        what = (
            plural(c.sheet_count, "pilot sheet")
            if isinstance(c, SologearCampaign)
            else plural(c.fighter_count, "fighter")
            if isinstance(c, DeathBlowCampaign)
            else plural(c.platoon_count, "platoon")
        )
        question = (
            f"Delete the campaign {c.name} with its {what} and all their history?\nEdit \u25b8 Undo "
            "brings it back while the app is open."
        )
        erase = (
            "\n\nErasing it from the undo history too leaves none of its text in the file; the deletion "
            "then cannot be undone (the backup made just before can bring it back)."
        )
        if getattr(self.ctx, "server", None) is not None:  # the server erases it (only for who deletes it)
            erase = (
                "\n\nErasing it from the undo history too removes its changes from the club's journal; the "
                "deletion then cannot be undone, and the server keeps no backup of it."
            )
        ok, forget = confirm_with_option(
            self, "Delete campaign", question + erase, "Also erase it from the undo history"
        )
        if ok:
            self.run(campaign_service.delete_campaign, c.id, forget=forget)

    def open_or_create_sheet(self) -> int | None:
        """Open the campaign's pilot sheet, or make it (the Sologear dialog, filled with this campaign)."""
        if self.detail is None or self.cid is None:
            return None
        sheets = self.detail.sheet_ids if isinstance(self.detail, SologearCampaign) else ()
        if sheets:
            self.ctx.signals.open_item.emit("sheet", int(sheets[0]))
            return int(sheets[0])
        from .sologear_dialogs import new_sologear_campaign

        sheet_id = new_sologear_campaign(self.ctx, self, name=self.detail.name, campaign_id=self.cid)
        if sheet_id:
            self.ctx.signals.open_item.emit("sheet", sheet_id)
        return sheet_id

    def new_platoon(self, generate: bool) -> int | None:
        if self.cid is None:
            return None
        new_id = new_platoon(self.ctx, self, self.cid, generate=generate)
        if new_id:
            self.ctx.signals.open_item.emit("platoon", new_id)
        return new_id

    def open_platoon(self, index: QModelIndex) -> None:
        platoon_id = index.data(ID_ROLE)
        if platoon_id is not None:
            self.ctx.signals.open_item.emit("platoon", int(platoon_id))

    def open_selected(self) -> None:
        rows = self.view.selectionModel().selectedRows()
        if rows:
            self.open_platoon(rows[0])

    def delete_selected(self) -> None:
        platoon_id = self._selected_id()
        if platoon_id is None:
            return
        row = self.model.row_data(self.model.row_of_id(platoon_id) or 0)
        if confirm(
            self,
            "Delete platoon",
            f"Delete {row.name} with its leaders, battles and history?\n"
            "Edit \u25b8 Undo brings it back while the app is open.",
        ):
            self.run(platoon_service.delete_platoon, platoon_id)
