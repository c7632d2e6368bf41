"""``campaign-app``: start the desktop GUI.

``--screenshot FILE.png`` waits until the main window has painted (on a club server, until its pages are read),
saves it and exits 0 (works with ``QT_QPA_PLATFORM=offscreen``). ``--open KIND:NAME`` selects a campaign, platoon
or pilot first, ``--palette`` picks a light or dark look, ``--size WxH`` the window size (both handy for
screenshots).
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
import traceback
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import replace
from types import TracebackType
from typing import Any, cast

from . import APP_NAME, APP_TITLE, __version__
from .errors import CampaignError, StoreProblem
from .paths import AppPaths, resolve_paths
from .resources import version_text

log = logging.getLogger(__name__)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="campaign-app", description=f"{APP_TITLE}: desktop campaign tracker")
    p.add_argument("--version", action="version", version=version_text("campaign-app"))
    p.add_argument(
        "--data-dir", metavar="DIR", help="folder for the database, backups and logs (or set CAMPAIGN_APP_DATA_DIR)"
    )
    p.add_argument(
        "--db",
        metavar="FILE|URL",
        help="open this database file instead of <data folder>/campaign.db, or a club campaign on a "
        "PostgreSQL server: postgresql://login@host:5432/database (the password is asked, or "
        "taken from PGPASSWORD, .pgpass or the system keyring)",
    )
    p.add_argument(
        "--busy-timeout",
        metavar="SECONDS",
        help="how long a write waits for another window or command to finish writing (default 10, "
        "or set CAMPAIGN_APP_BUSY_TIMEOUT)",
    )
    p.add_argument("--screenshot", metavar="FILE.png", help="save a PNG of the main window and exit")
    p.add_argument(
        "--open",
        metavar="KIND:NAME",
        dest="open_item",
        help="show campaign:NAME, platoon:NAME, pilot:CAMPAIGN or fighter:NAME first",
    )
    p.add_argument("--tab", metavar="NAME", help="with --open: switch the page to this tab (e.g. History)")
    p.add_argument(
        "--palette",
        choices=["system", "light", "dark"],
        default=None,
        help="the look: the desktop's own (system), light or dark; without it the theme chosen in "
        "View \u25b8 Theme (system at first)",
    )
    p.add_argument("--size", metavar="WxH", help="window size, e.g. 1280x800")
    return p


_SYSTEM_LOOK: list[Any] = []
"""The desktop's own style name and palette, kept the first time another theme is applied (System puts them
back)."""


def apply_palette(app: Any, which: str) -> None:
    if which == "system":
        if _SYSTEM_LOOK:
            app.setStyle(_SYSTEM_LOOK[0])
            app.setPalette(_SYSTEM_LOOK[1])
        return
    from PySide6.QtGui import QColor, QPalette  # not at a start with the desktop's own look: their enums cost

    if not _SYSTEM_LOOK:
        _SYSTEM_LOOK.extend([app.style().name(), QPalette(app.palette())])
    app.setStyle("Fusion")
    if which == "light":
        app.setPalette(app.style().standardPalette())
        return
    pal = QPalette()
    role = QPalette.ColorRole
    dark, mid, text = QColor(45, 45, 48), QColor(58, 58, 62), QColor(230, 230, 230)
    for r, c in (
        (role.Window, dark),
        (role.WindowText, text),
        (role.Base, mid),
        (role.AlternateBase, dark),
        (role.ToolTipBase, dark),
        (role.ToolTipText, text),
        (role.Text, text),
        (role.Button, dark),
        (role.ButtonText, text),
        (role.BrightText, QColor(255, 80, 80)),
        (role.Highlight, QColor(42, 130, 218)),
        (role.HighlightedText, QColor(0, 0, 0)),
        (role.Link, QColor(100, 170, 255)),
        (role.PlaceholderText, QColor(150, 150, 150)),
    ):
        pal.setColor(r, c)
    # the 3D roles: Fusion draws check-box and radio outlines, frames and separators from them
    for r, c in (
        (role.Light, QColor(90, 90, 95)),
        (role.Midlight, QColor(70, 70, 74)),
        (role.Mid, QColor(60, 60, 64)),
        (role.Dark, QColor(20, 20, 22)),
        (role.Shadow, QColor(10, 10, 10)),
    ):
        pal.setColor(r, c)
    pal.setColor(QPalette.ColorGroup.Disabled, role.Text, QColor(120, 120, 120))
    pal.setColor(QPalette.ColorGroup.Disabled, role.WindowText, QColor(120, 120, 120))  # a disabled box's label
    pal.setColor(QPalette.ColorGroup.Disabled, role.ButtonText, QColor(120, 120, 120))
    app.setPalette(pal)


def refresh_all_windows() -> None:
    """Every main window reloads what it shows from the database (after a refused write, the widgets show
    the stored values again)."""
    from PySide6.QtWidgets import QApplication

    for widget in QApplication.topLevelWidgets():
        ctx = getattr(widget, "ctx", None)
        if ctx is not None and hasattr(ctx, "signals"):
            try:
                from .gui.feed import announce_everything

                announce_everything(ctx, "a write was refused")
            except Exception:  # a view that cannot reload must not hide the message being shown
                log.exception("reloading the views failed")


def install_exception_hook() -> None:
    """Log an uncaught exception and show it in a dialog instead of killing the window. A refused write
    (busy database, disk full, read-only file, bad input) is one plain message, and every view is reloaded
    so that no widget keeps showing a value that was not stored."""
    from PySide6.QtWidgets import QApplication

    refreshing: list[bool] = []

    def refresh() -> None:
        """Reload every window. A view that fails while reloading raises in a slot, which comes back to the
        hook: that second error is logged, not handled again (else each reload fails, reloads, fails ...)."""
        refreshing.append(True)
        try:
            refresh_all_windows()
        finally:
            refreshing.pop()

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        from PySide6.QtWidgets import QMessageBox  # its enums cost ~13 ms to build: not at start

        text = "".join(traceback.format_exception(exc_type, exc, tb))
        if refreshing:
            log.error("a view failed while reloading after an error:\n%s", text)
            return
        if QApplication.instance() is None:
            log.error("uncaught exception:\n%s", text)
            sys.__excepthook__(exc_type, exc, tb)
            return
        window = _server_window()
        if window is not None:
            from .services.server_link import lost_connection

            lost = lost_connection(exc, window.ctx.server)
            if lost is not None:  # the club server went away: one message and the ways on, not a traceback
                log.warning("the club server is not reachable: %s", lost)
                window.server_lost(lost)
                return
        if isinstance(exc, CampaignError):  # expected: a refusal or trouble in the environment
            log.warning("refused: %s", exc)
            title = "Nothing was saved" if isinstance(exc, StoreProblem) else "Cannot do that"
            refresh()
            text = str(exc)
            QMessageBox.warning(
                QApplication.activeWindow(),
                title,
                f"{text[:1].upper()}{text[1:]}\n\nThe window shows the stored values again.",
            )
            return
        log.error("uncaught exception:\n%s", text)
        refresh()
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            "Unexpected error",
            f"Something went wrong: {exc}\n\nWhat was stored before is safe; the window shows "
            "the stored values again. The details are in the log file.",
            QMessageBox.StandardButton.Ok,
        )
        box.setDetailedText(text)
        copy = box.addButton("&Copy report", QMessageBox.ButtonRole.ActionRole)
        copy.setToolTip("Copy what happened (with the app's version) to paste into a message or a bug report")
        folder = box.addButton("Open &log folder", QMessageBox.ButtonRole.ActionRole)
        while True:  # the two helpers keep the box open: it closes with OK only
            box.exec()
            if box.clickedButton() is copy:
                QApplication.clipboard().setText(error_report(text))
                box.setInformativeText("The report is on the clipboard.")
            elif box.clickedButton() is folder:
                open_log_folder(box)
            else:
                break

    sys.excepthook = hook


def error_report(details: str) -> str:
    """What "Copy report" puts on the clipboard: the app's version, the platform and the traceback (no
    passwords: a traceback holds none, the database URL shown is the window's, without its password)."""
    import platform

    from PySide6 import __version__ as pyside_version

    return (
        f"{APP_TITLE} {__version__} on Python {platform.python_version()}, PySide6 {pyside_version}, "
        f"{platform.platform()}\n\n{details}"
    )


def log_folder() -> Any:
    """The log folder of the open window (None before there is one)."""
    from PySide6.QtWidgets import QApplication

    active = QApplication.activeWindow()
    candidates = [
        active,
        *(w for w in QApplication.topLevelWidgets() if w.isVisible()),
        *QApplication.topLevelWidgets(),
    ]
    for widget in candidates:  # the window the user works in first (the error box's own window)
        paths = getattr(getattr(widget, "ctx", None), "paths", None)
        if paths is not None:
            return paths.log_dir
    return None


def open_log_folder(parent: Any) -> None:
    """Open the log folder, or say where it is when no program can open folders here."""
    from .gui.file_dialogs import open_with_desktop, say_cannot_open

    folder = log_folder()
    if folder is None:
        return
    if not open_with_desktop(folder):
        say_cannot_open(parent, folder, "log folder")


def _server_window() -> Any:
    """The main window working on a club server (None when every window works on a file)."""
    from PySide6.QtWidgets import QApplication

    for widget in QApplication.topLevelWidgets():
        ctx = getattr(widget, "ctx", None)
        if ctx is not None and getattr(ctx, "server", None) is not None and hasattr(widget, "server_lost"):
            return widget
    return None


def _open_first(window: Any, spec: str, tab: str | None) -> None:
    from .services.navigator import find_item

    asked, _, name = spec.partition(":")
    asked = asked.strip().lower()
    kind = {
        "campaign": "campaign",
        "platoon": "platoon",
        "pilot": "sheet",
        "sheet": "sheet",
        "sologear": "sheet",
        "fighter": "fighter",
    }.get(asked, "")
    if not kind:
        raise SystemExit(f"campaign-app: --open needs campaign:NAME, platoon:NAME or pilot:NAME, not {spec!r}")
    found = find_item(kind, name)
    if found is None:
        raise SystemExit(f"campaign-app: --open: nothing named {name!r} ({asked})")
    window.open_item(kind, found)
    if tab:
        from PySide6.QtWidgets import QTabWidget

        page = window.stack.currentWidget()
        for tabs in page.findChildren(QTabWidget):
            for i in range(tabs.count()):
                if tabs.tabText(i).replace("&", "").lower() == tab.lower():
                    _show_tab(tabs, i)  # a tab inside another tab (History ▸ Charts) shows both
                    return
        names = sorted(
            {tabs.tabText(i).replace("&", "") for tabs in page.findChildren(QTabWidget) for i in range(tabs.count())}
        )
        raise SystemExit(f"campaign-app: --tab: no tab named {tab!r} on this page (tabs: {', '.join(names)})")


def _show_tab(tabs: Any, index: int) -> None:
    from PySide6.QtWidgets import QTabWidget

    widget = tabs
    while widget is not None:
        parent = widget.parentWidget()
        outer = parent.parentWidget() if parent is not None else None  # a tab page sits in the stack
        if isinstance(outer, QTabWidget) and outer.indexOf(widget) >= 0:
            outer.setCurrentIndex(outer.indexOf(widget))
        widget = parent
    tabs.setCurrentIndex(index)


def open_database(paths: AppPaths, busy_timeout: Any = None) -> CampaignError | None:
    """Open the database file; returns why it cannot be opened (no dialog: the window's start opens the file
    before PySide6 is loaded, and says why once there is a QApplication)."""
    from .store import init_db

    try:
        # the daily backup, the page check and the journal's budget run once the window has painted
        # (finish_start): start-up never waits for them
        init_db(paths.db_file, paths.backup_dir, busy_timeout=busy_timeout, daily_backup=False, upkeep=False)
    except CampaignError as exc:
        log.error("cannot open database: %s", exc)
        return exc
    return None


def open_database_or_explain(paths: AppPaths, busy_timeout: Any = None, quiet: bool = False) -> bool:
    """Open the database; when it cannot be opened, say why in one dialog (or one line with ``quiet``)."""
    problem = open_database(paths, busy_timeout)
    if problem is not None:
        explain(f"{APP_TITLE}: cannot open the database", str(problem), quiet)
        return False
    return True


def open_server_or_explain(settings: Any, paths: AppPaths, url: str, busy_timeout: Any = None) -> Any:
    """``--db postgresql://...``: open the club server, asking for the password when it wants one; when it
    cannot be reached, offer Try Again and Open Local File Instead (the data folder's usual file). Returns the
    Login that opened the server, "local" when the local file was opened instead, or None to quit."""
    from .gui.club import LOCAL, open_server_interactively
    from .server_target import parse_server_url

    try:
        target, password = parse_server_url(url)
    except CampaignError as exc:
        explain(f"{APP_TITLE}: bad server address", str(exc))
        return None
    result = open_server_interactively(
        settings, None, target, password, paths.backup_dir, paths.db_file, busy_timeout, closing="&Quit"
    )
    if result == LOCAL:
        return "local" if open_database_or_explain(paths, busy_timeout) else None
    if isinstance(result, str):
        return None
    log.info("connected to the club server %s", result.target.display())
    return result


def explain(title: str, text: str, quiet: bool = False) -> None:
    """One start-up problem: a dialog, and the same on stderr (one line)."""
    print(f"campaign-app: error: {' '.join(text.split())}", file=sys.stderr)
    if not quiet:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.critical(None, title, text[:1].upper() + text[1:])  # a dialog's sentence starts with a capital


def prepare_folders(paths: AppPaths) -> str | None:
    """Create the data folders. Returns the problem (naming the folder) when the database's folder cannot be
    made; a log or backup folder that cannot be made only costs the log file or the backups."""
    import contextlib

    try:
        paths.data_dir.mkdir(parents=True, exist_ok=True)
        paths.db_file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        folder = exc.filename or paths.data_dir
        if isinstance(exc, FileExistsError | NotADirectoryError):
            return (
                f"The data folder {folder} cannot be used: it (or a folder above it) is a file, not a folder. "
                "Choose another folder with --data-dir or CAMPAIGN_APP_DATA_DIR."
            )
        return (
            f"The data folder {folder} cannot be created or written ({exc.strerror or exc}). Choose another "
            "folder with --data-dir or CAMPAIGN_APP_DATA_DIR, or make this one writable."
        )
    for folder in (paths.backup_dir, paths.log_dir):
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
    return None


def start_logging(paths: AppPaths) -> None:
    from .logsetup import setup_logging

    try:
        setup_logging(paths.log_dir)
    except OSError as exc:
        logging.basicConfig(level=logging.WARNING)
        log.warning(
            "cannot write the log folder %s (%s); logging to the console only", paths.log_dir, exc.strerror or exc
        )


def take_screenshot(app: Any, window: Any, path: str) -> int:
    from PySide6.QtCore import QEventLoop, QTimer

    window.show()
    # wait until the window is exposed and has painted (a few event-loop turns; no fixed sleep)
    loop = QEventLoop()
    for _ in range(40):
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        if window.isVisible() and window.windowHandle() is not None and window.windowHandle().isExposed():
            break
    worker = getattr(getattr(window, "ctx", None), "db_worker", None)  # on a club server: pages read off-thread
    for _ in range(3000):  # (processEvents returns at once when nothing is queued: up to 30 s in 10 ms steps)
        if worker is None or not worker.pending:
            break
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        worker.wait_for_answer(0.01)
    QTimer.singleShot(150, loop.quit)
    loop.exec()
    app.processEvents()
    image = window.grab()
    if image.isNull() or not image.save(path):
        print(f"campaign-app: could not save the screenshot to {path}", file=sys.stderr)
        return 1
    return 0


PRELOADED = (
    "campaign_app.store",
    "campaign_app.services.navigator",
    "campaign_app.services.journal",
    "campaign_app.services.edits",
    "campaign_app.services.server_link",
    "campaign_app.server_target",
    "html",
    "queue",
)
"""The Qt-free modules the window's start needs, imported before PySide6: once PySide6 is loaded, every import
statement goes through its ``__feature__`` hook, which reads the source of each module it has not seen."""


def preload_core() -> None:
    import importlib

    for name in PRELOADED:
        importlib.import_module(name)


def finish_start(window: Any) -> None:
    """What opening the file leaves until the window has painted: the file's upkeep (half-written backup
    copies, the journal's budget), then the page check and the daily backup in the background thread, whose
    findings (damage, a backup not made) are shown in a dialog."""
    from .gui.integrity import start_background_check
    from .store.database import upkeep

    upkeep()
    start_background_check(window, daily_backup=True)


def after_first_paint(window: Any, work: Callable[[], None], latest_ms: int = 3000) -> None:
    """Run ``work`` once, in the event loop, after the window's first expose (Qt paints a widget window while
    handling it), or after ``latest_ms`` when no expose comes (a window started minimised)."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    ran: list[bool] = []

    def once() -> None:
        if not ran:
            ran.append(True)
            work()

    handle = window.windowHandle()
    if handle is None or handle.isExposed():
        QTimer.singleShot(0, once)
        return

    class Exposed(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Expose and handle.isExposed():
                handle.removeEventFilter(self)
                QTimer.singleShot(0, once)  # after this expose has been handled, i.e. painted
            return False

    handle.installEventFilter(Exposed(window))
    QTimer.singleShot(latest_ms, once)


def main(argv: Sequence[str] | None = None) -> int:
    """Start the window. The cyclic garbage collector rests until the window has painted: start-up only makes
    what lives on (modules, classes, Qt's enums, widgets), and the rounds it would trigger (some 70, each
    walking everything made so far) cost a fiftieth of the start for nothing. Once painted, what start-up made is
    frozen (``gc.freeze``: no later round walks it again) and collection runs from a timer of the GUI thread only
    (``gui/collector.py``: a round started on the window's database thread could free widgets there)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _start(argv, resume_gc=_collector_back)
    finally:
        if paused:
            gc.enable()


_collector: list[object] = []
"""The GUI thread's collector, once made (one per process: the application's)."""


def _collector_back() -> None:
    """Freeze what start-up made; from now on the GUI thread collects (once, for the application's lifetime)."""
    if _collector:
        return
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        return
    gc.freeze()
    from .gui.collector import GuiThreadCollector

    collector = GuiThreadCollector(app)
    _collector.append(collector)


def _start(argv: Sequence[str] | None, resume_gc: Callable[[], None]) -> int:
    args = build_parser().parse_args(argv)
    paths = resolve_paths(args.data_dir, args.db)  # a server: the usual file of the data folder stays local
    server_url = paths.db_url
    if server_url:  # the window keeps the server in its context (ctx.server), the paths name local folders
        paths = replace(paths, db_url=None)
    problem = prepare_folders(paths)
    start_logging(paths)
    log.info(
        "campaign-app %s starting; database %s", __version__, "a club server" if server_url else paths.db_file
    )  # a URL may hold a password: never logged

    from .lazy_postgres import postgres_drivers_hidden
    from .lazy_stdlib import loaded_on_first_use

    # a file never needs psycopg; peewee's rarely used standard-library modules are imported on first use
    with postgres_drivers_hidden() if not server_url else nullcontext(), loaded_on_first_use():
        preload_core()
    from .store.file_engine import busy_timeout_setting

    try:
        busy_timeout = busy_timeout_setting(args.busy_timeout)
    except CampaignError as exc:  # DatabaseError: a bad number
        explain(f"{APP_TITLE}: bad setting", str(exc), True)
        return 2
    # a file is opened before PySide6 is loaded: from then on every import statement (the store's imports
    # inside functions too) goes through PySide6's __feature__ hook, which made the opening ~10 ms slower
    not_opened = open_database(paths, busy_timeout) if not (server_url or problem) else None
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = cast(QApplication, QApplication.instance() or QApplication(sys.argv[:1]))  # the app's own: a QApplication
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    app.setApplicationDisplayName(APP_TITLE)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("campaign-app")  # matches the installed campaign-app.desktop (campaign-cli install-desktop)
    from .gui.icons import app_icon

    app.setWindowIcon(app_icon())
    install_exception_hook()

    quiet = False  # the dialog is the message (tests replace QMessageBox.critical)
    if problem:
        explain(f"{APP_TITLE}: cannot use the data folder", problem, quiet)
        return 1
    settings = QSettings(str(paths.data_dir / "window.ini"), QSettings.Format.IniFormat)
    from .gui.appearance import apply_saved_look

    apply_saved_look(app, settings, args.palette)  # View ▸ Theme and Text size, or --palette for this run
    login = None
    if server_url:
        resume_gc()  # a password dialog may wait for the user
        login = open_server_or_explain(settings, paths, server_url, busy_timeout)
        if login is None:
            return 1
        if login == "local":
            login = None
    elif not_opened is not None:
        explain(f"{APP_TITLE}: cannot open the database", str(not_opened), quiet)
        return 1

    from .gui.context import AppContext
    from .gui.main_window import MainWindow

    ctx = AppContext(paths=paths, settings=settings)
    if login is not None:
        ctx.server, ctx.password = login.target, login.password
    window = MainWindow(ctx)
    ctx.busy_timeout = busy_timeout
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            print(f"campaign-app: --size needs WxH like 1280x800, not {args.size!r}", file=sys.stderr)
            return 2
        window.resize(w, h)
    if args.open_item:
        _open_first(window, args.open_item, args.tab)
    elif not args.screenshot:
        window.reopen_last()  # the platoon or pilot that was open when the app last closed
    if args.screenshot:
        code = take_screenshot(app, window, args.screenshot)
        from .store import close_db

        close_db()
        return code
    window.show()
    window.start_live()  # on a club server: other players' changes show up as they are made

    def painted() -> None:
        resume_gc()
        finish_start(window)

    after_first_paint(window, painted)
    code = app.exec()
    worker = getattr(window, "_check_worker", None)
    if worker is not None:
        worker.wait()  # a check still reading the file finishes before the database closes
    from .store import close_db

    close_db()
    return int(code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
