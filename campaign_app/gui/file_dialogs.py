"""The one way the app asks for a file: every file dialog starts in the folder the user picked last (kept in
the window settings), or in the user's Documents folder the first time."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths, Qt
from PySide6.QtWidgets import QFileDialog, QWidget

LAST_FOLDER_KEY = "files/last_folder"


def documents_folder() -> Path:
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if docs and Path(docs).is_dir():
        return Path(docs)
    return Path.home()


def start_folder(settings: QSettings) -> Path:
    """The folder the user chose last if it still exists, else Documents (else the home folder)."""
    last = settings.value(LAST_FOLDER_KEY, "")
    if last and Path(str(last)).is_dir():
        return Path(str(last))
    return documents_folder()


def remember_folder(settings: QSettings, path: str | Path) -> None:
    """Remember the folder of ``path`` (a file) for the next file dialog."""
    folder = Path(path).expanduser().resolve().parent
    settings.setValue(LAST_FOLDER_KEY, str(folder))


def ask_save_path(
    parent: QWidget | None, settings: QSettings, title: str, suggested_name: str, filters: str
) -> Path | None:
    """Ask where to save; ``None`` when the user cancels. The chosen folder is remembered."""
    start = start_folder(settings) / suggested_name
    chosen, _ = QFileDialog.getSaveFileName(parent, title, str(start), filters)
    if not chosen:
        return None
    remember_folder(settings, chosen)
    return Path(chosen)


def ask_open_path(parent: QWidget | None, settings: QSettings, title: str, filters: str) -> Path | None:
    """Ask for an existing file; ``None`` when the user cancels. The chosen folder is remembered."""
    chosen, _ = QFileDialog.getOpenFileName(parent, title, str(start_folder(settings)), filters)
    if not chosen:
        return None
    remember_folder(settings, chosen)
    return Path(chosen)


def open_with_desktop(path: Path) -> bool:
    """Open a file or folder with the desktop's program for it; False when there is none (no PDF viewer, no
    file manager: a bare window manager). On Linux Qt only starts ``xdg-open`` and calls that a success even
    when xdg-open then finds no program: its exit status is read here instead (a viewer that keeps it
    waiting counts as opened)."""
    import shutil
    import subprocess
    import sys

    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices

    opener = shutil.which("xdg-open") if sys.platform.startswith("linux") else None
    if opener is None:
        return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))))
    try:
        done = subprocess.run(
            [opener, str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=OPEN_WAIT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return True  # a program is showing it
    except OSError:
        return False
    return done.returncode == 0


OPEN_WAIT_SECONDS = 3
"""How long the app waits for xdg-open to say whether a program took the file."""


def say_cannot_open(parent: QWidget | None, path: Path, what: str) -> None:
    """No program could open ``path``: say where it is instead of failing silently."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(
        QMessageBox.Icon.Information,
        f"Cannot open the {what}",
        f"No program on this computer opens the {what}. It is here:\n{path}",
        QMessageBox.StandardButton.Ok,
        parent,
    )
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.exec()
