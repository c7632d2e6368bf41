"""The window and the CLI start without reportlab, QtCharts, QtPdf or the dialog modules; they are
imported on first use. Each check runs in a fresh interpreter and reads ``sys.modules``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HEAVY = ("reportlab", "PySide6.QtCharts", "PySide6.QtPdf", "PySide6.QtPdfWidgets", "peewee")
DIALOGS = (
    "campaign_app.gui.print_dialog",
    "campaign_app.gui.battle_wizard",
    "campaign_app.gui.campaign_dialog",
    "campaign_app.gui.sologear_dialogs",
    "campaign_app.gui.leader_dialog",
    "campaign_app.services.printing",
    "campaign_app.printing.cards",
)

REPORT = (
    "import json, sys\n"
    "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('reportlab', 'peewee') or "
    "m.startswith(('PySide6.Qt', 'campaign_app.')))))\n"
)


def _loaded(code: str, tmp_path: Path) -> set[str]:
    # a data folder of its own, not the one of the fixture's open database
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CAMPAIGN_APP_DATA_DIR=str(tmp_path / "own-data"))
    result = subprocess.run([sys.executable, "-c", code + REPORT], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


def _heavy(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_cli_parser_and_a_rules_command_load_no_heavy_module(tmp_path: Path) -> None:
    code = (
        "import contextlib, io\n"
        "from campaign_app.cli import build_parser, main\n"
        "build_parser().format_help()\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    assert main(['level', '--xp', '6']) == 0\n"
        "assert 'Regular' in out.getvalue()\n"
    )
    modules = _loaded(code, tmp_path)
    assert "campaign_app.commands.printing" in modules  # the parser really was built
    assert _heavy(modules, HEAVY + DIALOGS) == []


def test_a_database_command_still_loads_what_it_needs(tmp_path: Path) -> None:
    code = (
        "import contextlib, io\n"
        "from campaign_app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['campaign', 'list']) == 0\n"
    )
    modules = _loaded(code, tmp_path)
    assert "peewee" in modules and "campaign_app.services.campaigns" in modules
    assert _heavy(modules, ("reportlab", "PySide6")) == []


def test_main_window_starts_painted_without_reportlab_charts_pdf_or_dialogs(tmp_path: Path) -> None:
    shot = tmp_path / "start.png"
    code = (
        "from campaign_app.gui.main_window import MainWindow\n"
        "from campaign_app.app import main\n"
        f"assert main(['--screenshot', {str(shot)!r}, '--size', '900x600']) == 0\n"
    )
    modules = _loaded(code, tmp_path)
    assert shot.exists()
    assert "campaign_app.gui.main_window" in modules and "PySide6.QtWidgets" in modules
    assert _heavy(modules, ("reportlab", "PySide6.QtCharts", "PySide6.QtPdf") + DIALOGS) == []


def test_opening_a_platoon_does_not_load_the_charts_until_they_are_shown(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from campaign_app.services.demo import DEMO_PLATOON, create_demo\n"
        "from campaign_app.store import init_db\n"
        "from campaign_app.paths import resolve_paths\n"
        "paths = resolve_paths(None, None).ensure()\n"
        "init_db(paths.db_file, paths.backup_dir)\n"
        "create_demo()\n"
        "from campaign_app.store import close_db\n"
        "close_db()\n"
        "import campaign_app.app as app\n"
        "app.install_exception_hook = lambda: None  # a failed assert must not wait in a message box\n"
        "main = app.main\n"
        f"assert main(['--screenshot', {str(tmp_path / 'p.png')!r}, '--open', 'platoon:' + DEMO_PLATOON]) == 0\n"
        "assert 'PySide6.QtCharts' not in sys.modules\n"
        f"assert main(['--screenshot', {str(tmp_path / 'h.png')!r}, '--open', 'platoon:' + DEMO_PLATOON, "
        "'--tab', 'History']) == 0\n"
        "assert 'PySide6.QtCharts' not in sys.modules  # History opens on its timeline\n"
        f"assert main(['--screenshot', {str(tmp_path / 'c.png')!r}, '--open', 'platoon:' + DEMO_PLATOON, "
        "'--tab', 'Charts']) == 0\n"
        "assert 'PySide6.QtCharts' in sys.modules\n"
    )
    modules = _loaded(code, tmp_path)
    not_yet = tuple(d for d in DIALOGS if d != "campaign_app.gui.leader_dialog")  # the platoon page's own editor
    assert _heavy(modules, ("reportlab", "PySide6.QtPdf") + not_yet) == []
