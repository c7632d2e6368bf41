from __future__ import annotations

import logging
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from campaign_app.app import install_exception_hook
from campaign_app.gui.feed import EVERYTHING
from campaign_app.services.journal import OpChanges


def test_uncaught_exception_is_logged_and_shown(qtbot, caplog, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    install_exception_hook()
    shown: list[str] = []

    def close_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            shown.append(box.text() + "\n" + box.detailedText())
            box.accept()

    QTimer.singleShot(0, close_box)
    try:
        raise RuntimeError("boom in a slot")
    except RuntimeError:
        with caplog.at_level(logging.ERROR):
            sys.excepthook(*sys.exc_info())
    assert shown and "boom in a slot" in shown[0]
    assert "Traceback" in shown[0]
    assert any("boom in a slot" in r.getMessage() for r in caplog.records)


def test_a_view_failing_while_the_windows_reload_is_logged_not_handled_again(qtbot, caplog, monkeypatch, app_paths):
    """After an error every window reloads; a view whose reload raises (in a slot, so it comes back to the
    hook) is logged once per reload, not handled again: no endless reload-fail-reload."""
    from PySide6.QtWidgets import QWidget

    from campaign_app.gui.context import AppContext

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    install_exception_hook()
    window = QWidget()
    qtbot.addWidget(window)
    window.ctx = AppContext(paths=app_paths)  # type: ignore[attr-defined]
    reloads: list[str] = []

    def broken_reload(changes: OpChanges) -> None:
        reloads.append(changes.kind)
        raise RuntimeError("the view cannot reload")

    window.ctx.signals.op_changed.connect(broken_reload)  # type: ignore[attr-defined]
    window.show()
    shown: list[str] = []

    def close_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            shown.append(box.text())
            box.accept()

    QTimer.singleShot(0, close_box)
    try:
        raise RuntimeError("boom in a slot")
    except RuntimeError:
        with caplog.at_level(logging.ERROR):
            sys.excepthook(*sys.exc_info())
    assert reloads == [EVERYTHING]
    assert shown and "boom in a slot" in shown[0]
    assert any("the view cannot reload" in r.getMessage() for r in caplog.records)
