"""A battle's reads travel together (``store.batch.read_together``: one message on a server, one by one on a
file); the commit's check that nothing changed since the session read follows the platoon's row lock in the
same message. Both engines: the attack (another writer changes what the battle depends on between the read and
the commit) is refused with nothing written; the control (nothing changes) commits; undo and redo of the battle
restore the rows exactly."""

from __future__ import annotations

import pytest

from campaign_app.rules.dice import SeededDice
from campaign_app.services import battles, platoons
from campaign_app.services.common import Conflict, NotFound
from campaign_app.store import journal_replay
from campaign_app.store.batch import read_together
from campaign_app.store.journal import operation
from campaign_app.store.models import Battle, Campaign, Leader, Platoon
from tests.dbdump import dump


@pytest.fixture
def pid() -> int:
    with operation("test.setup", "test data"):
        camp = Campaign.create(name="Congo 1960", system="atomic_africa")
        p = Platoon.create(campaign=camp, name="2nd Platoon", training=10, equipment=10, morale=8, armor=2, xp=6)
        Leader.create(platoon=p, name="Lt. Okafor", xp=2, xp_at_join=2)
    return int(p.id)


def session(pid: int) -> battles.BattleSession:
    s = battles.BattleSession(pid)
    s.set_casualties(2, 0)
    s.roll_all(SeededDice(4))
    return s


@pytest.mark.parametrize("changed", [True, False], ids=["attack", "control"])
def test_a_leader_changed_between_read_and_commit_is_refused(pid: int, changed: bool) -> None:
    s = session(pid)
    if changed:  # another writer, between the session's read and its commit
        with operation("test.other", "another player's change", platoon=pid):
            Leader.update(xp=Leader.xp + 1).where(Leader.platoon == pid).execute()
    before = dump()
    if changed:
        with pytest.raises(Conflict, match="changed since you started logging this battle"):
            s.commit()
        assert dump() == before
    else:
        edit = s.commit()
        assert Battle.get_by_id(edit.id).number == 1 and dump() != before


def test_a_battle_logged_after_the_read_is_refused(pid: int) -> None:
    s = session(pid)
    battles.log_battle(pid, wounds=1, dice=SeededDice(2))  # the other writer's battle 1
    before = dump()
    with pytest.raises(Conflict):
        s.commit()
    assert dump() == before
    assert [b.number for b in Battle.select().where(Battle.platoon == pid)] == [1]


def test_undo_and_redo_of_a_battle_are_exact(pid: int) -> None:
    before = dump()
    edit = battles.log_battle(pid, wounds=3, leader_wounds=1, objectives=1, dice=SeededDice(11))
    after = dump()
    journal_replay.undo(edit.changes.operation_id)
    assert dump() == before
    journal_replay.redo(edit.changes.operation_id)
    assert dump() == after


def test_reads_together_give_what_each_read_gives_alone(pid: int) -> None:
    q_platoon = Platoon.select().where(Platoon.id == pid)
    q_leaders = Leader.select().where(Leader.platoon == pid).dicts()
    raw = ("SELECT name FROM platoon WHERE id = ?", (pid,))
    together = read_together(q_platoon, q_leaders, raw, Battle.select().where(Battle.platoon == pid))
    assert [p.name for p in together[0]] == [p.name for p in q_platoon]
    assert together[1] == list(q_leaders)
    assert together[2] == [("2nd Platoon",)]
    assert together[3] == []
    assert platoons.platoon_detail(pid).leader is not None
    with pytest.raises(NotFound, match="no platoon with id 999"):
        platoons.platoon_detail(999)
    with pytest.raises(NotFound, match="no platoon with id 999"):
        battles.BattleSession(999)
