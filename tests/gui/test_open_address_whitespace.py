"""The window's open paths read a server address with spaces around it as the CLI does (one ``is_server_url``):
``campaign-app --db " postgresql://..."`` reaches for the server, File ▸ Open recent with such an entry connects."""

from __future__ import annotations

import uuid
from typing import Any

from driving import in_modal
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from campaign_app.gui.main_window import MainWindow
from campaign_app.store import close_db, init_db

LEFT = Qt.MouseButton.LeftButton


def test_starting_with_a_spaced_server_address_reaches_for_the_server(qtbot, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from campaign_app import app

    monkeypatch.setattr(app, "install_exception_hook", lambda: None)
    monkeypatch.chdir(tmp_path)
    shown: list[str] = []

    def quit_() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        shown.append(box.text())
        button = next(b for b in box.buttons() if b.text().replace("&", "") == "Quit")
        assert isinstance(button, QPushButton)
        qtbot.mouseClick(button, LEFT)

    errors = in_modal(qtbot, quit_)
    data = tmp_path / "d"
    assert (
        app.main(
            [
                "--data-dir",
                str(data),
                "--db",
                " postgresql://ana@127.0.0.1:1/league\n",
                "--screenshot",
                str(tmp_path / "x.png"),
            ]
        )
        == 1
    )
    assert not errors, errors
    assert shown and shown[0].startswith("Cannot reach the campaign server ana@127.0.0.1:1/league")
    assert not (data / "campaign.db").exists()
    assert not any(p.suffix == ".db" or "postgres" in p.name for p in tmp_path.iterdir())


def test_open_recent_connects_to_a_spaced_server_address(qtbot, gui_ctx, pg_server: Any) -> None:  # type: ignore[no-untyped-def]
    url = pg_server.create_database(f"gui_{uuid.uuid4().hex[:10]}")
    init_db(url, gui_ctx.paths.backup_dir, daily_backup=False)  # a campaign database on the server
    init_db(gui_ctx.paths.db_file, gui_ctx.paths.backup_dir, daily_backup=False)  # the window starts on the file
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    try:
        assert win.open_recent(f"  {url} ") is True
        assert gui_ctx.server is not None and url.startswith("postgresql://")
        assert gui_ctx.server.dbname in url
        assert win.db_label.text().startswith("Club server: ")
    finally:
        win.close()  # stops listening to the server
        close_db()
