"""Help ▸ Keyboard shortcuts and Help ▸ User guide.

The shortcut list is read from the main window itself: its menus and their actions (with the keys Qt has
for them, in the platform's own notation), the window's other actions and shortcuts, the Alt+letter of each
menu, and the XP track's keys (:data:`campaign_app.gui.xp_track.KEYS`). Nothing is typed twice, so the list
cannot drift from what the keys do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..resources import guide_dir
from .sizing import fit_resize
from .xp_track import KEYS as XP_TRACK_KEYS


@dataclass(frozen=True)
class ShortcutRow:
    group: str
    what: str
    keys: str


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


def mnemonic_of(text: str) -> str | None:
    """The letter after a single ``&`` (what Alt+letter reaches), lower case; ``None`` if there is none."""
    i = 0
    while i < len(text) - 1:
        if text[i] == "&":
            if text[i + 1] == "&":
                i += 2
                continue
            return text[i + 1].lower()
        i += 1
    return None


def _keys(action: QAction | QShortcut) -> str:
    seqs = action.shortcuts() if isinstance(action, QAction) else [action.key()]
    texts = [s.toString(QKeySequence.SequenceFormat.NativeText) for s in seqs if not s.isEmpty()]
    return ", ".join(dict.fromkeys(texts))


WIDGET_KEYS: tuple[tuple[str, str], ...] = (
    ("Open the platoon picked in a campaign's list", "Enter"),
    ("Take back unsaved typing in a field", "Esc"),
    ("Save a notes field now", "Ctrl+Enter"),
)
"""Keys that work through a widget's own key handling (no QShortcut to read them from); each is tested in
tests/gui/test_desktop.py."""

WIZARD_KEYS: tuple[tuple[str, str], ...] = (
    ("Go on to the next field or page (not in Notes)", "Enter"),
    ("Roll all remaining rolls with the app's dice", "Ctrl+R"),
)
"""The battle wizard's keys (a dialog made when it opens, so its shortcuts cannot be read from the window;
tests/gui/test_desktop.py checks every QShortcut of the wizard is here)."""


def _build_pages(window: QMainWindow) -> None:
    """Every kind of page is made (not shown) so that its keys are listed before it was first visited."""
    pages = getattr(window, "page", None)
    if not callable(pages):
        return
    from .main_window import PAGES

    for kind in PAGES:
        pages(kind)


def shortcut_rows(window: QMainWindow) -> list[ShortcutRow]:
    _build_pages(window)
    rows: list[ShortcutRow] = []
    seen: set[int] = set()

    def walk(menu: QMenu, group: str) -> None:
        for action in menu.actions():
            if action.isSeparator():
                continue
            submenu = action.menu()
            if submenu is not None:
                walk(cast(QMenu, submenu), f"{group} \u25b8 {_plain(action.text())}")  # a QAction's menu is a QMenu
                continue
            seen.add(id(action))
            keys = _keys(action)
            if keys:
                rows.append(ShortcutRow(group, _plain(action.text()), keys))

    menus = [a for a in window.menuBar().actions() if a.menu() is not None and a.isVisible()]
    for top in menus:
        letter = mnemonic_of(top.text())
        if letter:
            rows.append(ShortcutRow("Menus", f"Open the {_plain(top.text())} menu", f"Alt+{letter.upper()}"))
    for top in menus:
        walk(cast(QMenu, top.menu()), _plain(top.text()))
    for action in window.actions():
        if id(action) not in seen and _keys(action):
            rows.append(ShortcutRow("Window", _plain(action.text()), _keys(action)))
    page_keys: dict[str, list[str]] = {}  # one row per description, its keys joined (Down, Return, Enter)
    for shortcut in window.findChildren(QShortcut):  # the pages' own keys
        if shortcut.whatsThis() and shortcut.isEnabled():
            joined = page_keys.setdefault(shortcut.whatsThis(), [])
            if _keys(shortcut) not in joined:
                joined.append(_keys(shortcut))
    rows.extend(ShortcutRow("Pages", what, ", ".join(joined)) for what, joined in page_keys.items())
    rows.append(
        ShortcutRow("Pages and dialogs", "Go to the button, tab or field with that underlined letter", "Alt+letter")
    )
    rows.append(ShortcutRow("Pages and dialogs", "Next / previous field", "Tab, Shift+Tab"))
    for what, keys in WIDGET_KEYS:
        rows.append(
            ShortcutRow(
                "Pages and dialogs",
                what,
                QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText) if "+" in keys else keys,
            )
        )
    for what, keys in WIZARD_KEYS:
        rows.append(
            ShortcutRow(
                "Battle wizard",
                what,
                QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText) if "+" in keys else keys,
            )
        )
    for keys, what in XP_TRACK_KEYS:
        rows.append(ShortcutRow("XP track (when it has the focus)", what[0].upper() + what[1:], keys))
    return rows


class ShortcutsDialog(QDialog):
    def __init__(self, window: QMainWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setWindowTitle("Keyboard shortcuts")
        self.rows = shortcut_rows(window)
        self.table = QTableWidget(len(self.rows), 3, self)
        self.table.setHorizontalHeaderLabels(["Where", "What", "Keys"])
        self.table.setAccessibleName("Keyboard shortcuts")
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        previous = None
        for r, row in enumerate(self.rows):
            for c, text in enumerate((row.group if row.group != previous else "", row.what, row.keys)):
                item = QTableWidgetItem(text)
                if c == 0:
                    item.setToolTip(row.group)
                self.table.setItem(r, c, item)
            previous = row.group
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        note = QLabel(
            "Keys shown as your system writes them. Underlined letters in menus and on buttons are reached with Alt.",
            self,
        )
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(note)
        layout.addWidget(buttons)
        fit_resize(self, 720, 560)


class GuideWindow(QDialog):
    """The user guide (``docs/guide/user-guide.md``) in a window of its own; not modal."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("User guide")
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        self.browser = QTextBrowser(self)
        self.browser.setOpenExternalLinks(True)
        self.browser.setAccessibleName("User guide")
        self.browser.setMarkdown((guide_dir() / "user-guide.md").read_text(encoding="utf-8"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        fit_resize(self, 760, 640)
