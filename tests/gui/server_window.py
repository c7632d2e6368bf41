"""The window a player opens on a club server, for the GUI tests that need one (their own server, behind a latency
proxy or not)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings

from campaign_app.gui.context import AppContext
from campaign_app.gui.main_window import MainWindow
from campaign_app.server_target import parse_server_url


def server_window(qtbot: Any, app_paths: Any, url: str) -> MainWindow:
    """A shown 1280x800 window on the server at ``url`` (its own settings file in the data folder)."""
    target, password = parse_server_url(url)
    ctx = AppContext(
        paths=app_paths, settings=QSettings(str(app_paths.data_dir / "window.ini"), QSettings.Format.IniFormat)
    )
    ctx.server, ctx.password = target, password
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    return win
