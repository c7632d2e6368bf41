"""Few round trips: several reads in one message, and an operation's writes in the message that commits it.

**Reads**: ``read_together(query, query, ...)``.

A service that needs several independent reads (a platoon, its campaign, its leaders, ...) hands them over at
once; the open database's engine decides how they travel (:meth:`~.opened.Engine.read_together`): a file runs
them one by one, a server sends them in one message and reads each one's answer. Each query is a peewee
``SELECT`` (its rows come back as that query would give them: model rows, dicts, tuples) or ``(sql, params)``
with ``?`` placeholders (its rows come back as tuples). Reads that depend on another's answer are written with
a subquery, so that they can travel together.

**Writes**: ``insert(Model, **values)``, ``update(Model, row_id, **values)`` and ``expect(sql, params)``, inside
an operation. A file writes at once (an insert gives the new id). A server keeps them and sends them with the
operation's next statement: for the last writes, the message that closes the operation and commits (so an
operation costs one round trip for all its writes). An insert then gives a :class:`RowRef`, which later writes
of the same operation may use as a value (the server puts the new id there); its ``value`` is the id once the
message is answered. ``expect`` is the guard that keeps a "changed since you read it" check exact: a query that
must give true where the writes land (under the row lock the operation holds), or :class:`ChangedMeanwhile` is
raised and nothing of the operation is kept (on a file at once; on a server by the message that commits).

Qt-free; what the services see does not depend on the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from peewee import SelectBase

from ..errors import Refused
from .models import database_proxy as db


class ChangedMeanwhile(Refused):
    """An :func:`expect` guard found the data changed since it was read: the operation was not written."""


class RowRef:
    """The id of a row an operation inserted on a server, in the message still to be sent: a value for the
    operation's later writes; ``value`` once the server answered."""

    def __init__(self) -> None:
        self.value: int | None = None
        self.setting = ""

    def __int__(self) -> int:
        if self.value is None:  # wanted before the commit (an operation nested in a bigger one): send it now
            db.obj.execute_sql("SELECT 1")
        if self.value is None:
            raise ValueError("the row's id is known once the operation's writes were sent")
        return self.value

    def __repr__(self) -> str:
        return f"<RowRef {self.value if self.value is not None else 'not sent yet'}>"


def _column_values(model: Any, values: dict[str, Any]) -> dict[str, Any]:
    fields = model._meta.fields
    out: dict[str, Any] = {}
    for name, value in values.items():
        field = fields[name]
        out[field.column_name] = value if isinstance(value, RowRef) else field.db_value(value)
    return out


def insert(model: Any, **values: Any) -> int | RowRef:
    """Insert one row of ``model`` (field names as in ``Model.create``; a :class:`RowRef` is a valid value of a
    foreign key). Its id, or on a server its :class:`RowRef`."""
    given = dict(values)
    for field, default in model._meta.defaults.items():  # the model's defaults, as Model.create fills them in
        if field.name not in given:
            given[field.name] = default() if callable(default) else default
    return db.obj.write_row(model._meta.table_name, _column_values(model, given), RowRef())  # type: ignore[no-any-return]


def update(model: Any, row_id: int | RowRef, **values: Any) -> None:
    """Set ``values`` on the row ``row_id`` of ``model`` (no answer is needed: on a server it travels later)."""
    db.obj.update_row(model._meta.table_name, row_id, _column_values(model, values))


def expect(sql: str, params: Any = None) -> None:
    """``sql`` (one value; ``?`` placeholders) must be true where the operation's writes land, or the operation
    is refused with :class:`ChangedMeanwhile` and nothing of it is kept."""
    db.obj.expect(sql, params)


def check_with_next_message(query: SelectBase, handler: Callable[[list[Any]], None]) -> None:
    """Hand ``query``'s rows (tuples) to ``handler``, which may refuse: a file runs it now; a server sends it in
    front of the database's next message (no round trip of its own) and raises the refusal when that message's
    answer is read, before anything that message began is kept."""
    database = db.obj
    sql, params = database.get_sql_context().sql(query).query()
    database.check_with_next_message(sql, params, handler)


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
