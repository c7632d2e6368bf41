"""Reading a page's data without freezing the window.

On a club server every read is a few round trips across the internet; a page that read in the event loop would
freeze the window for that long. So a page reads through a :class:`PageLoad`:

- ``read(key)`` is a plain function of the services (Qt-free, returns plain data); ``show(key, data)`` fills the
  widgets; ``failed(key, error)`` shows a refusal (the platoon is gone, the server is away).
- On a server the read runs on the window's :class:`DbWorker`, one thread per window. The window has **one
  connection** (:mod:`.one_connection`): the one it opened with, handed to the worker and shared, one thread at a
  time, with what still reads in the event loop (dialogs). The answer comes back to the GUI thread as a queued
  signal and is shown there. Writes (:func:`run_write`, ``undo_commands.perform_later``) run on the same thread,
  in the order asked.
- A page shown again shows what it read last **at once** (kept per key, a few keys per page) and is refreshed
  when the fresh answer comes. While a page waits for a key it has never shown, its ``busy(True)`` hook runs
  (the platoon page greys its sections so nothing is typed into another platoon's values).
- A second request supersedes the first: a request not yet started is skipped, the answer of one already
  running is dropped.
- While anything is being read or written the window's status bar shows a small busy bar
  (:class:`BusyIndicator`).
- On a database file the read runs at once in the event loop (it takes a few milliseconds; see
  ``benchmarks/bench_gui_server_start.py``): the same ``read``/``show`` path, without the thread.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QProgressBar, QWidget

from .lazy_qt import set_enum

if TYPE_CHECKING:
    from .context import AppContext

log = logging.getLogger(__name__)

K = TypeVar("K")
T = TypeVar("T")


@dataclass
class _Task:
    run: Callable[[], Any]
    """What runs on the worker (a read, or a write: one operation)."""
    answer: Callable[[bool, Any], None]
    """Called on the GUI thread with (ok, the value or the exception)."""
    wanted: Callable[[], bool] = lambda: True
    """False when a later request superseded this one: it is not run (or its answer is dropped)."""


class DbWorker(QObject):
    """The window's database thread on a club server: runs reads one at a time, in order, on its own
    connection, and hands each answer back to the GUI thread."""

    busy_changed = Signal(bool)
    """True when a read starts waiting, False when none is left."""
    lost = Signal(object)
    """A read or write failed because the club server went away (the ``ServerUnavailable`` to show)."""
    _answered = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._queue: queue.Queue[_Task | None] = queue.Queue()
        self._pending = 0
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._answered.connect(self._deliver)
        self.reads = 0
        """Reads and writes run on the worker (for tests and the log)."""
        self.target: Any = None
        """The club server (``ServerTarget``) whose lost connection is told apart from other errors."""
        self.session: int | None = None
        """The server process of the worker's connection (its announcements are this window's own)."""

    @property
    def pending(self) -> int:
        return self._pending

    def wait_for_answer(self, seconds: float) -> None:
        """Sleep up to ``seconds`` unless an answer is ready to be shown (for a caller that waits without an
        event loop of its own, such as ``--screenshot``)."""
        self._ready.wait(seconds)
        self._ready.clear()

    def submit(self, task: _Task) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="campaign_app-db-worker", daemon=True)
            self._thread.start()
        self._pending += 1
        if self._pending == 1:
            self.busy_changed.emit(True)
        self._queue.put(task)

    def stop(self, wait: float = 5.0) -> None:
        """Finish: the thread closes the window's connection and ends (answers still on their way are
        dropped)."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        from ..services.server_link import open_database
        from .one_connection import gate_of

        gate = gate_of(open_database())
        if gate is not None:
            gate.leave()  # the event loop's thread may hold the connection: the thread needs it to close it
        self._queue.put(None)
        thread.join(wait)

    def _serve(self) -> None:
        from ..services.server_link import open_database
        from .one_connection import gate_of, session_of

        used: list[Any] = []
        """The databases this thread read or wrote (their connection is closed at the end, even when the window
        opened another database meanwhile)."""
        while True:
            task = self._queue.get()
            if task is None:
                break
            if not task.wanted():  # superseded before it started
                self._answer((task, None, None))
                continue
            database = open_database()
            gate = gate_of(database)
            if gate is not None:
                gate.enter()  # the window's one connection: the event loop's thread may be using it
            try:
                self.reads += 1
                value = task.run()
            except Exception as exc:  # noqa: BLE001 - handed to the GUI thread, shown there
                self._answer((task, False, exc))
            else:
                self._answer((task, True, value))
            finally:
                self.session = session_of(database) or self.session
                if gate is not None:
                    gate.leave()
            if database is not None and all(d is not database for d in used):
                used.append(database)
        for database in used:
            gate = gate_of(database)
            try:
                if gate is not None:
                    gate.enter()
                database.close()  # the window's connection to it
            except Exception:  # noqa: BLE001 - the window is closing anyway
                log.debug("the window's connection did not close cleanly", exc_info=True)
            finally:
                if gate is not None:
                    gate.leave()

    def _answer(self, answer: tuple[_Task, bool | None, Any]) -> None:
        self._answered.emit(answer)
        self._ready.set()

    def _deliver(self, answer: tuple[_Task, bool | None, Any]) -> None:
        task, ok, value = answer
        self._pending -= 1
        try:
            if ok is not None and task.wanted():
                task.answer(ok, value)
        finally:
            if ok is False and self.target is not None:
                from ..services.server_link import lost_connection

                lost = lost_connection(value, self.target)
                if lost is not None:
                    self.lost.emit(lost)
            if self._pending == 0:
                self.busy_changed.emit(False)


def stop_worker(ctx: AppContext) -> None:
    """The window closes or opens another database: the worker's thread closes its connection and ends."""
    worker, ctx.db_worker = ctx.db_worker, None
    if worker is not None:
        worker.stop()
        worker.busy_changed.emit(False)
        worker.deleteLater()


def worker_of(ctx: AppContext) -> DbWorker | None:
    """The window's worker when it works on a club server (made on first use), None on a file."""
    if ctx.server is None:
        return None
    found: DbWorker | None = getattr(ctx, "db_worker", None)
    if found is None:
        from ..services.server_link import open_database
        from ..store.opened import Capability, can
        from .one_connection import session_of, share_connection

        database = open_database()
        if can(Capability.SHARED_CONNECTION):
            share_connection(database)  # one connection for the window: the one it opened with
        found = DbWorker(ctx.signals)
        found.session = session_of(database)
        found.target = ctx.server
        found.busy_changed.connect(ctx.signals.busy)
        found.lost.connect(ctx.signals.server_lost)
        ctx.db_worker = found
    return found


def in_background(ctx: AppContext) -> bool:
    """Whether the window's reads and writes run on its database thread (a club server), so a write's result
    comes later."""
    return worker_of(ctx) is not None


def run_write(
    ctx: AppContext, write: Callable[[], T], done: Callable[[T], None], refused: Callable[[Exception], None]
) -> bool:
    """Run ``write`` (one operation, e.g. committing a battle or an undo) and hand its result to ``done``, or
    the exception to ``refused`` (a ``CampaignError`` is a refusal to show; anything else is raised there). On a
    club server it runs on the window's worker and this returns True at once (the answer comes later, on the
    GUI thread); on a file it runs now and this returns False after ``done``/``refused`` ran."""
    worker = worker_of(ctx)

    def answer(ok: bool, value: Any) -> None:
        if ok:
            done(value)
        else:
            refused(value)

    if worker is None:
        try:
            value = write()
        except Exception as exc:  # noqa: BLE001 - handed to the caller's refusal path
            answer(False, exc)
        else:
            answer(True, value)
        return False
    worker.submit(_Task(write, answer))
    return True


run_read = run_write
"""The same for a read whose answer is not a page's (the change feed's catching up, the undo list)."""


class PageLoad(Generic[K, T]):
    """One page's reads (see the module's text)."""

    KEEP = 8

    def __init__(
        self,
        ctx: AppContext,
        read: Callable[[K], T],
        show: Callable[[K, T], None],
        failed: Callable[[K, Exception], None],
        busy: Callable[[bool], None] | None = None,
    ) -> None:
        self.ctx = ctx
        self.read = read
        self.show = show
        self.failed = failed
        self.busy = busy
        self.ticket = 0
        self.cache: OrderedDict[K, T] = OrderedDict()
        self.shown: K | None = None
        """The key whose data the widgets hold."""
        self.waiting = False

    def forget(self, key: K) -> None:
        self.cache.pop(key, None)

    def request(self, key: K) -> None:
        """Read ``key`` and show it: at once on a file; on a server what was read before at once, then the
        fresh answer when it comes."""
        self.ticket += 1
        worker = worker_of(self.ctx)
        if worker is None:
            self._answer_now(key)
            return
        cached = self.cache.get(key)
        if cached is not None and self.shown != key:
            self.shown = key
            self.show(key, cached)
        self._set_waiting(cached is None and self.shown != key)
        ticket = self.ticket
        worker.submit(
            _Task(
                lambda: self.read(key),
                lambda ok, value: self._answered(ticket, key, ok, value),
                lambda: ticket == self.ticket,
            )
        )

    def _answer_now(self, key: K) -> None:
        try:
            value = self.read(key)
        except Exception as exc:  # noqa: BLE001 - the page decides what it can show
            self._answered(self.ticket, key, False, exc)
        else:
            self._answered(self.ticket, key, True, value)

    def _set_waiting(self, waiting: bool) -> None:
        if waiting != self.waiting:
            self.waiting = waiting
            if self.busy is not None:
                self.busy(waiting)

    def _answered(self, ticket: int, key: K, ok: bool, value: Any) -> None:
        if ticket != self.ticket:
            return  # a later request superseded this one
        self._set_waiting(False)
        if not ok:
            self.cache.pop(key, None)
            if not isinstance(value, Exception):
                raise value
            self.shown = None
            self.failed(key, value)
            return
        self.cache.pop(key, None)
        self.cache[key] = value
        while len(self.cache) > self.KEEP:
            self.cache.popitem(last=False)
        self.shown = key
        self.show(key, value)


class BusyIndicator(QProgressBar):
    """A small bar in the status bar that moves while the window's worker reads or writes (shown after a short
    moment, so a quick answer does not flicker)."""

    SHOW_AFTER_MS = 150

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("busy_indicator")
        self.setRange(0, 0)
        self.setTextVisible(False)
        self.setMaximumWidth(90)
        self.setMaximumHeight(12)
        self.setAccessibleName("Waiting for the club server")
        self.setToolTip("Reading from or saving to the club server\u2026")
        set_enum(self, "focusPolicy", "NoFocus")  # it never takes the keyboard
        self.hide()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.show)

    def set_busy(self, busy: bool) -> None:
        if busy:
            if not self.isVisible() and not self._timer.isActive():
                self._timer.start(self.SHOW_AFTER_MS)
        else:
            self._timer.stop()
            self.hide()


__all__ = [
    "BusyIndicator",
    "DbWorker",
    "PageLoad",
    "in_background",
    "run_read",
    "run_write",
    "stop_worker",
    "worker_of",
]
