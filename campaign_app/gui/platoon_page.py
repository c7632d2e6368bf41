"""The platoon page: reads like the Unit Data Sheet (RULES.md 1.1) and edits it in place.

Name, the three attribute dice with their level words, Armor with its class, the two 32-box XP tracks with
levels and orders cards, the leader and former leaders, attached units with their own dice and weapons, the
platoon's heavy weapons / special equipment, and notes. Every change goes through a roster service (one
transaction, logged) and onto ``ctx.undo_stack``; the page reloads when the change feed says it concerns it.

Extension point for the battle log: ``PlatoonPage.tabs`` is a QTabWidget whose first tab is "Sheet"; add the
"History" tab with :meth:`PlatoonPage.add_tab` (a tab widget with ``show_platoon(id)`` is told about every
platoon the page shows). ``PlatoonPage.action_bar`` is the button row at the top right; "Log battle…" sits
there when ``campaign_app.gui.battle_wizard.log_battle`` exists.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Sequence
from typing import Any, cast

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QFont, QFontMetrics, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..rules.enums import UnitKind
from ..rules.experience import Thresholds
from ..services import attachments as attachment_service
from ..services import leaders as leader_service
from ..services import platoons as platoon_service
from ..services.attachments import AttachedChange
from ..services.common import NotFound, name_key
from ..services.edits import Edit
from ..services.journal import OpChanges
from ..services.platoons import EquipmentItem, LeaderInfo, PlatoonDetail
from .context import AppContext
from .feed import ViewFeed, concerns
from .leader_dialog import ReplaceLeaderDialog
from .loader import PageLoad, in_background
from .page_header import PageHeader
from .roster_models import (
    ID_ROLE,
    AttachedModel,
    EquipmentDelegate,
    EquipmentModel,
    LeaderHistoryModel,
    RowsModel,
    ap_vs_choices,
    fit_columns,
)
from .sizing import cap_fields, cap_width
from .undo_commands import EditT, ServiceArgs, perform_later
from .widgets import ArmorPicker, ChoicePicker, CommitLineEdit, CommitTextEdit, DiePicker, confirm
from .xp_track import XpTrack

log = logging.getLogger(__name__)

DEFAULT_REASON = "changed on the platoon page"
ATTRS = ("training", "equipment", "morale")
NEW_UNIT_DEFAULTS: dict[str, dict[str, Any]] = {
    UnitKind.TEAM: {"training": 6, "equipment": 6, "morale": 6, "armor": 1},
    UnitKind.VEHICLE: {"training": 6, "equipment": 6, "morale": 6, "armor": 4},
    UnitKind.FIRE_SUPPORT: {"support": "light"},
}
KIND_CHOICES = [
    (UnitKind.TEAM, "Infantry team"),
    (UnitKind.VEHICLE, "Vehicle"),
    (UnitKind.FIRE_SUPPORT, "Off-board fire support"),
]
ATTR_LABELS = {"training": "Tra&ining", "equipment": "E&quipment", "morale": "&Morale"}
"""Alt+T, Alt+E and Alt+H belong to the Tools, Edit and Help menus: no mnemonic on the page may take them."""
SUPPORT_CHOICES = [(s, s.capitalize()) for s in attachment_service.SUPPORT_LEVELS]


def _table(model: Any, parent: QWidget, name: str) -> QTableView:
    view = QTableView(parent)
    view.setModel(model)
    view.setAccessibleName(name)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setTabKeyNavigation(False)
    view.verticalHeader().hide()
    view.setAlternatingRowColors(True)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setResizeContentsPrecision(40)  # columns fit the first rows, not every one of a long history
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    header.setMinimumSectionSize(40)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
    view.setWordWrap(False)
    view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    return view


def _fit_rows(view: QTableView, minimum: int = 1, maximum: int = 8) -> None:
    """Make a small table exactly as tall as its rows (the page scrolls, not the table)."""
    rows = max(minimum, min(maximum, view.model().rowCount()))
    height = view.horizontalHeader().sizeHint().height() + rows * view.verticalHeader().defaultSectionSize()
    view.setFixedHeight(height + 2 * view.frameWidth() + 2)


def _select_id(view: QTableView, row_id: int | None) -> None:
    model = cast("RowsModel[Any]", view.model())  # the page's tables all show a RowsModel
    row = model.row_of_id(row_id) if row_id is not None else None
    if row is None and model.rowCount():
        row = 0
    if row is None:
        view.clearSelection()
        return
    view.selectionModel().setCurrentIndex(
        model.index(row, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    )


def _selected_id(view: QTableView) -> int | None:
    index = view.selectionModel().currentIndex()
    if not index.isValid() or not view.selectionModel().isRowSelected(index.row(), index.parent()):
        return None
    row_id: int | None = index.data(ID_ROLE)
    return row_id


class EquipmentPanel(QWidget):
    """Heavy weapon / special equipment rows of one owner (the platoon or an attached unit): an editable
    table (cells offer only legal values) with Add and Remove."""

    def __init__(self, page: PlatoonPage, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.page = page
        self.attached_id: int | None = None
        self.model = EquipmentModel(self)
        self.model.editor = self._edit
        self.view = _table(self.model, self, title)
        self.view.setItemDelegate(EquipmentDelegate(self.view))
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.add_button = QPushButton("Add weapon", self)
        self.add_button.setToolTip(f"Add a row to {title.lower()}")
        self.remove_button = QPushButton("Remove", self)
        self.remove_button.setToolTip("Remove the selected row (Del)")
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        layout.addLayout(buttons)
        self.add_button.clicked.connect(self.add)
        self.remove_button.clicked.connect(self.remove)
        delete = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.view, self.remove)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)  # not while a cell is being edited
        delete.setWhatsThis("Remove the selected weapon (in a weapons table)")  # listed in Help ▸ Keyboard shortcuts
        self.view.selectionModel().selectionChanged.connect(lambda *_a: self._update_buttons())
        self._update_buttons()

    def set_rows(self, rows: Sequence[EquipmentItem]) -> None:
        keep = _selected_id(self.view)
        self.model.set_rows(rows)
        _fit_rows(self.view, 1, 6)
        if keep is not None:
            _select_id(self.view, keep)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(_selected_id(self.view) is not None)

    def _edit(self, item_id: int, field: str, value: Any) -> bool:
        kwargs: dict[str, Any] = {field: value}
        if field == "targets":
            row = self.model.row_data(self.model.row_of_id(item_id) or 0)
            if row.ap is not None and row.ap_vs not in dict(ap_vs_choices(str(value))):
                kwargs["ap_vs"] = None
        edit = self.page.run(attachment_service.edit_equipment, item_id, reason=self.page.reason(), **kwargs)
        return edit is not None or in_background(self.page.ctx)  # on a server: sent (a refusal reloads)

    def add(self) -> None:
        if self.page.pid is None:
            return
        names = {r.name for r in self.model.rows()}
        name, n = "New weapon", 1
        while name in names:
            n += 1
            name = f"New weapon {n}"
        edit = self.page.run(attachment_service.add_equipment, self.page.pid, name, attached=self.attached_id)
        if edit is not None:
            row = self.model.row_of_id(edit.result.item.id)
            if row is not None:
                index = self.model.index(row, 0)
                self.view.setCurrentIndex(index)
                self.view.edit(index)

    def remove(self) -> None:
        item = _selected_id(self.view)
        if item is not None:
            self.page.run(attachment_service.remove_equipment, item)


class PlatoonPage(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.pid: int | None = None
        self.detail: PlatoonDetail | None = None
        self.feed = ViewFeed(ctx, self, self._concerns, self.load)
        self.loading: PageLoad[int, tuple[PlatoonDetail, list[str]]] = PageLoad(
            ctx, self._read, self._fill, self._failed, self._waiting
        )
        self._extra_tabs: list[QWidget] = []
        self._build()
        from .history_view import HistoryView  # the battle log's tab (its charts load when first shown)

        self.add_tab(HistoryView(ctx, self), "Hist&ory")

    # --- layout -------------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.sheet = QWidget()
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.sheet)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.sheet_scroll = scroll  # (not "scroll": that is QWidget.scroll(), which it would hide)
        self.tabs.addTab(scroll, "&Sheet")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.tabs)

        s = self.sheet
        self._build_header(s)
        unit = self._build_unit(s)
        xp = self._build_experience(s)
        lead = self._build_leader(s)
        att = self._build_attached(s)
        eq, nb = self._build_equipment_and_notes(s)
        self._build_notices(s)

        layout = QVBoxLayout(s)
        layout.addWidget(self.header)
        layout.addWidget(self.stale_label)
        layout.addWidget(self.gone_label)
        top = QHBoxLayout()
        top.addWidget(unit, 0)
        top.addStretch(1)
        layout.addLayout(top)
        layout.addWidget(xp)
        layout.addWidget(lead)
        layout.addWidget(att)
        layout.addWidget(eq)
        layout.addWidget(nb)
        layout.addStretch(1)
        self.sections = [unit, xp, lead, att, eq, nb]
        self._set_tab_order()
        cap_width(self.reason_edit, 72)
        cap_width(self.leader_name, 32)
        cap_width(self.leader_rank, 24)
        cap_fields(self.sheet)  # fields stop at a readable width; tables and notes take the rest

    def _build_header(self, s: QWidget) -> None:
        """The name (renamed in place), the campaign line, Log battle and Delete, the message line."""
        # header: name, campaign line, action bar, message
        self.header = PageHeader("Platoon name", "The platoon's name (Enter to rename)", s)
        self.name_edit, self.info_label, self.message = (
            self.header.name_edit,
            self.header.info_label,
            self.header.message,
        )
        self.action_bar = self.header.button_row
        self.log_battle_button = self.header.button(
            "&Log battle…", "Record a battle and run the post-battle rolls (Ctrl+B)"
        )
        self.log_battle_button.clicked.connect(self.log_battle)
        self.delete_button = self.header.button("Delete platoon…")
        self.delete_button.clicked.connect(self.delete_platoon)

        self.name_edit.committed.connect(self._rename)

    def _build_unit(self, s: QWidget) -> QGroupBox:
        """The platoon's three dice and its Armor."""
        # unit: dice and Armor
        unit = QGroupBox("Unit", s)
        self.pickers = {a: DiePicker(a, unit) for a in ATTRS}
        self.armor = ArmorPicker(5, unit)
        ugrid = QGridLayout(unit)
        for col, attr in enumerate(ATTRS):
            label = QLabel(ATTR_LABELS[attr], unit)
            label.setBuddy(self.pickers[attr])
            ugrid.addWidget(label, 0, col)
            ugrid.addWidget(self.pickers[attr], 1, col)
        alabel = QLabel("&Armor", unit)
        alabel.setBuddy(self.armor)
        ugrid.addWidget(alabel, 0, 3)
        ugrid.addWidget(self.armor, 1, 3)
        ugrid.setColumnStretch(4, 1)
        for attr, picker in self.pickers.items():
            picker.dieChosen.connect(lambda sides, a=attr: self._set_platoon(**{a: sides}))
        self.armor.armorChosen.connect(lambda armor: self._set_platoon(armor=armor))
        return unit

    def _build_experience(self, s: QWidget) -> QGroupBox:
        """The platoon's and the leader's XP tracks, levels, orders cards and the reason kept with changes."""
        # experience: two tracks, levels, orders cards, reason
        xp = QGroupBox("Experience", s)
        self.platoon_track = XpTrack(who="Platoon XP", parent=xp)
        self.leader_track = XpTrack(who="Leader XP", parent=xp)
        self.platoon_xp_label = QLabel(xp)
        self.leader_xp_label = QLabel(xp)
        for lab in (self.platoon_xp_label, self.leader_xp_label):  # fixed: a longer level or name moves nothing
            lab.setFixedWidth(lab.fontMetrics().horizontalAdvance("32 XP  Legendary \u00b7 Lt. Okafor") + 8)
        self.leader_track_title = QLabel("Leader", xp)  # the name goes right of the track: the track never moves
        self.cards_label = QLabel(xp)
        self.cards_label.setAccessibleName("Orders cards per turn")
        self.reason_edit = QLineEdit(xp)
        self.reason_edit.setPlaceholderText(f"optional; empty = \u201c{DEFAULT_REASON}\u201d")
        self.reason_edit.setAccessibleName("Reason for changes")
        self.reason_edit.setToolTip("Kept with every XP, dice and Armor change you make on this page")
        xgrid = QGridLayout(xp)
        xgrid.addWidget(QLabel("Platoon", xp), 0, 0)
        xgrid.addWidget(self.platoon_track, 0, 1)
        xgrid.addWidget(self.platoon_xp_label, 0, 2)
        xgrid.addWidget(self.leader_track_title, 1, 0)
        xgrid.addWidget(self.leader_track, 1, 1)
        xgrid.addWidget(self.leader_xp_label, 1, 2)
        xgrid.addWidget(self.cards_label, 2, 0, 1, 4)
        reason_row = QHBoxLayout()
        rlabel = QLabel("&Reason for changes:", xp)
        rlabel.setBuddy(self.reason_edit)
        reason_row.addWidget(rlabel)
        reason_row.addWidget(self.reason_edit, 1)
        reason_row.addStretch(0)
        xgrid.addLayout(reason_row, 3, 0, 1, 4)
        xgrid.setColumnStretch(3, 1)
        self.platoon_track.xpEdited.connect(lambda new, old: self._set_xp("platoon", new, old))
        self.leader_track.xpEdited.connect(lambda new, old: self._set_xp("leader", new, old))
        return xp

    def _build_leader(self, s: QWidget) -> QGroupBox:
        """The leader's name and rank, Replace leader, and the former leaders."""
        # leader
        lead = QGroupBox("Leader", s)
        self.leader_name = CommitLineEdit("", lead)
        self.leader_name.setAccessibleName("Leader's name")
        self.leader_rank = CommitLineEdit("", lead)
        self.leader_rank.setAccessibleName("Leader's rank")
        self.replace_button = QPushButton("Re&place leader…", lead)
        self.leader_info = QLabel(lead)
        self.former_model = LeaderHistoryModel(self)
        self.former_view = _table(self.former_model, lead, "Former leaders")
        self.former_empty = QLabel("No former leaders.", lead)
        lgrid = QGridLayout(lead)
        nlabel = QLabel("&Name", lead)
        nlabel.setBuddy(self.leader_name)
        klabel = QLabel("Ran&k", lead)
        klabel.setBuddy(self.leader_rank)
        lgrid.addWidget(nlabel, 0, 0)
        lgrid.addWidget(self.leader_name, 0, 1)
        lgrid.addWidget(klabel, 0, 2)
        lgrid.addWidget(self.leader_rank, 0, 3)
        lgrid.addWidget(self.replace_button, 0, 4)
        lgrid.addWidget(self.leader_info, 1, 0, 1, 6)
        lgrid.addWidget(self.former_view, 2, 0, 1, 6)
        lgrid.addWidget(self.former_empty, 3, 0, 1, 6)
        lgrid.setColumnStretch(5, 1)  # the name and rank fields keep their width; the spare room goes right
        self.leader_name.committed.connect(lambda text: self._set_leader(name=text))
        self.leader_rank.committed.connect(lambda text: self._set_leader(rank=text))
        self.replace_button.clicked.connect(self.replace_leader)
        return lead

    def _build_attached(self, s: QWidget) -> QGroupBox:
        """The attached units: their list and the editor of the selected one."""
        # attached units: list + editor of the selected one
        att = QGroupBox("Attached units (no XP of their own; they use the platoon's level)", s)
        self.attached_model = AttachedModel(self)
        self.attached_view = _table(self.attached_model, att, "Attached units")
        self.add_team_button = QPushButton("A&dd team", att)
        self.add_vehicle_button = QPushButton("Add vehi&cle", att)
        self.add_support_button = QPushButton("Add fire s&upport", att)
        self.remove_unit_button = QPushButton("Remove unit", att)
        abuttons = QHBoxLayout()
        for b in (self.add_team_button, self.add_vehicle_button, self.add_support_button, self.remove_unit_button):
            abuttons.addWidget(b)
        abuttons.addStretch(1)
        self.unit_box = QGroupBox("Selected unit", att)
        self.unit_name = CommitLineEdit("", self.unit_box)
        self.unit_name.setAccessibleName("Attached unit name")
        self.unit_kind = ChoicePicker(KIND_CHOICES, "Attached unit kind", self.unit_box)
        self.unit_pickers = {a: DiePicker(a, self.unit_box) for a in ATTRS}
        for a, p in self.unit_pickers.items():
            p.setAccessibleName(f"Attached unit {a}")
        self.unit_armor = ArmorPicker(5, self.unit_box)
        self.unit_armor.setAccessibleName("Attached unit Armor")
        self.unit_support = ChoicePicker(SUPPORT_CHOICES, "Fire support level", self.unit_box)
        self.unit_notes = CommitLineEdit("", self.unit_box)
        self.unit_notes.setAccessibleName("Attached unit notes")
        self.unit_equipment = EquipmentPanel(self, "Weapons of the selected unit", self.unit_box)
        uform = QFormLayout(self.unit_box)
        uform.addRow("Name:", self.unit_name)
        uform.addRow("Kind:", self.unit_kind)
        self._unit_rows: dict[str, tuple[QLabel, QWidget]] = {}
        for key, caption, widget in (
            ("training", "Training:", self.unit_pickers["training"]),
            ("equipment", "Equipment:", self.unit_pickers["equipment"]),
            ("morale", "Morale:", self.unit_pickers["morale"]),
            ("armor", "Armor:", self.unit_armor),
            ("support", "Support:", self.unit_support),
        ):
            lab = QLabel(caption, self.unit_box)
            lab.setBuddy(widget)
            uform.addRow(lab, widget)
            self._unit_rows[key] = (lab, widget)
        uform.addRow("Notes:", self.unit_notes)
        uform.addRow(self.unit_equipment)
        agrid = QGridLayout(att)
        left = QVBoxLayout()
        left.addWidget(self.attached_view)
        left.addLayout(abuttons)
        left.addStretch(1)
        agrid.addLayout(left, 0, 0)
        self.attached_grid = agrid
        self._attached_wide: bool | None = None
        self._arrange_attached(wide=True)
        self.attached_view.selectionModel().selectionChanged.connect(lambda *_a: self._show_unit())
        self.add_team_button.clicked.connect(lambda: self.add_unit(UnitKind.TEAM))
        self.add_vehicle_button.clicked.connect(lambda: self.add_unit(UnitKind.VEHICLE))
        self.add_support_button.clicked.connect(lambda: self.add_unit(UnitKind.FIRE_SUPPORT))
        self.remove_unit_button.clicked.connect(self.remove_unit)
        self.unit_name.committed.connect(lambda text: self._edit_unit(name=text))
        self.unit_notes.committed.connect(lambda text: self._edit_unit(notes=text))
        self.unit_kind.chosen.connect(self._change_unit_kind)
        for attr, picker in self.unit_pickers.items():
            picker.dieChosen.connect(lambda sides, a=attr: self._edit_unit(**{a: sides}))
        self.unit_armor.armorChosen.connect(lambda armor: self._edit_unit(armor=armor))
        self.unit_support.chosen.connect(lambda level: self._edit_unit(support=level))
        return att

    def _build_equipment_and_notes(self, s: QWidget) -> tuple[QGroupBox, QGroupBox]:
        """The platoon's own heavy weapons / special equipment, and its notes."""
        # the platoon's own heavy weapons / special equipment
        eq = QGroupBox("Heavy weapons / special equipment", s)
        self.equipment = EquipmentPanel(self, "Heavy weapons and special equipment of the platoon", eq)
        QVBoxLayout(eq).addWidget(self.equipment)

        # notes
        nb = QGroupBox("Notes", s)
        self.notes = CommitTextEdit(nb)
        self.notes.setAccessibleName("Platoon notes")
        self.notes.setFixedHeight(80)
        self.notes.setPlaceholderText("Anything worth remembering (saved when you leave the field)")
        QVBoxLayout(nb).addWidget(self.notes)
        self.notes.committed.connect(lambda text: self._set_platoon(notes=text))
        return eq, nb

    def _build_notices(self, s: QWidget) -> None:
        """The notices above the sheet: the platoon is gone; printouts are out of date."""
        self.gone_label = QLabel(s)
        # a step pushed after the page reloaded (a deletion here) makes Undo able to bring the platoon back
        self.ctx.undo_stack.indexChanged.connect(self._update_gone_text)
        self.gone_label.setWordWrap(True)
        self.gone_label.hide()

        # "printed sheet out of date: 2 changes since (battle 5, Training d8 → d10)"
        self.stale_label = QLabel(s)
        self.stale_label.setObjectName("StalePrintNotice")
        self.stale_label.setAccessibleName("Printouts out of date")
        self.stale_label.setWordWrap(True)
        self.stale_label.setToolTip(
            "What the app printed for this platoon has changed since: File \u25b8 Print offers only what changed"
        )
        self.stale_label.hide()

    def _set_tab_order(self) -> None:
        """Tab goes through the sheet as it reads: header, unit, experience, leader, attached units, equipment and
        notes."""
        chain: list[QWidget] = [
            self.name_edit,
            self.log_battle_button,
            self.delete_button,
            *self.pickers.values(),
            self.armor,
            self.platoon_track,
            self.leader_track,
            self.reason_edit,
            self.leader_name,
            self.leader_rank,
            self.replace_button,
            self.former_view,
            self.attached_view,
            self.add_team_button,
            self.add_vehicle_button,
            self.add_support_button,
            self.remove_unit_button,
            self.unit_name,
            self.unit_kind,
            *self.unit_pickers.values(),
            self.unit_armor,
            self.unit_support,
            self.unit_notes,
            self.unit_equipment.view,
            self.unit_equipment.add_button,
            self.unit_equipment.remove_button,
            self.equipment.view,
            self.equipment.add_button,
            self.equipment.remove_button,
            self.notes,
        ]
        for before, after in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(before, after)

    ATTACHED_SIDE_BY_SIDE = 1100
    """Below this page width the selected unit's editor goes under the list of attached units (side by side
    the list's columns would be cut)."""

    def _arrange_attached(self, wide: bool) -> None:
        if wide == self._attached_wide:
            return
        self._attached_wide = wide
        grid = self.attached_grid
        grid.removeWidget(self.unit_box)
        if wide:
            grid.addWidget(self.unit_box, 0, 1)
            grid.setColumnStretch(0, 3)
            grid.setColumnStretch(1, 2)
        else:
            grid.addWidget(self.unit_box, 1, 0)
            grid.setColumnStretch(0, 1)
            grid.setColumnStretch(1, 0)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        self._arrange_attached(event.size().width() >= self.ATTACHED_SIDE_BY_SIDE)
        super().resizeEvent(event)

    # --- extension point (battle log engineer) -------------------------------------------------------------
    def add_tab(self, widget: QWidget, title: str) -> int:
        """Add a tab after "Sheet" (e.g. "&History"); if ``widget`` has ``show_platoon(id)`` it is called for
        every platoon the page shows."""
        self._extra_tabs.append(widget)
        index = self.tabs.addTab(widget, title)
        if self.pid is not None and hasattr(widget, "show_platoon"):
            widget.show_platoon(self.pid)
        return index

    def log_battle(self) -> None:
        if self.pid is not None:
            from .battle_wizard import log_battle  # imported on first use

            log_battle(self.ctx, self.window(), self.pid)

    # --- showing ------------------------------------------------------------------------------------------
    def show_platoon(self, platoon_id: int) -> None:
        if platoon_id != self.pid:
            self.reason_edit.clear()
            self.attached_view.clearSelection()
        self.pid = platoon_id
        self._clear_message()
        self.load()
        for widget in self._extra_tabs:
            if hasattr(widget, "show_platoon"):
                widget.show_platoon(platoon_id)

    def _update_gone_text(self, _index: int = 0) -> None:
        if not self.gone_label.isHidden():
            self.gone_label.setText(self._gone_text())

    def _gone_text(self) -> str:
        """Undo is offered only when this window's undo stack holds a step of this platoon or its campaign
        (a deletion here, an undone creation); a deletion by another window or campaign-cli it cannot undo."""
        from .undo_commands import undo_stack_holds

        campaign_id = self.detail.campaign_id if self.detail else None
        if undo_stack_holds(self.ctx, {("platoon", self.pid), ("campaign", campaign_id)}):
            return (
                "This platoon no longer exists (deleted, or its creation was undone). "
                "Edit \u25b8 Undo or Redo brings it back."
            )
        return (
            "This platoon no longer exists: it was deleted in another window or by campaign-cli. "
            "Pick another platoon in the navigator."
        )

    def _show_notices(self, notices: list[str]) -> None:
        self.stale_label.setText(
            "\u26a0 " + "<br>\u26a0 ".join(n.replace("&", "&amp;").replace("<", "&lt;") for n in notices)
            if notices
            else ""
        )
        self.stale_label.setVisible(bool(notices))

    def _read(self, platoon_id: int) -> tuple[PlatoonDetail, list[str]]:
        """What the page shows (plain data; on a club server this runs on the window's worker)."""
        from ..errors import CampaignError
        from ..services.prints import platoon_notices

        detail = platoon_service.platoon_detail(platoon_id)
        try:
            notices = platoon_notices(platoon_id)
        except CampaignError:
            notices = []
        return detail, notices

    def _waiting(self, waiting: bool) -> None:
        """A platoon never shown is being read: its sections wait (nothing is typed over another platoon's
        values)."""
        for section in self.sections:
            section.setEnabled(not waiting)
        for widget in (self.name_edit, self.delete_button, self.log_battle_button):
            widget.setEnabled(not waiting)
        if waiting:  # the platoon shown before must not look like this one
            self.name_edit.setCommittedText("")
            self.info_label.setText("Reading the platoon from the club server\u2026")

    def _failed(self, _platoon_id: int, exc: Exception) -> None:
        if not isinstance(exc, CampaignError):
            raise exc  # a bug: the window's exception hook says so, as for any action
        if not isinstance(exc, NotFound):  # busy, the server away (the window says that once, with Try Again)
            self._show_message(str(exc))
            return
        self.gone_label.setText(self._gone_text())
        self.detail = None
        self.gone_label.show()
        for section in self.sections:
            section.setEnabled(False)
        self.name_edit.setEnabled(False)
        self.delete_button.setEnabled(False)
        self.log_battle_button.setEnabled(False)

    def load(self) -> None:
        """Read the platoon again and put every value into the widgets (no writes happen here); on a club
        server the read runs off the GUI thread and what was shown before stays until it comes."""
        self.feed.dirty = False
        if self.pid is None:
            return
        self.loading.request(self.pid)

    def _fill(self, _platoon_id: int, data: tuple[PlatoonDetail, list[str]]) -> None:
        d, notices = data
        self.detail = d
        self.gone_label.hide()
        self._show_notices(notices)
        for section in self.sections:
            section.setEnabled(True)
        self.name_edit.setEnabled(True)
        self.delete_button.setEnabled(True)
        self.log_battle_button.setEnabled(True)
        t = Thresholds(*d.thresholds)
        self.name_edit.setCommittedText(d.name)
        battles = d.battles
        period = f"period {d.period}" if d.period else "no period set"
        self.info_label.setText(
            f"Campaign <b>{d.campaign}</b> \u00b7 {period} \u00b7 "
            f"{battles} battle{'s' if battles != 1 else ''} \u00b7 thresholds "
            f"G {t.green}, R {t.regular}, V {t.veteran}, L {t.legendary}"
        )
        dice = {"training": d.training, "equipment": d.equipment, "morale": d.morale}
        for attr, picker in self.pickers.items():
            picker.setValue(int(dice[attr][1:]))
        self.armor.setValue(d.armor)
        self.platoon_track.setThresholds(t)
        self.platoon_track.setXp(d.xp)
        self.platoon_xp_label.setText(f"<b>{d.xp} XP</b>  {d.level}")
        leader = d.leader
        self.leader_track.setThresholds(t)
        self.leader_track.setEnabled(leader is not None)
        self.leader_track.setXp(leader.xp if leader else 0)
        self._show_leader_xp(leader)
        cards = f"Orders cards per turn: <b>{d.cards}</b>  (2 \u00d7 {d.level_rank} {d.level}"
        cards += f" + 2 \u00d7 {leader.level_rank} {leader.level} leader)" if leader else ", no leader)"
        if d.cards_with_fire_support is not None:
            cards += f"; <b>{d.cards_with_fire_support}</b> in a turn with fire support available"
        self.cards_label.setText(cards)
        self.leader_name.setEnabled(leader is not None)
        self.leader_rank.setEnabled(leader is not None)
        self.leader_name.setCommittedText(leader.name if leader else "")
        self.leader_rank.setCommittedText(leader.rank if leader else "")
        if leader:
            joined = f"after battle {leader.joined_battle}" if leader.joined_battle else (leader.joined_at or "")[:10]
            self.leader_info.setText(f"{leader.name} joined {joined} with {leader.xp_at_join} XP.")
        else:
            self.leader_info.setText("The platoon has no leader: Appoint leader… names one.")
        self.replace_button.setText("Re&place leader…" if leader else "A&ppoint leader…")
        self.former_model.set_rows(d.former_leaders)
        fit_columns(self.former_view, self.former_model)  # once from the texts: a long list is not asked per layout
        _fit_rows(self.former_view, 1, 6)
        self.former_view.setVisible(bool(d.former_leaders))
        self.former_empty.setVisible(not d.former_leaders)

        keep = _selected_id(self.attached_view)
        self.attached_model.set_rows(d.attached)
        _fit_rows(self.attached_view, 2, 8)
        _select_id(self.attached_view, keep)
        self._show_unit()
        self.equipment.set_rows(d.equipment_list)
        self.notes.setCommittedText(d.notes)

    def _show_leader_xp(self, leader: LeaderInfo | None) -> None:
        """ "2 XP Green · Lt. Okafor" right of the leader's track, the name shortened to the label's fixed width
        (in full in the tooltip), so a long name moves nothing."""
        if leader is None:
            self.leader_xp_label.setText("no leader")
            self.leader_xp_label.setToolTip("")
            return
        level = f"{leader.xp} XP  {leader.level} \u00b7 "
        metrics = self.leader_xp_label.fontMetrics()
        bold = QFont(self.leader_xp_label.font())
        bold.setBold(True)
        room = self.leader_xp_label.minimumWidth() - QFontMetrics(bold).horizontalAdvance(level) - 4
        name = metrics.elidedText(leader.name, Qt.TextElideMode.ElideRight, max(room, 40))
        self.leader_xp_label.setText(f"<b>{leader.xp} XP</b>  {leader.level} \u00b7 {html.escape(name)}")
        self.leader_xp_label.setToolTip(f"{leader.name}: {leader.xp} XP, {leader.level}")

    def _show_unit(self) -> None:
        unit_id = _selected_id(self.attached_view)
        row = self.attached_model.row_of_id(unit_id) if unit_id is not None else None
        self.remove_unit_button.setEnabled(row is not None)
        self.unit_box.setEnabled(row is not None)
        if row is None:
            self.unit_box.setTitle("Selected unit (none)")
            self.unit_name.setCommittedText("")
            self.unit_notes.setCommittedText("")
            # show no values at all: never those of a unit of another platoon shown before
            for combo in (self.unit_kind, *self.unit_pickers.values(), self.unit_armor, self.unit_support):
                blocked = combo.blockSignals(True)
                combo.setCurrentIndex(-1)
                combo.blockSignals(blocked)
            self.unit_equipment.attached_id = None
            self.unit_equipment.set_rows([])
            return
        u = self.attached_model.row_data(row)
        self.unit_box.setTitle(f"Selected unit: {u.name}")
        self.unit_name.setCommittedText(u.name)
        self.unit_kind.setValue(u.kind)
        support = u.kind == UnitKind.FIRE_SUPPORT
        for key, (label, widget) in self._unit_rows.items():
            visible = (key == "support") == support
            label.setVisible(visible)
            widget.setVisible(visible)
        if support:
            self.unit_support.setValue(u.support)
        else:
            dice = {"training": u.training, "equipment": u.equipment, "morale": u.morale}
            for attr, picker in self.unit_pickers.items():
                die = dice[attr]
                assert die is not None  # a team or a vehicle has its own three dice and Armor (CHECK)
                picker.setValue(int(die[1:]))
            assert u.armor is not None
            self.unit_armor.setMaximum(attachment_service.TEAM_MAX_ARMOR if u.kind == UnitKind.TEAM else 5)
            self.unit_armor.setValue(u.armor)
        self.unit_notes.setCommittedText(u.notes)
        self.unit_equipment.attached_id = u.id
        self.unit_equipment.set_rows(u.equipment_list)

    # --- refreshing -----------------------------------------------------------------------------------------
    def _concerns(self, changes: OpChanges) -> bool:
        """Reload when the operation touched this platoon, was made on it or on its campaign as a whole."""
        if self.pid is None:
            return False
        return concerns(changes, platoon=self.pid, campaign=self.detail.campaign_id if self.detail else None)

    # --- writing --------------------------------------------------------------------------------------------
    def reason(self) -> str:
        return self.reason_edit.text().strip() or DEFAULT_REASON

    def run(
        self, service: Callable[ServiceArgs, EditT], /, *args: ServiceArgs.args, **kwargs: ServiceArgs.kwargs
    ) -> EditT | None:
        """Call a roster service as one undoable step; a refusal is shown on the page and the widgets go
        back to the stored values. On a club server it is sent off the event loop (None is returned at once;
        see :func:`~.undo_commands.perform_later`)."""
        return self.run_then(None, service, *args, **kwargs)

    def run_then(
        self,
        then: Callable[[EditT], None] | None,
        service: Callable[ServiceArgs, EditT],
        /,
        *args: ServiceArgs.args,
        **kwargs: ServiceArgs.kwargs,
    ) -> EditT | None:
        """:meth:`run`, then ``then(edit)`` once the write is done (at once on a file)."""

        def done(edit: EditT) -> None:
            self._clear_message()
            if then is not None:
                then(edit)

        def refused(exc: CampaignError) -> None:
            self._show_message(str(exc))
            self.load()

        return perform_later(self.ctx, done, refused, service, *args, **kwargs)

    def _show_message(self, text: str) -> None:
        self.message.show_problem(text)
        self.ctx.signals.status.emit(text)

    def _clear_message(self) -> None:
        self.message.show_problem(None)

    def _set_platoon(self, **values: Any) -> None:
        if self.pid is not None:
            self.run(platoon_service.set_platoon, self.pid, reason=self.reason(), **values)

    def _rename(self, name: str) -> None:
        if self.pid is not None:
            self.run(platoon_service.rename_platoon, self.pid, name, reason=self.reason())

    def _set_xp(self, who: str, new: int, old: int) -> None:
        if self.pid is not None:
            self.run(platoon_service.set_xp, self.pid, new, reason=self.reason(), who=who)

    def _set_leader(self, **values: Any) -> None:
        if self.pid is not None:
            self.run(leader_service.set_leader, self.pid, reason=self.reason(), **values)

    def replace_leader(self) -> ReplaceLeaderDialog | None:
        """Open the replace-leader dialog (window-modal, not blocking); returns it."""
        if self.detail is None:
            return None
        dialog = ReplaceLeaderDialog(self.detail, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.leader_dialog = dialog

        def done() -> None:
            if self.pid is not None:
                self.run(leader_service.replace_leader, self.pid, **dialog.values())

        dialog.accepted.connect(done)
        dialog.open()
        return dialog

    def add_unit(self, kind: str) -> None:
        if self.pid is None:
            return
        labels: dict[str, str] = {
            UnitKind.TEAM: "New team",
            UnitKind.VEHICLE: "New vehicle",
            UnitKind.FIRE_SUPPORT: "Fire support",
        }
        label = labels[kind]
        names = {name_key(r.name) for r in self.attached_model.rows()}
        name, n = label, 1
        while name_key(name) in names:
            n += 1
            name = f"{label} {n}"

        def added(edit: Edit[AttachedChange]) -> None:
            _select_id(self.attached_view, edit.result.unit.id)
            self.unit_name.setFocus(Qt.FocusReason.OtherFocusReason)
            self.unit_name.selectAll()

        self.run_then(added, attachment_service.add_attached, self.pid, name, kind, **NEW_UNIT_DEFAULTS[kind])

    def remove_unit(self) -> None:
        unit_id = _selected_id(self.attached_view)
        if unit_id is not None:
            self.run(attachment_service.remove_attached, unit_id, reason=self.reason())

    def _edit_unit(self, **values: Any) -> None:
        unit_id = _selected_id(self.attached_view)
        if unit_id is not None:
            self.run(attachment_service.edit_attached, unit_id, reason=self.reason(), **values)

    def _change_unit_kind(self, kind: str) -> None:
        unit_id = _selected_id(self.attached_view)
        if unit_id is None:
            return
        u = self.attached_model.row_data(self.attached_model.row_of_id(unit_id) or 0)
        values: dict[str, Any] = {"kind": kind}
        if kind == UnitKind.FIRE_SUPPORT:
            values["support"] = u.support or "light"
        elif u.kind == UnitKind.FIRE_SUPPORT:
            values.update(NEW_UNIT_DEFAULTS[kind])
        elif kind == UnitKind.TEAM and (u.armor or 1) > attachment_service.TEAM_MAX_ARMOR:
            values["armor"] = attachment_service.TEAM_MAX_ARMOR
        self._edit_unit(**values)

    def delete_platoon(self) -> None:
        if self.detail is None:
            return
        d = self.detail
        if confirm(
            self,
            "Delete platoon",
            f"Delete {d.name} with its leaders, battles and history?\n"
            "Edit \u25b8 Undo brings it back while the app is open.",
        ):
            self.run(platoon_service.delete_platoon, d.id)


__all__ = ["PlatoonPage", "EquipmentPanel"]
