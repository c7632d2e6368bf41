"""Sologear battle-turn tables (RULES.md 2.2): postures, actions, the combat table and its symbols, enemy
quality, entry edges and the fixed dice of a turn, with the lookups that read them."""

from __future__ import annotations

import re

from ..dice import Dice
from ..experience import RulesError
from .forces import BAND_NAMES, band_name

# =========================================================================================================
# 2.2 Battle turns
# =========================================================================================================

POSTURES: dict[int, str] = {-2: "Cowardly", -1: "Holding back", 0: "Average", 1: "Brave", 2: "Bold"}
"""FIG posture X -> its name; X is added to the combat roll."""

ACTIONS: dict[str, str] = {"dec": "DEC", "rep": "REP", "fig": "FIG"}

EMPTY_CELL = "–"

COMBAT_TABLE: tuple[tuple[str, str, str, str, str], ...] = (
    # roll: Winning, Advantaged, Equal, Disadvantaged, Losing
    ("–", "#", "#", "#", "E,#"),  # 0
    ("–", "–", "–", "–", "#"),  # 1
    ("1G", "1G", "–", "–", "#"),  # 2
    ("1G,*", "1G,#", "1G", "–", "#"),  # 3
    ("1D6G,**", "1D6G,#", "1G", "1G", "S"),  # 4
    ("1D6G", "1D6G", "1D6G,##", "1G,*", "#"),  # 5
    ("2D6G", "1D6G", "1D6G,#", "1D6G,##", "*"),  # 6
    ("2D6G,##", "2D6G,##", "1D6G,#", "1D6G,#", "E,##"),  # 7
    ("2D6G", "2D6G", "1D6G", "1D6G", "E"),  # 8
    ("3D6G", "2D6G", "1D6G,*", "1D6G,**", "E,##"),  # 9
    ("3D6G,#", "2D6G,*", "2D6G", "1D6G,##", "**"),  # 10
    ("4D6G", "3D6G,**", "2D6G,##", "2D6G,*", "S"),  # 11
    ("4D6G", "3D6G", "2D6G,#", "2D6G", "#"),  # 12
    ("6D6G", "4D6G", "3D6G", "2D6G,#", "#"),  # 13
    ("9D6G,#", "4D6G,#", "3D6G,#", "3D6G", "E,#"),  # 14
)
"""The combat table (RULES.md 2.2): row = 2d6 + posture (0..14), column = odds band (``BAND_NAMES`` order).
Cells in the rules' notation; :func:`parse_cell` turns one into a dict. ▶ Advantaged Glory is Glory too."""

COMBAT_ROLL_MIN, COMBAT_ROLL_MAX = 0, 14

COMBAT_SYMBOLS: tuple[tuple[str, str], ...] = (
    ("nG", "that many Glory markers are scattered over the two maps"),
    ("nD6G", "roll nD6: that many Glory markers are scattered over the two maps"),
    ("*", "an enemy unit appears: roll 1D6 on the enemy-quality table"),
    ("**", "an enemy unit appears: roll 1D6+1 on the enemy-quality table"),
    ("#", "hit on the way in: light critical check 1D6−2, 0 or less = no damage"),
    ("##", "hit on the way in: a light critical is taken (no −2)"),
    ("S", "surrounded: the pilot surrenders and the campaign ends"),
    ("E", "the army is routed: the pilot flees with no prizes and the campaign ends"),
    ("–", "nothing special happens"),
)
"""Key to the combat table's symbols."""

ENEMY_QUALITY_COLUMNS: tuple[int, ...] = (100, 200, 300, 400, 500, 600)
"""Upper TV limit of each enemy-quality column (the pilot's Gear TV); above 600 uses the last column."""

ENEMY_QUALITY_TABLE: tuple[tuple[int, int, int, int, int, int], ...] = (
    (50, 100, 200, 200, 300, 400),  # 1
    (50, 100, 200, 300, 300, 400),  # 2
    (100, 200, 200, 300, 400, 400),  # 3
    (100, 200, 300, 300, 400, 500),  # 4
    (100, 200, 300, 400, 400, 500),  # 5
    (200, 300, 400, 400, 500, 500),  # 6
    (200, 300, 400, 400, 500, 600),  # 7
)
"""Enemy quality (RULES.md 2.2): row = 1d6 (+1 for ``**``), 1..7; column by the pilot's Gear TV; the cell is
the TV of the enemy unit that appears."""

ENEMY_QUALITY_ROWS = (1, 7)

ENTRY_EDGES: dict[int, str] = {1: "North", 2: "East", 3: "South", 4: "West"}
"""▶ Entry edge: 1d4."""

BUNKERS_PER_MAP, MAPS, BUNKER_TV = 3, 2, 250
BUNKERS_TOTAL = BUNKERS_PER_MAP * MAPS

BREAKOUT_ROWS = (12, 14)
"""⚙ Ferocious battles: a combat roll in this range means the pilot broke through."""

GLORY_DIE_SIDES = 6
LIGHT_CRITICAL_DICE = Dice(1, 6, -2)
REPAIR_DICE = Dice(1, 6, -2)
REPAIRED_TEXT = (
    "the Gear is repaired and re-armed (damage and ammunition cleared; record it again on this "
    "turn if the hours were not enough)"
)
BATTLE_LENGTH_DICE = Dice(4, 6)
ENTRY_EDGE_DIE = Dice(1, 4)
D66_DICE = Dice(2, 6)


_GLORY = re.compile(r"^(\d+)(D6)?G$")


def parse_cell(text: str) -> dict[str, str | None]:
    """``"1D6G,#"`` -> ``{"glory": "1D6", "hit": "#", "enemy": None, "ends": None}``.

    glory: None, "1", "1D6", "2D6", ...; hit: None, "#", "##"; enemy: None, "*", "**"; ends: None,
    "surrendered", "routed".
    """
    cell: dict[str, str | None] = {"glory": None, "hit": None, "enemy": None, "ends": None}
    raw = str(text).strip()
    if raw in ("", "–", "-", "--"):
        return cell
    for part in (p.strip() for p in raw.split(",")):
        m = _GLORY.match(part)
        if m:
            cell["glory"] = m.group(1) + ("D6" if m.group(2) else "")
        elif part in ("#", "##"):
            cell["hit"] = part
        elif part in ("*", "**"):
            cell["enemy"] = part
        elif part == "S":
            cell["ends"] = "surrendered"
        elif part == "E":
            cell["ends"] = "routed"
        else:
            raise RulesError(f"not a combat-table cell: {text!r}")
    return cell


def cell_text(cell: dict[str, str | None]) -> str:
    """The inverse of :func:`parse_cell` (``{"glory": "1D6", "hit": "#"}`` -> ``"1D6G,#"``)."""
    parts: list[str] = []
    if cell.get("ends") == "surrendered":
        parts.append("S")
    if cell.get("ends") == "routed":
        parts.append("E")
    if cell.get("glory"):
        parts.append(f"{cell['glory']}G")
    if cell.get("enemy"):
        parts.append(str(cell["enemy"]))
    if cell.get("hit"):
        parts.append(str(cell["hit"]))
    return ",".join(parts) if parts else EMPTY_CELL


def check_posture(posture: int | str | None) -> int:
    """A posture −2..+2 (accepts ``"+2"``); anything else raises RulesError."""
    try:
        value = int(str(posture).strip())
    except (TypeError, ValueError):
        raise RulesError(f"posture must be a whole number from -2 to 2, not {posture!r}") from None
    if value not in POSTURES:
        raise RulesError(f"posture must be from -2 (Cowardly) to 2 (Bold), not {value}")
    return value


def check_action(action: str) -> str:
    key = str(action).strip().lower()
    if key not in ACTIONS:
        raise RulesError(f"unknown action {action!r} (expected dec, rep or fig)")
    return key


def combat_row(roll: int) -> int:
    if not COMBAT_ROLL_MIN <= roll <= COMBAT_ROLL_MAX:
        raise RulesError(f"combat roll must be 0..14, not {roll}")
    return roll


def combat_cell(band: str, roll: int) -> dict[str, str | None]:
    """The parsed combat-table cell for an odds band and a modified roll 0..14."""
    return parse_cell(COMBAT_TABLE[combat_row(roll)][BAND_NAMES.index(band_name(band))])


def glory_dice(glory: str | None) -> Dice | None:
    """``"2D6"`` -> 2d6; a fixed number (``"1"``) or None needs no dice."""
    if not glory or "D" not in glory:
        return None
    return Dice(int(glory.split("D")[0]), GLORY_DIE_SIDES)


def gear_tv_column(gear_tv: int) -> int:
    """Index of the enemy-quality column for the pilot's Gear TV (≤100 -> 0 ... ≤600 and above -> 5)."""
    if gear_tv <= 0:
        raise RulesError(f"the Gear's TV must be above 0, not {gear_tv}")
    for i, limit in enumerate(ENEMY_QUALITY_COLUMNS):
        if gear_tv <= limit:
            return i
    return len(ENEMY_QUALITY_COLUMNS) - 1


def enemy_column_label(index: int) -> str:
    return f"≤{ENEMY_QUALITY_COLUMNS[index]}"


def enemy_row(roll: int) -> tuple[int, str]:
    """The enemy-quality row for a roll (1d6, +1 for ``**``): rows 1..7, a higher roll read as row 7.
    Returns (row, note); the note says when the roll was read as another row ("" otherwise)."""
    if isinstance(roll, bool) or not isinstance(roll, int) or roll < ENEMY_QUALITY_ROWS[0]:
        raise RulesError(f"an enemy-quality roll is 1 or more (1d6, +1 for **), not {roll!r}")
    row = min(ENEMY_QUALITY_ROWS[1], roll)
    return row, (f"roll {roll}, read as row {row}" if row != roll else "")


def enemy_quality(gear_tv: int, row: int) -> int:
    """TV of the enemy unit: row 1..7 (the d6 plus modifiers, clamped to 1..7), column by the Gear's TV.
    (250 TV pilot, row 4 -> 300.)"""
    row = max(ENEMY_QUALITY_ROWS[0], min(ENEMY_QUALITY_ROWS[1], row))
    return ENEMY_QUALITY_TABLE[row - 1][gear_tv_column(gear_tv)]


def light_critical_damaged(check_total: int) -> bool:
    """``#``: the 1d6−2 check; 0 or less means no damage."""
    return check_total > 0


def repair_hours(dice_total: int) -> int:
    """REP: 1d6−2 hours, at least 1."""
    return max(1, dice_total)


def describe_cell(cell: dict[str, str | None], *, breakout: bool = False) -> list[str]:
    """A combat-table cell in words, one phrase per effect."""
    words: list[str] = []
    if cell.get("ends") == "surrendered":
        words.append(
            "ignored in the break-out: the pilot fights on"
            if breakout
            else "surrounded: the pilot surrenders, the campaign ends"
        )
    elif cell.get("ends") == "routed":
        words.append(
            "ignored in the break-out: the pilot fights on"
            if breakout
            else "the army is routed: the pilot flees with no prizes, the campaign ends"
        )
    glory = cell.get("glory")
    if glory:
        if "D" in glory:
            words.append(f"roll {glory} Glory markers")
        else:
            words.append(f"{glory} Glory marker{'s' if glory != '1' else ''}")
    if cell.get("enemy") == "*":
        words.append("an enemy unit appears (roll 1D6 on enemy quality)")
    elif cell.get("enemy") == "**":
        words.append("an enemy unit appears (roll 1D6+1 on enemy quality)")
    if cell.get("hit") == "#":
        words.append("hit on the way in: light critical check (1D6−2)")
    elif cell.get("hit") == "##":
        words.append("hit on the way in: a light critical is taken")
    return words or ["nothing special happens"]
