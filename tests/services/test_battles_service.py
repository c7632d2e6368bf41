"""Battle logging services without Qt: the step-wise session, one transaction, undo/redo, edits, history."""

from __future__ import annotations

import datetime as _dt
import datetime as dt
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import pytest

from campaign_app.rules.aftermath import run_aftermath
from campaign_app.rules.dice import DiceError, SeededDice, TypedDice, parse_faces
from campaign_app.rules.enums import LeaderFate, Outcome
from campaign_app.rules.odds import leader_odds, recovery_odds
from campaign_app.services import battle_edits, battles, history
from campaign_app.services.common import Conflict, NotFound, ServiceError
from campaign_app.store import journal_read, journal_replay
from campaign_app.store.database import db
from campaign_app.store.journal import operation
from campaign_app.store.models import (
    AttributeChange,
    Battle,
    Campaign,
    Leader,
    Platoon,
    Roll,
    XpChange,
)
from tests.dbdump import dump
from tests.ids import campaign_id


@contextmanager
def count_queries() -> Iterator[list[str]]:
    real = db.obj
    seen: list[str] = []
    original = real.execute_sql

    def counting(sql: str, params: Any = None, *args: Any, **kwargs: Any) -> Any:
        seen.append(sql)
        return original(sql, params, *args, **kwargs)

    real.execute_sql = counting
    try:
        yield seen
    finally:
        del real.execute_sql


@pytest.fixture
def camp() -> Campaign:
    with operation("test.setup", "test data"):
        made = Campaign.create(name="Congo 1960", system="atomic_africa")
    return made


@pytest.fixture
def pid(camp: Campaign) -> int:
    with operation("test.setup", "test data"):
        p = Platoon.create(campaign=camp, name="2nd Platoon", training=10, equipment=10, morale=8, armor=2, xp=6)
    with operation("test.setup", "test data"):
        Leader.create(platoon=p, name="Lt. Okafor", xp=2, xp_at_join=2)
    return p.id


def platoon(pid: int) -> Platoon:
    return Platoon.get_by_id(pid)


# --- the session ------------------------------------------------------------------------------------------


def test_session_step_by_step_writes_nothing_until_commit(pid: int) -> None:
    before = dump()
    s = battles.BattleSession(pid)
    assert (s.platoon_xp, s.leader_name, s.leader_xp, s.number) == (6, "Lt. Okafor", 2, 1)
    s.set_details(
        date=_dt.date(2024, 5, 31),
        scenario="River crossing",
        opponent="Red Company",
        outcome=Outcome.VICTORY,
        objectives=1,
        fire_support=True,
        notes="Bridge held",
    )
    s.set_casualties(7, 3)
    odds = s.odds()
    assert odds.recovery.xp == 8 and odds.leader is not None and odds.leader.xp == 4
    step = s.next_step
    assert step is not None and (step.kind, step.dice.expression, step.number) == ("recovery", "1d8", 1)
    s.enter("3")
    assert (s.recovery.remaining, s.recovery.xp_lost, s.recovery.xp) == (4, 1, 7)
    step = s.next_step
    assert step is not None and step.dice.expression == "2d8"
    s.enter("2, 2")
    assert s.recovery.done and s.recovery.remaining == 0 and s.recovery.xp_lost == 1
    step = s.next_step
    assert step is not None and (step.kind, step.dice.expression) == ("leader", "2d12")
    s.enter("2 2")  # 4: above 3 wounds, not above 4 XP -> promoted
    assert s.fate == "promoted" and s.needs_replacement
    step = s.next_step
    assert step is not None and (step.kind, step.dice.expression) == ("replacement", "2d10")
    assert step.label == "Replacement leader's XP: lower of 2d10 \u2212 1"
    assert not s.ready
    s.roll(TypedDice([[6, 8]]))
    assert s.replacement_xp == 5 and s.rolls_done and not s.ready
    with pytest.raises(ServiceError, match="needs a name"):
        s.commit()
    s.set_replacement("  Lt.   Adebayo ")
    assert s.ready
    summary = s.summary()
    assert summary.platoon.xp_before == 6 and summary.platoon.xp_after == 7
    assert summary.leader == battles.BattleLeader(name="Lt. Okafor", xp_before=2, xp_after=4, fate=LeaderFate.PROMOTED)
    assert summary.replacement == battles.Replacement(name="Lt. Adebayo", rank="Lieutenant", xp=5)
    assert [r.expression for r in summary.rolls] == ["1d8", "2d8", "2d12", "2d10"]
    assert all(r.source == "entered" for r in summary.rolls)
    assert summary.battle_id is None and summary.details.outcome == Outcome.VICTORY
    assert dump() == before, "nothing may be written before commit"

    edit = s.commit()
    b = Battle.get_by_id(edit.id)
    assert (b.number, b.date, b.scenario, b.opponent, b.outcome, b.objectives, b.fire_support, b.notes) == (
        1,
        dt.date(2024, 5, 31),
        "River crossing",
        "Red Company",
        "victory",
        1,
        True,
        "Bridge held",
    )
    assert (b.wounds, b.leader_wounds, b.platoon_xp_before, b.platoon_xp_after, b.xp_lost) == (7, 3, 6, 7, 1)
    assert (b.leader_xp_before, b.leader_xp_after, b.leader_fate) == (2, 4, "promoted")
    assert platoon(pid).xp == 7
    old = Leader.get(Leader.name == "Lt. Okafor")
    new = Leader.get(Leader.name == "Lt. Adebayo")
    assert (old.status, old.xp, old.left_battle_id) == ("promoted", 4, b.id) and old.left_at is not None
    assert (new.status, new.xp, new.xp_at_join, new.joined_battle_id) == ("active", 5, 5, b.id)
    rolls = list(Roll.select().where(Roll.battle == b.id).order_by(Roll.seq))
    assert [(r.seq, r.expression, r.faces, r.source) for r in rolls] == [
        (0, "1d8", [3], "entered"),
        (1, "2d8", [2, 2], "entered"),
        (2, "2d12", [2, 2], "entered"),
        (3, "2d10", [6, 8], "entered"),
    ]
    assert all(r.platoon_id == pid for r in rolls)
    assert [r.leader_id for r in rolls] == [None, None, old.id, new.id]
    assert rolls[2].rule == "aa.1.2.leader_fate" and rolls[2].outcome == "promoted"
    xs = [(x.who, x.leader_id, x.delta, x.xp_after) for x in XpChange.select().order_by(XpChange.id)]
    assert xs == [("platoon", None, 2, 8), ("platoon", None, -1, 7), ("leader", old.id, 2, 4)]
    reasons = [x.reason for x in XpChange.select().order_by(XpChange.id)]
    assert "award" in reasons[0] and "recovery" in reasons[1] and "award" in reasons[2]
    assert edit.to_dict()["battle_id"] == b.id
    with pytest.raises(ServiceError, match="already logged"):
        s.commit()


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(("wounds", "leader_wounds", "objectives"), [(0, 0, 0), (7, 3, 1), (25, 9, 2), (14, 14, 0)])
def test_session_agrees_with_the_rules_engine(
    pid: int, seed: int, wounds: int, leader_wounds: int, objectives: int
) -> None:
    expected = run_aftermath(
        platoon_xp=6,
        leader_xp=2,
        wounds=wounds,
        leader_wounds=leader_wounds,
        objectives=objectives,
        dice=SeededDice(seed),
    )
    edit = battles.log_battle(
        pid,
        wounds=wounds,
        leader_wounds=leader_wounds,
        objectives=objectives,
        dice=SeededDice(seed),
        replacement_name="Sgt. Mensah",
    )
    got = edit.to_dict()
    assert got["platoon"]["xp_after"] == expected.platoon_xp_after == platoon(pid).xp
    assert got["leader"]["fate"] == expected.fate
    assert [(r["expression"], r["faces"]) for r in got["rolls"]] == [(r.expression, r.faces) for r in expected.records]
    if expected.replacement_xp is None:
        assert got["replacement"] is None
    else:
        assert got["replacement"]["xp"] == expected.replacement_xp
        assert Leader.get(Leader.status == "active").xp == expected.replacement_xp


def test_odds_are_the_exact_rules_odds(pid: int) -> None:
    s = battles.BattleSession(pid)
    s.set_casualties(9, 2)
    odds = s.odds()
    dist = recovery_odds(9, 7)
    assert [(o.xp_lost, Fraction(o.fraction)) for o in odds.recovery.xp_lost] == list(dist.items())
    assert sum(Fraction(o.fraction) for o in odds.recovery.xp_lost) == 1
    lo = leader_odds(2, 3)
    assert odds.leader is not None
    assert {f: Fraction(odds.leader.chance(f).fraction) for f in LeaderFate} == lo
    assert odds.leader.casualty.percent.endswith("%") and odds.leader.casualty.p == float(lo[LeaderFate.CASUALTY])


def test_odds_and_summary_json_shape(pid: int, camp: Campaign) -> None:
    """``to_dict()`` of the typed odds and summary is the JSON the services gave before (the summary is the
    ``battle log --json`` shape): the date as ISO text, the opponent platoon as ``opponent_platoon_id``, the
    leader's chances keyed by fate."""
    with operation("test.setup", "test data"):
        other = Platoon.create(campaign=camp, name="Red Platoon", training=6, equipment=6, morale=6, armor=1)
    s = battles.BattleSession(pid)
    s.set_details(date=_dt.date(2024, 5, 31), opponent_platoon=other.id, outcome="draw", objectives=1)
    s.set_casualties(3, 1)
    odds = s.odds().to_dict()
    assert list(odds) == ["wounds", "leader_wounds", "award", "recovery", "leader"]
    assert odds["award"] == s.award.to_dict()
    assert list(odds["leader"]) == ["xp", "survival", "casualty", "promoted", "stays"]
    assert list(odds["recovery"]["xp_lost"][0]) == ["xp_lost", "xp_after", "p", "fraction", "percent"]
    s.roll_all(SeededDice(2))
    summary = s.summary().to_dict()
    assert list(summary) == [
        "battle_id",
        "number",
        "platoon",
        "leader",
        "replacement",
        "wounds",
        "leader_wounds",
        "counters_left",
        "details",
        "award",
        "rolls",
    ]
    assert summary["details"] == {
        "date": "2024-05-31",
        "scenario": "",
        "opponent": "Red Platoon",
        "opponent_platoon_id": other.id,
        "outcome": "draw",
        "objectives": 1,
        "fire_support": False,
        "notes": "",
    }
    assert list(summary["award"])[:3] == ["rule", "rule_text", "text"]
    assert summary["rolls"] and isinstance(summary["rolls"][0]["faces"], list)
    assert json.loads(json.dumps(summary)) == summary and json.loads(json.dumps(odds)) == odds
    edit = s.commit()
    assert edit.to_dict()["battle_id"] == edit.id and edit.to_dict()["details"]["date"] == "2024-05-31"


def test_typed_faces_are_checked_against_the_dice_asked_for(pid: int) -> None:
    s = battles.BattleSession(pid)
    s.set_casualties(5, 0)
    with pytest.raises(DiceError, match="not a face of a d8"):
        s.enter("9")
    with pytest.raises(DiceError, match="needs 1 face"):
        s.enter("3,4")
    for bad in ("three", "", "5;2", "5,,2", "-1", "2.5"):  # the one grammar of typed faces (rules.dice)
        with pytest.raises(DiceError) as typed:
            s.enter(bad)
        with pytest.raises(DiceError) as shared:
            parse_faces(bad)
        assert str(typed.value) == str(shared.value)
    assert s.recovery.records == []
    s.enter("5")
    with pytest.raises(DiceError, match="2d12"):
        s.enter("13,1")
    s.enter(" 12 12 ")  # spaces separate faces as commas do
    assert s.fate == "stays"
    with pytest.raises(DiceError, match="no more dice"):
        s.enter("1")


def test_changing_casualties_or_objectives_restarts_the_rolls(pid: int) -> None:
    s = battles.BattleSession(pid)
    s.set_casualties(9, 0)
    s.enter("1")
    assert len(s.records) == 1
    s.set_casualties(9, 0)  # unchanged: the rolls stay
    assert len(s.records) == 1
    s.set_casualties(8, 0)
    assert s.records == [] and s.recovery.wounds == 8
    s.enter("1")
    s.set_details(objectives=2)
    assert s.records == [] and s.recovery.xp_before == 9


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"objectives": 3}, "objectives met must be 0"),
        ({"outcome": "win"}, "outcome must be victory, defeat or draw"),
        ({"date": "31/05/2024"}, "battle date must be a date"),
        ({"scenario": "x" * 201}, "scenario is too long"),
    ],
)
def test_bad_details_are_refused(pid: int, kwargs: dict[str, Any], message: str) -> None:
    s = battles.BattleSession(pid)
    with pytest.raises(ServiceError, match=message):
        s.set_details(**kwargs)


def test_bad_casualties_and_opponents_are_refused(pid: int, camp: Campaign) -> None:
    s = battles.BattleSession(pid)
    with pytest.raises(ServiceError, match="wound counters must be a whole number, 0 or more"):
        s.set_casualties(-1, 0)
    with pytest.raises(ServiceError, match="leader's element must be at most 999"):
        s.set_casualties(1, 1000)
    with pytest.raises(ServiceError, match="cannot fight itself"):
        s.set_details(opponent_platoon=pid)
    with pytest.raises(NotFound, match="no platoon with id 999"):
        s.set_details(opponent_platoon=999)
    with pytest.raises(ServiceError, match="enter the casualties"):
        s.commit()
    with operation("test.setup", "test data"):
        other = Platoon.create(campaign=camp, name="Red Platoon", training=6, equipment=6, morale=6, armor=1)
    s.set_details(opponent_platoon=other.id)
    assert s.details.opponent == "Red Platoon"
    assert battles.opponent_choices(pid) == [
        battles.OpponentChoice(id=other.id, name="Red Platoon", campaign="Congo 1960")
    ]
    s.set_casualties(0, 0)
    with pytest.raises(ServiceError, match="not all rolls are made: next is Leader's fate"):
        s.commit()
    s.enter("12,12")
    edit = s.commit()
    assert Battle.get_by_id(edit.id).opponent_platoon_id == other.id
    with pytest.raises(NotFound):
        battles.BattleSession("No such platoon")


def test_a_platoon_changed_meanwhile_is_refused(pid: int) -> None:
    s = battles.BattleSession(pid)
    s.set_casualties(0, 0)
    s.enter("12,12")
    with operation("test.setup", "test data"):
        Platoon.update(xp=9).where(Platoon.id == pid).execute()
    before = dump()
    with pytest.raises(Conflict, match="changed since you started logging this battle"):
        s.commit()
    assert dump() == before


def test_the_second_of_two_writers_is_told_what_changed(pid: int) -> None:
    """One owner on two computers: both open the wizard on battle 1; the one that commits second is refused
    with the change named (what, when, by whom), and nothing of it is written."""
    first = battles.BattleSession(pid)
    second = battles.BattleSession(pid)
    for s in (first, second):
        s.set_casualties(0, 0)
        s.enter("12,12")
    first.commit()
    before = dump()
    with pytest.raises(Conflict) as info:
        second.commit()
    text = str(info.value)
    login = journal_read.list_operations(limit=1)[0].user
    assert text.startswith(
        "2nd Platoon changed since you started logging this battle: \u201cLog battle 1 of 2nd Platoon\u201d at "
    )
    assert re.search(r" at \d\d:\d\d", text) and f"by {login}" in text and "nothing was written" in text
    assert dump() == before


def test_a_failure_in_the_middle_of_a_commit_leaves_the_database_exactly_as_before(
    pid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    battles.log_battle(pid, wounds=4, leader_wounds=1, dice=SeededDice(3))  # some history already
    s = battles.BattleSession(pid)
    s.set_details(scenario="Ambush", outcome="defeat")
    s.set_casualties(12, 12)
    s.roll_all(SeededDice(5), until="replacement")
    assert s.fate == "casualty"
    s.enter("7, 9")
    s.set_replacement("Lt. Diallo")
    before = dump()
    calls = {"n": 0}
    real_insert = battles.insert

    def failing_insert(model: Any, **kwargs: Any) -> Any:
        if model is Roll:
            calls["n"] += 1
            if calls["n"] == 2:  # the battle, leaders, XP and the first roll are already written
                raise RuntimeError("disk on fire")
        return real_insert(model, **kwargs)

    monkeypatch.setattr(battles, "insert", failing_insert)
    with pytest.raises(RuntimeError, match="disk on fire"):
        s.commit()
    assert calls["n"] == 2
    assert dump() == before
    monkeypatch.undo()
    s.commit()  # the same session commits cleanly afterwards
    assert Battle.select().count() == 2 and Leader.get(Leader.status == "active").name == "Lt. Diallo"


def test_platoon_without_leader_rolls_no_fate(camp: Campaign) -> None:
    with operation("test.setup", "test data"):
        p = Platoon.create(campaign=camp, name="Leaderless", training=6, equipment=6, morale=6, armor=1, xp=3)
    edit = battles.log_battle(p.id, wounds=2, leader_wounds=2, dice=TypedDice([[2]]))
    assert edit.to_dict()["leader"] is None and edit.to_dict()["replacement"] is None
    assert [r["purpose"] for r in edit.to_dict()["rolls"]] == ["recovery"]
    b = Battle.get_by_id(edit.id)
    assert b.leader_fate is None and b.leader_xp_before is None and platoon(p.id).xp == 4


def test_log_battle_checks_the_typed_dice(pid: int) -> None:
    before = dump()
    with pytest.raises(DiceError, match="too many dice"):
        battles.log_battle(pid, wounds=2, dice=TypedDice([[2], [12, 12], [5]]))
    with pytest.raises(DiceError, match="too few dice"):
        battles.log_battle(pid, wounds=9, dice=TypedDice([[2]]))
    with pytest.raises(DiceError, match="roll 1"):
        battles.log_battle(pid, wounds=9, dice=TypedDice([[9]]))
    assert dump() == before


def test_campaign_period_sets_the_replacement_die(camp: Campaign, pid: int) -> None:
    with operation("test.setup", "test data"):
        Campaign.update(period=1).where(Campaign.id == camp.id).execute()
    edit = battles.log_battle(pid, wounds=0, leader_wounds=0, dice=TypedDice([[1, 1], [4, 4]]))
    assert edit.to_dict()["rolls"][-1]["expression"] == "2d4"
    rep = edit.to_dict()["replacement"]
    assert (rep["rank"], rep["xp"]) == ("Lieutenant", 3)
    # no --replacement-name: a name from the RULES §4 charts, the same for the same platoon and battle
    assert rep["name"].startswith("Lt. ") and rep["name"] != "New leader"
    from campaign_app.services.common import suggested_leader_name

    assert rep["name"] == suggested_leader_name(pid, 1)


def test_replacement_leader_house_rule_one_die(camp: Campaign, pid: int) -> None:
    from campaign_app.services import campaigns as cs

    cs.set_campaign(campaign_id(camp.name), replacement_dice=1)
    s = battles.BattleSession(pid)
    s.set_casualties(0, 0)
    s.enter("1, 1")  # casualty
    step = s.next_step
    assert step is not None and step.dice.expression == "1d10" and "1d10 \u2212 1" in step.label
    with pytest.raises(DiceError, match="1d10 needs 1 face"):
        s.enter("4, 9")
    s.enter("4")
    assert s.replacement_xp == 3


# --- undo, redo, edit -------------------------------------------------------------------------------------


def test_undo_last_battle_restores_the_database_exactly(pid: int) -> None:
    battles.log_battle(pid, wounds=3, leader_wounds=0, dice=SeededDice(1))
    before = dump()
    logged = battles.log_battle(pid, wounds=12, leader_wounds=12, dice=SeededDice(8), replacement_name="Lt. B")
    assert logged.to_dict()["leader"]["fate"] == "casualty"
    after = dump()
    undo = battles.undo_last_battle(pid)
    assert dump() == before
    assert undo.to_dict()["number"] == 2 and undo.to_dict()["removed_leaders"] == ["Lt. B"]
    assert undo.operation_id == logged.operation_id
    journal_replay.redo()  # the battle comes back, same ids, same dice
    assert dump() == after
    journal_replay.undo()
    assert dump() == before


def test_undo_and_redo_a_logged_battle_through_the_journal(pid: int) -> None:
    before = dump()
    edit = battles.log_battle(pid, wounds=10, leader_wounds=0, objectives=2, dice=SeededDice(2))
    after = dump()
    journal_replay.undo(edit.operation_id)
    assert dump() == before
    journal_replay.redo(edit.operation_id)
    assert dump() == after
    with pytest.raises(ServiceError, match="is not undone"):
        journal_replay.redo(edit.operation_id)  # already there
    assert dump() == after


def test_undo_refuses_after_a_change_by_hand(pid: int) -> None:
    with pytest.raises(ServiceError, match="has no battle to undo"):
        battles.undo_last_battle(pid)
    edit = battles.log_battle(pid, wounds=1, leader_wounds=0, dice=SeededDice(4))
    with operation("test.setup", "test data"):
        Platoon.update(xp=20).where(Platoon.id == pid).execute()
    with pytest.raises(ServiceError, match="“test data” .operation \\d+. changed the same data later"):
        battles.undo_last_battle(pid)
    with pytest.raises(ServiceError, match="cannot undo"):
        journal_replay.undo(edit.operation_id)
    assert Battle.select().count() == 1


def test_edit_battle_text_is_logged_and_undone_with_the_battle(pid: int) -> None:
    logged = battles.log_battle(pid, wounds=1, leader_wounds=0, scenario="Patrol", dice=SeededDice(4))
    after_log = dump()
    edit = battle_edits.edit_battle_text(logged.id, scenario="Night patrol", notes="Lost the radio", outcome="draw")
    b = Battle.get_by_id(logged.id)
    assert (b.scenario, b.notes, b.outcome) == ("Night patrol", "Lost the radio", "draw")
    rows = [
        (a.field, a.old_value, a.new_value, a.battle_id) for a in AttributeChange.select().order_by(AttributeChange.id)
    ]
    assert rows == [
        ("battle.scenario", "Patrol", "Night patrol", b.id),
        ("battle.notes", "", "Lost the radio", b.id),
        ("battle.outcome", None, "draw", b.id),
    ]
    with pytest.raises(ServiceError, match="“Edit battle 1 of 2nd Platoon” .operation \\d+. changed the same data"):
        journal_replay.undo(logged.operation_id)
    same = battle_edits.edit_battle_text(logged.id, scenario="Night patrol")
    assert not same.changed and "nothing changed" in same.message
    with pytest.raises(ServiceError, match="outcome must be"):
        battle_edits.edit_battle_text(logged.id, outcome="won")
    with pytest.raises(NotFound):
        battle_edits.edit_battle_text(999, notes="x")
    journal_replay.undo(edit.operation_id)
    assert dump() == after_log
    journal_replay.redo(edit.operation_id)
    with pytest.raises(ServiceError, match="“Edit battle 1 of 2nd Platoon”"):
        battles.undo_last_battle(pid)  # the edit is newer: undo it first
    journal_replay.undo()
    battles.undo_last_battle(pid)
    assert AttributeChange.select().count() == 0
    journal_replay.redo()  # the battle
    journal_replay.redo()  # then its edit
    assert AttributeChange.select().count() == 3 and Battle.get_by_id(logged.id).scenario == "Night patrol"
    cleared = battle_edits.edit_battle_text(logged.id, outcome=None)
    assert Battle.get_by_id(logged.id).outcome is None and cleared.to_dict()["old"] == {"outcome": "draw"}


def test_undo_a_battle_whose_leader_stayed_returns_the_leader_xp(pid: int) -> None:
    battles.log_battle(pid, wounds=0, leader_wounds=0, objectives=2, dice=TypedDice([[12, 12]]))
    ld = Leader.get(Leader.name == "Lt. Okafor")
    assert ld.xp == 5 and ld.status == "active"
    battles.undo_last_battle(pid)
    assert Leader.get_by_id(ld.id).xp == 2 and platoon(pid).xp == 6 and XpChange.select().count() == 0


# --- history ----------------------------------------------------------------------------------------------


def _campaign_of_battles(pid: int, n: int) -> None:
    for i in range(n):
        battles.log_battle(
            pid,
            wounds=(i * 5) % 13,
            leader_wounds=min((i * 7) % 9, (i * 5) % 13),
            objectives=i % 3,
            outcome=battles.OUTCOMES[i % 3],
            scenario=f"Scenario {i + 1}",
            dice=SeededDice(i),
            replacement_name=f"Leader {i + 1}",
        )


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each write a minute after the one before (the stored times have whole seconds)."""
    state = {"t": dt.datetime.now().replace(microsecond=0)}

    def tick() -> dt.datetime:
        state["t"] += dt.timedelta(minutes=1)
        return state["t"]

    monkeypatch.setattr(battles, "now", tick)
    monkeypatch.setattr(battle_edits, "now", tick)  # battle edits are stamped by the same clock


def test_history_lists_battles_with_rolls_and_every_event_newest_first(pid: int, clock: None) -> None:
    _campaign_of_battles(pid, 4)
    edit = battle_edits.edit_battle_text(Battle.get(Battle.number == 2).id, notes="Rain")
    h = history.history(pid)
    assert [b.number for b in h.battles] == [4, 3, 2, 1]
    newest = h.battles[0]
    assert newest.rolls and [r.seq for r in newest.rolls] == list(range(len(newest.rolls)))
    assert {"id", "date", "rolls", "scenario", "outcome", "wounds", "leader_fate"} <= set(newest.to_dict())
    kinds = {e.kind for e in h.events}
    assert kinds == {"battle", "xp", "leader", "roll", "attribute"}
    assert isinstance(h.events[0], history.AttributeEvent)
    assert h.events[0].id == max(edit.changes.ids("attribute_change"))
    battle_events = [e.battle_number for e in h.events if isinstance(e, history.BattleEvent)]
    assert battle_events == [4, 3, 2, 1]
    # each battle's events follow it: its rolls in order, then XP, then leader changes
    first = next(i for i, e in enumerate(h.events) if e.kind == "battle" and e.battle_number == 4)
    group = [e for e in h.events[first:] if e.battle_number == 4]
    assert group[0].kind == "battle"
    seqs = [e.seq for e in group if isinstance(e, history.RollEvent)]
    assert seqs == sorted(seqs)
    assert all(e.text for e in h.events)
    assert len([e for e in h.events if e.kind == "roll"]) == Roll.select().count()
    parsed = json.loads(history.history_json(pid))
    assert parsed["battles"][0]["id"] == newest.id
    assert parsed == h.to_dict() and all(e["text"] for e in parsed["events"])
    csv_text = history.timeline_csv(pid)
    lines = csv_text.splitlines()
    assert lines[0].startswith("at,kind,battle_number,date,text")
    assert len(lines) == len(h.events) + 1


def test_leaders_roll_and_summary(pid: int) -> None:
    battles.log_battle(pid, wounds=2, leader_wounds=0, outcome="victory", dice=TypedDice([[2], [12, 12]]))
    battles.log_battle(
        pid,
        wounds=9,
        leader_wounds=9,
        outcome="defeat",
        dice=TypedDice([[1], [1, 1], [3, 3, 3], [2, 3], [8, 10]]),
        replacement_name="Lt. Bello",
    )
    battles.log_battle(
        pid, wounds=0, leader_wounds=0, outcome="draw", dice=TypedDice([[1, 2], [5, 5]]), replacement_name="Lt. Chukwu"
    )
    roll = history.leaders_roll(pid)
    assert [(r.name, r.status, r.battles_led, r.xp_at_join, r.xp, r.xp_gained) for r in roll] == [
        ("Lt. Okafor", "casualty", 2, 2, 4, 2),
        ("Lt. Bello", "promoted", 1, 7, 8, 1),
        ("Lt. Chukwu", "active", 0, 4, 4, 0),
    ]
    assert roll[0].left_battle == 2 and roll[1].joined_battle == 2 and roll[1].left_battle == 3
    assert not roll[1].current and roll[2].current and roll[2].how == "still in command"
    summary = history.campaign_summary(pid)
    assert {
        k: summary.to_dict()[k]
        for k in (
            "battles",
            "victories",
            "defeats",
            "draws",
            "total_wounds",
            "xp_lost",
            "leaders_lost",
            "casualties",
            "promotions",
        )
    } == {
        "battles": 3,
        "victories": 1,
        "defeats": 1,
        "draws": 1,
        "total_wounds": 11,
        "xp_lost": 2,
        "leaders_lost": 2,
        "casualties": 1,
        "promotions": 1,
    }
    assert summary.xp == platoon(pid).xp and summary.leader == "Lt. Chukwu" and summary.leaders == 3
    series = history.xp_series(pid)
    assert series.start == history.XpStart(battle=0, platoon_xp=6, leader_xp=2)
    assert [p.leader_change.fate if p.leader_change else None for p in series.points] == [
        None,
        LeaderFate.CASUALTY,
        LeaderFate.PROMOTED,
    ]
    change = series.points[1].leader_change
    assert series.points[1].leader_xp == 7 and change is not None and change.new == "Lt. Bello"
    assert [w.wounds for w in history.wounds_series(pid)] == [2, 9, 0]
    report = history.history_report(pid)
    assert (report.summary, report.leaders, report.xp_series) == (summary, roll, series)


def test_history_queries_do_not_grow_with_the_number_of_battles(pid: int, camp: Campaign) -> None:
    with operation("test.setup", "test data"):
        other = Platoon.create(campaign=camp, name="Big", training=6, equipment=6, morale=6, armor=1, xp=3)
    with operation("test.setup", "test data"):
        Leader.create(platoon=other, name="Capt. Long", xp=1, xp_at_join=1)
    _campaign_of_battles(pid, 2)
    _campaign_of_battles(other.id, 15)
    battle_edits.edit_battle_text(Battle.get((Battle.platoon == other.id) & (Battle.number == 3)).id, notes="x")
    functions = (
        history.history,
        history.leaders_roll,
        history.campaign_summary,
        history.xp_series,
        history.wounds_series,
        history.history_report,
        history.timeline_csv,
    )
    for func in functions:
        with count_queries() as small:
            func(pid)
        with count_queries() as big:
            func(other.id)
        assert len(small) == len(big) <= 8, (func.__name__, len(small), len(big))
    assert len(history.history(other.id).battles) == 15


def test_export_history_writes_csv_and_json(pid: int, tmp_path: Any) -> None:
    _campaign_of_battles(pid, 2)
    n = history.export_history(pid, tmp_path / "t.csv", "csv")
    assert n == len(history.history(pid).events)
    assert (tmp_path / "t.csv").read_text(encoding="utf-8").count("\n") == n + 1
    history.export_history(pid, tmp_path / "t.json", "json")
    assert json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))["battles"][0]["number"] == 2
    with pytest.raises(ServiceError, match="csv or json"):
        history.export_history(pid, tmp_path / "t.xml", "xml")
    with pytest.raises(ServiceError, match="cannot write"):
        history.export_history(pid, tmp_path / "missing" / "t.csv", "csv")


# --- edge cases: names and ids, refused reverts and undos, length limits, edits ---------------------------


def test_a_platoon_is_taken_by_its_row_id(camp: Campaign) -> None:
    with operation("test.setup", "test data"):
        alpha = Platoon.create(campaign=camp, name="Alpha", training=6, equipment=6, morale=6, armor=1, xp=3)
    with operation("test.setup", "test data"):
        one = Platoon.create(campaign=camp, name="1", training=6, equipment=6, morale=6, armor=1, xp=5)
    assert alpha.id == 1 and one.id != 1
    assert battles._platoon(1).id == alpha.id, "an int is a row id, whatever the platoons are named"
    with pytest.raises(NotFound, match="no platoon with id 999"):
        battles._platoon(999)
    edit = battles.log_battle(one.id, wounds=0, dice=TypedDice([]))  # no leader: no roll
    assert Battle.get_by_id(edit.id).platoon_id == one.id


def test_undoing_a_battle_with_a_newer_battle_is_refused(pid: int) -> None:
    first = battles.log_battle(pid, wounds=0, dice=TypedDice([[12, 12]]))
    battles.log_battle(pid, wounds=0, dice=TypedDice([[12, 12]]))
    before = dump()
    with pytest.raises(ServiceError, match="“Log battle 2 of 2nd Platoon” .operation \\d+. changed the same data"):
        journal_replay.undo(first.operation_id)
    assert dump() == before


def test_leader_wounds_may_not_exceed_the_battle_total(pid: int) -> None:
    s = battles.BattleSession(pid)
    with pytest.raises(
        ServiceError,
        match=r"leader's element \(4\) cannot exceed the battle's total wound "
        r"counters \(3\)",
    ):
        s.set_casualties(3, 4)
    before = dump()
    with pytest.raises(ServiceError, match="cannot exceed"):
        battles.log_battle(pid, wounds=0, leader_wounds=1, dice=TypedDice([[12, 12]]))
    assert dump() == before
    s.set_casualties(4, 4)  # all of them on the leader's element is fine
    assert (s.wounds, s.leader_wounds) == (4, 4)


@pytest.mark.parametrize("who", ["platoon", "leader"])
def test_undo_refuses_after_hand_xp_edits_even_when_they_net_to_nothing(pid: int, who: str) -> None:
    from campaign_app.services import platoons as platoon_service

    battles.log_battle(pid, wounds=0, dice=TypedDice([[12, 12]]))  # leader stays: 6 -> 7, 2 -> 3
    xp = platoon(pid).xp if who == "platoon" else Leader.get(Leader.status == "active").xp
    platoon_service.set_xp(pid, xp + 1, "by hand", who=who)
    platoon_service.set_xp(pid, xp, "back again", who=who)  # within a minute: the same run, one operation
    # the steps cancel out: no XP change row of 0 (it was once journalled as "XP 7 \u2192 7")
    assert XpChange.select().where(XpChange.battle.is_null()).count() == 0
    before = dump()
    with pytest.raises(ServiceError, match="XP back to 3 |XP back to 7 "):
        battles.undo_last_battle(pid)
    assert dump() == before


def test_hand_xp_edits_before_the_battle_do_not_block_its_undo(pid: int) -> None:
    from campaign_app.services import platoons as platoon_service

    platoon_service.set_xp(pid, 7, "by hand")
    battles.log_battle(pid, wounds=0, dice=TypedDice([[12, 12]]))
    battles.undo_last_battle(pid)
    assert platoon(pid).xp == 7 and Battle.select().count() == 0


def test_finding_a_battle_to_edit_without_battles_says_so(pid: int) -> None:
    with pytest.raises(ServiceError, match="2nd Platoon has no battles to edit"):
        battle_edits.find_battle(pid)


def test_notes_reason_and_text_fields_have_length_limits(pid: int) -> None:
    s = battles.BattleSession(pid)
    with pytest.raises(ServiceError, match="notes is too long \\(10001 characters, at most 10000\\)"):
        s.set_details(notes="x" * 10_001)
    with pytest.raises(ServiceError, match="scenario is too long"):
        s.set_details(scenario="x" * (battles.SCENARIO_MAX + 1))
    with pytest.raises(ServiceError, match="opponent is too long"):
        s.set_details(opponent="x" * (battles.OPPONENT_MAX + 1))
    s.set_details(notes="x" * 10_000)
    edit = battles.log_battle(pid, wounds=0, dice=TypedDice([[12, 12]]))
    before = dump()
    with pytest.raises(ServiceError, match="notes is too long"):
        battle_edits.edit_battle_text(edit.id, notes="y" * 10_001)
    with pytest.raises(ServiceError, match="reason is too long"):
        battle_edits.edit_battle_text(edit.id, notes="ok", reason="r" * (battles.REASON_MAX + 1))
    assert dump() == before


def test_edit_battle_changes_every_field_not_from_a_roll_and_refuses_xp_fields(pid: int) -> None:
    logged = battles.log_battle(
        pid, wounds=2, leader_wounds=1, objectives=1, scenario="Patrol", opponent="Bandits", dice=SeededDice(4)
    )
    before = dump()
    edit = battle_edits.edit_battle(
        logged.id,
        date=_dt.date(2026, 1, 2),
        opponent="Rebels",
        outcome="victory",
        fire_support=True,
        notes="Rain",
        scenario="Night patrol",
        reason="recalled",
    )
    b = Battle.get_by_id(logged.id)
    assert (str(b.date), b.opponent, b.outcome, b.fire_support, b.notes, b.scenario) == (
        "2026-01-02",
        "Rebels",
        "victory",
        True,
        "Rain",
        "Night patrol",
    )
    fields = [a.field for a in AttributeChange.select().order_by(AttributeChange.id)]
    assert set(fields) == {
        "battle.date",
        "battle.opponent",
        "battle.outcome",
        "battle.fire_support",
        "battle.notes",
        "battle.scenario",
    }
    assert "opponent 'Bandits' \u2192 'Rebels'" in edit.message and "->" not in edit.message
    # objectives and wounds set the XP: a different value is refused with the reason, nothing written
    after = dump()
    for kwargs, why in (
        ({"objectives": 2}, "objectives met of battle 1 cannot be edited .1 recorded.: they set"),
        ({"wounds": 5}, "recovery rolls and the XP lost"),
        ({"leader_wounds": 0}, "leader's fate roll"),
    ):
        with pytest.raises(ServiceError, match=why) as info:
            battle_edits.edit_battle(logged.id, notes="changed too", **kwargs)
        assert "Undo the battle and log it again" in str(info.value)
        assert dump() == after
    same = battle_edits.edit_battle(logged.id, objectives=1, wounds=2, leader_wounds=1)  # unchanged: fine
    assert not same.changed
    journal_replay.undo(edit.operation_id)
    assert dump() == before


def test_leaders_roll_dates_are_the_campaigns_own(pid: int) -> None:
    """A leader who joined before the first battle joined "at the start", not on the day he was typed in;
    one replaced in a battle joined and left in that battle; one replaced by hand joined after the last
    battle fought."""
    from campaign_app.services import leaders as leader_service

    battles.log_battle(pid, wounds=2, leader_wounds=0, date=_dt.date(1960, 7, 14), dice=TypedDice([[2], [12, 12]]))
    battles.log_battle(
        pid,
        wounds=0,
        leader_wounds=0,
        date=_dt.date(1960, 8, 2),
        dice=TypedDice([[1, 1], [5, 5]]),
        replacement_name="Lt. Bello",
    )
    leader_service.replace_leader(pid, "Lt. Hand", xp=1)
    roll = history.leaders_roll(pid)
    assert [(r.name, r.joined, r.left) for r in roll] == [
        ("Lt. Okafor", "at the start", "battle 2 (1960-08-02)"),
        ("Lt. Bello", "battle 2 (1960-08-02)", "after battle 2 (1960-08-02)"),
        ("Lt. Hand", "after battle 2 (1960-08-02)", ""),
    ]
