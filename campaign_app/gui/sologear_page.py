"""The Sologear page: one pilot's campaign sheet (both sides' units, live totals and odds), the battle form
(one row per turn, Play turn / Record result / Undo), the end-of-campaign reckoning with its breakdowns,
the history of turns and rolls, and the optional rules.

All writes go through the services via ``undo_commands.perform`` (one transaction each, on the app-wide
undo stack); the page refreshes on ``ctx.signals.data_changed``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTabWidget,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..rules import codes
from ..rules import sologear as sg
from ..rules.experience import RulesError
from ..services import sologear as svc
from ..services.common import NotFound
from .context import AppContext, concerns
from .sizing import cap_fields
from .sologear_dialogs import EndDialog, LengthDialog, PlayTurnDialog, RecordDialog
from .undo_commands import try_perform
from .widgets import CommitLineEdit, DecimalSpin, NumberSpin

log = logging.getLogger(__name__)

Index = QModelIndex | QPersistentModelIndex
ID_ROLE = Qt.ItemDataRole.UserRole + 1


def fmt(x: float) -> str:
    """700.0 -> "700", 16.65 -> "16.65"."""
    return f"{x:,.2f}".rstrip("0").rstrip(".").replace(",", " ") if x != int(x) else f"{int(x):,}".replace(",", " ")


def odds_text(player: float, enemy: float) -> str:
    if enemy <= 0:
        return "Odds: –  (enter the enemy's units)"
    try:
        result = sg.odds(player, enemy)
    except RulesError as exc:
        return f"Odds: –  ({exc})"
    # the table is read with the odds rounded to two decimals (RULES: 1:3 is 0.33, Losing; 2.995 is 3.00)
    return (f"Odds: {fmt(player)} ÷ {fmt(enemy)} = {result['ratio_text']}, read as {result['compared']}  →  "
            f"{result['band']}")


def fit_height(view: QTableView) -> None:
    """Make a short table exactly as tall as its rows (no empty space, no scroll bar)."""
    rows = sum(view.rowHeight(r) for r in range(view.model().rowCount()))
    view.setFixedHeight(view.horizontalHeader().height() + rows + 2 * view.frameWidth() + 2)


# --- table models -------------------------------------------------------------------------------------------

class TextRowsModel(QAbstractTableModel):
    """Read-only rows of strings with optional per-row tooltips and ids."""

    def __init__(self, headers: Sequence[str], parent: Any = None) -> None:
        super().__init__(parent)
        self.headers = list(headers)
        self._rows: list[list[str]] = []
        self._tips: list[str] = []
        self._ids: list[Any] = []
        self.align_right: set[int] = set()

    def set_rows(self, rows: Sequence[Sequence[str]], tips: Sequence[str] | None = None,
                 ids: Sequence[Any] | None = None) -> None:
        self.beginResetModel()
        self._rows = [[str(c) for c in r] for r in rows]
        self._tips = list(tips) if tips is not None else [""] * len(self._rows)
        self._ids = list(ids) if ids is not None else [None] * len(self._rows)
        self.endResetModel()

    def rows(self) -> list[list[str]]:
        return [list(r) for r in self._rows]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt API
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal \
                and 0 <= section < len(self.headers):
            return self.headers[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)) or \
                not (0 <= index.column() < len(self.headers)):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tips[index.row()] or None
        if role == ID_ROLE:
            return self._ids[index.row()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in self.align_right:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class ForceTableModel(QAbstractTableModel):
    """One side's units, editable in place: a change goes (deferred) to ``editor(force_id, field, value)``."""

    COLUMNS: tuple[tuple[str, str], ...] = (("name", "Unit"), ("company_tv", "Company TV"),
                                            ("base_power", "Base power"), ("skill", "Skill"),
                                            ("loyalty", "Loyalty"), ("total", "Total"))
    EDITABLE = frozenset({"name", "company_tv", "base_power", "skill", "loyalty"})

    def __init__(self, editor: Callable[[int, str, Any], bool] | None = None, parent: Any = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self._rows: list[dict[str, Any]] = []
        self.read_only = False
        self.names_only = False

    def set_rows(self, rows: Sequence[dict[str, Any]]) -> None:
        self.beginResetModel()
        self._rows = [dict(r) for r in rows]
        self.endResetModel()

    def row_data(self, row: int) -> dict[str, Any]:
        return self._rows[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt API
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal \
                and 0 <= section < len(self.COLUMNS):
            return self.COLUMNS[section][1]
        return None

    def _text(self, row: dict[str, Any], key: str) -> str:
        value = row.get(key)
        if key == "skill":
            return f"{str(value).capitalize()} ×{fmt(row['skill_x'])}"
        if key == "loyalty":
            return f"{str(value).capitalize()} ×{fmt(row['loyalty_x'])}"
        if value is None:
            return ""
        if isinstance(value, float | int):
            return fmt(float(value))
        return str(value)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)) or \
                not (0 <= index.column() < len(self.COLUMNS)):
            return None
        row = self._rows[index.row()]
        key = self.COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row, key)
        if role == Qt.ItemDataRole.EditRole:
            value = row.get(key)
            if key in ("base_power",):
                return float(value or 0)
            if key == "company_tv":
                return int(value or 0)
            return "" if value is None else value
        if role == ID_ROLE:
            return row["id"]
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("company_tv", "base_power", "total"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and key == "total":
            return (f"{fmt(row['base_power'])} × {fmt(row['skill_x'])} ({row['skill']}) × "
                    f"{fmt(row['loyalty_x'])} ({row['loyalty']})")
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        key = self.COLUMNS[index.column()][0]
        if not self.read_only and key in self.EDITABLE and (key == "name" or not self.names_only):
            base |= Qt.ItemFlag.ItemIsEditable
        return base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or self.editor is None:
            return False
        key = self.COLUMNS[index.column()][0]
        if key not in self.EDITABLE:
            return False
        row = self._rows[index.row()]
        if row.get(key) == value:
            return False
        # Hand the change over once the item editor has closed: the service's data_changed reloads (resets)
        # this model, which must not happen while the view is still committing the editor's data.
        editor, force_id = self.editor, int(row["id"])
        QTimer.singleShot(0, self, lambda: editor(force_id, key, value))
        return True


class ForceDelegate(QStyledItemDelegate):
    """Combo boxes for skill and loyalty, spin boxes for TV and base power."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:  # noqa: N802
        key = ForceTableModel.COLUMNS[index.column()][0]
        if key in ("skill", "loyalty"):
            combo = QComboBox(parent)
            table = sg.SKILL_MULTIPLIERS if key == "skill" else sg.LOYALTY_MULTIPLIERS
            for word, x in table.items():
                combo.addItem(f"{word.capitalize()} ×{fmt(x)}", word)
            return combo
        if key == "company_tv":
            spin = NumberSpin(parent, 0, 10_000_000)
            spin.setAccessibleName("Company TV")
            return spin
        if key == "base_power":
            dspin = DecimalSpin(parent)
            dspin.setRange(0, 1_000_000)
            dspin.setDecimals(2)
            dspin.setAccessibleName("Base power")
            return dspin
        return super().createEditor(parent, option, index)

    def setEditorData(self, editor: QWidget, index: Index) -> None:  # noqa: N802
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(0, editor.findData(index.data(Qt.ItemDataRole.EditRole))))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:  # noqa: N802
        if isinstance(editor, (NumberSpin, DecimalSpin)) and editor.problem():
            QToolTip.showText(editor.mapToGlobal(editor.rect().bottomLeft()), editor.problem(), editor)
            return  # refused, not clamped: the stored value stays
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)


# --- one side of the sheet ---------------------------------------------------------------------------------------

class SideBox(QGroupBox):
    """A side's unit table, the entry row for a new unit and the side's total (live while typing)."""

    def __init__(self, page: SologearPage, side: str) -> None:
        super().__init__("Player units" if side == "player" else "Enemy units", page)
        self.page = page
        self.side = side
        self.model = ForceTableModel(self._edit, self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setItemDelegate(ForceDelegate(self.table))
        self.table.setAccessibleName(f"{side.capitalize()} units")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(96)  # grows with the window (a big screen shows every company)

        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText("new unit's name")
        self.name_edit.setAccessibleName(f"New {side} unit name")
        self.tv_spin = NumberSpin(self)
        self.tv_spin.setRange(0, 10_000_000)
        self.tv_spin.setSpecialValueText("TV –")
        self.tv_spin.setSuffix(" TV")
        self.tv_spin.setAccessibleName(f"New {side} unit company TV")
        self.tv_spin.setToolTip("TV of the company's units; base power = TV ÷ 20")
        self.base_spin = DecimalSpin(self)
        self.base_spin.setRange(0, 1_000_000)
        self.base_spin.setDecimals(2)
        self.base_spin.setAccessibleName(f"New {side} unit base power")
        self.base_spin.setToolTip("Base combat power (or type the company's TV)")
        self.skill_combo = QComboBox(self)
        self.skill_combo.setAccessibleName(f"New {side} unit skill")
        for word, x in sg.SKILL_MULTIPLIERS.items():
            self.skill_combo.addItem(f"{word.capitalize()} ×{fmt(x)}", word)
        self.skill_combo.setCurrentIndex(self.skill_combo.findData("regular"))
        self.loyalty_combo = QComboBox(self)
        self.loyalty_combo.setAccessibleName(f"New {side} unit loyalty")
        for word, x in sg.LOYALTY_MULTIPLIERS.items():
            self.loyalty_combo.addItem(f"{word.capitalize()} ×{fmt(x)}", word)
        self.loyalty_combo.setCurrentIndex(self.loyalty_combo.findData("reliable"))
        self.preview_label = QLabel(self)
        self.preview_label.setMinimumWidth(70)
        self.add_button = QPushButton("&Add" if side == "player" else "A&dd", self)
        self.add_button.setAccessibleName(f"Add {side} unit")
        self.remove_button = QPushButton("Remove", self)
        self.remove_button.setAccessibleName(f"Remove {side} unit")
        self.total_label = QLabel(self)
        self.total_label.setAccessibleName(f"{side.capitalize()} total")
        bold = QFont(self.total_label.font())
        bold.setBold(True)
        self.total_label.setFont(bold)

        entry = QHBoxLayout()
        entry.addWidget(self.name_edit, 2)
        entry.addWidget(self.tv_spin)
        entry.addWidget(self.base_spin)
        entry.addWidget(self.skill_combo)
        entry.addWidget(self.loyalty_combo)
        entry.addWidget(QLabel("=", self))
        entry.addWidget(self.preview_label)
        self.name_edit.setMinimumWidth(self.name_edit.fontMetrics().averageCharWidth() * 12)
        bottom = QHBoxLayout()  # Add sits under the entry row: the row fits a 1024-pixel window
        bottom.addWidget(self.total_label, 1)
        bottom.addWidget(self.add_button)
        bottom.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addLayout(entry)
        layout.addLayout(bottom)

        self.tv_spin.valueChanged.connect(self._tv_typed)
        for spin in (self.tv_spin, self.base_spin):  # a refused number is said at once, not only on Add
            spin.problemChanged.connect(lambda problem: self.page.status(problem) if problem else None)
        self.base_spin.valueChanged.connect(self._base_typed)
        self.name_edit.textChanged.connect(lambda _t: self.page.update_totals())
        self.skill_combo.currentIndexChanged.connect(lambda _i: self.page.update_totals())
        self.loyalty_combo.currentIndexChanged.connect(lambda _i: self.page.update_totals())
        self.add_button.clicked.connect(self.add)
        self.name_edit.returnPressed.connect(self.add)
        self.remove_button.clicked.connect(self.remove)

    # --- entry row ---
    def _tv_typed(self, tv: int) -> None:
        if tv:
            blocked = self.base_spin.blockSignals(True)
            self.base_spin.setValue(sg.base_power_from_tv(tv))
            self.base_spin.blockSignals(blocked)
        self.page.update_totals()

    def _base_typed(self, _value: float) -> None:
        if self.tv_spin.value() and abs(sg.base_power_from_tv(self.tv_spin.value()) - self.base_spin.value()) > 1e-9:
            blocked = self.tv_spin.blockSignals(True)
            self.tv_spin.setValue(0)
            self.tv_spin.blockSignals(blocked)
        self.page.update_totals()

    def pending(self) -> tuple[float, str, str] | None:
        """The unit being typed in (base, skill, loyalty), if any."""
        if not self.name_edit.text().strip() and not self.base_spin.value():
            return None
        return (self.base_spin.value(), str(self.skill_combo.currentData()), str(self.loyalty_combo.currentData()))

    def committed_units(self) -> list[tuple[float, str, str]]:
        return [(r["base_power"], r["skill"], r["loyalty"]) for r in
                (self.model.row_data(i) for i in range(self.model.rowCount()))]

    def clear_entry(self) -> None:
        for w in (self.name_edit, self.tv_spin, self.base_spin):
            w.blockSignals(True)
        self.name_edit.clear()
        self.tv_spin.setValue(0)
        self.base_spin.setValue(0)
        for w in (self.name_edit, self.tv_spin, self.base_spin):
            w.blockSignals(False)
        self.skill_combo.setCurrentIndex(self.skill_combo.findData("regular"))
        self.loyalty_combo.setCurrentIndex(self.loyalty_combo.findData("reliable"))

    def add(self) -> None:
        if self.page.sheet_id is None:
            return
        for spin in (self.tv_spin, self.base_spin):
            if spin.problem():  # a refused number is never added as the last good value
                self.page.status(spin.problem())
                QToolTip.showText(spin.mapToGlobal(spin.rect().bottomLeft()), spin.problem(), spin)
                spin.setFocus(Qt.FocusReason.OtherFocusReason)
                spin.selectAll()
                return
        tv = self.tv_spin.value() or None
        base = self.base_spin.value() if not tv else None
        edit = self.page.act(svc.add_force, self.page.sheet_id, self.side, self.name_edit.text(),
                             base_power=base, company_tv=tv, skill=self.skill_combo.currentData(),
                             loyalty=self.loyalty_combo.currentData())
        if edit is not None:
            self.clear_entry()
            self.page.update_totals()
            self.name_edit.setFocus()

    def remove(self) -> None:
        index = self.table.currentIndex()
        if not index.isValid():
            self.page.status("Select a unit to remove.")
            return
        self.page.act(svc.remove_force, int(index.data(ID_ROLE)))

    def _edit(self, force_id: int, key: str, value: Any) -> bool:
        if key in ("company_tv", "base_power") and not value:
            value = None if key == "company_tv" else 0
        edit = self.page.act(svc.update_force, force_id, **{key: value})
        return edit is not None

    LOCKED_TIP = "The campaign length is rolled: undo the length roll first to add, remove or change units."

    def set_rows(self, rows: Sequence[dict[str, Any]], read_only: bool, names_only: bool = False) -> None:
        """``read_only``: nothing can change (the reckoning is done); ``names_only``: the length is rolled, so
        units can only be renamed."""
        self.model.read_only = read_only
        self.model.names_only = names_only
        self.model.set_rows(rows)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for w in (self.name_edit, self.tv_spin, self.base_spin, self.skill_combo, self.loyalty_combo,
                  self.add_button, self.remove_button):
            w.setEnabled(not read_only and not names_only)
        for w in (self.add_button, self.remove_button):
            w.setToolTip(self.LOCKED_TIP if names_only and not read_only else "")


# --- the page ------------------------------------------------------------------------------------------------

class SologearPage(QWidget):
    """The central page for a Sologear pilot's campaign."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.sheet_id: int | None = None
        self.data: dict[str, Any] = {}
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
        from .journal_view import JournalPanel

        self.changes_panel = JournalPanel(ctx, self)  # the journal's operations of this pilot (issue 11)
        self.tabs.addTab(self.changes_panel, "&Changes")
        cap_fields(self)  # fields stop at a readable width; the tables take the rest of a wide window
        ctx.signals.data_changed.connect(self._on_data_changed)
        ctx.signals.op_changed.connect(self._on_op_changed)

    # --- building -------------------------------------------------------------------------------------------
    def _field(self, key: str, name: str) -> CommitLineEdit:
        edit = CommitLineEdit("", self)
        edit.setAccessibleName(name)
        edit.committed.connect(lambda text, k=key: self._header_changed(k, text))
        self.fields[key] = edit
        return edit

    def _build_sheet_tab(self) -> None:
        tab = QWidget()
        self.fields: dict[str, CommitLineEdit] = {}
        header = QGroupBox("Campaign sheet", tab)
        grid = QGridLayout(header)
        self.gear_tv_spin = NumberSpin(header)
        self.gear_tv_spin.setRange(1, 100000)
        self.gear_tv_spin.setSuffix(" TV")
        self.gear_tv_spin.setAccessibleName("Gear TV")
        self.gear_tv_spin.setKeyboardTracking(False)
        self.gear_tv_spin.editingFinished.connect(self._gear_tv_changed)
        left = (("name", "Campaign:"), ("date", "Date:"), ("area", "Area:"), ("pilot", "Pilot:"),
                ("gear_name", "Gear:"))
        right = (("player_unit", "Player unit:"), ("player_affiliation", "Player affiliation:"),
                 ("enemy_unit", "Enemy unit:"), ("enemy_affiliation", "Enemy affiliation:"))
        for row, (key, label) in enumerate(left):
            grid.addWidget(QLabel(label, header), row, 0)
            grid.addWidget(self._field(key, label.rstrip(":")), row, 1)
        for row, (key, label) in enumerate(right):
            grid.addWidget(QLabel(label, header), row, 2)
            grid.addWidget(self._field(key, label.rstrip(":")), row, 3)
        grid.addWidget(QLabel("Gear TV:", header), len(right), 2)
        tv_row = QHBoxLayout()
        tv_row.addWidget(self.gear_tv_spin)
        self.enemy_column_label = QLabel(header)
        tv_row.addWidget(self.enemy_column_label)
        tv_row.addWidget(self.gear_tv_spin.message, 1)
        grid.addLayout(tv_row, len(right), 3)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)

        self.player_box = SideBox(self, "player")
        self.enemy_box = SideBox(self, "enemy")

        bar = QFrame(tab)
        bar.setFrameShape(QFrame.Shape.StyledPanel)
        bar_layout = QHBoxLayout(bar)
        self.odds_label = QLabel(bar)
        self.odds_label.setAccessibleName("Odds")
        big = QFont(self.odds_label.font())
        big.setPointSizeF(big.pointSizeF() * 1.25)
        big.setBold(True)
        self.odds_label.setFont(big)
        self.length_label = QLabel(bar)
        self.length_label.setAccessibleName("Campaign length")
        self.length_button = QPushButton("Roll &length…", bar)
        bar_layout.addWidget(self.odds_label, 1)
        bar_layout.addWidget(self.length_label)
        bar_layout.addWidget(self.length_button)
        self.length_button.clicked.connect(self.roll_length)

        inner = QWidget()
        v = QVBoxLayout(inner)
        v.addWidget(header)
        v.addWidget(self.player_box, 1)
        v.addWidget(self.enemy_box, 1)
        v.addWidget(bar)
        scroll = QScrollArea(tab)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(inner)
        tab_layout = QVBoxLayout(tab)
        tab_layout.addWidget(scroll)
        tab_layout.setContentsMargins(0, 0, 0, 0)
        self.tabs.addTab(tab, "&Sheet")
        self.sheet_tab = tab

    def _build_battle_tab(self) -> None:
        tab = QWidget()
        self.next_label = QLabel(tab)
        self.next_label.setWordWrap(True)
        self.next_label.setAccessibleName("Next turn")
        self.play_button = QPushButton("&Play turn…", tab)
        self.record_button = QPushButton("&Record result…", tab)
        self.undo_button = QPushButton("&Undo last turn", tab)
        self.end_button = QPushButton("End of campai&gn…", tab)
        buttons = QHBoxLayout()
        for b in (self.play_button, self.record_button, self.undo_button, self.end_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.turn_model = TextRowsModel(["Turn", "Action", "Enemy", "Glory", "Special"], self)
        self.turn_table = QTableView(tab)
        self.turn_table.setModel(self.turn_model)
        self.turn_table.setAccessibleName("Battle form")
        self.turn_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.turn_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.turn_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.turn_table.verticalHeader().hide()
        self.turn_table.horizontalHeader().setStretchLastSection(True)
        self.turn_detail = QLabel(tab)
        self.turn_detail.setWordWrap(True)
        self.turn_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.turn_detail.setAccessibleName("Turn details")
        self.turn_detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.turn_detail.setMinimumHeight(80)
        layout = QVBoxLayout(tab)
        layout.addWidget(self.next_label)
        layout.addLayout(buttons)
        layout.addWidget(self.turn_table, 2)
        layout.addWidget(self.turn_detail, 1)
        self.play_button.clicked.connect(self.play_turn)
        self.record_button.clicked.connect(lambda: self.record_turn())
        self.undo_button.clicked.connect(self.undo_last)
        self.end_button.clicked.connect(self.end_campaign)
        self.turn_table.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._show_turn(cur.row()))
        self.turn_table.doubleClicked.connect(lambda idx: self.record_turn(self._turn_number_at(idx.row())))
        self.tabs.addTab(tab, "Battle for&m")
        self.battle_tab = tab

    def _build_end_tab(self) -> None:
        tab = QWidget()
        self.end_status = QLabel(tab)
        self.end_status.setWordWrap(True)
        self.end_status.setAccessibleName("End of campaign status")
        self.recognition_model = TextRowsModel(["Recognition", "Count", "Each", "Points"], self)
        self.impression_model = TextRowsModel(["Impression", "Count", "Each", "Points"], self)
        for m in (self.recognition_model, self.impression_model):
            m.align_right = {1, 2, 3}
        self.recognition_view = QTableView(tab)
        self.impression_view = QTableView(tab)
        for view, model, name in ((self.recognition_view, self.recognition_model, "Recognition breakdown"),
                                  (self.impression_view, self.impression_model, "Impression breakdown")):
            view.setModel(model)
            view.setAccessibleName(name)
            view.verticalHeader().hide()
            view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            view.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
            view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.recognition_total = QLabel(tab)
        self.recognition_total.setAccessibleName("Recognition total")
        self.impression_total = QLabel(tab)
        self.impression_total.setAccessibleName("Impression total")
        self.noticed_label = QLabel(tab)
        self.noticed_label.setWordWrap(True)
        self.noticed_label.setAccessibleName("Noticed")
        self.outcome_label = QLabel(tab)
        self.outcome_label.setWordWrap(True)
        self.outcome_label.setAccessibleName("Outcome")
        self.outcome_label.setFrameShape(QFrame.Shape.StyledPanel)
        self.outcome_label.setMinimumHeight(56)
        big = QFont(self.outcome_label.font())
        big.setPointSizeF(big.pointSizeF() * 1.15)
        self.outcome_label.setFont(big)
        self.reckon_button = QPushButton("Roll the &reckoning…", tab)
        self.undo_reckoning_button = QPushButton("Undo reckoning", tab)
        rec_box = QGroupBox("Recognition: were the pilot's deeds noticed?", tab)
        rl = QVBoxLayout(rec_box)
        rl.addWidget(self.recognition_view)
        rl.addWidget(self.recognition_total)
        rl.addWidget(self.noticed_label)
        imp_box = QGroupBox("Impression: reward or punishment", tab)
        il = QVBoxLayout(imp_box)
        il.addWidget(self.impression_view)
        il.addWidget(self.impression_total)
        row = QHBoxLayout()
        row.addWidget(rec_box)
        row.addWidget(imp_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.reckon_button)
        buttons.addWidget(self.undo_reckoning_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(tab)
        layout.addWidget(self.end_status)
        layout.addLayout(row)
        layout.addWidget(self.outcome_label)
        layout.addLayout(buttons)
        layout.addStretch(1)
        self.reckon_button.clicked.connect(self.end_campaign)
        self.undo_reckoning_button.clicked.connect(self.undo_last)
        self.tabs.addTab(tab, "E&nd of campaign")
        self.end_tab = tab

    def _build_history_tab(self) -> None:
        tab = QWidget()
        self.history_model = TextRowsModel(["Turn", "What happened"], self)
        self.history_view = QTableView(tab)
        self.history_view.setModel(self.history_model)
        self.history_view.setAccessibleName("History")
        self.history_view.verticalHeader().hide()
        self.history_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.history_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.history_view.horizontalHeader().setStretchLastSection(True)
        self.history_view.setWordWrap(False)
        QVBoxLayout(tab).addWidget(self.history_view)
        self.tabs.addTab(tab, "Hist&ory")
        self.history_tab = tab

    def _build_options_tab(self) -> None:
        tab = QWidget()
        form = QFormLayout(tab)
        self.variable_check = QCheckBox("Variable (milder) reward and punishment tables", tab)
        self.ferocious_check = QCheckBox("Ferocious battles", tab)
        ferocious_note = QLabel("No surrender: a surrounded pilot fights her way out (Bold, Losing column, "
                                "enemy +1, Glory doubled, until a roll of 12–14).", tab)
        ferocious_note.setWordWrap(True)
        ferocious_note.setIndent(24)
        self.reward_dice_edit = CommitLineEdit("", tab)
        self.reward_dice_edit.setAccessibleName("Reward dice")
        self.reward_dice_edit.setMaximumWidth(120)
        self.options_note = QLabel(tab)
        self.options_note.setWordWrap(True)
        form.addRow(self.variable_check)
        form.addRow(self.ferocious_check)
        form.addRow(ferocious_note)
        form.addRow("Reward-roll dice (default 1d6):", self.reward_dice_edit)
        form.addRow(self.options_note)
        self.variable_check.clicked.connect(lambda on: self._set_option(variable_tables=bool(on)))
        self.ferocious_check.clicked.connect(lambda on: self._set_option(ferocious=bool(on)))
        self.reward_dice_edit.committed.connect(lambda text: self._set_option(reward_dice=text))
        self.tabs.addTab(tab, "Opt&ions")
        self.options_tab = tab

    # --- helpers ------------------------------------------------------------------------------------------------
    def status(self, text: str) -> None:
        self.ctx.signals.status.emit(text)

    def act(self, service: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Call a service through the undo stack; a refusal goes to the status bar and the page reloads."""
        edit = try_perform(self.ctx, service, *args, **kwargs)  # a refusal (a CampaignError) is shown there
        if edit is None:
            self.reload()
        return edit

    def _on_op_changed(self, changes: Any) -> None:
        campaign = (self.data.get("campaign") or {}).get("id") if self.data else None
        if self.sheet_id is not None and concerns(changes, sheet=self.sheet_id, campaign=campaign):
            self.reload()

    def _on_data_changed(self, kind: str, obj_id: int) -> None:
        if self.sheet_id is None:
            return
        if kind == "all" or (kind == "sheet" and obj_id in (0, self.sheet_id)) or kind == "campaign":
            self.reload()

    # --- showing ------------------------------------------------------------------------------------------------
    def show_sheet(self, sheet_id: int) -> None:
        self.sheet_id = sheet_id
        self.changes_panel.show_sheet(sheet_id)
        for box in (self.player_box, self.enemy_box):
            box.clear_entry()
        self.reload()

    def reload(self) -> None:
        if self.sheet_id is None:
            return
        try:
            self.data = svc.sheet_data(self.sheet_id)
        except NotFound:
            self.data = {}
            self.title.setText("This Sologear campaign no longer exists.")
            self.tabs.setEnabled(False)
            return
        self.tabs.setEnabled(True)
        d = self.data
        self.title.setText(f"{d['name']} — {d['pilot']}" + (f" in {d['gear_name']}" if d["gear_name"] else ""))
        self._fill_state()
        self._fill_sheet()
        self._fill_battle()
        self._fill_end()
        self._fill_history()
        self._fill_options()

    def _fill_state(self) -> None:
        d, s = self.data, self.data["state"]
        parts = []
        if d["length"]:
            if not d["turns_played"]:
                parts.append(f"{d['length']} battle turns")
            elif d["turns_played"] <= d["length"]:
                parts.append(f"turn {d['turns_played']} of {d['length']}")
            else:
                parts.append(f"turn {d['turns_played']} (past the {d['length']} planned: break-out)")
        if s["status"] == "ended":
            parts.append("campaign over: " + (s["end_text"] or ""))
            if s["reckoned"]:
                parts.append("reckoning done")
        else:
            parts.append("campaign under way" if d["turns_played"] else "campaign not started")
        if s["breakout"]:
            parts.append("break-out under way")
        gear = []
        if s["gear_damaged"]:
            gear.append("damaged")
        if s["short_ammo"]:
            gear.append("short of ammunition")
        parts.append("Gear " + (" and ".join(gear) if gear else "in order"))
        if s["pilot_status"] != "active":
            parts.append(f"pilot {s['pilot_status']}")
        self.state_label.setText(" · ".join(parts))

    def _fill_sheet(self) -> None:
        d = self.data
        for key, edit in self.fields.items():
            edit.setCommittedText(str(d.get(key) or ""))
        if not self.gear_tv_spin.hasFocus():
            blocked = self.gear_tv_spin.blockSignals(True)
            self.gear_tv_spin.setValue(int(d["gear_tv"]))
            self.gear_tv_spin.blockSignals(blocked)
        self.enemy_column_label.setText(f"enemy-quality column {d['enemy_quality_column']}")
        locked = d["state"]["reckoned"]
        rolled = d["length"] is not None
        self.player_box.set_rows(d["forces"]["player"], locked, names_only=rolled)
        self.enemy_box.set_rows(d["forces"]["enemy"], locked, names_only=rolled)
        if d["length"]:
            self.length_label.setText(f"Length: {d['length']} battle turns")
        else:
            self.length_label.setText(f"Length: not rolled ({d['length_dice'] or 'enter both sides first'})")
        self.length_button.setEnabled(d["length"] is None and bool(d["length_dice"]))
        self.update_totals()

    def update_totals(self) -> None:
        """Both sides' totals and the odds, counting the unit being typed in (live)."""
        if not self.data:
            return
        totals: dict[str, float] = {}
        typing = False
        for box in (self.player_box, self.enemy_box):
            units = box.committed_units()
            pending = box.pending()
            if pending is not None:
                typing = True
                box.preview_label.setText(fmt(sg.unit_total(*pending)))
                units.append(pending)
            else:
                box.preview_label.setText("")
            totals[box.side] = sg.force_total(units)
            extra = " (with the unit being entered)" if pending is not None else ""
            box.total_label.setText(f"Total combat power: {fmt(totals[box.side])}{extra}")
        text = odds_text(totals["player"], totals["enemy"])
        self.odds_label.setText(text + ("  (preview)" if typing else ""))

    def _fill_battle(self) -> None:
        d = self.data
        turns = d["turns"]
        self.turn_model.set_rows([[t["form"][k] for k in ("turn", "action", "enemy", "glory", "special")]
                                  for t in turns],
                                 tips=["\n".join(t["meaning"]) for t in turns], ids=[t["turn"] for t in turns])
        self.turn_table.resizeColumnsToContents()
        self.turn_table.horizontalHeader().setStretchLastSection(True)
        nxt = d["next"]
        if nxt["blocked"]:
            self.next_label.setText(nxt["blocked"].capitalize() + ".")
        else:
            column = "break-out (Losing column, Bold)" if nxt["breakout"] else f"column {nxt['band']}"
            of = f" of {nxt['length']}" if not nxt["breakout"] else ""
            self.next_label.setText(f"Next: turn {nxt['number']}{of}, {column}; "
                                    f"{'REP allowed' if nxt['can_rep'] else 'REP only when damaged or short of ammo'}.")
        self.play_button.setEnabled(not nxt["blocked"])
        unrecorded = [t for t in turns if t["battle"] and not t["recorded"]]
        self.record_button.setEnabled(bool(turns) and not d["state"]["reckoned"])
        self.record_button.setText("&Record result…" if not unrecorded else f"&Record turn {unrecorded[-1]['turn']}…")
        if d["state"]["reckoned"]:
            self.undo_button.setText("&Undo reckoning")
        elif turns:
            self.undo_button.setText(f"&Undo turn {turns[-1]['turn']}")
        elif d["length"]:
            self.undo_button.setText("&Undo length roll")
        else:
            self.undo_button.setText("&Undo last turn")
        self.undo_button.setEnabled(bool(turns) or d["length"] is not None or d["state"]["reckoned"])
        self.end_button.setEnabled(d["state"]["status"] == "ended" and not d["state"]["reckoned"] and not unrecorded)
        if turns:
            self.turn_table.selectRow(len(turns) - 1)
            self._show_turn(len(turns) - 1)
        else:
            self.turn_detail.setText("No turns played yet.")

    def _turn_number_at(self, row: int) -> int | None:
        turns = self.data.get("turns") or []
        return turns[row]["turn"] if 0 <= row < len(turns) else None

    def _show_turn(self, row: int) -> None:
        turns = self.data.get("turns") or []
        if not 0 <= row < len(turns):
            return
        t = turns[row]
        lines = [f"<b>Turn {t['turn']}: {t['label']}</b>"
                 + (f" – row {t['combat_total']}, {t['column']}: {t['cell_text']}" if t["cell_text"] else "")]
        lines.extend(t["meaning"])
        if t["battle"]:
            r = t["result"]
            lines.append(f"Recorded: {r['glory_collected']} Glory, {r['enemy_tv_destroyed']} enemy TV destroyed, "
                         f"{r['bunkers_destroyed']} bunkers" if t["recorded"] else "<i>Not recorded yet.</i>")
        if t["notes"]:
            lines.append(f"Notes: {t['notes']}")
        self.turn_detail.setText("<br>".join(lines))

    def _fill_end(self) -> None:
        d = self.data
        rk = d["reckoning"]
        for model, items in ((self.recognition_model, rk["recognition_breakdown"]),
                             (self.impression_model, rk["impression_breakdown"])):
            model.set_rows([[i["label"], str(i["count"]), "X" if i["per"] is None else f"{i['per']:+d}",
                             f"{i['points']:+d}"] for i in items])
        self.recognition_view.resizeColumnsToContents()
        self.impression_view.resizeColumnsToContents()
        for view in (self.recognition_view, self.impression_view):
            view.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
            fit_height(view)
        self.recognition_total.setText(f"<b>Recognition {rk['recognition']}</b>: noticed on a D66 of "
                                       f"{rk['noticed_on']}")
        self.impression_total.setText(f"<b>Impression {rk['impression']}</b>: "
                                      f"{'rewards' if rk['impression'] >= 0 else 'punishments'} table, roll "
                                      f"{d['options']['reward_dice']} {rk['impression']:+d}"
                                      f"{' (variable tables)' if d['options']['variable_tables'] else ''}")
        s = d["state"]
        if rk["final"]:
            self.end_status.setText(f"The campaign is over ({s['end_text']}) and its reckoning is done.")
            self.noticed_label.setText(f"D66 rolled {rk['d66']}: "
                                       f"{'noticed' if rk['noticed'] else 'not noticed'}.")
            if rk["table"]:
                band = rk["band"]
                roll = next((r for r in rk["rolls"] if r["purpose"] in codes.RESULT_PURPOSES), None)
                how = ""
                if roll is not None:
                    dice = roll["expression"].split("+")[0].split("-")[0]
                    how = f"{dice} [{', '.join(map(str, roll['faces']))}] {rk['impression']:+d} = "
                self.outcome_label.setText(f"<b>{rk['table'].capitalize()} roll {how}{rk['result']} "
                                           f"({band['label']}): {band['title']}.</b> {band['text']}")
            else:
                self.outcome_label.setText(f"<b>{rk['outcome']}</b>")
        else:
            if s["status"] == "ended":
                self.end_status.setText(f"The campaign is over ({s['end_text']}). Roll the reckoning.")
            else:
                self.end_status.setText("The campaign is still going on: these are the totals so far.")
            self.noticed_label.setText("Not rolled yet.")
            self.outcome_label.setText("")
        self.reckon_button.setEnabled(self.end_button.isEnabled())
        self.undo_reckoning_button.setEnabled(rk["final"])

    def _fill_history(self) -> None:
        entries = svc.history(self.sheet_id, self.data) if self.sheet_id is not None else []
        self.history_model.set_rows([["" if e["turn"] is None else str(e["turn"]),
                                      ("    " if e["kind"] == "roll" else "") + e["text"]] for e in entries],
                                    tips=[e["text"] for e in entries])
        self.history_view.resizeColumnToContents(0)

    def _fill_options(self) -> None:
        o, s = self.data["options"], self.data["state"]
        for check, on in ((self.variable_check, o["variable_tables"]), (self.ferocious_check, o["ferocious"])):
            blocked = check.blockSignals(True)
            check.setChecked(on)
            check.blockSignals(blocked)
        self.reward_dice_edit.setCommittedText(o["reward_dice"])
        locked = s["reckoned"]
        self.variable_check.setEnabled(not locked)
        self.reward_dice_edit.setEnabled(not locked)
        self.ferocious_check.setEnabled(not locked and self.data["turns_played"] == 0)
        notes = []
        if self.data["turns_played"]:
            notes.append("Ferocious battles are fixed once a turn has been played.")
        if locked:
            notes.append("The reckoning is done: undo it to change the options.")
        self.options_note.setText(" ".join(notes))

    # --- edits --------------------------------------------------------------------------------------------------
    def _header_changed(self, key: str, text: str) -> None:
        if self.sheet_id is not None:
            self.act(svc.update_sheet, self.sheet_id, **{key: text})

    def _gear_tv_changed(self) -> None:
        if self.sheet_id is not None and self.data and self.gear_tv_spin.value() != self.data["gear_tv"]:
            self.act(svc.update_sheet, self.sheet_id, gear_tv=self.gear_tv_spin.value())

    def _set_option(self, **kwargs: Any) -> None:
        if self.sheet_id is not None:
            self.act(svc.set_options, self.sheet_id, **kwargs)

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

    def roll_length(self) -> QDialog | None:
        if self.sheet_id is None:
            return None
        try:
            svc.length_procedure(self.sheet_id)
        except CampaignError as exc:
            self.status(str(exc))
            return None
        return self._open(LengthDialog(self.ctx, self.sheet_id, self))

    def play_turn(self) -> QDialog | None:
        if self.sheet_id is None:
            return None
        self.tabs.setCurrentWidget(self.battle_tab)

        def after(dialog: QDialog) -> None:
            edit = getattr(dialog, "edit", None)
            if edit is not None and edit.summary.get("battle") and self.auto_record:
                self.record_turn(edit.summary["turn"])
            elif edit is not None and edit.summary.get("campaign_ended"):
                self.tabs.setCurrentWidget(self.end_tab)

        return self._open(PlayTurnDialog(self.ctx, self.sheet_id, self), after)

    def record_turn(self, number: int | None = None) -> QDialog | None:
        if self.sheet_id is None or not self.data.get("turns"):
            return None
        if number is None:
            unrecorded = [t for t in self.data["turns"] if t["battle"] and not t["recorded"]]
            current = self._turn_number_at(self.turn_table.currentIndex().row())
            number = unrecorded[-1]["turn"] if unrecorded else current or self.data["turns"][-1]["turn"]

        def after(dialog: QDialog) -> None:
            edit = getattr(dialog, "edit", None)
            if edit is not None and edit.summary.get("campaign_ended"):
                self.tabs.setCurrentWidget(self.end_tab)

        return self._open(RecordDialog(self.ctx, self.sheet_id, number, self), after)

    def end_campaign(self) -> QDialog | None:
        if self.sheet_id is None:
            return None
        self.tabs.setCurrentWidget(self.end_tab)
        return self._open(EndDialog(self.ctx, self.sheet_id, self))

    def undo_last(self) -> None:
        if self.sheet_id is not None:
            self.act(svc.undo_last, self.sheet_id)
