"""``campaign-cli fighter ...`` and ``campaign-cli bout ...``: the commands and their JSON
shapes, on both engines; bad input is one line on stderr, exit status 2, and writes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from campaign_app.rules import death_blow as rules

SIDE_KEYS = {
    "card",
    "dice",
    "initiative",
    "style",
    "final_style",
    "attack",
    "defense",
    "damage",
    "discarded",
    "cards_left",
}
CARD_LABELS = {c.label for c in rules.full_deck()}


@pytest.fixture
def pit(cli: Callable[..., str]) -> Callable[..., str]:
    cli("campaign", "new", "--name", "Pit", "--system", "death-blow")
    cli("fighter", "new", "--campaign", "Pit", "--name", "Kenji", "--level", "2")
    cli("fighter", "new", "--campaign", "Pit", "--name", "Mara")
    return cli


def js(cli: Callable[..., str], *argv: str) -> dict:
    return json.loads(cli(*argv, "--json"))


def test_fighters_new_list_show(pit: Callable[..., str]) -> None:
    made = js(pit, "fighter", "new", "--campaign", "Pit", "--name", "Old Wu", "--level", "7")
    assert (made["name"], made["level"], made["xp"], made["lifetime_xp"]) == ("Old Wu", 7, 0, 0)
    listed = js(pit, "fighter", "list", "--campaign", "Pit")
    assert [f["name"] for f in listed] == ["Kenji", "Mara", "Old Wu"]
    shown = js(pit, "fighter", "show", "Kenji", "--campaign", "Pit")
    for key in ("name", "level", "xp", "lifetime_xp", "bouts", "wins", "draws", "losses"):
        assert key in shown
    assert (shown["level"], shown["bouts"]) == (2, 0)
    assert "level 2" in pit("fighter", "show", "Kenji")


def test_bout_log_with_level_up_and_both_records(pit: Callable[..., str]) -> None:
    pit("fighter", "set", "Kenji", "--xp", "10", "--reason", "as agreed")
    out = js(
        pit,
        "bout",
        "log",
        "--fighter",
        "Kenji",
        "--opponent-fighter",
        "Mara",
        "--winner",
        "Kenji",
        "--face-cards",
        "5",
        "--date",
        "2026-11-20",
        "--notes",
        "first",
    )
    assert (out["winner"], out["xp_gained"], out["face_cards_left"], out["rounds"]) == ("Kenji", 5, 5, [])
    kenji = js(pit, "fighter", "show", "Kenji")
    mara = js(pit, "fighter", "show", "Mara")
    assert (kenji["level"], kenji["xp"], kenji["lifetime_xp"], kenji["wins"]) == (3, 3, 5, 1)
    assert (mara["bouts"], mara["losses"]) == (1, 1)
    again = js(pit, "bout", "show", str(out["id"]))
    assert again["winner"] == "Kenji"
    draw = js(
        pit, "bout", "log", "--fighter", "Mara", "--opponent", "Old Wu", "--opponent-level", "4", "--winner", "draw"
    )
    assert draw["winner"] == "draw" and draw["xp_gained"] == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--opponent-fighter", "Mara", "--winner", "Kenji", "--face-cards", "13"], "from 0 to 12"),
        (["--opponent-fighter", "Mara", "--winner", "Kenji", "--face-cards", "-1"], "from 0 to 12"),
        (["--opponent-fighter", "Mara", "--winner", "Ryu", "--face-cards", "3"], "did not fight"),
        (["--opponent-fighter", "Ryu", "--winner", "Kenji", "--face-cards", "3"], "another campaign"),
        (["--opponent-fighter", "Mara", "--winner", "Kenji"], "--face-cards"),
        (["--winner", "Kenji", "--face-cards", "2"], "name the opponent"),
    ],
)
def test_bad_bout_logs_are_refused_in_one_line(pit: Callable[..., str], argv: list[str], message: str) -> None:
    pit("campaign", "new", "--name", "Dojo", "--system", "death-blow")
    pit("fighter", "new", "--campaign", "Dojo", "--name", "Ryu")
    err = pit("bout", "log", "--fighter", "Kenji", *argv, rc=2)
    assert message in err
    assert js(pit, "fighter", "show", "Kenji")["bouts"] == 0
    assert js(pit, "fighter", "show", "Mara")["bouts"] == 0


def test_bout_play_json_shape_and_typed_dice(pit: Callable[..., str]) -> None:
    out = js(
        pit, "bout", "play", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--dice", "7,3", "11,2", "5,5", "9,1"
    )
    assert out["winner"] in ("Kenji", "Mara", "draw")
    assert 0 <= out["xp_gained"] <= 12 and out["face_cards_left"] == out["xp_gained"]
    rounds = out["rounds"]
    assert rounds and all(set(r["a"]) >= SIDE_KEYS and set(r["b"]) >= SIDE_KEYS for r in rounds)
    assert rounds[0]["a"]["dice"] == [7, 3] and rounds[0]["b"]["dice"] == [11, 2]
    assert rounds[1]["a"]["dice"] == [5, 5] and rounds[1]["b"]["dice"] == [9, 1]
    assert out["app_rolled_from_round"] == 3
    for r in rounds:
        for side in ("a", "b"):
            s = r[side]
            assert s["card"] in CARD_LABELS and len(s["dice"]) == 2 and 0 <= s["initiative"] <= 2
            assert s["style"] in ("mixed-offense", "mixed-defense")
            assert s["final_style"] in rules.SCALE
    assert js(pit, "bout", "show", str(out["id"]))["rounds"] == rounds
    text = pit("bout", "play", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--dice", "7,3", "11,2")
    assert "the app rolled the dice from round 2 on" in text


def test_the_same_seed_and_fighters_give_the_same_bout(pit: Callable[..., str]) -> None:
    one = js(pit, "bout", "play", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--seed", "11")
    pit("undo")
    two = js(pit, "bout", "play", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--seed", "11")
    assert one["rounds"] == two["rounds"] and one["winner"] == two["winner"]


def test_bad_dice_are_refused(pit: Callable[..., str]) -> None:
    err = pit("bout", "play", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--dice", "7,3", "13,1", rc=2)
    assert "two d12 faces" in err
    assert js(pit, "fighter", "show", "Kenji")["bouts"] == 0


def test_bout_odds_json(pit: Callable[..., str]) -> None:
    out = js(pit, "bout", "odds", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--bouts", "2000")
    assert out["bouts"] == 2000 and out["estimate"] is True
    assert abs(out["fighter_wins"] + out["opponent_wins"] + out["draws"] - 1) < 1e-9
    assert 0 < out["margin"] < 0.05
    assert "estimate" in pit("bout", "odds", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--bouts", "500")


def test_set_corrections_and_undo(pit: Callable[..., str]) -> None:
    assert "from 0 to 11" in pit("fighter", "set", "Kenji", "--level", "12", rc=2)
    pit("fighter", "set", "Kenji", "--level", "5", "--reason", "agreed")
    assert js(pit, "fighter", "show", "Kenji")["level"] == 5
    pit("undo")
    assert js(pit, "fighter", "show", "Kenji")["level"] == 2


def test_history_and_export(pit: Callable[..., str], tmp_path: Path) -> None:
    pit("bout", "log", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--winner", "Mara", "--face-cards", "12")
    h = js(pit, "fighter", "history", "Mara")
    assert [e["kind"] for e in h["events"]][:2] == ["level", "bout"]
    assert h["series"][-1]["level"] == 1
    csv_text = pit("fighter", "history", "Mara", "--csv")
    assert csv_text.splitlines()[0].startswith("date,kind,text")
    pit("fighter", "export", "Mara", "--output", str(tmp_path / "m.json"))
    assert json.loads((tmp_path / "m.json").read_text())["fighter"]["name"] == "Mara"
    pairs = js(pit, "fighter", "head-to-head", "--campaign", "Pit")
    assert pairs == [
        {"fighter": "Kenji", "opponent": "Mara", "bouts": 1, "fighter_wins": 0, "opponent_wins": 1, "draws": 0}
    ]
