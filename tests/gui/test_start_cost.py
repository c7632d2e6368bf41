"""What the window's start leaves out until it has painted: the ``Qt`` namespace's 93 Python enums (about 25 ms;
see ``campaign_app/gui/lazy_qt.py``; the settings made by key name instead take effect as the enums would) and
the garbage collector's rounds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6 import QtCore
from PySide6.QtWidgets import QLabel, QToolBar

from campaign_app.gui.lazy_qt import USER_ROLE, elide_middle, set_enum

START = """
import gc, json, sys
import PySide6.QtCore as QtCore
import campaign_app.app as app

seen = {}
usual = app.take_screenshot

def take(qapp, window, path):
    seen["navigator"] = [window.navigator.model.item(r).text() for r in range(window.navigator.model.rowCount())]
    seen["page"] = type(window.stack.currentWidget()).__name__
    seen["gc_before_paint"] = gc.isenabled()
    code = usual(qapp, window, path)
    seen["qt_enums_built"] = "Qt" in vars(QtCore)  # PySide6 adds the class to the module when it builds it
    return code

app.take_screenshot = take
code = app.main(["--data-dir", sys.argv[1], "--size", "1180x760", "--screenshot", sys.argv[2]])
seen["gc_after"] = gc.isenabled()
print(json.dumps(seen))
sys.exit(code)
"""


def _start(data: Path, shot: Path) -> dict[str, object]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(
        [sys.executable, "-c", START, str(data), str(shot)], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert shot.stat().st_size > 0
    seen: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return seen


def test_a_window_with_campaigns_paints_without_the_qt_namespace_enums(tmp_path: Path) -> None:
    data = tmp_path / "data"
    demo = subprocess.run(
        [sys.executable, "-m", "campaign_app.cli", "--data-dir", str(data), "demo"], capture_output=True, text=True
    )
    assert demo.returncode == 0, demo.stderr
    seen = _start(data, tmp_path / "shot.png")
    assert seen["navigator"] == ["Congo 1960 (sample)", "Hill 214 (sample)"]  # the user's data, painted
    assert seen["page"] == "PlaceholderPage"
    assert seen["qt_enums_built"] is False
    assert seen["gc_before_paint"] is False and seen["gc_after"] is True


def test_the_first_run_page_paints_without_the_qt_namespace_enums(tmp_path: Path) -> None:
    seen = _start(tmp_path / "new", tmp_path / "shot.png")
    assert seen["navigator"] == []
    assert seen["page"] == "FirstRunPage"
    assert seen["qt_enums_built"] is False


RUN = """
import gc, json, sys
from PySide6.QtWidgets import QApplication
import campaign_app.app as app

seen = {}
usual = app.finish_start

def finish(window):
    seen["gc_when_painted"] = gc.isenabled()  # off: the GUI thread's timer collects from now on
    seen["gui_thread_collects"] = len(app._collector) == 1
    seen["start_frozen"] = gc.get_freeze_count() > 1000  # what start-up made: out of the collector's rounds
    seen["exposed"] = window.windowHandle().isExposed()
    usual(window)
    QApplication.instance().quit()

app.finish_start = finish
code = app.main(["--data-dir", sys.argv[1]])
print(json.dumps(seen))
sys.exit(code)
"""


def test_once_painted_the_gui_thread_collects(tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(
        [sys.executable, "-c", RUN, str(tmp_path / "data")], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {
        "gc_when_painted": False,
        "gui_thread_collects": True,
        "start_frozen": True,
        "exposed": True,
    }


def test_set_enum_sets_the_property_as_the_enum_would(qapp: object) -> None:
    label = QLabel("x")
    set_enum(label, "alignment", "AlignHCenter|AlignTop")
    assert label.alignment() == QtCore.Qt.AlignmentFlag.AlignHCenter | QtCore.Qt.AlignmentFlag.AlignTop
    bar = QToolBar()
    set_enum(bar, "toolButtonStyle", "ToolButtonTextBesideIcon")
    assert bar.toolButtonStyle() == QtCore.Qt.ToolButtonStyle.ToolButtonTextBesideIcon
    assert QtCore.Qt.ItemDataRole.UserRole == USER_ROLE


def test_set_enum_refuses_a_misspelt_key_or_property(qapp: object) -> None:
    label = QLabel("x")
    with pytest.raises(ValueError, match="AlignCentre"):
        set_enum(label, "alignment", "AlignCentre")
    with pytest.raises(ValueError, match="alinement"):
        set_enum(label, "alinement", "AlignCenter")
    assert label.alignment() == QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter


def test_the_window_settings_made_by_name_took_effect(gui_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QKeySequence

    from campaign_app.gui.main_window import MainWindow

    window = MainWindow(gui_ctx)
    qtbot.addWidget(window)
    assert window.toolbar.toolButtonStyle() == QtCore.Qt.ToolButtonStyle.ToolButtonTextBesideIcon
    assert window.toolBarArea(window.toolbar) == QtCore.Qt.ToolBarArea.TopToolBarArea
    hint = window.empty_page.findChild(QLabel)
    assert hint is not None and hint.alignment() == QtCore.Qt.AlignmentFlag.AlignCenter
    assert window.navigator.proxy.filterCaseSensitivity() == QtCore.Qt.CaseSensitivity.CaseInsensitive
    assert window.act_find.shortcut() == QKeySequence(QKeySequence.StandardKey.Find)
    assert window.act_navigator.shortcut().toString() == "Ctrl+1"
    titles = [label for label in window.first_run.findChildren(QLabel) if "Welcome" in label.text()]
    assert titles and titles[0].alignment() == QtCore.Qt.AlignmentFlag.AlignCenter


def test_elide_middle_keeps_both_ends_and_as_much_as_fits(qapp: object) -> None:
    metrics = QLabel().fontMetrics()
    path = "/home/ana/.local/share/campaign_app/clubs/tuesday-night/campaign.db"
    assert elide_middle(metrics, path, 10_000) == path
    width = metrics.horizontalAdvance(path) // 2
    shown = elide_middle(metrics, path, width)
    head, _, tail = shown.partition("…")
    assert path.startswith(head) and path.endswith(tail) and head and tail
    assert metrics.horizontalAdvance(shown) <= width
    longer = path[: len(head) + 1] + "…" + tail  # one more character does not fit
    assert metrics.horizontalAdvance(longer) > width or len(head) + len(tail) + 1 >= len(path)
    qt_shown = metrics.elidedText(path, QtCore.Qt.TextElideMode.ElideMiddle, width)
    assert abs(len(shown) - len(qt_shown)) <= 2  # about what Qt's own eliding keeps
    assert elide_middle(metrics, path, 1) == "…"
