"""The navigator's item look-ups the window uses (title, whether an item still exists, its campaign)."""

from __future__ import annotations

from campaign_app.services import navigator
from campaign_app.services.demo import DEMO_CAMPAIGN, DEMO_PLATOON, DEMO_SOLOGEAR, create_demo
from campaign_app.store.models import Campaign


def _ids() -> dict[str, int]:
    create_demo()
    found = {
        kind: navigator.find_item(kind, name)
        for kind, name in (("campaign", DEMO_CAMPAIGN), ("platoon", DEMO_PLATOON), ("sheet", DEMO_SOLOGEAR))
    }
    assert all(found.values()), found
    return found  # type: ignore[return-value]


def test_find_item_title_and_campaign_of_each_kind(fresh_db):
    ids = _ids()
    assert navigator.find_item("sheet", "Janne") == ids["sheet"]  # by the pilot too
    assert navigator.find_item("platoon", "No such") is None
    assert navigator.find_item("battle", DEMO_PLATOON) is None
    assert navigator.item_title("campaign", ids["campaign"]) == [DEMO_CAMPAIGN]
    assert navigator.item_title("platoon", ids["platoon"]) == [DEMO_PLATOON, DEMO_CAMPAIGN]
    assert navigator.item_title("sheet", ids["sheet"]) == ["Janne (pilot)", DEMO_SOLOGEAR]
    camp = navigator.item_campaign("platoon", ids["platoon"])
    assert camp == navigator.CampaignRef(id=ids["campaign"], name=DEMO_CAMPAIGN, system="atomic_africa")
    assert navigator.item_campaign("campaign", ids["campaign"]) == camp
    assert navigator.item_campaign("sheet", ids["sheet"]) == navigator.CampaignRef(
        id=Campaign.get(Campaign.name == DEMO_SOLOGEAR).id, name=DEMO_SOLOGEAR, system="sologear"
    )


def test_missing_items(fresh_db):
    ids = _ids()
    assert navigator.item_exists("platoon", ids["platoon"])
    assert not navigator.item_exists("platoon", 99_999)
    assert not navigator.item_exists("battle", ids["platoon"])
    assert navigator.item_title("platoon", 99_999) == []
    assert navigator.item_title("battle", 1) == []
    assert navigator.item_campaign("sheet", 99_999) is None
    assert navigator.item_campaign("battle", 1) is None


def test_the_tree_lists_campaigns_with_their_platoons_and_pilots(fresh_db):
    ids = _ids()
    tree = navigator.navigator_tree()
    assert [c.name for c in tree] == sorted(c.name for c in tree)
    congo = next(c for c in tree if c.id == ids["campaign"])
    platoon = next(p for p in congo.children if p.id == ids["platoon"])
    assert isinstance(platoon, navigator.PlatoonNode) and platoon.kind == "platoon"
    assert (platoon.name, platoon.leader) == (DEMO_PLATOON, "Lt. Okafor")
    hill = next(c for c in tree if c.name == DEMO_SOLOGEAR)
    assert [(p.kind, p.name) for p in hill.children] == [("sheet", "Janne")]
    # the JSON shape the tree always had
    assert hill.to_dict() == {
        "kind": "campaign",
        "id": hill.id,
        "name": DEMO_SOLOGEAR,
        "system": "sologear",
        "archived": False,
        "children": [{"kind": "sheet", "id": ids["sheet"], "name": "Janne", "status": hill.children[0].status}],
    }
