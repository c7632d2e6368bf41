"""Screens that hold: the main pages rendered at 1024×700, 1180×760, 1280×800 and 2400×1400 in the light and
the dark palette, checked from the widgets (tests/gui/layout_checks.py): no clipped label or button, no child
sticking out of its parent, no text field stretched across a large screen, no table squeezed to one row.

Set ``CAMPAIGN_APP_SCREENSHOTS=DIR`` to keep the PNGs (one per page, size and palette) to look at."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from layout_checks import demo_scenes, layout_problems, walk_dialogs
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTabWidget, QWidget

from campaign_app.app import apply_palette
from campaign_app.gui.main_window import MainWindow
from campaign_app.services.demo import DEMO_CAMPAIGN, DEMO_PLATOON, DEMO_SOLOGEAR, create_demo
from campaign_app.store.models import Campaign, Platoon, SologearSheet

SIZES = [(1024, 700), (1180, 760), (1280, 800), (2400, 1400)]
PALETTES = ["light", "dark"]


@pytest.fixture
def palette(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    keep_palette, keep_style = qapp.palette(), qapp.style().name()
    apply_palette(qapp, request.param)
    yield request.param
    qapp.setStyle(keep_style)
    qapp.setPalette(keep_palette)


def _save(widget: QWidget, name: str) -> None:
    folder = os.environ.get("CAMPAIGN_APP_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(folder) / f"{name}.png"))


def _settle(qtbot, win: QWidget) -> None:  # type: ignore[no-untyped-def]
    QApplication.processEvents()
    qtbot.wait(10)
    QApplication.processEvents()


def _targets() -> dict[str, tuple[str, int] | None]:
    return {
        "campaign": ("campaign", Campaign.get(Campaign.name == DEMO_CAMPAIGN).id),
        "sologear-campaign": ("campaign", Campaign.get(Campaign.name == DEMO_SOLOGEAR).id),
        "platoon": ("platoon", Platoon.get(Platoon.name == DEMO_PLATOON).id),
        "sologear": ("sheet", SologearSheet.select().first().id),
    }


def _tabs_except_history(win: MainWindow) -> list[tuple[QTabWidget, int]]:
    page = win.stack.currentWidget()
    return [
        (t, i)
        for t in page.findChildren(QTabWidget)
        if t.isVisible()
        for i in range(t.count())
        if t.tabText(i).replace("&", "") != "History"
    ]


@pytest.mark.parametrize("palette", PALETTES, indirect=True)
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_main_pages_hold_at_every_size(qtbot, gui_ctx, palette, size):
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    _settle(qtbot, win)
    label = f"{size[0]}x{size[1]}-{palette}"
    problems = [f"first-run page: {p}" for p in layout_problems(win)]
    _save(win, f"first-run-{label}")
    create_demo()
    win.refresh()
    for name, target in _targets().items():
        win.open_item(*target)
        _settle(qtbot, win)
        tabs = _tabs_except_history(win)
        if not tabs:
            problems += [f"{name}: {p}" for p in layout_problems(win)]
            _save(win, f"{name}-{label}")
        for tab_widget, index in tabs:  # the History tab is checked by its own tests
            tab_widget.setCurrentIndex(index)
            _settle(qtbot, win)
            tab = tab_widget.tabText(index).replace("&", "").replace(" ", "-").lower()
            problems += [f"{name} / {tab}: {p}" for p in layout_problems(win)]
            _save(win, f"{name}-{tab}-{label}")
        if tabs:
            tabs[0][0].setCurrentIndex(0)
    assert not problems, "\n".join(problems)


def test_xp_track_does_not_move_when_the_leader_name_changes(qtbot, gui_ctx):
    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    win.open_item("platoon", Platoon.get(Platoon.name == DEMO_PLATOON).id)
    page = win.page("platoon")
    _settle(qtbot, win)
    before = (
        page.leader_track.mapTo(page, page.leader_track.rect().topLeft()),
        page.platoon_track.mapTo(page, page.platoon_track.rect().topLeft()),
        page.leader_track.width(),
    )
    page.leader_name.setFocus()
    page.leader_name.selectAll()
    qtbot.keyClicks(page.leader_name, "Captain Alexandra Nwankwo-Delacroix")
    qtbot.keyClick(page.leader_name, Qt.Key.Key_Return)
    _settle(qtbot, win)
    assert page.detail.leader.name == "Captain Alexandra Nwankwo-Delacroix"
    after = (
        page.leader_track.mapTo(page, page.leader_track.rect().topLeft()),
        page.platoon_track.mapTo(page, page.platoon_track.rect().topLeft()),
        page.leader_track.width(),
    )
    assert after == before
    assert not layout_problems(win)


@pytest.mark.parametrize("size", [(1024, 700), (2400, 1400)], ids=["1024x700", "2400x1400"])
def test_editors_in_the_equipment_table_fit_their_cells(qtbot, gui_ctx, size):
    """Open each editor of a weapon row as a person does (select the cell, F2): the AP spin box shows "none"
    in full, the Targets and AP-vs pickers stay inside their own cell."""
    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    win.open_item("platoon", Platoon.get(Platoon.name == DEMO_PLATOON).id)
    page = win.page("platoon")
    page.equipment.add_button.click()  # a new weapon (AP none), its name editor open
    view = page.equipment.view
    qtbot.keyClick(view.focusWidget() or view, Qt.Key.Key_Escape)
    _settle(qtbot, win)
    row = view.model().rowCount() - 1
    for column in (1, 2):  # Targets, AP (AP vs is editable once the weapon has an AP value)
        view.scrollTo(view.model().index(row, column))
        view.setFocus()
        view.setCurrentIndex(view.model().index(row, column))
        qtbot.keyClick(view, Qt.Key.Key_F2)
        editor = QApplication.focusWidget()
        assert editor is not None and editor is not view and view.isAncestorOf(editor), column
        _settle(qtbot, win)
        problems = layout_problems(win)
        qtbot.keyClick(editor, Qt.Key.Key_Escape)
        assert not problems, "\n".join(problems)


def test_inline_errors_do_not_resize_dialogs(qtbot, gui_ctx):
    """Typing a name that is taken shows the problem under the field; the dialog keeps its size and the
    message is not cut. The same for the Sologear dialog's error after pressing OK with no pilot."""
    from PySide6.QtWidgets import QDialogButtonBox

    from campaign_app.gui.campaign_dialog import NewCampaignDialog
    from campaign_app.gui.sologear_dialogs import NewSologearDialog

    create_demo()
    dialog = NewCampaignDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    _settle(qtbot, dialog)
    size = dialog.size()
    qtbot.keyClicks(dialog.name_edit, DEMO_CAMPAIGN)
    _settle(qtbot, dialog)
    assert dialog.problem.isVisible() and dialog.problem.text()
    assert dialog.size() == size
    assert not layout_problems(dialog), layout_problems(dialog)

    sologear = NewSologearDialog(gui_ctx)
    qtbot.addWidget(sologear)
    sologear.show()
    qtbot.waitExposed(sologear)
    _settle(qtbot, sologear)
    size = sologear.size()
    ok = sologear.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)  # nothing filled in: refused with a message
    _settle(qtbot, sologear)
    assert sologear.error.isVisible() and sologear.error.text()
    assert sologear.size() == size
    assert not layout_problems(sologear), layout_problems(sologear)


SMALL_SCREEN = (1024, 700)


def dialog_layout_problems(dialog: QWidget, where: str) -> list[str]:
    from PySide6.QtWidgets import QFileDialog

    if isinstance(dialog, QFileDialog):
        return []  # Qt's own
    problems = [f"{where}: {p}" for p in layout_problems(dialog)]
    hint = dialog.minimumSizeHint()
    if hint.width() > SMALL_SCREEN[0] or hint.height() > SMALL_SCREEN[1] - 40:
        problems.append(
            f"{where}: needs {hint.width()}x{hint.height()}, more than a {SMALL_SCREEN[0]}x{SMALL_SCREEN[1]} screen"
        )
    _save(dialog, "dialog-" + "".join(c if c.isalnum() else "-" for c in where)[:90])
    return problems


@pytest.mark.parametrize("palette", PALETTES, indirect=True)
def test_every_dialog_holds(qtbot, gui_ctx, palette):
    """Every dialog the app opens (the keyboard walker's list), light and dark: nothing clipped, nothing
    sticking out, and it fits a 1024×700 screen."""
    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1180, 760)
    win.show()
    qtbot.waitExposed(win)
    seen, problems = walk_dialogs(qtbot, win, demo_scenes(), dialog_layout_problems)
    assert len(seen) >= 15
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", [(1024, 700), (1280, 800)], ids=["1024x700", "1280x800"])
def test_a_long_platoon_name_is_not_cut(qtbot, gui_ctx, size):
    """The page title (the platoon's name) shows in full at 1024×700."""
    from campaign_app.services import platoons as platoon_service

    create_demo()
    pid = Platoon.get(Platoon.name == DEMO_PLATOON).id
    platoon_service.rename_platoon(pid, "2nd Reconnaissance Platoon, Katanga", reason="test")
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    win.open_item("platoon", pid)
    _settle(qtbot, win)
    assert not layout_problems(win), layout_problems(win)


def test_the_checker_sees_what_a_person_sees(qtbot):
    """layout_problems itself: a squeezed label, a cut line edit, a child outside its parent, a stretched
    field, a combo too narrow for its item are each reported; a tidy form is not."""
    from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QLineEdit

    tidy = QWidget()
    qtbot.addWidget(tidy)
    form = QFormLayout(tidy)
    form.addRow("Name:", QLineEdit("Lt. Okafor", tidy))
    tidy.show()
    _settle(qtbot, tidy)
    assert layout_problems(tidy) == []

    bad = QWidget()
    qtbot.addWidget(bad)
    bad.resize(900, 300)
    label = QLabel("A label with rather more words than room", bad)
    label.setGeometry(0, 0, 60, 20)
    edit = QLineEdit("A value far too long for the tiny field it sits in", bad)
    edit.setGeometry(0, 30, 80, 24)
    outside = QLabel("x", bad)
    outside.setGeometry(880, 290, 40, 20)
    wide = QLineEdit(bad)
    wide.setGeometry(0, 60, 800, 24)
    combo = QComboBox(bad)
    combo.addItem("A long choice in a narrow combo box")
    combo.setGeometry(0, 100, 70, 24)
    bad.show()
    combo.setFocus()  # a field being typed into may scroll its text; the others must show it whole
    _settle(qtbot, bad)
    text = "\n".join(layout_problems(bad))
    assert "rather more words" in text and "(clipped)" in text
    assert "far too long" in text and "(cut)" in text
    assert "sticks out of" in text
    assert "800 px wide" in text
    assert "does not fit in 70 px" in text
