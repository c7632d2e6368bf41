"""Every window fits a 1024x700 screen (the Print dialog opened 1020x700 with Cancel, Print and Save
PDF below the screen's edge), and a window reopened tiny on a large screen grows back. The screen's size is
what QScreen.availableGeometry says; here it is set to the sizes of the report."""

from __future__ import annotations

import pytest
from layout_checks import check_dialog, demo_scenes, layout_problems, show_scene
from PySide6.QtCore import QByteArray, QRect
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QWidget

from campaign_app.gui.main_window import MainWindow
from campaign_app.gui.sizing import FRAME_ALLOWANCE
from campaign_app.services.demo import create_demo


@pytest.fixture
def screen_of(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def use(width: int, height: int) -> None:
        monkeypatch.setattr(QScreen, "availableGeometry", lambda _self: QRect(0, 0, width, height))

    return use


def test_print_dialog_and_its_buttons_fit_1024x700(qtbot, gui_ctx, screen_of) -> None:
    screen_of(1024, 700)
    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1024, 700)
    win.show()
    qtbot.waitExposed(win)
    win.refresh()
    seen: list[str] = []
    problems: list[str] = []

    def check(dialog: QWidget, where: str) -> list[str]:
        out = [f"{where}: {p}" for p in layout_problems(dialog)]
        if dialog.width() + FRAME_ALLOWANCE[0] > 1024 or dialog.height() + FRAME_ALLOWANCE[1] > 700:
            out.append(f"{where}: {dialog.width()}x{dialog.height()} with its frame is larger than 1024x700")
        for box in dialog.findChildren(QDialogButtonBox):
            for button in box.buttons():
                if not button.isVisible():
                    continue
                corner = button.mapTo(dialog, button.rect().bottomRight())
                if corner.y() > dialog.height() or corner.x() > dialog.width():
                    out.append(f"{where}: {button.text()!r} is outside the dialog")
        return out

    for label, target in demo_scenes():
        show_scene(win, target)
        check_dialog(qtbot, win.act_print.trigger, f"Print on the {label}", seen, problems, check)
    assert len(seen) == len(demo_scenes())
    assert not problems, "\n".join(problems)


def test_the_pages_fit_1024_wide(qtbot, gui_ctx, screen_of) -> None:
    """The main window's smallest width with each page shown (its navigator included) fits 1024."""
    screen_of(1024, 700)
    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1024, 700)
    win.show()
    qtbot.waitExposed(win)
    win.refresh()
    wide = []
    for label, target in demo_scenes():
        show_scene(win, target)
        page = win.stack.currentWidget()
        need = page.minimumSizeHint().width() + win.navigator.minimumSizeHint().width()
        if need > 1024 - FRAME_ALLOWANCE[0]:
            wide.append(f"{label}: needs {need} px")
    assert not wide, wide


def test_a_window_saved_tiny_reopens_at_a_usable_size(qtbot, gui_ctx, screen_of) -> None:
    screen_of(1920, 1080)
    first = MainWindow(gui_ctx)
    qtbot.addWidget(first)
    first.resize(842, 545)
    first.save_window_state()
    again = MainWindow(gui_ctx)
    qtbot.addWidget(again)
    assert (again.width(), again.height()) == (1180, 760)
    # and on a small screen a saved large window is made to fit
    screen_of(1024, 700)
    first.resize(1600, 1000)
    first.save_window_state()
    small = MainWindow(gui_ctx)
    qtbot.addWidget(small)
    assert small.width() <= 1024 - FRAME_ALLOWANCE[0] and small.height() <= 700 - FRAME_ALLOWANCE[1]
    assert isinstance(gui_ctx.settings.value("main_window/geometry"), QByteArray | bytes)
    QApplication.processEvents()


def test_the_leaders_roll_shows_every_column_at_1024(qtbot, gui_ctx, congo_platoon) -> None:
    """Found in the evening walk (and at 1180x760 in the report): the roll scrolled sideways, its XP columns
    out of sight. Long texts are short in the table ("battle 3", "casualty") and whole in their tips."""
    from PySide6.QtCore import Qt

    from campaign_app.rules.dice import TypedDice
    from campaign_app.services import battles

    pid = congo_platoon(leader_xp=0)
    battles.log_battle(
        pid, wounds=2, leader_wounds=2, dice=TypedDice([[1], [1, 1], [1, 1], [3, 4]]), replacement_name="Mbeki"
    )
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1024, 700)
    win.show()
    qtbot.waitExposed(win)
    win.open_item("platoon", pid)
    page = win.page("platoon")
    from campaign_app.gui.history_view import HistoryView

    view = page.findChildren(HistoryView)[0]
    from layout_checks import _bring_to_front

    _bring_to_front(view)
    view.tabs.setCurrentWidget(view.leaders)
    qtbot.waitUntil(lambda: view.leaders.isVisible() and view.leaders_model.rowCount() == 2)
    QApplication.processEvents()
    assert not view.leaders.horizontalScrollBar().isVisible()
    assert not layout_problems(win), layout_problems(win)
    index = view.leaders_model.index(0, 4)
    assert view.leaders_model.data(index) == "casualty"
    assert "killed" in view.leaders_model.data(index, Qt.ItemDataRole.ToolTipRole)
