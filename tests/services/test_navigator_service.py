"""The navigator's item look-ups the window uses (title, whether an item still exists, its campaign)."""

from __future__ import annotations

from campaign_app.services import navigator
from campaign_app.services.demo import DEMO_CAMPAIGN, DEMO_PLATOON, DEMO_SOLOGEAR, create_demo


def _ids() -> dict[str, int]:
    create_demo()
    found = {kind: navigator.find_item(kind, name)
             for kind, name in (("campaign", DEMO_CAMPAIGN), ("platoon", DEMO_PLATOON), ("sheet", DEMO_SOLOGEAR))}
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
    assert camp == {"id": ids["campaign"], "name": DEMO_CAMPAIGN, "system": "atomic_africa"}
    assert navigator.item_campaign("campaign", ids["campaign"]) == camp
    assert navigator.item_campaign("sheet", ids["sheet"])["system"] == "sologear"  # type: ignore[index]


def test_missing_items(fresh_db):
    ids = _ids()
    assert navigator.item_exists("platoon", ids["platoon"])
    assert not navigator.item_exists("platoon", 99_999)
    assert not navigator.item_exists("battle", ids["platoon"])
    assert navigator.item_title("platoon", 99_999) == []
    assert navigator.item_title("battle", 1) == []
    assert navigator.item_campaign("sheet", 99_999) is None
    assert navigator.item_campaign("battle", 1) is None
