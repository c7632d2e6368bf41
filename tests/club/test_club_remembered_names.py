"""A platoon named in an earlier command on a club server goes by its remembered id, checked in the command's
first message by the look-up's own query: a rename, a new platoon with the old name or a second platoon of that
name is found there, and the command runs again with a fresh look-up (never shows or writes the wrong platoon)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clubpg import ClubServer, club_pg, unbind  # noqa: F401 - club_pg is a fixture
from test_club_round_trips import PLAYER, player_url  # noqa: F401 - player_url is a fixture

from campaign_app.cli import main
from campaign_app.services import campaigns, club, names, platoons
from campaign_app.store import close_db, init_db
from tests.ids import campaign_id


def run(url: str, data_dir: Path, argv: list[str], capsys: Any) -> tuple[int, str, str]:
    code = main([*argv, "--data-dir", str(data_dir), "--db", url])
    out, err = capsys.readouterr()
    unbind()
    return code, out, err


def show(url: str, data_dir: Path, capsys: Any, *campaign: str) -> tuple[int, str, str]:
    return run(url, data_dir, ["platoon", "show", "2nd Platoon", *campaign, "--json"], capsys)


def add_platoon(url: str, campaign: str, leader: str) -> None:
    init_db(url, daily_backup=False)
    try:
        platoons.create_platoon(
            campaign_id(campaign), "2nd Platoon", training=8, equipment=8, morale=8, armor=2, leader_name=leader
        )
    finally:
        unbind()


@pytest.fixture(params=["checked", "unchecked"])
def checked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """The check in the first message, and a control without it (which must show the stale platoon)."""
    if request.param == "unchecked":
        monkeypatch.setattr(names, "confirm_platoon_id", lambda name, campaign, remembered: None)
    return bool(request.param == "checked")


def test_a_renamed_platoon_and_a_new_one_with_its_old_name(
    player_url: str, tmp_path: Path, capsys: Any, checked: bool
) -> None:
    camp = ["--campaign", "Congo 1960"]
    code, out, err = show(player_url, tmp_path, capsys, *camp)
    assert code == 0 and "Lt. Ada" in out, err
    remembered = json.loads((tmp_path / "server_names.json").read_text())
    assert list(remembered.values())[0] != {}  # the name's id is kept for the next command
    assert run(player_url, tmp_path, ["platoon", "rename", "2nd Platoon", *camp, "Old Guard"], capsys)[0] == 0
    code, out, err = show(player_url, tmp_path, capsys, *camp)
    if not checked:  # the control: without the check the remembered id shows the renamed platoon
        assert code == 0 and "Old Guard" in out
        return
    assert code == 2 and err.strip().endswith("no platoon named '2nd Platoon' in campaign 'Congo 1960'"), err
    add_platoon(player_url, "Congo 1960", "Lt. Bea")
    code, out, err = show(player_url, tmp_path, capsys, *camp)
    assert code == 0 and "Lt. Bea" in out and "Lt. Ada" not in out, (out, err)
    code, out, err = run(player_url, tmp_path, ["history", "--platoon", "Old Guard", *camp], capsys)
    assert code == 0, err


def test_a_second_platoon_of_the_name_makes_it_ambiguous(
    club_pg: ClubServer, player_url: str, tmp_path: Path, capsys: Any, checked: bool
) -> None:
    from clubpg import OWNER

    code, out, err = show(player_url, tmp_path, capsys)  # no campaign named: the name alone was unique
    assert code == 0 and "Lt. Ada" in out, err
    init_db(club_pg.url("club_round_trips", OWNER), daily_backup=False)
    try:
        campaigns.create_campaign("Katanga", period=3)
        club.add_member(campaign_id("Katanga"), PLAYER)
    finally:
        close_db()
    add_platoon(player_url, "Katanga", "Lt. Cy")
    code, out, err = show(player_url, tmp_path, capsys)
    if not checked:
        assert code == 0 and "Lt. Ada" in out
        return
    assert code == 2 and "more than one platoon is named '2nd Platoon'" in err, (out, err)
