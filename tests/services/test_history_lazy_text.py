"""The history read for the view: text made on demand is the same text as the eager read, and the
view's battles carry every key of a roll; the order of the timeline is unchanged."""

from __future__ import annotations

from campaign_app.rules.dice import SeededDice, TypedDice
from campaign_app.services import battle_edits, battles, history
from campaign_app.services import platoons as platoon_service
from campaign_app.store.journal import operation
from campaign_app.store.models import Campaign, Leader, Platoon


def _platoon() -> int:
    with operation("test.setup", "test data"):
        c = Campaign.create(name="Congo 1960", system="atomic_africa")
    with operation("test.setup", "test data"):
        p = Platoon.create(campaign=c, name="2nd Platoon", training=10, equipment=10, morale=8, armor=2, xp=6)
    with operation("test.setup", "test data"):
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
    for i in range(6):
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
    return p.id


def test_lazy_text_matches_the_eager_text_and_order() -> None:
    pid = _platoon()
    eager = history.history(pid)
    lazy = history.history_report(pid, lazy_text=True).history
    assert isinstance(lazy.events, history.Events) and isinstance(lazy.battles, history.Battles)
    assert isinstance(eager.events, tuple) and isinstance(eager.battles, tuple)
    assert [(e.kind, e.id) for e in lazy.events] == [(e.kind, e.id) for e in eager.events]
    assert all("text" not in vars(e) for e in lazy.events)  # not made yet
    assert [e.text for e in lazy.events] == [e.text for e in eager.events]
    assert all("text" in vars(e) for e in lazy.events)  # made once, kept
    assert [history.event_text(e) for e in lazy.events] == [e.text for e in eager.events]
    kinds = {e.kind for e in eager.events}
    assert kinds == {"battle", "roll", "xp", "leader", "attribute"}
    assert lazy.to_dict() == eager.to_dict()


def test_view_battles_are_the_same_as_the_eager_ones() -> None:
    pid = _platoon()
    eager = history.history(pid).battles
    lazy = history.history_report(pid, lazy_text=True).history.battles
    assert [b.id for b in lazy] == [b.id for b in eager]
    assert list(lazy) == list(eager)
    assert all(b.rolls for b in eager)


def test_the_view_reads_kinds_and_battles_without_making_events(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pid = _platoon()
    eager = history.history(pid)
    report = history.history_report(pid, lazy_text=True)
    made: list[int] = []
    original = history.Timeline._make  # counted where events are made: a reader sees only the result

    def counting(self, code, row):  # type: ignore[no-untyped-def]
        made.append(code)
        return original(self, code, row)

    monkeypatch.setattr(history.Timeline, "_make", counting)
    events = report.history.events
    assert isinstance(events, history.Events)
    assert len(events) == len(eager.events)
    assert list(events.kinds) == [e.kind for e in eager.events]
    assert list(events.battle_ids) == [e.battle_id for e in eager.events]
    assert made == []  # ordering, counting, kinds and battle ids: no event made yet
    assert events[3] is events[3] and events[-1].id == eager.events[-1].id
    assert len(made) == 2  # each made once, when asked for
    battles = report.history.battles
    assert isinstance(battles, history.Battles)
    newest = eager.battles[0]
    found = battles.by_id(newest.id)
    assert found is not None and found.number == newest.number and battles.by_id(-1) is None
    # the other parts are made when first asked for, from the same read
    assert "summary" not in vars(report) and "leaders" not in vars(report)
    assert report.summary.battles == len(eager.battles)
    assert report.leaders == history.leaders_roll(pid)
    assert report.leaders is report.leaders  # made once
