"""``campaign-cli campaign standings`` and ``battle log --opponent-platoon`` (issue 27), on both engines."""

from __future__ import annotations

import json

import pytest

from campaign_app.paths import AppPaths
from campaign_app.store import close_db

pytestmark = pytest.mark.usefixtures("fresh_db")


@pytest.fixture
def league(app_paths: AppPaths, congo_platoon) -> None:  # type: ignore[no-untyped-def]
    congo_platoon(rival=True)
    close_db()


def _log(cli, platoon: str, outcome: str, *more: str) -> dict:  # type: ignore[no-untyped-def]
    return json.loads(cli("battle", "log", "--platoon", platoon, "--wounds", "0", "--leader-wounds", "0",
                          "--outcome", outcome, "--seed", "1", *more, "--json"))


def test_opponent_platoon_links_the_battle_and_counts_head_to_head(cli, league, db_engine: str) -> None:
    d = _log(cli, "2nd Platoon", "victory", "--opponent-platoon", "red company")
    assert d["details"]["opponent"] == "Red Company" and d["details"]["opponent_platoon_id"] is not None
    _log(cli, "Red Company", "defeat", "--opponent-platoon", "2nd Platoon")
    data = json.loads(cli("campaign", "standings", "--campaign", "Congo 1960", "--json"))
    fields = ["platoon", "battles", "victories", "draws", "defeats", "objective_xp", "wounds", "xp_lost",
              "leaders_lost", "xp", "level"]
    if db_engine == "postgresql":
        fields.insert(1, "owner")
    assert [list(r) for r in data["platoons"]] == [fields, fields]
    assert [r["platoon"] for r in data["platoons"]] == ["2nd Platoon", "Red Company"]
    assert data["head_to_head"] == [{"platoons": ["2nd Platoon", "Red Company"], "a_victories": 1,
                                     "b_victories": 0, "draws": 0, "disagreements": 0}]
    text = cli("campaign", "standings", "--campaign", "Congo 1960")
    assert "2nd Platoon – Red Company: 1–0" in text


def test_both_claiming_victory_is_reported_as_disputed(cli, league) -> None:
    _log(cli, "2nd Platoon", "victory", "--opponent-platoon", "Red Company")
    _log(cli, "Red Company", "victory", "--opponent-platoon", "2nd Platoon")
    data = json.loads(cli("campaign", "standings", "--campaign", "Congo 1960", "--json"))
    assert data["head_to_head"][0]["disagreements"] == 1
    assert "disputed" in cli("campaign", "standings", "--campaign", "Congo 1960")


def test_bad_opponent_platoon_is_refused_in_one_line_and_nothing_is_written(cli, league) -> None:
    err = cli("battle", "log", "--platoon", "2nd Platoon", "--wounds", "0", "--leader-wounds", "0",
              "--opponent-platoon", "Nobody", "--seed", "1", rc=2)
    assert "no platoon named 'Nobody'" in err
    err = cli("battle", "log", "--platoon", "2nd Platoon", "--wounds", "0", "--leader-wounds", "0",
              "--opponent-platoon", "2nd Platoon", "--seed", "1", rc=2)
    assert "cannot fight itself" in err
    err = cli("campaign", "standings", "--campaign", "Nowhere", rc=2)
    assert "no campaign named 'Nowhere'" in err
    data = json.loads(cli("campaign", "standings", "--campaign", "Congo 1960", "--json"))
    assert sum(r["battles"] for r in data["platoons"]) == 0  # nothing was written by the refusals
