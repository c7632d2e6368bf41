"""Migration 0009 on a club server set up before the upgrade (``server init`` at schema 8): the journal's
row-history index is replaced as on a file, and the campaigns' journal budget arrives with its rules at once
(an organiser may compact her campaign, a player may not), without running ``server init`` again."""

from __future__ import annotations

import pytest
from clubpg import ORGANISER, ClubServer, club_pg, ensure_role, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.services import campaigns, club, journal
from campaign_app.store import close_db, init_db
from campaign_app.store import migrate as store_migrate
from campaign_app.store.access import NotYours
from campaign_app.store.club_server import add_player, init_server
from campaign_app.store.models import database_proxy as db
from tests.ids import campaign_id


def _indexes() -> set[str]:
    return {r[0] for r in db.execute_sql("SELECT indexname FROM pg_indexes WHERE tablename = 'operation_change'")}


def test_0009_on_a_club_server(club_pg: ClubServer, monkeypatch: pytest.MonkeyPatch) -> None:
    name = "club_upgrade_0009"
    admin = club_pg.create_database(name)
    real = store_migrate.available_migrations
    monkeypatch.setattr(store_migrate, "available_migrations", lambda folder=None: real(folder)[:8])
    init_db(admin)
    init_server()
    assert "operation_change_table_name_row_id_operation_id" in _indexes()
    ensure_role(club_pg, "ada")
    add_player("ada")
    ensure_role(club_pg, ORGANISER)
    add_player(ORGANISER, organiser=True)
    close_db()
    monkeypatch.setattr(store_migrate, "available_migrations", real)
    try:
        init_db(admin)  # the owner upgrades to schema 9
        assert _indexes() == {"operation_change_pkey", "operation_change_operation_id", "operation_change_row_id"}
        close_db()
        init_db(club_pg.url(name, user=ORGANISER))
        campaigns.create_campaign("Upgraded")
        club.add_member(campaign_id("Upgraded"), "ada")
        campaigns.archive_campaign(campaign_id("Upgraded"))
        campaigns.unarchive_campaign(campaign_id("Upgraded"))
        result = journal.compact(keep=1, days=0, campaign=campaign_id("Upgraded"))
        assert result.folded >= 1
        close_db()
        init_db(club_pg.url(name, user="ada"))
        with pytest.raises(NotYours, match="only an organiser"):
            journal.compact(campaign=campaign_id("Upgraded"))
    finally:
        unbind()
