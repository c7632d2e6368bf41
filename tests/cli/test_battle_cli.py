"""``campaign-cli battle log|undo|edit`` and ``campaign-cli history``: JSON shapes, dice order, text, one-line
errors with nothing written."""

from __future__ import annotations

import csv
import io
import json

import pytest

from campaign_app.paths import AppPaths
from campaign_app.store import close_db, init_db
from campaign_app.store.journal import operation
from campaign_app.store.models import Campaign, Leader, Platoon

pytestmark = pytest.mark.usefixtures("fresh_db")


@pytest.fixture
def congo(app_paths: AppPaths, congo_platoon) -> None:  # type: ignore[no-untyped-def]
    congo_platoon()
    close_db()


def test_log_json_shape_with_typed_dice_in_rule_order(cli, congo) -> None:
    out = cli(
        "battle",
        "log",
        "--platoon",
        "2nd Platoon",
        "--wounds",
        "7",
        "--leader-wounds",
        "3",
        "--objectives",
        "1",
        "--outcome",
        "victory",
        "--scenario",
        "River crossing",
        "--replacement-name",
        "Lt. Adebayo",
        "--dice",
        "3",
        "2,2",
        "2,2",
        "6,9",
        "--json",
    )
    d = json.loads(out)
    assert d["battle_id"] == 1
    assert (d["platoon"]["xp_before"], d["platoon"]["xp_after"]) == (6, 7)
    assert d["leader"] == {"name": "Lt. Okafor", "xp_before": 2, "xp_after": 4, "fate": "promoted"}
    assert d["replacement"]["name"] == "Lt. Adebayo" and d["replacement"]["xp"] == 5
    assert [(r["purpose"], r["expression"], r["faces"], r["total"], r["source"]) for r in d["rolls"]] == [
        ("recovery", "1d8", [3], 3, "entered"),
        ("recovery", "2d8", [2, 2], 4, "entered"),
        ("leader_fate", "2d12", [2, 2], 4, "entered"),
        ("replacement_leader", "2d10", [6, 9], 5, "entered"),
    ]
    assert [(r["purpose_text"], r["rule_text"]) for r in d["rolls"]][2] == ("leader's fate", "RULES 1.2 leader's fate")


def test_log_seeded_is_reproducible_and_stays_has_no_replacement(cli, congo, db_engine: str) -> None:
    first = json.loads(
        cli(
            "battle",
            "log",
            "--platoon",
            "2nd Platoon",
            "--wounds",
            "4",
            "--leader-wounds",
            "0",
            "--seed",
            "3",
            "--json",
        )
    )
    assert first["leader"]["fate"] == "stays" and first["replacement"] is None
    assert all(r["source"] == "app" for r in first["rolls"])
    cli("battle", "undo", "--platoon", "2nd Platoon")
    again = json.loads(
        cli(
            "battle",
            "log",
            "--platoon",
            "2nd Platoon",
            "--wounds",
            "4",
            "--leader-wounds",
            "0",
            "--seed",
            "3",
            "--json",
        )
    )

    def same(rolls: list[dict]) -> list[dict]:  # a server never gives an id twice; a file reuses the undone one
        return [{k: v for k, v in r.items() if k != "id"} for r in rolls] if db_engine != "sqlite" else rolls

    assert same(again["rolls"]) == same(first["rolls"])
    assert (again["battle_id"] == first["battle_id"]) == (db_engine == "sqlite")


def test_log_text_names_each_roll_and_rule(cli, congo) -> None:
    out = cli(
        "battle", "log", "--platoon", "2nd Platoon", "--wounds", "2", "--leader-wounds", "0", "--dice", "2", "12,11"
    )
    assert "Battle 1 of 2nd Platoon logged" in out
    assert "recovery: 1d8 [2] = 2" in out and "RULES 1.2 recovery" in out
    assert "leader's fate: 2d12 [12, 11] = 23 \u2192 stays" in out
    assert "Platoon XP 6 \u2192 7" in out and "Lt. Okafor: XP 2 \u2192 3, stays" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--wounds", "-1", "--leader-wounds", "0"], "wound counters must be a whole number, 0 or more, not -1"),
        (["--wounds", "x", "--leader-wounds", "0"], "wound counters must be a whole number"),
        (["--wounds", "3", "--leader-wounds", "0", "--objectives", "3"], "objectives met must be 0"),
        (["--wounds", "3", "--leader-wounds", "0", "--outcome", "won"], "outcome must be victory, defeat or draw"),
        (["--wounds", "3", "--leader-wounds", "0", "--dice", "9"], "9 is not a face of a d8"),
        (["--wounds", "3", "--leader-wounds", "0", "--dice", "3"], "too few dice"),
        (["--wounds", "3", "--leader-wounds", "0", "--dice", "3", "5,5", "4"], "too many dice"),
        (["--wounds", "3", "--leader-wounds", "0", "--dice", "3", "5,x"], "--dice argument 2: 'x' is not a die face"),
        (["--wounds", "3", "--leader-wounds", "0", "--date", "yesterday"], "battle date must be a date"),
    ],
)
def test_log_errors_are_one_line_and_write_nothing(cli, congo, argv, message) -> None:
    err = cli("battle", "log", "--platoon", "2nd Platoon", *argv, rc=2)
    assert message in err
    h = json.loads(cli("history", "--platoon", "2nd Platoon", "--json"))
    assert h["battles"] == []


def test_unknown_platoon(cli, congo) -> None:
    assert "no platoon named 'Nobody'" in cli(
        "battle", "log", "--platoon", "Nobody", "--wounds", "1", "--leader-wounds", "0", rc=2
    )
    assert "no platoon named 'Nobody'" in cli("history", "--platoon", "Nobody", rc=2)


def test_undo_restores_xp_and_leader(cli, congo, app_paths: AppPaths, db_target: str) -> None:
    cli(
        "battle",
        "log",
        "--platoon",
        "2nd Platoon",
        "--wounds",
        "0",
        "--leader-wounds",
        "0",
        "--dice",
        "1,1",
        "8,8",
        "--replacement-name",
        "Lt. Bello",
    )
    out = cli("battle", "undo", "--platoon", "2nd Platoon")
    assert "undid battle 1 of 2nd Platoon: XP 7 → 6" in out and "Lt. Bello" in out
    # the leader's line names the leader, with the real figures and the fate in words (not "None", not a code)
    assert "Lt. Okafor: XP 3 → 2; the roll that found the leader promoted out of the platoon is undone" in out
    assert "None" not in out and "'promoted'" not in out
    init_db(db_target, app_paths.backup_dir)
    leaders = [(ld.name, ld.status, ld.xp) for ld in Leader.select()]
    assert leaders == [("Lt. Okafor", "active", 2)] and Platoon.get().xp == 6
    close_db()
    assert "has no battle to undo" in cli("battle", "undo", "--platoon", "2nd Platoon", rc=2)


def test_edit_and_history_formats(cli, congo) -> None:
    cli(
        "battle",
        "log",
        "--platoon",
        "2nd Platoon",
        "--wounds",
        "1",
        "--leader-wounds",
        "0",
        "--seed",
        "1",
        "--scenario",
        "Patrol",
    )
    cli("battle", "log", "--platoon", "2nd Platoon", "--wounds", "1", "--leader-wounds", "0", "--seed", "2")
    edited = json.loads(
        cli(
            "battle",
            "edit",
            "--platoon",
            "2nd Platoon",
            "--battle",
            "1",
            "--scenario",
            "Night patrol",
            "--outcome",
            "draw",
            "--reason",
            "typo",
            "--json",
        )
    )
    assert edited["old"] == {"scenario": "Patrol", "outcome": None}
    assert edited["new"] == {"scenario": "Night patrol", "outcome": "draw"}
    assert "nothing to change" in cli("battle", "edit", "--platoon", "2nd Platoon", rc=2)
    assert "has no battle 9" in cli("battle", "edit", "--platoon", "2nd Platoon", "--battle", "9", "--notes", "x", rc=2)
    assert "--battle must be a battle number" in cli(
        "battle", "edit", "--platoon", "2nd Platoon", "--battle", "two", "--notes", "x", rc=2
    )
    h = json.loads(cli("history", "--platoon", "2nd Platoon", "--json"))
    assert [b["number"] for b in h["battles"]] == [2, 1]
    assert {"id", "date", "rolls"} <= set(h["battles"][0]) and h["battles"][0]["rolls"]
    assert h["battles"][1]["scenario"] == "Night patrol"
    assert {e["kind"] for e in h["events"]} == {"battle", "xp", "leader", "attribute", "roll"}
    rows = list(csv.DictReader(io.StringIO(cli("history", "--platoon", "2nd Platoon", "--csv"))))
    assert len(rows) == len(h["events"]) and rows[0]["kind"] == h["events"][0]["kind"]
    fate = next(r for r in rows if r["kind"] == "roll" and r["purpose"].startswith("leader"))
    assert (fate["purpose"], fate["rule"]) == ("leader's fate", "RULES 1.2 leader's fate")  # words in a sheet
    assert {e["purpose"] for e in h["events"] if e["kind"] == "roll"} <= {
        "recovery",
        "leader_fate",
        "replacement_leader",
    }  # codes in JSON
    text = cli("history", "--platoon", "2nd Platoon")
    assert "2nd Platoon (Congo 1960): 2 battles" in text and "Battle 1: Scenario Patrol → Night patrol (typo)" in text
    edit = next(e for e in h["events"] if e["kind"] == "attribute" and e["field"] == "battle.scenario")
    assert edit["text"] == "Battle 1: Scenario Patrol → Night patrol (typo)"  # the sentence, beside the stored data
    assert (edit["old"], edit["new"], edit["reason"], edit["battle_number"]) == ("Patrol", "Night patrol", "typo", 1)


def test_a_digits_only_platoon_name_is_a_name_not_an_id(cli, app_paths: AppPaths, db_target: str) -> None:
    with operation("test.setup", "test data"):
        c = Campaign.create(name="Names", system="atomic_africa")
    with operation("test.setup", "test data"):
        alpha = Platoon.create(campaign=c, name="Alpha", training=6, equipment=6, morale=6, armor=1, xp=3)
    with operation("test.setup", "test data"):
        one = Platoon.create(campaign=c, name="1", training=6, equipment=6, morale=6, armor=1, xp=5)
    ids = (alpha.id, one.id)
    close_db()
    assert ids[0] == 1
    out = json.loads(cli("battle", "log", "--platoon", "1", "--wounds", "0", "--leader-wounds", "0", "--json"))
    assert out["platoon"]["name"] == "1"
    init_db(db_target, app_paths.backup_dir)
    assert [(p.name, p.xp) for p in Platoon.select().order_by(Platoon.id)] == [("Alpha", 3), ("1", 6)]
    close_db()


def test_edit_without_battles_says_there_are_none_to_edit(cli, congo) -> None:
    err = cli("battle", "edit", "--platoon", "2nd Platoon", "--notes", "x", rc=2)
    assert "2nd Platoon has no battles to edit" in err


def test_leader_wounds_above_the_total_and_long_notes_are_one_line_errors(cli, congo) -> None:
    err = cli("battle", "log", "--platoon", "2nd Platoon", "--wounds", "2", "--leader-wounds", "3", rc=2)
    assert "cannot exceed the battle's total wound counters (2)" in err
    err = cli(
        "battle",
        "log",
        "--platoon",
        "2nd Platoon",
        "--wounds",
        "0",
        "--leader-wounds",
        "0",
        "--notes",
        "n" * 10_001,
        rc=2,
    )
    assert "notes is too long" in err


def test_edit_changes_date_opponent_fire_support_and_refuses_xp_fields(cli, congo) -> None:
    cli(
        "battle",
        "log",
        "--platoon",
        "2nd Platoon",
        "--wounds",
        "1",
        "--leader-wounds",
        "0",
        "--seed",
        "1",
        "--opponent",
        "Bandits",
    )
    out = cli(
        "battle", "edit", "--platoon", "2nd Platoon", "--date", "2026-01-02", "--opponent", "Rebels", "--fire-support"
    )
    assert "opponent 'Bandits' \u2192 'Rebels'" in out and "fire support not used \u2192 used" in out
    assert "date" in out and "2026-01-02" in out
    err = cli("battle", "edit", "--platoon", "2nd Platoon", "--wounds", "4", rc=2)
    assert "the wound counters of battle 1 cannot be edited (1 recorded)" in err
    assert "Undo the battle and log it again" in err
    err = cli("battle", "edit", "--platoon", "2nd Platoon", "--objectives", "2", "--notes", "x", rc=2)
    assert "objectives met of battle 1 cannot be edited" in err
    h = json.loads(cli("history", "--platoon", "2nd Platoon", "--json"))
    b = h["battles"][0]
    assert (b["opponent"], b["fire_support"], b["notes"], str(b["date"])[:10]) == ("Rebels", True, "", "2026-01-02")
