"""The CLI's argument layer reads what a user types ("+1", "VICTORY", "none", "d10") into the typed values the
services take; the services check ranges and rules, not spelling, and refuse text where a number or an Outcome
belongs. A word the CLI cannot read is one line on stderr, exit 2, nothing written."""

from __future__ import annotations

import json

import pytest

from campaign_app.paths import AppPaths
from campaign_app.rules.dice import TypedDice
from campaign_app.rules.enums import Outcome
from campaign_app.services import battle_edits, battles, platoons
from campaign_app.services.common import ServiceError
from campaign_app.store import close_db
from campaign_app.store.models import Battle, Platoon

pytestmark = pytest.mark.usefixtures("fresh_db")


@pytest.fixture
def congo(app_paths: AppPaths, congo_platoon) -> None:  # type: ignore[no-untyped-def]
    congo_platoon()
    close_db()


def test_typed_words_are_read_by_the_cli(cli, congo) -> None:
    out = json.loads(
        cli(
            "battle",
            "log",
            "--platoon",
            "2nd Platoon",
            "--wounds",
            " 2 ",
            "--leader-wounds",
            "0",
            "--objectives",
            "+1",
            "--outcome",
            "VICTORY",
            "--dice",
            "2",
            "12,11",
            "--json",
        )
    )
    assert out["details"]["objectives"] == 1 and out["details"]["outcome"] == "victory"
    assert out["wounds"] == 2
    edited = json.loads(cli("battle", "edit", "--platoon", "2nd Platoon", "--outcome", "none", "--json"))
    assert edited["old"] == {"outcome": "victory"} and edited["new"] == {"outcome": None}
    made = json.loads(
        cli(
            "platoon",
            "new",
            "--campaign",
            "Congo 1960",
            "--name",
            "3rd Platoon",
            "--training",
            "D10",
            "--equipment",
            "8",
            "--morale",
            "d6",
            "--armor",
            "2",
            "--json",
        )
    )
    assert (made["training"], made["equipment"], made["morale"]) == ("d10", "d8", "d6")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            [
                "battle",
                "log",
                "--platoon",
                "2nd Platoon",
                "--wounds",
                "2",
                "--leader-wounds",
                "0",
                "--objectives",
                "one",
            ],
            "objectives met must be 0 (none), 1 (hard, +1 XP) or 2 (near-impossible, +2 XP), not 'one'",
        ),
        (
            ["battle", "log", "--platoon", "2nd Platoon", "--wounds", "two", "--leader-wounds", "0"],
            "wound counters must be a whole number, 0 or more, not 'two'",
        ),
        (
            ["battle", "log", "--platoon", "2nd Platoon", "--wounds", "2", "--leader-wounds", "0", "--outcome", "won"],
            "outcome must be victory, defeat or draw, not 'won'",
        ),
        (["platoon", "set", "2nd Platoon", "--training", "d7"], "Training: d7 is not an attribute die"),
        (["platoon", "set", "2nd Platoon", "--morale", "good"], "Morale: not a die: 'good'"),
        (
            ["chronicle", "report", "--platoon", "2nd Platoon", "--text", "x", "--battle", "three"],
            "battle must be a battle number like 3, not 'three'",
        ),
    ],
)
def test_words_the_cli_cannot_read_are_one_line_and_exit_2(cli, congo, argv: list[str], message: str) -> None:
    err = cli(*argv, rc=2)
    assert message in err


def test_the_services_take_values_not_spellings(congo_platoon) -> None:  # type: ignore[no-untyped-def]
    pid = congo_platoon()
    with pytest.raises(ServiceError, match="objectives met must be 0"):
        battles.check_objectives("+1")  # type: ignore[arg-type]  # a caller that did not read the words
    with pytest.raises(ServiceError, match="outcome must be victory, defeat or draw, not 'none'"):
        battles.check_outcome("none")  # type: ignore[arg-type]
    with pytest.raises(ServiceError, match="outcome must be victory, defeat or draw, not 'Victory'"):
        battles.check_outcome("Victory")  # type: ignore[arg-type]
    with pytest.raises(ServiceError, match="wound counters must be a whole number"):
        battles.check_wounds("3", "wound counters")  # type: ignore[arg-type]
    with pytest.raises(ServiceError, match="Training: not a die: 'd8'"):
        platoons.set_platoon(pid, training="d8")  # type: ignore[arg-type]
    assert battles.check_outcome(Outcome.DRAW) is Outcome.DRAW and battles.check_objectives(2) == 2
    logged = battles.log_battle(pid, wounds=0, objectives=1, outcome=Outcome.VICTORY, dice=TypedDice([[12, 11]]))
    battle_edits.edit_battle(logged.id, outcome=None)
    assert Battle.get_by_id(logged.id).outcome is None
    platoons.set_platoon(pid, training=12)
    assert Platoon.get_by_id(pid).training == 12
