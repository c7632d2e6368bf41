"""The operation journal, its writing side: the only way to write is one operation, and everything it changes is
recorded for undo, redo and the change feed.

A service writes inside ``with operation(kind, label, ...) as op:``. That opens the write transaction
(``BEGIN IMMEDIATE`` on a file), starts one ``operation`` row and marks it open (the engine's
:meth:`~.opened.Engine.set_open`); the engine's triggers (a file's: :mod:`.file_engine`; a server's:
:mod:`.journal_pg`) then record every row the service inserts, updates or deletes (cascades included) into
``operation_change``. A write made while no operation is open is refused by the triggers, so nothing escapes the
journal. Reading it is :mod:`.journal_read`; undo and redo are :mod:`.journal_replay`.

Qt-free and peewee-light: everything here is SQL on the bound database.
"""

from __future__ import annotations

import contextvars
import datetime as _dt
import json
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import peewee

from ..errors import Conflict as Conflict  # undo/redo refused: other changes are in the way (re-exported)
from ..errors import NotFound, Refused
from .models import database_proxy as db
from .opened import Capability, can, journal_on_server

JOURNAL_TABLES = frozenset(
    {
        "operation",
        "operation_change",
        "journal_state",
        "schema_migration",
        "journal_open",
        "journal_replay",
        "journal_budget",
    }
)
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
    """The columns of ``table`` and their declared types, upper case (the engine's)."""
    return list(database.table_columns(table))


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
    """The app's tables, the ones the journal records (the engine's)."""
    return list(database.app_table_names())


def install_triggers(database: Any) -> None:
    """(Re)create the journal's triggers on every app table from the live schema (the engine's: a file's
    :func:`~.file_engine.install_file_triggers`, a server's :mod:`.journal_pg`). A migration that adds columns or
    rebuilds a table calls this at its end (a rebuilt table loses its triggers)."""
    database.install_journal_triggers()


def recording_off(database: Any) -> AbstractContextManager[None]:
    """Inside a migration: converting stored rows is not a user's change (nothing is recorded or refused)."""
    return database.recording_off()  # type: ignore[no-any-return]


def has_journal(database: Any) -> bool:
    """Whether the database has the journal's tables yet (a migration before 0003 runs without)."""
    return bool(database.has_journal())


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
    _checked: set[tuple[str, str, int]] = field(default_factory=set, repr=False)
    """Targets already checked and locked in this transaction (shared with the operations nested in it)."""
    _id_known: bool = field(default=True, repr=False)
    """On a server, False until the message that opened the operation was answered (it goes with the
    operation's first statement)."""

    def _known_id(self) -> int:
        if not self._id_known:
            db.execute_sql("SELECT 1")  # sends what waits, the operation's opening among it
        return self.id

    def target(self, *, campaign: int | None = None, platoon: int | None = None, sheet: int | None = None) -> None:
        if campaign is not None:
            self.campaign_id = campaign
        if platoon is not None:
            self.platoon_id = platoon
        if sheet is not None:
            self.sheet_id = sheet
        _club_check(self)
        _lock_targets(self)

    def rows(self) -> frozenset[tuple[str, int]]:
        found = db.execute_sql(
            "SELECT DISTINCT table_name, row_id FROM operation_change WHERE operation_id = ?", (self._known_id(),)
        ).fetchall()
        return frozenset((t, int(i)) for t, i in found)

    def inserted(self, table: str) -> list[int]:
        found = db.execute_sql(
            "SELECT row_id FROM operation_change WHERE operation_id = ? AND table_name = ? "
            "AND action = 'insert' ORDER BY id",
            (self._known_id(), table),
        ).fetchall()
        return [int(r[0]) for r in found]

    @property
    def changes(self) -> OpChanges:
        """What the operation touched so far (final once the ``with`` block is left)."""
        if self._final is not None:
            return self._final
        return OpChanges(self.id, self.kind, self.label, self.rows(), self.campaign_id, self.platoon_id, self.sheet_id)


def _lock_targets(op: Operation) -> None:
    """On a server: take the row lock of the operation's platoon or sheet, so that two writers of one platoon are
    serialised (the second waits, then sees the first's operation and is refused "changed since you started"),
    while writers of different platoons never wait for each other. (A file has one writer at a time anyway.)"""
    if not journal_on_server():
        return
    for table, row_id in (("platoon", op.platoon_id), ("sologear_sheet", op.sheet_id)):
        if row_id is not None and (table, row_id) not in op._locked:
            # sent with the operation's next statement (no round trip of its own): the lock is held before it runs
            db.defer(f'SELECT 1 FROM "{table}" WHERE id = ? FOR UPDATE', (row_id,))
            op._locked.add((table, row_id))


def _club_check(op: Operation) -> None:
    """Club play (``store.access``): on a club server, refuse (one line, nothing written) when the connected
    login may not change the operation's platoon, sheet or campaign. The question goes with the operation's next
    statement (no round trip of its own) and its refusal is raised when that answer comes, never after a commit.
    Nothing on a file."""
    if not journal_on_server():
        return
    from . import access

    if op.platoon_id is not None:  # the most precise target decides (store.access.why_not)
        key = ("", "platoon", op.platoon_id)
    elif op.sheet_id is not None:
        key = ("", "sheet", op.sheet_id)
    elif op.campaign_id is not None:
        key = (op.kind, "campaign", op.campaign_id)
    else:
        return
    if key in op._checked:  # asked already in this transaction (a nested operation names the same target)
        return
    check = access.change_check(platoon=op.platoon_id, sheet=op.sheet_id, campaign=op.campaign_id, kind=op.kind)
    op._checked.add(key)
    if check is None:
        return
    sql, params, verdict = check

    def judge(rows: list[Any]) -> None:
        reason = verdict(rows[0] if rows else None)
        if reason is not None:
            raise access.NotYours(reason)

    db.defer_handled(sql, params, judge, refuses=True)


_current: contextvars.ContextVar[Operation | None] = contextvars.ContextVar("campaign_app_operation", default=None)


def _club_rules() -> bool:
    """On a club server with its row-level security (``server init``): a login sees only part of the journal."""
    return can(Capability.CLUB_RULES)


def _tick() -> int:
    """The file journal's clock: operation ids and undo stamps come from one sequence, so "undone after this
    operation was made" is a comparison of two numbers. (On a server the server keeps it: :mod:`.journal_pg`.)"""
    return int(
        db.execute_sql("SELECT MAX(COALESCE(MAX(id), 0), COALESCE(MAX(undo_seq), 0)) + 1 FROM operation").fetchone()[0]
    )


def current_operation() -> Operation | None:
    return _current.get()


def _seconds_between(earlier: str, later: str) -> float:
    try:
        return (_dt.datetime.fromisoformat(later) - _dt.datetime.fromisoformat(earlier)).total_seconds()
    except ValueError:
        return float("inf")


@contextmanager
def operation(
    kind: str,
    label: str = "",
    *,
    campaign: int | None = None,
    platoon: int | None = None,
    sheet: int | None = None,
    merge_key: str | None = None,
) -> Iterator[Operation]:
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
            inner._locked, inner._checked = outer._locked, outer._checked
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
            last = db.execute_sql(
                "SELECT id, kind, label, merge_key, updated_at, undone, campaign_id, platoon_id, "
                'sheet_id, "user" FROM operation ORDER BY id DESC LIMIT 1'
            ).fetchone()
            if (
                last is not None
                and last[1] == kind
                and last[3] == merge_key
                and not last[5]
                and _seconds_between(last[4], now) <= MERGE_SECONDS
            ):
                op = Operation(int(last[0]), kind, last[2], last[6], last[7], last[8], merged=True)
        if op is None:
            new_id = _tick()
            db.execute_sql(
                "INSERT INTO operation (id, kind, label, campaign_id, platoon_id, sheet_id, merge_key, created_at, "
                'updated_at, "user") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
                (new_id, kind, label or kind, campaign, platoon, sheet, merge_key, now, now, _login()),
            )
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
            db.execute_sql(
                "UPDATE operation SET label = ?, campaign_id = ?, platoon_id = ?, sheet_id = ?, "
                "updated_at = ? WHERE id = ?",
                (op.label or kind, op.campaign_id, op.platoon_id, op.sheet_id, now, op.id),
            )
            op._final = OpChanges(op.id, kind, op.label, rows, op.campaign_id, op.platoon_id, op.sheet_id)


@contextmanager
def _server_operation(
    kind: str, label: str, campaign: int | None, platoon: int | None, sheet: int | None, merge_key: str | None
) -> Iterator[Operation]:
    """An operation on a server: the server opens it (its id, time and login are the server's), records its rows
    with its own trigger, and closes it: derives its campaign, platoon and sheet from the rows it touched, numbers
    it in commit order, joins a run of XP steps and announces it (:mod:`.journal_pg`). The client's check of
    the targets it names comes first, for one clear line before anything is written."""
    from ..errors import ServerUnavailable

    committing: list[Operation] = []
    try:
        with _server_transaction(kind, label, campaign, platoon, sheet, merge_key, committing) as server_op:
            yield server_op
    except ServerUnavailable as exc:
        if not committing:
            raise
        _saved_after_all(committing[0], exc)


def _saved_after_all(op: Operation, lost: Exception) -> None:
    """The connection was lost in the message that closes and commits ``op``: it may have committed. Ask the
    journal (a new connection): if the operation is there, it was saved and ``op`` gets its record; otherwise
    (or when the journal cannot tell) the loss is reported, saying so."""
    from ..errors import ServerUnavailable
    from .journal_read import changes_since

    where = getattr(db.obj, "where", "the campaign server")
    unknown = ServerUnavailable(
        f"the connection to {where} was lost while \u201c{op.label}\u201d was being saved, and it could not be "
        "asked whether it was: look at the journal (campaign-cli journal) before doing it again"
    )
    if op.merged:  # a step joining a run keeps the run's id: the journal cannot tell this step apart
        raise unknown from lost
    try:
        found = db.execute_sql(
            'SELECT id FROM operation WHERE "user" = session_user AND kind = ? AND label = ? AND id > ? '
            "ORDER BY id LIMIT 1",
            (op.kind, op.label or op.kind, op.id),
        ).fetchone()
        if found is None:
            raise ServerUnavailable(
                f"the connection to {where} was lost while \u201c{op.label}\u201d was being saved; the journal "
                "shows it was not saved, so nothing was written: try again"
            ) from lost
        _mark, feed = changes_since(int(found[0]) - 1)
    except ServerUnavailable as again:
        if again.__cause__ is lost:
            raise
        raise unknown from lost
    done = next(c for c in feed if c.operation_id == int(found[0]))
    op.id, op.campaign_id, op.platoon_id, op.sheet_id = int(found[0]), done.campaign_id, done.platoon_id, done.sheet_id
    op._final = done


@contextmanager
def _server_transaction(
    kind: str,
    label: str,
    campaign: int | None,
    platoon: int | None,
    sheet: int | None,
    merge_key: str | None,
    committing: list[Operation],
) -> Iterator[Operation]:
    from .journal_read import forget_read

    forget_read()
    with db.atomic():
        if merge_key is None:
            # opened by the operation's first statement's message (no round trip of its own): a step that joins
            # no run needs no answer before then
            op = Operation(0, kind, label or kind, campaign, platoon, sheet, _id_known=False)

            def opened(rows: list[Any]) -> None:
                op.id, op._id_known = int(rows[0][0]), True

            db.defer_handled(
                "SELECT id, merged FROM campaign_app_begin(?, ?, ?)",
                (kind, label or kind, None),
                opened,
            )
        else:
            begun = db.execute_sql(
                "SELECT id, merged FROM campaign_app_begin(?, ?, ?)", (kind, label or kind, merge_key)
            ).fetchone()
            op = Operation(int(begun[0]), kind, label or kind, campaign, platoon, sheet, merged=bool(begun[1]))
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
            # closing the operation and committing are one message: the journal's lock, taken inside
            # campaign_app_end, is held only while the server runs the two
            # the opening's answer first (an operation that sent nothing yet: one message more), so that a lost
            # commit can be looked up in the journal by the operation's id
            op_id = op._known_id()
            committing.append(op)
            row = db.execute_and_commit(
                "SELECT id, merged, campaign_id, platoon_id, sheet_id, touched::text FROM campaign_app_end(?, ?)",
                (op_id, op.label or kind),
            ).fetchone()
        except (peewee.DatabaseError, Refused) as exc:  # the operation's writes travel in this message too
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
    if kind == "changed":
        from .batch import ChangedMeanwhile

        return ChangedMeanwhile("the data changed since it was read; nothing was written")
    if kind == "refused":
        return Refused(text.removeprefix("campaign_app: "))
    return access.refusal(exc) or exc
