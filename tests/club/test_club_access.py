"""The client's checks of who may do what (``store.access``): one clear line before anything is
written, naming the owner, on a club server; everything allowed on a file database. The checks ask the server's
own policy functions, connected as the players of a throwaway club (tests/clubpg.py)."""

from __future__ import annotations

import getpass
from collections.abc import Iterator
from typing import Any

import pytest
from clubpg import ORGANISER, ClubServer, bind, club_pg, make_club, owner_writes, unbind  # noqa: F401
from peewee import DatabaseError

from campaign_app.errors import Refused
from campaign_app.store import access, journal
from campaign_app.store.access import NotYours

DB = "club_access"


@pytest.fixture(scope="module")
def club(club_pg: ClubServer) -> dict[str, Any]:
    return make_club(club_pg, DB)


@pytest.fixture
def as_login(club_pg: ClubServer, club: dict[str, Any]) -> Iterator[Any]:
    """``as_login(who)`` binds the models to the club database as ``who``."""
    yield lambda who: bind(club_pg, DB, who)
    unbind()


# --------------------------------------------------------------------------------------------- a file


def test_on_a_file_database_everything_is_allowed(fresh_db: object) -> None:
    assert not access.is_club() and not access.rules_installed()
    assert access.current_user() == getpass.getuser()
    assert access.can_change(platoon=1, sheet=1, campaign=1)
    access.require_change(platoon=1, sheet=1, campaign=1, kind="campaign.delete")
    access.require_campaign_creator()


# --------------------------------------------------------------------------------------------- a club server


def test_another_players_platoon_is_refused_naming_its_owner(as_login: Any, club: dict[str, Any]) -> None:
    as_login("bob")
    assert access.is_club() and access.current_user() == "bob" and access.rules_installed()
    assert access.why_not(platoon=club["ada_platoon"]) == "2nd Platoon belongs to ada; you can look but not change it"
    assert not access.can_change(platoon=club["ada_platoon"])
    assert access.can_change(platoon=club["bob_platoon"])
    with pytest.raises(NotYours, match=r"^2nd Platoon belongs to ada; you can look but not change it$") as caught:
        access.require_change(campaign=club["congo"], platoon=club["ada_platoon"], kind="battle.log")
    assert isinstance(caught.value, Refused)
    access.require_change(campaign=club["congo"], platoon=club["bob_platoon"], kind="battle.log")


def test_campaign_changes_are_for_its_organisers(as_login: Any, club: dict[str, Any]) -> None:
    as_login("bob")
    with pytest.raises(NotYours, match=r"^only an organiser of Congo 1960 can rename it$"):
        access.require_change(campaign=club["congo"], kind="campaign.rename")
    with pytest.raises(NotYours, match=r"^only an organiser of Congo 1960 can change it$"):
        access.require_change(campaign=club["congo"], kind="something.new")
    with pytest.raises(NotYours, match="only the club's organisers can create campaigns, and bob is a player"):
        access.require_campaign_creator()
    as_login(ORGANISER)
    access.require_change(campaign=club["congo"], kind="campaign.rename")
    access.require_change(platoon=club["ada_platoon"])  # an organiser changes any platoon of the campaign
    access.require_campaign_creator()


def test_a_platoon_of_no_player_is_the_organisers(
    club_pg: ClubServer,
    as_login: Any,
    club: dict[str, Any],
) -> None:
    with owner_writes(club_pg, DB) as owner:
        owner.execute("UPDATE platoon SET owner = '' WHERE id = %s", (club["ada_platoon"],))
    try:
        as_login("ada")
        assert access.why_not(platoon=club["ada_platoon"]) == (
            "2nd Platoon belongs to no player; only an organiser of Congo 1960 can change it"
        )
    finally:
        with owner_writes(club_pg, DB) as owner:
            owner.execute("UPDATE platoon SET owner = 'ada' WHERE id = %s", (club["ada_platoon"],))


def test_a_sheet_is_checked_like_a_platoon(
    club_pg: ClubServer,
    as_login: Any,
    club: dict[str, Any],
) -> None:
    as_login("bob")
    assert access.why_not(sheet=club["secret_sheet"]) is None  # bob cannot even see it: the service says so
    with owner_writes(club_pg, DB) as owner:
        owner.execute(
            "INSERT INTO campaign_member (campaign_id, login, role) VALUES (%s, 'bob', 'player')", (club["secret"],)
        )
    try:
        as_login("bob")
        assert access.why_not(sheet=club["secret_sheet"]) == (
            "The Sologear sheet of Kael (Secret War) belongs to olga; you can look but not change it"
        )
    finally:
        with owner_writes(club_pg, DB) as owner:
            owner.execute("DELETE FROM campaign_member WHERE campaign_id = %s AND login = 'bob'", (club["secret"],))


def test_the_journal_checks_an_operations_target(as_login: Any, club: dict[str, Any]) -> None:
    """The call ``store.journal`` makes whenever an operation names (or is given) its target."""
    as_login("bob")
    mine = journal.Operation(1, "battle.log", "x", club["congo"], club["bob_platoon"])
    journal._club_check(mine)
    adas = journal.Operation(1, "battle.log", "x", club["congo"], club["ada_platoon"])
    with pytest.raises(NotYours, match="2nd Platoon belongs to ada"):
        journal._club_check(adas)


def test_the_servers_refusal_is_one_line(as_login: Any, club: dict[str, Any]) -> None:
    database = as_login("bob")
    with pytest.raises((DatabaseError, Refused)) as caught, database.atomic():
        database.execute_sql(
            "INSERT INTO xp_change (platoon_id, who, delta, xp_after, reason, created_at) VALUES "
            "(?, 'platoon', 1, 4, '', now())",
            (club["ada_platoon"],),
        )
    refused = access.refusal(caught.value)
    assert isinstance(refused, NotYours)
    assert str(refused) == (
        "the club server refused the change to an XP change: you change only the platoons and "
        "Sologear sheets you own (an organiser: anything in their campaigns); nothing was written"
    )
    with pytest.raises((DatabaseError, Refused)) as caught, database.atomic():
        database.execute_sql("UPDATE schema_migration SET name = 'x'")
    refused = access.refusal(caught.value)
    assert refused is not None and str(refused).startswith(
        "the club server refused: your login may not change the database's version (permission denied"
    )
    assert "\n" not in str(refused)
    with pytest.raises(DatabaseError) as caught, database.atomic():  # not a refusal: left alone
        database.execute_sql("SELECT 1/0")
    assert access.refusal(caught.value) is None
