"""The platoon history report PDF: summary, XP chart, battles table over pages, leaders' roll."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from reportlab.graphics.shapes import Drawing, Line, Polygon, PolyLine
from sheet_pdf_checks import A4, LETTER, assert_fonts_embedded, assert_paper, page_texts, reader, text

from campaign_app.printing.history_report import (
    BattleRow,
    HistoryData,
    LeaderRow,
    Summary,
    XpPoint,
    build_history_report,
    xp_chart,
)
from campaign_app.rules.dice import SeededDice
from campaign_app.rules.experience import Thresholds
from campaign_app.services import battle_edits
from campaign_app.services.battles import log_battle
from campaign_app.services.campaigns import create_campaign
from campaign_app.services.history import AttributeEvent, BattleEvent, XpEvent, history_report
from campaign_app.services.platoons import create_platoon
from campaign_app.services.printing import changes_by_hand, history_from_report
from tests.ids import attached_id, campaign_id, platoon_id

DAY = datetime.date(2024, 5, 1)
PLATOON = "1st Platoon"


def _platoon() -> None:
    create_campaign("Katanga 1961", "atomic_africa")
    create_platoon(
        campaign_id("Katanga 1961"),
        PLATOON,
        training=8,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader_name="Lt. Okafor",
        leader_xp=2,
    )


def _logged(count: int) -> HistoryData:
    _platoon()
    for n in range(1, count + 1):
        log_battle(
            platoon_id(PLATOON),
            wounds=n % 4 + 1,
            leader_wounds=n % 2,
            objectives=n % 3,
            outcome=("victory", "defeat", "draw")[n % 3],
            scenario=f"Bridge {n}",
            opponent="Gendarmes",
            date=datetime.date(2024, 2, n),
            dice=SeededDice(n * 13),
            replacement_name=f"Lt. New {n}",
        )
    return history_from_report(history_report(platoon_id(PLATOON)))


def test_report_from_the_battle_services(fresh_db) -> None:
    data = _logged(4)
    assert [b.number for b in data.battles] == [1, 2, 3, 4]
    assert data.summary.battles == 4 and data.xp_points[0].battle == 0
    pdf = build_history_report(data, paper="a4", printed_on=DAY)
    assert_paper(pdf, A4)
    assert_fonts_embedded(pdf)
    t = text(pdf)
    for expected in (
        PLATOON,
        "Katanga 1961",
        "PLATOON HISTORY",
        "EXPERIENCE",
        "BATTLES",
        "LEADERS' ROLL",
        "Bridge 1 vs Gendarmes",
        "Bridge 4 vs Gendarmes",
        "Lt. Okafor",
        "Printed 2024-05-01",
        "2024-02-01 – 2024-02-04",
    ):
        assert expected in t, expected
    first = data.battles[0]
    assert f"{first.xp_before}→{first.xp_after}" in t
    assert f"{data.summary.victories} won · {data.summary.defeats} lost · {data.summary.draws} drawn" in t


def test_a_platoon_without_battles(fresh_db) -> None:
    _platoon()
    data = history_from_report(history_report(platoon_id(PLATOON)))
    pdf = build_history_report(data, paper="letter", printed_on=DAY)
    assert_paper(pdf, LETTER)
    assert len(reader(pdf).pages) == 1
    t = text(pdf)
    assert "No battles logged yet." in t and "no battles yet" in t and "Lt. Okafor (now)" in t


def _many(count: int) -> HistoryData:
    battles = tuple(
        BattleRow(
            n,
            f"2024-01-{n % 28 + 1:02d}",
            f"Scenario {n}",
            "Rebels",
            "victory",
            1,
            3,
            1,
            min(n - 1, 32),
            min(n, 32),
            0,
            "Lt. A",
            n - 1,
            n,
            "stays",
        )
        for n in range(1, count + 1)
    )
    points = (XpPoint(0, 0, 0), *(XpPoint(n, min(n, 32), min(n, 32)) for n in range(1, count + 1)))
    return HistoryData(
        platoon="Long Platoon",
        campaign="Long War",
        summary=Summary(battles=count, xp=32),
        battles=battles,
        leaders=(LeaderRow("Lt. A", "Lieutenant", "still in command", current=True),),
        xp_points=points,
    )


def test_a_long_history_runs_over_pages_with_the_header_repeated() -> None:
    pdf = build_history_report(_many(80), paper="a4", printed_on=DAY)
    pages = page_texts(pdf)
    assert len(pages) >= 3
    battle_pages = [p for p in pages if "Scenario" in p and "Rebels" in p]
    assert len(battle_pages) >= 2
    assert all("Scenario / opponent" in p for p in battle_pages)
    assert "Scenario 80 vs Rebels" in battle_pages[-1] and "LEADERS' ROLL" in pages[-1]


def test_identical_input_gives_identical_bytes() -> None:
    data = _many(5)
    first = build_history_report(data, paper="a4", printed_on=DAY)
    assert first == build_history_report(data, paper="a4", printed_on=DAY)
    assert first != build_history_report(_many(6), paper="a4", printed_on=DAY)


def test_xp_chart_lines_bands_and_leader_marks() -> None:
    points = (
        XpPoint(0, 2, 1),
        XpPoint(1, 4, 3),
        XpPoint(2, 5, 2, "casualty", 4),
        XpPoint(3, 7, 4, "promoted", 9),
        XpPoint(4, 8, 5),
    )
    chart = xp_chart(points, Thresholds(), 500)
    assert isinstance(chart, Drawing) and chart.width == 500
    lines = [n for n in chart.contents if isinstance(n, PolyLine)]
    # the platoon's line over all five points; the leader's in three pieces (two changes of leader)
    # 0-1-2 (ends at the old leader's 4 XP), 2-3 (ends at 9 XP), 3-4
    assert sorted(len(n.points) // 2 for n in lines) == [2, 2, 3, 5]
    crosses = [n for n in chart.contents if isinstance(n, Line) and n.strokeWidth == 1.4]
    assert len(crosses) == 2  # the × of the casualty
    assert len([n for n in chart.contents if isinstance(n, Polygon)]) == 1  # the ▲ of the promotion
    labels = {n.text for n in chart.contents if hasattr(n, "text")}
    assert {"G 1", "R 4", "V 9", "L 16", "start", "4"} <= labels
    empty = xp_chart((), Thresholds(2, 6, 12, 20), 300)
    assert "no battles yet" in {n.text for n in empty.contents if hasattr(n, "text")}


def test_report_tells_the_story_notes_rolls_wounds_and_fiction_dates(fresh_db) -> None:
    from pdfgeom import smallest_font

    from campaign_app.printing.history_report import wounds_chart
    from campaign_app.services.leaders import replace_leader

    _platoon()
    log_battle(
        platoon_id(PLATOON),
        wounds=3,
        leader_wounds=0,
        outcome="victory",
        scenario="Bridge",
        opponent="Gendarmes",
        date=datetime.date(1961, 2, 1),
        dice=SeededDice(3),
        notes="Held the bridge until dusk.",
    )
    log_battle(
        platoon_id(PLATOON),
        wounds=2,
        leader_wounds=2,
        outcome="defeat",
        scenario="Ridge",
        date=datetime.date(1961, 3, 5),
        dice=SeededDice(8),
        replacement_name="Lt. Bello",
    )
    replace_leader(platoon_id(PLATOON), "Lt. Hand", xp=3)  # between battles, by hand
    data = history_from_report(history_report(platoon_id(PLATOON)))
    assert [ld.joined for ld in data.leaders][0] == "at the start"  # joined before the first battle
    assert data.leaders[-1].joined.startswith("after battle 2 (1961-03-05)")
    assert "2026" not in " ".join(ld.joined + ld.left for ld in data.leaders)
    assert [w.wounds for w in data.wounds] == [3, 2]
    pdf = build_history_report(data, paper="letter", printed_on=DAY)
    t = text(pdf)
    assert "Held the bridge until dusk." in t  # the battle's notes under it
    assert "ROLL APPENDIX" in t
    for battle in data.battles:
        for r in battle.rolls:  # every roll: faces, rule and result
            assert " ".join(str(f) for f in r.faces) in t and r.outcome.split(",")[0] in t
    assert "wound counters" in t and "at the start" in t
    assert smallest_font(pdf) >= 7.0
    # the wounds chart: one bar per battle, whole-number ticks only
    chart = wounds_chart(data.wounds, 200)
    labels = [s.text for s in chart.contents if hasattr(s, "text")]
    assert "0" in labels and "3" in labels and not any("." in x for x in labels)


def test_changes_made_by_hand_are_printed_as_sentences(monkeypatch: pytest.MonkeyPatch, fresh_db) -> None:
    from campaign_app.services import battles
    from campaign_app.services.attachments import add_attached, edit_attached
    from campaign_app.services.platoons import set_xp

    clock = {"t": datetime.datetime.now().replace(microsecond=0) - datetime.timedelta(days=1)}

    def tick() -> datetime.datetime:  # the battles were logged yesterday, a minute apart
        clock["t"] += datetime.timedelta(minutes=1)
        return clock["t"]

    monkeypatch.setattr(battles, "now", tick)
    monkeypatch.setattr(battle_edits, "now", tick)  # battle edits are stamped by the same clock
    data = _logged(2)
    assert data.changes == ()  # battles alone: nothing was changed by hand
    add_attached(platoon_id(PLATOON), "MG Team Bravo", "team", training=8, equipment=10, morale=8, armor=2)
    edit_attached(attached_id(platoon_id(PLATOON), "MG Team Bravo"), equipment=12, reason="new kit")
    set_xp(platoon_id(PLATOON), 9, reason="campaign bonus")
    battle_edits.edit_battle_text(battle_edits.find_battle(platoon_id(PLATOON), 1).id, outcome="victory", reason="")
    data = history_from_report(history_report(platoon_id(PLATOON)))
    texts = [c.text for c in data.changes]
    assert texts[0] == "Battle 1: Outcome defeat → victory"  # oldest first (the others: the same second)
    assert sorted(texts[1:]) == [
        "Attached unit added: MG Team Bravo – team d8/d10/d8 Armor 2",
        "MG Team Bravo: Equipment d10 → d12 (new kit)",
        "Platoon XP 11 → 9 (campaign bonus)",
    ]
    pdf = build_history_report(data, paper="a4", printed_on=DAY)
    t = " ".join(text(pdf).split())
    assert "CHANGES BY HAND" in t and "since the first battle" in t
    for change in data.changes:
        assert change.text in t, change.text
    assert "attached[" not in t and "equipment[" not in t


def test_changes_before_the_first_battle_set_the_roster_up_and_are_not_printed() -> None:
    def where(battle_id: int | None = None) -> dict[str, Any]:
        return {
            "id": 1,
            "at": "2026-01-01 10:00:00",
            "date": "2026-01-01",
            "battle_id": battle_id,
            "battle_number": battle_id,
        }

    def xp(after: int, delta: int, reason: str, battle_id: int | None = None) -> XpEvent:
        return XpEvent(
            **where(battle_id), who="platoon", name="1st", leader_id=None, delta=delta, xp_after=after, reason=reason
        )

    battle = BattleEvent(
        **where(1),
        outcome=None,
        scenario="",
        opponent="",
        wounds=0,
        leader_wounds=0,
        xp_lost=0,
        leader_fate=None,
        xp_before=6,
        xp_after=7,
        leader=None,
        replacement=None,
    )
    events = [
        AttributeEvent(**where(), field="armor", old="2", new="3", reason=""),
        xp(9, 2, "bonus"),
        xp(7, 1, "battle 1: award", battle_id=1),
        battle,
        AttributeEvent(**where(), field="attached[Mortars]", old=None, new="light fire support", reason=""),
    ]
    assert [c.text for c in changes_by_hand(events)] == ["Platoon XP 7 → 9 (bonus)", "Platoon: Armor 2 → 3"]
    assert [c.text for c in changes_by_hand(events[-1:])] == ["Attached unit added: Mortars – light fire support"]
