from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage


def _run(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "campaign_app", *args, "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_screenshot_saves_png_and_exits_zero(tmp_path: Path):
    out = tmp_path / "shot.png"
    result = _run("--screenshot", str(out), "--size", "1000x700", data_dir=tmp_path / "d")
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert not image.isNull()
    assert (image.width(), image.height()) == (1000, 700)
    assert (tmp_path / "d" / "campaign.db").exists()
    assert (tmp_path / "d" / "logs" / "campaign_app.log").exists()


def test_bad_database_file_refused_without_touching_it(tmp_path: Path):
    bad = tmp_path / "bad.db"
    bad.write_text("not a database")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    code = (
        "import sys\n"
        "from PySide6.QtWidgets import QMessageBox\n"
        "shown = []\n"
        "QMessageBox.critical = staticmethod(lambda *a, **k: shown.append(a[2]))\n"
        "from campaign_app.app import main\n"
        f"rc = main(['--db', {str(bad)!r}, '--data-dir', {str(tmp_path / 'd')!r}, '--screenshot', "
        f"{str(tmp_path / 'x.png')!r}])\n"
        "print(rc, shown[0])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.stdout.startswith("1 "), result.stdout + result.stderr
    assert "bad.db" in result.stdout and "not a campaign database" in result.stdout
    assert bad.read_text() == "not a database"


def test_unknown_tab_is_refused(tmp_path: Path):
    data = tmp_path / "d"
    subprocess.run(
        [sys.executable, "-m", "campaign_app.cli", "demo", "--data-dir", str(data)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    result = _run(
        "--screenshot", str(tmp_path / "x.png"), "--open", "platoon:2nd Platoon", "--tab", "Nonsense", data_dir=data
    )
    assert result.returncode != 0
    assert "no tab named 'Nonsense'" in result.stderr and "History" in result.stderr
    assert not (tmp_path / "x.png").exists()
