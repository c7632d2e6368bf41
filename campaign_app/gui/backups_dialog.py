"""File ▸ Backups…: the backups of the open database (time, reason, size, campaigns, battles), "Back up now"
and "Restore…" (after a confirmation; the current database is backed up first)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..words import plural
from .sizing import fit_resize

if TYPE_CHECKING:
    from ..services.backups import Backup

REASON_TEXT = {
    "upgrade": "before an upgrade",
    "restore": "before a restore",
    "import": "before an import",
    "delete": "before a deletion",
    "daily": "daily",
    "manual": "by hand",
}
COLUMNS = ("Time", "Made", "Size", "Campaigns", "Battles", "File")


def _when(b: Backup) -> str:
    return b.time.isoformat(sep=" ", timespec="seconds")


def _size(n: Any) -> str:
    if not isinstance(n, int):
        return "?"
    if n < 1024:
        return f"{n} bytes"
    return f"{n / 1024:.0f} KiB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MiB"


class BackupsDialog(QDialog):
    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle("Backups")
        fit_resize(self, 820, 420)
        self.items: list[Backup] = []
        intro = QLabel(
            f"Backups of {ctx.paths.db_file}, kept in {ctx.paths.backup_dir}. One is made before every "
            "upgrade, restore, import and campaign deletion, and once per day of use.",
            self,
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setAccessibleName("Backups of this database")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.doubleClicked.connect(lambda _i: self.restore_selected())
        self.backup_button = QPushButton("&Back up now", self)
        self.restore_button = QPushButton("&Restore…", self)
        self.backup_button.clicked.connect(self.backup_now)
        self.restore_button.clicked.connect(self.restore_selected)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.backup_button)
        row.addWidget(self.restore_button)
        row.addStretch(1)
        row.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.message)
        layout.addLayout(row)
        self.reload()

    def reload(self) -> None:
        from ..services import backups

        try:
            self.items = backups.backups()
        except CampaignError as exc:
            self.items = []
            self.message.setText(str(exc))
        self.table.setRowCount(len(self.items))
        for r, b in enumerate(self.items):
            good = b.good
            name = b.file.name
            values = (
                _when(b),
                REASON_TEXT.get(b.reason, b.reason),
                _size(b.size),
                str(b.campaigns) if good else "-",
                str(b.battles) if good else "-",
                name if good else f"{name}  (not usable)",
            )
            tip = str(b.file) if good else f"{b.file}\nNot usable: {b.problem}"
            for c, text in enumerate(values):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                if c in (2, 3, 4):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        if self.items:
            self.table.selectRow(0)
        self._update_buttons()

    def selected(self) -> Backup | None:
        rows = self.table.selectionModel().selectedRows()
        return self.items[rows[0].row()] if rows else None

    def _update_buttons(self) -> None:
        b = self.selected()
        self.restore_button.setEnabled(b is not None and b.good)

    def backup_now(self) -> None:
        from ..services import backups

        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            info = backups.backup_now("manual")
        except CampaignError as exc:
            QApplication.restoreOverrideCursor()
            QMessageBox.warning(self, "Back up", str(exc))
            return
        QApplication.restoreOverrideCursor()
        self.reload()
        self.message.setText(f"Backed up to {info.file}.")

    def confirm(self, b: Backup) -> bool:
        answer = QMessageBox.question(
            self,
            "Restore this backup?",
            f"Put the backup of {_when(b)} ({plural(b.campaigns or 0, 'campaign')}, "
            f"{plural(b.battles or 0, 'battle')}) in place of the current database?\n\n"
            "The current database is backed up first, so this can be undone by restoring that backup.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def restore_selected(self) -> None:
        from ..services import backups

        b = self.selected()
        if b is None or not b.good or not self.confirm(b):
            return
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            result = backups.restore(b.file)
        except CampaignError as exc:
            QApplication.restoreOverrideCursor()
            QMessageBox.warning(self, "Restore", str(exc))
            return
        QApplication.restoreOverrideCursor()
        self.ctx.undo_stack.sync()  # the restored file brings its own journal
        from .feed import announce_everything

        announce_everything(self.ctx, "a backup was restored")
        self.reload()
        self.message.setText(
            f"Restored from {result.restored_from}; the previous content was saved as {result.previous_saved_as}."
        )


def open_backups_dialog(ctx: Any, parent: QWidget | None = None) -> BackupsDialog:
    dialog = BackupsDialog(ctx, parent)
    dialog.exec()
    return dialog
