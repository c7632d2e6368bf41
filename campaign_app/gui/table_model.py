"""The one base of the app's read-only tables: a ``QAbstractTableModel`` over a list of rows (Vorta's thin
table models). A subclass names its column headers and says what a cell shows for a role
(:meth:`TableModel.cell_data`); rows are replaced as a whole (:meth:`TableModel.set_rows`, a model reset)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

Index = QModelIndex | QPersistentModelIndex
T = TypeVar("T")

ITEM_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


class TableModel(QAbstractTableModel, Generic[T]):
    HEADERS: Sequence[str] = ()
    ROW_NUMBERS = False
    """Whether the vertical header numbers the rows (1, 2, ...)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[T] = []

    # --- rows ---------------------------------------------------------------------------------------------
    def headers(self) -> Sequence[str]:
        return self.HEADERS

    def set_rows(self, rows: Iterable[T]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.rows_set()
        self.endResetModel()

    def rows_set(self) -> None:
        """Called inside the reset, after new rows were set (a place to prepare what the cells show)."""

    def row(self, index: int) -> T:
        return self._rows[index]

    def header_tip(self, section: int) -> str | None:
        return None

    def cell_data(self, row: T, column: int, role: int) -> Any:
        """What the cell of ``row`` in ``column`` shows for ``role`` (None: nothing)."""
        raise NotImplementedError

    # --- Qt -----------------------------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self.headers())

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,  # noqa: N802 - Qt API
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.headers()):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.headers()[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return self.header_tip(section)
        if (
            orientation == Qt.Orientation.Vertical
            and self.ROW_NUMBERS
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(self._rows)
        ):
            return str(section + 1)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        return ITEM_FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (
            not index.isValid()
            or not 0 <= index.row() < len(self._rows)
            or not 0 <= index.column() < len(self.headers())
        ):
            return None
        return self.cell_data(self._rows[index.row()], index.column(), role)
