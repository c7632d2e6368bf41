"""View ▸ Theme (System, Light, Dark) and View ▸ Text size (smaller, larger, normal), remembered in the window
settings; ``--palette`` chooses the theme for one run without changing the remembered one."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtGui import QFont

THEME_KEY = "view/theme"
TEXT_STEP_KEY = "view/text_step"
THEMES = (("system", "&System"), ("light", "&Light"), ("dark", "&Dark"))
TEXT_STEPS = range(-2, 5)
"""Text size steps of one point each around the desktop's own size: two smaller, four larger."""

_BASE_FONT: list[QFont] = []


def saved_theme(settings: QSettings) -> str:
    value = str(settings.value(THEME_KEY, "system") or "system")
    return value if value in dict(THEMES) else "system"


def saved_text_step(settings: QSettings) -> int:
    try:
        step = int(str(settings.value(TEXT_STEP_KEY, 0) or 0))
    except ValueError:  # a settings file edited by hand
        return 0
    return min(max(step, TEXT_STEPS[0]), TEXT_STEPS[-1])


def apply_theme(app: Any, theme: str) -> None:
    from ..app import apply_palette

    apply_palette(app, theme)


def apply_text_step(app: Any, step: int) -> None:
    """The app's font: the desktop's size plus ``step`` points (every window follows; fixed widths are
    measured again when a page or dialog is built)."""
    if not _BASE_FONT:
        _BASE_FONT.append(QFont(app.font()))
    font = QFont(_BASE_FONT[0])
    base = _BASE_FONT[0].pointSizeF()
    if base > 0:
        font.setPointSizeF(base + step)
    app.setFont(font)


def apply_saved_look(app: Any, settings: QSettings, palette: str | None = None) -> None:
    """At start: the remembered theme (or ``--palette`` for this run) and text size."""
    apply_theme(app, palette or saved_theme(settings))
    step = saved_text_step(settings)
    if step:
        apply_text_step(app, step)
