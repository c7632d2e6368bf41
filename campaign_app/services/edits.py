"""What a service returns, and how it writes.

A service writes inside ``with rec.operation(kind, label) as op:`` (:class:`Recorder`): that is one journal
operation (:mod:`campaign_app.store.journal`) in one write transaction; the journal's triggers record every
row it inserts, updates or deletes, so undo and redo need nothing from the service. The service returns an
:class:`Edit` ``[R]``: the kind and id of the object that changed (for the views), a short message, the typed
result ``R`` (a :class:`~.results.Result` dataclass: the GUI reads its attributes, the CLI renders its text from
it and prints ``result.to_dict()`` for ``--json``) and the operation's changes
(:class:`~campaign_app.store.journal.OpChanges`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar, cast

from ..store import journal
from ..store.journal import NO_CHANGES, OpChanges, Operation
from ..store.models import BaseModel
from .results import plain

R = TypeVar("R", covariant=True)
"""What a service's Edit carries: its typed result (a frozen :class:`~.results.Result` dataclass)."""

T = TypeVar("T")
_M = TypeVar("_M", bound=BaseModel)

Row = dict[str, Any]
"""A stored row's columns (any column type: text, numbers, dates, JSON), as ``Model.select().dicts()`` gives it."""


class Edit(Generic[R]):
    """What a service did: the kind and id of the object that changed (for the views), a short message (the
    status bar, the CLI's text), the typed :attr:`result` and the operation's :attr:`changes`.
    ``changes`` is final once the service's operation has ended."""

    def __init__(
        self,
        kind: str,
        id: int,
        message: str,
        result: R,
        changes: OpChanges | Operation | None = None,
        *,
        undid: list[int] | None = None,
    ) -> None:
        self.undid: list[int] = list(undid or [])
        """The operations the service undid, in order (``battle undo``): reverting this Edit redoes them."""
        self.kind = kind
        self.id = id
        self.message = message
        self.result: R = result
        self._changes = changes

    def with_result(self, result: T) -> Edit[T]:
        """The same change reported with another result (a service that calls another to do its writing)."""
        return Edit(self.kind, self.id, self.message, result, self._changes, undid=self.undid)

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON data (what ``campaign-cli --json`` prints)."""
        data = plain(self.result)
        if not isinstance(data, dict):
            raise TypeError(f"{type(self.result).__name__} is not a JSON object")
        return data

    @property
    def changes(self) -> OpChanges:
        source = self._changes
        if source is None:
            return NO_CHANGES
        return source.changes if isinstance(source, Operation) else source

    @property
    def changed(self) -> bool:
        return bool(self.changes)

    @property
    def operation_id(self) -> int | None:
        return self.changes.operation_id

    @property
    def label(self) -> str:
        return self.changes.label or self.message

    def __repr__(self) -> str:
        return f"Edit({self.kind!r}, {self.id!r}, {self.message!r})"


class Recorder:
    """Writes rows inside the service's operation (the journal records them)."""

    def __init__(self) -> None:
        self.op: Operation | None = None

    @contextmanager
    def operation(self, kind: str, label: str = "", **targets: Any) -> Iterator[Operation]:
        with journal.operation(kind, label, **targets) as op:
            self.op = op
            yield op

    @property
    def changes(self) -> Operation | OpChanges:
        return self.op if self.op is not None else NO_CHANGES

    def label(self, text: str) -> None:
        if self.op is not None and not self.op.merged:
            self.op.label = text

    def create(self, model: type[_M], **values: Any) -> _M:
        return model.create(**values)

    def update(self, row: BaseModel, **values: Any) -> dict[str, tuple[Any, Any]]:
        """Set ``values`` on ``row`` (only the ones that differ); returns {field: (old, new)} (the values of
        any column type, as stored and as given)."""
        model = type(row)
        # .dicts() makes the row a dict (types-peewee keeps the query typed as giving model rows)
        current = cast("Row | None", model.select().where(model.id == row.id).dicts().get_or_none()) or {}
        old: Row = {}
        new: Row = {}
        for name, value in values.items():
            if current.get(name) != value:
                old[name] = current.get(name)
                new[name] = value
        if new:
            model.update(**new).where(model.id == row.id).execute()
            for name, value in new.items():
                setattr(row, name, value)
        return {k: (old[k], new[k]) for k in new}

    def delete(self, model: type[BaseModel], row_id: int) -> None:
        """Delete one row; the database's ON DELETE rules take what depends on it (all recorded)."""
        model.delete().where(model.id == row_id).execute()
