from __future__ import annotations

from campaign_app.services.demo import DEMO_CAMPAIGN, DEMO_PLATOON, DEMO_SOLOGEAR, create_demo
from campaign_app.services.platoons import platoon_detail
from campaign_app.services.sologear_sheet import sheet_data
from campaign_app.store import check_database
from campaign_app.store.models import AttachedUnit, Battle, Campaign, Roll
from tests.ids import platoon_id, sheet_id


def test_demo_is_the_rules_example_platoon_with_battles(fresh_db):
    result = create_demo()
    assert result.open is not None and result.open.kind == "platoon"
    d = platoon_detail(platoon_id(DEMO_PLATOON))
    assert (d.training, d.equipment, d.morale, d.armor) == ("d10", "d10", "d8", 2)
    assert d.xp == 6 and d.level == "Regular"
    assert d.leader is not None and d.leader.xp == 2 and d.leader.level == "Green"
    assert d.cards == 10
    assert AttachedUnit.select().count() == 1
    assert Battle.select().count() == 3
    assert Roll.select().where(Roll.battle.is_null(False)).count() >= 7
    assert check_database(fresh_db).ok


def test_demo_sologear_is_the_worked_example(fresh_db):
    create_demo()
    data = sheet_data(sheet_id(DEMO_SOLOGEAR))
    assert (data.totals.player, data.totals.enemy) == (700, 1350)
    assert data.odds is not None and data.odds.band == "Equal"
    assert data.length == 5 and data.turns_played == 1 and data.turns[0].result.glory_collected == 3


def test_demo_twice_changes_nothing(fresh_db):
    create_demo()
    counts = [Campaign.select().count(), Battle.select().count(), Roll.select().count()]
    again = create_demo()
    assert [Campaign.select().count(), Battle.select().count(), Roll.select().count()] == counts
    assert all("already exists" in m for m in again.messages)
    assert DEMO_CAMPAIGN in again.campaigns and again.open is None
