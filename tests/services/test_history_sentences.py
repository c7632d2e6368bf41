"""Readable history: a change reads as a sentence made from the stored row by one function
(``services.history.change_text``), the same in the timeline events, ``campaign-cli history`` and the printed
history; the stored data fields stay as they are."""

from __future__ import annotations

import pytest

from campaign_app.rules.dice import TypedDice
from campaign_app.services import attachments as attachment_service
from campaign_app.services import battle_edits, battles, campaigns, history
from campaign_app.services import platoons as platoon_service
from campaign_app.services.printing import history_from_report
from tests.ids import attached_id, equipment_id


def attribute(
    field: str, old: str | None, new: str | None, reason: str = "", battle_number: int | None = None
) -> history.AttributeEvent:
    return history.AttributeEvent(
        id=1,
        at=None,
        date=None,
        battle_id=None,
        battle_number=battle_number,
        field=field,
        old=old,
        new=new,
        reason=reason,
    )


def xp(who: str, name: str, delta: int, xp_after: int, reason: str) -> history.XpEvent:
    return history.XpEvent(
        id=1,
        at=None,
        date=None,
        battle_id=None,
        battle_number=None,
        who=who,
        name=name,
        leader_id=None,
        delta=delta,
        xp_after=xp_after,
        reason=reason,
    )


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (attribute("name", "1st", "2nd Platoon"), "Platoon renamed 1st \u2192 2nd Platoon"),
        (attribute("equipment", "d10", "d12", "new kit"), "Platoon: Equipment d10 \u2192 d12 (new kit)"),
        (attribute("armor", "2", "3"), "Platoon: Armor 2 \u2192 3"),
        (attribute("notes", "", "Radio lost"), "Platoon: Notes (empty) \u2192 Radio lost"),
        (
            attribute("notes", "", "word " * 40),
            "Platoon: Notes (empty) \u2192 " + ("word " * 10).strip()[:47] + "\u2026",
        ),
        (attribute("leader.name", "Lt. Okafor", "Capt. Okafor"), "Leader renamed Lt. Okafor \u2192 Capt. Okafor"),
        (attribute("leader.rank", "Lieutenant", "Captain"), "Leader's rank Lieutenant \u2192 Captain"),
        (
            attribute("attached[MG Team Bravo]", None, "team d8/d10/d8 Armor 2"),
            "Attached unit added: MG Team Bravo \u2013 team d8/d10/d8 Armor 2",
        ),
        (
            attribute("attached[Mortars]", "light fire support", None, "gone"),
            "Attached unit removed: Mortars \u2013 light fire support (gone)",
        ),
        (attribute("attached[MG Team Bravo].equipment", "d10", "d12"), "MG Team Bravo: Equipment d10 \u2192 d12"),
        (
            attribute("attached[MG Team Bravo].kind", "team", "fire_support"),
            "MG Team Bravo: Kind infantry team \u2192 off-board fire support",
        ),
        (
            attribute("attached[MG Team Bravo].name", "MG Team Bravo", "MG Team Charlie"),
            "Attached unit renamed MG Team Bravo \u2192 MG Team Charlie",
        ),
        (attribute("equipment[HMG]", None, "HMG (targets dispersed)"), "Equipment added: HMG \u2013 targets dispersed"),
        (attribute("equipment[HMG].ap", "2", "3", "upgrade"), "HMG: AP 2 \u2192 3 (upgrade)"),
        (attribute("equipment[HMG].ap", None, "3"), "HMG: AP none \u2192 3"),
        (attribute("equipment[HMG].name", "HMG", "Heavy MG"), "Equipment renamed HMG \u2192 Heavy MG"),
        (
            attribute("attached[MG Team Bravo].equipment[HMG]", None, "HMG (targets dispersed, AP 2 vs point)"),
            "MG Team Bravo: equipment added: HMG \u2013 targets dispersed, AP 2 vs point",
        ),
        (
            attribute("attached[MG Team Bravo].equipment[HMG].ap_vs", "point", "dispersed"),
            "MG Team Bravo, HMG: AP applies to point \u2192 dispersed",
        ),
        (
            attribute("attached[MG Team Bravo].equipment[HMG].name", "HMG", "Heavy MG"),
            "MG Team Bravo: Equipment renamed HMG \u2192 Heavy MG",
        ),
        (attribute("battle.outcome", "draw", "victory", "battle 2 edited", 2), "Battle 2: Outcome draw \u2192 victory"),
        (
            attribute("battle.outcome", None, "victory", "remembered", 2),
            "Battle 2: Outcome not recorded \u2192 victory (remembered)",
        ),
        (attribute("battle.fire_support", "False", "True", "", 3), "Battle 3: Fire support not used \u2192 used"),
        (attribute("battle.date", "2026-01-02", "2026-01-05", "", 3), "Battle 3: Date 2026-01-02 \u2192 2026-01-05"),
        (attribute("strange.path[x]", "a", "b"), "strange.path[x]: a \u2192 b"),
        (xp("leader", "Lt. Okafor", 1, 6, "reason"), "Lt. Okafor: Leader XP 5 \u2192 6 (reason)"),
        (xp("platoon", "2nd Platoon", -12, 4, ""), "Platoon XP 16 \u2192 4"),
    ],
)
def test_a_stored_change_reads_as_a_sentence(event: history.AttributeEvent | history.XpEvent, text: str) -> None:
    assert history.change_text(event) == text
    assert event.text == text  # the event's own sentence
    assert "[" not in text or getattr(event, "field", "") == "strange.path[x]"  # no internal paths


def _platoon() -> int:
    c = campaigns.create_campaign("Congo 1960", "atomic_africa")
    p = platoon_service.create_platoon(
        c.id, "1st", training=8, equipment=10, morale=8, armor=2, xp=6, leader_name="Lt. Okafor", leader_xp=5
    )
    attachment_service.add_attached(p.id, "MG Team Bravo", "team", training=8, equipment=10, morale=8, armor=2)
    unit = attached_id(p.id, "MG Team Bravo")
    attachment_service.add_equipment(p.id, "HMG", attached=unit, targets="dispersed", ap=2)
    attachment_service.edit_attached(unit, equipment=12)
    attachment_service.edit_equipment(equipment_id(p.id, "HMG", "MG Team Bravo"), ap=3)
    platoon_service.set_xp(p.id, 6, reason="good speech", who="leader")
    platoon_service.rename_platoon(p.id, "2nd Platoon")
    logged = battles.log_battle(p.id, wounds=0, leader_wounds=0, outcome="draw", dice=TypedDice([[12, 11]]))
    battle_edits.edit_battle_text(logged.id, outcome="victory", reason="")
    return p.id


SENTENCES = [
    "MG Team Bravo: Equipment d10 \u2192 d12",
    "Lt. Okafor: Leader XP 5 \u2192 6 (good speech)",
    "MG Team Bravo, HMG: AP 2 \u2192 3",
    "Platoon renamed 1st \u2192 2nd Platoon",
    "Battle 1: Outcome draw \u2192 victory",
]


def test_the_timeline_the_cli_history_and_the_printed_history_show_the_same_sentences() -> None:
    pid = _platoon()
    events = history.history(pid).events
    texts = [e.text for e in events]
    for sentence in SENTENCES:
        assert sentence in texts
    assert not any("attached[" in t or "equipment[" in t for t in texts)
    # the view's lazy events make the same text from the same function
    lazy = history.history_report(pid, lazy_text=True).history.events
    assert [e.text for e in lazy] == texts
    # the data fields stay as stored beside the text
    change = next(
        e for e in events if isinstance(e, history.AttributeEvent) and e.field == "attached[MG Team Bravo].equipment"
    )
    assert (change.old, change.new) == ("d10", "d12")
    # the printed history takes its sentences from the same events
    printed = [c.text for c in history_from_report(history.history_report(pid)).changes]
    assert set(printed) <= set(texts)
