from __future__ import annotations

import pytest

from campaign_app.services.common import NotFound, ServiceError, find_campaign, find_platoon
from campaign_app.store.journal import operation
from campaign_app.store.models import Campaign, Platoon


def _platoon(camp: Campaign, name: str) -> Platoon:
    with operation("test.setup", "test data"):
        made = Platoon.create(campaign=camp, name=name, training=8, equipment=8, morale=8, armor=1, xp=0)
    return made


def test_lookup_ignores_case_and_extra_spaces_but_prefers_exact():
    with operation("test.setup", "test data"):
        camp = Campaign.create(name="Congo 1960", system="atomic_africa")
    p = _platoon(camp, "2nd Platoon")
    assert find_platoon("2nd  platoon").id == p.id
    assert find_campaign("congo 1960").id == camp.id


def test_digit_names_are_names_not_ids():
    with operation("test.setup", "test data"):
        camp = Campaign.create(name="C", system="atomic_africa")
    alpha = _platoon(camp, "Alpha")
    one = _platoon(camp, "1")
    assert alpha.id == 1
    assert find_platoon("1").id == one.id
    assert find_platoon(1).id == alpha.id


def test_same_name_in_two_campaigns_must_be_qualified():
    with operation("test.setup", "test data"):
        a = Campaign.create(name="A", system="atomic_africa")
    with operation("test.setup", "test data"):
        b = Campaign.create(name="B", system="atomic_africa")
    _platoon(a, "Recon")
    pb = _platoon(b, "Recon")
    with pytest.raises(ServiceError, match="more than one"):
        find_platoon("Recon")
    assert find_platoon("Recon", "B").id == pb.id
    with pytest.raises(NotFound):
        find_platoon("Nope")
