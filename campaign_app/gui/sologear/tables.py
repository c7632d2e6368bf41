"""What the Sologear tabs share: number and odds formatting, a read-only table model of strings, and a
table view sized to its rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QTableView

from ...rules.experience import RulesError
from ...rules.sologear.forces import odds
from ..table_model import TableModel

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
    return (
        f"Odds: {fmt(player)} ÷ {fmt(enemy)} = {result['ratio_text']}, read as {result['compared']}  →  "
        f"{result['band']}"
    )


def fit_height(view: QTableView) -> None:
    """Make a short table exactly as tall as its rows (no empty space, no scroll bar)."""
    rows = sum(view.rowHeight(r) for r in range(view.model().rowCount()))
    view.setFixedHeight(view.horizontalHeader().height() + rows + 2 * view.frameWidth() + 2)


# --- table models -------------------------------------------------------------------------------------------


class TextRowsModel(TableModel[tuple[list[str], str, Any]]):
    """Read-only rows of strings with optional per-row tooltips and ids."""

    def __init__(self, headers: Sequence[str], parent: Any = None) -> None:
        super().__init__(parent)
        self._headers = list(headers)
        self.align_right: set[int] = set()

    def headers(self) -> Sequence[str]:
        return self._headers

    def set_texts(
        self, rows: Sequence[Sequence[str]], tips: Sequence[str] | None = None, ids: Sequence[Any] | None = None
    ) -> None:
        """The rows' texts, with a tool tip and an id (``ID_ROLE``) for each row if given."""
        texts = [[str(c) for c in r] for r in rows]
        tips = list(tips) if tips is not None else [""] * len(texts)
        ids = list(ids) if ids is not None else [None] * len(texts)
        self.set_rows(zip(texts, tips, ids, strict=True))

    def rows(self) -> list[list[str]]:
        return [list(r[0]) for r in self._rows]

    def cell_data(self, row: tuple[list[str], str, Any], column: int, role: int) -> Any:
        texts, tip, row_id = row
        if role == Qt.ItemDataRole.DisplayRole:
            return texts[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return tip or None
        if role == ID_ROLE:
            return row_id
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self.align_right:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
