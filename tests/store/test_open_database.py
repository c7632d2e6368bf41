"""The open database is one object (``store.opened``): it follows what was opened last, answers "can this
database do X?" for each engine, asks the login once per connection, and gives the change feed."""

from __future__ import annotations

import getpass
from pathlib import Path
from typing import Any

import pytest

from campaign_app.store import close_db, init_db
from campaign_app.store.journal import operation
from campaign_app.store.models import Campaign, database_proxy
from campaign_app.store.opened import Capability, NotAvailable, current, require

FILE_CAN = {Capability.BACKUP, Capability.COMPACT}
SERVER_CAN = {Capability.SEVERAL_LOGINS, Capability.ANNOUNCES, Capability.SHARED_CONNECTION}


def _can(opened: Any) -> set[Capability]:
    return {c for c in Capability if opened.can(c)}


def test_opening_another_database_replaces_the_one_object(tmp_path: Path) -> None:
    first = init_db(tmp_path / "a.db", tmp_path / "backups", daily_backup=False)
    opened = require()
    assert opened.engine is first and opened.where == str(tmp_path / "a.db")
    assert current() is opened  # the same object while the same database is open
    second = init_db(tmp_path / "b.db", tmp_path / "backups", daily_backup=False)
    assert current() is not opened and require().engine is second
    assert require().where == str(tmp_path / "b.db")
    close_db()
    database_proxy.initialize(None)
    assert current() is None
    with pytest.raises(NotAvailable, match="no database is open"):
        require()


def test_a_file_keeps_backups_and_its_journal_budget_and_has_one_user(fresh_db: object) -> None:
    opened = require()
    assert _can(opened) == FILE_CAN
    assert opened.login() == getpass.getuser()
    assert opened.file("not a file") is fresh_db


def test_the_change_feed_of_the_open_database_names_each_operation(fresh_db: object) -> None:
    opened = require()
    mark = opened.newest_mark()
    assert opened.changes_since(mark) == (mark, [])
    with operation("campaign.create", "New campaign Congo 1960") as op:
        Campaign.create(name="Congo 1960", system="atomic_africa")
    new_mark, found = opened.changes_since(mark)
    assert new_mark > mark
    [changes] = found
    assert changes.operation_id == op.changes.operation_id and changes.label == "New campaign Congo 1960"
    assert changes.touches("campaign")
    assert opened.operation_changes(changes.operation_id or 0) == changes
    assert opened.changes_since(new_mark) == (new_mark, [])


def test_a_server_is_shared_and_announces_and_asks_its_login_once(pg_server: Any, tmp_path: Path) -> None:
    url = pg_server.create_database(pg_server.new_database_name("opened"))
    engine = init_db(url, daily_backup=False)
    try:
        opened = require()
        assert _can(opened) == SERVER_CAN  # no club rules before 'server init'
        asked: list[str] = []
        real = engine.execute_sql

        def counting(sql: str, params: Any = None) -> Any:
            asked.append(sql)
            return real(sql, params)

        engine.execute_sql = counting  # type: ignore[method-assign]
        who = opened.login()
        assert who and opened.login() == who and models_login() == who
        # asked with the session settings when the connection was made: no statement of its own afterwards
        assert sum("session_user" in sql for sql in asked) == 0
        assert opened.can(Capability.CLUB_RULES) is False
        before = len(asked)
        assert opened.can(Capability.CLUB_RULES) is False and len(asked) == before  # asked once
        with pytest.raises(NotAvailable, match="backed up on the server"):
            opened.file("a campaign on a server is backed up on the server")
    finally:
        close_db()
        database_proxy.initialize(None)


def models_login() -> str:
    from campaign_app.store.models import creator_login

    return creator_login()
