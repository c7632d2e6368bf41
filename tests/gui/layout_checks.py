"""Reusable checks of what a person sees in a window, read from the widgets themselves.

Keyboard: :func:`mnemonic_clashes` finds two visible Alt+letter mnemonics with the same letter in one window
(menu bar titles, buttons, check boxes, labels with a buddy, tabs, checkable group boxes) and in each menu;
:func:`walk_mnemonic_clashes` does so for every tab of every tab widget too, and for every page of a wizard.

Layout: :func:`layout_problems` lists visible labels and buttons too narrow or too short for their text (Qt
clips them, a person sees "…" or half a word), combo boxes too narrow for the chosen item, child widgets
that stick out of their parent's rectangle, text fields stretched past :data:`MAX_FIELD_WIDTH`, and tables
squeezed to fewer than two rows while they have more. Each problem is one readable line naming the widget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from PySide6 import QtGui
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPushButton,
    QScrollArea,
    QScrollBar,
    QStyle,
    QStyleOptionComboBox,
    QTabBar,
    QTableView,
    QTabWidget,
    QToolButton,
    QWidget,
    QWizard,
)

MAX_FIELD_WIDTH = 720
"""A one-line text field (line edit, combo box, spin box) wider than this is stretched, not sized."""

TOLERANCE = 1


def describe(w: QWidget) -> str:
    text = ""
    if isinstance(w, QLabel | QAbstractButton):
        text = w.text()
    elif isinstance(w, QGroupBox):
        text = w.title()
    name = w.accessibleName() or w.objectName()
    bits = [type(w).__name__]
    if text:
        bits.append(repr(text[:60]))
    if name:
        bits.append(f"[{name}]")
    return " ".join(bits)


# --- mnemonics -------------------------------------------------------------------------------------------------


def mnemonic(text: str) -> str | None:
    """The letter after a single ``&`` (``&&`` is a literal ampersand), lower case: the app's own reading."""
    from campaign_app.gui.help_dialogs import mnemonic_of

    return mnemonic_of(text)


def window_mnemonics(
    window: QWidget, page: QWidget | None = None, exclude: list[QWidget] | tuple[()] = ()
) -> list[tuple[str, str]]:
    """(letter, what) for every mnemonic a person can reach with Alt in ``window`` as it is shown now.
    ``page``: count widgets inside it that are visible within it (a wizard page that is not current);
    widgets inside ``exclude`` (the wizard's other pages) are not counted."""
    found: list[tuple[str, str]] = []
    if isinstance(window, QMainWindow) and window.menuBar().isVisible():
        for action in window.menuBar().actions():
            letter = mnemonic(action.text())
            if letter and action.isVisible():
                found.append((letter, f"menu {action.text()!r}"))
    widgets = window.findChildren(QWidget)
    for w in widgets:
        if w.window() is not window or any(e is w or e.isAncestorOf(w) for e in exclude):
            continue
        if page is not None and page.isAncestorOf(w):
            if not w.isVisibleTo(page):
                continue
        elif not w.isVisible():
            continue
        if isinstance(w, QToolButton) and w.defaultAction() is not None:
            continue  # toolbar buttons show the action's icon text, which has no mnemonic
        if isinstance(w, QAbstractButton):
            letter = mnemonic(w.text())
            if letter:
                found.append((letter, describe(w)))
        elif isinstance(w, QLabel):
            plain = w.textFormat() != Qt.TextFormat.RichText and not QtGui.Qt.mightBeRichText(w.text())
            if w.buddy() is not None and plain:
                letter = mnemonic(w.text())
                if letter:
                    found.append((letter, describe(w)))
        elif isinstance(w, QGroupBox) and w.isCheckable():
            letter = mnemonic(w.title())
            if letter:
                found.append((letter, describe(w)))
        elif isinstance(w, QTabBar):
            for i in range(w.count()):
                letter = mnemonic(w.tabText(i))
                if letter and w.isTabVisible(i):
                    found.append((letter, f"tab {w.tabText(i)!r}"))
    return found


def _clashes(found: list[tuple[str, str]], where: str) -> list[str]:
    by_letter: dict[str, list[str]] = {}
    for letter, what in found:
        by_letter.setdefault(letter, []).append(what)
    return [
        f"{where}: Alt+{letter.upper()} is on {' and '.join(whats)}"
        for letter, whats in sorted(by_letter.items())
        if len(whats) > 1
    ]


def menu_clashes(menu: QMenu, where: str) -> list[str]:
    found = [
        (mnemonic(a.text()), f"{a.text()!r}")
        for a in menu.actions()
        if a.isVisible() and not a.isSeparator() and mnemonic(a.text())
    ]
    problems = _clashes([(str(k), v) for k, v in found], f"{where} menu {menu.title()!r}")
    for action in menu.actions():
        if action.menu() is not None:
            problems += menu_clashes(action.menu(), f"{where} menu {menu.title()!r}")
    return problems


def mnemonic_clashes(window: QWidget, where: str = "") -> list[str]:
    """Clashes in ``window`` as it is shown now (menu bar titles included; the menus themselves are checked
    by :func:`menu_clashes`)."""
    where = where or window.windowTitle() or type(window).__name__
    problems: list[str] = []
    if isinstance(window, QWizard):
        for page_id in window.pageIds():
            page = window.page(page_id)
            others = [window.page(i) for i in window.pageIds() if i != page_id]
            found = window_mnemonics(window, page, exclude=others)
            problems += _clashes(found, f"{where} page {page.title() or page_id!r}")
        return problems
    problems += _clashes(window_mnemonics(window), where)
    return problems


def _visible_tab_widgets(window: QWidget) -> list[QTabWidget]:
    return [t for t in window.findChildren(QTabWidget) if t.isVisible() and t.window() is window]


def walk_mnemonic_clashes(window: QWidget, where: str = "") -> list[str]:
    """:func:`mnemonic_clashes` for every combination of tabs a person can reach (each tab of each visible
    tab widget, tabs inside tabs too); the tabs are put back as they were."""
    where = where or window.windowTitle() or type(window).__name__
    problems: list[str] = []
    seen: set[str] = set()

    def visit(label: str, done: frozenset[int]) -> None:
        for p in mnemonic_clashes(window, label):
            if p not in seen:
                seen.add(p)
                problems.append(p)
        for tabs in _visible_tab_widgets(window):
            if id(tabs) in done:
                continue
            keep = tabs.currentIndex()
            for i in range(tabs.count()):
                if i == keep or not tabs.isTabEnabled(i):
                    continue
                tabs.setCurrentIndex(i)
                QApplication.processEvents()
                visit(f"{label} / tab {tabs.tabText(i).replace('&', '')!r}", done | {id(tabs)})
            tabs.setCurrentIndex(keep)
            QApplication.processEvents()

    visit(where, frozenset())
    return problems


# --- layout --------------------------------------------------------------------------------------------------


def _inside_viewport(w: QWidget) -> bool:
    """A widget placed in a scroll area's or an item view's viewport: it may be scrolled out of sight."""
    p = w.parentWidget()
    while p is not None:
        gp = p.parentWidget()
        if isinstance(gp, QAbstractScrollArea) and gp.viewport() is p:
            return True
        p = gp
    return False


def _qt_internal(w: QWidget) -> bool:
    """Parts of Qt's own compound widgets (a spin box's line edit, a tab bar's scroll buttons, ...)."""
    if w.objectName().startswith("qt_"):
        return True
    p = w.parentWidget()
    return isinstance(p, QAbstractSpinBox | QComboBox | QTabBar | QScrollBar | QAbstractScrollArea)


def _combo_text_fits(combo: QComboBox) -> bool:
    if combo.isEditable() or not combo.currentText():
        return True
    opt = QStyleOptionComboBox()
    opt.initFrom(combo)
    opt.currentText = combo.currentText()
    field = combo.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, combo
    )
    return combo.fontMetrics().horizontalAdvance(combo.currentText()) <= field.width() + 2


def _visible_rows(view: QAbstractItemView) -> int:
    model = view.model()
    if model is None or model.rowCount() == 0:
        return 0
    first = view.indexAt(view.viewport().rect().topLeft())
    height = view.sizeHintForRow(0) if hasattr(view, "sizeHintForRow") else 20
    return max(0, view.viewport().height() // max(1, height)) if first.isValid() else 0


def _table_problems(table: QTableView, max_rows: int = 40) -> list[str]:
    problems: list[str] = []
    model = table.model()
    header = table.horizontalHeader()
    metrics = header.fontMetrics()
    cell_metrics = table.fontMetrics()
    for col in range(model.columnCount()):
        if table.isColumnHidden(col):
            continue
        title = str(model.headerData(col, Qt.Orientation.Horizontal) or "")
        if header.isVisible() and title and header.sectionSize(col) < metrics.horizontalAdvance(title) + 6:
            problems.append(
                f"{describe(table)}: column {title!r} is {header.sectionSize(col)} px, its title needs "
                f"{metrics.horizontalAdvance(title) + 6}"
            )
        for row in range(min(model.rowCount(), max_rows)):
            index = model.index(row, col)
            text = index.data(Qt.ItemDataRole.DisplayRole)
            if text is None or table.indexWidget(index) is not None:
                continue
            text = str(text)
            rect = table.visualRect(index)
            if rect.isValid() and "\n" not in text and rect.width() < cell_metrics.horizontalAdvance(text) + 6:
                problems.append(f"{describe(table)}: cell {text!r} (row {row + 1}, {title!r}) cut to {rect.width()} px")
    return problems


def _widgets(root: QWidget) -> Iterator[QWidget]:
    for w in root.findChildren(QWidget):
        if w.isVisible() and w.window() is root.window():
            yield w


def _in_layout(layout: Any, w: QWidget) -> bool:
    """``w`` is one of the items of ``layout`` or of a layout nested in it."""
    if layout is None:
        return False
    for i in range(layout.count()):
        item = layout.itemAt(i)
        if item is None:
            continue
        if item.widget() is w:
            return True
        if item.layout() is not None and _in_layout(item.layout(), w):
            return True
    return False


def _managed_elsewhere(w: QWidget, parent: QWidget) -> bool:
    """Children that Qt places itself (a main window's bars and central widget, a tool bar's buttons, a
    status bar's widgets, a splitter's panes, a stacked widget's pages, a group box's or tab's own parts)."""
    from PySide6.QtWidgets import QSplitter, QSplitterHandle, QStackedWidget, QStatusBar, QToolBar

    return (
        isinstance(parent, QMainWindow | QToolBar | QStatusBar | QSplitter | QStackedWidget | QMenu)
        or isinstance(w, QSplitterHandle | QMenu)
        or w.objectName().startswith("qt_")
    )


def placement_problems(root: QWidget) -> list[str]:
    """A visible child drawn outside its parent's layout (it sits at the parent's top-left corner, over the
    first fields: an error label nobody put into the layout) or overlapping a sibling."""
    problems: list[str] = []
    for w in _widgets(root):
        parent = w.parentWidget()
        if parent is None or w.isWindow() or _qt_internal(w) or _inside_viewport(w):
            continue
        if _managed_elsewhere(w, parent) or parent.layout() is None:
            continue
        if not _in_layout(parent.layout(), w):
            problems.append(
                f"{describe(w)} is in no layout of {describe(parent)} (drawn at {w.geometry().x()},{w.geometry().y()})"
            )
    for parent in [root, *root.findChildren(QWidget)]:
        if (
            not parent.isVisible()
            or parent.layout() is None
            or _qt_internal(parent)
            or _managed_elsewhere(parent, parent.parentWidget() or parent)
        ):
            continue
        kids = [
            c
            for c in parent.children()
            if isinstance(c, QWidget)
            and c.isVisible()
            and not c.isWindow()
            and not _qt_internal(c)
            and _in_layout(parent.layout(), c)
        ]
        for i, a in enumerate(kids):
            for b in kids[i + 1 :]:
                overlap = a.geometry().intersected(b.geometry())
                if overlap.width() > 2 and overlap.height() > 2:
                    problems.append(f"{describe(a)} overlaps {describe(b)} in {describe(parent)}")
    return problems


def layout_problems(root: QWidget) -> list[str]:
    """What is wrong with the layout of ``root`` (a window or a page) as it is shown now."""
    problems: list[str] = placement_problems(root)
    for w in _widgets(root):
        internal = _qt_internal(w)
        if isinstance(w, QLabel) and not internal and w.text():
            hint = w.minimumSizeHint() if w.wordWrap() else w.sizeHint()
            if w.wordWrap():
                need_h = w.heightForWidth(w.width())
                if need_h > w.height() + TOLERANCE:
                    problems.append(f"{describe(w)}: text needs {need_h} px of height, has {w.height()}")
            elif w.width() + TOLERANCE < hint.width() and w.pixmap().isNull():
                problems.append(f"{describe(w)}: text needs {hint.width()} px, has {w.width()} (clipped)")
            if not w.wordWrap() and w.height() + TOLERANCE < hint.height():
                problems.append(f"{describe(w)}: text needs {hint.height()} px of height, has {w.height()}")
        elif isinstance(w, QAbstractButton) and not internal and w.text() and not isinstance(w, QToolButton):
            hint = w.sizeHint()
            if w.width() + TOLERANCE < hint.width():
                problems.append(f"{describe(w)}: needs {hint.width()} px, has {w.width()} (text clipped)")
            elif isinstance(w, QPushButton) and w.width() > max(3 * hint.width(), 400):
                problems.append(f"{describe(w)}: a button stretched to {w.width()} px (its text needs {hint.width()})")
        elif isinstance(w, QComboBox) and not internal and not _combo_text_fits(w):
            problems.append(f"{describe(w)}: {w.currentText()!r} does not fit in {w.width()} px")
        if isinstance(w, QLineEdit) and not internal and w.text() and not w.hasFocus():
            room = w.contentsRect().width() - w.textMargins().left() - w.textMargins().right() - 4
            need = w.fontMetrics().horizontalAdvance(w.text())
            if need > room:
                problems.append(f"{describe(w)}: {w.text()!r} needs {need} px, shows {room} (cut)")
        if isinstance(w, QLineEdit | QComboBox | QAbstractSpinBox) and not internal and w.width() > MAX_FIELD_WIDTH:
            problems.append(f"{describe(w)}: a one-line field {w.width()} px wide (at most {MAX_FIELD_WIDTH})")
        if (
            isinstance(w, QAbstractItemView)
            and not internal
            and w.model() is not None
            and w.model().rowCount() > 2
            and 0 < _visible_rows(w) < 2
        ):
            problems.append(f"{describe(w)}: shows {_visible_rows(w)} of {w.model().rowCount()} rows")
        parent = w.parentWidget()
        if parent is None or w.isWindow() or internal or _inside_viewport(w):
            continue
        g = w.geometry()
        r = parent.rect()
        if (
            g.left() < r.left() - TOLERANCE
            or g.top() < r.top() - TOLERANCE
            or g.right() > r.right() + TOLERANCE
            or g.bottom() > r.bottom() + TOLERANCE
        ):
            problems.append(
                f"{describe(w)} at {g.x()},{g.y()} {g.width()}x{g.height()} sticks out of "
                f"{describe(parent)} {r.width()}x{r.height()}"
            )
    # a page that scrolls sideways does not fit its window
    for area in root.findChildren(QScrollArea):
        if area.isVisible() and area.widgetResizable() and area.horizontalScrollBar().isVisible():
            problems.append(
                f"{describe(area)} scrolls sideways: its page needs "
                f"{area.widget().minimumSizeHint().width()} px, has {area.viewport().width()}"
            )
    # table headers and cells cut ("…") by a column too narrow for them
    for table in root.findChildren(QTableView):
        if table.isVisible() and table.model() is not None:
            problems += _table_problems(table)
    # an open editor inside an item view must fit its cell's view and be wide enough for its content
    for view in root.findChildren(QAbstractItemView):
        if not view.isVisible():
            continue
        for editor in view.viewport().findChildren(QWidget):
            if not editor.isVisible() or editor.parentWidget() is not view.viewport():
                continue
            if isinstance(editor, QComboBox) and not _combo_text_fits(editor):
                problems.append(
                    f"editor {describe(editor)} in {describe(view)}: {editor.currentText()!r} "
                    f"does not fit in {editor.width()} px"
                )
            cell = view.visualRect(view.currentIndex())
            if cell.isValid() and not cell.adjusted(-2, -2, 2, 2).contains(editor.geometry()):
                g = editor.geometry()
                problems.append(
                    f"editor {describe(editor)} in {describe(view)} at {g.x()},{g.y()} {g.width()}x"
                    f"{g.height()} covers the cells beside its own ({cell.width()}x{cell.height()})"
                )
            if editor.width() + TOLERANCE < editor.minimumSizeHint().width():
                problems.append(
                    f"editor {describe(editor)} in {describe(view)}: {editor.width()} px wide, "
                    f"needs {editor.minimumSizeHint().width()}"
                )
    return problems


# --- walking the app -----------------------------------------------------------------------------------------


def demo_scenes() -> list[tuple[str, tuple[str, int] | None]]:
    """The main window's pages for the sample campaigns (``create_demo``): (label, (kind, id) or None)."""
    from campaign_app.services.demo import DEMO_CAMPAIGN, DEMO_PLATOON, DEMO_SOLOGEAR
    from campaign_app.store.models import Campaign, Platoon, SologearSheet

    return [
        ("empty page", None),
        ("campaign page (Atomic Africa)", ("campaign", Campaign.get(Campaign.name == DEMO_CAMPAIGN).id)),
        ("campaign page (Sologear)", ("campaign", Campaign.get(Campaign.name == DEMO_SOLOGEAR).id)),
        ("platoon page", ("platoon", Platoon.get(Platoon.name == DEMO_PLATOON).id)),
        ("Sologear page", ("sheet", SologearSheet.select().first().id)),
    ]


def show_scene(win: Any, target: tuple[str, int] | None) -> None:
    if target is None:
        win._current = None  # no command goes back to the empty page (a person sees it at start)
        win.stack.setCurrentWidget(win.empty_page)
    else:
        win.open_item(*target)
    QApplication.processEvents()


def check_dialog(
    qtbot: Any,
    opener: Callable[[], object],
    where: str,
    seen: list[str],
    problems: list[str],
    check: Callable[[QWidget, str], list[str]],
) -> None:
    """Run ``opener`` (a click or an action, as a person does it), ``check`` the dialog it opens, close it."""
    found: list[QWidget] = []
    tries = [0]

    def inspect() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            visible = [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]
            dialog = visible[0] if visible else None
        if dialog is None:
            tries[0] += 1
            if tries[0] < 100:
                QTimer.singleShot(20, inspect)
            return
        found.append(dialog)
        title = dialog.windowTitle() or type(dialog).__name__
        seen.append(f"{where}: {title}")
        # on a real X server the window manager maps and sizes the window a moment later: let every layout
        # place its widgets before they are measured (else children still sit where they were made)
        for layout in [dialog.layout(), *(w.layout() for w in dialog.findChildren(QWidget))]:
            if layout is not None:
                layout.activate()
        for _ in range(3):
            QApplication.processEvents()
        found_now = check(dialog, f"{where}: {title}")
        if found_now:  # a real window manager may still be sizing the window: measure again once it settled
            import time

            for _ in range(10):
                QApplication.processEvents()
                time.sleep(0.02)
            found_now = check(dialog, f"{where}: {title}")
        problems.extend(found_now)
        if isinstance(dialog, QDialog):
            dialog.done(QDialog.DialogCode.Rejected)
        else:
            dialog.close()

    QTimer.singleShot(0, inspect)
    opener()
    qtbot.waitUntil(lambda: bool(found) or tries[0] >= 100, timeout=5000)
    QApplication.processEvents()


def _dialog_buttons(page: QWidget) -> list[QPushButton]:
    """Buttons that open a dialog (their text ends in "…"), on every tab of the page."""
    return [b for b in page.findChildren(QPushButton) if b.text().endswith("\u2026")]


def _bring_to_front(widget: QWidget) -> None:
    """Make every tab that holds ``widget`` the current one."""
    child: QWidget | None = widget
    while child is not None:
        parent = child.parentWidget()
        if parent is not None and parent.objectName() == "qt_tabwidget_stackedwidget":
            tabs = parent.parentWidget()
            if isinstance(tabs, QTabWidget):
                tabs.setCurrentWidget(child)
        child = parent


def walk_dialogs(
    qtbot: Any,
    window: Any,
    scenes: list[tuple[str, tuple[str, int] | None]],
    check: Callable[[QWidget, str], list[str]],
) -> tuple[list[str], list[str]]:
    """Open every dialog of the main window, page by page, as a person does (buttons and menu items whose
    text ends in "…", and Help ▸ Keyboard shortcuts / About), ``check`` each one and close it (nothing is
    written). Returns (what was opened, problems)."""
    seen: list[str] = []
    problems: list[str] = []
    done_actions: set[str] = set()
    for label, target in scenes:
        show_scene(window, target)
        page = window.stack.currentWidget()
        for button in _dialog_buttons(page):
            _bring_to_front(button)
            QApplication.processEvents()
            if not (button.isVisible() and button.isEnabled()):
                continue
            check_dialog(
                qtbot,
                lambda b=button: qtbot.mouseClick(b, Qt.MouseButton.LeftButton),
                f"{label} button {button.text()!r}",
                seen,
                problems,
                check,
            )
        for menu_action in window.menuBar().actions():
            for action in menu_action.menu().actions():
                text = action.text()
                if not (text.endswith("\u2026") or action in (window.act_shortcuts, window.act_about)):
                    continue
                if text in done_actions or not action.isEnabled():
                    continue
                done_actions.add(text)
                check_dialog(qtbot, action.trigger, f"{label} menu {text!r}", seen, problems, check)
    return seen, problems
