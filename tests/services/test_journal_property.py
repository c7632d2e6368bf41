"""The journal's promise, tested with generated sequences of real operations.

Any sequence of roster edits, battles (app and typed dice), Sologear turns, records and the reckoning, undone
one by one in reverse, leaves the database exactly as it started; redoing them all leaves it exactly as it
ended; a refused call writes nothing; and undoing an older operation is refused exactly when a later live
operation touched the same rows (or, for an operation that created rows, when later rows hang on them).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from campaign_app.rules.dice import SeededDice, TypedDice
from campaign_app.services import attachments as attachment_service
from campaign_app.services import battle_edits, battles, campaigns
from campaign_app.services import leaders as leader_service
from campaign_app.services import platoons as platoon_service
from campaign_app.services import sologear_play as play_service
from campaign_app.services import sologear_sheet as sheet_service
from campaign_app.services.common import ServiceError
from campaign_app.store import close_db, init_db, journal_read, journal_replay
from campaign_app.store.journal import Conflict
from campaign_app.store.models import AttachedUnit, Battle, Platoon, SologearTurn
from tests.dbdump import dump
from tests.ids import campaign_id, sheet_id


@pytest.fixture
def database(tmp_path: Path, db_engine: str, request: pytest.FixtureRequest) -> Iterator[Callable[[], None]]:
    made: list[Path] = []

    def fresh() -> None:
        close_db()
        folder = tmp_path / f"db{len(made)}"
        made.append(folder)
        if db_engine == "postgresql":
            server = request.getfixturevalue("pg_server")
            name = server.new_database_name()
            init_db(server.create_database(name, template=request.getfixturevalue("pg_template")))
        else:
            init_db(folder / "campaign.db", folder / "backups", daily_backup=False)
        campaigns.create_campaign("Congo", "atomic_africa", period=2)
        platoon_service.create_platoon(
            campaign_id("Congo"),
            "Alpha",
            training=8,
            equipment=8,
            morale=8,
            armor=2,
            xp=4,
            leader_name="Lt. A",
            leader_xp=2,
        )
        sheet_service.create_sheet("Hill", "Janne", 250)

    yield fresh
    close_db()


def _platoons() -> list[int]:
    return [p.id for p in Platoon.select(Platoon.id).order_by(Platoon.id)]


def _sheet() -> int | None:
    try:
        return sheet_service.sheet_data(sheet_id("Hill")).id
    except ServiceError:
        return None


def act(name: str, r: random.Random) -> Any:
    """One user action; ServiceError when the app refuses it (then nothing may have been written)."""
    pids = _platoons()
    pid = r.choice(pids) if pids else None
    if name == "platoon":
        return platoon_service.create_platoon(
            campaign_id("Congo"),
            f"P{r.randint(1, 5)}",
            training=r.choice([6, 8, 10]),
            equipment=8,
            morale=8,
            armor=1,
            dice=SeededDice(r.randint(1, 99)) if r.random() < 0.5 else None,
        )
    sid = _sheet()
    if sid is None and name in SOLOGEAR:
        raise ServiceError("no sheet")
    if name == "force":
        return sheet_service.add_force(
            sid, r.choice(["player", "enemy"]), f"C{r.randint(1, 9)}", base_power=r.randint(100, 500)
        )
    if name == "length":
        return play_service.roll_length(sid, SeededDice(r.randint(1, 99)))
    if name == "turn":
        return play_service.play_turn(
            sid, r.choice(["fig", "dec", "rep"]), r.randint(-2, 2), dice=SeededDice(r.randint(1, 99))
        )
    if name == "record":
        last = SologearTurn.select().where(SologearTurn.sheet == sid).order_by(SologearTurn.number.desc()).first()
        if last is None:
            raise ServiceError("no turn")
        return play_service.record_turn(sid, last.number, glory=min(1, last.glory_rolled or 0), bunkers=r.randint(0, 1))
    if name == "end":
        return play_service.end_campaign(sid, SeededDice(r.randint(1, 99)))
    if name == "sg_undo":
        return play_service.undo_last(sid)
    if pid is None:
        raise ServiceError("no platoon")
    if name == "rename":
        return platoon_service.rename_platoon(pid, f"P{r.randint(1, 5)}")
    if name == "dice":
        return platoon_service.set_platoon(pid, training=r.choice([4, 6, 8, 10, 12]), armor=r.randint(1, 5), reason="r")
    if name == "xp":
        return platoon_service.set_xp(pid, r.randint(0, 32), who=r.choice(["platoon", "leader"]))
    if name == "leader":
        faces = [r.randint(1, 8), r.randint(1, 8)]
        return leader_service.replace_leader(
            pid, f"Lt. {r.randint(1, 9)}", dice=TypedDice([faces]), how=r.choice(["casualty", "promoted", "replaced"])
        )
    if name == "attach":
        return attachment_service.add_attached(
            pid, f"U{r.randint(1, 4)}", "team", training=8, equipment=8, morale=8, armor=1
        )
    if name == "detach":
        units = [a.id for a in AttachedUnit.select().where(AttachedUnit.platoon == pid)]
        if not units:
            raise ServiceError("no unit")
        return attachment_service.remove_attached(r.choice(units))
    if name == "weapon":
        units = [a.id for a in AttachedUnit.select().where(AttachedUnit.platoon == pid)]
        return attachment_service.add_equipment(
            pid, f"G{r.randint(1, 4)}", attached=r.choice(units) if units and r.random() < 0.5 else None
        )
    if name == "battle":
        dice: Any = SeededDice(r.randint(1, 999))
        return battles.log_battle(pid, wounds=r.randint(0, 6), leader_wounds=0, objectives=r.randint(0, 2), dice=dice)
    if name == "battle_edit":
        newest = Battle.select().where(Battle.platoon == pid).order_by(Battle.number.desc()).first()
        if newest is None:
            raise ServiceError("no battle")
        return battle_edits.edit_battle_text(
            newest.id, notes=f"n{r.randint(1, 9)}", outcome=r.choice(["victory", "draw"])
        )
    if name == "battle_undo":
        return battles.undo_last_battle(pid)
    if name == "delete":
        return platoon_service.delete_platoon(pid)
    raise AssertionError(name)


SOLOGEAR = ("force", "length", "turn", "record", "end", "sg_undo")
ACTIONS = [
    "platoon",
    "rename",
    "dice",
    "xp",
    "leader",
    "attach",
    "detach",
    "weapon",
    "battle",
    "battle",
    "battle_edit",
    "battle_undo",
    "delete",
    "force",
    "force",
    "length",
    "turn",
    "turn",
    "record",
    "end",
    "sg_undo",
]


def _later_live_overlap(op_id: int) -> int | None:
    touched = journal_read._touched(op_id)
    for info in reversed(journal_read.list_operations(undone=False)):
        if info.id > op_id and journal_read._touched(info.id) & touched:
            return info.id
    return None


EXAMPLES = int(os.environ.get("JOURNAL_EXAMPLES", "12"))
"""Examples per run (CI); set JOURNAL_EXAMPLES=500 for a long run by hand."""


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@example(steps=[("battle", 0), ("battle_undo", 0)], probe=0)  # an operation undone during the sequence
@given(
    steps=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**9)), min_size=1, max_size=22),
    probe=st.integers(0, 10**9),
)
def test_undo_all_then_redo_all_is_exact(
    database: Callable[[], None], steps: list[tuple[str, int]], probe: int
) -> None:
    database()
    start = dump()
    first = journal_read.list_operations(limit=1)[0].id
    for name, seed in steps:
        before = dump()
        try:
            act(name, random.Random(seed))
        except ServiceError:
            assert dump() == before, f"{name} was refused but wrote something"
    end = dump()
    live = [o for o in journal_read.list_operations(undone=False) if o.id > first]

    # an older operation: refused exactly when a later live operation touched its rows (or rows hang on them)
    if live:
        target = random.Random(probe).choice(live)
        blocker = _later_live_overlap(target.id)
        later = [o for o in live if o.id > target.id]
        try:
            journal_replay.undo(target.id)
        except Conflict as exc:
            assert later, f"nothing came after {target.label!r}, yet: {exc}"
            if blocker is None:  # no row in common: rows hang on it, or a later row took a name it would restore
                assert "would also remove" in str(exc) or "is taken by another" in str(exc), str(exc)
            assert dump() == end, "a refused undo wrote something"
        else:
            assert blocker is None, f"undo of {target.label!r} went through over operation {blocker}"
            journal_replay.redo(target.id)
            assert dump() == end

    # everything, newest first: back to the start exactly; then redo all: the end exactly
    undone = [info.id for info in journal_read.list_operations(undone=False) if info.id > first]
    for op_id in undone:
        journal_replay.undo(op_id)
    assert dump() == start
    # redo walks back the way undo went (operations undone during the sequence, e.g. by 'battle undo', stay undone)
    redone = [journal_replay.redo().operation_id for _ in undone]
    assert redone == undone[::-1]
    assert dump() == end
