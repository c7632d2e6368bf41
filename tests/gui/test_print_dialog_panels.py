"""The print dialog's option panel of every kind, at 1024×700 and 1280×800, light and dark: nothing clipped or
sticking out, no Alt+letter used twice in the dialog, and Tab starts at the chooser and the paper and
reaches the buttons. Set ``CAMPAIGN_APP_SCREENSHOTS=DIR`` to keep the PNGs (one per kind, size and
palette) and the focus chain of each kind (a text file) to look at."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from layout_checks import layout_problems, mnemonic_clashes
from PySide6.QtWidgets import QApplication, QWidget

from campaign_app.app import apply_palette
from campaign_app.gui.print_dialog import KINDS, PrintDialog
from campaign_app.services.demo import DEMO_PLATOON, create_demo
from campaign_app.store.models import Platoon

SIZES = [(1024, 700), (1280, 800)]


@pytest.fixture(params=["light", "dark"])
def palette(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    keep_palette, keep_style = qapp.palette(), qapp.style().name()
    apply_palette(qapp, request.param)
    yield request.param
    qapp.setStyle(keep_style)
    qapp.setPalette(keep_palette)


def _focus_chain(dialog: QWidget) -> list[str]:
    """The widgets Tab reaches, in order, by what a screen reader says (accessible name, else text)."""
    names: list[str] = []
    start = dialog.nextInFocusChain()
    widget = start
    while True:
        if widget.isVisibleTo(dialog) and widget.isEnabled() and widget.focusPolicy().value & 1:
            text = getattr(widget, "text", None)
            names.append(widget.accessibleName() or (text() if callable(text) else "") or type(widget).__name__)
        widget = widget.nextInFocusChain()
        if widget is start or widget is dialog:
            break
    return names


@pytest.mark.parametrize("size", SIZES, ids=["1024x700", "1280x800"])
def test_every_kind_holds_at_each_size(qtbot: Any, gui_ctx: Any, palette: str, size: tuple[int, int]) -> None:
    create_demo()
    pid = Platoon.get(Platoon.name == DEMO_PLATOON).id
    dialog = PrintDialog(gui_ctx, None, {"kind": "platoon", "id": pid})
    qtbot.addWidget(dialog)
    dialog.resize(*size)
    dialog.show()
    qtbot.waitExposed(dialog)
    folder = os.environ.get("CAMPAIGN_APP_SCREENSHOTS")
    problems: list[str] = []
    for index, (kind, label) in enumerate(KINDS):
        dialog.kind_combo.setCurrentIndex(index)
        qtbot.waitUntil(lambda: dialog.preview_pages() > 0 or bool(dialog._error), timeout=20000)
        qtbot.waitUntil(lambda: not dialog.progress.isVisible(), timeout=20000)
        QApplication.processEvents()
        where = f"{label} at {size[0]}x{size[1]} ({palette})"
        problems += [f"{where}: {p}" for p in layout_problems(dialog)]
        problems += [f"{where}: {p}" for p in mnemonic_clashes(dialog)]
        chain = _focus_chain(dialog)
        assert chain[0] == "What to print" and chain[1] == "Paper", where
        assert {"Cancel", "P&rint…", "&Save PDF…"} <= set(chain), where
        if folder:
            qtbot.wait(400)  # the preview renders its pages in the background
            name = f"print-{kind}-{size[0]}x{size[1]}-{palette}"
            Path(folder).mkdir(parents=True, exist_ok=True)
            dialog.grab().save(str(Path(folder) / f"{name}.png"))
            (Path(folder) / f"{name}.focus.txt").write_text("\n".join(chain) + "\n", encoding="utf-8")
    assert not problems, "\n".join(problems)
