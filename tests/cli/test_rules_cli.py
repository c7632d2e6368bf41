"""``campaign-cli level | cards | odds | roll`` (RULES 1.1-1.3): JSON shapes, readable text, and the one-line
errors (exit 2, nothing on stdout)."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest

from campaign_app.rules.odds import leader_odds, recovery_mean, recovery_odds


@pytest.fixture
def cli(cli_result):
    return cli_result  # (exit status, stdout, stderr): these tests check each part themselves


@pytest.fixture
def cli_json(cli):
    def run(*argv: str) -> dict:
        code, out, err = cli(*argv, "--json")
        assert (code, err) == (0, "")
        return json.loads(out)

    return run


# --- level, cards ----------------------------------------------------------------------------------------


def test_level(cli_json, cli):
    assert cli_json("level", "--xp", "6") == {"xp": 6, "level": "Regular", "rank": 3, "cards": 6}
    assert cli_json("level", "--xp", "0") == {"xp": 0, "level": "Untested", "rank": 1, "cards": 2}
    assert cli_json("level", "--xp", "6", "--thresholds", "2,7,12,20") == {
        "xp": 6,
        "level": "Green",
        "rank": 2,
        "cards": 4,
    }
    code, out, _ = cli("level", "--xp", "32")
    assert code == 0 and "Legendary" in out and "10 orders cards" in out


def test_cards(cli_json, cli):
    assert cli_json("cards", "--platoon-xp", "6", "--leader-xp", "2") == {"cards": 10}
    assert cli_json("cards", "--platoon-xp", "6", "--leader-xp", "2", "--fire-support") == {"cards": 9}
    assert cli_json("cards", "--platoon-xp", "6", "--no-leader") == {"cards": 6}
    assert cli_json("cards", "--platoon-xp", "6", "--leader-xp", "2", "--no-leader", "--fire-support") == {"cards": 5}
    code, out, _ = cli("cards", "--platoon-xp", "6", "--leader-xp", "2")
    assert code == 0 and out.startswith("10 orders cards") and "Regular" in out and "Green" in out


# --- odds ------------------------------------------------------------------------------------------------


def exact_sum(values) -> Fraction:
    return sum(Fraction(Decimal(v)) for v in values)


def test_odds_recovery_json(cli, app_paths):
    code, out, err = cli("odds", "recovery", "--wounds", "7", "--xp", "5", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"wounds", "xp", "xp_lost", "mean", "exact"} and (data["wounds"], data["xp"]) == (7, 5)
    exact = recovery_odds(7, 5)
    assert list(data["xp_lost"]) == [str(k) for k in exact]
    for k, p in exact.items():
        assert data["xp_lost"][str(k)] == pytest.approx(float(p), rel=1e-13)
    assert data["mean"] == pytest.approx(float(recovery_mean(7, 5)), rel=1e-13)
    # the printed decimals themselves (not floats): 12 to 15 significant digits, adding up to 1 within the
    # last digit; the exact fractions add up to exactly 1 and match the engine's
    raw = json.loads(out, parse_float=Decimal, parse_int=Decimal)
    assert abs(exact_sum(raw["xp_lost"].values()) - 1) <= Fraction(1, 10**14)
    for text in raw["xp_lost"].values():
        digits = str(text).lower().split("e")[0].replace(".", "").lstrip("0")
        assert text == 0 or 12 <= len(digits) <= 15
    assert {k: Fraction(v) for k, v in data["exact"]["xp_lost"].items()} == {str(k): p for k, p in exact.items()}
    assert Fraction(data["exact"]["mean"]) == recovery_mean(7, 5)


def test_odds_recovery_large_and_text(cli):
    code, out, _ = cli("odds", "recovery", "--wounds", "200", "--xp", "32", "--json")
    raw = json.loads(out, parse_float=Decimal, parse_int=Decimal)
    assert code == 0 and abs(exact_sum(raw["xp_lost"].values()) - 1) <= Fraction(1, 10**14)
    assert sum(Fraction(v) for v in raw["exact"]["xp_lost"].values()) == 1
    code, out, err = cli("odds", "recovery", "--wounds", "7", "--xp", "5")
    assert code == 0 and err == ""
    # at most 15 significant digits (the mean is 0.789066314697265625 exactly: 18 digits)
    assert "0.250000000000000" in out and "mean XP lost: 0.789066314697266" in out
    code, out, _ = cli("odds", "recovery", "--wounds", "0", "--xp", "5", "--json")
    assert json.loads(out) == {
        "wounds": 0,
        "xp": 5,
        "xp_lost": {"0": 1.0},
        "mean": 0,
        "exact": {"xp_lost": {"0": "1"}, "mean": "0"},
    }


def test_odds_leader(cli_json, cli):
    data = cli_json("odds", "leader", "--leader-wounds", "3", "--leader-xp", "5")
    assert list(data) == ["casualty", "promoted", "stays", "exact"]
    for fate, p in leader_odds(3, 5).items():
        assert data[fate] == pytest.approx(float(p), rel=1e-13)
        assert Fraction(data["exact"][fate]) == p
    code, out, _ = cli("odds", "leader", "--leader-wounds", "3", "--leader-xp", "5", "--json")
    raw = json.loads(out, parse_float=Decimal, parse_int=Decimal)
    assert abs(exact_sum(raw[f] for f in ("casualty", "promoted", "stays")) - 1) <= Fraction(1, 10**14)
    assert cli_json("odds", "leader", "--leader-wounds", "0", "--leader-xp", "24")["stays"] == 0
    code, out, _ = cli("odds", "leader", "--leader-wounds", "3", "--leader-xp", "5")
    assert code == 0 and "casualty" in out and "0.0208333333333333" in out


# --- rolls -----------------------------------------------------------------------------------------------


def test_roll_recovery_typed(cli_json, cli):
    data = cli_json("roll", "recovery", "--wounds", "7", "--xp", "5", "--dice", "3", "5,2")
    assert data == {
        "rolls": [
            {"expression": "1d8", "faces": [3], "removed": 3, "remaining": 4},
            {"expression": "2d8", "faces": [5, 2], "removed": 4, "remaining": 0},
        ],
        "xp_lost": 1,
        "xp_after": 4,
    }
    assert cli_json("roll", "recovery", "--wounds", "0", "--xp", "5") == {"rolls": [], "xp_lost": 0, "xp_after": 5}
    code, out, _ = cli("roll", "recovery", "--wounds", "7", "--xp", "5", "--dice", "3", "5,2")
    assert code == 0 and "roll 2: 2d8 [5, 2] = 7: removed 4, 0 left" in out and "now 4 XP" in out


def test_roll_recovery_seeded_is_reproducible(cli_json):
    a = cli_json("roll", "recovery", "--wounds", "30", "--xp", "9", "--seed", "11")
    b = cli_json("roll", "recovery", "--wounds", "30", "--xp", "9", "--seed", "11")
    assert a == b and a["rolls"] and a["xp_after"] == 9 - a["xp_lost"]
    assert [r["expression"] for r in a["rolls"]] == [f"{i}d8" for i in range(1, len(a["rolls"]) + 1)]


def test_roll_leader(cli_json, cli):
    assert cli_json("roll", "leader", "--leader-wounds", "3", "--leader-xp", "5", "--dice", "7,9") == {
        "faces": [7, 9],
        "total": 16,
        "outcome": "stays",
    }
    assert (
        cli_json("roll", "leader", "--leader-wounds", "6", "--leader-xp", "10", "--dice", "2,2")["outcome"]
        == "casualty"
    )
    assert (
        cli_json("roll", "leader", "--leader-wounds", "0", "--leader-xp", "24", "--dice", "12,12")["outcome"]
        == "promoted"
    )
    data = cli_json("roll", "leader", "--leader-wounds", "1", "--leader-xp", "5", "--seed", "3")
    assert data["outcome"] in ("casualty", "promoted", "stays") and data["total"] == sum(data["faces"])


def test_roll_replacement_and_force(cli_json, cli):
    # RULES 1.2 step 4: two faces, the lower minus one
    assert cli_json("roll", "replacement", "--dice", "6,9") == {"die": "d10", "dice": 2, "faces": [6, 9], "xp": 5}
    assert cli_json("roll", "replacement", "--period", "1", "--dice", "1,4") == {
        "die": "d4",
        "dice": 2,
        "faces": [1, 4],
        "xp": 0,
    }
    assert "2d10 [9, 6]: lower of 9, 6 \u22121 = 5 XP" in cli("roll", "replacement", "--dice", "9,6")[1]
    # ⚙ the one-die house rule
    assert cli_json("roll", "replacement", "--one-die", "--dice", "6") == {
        "die": "d10",
        "dice": 1,
        "faces": [6],
        "xp": 5,
    }
    assert cli_json("roll", "force", "--dice", "3,8") == {"leader_xp": 2, "platoon_xp": 7, "faces": [3, 8]}
    assert cli_json("roll", "force", "--period", "5", "--dice", "12,4") == {
        "leader_xp": 3,
        "platoon_xp": 11,
        "faces": [12, 4],
    }
    data = cli_json("roll", "force", "--period", "2", "--seed", "5")
    assert all(1 <= f <= 6 for f in data["faces"]) and data["leader_xp"] <= data["platoon_xp"]
    code, out, _ = cli("roll", "force", "--dice", "3,8")
    assert code == 0 and "leader 2 XP, platoon 7 XP" in out


# --- errors: one line on stderr, exit 2, nothing on stdout -----------------------------------------------


@pytest.mark.parametrize(
    "argv,message",
    [
        (["roll", "recovery", "--wounds", "7", "--xp", "5", "--dice", "3"], "too few dice: roll 2 (2d8"),
        (["roll", "recovery", "--wounds", "7", "--xp", "5", "--dice", "9"], "9 is not a face of a d8"),
        (["roll", "recovery", "--wounds", "7", "--xp", "5", "--dice", "3", "5"], "2d8 needs 2 faces, got 1"),
        (["roll", "recovery", "--wounds", "7", "--xp", "5", "--dice", "8", "1,1"], "too many dice"),
        (["roll", "recovery", "--wounds", "-1", "--xp", "5"], "--wounds must be 0 or more, not -1"),
        (["roll", "recovery", "--wounds", "3", "--xp", "33"], "--xp must be a whole number from 0 to 32, not 33"),
        (["odds", "recovery", "--wounds", "-3", "--xp", "5"], "--wounds must be 0 or more"),
        (["odds", "recovery", "--wounds", "3", "--xp", "-1"], "--xp must be a whole number from 0 to 32"),
        (["odds", "recovery", "--wounds", "x", "--xp", "4"], "--wounds must be a whole number, not 'x'"),
        (["odds", "leader", "--leader-wounds", "-1", "--leader-xp", "5"], "--leader-wounds must be 0 or more"),
        (["odds", "leader", "--leader-wounds", "1", "--leader-xp", "40"], "--leader-xp must be a whole number"),
        (["roll", "leader", "--leader-wounds", "1", "--leader-xp", "5", "--dice", "7"], "2d12 needs 2 faces"),
        (["roll", "leader", "--leader-wounds", "1", "--leader-xp", "5", "--dice", "7,13"], "13 is not a face"),
        (["roll", "leader", "--leader-wounds", "1", "--leader-xp", "33", "--dice", "7,9"], "--leader-xp"),
        (["roll", "replacement", "--dice", "11,2"], "11 is not a face of a d10"),
        (["roll", "replacement", "--period", "1", "--dice", "5,1"], "5 is not a face of a d4"),
        (["roll", "replacement", "--dice", "6"], "2d10 needs 2 faces, got 1"),
        (["roll", "replacement", "--one-die", "--dice", "6,2"], "1d10 needs 1 face"),
        (["roll", "replacement", "--period", "6"], "--period must be 1 to 5, not 6"),
        (["roll", "force", "--dice", "3"], "2d10 needs 2 faces, got 1"),
        (["roll", "force", "--dice", "3,x"], "--dice argument 1"),
        (["roll", "force", "--period", "0", "--dice", "1,1"], "--period must be 1 to 5"),
        (["level", "--xp", "33"], "--xp must be a whole number from 0 to 32, not 33"),
        (["level", "--xp", "-1"], "--xp must be a whole number from 0 to 32, not -1"),
        (["level", "--xp", "5", "--thresholds", "1,4,9"], "thresholds must be four whole numbers"),
        (["cards", "--platoon-xp", "40", "--leader-xp", "2"], "--platoon-xp must be a whole number from 0 to 32"),
        (["cards", "--platoon-xp", "4", "--leader-xp", "-2"], "--leader-xp must be a whole number from 0 to 32"),
        (["cards", "--platoon-xp", "4"], "give --leader-xp, or --no-leader"),
    ],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_errors_are_one_line_exit_2_nothing_on_stdout(cli, argv, message, as_json):
    code, out, err = cli(*argv, *(["--json"] if as_json else []))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("campaign-cli: error: ")
    assert message in err
