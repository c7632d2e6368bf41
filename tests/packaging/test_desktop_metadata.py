"""The desktop entry and the AppStream metainfo: valid for their validators and in step with the app.

``desktop-file-validate`` (desktop-file-utils) and ``appstreamcli`` (appstream) check them; without those tools the
checks are skipped with the reason shown, except when CAMPAIGN_APP_FROZEN_TEST=required (.ci/run): then they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from campaign_app import __version__
from campaign_app.resources import desktop_entry_file

ROOT = Path(__file__).resolve().parents[2]
METAINFO = ROOT / "packaging" / "io.github.campaign_app.CampaignApp.metainfo.xml"


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CAMPAIGN_APP_FROZEN_TEST") == "required":
            pytest.fail(f"{name} is not installed (CAMPAIGN_APP_FROZEN_TEST=required)")
        pytest.skip(f"{name} is not installed")
    return path


def test_desktop_entry_is_valid():
    result = subprocess.run(
        [_tool("desktop-file-validate"), str(desktop_entry_file())], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


def test_metainfo_is_valid():
    result = subprocess.run(
        [_tool("appstreamcli"), "validate", "--no-net", "--pedantic", str(METAINFO)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    problems = [line for line in result.stdout.splitlines() if line.startswith(("E:", "W:"))]
    assert not problems, result.stdout


def test_metainfo_matches_the_app():
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("launchable") == desktop_entry_file().name
    releases = [r.get("version") for r in root.iter("release")]
    assert releases[0] == __version__, "add a <release> for the new version"
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert {b.text for b in root.iter("binary")} == set(scripts["scripts"]) | set(scripts["gui-scripts"])
    assert root.findtext("project_license") == scripts["license"]["text"]
    images = [i.text or "" for i in root.iter("image")]
    assert images
    for url in images:  # each screenshot is one of the repository's docs/screenshots
        assert url.startswith("https://") and "/docs/screenshots/" in url, url
        assert (ROOT / "docs" / "screenshots" / url.rsplit("/", 1)[1]).is_file(), url
    desktop = desktop_entry_file().read_text(encoding="utf-8")
    assert f"Name={root.findtext('name')}\n" in desktop
