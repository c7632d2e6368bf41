"""Sologear force strength (RULES.md 2.1): the units' combat power, the odds ratio of the two sides and its
band, and how many dice give the campaign length."""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any, Literal

from ..experience import RulesError

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


def odds_ratio_exact(player_total: float | int | str | Fraction, enemy_total: float | int | str | Fraction) -> Fraction:
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
    scale = 10**ODDS_PLACES
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


def odds(player_total: float | int | str | Fraction, enemy_total: float | int | str | Fraction) -> dict[str, Any]:
    """``{"ratio": 0.5185..., "band": "Equal", "ratio_text": "0.519", "compared": "0.52",
    "exact": "14/27"}``: ``compared`` is the two-decimal value the bands are checked against, ``exact`` the
    ratio as a fraction."""
    ratio = odds_ratio_exact(player_total, enemy_total)
    compared = rounded_odds(ratio)
    return {
        "ratio": float(ratio),
        "band": odds_band(ratio),
        "ratio_text": ratio_text(ratio),
        "compared": _fixed(compared, ODDS_PLACES),
        "exact": str(ratio),
    }


def _fixed(value: Fraction, places: int) -> str:
    """A non-negative multiple of 10**-places written with exactly ``places`` decimals."""
    whole = math.floor(value * 10**places)
    if places <= 0:
        return str(whole)
    return f"{whole // 10**places}.{whole % 10**places:0{places}d}"


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
        scale = 10**places
        whole = math.floor(r * scale + Fraction(1, 2))
        if odds_band(Fraction(whole, scale)) == band:
            return _fixed(Fraction(whole, scale), places)
    # this close to an edge (x.xx5): cut off, not rounded, the shown value stays on its side
    return _fixed(Fraction(math.floor(r * 10**most), 10**most), most)


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
