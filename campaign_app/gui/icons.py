"""The app's own icons (SVG files shipped in ``campaign_app/icons``)."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QIcon

from ..resources import app_icon_file, icons_dir


@cache
def icon(name: str) -> QIcon:
    """``icons/<name>.svg`` as a QIcon (an empty icon if the file is missing)."""
    path = icons_dir() / f"{name}.svg"
    return QIcon(str(path)) if path.is_file() else QIcon()


def app_icon() -> QIcon:
    return QIcon(str(app_icon_file()))
