"""Several reads in one round trip: ``read_together(query, query, ...)``.

A service that needs several independent reads (a platoon, its campaign, its leaders, ...) hands them over at
once; the open database's engine decides how they travel (:meth:`~.opened.Engine.read_together`): a file runs
them one by one, a server sends them in one message and reads each one's answer. Each query is a peewee
``SELECT`` (its rows come back as that query would give them: model rows, dicts, tuples) or ``(sql, params)``
with ``?`` placeholders (its rows come back as tuples). Reads that depend on another's answer are written with
a subquery, so that they can travel together.

Qt-free; what the services see does not depend on the engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from peewee import SelectBase

from .models import database_proxy as db


class _Answer:
    """One finished result set, read the way peewee's cursor wrappers and the services read a cursor."""

    def __init__(self, description: Any, rows: list[Any]) -> None:
        self.description = description
        self._rows = rows
        self._at = 0

    def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Any]:
        rest, self._at = self._rows[self._at :], len(self._rows)
        return rest

    def fetchmany(self, size: int = 1) -> list[Any]:
        rest = self._rows[self._at : self._at + size]
        self._at += len(rest)
        return rest

    def close(self) -> None:
        pass

    def __iter__(self) -> Iterator[Any]:
        while (row := self.fetchone()) is not None:
            yield row


def read_together(*queries: SelectBase | tuple[str, Any]) -> list[Any]:
    """The answers of ``queries``, in order: a list of rows for each (what iterating the peewee query would
    give; tuples for ``(sql, params)``). One round trip on a server."""
    database = db.obj
    statements: list[tuple[str, Any]] = []
    for query in queries:
        if isinstance(query, tuple):
            statements.append(query)
        else:
            sql, params = database.get_sql_context().sql(query).query()
            statements.append((sql, params))
    answers = database.read_together(statements)
    out: list[Any] = []
    for query, (description, rows) in zip(queries, answers, strict=True):
        answer = _Answer(description, rows)
        if isinstance(query, tuple):
            out.append(list(answer))
        else:
            out.append(list(query._get_cursor_wrapper(answer)))  # type: ignore[attr-defined]  # peewee's own hook
    return out
