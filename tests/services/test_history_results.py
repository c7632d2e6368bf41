"""The history's typed results keep the JSON the CLI and the export always wrote: the same keys, in the same
order, for every kind of event, battle and roll; the events are frozen however they are made."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

import pytest

from campaign_app.rules.dice import TypedDice
from campaign_app.services import battle_edits, battles, history
from campaign_app.services import platoons as platoon_service

BASE = ["kind", "id", "at", "date", "battle_id", "battle_number"]
EVENT_KEYS = {
    "battle": [
        *BASE,
        "outcome",
        "scenario",
        "opponent",
        "wounds",
        "leader_wounds",
        "xp_lost",
        "leader_fate",
        "xp_before",
        "xp_after",
        "leader",
        "replacement",
        "text",
    ],
    "roll": [
        *BASE,
        "purpose",
        "purpose_text",
        "expression",
        "faces",
        "total",
        "source",
        "rule",
        "rule_text",
        "table_row",
        "outcome",
        "leader_id",
        "seq",
        "modifier",
        "text",
    ],
    "xp": [*BASE, "who", "name", "leader_id", "delta", "xp_after", "reason", "text"],
    "leader": [*BASE, "change", "leader_id", "name", "rank", "xp", "status", "text"],
    "attribute": [*BASE, "field", "old", "new", "reason", "text"],
}
"""The keys of each kind of event, in order, as ``campaign-cli history --json`` wrote them before the results
were typed."""
BATTLE_KEYS = [
    "id",
    "number",
    "date",
    "scenario",
    "opponent",
    "opponent_platoon_id",
    "outcome",
    "objectives",
    "fire_support",
    "notes",
    "wounds",
    "leader_wounds",
    "platoon_xp_before",
    "platoon_xp_after",
    "leader_xp_before",
    "leader_xp_after",
    "leader_fate",
    "xp_lost",
    "leader",
    "replacement",
    "created_at",
    "rolls",
]
ROLL_KEYS = [
    "id",
    "seq",
    "purpose",
    "purpose_text",
    "expression",
    "faces",
    "modifier",
    "total",
    "source",
    "rule",
    "rule_text",
    "table_row",
    "outcome",
    "leader_id",
    "battle_id",
    "at",
]


def _platoon(congo_platoon: Callable[..., int]) -> int:
    pid = congo_platoon()
    battles.log_battle(
        pid,
        wounds=9,
        leader_wounds=9,
        outcome="defeat",
        scenario="Swamp",
        opponent="Rebels",
        dice=TypedDice([[1], [1, 1], [3, 3, 3], [2, 3], [8, 9]]),
        replacement_name="Lt. Bello",
    )
    battles.log_battle(pid, wounds=0, leader_wounds=0, dice=TypedDice([[12, 11]]))
    battle_edits.edit_battle_text(battle_edits.find_battle(pid).id, notes="Rain", reason="remembered")
    platoon_service.set_xp(pid, 4, reason="house rule")
    return pid


def test_every_kind_keeps_its_json_keys_in_order(congo_platoon: Callable[..., int]) -> None:
    pid = _platoon(congo_platoon)
    data = json.loads(history.history_json(pid))
    assert list(data) == ["platoon", "battles", "events"]
    assert list(data["platoon"]) == ["id", "name", "campaign", "xp"]
    seen = set()
    for event in data["events"]:
        assert list(event) == EVENT_KEYS[event["kind"]], event["kind"]
        seen.add(event["kind"])
    assert seen == set(EVENT_KEYS)
    replaced = next(b for b in data["battles"] if b["replacement"])
    assert list(replaced["replacement"]) == ["id", "name", "rank", "xp"]
    for battle in data["battles"]:
        assert list(battle) == BATTLE_KEYS
        assert all(list(r) == ROLL_KEYS for r in battle["rolls"]) and battle["rolls"]
    # the enums are written as their words
    assert {e["outcome"] for e in data["events"] if e["kind"] == "battle"} == {"defeat", None}
    assert replaced["leader_fate"] in ("casualty", "promoted")


def test_events_are_frozen_and_equal_however_they_are_made(congo_platoon: Callable[..., int]) -> None:
    pid = _platoon(congo_platoon)
    eager = history.history(pid).events
    lazy = history.history_report(pid, lazy_text=True).history.events
    for a, b in zip(eager, lazy, strict=True):
        assert a == b and a is not b
        rebuilt = type(a)(**{f.name: getattr(a, f.name) for f in dataclasses.fields(a) if f.init})
        assert rebuilt == a and rebuilt.to_dict() == a.to_dict()
        with pytest.raises(dataclasses.FrozenInstanceError):
            a.id = 0  # type: ignore[misc]
    roll = next(e for e in eager if isinstance(e, history.RollEvent))
    positional = history.RollEvent(*(getattr(roll, f.name) for f in dataclasses.fields(roll) if f.init))
    assert positional == roll and positional.kind == "roll"
