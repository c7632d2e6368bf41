"""Damaged, empty and foreign files are refused untouched (naming the file and the newest good backup) and
nothing is created beside them; a failed migration puts the backup back."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from campaign_app.services.demo import create_demo
from campaign_app.store import DatabaseOpenError, MigrationFailedError, close_db, init_db
from campaign_app.store.backups import make_backup
from campaign_app.store.models import Campaign


def _good_db(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A database with the sample campaigns (checkpointed: no -wal left) and one manual backup."""
    close_db()
    db_file = tmp_path / "campaign.db"
    backups = tmp_path / "backups"
    database = init_db(db_file, backups)
    create_demo()
    backup = make_backup(database, db_file, backups, "manual")
    close_db()
    assert not (tmp_path / "campaign.db-wal").exists()
    return db_file, backups, backup


def _beside(path: Path) -> set[str]:
    return {p.name for p in path.parent.iterdir() if p.name.startswith(path.name)}


@pytest.mark.parametrize("cut", [1, 100, 500, 4096])
def test_truncated_file_is_refused_untouched_naming_the_newest_good_backup(tmp_path: Path, cut: int):
    db_file, backups, backup = _good_db(tmp_path)
    data = db_file.read_bytes()
    db_file.write_bytes(data[:-cut])
    before = db_file.read_bytes()
    with pytest.raises(DatabaseOpenError) as info:
        init_db(db_file, backups)
    message = str(info.value)
    assert str(db_file) in message and "left untouched" in message
    assert str(backup) in message
    assert db_file.read_bytes() == before
    assert _beside(db_file) == {"campaign.db"}  # no -wal or -shm created by the check


def test_zero_byte_file_is_refused(tmp_path: Path):
    close_db()
    empty = tmp_path / "campaign.db"
    empty.touch()
    with pytest.raises(DatabaseOpenError, match="empty"):
        init_db(empty, tmp_path / "backups")
    assert empty.stat().st_size == 0
    assert _beside(empty) == {"campaign.db"}


def test_sqlite_file_of_another_program_is_refused_untouched(tmp_path: Path):
    import sqlite3

    close_db()
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.commit()
    con.close()
    before = other.read_bytes()
    with pytest.raises(DatabaseOpenError, match="not a campaign database"):
        init_db(other, tmp_path / "backups")
    assert other.read_bytes() == before
    assert _beside(other) == {"other.db"}


def test_text_file_is_refused_naming_it(tmp_path: Path):
    close_db()
    notes = tmp_path / "notes.db"
    notes.write_text("shopping list\n" * 20)
    with pytest.raises(DatabaseOpenError, match="notes.db"):
        init_db(notes, tmp_path / "backups")
    assert _beside(notes) == {"notes.db"}


def test_failed_migration_restores_the_backup_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    db_file, backups, _backup = _good_db(tmp_path)
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    from campaign_app.resources import migrations_dir

    real = sorted(migrations_dir().glob("[0-9][0-9][0-9][0-9]_*.py"))
    for script in real:  # every real migration, then a broken next one
        shutil.copy(script, migrations / script.name)
    (migrations / f"{len(real) + 1:04d}_broken.py").write_text(
        "def migrate(migrator, database):\n"
        "    database.execute_sql('UPDATE campaign SET notes = \\'half done\\'')\n"
        "    raise RuntimeError('boom in the middle')\n"
    )
    monkeypatch.setattr("campaign_app.store.migrate.migrations_dir", lambda: migrations)
    with pytest.raises(MigrationFailedError) as info:
        init_db(db_file, backups)
    message = str(info.value)
    assert "boom in the middle" in message and "put back" in message and "-upgrade.db" in message
    close_db()
    monkeypatch.undo()
    init_db(db_file, backups)
    from campaign_app.store.models import SchemaMigration

    assert SchemaMigration.select().count() == len(real)
    assert Campaign.select().count() == 2
    assert all(c.notes != "half done" for c in Campaign.select())


def test_cheap_open_does_not_run_the_full_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Opening an up-to-date database never calls integrity_check (the full check reads every page)."""
    db_file, backups, _ = _good_db(tmp_path)
    calls: list[int] = []
    import campaign_app.store.check as check
    from campaign_app.store.database import current_db

    real = check.integrity_problems
    monkeypatch.setattr(check, "integrity_problems", lambda con, limit=20: calls.append(1) or real(con))
    init_db(db_file, backups, daily_backup=False)
    assert calls == []
    opened = current_db()
    assert opened is not None
    check.check_database(opened)
    assert calls == [1]


def test_foreign_wal_database_in_use_is_refused_and_its_wal_left_alone(tmp_path: Path):
    """Another program's WAL database, open in that program: refused; its -wal is not checkpointed away."""
    import sqlite3

    close_db()
    other = tmp_path / "other.db"
    owner = sqlite3.connect(other)
    owner.execute("PRAGMA journal_mode=WAL")
    owner.execute("PRAGMA wal_autocheckpoint=0")
    owner.execute("CREATE TABLE recipes (name TEXT)")
    owner.commit()
    owner.execute("INSERT INTO recipes VALUES ('soup')")
    owner.commit()
    wal = tmp_path / "other.db-wal"
    before_main, before_wal = other.read_bytes(), wal.read_bytes()
    with pytest.raises(DatabaseOpenError, match="not a campaign database"):
        init_db(other, tmp_path / "backups")
    assert other.read_bytes() == before_main and wal.read_bytes() == before_wal
    # the same files as a crash leaves them (nobody has them open): still refused, main file and WAL untouched
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    shutil.copy(other, crashed / "other.db")
    shutil.copy(wal, crashed / "other.db-wal")
    owner.close()
    with pytest.raises(DatabaseOpenError, match="not a campaign database"):
        init_db(crashed / "other.db", tmp_path / "backups")
    assert (crashed / "other.db").read_bytes() == before_main
    assert (crashed / "other.db-wal").read_bytes() == before_wal


def test_cli_check_runs_the_full_check_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    import campaign_app.store.check as check
    from campaign_app.cli import main

    db_file, _backups, _ = _good_db(tmp_path)
    calls: list[int] = []
    real = check.integrity_problems
    monkeypatch.setattr(check, "integrity_problems", lambda con, limit=20: calls.append(1) or real(con))
    assert main(["check", "--db", str(db_file), "--data-dir", str(tmp_path)]) == 0
    assert calls == [1]
    assert "OK" in capsys.readouterr().out
