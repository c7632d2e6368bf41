"""Undo and redo: :func:`undo` and :func:`redo` replay what the journal recorded, in one transaction.

Undo is refused (:class:`~campaign_app.errors.Conflict`, naming the operation) when a later operation that is not
undone touched one of the same rows; redo is refused when a newer live operation touched them, or when an
earlier operation on them is undone (redo that one first). While replaying, the file's triggers record into a
scratch operation; any row the replay changed that the operation did not touch (a cascade into rows added later)
makes it refuse too. Nothing is written when it refuses. On a server the server replays (``campaign_app_replay``,
:mod:`.journal_pg`) with the asking login's rights.

Qt-free: SQL on the bound database.
"""

from __future__ import annotations

import json
from typing import Any

import peewee
from peewee import IntegrityError

from ..errors import Conflict, Refused, ServiceError
from .journal import (
    START_KIND,
    NotJournaled,
    OpChanges,
    _begin_write,
    _columns,
    _current,
    _is_real,
    _login,
    _server_refusal,
    _set_open,
    _tick,
    utc_now,
)
from .journal_read import (
    OperationInfo,
    _Change,
    _changes_of,
    _touched,
    current_image,
    get_operation,
    newest_redoable,
    newest_undoable,
)
from .models import database_proxy as db
from .opened import journal_on_server


def _blocking(
    op_id: int, touched: set[tuple[str, int]], *, later: bool, undone: bool, exclude: int | None = None
) -> OperationInfo | None:
    """The nearest operation after (``later``) or before this one, live or undone, that touched a row of
    ``touched``. An earlier undone operation counts only if it was undone after this one was made (this one's
    record was written with its effects in place)."""
    compare, order = (">", "ASC") if later else ("<", "DESC")
    since = "" if later else " AND o.undo_seq > ?"
    params = (op_id, int(undone)) if later else (op_id, int(undone), op_id)
    rows = db.execute_sql(
        f"SELECT c.table_name, c.row_id, c.operation_id FROM operation_change c JOIN operation o "
        f"ON o.id = c.operation_id WHERE c.operation_id {compare} ? AND o.undone = ?{since} "
        f"ORDER BY c.operation_id {order}",
        params,
    ).fetchall()
    for table, row_id, other in rows:
        if (table, int(row_id)) in touched and other != exclude:
            return get_operation(int(other))
    return None


class _Replayer:
    def __init__(self, info: OperationInfo | None, verb: str) -> None:
        self.info = info
        self.verb = verb
        self.columns: dict[str, list[tuple[str, str]]] = {}

    def cols(self, table: str) -> list[tuple[str, str]]:
        if table not in self.columns:
            self.columns[table] = _columns(db, table)
        return self.columns[table]

    def refuse(self, why: str) -> Conflict:
        label = self.info.label if self.info is not None else ""
        return Conflict(f"cannot {self.verb} \u201c{label}\u201d: {why}; nothing was changed")

    def current(self, table: str, row_id: int) -> dict[str, Any] | None:
        return current_image(table, row_id, self.cols(table))

    def values(self, table: str, image: dict[str, Any]) -> dict[str, Any]:
        out = {}
        for name, decl in self.cols(table):
            if name in image:
                value = image[name]
                out[name] = float(value) if _is_real(decl) and isinstance(value, str) else value
        return out

    def expect(self, table: str, row_id: int, image: dict[str, Any] | None, gone_ok: set[tuple[str, int]]) -> bool:
        """Check that the row is as the journal says; False when it is gone and that is expected (a cascade of
        this replay removed it)."""
        now = self.current(table, row_id)
        if now is None:
            if (table, row_id) in gone_ok:
                return False
            raise self.refuse(f"{table.replace('_', ' ')} {row_id} is no longer there")
        # an image may hold only the columns an update changed: those are compared
        if image is not None and any(now.get(k) != v for k, v in image.items()):
            raise self.refuse(f"{table.replace('_', ' ')} {row_id} was changed outside this operation")
        return True

    def insert(self, table: str, image: dict[str, Any]) -> None:
        values = self.values(table, image)
        if self.current(table, int(image["id"])) is not None:
            raise self.refuse(f"{table.replace('_', ' ')} {image['id']} exists again")
        names = ", ".join(f'"{n}"' for n in values)
        self.write(
            table,
            image,
            f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(values))})',
            list(values.values()),
        )

    def update(self, table: str, row_id: int, image: dict[str, Any]) -> None:
        values = self.values(table, image)
        values.pop("id", None)
        sets = ", ".join(f'"{n}" = ?' for n in values)
        self.write(
            table, {"id": row_id, **image}, f'UPDATE "{table}" SET {sets} WHERE id = ?', [*values.values(), row_id]
        )

    def write(self, table: str, image: dict[str, Any], sql: str, params: list[Any]) -> None:
        """A row put back that the database refuses now (a unique name taken since, a second active leader...)
        refuses the replay, naming the row, instead of failing with SQLite's words alone."""
        try:
            db.execute_sql(sql, params)
        except IntegrityError as exc:
            what = table.replace("_", " ")
            if "name_key" in str(exc):
                why = (
                    f"the name {image.get('name')!r} is taken by another {what} now (letter case does not make "
                    "a new name)"
                )
            else:
                why = f"{what} {image.get('id')} would break a rule of the database now ({exc})"
            raise self.refuse(why) from None

    def delete(self, table: str, row_id: int) -> None:
        db.execute_sql(f'DELETE FROM "{table}" WHERE id = ?', (row_id,))


def _replay(info: OperationInfo, undoing: bool) -> OpChanges:
    verb = "undo" if undoing else "redo"
    rp = _Replayer(info, verb)
    changes = _changes_of(info.id)
    touched = {(c.table, c.row_id) for c in changes}
    scratch = _tick()
    db.execute_sql(
        'INSERT INTO operation (id, kind, label, created_at, updated_at, "user") '
        "VALUES (?, 'journal.replay', '', ?, ?, ?)",
        (scratch, utc_now(), utc_now(), _login()),
    )
    _set_open(scratch)
    db.execute_sql("PRAGMA defer_foreign_keys = ON")
    swept: set[tuple[str, int]] = set()

    def cascaded() -> set[tuple[str, int]]:
        found = db.execute_sql(
            "SELECT table_name, row_id FROM operation_change WHERE operation_id = ?", (scratch,)
        ).fetchall()
        return {(t, int(i)) for t, i in found}

    if undoing:
        _keep_inserted_images(rp, changes)
    steps = reversed(changes) if undoing else changes
    for ch in steps:
        key = (ch.table, ch.row_id)
        if undoing:
            if ch.action == "insert":
                if rp.expect(ch.table, ch.row_id, ch.new, swept):
                    rp.delete(ch.table, ch.row_id)
            elif ch.action == "update":
                rp.expect(ch.table, ch.row_id, ch.new, set())
                rp.update(ch.table, ch.row_id, ch.old or {})
            else:
                rp.insert(ch.table, ch.old or {})
        else:
            if ch.action == "insert":
                rp.insert(ch.table, ch.new or {})
            elif ch.action == "update":
                if key in swept and rp.current(ch.table, ch.row_id) == ch.new:
                    pass  # an ON DELETE SET NULL of an earlier step did it (PostgreSQL records the parent first)
                elif rp.expect(ch.table, ch.row_id, ch.old, swept):
                    rp.update(ch.table, ch.row_id, ch.new or {})
            else:
                if rp.expect(ch.table, ch.row_id, ch.old, swept):
                    rp.delete(ch.table, ch.row_id)
        swept = cascaded() - {key}
    strangers = sorted(cascaded() - touched)
    if strangers:
        table, row_id = strangers[0]
        blocker = _blocking(info.id, {(table, row_id)}, later=True, undone=False, exclude=scratch)
        whose = f" (from \u201c{blocker.label}\u201d, operation {blocker.id})" if blocker else ""
        raise rp.refuse(f"it would also remove {table.replace('_', ' ')} {row_id}{whose}; undo that first")
    _set_open(None)
    db.execute_sql("DELETE FROM operation WHERE id = ?", (scratch,))
    return OpChanges(
        info.id, info.kind, info.label, frozenset(touched), info.campaign_id, info.platoon_id, info.sheet_id
    )


def _refuse_folded(info: OperationInfo, done: str) -> None:
    """An operation the journal's budget folded into its summary (no row images left) stays in the
    history but cannot be undone or redone any more."""
    if info.folded:
        raise Conflict(
            f"\u201c{info.label}\u201d (operation {info.id}) was folded into the journal's history to "
            f"save space: it is kept as a record but can no longer be {done}"
        )


def _keep_inserted_images(rp: _Replayer, changes: list[_Change]) -> None:
    """An insert is journalled without an image (the row is in its table); before undo deletes the
    rows, their images are written into the journal for a redo (the same rows, the same ids)."""
    for at, ch in enumerate(changes):
        if ch.action == "insert" and ch.new is None:
            kept = rp.current(ch.table, ch.row_id) or {}
            for later in reversed(changes[at + 1 :]):  # as inserted: walk back this operation's own later changes
                if (later.table, later.row_id) == (ch.table, ch.row_id):
                    if later.action == "delete":
                        kept = dict(later.old or {})
                    elif later.action == "update":
                        kept.update(later.old or {})
            if not kept:
                raise rp.refuse(f"{ch.table.replace('_', ' ')} {ch.row_id} is no longer there")
            db.execute_sql(
                "UPDATE operation_change SET new = ? WHERE id = ?", (json.dumps(kept, separators=(",", ":")), ch.id)
            )


def _resolve(op_id: int | None, undoing: bool) -> OperationInfo:
    if op_id is None:
        found = newest_undoable() if undoing else newest_redoable()
        if found is None:
            raise NotJournaled("nothing to undo" if undoing else "nothing to redo")
        return found
    if isinstance(op_id, bool) or not isinstance(op_id, int) or not 0 < op_id < 2**63:
        raise NotJournaled(f"no operation {op_id!r} in the journal")
    return get_operation(op_id)


def _server_replay(op_id: int | None, undoing: bool) -> OpChanges:
    """Undo or redo on a server: one call of the server's ``campaign_app_replay`` (:mod:`.journal_pg`), which
    decides who may, checks for conflicts and replays what the server recorded with the asking login's rights."""
    from . import journal_read

    with db.atomic():
        info = _resolve(op_id, undoing)
        try:
            # the replay, the operation's row as it then is, and the commit: one message
            cursor = db.execute_and_commit(
                "SELECT campaign_app_replay(?, ?)::text; " + journal_read.info_sql(), (info.id, undoing, info.id)
            )
            row = cursor.fetchone()
            if cursor.nextset():
                after = cursor.fetchone()
                if after is not None:
                    journal_read.remember_read(journal_read.info_of(after))
        except (peewee.DatabaseError, Refused) as exc:
            refused = _server_refusal(exc)
            if refused is exc:
                raise
            raise refused from exc
    done = json.loads(row[0])
    touched = frozenset((str(t), int(i)) for t, i in done["touched"])
    return OpChanges(
        int(done["id"]), done["kind"], done["label"], touched, done["campaign_id"], done["platoon_id"], done["sheet_id"]
    )


def undo(op_id: int | None = None) -> OpChanges:
    """Undo one operation (the newest live one by default), restoring every row it touched exactly."""
    if _current.get() is not None:
        raise ServiceError("cannot undo inside another operation")
    if journal_on_server():
        return _server_replay(op_id, True)
    with db.atomic():
        _begin_write()
        info = _resolve(op_id, True)
        if info.kind == START_KIND:
            raise Conflict("the start of the journal cannot be undone: changes made before it were not recorded")
        _refuse_folded(info, "undone")
        if info.undone:
            raise Conflict(f"\u201c{info.label}\u201d (operation {info.id}) is already undone")
        later = _blocking(info.id, _touched(info.id), later=True, undone=False)
        if later is not None:
            raise Conflict(
                f"cannot undo \u201c{info.label}\u201d: \u201c{later.label}\u201d (operation {later.id}) "
                "changed the same data later; undo that first"
            )
        result = _replay(info, undoing=True)
        seq = _tick()
        db.execute_sql(
            "UPDATE operation SET undone = 1, undone_at = ?, undo_seq = ? WHERE id = ?", (utc_now(), seq, info.id)
        )
        return result


def redo(op_id: int | None = None) -> OpChanges:
    """Redo an undone operation (the one undone most recently by default): the same rows, the same ids, the
    same dice."""
    if _current.get() is not None:
        raise ServiceError("cannot redo inside another operation")
    if journal_on_server():
        return _server_replay(op_id, False)
    with db.atomic():
        _begin_write()
        info = _resolve(op_id, False)
        if not info.undone:
            raise Conflict(f"\u201c{info.label}\u201d (operation {info.id}) is not undone")
        _refuse_folded(info, "redone")
        touched = _touched(info.id)
        later = _blocking(info.id, touched, later=True, undone=False)
        if later is not None:
            raise Conflict(
                f"cannot redo \u201c{info.label}\u201d: \u201c{later.label}\u201d (operation {later.id}) "
                "has changed the same data since"
            )
        # rows this operation inserted did not exist before it: what earlier operations did to a row of the same
        # id (since deleted, the id reused) does not matter
        first: dict[tuple[str, int], str] = {}
        for ch in _changes_of(info.id):
            first.setdefault((ch.table, ch.row_id), ch.action)
        existing = {key for key, action in first.items() if action != "insert"}
        earlier = _blocking(info.id, existing, later=False, undone=True)
        if earlier is not None:
            raise Conflict(
                f"cannot redo \u201c{info.label}\u201d before \u201c{earlier.label}\u201d "
                f"(operation {earlier.id}), which it builds on; redo that first"
            )
        result = _replay(info, undoing=False)
        db.execute_sql("UPDATE operation SET undone = 0, undone_at = NULL, undo_seq = NULL WHERE id = ?", (info.id,))
        return result
