"""db/migrations and templates ship inside the wheel and are found from it (and from the checkout)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from campaign_app.resources import migrations_dir, templates_dir

ROOT = Path(__file__).resolve().parents[2]


def test_source_checkout_finds_data_folders():
    assert (migrations_dir() / "0001_initial.py").is_file()
    assert templates_dir().is_dir()


@pytest.mark.slow
def test_wheel_ships_and_finds_migrations_and_templates(tmp_path: Path):
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path / "dist"), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    wheel = next((tmp_path / "dist").glob("campaign_app-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "campaign_app/_shipped/db/migrations/0001_initial.py" in names
    assert any(n.startswith("campaign_app/_shipped/templates/") for n in names)
    assert "campaign_app/printing/fonts/DejaVuSans.ttf" in names
    assert "campaign_app/_shipped/guide/user-guide.md" in names
    assert {"campaign_app/icons/campaign-app.svg", "campaign_app/icons/campaign-app.desktop"} <= set(names)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import campaign_app\n"
        "assert campaign_app.__file__.startswith(sys.argv[1]), campaign_app.__file__\n"
        "from campaign_app.resources import migrations_dir, templates_dir\n"
        "from campaign_app.store import init_db\n"
        "from campaign_app.resources import app_icon_file, guide_dir\n"
        "print(migrations_dir()); print(templates_dir()); print(guide_dir()); print(app_icon_file())\n"
        "init_db(sys.argv[2])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(site), str(tmp_path / "w.db")],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    ).stdout.split("\n")
    assert out[0].startswith(str(site / "campaign_app" / "_shipped" / "db"))
    assert out[1].startswith(str(site / "campaign_app" / "_shipped" / "templates"))
    assert out[2] == str(site / "campaign_app" / "_shipped" / "guide")
    assert out[3] == str(site / "campaign_app" / "icons" / "campaign-app.svg")
    assert (tmp_path / "w.db").exists()
