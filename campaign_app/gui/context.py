"""What every page, dialog and wizard is handed: paths, the application signal bus, the shared undo stack
(a view of the operation journal) and the settings."""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QWidget

from ..paths import AppPaths
from ..server_target import ServerTarget
from ..services.journal import OpChanges
from .undo_commands import JournalUndoStack


class AppSignals(QObject):
    """One application-wide signal per kind of news; views that care refresh on it."""

    op_changed = Signal(object)
    """The one change feed: after every write, undo and redo of this window, the
    :class:`~campaign_app.store.journal.OpChanges` of the operation (tables and row ids it touched, its campaign,
    platoon and Sologear sheet). Each view decides with :func:`concerns` whether to refresh."""
    data_changed = Signal(str, int)
    """(kind, id): reload without knowing what changed. ``("all", 0)`` when another program committed (the
    watcher), a backup was restored, a write was refused as busy (show the stored values again); kind in
    {"campaign", "platoon", "sheet", "battle", "all"}; id 0 means "all of them"."""
    status = Signal(str)
    """A short message for the status bar."""
    open_item = Signal(str, int)
    """Ask the main window to show an item (kind, id) in the central area and select it."""


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

    def changed(self, kind: str, obj_id: int = 0) -> None:
        self.signals.data_changed.emit(kind, obj_id)


def concerns(changes: OpChanges, *, campaign: int | None = None, platoon: int | None = None,
             sheet: int | None = None) -> bool:
    """Whether an operation's changes concern a view showing a campaign, a platoon (of ``campaign``) or a
    Sologear sheet (of ``campaign``): it touched that row, was made on it, or on its campaign as a whole. An
    operation that names no target at all (a sample load, an import) concerns every view."""
    if not changes:
        return False
    if changes.campaign_id is None and changes.platoon_id is None and changes.sheet_id is None:
        return True
    if platoon is not None and (changes.platoon_id == platoon or changes.touches("platoon", platoon)):
        return True
    if sheet is not None and (changes.sheet_id == sheet or changes.touches("sologear_sheet", sheet)):
        return True
    if campaign is not None:
        if changes.touches("campaign", campaign):
            return True
        same = changes.campaign_id == campaign
        if platoon is None and sheet is None:
            return same  # a campaign's page lists its platoons and pilots: anything in it
        if same and changes.platoon_id is None and changes.sheet_id is None:
            return True  # the campaign as a whole (its rules, deleting it)
        if same and platoon is not None and changes.touches("battle"):
            return True  # a battle against this platoon (opponent platoon) is in its history
    return False
