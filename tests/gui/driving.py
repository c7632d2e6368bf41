"""Driving modal dialogs as a person does, shared by the GUI tests: the focused widget, and steps run once a
modal dialog is up (its own event loop runs meanwhile)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from campaign_app.gui.battle_wizard import BattleWizard


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def in_modal(qtbot, steps: Callable[[], None], kind: type = QDialog) -> list[BaseException]:  # type: ignore[no-untyped-def]
    """Run ``steps`` once a modal dialog of ``kind`` is up (polled, so that each dialog's own event loop can
    end); failures are collected and the dialog is closed."""
    errors: list[BaseException] = []
    timer = QTimer()
    timer.setInterval(10)

    def poll() -> None:
        modal = QApplication.activeModalWidget()
        if not isinstance(modal, kind):
            return
        timer.stop()
        try:
            modal.activateWindow()
            qtbot.waitUntil(lambda: QApplication.activeWindow() is modal)  # keys go where the user looks
            steps()
        except BaseException as exc:  # noqa: BLE001 - reported by the test after exec returns
            errors.append(exc)
            if isinstance(modal, BattleWizard):
                modal.ask_discard = lambda: True  # type: ignore[method-assign]
            modal.close()

    timer.timeout.connect(poll)
    timer.start()
    errors_holder.append(timer)  # keep the timer alive until the test ends
    return errors


errors_holder: list[QTimer] = []


def shown_item(win) -> tuple[str, int] | None:  # type: ignore[no-untyped-def]
    """What the main window shows, read as a person reads it: the item highlighted in the navigator, whose
    page is the one in view; None on the welcome page or the "pick something" page."""
    page = win.stack.currentWidget()
    if page is win.first_run or page is win.empty_page:
        return None
    item: tuple[str, int] | None = win.navigator.current()
    assert item is not None, "a page is shown with nothing highlighted in the navigator"
    assert page is win.page(item[0]), (item, page)
    return item
