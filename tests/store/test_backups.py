"""Backups: WAL-safe, named by reason, rotated (14 daily, never the newest good one of a schema version),
listed with their facts, restored after a check."""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
from pathlib import Path

import pytest

from campaign_app.services import backups as backup_service
from campaign_app.services.campaigns import create_campaign, delete_campaign
from campaign_app.store import DatabaseOpenError, close_db, current_db, init_db
from campaign_app.store.backups import list_backups, make_backup, rotate
from campaign_app.store.models import Campaign
from tests.ids import campaign_id


def _name(stem: str, when: dt.datetime, reason: str) -> str:
    return f"{stem}-{when:%Y%m%d-%H%M%S-%f}-{reason}.db"


def test_backup_includes_what_is_still_in_the_wal(fresh_db, app_paths):
    create_campaign("Only in the WAL", "atomic_africa")
    assert Path(str(app_paths.db_file) + "-wal").stat().st_size > 0
    info = backup_service.backup_now()
    con = sqlite3.connect(f"file:{info.file}?mode=ro", uri=True)
    assert con.execute("SELECT name FROM campaign").fetchall() == [("Only in the WAL",)]
    con.close()
    assert info.reason == "manual" and info.campaigns == 1 and info.good
    assert not Path(f"{info.file}-wal").exists()  # a standalone file


def test_daily_backup_once_per_day_and_only_with_data(app_paths):
    close_db()
    init_db(app_paths.db_file, app_paths.backup_dir)
    assert list(app_paths.backup_dir.glob("*-daily.db")) == []  # nothing to lose yet
    create_campaign("C", "atomic_africa")
    close_db()
    init_db(app_paths.db_file, app_paths.backup_dir)
    init_db(app_paths.db_file, app_paths.backup_dir)
    assert len(list(app_paths.backup_dir.glob("*-daily.db"))) == 1


def test_campaign_deletion_is_backed_up_first(fresh_db, app_paths):
    create_campaign("Doomed", "atomic_africa")
    delete_campaign(campaign_id("Doomed"))
    (backup,) = app_paths.backup_dir.glob("*-delete.db")
    con = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    assert con.execute("SELECT name FROM campaign").fetchall() == [("Doomed",)]
    con.close()


def test_rotation_keeps_14_daily_and_the_newest_good_backup_of_each_schema(fresh_db, app_paths):
    create_campaign("C", "atomic_africa")
    database = current_db()
    first = make_backup(database, app_paths.db_file, app_paths.backup_dir, "manual")
    folder = app_paths.backup_dir
    start = dt.datetime(2026, 1, 1, 12)
    # an old backup of an older schema (version 0 is no campaign data; use a fake "schema 99" instead)
    old_schema = folder / _name("campaign", start - dt.timedelta(days=100), "daily")
    shutil.copy(first, old_schema)
    con = sqlite3.connect(old_schema)
    con.execute("INSERT INTO schema_migration VALUES (99, 'future', '2026-01-01', '9')")
    con.commit()
    con.close()
    # a damaged (cut short) old backup: never protected
    bad = folder / _name("campaign", start - dt.timedelta(days=99), "daily")
    bad.write_bytes(first.read_bytes()[:-10])
    for day in range(30):
        shutil.copy(first, folder / _name("campaign", start + dt.timedelta(days=day), "daily"))
    first.unlink()
    rotate(folder, app_paths.db_file)
    left = list_backups(folder, app_paths.db_file)
    from campaign_app.store.migrate import schema_version_supported

    daily_v1 = [b for b in left if b.reason == "daily" and b.schema_version == schema_version_supported()]
    assert len(daily_v1) == 14
    assert daily_v1[0].time.date() == dt.date(2026, 1, 30)
    assert old_schema.exists(), "the newest good backup of schema 99 is kept"
    assert not bad.exists()


def test_list_reports_file_time_reason_size_campaigns_battles(fresh_db, app_paths):
    from campaign_app.services.demo import create_demo

    create_demo()
    backup_service.backup_now()
    (item,) = [b for b in backup_service.backups() if b.reason == "manual"]
    assert {"file", "time", "reason", "size", "campaigns", "battles"} <= set(item.to_dict())  # the JSON's keys
    assert abs(dt.datetime.now() - item.time) < dt.timedelta(minutes=10) and item.file.parent == app_paths.backup_dir
    assert item.campaigns == 2 and item.battles is not None and item.battles >= 1 and item.size > 0


def test_restore_checks_backs_up_then_restores(fresh_db, app_paths):
    create_campaign("Before", "atomic_africa")
    saved = backup_service.backup_now()
    create_campaign("After", "atomic_africa")
    result = backup_service.restore(saved.file)
    assert [c.name for c in Campaign.select()] == ["Before"]
    previous = result.previous_saved_as
    assert previous.name.endswith("-restore.db")
    con = sqlite3.connect(f"file:{previous}?mode=ro", uri=True)
    assert sorted(r[0] for r in con.execute("SELECT name FROM campaign")) == ["After", "Before"]
    con.close()


def test_restore_refuses_a_damaged_file_and_changes_nothing(fresh_db, app_paths, tmp_path):
    create_campaign("Keep me", "atomic_africa")
    saved = backup_service.backup_now()
    broken = tmp_path / "broken.db"
    broken.write_bytes(saved.file.read_bytes()[:-300])
    with pytest.raises(DatabaseOpenError, match="broken.db"):
        backup_service.restore(broken)
    assert [c.name for c in Campaign.select()] == ["Keep me"]
    assert not list(app_paths.backup_dir.glob("*-restore.db"))
