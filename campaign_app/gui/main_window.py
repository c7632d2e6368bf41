"""The main window: menus, navigator, central pages, status bar, remembered geometry."""

from __future__ import annotations

import html
import importlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6 import QtCore
from PySide6.QtCore import QByteArray
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from .. import APP_TITLE, __version__
from ..errors import CampaignError
from ..paths import AppPaths
from ..server_target import ServerTarget
from ..services.navigator import CampaignRef, item_campaign, item_exists, item_title
from .appearance import (
    TEXT_STEP_KEY,
    TEXT_STEPS,
    THEME_KEY,
    THEMES,
    apply_text_step,
    apply_theme,
    saved_text_step,
    saved_theme,
)
from .context import AppContext
from .feed import ViewFeed, announce_everything, is_everything
from .first_run import FirstRunPage
from .focus import FocusKeeper, UndoKeysToWindow, first_focusable, unique_keys
from .icons import app_icon, icon
from .lazy_qt import elide_middle, set_enum
from .navigator import Navigator, NavigatorData
from .sizing import fit_window

if TYPE_CHECKING:
    from ..services.journal import OpChanges
    from .club import LiveUpdates

log = logging.getLogger(__name__)

LAST_ITEM_KEY = "session/last_item"
LAST_DB_KEY = "session/last_database"
LAST_ITEMS_KEY = "session/last_items"  # JSON {database file: "kind:id"}: each database reopens its own item
LAST_ITEMS_KEPT = 20
DEFAULT_SIZE = (1180, 760)
RECENT_KEY = "session/recent_databases"  # JSON [file or server URL without password], newest first
RECENT_KEPT = 8

# kind -> (module, class, method that shows an object); a page's module is imported when first shown
PAGES: dict[str, tuple[str, str, str]] = {
    "campaign": ("campaign_app.gui.campaign_page", "CampaignPage", "show_campaign"),
    "platoon": ("campaign_app.gui.platoon_page", "PlatoonPage", "show_platoon"),
    "sheet": ("campaign_app.gui.sologear.page", "SologearPage", "show_sheet"),
    "fighter": ("campaign_app.gui.death_blow.fighter_page", "FighterPage", "show_fighter"),
}


class PlaceholderPage(QWidget):
    """A page with nothing to show: it says what to do next and offers buttons that do it."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        label = QLabel(text, self)
        set_enum(label, "alignment", "AlignCenter")  # painted first: no Qt namespace enums (lazy_qt.py)
        label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(label)
        self.button_row = QHBoxLayout()
        self.button_row.addStretch(1)
        self.button_row.addStretch(1)
        layout.addLayout(self.button_row)
        layout.addStretch(1)
        self.buttons: list[QPushButton] = []

    def offer(self, actions: list[QAction]) -> None:
        """A button for each action (its text without the menu's mnemonic, so the menus keep their Alt keys),
        enabled while the action is."""
        for action in actions:
            button = QPushButton(action.text().replace("&", ""), self)
            button.setIcon(action.icon())
            button.clicked.connect(action.trigger)
            button.setEnabled(action.isEnabled())
            action.changed.connect(lambda b=button, a=action: b.setEnabled(a.isEnabled()))
            self.button_row.insertWidget(self.button_row.count() - 1, button)
            self.buttons.append(button)


class MainWindow(QMainWindow):
    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        ctx.main_window = self
        self.setWindowTitle(APP_TITLE)
        self.setWindowIcon(app_icon())
        self.setMinimumSize(640, 440)
        self._pages: dict[str, QWidget] = {}
        self._current: tuple[str, int] | None = None

        self.navigator = Navigator(self)
        self.stack = QStackedWidget(self)
        self.first_run = FirstRunPage(self)
        self.empty_page = PlaceholderPage(
            "Pick a campaign, platoon or pilot in the navigator on the left, or start something new.", self
        )
        self.stack.addWidget(self.first_run)
        self.stack.addWidget(self.empty_page)
        splitter = QSplitter()  # QSplitter(parent) would build the Qt namespace's enums (lazy_qt.py)
        splitter.addWidget(self.navigator)
        splitter.addWidget(self.stack)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([230, 950])
        self.splitter = splitter
        self.setCentralWidget(splitter)

        self.db_label = QLabel(self)
        from .loader import BusyIndicator

        self.busy_indicator = BusyIndicator(self)  # moves while a page is read from a club server
        self.statusBar().addPermanentWidget(self.busy_indicator)
        self.statusBar().addPermanentWidget(self.db_label)
        ctx.signals.busy.connect(self.busy_indicator.set_busy)

        self._build_actions()
        self.empty_page.offer([self.act_new_campaign, self.act_new_sologear, self.act_new_platoon, self.act_log_battle])
        self._build_menus()
        self._build_toolbar()
        self.focus_keeper = FocusKeeper(self, self._focus_fallback)
        self.undo_keys = UndoKeysToWindow(self)  # a field with nothing of its own to undo lets Ctrl+Z through

        self.navigator.selected.connect(self.show_item)
        self.first_run.create_requested.connect(self.new_campaign)
        self.first_run.sample_requested.connect(self.load_sample)
        self.first_run.import_requested.connect(self.import_campaign)
        ctx.signals.status.connect(self._show_status)
        ctx.signals.open_item.connect(self.open_item)
        ctx.signals.op_changed.connect(self._on_op_changed)
        self.feed = ViewFeed(ctx, self, self._concerns_navigator, self._reload_navigator)
        ctx.undo_stack.indexChanged.connect(self._on_undo_index)
        ctx.undo_stack.cleanChanged.connect(self._on_undo_index)

        self._restore_geometry()
        ctx.undo_stack.sync()  # the journal is kept in the file: undo works across restarts
        self._update_undo_actions()
        self.refresh()
        from .watch import ChangeWatcher

        self.remember_database()
        self.watcher = ChangeWatcher(self)  # changes made by another window or campaign-cli show up here
        self.live: LiveUpdates | None = None  # the same on a club server (started by start_live)

    # --- actions and menus ------------------------------------------------------------------------------
    def _action(
        self,
        text: str,
        slot: Callable[..., Any],
        shortcut: str | QKeySequence | QKeySequence.StandardKey | None = None,
        tip: str = "",
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:  # setShortcuts: setShortcut's overloads build the Qt namespace's enums (lazy_qt.py)
            action.setShortcuts([QKeySequence(shortcut)])
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def _build_actions(self) -> None:
        # Dialog modules (and through them reportlab, QtPdf) are imported in the slots, on first use: the
        # window starts without them (tests/gui/test_lazy_imports.py keeps it so).
        self.act_new_campaign = self._action(
            "&New campaign…", self.new_campaign, QKeySequence.StandardKey.New, "Create a campaign"
        )
        self.act_new_platoon = self._action(
            "New p&latoon…", self.new_platoon, "Ctrl+Shift+N", "Add a platoon to the selected campaign"
        )
        self.act_new_sologear = self._action(
            "New &Sologear campaign…", self.new_sologear, "Ctrl+Alt+N", "Start a lone Gear pilot's campaign"
        )
        self.act_open_db = self._action(
            "&Open database…", self.open_database, QKeySequence.StandardKey.Open, "Open another campaign database file"
        )
        self.act_connect = self._action(
            "Connect to &Club Server…",
            self.connect_to_server,
            "Ctrl+Shift+O",
            "Open a campaign your club keeps on a PostgreSQL server",
        )
        self.act_sample = self._action(
            "Load the sa&mple campaigns",
            self.load_sample,
            None,
            "An Atomic Africa platoon and a Sologear pilot to look around",
        )
        self.act_export = self._action(
            "&Export campaign…",
            self.export_campaign,
            None,
            "Write the selected campaign to a file you can move or give away",
        )
        self.act_import = self._action(
            "&Import campaign…", self.import_campaign, None, "Read a campaign file made by Export campaign"
        )
        self.act_backups = self._action(
            "&Backups…", self.show_backups, None, "List the backups of this database and restore one"
        )
        self.act_print = self._action(
            "&Print / Export PDF…",
            self.print_pdf,
            QKeySequence.StandardKey.Print,
            "Unit Data Sheets, play-aid cards, Sologear sheets, history reports",
        )
        self.act_quit = self._action("&Quit", self.close, QKeySequence.StandardKey.Quit)
        # Undo and Redo act on the journal (shared with other windows and campaign-cli, kept across restarts);
        # their texts name the operation: "Undo Log battle 4 of 2nd Platoon"
        self.act_undo = self._action(
            "&Undo",
            self.undo,
            QKeySequence.StandardKey.Undo,
            "Undo the newest change, made here, in another window or by campaign-cli",
        )
        self.act_redo = self._action("&Redo", self.redo, None, "Redo the change undone most recently")
        # Ctrl+Shift+Z and Ctrl+Y everywhere, plus the platform's own Redo keys: each key once (on X11 the
        # platform's Redo is Ctrl+Shift+Z itself; bound twice, Qt calls it ambiguous and does nothing)
        self.act_redo.setShortcuts(unique_keys("Ctrl+Shift+Z", "Ctrl+Y", QKeySequence.StandardKey.Redo))
        self.act_undo.setShortcuts(unique_keys(QKeySequence.StandardKey.Undo, "Ctrl+Z"))
        self.act_find = self._action("&Find platoon…", self.navigator.focus_filter, QKeySequence.StandardKey.Find)
        self.act_refresh = self._action("&Refresh", self.refresh, QKeySequence.StandardKey.Refresh)
        self.act_archived = QAction("Show &archived campaigns", self)
        self.act_archived.setCheckable(True)
        self.act_archived.toggled.connect(self.navigator.show_archived.setChecked)
        self.navigator.show_archived.toggled.connect(self.act_archived.setChecked)
        self.act_navigator = QAction("&Navigator", self)
        self.act_navigator.setCheckable(True)
        self.act_navigator.setChecked(True)
        self.act_navigator.setShortcuts([QKeySequence("Ctrl+1")])
        self.act_navigator.toggled.connect(self.navigator.setVisible)
        self.act_log_battle = self._action(
            "&Log battle…", self.log_battle, "Ctrl+B", "Record a battle and run the post-battle rolls"
        )
        self.act_check = self._action(
            "&Check database", self.check_database, None, "Run an integrity check of the open database"
        )
        self.act_data_folder = self._action("Open &data folder", self.open_data_folder)
        self.act_guide = self._action(
            "&User guide", self.show_guide, QKeySequence.StandardKey.HelpContents, "A short guide to the app"
        )
        self.act_shortcuts = self._action(
            "&Keyboard shortcuts", self.show_shortcuts, "Ctrl+/", "Every keyboard shortcut of the app"
        )
        self.act_about = self._action("&About Campaign App", self.about)
        self.act_about_qt = self._action("About &Qt", QApplication.aboutQt)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        m = bar.addMenu("&File")
        for a in (self.act_new_campaign, self.act_new_platoon, self.act_new_sologear):
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.act_open_db)
        self.recent_menu = m.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self.recent_menu.setToolTipsVisible(True)
        m.addAction(self.act_connect)
        m.addAction(self.act_sample)
        m.addSeparator()
        m.addAction(self.act_export)
        m.addAction(self.act_import)
        m.addAction(self.act_backups)
        m.addSeparator()
        m.addAction(self.act_print)
        m.addSeparator()
        m.addAction(self.act_quit)
        m = bar.addMenu("&Edit")
        self.edit_menu = m
        m.aboutToShow.connect(self._before_edit_menu)
        m.addAction(self.act_undo)
        m.addAction(self.act_redo)
        m.addSeparator()
        m.addAction(self.act_find)
        m = bar.addMenu("&View")
        self.view_menu = m
        m.addAction(self.act_navigator)
        m.addAction(self.act_archived)
        m.addSeparator()
        self.theme_menu = m.addMenu("T&heme")
        self.theme_group = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        current = saved_theme(self.ctx.settings)
        for key, text in THEMES:
            action = self.theme_menu.addAction(text)
            action.setCheckable(True)
            action.setChecked(key == current)
            action.triggered.connect(lambda _on=False, k=key: self.set_theme(k))
            self.theme_group.addAction(action)
            self.theme_actions[key] = action
        text_menu = m.addMenu("Te&xt size")
        self.text_menu = text_menu
        self.act_larger = QAction("&Larger text", self)
        self.act_larger.setShortcuts(unique_keys("Ctrl++", "Ctrl+=", QKeySequence.StandardKey.ZoomIn))
        self.act_larger.triggered.connect(lambda: self.set_text_step(saved_text_step(self.ctx.settings) + 1))
        self.act_smaller = QAction("&Smaller text", self)
        self.act_smaller.setShortcuts(unique_keys("Ctrl+-", QKeySequence.StandardKey.ZoomOut))
        self.act_smaller.triggered.connect(lambda: self.set_text_step(saved_text_step(self.ctx.settings) - 1))
        self.act_normal_text = QAction("&Normal size", self)
        self.act_normal_text.setShortcuts([QKeySequence("Ctrl+0")])
        self.act_normal_text.triggered.connect(lambda: self.set_text_step(0))
        for action in (self.act_larger, self.act_smaller, self.act_normal_text):
            text_menu.addAction(action)
        self._update_text_actions()
        m.addSeparator()
        m.addAction(self.act_refresh)
        self.battle_menu = bar.addMenu("&Battle")
        self.battle_menu.addAction(self.act_log_battle)
        m = bar.addMenu("&Tools")
        m.addAction(self.act_check)
        m.addAction(self.act_data_folder)
        m = bar.addMenu("&Help")
        m.addAction(self.act_guide)
        m.addAction(self.act_shortcuts)
        m.addSeparator()
        m.addAction(self.act_about)
        m.addAction(self.act_about_qt)
        self.addActions([self.act_find, self.act_log_battle])  # Ctrl+B from anywhere in the window

    def _build_toolbar(self) -> None:
        """The main actions with icons; Undo and Redo keep short fixed labels (their menu texts name the step,
        which would make the toolbar jump)."""
        bar = QToolBar("Toolbar", self)
        bar.setObjectName("main_toolbar")  # saveState() needs a name
        set_enum(bar, "toolButtonStyle", "ToolButtonTextBesideIcon")
        bar.setMovable(False)
        for action, name, label in (
            (self.act_new_platoon, "new-platoon", "New platoon"),
            (self.act_log_battle, "log-battle", "Log battle"),
            (self.act_undo, "undo", "Undo"),
            (self.act_redo, "redo", "Redo"),
            (self.act_print, "print", "Print"),
        ):
            action.setIcon(icon(name))
            action.setIconText(label)
            if action in (self.act_log_battle, self.act_undo):
                bar.addSeparator()
            bar.addAction(action)
        self.addToolBar(bar)  # the top
        self.toolbar = bar
        toggle = bar.toggleViewAction()
        toggle.setText("&Toolbar")
        self.view_menu.insertAction(self.act_navigator, toggle)

    def _show_status(self, message: str) -> None:
        self.statusBar().showMessage(message, 6000)

    def _on_undo_index(self, *_args: Any) -> None:
        if not shiboken6.isValid(self.ctx.undo_stack):  # the stack is being destroyed (the app is closing)
            return
        self._update_undo_actions()
        self._update_actions()

    def _update_undo_actions(self) -> None:
        """ "Undo <label>" / "Redo <label>" from the journal's view; disabled with nothing to undo or redo."""
        from .undo_commands import menu_label

        stack = self.ctx.undo_stack
        for action, verb, can, text in (
            (self.act_undo, "Undo", stack.canUndo(), stack.undoText()),
            (self.act_redo, "Redo", stack.canRedo(), stack.redoText()),
        ):
            label = menu_label(text).replace("&", "&&") if can else ""
            action.setText(f"&{verb} {label}" if label else f"&{verb}")
            action.setToolTip(f"{verb} {menu_label(text, 120)}" if can else f"Nothing to {verb.lower()}")
            action.setEnabled(can)

    def _before_edit_menu(self) -> None:
        """The journal is shared: look for another program's commit before the menu names the newest change."""
        self.watcher.poll()
        self.ctx.undo_stack.sync()

    def undo(self) -> None:
        """Edit ▸ Undo: the newest operation not undone, whoever made it; a refusal says why in the status bar."""
        self._step("undo")

    def redo(self) -> None:
        self._step("redo")

    def _step(self, verb: str) -> None:
        from .loader import worker_of

        stack = self.ctx.undo_stack
        shown = stack.next_undo() if verb == "undo" else stack.next_redo()
        if worker_of(self.ctx) is not None:  # a club server: checked and run on the window's database thread
            stack.step_newest(verb, shown)
            return
        self.watcher.poll()
        stack.sync()
        now = stack.next_undo() if verb == "undo" else stack.next_redo()
        if shown is not None and now is not None and now.id != shown.id:
            # another program changed the journal since the menu was drawn: do not undo what was not named
            self._show_status(
                f"The newest change is now \u201c{now.label}\u201d (made elsewhere); {verb} again to {verb} it."
            )
            return
        if verb == "undo":
            stack.undo()  # shows the platoon, pilot or campaign of the step (open_item)
        else:
            stack.redo()

    def _update_actions(self) -> None:
        self.act_new_platoon.setEnabled(self._selected_system() == "atomic_africa")
        # Ctrl+B works from anywhere: without an open platoon the wizard asks which platoon fought
        self.act_log_battle.setEnabled(True)
        on_fighter = self._current is not None and self._current[0] == "fighter"  # d12 Death Blow: a bout
        self.act_log_battle.setText("&Log bout…" if on_fighter else "&Log battle…")
        self.act_log_battle.setIconText("Log bout" if on_fighter else "Log battle")
        self.act_log_battle.setStatusTip(
            "Record a bout of this fighter played at the table"
            if on_fighter
            else "Record a battle and run the post-battle rolls"
        )
        self.act_export.setEnabled(self._selected_campaign_id() is not None)
        from ..store.opened import Capability, can

        here = can(Capability.BACKUP)  # a club server's administrator checks and backs up its database
        for action, tip in (
            (self.act_backups, "List the backups of this database and restore one"),
            (self.act_check, "Run an integrity check of the open database"),
        ):
            action.setEnabled(here)
            action.setStatusTip(tip if here else "The club server's administrator checks and backs up its database")

    # --- navigation -------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the navigator again and show what it says (the first-run page, the current item or the empty
        page); on a club server when its answer comes (the rest of the window stays usable meanwhile)."""
        from .loader import in_background

        if in_background(self.ctx) and self.stack.currentWidget() is self.first_run:
            self.stack.setCurrentWidget(self.empty_page)  # not "no campaign yet" before the server said so
        self.navigator.reload(self._refreshed)
        self._show_database()
        self._update_actions()
        self._update_title()

    def _refreshed(self, data: NavigatorData) -> None:
        if not data.any_campaign:
            self._current = None
            self.stack.setCurrentWidget(self.first_run)
        elif self._current is None or not self.navigator.select(*self._current, emit=False):
            self._current = None
            self.stack.setCurrentWidget(self.empty_page)
        elif self.stack.currentWidget() in (self.first_run, self.empty_page):  # (not read twice when shown)
            self._show_page(*self._current)
        self._update_actions()
        self._update_title()

    def open_item(self, kind: str, obj_id: int) -> None:
        # the navigator is reloaded by the change feed when an operation made an item; read it again
        # only for an item it does not show yet (a full reload costs ~200 rows on a big file)
        if self.navigator.select(kind, obj_id, emit=False):
            self.show_item(kind, obj_id)
            return
        self.show_item(kind, obj_id)  # (its page reads meanwhile on a club server)
        self.navigator.when_read(lambda _data: self._select_shown(kind, obj_id))  # a read under way will do

    def _select_shown(self, kind: str, obj_id: int) -> None:
        if self._current == (kind, obj_id):
            self.navigator.select(kind, obj_id, emit=False)
            self._update_actions()
            self._update_title()

    def show_item(self, kind: str, obj_id: int) -> None:
        self._current = (kind, obj_id)
        self._show_page(kind, obj_id)
        self._update_actions()
        self._update_title()

    def page(self, kind: str) -> QWidget:
        if kind not in self._pages:
            module, cls, _method = PAGES[kind]
            page: QWidget = getattr(importlib.import_module(module), cls)(self.ctx, self)
            self._pages[kind] = page
            self.stack.addWidget(page)
        return self._pages[kind]

    def _show_page(self, kind: str, obj_id: int) -> None:
        page = self.page(kind)
        method = getattr(page, PAGES[kind][2], None)
        if method is not None:
            method(obj_id)
        self.stack.setCurrentWidget(page)

    def _selected_campaign(self) -> CampaignRef | None:
        """The current item's campaign: from the navigator's tree (no query), else asked on a file."""
        if self._current is None:
            return None
        found = self.navigator.campaign_of(*self._current)
        if found is None and not self._in_background():
            found = item_campaign(*self._current)  # (an archived campaign's item the tree does not show)
        return found

    def _in_background(self) -> bool:
        from .loader import in_background

        return in_background(self.ctx)

    def _selected_campaign_id(self) -> int | None:
        camp = self._selected_campaign()
        return camp.id if camp else None

    def _selected_system(self) -> str | None:
        camp = self._selected_campaign()
        return camp.system if camp else None

    @staticmethod
    def _concerns_navigator(changes: OpChanges) -> bool:
        """The navigator lists campaigns, platoons and pilots: an operation that touched one, or named no
        target, or "everything changed"."""
        return (
            is_everything(changes)
            or bool(changes.tables & {"campaign", "platoon", "sologear_sheet", "leader", "fighter"})
            or not (changes.campaign_id or changes.platoon_id or changes.sheet_id)
        )

    def _on_op_changed(self, changes: OpChanges) -> None:
        if not self._concerns_navigator(changes):
            self._update_actions()  # the navigator's reload does it otherwise

    def _reload_navigator(self) -> None:
        self.navigator.reload(self._navigator_reloaded, asked=self._current)

    def _navigator_reloaded(self, data: NavigatorData) -> None:
        keep = self._current
        if keep and not self.navigator.select(*keep, emit=False) and (data.asked != keep or not data.asked_exists):
            self._current = None  # deleted; an archived (hidden) campaign stays current while it is shown
        if not data.any_campaign:
            self.stack.setCurrentWidget(self.first_run)
        elif self._current is None and self.stack.currentWidget() is self.first_run:
            self.stack.setCurrentWidget(self.empty_page)
        self._update_actions()
        self._update_title()  # a rename, a deletion

    # --- look -------------------------------------------------------------------------------------------
    def set_theme(self, theme: str) -> None:
        """View ▸ Theme: System (the desktop's look), Light or Dark; remembered."""
        apply_theme(QApplication.instance(), theme)
        self.ctx.settings.setValue(THEME_KEY, theme)
        self.theme_actions[theme].setChecked(True)
        self._rebuild_pages()  # colours chosen when a page was built (error red, chart colours) follow

    def set_text_step(self, step: int) -> None:
        """View ▸ Text size: one point larger or smaller than the desktop's size per step; remembered."""
        step = min(max(step, TEXT_STEPS[0]), TEXT_STEPS[-1])
        apply_text_step(QApplication.instance(), step)
        self.ctx.settings.setValue(TEXT_STEP_KEY, step)
        self._update_text_actions()
        self._rebuild_pages()  # widths measured from the font when a page was built are measured again
        self._show_status("Text size: " + ("the desktop's size" if step == 0 else f"{step:+d} pt"))

    def _update_text_actions(self) -> None:
        step = saved_text_step(self.ctx.settings)
        self.act_larger.setEnabled(step < TEXT_STEPS[-1])
        self.act_smaller.setEnabled(step > TEXT_STEPS[0])
        self.act_normal_text.setEnabled(step != 0)

    def _rebuild_pages(self) -> None:
        """Build the pages again (on next use) and show the current one anew, on the same tabs."""
        QApplication.processEvents()  # the new font or palette reaches every widget first
        shown = self.stack.currentWidget()
        tabs = (
            [t.currentIndex() for t in shown.findChildren(QTabWidget)]
            if shown is not None and shown in self._pages.values()
            else []
        )
        for page in self._pages.values():
            self.stack.removeWidget(page)
            page.deleteLater()
        self._pages.clear()
        if self._current is not None:
            self._show_page(*self._current)
            rebuilt = self.stack.currentWidget()
            for widget, index in zip(
                rebuilt.findChildren(QTabWidget) if rebuilt is not None else [], tabs, strict=False
            ):
                widget.setCurrentIndex(index)

    # --- title, last item, focus ------------------------------------------------------------------------
    def _update_title(self) -> None:
        """Names what is shown: "2nd Platoon — Congo 1960 — Campaign App" (the pilot for a Sologear sheet)."""
        parts = self.navigator.title_of(*self._current) if self._current else []
        if parts is None:  # not in the tree (an archived campaign's): asked on a file, or left out for now
            parts = [] if self._in_background() or self._current is None else item_title(*self._current)
        last = self.ctx.server.display() if self.ctx.server is not None else APP_TITLE
        self.setWindowTitle(" \u2014 ".join([*parts, last]))

    def _remember_current(self) -> None:
        """Kept with the window state when the window closes (not on every page switch: no file write)."""
        if self._current is not None:
            item, database = f"{self._current[0]}:{self._current[1]}", self.ctx.database_key
            self.ctx.settings.setValue(LAST_ITEM_KEY, item)
            self.ctx.settings.setValue(LAST_DB_KEY, database)
            items = self._last_items()
            items.pop(database, None)
            items[database] = item  # newest last; the oldest databases are forgotten
            self.ctx.settings.setValue(LAST_ITEMS_KEY, json.dumps(dict(list(items.items())[-LAST_ITEMS_KEPT:])))

    def _last_items(self) -> dict[str, str]:
        try:
            items = json.loads(str(self.ctx.settings.value(LAST_ITEMS_KEY, "") or "{}"))
        except json.JSONDecodeError:  # a settings file edited by hand
            return {}
        return {str(k): str(v) for k, v in items.items()} if isinstance(items, dict) else {}

    def reopen_last(self) -> bool:
        """Show the platoon, pilot or campaign that was open when the app last closed with this database (each
        database file keeps its own)."""
        database = self.ctx.database_key
        value = self._last_items().get(database)
        if value is None and str(self.ctx.settings.value(LAST_DB_KEY, "") or "") == database:
            value = str(self.ctx.settings.value(LAST_ITEM_KEY, "") or "")
        kind, _, raw_id = (value or "").partition(":")
        if kind not in PAGES or not raw_id.isdigit():
            return False
        item = (kind, int(raw_id))
        if self._in_background():  # asked with the navigator's read; opened when the answer says it is there
            self.navigator.reload(lambda data: self.open_item(*item) if data.asked_exists else None, asked=item)
            return True
        if not item_exists(*item):
            return False
        self.open_item(*item)
        return True

    def _focus_fallback(self, window: QWidget) -> QWidget | None:
        """Where the focus goes after a dialog when the widget that had it is gone: the shown page."""
        page = self.stack.currentWidget()
        if window is not self or page is None:
            return None
        return first_focusable(page) or page

    # --- commands ---------------------------------------------------------------------------------------
    def new_campaign(self) -> None:
        from .campaign_dialog import new_campaign

        new_id = new_campaign(self.ctx, self)
        if new_id:
            self.open_item("campaign", new_id)

    def new_platoon(self) -> None:
        camp = self._selected_campaign_id()
        if camp is None:
            self.statusBar().showMessage("Select a campaign first.", 5000)
            return
        from .campaign_dialog import new_platoon

        new_id = new_platoon(self.ctx, self, camp)
        if new_id:
            self.open_item("platoon", new_id)

    def new_sologear(self) -> None:
        from .sologear_dialogs import new_sologear_campaign

        new_id = new_sologear_campaign(self.ctx, self)
        if new_id:
            self.open_item("sheet", new_id)

    def log_battle(self) -> None:
        if self._current and self._current[0] == "sheet":
            # a Sologear pilot's battles are the turns of the sheet: Ctrl+B plays the next turn (never the
            # wizard of some Atomic Africa platoon)
            page = self.page("sheet")
            play = getattr(page, "play_button", None)
            if play is not None and play.isEnabled():
                play.click()
            else:
                self._show_status("No turn to play on this pilot's sheet now (Battle form tab says why).")
            return
        if self._current and self._current[0] == "fighter":  # Ctrl+B on a fighter's page: log a bout
            from .death_blow.bout_dialogs import log_bout

            log_bout(self.ctx, self, self._current[1])
            return
        from .battle_wizard import log_battle

        platoon = self._current[1] if self._current and self._current[0] == "platoon" else None
        log_battle(self.ctx, self, platoon, self._selected_campaign_id())

    def print_pdf(self) -> None:
        from .print_dialog import open_print_dialog

        selection = {"kind": self._current[0], "id": self._current[1]} if self._current else {}
        open_print_dialog(self.ctx, self, selection)

    def load_sample(self) -> None:
        from ..services.demo import create_demo

        QApplication.setOverrideCursor(QtCore.Qt.CursorShape.WaitCursor)
        try:
            result = create_demo()
        finally:
            QApplication.restoreOverrideCursor()
        self.ctx.undo_stack.sync()
        announce_everything(self.ctx, "the sample campaigns were made")
        self.statusBar().showMessage("; ".join(result.messages), 8000)
        first = result.open
        if first is not None:
            self.open_item(first.kind, first.id)

    # --- recent databases -------------------------------------------------------------------------------
    def recent_databases(self) -> list[str]:
        """Files and server URLs (never with a password) opened lately, newest first."""
        try:
            items = json.loads(str(self.ctx.settings.value(RECENT_KEY, "") or "[]"))
        except json.JSONDecodeError:  # a settings file edited by hand
            return []
        return [str(i) for i in items if isinstance(i, str) and i][:RECENT_KEPT] if isinstance(items, list) else []

    def remember_database(self) -> None:
        """The database shown now goes to the top of File ▸ Open recent."""
        key = self.ctx.database_key  # a server's URL without its password
        items = [key, *(i for i in self.recent_databases() if i != key)]
        self.ctx.settings.setValue(RECENT_KEY, json.dumps(items[:RECENT_KEPT]))

    def _fill_recent_menu(self) -> None:
        from ..paths import is_server_url

        self.recent_menu.clear()
        current = self.ctx.database_key
        others = [i for i in self.recent_databases() if i != current]
        if not others:
            none = self.recent_menu.addAction("No other database opened yet")
            none.setEnabled(False)
            return
        for n, item in enumerate(others, 1):
            shown = item
            if is_server_url(item):
                from ..server_target import parse_server_url

                try:
                    shown = "Club server " + parse_server_url(item)[0].display()
                except CampaignError:
                    shown = item
            text = (f"&{n} " if n < 10 else "") + shown.replace("&", "&&")
            action = self.recent_menu.addAction(text)
            action.setToolTip(item)
            action.triggered.connect(lambda _on=False, i=item: self.open_recent(i))

    def open_recent(self, item: str) -> bool:
        """Open a database of File ▸ Open recent: a file as Open database does, a server as Connect does
        (its password is asked again, or taken from the keyring)."""
        from ..paths import is_server_url
        from ..server_target import parse_server_url

        if is_server_url(item):
            try:
                target, _password = parse_server_url(item)
            except CampaignError as exc:
                self._show_status(str(exc))
                return False
            return self.open_server(target, None)
        if not Path(item).is_file():
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.information(self, "Open recent", f"{item} is not there any more (moved or deleted).")
            self.ctx.settings.setValue(RECENT_KEY, json.dumps([i for i in self.recent_databases() if i != item]))
            return False
        return self.open_database_file(item)

    def open_database(self) -> None:
        from .file_dialogs import ask_open_path

        chosen = ask_open_path(
            self, self.ctx.settings, "Open campaign database", "Campaign databases (*.db);;All files (*)"
        )
        if chosen is None:
            return
        self.open_database_file(str(chosen))

    def open_database_file(self, path: str | Path) -> bool:
        """Open a campaign file in place of the open database (File ▸ Open database, Open recent, Open Local
        File Instead); when it cannot be opened, say why and open again the one in use."""
        db_file = Path(path).resolve()
        try:
            self._open_store(None, None, db_file)
        except CampaignError as exc:
            from PySide6.QtWidgets import QMessageBox  # its enums cost ~13 ms to build: not at start

            QMessageBox.critical(self, "Cannot open database", str(exc)[:1].upper() + str(exc)[1:])
            self._reopen_previous(self.ctx.server, self.ctx.password, self.ctx.paths)
            return False
        self._switched_to(None, None, db_file)
        self.statusBar().showMessage(f"Opened {path}", 5000)
        return True

    def _open_store(self, server: ServerTarget | None, password: str | None, db_file: Path) -> None:
        """The one way the window opens a database: the store opens the server (with its password) or else the
        file, and that replaces the open database (``store.opened``). Raises the store's CampaignError."""
        if server is not None:
            from .club import open_server

            open_server(server, password, self.ctx.paths.backup_dir, self.ctx.busy_timeout)
            return
        from ..store import init_db

        init_db(db_file, self.ctx.paths.backup_dir, busy_timeout=self.ctx.busy_timeout)

    def _switched_to(self, server: ServerTarget | None, password: str | None, db_file: Path | None) -> None:
        """The store is open on another database now (a file, or a server): show it."""
        self._remember_current()  # the database left behind reopens this item when it is opened again
        self._stop_live()
        old = self.ctx.paths
        if db_file is not None:
            self.ctx.paths = AppPaths(data_dir=old.data_dir, db_file=db_file)
        self.ctx.server, self.ctx.password = server, password
        self._current = None
        self.ctx.undo_stack.sync()  # the other database's journal
        self.refresh()
        self.watcher.reset()
        self.reopen_last()
        self.start_live()
        self.remember_database()

    def _reopen_previous(self, server: ServerTarget | None, password: str | None, paths: AppPaths) -> None:
        """Opening another database failed (the store closed the one in use): open the one in use again."""
        try:
            self._open_store(server, password, paths.db_file)
        except CampaignError as exc:  # that one is away now too: say so on the next action
            log.warning("could not reopen %s: %s", server.display() if server else paths.db_file, exc)

    # --- club server ------------------------------------------------------------------------------------
    def connect_to_server(self, initial: ServerTarget | None = None, problem: str = "") -> bool:
        """File ▸ Connect to Club Server…: ask, try the login (off this thread), then open the campaign."""
        from .connect_dialog import ask_login

        login = ask_login(
            self.ctx.settings,
            self,
            initial=initial or self.ctx.server,
            password=self.ctx.password if initial is None and self.ctx.server else None,
            problem=problem,
        )
        if login is None:
            return False
        return self.open_server(login.target, login.password)

    def open_server(self, target: ServerTarget, password: str | None) -> bool:
        """Open the campaign database on ``target``; when it cannot be opened, say why and keep what was open."""
        from .club import CLOSE, LOCAL, open_server_interactively

        before = (self.ctx.server, self.ctx.password, self.ctx.paths)
        self._stop_live()  # the database in use is closed while the other one opens
        result = open_server_interactively(
            self.ctx.settings,
            self,
            target,
            password,
            self.ctx.paths.backup_dir,
            self.local_file(),
            self.ctx.busy_timeout,
        )
        if result == LOCAL:
            return self.open_local_file()
        if result == CLOSE or isinstance(result, str):
            self._reopen_previous(*before)
            self.start_live()
            return False
        self._switched_to(result.target, result.password, None)
        self.statusBar().showMessage(f"Connected to {result.target.display()}", 6000)
        return True

    def local_file(self) -> Path:
        """The usual database file of the data folder (what Open Local File Instead opens)."""
        from ..paths import DB_NAME

        return self.ctx.paths.data_dir / DB_NAME

    def open_local_file(self) -> bool:
        return self.open_database_file(self.local_file())

    def server_lost(self, problem: CampaignError) -> None:
        """The server went away mid-session (it restarted, the network dropped): one clear message, and Try
        Again / Open Local File Instead / Close. Nothing was written by the step that failed."""
        from ..services.server_link import lost_connection, reset_connection
        from .club import LOCAL, LOGIN, RETRY, ask_server_away

        if getattr(self, "_asking_server", False):
            return  # one question at a time (a view failing while the box is up)
        self._asking_server = True
        try:
            while True:
                reset_connection()  # the next query connects again
                self._show_database(problem)
                choice = ask_server_away(self, problem, self.local_file())
                if choice == LOCAL:
                    self.open_local_file()
                    return
                if choice == LOGIN and self.ctx.server is not None:
                    self.connect_to_server(self.ctx.server, str(problem))
                    return
                if choice != RETRY:
                    return
                try:
                    self.ctx.undo_stack.sync()
                    self.refresh()
                    announce_everything(self.ctx, "connected to the server again")
                except Exception as exc:
                    again = lost_connection(exc, self.ctx.server)
                    if again is None:
                        raise
                    problem = again
                    continue
                self._show_database()
                self.statusBar().showMessage(f"Connected to {self.ctx.database_name} again", 5000)
                if self.live is not None and not self.live.connected:
                    self.live.start()
                return
        finally:
            self._asking_server = False

    def start_live(self) -> None:
        """On a server: listen for other players' operations (the file's watcher covers a file)."""
        self._stop_listening()  # (the window's connection and its thread stay: pages may be reading already)
        if not getattr(self, "_hears_server_lost", False):  # what the window's database thread finds gone
            self._hears_server_lost = True
            self.ctx.signals.server_lost.connect(self.server_lost)
        from ..store.opened import Capability, can

        target = self.ctx.server  # where to listen: the server the window connected to
        if target is None or not can(Capability.ANNOUNCES):
            return  # a file is polled (gui.watch)
        from .club import LiveUpdates

        self.live = LiveUpdates(self.ctx, target, self.ctx.password, self)
        self.live.start()

    def _stop_live(self) -> None:
        from .loader import stop_worker

        stop_worker(self.ctx)  # its connection belongs to the database being left
        self._stop_listening()

    def _stop_listening(self) -> None:
        live, self.live = self.live, None
        if live is not None:
            live.stop()
            live.deleteLater()

    def _show_database(self, problem: CampaignError | None = None) -> None:
        """The status bar names the database; on a server, the login and whether it is reachable."""
        from ..store.opened import Capability, can

        name = self.ctx.database_name
        target = self.ctx.server
        if target is None or not can(Capability.SEVERAL_LOGINS):
            # at most a third of the window: a long status message keeps its room (the tip has it in full)
            self.db_label.setText(elide_middle(self.db_label.fontMetrics(), name, max(200, self.width() // 3)))
            self.db_label.setToolTip(f"Database file {name}")
            return
        self.db_label.setText(f"Club server: {name}" + (" (not reachable)" if problem is not None else ""))
        self.db_label.setToolTip(
            f"{target.url()}\n(PostgreSQL; changes by other players show up here as they are made)"
        )

    def check_database(self) -> None:
        from .integrity import start_background_check

        start_background_check(self, announce_ok=True)  # the full check reads every page: not in this thread

    def export_campaign(self) -> None:
        from .portable_dialogs import export_campaign

        export_campaign(self.ctx, self, self._selected_campaign_id())

    def import_campaign(self) -> None:
        from .portable_dialogs import import_campaign

        new_id = import_campaign(self.ctx, self)
        if new_id:
            self.ctx.undo_stack.sync()  # the import is an operation of the journal: Undo offers it at once
            announce_everything(self.ctx, "a campaign was imported")
            self.open_item("campaign", new_id)

    def show_backups(self) -> None:
        from .backups_dialog import open_backups_dialog

        open_backups_dialog(self.ctx, self)
        self.watcher.reset()

    def open_data_folder(self) -> None:
        from .file_dialogs import open_with_desktop, say_cannot_open

        if not open_with_desktop(self.ctx.paths.data_dir):
            say_cannot_open(self, self.ctx.paths.data_dir, "data folder")

    def show_shortcuts(self) -> None:
        from .help_dialogs import ShortcutsDialog

        ShortcutsDialog(self).exec()

    def show_guide(self) -> None:
        from .help_dialogs import GuideWindow

        guide = getattr(self, "guide_window", None)
        if guide is None:
            guide = self.guide_window = GuideWindow(self)
        guide.show()
        guide.raise_()
        guide.activateWindow()

    def about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.about(
            self,
            f"About {APP_TITLE}",
            f"<h3>{APP_TITLE} {__version__}</h3>"
            "<p>A campaign tracker for tabletop wargamers: Atomic Africa platoons and Sologear pilots, "
            "their battles, post-battle rolls and printed sheets.</p>"
            f"<p>Database: {html.escape(self.ctx.database_name)}</p>",
        )

    # --- window state -----------------------------------------------------------------------------------
    def _restore_geometry(self) -> None:
        geometry = self.ctx.settings.value("main_window/geometry")
        state = self.ctx.settings.value("main_window/state")
        splitter = self.ctx.settings.value("main_window/splitter")
        if isinstance(geometry, QByteArray | bytes) and geometry:
            self.restoreGeometry(geometry)
        else:
            self.resize(*DEFAULT_SIZE)
        fit_window(self)
        if isinstance(state, QByteArray | bytes) and state:
            self.restoreState(state)
        if isinstance(splitter, QByteArray | bytes) and splitter:
            self.splitter.restoreState(splitter)

    def save_window_state(self) -> None:
        self.ctx.settings.setValue("main_window/geometry", self.saveGeometry())
        self.ctx.settings.setValue("main_window/state", self.saveState())
        self.ctx.settings.setValue("main_window/splitter", self.splitter.saveState())
        self._remember_current()
        self.ctx.settings.sync()

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        from ..store.opened import Capability, can

        if not can(Capability.SEVERAL_LOGINS):
            self._show_database()  # the file's name is cut to a third of the new width

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        self.save_window_state()
        self._stop_live()
        worker = getattr(self, "_check_worker", None)
        if worker is not None:
            worker.wait()  # the background check ends before the window (its parent) can go
        super().closeEvent(event)
