"""File ▸ Backups… (list, back up now, restore after a confirmation), File ▸ Export campaign… and
File ▸ Import campaign… (a name clash asks for another name)."""

from __future__ import annotations

import json

import pytest
from driving import shown_item
from PySide6.QtCore import QSettings, Qt, QThread
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from campaign_app.gui.backups_dialog import BackupsDialog
from campaign_app.gui.context import AppContext
from campaign_app.gui.feed import EVERYTHING
from campaign_app.gui.main_window import MainWindow
from campaign_app.services import backups, campaigns
from campaign_app.store.models import Campaign


def shown_box(win: MainWindow) -> QMessageBox | None:
    """The message box the window shows (the background check's report), as a person sees it on screen."""
    boxes = [b for b in win.findChildren(QMessageBox) if b.isVisible()]
    assert len(boxes) <= 1, [b.text() for b in boxes]
    return boxes[0] if boxes else None


def check_threads(win: MainWindow) -> list[QThread]:
    """The window's background check threads that still exist (a finished one is let go)."""
    from campaign_app.gui.integrity import CheckWorker

    return list(win.findChildren(CheckWorker))


@pytest.fixture
def ctx(qtbot, app_paths, fresh_db, tmp_path) -> AppContext:  # type: ignore[no-untyped-def]
    return AppContext(paths=app_paths, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


def test_backups_dialog_lists_and_restores_after_confirmation(qtbot, ctx, monkeypatch):
    campaigns.create_campaign("Before")
    backups.backup_now()
    campaigns.create_campaign("After")
    dialog = BackupsDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.table.rowCount() == 1
    assert dialog.table.item(0, 1).text() == "by hand" and dialog.table.item(0, 3).text() == "1"
    answers = [QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Yes]
    asked: list[str] = []

    def question(_parent, title, text, *args):  # type: ignore[no-untyped-def]
        asked.append(text)
        return answers.pop(0)

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
    assert sorted(c.name for c in Campaign.select()) == ["After", "Before"]  # cancelled: nothing changed
    reloads: list[str] = []
    ctx.signals.op_changed.connect(lambda changes: reloads.append(changes.kind))
    qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
    assert [c.name for c in Campaign.select()] == ["Before"]
    assert "1 campaign," in asked[0] and reloads == [EVERYTHING]
    assert "previous content was saved" in dialog.message.text()
    reasons = {dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())}
    assert reasons == {"by hand", "before a restore"}
    qtbot.mouseClick(dialog.backup_button, Qt.MouseButton.LeftButton)
    assert dialog.table.rowCount() == 3


def test_export_and_import_from_the_file_menu(qtbot, ctx, tmp_path, monkeypatch):
    from campaign_app.services.demo import create_demo

    create_demo()
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.open_item("campaign", Campaign.get(Campaign.name == "Congo 1960 (sample)").id)
    target = tmp_path / "congo.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    file_menu = win.menuBar().actions()[0].menu()
    texts = [a.text() for a in file_menu.actions()]
    assert {"&Export campaign…", "&Import campaign…", "&Backups…"} <= set(texts)
    win.act_export.trigger()
    doc = json.loads(target.read_text(encoding="utf-8"))
    assert doc["campaign"]["name"] == "Congo 1960 (sample)"
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(target), "")))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("Congo copy", True)))
    win.act_import.trigger()
    copy = Campaign.get(Campaign.name == "Congo copy")
    assert shown_item(win) == ("campaign", copy.id)
    assert copy.platoons.count() == 1


def test_tools_check_database_runs_in_the_background(qtbot, ctx):
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.check_database()
    assert win.statusBar().currentMessage() == "Checking the database in the background\u2026"
    qtbot.waitUntil(lambda: shown_box(win) is not None, timeout=10000)
    box = shown_box(win)
    assert "no problems" in box.text().lower() or "OK" in box.text()
    assert not box.isModal()
    box.close()
    qtbot.waitUntil(lambda: not check_threads(win), timeout=10000)


def test_background_check_reports_damage(qtbot, ctx, tmp_path):
    """A damaged copy checked by the worker thread: the report names the damage; the window is not blocked."""
    import shutil

    from campaign_app.gui.integrity import CheckWorker, report_check
    from campaign_app.services.demo import create_demo
    from campaign_app.store import close_db, init_db

    create_demo()
    for i in range(40):
        campaigns.create_campaign(f"Filler {i}", notes="x" * 800)
    close_db()
    damaged = tmp_path / "damaged.db"
    shutil.copy(ctx.paths.db_file, damaged)
    data = bytearray(damaged.read_bytes())
    data[4096 * 4 : 4096 * 5] = b"\x55" * 4096
    damaged.write_bytes(bytes(data))
    init_db(ctx.paths.db_file, ctx.paths.backup_dir)
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    worker = CheckWorker(damaged, win)
    with qtbot.waitSignal(worker.finished_check, timeout=20000) as blocker:
        worker.start()
    worker.wait()
    result = blocker.args[0]
    assert not isinstance(result, Exception) and not result.ok
    box = report_check(win, result, announce_ok=False)
    assert box is not None and "problem" in box.text() and "Backups" in box.text()
    assert not box.isModal()
    box.close()


def test_background_check_makes_the_daily_backup(qtbot, ctx):
    from campaign_app.gui.integrity import start_background_check

    campaigns.create_campaign("Worth keeping")
    assert not list(ctx.paths.backup_dir.glob("*-daily.db"))
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    assert start_background_check(win, daily_backup=True) is not None
    qtbot.waitUntil(lambda: not check_threads(win), timeout=20000)  # the thread ended and was let go
    (daily,) = ctx.paths.backup_dir.glob("*-daily.db")
    assert backups.backups()[0].campaigns == 1


def test_window_opens_when_the_log_folder_cannot_be_written(tmp_path):
    import os
    import subprocess
    import sys

    data = tmp_path / "other-data"
    data.mkdir()
    (data / "logs").write_text("a file where the log folder should be")
    shot = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(
        [sys.executable, "-m", "campaign_app.app", "--data-dir", str(data), "--screenshot", str(shot)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert shot.stat().st_size > 1000
    assert str(data / "logs") in result.stderr and "Traceback" not in result.stderr


def test_a_daily_backup_that_fails_is_shown_in_a_dialog(qtbot, ctx, monkeypatch):
    """The background check's daily backup could not be made: a (non-blocking) warning dialog says
    so, never only the log."""
    import campaign_app.store.backups as store_backups
    from campaign_app.gui.integrity import start_background_check

    campaigns.create_campaign("Worth keeping")
    monkeypatch.setattr(store_backups, "room_for_backup", lambda db_file, backup_dir: False)
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    assert start_background_check(win, daily_backup=True) is not None
    qtbot.waitUntil(lambda: shown_box(win) is not None, timeout=20000)
    box = shown_box(win)
    assert box.windowTitle() == "Backup not made" and "was not made" in box.text() and "free space" in box.text()
    assert not box.isModal()
    box.close()
    qtbot.waitUntil(lambda: not check_threads(win), timeout=20000)
    assert not list(ctx.paths.backup_dir.glob("*-daily.db"))


def test_damage_found_in_the_window_marks_the_file_and_refuses_changes(qtbot, ctx):
    """Damage the window's check finds stops writes (one line offering a restore); reads go on."""
    import sqlite3

    import pytest

    from campaign_app.gui.integrity import CheckWorker, report_check
    from campaign_app.services.demo import create_demo
    from campaign_app.store import close_db, init_db
    from campaign_app.store.damage import DatabaseDamagedError

    create_demo()
    close_db()
    con = sqlite3.connect(ctx.paths.db_file)
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'roll'").fetchone()[0]
    con.close()
    with ctx.paths.db_file.open("r+b") as fh:
        fh.seek((root - 1) * 4096 + 3)
        cells = fh.read(2)
        fh.seek((root - 1) * 4096 + 3)
        fh.write(bytes([cells[0] ^ 0x01, cells[1] ^ 0x40]))
    init_db(ctx.paths.db_file, ctx.paths.backup_dir, daily_backup=False)
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    worker = CheckWorker(ctx.paths.db_file, win)
    with qtbot.waitSignal(worker.finished_check, timeout=20000) as blocker:
        worker.start()
    worker.wait()
    box = report_check(win, blocker.args[0], announce_ok=False)
    assert box is not None and "changes are refused" in box.text()
    box.close()
    with pytest.raises(DatabaseDamagedError, match="restore"):
        campaigns.create_campaign("Into the damage")
    assert [c.name for c in campaigns.list_campaigns()]
