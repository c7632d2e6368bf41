"""The seams between the front ends and the services are type-checked: a wrong keyword argument handed to a
service through the GUI's ``perform`` (and a page's wrapper around it) or from a CLI command fails mypy.

The checks run mypy (the project's strict settings) on copies of real modules -- a CLI command module and a GUI
page -- with one keyword misspelt, and on the unchanged copies as the control."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mypy import api as mypy_api

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "campaign_app"

DIRECT_PERFORM = """\
from campaign_app.gui.context import AppContext
from campaign_app.gui.undo_commands import perform, try_perform
from campaign_app.services import platoons as platoon_service


def change(ctx: AppContext) -> None:
    edit = perform(ctx, platoon_service.set_xp, 1, 5, reason="found a cache")
    print(edit.message)
    try_perform(ctx, platoon_service.rename_platoon, 1, "2nd Platoon", reason="renamed")
"""


def absolute_imports(source: str, package: str) -> str:
    """A module of ``campaign_app.<package>`` made importable from outside the package."""
    source = re.sub(r"^(\s*)from \.\.(\w)", r"\1from campaign_app.\2", source, flags=re.M)
    source = re.sub(r"^(\s*)from \.\. import", r"\1from campaign_app import", source, flags=re.M)
    source = re.sub(r"^(\s*)from \.(\w)", rf"\1from campaign_app.{package}.\2", source, flags=re.M)
    return re.sub(r"^(\s*)from \. import", rf"\1from campaign_app.{package} import", source, flags=re.M)


def misspell(source: str, call: str, keyword: str) -> str:
    """``source`` with ``keyword=`` misspelt (doubled last letter) in the one line that holds ``call``."""
    lines = source.splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if call in line and f"{keyword}=" in line]
    assert len(hits) == 1, f"expected one line with {call!r} and {keyword}=, found {len(hits)}"
    lines[hits[0]] = lines[hits[0]].replace(f"{keyword}=", f"{keyword}{keyword[-1]}=", 1)
    return "".join(lines)


def run_mypy(files: list[Path], cache: Path) -> dict[str, list[str]]:
    """mypy's errors per file name (only the files given are reported)."""
    out, err, _status = mypy_api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(cache),
            "--no-error-summary",
            "--show-error-codes",
            *[str(f) for f in files],
        ]
    )
    assert not err.strip(), err
    errors: dict[str, list[str]] = {f.name: [] for f in files}
    for line in out.splitlines():
        name = Path(line.split(":", 1)[0]).name
        if ": error:" in line and name in errors:
            errors[name].append(line)
    return errors


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    work = tmp_path_factory.mktemp("seams")
    roster = absolute_imports((PACKAGE / "commands" / "roster.py").read_text(encoding="utf-8"), "commands")
    page = absolute_imports((PACKAGE / "gui" / "platoon_page.py").read_text(encoding="utf-8"), "gui")
    snippets = {
        "cli_ok.py": roster,
        "cli_wrong_keyword.py": misspell(roster, "platoon_service.rename_platoon(", "reason"),
        "page_ok.py": page,
        "page_wrong_keyword.py": misspell(page, "self.run(platoon_service.set_xp,", "reason"),
        "perform_ok.py": DIRECT_PERFORM,
        "perform_wrong_keyword.py": misspell(DIRECT_PERFORM, "perform(ctx, platoon_service.set_xp,", "reason"),
        "try_perform_wrong_keyword.py": misspell(DIRECT_PERFORM, "try_perform(ctx,", "reason"),
    }
    files = []
    for name, text in snippets.items():
        path = work / name
        path.write_text(text, encoding="utf-8")
        files.append(path)
    return run_mypy(files, work / "cache")


@pytest.mark.parametrize("name", ["cli_ok.py", "page_ok.py", "perform_ok.py"])
def test_the_unchanged_code_passes_mypy(mypy_errors: dict[str, list[str]], name: str) -> None:
    assert mypy_errors[name] == []


@pytest.mark.parametrize(
    ("name", "wrong"),
    [
        ("cli_wrong_keyword.py", "reasonn"),
        ("page_wrong_keyword.py", "reasonn"),
        ("perform_wrong_keyword.py", "reasonn"),
        ("try_perform_wrong_keyword.py", "reasonn"),
    ],
)
def test_a_wrong_keyword_at_a_seam_fails_mypy(mypy_errors: dict[str, list[str]], name: str, wrong: str) -> None:
    errors = mypy_errors[name]
    assert len(errors) == 1, errors
    assert f'Unexpected keyword argument "{wrong}"' in errors[0]
    assert "[call-arg]" in errors[0]
