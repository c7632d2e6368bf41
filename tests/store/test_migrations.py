"""Every stored database of an older schema version opens and upgrades to the current schema."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from campaign_app.store import check_database, close_db, init_db
from campaign_app.store.migrate import available_migrations
from campaign_app.store.models import Campaign, Platoon, SchemaMigration

DATA = Path(__file__).parent / "data"
STORED = sorted(DATA.glob("schema_*.db"))


def test_there_is_a_stored_database_for_every_schema_version():
    versions = {int(p.stem.split("_")[1]) for p in STORED}
    assert versions == {m.number for m in available_migrations()}


@pytest.mark.parametrize("stored", STORED, ids=lambda p: p.stem)
def test_stored_database_upgrades_and_keeps_its_data(stored: Path, tmp_path: Path):
    close_db()
    work = tmp_path / "campaign.db"
    shutil.copy(stored, work)
    database = init_db(work, tmp_path / "backups")
    assert SchemaMigration.select().count() == len(available_migrations())
    assert Campaign.select().count() >= 1
    assert Platoon.get(Platoon.name == "2nd Platoon").xp == 6
    assert check_database(database).ok
    version = int(stored.stem.split("_")[1])
    backups = list((tmp_path / "backups").glob("campaign-*-upgrade.db"))
    assert len(backups) == (1 if version < len(available_migrations()) else 0)
