"""Migration 0005 (club play): the ownership columns and campaign membership, on a file database.

An upgraded file keeps every row, owned by nobody in particular (''), and the journal's images recorded before
the upgrade get the new columns, so an operation recorded before it still undoes and redoes exactly."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from peewee import IntegrityError

from campaign_app.store import close_db, init_db
from campaign_app.store.journal import operation
from campaign_app.store.journal_replay import redo, undo
from campaign_app.store.models import Campaign, CampaignMember, Platoon, SologearSheet

STORED_4 = Path(__file__).parent / "data" / "schema_0004.db"


@pytest.fixture
def upgraded(tmp_path: Path) -> Path:
    close_db()
    work = tmp_path / "campaign.db"
    shutil.copy(STORED_4, work)
    init_db(work, tmp_path / "backups", daily_backup=False)
    yield work
    close_db()


def test_existing_rows_belong_to_nobody_in_particular(upgraded: Path) -> None:
    assert Platoon.select().count() >= 1 and SologearSheet.select().count() >= 1
    assert {p.owner for p in Platoon.select()} == {""}
    assert {s.owner for s in SologearSheet.select()} == {""}
    assert {c.created_by for c in Campaign.select()} == {""}
    assert CampaignMember.select().count() == 0


def test_images_recorded_before_the_upgrade_have_the_new_columns(upgraded: Path) -> None:
    con = sqlite3.connect(upgraded)
    try:
        rows = con.execute(
            "SELECT table_name, old, new FROM operation_change WHERE table_name IN "
            "('campaign', 'platoon', 'sologear_sheet')"
        ).fetchall()
    finally:
        con.close()
    assert rows
    column = {"campaign": "created_by", "platoon": "owner", "sologear_sheet": "owner"}
    for table, old, new in rows:
        for image in (old, new):
            if image is not None:
                assert json.loads(image)[column[table]] == ""


def test_an_operation_recorded_before_the_upgrade_undoes_and_redoes(upgraded: Path) -> None:
    platoons = Platoon.select().count()
    undone = undo()  # the demo data, written under schema 4
    assert undone.touches("platoon") and Platoon.select().count() == 0
    redo()
    assert Platoon.select().count() == platoons
    assert {p.owner for p in Platoon.select()} == {""}


def test_a_new_database_records_membership_changes_and_refuses_a_second_row_per_login(tmp_path: Path) -> None:
    close_db()
    init_db(tmp_path / "campaign.db", tmp_path / "backups", daily_backup=False)
    try:
        with operation("test.setup", "test data"):
            c = Campaign.create(name="Congo 1960", system="atomic_africa")
            CampaignMember.create(campaign=c.id, login="ana", role="organiser")
        assert c.created_by == ""  # a file database: created by nobody in particular
        with pytest.raises(IntegrityError), operation("test.setup", "again"):
            CampaignMember.create(campaign=c.id, login="ana")
        with pytest.raises(IntegrityError), operation("test.setup", "a role"):
            CampaignMember.create(campaign=c.id, login="bob", role="captain")
        undo()
        assert CampaignMember.select().count() == 0 and Campaign.select().count() == 0
    finally:
        close_db()
