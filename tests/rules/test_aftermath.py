"""The aftermath in RULES 1.2 order (award, recovery, leader's fate, replacement) and force generation (1.3),
with scripted dice for every branch and hypothesis properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign_app.rules.aftermath import (
    FATES,
    LEADER_DICE,
    Recovery,
    award,
    force_dice,
    leader_fate,
    leader_fate_table,
    recovery_table,
    replacement_die,
    replacement_table,
    roll_force,
    roll_leader_fate,
    roll_replacement,
    run_aftermath,
    run_recovery,
)
from campaign_app.rules.dice import Dice, DiceError, SeededDice, TypedDice
from campaign_app.rules.experience import XP_MAX, RulesError

# --- step 1: award ---------------------------------------------------------------------------------------


def test_award_survival_and_objectives_to_both():
    a = award(6, 2, objectives=0)
    assert (a.platoon_xp_after, a.leader_xp_after, a.platoon_delta, a.leader_delta) == (7, 3, 1, 1)
    a = award(6, 2, objectives=1)
    assert (a.platoon_xp_after, a.leader_xp_after) == (8, 4)
    a = award(6, 2, objectives=2, objective_xp_to="both")
    assert (a.platoon_xp_after, a.leader_xp_after, a.platoon_delta, a.leader_delta) == (9, 5, 3, 3)


def test_award_objectives_to_platoon_only():
    a = award(6, 2, objectives=2, objective_xp_to="platoon")
    assert (a.platoon_xp_after, a.leader_xp_after, a.leader_delta) == (9, 3, 1)


def test_award_caps_at_32_and_reports_real_delta():
    a = award(31, 32, objectives=2)
    assert (a.platoon_xp_after, a.leader_xp_after, a.platoon_delta, a.leader_delta) == (32, 32, 1, 0)


def test_award_without_leader():
    a = award(0, None, objectives=1)
    assert (a.platoon_xp_after, a.leader_xp_after, a.leader_delta) == (2, None, None)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(platoon_xp=33, leader_xp=1),
        dict(platoon_xp=-1, leader_xp=1),
        dict(platoon_xp=3, leader_xp=40),
        dict(platoon_xp=3, leader_xp=1, objectives=3),
        dict(platoon_xp=3, leader_xp=1, objectives=-1),
        dict(platoon_xp=3, leader_xp=1, objective_xp_to="leader"),
    ],
)
def test_award_refuses_bad_input(kwargs):
    with pytest.raises(RulesError):
        award(**kwargs)


# --- step 2: recovery, scripted --------------------------------------------------------------------------


def test_no_counters_no_roll():
    typed = TypedDice([])
    result = run_recovery(0, 5, typed)
    assert result.records == [] and result.xp_after == 5 and result.xp_lost == 0 and result.remaining == 0
    rec = Recovery(0, 5)
    assert rec.done and rec.next_dice is None
    with pytest.raises(DiceError, match="recovery is over"):
        rec.apply([3])


def test_platoon_at_zero_xp_makes_no_roll():
    rec = Recovery(5, 0)
    assert rec.done and rec.next_dice is None and rec.remaining == 5
    assert run_recovery(5, 0, TypedDice([])).records == []


def test_cleared_on_first_roll():
    result = run_recovery(7, 5, TypedDice([[7]]))
    assert result.xp_lost == 0 and result.xp_after == 5 and result.remaining == 0
    (r,) = result.records
    assert (r.purpose, r.expression, r.faces, r.total, r.source) == ("recovery", "1d8", [7], 7, "entered")
    assert (r.rule, r.rule_text) == ("aa.1.2.recovery", "RULES 1.2 recovery") and r.table_row == "roll 1: 1d8"
    assert r.outcome == "removed 7, 0 left" and r.details == {"removed": 7, "remaining": 0}


def test_roll_above_counters_removes_only_what_is_there():
    (r,) = run_recovery(3, 5, TypedDice([[8]])).records
    assert r.total == 8 and r.details == {"removed": 3, "remaining": 0} and r.outcome == "removed 3, 0 left"


def test_cumulative_removal_and_xp_loss_per_roll_that_leaves_counters():
    # 20 counters: 1d8=3 (17 left, -1), 2d8=4+2 (11 left, -1), 3d8=5+5+1 (0 left)
    result = run_recovery(20, 10, TypedDice([[3], [4, 2], [5, 5, 1]]))
    assert [r.expression for r in result.records] == ["1d8", "2d8", "3d8"]
    assert [r.table_row for r in result.records] == ["roll 1: 1d8", "roll 2: 2d8", "roll 3: 3d8"]
    assert [r.details for r in result.records] == [
        {"removed": 3, "remaining": 17},
        {"removed": 6, "remaining": 11},
        {"removed": 11, "remaining": 0},
    ]
    assert [r.outcome for r in result.records] == [
        "removed 3, 17 left: \u22121 XP",
        "removed 6, 11 left: \u22121 XP",
        "removed 11, 0 left",
    ]
    assert (result.xp_lost, result.xp_after, result.failed_rolls) == (2, 8, 2)
    assert result.to_dict() == {
        "rolls": [
            {"expression": "1d8", "faces": [3], "removed": 3, "remaining": 17},
            {"expression": "2d8", "faces": [4, 2], "removed": 6, "remaining": 11},
            {"expression": "3d8", "faces": [5, 5, 1], "removed": 11, "remaining": 0},
        ],
        "xp_lost": 2,
        "xp_after": 8,
    }


def test_xp_reaching_zero_mid_recovery_stops_it():
    typed = TypedDice([[1], [1, 1], [1, 1, 1]])
    result = run_recovery(50, 2, typed)
    assert len(result.records) == 2 and typed.remaining == 1  # the third roll is never asked for
    assert (result.xp_after, result.xp_lost, result.remaining) == (0, 2, 47)
    assert result.records[-1].outcome == "removed 2, 47 left: \u22121 XP, platoon at 0 XP: recovery stops"


def test_step_by_step_like_a_gui():
    rec = Recovery(7, 5)
    assert (rec.done, rec.next_dice, rec.remaining, rec.xp) == (False, Dice(1, 8), 7, 5)
    first = rec.apply([3], "entered")
    assert first.source == "entered" and (rec.remaining, rec.xp, rec.xp_lost) == (4, 4, 1)
    assert rec.next_dice == Dice(2, 8)
    with pytest.raises(DiceError, match=r"recovery roll 2 \(2d8\): 2d8 needs 2 faces, got 1"):
        rec.apply([5])
    with pytest.raises(DiceError, match=r"recovery roll 2 \(2d8\): 9 is not a face of a d8"):
        rec.apply([9, 1])
    assert (rec.remaining, rec.xp, len(rec.records)) == (4, 4, 1)  # refused faces change nothing
    rec.apply([5, 2], "app")
    assert rec.done and rec.next_dice is None and rec.xp == 4
    assert [r.source for r in rec.records] == ["entered", "app"]
    records = rec.records
    records.clear()
    assert len(rec.records) == 2  # a copy


def test_recovery_refuses_bad_input():
    for wounds, xp in ((-1, 5), (3, 33), (3, -1)):
        with pytest.raises(RulesError):
            Recovery(wounds, xp)
    with pytest.raises(DiceError, match="too few dice"):
        run_recovery(7, 5, TypedDice([[3]]))


# --- step 3: leader's fate -------------------------------------------------------------------------------


def test_leader_fate_branches():
    assert leader_fate(3, 3, 5) == "casualty"  # roll <= wounds
    assert leader_fate(4, 3, 5) == "promoted"  # wounds < roll <= XP
    assert leader_fate(5, 3, 5) == "promoted"
    assert leader_fate(6, 3, 5) == "stays"  # exceeds both


def test_casualty_is_checked_before_promotion():
    # the roll is below both thresholds: casualty, not promotion
    assert leader_fate(4, 6, 10) == "casualty"
    fate, record = roll_leader_fate(6, 10, TypedDice([[2, 2]]))
    assert fate == "casualty" and record.outcome == "casualty"
    assert record.table_row == "casualty: 4 \u2264 6 wound counters"


def test_leader_with_24_or_more_xp_is_always_promoted_unless_a_casualty():
    for xp in range(24, XP_MAX + 1):
        for wounds in range(0, 30):
            for total in range(LEADER_DICE.minimum, LEADER_DICE.maximum + 1):
                fate = leader_fate(total, wounds, xp)
                assert fate == ("casualty" if total <= wounds else "promoted")
    assert roll_leader_fate(0, 24, TypedDice([[12, 12]]))[0] == "promoted"
    assert roll_leader_fate(23, 24, TypedDice([[12, 12]]))[0] == "promoted"
    assert roll_leader_fate(24, 30, TypedDice([[12, 12]]))[0] == "casualty"
    assert roll_leader_fate(0, 23, TypedDice([[12, 12]]))[0] == "stays"  # 23 XP can still stay


def test_roll_leader_fate_record():
    fate, r = roll_leader_fate(3, 5, TypedDice([[7, 9]]))
    assert fate == "stays"
    assert (r.purpose, r.expression, r.faces, r.total, r.rule) == (
        "leader_fate",
        "2d12",
        [7, 9],
        16,
        "aa.1.2.leader_fate",
    )
    assert (r.purpose_text, r.rule_text) == ("leader's fate", "RULES 1.2 leader's fate")
    assert r.to_dict()["purpose_text"] == "leader's fate" and r.to_dict()["rule_text"] == "RULES 1.2 leader's fate"
    assert r.details == {"fate": "stays", "survival": 3, "promotion": 5}
    with pytest.raises(DiceError, match="13 is not a face of a d12"):
        roll_leader_fate(3, 5, TypedDice([[13, 1]]))
    for bad in (1, 25):
        with pytest.raises(RulesError):
            leader_fate(bad, 3, 5)
    with pytest.raises(RulesError):
        leader_fate(10, -1, 5)


# --- step 4 and 1.3: dice by period ------------------------------------------------------------------------


def test_replacement_die_follows_the_period():
    assert [replacement_die(p).sides for p in (1, 2, 3, 4, 5, None)] == [4, 6, 8, 10, 12, 10]
    assert replacement_die(None) == Dice(2, 10)
    assert replacement_die(None, 1) == Dice(1, 10)
    for bad in (0, 6, True):
        with pytest.raises(RulesError):
            replacement_die(bad)  # type: ignore[arg-type]
    for bad_count in (0, 3, True):
        with pytest.raises(RulesError, match="2 dice .the lower counts. or 1 die"):
            replacement_die(None, bad_count)  # type: ignore[arg-type]


def test_roll_replacement_is_the_lower_of_two_dice_minus_one():
    # RULES.md 1.2 step 4: two dice, the lower - 1 (minimum 0)
    xp, r = roll_replacement(None, TypedDice([[6, 9]]))
    assert xp == 5 and r.expression == "2d10" and r.total == 5 and r.faces == [6, 9]
    assert r.rule_text == "RULES 1.2 replacement leader" and r.table_row == "period not set: lower of 2d10 \u2212 1"
    assert r.details == {"xp": 5, "die": "d10", "dice": 2}
    assert roll_replacement(None, TypedDice([[9, 6]]))[0] == 5  # order does not matter
    assert roll_replacement(1, TypedDice([[1, 4]]))[0] == 0  # minimum 0
    assert roll_replacement(5, TypedDice([[12, 12]]))[0] == 11
    with pytest.raises(DiceError, match="5 is not a face of a d4"):
        roll_replacement(1, TypedDice([[5, 1]]))
    with pytest.raises(DiceError, match="2d10 needs 2 faces, got 1"):
        roll_replacement(None, TypedDice([[6]]))


def test_roll_replacement_house_rule_one_die_minus_one():
    xp, r = roll_replacement(None, TypedDice([[6]]), 1)
    assert xp == 5 and r.expression == "1d10" and r.details == {"xp": 5, "die": "d10", "dice": 1}
    assert "house rule" in (r.table_row or "")
    assert roll_replacement(5, TypedDice([[12]]), 1)[0] == 11
    with pytest.raises(DiceError, match="1d10 needs 1 face"):
        roll_replacement(None, TypedDice([[6, 2]]), 1)


def test_roll_force_lower_die_to_the_leader():
    force = roll_force(None, TypedDice([[3, 8]]))
    assert (force.leader_xp, force.platoon_xp) == (2, 7)
    assert force.to_dict() == {"leader_xp": 2, "platoon_xp": 7, "faces": [3, 8]}
    force = roll_force(2, TypedDice([[6, 1]]))
    assert (force.leader_xp, force.platoon_xp) == (0, 5)
    assert force.record.rule == "aa.1.3.force" and force.record.expression == "2d6"
    assert force_dice(5) == Dice(2, 12)
    with pytest.raises(DiceError):
        roll_force(1, TypedDice([[5, 1]]))


def test_tables_are_the_engines_data():
    headers, rows = replacement_table()
    assert headers == ("Period", "Die", "XP")
    assert rows == [
        ("1", "d4", "0\u20133"),
        ("2", "d6", "0\u20135"),
        ("3", "d8", "0\u20137"),
        ("4", "d10", "0\u20139"),
        ("5", "d12", "0\u201311"),
        ("not set", "d10", "0\u20139"),
    ]
    for (period, die, _), p in zip(rows, (1, 2, 3, 4, 5, None), strict=True):
        assert f"d{replacement_die(p).sides}" == die == f"d{force_dice(p).sides}"
        assert period == ("not set" if p is None else str(p))
    _, rows = recovery_table(3)
    assert [r[1] for r in rows] == [Recovery(100, 32).next_dice.expression, "2d8", "3d8"]  # type: ignore[union-attr]
    assert [r[1] for r in leader_fate_table()[1]] == list(FATES)


# --- the whole aftermath ---------------------------------------------------------------------------------


def test_aftermath_order_leader_lost_and_replaced():
    # award: platoon 6+1+1=8, leader 2+1+1=4; recovery of 10: 1d8=4 (6 left, -1), 2d8=3+3 (cleared) -> 7
    # leader: 2d12 = 2+3 = 5 > 2 wounds, <= 4 XP? no: 5 > 4 -> stays.  Use 1+3 = 4 -> promoted.
    typed = TypedDice([[4], [3, 3], [1, 3], [7, 9]])
    res = run_aftermath(platoon_xp=6, leader_xp=2, wounds=10, leader_wounds=2, objectives=1, period=None, dice=typed)
    typed.check_all_used()
    assert [r.purpose for r in res.records] == ["recovery", "recovery", "leader_fate", "replacement_leader"]
    assert (res.platoon_xp_before, res.platoon_xp_after, res.xp_lost) == (6, 7, 1)
    assert (res.leader_xp_before, res.leader_xp_after, res.fate) == (2, 4, "promoted")
    assert res.leader_lost and res.replacement_xp == 6 and res.new_leader_xp == 6
    assert res.award.platoon_delta == 2 and res.award.leader_delta == 2
    data = res.to_dict()
    assert data["fate"] == "promoted" and len(data["rolls"]) == 4  # type: ignore[arg-type]


def test_aftermath_leader_stays_no_replacement_roll():
    typed = TypedDice([[8], [12, 12]])
    res = run_aftermath(platoon_xp=3, leader_xp=3, wounds=5, leader_wounds=1, objectives=0, dice=typed)
    assert typed.remaining == 0
    assert res.fate == "stays" and res.replacement_xp is None and res.new_leader_xp == 4
    assert res.platoon_xp_after == 4


def test_aftermath_casualty_without_replacement():
    typed = TypedDice([[1, 1]])
    res = run_aftermath(platoon_xp=3, leader_xp=3, wounds=0, leader_wounds=5, dice=typed, replace_leader=False)
    assert res.fate == "casualty" and res.replacement_xp is None and res.new_leader_xp is None
    assert [r.purpose for r in res.records] == ["leader_fate"]


def test_aftermath_without_leader_rolls_only_recovery():
    typed = TypedDice([[2], [1, 1]])
    res = run_aftermath(platoon_xp=0, leader_xp=None, wounds=9, leader_wounds=0, objectives=0, dice=typed)
    assert res.fate is None and res.leader_xp_after is None and res.new_leader_xp is None
    # award makes 1 XP, the first roll leaves counters: 0 XP, stop
    assert (res.platoon_xp_after, res.xp_lost, len(res.records)) == (0, 1, 1) and typed.remaining == 1


def test_aftermath_replacement_by_period_and_objectives_to_platoon():
    typed = TypedDice([[1, 1], [4, 4]])
    res = run_aftermath(
        platoon_xp=10,
        leader_xp=30,
        wounds=0,
        leader_wounds=0,
        objectives=2,
        objective_xp_to="platoon",
        period=1,
        dice=typed,
    )
    assert (res.platoon_xp_after, res.leader_xp_after) == (13, 31)
    assert res.fate == "promoted" and res.replacement_xp == 3
    assert res.records[-1].expression == "2d4"
    # ⚙ the one-die house rule
    res = run_aftermath(
        platoon_xp=10,
        leader_xp=30,
        wounds=0,
        leader_wounds=0,
        period=1,
        dice=TypedDice([[1, 1], [3]]),
        replacement_dice=1,
    )
    assert res.replacement_xp == 2 and res.records[-1].expression == "1d4"


def test_aftermath_refuses_bad_input_before_any_roll():
    typed = TypedDice([[3]])
    for kwargs in (dict(wounds=-1), dict(leader_wounds=-2), dict(period=7), dict(objectives=5)):
        args = dict(platoon_xp=3, leader_xp=2, wounds=3, leader_wounds=0, objectives=0, period=None)
        args.update(kwargs)
        with pytest.raises(RulesError):
            run_aftermath(dice=typed, **args)  # type: ignore[arg-type]
    assert typed.used == 0


# --- properties ------------------------------------------------------------------------------------------

xp_st = st.integers(0, XP_MAX)


@settings(max_examples=200)
@given(
    platoon_xp=xp_st,
    leader_xp=st.one_of(st.none(), xp_st),
    wounds=st.integers(0, 300),
    leader_wounds=st.integers(0, 30),
    objectives=st.integers(0, 2),
    to=st.sampled_from(["both", "platoon"]),
    period=st.one_of(st.none(), st.integers(1, 5)),
    seed=st.integers(0, 2**32),
)
def test_aftermath_properties(platoon_xp, leader_xp, wounds, leader_wounds, objectives, to, period, seed):
    res = run_aftermath(
        platoon_xp=platoon_xp,
        leader_xp=leader_xp,
        wounds=wounds,
        leader_wounds=leader_wounds,
        objectives=objectives,
        objective_xp_to=to,
        period=period,
        dice=SeededDice(seed),
    )
    values = [res.platoon_xp_after, res.award.platoon_xp_after, res.leader_xp_after, res.new_leader_xp]
    assert all(0 <= v <= XP_MAX for v in values if v is not None)
    assert res.award.platoon_xp_after >= platoon_xp
    assert res.xp_lost <= res.recovery.failed_rolls
    assert (leader_xp is None) == (res.fate is None)
    assert (res.replacement_xp is not None) == (res.fate in ("casualty", "promoted"))
    if res.fate is not None:
        assert leader_fate(res.records[len(res.recovery.records)].total, leader_wounds, res.leader_xp_after) == res.fate  # type: ignore[arg-type]


@settings(max_examples=300)
@given(wounds=st.integers(0, 400), xp=xp_st, seed=st.integers(0, 2**32))
def test_recovery_always_ends_and_loses_at_most_one_xp_per_failed_roll(wounds, xp, seed):
    rec = Recovery(wounds, xp)
    steps = 0
    dice = SeededDice(seed)
    while not rec.done:
        rec.roll(dice)
        steps += 1
        assert steps <= min(wounds, xp)  # every roll removes at least one counter or ends at 0 XP
    result = rec.result()
    failed = sum(1 for r in result.records if r.details["remaining"])
    assert result.xp_lost <= failed <= len(result.records)
    assert 0 <= result.xp_after <= XP_MAX
    assert result.remaining == 0 or result.xp_after == 0
    removed = sum(r.details["removed"] for r in result.records)  # type: ignore[misc]
    assert removed + result.remaining == wounds
    assert all(r.expression == f"{i}d8" for i, r in enumerate(result.records, start=1))


@given(st.lists(st.integers(1, 8), min_size=1, max_size=40), st.integers(0, 60), xp_st)
def test_recovery_with_any_typed_faces(faces, wounds, xp):
    """Feed the faces one by one into the step-wise recovery (as a GUI would) and check the bookkeeping."""
    rec = Recovery(wounds, xp)
    pool = list(faces)
    while not rec.done and rec.next_dice is not None and len(pool) >= rec.next_dice.count:
        n = rec.next_dice.count
        before_xp, before_left = rec.xp, rec.remaining
        r = rec.apply(pool[:n], "entered")
        pool = pool[n:]
        assert r.details["removed"] == min(sum(r.faces), before_left)
        assert rec.xp == (before_xp - 1 if rec.remaining else before_xp)
    assert 0 <= rec.xp <= xp


def test_the_aftermath_asks_for_dice_in_the_rules_order_and_checks_each_roll() -> None:
    from campaign_app.rules.aftermath import Aftermath
    from campaign_app.rules.dice import DiceError

    proc = Aftermath(platoon_xp=6, leader_xp=2, wounds=3, leader_wounds=3, period=2)
    kinds = []
    faces_for = {"recovery": [1], "leader": [1, 1], "replacement": [5, 3]}
    while (step := proc.next_step) is not None:
        kinds.append((step.kind, step.dice.expression))
        if step.kind == "leader":
            with pytest.raises(DiceError):
                proc.apply([1], "entered")  # the leader's fate takes two faces
        faces = faces_for[step.kind] * (step.dice.count if step.kind == "recovery" else 1)
        proc.apply(faces, "entered")
    assert kinds[0] == ("recovery", "1d8") and kinds[1] == ("recovery", "2d8")
    assert [k for k, _ in kinds[-2:]] == ["leader", "replacement"]
    result = proc.result()
    assert result.fate == "casualty" and result.replacement_xp == 2  # the lower of 5 and 3, minus one
    assert [r.purpose for r in result.records][-2:] == [proc.records[-2].purpose, proc.records[-1].purpose]
    with pytest.raises(DiceError, match="no more dice"):
        proc.apply([1], "entered")
