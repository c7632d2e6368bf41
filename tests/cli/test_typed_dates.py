"""Dates are read by the CLI's argument layer (``--date YYYY-MM-DD``) and reach the services as
``datetime.date``; the services refuse text where a date belongs. A date the CLI cannot read is one line on
stderr, exit 2, nothing written."""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable

import pytest

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
        death_blow.log_bout(kenji.id, opponent_fighter=mara.id, winner="draw", face_cards=0, date="2026-01-01")  # type: ignore[arg-type]
    made = chronicle.add_entry(camp.id, "Season 2", date=_dt.date(2026, 1, 1))
    assert made.result.date == "2026-01-01"
    assert chronicle.add_entry(camp.id, "Today").result.date == _dt.date.today().isoformat()
