"""0006: on a server the journal is the server's own (club play that trusts no client).

On a file nothing changes. On a PostgreSQL server (:mod:`campaign_app.store.journal_pg`): the journal's trigger
becomes the owner's (``SECURITY DEFINER``), operations are opened and closed by server functions that take their
id from the server's clock and their login from ``session_user``, ids of new rows come from the server, and undo
and redo are server functions. Operations recorded before this upgrade were written by clients: a marker
(``journal.server``) says where the server's own journal starts, and the server replays nothing older (the
history stays readable). A club server set up by ``server init`` gets its rules again, in their new form (the
players may only read the journal, the check functions answer for the caller only).
"""

from __future__ import annotations

from typing import Any


def migrate(migrator: Any, database: Any) -> None:
    dialect = getattr(database, "dialect", "sqlite")
    if dialect == "sqlite":
        return
    if dialect != "postgresql":
        raise ValueError(f"migration 0006 does not know the database engine {dialect!r}")
    from campaign_app.store import club_server, journal, journal_pg

    journal.install_triggers(database)
    had_history = database.execute_sql("SELECT EXISTS (SELECT 1 FROM operation)").fetchone()[0]
    if had_history:
        database.execute_sql(
            'INSERT INTO operation (id, kind, label, created_at, updated_at, "user") VALUES '
            "(nextval('journal_clock'), ?, ?, campaign_app_now(), campaign_app_now(), session_user)",
            (
                journal_pg.SERVER_START_KIND,
                "The server keeps the journal from here: earlier changes are history only and cannot be undone",
            ),
        )
    club_server.reapply_rules(database)
