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
from tests.ids import campaign_id

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


def refused(dialog: Any) -> bool:
    """The dialog says why this cannot be printed: a message, and Save and Print greyed out."""
    return bool(dialog.message.text()) and not dialog.save_button.isEnabled()


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
        qtbot.waitUntil(lambda: dialog.preview_pages() > 0 or refused(dialog), timeout=20000)
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


def test_sologear_forms_offer_pilots_only(qtbot: Any, gui_ctx: Any) -> None:
    """A d12 Death Blow fighter is not a Sologear campaign: with only fighters stored, the Sologear panel
    offers blank forms, and the Save button prints them."""
    from campaign_app.services import campaigns, death_blow

    campaigns.create_campaign("Pit", system="death_blow")
    death_blow.create_fighter(campaign_id("Pit"), "Kenji")
    dialog = PrintDialog(gui_ctx, None, {})
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("sologear"))
    assert dialog.sologear.sologear_combo.count() == 0
    assert dialog.sologear.sologear_blank.isChecked() and not dialog.sologear.sologear_blank.isEnabled()
    assert dialog.suggested_name() == "Sologear forms (blank).pdf"
    qtbot.waitUntil(lambda: dialog.preview_pages() > 0 and not dialog.progress.isVisible(), timeout=20000)
    assert dialog.save_button.isEnabled()


def test_each_panel_is_reached_from_the_keyboard(qtbot: Any, gui_ctx: Any) -> None:
    """Alt+P picks the kind with the arrow keys, and each panel's Alt+letters reach its own fields."""
    from driving import focused
    from PySide6.QtCore import Qt

    create_demo()
    pid = Platoon.get(Platoon.name == DEMO_PLATOON).id
    dialog = PrintDialog(gui_ctx, None, {"kind": "platoon", "id": pid})
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)
    alt = Qt.KeyboardModifier.AltModifier

    def choose(kind: str) -> None:
        qtbot.keyClick(focused(), Qt.Key.Key_P, alt)
        assert focused() is dialog.kind_combo
        qtbot.keyClick(focused(), Qt.Key.Key_Home)
        for _ in range([k for k, _label in KINDS].index(kind)):
            qtbot.keyClick(focused(), Qt.Key.Key_Down)
        assert dialog.kind() == kind and dialog.pages.currentWidget() is dialog.panels[kind]

    reached = {
        "cards": [
            (Qt.Key.Key_Z, dialog.cards.size_combo),
            (Qt.Key.Key_B, dialog.cards.layout_combo),
            (Qt.Key.Key_U, dialog.cards.rules_combo),
            (Qt.Key.Key_Y, dialog.cards.back_style_combo),
            (Qt.Key.Key_M, dialog.cards.margin_spin),
            (Qt.Key.Key_L, dialog.cards.bleed_spin),
            (Qt.Key.Key_F, dialog.cards.offset_x_spin),
        ],
        "sologear": [(Qt.Key.Key_C, dialog.sologear.sologear_combo)],
        "history": [(Qt.Key.Key_L, dialog.history.history_combo)],
        "standings": [(Qt.Key.Key_M, dialog.standings.campaign_combo)],
        "chronicle": [(Qt.Key.Key_M, dialog.chronicle.campaign_combo)],
    }
    for kind, keys in reached.items():
        choose(kind)
        for key, widget in keys:
            qtbot.keyClick(focused(), key, alt)
            assert focused() is widget, (kind, key)
        qtbot.keyClick(focused(), Qt.Key.Key_A, alt)
        assert focused() is dialog.paper_combo
    choose("sheet")
    qtbot.keyClick(focused(), Qt.Key.Key_C, alt)  # "Only what changed since the last print"
    qtbot.waitUntil(lambda: dialog.unit_sheet.changed_label.text() != "")
