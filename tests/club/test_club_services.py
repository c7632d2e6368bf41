"""Club play through the services: on a club server a player's attempt to change what is not
theirs is refused in one line naming the owner, and nothing is written; on a file database the club's
services say they need a club server. Runs against a real PostgreSQL server (skips without one)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from clubpg import ORGANISER, ClubServer, club_pg, ensure_role, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.errors import Refused
from campaign_app.rules.dice import SeededDice
from campaign_app.services import battles, campaigns, club, journal, platoons
from campaign_app.store import access, close_db, init_db
from campaign_app.store.access import NotYours
from campaign_app.store.club_server import NeedsClubServer, add_player, init_server
from campaign_app.store.models import Battle, CampaignMember, Platoon
from tests.ids import campaign_id, platoon_id, sheet_id

# ------------------------------------------------------------------------------------------------ a file


@pytest.mark.parametrize(
    "call",
    [
        lambda: club.add_member(1, "ada"),
        lambda: club.remove_member(1, "ada"),
        lambda: club.members(1),
        lambda: club.set_platoon_owner(1, "ada"),
        lambda: club.set_sheet_owner(1, "ada"),
    ],
)
def test_on_a_file_the_club_services_need_a_club_server(fresh_db: object, call: Any) -> None:
    with pytest.raises(NeedsClubServer, match="needs a club server: give --db postgresql://"):
        call()


def test_on_a_file_nobody_owns_anything_and_everything_is_allowed(fresh_db: object) -> None:
    c = campaigns.create_campaign("Congo 1960")
    p = platoons.create_platoon(campaign_id("Congo 1960"), "2nd Platoon", training=8, equipment=8, morale=8, armor=2)
    assert Platoon.get_by_id(p.id).owner == "" and CampaignMember.select().count() == 0
    campaigns.rename_campaign(c.id, "Congo 1961")
    assert access.can_change(platoon=p.id, campaign=c.id)


# ------------------------------------------------------------------------------------------------ a server


@pytest.fixture(scope="module")
def club_db(club_pg: ClubServer) -> str:
    """A club database set up the documented way: ``server init`` as the owner, three logins, a campaign
    olga organises with ada and bob in it, ada's "2nd Platoon" and bob's "Red Devils"."""
    server = club_pg
    name = "club_services"
    admin = server.create_database(name)
    init_db(admin)
    init_server()
    for login in ("ada", "bob"):
        ensure_role(server, login)
        add_player(login)
    ensure_role(server, ORGANISER)
    add_player(ORGANISER, organiser=True)
    close_db()
    init_db(server.url(name, user=ORGANISER))
    campaigns.create_campaign("Congo 1960", period=3)
    club.add_member(campaign_id("Congo 1960"), "ada")
    club.add_member(campaign_id("Congo 1960"), "bob")
    close_db()
    for login, platoon in (("ada", "2nd Platoon"), ("bob", "Red Devils")):
        init_db(server.url(name, user=login))
        platoons.create_platoon(
            campaign_id("Congo 1960"),
            platoon,
            training=8,
            equipment=8,
            morale=8,
            armor=2,
            leader_name=f"Lt. {login.title()}",
        )
        close_db()
    unbind()
    return name


@pytest.fixture
def as_login(club_pg: ClubServer, club_db: str) -> Iterator[Any]:
    def connect(login: str) -> Any:
        close_db()
        return init_db(club_pg.url(club_db, user=login))

    yield connect
    unbind()


def test_the_creator_owns_and_organises(as_login: Any) -> None:
    as_login("ada")
    assert Platoon.get(Platoon.name == "2nd Platoon").owner == "ada"
    assert Platoon.get(Platoon.name == "Red Devils").owner == "bob"
    assert {(m.login, m.role) for m in club.members(campaign_id("Congo 1960"))} == {
        (ORGANISER, "organiser"),
        ("ada", "player"),
        ("bob", "player"),
    }
    ops = journal.operations(platoon=platoon_id("2nd Platoon"))
    assert ops and {op.user for op in ops} == {"ada"}


@pytest.mark.parametrize(
    "change",
    [
        lambda: platoons.set_platoon(platoon_id("2nd Platoon"), armor=3),
        lambda: platoons.rename_platoon(platoon_id("2nd Platoon"), "Stolen"),
        lambda: platoons.set_xp(platoon_id("2nd Platoon"), 5),
        lambda: platoons.delete_platoon(platoon_id("2nd Platoon")),
        lambda: battles.log_battle(
            platoon_id("2nd Platoon"), wounds=2, objectives=1, outcome="victory", dice=SeededDice(5)
        ),
    ],
)
def test_another_players_platoon_is_refused_in_one_line_and_nothing_is_written(as_login: Any, change: Any) -> None:
    as_login("bob")
    before = (list(Platoon.select().dicts()), Battle.select().count(), len(journal.operations()))
    with pytest.raises(NotYours) as caught:
        change()
    assert str(caught.value) == "2nd Platoon belongs to ada; you can look but not change it"
    assert (list(Platoon.select().dicts()), Battle.select().count(), len(journal.operations())) == before


def test_campaign_changes_and_creation_are_for_organisers(as_login: Any) -> None:
    as_login("bob")
    with pytest.raises(NotYours, match="^only an organiser of Congo 1960 can rename it$"):
        campaigns.rename_campaign(campaign_id("Congo 1960"), "Bob's Congo")
    with pytest.raises(NotYours, match="^only an organiser of Congo 1960 can add or remove its players$"):
        club.add_member(campaign_id("Congo 1960"), "bob", organiser=True)
    with pytest.raises(NotYours, match="only the club's organisers can create campaigns"):
        campaigns.create_campaign("Bob's War")
    with pytest.raises(NotYours, match="^only an organiser of Congo 1960 can give a platoon to another player$"):
        club.set_platoon_owner(platoon_id("Red Devils"), "ada")


def test_an_organiser_hands_a_platoon_over_and_undoes_it(as_login: Any) -> None:
    as_login(ORGANISER)
    given = club.set_platoon_owner(platoon_id("2nd Platoon"), "bob")
    assert given.message == "2nd Platoon now belongs to bob (was ada)"
    as_login("bob")
    platoons.set_platoon(platoon_id("2nd Platoon"), notes="mine now")  # bob may, now
    as_login("ada")
    with pytest.raises(NotYours, match="^2nd Platoon belongs to bob"):
        platoons.set_platoon(platoon_id("2nd Platoon"), notes="give it back")
    with pytest.raises(NotYours, match="was made by olga; only they or an organiser of Congo 1960 can undo it"):
        journal.undo(given.operation_id)
    as_login("bob")
    journal.undo()  # his own note
    as_login(ORGANISER)
    journal.undo(given.operation_id)
    assert Platoon.get(Platoon.name == "2nd Platoon").owner == "ada"


def test_a_new_owner_must_belong_to_the_campaign(as_login: Any) -> None:
    as_login(ORGANISER)
    with pytest.raises(Refused, match="carl does not belong to Congo 1960; add them first"):
        club.set_platoon_owner(platoon_id("2nd Platoon"), "carl")
    with pytest.raises(Refused, match="nobody is not a player of this club server"):
        club.add_member(campaign_id("Congo 1960"), "nobody")


def test_a_player_taken_out_sees_the_campaign_no_more(as_login: Any) -> None:
    as_login(ORGANISER)
    left = club.remove_member(campaign_id("Congo 1960"), "bob")
    assert (left.login, left.previous_role) == ("bob", "player")
    with pytest.raises(Refused, match="olga is the only organiser of Congo 1960; make another player an organiser"):
        club.remove_member(campaign_id("Congo 1960"), ORGANISER)
    try:
        as_login("bob")
        with pytest.raises(Refused, match="no campaign named 'Congo 1960'"):
            club.members(campaign_id("Congo 1960"))
        assert [p.name for p in Platoon.select()] == ["Red Devils"]  # his own stays his to look at
        with pytest.raises(
            NotYours,
            match="^Red Devils is yours, but you no longer belong to its campaign; ask one "
            "of its organisers to add you again$",
        ):
            platoons.set_platoon(platoon_id("Red Devils"), notes="still mine?")
    finally:
        as_login(ORGANISER)
        joined = club.add_member(campaign_id("Congo 1960"), "bob")
        assert joined.message == "bob joined Congo 1960 as a player"
    assert (
        club.add_member(campaign_id("Congo 1960"), "bob").message
        == "bob is already a player of Congo 1960; nothing changed"
    )


def test_a_sologear_sheet_belongs_to_its_creator_and_is_handed_over_by_an_organiser(as_login: Any) -> None:
    from campaign_app.services import sologear_sheet

    as_login(ORGANISER)
    made = sologear_sheet.create_sheet("Hill 214", "Janne", 250)
    club.add_member(campaign_id("Hill 214"), "ada")
    as_login("ada")
    with pytest.raises(
        NotYours,
        match=r"^The Sologear sheet of Janne \(Hill 214\) belongs to olga; you can look but "
        r"not change it$",
    ):
        sologear_sheet.update_sheet(made.id, area="Hill 214 north")
    as_login(ORGANISER)
    assert club.set_sheet_owner(sheet_id("Hill 214"), "ada").message == (
        "The Sologear sheet of Janne (Hill 214) now belongs to ada (was olga)"
    )
    as_login("ada")
    sologear_sheet.update_sheet(made.id, area="Hill 214 north")


def test_a_run_of_xp_steps_joins_only_the_logins_own_newest_operation(as_login: Any) -> None:
    as_login("ada")
    before = len(journal.operations(platoon=platoon_id("2nd Platoon")))
    first = platoons.set_xp(platoon_id("2nd Platoon"), 1)
    second = platoons.set_xp(platoon_id("2nd Platoon"), 2)
    # one run of steps, one operation (numbered again in commit order as it grows, so a window's change feed
    # hears of each step)
    assert second.operation_id is not None and second.operation_id >= (first.operation_id or 0)
    runs = journal.operations(platoon=platoon_id("2nd Platoon"))
    assert len(runs) == before + 1 and runs[0].id == second.operation_id and "XP 0 → 2" in runs[0].label
    as_login(ORGANISER)
    olgas = platoons.set_xp(platoon_id("2nd Platoon"), 3)  # an organiser's step on ada's track: an operation of her own
    assert olgas.operation_id != second.operation_id
    as_login("ada")
    third = platoons.set_xp(platoon_id("2nd Platoon"), 4)
    assert third.operation_id not in (second.operation_id, olgas.operation_id)
    assert [op.user for op in journal.operations(platoon=platoon_id("2nd Platoon"), limit=3)] == [
        "ada",
        ORGANISER,
        "ada",
    ]
