"""Migration 0005 on a server database (PostgreSQL): a database built at schema 4 (the baseline) with a journal
gets the ownership columns and campaign_member, and the images its journal recorded get the new columns, so an
operation recorded before the upgrade still undoes exactly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from clubpg import ClubServer, club_pg, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.errors import Conflict
from campaign_app.store import init_db
from campaign_app.store import migrate as store_migrate
from campaign_app.store.journal import operation
from campaign_app.store.journal_replay import undo
from campaign_app.store.models import database_proxy as db


def test_0005_on_a_server_database_with_a_journal(club_pg: ClubServer, monkeypatch: pytest.MonkeyPatch) -> None:
    url = club_pg.create_database("club_upgrade")
    real = store_migrate.available_migrations
    monkeypatch.setattr(store_migrate, "available_migrations", lambda folder=None: real(folder)[:4])
    init_db(url)
    with operation("test.setup", "schema 4 data"):
        db.execute_sql(
            "INSERT INTO campaign (name, name_key, system, threshold_green, threshold_regular, "
            "threshold_veteran, threshold_legendary, objective_xp_to, replacement_dice, archived, notes, "
            "created_at) VALUES ('Congo 1960', 'congo 1960', 'atomic_africa', 1, 4, 9, 16, 'both', 2, "
            "false, '', now())"
        )
        db.execute_sql(
            "INSERT INTO platoon (campaign_id, name, name_key, training, equipment, morale, armor, xp, "
            "notes, created_at) SELECT id, '2nd Platoon', '2nd platoon', 8, 8, 8, 2, 6, '', now() "
            "FROM campaign"
        )
    unbind()
    monkeypatch.setattr(store_migrate, "available_migrations", real)
    init_db(url)
    try:
        assert db.execute_sql("SELECT max(number) FROM schema_migration").fetchone()[0] == len(real())
        assert db.execute_sql("SELECT owner FROM platoon").fetchall() == [("",)]
        assert db.execute_sql("SELECT created_by FROM campaign").fetchall() == [("",)]
        images: list[Any] = db.execute_sql("SELECT table_name, new FROM operation_change ORDER BY id").fetchall()
        assert [t for t, _ in images] == ["campaign", "platoon"]
        assert json.loads(images[0][1])["created_by"] == "" and json.loads(images[1][1])["owner"] == ""
        # recorded by the client before the server kept the journal itself (migration 0006): history only
        with pytest.raises(Conflict, match="recorded before the server kept the journal itself"):
            undo()
        marker = int(db.execute_sql("SELECT max(id) FROM operation WHERE kind = 'journal.server'").fetchone()[0])
        with pytest.raises(Conflict, match="the start of the journal cannot be undone"):
            undo(marker)
        assert db.execute_sql("SELECT count(*) FROM campaign").fetchone()[0] == 1
        with operation("test.member", "a member"):  # the new table is journaled too
            db.execute_sql(
                "INSERT INTO campaign (name, name_key, system, threshold_green, threshold_regular, "
                "threshold_veteran, threshold_legendary, objective_xp_to, replacement_dice, archived, "
                "notes, created_at) VALUES ('Iron Rain', 'iron rain', 'sologear', 1, 4, 9, 16, 'both', 2, "
                "false, '', now())"
            )
            db.execute_sql(
                "INSERT INTO campaign_member (campaign_id, login, role) SELECT id, 'ada', 'player' "
                "FROM campaign WHERE name = 'Iron Rain'"
            )
        assert (
            db.execute_sql("SELECT count(*) FROM operation_change WHERE table_name = 'campaign_member'").fetchone()[0]
            == 1
        )
    finally:
        unbind()
