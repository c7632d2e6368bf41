"""Row-level change sets: exactly what a service wrote, so that undo and redo can revert and re-apply it
(same ids, no re-rolling of dice, no new audit rows).

A service records its writes through a :class:`Recorder` inside its transaction and returns the
:class:`Changeset` inside an :class:`Edit`. :func:`undo_changes` and :func:`redo_changes` each run in one
transaction and refuse (``ServiceError``) when the rows were changed since by something that is not on the
undo stack, rather than overwrite that change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from peewee import IntegrityError

from ..store.database import db
from ..store.models import (
    MODELS,
    AttachedUnit,
    AttributeChange,
    BaseModel,
    Battle,
    Campaign,
    Equipment,
    Leader,
    Platoon,
    Roll,
    SologearForce,
    SologearSheet,
    SologearTurn,
    XpChange,
)
from .common import ServiceError

TABLES: dict[str, type[BaseModel]] = {m._meta.table_name: m for m in MODELS}
"""Table name -> model; MODELS lists parents before children."""

Row = dict[str, Any]


@dataclass(frozen=True)
class Op:
    """One row written: ``action`` is "create", "update" or "delete"; ``old``/``new`` are the row's values
    before/after (the whole row for create/delete, the changed fields for update)."""

    action: str
    table: str
    row_id: int
    old: Row | None
    new: Row | None


@dataclass
class Changeset:
    ops: list[Op] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.ops)

    def created(self, table: str) -> list[Row]:
        return [op.new for op in self.ops if op.action == "create" and op.table == table and op.new]

    def deleted(self, table: str) -> list[Row]:
        return [op.old for op in self.ops if op.action == "delete" and op.table == table and op.old]

    def keys(self, action: str) -> set[tuple[str, int]]:
        return {(op.table, op.row_id) for op in self.ops if op.action == action}


@dataclass
class Edit:
    """What a service did: the kind and id of the object that changed (for ``data_changed``), a short
    message, a JSON-able summary (old and new values) and the row-level changes for undo/redo."""

    kind: str
    id: int
    message: str
    summary: dict[str, Any]
    changes: Changeset

    @property
    def changed(self) -> bool:
        return bool(self.changes)


def combine(kind: str, obj_id: int, edits: Iterable[Edit], summary: dict[str, Any] | None = None) -> Edit:
    """One Edit for several services run inside one outer transaction (their ops in order)."""
    edits = list(edits)
    ops = [op for e in edits for op in e.changes.ops]
    message = "; ".join(e.message for e in edits if e.changed) or (edits[0].message if edits else "")
    merged: dict[str, Any] = summary if summary is not None else {}
    if summary is None:
        for e in edits:
            merged.update(e.summary)
    return Edit(kind, obj_id, message, merged, Changeset(ops))


def _table(model: type[BaseModel] | str) -> str:
    return model if isinstance(model, str) else model._meta.table_name


def read_row(model: type[BaseModel], row_id: int) -> Row | None:
    return model.select().where(model.id == row_id).dicts().get_or_none()


class Recorder:
    """Write rows and remember each write (use inside the service's ``db.atomic()``)."""

    def __init__(self) -> None:
        self.changes = Changeset()

    def create(self, model: type[BaseModel], **values: Any) -> Any:
        row = model.create(**values)
        data = read_row(model, row.id)
        self.changes.ops.append(Op("create", _table(model), row.id, None, data))
        return row

    def track_created(self, row: BaseModel) -> None:
        """Record a row that a helper (e.g. ``store_rolls``) created."""
        model = type(row)
        self.changes.ops.append(Op("create", _table(model), row.id, None, read_row(model, row.id)))

    def update(self, row: BaseModel, **values: Any) -> dict[str, tuple[Any, Any]]:
        """Set ``values`` on ``row`` (only the ones that differ); returns {field: (old, new)}."""
        model = type(row)
        current = read_row(model, row.id) or {}
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
            self.changes.ops.append(Op("update", _table(model), row.id, old, new))
        return {k: (old[k], new[k]) for k in new}

    def delete(self, model: type[BaseModel], row_id: int) -> None:
        """Delete one row with everything that depends on it (recorded, so undo puts it all back)."""
        rows, nulled = graph(_table(model), [row_id])
        for table, row_id2, old, new in nulled:
            TABLES[table].update(**new).where(TABLES[table].id == row_id2).execute()
            self.changes.ops.append(Op("update", table, row_id2, old, new))
        for table, data in sorted(rows, key=lambda r: -_order(r[0])):
            m = TABLES[table]
            m.delete().where(m.id == data["id"]).execute()
            self.changes.ops.append(Op("delete", table, data["id"], data, None))


def _order(table: str) -> int:
    return list(TABLES).index(table)


# --- what depends on a row ---------------------------------------------------------------------------------

Nulled = tuple[str, int, Row, Row]


def _dicts(model: type[BaseModel], where: Any) -> list[Row]:
    return list(model.select().where(where).dicts())


def _platoon_graph(ids: Sequence[int]) -> tuple[list[tuple[str, Row]], list[Nulled]]:
    ids = list(ids)
    platoons = _dicts(Platoon, Platoon.id.in_(ids))
    battles = _dicts(Battle, Battle.platoon.in_(ids))
    battle_ids = [b["id"] for b in battles]
    leaders = _dicts(Leader, Leader.platoon.in_(ids))
    leader_ids = [ld["id"] for ld in leaders]
    attached = _dicts(AttachedUnit, AttachedUnit.platoon.in_(ids))
    att_ids = [a["id"] for a in attached]
    equipment = _dicts(Equipment, Equipment.platoon.in_(ids) | Equipment.attached.in_(att_ids))
    xp_changes = _dicts(XpChange, XpChange.platoon.in_(ids))
    attr_changes = _dicts(AttributeChange, AttributeChange.platoon.in_(ids))
    rolls = _dicts(Roll, Roll.platoon.in_(ids) | Roll.battle.in_(battle_ids))
    rows: list[tuple[str, Row]] = []
    for model, found in ((Platoon, platoons), (Battle, battles), (Leader, leaders),
                         (AttachedUnit, attached), (Equipment, equipment), (XpChange, xp_changes),
                         (AttributeChange, attr_changes), (Roll, rolls)):
        rows.extend((_table(model), r) for r in found)
    roll_ids = {r["id"] for r in rolls}
    nulled: list[Nulled] = []
    for b in _dicts(Battle, Battle.opponent_platoon.in_(ids) & Battle.platoon.not_in(ids)):
        nulled.append(("battle", b["id"], {"opponent_platoon": b["opponent_platoon"]},
                       {"opponent_platoon": None}))
    for r in _dicts(Roll, Roll.leader.in_(leader_ids)):
        if r["id"] not in roll_ids:
            nulled.append(("roll", r["id"], {"leader": r["leader"]}, {"leader": None}))
    return rows, nulled


def graph(table: str, ids: Sequence[int]) -> tuple[list[tuple[str, Row]], list[Nulled]]:
    """The rows that go when the rows ``ids`` of ``table`` are deleted (themselves included, cascades
    followed) and the references that SQLite would set to NULL."""
    ids = list(ids)
    if table == "platoon":
        return _platoon_graph(ids)
    if table == "campaign":
        rows: list[tuple[str, Row]] = [("campaign", r) for r in _dicts(Campaign, Campaign.id.in_(ids))]
        platoon_ids = [p.id for p in Platoon.select(Platoon.id).where(Platoon.campaign.in_(ids))]
        p_rows, nulled = _platoon_graph(platoon_ids)
        rows.extend(p_rows)
        sheets = _dicts(SologearSheet, SologearSheet.campaign.in_(ids))
        sheet_ids = [s["id"] for s in sheets]
        turns = _dicts(SologearTurn, SologearTurn.sheet.in_(sheet_ids))
        forces = _dicts(SologearForce, SologearForce.sheet.in_(sheet_ids))
        rolls = _dicts(Roll, Roll.sheet.in_(sheet_ids) | Roll.turn.in_([t["id"] for t in turns]))
        rows.extend(("sologear_sheet", r) for r in sheets)
        rows.extend(("sologear_force", r) for r in forces)
        rows.extend(("sologear_turn", r) for r in turns)
        seen = {r["id"] for t, r in rows if t == "roll"}
        rows.extend(("roll", r) for r in rolls if r["id"] not in seen)
        return rows, nulled
    if table == "attached_unit":
        rows = [("attached_unit", r) for r in _dicts(AttachedUnit, AttachedUnit.id.in_(ids))]
        rows.extend(("equipment", r) for r in _dicts(Equipment, Equipment.attached.in_(ids)))
        return rows, []
    if table == "leader":
        rows = [("leader", r) for r in _dicts(Leader, Leader.id.in_(ids))]
        rows.extend(("xp_change", r) for r in _dicts(XpChange, XpChange.leader.in_(ids)))
        nulled = [("roll", r["id"], {"leader": r["leader"]}, {"leader": None})
                  for r in _dicts(Roll, Roll.leader.in_(ids))]
        return rows, nulled
    model = TABLES[table]
    return [(table, r) for r in _dicts(model, model.id.in_(ids))], []


# --- undo / redo -------------------------------------------------------------------------------------------

def _insert(table: str, data: Row) -> None:
    try:
        TABLES[table].insert(**data).execute()
    except IntegrityError as exc:
        raise ServiceError(f"cannot put back {table.replace('_', ' ')} {data.get('id')}: {exc}") from None


def _remove(table: str, row_id: int) -> None:
    model = TABLES[table]
    model.delete().where(model.id == row_id).execute()


def _set(table: str, row_id: int, expect: Row, values: Row, what: str) -> None:
    model = TABLES[table]
    current = read_row(model, row_id)
    if current is None:
        raise ServiceError(f"cannot {what}: {table.replace('_', ' ')} {row_id} no longer exists")
    for name, value in expect.items():
        if current.get(name) != value:
            raise ServiceError(f"cannot {what}: {table.replace('_', ' ')} {row_id} was changed since "
                               f"({name} is now {current.get(name)!r})")
    model.update(**values).where(model.id == row_id).execute()


def _check_no_strangers(changes: Changeset, ops: Iterable[Op], what: str) -> None:
    """Removing rows this change set created must not take rows with them that it did not create."""
    ours = changes.keys("create")
    for op in ops:
        if op.action != "create" or op.table not in ("campaign", "platoon", "attached_unit", "leader"):
            continue
        rows, _nulled = graph(op.table, [op.row_id])
        strangers = [(t, r["id"]) for t, r in rows if (t, r["id"]) not in ours]
        if strangers:
            t, i = strangers[0]
            raise ServiceError(f"cannot {what}: {op.table.replace('_', ' ')} {op.row_id} has since gained "
                               f"other data ({t.replace('_', ' ')} {i})")


def _name(op: Op) -> str:
    return f"{op.table.replace('_', ' ')} {op.row_id}"


def undo_changes(changes: Changeset) -> None:
    """Revert a change set (newest write first), in one transaction."""
    with db.atomic():
        _check_no_strangers(changes, changes.ops, "undo")
        for op in reversed(changes.ops):
            if op.action == "create":
                if read_row(TABLES[op.table], op.row_id) is None:
                    raise ServiceError(f"cannot undo: {_name(op)} is already gone")
                _remove(op.table, op.row_id)
            elif op.action == "update":
                _set(op.table, op.row_id, op.new or {}, op.old or {}, "undo")
            else:
                _insert(op.table, op.old or {})


def redo_changes(changes: Changeset) -> None:
    """Re-apply a change set that was undone, in one transaction."""
    with db.atomic():
        for op in changes.ops:
            if op.action == "create":
                _insert(op.table, op.new or {})
            elif op.action == "update":
                _set(op.table, op.row_id, op.old or {}, op.new or {}, "redo")
            else:
                if read_row(TABLES[op.table], op.row_id) is None:
                    raise ServiceError(f"cannot redo: {_name(op)} is already gone")
                _remove(op.table, op.row_id)
