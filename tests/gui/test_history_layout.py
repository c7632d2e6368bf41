"""The History tab holds at 1024×700, 1180×760, 1280×800 and 2400×1400 in light and dark.

The main window is shown at each size and palette with a platoon's History tab open; on each of its tabs
(Timeline, Charts, Leaders' roll) the checks read the widgets and the charts' scene items: no label, button or
tab text is cut or elided, no visible widget sticks out of its parent (the charts' scroll area excepted, which
scrolls), every band name, axis title and legend entry is shown in full, count ticks are whole numbers, the
Leaders' roll shows several rows and the colours follow the palette."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QApplication,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QLabel,
    QTabBar,
    QWidget,
)

from campaign_app.app import apply_palette
from campaign_app.gui.history_view import CHARTS_TAB, LEADERS_TAB, TIMELINE_TAB, HistoryView
from campaign_app.gui.main_window import MainWindow
from campaign_app.rules.dice import SeededDice
from campaign_app.rules.experience import LEVELS
from campaign_app.services import battles
from campaign_app.store.journal import operation
from campaign_app.store.models import Campaign, Leader, Platoon

SIZES = ((1024, 700), (1180, 760), (1280, 800), (2400, 1400))
ELLIPSES = ("\u2026", "...")


@pytest.fixture
def platoons(fresh_db) -> dict[str, int]:
    with operation("test.setup", "test data"):
        c = Campaign.create(name="Congo 1960", system="atomic_africa")
    with operation("test.setup", "test data"):
        p = Platoon.create(
            campaign=c,
            name="2nd Platoon of the Long Name Regiment of the Northern Provinces (Reserve)",
            training=10,
            equipment=10,
            morale=8,
            armor=2,
            xp=6,
        )
    with operation("test.setup", "test data"):
        Leader.create(platoon=p, name="Lt. Okafor", xp=2, xp_at_join=2)
    for i in range(24):  # bars (up to 40 battles), several leaders lost
        battles.log_battle(
            p.id,
            wounds=(i * 5) % 11,
            leader_wounds=min((i * 3) % 9, (i * 5) % 11),
            objectives=i % 3,
            outcome=battles.OUTCOMES[i % 3],
            scenario=f"Scenario {i + 1}",
            dice=SeededDice(i),
            replacement_name=f"Lt. Number {i + 1}",
        )
    with operation("test.setup", "test data"):
        empty = Platoon.create(campaign=c, name="Fresh", training=6, equipment=6, morale=6, armor=1, xp=0)
    return {"long": p.id, "empty": empty.id}


@pytest.fixture
def palette_restored(qapp: QApplication) -> Iterator[None]:
    style, palette = qapp.style().name(), qapp.palette()
    yield
    qapp.setStyle(style)
    qapp.setPalette(palette)


def _history(window: MainWindow, pid: int) -> HistoryView:
    window.open_item("platoon", pid)
    page = window.stack.currentWidget()
    view = page.findChild(HistoryView)
    assert view is not None
    page.tabs.setCurrentWidget(view)
    return view


def _settle(qtbot: Any) -> None:
    QApplication.processEvents()
    qtbot.wait(20)
    QApplication.processEvents()


def _in_scroll_area(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    area = parent.parentWidget() if parent is not None else None
    return isinstance(area, QAbstractScrollArea) and area.viewport() is parent


def _problems(view: HistoryView, window: MainWindow) -> list[str]:
    problems: list[str] = []
    # the view itself is inside the window
    top_left = view.mapTo(window, view.rect().topLeft())
    if not window.rect().contains(QRectF(view.rect()).translated(top_left.x(), top_left.y()).toRect()):
        problems.append(
            f"the History tab ({view.width()}x{view.height()} at {top_left.toTuple()}) is cut "
            f"by the window {window.width()}x{window.height()}"
        )
    for widget in view.findChildren(QWidget):
        if not widget.isVisible() or widget.isWindow():
            continue
        parent = widget.parentWidget()
        if parent is not None and not _in_scroll_area(widget) and not parent.rect().contains(widget.geometry()):
            problems.append(
                f"{type(widget).__name__} {widget.objectName() or widget.accessibleName()!r} "
                f"{widget.geometry().getRect()} sticks out of {type(parent).__name__} "
                f"{parent.rect().getRect()}"
            )
        if isinstance(widget, QLabel) and widget.text():
            if widget.wordWrap():
                if widget.height() < widget.heightForWidth(widget.width()):
                    problems.append(
                        f"label {widget.text()[:40]!r} is cut ({widget.height()} px high, "
                        f"needs {widget.heightForWidth(widget.width())})"
                    )
            elif widget.width() < widget.minimumSizeHint().width():
                problems.append(f"label {widget.text()!r} is cut ({widget.width()} px wide)")
        if isinstance(widget, QAbstractButton) and widget.text() and widget.width() < widget.minimumSizeHint().width():
            problems.append(f"button {widget.text()!r} is cut ({widget.width()} px wide)")
        if isinstance(widget, QTabBar):
            for i in range(widget.count()):
                if widget.tabRect(i).width() < widget.tabSizeHint(i).width():
                    problems.append(f"tab {widget.tabText(i)!r} is cut")
    return problems


def _as_text_item(item: Any) -> QGraphicsTextItem | None:
    """QtCharts' own text items (title, axis labels and titles, legend) reach Python as plain QGraphicsItem:
    those of QGraphicsTextItem's type are re-wrapped through their QGraphicsObject (same address)."""
    if isinstance(item, QGraphicsTextItem):
        return item
    if item.type() != 8:  # QGraphicsTextItem::Type
        return None
    obj = item.toGraphicsObject()
    if obj is None:
        return None
    return shiboken6.wrapInstance(shiboken6.getCppPointer(obj)[0], QGraphicsTextItem)


def _chart_texts(chart_view: Any) -> list[tuple[str, QRectF]]:
    """Every text item shown in a chart's scene, with its place in the view."""
    texts = []
    for item in chart_view.scene().items():
        if not item.isVisible():
            continue
        text_item = _as_text_item(item)
        if text_item is not None:
            text = text_item.toPlainText()
        elif isinstance(item, QGraphicsSimpleTextItem):
            text = item.text()
        else:
            continue
        if text:
            texts.append((text, chart_view.mapFromScene(item.sceneBoundingRect()).boundingRect()))
    return texts


def _chart_problems(chart_view: Any, expected: list[str]) -> list[str]:
    problems = []
    texts = _chart_texts(chart_view)
    shown = [t for t, _ in texts]
    area = QRectF(chart_view.viewport().rect()).adjusted(-1, -1, 1, 1)
    for text, rect in texts:
        if any(e in text for e in ELLIPSES):
            problems.append(f"chart text elided: {text!r}")
        if not area.contains(QRectF(rect)):
            problems.append(f"chart text {text!r} outside the chart {rect.getRect()}")
    for name in expected:
        if name not in shown:
            problems.append(f"{name!r} not shown in {chart_view.chart().title()!r} (shown: {shown})")
    return problems


def _contrast(a: QColor, b: QColor) -> float:
    def lum(c: QColor) -> float:
        def ch(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("palette", ["light", "dark"])
def test_history_tab_holds_at_every_size(qtbot, qapp, gui_ctx, platoons, palette_restored, palette: str) -> None:
    apply_palette(qapp, palette)
    window = MainWindow(gui_ctx)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    view = _history(window, platoons["long"])
    for width, height in SIZES:
        window.resize(width, height)
        size = f"{width}x{height} {palette}"
        for tab in (TIMELINE_TAB, CHARTS_TAB, LEADERS_TAB):
            view.tabs.setCurrentIndex(tab)
            _settle(qtbot)
            assert window.size().toTuple() == (width, height), f"the window cannot be {size}"
            assert _problems(view, window) == [], f"{size}, tab {view.tabs.tabText(tab)}"
        view.tabs.setCurrentIndex(CHARTS_TAB)
        _settle(qtbot)
        xp, wounds = view.charts()
        assert (
            _chart_problems(
                xp,
                [
                    "XP over the battles",
                    "Battle",
                    "XP",
                    *LEVELS,
                    "Platoon XP",
                    "Leader XP",
                    "Leader lost",
                    "New leader",
                ],
            )
            == []
        ), size
        assert (
            _chart_problems(
                wounds,
                [
                    "Wound counters and XP lost per battle",
                    "Battle",
                    "Count",
                    "Wound counters",
                    "On the leader's element",
                    "XP lost",
                ],
            )
            == []
        ), size
        # band names do not overlap one another
        rects = [label.sceneBoundingRect() for label in xp.band_labels]
        assert all(not a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1 :]), size
        # the leaders' roll shows several rows
        view.tabs.setCurrentIndex(LEADERS_TAB)
        _settle(qtbot)
        row_height = view.leaders.rowHeight(0)
        assert view.leaders.viewport().height() >= 6 * row_height, size
    # colours follow the palette: chart background, timeline kind colours readable on the base colour
    base = view.palette().color(QPalette.ColorRole.Base)
    assert xp.chart().backgroundBrush().color() == base
    kind = view.model.index(0, view.model.KIND).data(0x0009)  # ForegroundRole
    assert _contrast(kind.color(), base) >= 3.0, kind.color().name()
    assert _contrast(xp.band_labels[0].brush().color(), base) >= 4.5


def test_counts_have_whole_ticks_even_without_battles(qtbot, qapp, gui_ctx, platoons) -> None:
    window = MainWindow(gui_ctx)
    qtbot.addWidget(window)
    window.resize(1180, 760)
    window.show()
    qtbot.waitExposed(window)
    view = _history(window, platoons["empty"])
    view.tabs.setCurrentIndex(CHARTS_TAB)
    _settle(qtbot)
    xp, wounds = view.charts()
    for chart in (xp, wounds):
        plot = chart.mapFromScene(chart.chart().mapToScene(chart.chart().plotArea())).boundingRect()
        texts = [(t, r) for t, r in _chart_texts(chart) if t.lstrip("-").isdigit()]
        y_labels = [t for t, r in texts if r.right() <= plot.left() + 2]
        x_labels = [t for t, r in texts if r.top() >= plot.bottom() - 2]
        for labels in (x_labels, y_labels):
            assert labels and len(labels) == len(set(labels)), labels  # no "0, 0, 1, 1, 2"
            assert all(int(t) >= 0 for t in labels)
    axis = wounds.y_axis
    assert axis.tickInterval() == int(axis.tickInterval()) >= 1
