"""Exact odds for the aftermath rolls (RULES.md 1.2), as :class:`fractions.Fraction`, never by sampling.

Recovery: removal is cumulative and every face is at least 1, so after roll k the counters removed are the sum
of 1 + 2 + ... + k = k(k+1)/2 d8 ("T_k"), and the platoon has lost at least k XP exactly when T_k is still below
the wound counters W (and the platoon still had k XP to lose). So

    P(XP lost >= k) = P(T_k < W)        for 0 <= k <= X,        P(XP lost = X) = P(T_X < W)

The only dice sums needed are the sums of k(k+1)/2 d8 below W: one truncated convolution, one die at a time,
cached per (W, X). Since X <= 32 at most 528 d8 are ever summed, whatever W is.

Leader's fate: the 2d12 distribution run through :func:`~campaign_app.rules.aftermath.leader_fate`, so the odds
and the engine use the same rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from typing import TypeVar

from .aftermath import (
    FATES,
    LEADER_DICE,
    RECOVERY_DIE,
    Fate,
    check_count,
    leader_fate,
)
from .dice import Dice
from .experience import check_xp

ONE = Fraction(1)


# --- dice sums by convolution -----------------------------------------------------------------------------


def _add_die(counts: list[int], sides: int, limit: int | None = None) -> list[int]:
    """Convolve ``counts`` (ways to reach each sum, index = sum) with one die of ``sides`` faces, keeping
    sums below ``limit`` only. new[s] = old[s-1] + ... + old[s-sides], by a running prefix sum."""
    size = len(counts) + sides
    if limit is not None:
        size = min(size, limit)
    prefix = [0, *accumulate(counts)]  # prefix[i] = old[0] + ... + old[i-1]
    last = len(counts)
    new = [0] * size
    for s in range(1, size):
        hi = min(s, last)  # old indices s-sides .. s-1
        lo = max(0, s - sides)
        if hi > lo:
            new[s] = prefix[hi] - prefix[lo]
    return new


@lru_cache(maxsize=128)
def dice_sum_counts(count: int, sides: int) -> tuple[int, ...]:
    """``counts[s]`` = the number of ways ``count`` dice of ``sides`` faces total ``s`` (index 0..count*sides);
    the counts add up to sides**count."""
    if count < 0 or sides < 1:
        raise ValueError(f"cannot count {count}d{sides}")
    counts = [1]
    for _ in range(count):
        counts = _add_die(counts, sides)
    return tuple(counts)


def dice_distribution(dice: Dice) -> dict[int, Fraction]:
    """Exact distribution of the total of ``dice`` (modifier included)."""
    counts = dice_sum_counts(dice.count, dice.sides)
    whole = dice.sides**dice.count
    return {s + dice.modifier: Fraction(c, whole) for s, c in enumerate(counts) if c}


# --- recovery --------------------------------------------------------------------------------------------


def dice_for_rolls(k: int) -> int:
    """d8 rolled in the first ``k`` recovery rolls (1 + 2 + ... + k)."""
    return k * (k + 1) // 2


@lru_cache(maxsize=1024)
def _counters_left(wounds: int, rolls: int) -> tuple[Fraction, ...]:
    """``P(T_k < wounds)`` for k = 1 .. ``rolls``, stopping early at the first k where it is 0."""
    out: list[Fraction] = []
    counts = [1]
    n = 0
    for k in range(1, rolls + 1):
        target = dice_for_rolls(k)
        if target >= wounds:  # the smallest possible sum already reaches the counters
            break
        while n < target:
            counts = _add_die(counts, RECOVERY_DIE, wounds)
            n += 1
        out.append(Fraction(sum(counts), RECOVERY_DIE**n))
    return tuple(out)


def _check_recovery(wounds: int, xp: int) -> None:
    check_count(wounds, "wound counters")
    check_xp(xp, "platoon XP")


def recovery_at_least(wounds: int, xp: int) -> list[Fraction]:
    """``P(XP lost >= k)`` for k = 0..xp."""
    _check_recovery(wounds, xp)
    if wounds == 0:
        return [ONE] + [Fraction(0)] * xp
    left = _counters_left(wounds, xp)
    return [ONE] + [left[k - 1] if k <= len(left) else Fraction(0) for k in range(1, xp + 1)]


def recovery_odds(wounds: int, xp: int) -> dict[int, Fraction]:
    """Exact distribution of the XP the platoon loses in recovery: ``{xp_lost: probability}`` for 0 up to the
    largest loss that can happen (a loss the dice cannot reach is left out at the top; one they cannot avoid
    shows as 0 at the bottom). The values add up to exactly 1. ``xp`` is the XP after the award."""
    at_least = recovery_at_least(wounds, xp)
    odds = {k: at_least[k] - (at_least[k + 1] if k < xp else 0) for k in range(xp + 1)}
    while len(odds) > 1 and odds[len(odds) - 1] == 0:
        del odds[len(odds) - 1]
    return odds


def recovery_mean(wounds: int, xp: int) -> Fraction:
    """Expected XP lost in recovery (exact): the sum of P(XP lost >= k) for k = 1..xp."""
    return sum(recovery_at_least(wounds, xp)[1:], Fraction(0))


# --- leader's fate ---------------------------------------------------------------------------------------


def leader_odds(leader_wounds: int, leader_xp: int) -> dict[Fate, Fraction]:
    """``{"casualty": p, "promoted": p, "stays": p}`` for the 2d12 roll; ``leader_xp`` is the XP after the
    award. Exact; adds up to 1."""
    check_count(leader_wounds, "wound counters on the leader's element")
    check_xp(leader_xp, "leader XP")
    ways = dict.fromkeys(FATES, 0)
    counts = dice_sum_counts(LEADER_DICE.count, LEADER_DICE.sides)
    for total, c in enumerate(counts):
        if c:
            ways[leader_fate(total, leader_wounds, leader_xp)] += c
    whole = sum(counts)
    return {fate: Fraction(ways[fate], whole) for fate in FATES}


# --- printing probabilities ------------------------------------------------------------------------------

K = TypeVar("K")


def _exponent(p: Fraction) -> int:
    """floor(log10(p)) for p > 0."""
    e = (p.numerator.bit_length() - p.denominator.bit_length()) * 3 // 10
    while Fraction(10) ** e > p:
        e -= 1
    while Fraction(10) ** (e + 1) <= p:
        e += 1
    return e


def _places_string(value: Fraction, places: int) -> str:
    """``value`` (a multiple of 10**-places, >= 0) written out positionally with ``places`` decimals."""
    scaled = value * 10**places
    if scaled.denominator != 1:
        raise ValueError(f"{value} has more than {places} decimals")
    digits = str(scaled.numerator).rjust(places + 1, "0")
    return digits if places <= 0 else f"{digits[:-places]}.{digits[-places:]}"


def _decimal_text(value: Fraction, places: int) -> str:
    """``value`` > 0, a multiple of 10**-places: positional down to 1e-4, scientific below
    (``3.81469726562500e-6``), keeping every digit down to that place."""
    e = _exponent(value)
    if e >= -4:
        return _places_string(value, max(places, 0))
    mantissa = str((value * 10**places).numerator)
    return f"{mantissa[0]}.{mantissa[1:]}e{e}" if len(mantissa) > 1 else f"{mantissa}e{e}"


def _exact_places(value: Fraction, limit: int) -> int | None:
    """Decimals needed to write ``value`` exactly, or ``None`` if more than ``limit`` (or never)."""
    for places in range(limit + 1):
        if (value * 10**places).denominator == 1:
            return places
    return None


MAX_DIGITS = 15
"""No printed probability has more significant digits than this (the exact fraction is in ``--json``)."""


def round_significant(p: Fraction, digits: int = MAX_DIGITS) -> tuple[Fraction, str]:
    """``p`` as a decimal of ``digits`` significant digits (at most :data:`MAX_DIGITS`): exact when its
    decimal expansion ends within that many digits (91/128 = 0.710937500000000), else rounded half to even.
    Returns the printed value (exactly) and its text."""
    if p < 0:
        raise ValueError("probabilities are not negative")
    digits = min(digits, MAX_DIGITS)
    if p == 0:
        return Fraction(0), "0"
    e = _exponent(p)
    places = digits - 1 - e
    exact = _exact_places(p, places)
    if exact is not None:
        return p, _decimal_text(p, places)
    value = Fraction(round(p * Fraction(10) ** places)) / Fraction(10) ** places
    if _exponent(value) > e:  # rounded up to the next power of ten: keep ``digits`` digits
        places -= 1
    return value, _decimal_text(value, places)


def probability_strings(probs: Mapping[K, Fraction], digits: int = MAX_DIGITS) -> dict[K, str]:
    """Decimal texts for a distribution that adds up to 1, each rounded to ``digits`` significant digits (at
    most :data:`MAX_DIGITS`, see :func:`round_significant`). The printed decimals add up to 1 within the
    rounding of the last digit; the exact fractions are :func:`fraction_strings`."""
    if not probs:
        return {}
    if sum(probs.values(), Fraction(0)) != 1:
        raise ValueError("not a distribution: the probabilities do not add up to 1")
    return {key: round_significant(p, digits)[1] for key, p in probs.items()}


def fraction_text(p: Fraction) -> str:
    """An exact probability as ``"91/128"`` (``"0"``, ``"1"`` for the whole numbers)."""
    return str(Fraction(p))


def fraction_strings(probs: Mapping[K, Fraction]) -> dict[K, str]:
    """The exact fractions of a distribution, as text (``--json`` prints them beside the decimals)."""
    return {key: fraction_text(p) for key, p in probs.items()}
