"""The GUI shows what the app refuses (a CampaignError) as a plain message, and lets a programming error
through to the exception hook instead of showing it as if the user had chosen something wrong (the print
dialog used to catch every ValueError)."""

from __future__ import annotations

import logging
import sys
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from campaign_app.app import install_exception_hook
from campaign_app.errors import Refused
from campaign_app.gui import print_dialog
from campaign_app.gui.print_dialog import PrintDialog
from campaign_app.rules.experience import RulesError
from campaign_app.services.printing import PrintDetails, PrintJob

TIMEOUT = 15000


def _open(qtbot: Any, gui_ctx: Any) -> PrintDialog:
    dialog = PrintDialog(gui_ctx, None, {})  # an empty database: blank unit sheets
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_a_bug_while_preparing_a_pdf_reaches_the_exception_hook(qtbot, gui_ctx, monkeypatch):
    def buggy(request: Any) -> PrintJob:
        raise ValueError("a bug in prepare")

    monkeypatch.setattr(print_dialog, "prepare", buggy)
    with qtbot.capture_exceptions() as caught:  # pytest-qt's stand-in for sys.excepthook
        dialog = _open(qtbot, gui_ctx)
        qtbot.waitUntil(lambda: bool(caught), timeout=TIMEOUT)
    assert [(kind, str(exc)) for kind, exc, _tb in caught] == [(ValueError, "a bug in prepare")]
    assert "a bug in prepare" not in dialog.message.text()


def test_a_bug_in_the_build_thread_reaches_the_exception_hook(qtbot, gui_ctx, monkeypatch):
    def build(_progress: Any) -> tuple[bytes, PrintDetails]:
        raise KeyError("a bug in a builder")

    monkeypatch.setattr(print_dialog, "prepare", lambda request: PrintJob(request.kind, build))
    with qtbot.capture_exceptions() as caught:
        dialog = _open(qtbot, gui_ctx)
        qtbot.waitUntil(lambda: bool(caught), timeout=TIMEOUT)
    assert [kind for kind, _exc, _tb in caught] == [KeyError]
    assert "internal error" in dialog.message.text() and "log file" in dialog.message.text()
    assert not dialog.save_button.isEnabled()


def test_a_refusal_in_the_build_thread_is_a_plain_message(qtbot, gui_ctx, monkeypatch):
    def build(_progress: Any) -> tuple[bytes, PrintDetails]:
        raise Refused("this card does not fit")

    monkeypatch.setattr(print_dialog, "prepare", lambda request: PrintJob(request.kind, build))
    with qtbot.capture_exceptions() as caught:
        dialog = _open(qtbot, gui_ctx)
        qtbot.waitUntil(lambda: dialog.message.text() == "this card does not fit", timeout=TIMEOUT)
        qtbot.waitUntil(lambda: not dialog.progress.isVisible(), timeout=TIMEOUT)  # the build is over
    assert caught == []
    assert not dialog.save_button.isEnabled()


def _shown_by_hook(exc: BaseException, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    install_exception_hook()
    shown: list[tuple[str, str]] = []

    def close_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            shown.append((box.windowTitle(), box.text() + "\n" + box.detailedText()))
            box.accept()

    QTimer.singleShot(0, close_box)
    try:
        raise exc
    except type(exc):
        sys.excepthook(*sys.exc_info())
    return shown


def test_the_hook_shows_any_campaign_error_as_a_refusal(qtbot, caplog, monkeypatch):
    """A rule's refusal (RulesError) that no page caught is one plain message, not a crash report: it is a
    CampaignError like a service's refusal (before, only ServiceError and DatabaseError were)."""
    with caplog.at_level(logging.WARNING):
        shown = _shown_by_hook(RulesError("Armor must be 1 to 5, not 9"), monkeypatch)
    assert shown == [("Cannot do that", "Armor must be 1 to 5, not 9\n\nThe window shows the stored values again.\n")]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_the_hook_shows_a_value_error_as_an_unexpected_error(qtbot, caplog, monkeypatch):
    with caplog.at_level(logging.ERROR):
        shown = _shown_by_hook(ValueError("invalid literal for int()"), monkeypatch)
    assert len(shown) == 1 and shown[0][0] == "Unexpected error"
    assert "Traceback" in shown[0][1]
    assert any("invalid literal" in r.getMessage() for r in caplog.records)
