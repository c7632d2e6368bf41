"""0009: a smaller journal: one index on ``operation_change`` fewer bytes.

``operation_change`` had two indexes: ``(operation_id)``, which every undo, redo, conflict check and change feed
reads (what an operation touched, the changes after or before it), and ``(table_name, row_id, operation_id)``,
read only to find a row's own history (forgetting a deleted campaign, undoing a Death Blow bout, who logged a
battle, the server's conflict check). The second one repeated each change's table name and took more room than
the first (at 1,000 battles about 170 KB of a 2.1 MB file, with the data alone 1.4 MB). It is replaced by an
index on ``row_id`` alone (a row's history is found by its id, the few changes of other tables with the same id
are filtered by reading them), half its size; the look-ups by operation keep their index. Nothing else changes,
and nothing recorded is touched: undo stays exact.

Both engines: on a server the same index is replaced (the server's conflict check joins on ``table_name,
row_id``; with ``row_id`` it finds the same few rows), and the server's journal is installed again, which brings
each campaign's journal budget (``journal_budget``, the owner's; ``campaign_app_compact`` and
``campaign_app_forget``: :mod:`campaign_app.store.journal_pg`); a club set up before gets its rules again (the
hook that says who may fold a campaign's journal). The pages freed on a file are reused by the journal as it
grows (``campaign-cli journal compact`` gives them back to the file system).
"""

from __future__ import annotations

from typing import Any

STATEMENTS = [
    'DROP INDEX IF EXISTS "operation_change_table_name_row_id_operation_id"',
    'CREATE INDEX "operation_change_row_id" ON "operation_change" ("row_id")',
]


def migrate(migrator: Any, database: Any) -> None:
    dialect = getattr(database, "dialect", "sqlite")
    if dialect not in ("sqlite", "postgresql"):
        raise ValueError(f"migration 0009 does not know the database engine {dialect!r}")
    for statement in STATEMENTS:
        database.execute_sql(statement)
    if dialect == "postgresql":
        from campaign_app.store import club_server
        from campaign_app.store.journal import install_triggers

        install_triggers(database)
        club_server.reapply_rules(database)
