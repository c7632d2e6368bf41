"""``campaign-cli campaign|platoon|leader|attached|equipment``: JSON shapes, text, one-line errors, nothing
written on bad input."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def congo(cli) -> None:
    cli("campaign", "new", "--name", "Congo 1960", "--system", "atomic-africa")
    cli(
        "platoon",
        "new",
        "--campaign",
        "Congo 1960",
        "--name",
        "2nd Platoon",
        "--training",
        "d10",
        "--equipment",
        "d10",
        "--morale",
        "d8",
        "--armor",
        "2",
        "--xp",
        "6",
        "--leader",
        "Lt. Okafor",
        "--leader-xp",
        "2",
    )


def test_campaign_new_list_show(cli) -> None:
    data = json.loads(
        cli("campaign", "new", "--name", "Congo 1960", "--system", "atomic-africa", "--period", "2", "--json")
    )
    assert (data["name"], data["system"], data["period"], data["die"]) == ("Congo 1960", "atomic_africa", 2, "d6")
    cli("campaign", "new", "--name", "Pilot", "--system", "sologear")
    rows = json.loads(cli("campaign", "list", "--json"))
    assert [r["name"] for r in rows] == ["Congo 1960", "Pilot"]
    text = cli("campaign", "show", "Congo 1960")
    assert "XP thresholds" in text and "1,4,9,16" in text and "default not set" in text


def test_platoon_show_json_shape(cli, congo) -> None:
    d = json.loads(cli("platoon", "show", "2nd Platoon", "--json"))
    expected = {
        "name": "2nd Platoon",
        "campaign": "Congo 1960",
        "training": "d10",
        "equipment": "d10",
        "morale": "d8",
        "armor": 2,
        "xp": 6,
        "level": "Regular",
        "cards": 10,
    }
    assert {k: d[k] for k in expected} == expected
    assert {k: d["leader"][k] for k in ("name", "xp", "level")} == {"name": "Lt. Okafor", "xp": 2, "level": "Green"}
    assert "rank" in d["leader"]
    assert d["former_leaders"] == [] and d["attached"] == [] and d["equipment_list"] == []
    assert "Regular; orders cards per turn: 10" in cli("platoon", "show", "2nd Platoon")


def test_generate_with_typed_dice_and_seed(cli, congo) -> None:
    d = json.loads(
        cli(
            "platoon",
            "new",
            "--campaign",
            "Congo 1960",
            "--name",
            "3rd Platoon",
            "--training",
            "d8",
            "--equipment",
            "d8",
            "--morale",
            "d8",
            "--armor",
            "1",
            "--generate",
            "--dice",
            "3,8",
            "--leader",
            "Sgt. Bello",
            "--json",
        )
    )
    assert (d["xp"], d["leader"]["xp"]) == (7, 2)
    assert d["roll"]["faces"] == [3, 8] and d["roll"]["source"] == "entered"
    a = json.loads(
        cli(
            "platoon",
            "new",
            "--campaign",
            "Congo 1960",
            "--name",
            "4th",
            "--training",
            "d8",
            "--equipment",
            "d8",
            "--morale",
            "d8",
            "--armor",
            "1",
            "--generate",
            "--seed",
            "7",
            "--json",
        )
    )
    assert a["roll"]["source"] == "app" and a["xp"] >= a["leader"]["xp"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["platoon", "set", "2nd Platoon", "--training", "d7"], "d7 is not an attribute die"),
        (["platoon", "set", "2nd Platoon", "--armor", "6"], "Armor must be 1 to 5, not 6"),
        (["platoon", "set", "2nd Platoon", "--xp", "33"], "0 to 32, not 33"),
        (["platoon", "set", "2nd Platoon", "--morale", "d6", "--xp", "33"], "0 to 32, not 33"),
        (["platoon", "show", "Ghost"], "no platoon named 'Ghost'"),
        (
            [
                "platoon",
                "new",
                "--campaign",
                "Congo 1960",
                "--name",
                "2nd Platoon",
                "--training",
                "d8",
                "--equipment",
                "d8",
                "--morale",
                "d8",
                "--armor",
                "1",
            ],
            "already has a platoon named",
        ),
        (
            [
                "platoon",
                "new",
                "--campaign",
                "Congo 1960",
                "--name",
                "5th",
                "--training",
                "d8",
                "--equipment",
                "d8",
                "--morale",
                "d8",
                "--armor",
                "1",
                "--generate",
                "--dice",
                "3,11",
            ],
            "11 is not a face of a d10",
        ),
        (
            [
                "platoon",
                "new",
                "--campaign",
                "Congo 1960",
                "--name",
                "5th",
                "--training",
                "d8",
                "--equipment",
                "d8",
                "--morale",
                "d8",
                "--armor",
                "1",
                "--dice",
                "3,4",
            ],
            "add --generate",
        ),
        (["campaign", "new", "--name", "Congo 1960"], "already exists"),
        (["campaign", "new", "--name", "X", "--period", "6"], "period must be 1 to 5"),
        (
            [
                "attached",
                "add",
                "2nd Platoon",
                "--name",
                "T",
                "--kind",
                "team",
                "--training",
                "d8",
                "--equipment",
                "d8",
                "--morale",
                "d8",
                "--armor",
                "5",
            ],
            "for vehicles only",
        ),
        (
            [
                "equipment",
                "add",
                "2nd Platoon",
                "--name",
                "Gun",
                "--targets",
                "point",
                "--ap",
                "-2",
                "--ap-vs",
                "dispersed",
            ],
            "only point targets",
        ),
        (["leader", "replace", "2nd Platoon", "--name", "X"], "--xp N"),
    ],
)
def test_errors_are_one_line_and_write_nothing(cli, congo, argv: list[str], message: str) -> None:
    before = cli("platoon", "show", "2nd Platoon", "--json")
    campaigns = cli("campaign", "list", "--json")
    err = cli(*argv, rc=2)
    assert message in err and err.startswith("campaign-cli: error:")
    assert cli("platoon", "show", "2nd Platoon", "--json") == before
    assert cli("campaign", "list", "--json") == campaigns
    assert json.loads(cli("platoon", "list", "--json"))[0]["name"] == "2nd Platoon"
    assert len(json.loads(cli("platoon", "list", "--json"))) == 1


def test_set_rename_delete(cli, congo) -> None:
    d = json.loads(
        cli("platoon", "set", "2nd Platoon", "--training", "d8", "--xp", "7", "--reason", "house rule", "--json")
    )
    assert (d["training"], d["xp"]) == ("d8", 7)
    d = json.loads(cli("platoon", "set", "2nd Platoon", "--leader-xp", "4", "--json"))
    assert d["leader"]["level"] == "Regular" and d["cards"] == 12
    cli("platoon", "rename", "2nd Platoon", "Second")
    assert "Second" in cli("platoon", "list")
    cli("platoon", "delete", "Second")
    assert cli("platoon", "list").strip() == "no platoons"


def test_leader_replace_with_roll(cli, congo) -> None:
    cli("campaign", "set", "Congo 1960", "--period", "1")
    out = json.loads(
        cli(
            "leader",
            "replace",
            "2nd Platoon",
            "--name",
            "Lt. Diallo",
            "--roll",
            "--dice",
            "4,4",
            "--how",
            "casualty",
            "--json",
        )
    )
    assert out["new_leader"]["xp"] == 3 and out["roll"]["expression"] == "2d4"
    d = json.loads(cli("platoon", "show", "2nd Platoon", "--json"))
    assert d["leader"]["name"] == "Lt. Diallo"
    assert [(f["name"], f["status"]) for f in d["former_leaders"]] == [("Lt. Okafor", "casualty")]
    cli("leader", "set", "2nd Platoon", "--rank", "Captain")
    assert json.loads(cli("platoon", "show", "2nd Platoon", "--json"))["leader"]["rank"] == "Captain"


def test_attached_and_equipment(cli, congo) -> None:
    cli(
        "attached",
        "add",
        "2nd Platoon",
        "--name",
        "Weapons team",
        "--kind",
        "team",
        "--training",
        "d8",
        "--equipment",
        "d10",
        "--morale",
        "d8",
        "--armor",
        "2",
    )
    cli("attached", "add", "2nd Platoon", "--name", "Battery", "--kind", "fire-support", "--support", "heavy")
    cli("equipment", "add", "2nd Platoon", "--name", "MMG", "--attached", "Weapons team", "--targets", "dispersed")
    cli("equipment", "add", "2nd Platoon", "--name", "Recoilless rifle", "--targets", "point", "--ap", "-2")
    d = json.loads(cli("platoon", "show", "2nd Platoon", "--json"))
    assert [(a["name"], a["kind"]) for a in d["attached"]] == [("Weapons team", "team"), ("Battery", "fire_support")]
    assert d["attached"][0]["equipment_list"][0]["name"] == "MMG"
    assert d["equipment_list"][0] == {
        "id": d["equipment_list"][0]["id"],
        "name": "Recoilless rifle",
        "targets": "point",
        "ap": -2,
        "ap_vs": "point",
        "notes": "",
    }
    assert d["cards_with_fire_support"] == 9
    cli("attached", "edit", "2nd Platoon", "Weapons team", "--equipment", "d6")
    cli("equipment", "edit", "2nd Platoon", "Recoilless rifle", "--no-ap")
    cli("equipment", "remove", "2nd Platoon", "MMG", "--attached", "Weapons team")
    cli("attached", "remove", "2nd Platoon", "Battery")
    d = json.loads(cli("platoon", "show", "2nd Platoon", "--json"))
    assert [a["name"] for a in d["attached"]] == ["Weapons team"]
    assert d["attached"][0]["equipment"] == "d6" and d["attached"][0]["equipment_list"] == []
    assert d["equipment_list"][0]["ap"] is None
    err = cli("attached", "remove", "2nd Platoon", "Battery", rc=2)
    assert "no attached unit 'Battery'" in err


def test_campaign_rename_archive_delete(cli, congo) -> None:
    cli("campaign", "rename", "Congo 1960", "Katanga")
    cli("campaign", "archive", "Katanga")
    assert json.loads(cli("campaign", "list", "--active", "--json")) == []
    cli("campaign", "archive", "Katanga", "--unarchive")
    assert len(json.loads(cli("campaign", "list", "--active", "--json"))) == 1
    out = json.loads(cli("campaign", "delete", "Katanga", "--json"))
    assert out["platoons"] == 1
    assert json.loads(cli("campaign", "list", "--json")) == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["campaign", "new", "--name", "X", "--objective-xp", "leader"], "objective XP goes to"),
        (["leader", "replace", "2nd Platoon", "--name", "X", "--xp", "1", "--how", "eaten"], "how the leader left"),
        (
            ["attached", "add", "2nd Platoon", "--name", "B", "--kind", "fire-support", "--support", "huge"],
            "fire support level",
        ),
        (["equipment", "add", "2nd Platoon", "--name", "G", "--targets", "air"], "targets must be one of"),
        (["attached", "add", "2nd Platoon", "--name", "B", "--kind", "tank"], "kind must be team, vehicle"),
    ],
)
def test_bad_choices_are_one_line_errors(cli, congo, argv: list[str], message: str) -> None:
    assert message in cli(*argv, rc=2)
