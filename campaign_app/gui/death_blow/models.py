"""Table models of the Death Blow screens (thin: rows are the services' results)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from ...services.death_blow import BoutRow, FighterRow
from ..roster_models import Column, RowsModel


def _record(r: FighterRow) -> str:
    return f"{r.wins}\u2013{r.draws}\u2013{r.losses}"


def _status(r: FighterRow) -> str:
    return "retired" if r.retired else ""


class FighterListModel(RowsModel[FighterRow]):
    """A campaign's fighters (``death_blow.list_fighters``)."""

    COLUMNS = (
        Column[FighterRow]("name", "Fighter"),
        Column[FighterRow]("level", "Level", tip="Experience Level 0..11"),
        Column[FighterRow]("xp", "XP", lambda r: f"{r.xp}/12", tip="XP toward the next level (12 boxes)"),
        Column[FighterRow]("lifetime_xp", "Lifetime XP"),
        Column[FighterRow]("bouts", "Bouts"),
        Column[FighterRow]("record", "Won\u2013drawn\u2013lost", _record),
        Column[FighterRow]("status", "Status", _status),
    )


def _result(me: int) -> Any:
    def show(b: BoutRow) -> str:
        if b.winner == "draw":
            return "draw"
        mine = b.fighter if b.fighter_id == me else b.opponent
        won = b.winner == mine
        return f"won (+{b.xp_gained} XP)" if won else "lost"

    return show


def _opponent(me: int) -> Any:
    def show(b: BoutRow) -> str:
        other, level = (b.opponent, b.opponent_level) if b.fighter_id == me else (b.fighter, b.fighter_level)
        return f"{other} (level {level})"

    return show


class BoutListModel(RowsModel[BoutRow]):
    """A fighter's bouts, newest first, from that fighter's side."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.set_fighter(0)

    def set_fighter(self, fighter_id: int) -> None:
        self.COLUMNS = (
            Column[BoutRow]("date", "Date"),
            Column[BoutRow]("opponent", "Opponent", _opponent(fighter_id)),
            Column[BoutRow]("winner", "Result", _result(fighter_id)),
            Column[BoutRow](
                "face_cards_left",
                "Face cards left",
                tip="Face cards (J, Q, K) left in the victor's deck: the victor's XP",
            ),
            Column[BoutRow]("mode", "Played", lambda b: "solo (app)" if b.mode == "solo" else "at the table"),
            Column[BoutRow]("id", "Bout", lambda b: f"#{b.id}"),
        )


@dataclass(frozen=True)
class PairRow:
    id: int
    fighter: str
    opponent: str
    bouts: int
    fighter_wins: int
    opponent_wins: int
    draws: int


class HeadToHeadModel(RowsModel[PairRow]):
    COLUMNS = (
        Column[PairRow]("fighter", "Fighter"),
        Column[PairRow]("fighter_wins", "Won"),
        Column[PairRow]("draws", "Drawn"),
        Column[PairRow]("opponent_wins", "Lost"),
        Column[PairRow]("opponent", "Against"),
        Column[PairRow]("bouts", "Bouts"),
    )

    def set_pairs(self, pairs: list[dict[str, Any]], me: str) -> None:
        rows = []
        for i, p in enumerate(pairs, 1):
            if p["opponent"] == me:  # from this fighter's side
                p = {
                    "fighter": me,
                    "opponent": p["fighter"],
                    "bouts": p["bouts"],
                    "fighter_wins": p["opponent_wins"],
                    "opponent_wins": p["fighter_wins"],
                    "draws": p["draws"],
                }
            rows.append(PairRow(i, **p))
        self.set_rows(rows)


@dataclass(frozen=True)
class EventRow:
    id: int
    date: str
    kind: str
    text: str


class TimelineModel(RowsModel[EventRow]):
    COLUMNS = (
        Column[EventRow]("date", "Date"),
        Column[EventRow]("kind", "What"),
        Column[EventRow]("text", "Event"),
    )


STYLE_SHORT = {
    "iron-defense": "Iron Def.",
    "mixed-defense": "Mixed Def.",
    "mixed-offense": "Mixed Off.",
    "all-out-attack": "All-Out",
}


@dataclass(frozen=True)
class RoundRow:
    id: int
    a: dict[str, Any]
    b: dict[str, Any]


def _style(s: dict[str, Any]) -> str:
    start, final = STYLE_SHORT[s["style"]], STYLE_SHORT[s["final_style"]]
    return start if start == final else f"{start} \u2192 {final}"


def _dice(s: dict[str, Any]) -> str:
    typed = " (typed)" if s.get("dice_source") == "entered" else ""
    return f"{s['dice'][0]}, {s['dice'][1]}{typed}"


def _side_columns(side: str, who: str) -> list[Column[RoundRow]]:
    def get(key: str) -> Any:
        return lambda r: str(getattr(r, side)[key])

    return [
        Column[RoundRow](f"{side}_card", f"{who}: card", lambda r: getattr(r, side)["card"]),
        Column[RoundRow](f"{side}_dice", "dice", lambda r: _dice(getattr(r, side))),
        Column[RoundRow](f"{side}_ini", "Ini.", get("initiative"), tip="Initiative: dice ≤ Reaction Speed"),
        Column[RoundRow](f"{side}_style", "style", lambda r: _style(getattr(r, side))),
        Column[RoundRow](
            f"{side}_ad", "A / D", lambda r: f"{getattr(r, side)['attack']} / {getattr(r, side)['defense']}"
        ),
        Column[RoundRow](f"{side}_dmg", "dmg", get("damage"), tip="Damage dealt to the other fighter"),
        Column[RoundRow](f"{side}_left", "left", get("cards_left"), tip="Cards left in this fighter's deck"),
    ]


class RoundsModel(RowsModel[RoundRow]):
    """A bout's rounds: each fighter's card, dice, Initiative, style, Attack/Defense, damage, cards left."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.set_names("A", "B")

    def set_names(self, a: str, b: str) -> None:
        self.COLUMNS = (Column[RoundRow]("id", "Round"), *_side_columns("a", a), *_side_columns("b", b))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.COLUMNS) - 1)

    def set_round_dicts(self, rounds: list[dict[str, Any]]) -> None:
        self.set_rows([RoundRow(r["round"], r["a"], r["b"]) for r in rounds])

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid() and 0 <= index.row() < self.rowCount():
            key = self.COLUMNS[index.column()].key
            if key in ("a_card", "b_card"):
                card = getattr(self.row_data(index.row()), key[0])["card"]
                if card[-1:] in ("\u2665", "\u2666"):  # red suits
                    return QColor(RED)
            return None
        return super().data(index, role)


RED = "#d0342c"
"""Hearts and diamonds in the rounds table (readable on light and dark bases)."""
