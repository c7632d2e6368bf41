"""Exact odds (RULES 1.2): hand-computed values, an independent enumeration of the engine itself, a closed
formula for dice sums, hypothesis properties, a seeded simulation, and the printed decimals."""

from __future__ import annotations

import math
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_app.rules.aftermath import FATES, Recovery, leader_fate, run_recovery
from campaign_app.rules.dice import Dice, SeededDice
from campaign_app.rules.experience import XP_MAX, RulesError
from campaign_app.rules.odds import (
    dice_distribution,
    dice_for_rolls,
    dice_sum_counts,
    leader_odds,
    probability_strings,
    recovery_at_least,
    recovery_mean,
    recovery_odds,
    round_significant,
)

F = Fraction


# --- independent references (written differently from the code under test) --------------------------------


def sum_dist(k: int, sides: int = 8) -> dict[int, Fraction]:
    """Distribution of the sum of k dice by repeated dictionary convolution."""
    dist = {0: F(1)}
    for _ in range(k):
        new: Counter[int] = Counter()
        for s, p in dist.items():
            for f in range(1, sides + 1):
                new[s + f] += p / sides
        dist = dict(new)
    return dist


def count_at_most(n: int, m: int) -> int:
    """Ways n d8 total at most m: inclusion-exclusion over dice above 8 (stars and bars with a slack)."""
    free = m - n  # each die is 1 + (0..7)
    if free < 0:
        return 0
    return sum((-1) ** j * math.comb(n, j) * math.comb(free - 8 * j + n, n) for j in range(0, free // 8 + 1) if j <= n)


def split_faces(total: int, k: int) -> list[int]:
    faces = [1] * k
    extra = total - k
    for i in range(k):
        add = min(7, extra)
        faces[i] += add
        extra -= add
    assert extra == 0
    return faces


def engine_distribution(wounds: int, xp: int) -> dict[int, Fraction]:
    """XP-lost distribution obtained by driving the real :class:`Recovery` through every possible roll."""
    memo: dict[tuple[int, int, int], dict[int, Fraction]] = {}

    def final_xp(path: list[list[int]]) -> dict[int, Fraction]:
        rec = Recovery(wounds, xp)
        for faces in path:
            rec.apply(faces)
        key = (rec.remaining, rec.xp, rec.roll_number)
        if key in memo:
            return memo[key]
        if rec.done:
            out = {rec.xp: F(1)}
        else:
            k = rec.next_dice.count  # type: ignore[union-attr]
            acc: Counter[int] = Counter()
            for total, p in sum_dist(k).items():
                for end, q in final_xp([*path, split_faces(total, k)]).items():
                    acc[end] += p * q
            out = dict(acc)
        memo[key] = out
        return out

    return {xp - end: p for end, p in final_xp([]).items()}


def nonzero(dist: dict[int, Fraction]) -> dict[int, Fraction]:
    return {k: v for k, v in dist.items() if v}


# --- recovery --------------------------------------------------------------------------------------------


def test_worked_example_seven_counters_five_xp():
    # lost 0: 1d8 >= 7 (2/8); lost >= 2: 3d8 <= 6 (20/512); lost >= 3: 6d8 <= 6 (1/8^6); 10d8 never < 7
    odds = recovery_odds(7, 5)
    assert odds == {0: F(1, 4), 1: F(3, 4) - F(20, 512), 2: F(20, 512) - F(1, 8**6), 3: F(1, 8**6)}
    assert recovery_mean(7, 5) == F(3, 4) + F(20, 512) + F(1, 8**6)


def test_edge_cases():
    assert recovery_odds(0, 5) == {0: 1}
    assert recovery_odds(9, 0) == {0: 1}
    assert recovery_odds(1, 32) == {0: 1}  # 1d8 always clears one counter
    assert recovery_odds(9, 1) == {0: F(0), 1: F(1)}  # 1d8 never clears nine, and 1 XP is all there is
    assert recovery_mean(0, 7) == 0
    assert recovery_at_least(7, 3) == [1, F(3, 4), F(20, 512), F(1, 8**6)]
    for wounds, xp in ((-1, 3), (3, 33), (3, -1)):
        with pytest.raises(RulesError):
            recovery_odds(wounds, xp)


@pytest.mark.parametrize("wounds", range(0, 23))
def test_odds_equal_an_enumeration_of_the_engine(wounds):
    for xp in (0, 1, 2, 4, 7):
        assert nonzero(recovery_odds(wounds, xp)) == nonzero(engine_distribution(wounds, xp)), (wounds, xp)


@pytest.mark.parametrize("wounds", [30, 57, 120, 200, 333, 700])
def test_large_counts_match_a_closed_formula(wounds):
    at_least = recovery_at_least(wounds, XP_MAX)
    for k in range(1, XP_MAX + 1):
        n = dice_for_rolls(k)
        assert at_least[k] == F(count_at_most(n, wounds - 1), 8**n), k


def test_dice_sum_counts():
    assert dice_sum_counts(2, 12) == tuple([0, 0] + list(range(1, 13)) + list(range(11, 0, -1)))
    for k in range(0, 7):
        counts = dice_sum_counts(k, 8)
        assert sum(counts) == 8**k
        assert {s: F(c, 8**k) for s, c in enumerate(counts) if c} == sum_dist(k)
    assert dice_distribution(Dice(1, 6, -2)) == {s: F(1, 6) for s in range(-1, 5)}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wounds=st.integers(0, 300), xp=st.integers(0, XP_MAX))
def test_every_recovery_distribution_sums_to_exactly_one(wounds, xp):
    odds = recovery_odds(wounds, xp)
    assert sum(odds.values()) == 1
    assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in odds.values())
    assert max(odds) <= min(xp, wounds)
    assert recovery_mean(wounds, xp) == sum(k * p for k, p in odds.items())
    assert list(odds) == list(range(len(odds)))


# --- leader ----------------------------------------------------------------------------------------------


@given(leader_wounds=st.integers(0, 40), leader_xp=st.integers(0, XP_MAX))
def test_leader_odds_sum_to_one_and_match_every_face_pair(leader_wounds, leader_xp):
    odds = leader_odds(leader_wounds, leader_xp)
    assert list(odds) == list(FATES) and sum(odds.values()) == 1
    ways = Counter(leader_fate(a + b, leader_wounds, leader_xp) for a, b in product(range(1, 13), repeat=2))
    assert odds == {fate: F(ways[fate], 144) for fate in FATES}


def test_leader_odds_values():
    assert leader_odds(3, 5) == {"casualty": F(3, 144), "promoted": F(7, 144), "stays": F(134, 144)}
    assert leader_odds(0, 0) == {"casualty": 0, "promoted": 0, "stays": 1}
    assert leader_odds(24, 0)["casualty"] == 1
    for xp in range(24, XP_MAX + 1):
        for wounds in range(0, 26):
            assert leader_odds(wounds, xp)["stays"] == 0
    with pytest.raises(RulesError):
        leader_odds(-1, 3)


# --- exact odds against a seeded simulation --------------------------------------------------------------


def assert_close(exact: dict[int, Fraction], counts: Counter[int], n: int) -> None:
    for k in set(exact) | set(counts):
        p = float(exact.get(k, 0))
        freq = counts.get(k, 0) / n
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(freq - p) <= 5 * sigma + 1e-12, (k, p, freq)


@settings(max_examples=8, derandomize=True, deadline=None)
@given(wounds=st.integers(1, 80), xp=st.integers(1, 12))
def test_exact_odds_agree_with_a_seeded_simulation(wounds, xp):
    n = 3000
    dice = SeededDice(wounds * 100 + xp)
    counts = Counter(run_recovery(wounds, xp, dice).xp_lost for _ in range(n))
    assert_close(recovery_odds(wounds, xp), counts, n)


def test_exact_odds_agree_with_a_large_simulation():
    n = 30000
    dice = SeededDice(20240601)
    counts = Counter(run_recovery(25, 6, dice).xp_lost for _ in range(n))
    assert_close(recovery_odds(25, 6), counts, n)
    leader = Counter(leader_fate(sum(dice.roll(Dice(2, 12))), 4, 9) for _ in range(n))
    exact = leader_odds(4, 9)
    for fate in FATES:
        p = float(exact[fate])
        assert abs(leader[fate] / n - p) <= 5 * math.sqrt(p * (1 - p) / n)


# --- printed decimals ------------------------------------------------------------------------------------


def significant_digits(text: str) -> int:
    mantissa = text.lower().split("e")[0].replace(".", "").lstrip("0")
    return len(mantissa)


def check_strings(odds: dict, strings: dict) -> None:
    assert list(strings) == list(odds)
    # at most 15 significant digits each, so the sum is 1 within the rounding of the last digits
    assert abs(sum(Fraction(Decimal(s)) for s in strings.values()) - 1) <= F(len(strings), 10**15)
    for key, text in strings.items():
        value = Fraction(Decimal(text))
        if odds[key] == 0:
            assert text == "0"
            continue
        assert 12 <= significant_digits(text) <= 15, text
        assert abs(value - odds[key]) <= odds[key] * F(1, 10**14), (key, text)
        assert float(text) == pytest.approx(float(odds[key]), rel=1e-13)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wounds=st.integers(0, 220), xp=st.integers(0, XP_MAX))
def test_printed_recovery_decimals_sum_to_one(wounds, xp):
    odds = recovery_odds(wounds, xp)
    check_strings(odds, probability_strings(odds))


@given(leader_wounds=st.integers(0, 30), leader_xp=st.integers(0, XP_MAX))
def test_printed_leader_decimals_sum_to_one(leader_wounds, leader_xp):
    odds = leader_odds(leader_wounds, leader_xp)
    check_strings(odds, probability_strings(odds))


def test_round_significant():
    assert round_significant(F(1, 3)) == (F(333333333333333, 10**15), "0.333333333333333")
    assert round_significant(F(91, 128))[1] == "0.710937500000000"  # exact, padded
    assert round_significant(F(1, 8**6)) == (F(1, 8**6), "3.81469726562500e-6")
    assert round_significant(F(2, 3 * 10**9))[1] == "6.66666666666667e-10"
    assert round_significant(F(1) - F(1, 3 * 10**16))[1] == "1.00000000000000"  # rounds up to 1
    assert round_significant(F(0)) == (0, "0")
    # never more than 15 significant digits, even for an exact decimal that needs more
    assert round_significant(F(789066314697265625, 10**18))[1] == "0.789066314697266"
    assert round_significant(F(1, 3), digits=20)[1] == "0.333333333333333"
    with pytest.raises(ValueError):
        probability_strings({0: F(1, 2)})
