"""Seeing changes made elsewhere: another window or ``campaign-cli`` writing to the same database file.

``PRAGMA data_version`` of our connection changes whenever *another* connection commits. The watcher polls
it every 2 seconds and when the window becomes active again; on a change it tells every view to reload
(``data_changed("all", 0)``). Our own writes do not change it, so they cause no extra reload.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

from ..errors import CampaignError

log = logging.getLogger(__name__)

POLL_MS = 2000


class ChangeWatcher(QObject):
    def __init__(self, window: QWidget, interval_ms: int = POLL_MS) -> None:
        super().__init__(window)
        self.window = window
        self.last: int | None = None
        self._logged = False
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.poll)
        self.reset()
        self.timer.start()
        window.installEventFilter(self)

    def reset(self) -> None:
        """Forget what was seen (after opening another database)."""
        self.last = self._version()

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
        """Reload the views if another program committed since the last poll; True if it did."""
        now = self._version()
        if now is None:
            return False
        changed = self.last is not None and now != self.last
        self.last = now
        if changed:
            log.info("the database was changed by another program; reloading the views")
            ctx = getattr(self.window, "ctx", None)
            if ctx is not None:
                ctx.changed("all", 0)
        return changed

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if obj is self.window and event.type() == QEvent.Type.ActivationChange and self.window.isActiveWindow():
            self.poll()
        return False
