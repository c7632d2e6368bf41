"""One side of the Sologear campaign sheet: its units in an editable table, the entry row for a new unit
and the side's total, live while typing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from ...rules.sologear.forces import LOYALTY_MULTIPLIERS, SKILL_MULTIPLIERS, base_power_from_tv
from ...services import sologear_sheet as sheet_service
from ...services.sologear_results import UnitRow
from ..loader import in_background
from ..widgets import DecimalSpin, NumberSpin
from .tables import ID_ROLE, Index, fmt

if TYPE_CHECKING:
    from .page import PageBase


def _value(row: UnitRow, key: str) -> str | float | int | None:
    """The value a column (one of :attr:`ForceTableModel.COLUMNS`, named after the field) shows of a unit."""
    value: str | float | int | None = getattr(row, key)
    return value


class ForceTableModel(QAbstractTableModel):
    """One side's units, editable in place: a change goes (deferred) to ``editor(force_id, field, value)``."""

    COLUMNS: tuple[tuple[str, str], ...] = (
        ("name", "Unit"),
        ("company_tv", "Company TV"),
        ("base_power", "Base power"),
        ("skill", "Skill"),
        ("loyalty", "Loyalty"),
        ("total", "Total"),
    )
    EDITABLE = frozenset({"name", "company_tv", "base_power", "skill", "loyalty"})

    def __init__(self, editor: Callable[[int, str, Any], bool] | None = None, parent: Any = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self._rows: list[UnitRow] = []
        self.read_only = False
        self.names_only = False

    def set_rows(self, rows: Sequence[UnitRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row_data(self, row: int) -> UnitRow:
        return self._rows[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,  # noqa: N802 - Qt API
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(self.COLUMNS)
        ):
            return self.COLUMNS[section][1]
        return None

    def _text(self, row: UnitRow, key: str) -> str:
        value = _value(row, key)
        if key == "skill":
            return f"{str(value).capitalize()} ×{fmt(row.skill_x)}"
        if key == "loyalty":
            return f"{str(value).capitalize()} ×{fmt(row.loyalty_x)}"
        if value is None:
            return ""
        if isinstance(value, float | int):
            return fmt(float(value))
        return str(value)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (
            not index.isValid()
            or not (0 <= index.row() < len(self._rows))
            or not (0 <= index.column() < len(self.COLUMNS))
        ):
            return None
        row = self._rows[index.row()]
        key = self.COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row, key)
        if role == Qt.ItemDataRole.EditRole:
            value = _value(row, key)
            if key in ("base_power",):
                return float(value or 0)
            if key == "company_tv":
                return int(value or 0)
            return "" if value is None else value
        if role == ID_ROLE:
            return row.id
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("company_tv", "base_power", "total"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and key == "total":
            return f"{fmt(row.base_power)} × {fmt(row.skill_x)} ({row.skill}) × {fmt(row.loyalty_x)} ({row.loyalty})"
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
        if _value(row, key) == value:
            return False
        # Hand the change over once the item editor has closed: the change feed reloads (resets)
        # this model, which must not happen while the view is still committing the editor's data.
        editor, force_id = self.editor, int(row.id)
        QTimer.singleShot(0, self, lambda: editor(force_id, key, value))
        return True


class ForceDelegate(QStyledItemDelegate):
    """Combo boxes for skill and loyalty, spin boxes for TV and base power."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:  # noqa: N802
        key = ForceTableModel.COLUMNS[index.column()][0]
        if key in ("skill", "loyalty"):
            combo = QComboBox(parent)
            table = SKILL_MULTIPLIERS if key == "skill" else LOYALTY_MULTIPLIERS
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

    def __init__(self, page: PageBase, side: str) -> None:
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
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
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
        for word, x in SKILL_MULTIPLIERS.items():
            self.skill_combo.addItem(f"{word.capitalize()} ×{fmt(x)}", word)
        self.skill_combo.setCurrentIndex(self.skill_combo.findData("regular"))
        self.loyalty_combo = QComboBox(self)
        self.loyalty_combo.setAccessibleName(f"New {side} unit loyalty")
        for word, x in LOYALTY_MULTIPLIERS.items():
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
            self.base_spin.setValue(base_power_from_tv(tv))
            self.base_spin.blockSignals(blocked)
        self.page.update_totals()

    def _base_typed(self, _value: float) -> None:
        if self.tv_spin.value() and abs(base_power_from_tv(self.tv_spin.value()) - self.base_spin.value()) > 1e-9:
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
        return [
            (r.base_power, r.skill, r.loyalty) for r in (self.model.row_data(i) for i in range(self.model.rowCount()))
        ]

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

        def added(_edit: object) -> None:
            self.clear_entry()
            self.page.update_totals()
            self.name_edit.setFocus()

        self.page.act_then(
            added,
            sheet_service.add_force,
            self.page.sheet_id,
            self.side,
            self.name_edit.text(),
            base_power=base,
            company_tv=tv,
            skill=self.skill_combo.currentData(),
            loyalty=self.loyalty_combo.currentData(),
        )

    def remove(self) -> None:
        index = self.table.currentIndex()
        if not index.isValid():
            self.page.status("Select a unit to remove.")
            return
        self.page.act(sheet_service.remove_force, int(index.data(ID_ROLE)))

    def _edit(self, force_id: int, key: str, value: Any) -> bool:
        if key in ("company_tv", "base_power") and not value:
            value = None if key == "company_tv" else 0
        edit = self.page.act(sheet_service.update_force, force_id, **{key: value})
        return edit is not None or in_background(self.page.ctx)  # on a server: sent (a refusal reloads)

    LOCKED_TIP = "The campaign length is rolled: undo the length roll first to add, remove or change units."

    def set_rows(self, rows: Sequence[UnitRow], read_only: bool, names_only: bool = False) -> None:
        """``read_only``: nothing can change (the reckoning is done); ``names_only``: the length is rolled, so
        units can only be renamed."""
        self.model.read_only = read_only
        self.model.names_only = names_only
        self.model.set_rows(rows)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for w in (
            self.name_edit,
            self.tv_spin,
            self.base_spin,
            self.skill_combo,
            self.loyalty_combo,
            self.add_button,
            self.remove_button,
        ):
            w.setEnabled(not read_only and not names_only)
        for w in (self.add_button, self.remove_button):
            w.setToolTip(self.LOCKED_TIP if names_only and not read_only else "")
