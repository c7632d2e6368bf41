"""The import-direction contract of the packages (DESIGN.md "Layout"), checked on the source of every module.

- ``rules`` imports nothing of the app but the one exception root, ``campaign_app.errors`` (and no third-party
  library of the app: no peewee, Qt, reportlab); ``errors`` itself imports nothing of the app, so every layer
  may raise and catch the same ``CampaignError`` family;
- ``store`` imports nothing of ``services``, ``printing``, ``gui``, ``commands`` or the entry points;
- ``services`` imports nothing of ``gui``, ``commands`` or the entry points;
- ``printing`` draws from plain data: it imports ``rules`` and the shared helpers, never ``store`` or
  ``services`` (``services.printing`` reads the database and hands the data to ``printing``);
- ``gui`` (with ``app.py``) and ``commands`` (with ``cli.py``) reach the data only through ``services``: no
  ``store.models``, no peewee, no ``db``. From ``store`` they may use only the file's life cycle (open,
  close, check, back up, watch for other writers, the errors of opening): :data:`STORE_API`;
- ``gui`` and ``commands`` do not import each other; the shared helpers (``errors``, ``fileio``, ``words``,
  ``paths``...) import no package of the app;
- PySide6 only in ``gui``/``app.py``, peewee only in ``store``/``services``, reportlab only in ``printing``.

Every ``import`` statement counts, at module level or inside a function (lazy imports that keep start-up fast),
and so does a string naming a module of the app (``importlib.import_module(...)``, ``lazy_module(...)``, the
main window's page table). The last test imports the Qt-free packages in a fresh interpreter and checks that
PySide6 did not load.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import campaign_app

ROOT = Path(campaign_app.__file__).parent
APP = "campaign_app"

LAYERS = ("rules", "store", "services", "printing", "gui", "commands")
ENTRY_POINTS = {"app": "gui", "cli": "commands", "__main__": "gui"}
"""Top-level modules that belong to a layer; every other top-level module is a shared helper."""

FORBIDDEN: dict[str, set[str]] = {
    "rules": {"store", "services", "printing", "gui", "commands", "shared"},
    "store": {"services", "printing", "gui", "commands"},
    "services": {"gui", "commands"},
    "printing": {"store", "services", "gui", "commands"},
    "gui": {"commands"},
    "commands": {"gui"},
    "shared": set(LAYERS),
    "kernel": {*LAYERS, "shared"},
}
"""What each layer must not import (a layer may always import itself)."""

THIRD_PARTY: dict[str, set[str]] = {
    "PySide6": {"gui"},
    "peewee": {"store", "services"},
    "playhouse": {"store", "services"},
    "reportlab": {"printing"},
}
"""Libraries only some layers may import."""

STORE_API = {
    "init_db",
    "upkeep",  # what the desktop start leaves until the window has painted
    "close_db",
    "check_database",
    "check_file",
    "daily_backup",
    "data_version",
    "data_stamp",
    "write_stamp",
    "busy_timeout_setting",
    "store_problem",
    "DatabaseError",
    "DatabaseOpenError",
    "DatabaseTooNewError",
    "MigrationFailedError",
    # a -wal that is not the file's own (restore still works), the damage mark, today's backup
    "ForeignWalError",
    "DatabaseDamagedError",
    "damage_of",
    "has_daily_backup_today",
    # the open database's capabilities ("can this database keep backups here?"), never "which engine is it?"
    "Capability",
    "can",
}
"""The names of ``campaign_app.store`` (and its modules) that ``gui`` and ``commands`` may import."""

STORE_API_MODULES = {
    "campaign_app.store",
    "campaign_app.store.database",
    "campaign_app.store.backups",
    "campaign_app.store.check",
    "campaign_app.store.opened",
}

MODULE_STRING = re.compile(r"^campaign_app(\.\w+)+$")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, e.g. campaign_app.gui.main_window
    target: str  # the module imported, e.g. campaign_app.store.models
    names: tuple[str, ...]  # for ``from target import a, b``; empty for ``import target`` or a string
    line: int
    string: bool = False  # named in a string (``importlib.import_module``, ``sys.modules.get`` ...)

    def __str__(self) -> str:
        what = f"from {self.target} import {', '.join(self.names)}" if self.names else self.target
        return f"{self.module} (line {self.line}): {what}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[Import]:
    """Every import of the module at ``path``."""
    return imports_in(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")


def _is_module(dotted: str) -> bool:
    base = ROOT.parent.joinpath(*dotted.split("."))
    return base.is_dir() or base.with_suffix(".py").exists()


def imports_in(source: str, name: str, is_package: bool = False) -> list[Import]:
    """Every import of the module ``name`` whose text is ``source``: statements anywhere in it (inside
    functions too), and strings that name a module of the app."""
    package = name if is_package else name.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(Import(name, alias.name, (), node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                target = ".".join(parts[: len(parts) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = tuple(alias.name for alias in node.names)
            # ``from campaign_app import store`` imports the module campaign_app.store
            submodules = [n for n in names if target.startswith(APP) and _is_module(f"{target}.{n}")]
            found.extend(Import(name, f"{target}.{n}", (), node.lineno) for n in submodules)
            rest = tuple(n for n in names if n not in submodules)
            if rest or not submodules:
                found.append(Import(name, target, rest, node.lineno))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and MODULE_STRING.match(node.value):
            found.append(Import(name, node.value, (), node.lineno, string=True))
    return found


def layer_of(module: str) -> str | None:
    """The layer of a module of the app ("shared" for the helpers, ``None`` for the package itself)."""
    parts = module.split(".")
    if parts[0] != APP or len(parts) == 1:
        return None
    if parts[1] in LAYERS:
        return parts[1]
    if parts[1] == "errors":
        return "kernel"  # the one exception root: every layer may import it; it imports nothing of the app
    return ENTRY_POINTS.get(parts[1], "shared")


def _beyond_store_api(imp: Import) -> bool:
    """Whether a front end's import from ``store`` reaches past the file's life cycle: a module by string
    (e.g. ``sys.modules.get("campaign_app.store")``) may name the modules that hold :data:`STORE_API`."""
    if imp.string:
        return imp.target not in STORE_API_MODULES
    return not imp.names or bool(set(imp.names) - STORE_API)


def violations(imports: list[Import]) -> list[str]:
    problems = []
    for imp in imports:
        source = layer_of(imp.module)
        assert source is not None, imp
        top = imp.target.split(".")[0]
        if top in THIRD_PARTY and source not in THIRD_PARTY[top]:
            problems.append(f"{source} must not import {top}: {imp}")
            continue
        target = layer_of(imp.target)
        if target is None or target == source:
            if top == APP and imp.target == APP and source == "rules":
                problems.append(f"rules must not import the app: {imp}")
            continue
        if target in FORBIDDEN[source]:
            problems.append(f"{source} must not import {target}: {imp}")
        elif source in ("gui", "commands") and target == "store" and _beyond_store_api(imp):
            problems.append(f"{source} reaches the database only through services: {imp}")
    return problems


def all_imports() -> list[Import]:
    return [imp for path in sorted(ROOT.rglob("*.py")) for imp in imports_of(path)]


def test_every_module_keeps_the_import_directions() -> None:
    imports = all_imports()
    assert len({imp.module for imp in imports}) > 80  # every module was read
    assert violations(imports) == []


def test_lazy_imports_inside_functions_and_module_strings_are_read() -> None:
    """The walk sees an import inside a function and a module named in a string, not only the top of a file."""
    imports = {str(i) for i in all_imports() if i.module == "campaign_app.gui.main_window"}
    assert any("campaign_app.gui.sologear" in i for i in imports)  # the page table's strings
    assert any(
        i.startswith("campaign_app.gui.main_window") and "campaign_app.gui.print_dialog" in i for i in imports
    )  # an import inside a method


@pytest.mark.parametrize(
    "module,source,expected",
    [
        ("campaign_app.rules.dice", "from ..fileio import write_atomic", "rules must not import shared"),
        ("campaign_app.errors", "from .words import plural", "kernel must not import shared"),
        ("campaign_app.rules.dice", "def f():\n    import peewee\n", "rules must not import peewee"),
        ("campaign_app.store.models", "from ..services import platoons", "store must not import services"),
        (
            "campaign_app.services.platoons",
            "def f():\n    from ..gui.widgets import X\n",
            "services must not import gui",
        ),
        (
            "campaign_app.printing.cards",
            "from ..services.printing import print_pdf",
            "printing must not import services",
        ),
        (
            "campaign_app.gui.undo_commands",
            "def f():\n    from ..store.models import Platoon\n",
            "gui reaches the database only through services",
        ),
        (
            "campaign_app.gui.history_view",
            "from ..store.database import db",
            "gui reaches the database only through services",
        ),
        (
            "campaign_app.commands.roster",
            "from campaign_app import store",
            "commands reaches the database only through services",
        ),
        ("campaign_app.app", "from .store.models import Campaign", "gui reaches the database only through services"),
        ("campaign_app.cli", "import peewee", "commands must not import peewee"),
        ("campaign_app.commands.battle", "X = 'campaign_app.gui.battle_wizard'", "commands must not import gui"),
        (
            "campaign_app.gui.main_window",
            "importlib.import_module('campaign_app.store.models')",
            "gui reaches the database only through services",
        ),
        ("campaign_app.words", "from .rules import dice", "shared must not import rules"),
    ],
)
def test_a_forbidden_import_is_caught(module: str, source: str, expected: str) -> None:
    """The check fails on each kind of breach (made-up source read as if it were that module)."""
    problems = violations(imports_in(source, module))
    assert len(problems) == 1 and problems[0].startswith(expected), problems


def test_core_packages_do_not_load_qt() -> None:
    """rules, store, services and printing, every module of them, and the CLI load without PySide6."""
    code = (
        "import sys, pkgutil, importlib\n"
        "import campaign_app.rules, campaign_app.store, campaign_app.services, campaign_app.printing\n"
        "for pkg in (campaign_app.rules, campaign_app.store, campaign_app.services, campaign_app.printing):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "import campaign_app.cli, campaign_app.commands\n"
        "for m in pkgutil.walk_packages(campaign_app.commands.__path__, 'campaign_app.commands.'):\n"
        "    importlib.import_module(m.name)\n"
        "loaded = [k for k in sys.modules if k.startswith('PySide6')]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
