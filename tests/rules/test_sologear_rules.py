"""Sologear rules (RULES.md §2): every table cell against an independent transcription of RULES.md, the
seed's worked example, the step-wise procedures, and property tests of the reckoning."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_app.rules.dice import DiceError, SeededDice, TypedDice
from campaign_app.rules.experience import RulesError
from campaign_app.rules.sologear.combat import (
    COMBAT_TABLE,
    ENEMY_QUALITY_TABLE,
    cell_text,
    combat_cell,
    enemy_quality,
    enemy_row,
    gear_tv_column,
    parse_cell,
)
from campaign_app.rules.sologear.forces import (
    BAND_NAMES,
    LOYALTY_MULTIPLIERS,
    MAX_BASE_POWER,
    SKILL_MULTIPLIERS,
    base_power_from_tv,
    force_total,
    length_dice_count,
    loyalty_word,
    odds,
    odds_band,
    skill_word,
    unit_total,
)
from campaign_app.rules.sologear.reckoning import (
    PUNISHMENTS,
    REWARDS,
    VARIABLE_PUNISHMENTS,
    VARIABLE_REWARDS,
    EndProcedure,
    TurnTally,
    check_reward_dice,
    d66_value,
    impression,
    is_noticed,
    lookup_result,
    noticed_limit,
    recognition,
)
from campaign_app.rules.sologear.steps import MixedDice, Procedure, run
from campaign_app.rules.sologear.table_text import card_tables
from campaign_app.rules.sologear.turn import LengthProcedure, TurnProcedure, breakout_flags, end_reason, play_turn

# --- independent transcription of RULES.md §2.2 (copied from the markdown, parsed here) ------------------

COMBAT_MD = """
  | 0 | – | # | # | # | E,# |
  | 1 | – | – | – | – | # |
  | 2 | 1G | 1G | – | – | # |
  | 3 | 1G,* | 1G,# | 1G | – | # |
  | 4 | 1D6G,** | 1D6G,# | 1G | 1G | S |
  | 5 | 1D6G | 1D6G | 1D6G,## | 1G,* | # |
  | 6 | 2D6G | 1D6G | 1D6G,# | 1D6G,## | * |
  | 7 | 2D6G,## | 2D6G,## | 1D6G,# | 1D6G,# | E,## |
  | 8 | 2D6G | 2D6G | 1D6G | 1D6G | E |
  | 9 | 3D6G | 2D6G | 1D6G,* | 1D6G,** | E,## |
  | 10 | 3D6G,# | 2D6G,* | 2D6G | 1D6G,## | ** |
  | 11 | 4D6G | 3D6G,** | 2D6G,## | 2D6G,* | S |
  | 12 | 4D6G | 3D6G | 2D6G,# | 2D6G | # |
  | 13 | 6D6G | 4D6G | 3D6G | 2D6G,# | # |
  | 14 | 9D6G,# | 4D6G,# | 3D6G,# | 3D6G | E,# |
"""

ENEMY_MD = """
  | 1 | 50 | 100 | 200 | 200 | 300 | 400 |
  | 2 | 50 | 100 | 200 | 300 | 300 | 400 |
  | 3 | 100 | 200 | 200 | 300 | 400 | 400 |
  | 4 | 100 | 200 | 300 | 300 | 400 | 500 |
  | 5 | 100 | 200 | 300 | 400 | 400 | 500 |
  | 6 | 200 | 300 | 400 | 400 | 500 | 500 |
  | 7 | 200 | 300 | 400 | 400 | 500 | 600 |
"""


def md_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.strip().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append(cells)
    return rows


def my_parse(text: str) -> dict[str, str | None]:
    """A second, separately written reading of a cell (tokens by hand, no regex)."""
    out: dict[str, str | None] = {"glory": None, "hit": None, "enemy": None, "ends": None}
    if text == "–":
        return out
    for tok in text.split(","):
        if tok.endswith("G"):
            out["glory"] = tok[:-1]
        elif set(tok) == {"#"}:
            out["hit"] = tok
        elif set(tok) == {"*"}:
            out["enemy"] = tok
        else:
            out["ends"] = {"S": "surrendered", "E": "routed"}[tok]
    return out


def test_combat_table_every_cell_matches_rules_md() -> None:
    rows = md_rows(COMBAT_MD)
    assert len(rows) == 15 == len(COMBAT_TABLE)
    checked = 0
    for i, row in enumerate(rows):
        assert int(row[0]) == i
        assert len(row) == 6
        for j, band in enumerate(BAND_NAMES):
            assert COMBAT_TABLE[i][j] == row[j + 1], (i, band)
            assert combat_cell(band, i) == my_parse(row[j + 1]), (i, band)
            assert cell_text(parse_cell(row[j + 1])) in (row[j + 1],)
            checked += 1
    assert checked == 75


def test_enemy_quality_every_cell_matches_rules_md() -> None:
    rows = md_rows(ENEMY_MD)
    assert len(rows) == 7 == len(ENEMY_QUALITY_TABLE)
    tv_for_column = (100, 200, 300, 400, 500, 600)
    for i, row in enumerate(rows, start=1):
        assert int(row[0]) == i
        expected = [int(c) for c in row[1:]]
        assert list(ENEMY_QUALITY_TABLE[i - 1]) == expected
        for col, tv in enumerate(tv_for_column):
            assert enemy_quality(tv, i) == expected[col]
            assert enemy_quality(tv - 49, i) == expected[col]  # anywhere inside the band
    # ▶ above 600 uses the ≤600 column
    assert enemy_quality(900, 7) == 600


def test_band_names_and_columns_in_rules_order() -> None:
    assert BAND_NAMES == ("Winning", "Advantaged", "Equal", "Disadvantaged", "Losing")


def test_parse_cell_examples() -> None:
    assert parse_cell("1D6G,#") == {"glory": "1D6", "hit": "#", "enemy": None, "ends": None}
    assert parse_cell("E,##") == {"glory": None, "hit": "##", "enemy": None, "ends": "routed"}
    assert parse_cell("S") == {"glory": None, "hit": None, "enemy": None, "ends": "surrendered"}
    assert parse_cell("1G,*") == {"glory": "1", "hit": None, "enemy": "*", "ends": None}
    assert parse_cell("9D6G,#")["glory"] == "9D6"
    assert parse_cell("–") == {"glory": None, "hit": None, "enemy": None, "ends": None}
    with pytest.raises(RulesError):
        parse_cell("X")
    # the CLI's example
    assert combat_cell("equal", 7) == {"glory": "1D6", "hit": "#", "enemy": None, "ends": None}


def test_multipliers() -> None:
    assert SKILL_MULTIPLIERS == {"rookie": 0.25, "regular": 1, "veteran": 2.25, "elite": 4, "legendary": 6.25}
    assert LOYALTY_MULTIPLIERS == {"shaken": 0.75, "reliable": 1, "firm": 1.5}
    assert skill_word("Veteran") == "veteran"
    assert loyalty_word(" FIRM ") == "firm"
    with pytest.raises(RulesError, match="unknown skill"):
        skill_word("heroic")
    with pytest.raises(RulesError, match="unknown loyalty"):
        loyalty_word("fanatic")


# --- the seed's worked example ----------------------------------------------------------------------------


def test_worked_example_odds() -> None:
    player = force_total([(350, "regular", "reliable"), (350, "regular", "reliable")])
    enemy = force_total([(400, "veteran", "firm")])
    assert player == 700
    assert enemy == 1350
    result = odds(player, enemy)
    assert result["ratio"] == pytest.approx(0.5185185, rel=1e-6)
    assert round(result["ratio"], 3) == 0.519
    assert result["band"] == "Equal"
    # the smaller side has 1 company -> 1d6 length; the seed rolled 5
    proc = LengthProcedure(2, 1)
    assert proc.pending().dice.expression == "1d6"
    run(proc, TypedDice([[5]]))
    assert proc.length == 5


def test_worked_example_enemy_quality() -> None:
    assert enemy_quality(250, 4) == 300
    assert gear_tv_column(250) == 2


def test_base_power_from_tv() -> None:
    assert base_power_from_tv(7000) == 350
    assert base_power_from_tv(333) == pytest.approx(16.65)


@pytest.mark.parametrize(
    ("ratio", "band"),
    [
        # RULES.md 2.1: compared as the seed's table writes them, rounded half up to two decimals
        (3, "Winning"),
        ("2.995", "Winning"),
        (2.999, "Winning"),
        ("2.9949", "Advantaged"),
        (2, "Advantaged"),
        ("1.995", "Advantaged"),
        ("1.9949", "Equal"),
        (1.99, "Equal"),
        (0.51, "Equal"),
        ("0.505", "Equal"),
        ("0.5049", "Disadvantaged"),
        (0.5001, "Disadvantaged"),
        (0.5, "Disadvantaged"),
        (0.34, "Disadvantaged"),
        ("0.335", "Disadvantaged"),
        ("0.3349", "Losing"),
        (1 / 3, "Losing"),
        (0.33, "Losing"),
        (0, "Losing"),
        (10, "Winning"),
        ("700/1350", "Equal"),
    ],
)
def test_odds_bands(ratio: float, band: str) -> None:
    assert odds_band(ratio) == band


def test_odds_exact_at_boundaries() -> None:
    # 0.33 exactly by decimal arithmetic (float division would give 0.33000000000000002 or so)
    assert odds(33, 100)["band"] == "Losing"
    assert odds(1, 3)["band"] == "Losing"  # 1:3 = 0.33
    assert odds(2995, 1000)["band"] == "Winning"  # 2.995 -> 3.00
    assert odds(700, 1350)["compared"] == "0.52" and odds(700, 1350)["exact"] == "14/27"
    assert odds(350, 700)["band"] == "Disadvantaged"
    assert odds(1400, 700)["band"] == "Advantaged"
    with pytest.raises(RulesError, match="enemy's combat power is 0"):
        odds(100, 0)


def test_length_needs_both_sides() -> None:
    assert length_dice_count(2, 3) == 2
    with pytest.raises(RulesError):
        length_dice_count(0, 3)


# --- the turn procedure --------------------------------------------------------------------------------


def keys(proc: Procedure) -> list[str]:
    out = []
    while (req := proc.pending()) is not None:
        out.append(req.key)
        proc.feed([1] * req.dice.count)
    return out


def test_fig_dice_order_glory_enemy_hit_battle() -> None:
    # Winning, roll 4 -> 1D6G,** : combat, glory, enemy, battle length, entry edge
    proc = TurnProcedure("fig", band="Winning", posture=0, gear_tv=250)
    asked = []  # the rolls the procedure asks for, in order (what the player is shown)

    def feed(faces: list[int]) -> None:
        proc.feed(faces)
        if (req := proc.pending()) is not None:
            asked.append(req.key)

    feed([2, 2])
    feed([5])  # glory 5
    req = proc.pending()
    assert req is not None and req.dice.expression == "1d6+1"  # ** -> +1
    feed([3])  # row 4
    feed([1, 2, 3, 4])
    feed([3])
    assert asked == ["glory", "enemy", "battle_length", "entry_edge"]
    assert proc.done
    res = proc.result
    assert res.glory == 5 and res.enemy_row == 4 and res.enemy_tv == 300
    assert res.battle_length == 10 and res.entry_edge == "South"
    assert [r.table_row for r in proc.records][:3] == ["roll 4, Winning: 1D6G,**", "1D6G", "row 4, ≤300"]


def test_fig_with_light_critical_check() -> None:
    proc = play_turn("fig", TypedDice([[3, 2], [4], [2], [1, 1, 1, 1], [4]]), band="Equal", posture=2, gear_tv=250)
    res = proc.result
    assert res.combat_total == 7 and res.cell == {"glory": "1D6", "hit": "#", "enemy": None, "ends": None}
    assert res.light_critical == 0 and res.gear_damaged is False
    assert res.entry_edge == "West"
    proc = play_turn("fig", TypedDice([[3, 2], [4], [3], [1, 1, 1, 1], [4]]), band="Equal", posture=2, gear_tv=250)
    assert proc.result.light_critical == 1 and proc.result.gear_damaged is True


def test_double_hash_damages_without_a_roll() -> None:
    # Equal roll 5 -> 1D6G,##
    proc = play_turn("fig", TypedDice([[2, 3], [6], [1, 1, 1, 1], [1]]), band="Equal", posture=0, gear_tv=100)
    assert proc.result.gear_damaged is True
    assert [r.purpose for r in proc.records] == ["combat", "glory", "battle_length", "entry_edge"]
    assert [r.purpose_text for r in proc.records] == ["combat table", "Glory markers", "battle length", "entry edge"]


def test_fixed_glory_needs_no_dice() -> None:
    proc = play_turn("fig", TypedDice([[1, 1], [1, 1, 1, 1], [1]]), band="Winning", posture=0, gear_tv=100)
    assert proc.result.glory == 1
    assert proc.result.cell_text == "1G"


def test_surrender_and_rout_end_without_battle() -> None:
    proc = play_turn("fig", TypedDice([[2, 2]]), band="Losing", posture=0, gear_tv=100)
    assert proc.result.ends == "surrendered" and not proc.result.battle
    proc = play_turn(
        "fig",
        TypedDice(
            [
                [4, 3],
            ]
        ),
        band="Losing",
        posture=0,
        gear_tv=100,
    )
    # Losing 7 = E,## : routed, light critical taken, no more dice
    assert proc.result.ends == "routed" and proc.result.gear_damaged
    proc = play_turn("fig", TypedDice([[6, 6], [5]]), band="Losing", posture=2, gear_tv=100)
    assert proc.result.combat_total == 14 and proc.result.ends == "routed"
    assert proc.result.light_critical == 3


def test_empty_cell_still_has_a_battle() -> None:
    proc = play_turn("fig", TypedDice([[1, 1], [6, 6, 6, 6], [2]]), band="Winning", posture=-1, gear_tv=100)
    assert proc.result.combat_total == 1 and proc.result.cell_text == "–"
    assert proc.result.battle_length == 24


def test_dec_and_rep() -> None:
    proc = play_turn("dec", TypedDice([]))
    assert proc.records == [] and proc.result.action == "dec"
    with pytest.raises(RulesError, match="only allowed while the Gear is damaged"):
        TurnProcedure("rep", gear_needs_repair=False)
    proc = play_turn("rep", TypedDice([[1]]), gear_needs_repair=True)
    assert proc.result.repair_hours == 1  # 1-2 = -1 -> at least 1
    proc = play_turn("rep", TypedDice([[6]]), gear_needs_repair=True)
    assert proc.result.repair_hours == 4


@pytest.mark.parametrize("posture", [-3, 3, "x", None])
def test_fig_posture_checked(posture: object) -> None:
    with pytest.raises(RulesError):
        TurnProcedure("fig", band="Equal", posture=posture, gear_tv=100)  # type: ignore[arg-type]


def test_dice_that_do_not_fit() -> None:
    with pytest.raises(DiceError, match="2d6"):
        play_turn("fig", TypedDice([[7, 1]]), band="Equal", posture=0, gear_tv=100)
    with pytest.raises(DiceError, match="too few"):
        play_turn("fig", TypedDice([[3, 4]]), band="Equal", posture=0, gear_tv=100)
    with pytest.raises(DiceError, match="too many"):
        play_turn("dec", TypedDice([[3]]))
    with pytest.raises(RulesError, match="unknown action"):
        TurnProcedure("run")


def test_ferocious_surrender_starts_breakout_and_breakout_rules() -> None:
    proc = play_turn("fig", TypedDice([[2, 2]]), band="Losing", posture=0, gear_tv=100, ferocious=True)
    assert proc.result.ends is None and proc.result.starts_breakout and not proc.result.battle
    with pytest.raises(RulesError, match="no DEC or REP"):
        TurnProcedure("dec", breakout=True)
    with pytest.raises(RulesError, match="Bold"):
        TurnProcedure("fig", posture=1, breakout=True, gear_tv=100)
    # break-out: Bold, Losing column; roll 6+2=8 -> E is ignored, battle goes on
    proc = play_turn("fig", TypedDice([[3, 3], [1, 1, 1, 1], [1]]), breakout=True, gear_tv=100)
    assert proc.result.posture == 2 and proc.result.column == "Losing"
    assert proc.result.ends is None and proc.result.battle
    # enemy +1 in the break-out: ** row 10 -> 1d6+2
    proc = TurnProcedure("fig", breakout=True, gear_tv=100)
    proc.feed([4, 4])
    assert proc.pending().dice.expression == "1d6+2"
    proc.feed([6])
    assert proc.result.enemy_row == 7 and proc.result.enemy_tv == 200
    # 12..14 -> broke through, nothing else rolled
    proc = play_turn("fig", TypedDice([[5, 5]]), breakout=True, gear_tv=100)
    assert proc.result.ends == "broke_through" and len(proc.records) == 1


def test_mixed_dice_keeps_each_rolls_source() -> None:
    dice = MixedDice([([3, 2], "app"), ([4], "entered"), ([3], "app"), ([1, 1, 1, 1], "entered"), ([2], "app")])
    proc = play_turn("fig", dice, band="Equal", posture=2, gear_tv=250)
    assert [r.source for r in proc.records] == ["app", "entered", "app", "entered", "app"]


def test_seeded_turns_always_complete() -> None:
    for seed in range(200):
        for band in BAND_NAMES:
            proc = play_turn("fig", SeededDice(seed), band=band, posture=seed % 5 - 2, gear_tv=650)
            assert proc.done and proc.records[0].purpose == "combat"


# --- reckoning ---------------------------------------------------------------------------------------

tallies = st.lists(
    st.builds(
        TurnTally,
        action=st.sampled_from(["dec", "rep", "fig"]),
        posture=st.integers(-2, 2),
        glory=st.integers(0, 60),
        bunkers=st.integers(0, 6),
        enemy_tv=st.sampled_from([0, 50, 100, 200, 250, 300, 600]),
        breakout=st.booleans(),
    ),
    max_size=30,
)


@given(tallies)
def test_recognition_and_impression_equal_their_breakdowns(turns: list[TurnTally]) -> None:
    rec, imp = recognition(turns), impression(turns)
    assert rec.total == sum(i.points for i in rec.items)
    assert imp.total == sum(i.points for i in imp.items)
    # and both agree with the rules' sentences computed independently
    dec = sum(t.action == "dec" for t in turns)
    rep = sum(t.action == "rep" for t in turns)
    pos = sum(t.posture for t in turns if t.action == "fig" and t.posture > 0)
    neg = sum(t.posture for t in turns if t.action == "fig" and t.posture < 0)
    glory = sum(t.glory * (2 if t.breakout else 1) for t in turns)
    bunkers = sum(t.bunkers for t in turns)
    hundreds = sum(t.enemy_tv for t in turns) // 100
    assert rec.total == 8 * dec + 4 * rep + pos + glory + 2 * bunkers + hundreds
    assert imp.total == -9 * dec - 4 * rep + neg + glory + 2 * bunkers + 2 * hundreds
    assert rec.total >= 0


NOTICED_EXPECTED = [
    (0, 5, None),
    (6, 10, 12),
    (11, 15, 14),
    (16, 20, 16),
    (21, 25, 22),
    (26, 30, 24),
    (31, 35, 26),
    (36, 40, 32),
    (41, 45, 34),
    (46, 999, 36),
]


@given(st.integers(0, 200), st.integers(1, 6), st.integers(1, 6))
def test_d66_noticed_bands(recognition: int, tens: int, units: int) -> None:
    d66 = d66_value(tens, units)
    assert 11 <= d66 <= 66 and d66 == int(f"{tens}{units}")
    limit = next(lim for lo, hi, lim in NOTICED_EXPECTED if lo <= recognition <= hi)
    assert noticed_limit(recognition) == limit
    assert is_noticed(recognition, d66) == (limit is not None and d66 <= limit)


def test_noticed_band_examples() -> None:
    assert not is_noticed(5, 11)
    assert is_noticed(6, 12) and not is_noticed(6, 13)
    assert is_noticed(46, 36) and not is_noticed(100, 41)
    with pytest.raises(DiceError):
        is_noticed(10, 17)


@pytest.mark.parametrize(
    ("value", "impression", "table", "label"),
    [
        (0, 0, "rewards", "0–8"),
        (8, 3, "rewards", "0–8"),
        (9, 3, "rewards", "9–16"),
        (25, 3, "rewards", "17–25"),
        (26, 3, "rewards", "26–49"),
        (49, 3, "rewards", "26–49"),
        (50, 3, "rewards", "50+"),
        (3, -1, "punishments", "0 to −4"),
        (0, -1, "punishments", "0 to −4"),
        (-4, -9, "punishments", "0 to −4"),
        (-5, -9, "punishments", "−5 to −7"),
        (-10, -9, "punishments", "−8 to −10"),
        (-12, -9, "punishments", "−11 to −12"),
        (-14, -9, "punishments", "−13 to −14"),
        (-16, -9, "punishments", "−15 to −16"),
        (-20, -9, "punishments", "−17 to −20"),
        (-30, -9, "punishments", "−21 to −30"),
        (-40, -9, "punishments", "−31 to −40"),
        (-41, -9, "punishments", "−41 and below"),
        (-90, -9, "punishments", "−41 and below"),
    ],
)
def test_reward_and_punishment_bands(value: int, impression: int, table: str, label: str) -> None:
    got_table, band = lookup_result(value, impression)
    assert (got_table, band.label) == (table, label)


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (0, "0 to −4"),
        (-5, "−5 to −10"),
        (-10, "−5 to −10"),
        (-11, "−11 to −16"),
        (-16, "−11 to −16"),
        (-17, "−17 to −30"),
        (-30, "−17 to −30"),
        (-31, "−31 to −40"),
        (-41, "−41 and below"),
    ],
)
def test_variable_punishments(value: int, label: str) -> None:
    table, band = lookup_result(value, -1, variable=True)
    assert table == "punishments" and band.label == label


def test_variable_rewards_are_milder_text_same_ranges() -> None:
    assert [b.label for b in VARIABLE_REWARDS] == [b.label for b in REWARDS]
    assert VARIABLE_REWARDS[0].title != REWARDS[0].title


@given(st.integers(-100, 100))
def test_every_result_falls_in_exactly_one_band(value: int) -> None:
    for bands in (REWARDS, PUNISHMENTS, VARIABLE_REWARDS, VARIABLE_PUNISHMENTS):
        lo_ok = [b for b in bands if b.contains(value)]
        assert len(lo_ok) <= 1


def test_end_procedure_noticed_and_not() -> None:
    turns = [TurnTally("fig", 2, glory=6, bunkers=1, enemy_tv=300), TurnTally("dec")]
    proc = EndProcedure(turns)
    assert proc.result.recognition.total == 8 + 2 + 6 + 2 + 3 == 21
    assert proc.result.impression.total == -9 + 6 + 2 + 6 == 5
    run(proc, TypedDice([[1, 4], [3]]))
    res = proc.result
    assert res.d66 == 14 and res.noticed is True and res.noticed_range == "11–22"
    assert res.table == "rewards" and res.result == 8 and res.band.label == "0–8"
    assert proc.records[1].expression == "1d6+5"
    # not noticed: one roll only
    proc = EndProcedure(turns)
    run(proc, TypedDice([[3, 1]]))
    assert proc.result.noticed is False and proc.result.table is None and len(proc.records) == 1
    # ⚙ reward dice
    proc = EndProcedure(turns, reward_dice="2d6", variable=True)
    run(proc, TypedDice([[1, 1], [6, 6]]))
    assert proc.result.result == 17 and proc.result.band.title == "Promotion and pension"
    with pytest.raises(RulesError):
        EndProcedure(turns, reward_dice="lots")


def test_card_tables_are_the_engine_tables() -> None:
    cards = card_tables()
    headers, rows = cards["combat"]
    assert headers == ["2D6+X", *BAND_NAMES]
    assert [r[1:] for r in rows] == [list(r) for r in COMBAT_TABLE]
    headers, rows = cards["enemy_quality"]
    assert headers[1:] == ["≤100", "≤200", "≤300", "≤400", "≤500", "≤600"]
    assert [[int(c) for c in r[1:]] for r in rows] == [list(r) for r in ENEMY_QUALITY_TABLE]
    for name in (
        "skill",
        "loyalty",
        "odds",
        "noticed",
        "rewards",
        "punishments",
        "variable_rewards",
        "variable_punishments",
        "entry_edge",
        "postures",
        "recognition",
        "combat_key",
    ):
        headers, rows = cards[name]
        assert rows and all(len(r) == len(headers) and all(isinstance(c, str) for c in r) for r in rows)
    assert cards["noticed"][1][0] == ["5 or less", "never"]
    assert cards["noticed"][1][-1] == ["46+", "11–36"]


# --- edge cases: bounds on numbers and reward dice, band edges, the enemy row, breakouts ------------------


@pytest.mark.parametrize("bad", [float("inf"), float("nan"), "inf", "nan", "-inf", "1e400x"])
def test_non_finite_numbers_are_refused(bad: object) -> None:
    with pytest.raises(RulesError, match="not a finite number"):
        odds(bad, 100)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="not a finite number"):
        unit_total(bad, "regular", "reliable")  # type: ignore[arg-type]


def test_huge_powers_are_refused_with_a_bound() -> None:
    with pytest.raises(RulesError, match="base power must be at most 1,000,000"):
        unit_total(1e308, "legendary", "firm")
    with pytest.raises(RulesError, match="TV must be at most 1,000,000"):
        base_power_from_tv(10**7)
    with pytest.raises(RulesError, match="combat power must be at most"):
        odds("1e400", 100)
    assert unit_total(MAX_BASE_POWER, "regular", "reliable") == MAX_BASE_POWER


@pytest.mark.parametrize(
    ("text", "ok"), [("1d6", True), ("10d100", True), ("11d6", False), ("1d101", False), ("999999d6", False)]
)
def test_reward_dice_are_bounded(text: str, ok: bool) -> None:
    if ok:
        assert check_reward_dice(text).expression == text
    else:
        with pytest.raises(RulesError, match="at most 10 dice of at most 100 sides"):
            check_reward_dice(text)


@pytest.mark.parametrize(
    ("player", "enemy", "shown", "band"),
    [
        (299.99, 100, "3.000", "Winning"),
        (299.49, 100, "2.9949", "Advantaged"),
        (300, 100, "3.000", "Winning"),
        (700, 1350, "0.519", "Equal"),
        (5004, 10000, "0.500", "Disadvantaged"),
        (5050, 10000, "0.505", "Equal"),
        (1, 3, "0.333", "Losing"),
        (33, 100, "0.330", "Losing"),
        (3350, 10000, "0.335", "Disadvantaged"),
        (199499999, 100000000, "1.99499999", "Equal"),
        # this close to an edge: cut off at 15 significant digits, still on its own side
        ("2.99499999999999999999", 1, "2.99499999999999", "Advantaged"),
    ],
)
def test_the_shown_ratio_never_crosses_a_band_edge(player: float, enemy: float, shown: str, band: str) -> None:
    result = odds(player, enemy)
    assert (result["ratio_text"], result["band"]) == (shown, band)
    assert odds_band(result["ratio_text"]) == band
    assert len(result["ratio_text"].replace(".", "").lstrip("0")) <= 15


def test_a_rep_turn_says_the_gear_is_repaired_and_rearmed() -> None:
    proc = play_turn("rep", TypedDice([[3]]), gear_needs_repair=True)
    assert proc.result.repair_hours == 1
    assert any("repaired and re-armed" in m for m in proc.result.meaning)


@pytest.mark.parametrize("text", ["d66", "1d66", "2D66", " d66 "])
def test_reward_dice_d66_is_refused_never_a_66_sided_die(text: str) -> None:
    with pytest.raises(RulesError, match="D66 .two d6 read as tens and units. is not a sum of dice"):
        check_reward_dice(text)


def test_enemy_row_is_read_as_the_engine_reads_it() -> None:
    assert enemy_row(4) == (4, "")
    assert enemy_row(7) == (7, "")
    assert enemy_row(8) == (7, "roll 8, read as row 7")
    with pytest.raises(RulesError, match="1 or more"):
        enemy_row(0)
    # the engine says the same thing in its roll record
    # a break-out ** (row 10 on Losing, Bold): 1d6+2, a 6 makes 8
    proc = TurnProcedure("fig", breakout=True, gear_tv=250)
    proc.feed([4, 4])
    enemy = proc.feed([6])
    assert "read as row 7" in (enemy.table_row or "") and proc.result.enemy_tv == 400


def test_breakout_starts_on_a_surrender_only_with_ferocious_battles_and_ends_on_breaking_through() -> None:
    surrender = {"glory": None, "hit": None, "enemy": None, "ends": "surrendered"}
    turns = [(None, None), (surrender, None), (None, None), (None, "broke_through"), (None, None)]
    flags, after = breakout_flags(True, turns)
    assert flags == [(False, False), (False, True), (True, False), (True, False), (False, False)] and not after
    assert breakout_flags(True, turns[:3]) == ([(False, False), (False, True), (True, False)], True)
    assert breakout_flags(False, turns)[0] == [(False, False)] * 5  # without the option: no break-out
    assert breakout_flags(True, [(surrender, "surrendered")])[0] == [(False, False)]  # the surrender ended it


def test_end_reason_in_the_rules_order() -> None:
    base = {
        "number": 3,
        "length": 3,
        "ends": None,
        "pilot_dead": False,
        "pilot_captured": False,
        "breakout_after": False,
    }
    assert end_reason(**base) == "turns_used_up"
    assert end_reason(**{**base, "breakout_after": True}) is None  # the break-out goes on past the length
    assert end_reason(**{**base, "number": 2}) is None
    assert end_reason(**{**base, "number": 2, "ends": "routed"}) == "routed"
    assert end_reason(**{**base, "ends": "routed", "pilot_captured": True}) == "pilot_captured"
    assert end_reason(**{**base, "pilot_dead": True, "pilot_captured": True}) == "pilot_dead"
