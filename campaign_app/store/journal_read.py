"""Reading the operation journal: the operations (:class:`OperationInfo`, newest first), what each touched, the
change feed (:func:`changes_since`: what was made, undone or redone after a mark), and what Undo and Redo would
take next. On a club server a login sees only the part of the journal its rights allow (the server's row-level
security), and Undo and Redo offer only what it may replay.

Qt-free: SQL on the bound database.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .journal import (
    SERVER_START_KIND,
    START_KIND,
    NotJournaled,
    OpChanges,
    _club_rules,
    _columns,
    image_sql,
)
from .models import database_proxy as db
from .opened import journal_on_server

# ------------------------------------------------------------------------------------------------ reading


@dataclass(frozen=True)
class OperationInfo:
    id: int
    kind: str
    label: str
    created_at: str
    updated_at: str
    user: str
    undone: bool
    undone_at: str | None
    campaign_id: int | None
    platoon_id: int | None
    sheet_id: int | None
    folded: bool = False
    """Folded into the history by the journal's budget (no row images left): it cannot be undone."""

    @property
    def undoable(self) -> bool:
        return self.kind not in (START_KIND, SERVER_START_KIND) and not self.folded

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "label": self.label,
            "time": self.created_at,
            "updated": self.updated_at,
            "user": self.user,
            "undone": self.undone,
            "undone_at": self.undone_at,
            "campaign_id": self.campaign_id,
            "platoon_id": self.platoon_id,
            "sheet_id": self.sheet_id,
            "folded": self.folded,
        }


_INFO_COLUMNS = (
    'id, kind, label, created_at, updated_at, "user", undone, undone_at, campaign_id, platoon_id, '
    "sheet_id, (kind != 'journal.start' AND NOT EXISTS (SELECT 1 FROM operation_change f "
    "WHERE f.operation_id = operation.id))"
)


def _info(row: Any) -> OperationInfo:
    return OperationInfo(
        int(row[0]),
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        bool(row[6]),
        row[7],
        row[8],
        row[9],
        row[10],
        bool(row[11]) if len(row) > 11 else False,
    )


_just_read: dict[int, tuple[Any, Any, OperationInfo]] = {}
"""An operation's row read in the message that replayed and committed it (a server's undo or redo), kept for
the one :func:`get_operation` that follows: no round trip of its own."""


def remember_read(info: OperationInfo) -> None:
    _just_read.clear()
    _just_read[info.id] = (db.obj, db.connection(), info)


def forget_read() -> None:
    _just_read.clear()


def get_operation(op_id: int) -> OperationInfo:
    fresh = _just_read.pop(op_id, None)
    _just_read.clear()  # good for the next question only, on the same connection
    if fresh is not None and fresh[0] is db.obj and not db.is_closed() and fresh[1] is db.connection():
        return fresh[2]
    row = db.execute_sql(f"SELECT {_INFO_COLUMNS} FROM operation WHERE id = ?", (op_id,)).fetchone()
    if row is None:
        raise NotJournaled(f"no operation {op_id} in the journal")
    return _info(row)


def newest_id() -> int:
    """The journal's clock now (0 for an empty journal): an operation, undo or redo made later has a bigger
    id or undo stamp. A window notes it when it reads data it will write back (the battle wizard). On a server:
    the newest committed operation or undo stamp this login can see (ids are given in commit order)."""
    return int(db.execute_sql(newest_id_sql()).fetchone()[0])


def newest_id_sql() -> str:
    """The query :func:`newest_id` asks (one column, one row), for a caller that sends it with other reads."""
    if journal_on_server():
        return "SELECT coalesce(GREATEST(MAX(id), MAX(undo_seq)), 0) FROM operation WHERE kind <> 'journal.replay'"
    return "SELECT MAX(COALESCE(MAX(id), 0), COALESCE(MAX(undo_seq), 0)) FROM operation"


def list_operations(
    *,
    campaign: int | None = None,
    platoon: int | None = None,
    sheet: int | None = None,
    kinds: tuple[str, ...] | None = None,
    undone: bool | None = None,
    limit: int | None = None,
    since: int | None = None,
) -> list[OperationInfo]:
    """Operations newest first, optionally only those concerning a campaign, platoon or sheet, or only those
    made, undone or redone after the clock read ``since`` (:func:`newest_id`)."""
    where: list[str] = []
    params: list[int | str] = []
    if since is not None:
        where.append("(id > ? OR undo_seq > ?)")
        params.extend((since, since))
    for column, value in (("campaign_id", campaign), ("platoon_id", platoon), ("sheet_id", sheet)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    if kinds:
        where.append("kind IN (" + ", ".join("?" * len(kinds)) + ")")
        params.extend(kinds)
    if undone is not None:
        where.append("undone = ?")
        params.append(int(undone))
    sql = f"SELECT {_INFO_COLUMNS} FROM operation"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY id DESC"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [_info(r) for r in db.execute_sql(sql, params).fetchall()]


def changes_since(mark: int) -> tuple[int, list[OpChanges]]:
    """The change feed: every operation made, undone or redone after the clock read ``mark`` that this login
    can see, oldest first, with what each touched; and the mark to ask with next time. One query when nothing is
    new (so an announcement that was not real costs one small query). Ids and undo stamps are given in commit
    order, so the newest one seen is a mark that misses nothing."""
    rows = db.execute_sql(
        "SELECT id, kind, label, campaign_id, platoon_id, sheet_id, undo_seq FROM operation "
        f"WHERE (id > ? OR undo_seq > ?){_not_replay()} ORDER BY id",
        (mark, mark),
    ).fetchall()
    if not rows:
        return mark, []
    ids = [int(r[0]) for r in rows]
    touched: dict[int, set[tuple[str, int]]] = {i: set() for i in ids}
    for op_id, table, row_id in db.execute_sql(
        "SELECT DISTINCT operation_id, table_name, row_id FROM operation_change WHERE operation_id IN ("
        + ", ".join("?" * len(ids))
        + ")",
        ids,
    ).fetchall():
        touched[int(op_id)].add((str(table), int(row_id)))
    out = [OpChanges(int(r[0]), r[1], r[2], frozenset(touched[int(r[0])]), r[3], r[4], r[5]) for r in rows]
    newest = max(max(int(r[0]), int(r[6] or 0)) for r in rows)
    return max(mark, newest), out


def _mine() -> str:
    """On a club server, "the newest operation" to undo or redo is one the login may replay: its own, or (an
    organiser) one in a campaign it organises."""
    if not _club_rules():
        return ""
    return ' AND ("user" = session_user OR campaign_id IN (SELECT club_campaigns_organised()))'


def _not_replay() -> str:
    return " AND kind <> 'journal.replay'" if journal_on_server() else ""


def info_sql() -> str:
    """The statement that reads one operation's row as :class:`OperationInfo` (one ``?``: its id)."""
    return f"SELECT {_INFO_COLUMNS} FROM operation WHERE id = ?"


def info_of(row: Any) -> OperationInfo:
    return _info(row)


def newest_undoable() -> OperationInfo | None:
    row = db.execute_sql(
        f"SELECT {_INFO_COLUMNS} FROM operation WHERE undone = 0 AND kind != ? "
        f"AND kind != 'journal.server'{_mine()}{_not_replay()} "
        "AND EXISTS (SELECT 1 FROM operation_change c WHERE c.operation_id = operation.id) "
        "ORDER BY id DESC LIMIT 1",
        (START_KIND,),
    ).fetchone()  # not the folded ones
    return _info(row) if row else None


def replay_queue(undoing: bool, limit: int | None = None) -> list[OperationInfo]:
    """What Undo steps back through (``undoing``: the live operations, newest first) or what Redo takes (the undone
    ones, the one undone most recently first). On a club server only those the login may replay: its own, and
    (an organiser) those in its campaigns."""
    if undoing:
        sql = f"SELECT {_INFO_COLUMNS} FROM operation WHERE undone = 0{_mine()}{_not_replay()} ORDER BY id DESC"
    else:
        newest_live = (
            "(SELECT COALESCE(MAX(id), 0) FROM operation WHERE undone = 0 AND kind NOT IN "
            f"('{START_KIND}', '{SERVER_START_KIND}'){_mine()})"
        )
        sql = (
            f"SELECT {_INFO_COLUMNS} FROM operation WHERE undone = 1 AND undo_seq > {newest_live}{_mine()} "
            "ORDER BY undo_seq DESC, id DESC"
        )
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [_info(r) for r in db.execute_sql(sql).fetchall()]


def newest_redoable() -> OperationInfo | None:
    """The operation undone most recently (redo walks back the way undo went)."""
    row = db.execute_sql(
        f"SELECT {_INFO_COLUMNS} FROM operation WHERE undone = 1{_mine()} ORDER BY undo_seq DESC, id DESC LIMIT 1"
    ).fetchone()
    return _info(row) if row else None


# ------------------------------------------------------------------------------------------------ replay


@dataclass(frozen=True)
class _Change:
    table: str
    row_id: int
    action: str
    old: dict[str, Any] | None
    new: dict[str, Any] | None
    id: int = 0
    """The change row's own id."""


def _changes_of(op_id: int) -> list[_Change]:
    rows = db.execute_sql(
        "SELECT table_name, row_id, action, old, new, id FROM operation_change WHERE operation_id = ? ORDER BY id",
        (op_id,),
    ).fetchall()
    return [
        _Change(t, int(i), a, json.loads(o) if o else None, json.loads(n) if n else None, int(cid))
        for t, i, a, o, n, cid in rows
    ]


def images(op_id: int, table: str, action: str | None = None) -> list[dict[str, Any]]:
    """The rows of ``table`` an operation touched (only those it inserted/updated/deleted with ``action``), each
    as it was when the operation first touched it (an inserted row as inserted; an inserted row whose
    image the journal does not hold yet is read from its table, and an updated row is its id and the columns
    the update changed)."""
    seen: dict[int, dict[str, Any]] = {}
    for ch in _changes_of(op_id):
        if ch.table == table and ch.row_id not in seen and action in (None, ch.action):
            image = ch.new if ch.action == "insert" else ch.old
            if image is None and ch.action == "insert":  # not recorded: the row itself, while it is there
                image = current_image(table, ch.row_id)
            if image is not None:
                seen[ch.row_id] = {"id": ch.row_id, **image}  # an update's image holds the changed columns only
    return list(seen.values())


def _touched(op_id: int) -> set[tuple[str, int]]:
    found = db.execute_sql(
        "SELECT DISTINCT table_name, row_id FROM operation_change WHERE operation_id = ?", (op_id,)
    ).fetchall()
    return {(t, int(i)) for t, i in found}


def operation_changes(op_id: int) -> OpChanges:
    """What operation ``op_id`` touched."""
    info = get_operation(op_id)
    return OpChanges(
        info.id, info.kind, info.label, frozenset(_touched(op_id)), info.campaign_id, info.platoon_id, info.sheet_id
    )


def current_image(table: str, row_id: int, columns: list[tuple[str, str]] | None = None) -> dict[str, Any] | None:
    """The row as it is now, in the journal's image form (``None`` when it is gone)."""
    cols = columns if columns is not None else _columns(db, table)
    row = db.execute_sql(f'SELECT {image_sql(cols, "")} FROM "{table}" WHERE id = ?', (row_id,)).fetchone()
    return json.loads(row[0]) if row else None
