"""Sologear (RULES.md §2): a lone Gear pilot's campaign.

Every table of §2 lives here once, as data; the engine below, the GUI's help and the printed play-aid cards
(:func:`card_tables`) all read these same objects.

The procedures that roll dice (campaign length, a battle turn, the end-of-campaign reckoning) are step-wise:
:meth:`~Procedure.pending` names the next roll wanted (its dice and purpose), :meth:`~Procedure.feed` takes its
faces. The GUI asks the user for each roll in turn ("Roll for me" or typed faces); the CLI and the services
run a whole procedure from a :class:`~campaign_app.rules.dice.DiceSource` with :func:`run`. The rules never
roll themselves.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from . import codes
from .dice import Dice, DiceError, DiceSource, RollRecord, Source, TypedDice
from .experience import RulesError

Side = Literal["player", "enemy"]
Action = Literal["dec", "rep", "fig"]

# =========================================================================================================
# 2.1 Campaign sheet
# =========================================================================================================

SKILL_MULTIPLIERS: dict[str, float] = {
    "rookie": 0.25,
    "regular": 1.0,
    "veteran": 2.25,
    "elite": 4.0,
    "legendary": 6.25,
}
"""Unit skill word -> combat power multiplier (RULES.md 2.1)."""

LOYALTY_MULTIPLIERS: dict[str, float] = {
    "shaken": 0.75,
    "reliable": 1.0,
    "firm": 1.5,
}
"""Unit loyalty word -> combat power multiplier (RULES.md 2.1)."""

BASE_POWER_DIVISOR = 20
"""Base power = TV of the company's units / 20."""
MAX_BASE_POWER = 1_000_000
"""Sanity bound on a unit's base power (real companies are in the hundreds)."""
MAX_COMPANY_TV = 1_000_000
"""Sanity bound on a company's TV."""
MAX_TOTAL = 1_000_000_000
"""Sanity bound on a side's combat power total (``sologear odds``)."""
MAX_REWARD_DICE = 10
MAX_REWARD_SIDES = 100

ODDS_BANDS: tuple[tuple[str, str, str], ...] = (
    ("Winning", ">=", "3.00"),
    ("Advantaged", ">=", "2.00"),
    ("Equal", ">=", "0.51"),
    ("Disadvantaged", ">=", "0.34"),
    ("Losing", "else", ""),
)
"""Odds bands, best first: (band, comparison, threshold). Odds = player total / enemy total, rounded to
:data:`ODDS_PLACES` decimals (half up) as the seed's table writes them; the first band whose test passes
applies ("else" always does). RULES.md 2.1: 1:3 = 0.33 is Losing, 2.995 -> 3.00 is Winning."""

ODDS_PLACES = 2
"""The odds are compared to the bands rounded to this many decimals (half up)."""

BAND_NAMES: tuple[str, ...] = tuple(b[0] for b in ODDS_BANDS)
"""The five odds bands = the five columns of the combat table, in that order."""

SIDES: tuple[str, ...] = ("player", "enemy")


def _q(x: float | int | str | Fraction) -> Fraction:
    """An exact decimal value: 16.65 -> 1665/100 (avoids binary float fuzz at the band boundaries)."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, bool):
        raise RulesError("not a number")
    if isinstance(x, float) and not math.isfinite(x):
        raise RulesError(f"{x!r} is not a finite number")
    try:
        return Fraction(str(x).strip())
    except (ValueError, ZeroDivisionError, OverflowError):
        raise RulesError(f"{x!r} is not a finite number") from None


def skill_word(word: str) -> str:
    """Normalise a skill word (``"Veteran"`` -> ``"veteran"``), refusing unknown words."""
    key = str(word).strip().lower()
    if key == "legenary":  # the seed's spelling
        key = "legendary"
    if key not in SKILL_MULTIPLIERS:
        raise RulesError(f"unknown skill {word!r} (expected one of: {', '.join(SKILL_MULTIPLIERS)})")
    return key


def loyalty_word(word: str) -> str:
    """Normalise a loyalty word, refusing unknown words."""
    key = str(word).strip().lower()
    if key not in LOYALTY_MULTIPLIERS:
        raise RulesError(f"unknown loyalty {word!r} (expected one of: {', '.join(LOYALTY_MULTIPLIERS)})")
    return key


def base_power_from_tv(company_tv: int | float) -> float:
    """Base power of a company from the TV of its units: TV / 20."""
    tv = _q(company_tv)
    if tv < 0:
        raise RulesError(f"a company's TV cannot be negative ({company_tv})")
    if tv > MAX_COMPANY_TV:
        raise RulesError(f"a company's TV must be at most {MAX_COMPANY_TV:,} (not {company_tv})")
    return float(tv / BASE_POWER_DIVISOR)


def unit_total_exact(base_power: float | int | str, skill: str, loyalty: str) -> Fraction:
    base = _q(base_power)
    if base < 0:
        raise RulesError(f"base power cannot be negative ({base_power})")
    if base > MAX_BASE_POWER:
        raise RulesError(f"base power must be at most {MAX_BASE_POWER:,} (not {base_power})")
    return base * _q(SKILL_MULTIPLIERS[skill_word(skill)]) * _q(LOYALTY_MULTIPLIERS[loyalty_word(loyalty)])


def unit_total(base_power: float | int | str, skill: str, loyalty: str) -> float:
    """A unit's combat power: base × skill × loyalty (400, veteran, firm -> 1350)."""
    return float(unit_total_exact(base_power, skill, loyalty))


def force_total_exact(units: Iterable[tuple[float | int | str, str, str]]) -> Fraction:
    return sum((unit_total_exact(b, s, lo) for b, s, lo in units), Fraction(0))


def force_total(units: Iterable[tuple[float | int | str, str, str]]) -> float:
    """A side's total combat power: the sum of its units' totals. ``units``: (base, skill, loyalty)."""
    return float(force_total_exact(units))


def odds_ratio_exact(player_total: float | int | str | Fraction,
                     enemy_total: float | int | str | Fraction) -> Fraction:
    p, e = _q(player_total), _q(enemy_total)
    if p < 0 or e < 0:
        raise RulesError("combat power cannot be negative")
    if p > MAX_TOTAL or e > MAX_TOTAL:
        raise RulesError(f"combat power must be at most {MAX_TOTAL:,}")
    if e == 0:
        raise RulesError("the enemy's combat power is 0: no odds (add the enemy's units)")
    return p / e


def odds_ratio(player_total: float | int | str | Fraction, enemy_total: float | int | str | Fraction) -> float:
    """Odds = player total ÷ enemy total (700 / 1350 = 0.5185...)."""
    return float(odds_ratio_exact(player_total, enemy_total))


def rounded_odds(ratio: float | int | str | Fraction) -> Fraction:
    """The ratio as the bands compare it: rounded half up to :data:`ODDS_PLACES` decimals (2.995 -> 3.00,
    1/3 -> 0.33, 0.515 -> 0.52)."""
    scale = 10 ** ODDS_PLACES
    return Fraction(math.floor(_q(ratio) * scale + Fraction(1, 2)), scale)


def odds_band(ratio: float | int | str | Fraction) -> str:
    """The odds band of a ratio, rounded to two decimals first: ≥ 3.00 Winning, ≥ 2.00 Advantaged,
    ≥ 0.51 Equal, ≥ 0.34 Disadvantaged, else Losing."""
    r = rounded_odds(ratio)
    for band, op, threshold in ODDS_BANDS:
        if op == "else":
            return band
        limit = _q(threshold)
        if (op == ">=" and r >= limit) or (op == ">" and r > limit):
            return band
    raise AssertionError("unreachable")  # pragma: no cover


def odds(player_total: float | int | str | Fraction,
         enemy_total: float | int | str | Fraction) -> dict[str, Any]:
    """``{"ratio": 0.5185..., "band": "Equal", "ratio_text": "0.519", "compared": "0.52",
    "exact": "14/27"}``: ``compared`` is the two-decimal value the bands are checked against, ``exact`` the
    ratio as a fraction."""
    ratio = odds_ratio_exact(player_total, enemy_total)
    compared = rounded_odds(ratio)
    return {"ratio": float(ratio), "band": odds_band(ratio), "ratio_text": ratio_text(ratio),
            "compared": _fixed(compared, ODDS_PLACES), "exact": str(ratio)}


def _fixed(value: Fraction, places: int) -> str:
    """A non-negative multiple of 10**-places written with exactly ``places`` decimals."""
    whole = math.floor(value * 10 ** places)
    if places <= 0:
        return str(whole)
    return f"{whole // 10 ** places}.{whole % 10 ** places:0{places}d}"


RATIO_DIGITS = 15
"""A printed odds ratio has at most this many significant digits."""


def ratio_text(ratio: float | int | str | Fraction, digits: int = 3) -> str:
    """The odds ratio for people, never seeming to cross a band edge and never longer than
    :data:`RATIO_DIGITS` significant digits: rounded to ``digits`` decimals (700/1350 -> "0.519"), with more
    decimals while the shown value would fall in another band (2.99499/1 -> "2.99499", not "2.995", which
    rounds to 3.00: Winning)."""
    r = _q(ratio)
    band = odds_band(r)
    int_digits = len(str(math.floor(r))) if r >= 1 else 0
    most = max(0, RATIO_DIGITS - int_digits)
    for places in range(min(digits, most), most + 1):
        scale = 10 ** places
        whole = math.floor(r * scale + Fraction(1, 2))
        if odds_band(Fraction(whole, scale)) == band:
            return _fixed(Fraction(whole, scale), places)
    # this close to an edge (x.xx5): cut off, not rounded, the shown value stays on its side
    return _fixed(Fraction(math.floor(r * 10 ** most), 10 ** most), most)


def band_name(word: str) -> str:
    """``"equal"`` / ``"Equal"`` / ``"disadv"`` -> the band's name; unknown words raise RulesError."""
    key = str(word).strip().lower()
    for band in BAND_NAMES:
        if band.lower() == key or (len(key) >= 3 and band.lower().startswith(key)):
            return band
    raise RulesError(f"unknown odds band {word!r} (expected one of: {', '.join(BAND_NAMES)})")


def length_dice_count(player_units: int, enemy_units: int) -> int:
    """As many d6 as the side with fewer company-sized units has units."""
    if player_units < 1 or enemy_units < 1:
        raise RulesError("enter the units of both sides before rolling the campaign length")
    return min(player_units, enemy_units)


# =========================================================================================================
# 2.2 Battle turns
# =========================================================================================================

POSTURES: dict[int, str] = {-2: "Cowardly", -1: "Holding back", 0: "Average", 1: "Brave", 2: "Bold"}
"""FIG posture X -> its name; X is added to the combat roll."""

ACTIONS: dict[str, str] = {"dec": "DEC", "rep": "REP", "fig": "FIG"}
ACTION_NAMES: dict[str, str] = {"dec": "Decline the battle", "rep": "Repairs", "fig": "Fight"}

EMPTY_CELL = "–"

COMBAT_TABLE: tuple[tuple[str, str, str, str, str], ...] = (
    # roll: Winning, Advantaged, Equal, Disadvantaged, Losing
    ("–", "#", "#", "#", "E,#"),                        # 0
    ("–", "–", "–", "–", "#"),                          # 1
    ("1G", "1G", "–", "–", "#"),                        # 2
    ("1G,*", "1G,#", "1G", "–", "#"),                   # 3
    ("1D6G,**", "1D6G,#", "1G", "1G", "S"),             # 4
    ("1D6G", "1D6G", "1D6G,##", "1G,*", "#"),           # 5
    ("2D6G", "1D6G", "1D6G,#", "1D6G,##", "*"),         # 6
    ("2D6G,##", "2D6G,##", "1D6G,#", "1D6G,#", "E,##"),  # 7
    ("2D6G", "2D6G", "1D6G", "1D6G", "E"),              # 8
    ("3D6G", "2D6G", "1D6G,*", "1D6G,**", "E,##"),      # 9
    ("3D6G,#", "2D6G,*", "2D6G", "1D6G,##", "**"),      # 10
    ("4D6G", "3D6G,**", "2D6G,##", "2D6G,*", "S"),      # 11
    ("4D6G", "3D6G", "2D6G,#", "2D6G", "#"),            # 12
    ("6D6G", "4D6G", "3D6G", "2D6G,#", "#"),            # 13
    ("9D6G,#", "4D6G,#", "3D6G,#", "3D6G", "E,#"),      # 14
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
    (50, 100, 200, 200, 300, 400),    # 1
    (50, 100, 200, 300, 300, 400),    # 2
    (100, 200, 200, 300, 400, 400),   # 3
    (100, 200, 300, 300, 400, 500),   # 4
    (100, 200, 300, 400, 400, 500),   # 5
    (200, 300, 400, 400, 500, 500),   # 6
    (200, 300, 400, 400, 500, 600),   # 7
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

COMBAT_DICE = Dice(2, 6)
GLORY_DIE_SIDES = 6
ENEMY_QUALITY_DIE = Dice(1, 6)
LIGHT_CRITICAL_DICE = Dice(1, 6, -2)
REPAIR_DICE = Dice(1, 6, -2)
REPAIRED_TEXT = ("the Gear is repaired and re-armed (damage and ammunition cleared; record it again on this "
                 "turn if the hours were not enough)")
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
        words.append("ignored in the break-out: the pilot fights on" if breakout
                     else "surrounded: the pilot surrenders, the campaign ends")
    elif cell.get("ends") == "routed":
        words.append("ignored in the break-out: the pilot fights on" if breakout
                     else "the army is routed: the pilot flees with no prizes, the campaign ends")
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


# --- step-wise procedures ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class RollRequest:
    """The next roll a procedure wants: its key, dice and what it is for."""

    key: str
    dice: Dice
    purpose: str
    rule: str
    hint: str = ""

    @property
    def expression(self) -> str:
        return "D66" if self.key == "d66" else self.dice.expression

    @property
    def purpose_text(self) -> str:
        """The words shown for :attr:`purpose` (a code of :mod:`.codes`)."""
        return codes.purpose_text(self.purpose)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "expression": self.expression, "count": self.dice.count,
                "sides": self.dice.sides, "modifier": self.dice.modifier, "purpose": self.purpose,
                "purpose_text": self.purpose_text, "rule": self.rule, "rule_text": codes.rule_text(self.rule)}


class Procedure:
    """Base of the step-wise procedures: ``pending()`` -> next RollRequest or None; ``feed(faces, source)``."""

    def __init__(self) -> None:
        self.records: list[RollRecord] = []
        self._queue: list[RollRequest] = []

    @property
    def done(self) -> bool:
        return self.pending() is None

    def pending(self) -> RollRequest | None:
        return self._queue[0] if self._queue else None

    def feed(self, faces: Sequence[int], source: Source = "entered") -> RollRecord:
        req = self.pending()
        if req is None:
            raise DiceError("too many dice: no more rolls are needed")
        faces = [int(f) for f in faces]
        try:
            req.dice.check_faces(faces)
        except DiceError as exc:
            raise DiceError(f"roll {len(self.records) + 1} ({req.expression} for {req.purpose_text}): {exc}") \
                from None
        self._queue.pop(0)
        rec = RollRecord(purpose=req.purpose, expression=req.expression, faces=list(faces),
                         total=req.dice.total(faces), source=source, rule=req.rule,
                         modifier=req.dice.modifier)
        self._apply(req, rec)
        self.records.append(rec)
        return rec

    def _apply(self, req: RollRequest, rec: RollRecord) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def faces(self) -> list[list[int]]:
        """The faces used so far, one group per roll (replayable with TypedDice)."""
        return [list(r.faces) for r in self.records]


class MixedDice:
    """Faces gathered one roll at a time, each from the app or typed by the user (the GUI's dialogs).
    ``source`` is the source of the roll handed out last, as :func:`run` reads it after each roll."""

    def __init__(self, groups: Iterable[tuple[Sequence[int], Source]]) -> None:
        self._groups = [(list(f), s) for f, s in groups]
        self._typed = TypedDice([f for f, _ in self._groups])
        self._last: Source = "entered"

    @property
    def source(self) -> Source:
        return self._last

    def roll(self, dice: Dice, purpose: str = "") -> list[int]:
        index = self._typed.used
        faces = self._typed.roll(dice, purpose)
        self._last = self._groups[index][1]
        return faces

    def check_all_used(self) -> None:
        self._typed.check_all_used()


def run(proc: Procedure, dice: DiceSource) -> Procedure:
    """Feed a whole procedure from a dice source; leftover typed dice are refused."""
    while (req := proc.pending()) is not None:
        faces = dice.roll(req.dice, req.purpose_text)
        proc.feed(faces, dice.source)
    check = getattr(dice, "check_all_used", None)
    if check is not None:
        check()
    return proc


class LengthProcedure(Procedure):
    """2.1 Campaign length: as many d6 as the smaller side has company-sized units; the sum is the length."""

    def __init__(self, player_units: int, enemy_units: int) -> None:
        super().__init__()
        n = length_dice_count(player_units, enemy_units)
        self.length: int | None = None
        self._queue.append(RollRequest("length", Dice(n, 6), codes.PURPOSE_LENGTH, codes.RULE_LENGTH,
                                       f"{n}d6: as many d6 as the smaller side has units ({n})"))

    def _apply(self, req: RollRequest, rec: RollRecord) -> None:
        self.length = rec.total
        rec.table_row = f"{req.dice.count}d6"
        rec.outcome = f"the campaign lasts {rec.total} battle turn{'s' if rec.total != 1 else ''}"


@dataclass
class TurnResult:
    """What one battle turn rolled and what it means (before the player records the battle)."""

    action: str
    posture: int | None = None
    breakout: bool = False
    column: str | None = None
    combat_total: int | None = None
    cell: dict[str, str | None] | None = None
    cell_text: str | None = None
    glory: int | None = None
    enemy_row: int | None = None
    enemy_tv: int | None = None
    light_critical: int | None = None
    gear_damaged: bool = False
    repair_hours: int | None = None
    battle_length: int | None = None
    entry_edge: str | None = None
    ends: str | None = None
    starts_breakout: bool = False
    meaning: list[str] = field(default_factory=list)

    @property
    def battle(self) -> bool:
        """Is there a battle on the table to record afterwards?"""
        return self.battle_length is not None


class TurnProcedure(Procedure):
    """2.2 One battle turn. Dice are asked for in this order: REP: 1d6−2 hours. FIG: the combat 2d6, then
    the Glory dice (if any), the enemy-quality d6 (if any), the light-critical d6 (for ``#``), the battle
    length 4d6 and the entry-edge d4. A cell that ends the campaign (S, E) or a break-through needs no more.

    ⚙ Ferocious battles (``ferocious=True``): an ``S`` does not end the campaign but starts the break-out
    (``starts_breakout``); in the break-out (``breakout=True``) every turn is FIG, Bold, on the Losing column,
    enemy quality +1, S/E are ignored, and a combat roll of 12..14 means the pilot broke through.
    """

    def __init__(self, action: str, *, band: str | None = None, posture: int | str | None = None,
                 gear_tv: int = 1, gear_needs_repair: bool = False, ferocious: bool = False,
                 breakout: bool = False) -> None:
        super().__init__()
        action = check_action(action)
        self.gear_tv = gear_tv
        gear_tv_column(gear_tv)
        self.ferocious = ferocious
        self.result = TurnResult(action=action, breakout=breakout)
        if breakout:
            if action != "fig":
                raise RulesError("in the break-out (ferocious battles) there is no DEC or REP: the pilot "
                                 "must fight")
            if posture is not None and check_posture(posture) != 2:
                raise RulesError("in the break-out (ferocious battles) the pilot always fights Bold (+2)")
            posture = 2
            band = "Losing"
        if action == "dec":
            if posture is not None:
                raise RulesError("a posture is only chosen for FIG")
            self.result.meaning.append("DEC: the pilot declines the battle; nothing happens")
        elif action == "rep":
            if posture is not None:
                raise RulesError("a posture is only chosen for FIG")
            if not gear_needs_repair:
                raise RulesError("REP is only allowed while the Gear is damaged or short of ammunition")
            self._queue.append(RollRequest("repair", REPAIR_DICE, codes.PURPOSE_REPAIR, codes.RULE_REPAIR,
                                           "1d6−2 hours, at least 1"))
        else:
            if posture is None:
                raise RulesError("FIG needs a posture from -2 to 2")
            if band is None:
                raise RulesError("no odds yet: enter the units of both sides")
            self.result.posture = check_posture(posture)
            self.result.column = band_name(band)
            sign = f"{self.result.posture:+d}"
            self._queue.append(RollRequest(
                "combat", Dice(2, 6, self.result.posture), codes.PURPOSE_COMBAT, codes.RULE_COMBAT,
                f"2d6 {sign} ({POSTURES[self.result.posture]}), column {self.result.column}"))

    # --- the steps ---
    def _apply(self, req: RollRequest, rec: RollRecord) -> None:
        res = self.result
        if req.key == "repair":
            res.repair_hours = repair_hours(rec.total)
            rec.table_row = f"1d6-2 = {rec.total}"
            rec.outcome = f"{res.repair_hours} hour{'s' if res.repair_hours != 1 else ''} of repairs" + \
                (" (at least 1)" if rec.total < 1 else "")
            res.meaning.append(f"REP: {rec.outcome}")
            res.meaning.append(REPAIRED_TEXT)
        elif req.key == "combat":
            self._combat(rec)
        elif req.key == "glory":
            res.glory = rec.total
            rec.table_row = f"{res.cell.get('glory') if res.cell else ''}G"
            rec.outcome = f"{rec.total} Glory markers scattered over the two maps"
            res.meaning.append(rec.outcome)
        elif req.key == "enemy":
            self._enemy(req, rec)
        elif req.key == "light_critical":
            res.light_critical = rec.total
            res.gear_damaged = light_critical_damaged(rec.total)
            rec.table_row = f"1d6-2 = {rec.total}"
            rec.outcome = (f"light critical (check {rec.total}): the Gear is damaged" if res.gear_damaged
                           else "no damage")
            res.meaning.append(f"hit on the way in: {rec.outcome}")
        elif req.key == "battle_length":
            res.battle_length = rec.total
            rec.table_row = "4d6"
            rec.outcome = f"the battle lasts {rec.total} rounds"
            res.meaning.append(rec.outcome)
        elif req.key == "entry_edge":
            res.entry_edge = ENTRY_EDGES[rec.total]
            rec.table_row = str(rec.total)
            rec.outcome = f"the pilot enters from the {res.entry_edge} edge"
            res.meaning.append(rec.outcome)

    def _combat(self, rec: RollRecord) -> None:
        res = self.result
        assert res.column is not None
        total = combat_row(rec.total)
        res.combat_total = total
        text = COMBAT_TABLE[total][BAND_NAMES.index(res.column)]
        cell = parse_cell(text)
        res.cell, res.cell_text = cell, text
        rec.table_row = f"roll {total}, {res.column}: {text}"
        if res.breakout and BREAKOUT_ROWS[0] <= total <= BREAKOUT_ROWS[1]:
            res.ends = "broke_through"
            rec.outcome = "the pilot broke through to her own lines; the campaign ends"
            res.meaning.append(f"combat roll {total}: {rec.outcome}")
            return
        words = describe_cell(cell, breakout=res.breakout)
        rec.outcome = "; ".join(words)
        res.meaning.append(f"combat roll {total} ({res.column}: {text}): {rec.outcome}")
        ends = cell.get("ends")
        if ends and not res.breakout:
            if ends == "surrendered" and self.ferocious:
                res.starts_breakout = True
                res.meaning.append("ferocious battles: no surrender; from the next turn the pilot fights her "
                                   "way out (Bold, Losing column, until a roll of 12-14)")
            else:
                res.ends = ends
        glory = glory_dice(cell.get("glory"))
        if glory is not None:
            self._queue.append(RollRequest("glory", glory, codes.PURPOSE_GLORY, codes.RULE_GLORY,
                                           f"{glory.expression}: Glory markers"))
        elif cell.get("glory"):
            res.glory = int(str(cell["glory"]))
        if cell.get("enemy"):
            plus = (1 if cell["enemy"] == "**" else 0) + (1 if res.breakout else 0)
            self._queue.append(RollRequest("enemy", Dice(1, 6, plus), codes.PURPOSE_ENEMY, codes.RULE_ENEMY,
                                           f"1d6{f'+{plus}' if plus else ''}, column "
                                           f"{enemy_column_label(gear_tv_column(self.gear_tv))}"))
        if cell.get("hit") == "#":
            self._queue.append(RollRequest("light_critical", LIGHT_CRITICAL_DICE, codes.PURPOSE_LIGHT_CRITICAL,
                                           codes.RULE_HIT, "1d6−2: 0 or less = no damage"))
        elif cell.get("hit") == "##":
            res.gear_damaged = True
        if res.ends is None and not res.starts_breakout:
            self._queue.append(RollRequest("battle_length", BATTLE_LENGTH_DICE, codes.PURPOSE_BATTLE_LENGTH,
                                           codes.RULE_BATTLEFIELD, "4d6 rounds"))
            self._queue.append(RollRequest("entry_edge", ENTRY_EDGE_DIE, codes.PURPOSE_ENTRY_EDGE,
                                           codes.RULE_BATTLEFIELD,
                                           "1d4: 1 North, 2 East, 3 South, 4 West"))

    def _enemy(self, req: RollRequest, rec: RollRecord) -> None:
        res = self.result
        row, note = enemy_row(rec.total)
        col = gear_tv_column(self.gear_tv)
        res.enemy_row = row
        res.enemy_tv = ENEMY_QUALITY_TABLE[row - 1][col]
        clamp = f" ({note})" if note else ""
        rec.table_row = f"row {row}, {enemy_column_label(col)}{clamp}"
        rec.outcome = f"an enemy unit of TV {res.enemy_tv} appears"
        res.meaning.append(rec.outcome)


def play_turn(action: str, dice: DiceSource, **kwargs: Any) -> TurnProcedure:
    """Run a whole turn from a dice source (see :class:`TurnProcedure` for the arguments)."""
    proc = TurnProcedure(action, **kwargs)
    run(proc, dice)
    return proc


# =========================================================================================================
# 2.3 Campaign end
# =========================================================================================================

RECOGNITION_POINTS: dict[str, int] = {"dec": 8, "rep": 4, "fig_positive": 1, "glory": 1, "bunkers": 2,
                                      "units": 1}
"""Recognition: 8 per DEC, 4 per REP, X per FIG(X) with X > 0, 1 per Glory, 2 per bunker, 1 per full
100 TV destroyed."""

IMPRESSION_POINTS: dict[str, int] = {"dec": -9, "rep": -4, "fig_negative": 1, "glory": 1, "bunkers": 2,
                                     "units": 2}
"""Impression: −9 per DEC, −4 per REP, X per FIG(X) with X < 0, 1 per Glory, 2 per bunker, 2 per full
100 TV destroyed."""

NOTICED_BANDS: tuple[tuple[int, int | None, int | None], ...] = (
    (0, 5, None),
    (6, 10, 12),
    (11, 15, 14),
    (16, 20, 16),
    (21, 25, 22),
    (26, 30, 24),
    (31, 35, 26),
    (36, 40, 32),
    (41, 45, 34),
    (46, None, 36),
)
"""Noticed? (recognition low, high or None = and more, highest D66 that notices or None = never). A D66 roll
from 11 up to that value means the pilot was noticed."""


@dataclass(frozen=True)
class Band:
    """One row of a result table: the inclusive range low..high (None = open) and its meaning."""

    low: int | None
    high: int | None
    title: str
    text: str

    def contains(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    @property
    def label(self) -> str:
        return range_label(self.low, self.high)


def range_label(low: int | None, high: int | None) -> str:
    def num(v: int) -> str:
        return f"−{-v}" if v < 0 else str(v)
    if high is None and low is not None:
        return f"{num(low)}+"
    if low is None and high is not None:
        return f"{num(high)} and below"
    assert low is not None and high is not None
    if low == high:
        return num(low)
    if high <= 0:
        return f"{num(high)} to {num(low)}"
    return f"{num(low)}–{num(high)}"


REWARDS: tuple[Band, ...] = (
    Band(0, 8, "Double pay", "A large cash payment and a mention of the pilot's deeds."),
    Band(9, 16, "New Gear", "A new Gear one class better from the pilot's own side, or one of the enemy "
                            "machines she destroyed."),
    Band(17, 25, "Promotion and pension", "Promotion, and extra pay for the rest of her life."),
    Band(26, 49, "Own Gear, future Duelist", "The army gives her a Gear of her own, picked from those she "
                                             "destroyed; a career as a Duelist is assured."),
    Band(50, None, "Path to high command", "Promotion; the way to the highest ranks lies open (and someone "
                                           "films her story)."),
)
"""Rewards table (impression ≥ 0), by reward roll."""

PUNISHMENTS: tuple[Band, ...] = (
    Band(-4, 0, "Loot, pay and honour lost", "Everything gained in loot, pay and honour is taken away."),
    Band(-7, -5, "Court-martial", "Court-martialled; the pilot loses her status."),
    Band(-10, -8, "Disgraced", "Publicly humiliated."),
    Band(-12, -11, "Punished and fined", "A punishment and a fine."),
    Band(-14, -13, "Heavily fined", "A heavy fine."),
    Band(-16, -15, "Retirement or exile", "Forced to retire to a monastery or go into exile."),
    Band(-20, -17, "Declared a coward", "Branded a coward and challenged to a duel by her old comrades; "
                                        "out of the army whatever happens."),
    Band(-30, -21, "Penalty battalion", "Sent to a penalty battalion: a suicide mission is her only way "
                                        "back; failure means execution."),
    Band(-40, -31, "Suicide or execution", "Offered the choice of suicide or a quick execution."),
    Band(None, -41, "Dishonourable execution", "Executed slowly and without honour."),
)
"""Punishments table (impression < 0), by punishment roll; a roll above 0 counts as the mildest band."""

VARIABLE_REWARDS: tuple[Band, ...] = (
    Band(0, 8, "Promotion", "Promotion and a mention of the pilot's deeds."),
    Band(9, 16, "New Gear", "A new Gear one class better from the pilot's own side, or one of the enemy "
                            "machines she destroyed."),
    Band(17, 25, "Promotion and pension", "Promotion, and extra pay for the rest of her life."),
    Band(26, 49, "Own Gear, unit Duelist", "A Gear of her own, picked from those she destroyed; she becomes "
                                           "the unit's Duelist and her memoirs sell well."),
    Band(50, None, "Rich rewards", "Ranks and medals; high command ahead, a drama series about her, and a "
                                   "place in the next character book."),
)
"""⚙ Variable (milder) rewards table, as listed in the seed."""

VARIABLE_PUNISHMENTS: tuple[Band, ...] = (
    Band(-4, 0, "Loot and pay lost", "Everything gained in loot and pay is taken away."),
    Band(-10, -5, "Court-martial, status lost", "Court-martialled; the pilot loses her status."),
    Band(-16, -11, "Court-martial, lesser unit", "Court-martialled and moved to a unit of lower standing."),
    Band(-30, -17, "Court-martial, coward", "Branded a coward: prison or a penalty battalion; an officer is "
                                            "dismissed from the service."),
    Band(-40, -31, "Court-martial, prison", "Prison or a penalty battalion; senior officers are retired and, "
                                            "in time, released and dismissed."),
    Band(None, -41, "Executed", "Executed by the army (some armies send her into exile or prison for life "
                                "instead)."),
)
"""⚙ Variable (milder) punishments table, as listed in the seed."""

DEFAULT_REWARD_DICE = "1d6"


@dataclass(frozen=True)
class ScoreItem:
    key: str
    label: str
    count: int
    per: int | None
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "count": self.count, "per": self.per,
                "points": self.points}


@dataclass(frozen=True)
class Score:
    """A total with its breakdown; ``total == sum(item.points)``."""

    total: int
    items: tuple[ScoreItem, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "breakdown": [i.to_dict() for i in self.items]}


@dataclass(frozen=True)
class TurnTally:
    """What a played turn contributes to the reckoning."""

    action: str
    posture: int | None = None
    glory: int = 0
    bunkers: int = 0
    enemy_tv: int = 0
    breakout: bool = False

    @property
    def glory_points(self) -> int:
        """⚙ Glory collected in the ferocious break-out counts double."""
        return self.glory * (2 if self.breakout else 1)


def _common_items(turns: Sequence[TurnTally], points: dict[str, int]) -> list[ScoreItem]:
    glory = sum(t.glory_points for t in turns)
    bunkers = sum(t.bunkers for t in turns)
    hundreds = sum(t.enemy_tv for t in turns) // 100
    doubled = any(t.breakout and t.glory for t in turns)
    return [
        ScoreItem("glory", "Glory" + (" (break-out Glory doubled)" if doubled else ""), glory,
                  points["glory"], glory * points["glory"]),
        ScoreItem("bunkers", "Bunkers", bunkers, points["bunkers"], bunkers * points["bunkers"]),
        ScoreItem("units", "Units (per full 100 TV destroyed)", hundreds, points["units"],
                  hundreds * points["units"]),
    ]


def recognition(turns: Sequence[TurnTally]) -> Score:
    """Recognition with its breakdown by DEC / REP / FIG / Glory / bunkers / units."""
    p = RECOGNITION_POINTS
    dec = sum(1 for t in turns if t.action == "dec")
    rep = sum(1 for t in turns if t.action == "rep")
    brave = [t.posture for t in turns if t.action == "fig" and t.posture is not None and t.posture > 0]
    items = [
        ScoreItem("dec", "DEC", dec, p["dec"], dec * p["dec"]),
        ScoreItem("rep", "REP", rep, p["rep"], rep * p["rep"]),
        ScoreItem("fig", "FIG with X > 0 (X each)", len(brave), None, sum(brave)),
        *_common_items(turns, p),
    ]
    return Score(sum(i.points for i in items), tuple(items))


def impression(turns: Sequence[TurnTally]) -> Score:
    """Impression with its breakdown by DEC / REP / FIG / Glory / bunkers / units."""
    p = IMPRESSION_POINTS
    dec = sum(1 for t in turns if t.action == "dec")
    rep = sum(1 for t in turns if t.action == "rep")
    timid = [t.posture for t in turns if t.action == "fig" and t.posture is not None and t.posture < 0]
    items = [
        ScoreItem("dec", "DEC", dec, p["dec"], dec * p["dec"]),
        ScoreItem("rep", "REP", rep, p["rep"], rep * p["rep"]),
        ScoreItem("fig", "FIG with X < 0 (X each)", len(timid), None, sum(timid)),
        *_common_items(turns, p),
    ]
    return Score(sum(i.points for i in items), tuple(items))


def d66_value(tens: int, units: int) -> int:
    """D66: the first d6 gives the tens, the second the units (11..66)."""
    for f in (tens, units):
        if not 1 <= f <= 6:
            raise DiceError(f"{f} is not a face of a d6 (1..6)")
    return tens * 10 + units


def noticed_band(recognition_total: int) -> tuple[int, int | None, int | None]:
    """The NOTICED_BANDS row for a recognition total (negative totals use the first row)."""
    for band in NOTICED_BANDS:
        low, high, _ = band
        if (recognition_total <= 5 and low == 0) or (low <= recognition_total and
                                                     (high is None or recognition_total <= high)):
            return band
    raise AssertionError("unreachable")  # pragma: no cover


def noticed_limit(recognition_total: int) -> int | None:
    """The highest D66 that notices the pilot, or None (never noticed)."""
    return noticed_band(recognition_total)[2]


def is_noticed(recognition_total: int, d66: int) -> bool:
    if not 11 <= d66 <= 66 or d66 % 10 == 0 or d66 % 10 > 6:
        raise DiceError(f"{d66} is not a D66 roll (11..66, each digit 1..6)")
    limit = noticed_limit(recognition_total)
    return limit is not None and d66 <= limit


def noticed_label(recognition_total: int) -> str:
    limit = noticed_limit(recognition_total)
    return "never" if limit is None else f"11–{limit}"


def result_tables(variable: bool = False) -> tuple[tuple[Band, ...], tuple[Band, ...]]:
    return (VARIABLE_REWARDS, VARIABLE_PUNISHMENTS) if variable else (REWARDS, PUNISHMENTS)


def lookup_result(value: int, impression_total: int, *, variable: bool = False) -> tuple[str, Band]:
    """``("rewards"|"punishments", band)`` for a reward/punishment roll. Impression ≥ 0 reads the rewards
    table (a roll below 0 counts as its lowest band), < 0 the punishments (a roll above 0 counts as the
    mildest band)."""
    rewards, punishments = result_tables(variable)
    if impression_total >= 0:
        table, bands, clamp = "rewards", rewards, max(value, 0)
    else:
        table, bands, clamp = "punishments", punishments, min(value, 0)
    for band in bands:
        if band.contains(clamp):
            return table, band
    raise AssertionError("unreachable")  # pragma: no cover


def check_reward_dice(text: str) -> Dice:
    """⚙ The reward-roll dice (default 1d6)."""
    try:
        dice = Dice.parse(text)
    except DiceError as exc:
        raise RulesError(f"reward dice: {exc}") from None
    if dice.sides == 66:
        # "d66" elsewhere in the app is D66: two d6 read as tens and units (11..66), never one 66-sided
        # die; a reward roll adds dice to the impression, which a D66 cannot do
        raise RulesError(f"reward dice: {text.strip()!r} is not allowed: D66 (two d6 read as tens and units) "
                         f"is not a sum of dice; use ordinary dice such as 1d6 or 2d6")
    if dice.count > MAX_REWARD_DICE or dice.sides > MAX_REWARD_SIDES:
        raise RulesError(f"reward dice: at most {MAX_REWARD_DICE} dice of at most {MAX_REWARD_SIDES} sides, "
                         f"not {text!r}")
    return dice


@dataclass
class EndResult:
    recognition: Score
    impression: Score
    d66: int | None = None
    noticed: bool | None = None
    noticed_range: str = ""
    table: str | None = None
    roll: int | None = None
    result: int | None = None
    band: Band | None = None
    outcome: str = ""


class EndProcedure(Procedure):
    """2.3 The reckoning: D66 (one roll of two d6: tens, units) against the noticed band; if noticed, the
    reward/punishment roll = reward dice + impression."""

    def __init__(self, turns: Sequence[TurnTally], *, reward_dice: str = DEFAULT_REWARD_DICE,
                 variable: bool = False) -> None:
        super().__init__()
        self.variable = variable
        self.reward_dice = check_reward_dice(reward_dice)
        self.result = EndResult(recognition(turns), impression(turns))
        rec = self.result.recognition.total
        self.result.noticed_range = noticed_label(rec)
        self._queue.append(RollRequest("d66", D66_DICE, codes.PURPOSE_NOTICED, codes.RULE_NOTICED,
                                       f"D66 (first die tens, second units): noticed on "
                                       f"{self.result.noticed_range} with recognition {rec}"))

    def _apply(self, req: RollRequest, rec: RollRecord) -> None:
        res = self.result
        if req.key == "d66":
            value = d66_value(rec.faces[0], rec.faces[1])
            rec.total = value
            res.d66 = value
            res.noticed = is_noticed(res.recognition.total, value)
            rec.table_row = f"recognition {res.recognition.total}: noticed on {res.noticed_range}"
            rec.outcome = "noticed" if res.noticed else "not noticed: no reward or punishment"
            if res.noticed:
                imp = res.impression.total
                table = "rewards" if imp >= 0 else "punishments"
                mod = self.reward_dice.modifier + imp
                dice = Dice(self.reward_dice.count, self.reward_dice.sides, mod)
                self._queue.append(RollRequest(
                    "reward", dice, table, codes.result_rule(table, self.variable),
                    f"{self.reward_dice.expression} + impression {imp}"))
            else:
                res.outcome = "Not noticed: the campaign ends with no reward or punishment."
        elif req.key == "reward":
            imp = res.impression.total
            res.roll = rec.total - imp - self.reward_dice.modifier
            res.result = rec.total
            res.table, res.band = lookup_result(rec.total, imp, variable=self.variable)
            rec.table_row = f"{res.table} {res.band.label}"
            rec.outcome = f"{res.band.title}: {res.band.text}"
            res.outcome = rec.outcome


# =========================================================================================================
# Play-aid cards: the very tables above, as strings
# =========================================================================================================

def _num(x: float) -> str:
    return f"{x:g}"


def card_tables() -> dict[str, tuple[list[str], list[list[str]]]]:
    """Every Sologear table as (headers, rows) of strings, for the printed play-aid cards and the help."""
    tables: dict[str, tuple[list[str], list[list[str]]]] = {}
    tables["skill"] = (["Skill", "×"], [[k.capitalize(), _num(v)] for k, v in SKILL_MULTIPLIERS.items()])
    tables["loyalty"] = (["Loyalty", "×"], [[k.capitalize(), _num(v)] for k, v in LOYALTY_MULTIPLIERS.items()])
    op_text = {">=": "≥", ">": ">"}
    tables["odds"] = (["Odds (player ÷ enemy)", "Band"],
                      [[f"{op_text[op]} {t}" if op != "else" else "otherwise", band]
                       for band, op, t in ODDS_BANDS])
    tables["postures"] = (["X", "Posture"], [[f"{x:+d}" if x else "0", name] for x, name in POSTURES.items()])
    tables["combat"] = (["2D6+X", *BAND_NAMES],
                        [[str(i), *row] for i, row in enumerate(COMBAT_TABLE)])
    tables["combat_key"] = (["Symbol", "Meaning"], [[s, m] for s, m in COMBAT_SYMBOLS])
    tables["enemy_quality"] = (["D6", *(enemy_column_label(i) for i in range(len(ENEMY_QUALITY_COLUMNS)))],
                               [[str(i), *(str(v) for v in row)]
                                for i, row in enumerate(ENEMY_QUALITY_TABLE, start=1)])
    tables["entry_edge"] = (["D4", "Edge"], [[str(k), v] for k, v in ENTRY_EDGES.items()])
    tables["recognition"] = (["Deed", "Recognition", "Impression"], [
        ["DEC", f"+{RECOGNITION_POINTS['dec']} each", f"{IMPRESSION_POINTS['dec']} each"],
        ["REP", f"+{RECOGNITION_POINTS['rep']} each", f"{IMPRESSION_POINTS['rep']} each"],
        ["FIG(X)", "+X if X > 0", "X if X < 0"],
        ["Glory", f"+{RECOGNITION_POINTS['glory']} each", f"+{IMPRESSION_POINTS['glory']} each"],
        ["Bunker", f"+{RECOGNITION_POINTS['bunkers']} each", f"+{IMPRESSION_POINTS['bunkers']} each"],
        ["Enemy TV", f"+{RECOGNITION_POINTS['units']} per full 100", f"+{IMPRESSION_POINTS['units']} per full 100"],
    ])
    tables["noticed"] = (["Recognition", "Noticed on D66"],
                         [[range_label(lo, hi) if lo else f"{hi} or less",
                           "never" if lim is None else f"11–{lim}"] for lo, hi, lim in NOTICED_BANDS])
    for name, bands in (("rewards", REWARDS), ("punishments", PUNISHMENTS),
                        ("variable_rewards", VARIABLE_REWARDS), ("variable_punishments", VARIABLE_PUNISHMENTS)):
        tables[name] = (["Roll", "Result"], [[b.label, f"{b.title}: {b.text}"] for b in bands])
    return tables


# --- the break-out and the end of a campaign (RULES 2.2, ⚙ ferocious battles) --------------------------------

def breakout_flags(ferocious: bool, turns: Sequence[tuple[dict[str, Any] | None, str | None]]
                   ) -> tuple[list[tuple[bool, bool]], bool]:
    """For each turn, given as (its combat table cell, how it ended the campaign): (played in the break-out,
    started the break-out); and whether the break-out is on after the last turn. ⚙ Ferocious battles: a
    surrender result that did not end the campaign starts the break-out; breaking through ends it."""
    flags: list[tuple[bool, bool]] = []
    active = False
    for cell, ends in turns:
        during = active
        starts = False
        if active:
            if ends == "broke_through":
                active = False
        elif ferocious and cell and cell.get("ends") == "surrendered" and ends is None:
            starts = active = True
        flags.append((during, starts))
    return flags, active


def end_reason(*, number: int, length: int | None, ends: str | None, pilot_dead: bool, pilot_captured: bool,
               breakout_after: bool) -> str | None:
    """Why the campaign is over after turn ``number`` (a code of :data:`.codes.END_REASONS`), or ``None``: the pilot
    dead or captured, a turn that ended it (surrendered, routed, broke through), or the last battle turn played (not
    while breaking out)."""
    if pilot_dead:
        return codes.END_PILOT_DEAD
    if pilot_captured:
        return codes.END_PILOT_CAPTURED
    if ends:
        return str(ends)
    if not breakout_after and length is not None and number >= length:
        return codes.END_TURNS_USED_UP
    return None
