"""Focus goes back where it was when a dialog closes.

Qt gives the focus back to the parent window's "focus widget" when the window is activated again; when that
widget was hidden, disabled or deleted while the dialog was open (a page reloaded, a page switched), Qt
falls back to the first widget of the window, the navigator's filter box. :class:`FocusKeeper` remembers the
widget that had the focus when a dialog opened and gives the focus back to it after the dialog closed; when it
is gone, to the first widget of the page that is shown now (never the navigator)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
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
    """An application-wide event filter; ``fallback(window)`` names the widget to focus in ``window`` when
    the remembered one is gone (``None``: leave it to Qt)."""

    def __init__(self, parent: QObject, fallback: Callable[[QWidget], QWidget | None] | None = None) -> None:
        super().__init__(parent)
        self._fallback = fallback
        self._saved: dict[int, tuple[QWidget, QWidget]] = {}
        self._pending: tuple[QWidget, QWidget] | None = None
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        etype = event.type()
        if etype not in (QEvent.Type.Show, QEvent.Type.Hide) or not isinstance(obj, QDialog) or not obj.isWindow():
            return False
        if etype == QEvent.Type.Show and id(obj) not in self._saved:
            focus = QApplication.focusWidget()
            if self._pending is not None and (focus is None or focus.window() is not self._pending[1]):
                self._saved[id(obj)] = self._pending  # a dialog that follows another: give back the first one's
                self._pending = None
            elif focus is not None and focus.window() is not obj:
                self._saved[id(obj)] = (focus, focus.window())
        elif etype == QEvent.Type.Hide and id(obj) in self._saved:
            self._pending = self._saved.pop(id(obj))
            QTimer.singleShot(0, self._restore)
        return False

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
