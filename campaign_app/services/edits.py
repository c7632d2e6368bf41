"""What a service returns, and how it writes.

A service writes inside ``with rec.operation(kind, label) as op:`` (:class:`Recorder`): that is one journal
operation (:mod:`campaign_app.store.journal`) in one write transaction; the journal's triggers record every
row it inserts, updates or deletes, so undo and redo need nothing from the service. The service returns an
:class:`Edit`: the kind and id of the object that changed (for the views), a short message, a summary (what
``campaign-cli --json`` prints) and the operation's changes (:class:`~campaign_app.store.journal.OpChanges`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Generic, cast, overload

from ..store import journal
from ..store.journal import NO_CHANGES, OpChanges, Operation
from ..store.models import BaseModel

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    Summary = TypeVar("Summary", default=dict[str, Any])
    """What an Edit's summary is: a typed result (``Edit[PlatoonDetail]``), or, for the services not typed yet,
    the plain JSON dict (a bare ``Edit``)."""
else:  # the default matters to the type checker only (Python 3.11's TypeVar has none)
    from typing import TypeVar

    Summary = TypeVar("Summary")

_M = TypeVar("_M", bound=BaseModel)

Row = dict[str, Any]
"""A stored row's columns (any column type: text, numbers, dates, JSON), as ``Model.select().dicts()`` gives it."""


class Edit(Generic[Summary]):
    """What a service did. ``changes`` is final once the service's operation has ended."""

    def __init__(self, kind: str, id: int, message: str, summary: Summary,
                 changes: OpChanges | Operation | None = None, *, undid: list[int] | None = None) -> None:
        self.undid: list[int] = list(undid or [])
        """The operations the service undid, in order (``battle undo``): reverting this Edit redoes them."""
        self.kind = kind
        self.id = id
        self.message = message
        self.summary = summary
        self._changes = changes

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


@overload
def combine(kind: str, obj_id: int, edits: Iterable[Edit[dict[str, Any]]], op: Operation | None,
            summary: None = None) -> Edit[dict[str, Any]]: ...


@overload
def combine(kind: str, obj_id: int, edits: Iterable[Edit[Any]], op: Operation | None,
            summary: Summary) -> Edit[Summary]: ...


def combine(kind: str, obj_id: int, edits: Iterable[Edit[Any]], op: Operation | None,
            summary: object = None) -> Edit[Any]:
    """One Edit for several services run inside one operation: its summary is ``summary``, or (for dict
    summaries) theirs merged."""
    edits = list(edits)
    message = "; ".join(e.message for e in edits if "nothing changed" not in e.message
                        and "XP stays" not in e.message) or (edits[0].message if edits else "")
    if summary is None:
        merged: dict[str, Any] = {}
        for e in edits:
            merged.update(e.summary)
        summary = merged
    return Edit(kind, obj_id, message, summary, op)


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
