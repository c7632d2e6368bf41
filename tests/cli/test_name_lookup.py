"""The CLI's argument layer turns names into row ids (the services take ids only)."""

from __future__ import annotations

import pytest

from campaign_app.commands import lookup
from campaign_app.errors import NotFound, Refused
from campaign_app.store.journal import operation
from campaign_app.store.models import Campaign, Platoon


@pytest.fixture(autouse=True)
def _database(fresh_db: object) -> None:
    """A fresh database for each test here (on each engine)."""


def _campaign(name: str) -> Campaign:
    with operation("test.setup", "test data"):
        made = Campaign.create(name=name, system="atomic_africa")
    return made


def _platoon(camp: Campaign, name: str) -> Platoon:
    with operation("test.setup", "test data"):
        made = Platoon.create(campaign=camp, name=name, training=8, equipment=8, morale=8, armor=1, xp=0)
    return made


def test_lookup_ignores_case_and_extra_spaces_but_prefers_exact() -> None:
    camp = _campaign("Congo 1960")
    p = _platoon(camp, "2nd Platoon")
    assert lookup.platoon_id("2nd  platoon") == p.id
    assert lookup.campaign_id("congo 1960") == camp.id


def test_digit_names_are_names_first_then_ids() -> None:
    camp = _campaign("C")
    alpha = _platoon(camp, "Alpha")
    one = _platoon(camp, "1")
    assert alpha.id == 1
    assert lookup.platoon_id("1") == one.id, "a platoon named 1 is found by its name"
    assert lookup.platoon_id(str(one.id)) == one.id
    assert lookup.platoon_id(" 1 ") == one.id


def test_digits_that_name_no_platoon_are_its_id() -> None:
    camp = _campaign("C")
    alpha = _platoon(camp, "Alpha")
    assert lookup.platoon_id(str(alpha.id)) == alpha.id
    with pytest.raises(NotFound, match="no platoon named '1' in campaign 'C'"):
        lookup.platoon_id("1", "C")


def test_same_name_in_two_campaigns_must_be_qualified() -> None:
    a = _campaign("A")
    b = _campaign("B")
    _platoon(a, "Recon")
    pb = _platoon(b, "Recon")
    with pytest.raises(Refused, match="more than one platoon is named 'Recon'; name its campaign too"):
        lookup.platoon_id("Recon")
    assert lookup.platoon_id("Recon", "B") == pb.id
    with pytest.raises(NotFound, match="no platoon named 'Nope'$"):
        lookup.platoon_id("Nope")
    with pytest.raises(NotFound, match="no campaign named 'Z'"):
        lookup.platoon_id("Recon", "Z")


def test_an_opponent_is_looked_up_in_the_campaign() -> None:
    a = _campaign("A")
    b = _campaign("B")
    _platoon(a, "Recon")
    other = _platoon(b, "Recon")
    mine = _platoon(b, "Scouts")
    assert lookup.opponent_id("recon", mine.id) == other.id
    with pytest.raises(Refused, match="cannot fight itself"):
        lookup.opponent_id("scouts", mine.id)
    with pytest.raises(NotFound, match="no platoon named 'Ghost' in campaign 'B'"):
        lookup.opponent_id("Ghost", mine.id)
