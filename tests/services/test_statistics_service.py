"""Statistics across campaigns: the SQL of services.statistics against a plain recomputation on generated
campaigns, on both engines; the luck view's exact percentiles and expected outcome counts."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from campaign_app.rules.dice import SeededDice, TypedDice
from campaign_app.rules.odds import leader_odds
from campaign_app.services import battles, statistics
from campaign_app.store.models import Battle, Campaign, Platoon
from campaign_app.store.opened import Capability, can
from tests import overview_gen
from tests.ids import campaign_id as campaign_id_of


def _plain(campaign_id: int | None) -> dict[tuple[str, str], dict[str, object]]:
    out = {}
    query = Platoon.select().join(Campaign).where(Campaign.system == "atomic_africa")
    if campaign_id is not None:
        query = query.where(Platoon.campaign == campaign_id)
    for p in query:
        bs = list(Battle.select().where(Battle.platoon == p))
        n = len(bs)
        out[(p.campaign.name, p.name)] = {
            "battles": n,
            "victories": sum(b.outcome == "victory" for b in bs),
            "draws": sum(b.outcome == "draw" for b in bs),
            "defeats": sum(b.outcome == "defeat" for b in bs),
            "xp_lost": sum(b.xp_lost for b in bs),
            "leaders_lost": sum(b.leader_fate in ("casualty", "promoted") for b in bs),
            "win_rate": None if not n else round(sum(b.outcome == "victory" for b in bs) / n, 4),
            "average_wounds": None if not n else round(sum(b.wounds for b in bs) / n, 4),
        }
    return out


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_platoon_statistics_equal_a_plain_recomputation_across_campaigns(seed: int) -> None:
    first = overview_gen.atomic_africa(seed, platoons=4, battles=40)
    overview_gen.atomic_africa(seed + 50, platoons=3, battles=25)
    overview_gen.sologear(seed)  # not a platoon campaign: not counted
    for scope in (None, first):
        got = statistics.statistics(scope)
        mine = {
            (s.campaign, s.platoon): {k: v for k, v in s.to_dict().items() if k not in ("campaign", "platoon")}
            for s in got.platoons
        }
        assert mine == _plain(scope)
    assert can(Capability.SEVERAL_LOGINS) == bool(statistics.statistics().players)


def test_players_on_a_server_add_up_their_platoons() -> None:
    overview_gen.atomic_africa(31, platoons=6, battles=60)
    s = statistics.statistics()
    if not can(Capability.SEVERAL_LOGINS):
        assert s.players == ()
        return
    by_owner: dict[str, list[statistics.PlatoonStats]] = {}
    for p in s.platoons:
        by_owner.setdefault(p.owner, []).append(p)
    assert {pl.player: (pl.platoons, pl.battles, pl.victories, pl.xp_lost) for pl in s.players} == {
        owner: (len(ps), sum(p.battles for p in ps), sum(p.victories for p in ps), sum(p.xp_lost for p in ps))
        for owner, ps in by_owner.items()
    }


def test_percentiles_are_exact_and_average_to_fifty_over_every_outcome() -> None:
    # every outcome of 2d6, each once: the mean mid-percentile is exactly one half
    ps = [statistics.percentile(2, 6, a + b) for a, b in itertools.product(range(1, 7), repeat=2)]
    assert sum(ps) / len(ps) == Fraction(1, 2)
    assert statistics.percentile(1, 8, 1) == Fraction(1, 16) and statistics.percentile(2, 12, 24) == Fraction(287, 288)
    with pytest.raises(ValueError):
        statistics.percentile(2, 6, 13)


def test_luck_counts_each_source_and_expects_the_exact_odds(congo_platoon) -> None:
    pid = congo_platoon()
    # typed-in dice: recovery 1d8 = 8 (all 3 counters removed), leader's fate 2d12 = 12 + 12 (stays)
    battles.log_battle(pid, wounds=3, leader_wounds=1, dice=TypedDice([[8], [12, 12]]))
    battles.log_battle(pid, wounds=0, leader_wounds=0, dice=SeededDice(3))
    s = statistics.statistics(campaign_id_of("Congo 1960"))
    typed = {r.purpose: r for r in s.luck if r.source == "entered"}
    assert typed["recovery"].rolls == 1 and typed["recovery"].mean_percentile == 93.75  # 1d8 = 8: 7/8 + 1/16
    assert typed["leader_fate"].mean_percentile == round(float(Fraction(287, 288)) * 100, 2)
    assert typed["all"].rolls == 2
    b1 = Battle.get(Battle.platoon == pid, Battle.number == 1)
    expected = leader_odds(1, b1.leader_xp_after)
    fates = {o.outcome: o for o in s.outcomes if o.source == "entered" and o.roll == "leader's fate"}
    assert fates["stays"].observed == 1 and fates["casualty"].observed == 0
    assert fates["casualty"].expected == round(float(expected["casualty"]), 3)
    assert "percentile" in statistics.luck_words(typed["all"])
    assert "Statistics of Congo 1960" in statistics.statistics_text(s)
