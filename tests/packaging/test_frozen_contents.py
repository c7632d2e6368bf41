"""What the frozen build collects (packaging/contents.py, no build needed), and how the app finds its data and
prints its version when frozen (campaign_app/resources.py)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from campaign_app import __version__, desktop, resources
from campaign_app.commands import COMMAND_MODULES

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"packaging_{name}", ROOT / "packaging" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


contents = _load("contents")


def test_every_command_module_and_page_is_collected():
    modules = set(contents.package_modules(ROOT))
    assert set(COMMAND_MODULES) <= modules
    on_disk = {
        f"campaign_app.commands.{p.stem}"
        for p in (ROOT / "campaign_app" / "commands").glob("*.py")
        if p.stem != "__init__"
    }
    assert on_disk <= modules
    assert {"campaign_app", "campaign_app.commands", "campaign_app.gui.main_window", "campaign_app.cli"} <= modules
    assert not any("__pycache__" in m or m.endswith("__init__") for m in modules)


def test_shipped_data_is_where_the_wheel_puts_it():
    data = contents.shipped_data(ROOT)
    by_name = {Path(src).name: dest for src, dest in data}
    assert by_name["0001_initial.py"] == "campaign_app/_shipped/db/migrations"
    assert by_name["user-guide.md"] == "campaign_app/_shipped/guide"
    assert by_name["deck.toml"].startswith("campaign_app/_shipped/templates/")
    migrations = {p.name for p in (ROOT / "db" / "migrations").glob("*.py")}
    assert migrations <= set(by_name)
    package = {Path(src).name: dest for src, dest in contents.package_data(ROOT)}
    assert package["DejaVuSans.ttf"] == "campaign_app/printing/fonts"
    assert package["campaign-app.svg"] == "campaign_app/icons"
    assert not any(name.endswith((".py", ".pyc")) for name in package)


def test_a_new_command_module_and_migration_are_picked_up(tmp_path: Path):
    """Another engineer adds campaign_app/commands/standings.py and a migration that imports a module nothing
    else imports: the next build collects both without a change to the spec."""
    root = tmp_path / "src"
    shutil.copytree(ROOT / "campaign_app", root / "campaign_app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "db", root / "db", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "templates", root / "templates")
    shutil.copytree(ROOT / "docs" / "guide", root / "docs" / "guide")
    shutil.copyfile(ROOT / "pyproject.toml", root / "pyproject.toml")
    (root / "campaign_app" / "commands" / "standings.py").write_text("def register(sub, parent): pass\n")
    number = len(list((root / "db" / "migrations").glob("[0-9]*.py"))) + 1
    (root / "db" / "migrations" / f"{number:04d}_standings.py").write_text(
        "from __future__ import annotations\nimport zipimport\nfrom email import message\n\n"
        "def upgrade(db):\n    from campaign_app.store.journal import install_triggers\n"
    )
    assert "campaign_app.commands.standings" in contents.package_modules(root)
    assert (
        str(root / "db" / "migrations" / f"{number:04d}_standings.py"),
        "campaign_app/_shipped/db/migrations",
    ) in contents.shipped_data(root)
    imports = contents.imports_of_migrations(root)
    assert {"zipimport", "email", "campaign_app.store.journal"} <= set(imports)
    assert "__future__" not in imports


@pytest.mark.parametrize(
    ("dest", "wanted"),
    [
        ("PySide6/Qt/plugins/platforms/libqxcb.so", True),
        ("PySide6/Qt/plugins/platforms/libqoffscreen.so", True),
        ("PySide6/Qt/plugins/platforms/libqwayland.so", True),
        ("PySide6/Qt/plugins/platforms/qwindows.dll", True),
        ("PySide6/Qt/plugins/iconengines/libqsvgicon.so", True),
        ("PySide6/Qt/plugins/printsupport/libcupsprintersupport.so", True),
        ("PySide6/Qt/lib/libQt6Charts.so.6", True),
        ("PySide6/Qt/lib/libQt6Pdf.so.6", True),
        ("PySide6/Qt/lib/libQt6Widgets.so.6", True),
        ("libQt6Core.so.6", True),
        ("PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so", False),
        ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", False),
        ("PySide6/Qt/plugins/platforms/libqeglfs.so", False),
        ("PySide6/Qt/plugins/tls/libqopensslbackend.so", False),
        ("PySide6/Qt/lib/libQt6Qml.so.6", False),
        ("PySide6/Qt/lib/libQt6QuickWidgets.so.6", False),
        ("libQt6Quick.so.6", False),
        ("PySide6\\Qt6Qml.dll", False),
        ("PySide6/Qt/translations/qtbase_de.qm", False),
    ],
)
def test_unused_qt_parts_are_left_out(dest: str, wanted: bool):
    assert contents.wanted_binary(dest) is wanted


def test_prune_keeps_what_kept_parts_need():
    binaries = [
        ("PySide6/QtWidgets.abi3.so", "/site/QtWidgets.abi3.so", "EXTENSION"),
        ("PySide6/Qt/plugins/platforms/libqxcb.so", "/site/libqxcb.so", "BINARY"),
        ("libxcb-cursor.so.0", "/usr/lib/libxcb-cursor.so.0", "BINARY"),
        ("PySide6/Qt/lib/libQt6Widgets.so.6", "/site/libQt6Widgets.so.6", "BINARY"),
        ("libgtk-3.so.0", "/usr/lib/libgtk-3.so.0", "BINARY"),
        ("libpython3.11.so.1.0", "/py/libpython3.11.so.1.0", "BINARY"),
    ]
    needs = {"/site/QtWidgets.abi3.so": ["libQt6Widgets.so.6"], "/site/libqxcb.so": ["libxcb-cursor.so.0"]}
    kept = contents.prune_libraries(binaries, lambda source: needs.get(source, []))
    assert [dest for dest, _s, _k in kept] == [
        "PySide6/QtWidgets.abi3.so",
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "libxcb-cursor.so.0",
        "PySide6/Qt/lib/libQt6Widgets.so.6",
        "libpython3.11.so.1.0",
    ]


def test_checkout_finds_its_data_and_prints_the_plain_version():
    assert not resources.is_frozen()
    assert resources.migrations_dir() == ROOT / "db" / "migrations"
    assert resources.guide_dir() == ROOT / "docs" / "guide"
    assert resources.version_text("campaign-cli") == f"campaign-cli {__version__}"


def test_frozen_layout_is_found_and_the_version_has_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    package = tmp_path / "_internal" / "campaign_app"
    for folder in ("db/migrations", "templates", "guide"):
        (package / "_shipped" / folder).mkdir(parents=True)
    (package / "_shipped" / "build-info.json").write_text(
        json.dumps(
            {"version": __version__, "built": "2026-11-27 00:40 UTC", "commit": "a9d5f3375", "platform": "linux"}
        )
    )
    monkeypatch.setattr(resources, "_PACKAGE", package)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert resources.migrations_dir() == package / "_shipped" / "db" / "migrations"
    assert resources.templates_dir() == package / "_shipped" / "templates"
    assert resources.guide_dir() == package / "_shipped" / "guide"
    assert resources.version_text("campaign-app") == (
        f"campaign-app {__version__} (built 2026-11-27 00:40 UTC from a9d5f3375)"
    )


def test_frozen_build_never_falls_back_to_a_folder_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    package = tmp_path / "_internal" / "campaign_app"
    package.mkdir(parents=True)
    (tmp_path / "_internal" / "templates").mkdir()  # not the bundle's: the frozen build has _shipped only
    monkeypatch.setattr(resources, "_PACKAGE", package)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    with pytest.raises(FileNotFoundError, match="'templates' not found"):
        resources.templates_dir()
    assert resources.version_text("campaign-cli") == f"campaign-cli {__version__}"  # no build-info.json


def test_frozen_menu_entry_starts_the_program_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    folder = tmp_path / "campaign app 1"
    folder.mkdir()
    for name in ("campaign-cli", "campaign-app"):
        (folder / name).write_text("")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(folder / "campaign-cli"))
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    assert desktop.launcher_command() == f'"{folder.resolve() / "campaign-app"}"'
