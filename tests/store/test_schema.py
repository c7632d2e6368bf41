"""The models (store/models.py) and the migrated database (db/migrations/) declare the same schema, in full:
for every table its columns (type, NOT NULL, SQL default), CHECKs, indexes (unique, partial) and foreign keys
with ON DELETE; the journal's own tables included, and every app table carries the journal's triggers over
all its columns. The comparison is shown to fail on a copy of the database altered in each of those ways."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from peewee import TextField
from schema_ddl import describe, differences, model_schema, normalise

from campaign_app.store import close_db, init_db
from campaign_app.store.file_engine import trigger_statements
from campaign_app.store.journal import JOURNAL_TABLES
from campaign_app.store.models import JOURNAL_MODELS, MODELS, SchemaMigration

ALL_MODELS = (*MODELS, *JOURNAL_MODELS)


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database built by every migration (module-wide: the tests only read it or alter copies)."""
    folder = tmp_path_factory.mktemp("schema")
    init_db(folder / "campaign.db", folder / "backups", daily_backup=False)
    close_db()
    return folder / "campaign.db"


def _read(path: Path) -> dict[str, object]:
    con = sqlite3.connect(path)
    try:
        return describe(con)  # type: ignore[return-value]
    finally:
        con.close()


def test_models_and_migrations_declare_the_same_schema(migrated: Path) -> None:
    assert differences(model_schema(ALL_MODELS), _read(migrated)) == []


def test_the_comparison_sees_every_part_of_the_ddl(migrated: Path) -> None:
    """Not an empty comparison: every kind of DDL the test compares is present in the schema."""
    tables = _read(migrated)
    assert {m._meta.table_name for m in ALL_MODELS} <= set(tables)
    platoon = tables["platoon"]
    assert platoon.columns["xp"].not_null and platoon.columns["xp"].type == "INTEGER"  # type: ignore[attr-defined]
    assert "xp between 0 and 32" in platoon.checks  # type: ignore[attr-defined]
    assert any(i.unique and i.on == "campaign_id, name_key" for i in platoon.indexes)  # type: ignore[attr-defined]
    # a partial unique index (at most one active leader per platoon): its WHERE is compared too
    assert any(i.unique and i.where for i in tables["leader"].indexes)  # type: ignore[attr-defined]
    on_delete = {(fk.column, fk.on_delete) for fk in tables["battle"].foreign_keys}  # type: ignore[attr-defined]
    assert on_delete == {("platoon_id", "CASCADE"), ("opponent_platoon_id", "SET NULL")}
    assert tables["operation"].columns["undone"].default == "0"  # type: ignore[attr-defined]


def test_sql_defaults_agree_with_the_models_python_defaults(migrated: Path) -> None:
    """A column with an SQL DEFAULT (a column added by a migration to existing rows) stores the same value
    the model writes for a new row."""
    con = sqlite3.connect(migrated)
    seen = 0
    try:
        for model in ALL_MODELS:
            table = model._meta.table_name
            for _cid, col, _type, _nn, default, _pk in con.execute(f'PRAGMA table_info("{table}")'):
                if default is None:
                    continue
                seen += 1
                field = next(f for f in model._meta.sorted_fields if f.column_name == col)
                python = field.default() if callable(field.default) else field.default
                assert con.execute(f"SELECT {default}").fetchone()[0] == field.db_value(python), (table, col)
    finally:
        con.close()
    assert seen >= 1


def _triggers(path: Path) -> dict[str, str]:
    con = sqlite3.connect(path)
    try:
        return dict(con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"))
    finally:
        con.close()


def _expected_triggers(path: Path) -> dict[str, str]:
    """The journal's three triggers on every app table of the models, over the migrated table's columns."""
    con = sqlite3.connect(path)
    expected = {}
    try:
        for model in MODELS:
            table = model._meta.table_name
            if table in JOURNAL_TABLES:
                continue
            columns = [(r[1], (r[2] or "").upper()) for r in con.execute(f'PRAGMA table_info("{table}")')]
            for statement in trigger_statements(table, columns):
                expected[statement.split('"')[1]] = statement
    finally:
        con.close()
    return expected


def test_every_app_table_has_the_journal_triggers_over_all_its_columns(migrated: Path) -> None:
    """A write to any table of the app is recorded, every column of it (a column a migration added but the
    triggers do not copy would be lost by an undo); the journal's own tables are not recorded."""
    expected = _expected_triggers(migrated)
    assert len(expected) == 3 * len([m for m in MODELS if m._meta.table_name not in JOURNAL_TABLES])
    assert _triggers(migrated) == expected


def test_a_trigger_that_misses_a_column_is_caught(migrated: Path, tmp_path: Path) -> None:
    copy = tmp_path / "altered.db"
    shutil.copy(migrated, copy)
    con = sqlite3.connect(copy)
    try:
        con.execute('ALTER TABLE "platoon" ADD COLUMN "nickname" TEXT')  # the triggers were not rebuilt
        con.commit()
    finally:
        con.close()
    have, want = _triggers(copy), _expected_triggers(copy)
    # the insert trigger copies no column (the row is in its table), so it does not go stale
    assert {name for name in want if have.get(name) != want[name]} == {
        "journal_platoon_update",
        "journal_platoon_delete",
    }


def _rewrite(table: str, old: str, new: str) -> Callable[[sqlite3.Connection], None]:
    """Change the stored CREATE statement of ``table`` (or of an index) in place."""

    def alter(con: sqlite3.Connection) -> None:
        (sql,) = con.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        assert old in sql, (old, sql)
        con.execute("PRAGMA writable_schema = ON")
        con.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?", (sql.replace(old, new, 1), table))
        con.commit()
        con.execute("PRAGMA writable_schema = OFF")

    return alter


def _run(*statements: str) -> Callable[[sqlite3.Connection], None]:
    def alter(con: sqlite3.Connection) -> None:
        for statement in statements:
            con.execute(statement)
        con.commit()

    return alter


ALTERATIONS = {
    "on delete": (
        _rewrite(
            "platoon",
            'REFERENCES "campaign" ("id") ON DELETE CASCADE',
            'REFERENCES "campaign" ("id") ON DELETE SET NULL',
        ),
        [
            "platoon: foreign key only in the models: ForeignKey(column='campaign_id', table='campaign', "
            "to='id', on_update='NO ACTION', on_delete='CASCADE')",
            "platoon: foreign key only in the migrated database: ForeignKey(column='campaign_id', "
            "table='campaign', to='id', on_update='NO ACTION', on_delete='SET NULL')",
        ],
    ),
    "check": (
        _rewrite("platoon", "xp BETWEEN 0 AND 32", "xp BETWEEN 0 AND 40"),
        [
            "platoon: CHECK only in the models: xp between 0 and 32",
            "platoon: CHECK only in the migrated database: xp between 0 and 40",
        ],
    ),
    "table check": (
        _rewrite("equipment", ", CHECK ((platoon_id IS NULL) != (attached_id IS NULL))", ""),
        ["equipment: CHECK only in the models: (platoon_id is null) != (attached_id is null)"],
    ),
    "not null": (
        _rewrite("leader", '"name" TEXT NOT NULL', '"name" TEXT'),
        [
            "leader.name: models Column(type='TEXT', not_null=True, default=None, primary_key=False) != "
            "migrated Column(type='TEXT', not_null=False, default=None, primary_key=False)"
        ],
    ),
    "type": (
        _rewrite("sologear_force", '"base_power" REAL', '"base_power" INTEGER'),
        [
            "sologear_force.base_power: models Column(type='REAL', not_null=True, default=None, "
            "primary_key=False) != migrated Column(type='INTEGER', not_null=True, default=None, "
            "primary_key=False)"
        ],
    ),
    "default": (
        _rewrite("battle", '"scenario" TEXT NOT NULL', "\"scenario\" TEXT NOT NULL DEFAULT ''"),
        [
            "battle.scenario: models Column(type='TEXT', not_null=True, default=None, primary_key=False) "
            "!= migrated Column(type='TEXT', not_null=True, default=\"''\", primary_key=False)"
        ],
    ),
    "index dropped": (
        _run('DROP INDEX "battle_platoon_id_number"'),
        ["battle: index only in the models: Index(unique=True, on='platoon_id, number', where=None)"],
    ),
    "index not unique": (
        _rewrite("campaign_name_key", "CREATE UNIQUE INDEX", "CREATE INDEX"),
        [
            "campaign: index only in the models: Index(unique=True, on='name_key', where=None)",
            "campaign: index only in the migrated database: Index(unique=False, on='name_key', where=None)",
        ],
    ),
    "partial index condition": (
        _rewrite("leader_one_active_per_platoon", "'active'", "'casualty'"),
        [
            "leader: index only in the models: Index(unique=True, on='platoon_id', where=\"(status = 'active')\")",
            "leader: index only in the migrated database: Index(unique=True, on='platoon_id', "
            "where=\"(status = 'casualty')\")",
        ],
    ),
    "partial index": (
        _run(
            'DROP INDEX "leader_platoon_id"',
            "CREATE INDEX leader_platoon_id ON leader (platoon_id) WHERE status = 'active'",
        ),
        [
            "leader: index only in the models: Index(unique=False, on='platoon_id', where=None)",
            "leader: index only in the migrated database: Index(unique=False, on='platoon_id', "
            "where=\"status = 'active'\")",
        ],
    ),
    "extra column": (
        _run('ALTER TABLE "roll" ADD COLUMN "extra" TEXT'),
        ["roll.extra: models None != migrated Column(type='TEXT', not_null=False, default=None, primary_key=False)"],
    ),
    "missing table": (
        _run('DROP TABLE "attribute_change"'),
        ["table attribute_change: in the models, not in the migrated database"],
    ),
}


@pytest.mark.parametrize("kind", list(ALTERATIONS))
def test_an_altered_copy_of_the_database_is_caught(kind: str, migrated: Path, tmp_path: Path) -> None:
    alter, expected = ALTERATIONS[kind]
    copy = tmp_path / "altered.db"
    shutil.copy(migrated, copy)
    con = sqlite3.connect(copy)
    try:
        alter(con)
    finally:
        con.close()
    assert differences(model_schema(ALL_MODELS), _read(copy)) == expected


def test_a_model_that_differs_from_the_migrations_is_caught(migrated: Path) -> None:
    class ChangedMigration(SchemaMigration):
        note = TextField(default="")

        class Meta:
            table_name = "schema_migration"

    models = [ChangedMigration if m is SchemaMigration else m for m in ALL_MODELS]
    assert differences(model_schema(models), _read(migrated)) == [
        "schema_migration.note: models Column(type='TEXT', not_null=True, default=None, primary_key=False) != "
        "migrated None"
    ]


def test_normalise_keeps_literals_and_ignores_spelling() -> None:
    assert normalise("\"Status\"  IN (  'Active' ,'x''y' )") == "status in ('Active', 'x''y')"
