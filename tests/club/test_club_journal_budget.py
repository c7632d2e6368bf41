"""The journal's budget on a club server: each campaign's own, set and applied by its organisers only.

``journal compact`` folds a campaign's operations beyond its budget (``campaign_app_compact``), and ``campaign
delete --forget`` removes a deleted campaign from the journal (``campaign_app_forget``). Both are server functions
that decide who may: an organiser for her own campaigns, never a player, never another organiser's campaign, and
a forged "deletion" cannot be used to wipe rows' histories. Every attack (plain SQL under the attacker's own login,
as with ``psql``) has a control that runs the same call where it is allowed, so a test cannot pass by a typo."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from clubpg import ORGANISER, OWNER, ClubServer, club_pg, ensure_role, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.errors import Conflict
from campaign_app.rules.dice import SeededDice
from campaign_app.services import battles, campaigns, club, journal, platoons
from campaign_app.store import close_db, init_db
from campaign_app.store.access import NotYours
from campaign_app.store.club_server import add_player, init_server
from campaign_app.store.journal_budget import FORGOTTEN_LABEL
from tests.ids import campaign_id as campaign_id_of
from tests.ids import platoon_id

DB = "club_budget"
pytestmark = pytest.mark.usefixtures("club_db")
OTHER = "nina"  # an organiser of her own campaign


@pytest.fixture(scope="module")
def club_db(club_pg: ClubServer) -> str:
    """Olga organises "Congo 1960" (ada and bob in it, each with a platoon and five battles) and "Secret War";
    nina organises "Nina's War" (bob in it, his platoon with three battles)."""
    ensure_role(club_pg, OWNER, createrole=True)
    club_pg.create_database(DB, owner=OWNER)
    init_db(club_pg.url(DB, user=OWNER))
    init_server()
    for login in ("ada", "bob"):
        ensure_role(club_pg, login)
        add_player(login)
    for login in (ORGANISER, OTHER):
        ensure_role(club_pg, login)
        add_player(login, organiser=True)
    close_db()
    init_db(club_pg.url(DB, user=ORGANISER))
    campaigns.create_campaign("Congo 1960")
    club.add_member(campaign_id_of("Congo 1960"), "ada")
    club.add_member(campaign_id_of("Congo 1960"), "bob")
    campaigns.create_campaign("Secret War", "sologear")
    close_db()
    init_db(club_pg.url(DB, user=OTHER))
    campaigns.create_campaign("Nina's War")
    club.add_member(campaign_id_of("Nina's War"), "bob")
    close_db()
    for login, campaign, platoon, n in (
        ("ada", "Congo 1960", "2nd Platoon", 5),
        ("bob", "Congo 1960", "Red Devils", 5),
        ("bob", "Nina's War", "Blue Devils", 3),
    ):
        init_db(club_pg.url(DB, user=login))
        platoons.create_platoon(
            campaign_id_of(campaign),
            platoon,
            training=8,
            equipment=8,
            morale=8,
            armor=2,
            leader_name=f"Lt. {login.title()}",
        )
        for i in range(n):
            battles.log_battle(
                platoon_id(platoon, campaign), wounds=2, objectives=1, outcome="victory", dice=SeededDice(5 + i)
            )
        close_db()
    unbind()
    return DB


@pytest.fixture
def as_login(club_pg: ClubServer, club_db: str) -> Iterator[Any]:
    def connect(login: str) -> Any:
        close_db()
        return init_db(club_pg.url(club_db, user=login))

    yield connect
    unbind()


@contextmanager
def psql(server: ClubServer, who: str) -> Iterator[Any]:
    con = server.connect(DB, who, autocommit=True)
    try:
        yield con
    finally:
        con.close()


def owner_rows(server: ClubServer, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with server.connect(DB, OWNER) as con:
        return list(con.execute(sql, params).fetchall())


def campaign_id(server: ClubServer, name: str) -> int:
    return int(owner_rows(server, "SELECT id FROM campaign WHERE name = %s", (name,))[0][0])


def journal_of(server: ClubServer, name: str) -> tuple[int, int]:
    """(operations, change records) of a campaign's journal, as the owner sees them."""
    cid = campaign_id(server, name)
    row = owner_rows(
        server,
        "SELECT count(DISTINCT o.id), count(c.id) FROM operation o LEFT JOIN operation_change c "
        "ON c.operation_id = o.id WHERE o.campaign_id = %s",
        (cid,),
    )[0]
    return int(row[0]), int(row[1])


def data_of(server: ClubServer) -> dict[str, Any]:
    tables = ("campaign", "campaign_member", "platoon", "battle", "leader", "xp_change", "roll")
    with server.connect(DB, OWNER) as con:
        return {t: con.execute(f'SELECT to_jsonb(t) FROM "{t}" t ORDER BY id').fetchall() for t in tables}


def refused(con: Any, sql: str, params: tuple[Any, ...], state: str) -> str:
    with pytest.raises(psycopg.Error) as caught:
        con.execute(sql, params)
    assert caught.value.sqlstate == state, caught.value
    return str(caught.value)


def budget_rows(server: ClubServer) -> list[tuple[Any, ...]]:
    return owner_rows(server, "SELECT campaign_id, keep_ops, keep_days FROM journal_budget ORDER BY campaign_id")


# ------------------------------------------------------------------------------------------------ attacks


def test_a_player_cannot_compact_a_campaign_nor_set_its_budget(club_pg: ClubServer) -> None:
    congo = campaign_id(club_pg, "Congo 1960")
    before, budgets = journal_of(club_pg, "Congo 1960"), budget_rows(club_pg)
    with psql(club_pg, "bob") as bob:
        text = refused(bob, "SELECT campaign_app_compact(%s, 1, 0)", (congo,), "CA403")
        assert "only an organiser" in text
        refused(bob, "SELECT campaign_app_compact(%s)", (congo,), "CA403")
        # nor past the function: the budget table and the journal are not his to write or read
        refused(bob, "INSERT INTO journal_budget VALUES (%s, 1, 0)", (congo,), "42501")
        refused(bob, "SELECT * FROM journal_budget", (), "42501")
        refused(bob, "DELETE FROM operation_change", (), "42501")
    assert journal_of(club_pg, "Congo 1960") == before and budget_rows(club_pg) == budgets
    # the control: the same call as the campaign's organiser is accepted (in a transaction rolled back)
    with club_pg.connect(DB, ORGANISER, autocommit=False) as olga:
        got = olga.execute("SELECT campaign_app_compact(%s, 1, 0)", (congo,)).fetchone()[0]
        assert got["folded"] > 0 and got["keep"] == 1
        olga.rollback()
    with club_pg.connect(DB, OWNER, autocommit=False) as owner:  # and the owner may write the table
        owner.execute("INSERT INTO journal_budget VALUES (%s, 1, 0)", (congo,))
        owner.rollback()
    assert journal_of(club_pg, "Congo 1960") == before


def test_an_organiser_cannot_compact_another_organisers_campaign(
    club_pg: ClubServer,
    as_login: Any,
) -> None:
    ninas = campaign_id(club_pg, "Nina's War")
    before = journal_of(club_pg, "Nina's War")
    with psql(club_pg, ORGANISER) as olga:
        refused(olga, "SELECT campaign_app_compact(%s, 1, 0)", (ninas,), "CA403")
        refused(olga, "SELECT campaign_app_compact(%s)", (-1,), "CA403")  # no campaign: no hint that it is missing
    as_login(ORGANISER)
    with pytest.raises(NotYours, match="only an organiser"):
        journal.compact(keep=1, days=0, campaign=ninas)
    assert journal_of(club_pg, "Nina's War") == before
    with club_pg.connect(DB, OTHER, autocommit=False) as nina:  # the control: nina may
        assert nina.execute("SELECT campaign_app_compact(%s, 1, 0)", (ninas,)).fetchone()[0]["folded"] > 0
        nina.rollback()


def test_compaction_is_refused_inside_an_open_operation(club_pg: ClubServer) -> None:
    congo = campaign_id(club_pg, "Congo 1960")
    with club_pg.connect(DB, ORGANISER, autocommit=False) as olga:
        olga.execute("SELECT id FROM campaign_app_begin('test.sql', 'test')")
        refused(olga, "SELECT campaign_app_compact(%s, 1, 0)", (congo,), "CA400")
        olga.rollback()
        assert olga.execute("SELECT campaign_app_compact(%s, 1000, 0)", (congo,)).fetchone()[0]["folded"] == 0
        olga.rollback()


def test_a_forged_deletion_cannot_wipe_histories(club_pg: ClubServer, as_login: Any) -> None:
    """bob opens an operation of kind campaign.delete and deletes his own platoon (which he may), then asks the
    server to forget it: refused, nothing of the journal goes. Nor may he forget another login's deletion."""
    as_login("bob")
    pid = platoons.create_platoon(
        campaign_id_of("Congo 1960"), "Decoy", training=8, equipment=8, morale=8, armor=2, leader_name="Lt. Decoy"
    ).id
    battles.log_battle(platoon_id("Decoy"), wounds=1, objectives=0, outcome="defeat", dice=SeededDice(3))
    unbind()
    records = owner_rows(club_pg, "SELECT count(*) FROM operation_change")[0][0]
    with club_pg.connect(DB, "bob", autocommit=False) as bob:
        op = bob.execute("SELECT id FROM campaign_app_begin('campaign.delete', 'Delete campaign Decoy')").fetchone()[0]
        assert bob.execute("DELETE FROM platoon WHERE id = %s", (pid,)).rowcount == 1
        final = bob.execute("SELECT id FROM campaign_app_end(%s, '')", (op,)).fetchone()[0]
        text = refused(bob, "SELECT campaign_app_forget(%s)", (final,), "CA409")
        assert "did not delete one campaign" in text
        bob.rollback()
    assert owner_rows(club_pg, "SELECT count(*) FROM operation_change")[0][0] == records
    # the deletion of a campaign by olga (in a transaction rolled back): bob may not forget it, olga may
    with club_pg.connect(DB, ORGANISER, autocommit=False) as olga:
        secret = campaign_id(club_pg, "Secret War")
        op = olga.execute(
            "SELECT id FROM campaign_app_begin('campaign.delete', 'Delete campaign Secret War')"
        ).fetchone()[0]
        olga.execute("DELETE FROM campaign WHERE id = %s", (secret,))
        final = olga.execute("SELECT id FROM campaign_app_end(%s, '')", (op,)).fetchone()[0]
        olga.commit()
        try:
            with psql(club_pg, "bob") as bob:
                refused(bob, "SELECT campaign_app_forget(%s)", (final,), "CA403")
            with psql(club_pg, OTHER) as nina:
                refused(nina, "SELECT campaign_app_forget(%s)", (final,), "CA403")
            got = olga.execute("SELECT campaign_app_forget(%s)", (final,)).fetchone()[0]  # the control
            assert got["records"] > 0
            olga.rollback()
        finally:
            olga.rollback()
            as_login(ORGANISER)
            journal.undo(final)  # Secret War back for the other tests
            unbind()
    assert campaign_id(club_pg, "Secret War") == secret


# ------------------------------------------------------------------------------------------------ what it does


def test_an_organiser_folds_her_campaign_by_its_budget_and_the_newest_still_undo(
    club_pg: ClubServer,
    as_login: Any,
) -> None:
    ninas_before = journal_of(club_pg, "Nina's War")
    as_login(ORGANISER)
    result = journal.compact(keep=3, days=0, campaign=campaign_id_of("Congo 1960"))
    assert result.folded > 0 and result.records > 0
    assert "Congo 1960: folded" in result.message and "the newest 3 operations stay undoable" in result.message
    congo = campaign_id(club_pg, "Congo 1960")
    assert (congo, 3, 0) in budget_rows(club_pg)  # remembered: the campaign's budget
    ops = journal.operations(campaign=campaign_id_of("Congo 1960"))
    live = [o for o in ops if not o.folded]
    assert len(live) == 3 and all(o.folded for o in ops[3:])
    with pytest.raises(Conflict, match="folded into the journal's history"):
        journal.undo(ops[-1].id)
    assert journal_of(club_pg, "Nina's War") == ninas_before  # another organiser's campaign is untouched
    before = data_of(club_pg)
    journal.undo(live[0].id)
    assert data_of(club_pg) != before
    journal.redo(live[0].id)
    assert data_of(club_pg) == before
    # the budget applies again without being given; nothing is due
    again = journal.compact(campaign=campaign_id_of("Congo 1960"))
    assert again.folded == 0 and "the newest 3 operations" in again.message
    # by default: every campaign she organises, and only those
    every = journal.compact()
    assert {c.campaign for c in every.campaigns} == {"Congo 1960", "Secret War"}
    assert journal_of(club_pg, "Nina's War") == ninas_before


def test_a_player_sees_a_clear_refusal(club_pg: ClubServer, as_login: Any) -> None:
    as_login("ada")
    with pytest.raises(Exception, match="you organise no campaign on this server"):
        journal.compact()
    with pytest.raises(NotYours, match="only an organiser"):
        journal.compact(campaign=campaign_id_of("Congo 1960"))


def test_delete_with_forget_on_a_server_leaves_no_text_in_the_journal(
    club_pg: ClubServer,
    as_login: Any,
) -> None:
    as_login(ORGANISER)
    campaigns.create_campaign("Operation Zanzibar")
    club.add_member(campaign_id_of("Operation Zanzibar"), "ada")
    as_login("ada")
    platoons.create_platoon(
        campaign_id_of("Operation Zanzibar"),
        "Xylophone Raiders",
        training=8,
        equipment=8,
        morale=8,
        armor=2,
        leader_name="Lt. Quaver",
    )
    battles.log_battle(
        platoon_id("Xylophone Raiders"),
        wounds=1,
        objectives=1,
        outcome="victory",
        dice=SeededDice(8),
        opponent="Yodel Brigade",
    )
    as_login(ORGANISER)
    before = data_of(club_pg)
    edit = campaigns.delete_campaign(campaign_id_of("Operation Zanzibar"), forget=True)
    assert edit.to_dict()["forgotten"]["records"] > 0 and edit.to_dict()["forgotten"]["operations"] >= 2
    for word in ("Zanzibar", "Xylophone", "Quaver", "Yodel"):
        assert (
            owner_rows(
                club_pg,
                "SELECT count(*) FROM operation_change WHERE old LIKE %s OR new LIKE %s",
                (f"%{word}%", f"%{word}%"),
            )[0][0]
            == 0
        ), word
        assert owner_rows(club_pg, "SELECT count(*) FROM operation WHERE label LIKE %s", (f"%{word}%",))[0][0] == 0, (
            word
        )
    ops = journal.operations()
    assert ops[0].label == FORGOTTEN_LABEL and ops[0].folded
    with pytest.raises(Conflict, match="folded"):
        journal.undo(ops[0].id)
    # the other campaigns are as they were, and their newest operation still undoes exactly
    after = data_of(club_pg)
    assert after["platoon"] == [r for r in before["platoon"] if r[0]["name"] != "Xylophone Raiders"]
    assert len(after["campaign"]) == len(before["campaign"]) - 1
    newest = journal.operations(campaign=campaign_id_of("Congo 1960"))[0]
    journal.undo(newest.id)
    journal.redo(newest.id)
    assert data_of(club_pg) == after


def test_a_player_cannot_delete_and_forget_a_campaign(club_pg: ClubServer, as_login: Any) -> None:
    before = data_of(club_pg)
    as_login("bob")
    with pytest.raises(NotYours):
        campaigns.delete_campaign(campaign_id_of("Congo 1960"), forget=True)
    assert data_of(club_pg) == before
