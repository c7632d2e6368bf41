"""What every page, dialog and wizard is handed: paths, the application signal bus, the shared undo stack
and the settings."""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWidget

from ..paths import AppPaths


class AppSignals(QObject):
    """One application-wide signal per kind of news; views that care refresh on it."""

    data_changed = Signal(str, int)
    """(kind, id): kind in {"campaign", "platoon", "sheet", "battle", "all"}; id 0 means "all of them"."""
    status = Signal(str)
    """A short message for the status bar."""
    open_item = Signal(str, int)
    """Ask the main window to show an item (kind, id) in the central area and select it."""


@dataclass
class AppContext:
    paths: AppPaths
    signals: AppSignals = field(default_factory=AppSignals)
    undo_stack: QUndoStack = field(default_factory=QUndoStack)
    settings: QSettings = field(default_factory=QSettings)
    main_window: QWidget | None = None
    busy_timeout: float | None = None
    """Seconds a write waits for the write lock (None: the setting, default 10)."""

    def changed(self, kind: str, obj_id: int = 0) -> None:
        self.signals.data_changed.emit(kind, obj_id)
