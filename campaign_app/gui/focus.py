"""Focus goes back where it was when a dialog closes (followed with ``QApplication.focusChanged``).

Qt gives the focus back to the parent window's "focus widget" when the window is activated again; when that
widget was hidden, disabled or deleted while the dialog was open (a page reloaded, a page switched), Qt
falls back to the first widget of the window, the navigator's filter box. :class:`FocusKeeper` remembers the
widget that had the focus when a dialog opened and gives the focus back to it after the dialog closed; when it
is gone, to the first widget of the page that is shown now (never the navigator)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QWidget
from shiboken6 import isValid


def first_focusable(root: QWidget) -> QWidget | None:
    """The first widget inside ``root`` (in Tab order) that takes the keyboard focus."""
    w = root.nextInFocusChain()
    seen = 0
    while w is not None and w is not root and seen < 5000:
        seen += 1
        if (root.isAncestorOf(w) and w.isVisible() and w.isEnabled()
                and w.focusPolicy() & Qt.FocusPolicy.TabFocus):
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
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is None or not isValid(new):
            return
        window = new.window()
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
        target.setFocus(Qt.FocusReason.OtherFocusReason)
