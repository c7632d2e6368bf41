"""The journal at the store level: nothing writes outside an operation, every row is recorded exactly, and an
upgraded database says where its journal starts."""

from __future__ import annotations

import shutil
from pathlib import Path

import peewee
import pytest

from campaign_app.services import battles
from campaign_app.services import journal as journal_service
from campaign_app.services import platoons as platoon_service
from campaign_app.services import sologear_sheet as sheet_service
from campaign_app.services.common import ServiceError
from campaign_app.store import close_db, init_db, journal, journal_read, journal_replay
from campaign_app.store.database import db
from campaign_app.store.journal import Conflict, operation
from campaign_app.store.models import Campaign, Platoon, SologearForce
from tests.ids import campaign_id, platoon_id

DATA = Path(__file__).parent / "data"


def test_a_write_outside_an_operation_is_refused_and_writes_nothing(fresh_db) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(peewee.IntegrityError, match="a write outside an operation"):
        Campaign.create(name="Stray", system="atomic_africa")
    assert Campaign.select().count() == 0
    with operation("test.setup", "a campaign") as op:
        Campaign.create(name="Kept", system="atomic_africa")
    assert op.changes.operation_id is not None and op.changes.tables == {"campaign"}
    assert journal_read.get_operation(op.changes.operation_id).label == "a campaign"


def test_an_operation_that_writes_nothing_leaves_no_row(fresh_db) -> None:  # type: ignore[no-untyped-def]
    with operation("test.nothing", "nothing") as op:
        pass
    assert op.changes.operation_id is None and not op.changes
    assert journal_read.list_operations() == []


def test_a_failed_operation_leaves_neither_rows_nor_a_journal_entry(fresh_db) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuntimeError), operation("test.fail", "fails"):
        Campaign.create(name="Gone", system="atomic_africa")
        raise RuntimeError("boom")
    assert Campaign.select().count() == 0 and journal_read.list_operations() == []
    assert db.execute_sql("SELECT operation_id FROM journal_state").fetchone()[0] is None


def test_real_numbers_come_back_bit_for_bit(fresh_db) -> None:  # type: ignore[no-untyped-def]
    sheet = sheet_service.create_sheet("Hill", "Janne", 250)
    edit = sheet_service.add_force(sheet.id, "player", "1st", base_power=0.1 + 0.2)  # 0.30000000000000004
    stored = SologearForce.get_by_id(edit.to_dict()["id"]).base_power
    assert stored == 0.1 + 0.2
    journal_replay.undo(edit.operation_id)
    journal_replay.redo(edit.operation_id)
    assert SologearForce.get_by_id(edit.to_dict()["id"]).base_power == 0.1 + 0.2


def test_cascaded_deletes_are_recorded_and_come_back(fresh_db) -> None:  # type: ignore[no-untyped-def]
    from campaign_app.rules.dice import SeededDice
    from campaign_app.services import campaigns

    campaigns.create_campaign("Congo")
    platoon_service.create_platoon(
        campaign_id("Congo"), "Alpha", training=8, equipment=8, morale=8, armor=1, leader_name="Lt. A"
    )
    battles.log_battle(platoon_id("Alpha"), wounds=2, leader_wounds=0, dice=SeededDice(3))
    rows = {
        t: db.execute_sql(f'SELECT * FROM "{t}" ORDER BY id').fetchall()
        for t in ("platoon", "leader", "battle", "roll", "xp_change")
    }
    gone = platoon_service.delete_platoon(platoon_id("Alpha"))
    assert {"battle", "leader", "roll", "xp_change", "platoon"} <= gone.changes.tables  # ON DELETE CASCADE
    journal_replay.undo(gone.operation_id)
    assert {t: db.execute_sql(f'SELECT * FROM "{t}" ORDER BY id').fetchall() for t in rows} == rows


def test_later_operation_in_the_way_is_named_and_redo_walks_back_the_undo_order(fresh_db) -> None:  # type: ignore[no-untyped-def]
    from campaign_app.services import campaigns

    campaigns.create_campaign("Congo")
    made = platoon_service.create_platoon(campaign_id("Congo"), "Alpha", training=8, equipment=8, morale=8, armor=1)
    renamed = platoon_service.rename_platoon(platoon_id("Alpha"), "Bravo")
    with pytest.raises(Conflict, match="“Rename platoon Alpha → Bravo” .operation \\d+. changed the same data"):
        journal_replay.undo(made.operation_id)
    assert Platoon.get().name == "Bravo"
    first = journal_service.undo()
    second = journal_service.undo()
    assert (first.operation.id, second.operation.id) == (renamed.operation_id, made.operation_id)
    assert journal_service.redo().operation.id == made.operation_id  # the one undone most recently
    assert journal_service.redo().operation.id == renamed.operation_id
    assert Platoon.get().name == "Bravo"
    with pytest.raises(Conflict, match="is not undone"):
        journal_replay.redo(renamed.operation_id)


def test_an_upgraded_database_says_where_its_journal_starts(tmp_path: Path) -> None:
    close_db()
    work = tmp_path / "campaign.db"
    shutil.copy(DATA / "schema_0002.db", work)
    init_db(work, tmp_path / "backups")
    try:
        (start,) = journal_read.list_operations()
        assert start.kind == journal.START_KIND and "changes made before this upgrade cannot be undone" in start.label
        with pytest.raises(Conflict, match="the start of the journal cannot be undone"):
            journal_replay.undo(start.id)
        with pytest.raises(journal.NotJournaled, match="nothing to undo"):
            journal_service.undo()
        with db.atomic():  # a battle logged by the old version (written around the journal, as the upgrade found it)
            db.execute_sql("UPDATE journal_state SET mode = 'off'")
            db.execute_sql(
                "INSERT INTO battle (platoon_id, number, date, scenario, opponent, objectives, "
                "fire_support, notes, wounds, leader_wounds, platoon_xp_before, platoon_xp_after, xp_lost, "
                "created_at) SELECT id, 1, '2026-01-01', '', '', 0, 0, '', 0, 0, 6, 6, 0, '2026-01-01' "
                "FROM platoon WHERE name = '2nd Platoon'"
            )
            db.execute_sql("UPDATE journal_state SET mode = 'record'")
        with pytest.raises(ServiceError, match="battle 1 of 2nd Platoon was logged before this version started"):
            battles.undo_last_battle(platoon_id("2nd Platoon"))
        platoon_service.set_xp(
            platoon_id("2nd Platoon"), 7, "by hand"
        )  # new changes are journaled and undoable as usual
        assert journal_service.undo().operation.kind == "xp.set"
        assert Platoon.get(Platoon.name == "2nd Platoon").xp == 6
    finally:
        close_db()
