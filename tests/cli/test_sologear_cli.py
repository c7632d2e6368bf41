"""``campaign-cli sologear ...``: the commands, their JSON shapes, and one-line errors that write nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from campaign_app.cli import main
from campaign_app.paths import AppPaths
from campaign_app.store.models import Roll, SologearForce, SologearSheet, SologearTurn

CAMP = "Hill 214"


class Cli:
    def __init__(self, paths: AppPaths, capsys: pytest.CaptureFixture[str]) -> None:
        self.paths, self.capsys = paths, capsys

    def run(self, *argv: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main([*argv, "--data-dir", str(self.paths.data_dir)])
        out, err = self.capsys.readouterr()
        return code, out, err

    def json(self, *argv: str) -> Any:
        code, out, err = self.run(*argv, "--json")
        assert code == 0, err
        return json.loads(out)

    def ok(self, *argv: str) -> str:
        code, out, err = self.run(*argv)
        assert code == 0, err
        return out

    def fails(self, *argv: str, match: str) -> str:
        before = counts()
        code, out, err = self.run(*argv)
        assert code == 2 and out == ""
        assert len(err.strip().splitlines()) == 1, err
        assert match in err, err
        assert counts() == before
        return err


def counts() -> tuple[int, ...]:
    return (
        SologearSheet.select().count(),
        SologearForce.select().count(),
        SologearTurn.select().count(),
        Roll.select().count(),
    )


@pytest.fixture
def cli(app_paths: AppPaths, fresh_db: object, capsys: pytest.CaptureFixture[str]) -> Cli:
    """The CLI on a database (``fails`` checks that nothing was written)."""
    return Cli(app_paths, capsys)


def setup_sheet(cli: Cli, length: int | None = 5) -> None:
    data = cli.json(
        "sologear",
        "new",
        "--name",
        CAMP,
        "--pilot",
        "Janne",
        "--gear-tv",
        "250",
        "--player-unit",
        "Janne's Regiment",
        "--enemy-unit",
        "Johnboy's Company",
    )
    assert data["pilot"] == "Janne" and data["gear_tv"] == 250 and data["name"] == CAMP
    cli.ok(
        "sologear",
        "force",
        "add",
        "--campaign",
        CAMP,
        "--side",
        "player",
        "--name",
        "1st Company",
        "--base",
        "350",
        "--skill",
        "regular",
        "--loyalty",
        "reliable",
    )
    cli.ok(
        "sologear",
        "force",
        "add",
        "--campaign",
        CAMP,
        "--side",
        "player",
        "--name",
        "2nd Company",
        "--company-tv",
        "7000",
    )
    cli.ok(
        "sologear",
        "force",
        "add",
        "--campaign",
        CAMP,
        "--side",
        "enemy",
        "--name",
        "Johnboy's Company",
        "--base",
        "400",
        "--skill",
        "veteran",
        "--loyalty",
        "firm",
    )
    if length is not None:
        cli.ok("sologear", "length", "--campaign", CAMP, "--dice", str(length))


def test_issue_lookups(cli: Cli) -> None:
    assert cli.json("sologear", "table", "combat", "--odds", "equal", "--roll", "7") == {
        "glory": "1D6",
        "hit": "#",
        "enemy": None,
        "ends": None,
    }
    odds = cli.json("sologear", "odds", "--player", "700", "--enemy", "1350")
    assert set(odds) == {"ratio", "band", "ratio_text", "compared", "exact"} and odds["band"] == "Equal"
    assert (odds["ratio_text"], odds["compared"], odds["exact"]) == ("0.519", "0.52", "14/27")
    assert odds["ratio"] == pytest.approx(0.5185185)
    assert cli.json("sologear", "table", "enemy", "--gear-tv", "250", "--roll", "4")["enemy_tv"] == 300
    assert cli.json("sologear", "table", "noticed", "--recognition", "23", "--d66", "22")["noticed"] is True
    res = cli.json("sologear", "table", "result", "--impression", "-3", "--roll", "-6")
    assert res["table"] == "punishments" and res["range"] == "−5 to −7"
    card = cli.json("sologear", "table", "combat_key")
    assert card["headers"] == ["Symbol", "Meaning"]


def test_lookup_errors(cli: Cli) -> None:
    cli.fails("sologear", "table", "combat", "--odds", "sideways", "--roll", "7", match="unknown odds band")
    cli.fails("sologear", "table", "combat", "--odds", "equal", "--roll", "15", match="0..14")
    cli.fails("sologear", "odds", "--player", "700", "--enemy", "0", match="enemy's combat power is 0")


def test_worked_example_sheet(cli: Cli) -> None:
    setup_sheet(cli)
    data = cli.json("sologear", "show", "--campaign", CAMP)
    assert data["totals"] == {"player": 700, "enemy": 1350}
    assert data["odds"]["band"] == "Equal" and data["length"] == 5
    assert [f["base_power"] for f in data["forces"]["player"]] == [350, 350]
    text = cli.ok("sologear", "show", "--campaign", CAMP)
    assert "Odds: 0.519 Equal" in text and "total combat power 1350" in text


def test_full_campaign_cli(cli: Cli) -> None:
    setup_sheet(cli, length=2)
    turn = cli.json(
        "sologear",
        "turn",
        "--campaign",
        CAMP,
        "--action",
        "fig",
        "--posture",
        "2",
        "--dice",
        "4,5",
        "3,2",
        "1,2,3,4",
        "3",
    )
    assert turn["combat_total"] == 11 and turn["cell"] == {"glory": "2D6", "hit": "##", "enemy": None, "ends": None}
    assert turn["glory"] == 5 and turn["entry_edge"] == "South"
    assert [r["purpose"] for r in turn["rolls"]] == ["combat", "glory", "battle_length", "entry_edge"]
    assert [r["purpose_text"] for r in turn["rolls"]] == [
        "combat table",
        "Glory markers",
        "battle length",
        "entry edge",
    ]
    assert (
        cli.json(
            "sologear",
            "record",
            "--campaign",
            CAMP,
            "--turn",
            "1",
            "--glory",
            "3",
            "--enemy-tv",
            "0",
            "--bunkers",
            "1",
            "--gear-damaged",
        )["recorded"]
        is True
    )
    rep = cli.json("sologear", "turn", "--campaign", CAMP, "--action", "rep", "--dice", "6")
    assert rep["action"] == "rep" and rep["repair_hours"] == 4 and rep["campaign_ended"] == "turns_used_up"
    assert rep["campaign_ended_text"] == "all battle turns were played"
    end = cli.json("sologear", "end", "--campaign", CAMP, "--dice", "1,4", "3")
    # recognition: REP 4 + FIG(+2) 2 + Glory 3 + bunker 2 = 11 -> 11-14; impression -4 + 3 + 2 = 1
    assert end["recognition"] == 11 and end["noticed"] is True and end["d66"] == 14
    assert end["impression"] == 1 and end["table"] == "rewards" and end["result"] == 4
    assert end["outcome"].startswith("Double pay")
    text = cli.ok("sologear", "show", "--campaign", CAMP)
    assert "Reckoning: recognition 11" in text
    history = cli.json("sologear", "history", "--campaign", CAMP)
    assert sum(e["kind"] == "roll" for e in history) == 1 + 4 + 1 + 2
    # undo steps back: reckoning, then turn 2
    assert cli.json("sologear", "undo", "--campaign", CAMP) == {"undone": "reckoning"}
    assert cli.json("sologear", "undo", "--campaign", CAMP)["turn"] == 2
    shown = cli.json("sologear", "show", "--campaign", CAMP)
    assert shown["turns_played"] == 1 and shown["state"]["status"] == "active"


def test_not_noticed(cli: Cli) -> None:
    setup_sheet(cli, length=1)
    cli.ok("sologear", "turn", "--campaign", CAMP, "--action", "dec")
    end = cli.json("sologear", "end", "--campaign", CAMP, "--dice", "6,6")
    assert end["noticed"] is False and end["table"] is None and end["result"] is None


def test_errors_one_line_nothing_written(cli: Cli) -> None:
    setup_sheet(cli, length=1)
    cli.fails("sologear", "turn", "--campaign", CAMP, "--action", "rep", match="REP is only allowed")
    cli.fails("sologear", "turn", "--campaign", CAMP, "--action", "fig", "--posture", "3", match="posture")
    cli.fails("sologear", "turn", "--campaign", CAMP, "--action", "fig", "--posture", "-3", match="posture")
    cli.fails("sologear", "turn", "--campaign", CAMP, "--action", "fig", "--posture", "bold", match="posture")
    cli.fails(
        "sologear",
        "turn",
        "--campaign",
        CAMP,
        "--action",
        "fig",
        "--posture",
        "0",
        "--dice",
        "7,1",
        match="not a face of a d6",
    )
    cli.fails(
        "sologear",
        "turn",
        "--campaign",
        CAMP,
        "--action",
        "fig",
        "--posture",
        "0",
        "--dice",
        "3,4",
        match="too few dice",
    )
    cli.fails("sologear", "turn", "--campaign", CAMP, "--action", "dec", "--dice", "3", match="too many dice")
    cli.fails(
        "sologear",
        "force",
        "add",
        "--campaign",
        CAMP,
        "--side",
        "enemy",
        "--name",
        "X",
        "--base",
        "5",
        "--skill",
        "heroic",
        match="unknown skill",
    )
    cli.fails(
        "sologear",
        "force",
        "add",
        "--campaign",
        CAMP,
        "--side",
        "enemy",
        "--name",
        "X",
        "--base",
        "5",
        "--loyalty",
        "fanatical",
        match="unknown loyalty",
    )
    cli.fails("sologear", "end", "--campaign", CAMP, "--seed", "1", match="not over")
    cli.ok("sologear", "turn", "--campaign", CAMP, "--action", "dec")
    cli.fails("sologear", "turn", "--campaign", CAMP, "--action", "dec", match="campaign has ended")
    cli.fails("sologear", "end", "--campaign", CAMP, "--dice", "1,4", "3", "5", match="too many dice")
    cli.fails("sologear", "show", "--campaign", "Nowhere", match="no Sologear campaign")
    cli.fails("sologear", "record", "--campaign", CAMP, "--turn", "1", "--glory", "2", match="no battle")
    cli.fails("sologear", "options", "--campaign", CAMP, "--ferocious", "maybe", match="on or off")


def test_options_and_force_edit(cli: Cli) -> None:
    setup_sheet(cli, length=None)
    opts = cli.json(
        "sologear",
        "options",
        "--campaign",
        CAMP,
        "--variable-tables",
        "on",
        "--reward-dice",
        "2d6",
        "--ferocious",
        "on",
    )
    assert opts == {"variable_tables": True, "ferocious": True, "reward_dice": "2d6"}
    forces = cli.json("sologear", "force", "list", "--campaign", CAMP)
    fid = forces["forces"]["enemy"][0]["id"]
    edited = cli.json("sologear", "force", "edit", "--campaign", CAMP, "--id", str(fid), "--skill", "elite")
    assert edited["total"] == 400 * 4 * 1.5
    cli.ok("sologear", "force", "remove", "--campaign", CAMP, "--id", str(fid))
    assert cli.json("sologear", "show", "--campaign", CAMP)["odds"] is None
    cli.fails("sologear", "length", "--campaign", CAMP, "--seed", "3", match="units of both sides")
    cli.ok("sologear", "edit", "--campaign", CAMP, "--area", "Badlands", "--date", "TN1932")
    assert cli.json("sologear", "show", "--campaign", CAMP)["area"] == "Badlands"


# --- edge cases: bounds on numbers and reward dice, band edges, units after the length roll ---------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("inf", "must be a finite number"),
        ("nan", "must be a finite number"),
        ("1e400", "must be a finite number"),
        ("1e308", "must be at most 1,000,000,000"),
    ],
)
def test_odds_refuses_non_finite_and_huge_numbers(cli: Cli, value: str, message: str) -> None:
    err = cli.fails("sologear", "odds", "--player", value, "--enemy", "100", match=message)
    assert err.startswith("campaign-cli: error: --player")
    cli.fails("sologear", "odds", "--player", "100", "--enemy", value, match=message)


def test_odds_text_never_looks_across_a_band_edge(cli: Cli) -> None:
    assert cli.ok("sologear", "odds", "--player", "299.99", "--enemy", "100").strip() == "299.99 / 100 = 3.000: Winning"
    assert (
        cli.ok("sologear", "odds", "--player", "299.49", "--enemy", "100").strip()
        == "299.49 / 100 = 2.9949: Advantaged"
    )
    assert cli.ok("sologear", "odds", "--player", "1", "--enemy", "3").strip() == "1 / 3 = 0.333: Losing"
    assert cli.ok("sologear", "odds", "--player", "700", "--enemy", "1350").strip() == "700 / 1350 = 0.519: Equal"


def test_force_add_refuses_huge_and_non_finite_values(cli: Cli) -> None:
    setup_sheet(cli, length=None)
    cli.fails(
        "sologear",
        "force",
        "add",
        "--campaign",
        CAMP,
        "--side",
        "enemy",
        "--name",
        "Giant",
        "--base",
        "1e308",
        match="base power must be at most 1,000,000",
    )
    cli.fails(
        "sologear",
        "force",
        "add",
        "--campaign",
        CAMP,
        "--side",
        "enemy",
        "--name",
        "Giant",
        "--base",
        "inf",
        match="base power must be a number of 0 or more",
    )
    cli.fails(
        "sologear",
        "force",
        "add",
        "--campaign",
        CAMP,
        "--side",
        "enemy",
        "--name",
        "Giant",
        "--company-tv",
        "99999999",
        match="company TV must be at most",
    )


def test_reward_dice_are_capped(cli: Cli) -> None:
    setup_sheet(cli, length=None)
    cli.fails(
        "sologear",
        "options",
        "--campaign",
        CAMP,
        "--reward-dice",
        "999999d6",
        match="at most 10 dice of at most 100 sides",
    )
    cli.fails(
        "sologear",
        "new",
        "--name",
        "Other",
        "--pilot",
        "P",
        "--gear-tv",
        "250",
        "--reward-dice",
        "2d1000",
        match="at most 10 dice of at most 100 sides",
    )


def test_units_cannot_be_added_or_changed_after_the_length_roll(cli: Cli) -> None:
    setup_sheet(cli, length=5)
    unit = str(SologearForce.get(SologearForce.name == "Johnboy's Company").id)
    cli.fails(
        "sologear",
        "force",
        "add",
        "--campaign",
        CAMP,
        "--side",
        "enemy",
        "--name",
        "Horde",
        "--base",
        "10",
        match="undo the length roll first",
    )
    cli.fails("sologear", "force", "remove", "--campaign", CAMP, "--id", unit, match="undo the length roll first")
    cli.fails(
        "sologear",
        "force",
        "edit",
        "--campaign",
        CAMP,
        "--id",
        unit,
        "--base",
        "10",
        match="undo the length roll first",
    )
    cli.ok("sologear", "force", "edit", "--campaign", CAMP, "--id", unit, "--name", "Rabid Company")


def test_table_enemy_answers_as_the_engine_does(cli: Cli) -> None:
    data = cli.json("sologear", "table", "enemy", "--gear-tv", "250", "--roll", "8")
    assert (data["row"], data["enemy_tv"], data["note"]) == (7, 400, "roll 8, read as row 7")
    assert "row 7 (roll 8, read as row 7): enemy unit of TV 400" in cli.ok(
        "sologear", "table", "enemy", "--gear-tv", "250", "--roll", "8"
    )
    cli.fails("sologear", "table", "enemy", "--gear-tv", "250", "--roll", "0", match="--roll must be 1 or more")


def test_reward_dice_d66_is_refused(cli: Cli) -> None:
    cli.fails(
        "sologear", "new", "--name", "D66 test", "--pilot", "P", "--gear-tv", "50", "--reward-dice", "d66", match="D66"
    )
