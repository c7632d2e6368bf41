"""Campaign standings (RULES.md §6): the SQL of services.standings against a plain recomputation in
Python on generated campaigns, on both engines; ranking, head to head, disagreements, pilots."""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from typing import Any

import pytest

from campaign_app.rules.experience import level_name
from campaign_app.services import standings as st
from campaign_app.services.common import thresholds_of
from campaign_app.store.journal import operation
from campaign_app.store.models import Battle, Campaign, Platoon, SologearSheet, SologearTurn, name_key
from campaign_app.store.opened import Capability, can
from tests import overview_gen
from tests.ids import campaign_id as campaign_id_of

FLIP = {"victory": "defeat", "defeat": "victory", "draw": "draw", None: None}


def plain_standings(campaign_id: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The standings recomputed the plain way: every battle read and counted in Python."""
    camp = Campaign.get_by_id(campaign_id)
    platoons = list(Platoon.select().where(Platoon.campaign == camp))
    rows = []
    for p in platoons:
        bs = list(Battle.select().where(Battle.platoon == p))
        owner = {"owner": p.owner} if can(Capability.SEVERAL_LOGINS) else {}
        rows.append(
            {
                "platoon": p.name,
                **owner,
                "battles": len(bs),
                "victories": sum(b.outcome == "victory" for b in bs),
                "draws": sum(b.outcome == "draw" for b in bs),
                "defeats": sum(b.outcome == "defeat" for b in bs),
                "objective_xp": sum(b.objectives for b in bs),
                "wounds": sum(b.wounds for b in bs),
                "xp_lost": sum(b.xp_lost for b in bs),
                "leaders_lost": sum(b.leader_fate in ("casualty", "promoted") for b in bs),
                "xp": p.xp,
                "level": level_name(p.xp, thresholds_of(camp)),
                "_key": name_key(p.name),
            }
        )
    rows.sort(key=lambda r: (-r["victories"], -(r["victories"] - r["defeats"]), -r["xp"], r["_key"]))
    place = {r["platoon"]: i for i, r in enumerate(rows)}
    for r in rows:
        del r["_key"]
    ours = {p.id: p.name for p in platoons}
    logs: dict[tuple[int, int], list[Battle]] = defaultdict(list)
    for b in Battle.select().where(Battle.platoon.in_(list(ours))).order_by(Battle.number):
        if b.opponent_platoon_id in ours and b.opponent_platoon_id != b.platoon_id:
            logs[(b.platoon_id, b.opponent_platoon_id)].append(b)
    pairs = {}
    for me, them in list(logs):
        a, b = sorted((ours[me], ours[them]), key=lambda n: place[n])
        if (a, b) in pairs:
            continue
        a_id = me if ours[me] == a else them
        b_id = them if a_id == me else me
        a_logs, b_logs = logs.get((a_id, b_id), []), logs.get((b_id, a_id), [])
        rec = {"platoons": [a, b], "a_victories": 0, "b_victories": 0, "draws": 0, "disagreements": 0}
        days = sorted({x.date for x in a_logs} | {x.date for x in b_logs})
        for day in days:  # the same game: the same date (several on a day: by battle number)
            a_day = [x for x in a_logs if x.date == day]
            b_day = [x for x in b_logs if x.date == day]
            for i in range(max(len(a_day), len(b_day))):
                a_says = a_day[i].outcome if i < len(a_day) else None
                b_says = FLIP[b_day[i].outcome] if i < len(b_day) else None
                if a_says is not None and b_says is not None and a_says != b_says:
                    rec["disagreements"] += 1
                    continue
                result = a_says or b_says
                if result == "victory":
                    rec["a_victories"] += 1
                elif result == "defeat":
                    rec["b_victories"] += 1
                elif result == "draw":
                    rec["draws"] += 1
        pairs[(a, b)] = rec
    h2h = sorted(pairs.values(), key=lambda r: (place[r["platoons"][0]], place[r["platoons"][1]]))
    return rows, h2h


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_standings_equal_a_plain_recomputation_on_generated_campaigns(seed: int) -> None:
    other = overview_gen.atomic_africa(seed + 100, platoons=3, battles=10)
    stranger = Platoon.select().where(Platoon.campaign == other).first().id
    cid = overview_gen.atomic_africa(seed, platoons=2 + seed * 2, battles=40 * seed, stranger=stranger)
    got = st.standings(cid).to_dict()
    rows, h2h = plain_standings(cid)
    assert got["platoons"] == rows
    assert got["head_to_head"] == h2h
    assert sum(h["disagreements"] for h in h2h) > 0 or seed == 1  # the generator makes disputes
    # the stranger's campaign: its battles against this campaign are not head to head in either
    assert all(set(h["platoons"]) <= {r["platoon"] for r in rows} for h in got["head_to_head"])


def test_json_rows_have_exactly_the_named_fields() -> None:
    cid = overview_gen.atomic_africa(7, platoons=4, battles=30)
    data = st.standings(cid).to_dict()
    on_server = can(Capability.SEVERAL_LOGINS)
    expected = list(st.PLATOON_FIELDS) if on_server else [f for f in st.PLATOON_FIELDS if f != "owner"]
    assert [list(r) for r in data["platoons"]] == [expected] * 4
    assert data["head_to_head"] and all(list(h) == list(st.HEAD_TO_HEAD_FIELDS) for h in data["head_to_head"])


def _campaign(*names: str) -> dict[str, int]:
    with operation("test.setup", "test data"):
        c = Campaign.create(name="League", system="atomic_africa")
        return {
            n: Platoon.create(campaign=c, name=n, training=8, equipment=8, morale=8, armor=2, xp=xp).id
            for n, xp in zip(names, (5, 5, 9, 1), strict=False)
        }


def _battle(pid: int, number: int, outcome: str | None, opp: int | None = None, day: int = 1, **kw: Any) -> None:
    with operation("test.setup", "test battle"):
        Battle.create(
            platoon=pid,
            number=number,
            date=_dt.date(2025, 3, day),
            outcome=outcome,
            opponent_platoon=opp,
            platoon_xp_before=0,
            platoon_xp_after=0,
            **kw,
        )


def test_ranking_follows_the_rules_tie_breaks() -> None:
    ids = _campaign("Bravo", "Alpha", "Charlie", "Delta")
    # Bravo and Alpha: 1 victory, 0 defeats, same XP 5 -> name; Charlie: 1 victory 1 defeat; Delta: 0 victories
    _battle(ids["Bravo"], 1, "victory")
    _battle(ids["Alpha"], 1, "victory")
    _battle(ids["Charlie"], 1, "victory")
    _battle(ids["Charlie"], 2, "defeat")
    _battle(ids["Delta"], 1, "draw")
    got = [r.platoon for r in st.standings(campaign_id_of("League")).platoons]
    assert got == ["Alpha", "Bravo", "Charlie", "Delta"]
    _battle(ids["Delta"], 2, "victory")
    _battle(ids["Delta"], 3, "victory")  # Delta: 2 victories now leads
    assert [r.platoon for r in st.standings(campaign_id_of("League")).platoons][0] == "Delta"


def test_both_victories_are_shown_as_a_disagreement_never_resolved() -> None:
    ids = _campaign("Alpha", "Bravo")
    _battle(ids["Alpha"], 1, "victory", ids["Bravo"], day=1)
    _battle(ids["Bravo"], 1, "victory", ids["Alpha"], day=1)  # both claim it
    _battle(ids["Alpha"], 2, "draw", ids["Bravo"], day=5)
    _battle(ids["Bravo"], 2, "draw", ids["Alpha"], day=5)  # agree
    _battle(ids["Alpha"], 3, "defeat", ids["Bravo"], day=9)  # Bravo did not log this one
    (pair,) = st.standings(campaign_id_of("League")).head_to_head
    # Bravo ranks first (1 victory, no defeat; Alpha 1 victory, 1 defeat): A of the pair is Bravo
    assert pair.to_dict() == {
        "platoons": ["Bravo", "Alpha"],
        "a_victories": 1,
        "b_victories": 0,
        "draws": 1,
        "disagreements": 1,
    }
    (game,) = pair.games
    assert (game.a_battle, game.a_result, game.b_battle, game.b_result) == (1, "victory", 1, "victory")
    assert "disputed" in pair.text() and "Bravo battle 1: victory; Alpha battle 1: victory" in pair.text()
    # each side's own table still counts its own log
    rows = {r.platoon: r for r in st.standings(campaign_id_of("League")).platoons}
    assert rows["Alpha"].victories == 1 and rows["Bravo"].victories == 1


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_pilots_equal_a_plain_recomputation(seed: int) -> None:
    cid = overview_gen.sologear(seed, turns=seed % 5 + 1)
    (row,) = st.standings(cid).pilots
    sheet = SologearSheet.get(SologearSheet.campaign == cid)
    assert row.pilot == sheet.pilot
    assert row.turns == SologearTurn.select().where(SologearTurn.sheet == sheet).count()
    assert row.recognition == sheet.recognition
    assert row.noticed == (None if sheet.noticed is None else bool(sheet.noticed))
    assert row.result == {"rewards": "reward", "punishments": "punishment", None: None}[sheet.result_table]


def test_an_empty_campaign_has_empty_standings() -> None:
    with operation("test.setup", "test data"):
        Campaign.create(name="Empty", system="atomic_africa")
    s = st.standings(campaign_id_of("Empty"))
    assert s.platoons == () and s.head_to_head == () and s.pilots == ()
    assert "nothing to rank" in st.standings_text(s)
