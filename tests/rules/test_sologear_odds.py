"""Sologear odds are exact and read the same tables the turn is played with."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign_app.rules.dice import Dice
from campaign_app.rules.sologear.combat import POSTURES
from campaign_app.rules.sologear.forces import BAND_NAMES
from campaign_app.rules.sologear.odds import (
    combat_odds,
    dice_distribution,
    noticed_chance,
    percent,
    result_odds,
)
from campaign_app.rules.sologear.turn import TurnProcedure


@pytest.mark.parametrize("posture", sorted(POSTURES))
@pytest.mark.parametrize("column", BAND_NAMES)
def test_rows_add_up_and_match_the_played_turn(column: str, posture: int) -> None:
    odds = combat_odds(column, posture)
    assert [r.total for r in odds.rows] == list(range(15))
    assert sum(r.probability for r in odds.rows) == 1
    for a in range(1, 7):
        for b in range(1, 7):
            total = a + b + posture
            proc = TurnProcedure("fig", band=column, posture=posture, gear_tv=250)
            proc.feed([a, b], "entered")
            row = odds.rows[total]
            assert row.result == proc.result.cell_text  # the very cell the turn reads
            assert ("surrounded" in row.kinds) == (proc.result.ends == "surrendered")
            assert ("routed" in row.kinds) == (proc.result.ends == "routed")
            assert ("glory" in row.kinds) == bool(proc.result.cell and proc.result.cell.get("glory"))


def test_a_worked_example_by_hand() -> None:
    """Equal column, Bold (+2): row 11 needs 2d6 = 9 (4 of 36); Glory on every reachable row; routed never."""
    odds = combat_odds("Equal", 2)
    assert odds.rows[11].probability == Fraction(4, 36) and odds.rows[11].result == "2D6G,##"
    assert odds.rows[0].probability == 0 and odds.rows[3].probability == 0
    assert odds.chance("glory") == 1 and odds.chance("routed") == 0
    # hit on the way in: rows 5, 6, 7, 11, 12, 14 = 2d6 of 3, 4, 5, 9, 10, 12 = (2+3+4+4+3+1)/36
    assert odds.chance("hit") == Fraction(17, 36)


def test_losing_column_cowardly_can_be_surrounded_and_routed() -> None:
    odds = combat_odds("Losing", -2)
    # S on rows 4 and 11 -> 2d6 of 6 and 13 (13 impossible): 5/36; E on rows 0, 7, 8, 9, 14 -> 2d6 of 2, 9,
    # 10, 11 (16 impossible): (1 + 4 + 3 + 2)/36
    assert odds.chance("surrounded") == Fraction(5, 36)
    assert odds.chance("routed") == Fraction(10, 36)


def test_the_break_out_ignores_s_and_e_and_breaks_through_on_12_to_14() -> None:
    odds = combat_odds("Equal", 2, breakout=True)
    assert odds.column == "Losing"
    assert odds.chance("surrounded") == 0 and odds.chance("routed") == 0
    # 12..14 with 2d6+2 = 2d6 of 10..12: 6/36
    assert odds.chance("broke_through") == Fraction(6, 36)


def test_noticed_chances_from_the_d66_bands() -> None:
    assert noticed_chance(3) == 0  # never
    assert noticed_chance(9) == Fraction(2, 36)  # 11, 12
    assert noticed_chance(15) == Fraction(4, 36)  # 11..14
    assert noticed_chance(50) == Fraction(18, 36)  # 11..36: tens 1, 2, 3 with any units


def test_reward_bands() -> None:
    bands = result_odds(Dice(1, 6), 11)
    assert [(b.table, b.label) for b in bands] == [("rewards", "9–16"), ("rewards", "17–25")]
    assert [b.probability for b in bands] == [Fraction(5, 6), Fraction(1, 6)]
    assert sum(b.probability for b in result_odds(Dice(2, 6), -7)) == 1


def test_distribution_and_percent() -> None:
    d = dice_distribution(Dice(1, 6, -2))
    assert d == {t: Fraction(1, 6) for t in range(-1, 5)}
    assert percent(Fraction(1, 36)) == "2.8 %" and percent(Fraction(0)) == "0 %" and percent(Fraction(1, 2)) == "50 %"
