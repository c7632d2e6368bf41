"""The cyclic garbage collector runs in the window's thread only.

Python starts a collection in whichever thread happens to allocate, and a collection frees whatever cyclic garbage it
finds, Qt wrappers included. Since pages read on the window's database thread (``gui/loader.py``), a collection
started there could free a closed dialog's or page's widgets outside the GUI thread, which Qt does not survive (a
crash, at a random moment). So while the window runs, automatic collection is off and a timer in the GUI thread
collects instead (as Anki does): the young generations often, everything now and then.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

EVERY_MS = 2_000
"""How often the GUI thread collects the young generations."""
FULL_EVERY = 30
"""Every this many rounds, a full collection (about a minute)."""


class GuiThreadCollector(QObject):
    """Turns automatic collection off and collects from a timer of the thread it was made in."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rounds = 0
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(EVERY_MS)
        self.timer.timeout.connect(self.collect)
        self.timer.start()

    def collect(self) -> None:
        self._rounds += 1
        gc.collect(2 if self._rounds % FULL_EVERY == 0 else 1)
