"""Migration 0009: the journal's row-history index on ``operation_change`` is ``(row_id)`` alone (it was
``(table_name, row_id, operation_id)``); what was recorded before the upgrade still undoes and redoes exactly, and
the look-ups of a row's history and of an operation's changes keep an index."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from campaign_app.rules.dice import SeededDice
from campaign_app.services import battles, campaigns
from campaign_app.store import close_db, init_db
from campaign_app.store.database import db
from campaign_app.store.journal import Conflict
from campaign_app.store.journal_read import list_operations
from campaign_app.store.journal_replay import redo, undo
from campaign_app.store.models import Platoon
from tests.dbdump import dump

DATA = Path(__file__).parent / "data"

OLD_INDEX = "operation_change_table_name_row_id_operation_id"

# every query of the journal that finds a row's history or an operation's changes, with the index it must use
PLANS = {
    "SELECT MAX(operation_id) FROM operation_change WHERE table_name = 'battle' AND row_id = 1 "
    "AND action = 'insert' AND operation_id <= 99": "operation_change_row_id",
    "DELETE FROM operation_change WHERE table_name = 'battle' AND row_id = 1 "
    "AND operation_id BETWEEN 1 AND 99": "operation_change_row_id",
    "SELECT operation_id FROM operation_change WHERE table_name = 'bout' AND row_id = 1 AND action = 'insert' "
    "ORDER BY id DESC LIMIT 1": "operation_change_row_id",
    "SELECT table_name, row_id, action, old, new, id FROM operation_change "
    "WHERE operation_id = 5 ORDER BY id": "operation_change_operation_id",
    "SELECT c.table_name, c.row_id, c.operation_id FROM operation_change c JOIN operation o ON o.id = "
    "c.operation_id WHERE c.operation_id > 5 AND o.undone = 0 "
    "ORDER BY c.operation_id ASC": "operation_change_operation_id",
}


def _indexes(path: Path) -> set[str]:
    with sqlite3.connect(path) as con:
        return {
            r[0]
            for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'operation_change'"
            )
        }


@pytest.fixture()
def upgraded(tmp_path: Path):  # type: ignore[no-untyped-def]
    close_db()
    work = tmp_path / "campaign.db"
    shutil.copy(DATA / "schema_0008.db", work)
    assert OLD_INDEX in _indexes(work)
    init_db(work, tmp_path / "backups", daily_backup=False)
    yield work
    close_db()


def test_0009_replaces_the_row_history_index(upgraded: Path) -> None:
    assert _indexes(upgraded) == {"operation_change_operation_id", "operation_change_row_id"}
    cols = [r[2] for r in db.execute_sql('PRAGMA index_info("operation_change_row_id")').fetchall()]
    assert cols == ["row_id"]
    assert (upgraded.parent / "backups").glob("campaign-*-upgrade.db")


@pytest.mark.parametrize("sql", list(PLANS), ids=range(len(PLANS)))
def test_the_journals_look_ups_keep_an_index(upgraded: Path, sql: str) -> None:
    plan = " ".join(str(r[-1]) for r in db.execute_sql(f"EXPLAIN QUERY PLAN {sql}").fetchall())
    assert f"USING INDEX {PLANS[sql]}" in plan, plan
    assert "SCAN operation_change" not in plan and "SCAN c" not in plan, plan


def test_what_was_recorded_before_the_upgrade_undoes_and_redoes_exactly(upgraded: Path) -> None:
    stored = dump()
    (demo,) = [op.id for op in list_operations() if not op.folded and op.kind != "journal.start"]
    pid = Platoon.get(Platoon.name == "2nd Platoon").id
    battles.log_battle(pid, wounds=3, leader_wounds=1, dice=SeededDice(4))
    logged = dump()
    with pytest.raises(Conflict, match="changed the same data later"):  # conflicts are still found
        undo(demo)
    assert dump() == logged
    undo()
    assert dump() == stored
    undo(demo)  # the demo, recorded before the upgrade
    assert dump() != stored
    redo(demo)
    assert dump() == stored
    redo()
    assert dump() == logged


def test_forgetting_a_campaign_after_the_upgrade_finds_its_rows_history(upgraded: Path) -> None:
    first = campaigns.list_campaigns()[0]
    name = first.name
    edit = campaigns.delete_campaign(first.id, forget=True)
    assert edit.to_dict()["forgotten"]["records"] > 0
    left = db.execute_sql(
        "SELECT count(*) FROM operation_change WHERE old LIKE ? OR new LIKE ?", (f"%{name}%", f"%{name}%")
    ).fetchone()[0]
    assert left == 0
