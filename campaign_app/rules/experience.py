"""Atomic Africa experience (RULES.md 1.1): levels under the campaign's thresholds, orders cards, who
activates first, attribute level words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..errors import Refused
from .dice import DIE_SIDES, DiceError

XP_MAX = 32
CARDS_PER_LEVEL = 2
"""Orders cards drawn per turn for each experience rank of the platoon and of its leader."""
FIRE_SUPPORT_CARDS = -1
"""Card change when fire support is available this turn."""
LEVELS: tuple[str, ...] = ("Untested", "Green", "Regular", "Veteran", "Legendary")
"""Experience levels, lowest first; rank = index + 1 (Untested 1 .. Legendary 5)."""
LEVEL_LETTERS: tuple[str, ...] = ("G", "R", "V", "L")
"""Letters printed over the threshold boxes of the XP track."""

ATTRIBUTES: tuple[str, ...] = ("training", "equipment", "morale")

# Level words for the attribute dice (level 1..5 = d4..d12), in our own words, one row per attribute.
ATTRIBUTE_LEVEL_WORDS: dict[str, tuple[str, ...]] = {
    "training": ("Untrained", "Basic", "Trained", "Professional", "Elite"),
    "equipment": ("Improvised", "Worn", "Standard", "Modern", "Cutting-edge"),
    "morale": ("Broken", "Shaken", "Steady", "Motivated", "Fanatical"),
}

ARMOR_CLASSES: dict[int, str] = {
    1: "light infantry",
    2: "medium infantry",
    3: "heavy infantry",
    4: "vehicle",
    5: "vehicle",
}


class RulesError(Refused):
    """A value outside what the rules allow (XP 33, thresholds out of order, ...)."""


def check_xp(xp: int, who: str = "XP") -> int:
    if isinstance(xp, bool) or not isinstance(xp, int) or not 0 <= xp <= XP_MAX:
        raise RulesError(f"{who} must be a whole number from 0 to {XP_MAX}, not {xp!r}")
    return xp


def clamp_xp(xp: int) -> int:
    return max(0, min(XP_MAX, xp))


def check_armor(armor: int) -> int:
    if isinstance(armor, bool) or not isinstance(armor, int) or not 1 <= armor <= 5:
        raise RulesError(f"Armor must be 1 to 5, not {armor!r}")
    return armor


def attribute_word(attribute: str, sides: int) -> str:
    if sides not in DIE_SIDES:
        raise DiceError(f"d{sides} is not an attribute die (d4, d6, d8, d10 or d12)")
    return ATTRIBUTE_LEVEL_WORDS[attribute][DIE_SIDES.index(sides)]


@dataclass(frozen=True)
class Thresholds:
    """XP needed for Green, Regular, Veteran and Legendary (⚙ default 1, 4, 9, 16)."""

    green: int = 1
    regular: int = 4
    veteran: int = 9
    legendary: int = 16

    def __post_init__(self) -> None:
        values = self.as_tuple()
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            raise RulesError(f"XP thresholds must be whole numbers, not {values!r}")
        if not values[0] >= 1 or values[-1] > XP_MAX:
            raise RulesError(f"XP thresholds must lie within 1..{XP_MAX}, not {values!r}")
        if any(b <= a for a, b in zip(values, values[1:], strict=False)):
            raise RulesError(
                f"XP thresholds must rise strictly (Green < Regular < Veteran < Legendary), not {values!r}"
            )

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.green, self.regular, self.veteran, self.legendary)

    @classmethod
    def parse(cls, text: str) -> Thresholds:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 4 or not all(p.isdigit() for p in parts):
            raise RulesError(f"thresholds must be four whole numbers like 1,4,9,16, not {text!r}")
        g, r, v, leg = (int(p) for p in parts)
        return cls(g, r, v, leg)

    def __str__(self) -> str:
        return ",".join(str(v) for v in self.as_tuple())


DEFAULT_THRESHOLDS = Thresholds()


def level_rank(xp: int, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> int:
    """Experience rank 1 (Untested) .. 5 (Legendary) for ``xp``."""
    check_xp(xp)
    return 1 + sum(1 for t in thresholds.as_tuple() if xp >= t)


def level_name(xp: int, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> str:
    return LEVELS[level_rank(xp, thresholds) - 1]


def orders_cards(platoon_rank: int, leader_rank: int | None, fire_support: bool = False) -> int:
    """Cards drawn per turn: 2 x platoon level + 2 x leader level (no leader: nothing), one fewer with fire
    support available."""
    for r in (platoon_rank, leader_rank):
        if r is not None and not 1 <= r <= 5:
            raise RulesError(f"experience rank must be 1..5, not {r}")
    cards = CARDS_PER_LEVEL * platoon_rank + (CARDS_PER_LEVEL * leader_rank if leader_rank else 0)
    return cards + FIRE_SUPPORT_CARDS if fire_support else cards


def orders_cards_for_xp(
    platoon_xp: int, leader_xp: int | None, fire_support: bool = False, thresholds: Thresholds = DEFAULT_THRESHOLDS
) -> int:
    leader_rank = None if leader_xp is None else level_rank(leader_xp, thresholds)
    return orders_cards(level_rank(platoon_xp, thresholds), leader_rank, fire_support)


Side = Literal["a", "b", "roll-off"]


def who_activates_first(
    a_leader_rank: int | None, a_platoon_rank: int, b_leader_rank: int | None, b_platoon_rank: int
) -> Side:
    """Higher leader level first; tie -> higher platoon level; still tied -> roll off.
    A side with no leader counts as leader level 0."""
    al, bl = a_leader_rank or 0, b_leader_rank or 0
    if al != bl:
        return "a" if al > bl else "b"
    if a_platoon_rank != b_platoon_rank:
        return "a" if a_platoon_rank > b_platoon_rank else "b"
    return "roll-off"


def xp_range(rank: int, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> tuple[int, int]:
    """Lowest and highest XP of experience ``rank`` (1..5) under ``thresholds``."""
    if not 1 <= rank <= len(LEVELS):
        raise RulesError(f"experience rank must be 1..5, not {rank}")
    starts = (0, *thresholds.as_tuple())
    ends = (*(t - 1 for t in thresholds.as_tuple()), XP_MAX)
    return starts[rank - 1], ends[rank - 1]


def experience_table(thresholds: Thresholds = DEFAULT_THRESHOLDS) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The experience table (RULES 1.1) as ``(headers, rows)`` for cards, sheets and help: one row per level
    with its rank, XP range, the letter printed over its threshold box and the orders cards it adds (for the
    platoon and again for the leader)."""
    headers = ("Level", "Rank", "XP", "Box", "Cards")
    rows: list[tuple[str, ...]] = []
    for rank, name in enumerate(LEVELS, start=1):
        low, high = xp_range(rank, thresholds)
        span = str(low) if low == high else f"{low}\u2013{high}"
        letter = LEVEL_LETTERS[rank - 2] if rank >= 2 else ""
        rows.append((name, str(rank), span, letter, f"+{CARDS_PER_LEVEL * rank}"))
    return headers, rows
