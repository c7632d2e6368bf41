"""Experience levels, orders cards, who activates first, the experience table (RULES 1.1)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_app.rules.experience import (
    DEFAULT_THRESHOLDS,
    LEVELS,
    XP_MAX,
    RulesError,
    Thresholds,
    check_xp,
    clamp_xp,
    experience_table,
    level_name,
    level_rank,
    orders_cards,
    orders_cards_for_xp,
    who_activates_first,
    xp_range,
)


def test_default_thresholds_worked_examples():
    # The rules' text: 2 XP is Green, 6 XP is Regular.
    assert level_name(2) == "Green"
    assert level_name(6) == "Regular"
    assert [level_name(x) for x in (0, 1, 3, 4, 8, 9, 15, 16, 32)] == [
        "Untested",
        "Green",
        "Green",
        "Regular",
        "Regular",
        "Veteran",
        "Veteran",
        "Legendary",
        "Legendary",
    ]
    assert DEFAULT_THRESHOLDS.as_tuple() == (1, 4, 9, 16)


def test_d10_minus_one_spans_untested_to_veteran_and_averages_regular():
    values = range(0, 10)  # 1d10 - 1
    assert {level_name(v) for v in values} == {"Untested", "Green", "Regular", "Veteran"}
    mean = Fraction(sum(values), len(values))
    assert level_name(int(mean)) == "Regular"


def test_worked_example_regular_troops_green_leader_draw_ten_cards():
    assert orders_cards(3, 2) == 10
    assert orders_cards_for_xp(6, 2) == 10


def test_orders_cards_no_leader_and_fire_support():
    assert orders_cards(3, None) == 6
    assert orders_cards(3, 2, fire_support=True) == 9
    assert orders_cards_for_xp(6, None, fire_support=True) == 5
    assert orders_cards(5, 5) == 20
    with pytest.raises(RulesError):
        orders_cards(0, 2)
    with pytest.raises(RulesError):
        orders_cards(3, 6)


def test_custom_thresholds():
    th = Thresholds.parse("2,5,10,20")
    assert str(th) == "2,5,10,20"
    assert level_name(1, th) == "Untested" and level_name(5, th) == "Regular" and level_name(20, th) == "Legendary"
    for bad in ("1,4,9", "4,1,9,16", "1,4,9,33", "0,4,9,16", "a,b,c,d", "1,4,4,16"):
        with pytest.raises(RulesError):
            Thresholds.parse(bad)


def test_who_activates_first():
    assert who_activates_first(3, 1, 2, 5) == "a"
    assert who_activates_first(2, 1, 3, 1) == "b"
    assert who_activates_first(2, 4, 2, 3) == "a"
    assert who_activates_first(2, 3, 2, 4) == "b"
    assert who_activates_first(2, 3, 2, 3) == "roll-off"
    assert who_activates_first(None, 5, 1, 1) == "b"
    assert who_activates_first(None, 3, None, 3) == "roll-off"


def test_xp_checks():
    assert check_xp(0) == 0 and check_xp(32) == 32
    for bad in (-1, 33, 1.5, True, "3"):
        with pytest.raises(RulesError):
            check_xp(bad)  # type: ignore[arg-type]
    assert clamp_xp(40) == XP_MAX and clamp_xp(-3) == 0


def test_experience_table_default():
    headers, rows = experience_table()
    assert headers == ("Level", "Rank", "XP", "Box", "Cards")
    assert rows == [
        ("Untested", "1", "0", "", "+2"),
        ("Green", "2", "1\u20133", "G", "+4"),
        ("Regular", "3", "4\u20138", "R", "+6"),
        ("Veteran", "4", "9\u201315", "V", "+8"),
        ("Legendary", "5", "16\u201332", "L", "+10"),
    ]


thresholds_st = st.lists(st.integers(1, XP_MAX), min_size=4, max_size=4, unique=True).map(
    lambda v: Thresholds(*sorted(v))
)


@given(thresholds_st)
def test_table_and_engine_agree_for_every_xp(th):
    """One source of truth: the printed table's XP ranges are exactly the engine's levels."""
    _, rows = experience_table(th)
    for rank in range(1, 6):
        low, high = xp_range(rank, th)
        assert all(level_rank(x, th) == rank for x in range(low, high + 1))
        assert rows[rank - 1][0] == LEVELS[rank - 1]
        assert int(rows[rank - 1][4]) == orders_cards(rank, None)
    covered = [x for rank in range(1, 6) for x in range(xp_range(rank, th)[0], xp_range(rank, th)[1] + 1)]
    assert covered == list(range(0, XP_MAX + 1))


@given(thresholds_st, st.integers(0, XP_MAX), st.integers(0, XP_MAX))
def test_level_rises_with_xp(th, a, b):
    lo, hi = sorted((a, b))
    assert 1 <= level_rank(lo, th) <= level_rank(hi, th) <= 5
