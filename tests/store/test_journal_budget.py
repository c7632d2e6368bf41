"""A journal with a budget and a way to forget (the campaign file).

The journal stores less (no image for an insert, only the changed columns of an update) and undo/redo stay
exact; operations beyond the budget are folded (listed, not undoable); ``journal compact`` reports what it
freed; ``campaign delete --forget`` leaves none of the campaign's text in the file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from campaign_app.cli import main
from campaign_app.rules.dice import SeededDice
from campaign_app.services import battles, campaigns
from campaign_app.services import platoons as platoon_service
from campaign_app.services.demo import create_demo
from campaign_app.store import close_db, init_db, journal_budget
from campaign_app.store.database import current_db, db
from campaign_app.store.file_engine import trigger_statements
from campaign_app.store.journal import Conflict
from campaign_app.store.journal_read import list_operations, newest_undoable
from campaign_app.store.journal_replay import redo, undo
from tests.dbdump import dump
from tests.ids import campaign_id


def _file_db(tmp_path: Path) -> Path:
    close_db()
    db_file = tmp_path / "campaign.db"
    init_db(db_file, tmp_path / "backups", daily_backup=False)
    return db_file


def _log(pid: int, n: int, seed: int = 5) -> None:
    dice = SeededDice(seed)
    for i in range(n):
        battles.log_battle(
            pid,
            wounds=(i * 5) % 9,
            leader_wounds=min(i % 3, (i * 5) % 9),
            objectives=i % 2,
            outcome=battles.OUTCOMES[i % 3],
            dice=dice,
            replacement_name=f"Lt. R{i}",
        )


def _platoon(name: str = "Budget Campaign") -> int:
    cid = campaigns.create_campaign(name, "atomic_africa").id
    return platoon_service.create_platoon(
        cid, "1st Platoon", training=8, equipment=10, morale=8, armor=2, xp=3, leader_name="Lt. First", leader_xp=2
    ).id


def test_inserts_keep_no_image_and_updates_only_the_changed_columns(tmp_path: Path):
    _file_db(tmp_path)
    pid = _platoon()
    _log(pid, 1)
    rows = db.execute_sql(
        "SELECT table_name, action, old, new FROM operation_change WHERE operation_id = (SELECT max(id) FROM operation)"
    ).fetchall()
    assert {a for _t, a, _o, _n in rows} <= {"insert", "update"}
    for table, action, old, new in rows:
        if action == "insert":
            assert old is None and new is None, (table, new)
        else:
            o, n = json.loads(old), json.loads(new)
            assert set(o) == set(n) and o != n and "name" not in o, (table, o, n)
            assert all(o[k] != n[k] for k in o)


def test_undo_and_redo_stay_exact_with_the_lighter_journal(tmp_path: Path):
    _file_db(tmp_path)
    start = dump()
    pid = _platoon()
    _log(pid, 6)
    platoon_service.set_xp(pid, 11, reason="by hand")
    platoon_service.update_platoon(pid, notes="a note", leader_xp=4)
    after = dump()
    ops = [op.id for op in list_operations()]
    for op_id in ops:
        undo(op_id)
    assert dump() == start
    for op_id in reversed(ops):
        redo(op_id)
    assert dump() == after
    # and again: the images written by the first undo are used by the second redo
    for op_id in ops:
        undo(op_id)
    assert dump() == start
    for op_id in reversed(ops):
        redo(op_id)
    assert dump() == after


def test_operation_that_inserts_then_updates_a_row_redoes_it_exactly(tmp_path: Path):
    _file_db(tmp_path)
    cid = campaigns.create_campaign("Twice", "atomic_africa").id
    with db.atomic():
        from campaign_app.store.journal import operation
        from campaign_app.store.models import Campaign

        with operation("test.twice", "insert then update"):
            new = Campaign.create(name="Fresh", name_key="fresh", system="atomic_africa")
            Campaign.update(notes="changed in the same operation").where(Campaign.id == new.id).execute()
            Campaign.update(notes="other").where(Campaign.id == cid).execute()
    after = dump()
    op = list_operations(limit=1)[0]
    undo(op.id)
    redo(op.id)
    assert dump() == after


def test_an_older_files_triggers_are_made_lighter_at_open_and_its_full_images_still_undo(tmp_path: Path):
    db_file = _file_db(tmp_path)
    pid = _platoon()
    database = current_db()
    assert database is not None
    # the triggers of a file made before the journal had a budget: whole images for inserts and updates
    from campaign_app.store.journal import _columns, app_tables, image_sql

    with database.atomic():
        for table in app_tables(database):
            cols = _columns(database, table)
            statements = trigger_statements(table, cols)
            database.execute_sql(f'DROP TRIGGER "journal_{table}_insert"')
            database.execute_sql(
                statements[0].replace("'insert', NULL, NULL)", f"'insert', NULL, {image_sql(cols, 'NEW.')})")
            )
    _log(pid, 2)
    old_style = db.execute_sql(
        "SELECT count(*) FROM operation_change WHERE action = 'insert' AND new IS NOT NULL"
    ).fetchone()[0]
    assert old_style > 0
    before = dump()
    close_db()
    init_db(db_file, tmp_path / "backups", daily_backup=False)
    assert not journal_budget.ensure_triggers(current_db())  # done at open already
    _log(pid, 1, seed=9)
    newest = db.execute_sql(
        "SELECT count(*) FROM operation_change WHERE operation_id = (SELECT max(id) FROM "
        "operation) AND action = 'insert' AND new IS NOT NULL"
    ).fetchone()[0]
    assert newest == 0
    undo()
    assert dump() == before
    undo()  # an operation journalled the old way
    redo()
    assert dump() == before


def test_folding_beyond_the_budget_keeps_the_history_and_says_what_cannot_be_undone(tmp_path: Path, capsys):
    db_file = _file_db(tmp_path)
    pid = _platoon()
    _log(pid, 8)
    ops = list_operations()
    result = journal_budget.fold(keep=3, days=0)
    assert result.folded == len(ops) - 3 and result.records > 0
    listed = list_operations()
    assert [o.id for o in listed] == [o.id for o in ops]  # the history is whole: who did what, when
    assert [o.folded for o in listed] == [False] * 3 + [True] * (len(ops) - 3)
    assert [o.undoable for o in listed] == [True] * 3 + [False] * (len(ops) - 3)
    with pytest.raises(Conflict, match="folded"):
        undo(listed[4].id)
    for _ in range(3):
        undo()
    with pytest.raises(Exception, match="nothing to undo"):
        undo()  # the folded ones are not offered
    assert newest_undoable() is None
    for _ in range(3):
        redo()
    close_db()
    # the CLI lists them as folded
    code = main(["journal", "--db", str(db_file), "--data-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0 and out.count("(folded: kept in the history, can no longer be undone)") == len(ops) - 3


def test_folding_runs_at_open_when_due_and_by_age(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(journal_budget.ENV_DAYS, raising=False)  # the default: 90 days
    db_file = _file_db(tmp_path)
    pid = _platoon()
    _log(pid, 5)
    db.execute_sql("UPDATE operation SET created_at = '2020-01-01T00:00:00.000+00:00' WHERE id <= 2")
    close_db()
    init_db(db_file, tmp_path / "backups", daily_backup=False)  # 90 days: the two old ones are folded
    assert [o.folded for o in list_operations()][-2:] == [True, True]
    assert sum(o.folded for o in list_operations()) == 2
    close_db()
    monkeypatch.setenv(journal_budget.ENV_KEEP, "4")
    init_db(db_file, tmp_path / "backups", daily_backup=False)
    assert [o.folded for o in list_operations()] == [False] * 4 + [True] * (len(list_operations()) - 4)


@pytest.mark.parametrize("value", ["0", "-3", "x", "9" * 30])
def test_budget_settings_are_checked(monkeypatch: pytest.MonkeyPatch, value: str):
    monkeypatch.setenv(journal_budget.ENV_KEEP, value)
    with pytest.raises(Exception, match="operations to keep undoable"):
        journal_budget.keep_setting()


def test_journal_compact_reports_what_it_freed(tmp_path: Path, capsys):
    db_file = _file_db(tmp_path)
    pid = _platoon()
    _log(pid, 30)
    for letter in "abc":
        platoon_service.update_platoon(pid, notes=letter * 9000)
    platoon_service.update_platoon(pid, notes="short")
    close_db()
    args = ["--db", str(db_file), "--data-dir", str(tmp_path)]
    assert main(["journal", "compact", "--keep", "2", "--days", "0", "--json", *args]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["folded"] > 25 and result["vacuumed"] and result["freed"] > 20000
    assert result["bytes_after"] == db_file.stat().st_size
    assert main(["journal", "compact", *args]) == 0
    assert "nothing to fold" in capsys.readouterr().out
    assert main(["journal", "--keep", "3", *args]) == 2
    assert "journal compact" in capsys.readouterr().err
    assert main(["check", *args]) == 0


def test_delete_with_forget_leaves_no_text_and_keeps_other_undo_exact(tmp_path: Path, capsys):
    db_file = _file_db(tmp_path)
    create_demo()
    pid = _platoon("Secret Operation Zanzibar")
    _log(pid, 4)
    platoon_service.rename_platoon(pid, "Hidden Platoon Xylophone")
    other = _platoon("Kept Campaign")
    _log(other, 2, seed=7)
    kept_before = dump()
    close_db()
    args = ["--db", str(db_file), "--data-dir", str(tmp_path)]
    assert main(["campaign", "delete", "Secret Operation Zanzibar", "--forget", *args]) == 0
    assert "removed it from the journal" in capsys.readouterr().out
    close_db()
    raw = db_file.read_bytes() + (
        db_file.with_name("campaign.db-wal").read_bytes() if db_file.with_name("campaign.db-wal").exists() else b""
    )
    for text in (b"Zanzibar", b"Xylophone", b"Lt. First"):
        if text == b"Lt. First":
            continue  # the kept campaign's leader has the same name
        assert text not in raw, text
    backups = sorted((tmp_path / "backups").glob("*-delete.db"))
    assert backups and b"Zanzibar" in backups[-1].read_bytes()  # the way back
    init_db(db_file, tmp_path / "backups", daily_backup=False)
    ops = list_operations()
    assert ops[0].label == journal_budget.FORGOTTEN_LABEL and ops[0].folded
    assert not any("Zanzibar" in o.label or "Xylophone" in o.label for o in ops)
    # the kept campaign's operations undo exactly
    undo()
    undo()
    assert "Kept Campaign" in {c.name for c in campaigns.list_campaigns()}
    redo()
    redo()
    now = dump()
    for table, rows in kept_before.items():
        assert {r for r in rows if r in now[table]} <= set(now[table])
    from campaign_app.store.check import check_database

    assert check_database(current_db()).ok  # type: ignore[arg-type]


def test_forget_keeps_an_earlier_rows_images_when_its_id_was_reused(tmp_path: Path):
    """A platoon deleted earlier (undoable) whose id a platoon of the forgotten campaign took again: the earlier
    deletion still undoes exactly."""
    _file_db(tmp_path)
    first = _platoon("First Campaign")
    before_delete = dump()
    platoon_service.delete_platoon(first)
    delete_op = list_operations(limit=1)[0].id
    second = _platoon("Second Campaign")
    assert second == first  # SQLite gave the id again
    campaigns.delete_campaign(campaign_id("Second Campaign"), forget=True)
    undo(delete_op)
    assert dump()["platoon"] == before_delete["platoon"]
    assert dump()["leader"] == before_delete["leader"]


def test_forget_is_for_a_file(tmp_path: Path):
    _file_db(tmp_path)
    _platoon("Only")
    with sqlite3.connect(":memory:"):
        pass
    edit = campaigns.delete_campaign(campaign_id("Only"), forget=True)
    assert edit.to_dict()["forgotten"]["records"] > 0
