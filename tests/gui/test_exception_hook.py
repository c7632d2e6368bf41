from __future__ import annotations

import logging
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from campaign_app.app import install_exception_hook


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
