"""0003: the operation journal (DESIGN.md "The operation journal is the spine").

- ``operation``: one row per change a user made (stable ``kind`` code such as ``battle.log``, a human label,
  the campaign/platoon/sheet it concerns, UTC times, who, whether it is undone).
- ``operation_change``: every row an operation inserted, updated or deleted, with its whole before and after
  image as JSON (REAL values as text with 17 significant digits, so they come back bit for bit).
- ``journal_state``: the one row that says which operation is open (``operation_id``) and whether the triggers
  record (``mode = 'record'``) or are switched off while a later migration converts stored rows (``'off'``).
- Triggers on every table of the app record each write into ``operation_change`` and refuse a write made
  while no operation is open, so nothing can escape undo.

Changes made before this upgrade were not recorded: an existing database gets a first operation of kind
``journal.start`` that says so (it cannot be undone).
"""

from __future__ import annotations

import datetime as _dt
import getpass
from typing import Any

STATEMENTS = [
    'CREATE TABLE "operation" ('
    '"id" INTEGER NOT NULL PRIMARY KEY, '
    '"kind" TEXT NOT NULL, '
    '"label" TEXT NOT NULL, '
    '"campaign_id" INTEGER, '
    '"platoon_id" INTEGER, '
    '"sheet_id" INTEGER, '
    '"merge_key" TEXT, '
    '"created_at" TEXT NOT NULL, '
    '"updated_at" TEXT NOT NULL, '
    "\"user\" TEXT NOT NULL DEFAULT '', "
    '"undone" INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)), '
    '"undone_at" TEXT, '
    '"undo_seq" INTEGER)',
    'CREATE INDEX "operation_campaign_id" ON "operation" ("campaign_id")',
    'CREATE INDEX "operation_platoon_id" ON "operation" ("platoon_id")',
    'CREATE INDEX "operation_sheet_id" ON "operation" ("sheet_id")',
    'CREATE TABLE "operation_change" ('
    '"id" INTEGER NOT NULL PRIMARY KEY, '
    '"operation_id" INTEGER NOT NULL REFERENCES "operation" ("id") ON DELETE CASCADE, '
    '"table_name" TEXT NOT NULL, '
    '"row_id" INTEGER NOT NULL, '
    "\"action\" TEXT NOT NULL CHECK (action IN ('insert', 'update', 'delete')), "
    '"old" TEXT, '
    '"new" TEXT)',
    'CREATE INDEX "operation_change_operation_id" ON "operation_change" ("operation_id")',
    'CREATE INDEX "operation_change_table_name_row_id_operation_id" ON "operation_change" ("table_name", "row_id", "operation_id")',
    'CREATE TABLE "journal_state" ('
    '"id" INTEGER NOT NULL PRIMARY KEY CHECK (id = 1), '
    '"operation_id" INTEGER, '
    "\"mode\" TEXT NOT NULL DEFAULT 'record' CHECK (mode IN ('record', 'off')))",
    'INSERT INTO "journal_state" ("id", "operation_id", "mode") VALUES (1, NULL, \'record\')',
]


def migrate(migrator: Any, database: Any) -> None:
    from campaign_app.store.journal import install_triggers

    had_rows = database.execute_sql('SELECT EXISTS (SELECT 1 FROM "campaign")').fetchone()[0]
    for statement in STATEMENTS:
        database.execute_sql(statement)
    install_triggers(database)
    if had_rows:
        now = _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")
        try:
            user = getpass.getuser()
        except Exception:  # noqa: BLE001 - no login name on this system
            user = ""
        database.execute_sql(
            'INSERT INTO "operation" ("kind", "label", "created_at", "updated_at", "user") VALUES (?, ?, ?, ?, ?)',
            (
                "journal.start",
                "The journal starts here: changes made before this upgrade cannot be undone",
                now,
                now,
                user,
            ),
        )
