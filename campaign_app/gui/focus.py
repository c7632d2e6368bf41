"""Focus goes back where it was when a dialog closes (followed with ``QApplication.focusChanged``).

Qt gives the focus back to the parent window's "focus widget" when the window is activated again; when that
widget was hidden, disabled or deleted while the dialog was open (a page reloaded, a page switched), Qt
falls back to the first widget of the window, the navigator's filter box. :class:`FocusKeeper` remembers the
widget that had the focus when a dialog opened and gives the focus back to it after the dialog closed; when it
is gone, to the first widget of the page that is shown now (never the navigator)."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6 import QtCore
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QDialog,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)
from shiboken6 import isValid

WATCH_SECONDS = 1.0
"""How long after giving the focus back a page switch (by the code that opened the dialog) still counts."""


def first_focusable(root: QWidget) -> QWidget | None:
    """The first widget inside ``root`` (in Tab order) that takes the keyboard focus (a page's tabs
    and a scroll area are skipped: the first field of the page is more use)."""
    w = root.nextInFocusChain()
    seen = 0
    while w is not None and w is not root and seen < 5000:
        seen += 1
        if (
            root.isAncestorOf(w)
            and w.isVisible()
            and w.isEnabled()
            and not isinstance(w, QTabWidget | QTabBar | QScrollArea)
            and w.focusPolicy() & QtCore.Qt.FocusPolicy.TabFocus
        ):
            return w
        w = w.nextInFocusChain()
    return None


class FocusKeeper(QObject):
    """Follows ``QApplication.focusChanged`` (no event filter: nothing runs for the app's other events).
    ``fallback(window)`` names the widget to focus in ``window`` when the remembered one is gone (``None``:
    leave it to Qt)."""

    def __init__(self, parent: QObject, fallback: Callable[[QWidget], QWidget | None] | None = None) -> None:
        super().__init__(parent)
        self._fallback = fallback
        self._saved: dict[int, tuple[QWidget, QWidget]] = {}
        self._last: QWidget | None = None
        self._pending: tuple[QWidget, QWidget] | None = None
        self._watch: tuple[QWidget, float] | None = None
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)

    def _on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if new is None or not isValid(new):
            return
        window = new.window()
        self._after_restore(old, new, window)
        last = self._last if self._last is not None and isValid(self._last) else None
        if isinstance(window, QDialog) and id(window) not in self._saved:
            if self._pending is not None and (last is None or not last.window().isVisible()):
                self._saved[id(window)] = self._pending  # a dialog right after another: give back the first's
                self._pending = None
            elif last is not None and last.window() is not window:
                self._saved[id(window)] = (last, last.window())
            key = id(window)
            if key in self._saved:
                window.finished.connect(lambda result, k=key: self._closed(k, result))
        self._last = new

    def _closed(self, key: int, _result: int = 0) -> None:
        saved = self._saved.pop(key, None)
        if saved is not None:
            self._pending = saved
            QTimer.singleShot(0, self._restore)

    def _after_restore(self, old: QWidget | None, new: QWidget, window: QWidget) -> None:
        """Just after a dialog closed, the code that opened it may switch the page (a new platoon is shown):
        the widget that got the focus back is hidden and Qt moves the focus on to the next widget in the
        window. Then the page shown now gets it (as when the widget was already gone)."""
        if self._watch is None:
            return
        watched, until = self._watch
        if time.monotonic() > until or not isValid(watched):
            self._watch = None
            return
        if old is None or not isValid(old) or old.isVisible() or window is not watched:
            return
        self._watch = None
        target = self._fallback(window) if self._fallback is not None else None
        if target is not None and target is not new:
            QTimer.singleShot(
                0,
                lambda: (
                    target.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)
                    if isValid(target) and target.isVisible()
                    else None
                ),
            )

    def _restore(self) -> None:
        if self._pending is None:
            return
        widget, window = self._pending
        modal = QApplication.activeModalWidget()
        if modal is not None and isValid(window) and modal is not window:
            return  # another dialog is open: it gives the focus back when it closes
        self._pending = None
        if not isValid(window) or not window.isVisible():
            return
        target: QWidget | None = widget if isValid(widget) else None
        if target is not None and not (target.isVisible() and target.isEnabled() and target.window() is window):
            target = None
        if target is None and self._fallback is not None:
            target = self._fallback(window)
        if target is None:
            return
        if not window.isActiveWindow():
            window.activateWindow()
        target.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)
        self._watch = (window, time.monotonic() + WATCH_SECONDS)


def unique_keys(*keys: str | QKeySequence | QKeySequence.StandardKey) -> list[QKeySequence]:
    """Shortcuts for one action: each given key (a standard key stands for this platform's main binding of it:
    Redo is Ctrl+Y offscreen and on Windows, Ctrl+Shift+Z on X11) once, in order. A key bound twice makes Qt
    call the shortcut ambiguous and do nothing."""
    out: list[QKeySequence] = []
    seen: set[str] = set()
    for key in keys:
        for seq in (QKeySequence(key),):
            text = seq.toString(QKeySequence.SequenceFormat.PortableText)
            if text and text not in seen:
                seen.add(text)
                out.append(seq)
    return out


class UndoKeysToWindow(QObject):
    """Ctrl+Z (and Redo's keys) in a text field that has nothing of its own to undo go to the window's Undo
    (Qt lets a focused line edit claim them first: the first Ctrl+Z after start, with the cursor in the
    navigator's empty filter box, did nothing). The filter is put on each text field as it gets the focus."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._watched: set[int] = set()
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is None or not isValid(new) or new.window() is not self._window or id(new) in self._watched:
            return
        if isinstance(new, QLineEdit | QAbstractSpinBox | QPlainTextEdit | QTextEdit):
            self._watched.add(id(new))
            new.installEventFilter(self)
            key = id(new)
            new.destroyed.connect(lambda _o=None: self._watched.discard(key))

    @staticmethod
    def _available(widget: QObject, redo: bool) -> bool:
        if isinstance(widget, QAbstractSpinBox):
            widget = widget.findChild(QLineEdit) or widget
        if isinstance(widget, QLineEdit):
            return widget.isRedoAvailable() if redo else widget.isUndoAvailable()
        if isinstance(widget, QPlainTextEdit | QTextEdit):
            doc = widget.document()
            return doc.isRedoAvailable() if redo else doc.isUndoAvailable()
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            combo = QKeySequence(event.keyCombination())
            for redo, std in ((False, QKeySequence.StandardKey.Undo), (True, QKeySequence.StandardKey.Redo)):
                keys = unique_keys(std, *(("Ctrl+Shift+Z", "Ctrl+Y") if redo else ("Ctrl+Z",)))
                if any(combo.matches(k) == QKeySequence.SequenceMatch.ExactMatch for k in keys) and not self._available(
                    watched, redo
                ):
                    event.ignore()  # not claimed: the window's shortcut runs
                    return True
        return False
