"""The connection to a club server: a lost connection is opened again once by itself for a read, never for a
write; a write whose commit message was lost asks the journal whether it was saved; SSL is asked for by default.
Runs against a real PostgreSQL server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from clubpg import OWNER, ClubServer, club_pg, ensure_role, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.errors import ServerUnavailable
from campaign_app.services import campaigns, journal
from campaign_app.store import close_db, init_db
from campaign_app.store.journal import operation
from campaign_app.store.models import Campaign
from campaign_app.store.models import database_proxy as db
from campaign_app.store.server import ServerDatabase
from tests.ids import campaign_id

DB = "club_connection"


@pytest.fixture
def opened(club_pg: ClubServer) -> Iterator[ServerDatabase]:
    ensure_role(club_pg, OWNER, createrole=True)
    club_pg.create_database(DB, owner=OWNER)
    init_db(club_pg.url(DB, user=OWNER))
    campaigns.create_campaign("Congo 1960", period=3)
    assert isinstance(db.obj, ServerDatabase)
    yield db.obj
    unbind()


def drop(server: ClubServer) -> None:
    """The server ends the app's connection (as a restarted server or a lost link would)."""
    pid = db.connection().info.backend_pid
    with server.connect() as su:
        su.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_read_after_the_connection_was_lost_connects_again_by_itself(club_pg: ClubServer, opened: Any) -> None:
    before = db.connection().info.backend_pid
    drop(club_pg)
    assert [c.name for c in Campaign.select()] == ["Congo 1960"]  # no error: a new connection answered
    assert db.connection().info.backend_pid != before


def test_a_write_after_the_connection_was_lost_is_not_sent_again(club_pg: ClubServer, opened: Any) -> None:
    congo = campaign_id("Congo 1960")  # looked up before: a read would connect again by itself
    drop(club_pg)
    with pytest.raises(ServerUnavailable, match="nothing was written"):
        campaigns.rename_campaign(congo, "Congo 1961")
    assert [c.name for c in Campaign.select()] == ["Congo 1960"]
    campaigns.rename_campaign(congo, "Congo 1961")  # the next one works on a new connection
    assert [c.name for c in Campaign.select()] == ["Congo 1961"]
    journal.undo()


def lost_commit(monkeypatch: pytest.MonkeyPatch, server: ClubServer, *, after_commit: bool) -> None:
    """The message that closes and commits an operation loses its connection: after the server committed it
    (``after_commit``), or before it was sent."""
    real = ServerDatabase.execute_and_commit

    def lossy(self: ServerDatabase, sql: str, params: Any = None) -> Any:
        if after_commit:
            real(self, sql, params)
        drop(server)
        with self.translated():
            self.execute_sql("SELECT 1 FOR UPDATE")  # on the dead connection: the app's "cannot reach" error

    monkeypatch.setattr(ServerDatabase, "execute_and_commit", lossy)


def test_a_lost_commit_that_was_saved_is_reported_saved(
    club_pg: ClubServer, opened: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost_commit(monkeypatch, club_pg, after_commit=True)
    with operation("test.rename", "Rename for the test") as op:
        Campaign.update(name="Congo 1962").where(Campaign.name == "Congo 1960").execute()
    monkeypatch.undo()
    saved = op.changes
    assert saved.operation_id is not None and saved.kind == "test.rename"
    assert any(table == "campaign" for table, _ in saved.rows)
    assert journal.newest_undoable() is not None and journal.newest_undoable().id == saved.operation_id  # type: ignore[union-attr]
    assert [c.name for c in Campaign.select()] == ["Congo 1962"]
    journal.undo(saved.operation_id)
    assert [c.name for c in Campaign.select()] == ["Congo 1960"]


def test_a_lost_commit_that_was_not_saved_says_so(
    club_pg: ClubServer, opened: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost_commit(monkeypatch, club_pg, after_commit=False)
    with (
        pytest.raises(ServerUnavailable, match="shows it was not saved, so nothing was written"),
        operation("test.rename", "Rename for the test"),
    ):
        Campaign.update(name="Congo 1962").where(Campaign.name == "Congo 1960").execute()
    monkeypatch.undo()
    assert [c.name for c in Campaign.select()] == ["Congo 1960"]


def test_ssl_is_asked_for_by_default_and_an_address_may_require_it(
    club_pg: ClubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PGSSLMODE", raising=False)
    url = club_pg.url(DB, user=OWNER)
    assert ServerDatabase(url).connect_params["sslmode"] == "prefer"
    required = ServerDatabase(url + ("&" if "?" in url else "?") + "sslmode=require")
    assert "sslmode" not in required.connect_params and "sslmode=require" in required.url
    close_db()
