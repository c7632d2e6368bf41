"""0007: d12 Death Blow as a campaign system (RULES.md §5).

- ``campaign.system`` may be ``death_blow`` (the CHECK is widened; on SQLite the ``campaign`` table is rebuilt
  the documented way, foreign keys off; on PostgreSQL its CHECK constraint is replaced).
- ``fighter``: a fighter of a campaign: name (unique in its campaign by ``name_key``), starting level, level,
  XP toward the next level, lifetime XP, status (active/retired), notes, ``owner`` (the login that created it on
  a club server, ``''`` on a file).
- ``bout``: one bout of a fighter against another fighter of the campaign or a named outside opponent, logged
  from the table or played solo by the app, with both sides' level/XP/lifetime XP before and after.
- ``bout_round``: the rounds of a solo bout (each side as JSON: card, dice and source, Initiative, styles,
  Attack, Defense, damage, discards, cards left).
- ``fighter_change``: corrections (with their reason), renames, retiring.

Who owns the new rows (club play; ``campaign_app.store.death_blow_club`` holds the list and the policies):
fighter → its ``owner``; bout → its fighter and its opponent fighter (a writer must be able to change both);
bout_round → its bout; fighter_change → its fighter.

On a club server already set up (``server init`` ran before), the new tables get the players' grants and the
row-level security policies at once (``store.club_server.reapply_rules``), as ``server init`` would.

Nothing existing is converted: no stored row or journal image changes (the journal's images of ``campaign`` keep
every column; only the CHECK is wider).
"""

from __future__ import annotations

from typing import Any

FOREIGN_KEYS_OFF = True
"""``campaign`` is rebuilt on SQLite: the runner switches foreign keys off around this migration and checks them
before the commit."""

CAMPAIGN_SQLITE = (
    'CREATE TABLE "campaign" ("id" INTEGER NOT NULL PRIMARY KEY, "name" TEXT NOT NULL, "name_key" TEXT NOT NULL, '
    "\"system\" TEXT NOT NULL CHECK (system IN ('atomic_africa', 'sologear', 'death_blow')), "
    '"period" INTEGER CHECK (period IS NULL OR period BETWEEN 1 AND 5), "threshold_green" INTEGER NOT NULL, '
    '"threshold_regular" INTEGER NOT NULL, "threshold_veteran" INTEGER NOT NULL, '
    '"threshold_legendary" INTEGER NOT NULL, '
    "\"objective_xp_to\" TEXT NOT NULL CHECK (objective_xp_to IN ('both', 'platoon')), "
    '"replacement_dice" INTEGER NOT NULL CHECK (replacement_dice IN (1, 2)), "archived" INTEGER NOT NULL, '
    '"notes" TEXT NOT NULL, "created_at" DATETIME NOT NULL, "created_by" TEXT NOT NULL DEFAULT \'\', '
    "CHECK (threshold_green >= 1 AND threshold_green < threshold_regular AND threshold_regular < "
    "threshold_veteran AND threshold_veteran < threshold_legendary AND threshold_legendary <= 32))"
)
CAMPAIGN_INDEXES = ['CREATE UNIQUE INDEX "campaign_name_key" ON "campaign" ("name_key")']
SYSTEM_CHECK = "system IN ('atomic_africa', 'sologear', 'death_blow')"

TABLES_SQLITE = [
    'CREATE TABLE "fighter" ("id" INTEGER NOT NULL PRIMARY KEY, "campaign_id" INTEGER NOT NULL, '
    '"name" TEXT NOT NULL, "name_key" TEXT NOT NULL, '
    '"start_level" INTEGER NOT NULL CHECK (start_level BETWEEN 0 AND 11), '
    '"level" INTEGER NOT NULL CHECK (level BETWEEN 0 AND 11), "xp" INTEGER NOT NULL CHECK (xp BETWEEN 0 AND 11), '
    '"lifetime_xp" INTEGER NOT NULL CHECK (lifetime_xp >= 0), '
    "\"status\" TEXT NOT NULL CHECK (status IN ('active', 'retired')), \"notes\" TEXT NOT NULL, "
    '"created_at" DATETIME NOT NULL, "owner" TEXT NOT NULL DEFAULT \'\', '
    'FOREIGN KEY ("campaign_id") REFERENCES "campaign" ("id") ON DELETE CASCADE, CHECK (level < 11 OR xp = 0))',
    'CREATE INDEX "fighter_campaign_id" ON "fighter" ("campaign_id")',
    'CREATE UNIQUE INDEX "fighter_campaign_id_name_key" ON "fighter" ("campaign_id", "name_key")',
    'CREATE TABLE "bout" ("id" INTEGER NOT NULL PRIMARY KEY, "fighter_id" INTEGER NOT NULL, '
    '"opponent_fighter_id" INTEGER, "opponent_name" TEXT NOT NULL, '
    '"opponent_level" INTEGER NOT NULL CHECK (opponent_level BETWEEN 0 AND 11), "date" DATE NOT NULL, '
    "\"notes\" TEXT NOT NULL, \"mode\" TEXT NOT NULL CHECK (mode IN ('table', 'solo')), "
    "\"winner\" TEXT NOT NULL CHECK (winner IN ('fighter', 'opponent', 'draw')), "
    '"face_cards_left" INTEGER NOT NULL CHECK (face_cards_left BETWEEN 0 AND 12), '
    '"xp_gained" INTEGER NOT NULL CHECK (xp_gained BETWEEN 0 AND 12), "seed" TEXT, '
    '"fighter_level_before" INTEGER NOT NULL CHECK (fighter_level_before BETWEEN 0 AND 11), '
    '"fighter_xp_before" INTEGER NOT NULL CHECK (fighter_xp_before BETWEEN 0 AND 11), '
    '"fighter_lifetime_before" INTEGER NOT NULL CHECK (fighter_lifetime_before >= 0), '
    '"fighter_level_after" INTEGER NOT NULL CHECK (fighter_level_after BETWEEN 0 AND 11), '
    '"fighter_xp_after" INTEGER NOT NULL CHECK (fighter_xp_after BETWEEN 0 AND 11), '
    '"fighter_lifetime_after" INTEGER NOT NULL CHECK (fighter_lifetime_after >= 0), '
    '"opponent_xp_before" INTEGER CHECK (opponent_xp_before IS NULL OR opponent_xp_before BETWEEN 0 AND 11), '
    '"opponent_lifetime_before" INTEGER CHECK (opponent_lifetime_before IS NULL OR opponent_lifetime_before >= 0), '
    '"opponent_level_after" INTEGER CHECK (opponent_level_after IS NULL OR opponent_level_after BETWEEN 0 AND 11), '
    '"opponent_xp_after" INTEGER CHECK (opponent_xp_after IS NULL OR opponent_xp_after BETWEEN 0 AND 11), '
    '"opponent_lifetime_after" INTEGER CHECK (opponent_lifetime_after IS NULL OR opponent_lifetime_after >= 0), '
    '"created_at" DATETIME NOT NULL, '
    'FOREIGN KEY ("fighter_id") REFERENCES "fighter" ("id") ON DELETE CASCADE, '
    'FOREIGN KEY ("opponent_fighter_id") REFERENCES "fighter" ("id") ON DELETE CASCADE, '
    "CHECK (winner != 'draw' OR (xp_gained = 0 AND face_cards_left = 0)), "
    "CHECK (opponent_fighter_id IS NULL OR opponent_fighter_id != fighter_id))",
    'CREATE INDEX "bout_fighter_id" ON "bout" ("fighter_id")',
    'CREATE INDEX "bout_opponent_fighter_id" ON "bout" ("opponent_fighter_id")',
    'CREATE TABLE "bout_round" ("id" INTEGER NOT NULL PRIMARY KEY, "bout_id" INTEGER NOT NULL, '
    '"number" INTEGER NOT NULL CHECK (number >= 1), "a" TEXT NOT NULL, "b" TEXT NOT NULL, '
    'FOREIGN KEY ("bout_id") REFERENCES "bout" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "bout_round_bout_id" ON "bout_round" ("bout_id")',
    'CREATE UNIQUE INDEX "bout_round_bout_id_number" ON "bout_round" ("bout_id", "number")',
    'CREATE TABLE "fighter_change" ("id" INTEGER NOT NULL PRIMARY KEY, "fighter_id" INTEGER NOT NULL, '
    '"field" TEXT NOT NULL, "old_value" TEXT, "new_value" TEXT, "reason" TEXT NOT NULL, '
    '"created_at" DATETIME NOT NULL, '
    'FOREIGN KEY ("fighter_id") REFERENCES "fighter" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "fighter_change_fighter_id" ON "fighter_change" ("fighter_id")',
]


def _postgresql(statement: str) -> str:
    """The same table on PostgreSQL, as the baseline ``postgresql_0004`` writes them: identity ids, BIGINT whole
    numbers, TIMESTAMPTZ times, deferrable foreign keys (undo may put rows back in any order)."""
    out = statement.replace(
        '"id" INTEGER NOT NULL PRIMARY KEY', '"id" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY'
    )
    out = out.replace(" INTEGER", " BIGINT").replace(" DATETIME", " TIMESTAMPTZ")
    return out.replace("ON DELETE CASCADE", "ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE")


def statements(dialect: str) -> list[str]:
    """The new tables on ``dialect`` (the ``campaign`` change is done by :func:`migrate`)."""
    if dialect == "sqlite":
        return list(TABLES_SQLITE)
    if dialect == "postgresql":
        return [_postgresql(s) for s in TABLES_SQLITE]
    raise ValueError(f"migration 0007 does not know the database engine {dialect!r}")


def _rows(database: Any, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    return list(database.execute_sql(sql, params).fetchall())


def _rebuild_campaign_sqlite(database: Any) -> None:
    """https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema Changes"."""
    old = [r[1] for r in _rows(database, 'PRAGMA table_info("campaign")')]
    database.execute_sql(CAMPAIGN_SQLITE.replace('CREATE TABLE "campaign"', 'CREATE TABLE "campaign__new"', 1))
    columns = ", ".join(f'"{c}"' for c in old)
    database.execute_sql(f'INSERT INTO "campaign__new" ({columns}) SELECT {columns} FROM "campaign"')
    database.execute_sql('DROP TABLE "campaign"')
    database.execute_sql('ALTER TABLE "campaign__new" RENAME TO "campaign"')
    for index in CAMPAIGN_INDEXES:
        database.execute_sql(index)


def _widen_check_postgresql(database: Any) -> None:
    names = _rows(
        database,
        "SELECT conname FROM pg_constraint WHERE conrelid = 'campaign'::regclass "
        "AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%system%'",
    )
    for (name,) in names:
        database.execute_sql(f'ALTER TABLE "campaign" DROP CONSTRAINT "{name}"')
    database.execute_sql(f'ALTER TABLE "campaign" ADD CONSTRAINT "campaign_system_check" CHECK ({SYSTEM_CHECK})')


def migrate(migrator: Any, database: Any) -> None:
    from campaign_app.store.journal import has_journal, install_triggers

    dialect = getattr(database, "dialect", "sqlite")
    new_tables = statements(dialect)
    journal = has_journal(database)
    if dialect == "sqlite":
        if journal:  # re-created at the end; a renamed table re-reads every trigger
            for (name,) in _rows(
                database,
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'journal\\_%' ESCAPE '\\'",
            ):
                database.execute_sql(f'DROP TRIGGER "{name}"')
        _rebuild_campaign_sqlite(database)
    else:
        _widen_check_postgresql(database)
    for statement in new_tables:
        database.execute_sql(statement)
    if journal:
        install_triggers(database)  # the new tables are recorded too (and the rebuilt campaign again)
    if dialect == "postgresql":  # a club server set up before the upgrade: the new tables get its rules now
        from campaign_app.store import club_server

        club_server.reapply_rules(database)
