"""Seeing changes made elsewhere: another window or ``campaign-cli`` writing to the same database file.

``PRAGMA data_version`` of our connection changes whenever *another* connection commits. The watcher polls
it every 2 seconds and when the window becomes active again; when it moved, the watcher reads the journal's
change feed since the last mark and delivers the other program's operations to the views as ``OpChanges``,
naming each operation (:func:`campaign_app.gui.feed.announce`). The window's own operations (its views heard
them already) are skipped; when the file changed but nothing new is in the journal (a write around the journal,
a restore), every view reloads ("everything changed"). Our own writes do not move ``data_version``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

from ..errors import CampaignError
from ..services.journal import OpChanges
from ..services.server_link import ChangeFeed
from .feed import announce, announce_everything, is_everything

if TYPE_CHECKING:
    from .context import AppContext

log = logging.getLogger(__name__)

POLL_MS = 2000


class ChangeWatcher(QObject):
    def __init__(self, window: QWidget, interval_ms: int = POLL_MS) -> None:
        super().__init__(window)
        self.window = window
        self.last: int | None = None
        self.feed: ChangeFeed | None = None
        """The journal's change feed, marked where the views last heard of everything in it."""
        self._own: set[int] = set()
        """Operations this window announced since the last delivery (not news when read from the journal)."""
        self._delivering = False
        self._logged = False
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.poll)
        ctx = self._ctx()
        if ctx is not None:
            ctx.signals.op_changed.connect(self._note_own)
        self.reset()
        self.timer.start()
        window.installEventFilter(self)

    def _ctx(self) -> AppContext | None:
        return getattr(self.window, "ctx", None)

    def reset(self) -> None:
        """Forget what was seen (after opening another database)."""
        self.last = self._version()
        self._own.clear()
        if self.last is not None:
            try:
                self.feed = ChangeFeed()
            except CampaignError as exc:
                log.debug("journal mark not read: %s", exc)
                self.last = None  # try again at the next poll

    def _note_own(self, changes: OpChanges) -> None:
        if self._delivering:
            return
        if changes.operation_id is not None:
            self._own.add(int(changes.operation_id))
        elif is_everything(changes) and self.last is not None:
            # the views read everything again now (an import, a restore, a sample load): what the journal
            # holds so far is not news for them any more
            try:
                self.feed = ChangeFeed()
            except CampaignError as exc:
                log.debug("journal mark not read: %s", exc)

    def _version(self) -> int | None:
        from ..store.opened import Capability, can, data_version

        if can(Capability.ANNOUNCES):
            return None  # a club server announces its changes (gui.club.LiveUpdates)
        try:
            return data_version()
        except CampaignError as exc:  # busy, or the file is gone: the window goes on; try again later
            log.debug("data_version poll failed: %s", exc)
            return None
        except Exception:  # anything else (an error SQLite was not known to give, a bug): in the log, once
            if not self._logged:
                self._logged = True
                log.exception("data_version poll failed")
            return None

    def poll(self) -> bool:
        """Deliver what another program committed since the last poll; True if it did."""
        now = self._version()
        if now is None:
            return False
        if self.last is None or self.feed is None:
            self.reset()
            return False
        changed = now != self.last
        self.last = now
        if not changed:
            return False
        try:
            found = self.feed.since_last()
        except CampaignError as exc:  # busy: everything is read again (the next poll reads the journal)
            log.info("the journal could not be read (%s); reloading the views", exc)
            found = []
        news = [c for c in found if c.operation_id is None or int(c.operation_id) not in self._own]
        self._own.clear()
        ctx = self._ctx()
        if ctx is None:
            return True
        ctx.undo_stack.sync()  # another program's operations are on the journal too: Edit ▸ Undo names them
        self._delivering = True
        try:
            if news:
                log.info("another program changed the database: %s", "; ".join(c.label for c in news))
                announce(ctx, news)
            else:
                log.info("the database was changed by another program; reloading the views")
                announce_everything(ctx, "the database file was changed by another program")
        finally:
            self._delivering = False
        return True

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if obj is self.window and event.type() == QEvent.Type.ActivationChange and self.window.isActiveWindow():
            self.poll()
        return False
