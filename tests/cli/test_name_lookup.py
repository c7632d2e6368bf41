"""The CLI's argument layer turns names into row ids (the services take ids only)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from campaign_app.commands import lookup
from campaign_app.errors import NotFound, Refused
from campaign_app.store.journal import operation
from campaign_app.store.models import Campaign, Equipment, Fighter, Platoon


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


def _death_blow(name: str) -> Campaign:
    with operation("test.setup", "test data"):
        made = Campaign.create(name=name, system="death_blow")
    return made


def _fighter(camp: Campaign, name: str) -> Fighter:
    with operation("test.setup", "test data"):
        made = Fighter.create(campaign=camp, name=name, start_level=0, level=0, xp=0, lifetime_xp=0)
    return made


def test_a_sologear_campaign_is_its_sheet() -> None:
    from campaign_app.services import sologear_sheet

    sheet = sologear_sheet.create_sheet("Hill 214", "Janne", 250).id
    _campaign("Congo")
    assert lookup.sheet_id("hill  214") == sheet
    assert lookup.sheet_id(str(sheet)) == sheet, "digits that name no campaign are the sheet's id"
    with pytest.raises(Refused, match="Congo is not a Sologear campaign"):
        lookup.sheet_id("congo")
    with pytest.raises(NotFound, match="no Sologear campaign named 'Hill 215'"):
        lookup.sheet_id("Hill 215")


def test_a_fighter_is_looked_up_by_name_within_its_campaign() -> None:
    pit, dojo = _death_blow("Pit"), _death_blow("Dojo")
    kenji = _fighter(pit, "Kenji")
    other_kenji = _fighter(dojo, "Kenji")
    mara = _fighter(pit, "Mara")
    ryu = _fighter(dojo, "Ryu")
    assert lookup.fighter_id("mara") == mara.id
    assert lookup.fighter_id("Kenji", "dojo") == other_kenji.id
    with pytest.raises(Refused, match="more than one fighter is named 'Kenji'; name the campaign too"):
        lookup.fighter_id("Kenji")
    with pytest.raises(NotFound, match="no fighter named 'Ryu' in campaign Pit"):
        lookup.fighter_id("Ryu", "Pit")
    with pytest.raises(NotFound, match="no campaign named 'Arena'"):
        lookup.fighter_id("Ryu", "Arena")
    assert lookup.opponent_fighter_id("MARA", kenji.id) == mara.id
    assert lookup.opponent_fighter_id("kenji", ryu.id) == other_kenji.id, "the opponent's campaign is the fighter's"
    with pytest.raises(Refused, match=r"Ryu is a fighter of another campaign \(Dojo\), not of Pit"):
        lookup.opponent_fighter_id("Ryu", kenji.id)
    with pytest.raises(NotFound, match="no fighter named 'Nobody' in campaign Pit"):
        lookup.opponent_fighter_id("Nobody", kenji.id)


def test_a_bout_is_named_by_its_number() -> None:
    from campaign_app.commands.base import CliError

    assert lookup.bout_id(" 12 ") == 12
    for text in ("twelve", "-1", "12a", str(2**63)):
        with pytest.raises(CliError, match="a bout is named by its number"):
            lookup.bout_id(text)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["campaign", "show", "Nowhere"], "no campaign named 'Nowhere'"),
        (["campaign", "rename", "Nowhere", "Elsewhere"], "no campaign named 'Nowhere'"),
        (["platoon", "list", "--campaign", "Nowhere"], "no campaign named 'Nowhere'"),
        (["campaign", "standings", "--campaign", "Nowhere"], "no campaign named 'Nowhere'"),
        (["print", "standings", "--campaign", "Nowhere", "-o", "f.pdf"], "no campaign named 'Nowhere'"),
        (["chronicle", "--campaign", "Nowhere"], "no campaign named 'Nowhere'"),
        (["journal", "--campaign", "Nowhere"], "no campaign named 'Nowhere'"),
        (["export", "--campaign", "Nowhere", "-o", "x.json"], "no campaign named 'Nowhere'"),
        (["sologear", "show", "--campaign", "Nowhere"], "no Sologear campaign named 'Nowhere'"),
        (["sologear", "length", "--campaign", "Pit"], "Pit is not a Sologear campaign"),
        (["fighter", "new", "--campaign", "Nowhere", "--name", "Ryu"], "no campaign named 'Nowhere'"),
        (["fighter", "show", "Nobody"], "no fighter named 'Nobody'"),
        (["fighter", "retire", "Kenji"], "more than one fighter is named 'Kenji'"),
        (["fighter", "retire", "Ryu", "--campaign", "Pit"], "no fighter named 'Ryu' in campaign Pit"),
        (
            ["bout", "log", "--fighter", "Mara", "--opponent-fighter", "Ryu", "--winner", "Mara", "--face-cards", "1"],
            "Ryu is a fighter of another campaign (Dojo), not of Pit",
        ),
        (["bout", "play", "--fighter", "Mara", "--opponent-fighter", "Nobody"], "no fighter named 'Nobody'"),
        (["bout", "show", "twelve"], "a bout is named by its number"),
        (["print", "fighter", "Nobody", "-o", "f.pdf"], "no fighter named 'Nobody'"),
    ],
)
def test_the_cli_refuses_unknown_and_ambiguous_names_in_one_line(
    cli: Callable[..., str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    cli("campaign", "new", "--name", "Pit", "--system", "death-blow")
    cli("campaign", "new", "--name", "Dojo", "--system", "death-blow")
    for campaign, name in (("Pit", "Kenji"), ("Pit", "Mara"), ("Dojo", "Kenji"), ("Dojo", "Ryu")):
        cli("fighter", "new", "--campaign", campaign, "--name", name)
    before = cli("journal", "--json")
    err = cli(*argv, rc=2)
    assert message in err
    assert cli("journal", "--json") == before, "nothing was written"
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "f.pdf").exists()


def test_attached_units_and_equipment_are_looked_up_in_their_platoon() -> None:
    from campaign_app.services import attachments

    camp = _campaign("C")
    alpha, bravo = _platoon(camp, "Alpha"), _platoon(camp, "Bravo")
    team = attachments.add_attached(alpha.id, "Weapons team", "team", training=8, equipment=8, morale=8, armor=1)
    unit = team.result.unit.id
    attachments.add_equipment(alpha.id, "HMG", attached=unit)
    attachments.add_equipment(alpha.id, "Flamer")
    gun = Equipment.get(Equipment.name == "Flamer").id
    assert lookup.attached_id(alpha.id, "WEAPONS  team") == unit
    assert lookup.equipment_id(alpha.id, "flamer") == gun
    assert lookup.equipment_id(alpha.id, "hmg", "weapons team") != gun
    with pytest.raises(NotFound, match="platoon 'Bravo' has no attached unit 'Weapons team'"):
        lookup.attached_id(bravo.id, "Weapons team")
    with pytest.raises(NotFound, match="platoon 'Alpha' has no equipment named 'HMG'"):
        lookup.equipment_id(alpha.id, "HMG")
    with pytest.raises(
        NotFound, match="attached unit 'Weapons team' of platoon 'Alpha' has no equipment named 'Flamer'"
    ):
        lookup.equipment_id(alpha.id, "Flamer", "Weapons team")
    with pytest.raises(NotFound, match="platoon 'Bravo' has no attached unit with id"):
        attachments.add_equipment(bravo.id, "HMG", attached=unit)
