"""The static site of ``export --html`` in a real headless browser (Chromium from the system's packages): every page
loads from the file system, its text is there, and every link of the loaded page leads to a page that loads too.
Set ``CAMPAIGN_APP_SCREENSHOTS=DIR`` to keep a screenshot of each page kind."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from campaign_app.paths import AppPaths
from campaign_app.store import close_db

pytestmark = pytest.mark.usefixtures("fresh_db")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def _browser(*args: str) -> str:
    assert CHROMIUM, "Chromium is needed for this test: apt-get install chromium"
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--allow-file-access-from-files",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture
def league(app_paths: AppPaths, congo_platoon) -> None:  # type: ignore[no-untyped-def]
    congo_platoon(rival=True)
    close_db()


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")
def test_the_site_loads_and_its_links_work_in_chromium(cli, league, tmp_path: Path) -> None:
    cli(
        "battle",
        "log",
        "--platoon",
        "2nd Platoon",
        "--wounds",
        "3",
        "--leader-wounds",
        "0",
        "--outcome",
        "victory",
        "--opponent-platoon",
        "Red Company",
        "--seed",
        "2",
        "--notes",
        "Took the bridge at dawn.",
    )
    cli("chronicle", "add", "--campaign", "Congo 1960", "--title", "Season 2 begins", "--date", "2020-01-01")
    site = tmp_path / "site"
    pages = json.loads(cli("export", "--campaign", "Congo 1960", "--html", str(site), "--json"))["pages"]
    seen: set[str] = set()
    todo = ["index.html"]
    expected = {
        "index.html": ["Standings", "2nd Platoon", "Head to head"],
        "chronicle.html": ["Season 2 begins", "won battle 1 against Red Company", "Took the bridge at dawn."],
        "platoon-1.html": ["Unit data", "Lt. Okafor", "Battles", "Took the bridge at dawn."],
    }
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        dom = _browser("--dump-dom", (site / page).as_uri())
        assert "<main>" in dom and "</html>" in dom, page
        text = re.sub(r"<[^>]+>", " ", dom)
        for words in expected.get(page, []):
            assert words in text, (page, words)
        for href in re.findall(r'href="([^"]+)"', dom):
            assert (site / href).is_file(), (page, href)
            todo.append(href)
    assert seen == set(pages)  # every page is reached by following links from the start page
    keep = os.environ.get("CAMPAIGN_APP_SCREENSHOTS")
    if keep:
        for page in ("index.html", "chronicle.html", "platoon-1.html"):
            shot = Path(keep) / f"html-{page.removesuffix('.html')}.png"
            _browser("--hide-scrollbars", "--window-size=1280,1100", f"--screenshot={shot}", (site / page).as_uri())
            assert shot.stat().st_size > 10_000
