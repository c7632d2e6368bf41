"""A battle's writes travel with the message that commits it (``store.batch``) on a club server. Attacks, each
with its control:

- a change that slips past the platoon's row lock (another session changes the leader's XP between the battle's
  read and its commit) is caught by the guard in the write message: refused, nothing written;
- the client's own early check left out (as a modified client would), the server still refuses the batched
  writes to another player's platoon (row-level security, not the client, decides), nothing written;
- what the batch adds to the SQL a player may send is a ``DO`` guard and transaction-local settings, both run with
  the player's own rights: a player's psql session gains no function and no privilege from them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from clubpg import OWNER, ClubServer, bind, close_operation, club_pg, make_club, open_operation, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.rules.dice import SeededDice
from campaign_app.services import battles
from campaign_app.services.common import Conflict
from campaign_app.store import access
from campaign_app.store.models import Battle

DB = "club_batched_writes"


@pytest.fixture
def club(club_pg: ClubServer) -> Iterator[dict[str, Any]]:
    ids = make_club(club_pg, DB)
    yield ids
    unbind()


def battles_of(server: ClubServer, platoon: int) -> int:
    with server.connect(DB) as su:
        return int(su.execute("SELECT count(*) FROM battle WHERE platoon_id = %s", (platoon,)).fetchone()[0])


@pytest.mark.parametrize("slipped", [True, False], ids=["attack", "control"])
def test_a_change_past_the_row_lock_is_caught_by_the_write_message(
    club_pg: ClubServer, club: dict[str, Any], monkeypatch: pytest.MonkeyPatch, slipped: bool
) -> None:
    bind(club_pg, DB, "ada")
    pid, leader = club["ada_platoon"], club["ada_leader"]
    real_commit = battles.BattleSession.commit

    def commit_after_a_slip(self: battles.BattleSession) -> Any:
        if slipped:  # another session, not asking for the platoon's lock, changes the leader meanwhile
            with club_pg.connect(DB, OWNER) as other:
                other.execute("SELECT set_config('campaign_app.journal_mode', 'off', false)")
                other.execute("UPDATE leader SET xp = xp + 5 WHERE id = %s", (leader,))
        return real_commit(self)

    monkeypatch.setattr(battles.BattleSession, "commit", commit_after_a_slip)
    before = battles_of(club_pg, pid)
    if slipped:
        with pytest.raises(Conflict, match="changed since you started logging this battle"):
            battles.log_battle(pid, wounds=1, dice=SeededDice(4))
        assert battles_of(club_pg, pid) == before
    else:
        edit = battles.log_battle(pid, wounds=1, dice=SeededDice(4))
        assert battles_of(club_pg, pid) == before + 1
        assert Battle.get_by_id(edit.id).platoon_id == pid
        assert edit.changes.operation_id is not None and ("battle", edit.id) in edit.changes.rows


@pytest.mark.parametrize("whose", ["bob", "ada"], ids=["attack", "control"])
def test_without_the_clients_check_the_server_still_refuses_another_players_platoon(
    club_pg: ClubServer, club: dict[str, Any], monkeypatch: pytest.MonkeyPatch, whose: str
) -> None:
    bind(club_pg, DB, "ada")
    monkeypatch.setattr(access, "change_check", lambda **_: None)  # a client that asks nothing first
    pid = club[f"{whose}_platoon"]
    before = battles_of(club_pg, pid)
    if whose == "bob":
        with pytest.raises(access.NotYours, match="refused the change"):
            battles.log_battle(pid, wounds=1, dice=SeededDice(4))
        assert battles_of(club_pg, pid) == before
        with club_pg.connect(DB) as su:
            assert su.execute("SELECT xp FROM leader WHERE id = %s", (club["bob_leader"],)).fetchone()[0] == 1
    else:
        battles.log_battle(pid, wounds=1, dice=SeededDice(4))
        assert battles_of(club_pg, pid) == before + 1


def test_the_clients_check_refuses_first_in_one_line(club_pg: ClubServer, club: dict[str, Any]) -> None:
    """The club's check travels with the battle's read and refuses before anything is computed or sent."""
    bind(club_pg, DB, "ada")
    with pytest.raises(access.NotYours, match="Red Devils belongs to bob; you can look but not change it"):
        battles.log_battle(club["bob_platoon"], wounds=1, dice=SeededDice(4))
    assert battles_of(club_pg, club["bob_platoon"]) == 1


def test_the_batch_gives_a_player_no_function_and_no_privilege(club_pg: ClubServer, club: dict[str, Any]) -> None:
    """The server's functions a player may call are the same before and after a batched battle (the batch
    installs nothing), and the settings it uses are the player's own, for the transaction only."""
    with club_pg.connect(DB, "ada") as ada:
        query = (
            "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname = 'public' AND has_function_privilege('ada', p.oid, 'EXECUTE')"
        )
        before = ada.execute(query).fetchone()[0]
        bind(club_pg, DB, "ada")
        battles.log_battle(club["ada_platoon"], wounds=2, dice=SeededDice(9))
        unbind()
        assert ada.execute(query).fetchone()[0] == before
        assert ada.execute("SELECT current_setting('campaign_app.row_1', true)").fetchone()[0] in (None, "")
    # a player's own DO block (what the guard is) runs with the player's rights: bob's leader stays as it was,
    # while the control, her own leader, changes (the journal's trigger records it in an operation of hers)
    with club_pg.connect(DB, "ada", autocommit=False) as ada:
        for key in ("bob_leader", "ada_leader"):
            op_id = open_operation(ada, "ada", "test.do")
            ada.execute(f"DO $$ BEGIN UPDATE leader SET xp = 7 WHERE id = {club[key]}; END $$")
            close_operation(ada, op_id)
            ada.commit()
    with club_pg.connect(DB) as su:
        xp = dict(
            su.execute(
                "SELECT id, xp FROM leader WHERE id = ANY(%s)", ([club["bob_leader"], club["ada_leader"]],)
            ).fetchall()
        )
    assert xp[club["bob_leader"]] == 1 and xp[club["ada_leader"]] == 7
