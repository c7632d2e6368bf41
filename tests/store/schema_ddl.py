"""Read the full DDL of an SQLite database into plain data, to compare the schema the peewee models declare
with the schema the numbered migrations build.

For every table: its columns (name, declared type, NOT NULL, SQL default, primary key), its CHECK
constraints (column and table CHECKs alike, as normalised SQL text), its indexes (columns or expressions,
unique, the partial ``WHERE``) and its foreign keys (column, referenced table and column, ON UPDATE,
ON DELETE). Column order is not compared: ``ALTER TABLE ... ADD COLUMN`` appends, the models do not.
Index names are not compared either (they are labels; what an index covers is what counts).
"""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from peewee import SqliteDatabase


@dataclass(frozen=True)
class Column:
    type: str
    not_null: bool
    default: str | None
    primary_key: bool


@dataclass(frozen=True)
class Index:
    unique: bool
    on: str  # the indexed columns or expressions, normalised: "campaign_id, name"
    where: str | None  # a partial index's condition, normalised


@dataclass(frozen=True)
class ForeignKey:
    column: str
    table: str
    to: str
    on_update: str
    on_delete: str


@dataclass
class Table:
    columns: dict[str, Column] = field(default_factory=dict)
    checks: Counter[str] = field(default_factory=Counter)
    indexes: Counter[Index] = field(default_factory=Counter)
    foreign_keys: Counter[ForeignKey] = field(default_factory=Counter)


def _split_literals(sql: str) -> list[tuple[bool, str]]:
    """``sql`` cut into (is a string literal, text) pieces ('it''s' stays one literal)."""
    pieces: list[tuple[bool, str]] = []
    for part in re.split(r"('(?:[^']|'')*')", sql):
        if part:
            pieces.append((part.startswith("'") and part.endswith("'") and len(part) >= 2, part))
    return pieces


def normalise(sql: str) -> str:
    """One spelling of an SQL expression: identifiers unquoted, keywords and names in lower case, one space
    between words, none inside parentheses or before commas. String literals are kept as they are."""
    out = []
    for literal, text in _split_literals(sql):
        if literal:
            out.append(text)
            continue
        text = text.replace('"', "").replace("`", "").lower()
        text = re.sub(r"\s*,\s*", ", ", re.sub(r"\s+", " ", text))
        text = re.sub(r"\(\s+", "(", text)
        text = re.sub(r"\s+\)", ")", text)
        out.append(text)
    return "".join(out).strip()


def _balanced(sql: str, start: int) -> tuple[str, int]:
    """The text inside the parenthesis that opens at ``sql[start]`` and the index after its close."""
    assert sql[start] == "("
    depth = 0
    i = start
    while i < len(sql):
        ch = sql[i]
        if ch == "'":
            i = sql.index("'", i + 1)
            while i + 1 < len(sql) and sql[i + 1] == "'":  # an escaped quote
                i = sql.index("'", i + 2)
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return sql[start + 1 : i], i + 1
        i += 1
    raise ValueError(f"unbalanced parentheses in {sql!r}")


def checks_of(create_table_sql: str) -> list[str]:
    """Every ``CHECK (...)`` of a CREATE TABLE statement, normalised (column and table CHECKs alike)."""
    masked = "".join(
        text if not literal else "'" + "_" * (len(text) - 2) + "'"
        for literal, text in _split_literals(create_table_sql)
    )
    found = []
    for match in re.finditer(r"\bCHECK\s*\(", masked, flags=re.IGNORECASE):
        inner, _end = _balanced(create_table_sql, match.end() - 1)
        found.append(normalise(inner))
    return found


def _index_parts(create_index_sql: str) -> tuple[str, str | None]:
    """What a CREATE INDEX statement covers and its WHERE condition, normalised."""
    masked = "".join(
        text if not literal else "'" + "_" * (len(text) - 2) + "'"
        for literal, text in _split_literals(create_index_sql)
    )
    on = re.search(r"\bON\s+\S+\s*\(", masked, flags=re.IGNORECASE)
    assert on is not None, create_index_sql
    inner, end = _balanced(create_index_sql, on.end() - 1)
    rest = create_index_sql[end:].strip()
    where = None
    if rest:
        assert rest[:5].upper() == "WHERE", create_index_sql
        where = normalise(rest[5:])
    return normalise(inner), where


def describe(con: sqlite3.Connection) -> dict[str, Table]:
    """The DDL of every table of ``con`` (SQLite's own tables left out)."""
    tables: dict[str, Table] = {}
    rows = con.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).fetchall()
    for name, sql in rows:
        table = tables[name] = Table()
        for _cid, col, ctype, notnull, default, pk in con.execute(f'PRAGMA table_info("{name}")'):
            table.columns[col] = Column(
                ctype.upper(), bool(notnull), None if default is None else normalise(str(default)), bool(pk)
            )
        table.checks.update(checks_of(sql))
        for row in con.execute(f'PRAGMA foreign_key_list("{name}")'):
            _id, _seq, ref_table, col, to, on_update, on_delete = row[:7]
            table.foreign_keys[ForeignKey(col, ref_table, to, on_update.upper(), on_delete.upper())] += 1
        for _seq, index_name, unique, origin, partial in con.execute(f'PRAGMA index_list("{name}")'):
            if origin != "c":  # a PRIMARY KEY or UNIQUE column constraint: part of the column's DDL
                cols = [r[2] for r in con.execute(f'PRAGMA index_info("{index_name}")')]
                table.indexes[Index(bool(unique), ", ".join(cols), None)] += 1
                continue
            (index_sql,) = con.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", (index_name,)
            ).fetchone()
            on, where = _index_parts(index_sql)
            assert bool(partial) == (where is not None), index_sql
            table.indexes[Index(bool(unique), on, where)] += 1
    return tables


def model_schema(models: Any) -> dict[str, Table]:
    """The DDL peewee writes for ``models`` (``create_tables`` on an empty in-memory database)."""
    memory = SqliteDatabase(":memory:")
    with memory.bind_ctx(models):
        memory.create_tables(models)
    try:
        return describe(memory.connection())
    finally:
        memory.close()


def differences(models: dict[str, Table], migrated: dict[str, Table]) -> list[str]:
    """Every way the two schemas disagree, one sentence each (empty when they agree)."""
    problems: list[str] = []
    for name in sorted(set(models) - set(migrated)):
        problems.append(f"table {name}: in the models, not in the migrated database")
    for name in sorted(set(migrated) - set(models)):
        problems.append(f"table {name}: in the migrated database, not in the models")
    for name in sorted(set(models) & set(migrated)):
        want, have = models[name], migrated[name]
        for col in sorted(set(want.columns) | set(have.columns)):
            a, b = want.columns.get(col), have.columns.get(col)
            if a != b:
                problems.append(f"{name}.{col}: models {a} != migrated {b}")
        for what, label in (("checks", "CHECK"), ("indexes", "index"), ("foreign_keys", "foreign key")):
            a_set, b_set = getattr(want, what), getattr(have, what)
            for item in sorted(map(str, (a_set - b_set).elements())):
                problems.append(f"{name}: {label} only in the models: {item}")
            for item in sorted(map(str, (b_set - a_set).elements())):
                problems.append(f"{name}: {label} only in the migrated database: {item}")
    return problems
