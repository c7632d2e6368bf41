"""What the Sologear tabs share: number and odds formatting, a read-only table model of strings, and a
table view sized to its rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QTableView

from ...rules.experience import RulesError
from ...rules.sologear.forces import odds

Index = QModelIndex | QPersistentModelIndex
ID_ROLE = Qt.ItemDataRole.UserRole + 1


def fmt(x: float) -> str:
    """700.0 -> "700", 16.65 -> "16.65"."""
    return f"{x:,.2f}".rstrip("0").rstrip(".").replace(",", " ") if x != int(x) else f"{int(x):,}".replace(",", " ")


def odds_text(player: float, enemy: float) -> str:
    if enemy <= 0:
        return "Odds: –  (enter the enemy's units)"
    try:
        result = odds(player, enemy)
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
