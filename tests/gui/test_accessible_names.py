"""Every input of every page and dialog has a name assistive technology can read, and the XP track reports
its value (XP and level). Names are read the way a screen reader reads them: through
QAccessible (an input's own accessible name, or the text of the label whose buddy it is)."""

from __future__ import annotations

from layout_checks import _bring_to_front, demo_scenes, show_scene, walk_dialogs
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QFileDialog,
    QHeaderView,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from campaign_app.gui.main_window import MainWindow
from campaign_app.gui.xp_track import XpTrack
from campaign_app.services.demo import create_demo


def spoken_name(widget: QWidget) -> str:
    interface = QAccessible.queryAccessibleInterface(widget)
    return str(interface.text(QAccessible.Text.Name) or "").strip() if interface is not None else ""


def unnamed_inputs(root: QWidget, where: str) -> list[str]:
    if isinstance(root, QFileDialog | QMessageBox):
        return []  # Qt's own dialogs
    problems = []
    for w in root.findChildren(QWidget):
        if not w.isVisible() or w.window() is not root.window():
            continue
        parent = w.parentWidget()
        if (
            isinstance(parent, QAbstractSpinBox | QComboBox)
            or w.objectName().startswith("qt_")
            or isinstance(w, QHeaderView)
        ):
            continue  # the inner line edit of a spin box or combo box (the box itself is checked)
        if isinstance(
            w, QLineEdit | QAbstractSpinBox | QComboBox | QPlainTextEdit | QTextEdit | XpTrack | QAbstractItemView
        ) and not spoken_name(w):
            hint = getattr(w, "placeholderText", lambda: "")()
            problems.append(f"{where}: {type(w).__name__} (placeholder {hint!r}) has no accessible name")
    return problems


def test_xp_track_reports_its_value(qtbot, congo_platoon, gui_ctx) -> None:
    from campaign_app.store.models import Platoon

    pid = congo_platoon()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    win.open_item("platoon", pid)
    track = win.page("platoon").platoon_track
    interface = QAccessible.queryAccessibleInterface(track)
    assert interface.role() == QAccessible.Role.Slider
    assert spoken_name(track) == "Platoon XP track"
    xp = Platoon.get_by_id(pid).xp
    assert interface.text(QAccessible.Text.Value) == f"{xp} XP, {track.level()}"


def test_every_input_of_every_page_and_dialog_has_a_name(qtbot, gui_ctx) -> None:
    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    win.refresh()
    problems: list[str] = []
    for label, target in demo_scenes():
        show_scene(win, target)
        page = win.stack.currentWidget()
        for tabs in page.findChildren(QTabWidget):  # every tab of the page
            for i in range(tabs.count()):
                _bring_to_front(tabs.widget(i))
                tabs.setCurrentIndex(i)
                problems += unnamed_inputs(win, f"{label} tab {tabs.tabText(i).replace('&', '')}")
        problems += unnamed_inputs(win, label)
    seen, dialog_problems = walk_dialogs(qtbot, win, demo_scenes(), unnamed_inputs)
    problems += dialog_problems
    assert len(seen) >= 15
    assert not problems, "\n".join(sorted(set(problems)))
