"""Thin table models over the typed rows the roster services return (``platoon_detail``, ``list_platoons``).

Each model is a :class:`~.table_model.TableModel` over a list of result rows (frozen dataclasses with an ``id``)
with column constants; ``set_rows`` resets it. The equipment model is editable: ``setData`` hands the change
to an ``editor`` callback (the page calls the service, which validates and stores it) and the page reloads
the rows afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QSpinBox, QStyledItemDelegate, QStyleOptionViewItem, QToolTip, QWidget

from ..rules.enums import UnitKind
from ..services.attachments import AP_RANGE, KINDS, TARGETS
from ..services.platoons import AttachedUnitInfo, EquipmentItem, FormerLeader, PlatoonRow
from .table_model import Index, TableModel
from .widgets import ChoicePicker, NumberSpin

ID_ROLE = Qt.ItemDataRole.UserRole + 1


class Row(Protocol):
    """A row of a table: a service's frozen result with an ``id``."""

    @property
    def id(self) -> int: ...


R = TypeVar("R", bound=Row)


@dataclass(frozen=True)
class Column(Generic[R]):
    """A column: the row's attribute ``key`` as text, or ``show(row)``."""

    key: str
    header: str
    show: Callable[[R], str] | None = None
    tip: str = ""
    editable: bool = False

    def value(self, row: R) -> Any:
        """The row's value of this column (``None`` for a column made only by ``show``, e.g. the dice)."""
        return getattr(row, self.key, None) if self.show is not None else getattr(row, self.key)

    def text(self, row: R) -> str:
        if self.show is not None:
            return self.show(row)
        value = self.value(row)  # a key that is not a field of the row is an AttributeError, not a blank column
        return "" if value is None else str(value)


class RowsModel(TableModel[R]):
    """A table whose columns are :class:`Column` objects over rows with an ``id`` (``ID_ROLE``)."""

    COLUMNS: Sequence[Column[R]] = ()
    ROW_NUMBERS = True

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._texts: list[list[str]] = []

    # --- rows ---------------------------------------------------------------------------------------------
    def headers(self) -> Sequence[str]:
        return [c.header for c in self.COLUMNS]

    def header_tip(self, section: int) -> str | None:
        return self.COLUMNS[section].tip or None

    def rows_set(self) -> None:
        self._texts = [[c.text(r) for c in self.COLUMNS] for r in self._rows]

    def rows(self) -> list[R]:
        return list(self._rows)

    def row_data(self, row: int) -> R:
        return self._rows[row]

    def row_of_id(self, row_id: int) -> int | None:
        for i, r in enumerate(self._rows):
            if r.id == row_id:
                return i
        return None

    def column_texts(self, column: int) -> set[str]:
        return {texts[column] for texts in self._texts}

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (
            role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole)
            and index.isValid()
            and 0 <= index.row() < len(self._texts)
            and 0 <= index.column() < len(self.COLUMNS)
        ):
            return self._texts[index.row()][index.column()]  # the texts are made once per set_rows
        return super().data(index, role)

    def cell_data(self, row: R, column: int, role: int) -> Any:
        col = self.COLUMNS[column]
        if role == Qt.ItemDataRole.EditRole:
            return col.value(row)
        if role == ID_ROLE:
            return row.id
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(row, col)
        return None

    def tooltip(self, row: R, col: Column[R]) -> str | None:
        return None


def fit_columns(view: Any, model: RowsModel[Any], stretch: int = 0, padding: int = 18) -> None:
    """Size the columns of a long table once from its texts (cheaper than ResizeToContents, which asks every
    cell again on each layout); column ``stretch`` takes the rest of the width."""
    from PySide6.QtWidgets import QHeaderView

    header = view.horizontalHeader()
    metrics = view.fontMetrics()
    bold = header.fontMetrics()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # no ResizeToContents pass per column below
    for column in range(model.columnCount()):
        if column == stretch:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
            continue
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        width = bold.horizontalAdvance(str(model.headerData(column, Qt.Orientation.Horizontal)))
        for text in model.column_texts(column):
            width = max(width, metrics.horizontalAdvance(text))
        view.setColumnWidth(column, width + padding)


def _leader_text(r: PlatoonRow) -> str:
    if not r.leader:
        return "none"
    return f"{r.leader} ({r.leader_xp} XP)"


def _dice_text(r: PlatoonRow) -> str:
    return f"{r.training} / {r.equipment} / {r.morale}"


class PlatoonListModel(RowsModel[PlatoonRow]):
    """The platoons of a campaign (rows of ``platoons.list_platoons``)."""

    COLUMNS = (
        Column[PlatoonRow]("name", "Platoon"),
        Column[PlatoonRow]("leader", "Leader", _leader_text),
        Column[PlatoonRow]("xp", "XP"),
        Column[PlatoonRow]("level", "Level"),
        Column[PlatoonRow]("cards", "Cards", tip="Orders cards drawn per turn"),
        Column[PlatoonRow]("dice", "T / E / M", _dice_text, tip="Training / Equipment / Morale dice"),
        Column[PlatoonRow]("armor", "Armor"),
    )


def _when_left(r: FormerLeader) -> str:
    if r.left_battle:
        return f"after battle {r.left_battle}"
    return (r.left_at or "")[:10]


class LeaderHistoryModel(RowsModel[FormerLeader]):
    """Former leaders (``platoon_detail().former_leaders``)."""

    COLUMNS = (
        Column[FormerLeader]("name", "Former leader"),
        Column[FormerLeader]("rank", "Rank"),
        Column[FormerLeader]("xp", "XP", lambda r: f"{r.xp} ({r.level})"),
        Column[FormerLeader]("how", "How they left", lambda r: r.how),
        Column[FormerLeader]("left_at", "When", _when_left),
    )


def _attached_dice(r: AttachedUnitInfo) -> str:
    if r.kind == UnitKind.FIRE_SUPPORT:
        return "\u2014"
    return f"{r.training} / {r.equipment} / {r.morale}"


def _attached_armor(r: AttachedUnitInfo) -> str:
    return "\u2014" if r.armor is None else str(r.armor)


def _attached_kind(r: AttachedUnitInfo) -> str:
    if r.kind == UnitKind.FIRE_SUPPORT:
        return f"{r.support} fire support"
    return KINDS[r.kind]


class AttachedModel(RowsModel[AttachedUnitInfo]):
    """Attached units (``platoon_detail().attached``)."""

    COLUMNS = (
        Column[AttachedUnitInfo]("name", "Attached unit"),
        Column[AttachedUnitInfo]("kind", "Kind", _attached_kind),
        Column[AttachedUnitInfo]("dice", "T / E / M", _attached_dice, tip="Training / Equipment / Morale dice"),
        Column[AttachedUnitInfo]("armor", "Armor", _attached_armor),
        Column[AttachedUnitInfo]("equipment_list", "Weapons", lambda r: ", ".join(e.name for e in r.equipment_list)),
    )


def ap_text(ap: int | None) -> str:
    if ap is None:
        return "\u2014"
    return f"{ap:+d}".replace("-", "\u2212")


def _ap_vs_text(r: EquipmentItem) -> str:
    return "\u2014" if r.ap is None else str(r.ap_vs)


EquipmentEditor = Callable[[int, str, Any], bool]


class EquipmentModel(RowsModel[EquipmentItem]):
    """Heavy weapons / special equipment rows; editable through ``editor(item_id, field, value) -> ok``."""

    COLUMNS = (
        Column[EquipmentItem]("name", "Weapon / equipment", editable=True),
        Column[EquipmentItem](
            "targets", "Targets", lambda r: r.targets, tip="Dispersed targets, point targets or both", editable=True
        ),
        Column[EquipmentItem](
            "ap", "AP", lambda r: ap_text(r.ap), tip="Armor-piercing value, e.g. \u22122", editable=True
        ),
        Column[EquipmentItem](
            "ap_vs", "AP vs", _ap_vs_text, tip="The target type the AP value applies to", editable=True
        ),
    )

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.editor: EquipmentEditor | None = None

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and self.editor is not None and self.COLUMNS[index.column()].editable:
            key = self.COLUMNS[index.column()].key
            if key != "ap_vs" or self._rows[index.row()].ap is not None:
                flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or self.editor is None:
            return False
        row = self._rows[index.row()]
        column = self.COLUMNS[index.column()]
        if column.value(row) == value:
            return False
        return bool(self.editor(row.id, column.key, value))


TARGETS_COLUMN = 1


# --- delegate for the equipment table ---------------------------------------------------------------------

AP_NONE = AP_RANGE[0] - 1
"""The spin box's lowest step stands for "no AP value"."""


def ap_vs_choices(targets: str) -> list[tuple[str, str]]:
    """The target types an AP value may apply to, for a weapon with these ``targets``."""
    if targets == "both":
        return [(k, v) for k, v in TARGETS.items()]
    return [(targets, TARGETS[targets])]


class EquipmentDelegate(QStyledItemDelegate):
    """Editors that offer only legal values: target choices, AP -10..+10 or none, AP target types that fit
    the weapon's targets. An editable column is as wide as its editor (``sizeHint``), so an open editor fits
    its cell: it is neither cut ("ne" for "none") nor spread over the neighbouring cells."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._editor_widths: dict[str, int] = {}

    def _editor_width(self, key: str) -> int:
        if key not in self._editor_widths:
            if key == "ap":
                spin = QSpinBox()
                spin.setRange(AP_NONE, AP_RANGE[1])
                spin.setSpecialValueText("none")
                probe: QWidget = spin
            else:
                probe = ChoicePicker(list(TARGETS.items()), "probe")
            self._editor_widths[key] = probe.sizeHint().width()
            probe.deleteLater()
        return self._editor_widths[key]

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:  # noqa: N802
        hint = super().sizeHint(option, index)
        key = EquipmentModel.COLUMNS[index.column()].key
        if key in ("targets", "ap", "ap_vs"):
            hint.setWidth(max(hint.width(), self._editor_width(key)))
        return hint

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: Index) -> None:  # noqa: N802
        editor.setGeometry(option.rect)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:  # noqa: N802
        model = index.model()
        key = EquipmentModel.COLUMNS[index.column()].key
        if key == "targets":
            return ChoicePicker(list(TARGETS.items()), "Targets", parent)
        if key == "ap":
            spin = NumberSpin(parent)
            spin.setRange(AP_NONE, AP_RANGE[1])
            spin.setSpecialValueText("none")
            spin.setAccessibleName("AP value")
            return spin
        if key == "ap_vs":
            targets = model.data(model.index(index.row(), TARGETS_COLUMN), Qt.ItemDataRole.EditRole)
            return ChoicePicker(ap_vs_choices(str(targets)), "AP applies to", parent)
        return super().createEditor(parent, option, index)

    def setEditorData(self, editor: QWidget, index: Index) -> None:  # noqa: N802
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, ChoicePicker):
            if editor.findData(value) >= 0:
                editor.setValue(value)
        elif isinstance(editor, QSpinBox):
            editor.setValue(AP_NONE if value is None else int(value))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:  # noqa: N802
        if isinstance(editor, ChoicePicker):
            model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, QSpinBox):
            if isinstance(editor, NumberSpin) and editor.problem():
                # refused, not clamped: the stored value stays and the editor says why
                QToolTip.showText(editor.mapToGlobal(editor.rect().bottomLeft()), editor.problem(), editor)
                return
            editor.interpretText()
            value = editor.value()
            model.setData(index, None if value == AP_NONE else value, Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)
