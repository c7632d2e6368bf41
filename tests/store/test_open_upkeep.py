"""``init_db(..., upkeep=False)`` (the desktop start, which paints first) leaves the file's upkeep to
:func:`~campaign_app.store.database.upkeep`: half-written backup copies are removed and the journal is folded
to its budget then, not at open."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign_app.services import campaigns
from campaign_app.store import close_db, init_db, journal_budget
from campaign_app.store.database import db, upkeep
from campaign_app.store.journal_read import list_operations


def test_upkeep_runs_when_asked_not_at_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(journal_budget.ENV_DAYS, raising=False)  # the default: 90 days
    close_db()
    db_file, backup_dir = tmp_path / "campaign.db", tmp_path / "backups"
    init_db(db_file, backup_dir, daily_backup=False)
    for i in range(3):
        campaigns.create_campaign(f"Old {i}")
    db.execute_sql("UPDATE operation SET created_at = '2020-01-01T00:00:00.000+00:00' WHERE id <= 2")
    close_db()
    backup_dir.mkdir(exist_ok=True)
    stale = backup_dir / ".campaign.db.pid999999999.abc.part"  # a copy a killed program left half-written
    stale.write_bytes(b"half")

    init_db(db_file, backup_dir, daily_backup=False, upkeep=False)
    assert stale.exists() and not any(o.folded for o in list_operations())

    upkeep()
    assert not stale.exists()
    assert sum(o.folded for o in list_operations()) == 2
    close_db()


def test_upkeep_without_an_open_file_does_nothing() -> None:
    close_db()
    upkeep()  # nothing open (or a closed file): nothing to keep up, nothing raised
