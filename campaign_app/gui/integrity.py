"""The full integrity check of the open database, run in a background thread so the window never waits for
it (it reads every page: long on a big file). Damage is reported in a dialog and in the status bar."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, QThread, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from ..errors import CampaignError

log = logging.getLogger(__name__)


class CheckWorker(QThread):
    """Runs :func:`campaign_app.store.check.check_file` on its own read-only connection; with
    ``backup_dir``, a good file that has no daily backup yet gets one (so the window's start never waits for
    the copy or its check)."""

    finished_check = Signal(object)
    """A CheckReport, or an Exception when the file could not be read at all."""

    def __init__(self, db_file: Path, parent: QObject | None = None, backup_dir: Path | None = None) -> None:
        super().__init__(parent)
        self.db_file = db_file
        self.backup_dir = backup_dir

    def run(self) -> None:  # noqa: D401 - QThread override
        from ..store.backups import daily_backup
        from ..store.check import check_file

        try:
            result: Any = check_file(self.db_file)
            if self.backup_dir is not None:
                problems: list[str] = []
                if result.ok:
                    daily_backup(
                        self.db_file,
                        self.db_file,
                        self.backup_dir,
                        check=False,  # checked just now
                        problems=problems,
                    )
                else:
                    from ..store.backups import has_daily_backup_today

                    if not has_daily_backup_today(self.backup_dir, self.db_file):
                        problems.append(f"today's backup of {self.db_file} was not made: the file is damaged")
                result.facts["backup_problem"] = problems[0] if problems else None
        except (CampaignError, OSError) as exc:  # reported in the GUI thread, never raised in this thread
            log.warning("background check of %s failed: %s", self.db_file, exc)
            result = exc
        except Exception as exc:  # a bug: logged with its traceback, and the check is reported as not made
            log.exception("background check of %s failed", self.db_file)
            result = exc
        self.finished_check.emit(result)


def start_background_check(
    window: QWidget, *, announce_ok: bool = False, daily_backup: bool = False
) -> CheckWorker | None:
    """Check the window's database in the background; a finding opens a (non-blocking) warning dialog.
    With ``announce_ok`` (Tools ▸ Check database) a clean result is shown too."""
    ctx = getattr(window, "ctx", None)
    if ctx is None:
        return None
    if getattr(ctx, "server", None) is not None:
        return None  # a club server's database is checked and backed up by its administrator
    old: CheckWorker | None = getattr(window, "_check_worker", None)
    if old is not None:
        return old  # one check at a time
    worker = CheckWorker(ctx.paths.db_file, window, ctx.paths.backup_dir if daily_backup else None)
    window._check_worker = worker  # type: ignore[attr-defined]  # kept on the window asked (any QWidget)

    def done(result: Any) -> None:
        report_check(window, result, announce_ok)

    def ended() -> None:  # QThread.finished: run() has returned; wait for the thread's very end, then let it go
        window._check_worker = None  # type: ignore[attr-defined]  # see above
        worker.wait()  # deleting a QThread still running aborts the app
        worker.deleteLater()

    worker.finished_check.connect(done)
    worker.finished.connect(ended)
    bar = getattr(window, "statusBar", None)
    if callable(bar):
        bar().showMessage("Checking the database in the background…", 4000)
    worker.start(QThread.Priority.LowPriority)
    return worker


def report_check(window: QWidget, result: Any, announce_ok: bool) -> QMessageBox | None:
    bar = getattr(window, "statusBar", None)
    backup_problem = None
    if isinstance(result, Exception):
        text = f"The database could not be checked: {result}"
        ok = False
    else:
        ok = result.ok
        text = result.text()
        backup_problem = result.facts.pop("backup_problem", None)
    if ok and backup_problem:  # never only logged
        if callable(bar):
            bar().showMessage("Today's backup was not made.", 15000)
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Backup not made",
            f"{backup_problem[:1].upper()}{backup_problem[1:]}.\n\nYour changes are still saved in "
            "the database; make a backup with File \u25b8 Backups\u2026 once that is fixed.",
            QMessageBox.StandardButton.Ok,
            window,
        )
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.show()
        window._check_box = box  # type: ignore[attr-defined]  # kept alive by the window (any QWidget)
        return box
    if not ok and not isinstance(result, Exception):
        from ..store.database import damage_of

        if damage_of(Path(result.db_file)) is not None:
            text += "\n\nUntil then changes are refused, so that nothing more is written into the damage."
    if ok:
        if callable(bar):
            bar().showMessage("Database check: no problems found.", 6000)
        if not announce_ok:
            return None
    elif callable(bar):
        bar().showMessage("Database check found problems: see File ▸ Backups… to restore a good copy.", 15000)
    box = QMessageBox(
        QMessageBox.Icon.Information if ok else QMessageBox.Icon.Warning,
        "Database check",
        text
        if ok
        else text + "\n\nFile ▸ Backups… lists the backups; restore the newest good one "
        "to go back to an undamaged copy.",
        QMessageBox.StandardButton.Ok,
        window,
    )
    box.setWindowModality(Qt.WindowModality.NonModal)  # the window stays usable while it is shown
    box.show()
    window._check_box = box  # type: ignore[attr-defined]  # kept alive by the window (any QWidget)
    return box
