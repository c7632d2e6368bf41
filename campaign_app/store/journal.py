"""The operation journal: the only way to write, and the one undo and redo for every change.

A service writes inside ``with operation(kind, label, ...) as op:``. That opens the write transaction
(``BEGIN IMMEDIATE``), inserts one ``operation`` row and marks it open in ``journal_state``; SQLite triggers
(installed by :func:`install_triggers`, migration 0003) then record every row the service inserts, updates or
deletes (cascades included) into ``operation_change`` with its whole before and after image. A write made while
no operation is open is refused by the triggers, so nothing escapes the journal.

:func:`undo` and :func:`redo` replay that record in one transaction. Undo is refused (:class:`Conflict`, naming
the operation) when a later operation that is not undone touched one of the same rows; redo is refused when a
newer live operation touched them, or when an earlier operation on them is undone (redo that one first). While
replaying, the triggers record into a scratch operation; any row the replay changed that the operation did not
touch (a cascade into rows added later) makes it refuse too. Nothing is written when it refuses.

Qt-free and peewee-light: everything here is SQL on the bound database.
"""

from __future__ import annotations

import contextvars
import datetime as _dt
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import peewee
from peewee import IntegrityError

from ..errors import Conflict as Conflict  # undo/redo refused: other changes are in the way (re-exported)
from ..errors import NotFound, Refused, ServiceError
from .models import database_proxy as db
from .opened import Capability, can, journal_on_server

JOURNAL_TABLES = frozenset({"operation", "operation_change", "journal_state", "schema_migration", "journal_open",
                            "journal_replay"})
"""Tables the triggers leave alone (the journal itself, the server's bookkeeping of open operations and replays,
and the migration log)."""

MERGE_SECONDS = 60.0
"""Steps of one kind on one target within this many seconds of the last are one operation (an XP track run)."""

START_KIND = "journal.start"
"""The marker an upgraded database gets: history before it was not recorded and cannot be undone."""

SERVER_START_KIND = "journal.server"
"""On a server: where the server began keeping the journal itself; operations recorded before it are history only
(:mod:`.journal_pg`)."""

NOTIFY_CHANNEL = "campaign_app"
"""On a server, each committed operation (and each undo or redo) is announced on this channel with its id."""

_MODE_SETTING = "campaign_app.journal_mode"


class NotJournaled(NotFound):
    """No such operation, or nothing to undo/redo."""


def utc_now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")


def _login() -> str:
    """Who makes the operation (the engine's login: the server login, the system login on a file)."""
    return str(db.login())


def _set_open(op_id: int | None) -> None:
    """Mark ``op_id`` as the open operation the triggers record into (``None``: none is open); the engine's
    (a server's own functions keep it: :mod:`.journal_pg`)."""
    db.set_open(op_id)


def _begin_write() -> None:
    """First step of a write: the engine's (a file an integrity check found damaged takes no more writes)."""
    db.begin_write()


# ------------------------------------------------------------------------------------------------ triggers

def _columns(database: Any, table: str) -> list[tuple[str, str]]:
    if journal_on_server(database):
        rows = database.execute_sql("SELECT column_name, data_type FROM information_schema.columns "
                                    "WHERE table_schema = current_schema() AND table_name = ? "
                                    "ORDER BY ordinal_position", (table,)).fetchall()
        return [(r[0], (r[1] or "").upper()) for r in rows]
    rows = database.execute_sql(f'PRAGMA table_info("{table}")').fetchall()
    return [(r[1], (r[2] or "").upper()) for r in rows]


def _is_real(decl: str) -> bool:
    return any(k in decl for k in ("REAL", "FLOA", "DOUB"))


def image_sql(columns: list[tuple[str, str]], prefix: str) -> str:
    """``json_object(...)`` of a whole row (``prefix`` is ``NEW.``, ``OLD.`` or ``""``). REAL values are kept as
    text with 17 significant digits (SQLite's JSON keeps only 15), so they come back bit for bit."""
    parts = []
    for name, decl in columns:
        ref = f'{prefix}"{name}"'
        value = f"CASE WHEN {ref} IS NULL THEN NULL ELSE printf('%!.17g', {ref}) END" if _is_real(decl) else ref
        parts.append(f"'{name}', {value}")
    return "json_object(" + ", ".join(parts) + ")"


def app_tables(database: Any) -> list[str]:
    if journal_on_server(database):
        rows = database.execute_sql("SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema() "
                                    "ORDER BY tablename").fetchall()
        return [r[0] for r in rows if r[0] not in JOURNAL_TABLES]
    rows = database.execute_sql("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                                "ORDER BY name").fetchall()
    return [r[0] for r in rows if r[0] not in JOURNAL_TABLES]


_STATE = "(SELECT operation_id FROM journal_state WHERE id = 1)"
_RECORDING = "(SELECT mode FROM journal_state WHERE id = 1) = 'record'"
_REFUSE = (f"SELECT RAISE(ABORT, 'campaign_app: a write outside an operation (use store.journal.operation)') "
           f"WHERE {_STATE} IS NULL;")


def changed_image_sql(columns: list[tuple[str, str]], prefix: str) -> str:
    """Issue 23 (the journal's budget, SQLite): ``json_group_object`` of only the columns an UPDATE changed, as
    they were (``prefix`` ``OLD.``) or became (``NEW.``); JSON nulls are kept. REAL values as in
    :func:`image_sql`."""
    parts = []
    for name, decl in columns:
        ref = f'{prefix}"{name}"'
        value = f"CASE WHEN {ref} IS NULL THEN NULL ELSE printf('%!.17g', {ref}) END" if _is_real(decl) else ref
        parts.append(f"SELECT '{name}' AS k, {value} AS v WHERE OLD.\"{name}\" IS NOT NEW.\"{name}\"")
    return "(SELECT json_group_object(k, v) FROM (" + " UNION ALL ".join(parts) + "))"


def trigger_statements(table: str, columns: list[tuple[str, str]]) -> list[str]:
    # issue 23: an insert records no image (the row is in its table; undo keeps it before deleting it), an
    # update only the columns it changed; a delete keeps the whole row
    old = image_sql(columns, "OLD.")
    changed_old, changed_new = changed_image_sql(columns, "OLD."), changed_image_sql(columns, "NEW.")
    changed = " OR ".join(f'OLD."{c}" IS NOT NEW."{c}"' for c, _ in columns) or "0"
    insert = "INSERT INTO operation_change (operation_id, table_name, row_id, action, old, new) VALUES "
    return [
        f'CREATE TRIGGER "journal_{table}_insert" AFTER INSERT ON "{table}" WHEN {_RECORDING} BEGIN {_REFUSE} '
        f"{insert}({_STATE}, '{table}', NEW.id, 'insert', NULL, NULL); END",
        f'CREATE TRIGGER "journal_{table}_update" AFTER UPDATE ON "{table}" WHEN {_RECORDING} AND ({changed}) '
        f"BEGIN {_REFUSE} {insert}({_STATE}, '{table}', NEW.id, 'update', {changed_old}, {changed_new}); END",
        f'CREATE TRIGGER "journal_{table}_delete" AFTER DELETE ON "{table}" WHEN {_RECORDING} BEGIN {_REFUSE} '
        f"{insert}({_STATE}, '{table}', OLD.id, 'delete', {old}, NULL); END",
    ]


def install_triggers(database: Any) -> None:
    """(Re)create the journal's triggers on every app table from the live schema. A migration that adds columns
    or rebuilds a table calls this at its end (a rebuilt table loses its triggers)."""
    if journal_on_server(database):
        from . import journal_pg

        journal_pg.install(database, app_tables(database))
        return
    existing = database.execute_sql("SELECT name FROM sqlite_master WHERE type = 'trigger' "
                                    "AND name LIKE 'journal\\_%' ESCAPE '\\'").fetchall()
    for (name,) in existing:
        database.execute_sql(f'DROP TRIGGER "{name}"')
    for table in app_tables(database):
        for statement in trigger_statements(table, _columns(database, table)):
            database.execute_sql(statement)


@contextmanager
def recording_off(database: Any) -> Iterator[None]:
    """Inside a migration: converting stored rows is not a user's change (nothing is recorded or refused)."""
    if journal_on_server(database):
        database.execute_sql("SELECT set_config(?, 'off', true)", (_MODE_SETTING,))
        try:
            yield
        finally:
            database.execute_sql("SELECT set_config(?, 'record', true)", (_MODE_SETTING,))
        return
    database.execute_sql("UPDATE journal_state SET mode = 'off' WHERE id = 1")
    try:
        yield
    finally:
        database.execute_sql("UPDATE journal_state SET mode = 'record' WHERE id = 1")


def has_journal(database: Any) -> bool:
    if journal_on_server(database):
        return bool(database.execute_sql("SELECT to_regclass('journal_state') IS NOT NULL").fetchone()[0])
    return bool(database.execute_sql("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' "
                                     "AND name = 'journal_state')").fetchone()[0])


# ------------------------------------------------------------------------------------------------ results

@dataclass(frozen=True)
class OpChanges:
    """What one operation touched: ``(table, row id)`` pairs, plus its id, kind and label. The GUI emits it as
    one signal and each view decides whether to refresh (Anki's ``OpChanges``)."""

    operation_id: int | None = None
    kind: str = ""
    label: str = ""
    rows: frozenset[tuple[str, int]] = frozenset()
    campaign_id: int | None = None
    platoon_id: int | None = None
    sheet_id: int | None = None

    def __bool__(self) -> bool:
        return bool(self.rows)

    @property
    def tables(self) -> frozenset[str]:
        return frozenset(t for t, _ in self.rows)

    def touches(self, table: str, row_id: int | None = None) -> bool:
        if row_id is None:
            return table in self.tables
        return (table, row_id) in self.rows

    def ids(self, table: str) -> set[int]:
        return {i for t, i in self.rows if t == table}

    def to_dict(self) -> dict[str, Any]:
        touched: dict[str, list[int]] = {}
        for t, i in sorted(self.rows):
            touched.setdefault(t, []).append(i)
        return {"operation": self.operation_id, "kind": self.kind, "label": self.label, "touched": touched}


NO_CHANGES = OpChanges()


@dataclass
class Operation:
    """The open operation handle a service writes under. Set ``label`` (and the targets) once known."""

    id: int
    kind: str
    label: str
    campaign_id: int | None = None
    platoon_id: int | None = None
    sheet_id: int | None = None
    merged: bool = False
    """True when this step joined the previous operation (a run of XP steps)."""
    _final: OpChanges | None = field(default=None, repr=False)
    _locked: set[tuple[str, int]] = field(default_factory=set, repr=False)

    def target(self, *, campaign: int | None = None, platoon: int | None = None,
               sheet: int | None = None) -> None:
        if campaign is not None:
            self.campaign_id = campaign
        if platoon is not None:
            self.platoon_id = platoon
        if sheet is not None:
            self.sheet_id = sheet
        _club_check(self)
        _lock_targets(self)

    def rows(self) -> frozenset[tuple[str, int]]:
        found = db.execute_sql("SELECT DISTINCT table_name, row_id FROM operation_change WHERE operation_id = ?",
                               (self.id,)).fetchall()
        return frozenset((t, int(i)) for t, i in found)

    def inserted(self, table: str) -> list[int]:
        found = db.execute_sql("SELECT row_id FROM operation_change WHERE operation_id = ? AND table_name = ? "
                               "AND action = 'insert' ORDER BY id", (self.id, table)).fetchall()
        return [int(r[0]) for r in found]

    @property
    def changes(self) -> OpChanges:
        """What the operation touched so far (final once the ``with`` block is left)."""
        if self._final is not None:
            return self._final
        return OpChanges(self.id, self.kind, self.label, self.rows(), self.campaign_id, self.platoon_id,
                         self.sheet_id)


def _lock_targets(op: Operation) -> None:
    """On a server: take the row lock of the operation's platoon or sheet, so that two writers of one platoon are
    serialised (the second waits, then sees the first's operation and is refused "changed since you started"),
    while writers of different platoons never wait for each other. (A file has one writer at a time anyway.)"""
    if not journal_on_server():
        return
    for table, row_id in (("platoon", op.platoon_id), ("sologear_sheet", op.sheet_id)):
        if row_id is not None and (table, row_id) not in op._locked:
            db.execute_sql(f'SELECT 1 FROM "{table}" WHERE id = ? FOR UPDATE', (row_id,))
            op._locked.add((table, row_id))


def _club_check(op: Operation) -> None:
    """Club play (issue 15, ``store.access``): on a club server, refuse at once (one line, nothing written) when
    the connected login may not change the operation's platoon, sheet or campaign. Nothing on a file."""
    if not journal_on_server():
        return
    from . import access

    access.require_change(platoon=op.platoon_id, sheet=op.sheet_id, campaign=op.campaign_id, kind=op.kind)


_current: contextvars.ContextVar[Operation | None] = contextvars.ContextVar("campaign_app_operation", default=None)


def _club_rules() -> bool:
    """On a club server with its row-level security (``server init``): a login sees only part of the journal."""
    return can(Capability.CLUB_RULES)


def _tick() -> int:
    """The file journal's clock: operation ids and undo stamps come from one sequence, so "undone after this
    operation was made" is a comparison of two numbers. (On a server the server keeps it: :mod:`.journal_pg`.)"""
    return int(db.execute_sql("SELECT MAX(COALESCE(MAX(id), 0), COALESCE(MAX(undo_seq), 0)) + 1 "
                              "FROM operation").fetchone()[0])


def current_operation() -> Operation | None:
    return _current.get()


def _seconds_between(earlier: str, later: str) -> float:
    try:
        return (_dt.datetime.fromisoformat(later) - _dt.datetime.fromisoformat(earlier)).total_seconds()
    except ValueError:
        return float("inf")


@contextmanager
def operation(kind: str, label: str = "", *, campaign: int | None = None, platoon: int | None = None,
              sheet: int | None = None, merge_key: str | None = None) -> Iterator[Operation]:
    """Run the block as one operation in one write transaction (the only way to write).

    Nested calls join the open operation (their label and targets are the outer operation's business). With
    ``merge_key``, a step that follows the newest operation of the same kind and key within
    :data:`MERGE_SECONDS` (and nothing else in between) joins it: a run of steps on one XP track is one
    operation. An operation that wrote nothing leaves no row."""
    outer = _current.get()
    if outer is not None:
        # joins the open operation: the rows go to it; its label and targets stay the outer one's
        with db.atomic():
            inner = Operation(outer.id, kind, label or kind, campaign, platoon, sheet)
            _club_check(inner)
            yield inner
        return
    if journal_on_server():
        with _server_operation(kind, label, campaign, platoon, sheet, merge_key) as server_op:
            yield server_op
        return
    with db.atomic():
        _begin_write()
        now = utc_now()
        op: Operation | None = None
        if merge_key is not None:
            last = db.execute_sql("SELECT id, kind, label, merge_key, updated_at, undone, campaign_id, platoon_id, "
                                  'sheet_id, "user" FROM operation ORDER BY id DESC LIMIT 1').fetchone()
            if (last is not None and last[1] == kind and last[3] == merge_key and not last[5]
                    and _seconds_between(last[4], now) <= MERGE_SECONDS):
                op = Operation(int(last[0]), kind, last[2], last[6], last[7], last[8], merged=True)
        if op is None:
            new_id = _tick()
            db.execute_sql(
                'INSERT INTO operation (id, kind, label, campaign_id, platoon_id, sheet_id, merge_key, created_at, '
                'updated_at, "user") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
                (new_id, kind, label or kind, campaign, platoon, sheet, merge_key, now, now, _login()))
            op = Operation(new_id, kind, label or kind, campaign, platoon, sheet)
        else:
            op.target(campaign=campaign, platoon=platoon, sheet=sheet)
            if label:
                op.label = label
        _set_open(op.id)
        token = _current.set(op)
        try:
            yield op
        finally:
            _current.reset(token)
        _set_open(None)
        rows = op.rows()
        if not rows and not op.merged:
            db.execute_sql("DELETE FROM operation WHERE id = ?", (op.id,))
            op._final = OpChanges(None, kind, op.label)
        else:
            db.execute_sql("UPDATE operation SET label = ?, campaign_id = ?, platoon_id = ?, sheet_id = ?, "
                           "updated_at = ? WHERE id = ?",
                           (op.label or kind, op.campaign_id, op.platoon_id, op.sheet_id, now, op.id))
            op._final = OpChanges(op.id, kind, op.label, rows, op.campaign_id, op.platoon_id, op.sheet_id)


@contextmanager
def _server_operation(kind: str, label: str, campaign: int | None, platoon: int | None, sheet: int | None,
                      merge_key: str | None) -> Iterator[Operation]:
    """An operation on a server: the server opens it (its id, time and login are the server's), records its rows
    with its own trigger, and closes it: derives its campaign, platoon and sheet from the rows it touched, numbers
    it in commit order, joins a run of XP steps and announces it (:mod:`.journal_pg`). The client's check of
    the targets it names comes first, for one clear line before anything is written."""
    with db.atomic():
        begun = db.execute_sql("SELECT id, merged FROM campaign_app_begin(?, ?, ?)",
                               (kind, label or kind, merge_key)).fetchone()
        op_id = int(begun[0])
        op = Operation(op_id, kind, label or kind, campaign, platoon, sheet, merged=bool(begun[1]))
        token = _current.set(op)
        try:
            _club_check(op)
            _lock_targets(op)
            yield op
        except (peewee.DatabaseError, Refused) as exc:
            refused = _server_refusal(exc)
            if refused is exc:
                raise
            raise refused from exc
        finally:
            _current.reset(token)
        try:
            row = db.execute_sql("SELECT id, merged, campaign_id, platoon_id, sheet_id, touched::text "
                                 "FROM campaign_app_end(?, ?)", (op_id, op.label or kind)).fetchone()
        except peewee.DatabaseError as exc:
            refused = _server_refusal(exc)
            if refused is exc:
                raise
            raise refused from exc
        if row[0] is None:
            op._final = OpChanges(None, kind, op.label)
            return
        op.id, op.merged = int(row[0]), bool(row[1])
        op.campaign_id, op.platoon_id, op.sheet_id = row[2], row[3], row[4]
        touched = frozenset((str(t), int(i)) for t, i in json.loads(row[5]))
        op._final = OpChanges(op.id, kind, op.label, touched, op.campaign_id, op.platoon_id, op.sheet_id)


def _server_refusal(exc: Exception) -> Exception:
    """The app's error for a refusal of the server's: the journal's own SQLSTATEs (:data:`.journal_pg.SQLSTATES`),
    row-level security and missing privileges (one line each); anything else as it is."""
    from . import access
    from .journal_pg import SQLSTATES

    state, text = access.sqlstate(exc)
    kind = SQLSTATES.get(state or "")
    if kind == "conflict":
        return Conflict(text)
    if kind == "not_journaled":
        return NotJournaled(text)
    if kind == "not_yours":
        return access.NotYours(text)
    if kind == "refused":
        return Refused(text.removeprefix("campaign_app: "))
    return access.refusal(exc) or exc


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
    """Issue 23: folded into the history by the journal's budget (no row images left): it cannot be undone."""

    @property
    def undoable(self) -> bool:
        return self.kind not in (START_KIND, SERVER_START_KIND) and not self.folded

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "label": self.label, "time": self.created_at,
                "updated": self.updated_at, "user": self.user, "undone": self.undone, "undone_at": self.undone_at,
                "campaign_id": self.campaign_id, "platoon_id": self.platoon_id, "sheet_id": self.sheet_id,
                "folded": self.folded}


_INFO_COLUMNS = ("id, kind, label, created_at, updated_at, \"user\", undone, undone_at, campaign_id, platoon_id, "
                 "sheet_id, (kind != 'journal.start' AND NOT EXISTS (SELECT 1 FROM operation_change f "
                 "WHERE f.operation_id = operation.id))")


def _info(row: Any) -> OperationInfo:
    return OperationInfo(int(row[0]), row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7], row[8], row[9],
                         row[10], bool(row[11]) if len(row) > 11 else False)


def get_operation(op_id: int) -> OperationInfo:
    row = db.execute_sql(f"SELECT {_INFO_COLUMNS} FROM operation WHERE id = ?", (op_id,)).fetchone()
    if row is None:
        raise NotJournaled(f"no operation {op_id} in the journal")
    return _info(row)


def newest_id() -> int:
    """The journal's clock now (0 for an empty journal): an operation, undo or redo made later has a bigger
    id or undo stamp. A window notes it when it reads data it will write back (the battle wizard). On a server:
    the newest committed operation or undo stamp this login can see (ids are given in commit order)."""
    if journal_on_server():
        return int(db.execute_sql("SELECT coalesce(GREATEST(MAX(id), MAX(undo_seq)), 0) FROM operation "
                                  "WHERE kind <> 'journal.replay'").fetchone()[0])
    return _tick() - 1


def list_operations(*, campaign: int | None = None, platoon: int | None = None, sheet: int | None = None,
                    kinds: tuple[str, ...] | None = None, undone: bool | None = None,
                    limit: int | None = None, since: int | None = None) -> list[OperationInfo]:
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
        f"WHERE (id > ? OR undo_seq > ?){_not_replay()} ORDER BY id", (mark, mark)).fetchall()
    if not rows:
        return mark, []
    ids = [int(r[0]) for r in rows]
    touched: dict[int, set[tuple[str, int]]] = {i: set() for i in ids}
    for op_id, table, row_id in db.execute_sql(
            "SELECT DISTINCT operation_id, table_name, row_id FROM operation_change WHERE operation_id IN ("
            + ", ".join("?" * len(ids)) + ")", ids).fetchall():
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


def newest_undoable() -> OperationInfo | None:
    row = db.execute_sql(f"SELECT {_INFO_COLUMNS} FROM operation WHERE undone = 0 AND kind != ? "
                         f"AND kind != 'journal.server'{_mine()}{_not_replay()} "
                         "AND EXISTS (SELECT 1 FROM operation_change c WHERE c.operation_id = operation.id) "
                         "ORDER BY id DESC LIMIT 1", (START_KIND,)).fetchone()  # not the folded ones
    return _info(row) if row else None


def replay_queue(undoing: bool, limit: int | None = None) -> list[OperationInfo]:
    """What Undo steps back through (``undoing``: the live operations, newest first) or what Redo takes (the undone
    ones, the one undone most recently first). On a club server only those the login may replay: its own, and
    (an organiser) those in its campaigns."""
    if undoing:
        sql = (f"SELECT {_INFO_COLUMNS} FROM operation WHERE undone = 0{_mine()}{_not_replay()} "
               "ORDER BY id DESC")
    else:
        newest_live = ("(SELECT COALESCE(MAX(id), 0) FROM operation WHERE undone = 0 AND kind NOT IN "
                       f"('{START_KIND}', '{SERVER_START_KIND}'){_mine()})")
        sql = (f"SELECT {_INFO_COLUMNS} FROM operation WHERE undone = 1 AND undo_seq > {newest_live}{_mine()} "
               "ORDER BY undo_seq DESC, id DESC")
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [_info(r) for r in db.execute_sql(sql).fetchall()]


def newest_redoable() -> OperationInfo | None:
    """The operation undone most recently (redo walks back the way undo went)."""
    row = db.execute_sql(f"SELECT {_INFO_COLUMNS} FROM operation WHERE undone = 1{_mine()} "
                         "ORDER BY undo_seq DESC, id DESC LIMIT 1").fetchone()
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
    rows = db.execute_sql("SELECT table_name, row_id, action, old, new, id FROM operation_change "
                          "WHERE operation_id = ? ORDER BY id", (op_id,)).fetchall()
    return [_Change(t, int(i), a, json.loads(o) if o else None, json.loads(n) if n else None, int(cid))
            for t, i, a, o, n, cid in rows]


def images(op_id: int, table: str, action: str | None = None) -> list[dict[str, Any]]:
    """The rows of ``table`` an operation touched (only those it inserted/updated/deleted with ``action``), each
    as it was when the operation first touched it (an inserted row as inserted; issue 23: an inserted row whose
    image the journal does not hold yet is read from its table, and an updated row is its id and the columns
    the update changed)."""
    seen: dict[int, dict[str, Any]] = {}
    for ch in _changes_of(op_id):
        if ch.table == table and ch.row_id not in seen and action in (None, ch.action):
            image = ch.new if ch.action == "insert" else ch.old
            if image is None and ch.action == "insert":  # issue 23: not recorded; the row itself, while it is there
                image = _Replayer(None, "").current(table, ch.row_id)
            if image is not None:
                seen[ch.row_id] = {"id": ch.row_id, **image}  # an update's image holds the changed columns only
    return list(seen.values())


def _blocking(op_id: int, touched: set[tuple[str, int]], *, later: bool, undone: bool,
              exclude: int | None = None) -> OperationInfo | None:
    """The nearest operation after (``later``) or before this one, live or undone, that touched a row of
    ``touched``. An earlier undone operation counts only if it was undone after this one was made (this one's
    record was written with its effects in place)."""
    compare, order = (">", "ASC") if later else ("<", "DESC")
    since = "" if later else " AND o.undo_seq > ?"
    params = (op_id, int(undone)) if later else (op_id, int(undone), op_id)
    rows = db.execute_sql(
        f"SELECT c.table_name, c.row_id, c.operation_id FROM operation_change c JOIN operation o "
        f"ON o.id = c.operation_id WHERE c.operation_id {compare} ? AND o.undone = ?{since} "
        f"ORDER BY c.operation_id {order}", params).fetchall()
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
        row = db.execute_sql(f'SELECT {image_sql(self.cols(table), "")} FROM "{table}" WHERE id = ?',
                             (row_id,)).fetchone()
        return json.loads(row[0]) if row else None

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
        # an image may hold only the columns an update changed (issue 23): those are compared
        if image is not None and any(now.get(k) != v for k, v in image.items()):
            raise self.refuse(f"{table.replace('_', ' ')} {row_id} was changed outside this operation")
        return True

    def insert(self, table: str, image: dict[str, Any]) -> None:
        values = self.values(table, image)
        if self.current(table, int(image["id"])) is not None:
            raise self.refuse(f"{table.replace('_', ' ')} {image['id']} exists again")
        names = ", ".join(f'"{n}"' for n in values)
        self.write(table, image, f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(values))})',
                   list(values.values()))

    def update(self, table: str, row_id: int, image: dict[str, Any]) -> None:
        values = self.values(table, image)
        values.pop("id", None)
        sets = ", ".join(f'"{n}" = ?' for n in values)
        self.write(table, {"id": row_id, **image}, f'UPDATE "{table}" SET {sets} WHERE id = ?',
                   [*values.values(), row_id])

    def write(self, table: str, image: dict[str, Any], sql: str, params: list[Any]) -> None:
        """A row put back that the database refuses now (a unique name taken since, a second active leader...)
        refuses the replay, naming the row, instead of failing with SQLite's words alone."""
        try:
            db.execute_sql(sql, params)
        except IntegrityError as exc:
            what = table.replace("_", " ")
            if "name_key" in str(exc):
                why = (f"the name {image.get('name')!r} is taken by another {what} now (letter case does not make "
                       "a new name)")
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
    db.execute_sql('INSERT INTO operation (id, kind, label, created_at, updated_at, "user") '
                   "VALUES (?, 'journal.replay', '', ?, ?, ?)", (scratch, utc_now(), utc_now(), _login()))
    _set_open(scratch)
    db.execute_sql("PRAGMA defer_foreign_keys = ON")
    swept: set[tuple[str, int]] = set()

    def cascaded() -> set[tuple[str, int]]:
        found = db.execute_sql("SELECT table_name, row_id FROM operation_change WHERE operation_id = ?",
                               (scratch,)).fetchall()
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
    return OpChanges(info.id, info.kind, info.label, frozenset(touched), info.campaign_id, info.platoon_id,
                     info.sheet_id)


def _refuse_folded(info: OperationInfo, done: str) -> None:
    """Issue 23: an operation the journal's budget folded into its summary (no row images left) stays in the
    history but cannot be undone or redone any more."""
    if info.folded:
        raise Conflict(f"\u201c{info.label}\u201d (operation {info.id}) was folded into the journal's history to "
                       f"save space: it is kept as a record but can no longer be {done}")


def _keep_inserted_images(rp: _Replayer, changes: list[_Change]) -> None:
    """Issue 23: an insert is journalled without an image (the row is in its table); before undo deletes the
    rows, their images are written into the journal for a redo (the same rows, the same ids)."""
    for at, ch in enumerate(changes):
        if ch.action == "insert" and ch.new is None:
            kept = rp.current(ch.table, ch.row_id) or {}
            for later in reversed(changes[at + 1:]):  # as inserted: walk back this operation's own later changes
                if (later.table, later.row_id) == (ch.table, ch.row_id):
                    if later.action == "delete":
                        kept = dict(later.old or {})
                    elif later.action == "update":
                        kept.update(later.old or {})
            if not kept:
                raise rp.refuse(f"{ch.table.replace('_', ' ')} {ch.row_id} is no longer there")
            db.execute_sql("UPDATE operation_change SET new = ? WHERE id = ?",
                           (json.dumps(kept, separators=(",", ":")), ch.id))


def _touched(op_id: int) -> set[tuple[str, int]]:
    found = db.execute_sql("SELECT DISTINCT table_name, row_id FROM operation_change WHERE operation_id = ?",
                           (op_id,)).fetchall()
    return {(t, int(i)) for t, i in found}


def _resolve(op_id: int | None, undoing: bool) -> OperationInfo:
    if op_id is None:
        found = newest_undoable() if undoing else newest_redoable()
        if found is None:
            raise NotJournaled("nothing to undo" if undoing else "nothing to redo")
        return found
    if isinstance(op_id, bool) or not isinstance(op_id, int) or not 0 < op_id < 2**63:
        raise NotJournaled(f"no operation {op_id!r} in the journal")
    return get_operation(op_id)


def operation_changes(op_id: int) -> OpChanges:
    """What operation ``op_id`` touched."""
    info = get_operation(op_id)
    return OpChanges(info.id, info.kind, info.label, frozenset(_touched(op_id)), info.campaign_id, info.platoon_id,
                     info.sheet_id)


def _server_replay(op_id: int | None, undoing: bool) -> OpChanges:
    """Undo or redo on a server: one call of the server's ``campaign_app_replay`` (:mod:`.journal_pg`), which
    decides who may, checks for conflicts and replays what the server recorded with the asking login's rights."""
    with db.atomic():
        info = _resolve(op_id, undoing)
        try:
            row = db.execute_sql("SELECT campaign_app_replay(?, ?)::text", (info.id, undoing)).fetchone()
        except (peewee.DatabaseError, Refused) as exc:
            refused = _server_refusal(exc)
            if refused is exc:
                raise
            raise refused from exc
    done = json.loads(row[0])
    touched = frozenset((str(t), int(i)) for t, i in done["touched"])
    return OpChanges(int(done["id"]), done["kind"], done["label"], touched, done["campaign_id"], done["platoon_id"],
                     done["sheet_id"])


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
            raise Conflict(f"cannot undo \u201c{info.label}\u201d: \u201c{later.label}\u201d (operation {later.id}) "
                           "changed the same data later; undo that first")
        result = _replay(info, undoing=True)
        seq = _tick()
        db.execute_sql("UPDATE operation SET undone = 1, undone_at = ?, undo_seq = ? WHERE id = ?",
                       (utc_now(), seq, info.id))
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
            raise Conflict(f"cannot redo \u201c{info.label}\u201d: \u201c{later.label}\u201d (operation {later.id}) "
                           "has changed the same data since")
        # rows this operation inserted did not exist before it: what earlier operations did to a row of the same
        # id (since deleted, the id reused) does not matter
        first: dict[tuple[str, int], str] = {}
        for ch in _changes_of(info.id):
            first.setdefault((ch.table, ch.row_id), ch.action)
        existing = {key for key, action in first.items() if action != "insert"}
        earlier = _blocking(info.id, existing, later=False, undone=True)
        if earlier is not None:
            raise Conflict(f"cannot redo \u201c{info.label}\u201d before \u201c{earlier.label}\u201d "
                           f"(operation {earlier.id}), which it builds on; redo that first")
        result = _replay(info, undoing=False)
        db.execute_sql("UPDATE operation SET undone = 0, undone_at = NULL, undo_seq = NULL WHERE id = ?",
                       (info.id,))
        return result
