"""The desktop start paints the window first; the file's upkeep, the page check and the daily backup follow
once it has painted, and what they find is still shown. Each start runs ``campaign-app`` in a fresh
interpreter with the event loop running, as a person starts it (no ``--screenshot``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

START = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
import campaign_app.app as app
from campaign_app.store.backups import has_daily_backup_today

data = Path(sys.argv[1])
db_file, backup_dir = data / "campaign.db", data / "backups"
app.install_exception_hook = lambda: None  # a failure must end the run, not wait in a message box
seen = {}
usual_finish = app.finish_start

def finish(window):
    handle = window.windowHandle()
    seen["exposed_before"] = bool(handle is not None and handle.isExposed())
    seen["backup_before"] = has_daily_backup_today(backup_dir, db_file)
    seen["stale_before"] = [p.name for p in backup_dir.glob(".*.part")]
    usual_finish(window)
    seen["stale_after_upkeep"] = [p.name for p in backup_dir.glob(".*.part")]

    def when_checked():
        said = window.statusBar().currentMessage()  # what a person sees when the check has ended
        if not said.startswith("Database check"):
            QTimer.singleShot(50, when_checked)
            return
        boxes = [box for box in window.findChildren(QMessageBox) if box.isVisible()]
        seen["box"] = [boxes[0].windowTitle(), boxes[0].text()] if boxes else None
        seen["backup_after"] = has_daily_backup_today(backup_dir, db_file)
        QApplication.instance().quit()

    QTimer.singleShot(50, when_checked)

app.finish_start = finish
code = app.main(["--data-dir", str(data), "--size", "900x600"])
print(json.dumps(seen))
sys.exit(code)
"""


def _env(data: Path) -> dict[str, str]:
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", CAMPAIGN_APP_DATA_DIR=str(data))


def _demo(data: Path) -> Path:
    result = subprocess.run(
        [sys.executable, "-m", "campaign_app.cli", "demo", "--data-dir", str(data)],
        capture_output=True,
        text=True,
        env=_env(data),
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return data / "campaign.db"


def _start(data: Path) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", START, str(data)], capture_output=True, text=True, env=_env(data), timeout=120
    )
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def test_the_daily_backup_and_the_upkeep_follow_the_first_paint(tmp_path: Path) -> None:
    data = tmp_path / "data"
    db_file = _demo(data)
    for daily in (data / "backups").glob("*daily*"):  # the demo's own run may have made today's
        daily.unlink()
    stale = data / "backups" / f".{db_file.stem}.db.pid999999999.x.part"  # left by a killed program
    stale.write_bytes(b"half a copy")

    seen = _start(data)

    assert seen["exposed_before"] is True  # the window was on screen before any of it ran
    assert seen["backup_before"] is False and seen["stale_before"] == [stale.name]
    assert seen["stale_after_upkeep"] == []
    assert seen["backup_after"] is True  # today's backup was still made
    assert seen["box"] is None  # a good file: nothing to say


def test_a_damaged_file_is_still_reported_after_the_start(tmp_path: Path) -> None:
    import sqlite3

    data = tmp_path / "data"
    db_file = _demo(data)
    con = sqlite3.connect(db_file)
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'roll'").fetchone()[0]
    con.close()
    with db_file.open("r+b") as fh:  # a broken b-tree page: the file opens, the page check finds it
        fh.seek((root - 1) * 4096 + 3)
        cells = fh.read(2)
        fh.seek((root - 1) * 4096 + 3)
        fh.write(bytes([cells[0] ^ 0x01, cells[1] ^ 0x40]))

    seen = _start(data)

    assert seen["exposed_before"] is True
    title, text = seen["box"]  # type: ignore[misc]
    assert title == "Database check" and "changes are refused" in str(text) and "Backups" in str(text)
