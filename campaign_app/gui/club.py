"""Club play in the desktop app: opening a campaign server, what the window says when the server is away, and
live refresh from the server's announcements.

- :func:`open_server` opens the store on a server (the password goes to the store, never into a URL shown);
  :func:`open_server_interactively` adds the questions: the password when the server wants one (the connect
  dialog, with the server's reason), and when the server cannot be reached, :func:`ask_server_away`.
- :func:`ask_server_away`: one message with the server's name and the reason, and three ways on: **Try Again**,
  **Open Local File Instead** (the usual file of the data folder) and Close / Quit. Nothing was written.
- :class:`LiveUpdates`: a connection of its own that ``LISTEN``\\s on the journal's channel, watched with a
  ``QSocketNotifier`` (no thread, no polling). An operation another program made arrives as the one change feed,
  ``op_changed(OpChanges)``, within a moment of its commit; the window's own operations are skipped (the server
  process that sent the notice is this window's store connection, or the operation was announced here already).
  A dropped connection is reopened quietly (after 1, 2, 4 ... 30 s), and then every view reloads once (a
  notice may have been missed meanwhile).
"""

from __future__ import annotations

import logging
from collections import deque
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QSocketNotifier, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from ..errors import CampaignError
from ..server_target import PasswordRequired, ServerTarget, ServerUnavailable
from .feed import announce

if TYPE_CHECKING:
    from pathlib import Path

    from PySide6.QtCore import QSettings

    from ..services.journal import OpChanges
    from .connect_dialog import Login
    from .context import AppContext

log = logging.getLogger(__name__)

RETRY, LOCAL, CLOSE, LOGIN = "retry", "local", "close", "login"


def open_server(
    target: ServerTarget, password: str | None, backup_dir: Path | None, busy_timeout: float | None = None
) -> None:
    """Open the store on the server (with a busy cursor when a window is up; libpq's ``connect_timeout``
    bounds the wait). Raises the store's CampaignError (ServerUnavailable, PasswordRequired, ...)."""
    from ..store import init_db

    busy = QApplication.instance() is not None
    if busy:
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        database = init_db(
            target.url(timeout=True), backup_dir, password=password, busy_timeout=busy_timeout, daily_backup=False
        )
    finally:
        if busy:
            QApplication.restoreOverrideCursor()
    if busy:
        database.pump = ServerWait(target.display())  # type: ignore[union-attr]  # a server database


class ServerWait:
    """Called while a statement waits for the club server (it runs on a helper thread meanwhile): the window
    keeps painting and its timers keep running, input waits (nothing can start a second change in the middle of
    one), and after a moment the status bar says what it waits for and the cursor shows it."""

    SHOW_AFTER = 0.4

    def __init__(self, where: str) -> None:
        self.where = where
        self.showing = False

    def __call__(self, waited: float) -> None:
        from PySide6.QtCore import QEventLoop

        app = QApplication.instance()
        if app is None:
            return
        if waited >= self.SHOW_AFTER and not self.showing:
            self.showing = True
            QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
            window = QApplication.activeWindow()
            bar = getattr(window, "statusBar", None)
            if callable(bar):
                bar().showMessage(f"Waiting for the club server {self.where}…")
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents, 20)

    def done(self) -> None:
        """The statement is answered (or refused)."""
        if self.showing:
            self.showing = False
            QApplication.restoreOverrideCursor()
            window = QApplication.activeWindow()
            bar = getattr(window, "statusBar", None)
            if callable(bar) and bar().currentMessage().startswith("Waiting for the club server"):
                bar().clearMessage()


def ask_server_away(
    parent: QWidget | None, exc: CampaignError, local_file: Path | None, *, closing: str = "Close"
) -> str:
    """The server cannot be used: say so with its name and the reason; returns RETRY, LOCAL, LOGIN or CLOSE."""
    text = str(exc)
    text = text[:1].upper() + text[1:]
    if not text.endswith("."):
        text += "."
    title = "Club server not available" if isinstance(exc, ServerUnavailable) else "Cannot open the club database"
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.NoButton, parent)
    box.setObjectName("server_away")
    info = []
    if isinstance(exc, PasswordRequired):
        login = box.addButton("Enter &Password\u2026", QMessageBox.ButtonRole.AcceptRole)
    else:
        login = None
    # trying again helps when the server or the network was away, not when the database itself is refused
    retry = (
        box.addButton("&Try Again", QMessageBox.ButtonRole.AcceptRole) if isinstance(exc, ServerUnavailable) else None
    )
    local = None
    if local_file is not None:
        local = box.addButton("&Open Local File Instead", QMessageBox.ButtonRole.ActionRole)
        info.append(f"Open Local File Instead opens {local_file} on this computer.")
    close = box.addButton(closing, QMessageBox.ButtonRole.RejectRole)
    box.setEscapeButton(close)
    box.setDefaultButton(login or retry or local or close)
    if isinstance(exc, ServerUnavailable) and not isinstance(exc, PasswordRequired):
        info.insert(0, "Check the network connection, or ask the club's organiser whether the server is running.")
    if info:
        box.setInformativeText("\n\n".join(info))
    box.exec()
    clicked = box.clickedButton()
    box.deleteLater()
    if clicked is None or clicked is close:
        return CLOSE
    if clicked is login:
        return LOGIN
    if clicked is retry:
        return RETRY
    return LOCAL


def open_server_interactively(
    settings: QSettings,
    parent: QWidget | None,
    target: ServerTarget,
    password: str | None,
    backup_dir: Path | None,
    local_file: Path | None,
    busy_timeout: float | None = None,
    *,
    closing: str = "Close",
) -> Login | str:
    """Open ``target``, asking what is needed on the way: the :class:`Login` that opened it, or LOCAL (open the
    local file instead) or CLOSE (the user gave up)."""
    from ..passwords import saved_password
    from .connect_dialog import Login, ask_login

    if password is None:
        password = saved_password(target)
    remember = False
    while True:
        try:
            open_server(target, password, backup_dir, busy_timeout)
            from .connect_dialog import add_recent_server

            add_recent_server(settings, target)  # File ▸ Connect to Club Server… lists it next time
            return Login(target, password, remember)
        except PasswordRequired as exc:
            log.warning("server login refused: %s", exc)
            login = ask_login(settings, parent, initial=target, problem=str(exc))
            if login is None:
                choice = ask_server_away(parent, exc, local_file, closing=closing)
                if choice in (LOCAL, CLOSE):
                    return choice
                continue
            target, password, remember = login.target, login.password, login.remember
        except CampaignError as exc:  # ServerUnavailable, ServerSupportMissing, a schema too new ...
            log.error("cannot open the server database %s: %s", target.display(), exc)
            choice = ask_server_away(parent, exc, local_file, closing=closing)
            if choice == LOGIN:
                login = ask_login(settings, parent, initial=target, problem=str(exc))
                if login is not None:
                    target, password, remember = login.target, login.password, login.remember
                continue
            if choice in (LOCAL, CLOSE):
                return choice


class LiveUpdates(QObject):
    """Other players' operations as ``op_changed`` (see the module's text)."""

    delivered = Signal(int)
    """An operation made elsewhere was announced to the views (its id)."""
    RETRY_MS = (1000, 2000, 4000, 8000, 15000, 30000)

    def __init__(
        self, ctx: AppContext, target: ServerTarget, password: str | None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        from ..services.server_link import ServerListener

        self.ctx = ctx
        self.listener = ServerListener(target, password)
        self.notifier = QSocketNotifier(QSocketNotifier.Type.Read, self)
        """One notifier for the listener's life: pointed at each new connection's socket (``setSocket``)."""
        self.notifier.setEnabled(False)
        self.notifier.activated.connect(lambda *_a: self.read())
        self._emitting = False
        self._seen: deque[int] = deque(maxlen=500)
        """Operations this window announced itself (their notices are not news)."""
        self._failures = 0
        self._feed: Any = None
        self._had_connection = False
        self._catching_up = False
        self._again = False
        self.stopped = False
        self.retry_timer = QTimer(self)
        self.retry_timer.setSingleShot(True)
        self.retry_timer.timeout.connect(self.start)
        ctx.signals.op_changed.connect(self._note_own)

    @property
    def connected(self) -> bool:
        return self.notifier.isEnabled() and self.listener.is_open

    def start(self) -> bool:
        """Open the listening connection (True when it listens); on failure try again later, quietly."""
        if self.stopped:
            return False
        try:
            self.listener.open()
        except CampaignError as exc:
            self._failures += 1
            delay = self.RETRY_MS[min(self._failures - 1, len(self.RETRY_MS) - 1)]
            log.info("live updates: cannot listen (%s); trying again in %d s", exc, delay // 1000)
            self.retry_timer.start(delay)
            return False
        self.notifier.setSocket(self.listener.fileno())
        self.notifier.setEnabled(True)
        if self._had_connection:
            log.info("live updates: listening again")
            self.catch_up()  # what was announced while the connection was down: the journal knows
        else:
            self._mark()  # changes from now on are news
        self._had_connection = True
        self._failures = 0
        return True

    def stop(self) -> None:
        self.stopped = True
        self.retry_timer.stop()
        self._drop_notifier()
        self.listener.close()

    def _drop_notifier(self) -> None:
        self.notifier.setEnabled(False)

    def _note_own(self, changes: Any) -> None:
        if not self._emitting and getattr(changes, "operation_id", None):
            self._seen.append(int(changes.operation_id))

    def read(self) -> list[int]:
        """Deliver what arrived; the ids of the operations delivered. A notice is a hint: the window asks the
        journal what is new since the last id it knows and delivers exactly that (a fake notice costs one small
        query and changes nothing)."""
        from ..services.server_link import own_session

        try:
            notices = self.listener.read()
        except CampaignError as exc:
            log.info("live updates: the connection dropped (%s); reconnecting", exc)
            self._drop_notifier()
            self._failures = 1
            self.retry_timer.start(self.RETRY_MS[0])
            return []
        from .loader import worker_of

        worker = worker_of(self.ctx)
        if worker is not None:  # the window's one connection is its worker's: its notices are its own
            if worker.session is not None and all(notice.session == worker.session for notice in notices):
                return []
            return self.catch_up()
        own = own_session()
        if own is not None and all(notice.session == own for notice in notices):
            return []
        return self.catch_up()

    def catch_up(self) -> list[int]:
        """Deliver every operation made, undone or redone elsewhere since the last one this window knows. On a
        window's club server the journal is read on the window's database thread and what is new delivered when
        it comes (an empty list is returned then)."""
        from .loader import run_read, worker_of

        if worker_of(self.ctx) is None:
            try:
                found = self.feed().since_last()
            except CampaignError as exc:  # the store's connection is away too: the next action says so
                log.info("live updates: cannot read the journal (%s)", exc)
                return []
            return self._deliver(found)
        if self._catching_up:
            self._again = True  # one read at a time; another one after it (a notice came meanwhile)
            return []
        self._catching_up = True

        def done(found: list[OpChanges]) -> None:
            self._catching_up = False
            self._deliver(found)
            if self._again:
                self._again = False
                self.catch_up()

        def failed(exc: Exception) -> None:
            self._catching_up = False
            if not isinstance(exc, CampaignError):
                raise exc
            log.info("live updates: cannot read the journal (%s)", exc)

        run_read(self.ctx, lambda: self.feed().since_last(), done, failed)
        return []

    def _deliver(self, found: list[OpChanges]) -> list[int]:
        news = [c for c in found if c.operation_id is not None and c.operation_id not in self._seen]
        if not news:
            return []
        self.ctx.undo_stack.sync()  # Edit ▸ Undo names the newest change one may undo
        self._emitting = True
        try:
            announce(self.ctx, news)  # one batch: a view concerned by several reloads once
        finally:
            self._emitting = False
        delivered = [int(changes.operation_id or 0) for changes in news]
        for op_id in delivered:
            self.delivered.emit(op_id)
        return delivered

    def _mark(self) -> None:
        """Read the journal's newest id (on the window's database thread on a club server)."""
        from .loader import run_read

        def failed(exc: Exception) -> None:
            if not isinstance(exc, CampaignError):
                raise exc
            log.info("live updates: cannot read the journal (%s)", exc)

        run_read(self.ctx, self.feed, lambda _feed: None, failed)

    def feed(self) -> Any:
        from ..services.server_link import ChangeFeed

        if self._feed is None:
            self._feed = ChangeFeed()
        return self._feed


__all__ = [
    "CLOSE",
    "LOCAL",
    "LOGIN",
    "LiveUpdates",
    "RETRY",
    "ask_server_away",
    "open_server",
    "open_server_interactively",
]
