"""What every page, dialog and wizard is handed: paths, the application signal bus, the shared undo stack
(a view of the operation journal) and the settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QWidget

from ..paths import AppPaths
from ..server_target import ServerTarget
from .undo_commands import JournalUndoStack

if TYPE_CHECKING:
    from .feed import ViewFeed
    from .loader import DbWorker


class AppSignals(QObject):
    """One application-wide signal per kind of news; views that care refresh on it."""

    op_changed = Signal(object)
    """The one change feed (see :mod:`campaign_app.gui.feed`): the
    :class:`~campaign_app.store.journal.OpChanges` of every operation made, undone or redone by this window,
    another window or program, or "everything changed" (a restore, an import, a refused write). Views listen
    through :class:`~campaign_app.gui.feed.ViewFeed`."""
    status = Signal(str)
    """A short message for the status bar."""
    busy = Signal(bool)
    """The window's database worker is reading (True) or has nothing left to read (False)."""
    server_lost = Signal(object)
    """The window's database thread found the club server gone (the ``ServerUnavailable`` to show): the window
    says so once, with Try Again (``MainWindow.server_lost``)."""
    open_item = Signal(str, int)
    """Ask the main window to show an item (kind, id) in the central area and select it."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.held: list[ViewFeed] | None = None
        """While a batch of changes is delivered (:func:`~campaign_app.gui.feed.announce`): the views that
        reload once it ends."""


@dataclass
class AppContext:
    paths: AppPaths
    signals: AppSignals = field(default_factory=AppSignals)
    undo_stack: JournalUndoStack = field(default_factory=JournalUndoStack)
    settings: QSettings = field(default_factory=QSettings)
    main_window: QWidget | None = None
    busy_timeout: float | None = None
    """Seconds a write waits for the write lock (None: the setting, default 10)."""
    server: ServerTarget | None = None
    """The club server the window works on (None: the database file ``paths.db_file``)."""
    password: str | None = field(default=None, repr=False)
    """The server password typed or remembered this session (kept in memory only; never shown or logged)."""
    db_worker: DbWorker | None = field(default=None, repr=False)
    """On a club server: the thread that reads pages on a connection of its own (:mod:`.loader`)."""

    @property
    def database_name(self) -> str:
        """What the window works on, as shown: ``ana@club.example.org/league`` or the file's path."""
        return self.server.display() if self.server is not None else str(self.paths.db_file)

    @property
    def database_key(self) -> str:
        """One name per database for the settings (the server's URL, never with a password, or the file)."""
        return self.server.url() if self.server is not None else str(self.paths.db_file)

    def __post_init__(self) -> None:
        self.undo_stack.ctx = self
