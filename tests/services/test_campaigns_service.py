"""Campaign services: create/rename/house rules/archive/delete, refusals, undo/redo via change sets."""

from __future__ import annotations

import pytest

from campaign_app.rules.experience import Thresholds
from campaign_app.services import attachments as attachment_service
from campaign_app.services import campaigns as cs
from campaign_app.services import platoons as platoon_service
from campaign_app.services.common import NotFound, ServiceError
from campaign_app.store import journal_replay
from campaign_app.store.models import Campaign, Leader, Platoon, Roll
from tests.ids import campaign_id


def test_create_defaults_and_house_rules() -> None:
    edit = cs.create_campaign("Congo 1960", "atomic-africa")
    c = Campaign.get_by_id(edit.id)
    assert (c.system, c.period, c.objective_xp_to, c.archived) == ("atomic_africa", None, "both", False)
    shown = cs.show_campaign(campaign_id("Congo 1960"))
    assert shown.thresholds == (1, 4, 9, 16)
    assert shown.die == "d10"
    rules = {r.key: r for r in shown.house_rules}
    assert rules["thresholds"].default == (1, 4, 9, 16) and rules["thresholds"].is_default
    assert rules["period"].value is None and rules["period"].is_default
    assert rules["objective_xp_to"].value == "both"
    assert shown.platoons == ()


def test_create_with_house_rules() -> None:
    cs.create_campaign(
        "Katanga",
        "atomic_africa",
        period=2,
        thresholds=Thresholds(2, 5, 10, 20),
        objective_xp_to="platoon",
        replacement_dice=1,
    )
    shown = cs.show_campaign(campaign_id("Katanga"))
    assert shown.period == 2 and shown.die == "d6"
    assert shown.thresholds == (2, 5, 10, 20)
    assert shown.objective_xp_to == "platoon"
    assert shown.replacement_dice == 1
    assert not any(r.is_default for r in shown.house_rules)
    rule = {r.key: r for r in shown.house_rules}["replacement_dice"]
    assert rule.text == "1d6 \u2212 1" and rule.default == 2
    cs.set_campaign(campaign_id("Katanga"), replacement_dice=2)
    assert cs.show_campaign(campaign_id("Katanga")).replacement_dice == 2
    with pytest.raises(cs.ServiceError, match="2 dice .the lower counts. or 1 die"):
        cs.set_campaign(campaign_id("Katanga"), replacement_dice=3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": ""}, "must not be empty"),
        ({"name": "X", "system": "warhammer"}, "unknown game system"),
        ({"name": "X", "period": 6}, "period must be 1 to 5"),
        ({"name": "X", "period": "soon"}, "period must be 1 to 5"),
        ({"name": "X", "thresholds": "1,4,4,16"}, "rise strictly"),
        ({"name": "X", "thresholds": "1,4,9,33"}, "within 1..32"),
        ({"name": "X", "objective_xp_to": "leader"}, "objective XP"),
    ],
)
def test_create_refuses(kwargs: dict, message: str) -> None:
    with pytest.raises(ServiceError, match=message):
        if "thresholds" in kwargs:  # read as the CLI reads --thresholds; the rules refuse bad ones
            kwargs = {**kwargs, "thresholds": Thresholds.parse(kwargs["thresholds"])}
        cs.create_campaign(**kwargs)
    assert Campaign.select().count() == 0


def test_duplicate_name_refused_case_insensitively() -> None:
    cs.create_campaign("Congo 1960")
    with pytest.raises(ServiceError, match="already exists"):
        cs.create_campaign("congo 1960")
    cs.create_campaign("Other")
    with pytest.raises(ServiceError, match="already exists"):
        cs.rename_campaign(campaign_id("Other"), "CONGO 1960")


def test_rename_and_undo_redo() -> None:
    edit = cs.create_campaign("Congo 1960")
    ren = cs.rename_campaign(campaign_id("Congo 1960"), "Congo 1961")
    assert ren.to_dict() == {"id": edit.id, "old": "Congo 1960", "new": "Congo 1961"}
    journal_replay.undo(ren.operation_id)
    assert Campaign.get_by_id(edit.id).name == "Congo 1960"
    journal_replay.redo(ren.operation_id)
    assert Campaign.get_by_id(edit.id).name == "Congo 1961"


def test_set_house_rules_and_clear_period() -> None:
    cs.create_campaign("C", period=3)
    edit = cs.set_campaign(campaign_id("C"), period=None, thresholds=Thresholds(2, 4, 9, 16), objective_xp_to="platoon")
    c = Campaign.get(Campaign.name == "C")
    assert (c.period, c.threshold_green, c.objective_xp_to) == (None, 2, "platoon")
    assert edit.to_dict()["old"]["period"] == 3
    journal_replay.undo(edit.operation_id)
    c = Campaign.get(Campaign.name == "C")
    assert (c.period, c.threshold_green, c.objective_xp_to) == (3, 1, "both")
    with pytest.raises(ServiceError, match="rise strictly"):
        cs.set_campaign(campaign_id("C"), thresholds=Thresholds(9, 4, 1, 16))
    assert not cs.set_campaign(campaign_id("C"), period=3).changed


def test_thresholds_change_levels_of_platoons() -> None:
    cs.create_campaign("C")
    p = platoon_service.create_platoon(campaign_id("C"), "P", training=8, equipment=8, morale=8, armor=1, xp=6).id
    assert platoon_service.platoon_detail(p).level == "Regular"
    cs.set_campaign(campaign_id("C"), thresholds=Thresholds(1, 7, 9, 16))
    assert platoon_service.platoon_detail(p).level == "Green"


def test_archive_unarchive_and_list() -> None:
    cs.create_campaign("A")
    cs.create_campaign("B", "sologear")
    edit = cs.archive_campaign(campaign_id("A"))
    assert edit.to_dict() == {"id": edit.id, "old": False, "new": True}
    assert [c.name for c in cs.list_campaigns(include_archived=False)] == ["B"]
    assert [c.name for c in cs.list_campaigns()] == ["A", "B"]
    cs.unarchive_campaign(campaign_id("A"))
    assert [c.name for c in cs.list_campaigns(include_archived=False)] == ["A", "B"]
    assert cs.list_campaigns()[1].system_label == "Sologear"


def test_unknown_campaign() -> None:
    with pytest.raises(NotFound, match="no campaign named 'Nope'"):
        cs.rename_campaign(campaign_id("Nope"), "X")


def test_delete_campaign_and_put_it_back() -> None:
    from campaign_app.rules.dice import TypedDice

    cid = cs.create_campaign("C", period=4).id
    gen = platoon_service.create_platoon(
        campaign_id("C"),
        "P1",
        training=8,
        equipment=8,
        morale=8,
        armor=1,
        leader_name="Lt. A",
        dice=TypedDice([[3, 8]]),
    )
    attachment_service.add_attached(gen.id, "Mortar", "fire_support", support="light")
    platoon_service.create_platoon(campaign_id("C"), "P2", training=6, equipment=6, morale=6, armor=2)
    before = platoon_service.platoon_detail(gen.id)
    edit = cs.delete_campaign(campaign_id("C"))
    assert edit.to_dict()["platoons"] == 2
    assert Campaign.select().count() == 0 and Platoon.select().count() == 0 and Roll.select().count() == 0
    journal_replay.undo(edit.operation_id)
    assert Campaign.get_by_id(cid).name == "C"
    assert platoon_service.platoon_detail(gen.id) == before
    assert Leader.select().count() == 1 and Roll.select().count() == 1
    journal_replay.redo(edit.operation_id)
    assert Campaign.select().count() == 0


def test_create_undo_refuses_when_campaign_gained_platoons() -> None:
    edit = cs.create_campaign("C")
    made = platoon_service.create_platoon(campaign_id("C"), "P", training=8, equipment=8, morale=8, armor=1)
    with pytest.raises(
        ServiceError,
        match=f"would also remove platoon {made.id} .from “Create platoon P”, operation {made.operation_id}.",
    ):
        journal_replay.undo(edit.operation_id)
    assert Platoon.select().count() == 1


def test_campaign_results_by_system_and_their_json_shape() -> None:
    """An Atomic Africa campaign counts its platoons (and lists them when shown), a Sologear campaign its pilot
    sheets; ``to_dict()`` has only the keys of its system, as ``campaign list/show --json`` always printed."""
    cs.create_campaign("Congo 1960", "atomic-africa")
    cs.create_campaign("Gears", "sologear")
    platoon_service.create_platoon(campaign_id("Congo 1960"), "P", training=8, equipment=8, morale=8, armor=1)
    aa, sg = cs.list_campaigns()
    assert isinstance(aa, cs.AtomicAfricaCampaign) and not isinstance(aa, cs.AtomicAfricaCampaignDetail)
    assert isinstance(sg, cs.SologearCampaign) and (aa.platoon_count, sg.sheet_count, sg.sheet_ids) == (1, 0, ())
    common = [
        "id",
        "name",
        "system",
        "system_label",
        "period",
        "die",
        "thresholds",
        "objective_xp_to",
        "replacement_dice",
        "archived",
        "notes",
        "created_at",
        "house_rules",
    ]
    assert list(aa.to_dict()) == [*common, "platoon_count"]
    assert list(sg.to_dict()) == [*common, "sheet_count", "sheet_ids"]
    shown = cs.show_campaign(campaign_id("Congo 1960"))
    assert isinstance(shown, cs.AtomicAfricaCampaignDetail) and [p.name for p in shown.platoons] == ["P"]
    assert list(shown.to_dict()) == [*common, "platoon_count", "platoons"]
    assert cs.show_campaign(campaign_id("Gears")) == sg
    rules = shown.to_dict()["house_rules"]
    # the default in words only where the number alone would not say it
    assert [("default_text" in r) for r in rules] == [False, False, False, True]
    assert list(rules[3]) == ["key", "label", "value", "default", "default_text", "text", "is_default"]
    assert rules[1]["value"] == [1, 4, 9, 16] and isinstance(shown.house_rules[1].value, tuple)
