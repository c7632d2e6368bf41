"""One connection per window on a club server.

peewee keeps a connection per thread, so a window whose pages read on its database thread (:mod:`.loader`) and
whose dialogs still read in the event loop would hold two connections to the server, each with its own session
set-up, and a third one listening (:mod:`.club`). :func:`share_connection` makes the open server database keep
**one** connection for every thread of the window instead, and a :class:`Gate` lets one thread use it at a time:

- The window's database thread takes the gate for each of its reads and writes and gives it back after.
- The event loop's thread (a dialog that still reads where it runs) takes it when it first touches the database
  and gives it back when it returns to the event loop with no transaction open (a timer of 0 ms). While the
  database thread holds the gate, the event loop's thread waits for it, and keeps the window painting as a
  statement of its own would (the database's ``pump``).

The connection the window opened with (``init_db`` in the event loop) is handed over as it is: its session
set-up and the facts read when connecting are not sent again. Listening for other players' announcements stays
on a connection of its own (``LISTEN`` needs a connection that is read while idle, from the event loop, and a
libpq connection must never be used by two threads at once). So a window on a server holds two connections:
one for its reads and writes, one that only listens.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

RELEASE_RETRY_MS = 10


class Gate:
    """Who may use the window's one connection now (see the module's text)."""

    def __init__(self, database: Any) -> None:
        self._lock = threading.Lock()
        self._owner: int | None = None
        self._database = database
        self._release_pending = False
        self.waits = 0
        """How many times the event loop's thread waited for the database thread (for tests and the log)."""

    @property
    def owner(self) -> int | None:
        return self._owner

    def enter(self) -> None:
        """The calling thread uses the connection: wait until no other thread does."""
        me = threading.get_ident()
        if self._owner == me:
            return
        if threading.current_thread() is not threading.main_thread():
            self._lock.acquire()
            self._owner = me
            return
        if not self._lock.acquire(blocking=False):
            self.waits += 1
            pump: Callable[[float], None] | None = getattr(self._database, "pump", None)
            started = time.monotonic()
            try:
                # a nested wait (the pump ran code that reads) may take the gate first: then it is ours already
                while self._owner != me and not self._lock.acquire(timeout=0.03):
                    if pump is not None:
                        pump(time.monotonic() - started)
            finally:
                finish = getattr(pump, "done", None)
                if callable(finish):
                    finish()
            if self._owner == me:
                return
        self._owner = me
        self._schedule_release()

    def leave(self) -> None:
        """The calling thread is done with the connection (nothing happens when it does not hold it)."""
        if self._owner != threading.get_ident():
            return
        self._owner = None
        self._lock.release()

    def leave_when_idle(self) -> None:
        """On the event loop's thread: give the connection back unless a transaction or a statement is under
        way (then look again in a moment)."""
        self._release_pending = False
        if self._owner != threading.get_ident():
            return
        inner = self._database.__dict__["_state"].inner
        if inner.transactions or getattr(inner, "statements", 0):
            self._schedule_release(RELEASE_RETRY_MS)
            return
        self.leave()

    def _schedule_release(self, after_ms: int = 0) -> None:
        if self._release_pending:
            return
        from PySide6.QtCore import QCoreApplication, QTimer

        if QCoreApplication.instance() is None:  # no event loop: hand it back at once after each statement
            return
        self._release_pending = True
        QTimer.singleShot(after_ms, self.leave_when_idle)


class _State:
    """peewee's per-connection state (``peewee._ConnectionState``: the connection, whether it is closed, the
    open transactions and their callbacks), as one plain object for every thread."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.closed = True
        self.conn: Any = None
        self.ctx: list[Any] = []
        self.transactions: list[Any] = []
        self.commit_callbacks: list[Any] = []

    def set_connection(self, conn: Any) -> None:
        self.conn = conn
        self.closed = False
        self.ctx = []
        self.transactions = []
        self.commit_callbacks = []


class _SharedState:
    """peewee's connection state, one for every thread, behind the gate."""

    def __init__(self, inner: Any, gate: Gate) -> None:
        object.__setattr__(self, "inner", inner)
        object.__setattr__(self, "gate", gate)

    def __getattr__(self, name: str) -> Any:
        self.gate.enter()
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        self.gate.enter()
        setattr(self.inner, name, value)


def share_connection(database: Any) -> Gate:
    """Make ``database`` (an open server database) keep one connection for every thread: the calling thread's
    connection (the one the window opened with) is kept. Returns its gate (the same one when called again)."""
    found = gate_of(database)
    if found is not None:
        return found
    gate = Gate(database)
    local = database._state
    inner: Any = _State()
    inner.__dict__.update(vars(local))  # the calling thread's connection, its transactions and pending SQL
    inner.statements = 0
    shared = _SharedState(inner, gate)
    plain_execute = database.execute_sql

    def execute_sql(sql: str, params: Any = None) -> Any:
        gate.enter()
        inner.statements += 1  # the pump may run the event loop meanwhile: the gate is not given back then
        try:
            return plain_execute(sql, params)
        finally:
            inner.statements -= 1

    database._state = shared
    database.execute_sql = execute_sql
    database._window_gate = gate
    log.debug("one connection for every thread of the window: %r", database)
    return gate


def gate_of(database: Any) -> Gate | None:
    """The gate of a database shared by :func:`share_connection` (None: not shared)."""
    found = getattr(database, "__dict__", {}).get("_window_gate")
    return found if isinstance(found, Gate) else None


def session_of(database: Any) -> int | None:
    """The server process of the window's one connection, without a round trip or waiting for the gate; None
    when it is not connected (or not shared)."""
    state = getattr(database, "__dict__", {}).get("_state")
    inner = getattr(state, "inner", None)
    info = getattr(getattr(inner, "conn", None), "info", None)
    pid = getattr(info, "backend_pid", None)
    return int(pid) if isinstance(pid, int) and pid else None


__all__ = ["Gate", "gate_of", "session_of", "share_connection"]
