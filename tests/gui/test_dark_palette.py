"""The dark palette keeps check boxes and radio buttons visible: Fusion draws their frame in the window colour
made darker and fills them with the Base colour, so the two must differ clearly (they did not: the boxes in
the print dialog's platoon list were invisible)."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from campaign_app.app import apply_palette


def test_dark_palette_check_box_frames_stand_out(qtbot) -> None:
    app = QApplication.instance()
    old_palette, old_style = app.palette(), app.style().name()
    try:
        apply_palette(app, "dark")
        pal = app.palette()
        outline = pal.color(QPalette.ColorRole.Window).darker(140)  # Fusion's outline colour
        base = pal.color(QPalette.ColorRole.Base)
        assert base.lightness() - outline.lightness() >= 20
        assert pal.color(QPalette.ColorRole.Text).lightness() - base.lightness() >= 120  # text still reads
    finally:
        app.setStyle(old_style)
        app.setPalette(old_palette)
