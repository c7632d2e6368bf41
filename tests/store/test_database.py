from __future__ import annotations

import sqlite3
from pathlib import Path

import peewee
import pytest

from campaign_app.store import DatabaseOpenError, DatabaseTooNewError, check_database, close_db, init_db
from campaign_app.store.backups import make_backup
from campaign_app.store.journal import operation
from campaign_app.store.migrate import available_migrations
from campaign_app.store.models import MODELS, Campaign, Platoon


def test_fresh_database_has_every_table_and_pragmas(fresh_db):
    tables = set(fresh_db.get_tables())
    assert {m._meta.table_name for m in MODELS} <= tables
    assert fresh_db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
    assert fresh_db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("field,value", [("training", 7), ("xp", 33), ("xp", -1), ("armor", 6), ("armor", 0)])
def test_check_constraints_refuse_illegal_values(field, value, fresh_db):
    with operation("test.setup", "test data"):
        camp = Campaign.create(name="C", system="atomic_africa")
    values = dict(campaign=camp, name="P", training=10, equipment=10, morale=8, armor=2, xp=6)
    values[field] = value
    with pytest.raises(peewee.IntegrityError), operation("test.setup", "test data"):
        Platoon.create(**values)
    assert Platoon.select().count() == 0


def test_not_sqlite_file_is_refused_and_untouched(tmp_path: Path):
    close_db()
    bad = tmp_path / "notes.db"
    bad.write_bytes(b"this is not a database\n" * 10)
    before = bad.read_bytes()
    with pytest.raises(DatabaseOpenError, match="notes.db"):
        init_db(bad, tmp_path / "backups")
    assert bad.read_bytes() == before


def test_damaged_page_is_found_by_check_and_refused_before_an_upgrade_backup(tmp_path: Path):
    """A page wiped in the middle (header and size intact) passes the cheap open check; the full check finds
    it, and a backup (made before every upgrade) refuses to copy it, naming the newest good backup."""
    close_db()
    good = tmp_path / "campaign.db"
    init_db(good, tmp_path / "backups")
    for i in range(30):
        with operation("test.setup", "test data"):
            Campaign.create(name=f"A{i}", system="atomic_africa", notes="x" * 500)
    close_db()
    backup = make_backup(good, good, tmp_path / "backups", "manual")
    data = bytearray(good.read_bytes())
    data[4096 * 3 : 4096 * 4] = b"\xff" * 4096
    good.write_bytes(bytes(data))
    database = init_db(good, tmp_path / "backups", daily_backup=False)
    report = check_database(database)
    assert not report.ok and any("integrity" in p for p in report.problems)
    with pytest.raises(DatabaseOpenError) as info:
        make_backup(database, good, tmp_path / "backups", "upgrade")
    assert str(good) in str(info.value)
    assert backup.name in str(info.value)
    close_db()
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == [backup.name]


def test_newer_database_is_refused_and_untouched(tmp_path: Path):
    close_db()
    path = tmp_path / "campaign.db"
    init_db(path, tmp_path / "b")
    close_db()
    con = sqlite3.connect(path)
    con.execute(
        "INSERT INTO schema_migration (number, name, applied_at, app_version) "
        "VALUES (999, 'future', '2030-01-01', '9.9')"
    )
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseTooNewError, match="newer version"):
        init_db(path, tmp_path / "b")
    assert path.read_bytes() == before


def test_migration_backs_up_existing_file_first(tmp_path: Path, monkeypatch):
    """An older database (schema 0: an empty SQLite file with a schema_migration table) is backed up
    before the migrations run."""
    close_db()
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    con.execute(
        "CREATE TABLE schema_migration (number INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, "
        "applied_at DATETIME NOT NULL, app_version TEXT NOT NULL)"
    )
    con.commit()
    con.close()
    init_db(path, tmp_path / "backups")
    backups = list((tmp_path / "backups").glob("old-*.db"))
    assert len(backups) == 1
    assert Campaign.select().count() == 0
    assert len(available_migrations()) >= 1


def test_check_reports_problems(fresh_db):
    with operation("test.setup", "test data"):
        camp = Campaign.create(name="C", system="atomic_africa")
    with operation("test.setup", "test data"):
        p = Platoon.create(campaign=camp, name="P", training=10, equipment=10, morale=8, armor=2, xp=6)
    from campaign_app.store.models import Leader

    with operation("test.setup", "test data"):
        Leader.create(platoon=p, name="A")
    with pytest.raises(peewee.IntegrityError, match="leader.platoon_id"), operation("test.setup", "test data"):
        Leader.create(platoon=p, name="B")  # the database allows one active leader per platoon
    import datetime as dt

    from campaign_app.store.models import Battle

    with operation("test.setup", "test data"):
        Leader.create(platoon=p, name="B", status="replaced")
        Battle.create(platoon=p, number=2, date=dt.date(2026, 1, 1), platoon_xp_before=6, platoon_xp_after=7)
    report = check_database(fresh_db)
    assert not report.ok
    assert "battle numbers have gaps" in report.text()
