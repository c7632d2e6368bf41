"""Migration 0007 on a club server set up before the upgrade (``server init`` at schema 6): the new Death Blow
tables get the club's grants and row-level security policies at once, so a player can keep a fighter and cannot
change another player's, without running ``server init`` again."""

from __future__ import annotations

import pytest
from clubpg import ORGANISER, ClubServer, club_pg, ensure_role, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.services import campaigns, club
from campaign_app.services import death_blow as service
from campaign_app.store import close_db, init_db
from campaign_app.store import migrate as store_migrate
from campaign_app.store.access import NotYours
from campaign_app.store.club_server import add_player, init_server
from campaign_app.store.models import database_proxy as db
from tests.ids import campaign_id, fighter_id


def test_0007_secures_the_new_tables_on_a_club_server(
    club_pg: ClubServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = "club_upgrade_0007"
    admin = club_pg.create_database(name)
    real = store_migrate.available_migrations
    monkeypatch.setattr(store_migrate, "available_migrations", lambda folder=None: real(folder)[:6])
    init_db(admin)
    init_server()
    for login in ("ada", "bob"):
        ensure_role(club_pg, login)
        add_player(login)
    ensure_role(club_pg, ORGANISER)
    add_player(ORGANISER, organiser=True)
    close_db()
    monkeypatch.setattr(store_migrate, "available_migrations", real)
    try:
        init_db(admin)  # the owner upgrades to schema 7
        assert db.execute_sql("SELECT relrowsecurity FROM pg_class WHERE relname = 'bout'").fetchone()[0]
        close_db()
        init_db(club_pg.url(name, user=ORGANISER))
        campaigns.create_campaign("Pit", "death-blow")
        club.add_member(campaign_id("Pit"), "ada")
        club.add_member(campaign_id("Pit"), "bob")
        for login, fighter in (("ada", "Kenji"), ("bob", "Mara")):
            close_db()
            init_db(club_pg.url(name, user=login))
            service.create_fighter(campaign_id("Pit"), fighter)
        with pytest.raises(NotYours, match="^Kenji belongs to ada"):
            service.rename_fighter(fighter_id("Kenji"), "Stolen")
        with db.atomic():  # a raw write past the app: the server's policy skips the row
            from campaign_app.store.journal import operation

            with operation("test.raw", "raw"):
                assert db.execute_sql("UPDATE fighter SET level = 9 WHERE name = 'Kenji'").rowcount == 0
    finally:
        unbind()
