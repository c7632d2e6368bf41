"""Exact odds of a Sologear turn and of the reckoning (RULES.md 2.2 and 2.3), as :class:`fractions.Fraction`,
read from the very tables the turn is played with (``COMBAT_TABLE``, ``NOTICED_BANDS``, the reward and
punishment tables), never by sampling.

* The combat roll: 2d6 + posture (−2..+2) gives a row 0..14 of the combat table on the odds column; each row's
  chance is that of 2d6 showing the row minus the posture. The chance of each kind of result (Glory, an enemy
  unit, a hit on the way in, surrounded, routed, and in the break-out of ferocious battles broke through) is
  the sum over the rows that carry it.
* Noticed: a D66 (36 equally likely results 11..66) of the band's number or less, for the recognition so far.
* The reward or punishment roll: the reward dice (1d6 unless the campaign chose others) + impression, each
  total read on the rewards table (impression 0 or more) or the punishments table, summed per band.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..dice import Dice
from ..odds import dice_sum_counts
from .combat import (
    BREAKOUT_ROWS,
    COMBAT_ROLL_MAX,
    COMBAT_ROLL_MIN,
    COMBAT_TABLE,
    D66_DICE,
    POSTURES,
    check_posture,
    describe_cell,
    parse_cell,
)
from .forces import BAND_NAMES, band_name
from .reckoning import lookup_result, noticed_limit

KINDS: tuple[tuple[str, str], ...] = (
    ("glory", "Glory"),
    ("enemy", "enemy unit"),
    ("hit", "hit on the way in"),
    ("surrounded", "surrounded"),
    ("routed", "routed"),
    ("broke_through", "broke through"),
)
"""The kinds of combat result whose chance is given, with the words shown for each."""


def dice_distribution(dice: Dice) -> dict[int, Fraction]:
    """Each total of ``dice`` (its modifier included) with its exact chance."""
    counts = dice_sum_counts(dice.count, dice.sides)
    whole = dice.sides**dice.count
    return {total + dice.modifier: Fraction(ways, whole) for total, ways in enumerate(counts) if ways}


@dataclass(frozen=True)
class CombatRow:
    total: int
    """2d6 + posture: the row of the combat table (0..14)."""
    probability: Fraction
    result: str
    """The cell as the combat table writes it ("1D6G,#", "–")."""
    kinds: tuple[str, ...]
    """Which of :data:`KINDS` this row brings."""
    words: str


@dataclass(frozen=True)
class CombatOdds:
    column: str
    posture: int
    breakout: bool
    rows: tuple[CombatRow, ...]

    def chance(self, kind: str) -> Fraction:
        return sum((r.probability for r in self.rows if kind in r.kinds), Fraction(0))

    def kinds(self) -> dict[str, Fraction]:
        return {kind: self.chance(kind) for kind, _words in KINDS if kind != "broke_through" or self.breakout}


def _row_kinds(cell: dict[str, str | None], total: int, breakout: bool) -> tuple[str, ...]:
    """What a row of the table brings, as the turn reads it (RULES.md 2.2; in the break-out S and E are
    ignored and 12..14 is a break-through, which brings nothing else)."""
    if breakout and BREAKOUT_ROWS[0] <= total <= BREAKOUT_ROWS[1]:
        return ("broke_through",)
    kinds = []
    if cell.get("glory"):
        kinds.append("glory")
    if cell.get("enemy"):
        kinds.append("enemy")
    if cell.get("hit"):
        kinds.append("hit")
    if not breakout and cell.get("ends") == "surrendered":
        kinds.append("surrounded")
    if not breakout and cell.get("ends") == "routed":
        kinds.append("routed")
    return tuple(kinds)


def combat_odds(column: str, posture: int | str = 0, *, breakout: bool = False) -> CombatOdds:
    """The combat roll's rows 0..14 on ``column`` (an odds band; the break-out reads Losing) with ``posture``
    added to 2d6: each row's chance, what the table says there and what it brings."""
    band = band_name("Losing" if breakout else column)
    x = check_posture(posture)
    two_d6 = dice_distribution(Dice(2, 6))
    rows = []
    for total in range(COMBAT_ROLL_MIN, COMBAT_ROLL_MAX + 1):
        text = COMBAT_TABLE[total][BAND_NAMES.index(band)]
        cell = parse_cell(text)
        kinds = _row_kinds(cell, total, breakout)
        words = (
            "the pilot breaks through; the campaign ends"
            if "broke_through" in kinds
            else "; ".join(describe_cell(cell, breakout=breakout))
        )
        rows.append(CombatRow(total, two_d6.get(total - x, Fraction(0)), text, kinds, words))
    return CombatOdds(band, x, breakout, tuple(rows))


def noticed_chance(recognition_total: int) -> Fraction:
    """The chance that the D66 notices a pilot with this recognition (11 up to the band's number)."""
    limit = noticed_limit(recognition_total)
    if limit is None:
        return Fraction(0)
    hits = sum(1 for tens in range(1, 7) for units in range(1, 7) if tens * 10 + units <= limit)
    return Fraction(hits, D66_DICE.sides**D66_DICE.count)


@dataclass(frozen=True)
class BandOdds:
    table: str
    """"rewards" or "punishments"."""
    label: str
    """The band's range as the table writes it ("5–6", "−1 to −4")."""
    title: str
    probability: Fraction
    """The chance of this band once noticed."""


def result_odds(dice: Dice, impression_total: int, *, variable: bool = False) -> tuple[BandOdds, ...]:
    """The reward or punishment bands the roll ``dice`` + impression can reach, each with its chance (given
    that the pilot was noticed), in the table's order."""
    found: dict[str, BandOdds] = {}
    for total, p in sorted(dice_distribution(dice).items()):
        table, band = lookup_result(total + impression_total, impression_total, variable=variable)
        key = f"{table}:{band.label}"
        old = found.get(key)
        found[key] = BandOdds(table, band.label, band.title, p + (old.probability if old else Fraction(0)))
    return tuple(found.values())


def percent(p: Fraction) -> str:
    """A chance as a person reads it: "36 %", "2.8 %", "< 0.1 %", "0 %"."""
    if p == 0:
        return "0 %"
    value = float(p) * 100
    if value < 0.1:
        return "< 0.1 %"
    return f"{value:.0f} %" if value >= 10 or value == round(value) else f"{value:.1f} %"


def posture_words(posture: int) -> str:
    return f"{POSTURES[posture]} ({posture:+d})" if posture else f"{POSTURES[0]} (0)"
