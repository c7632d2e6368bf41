"""The timeline's order: the grouped ordering the history read uses is the plain one (every event sorted once by
``timeline_key``), on a real platoon and on hand-made rows with every tie the key has to break."""

from __future__ import annotations

from campaign_app.rules.dice import SeededDice, TypedDice
from campaign_app.rules.experience import DEFAULT_THRESHOLDS
from campaign_app.services import battle_edits, battles, history
from campaign_app.services import platoons as platoon_service
from campaign_app.services.history import (
    AttributeRow,
    BattleRow,
    HistoryRows,
    LeaderRow,
    RollRow,
    Timeline,
    XpRow,
    plain_timeline,
    read_rows,
    timeline_refs,
)
from campaign_app.store.journal import operation
from campaign_app.store.models import Campaign, Leader, Platoon


def _ids(refs: list[history.Ref]) -> list[tuple[int, int]]:
    return [(code, row.id) for code, row in refs]


def _same_order(rows: HistoryRows) -> list[tuple[int, int]]:
    plain, kinds, battle_ids = plain_timeline(rows)
    fast = Timeline(rows)
    assert _ids(fast.refs) == _ids(plain) == _ids(timeline_refs(rows))
    assert fast.kinds == kinds and fast.battle_ids == battle_ids
    return _ids(plain)


def test_the_grouped_order_is_the_plain_order_on_a_logged_platoon() -> None:
    with operation("test.setup", "test data"):
        c = Campaign.create(name="Congo 1960", system="atomic_africa")
        p = Platoon.create(campaign=c, name="2nd Platoon", training=10, equipment=10, morale=8, armor=2, xp=6)
        Leader.create(platoon=p, name="Lt. Okafor", xp=2, xp_at_join=2)
    battles.log_battle(
        p.id,
        wounds=9,
        leader_wounds=9,
        outcome="defeat",
        scenario="Swamp",
        opponent="Rebels",
        dice=TypedDice([[1], [1, 1], [3, 3, 3], [2, 3], [8, 9]]),
        replacement_name="Lt. Bello",
    )
    for i in range(8):
        battles.log_battle(
            p.id,
            wounds=i,
            leader_wounds=min(i, 2),
            objectives=i % 3,
            dice=SeededDice(i),
            outcome=battles.OUTCOMES[i % 3],
            replacement_name=f"Lt. {i}",
        )
    newest = battle_edits.find_battle(p.id)
    battle_edits.edit_battle_text(newest.id, scenario="Renamed", reason="typo")
    platoon_service.set_xp(p.id, 4, reason="house rule")
    rows = read_rows(p.id)
    order = _same_order(rows)
    assert len(order) == len(history.history(p.id).events) > 9 + 9  # battles, rolls, XP, leaders, the edit
    kinds = {code for code, _id in order}
    assert kinds == {history._BATTLE, history._ROLL, history._XP, history._JOINED, history._LEFT, history._ATTRIBUTE}


def _battle(bid: int, number: int, at: str) -> BattleRow:
    return BattleRow(bid, number, at[:10], "", "", None, "victory", 0, 0, "", 0, 0, 6, 7, 2, 3, None, 0, at)


def _roll(rid: int, battle: int | None, seq: int, at: str) -> RollRow:
    return RollRow(rid, battle, None, seq, "recovery", "1d8", "[3]", 0, 3, "app", "", None, "", at)


def test_the_grouped_order_is_the_plain_order_with_every_tie() -> None:
    t1, t2 = "2026-01-01 10:00:00", "2026-01-01 10:00:05"
    rows = HistoryRows(
        1,
        "2nd Platoon",
        7,
        "Congo",
        DEFAULT_THRESHOLDS,
        battles=[_battle(10, 1, t1), _battle(11, 2, t2)],
        # a leader from the start; one who joined in battle 1 and left in battle 2; one who joined and left
        # at one moment outside any battle; one whose battle is gone
        leaders=[
            LeaderRow(1, "Lt. A", "Lt", 2, 2, "killed", None, 10, t1, t1),
            LeaderRow(2, "Lt. B", "Lt", 1, 1, "killed", 10, 11, t1, t2),
            LeaderRow(3, "Lt. C", "Lt", 0, 0, "retired", None, None, t2, t2),
            LeaderRow(4, "Lt. D", "Lt", 0, 0, "active", 99, None, t2, None),
        ],
        xp_changes=[
            XpRow(1, None, "platoon", 1, 7, "battle", 10, t1),
            XpRow(2, None, "platoon", 1, 8, "", 11, t2),
            XpRow(3, None, "platoon", -1, 7, "by hand", None, t2),
            XpRow(4, 1, "leader", 1, 3, "", 10, t1),
        ],
        # edits in the same second as the battle they change, and one of no battle
        attribute_changes=[
            AttributeRow(1, 10, "scenario", "a", "b", "typo", t1),
            AttributeRow(2, None, "training", "10", "11", "", t2),
            AttributeRow(3, 11, "notes", "", "x", "", t2),
        ],
        # rolls out of seq order, in each battle; one of no battle at the same second as a battle
        rolls=[
            _roll(1, 10, 2, t1),
            _roll(2, 10, 1, t1),
            _roll(3, 11, 1, t2),
            _roll(4, None, 1, t2),
            _roll(5, 11, 1, t2),
            _roll(6, 77, 1, t1),
        ],
    )
    order = _same_order(rows)
    b, r, x, j, left, a = (
        history._BATTLE,
        history._ROLL,
        history._XP,
        history._JOINED,
        history._LEFT,
        history._ATTRIBUTE,
    )
    assert order == [
        (a, 3),  # an edit of battle 2 in its second shows above it
        (b, 11),
        (r, 3),
        (r, 5),
        (x, 2),
        (left, 2),  # battle 2: rolls by (seq, id), XP, who left
        (a, 2),
        (j, 4),
        (left, 3),
        (j, 3),
        (x, 3),
        (r, 4),  # same second, no battle: by rank then id
        (a, 1),
        (b, 10),
        (r, 2),
        (r, 1),
        (x, 1),
        (x, 4),
        (left, 1),
        (j, 2),  # battle 1: who left before who joined
        (j, 1),
        (r, 6),  # the first leader; a roll whose battle is gone
    ]
