"""Opening the data folder or a saved PDF where no program can open it says where the file is, and
xdg-open finding no program counts as not opened."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from campaign_app.gui.main_window import MainWindow

LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier


def window(qtbot, ctx) -> MainWindow:  # type: ignore[no-untyped-def]
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    return win


def answer_next_box(found: list[str], button: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok) -> None:
    def reply() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, reply)
            return
        found.append(box.text())
        box.button(button).click()

    QTimer.singleShot(0, reply)


def test_opening_the_data_folder_without_a_program_says_where_it_is(qtbot, gui_ctx, monkeypatch) -> None:
    from campaign_app.gui import file_dialogs

    monkeypatch.setattr(file_dialogs, "open_with_desktop", lambda _path: False)
    win = window(qtbot, gui_ctx)
    said: list[str] = []
    answer_next_box(said)
    win.act_data_folder.trigger()
    assert said and str(gui_ctx.paths.data_dir) in said[0] and "No program" in said[0]


def test_open_the_pdf_when_saved_without_a_viewer_says_where_it_is(qtbot, gui_ctx, monkeypatch, tmp_path) -> None:
    from campaign_app.gui import file_dialogs, print_dialog

    monkeypatch.setattr(file_dialogs, "open_with_desktop", lambda _path: False)
    said: list[str] = []
    answer_next_box(said)
    print_dialog.open_pdf_or_say(None, tmp_path / "cards.pdf")
    assert said and "cards.pdf" in said[0]


@pytest.mark.parametrize(("status", "opened"), [(0, True), (3, False)])
def test_xdg_open_without_a_program_counts_as_not_opened(monkeypatch, tmp_path, status: int, opened: bool) -> None:
    """Qt calls starting xdg-open a success even when xdg-open then finds no program (exit 3): the exit
    status is what counts."""
    import shutil
    import sys

    from campaign_app.gui import file_dialogs

    fake = tmp_path / "xdg-open"
    fake.write_text(f"#!/bin/sh\nexit {status}\n")
    fake.chmod(0o755)
    monkeypatch.setattr(shutil, "which", lambda name: str(fake) if name == "xdg-open" else None)
    monkeypatch.setattr(sys, "platform", "linux")
    assert file_dialogs.open_with_desktop(tmp_path) is opened
