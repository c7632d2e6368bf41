"""Dates, Death Blow's numbers and a bout's winner are read by the CLI's argument layer (``--date YYYY-MM-DD``,
``--level 3``, ``--winner NAME|draw``) and reach the services as ``datetime.date``, ints and a ``BoutWinner``;
the services refuse text where those belong. What the CLI cannot read is one line on stderr, exit 2, nothing
written."""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable

import pytest

from campaign_app.rules.enums import BoutWinner
from campaign_app.services import chronicle, death_blow
from campaign_app.services.common import ServiceError
from campaign_app.store.journal import operation
from campaign_app.store.models import Campaign, Fighter


@pytest.fixture
def pit(cli: Callable[..., str]) -> Callable[..., str]:
    cli("campaign", "new", "--name", "Pit", "--system", "death-blow")
    cli("fighter", "new", "--campaign", "Pit", "--name", "Kenji")
    cli("fighter", "new", "--campaign", "Pit", "--name", "Mara")
    return cli


@pytest.mark.parametrize(
    "argv",
    [
        ["bout", "log", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--winner", "draw", "--date", "1st May"],
        ["bout", "play", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--date", "2026-02-30"],
        ["chronicle", "add", "--campaign", "Pit", "--title", "Season 2", "--date", "tomorrow"],
        ["chronicle", "add", "--campaign", "Pit", "--title", "Season 2", "--date", ""],
    ],
)
def test_a_date_the_cli_cannot_read_is_refused_in_one_line(pit: Callable[..., str], argv: list[str]) -> None:
    before = pit("journal", "--json")
    err = pit(*argv, rc=2)
    assert "must be a date like 2024-05-31 (YYYY-MM-DD), not " in err
    assert pit("journal", "--json") == before, "nothing was written"


def test_dates_typed_on_the_command_line_are_stored(pit: Callable[..., str]) -> None:
    bout = json.loads(
        pit(
            "bout", "log", "--fighter", "Kenji", "--opponent-fighter", "Mara", "--winner", "draw", "--date",
            " 2026-11-01 ", "--json",
        )
    )  # fmt: skip
    assert bout["date"] == "2026-11-01"
    entry = json.loads(
        pit("chronicle", "add", "--campaign", "Pit", "--title", "Finals", "--date", "2026-12-24", "--json")
    )
    assert entry["date"] == "2026-12-24"


def test_the_services_take_dates_not_text(fresh_db: object) -> None:
    with operation("test.setup", "test data"):
        camp = Campaign.create(name="Pit", system="death_blow")
        kenji = Fighter.create(campaign=camp, name="Kenji", start_level=0, level=0, xp=0, lifetime_xp=0)
        mara = Fighter.create(campaign=camp, name="Mara", start_level=0, level=0, xp=0, lifetime_xp=0)
    with pytest.raises(ServiceError, match="the entry's date must be a date, not '2026-01-01'"):
        chronicle.add_entry(camp.id, "Season 2", date="2026-01-01")  # type: ignore[arg-type]
    with pytest.raises(ServiceError, match="the bout's date must be a date, not '2026-01-01'"):
        death_blow.log_bout(kenji.id, opponent_fighter=mara.id, winner=BoutWinner.DRAW, face_cards=0, date="2026-01-01")  # type: ignore[arg-type]
    made = chronicle.add_entry(camp.id, "Season 2", date=_dt.date(2026, 1, 1))
    assert made.result.date == "2026-01-01"
    assert chronicle.add_entry(camp.id, "Today").result.date == _dt.date.today().isoformat()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["fighter", "set", "Mara", "--level", "three"], "--level must be a whole number, not 'three'"),
        (["fighter", "set", "Mara", "--xp", "2.5"], "--xp must be a whole number, not '2.5'"),
        (["fighter", "new", "--campaign", "Pit", "--name", "Wu", "--level", "x"], "--level must be a whole number"),
        (
            ["bout", "log", "--fighter", "Mara", "--opponent", "Old Wu", "--opponent-level", "7th", "--winner", "Mara"]
            + ["--face-cards", "1"],
            "--opponent-level must be a whole number, not '7th'",
        ),
        (
            ["bout", "log", "--fighter", "Mara", "--opponent-fighter", "Kenji", "--winner", "Mara"]
            + ["--face-cards", "some"],
            "--face-cards must be a whole number, not 'some'",
        ),
        (
            ["bout", "log", "--fighter", "Mara", "--opponent-fighter", "Kenji", "--winner", "Ryu", "--face-cards", "1"],
            "'Ryu' did not fight in this bout (the fighters are Mara and Kenji; or say draw)",
        ),
        (["bout", "odds", "--fighter", "Mara", "--opponent-fighter", "Kenji", "--bouts", "many"], "--bouts must be"),
    ],
)
def test_numbers_and_the_winner_the_cli_cannot_read_are_refused_in_one_line(
    pit: Callable[..., str], argv: list[str], message: str
) -> None:
    before = pit("journal", "--json")
    assert message in pit(*argv, rc=2)
    assert pit("journal", "--json") == before, "nothing was written"


def test_the_winner_is_a_side_of_the_bout(pit: Callable[..., str]) -> None:
    won = json.loads(
        pit(
            "bout", "log", "--fighter", "Mara", "--opponent", "Old  Wu", "--opponent-level", "2", "--winner",
            "OLD WU", "--face-cards", "3", "--json",
        )
    )  # fmt: skip
    assert (won["winner"], won["opponent"]) == ("Old Wu", "Old Wu")
    won = json.loads(
        pit("bout", "log", "--fighter", "mara", "--opponent-fighter", "kenji", "--winner", " MARA ", "--face-cards",
            "4", "--json")
    )  # fmt: skip
    assert (won["winner"], won["xp_gained"]) == ("Mara", 4)


def test_the_service_takes_a_side_not_a_name(fresh_db: object) -> None:
    with operation("test.setup", "test data"):
        camp = Campaign.create(name="Pit", system="death_blow")
        kenji = Fighter.create(campaign=camp, name="Kenji", start_level=0, level=0, xp=0, lifetime_xp=0)
        mara = Fighter.create(campaign=camp, name="Mara", start_level=0, level=0, xp=0, lifetime_xp=0)
    with pytest.raises(ServiceError, match="the winner must be the fighter, the opponent or a draw, not 'Kenji'"):
        death_blow.log_bout(kenji.id, opponent_fighter=mara.id, winner="Kenji", face_cards=1)  # type: ignore[arg-type]
    with pytest.raises(ServiceError, match="level must be an Experience Level from 0 to 11, not '3'"):
        death_blow.set_fighter(kenji.id, level="3")  # type: ignore[arg-type]
    done = death_blow.log_bout(kenji.id, opponent_fighter=mara.id, winner=BoutWinner.OPPONENT, face_cards=2)
    assert (done.result.winner, done.result.xp_gained) == ("Mara", 2)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["sologear", "turn", "--campaign", "Hill 214", "--action", "flee"],
            "unknown action 'flee' (expected dec, rep",
        ),
        (
            ["sologear", "turn", "--campaign", "Hill 214", "--action", "FIG", "--posture", "brave"],
            "posture must be a whole number from -2 to 2, not 'brave'",
        ),
        (
            ["sologear", "turn", "--campaign", "Hill 214", "--action", "fig", "--posture", "+3"],
            "posture must be from -2 (Cowardly) to 2 (Bold), not 3",
        ),
        (["sologear", "odds", "--campaign", "Hill 214", "--posture", "1.5"], "posture must be a whole number"),
    ],
)
def test_a_turn_the_cli_cannot_read_is_refused_in_one_line(
    cli: Callable[..., str], argv: list[str], message: str
) -> None:
    cli("sologear", "new", "--name", "Hill 214", "--pilot", "Janne", "--gear-tv", "250")
    cli("sologear", "force", "add", "--campaign", "Hill 214", "--side", "player", "--name", "1st", "--base", "350")
    cli("sologear", "force", "add", "--campaign", "Hill 214", "--side", "enemy", "--name", "Foe", "--base", "300")
    cli("sologear", "length", "--campaign", "Hill 214", "--dice", "3")
    before = cli("journal", "--json")
    assert message in cli(*argv, rc=2)
    assert cli("journal", "--json") == before, "nothing was written"
