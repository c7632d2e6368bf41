"""Desktop integration for Linux (freedesktop.org): a menu entry with the application icon.

``campaign-cli install-desktop`` copies the ``.desktop`` file and the icon shipped in ``campaign_app/icons``
into ``$XDG_DATA_HOME`` (default ``~/.local/share``): ``applications/campaign-app.desktop`` and
``icons/hicolor/scalable/apps/campaign-app.svg``. ``--uninstall`` removes exactly those two files. Qt-free.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from .resources import app_icon_file, desktop_entry_file, is_frozen

DESKTOP_ID = "campaign-app"


def data_home(explicit: str | os.PathLike[str] | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("XDG_DATA_HOME")
    return Path(env).expanduser() if env else Path.home() / ".local" / "share"


def desktop_targets(base: Path) -> tuple[Path, Path]:
    return (
        base / "applications" / f"{DESKTOP_ID}.desktop",
        base / "icons" / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg",
    )


def launcher_command() -> str:
    """The command the menu entry runs: in the standalone (frozen) build the ``campaign-app`` program beside
    this one; else the installed ``campaign-app`` script when there is one (absolute path, so a virtual
    environment works without being activated), else ``python -m campaign_app``."""
    if is_frozen():
        return _quote(str(Path(sys.executable).resolve().with_name("campaign-app")))
    script = shutil.which("campaign-app")
    if script is None:
        candidate = Path(sys.executable).with_name("campaign-app")
        script = str(candidate) if candidate.exists() else None
    if script is not None:
        return _quote(script)
    return f"{_quote(sys.executable)} -m campaign_app"


def _quote(arg: str) -> str:
    """Quote one argument of an ``Exec=`` key (Desktop Entry Specification)."""
    if not any(c in arg for c in " \t\n\"'\\><~|&;$*?#()`"):
        return arg
    escaped = arg.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    return f'"{escaped}"'


def desktop_entry_text(command: str | None = None) -> str:
    lines = []
    for line in desktop_entry_file().read_text(encoding="utf-8").splitlines():
        if line.startswith("Exec="):
            line = f"Exec={command or launcher_command()}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def install_desktop(base: str | os.PathLike[str] | None = None, command: str | None = None) -> list[Path]:
    """Write the menu entry and the icon; returns the files written (existing ones are replaced)."""
    entry, icon = desktop_targets(data_home(base))
    entry.parent.mkdir(parents=True, exist_ok=True)
    icon.parent.mkdir(parents=True, exist_ok=True)
    tmp = entry.with_suffix(".desktop.tmp")
    tmp.write_text(desktop_entry_text(command), encoding="utf-8")
    tmp.replace(entry)
    shutil.copyfile(app_icon_file(), icon)
    return [entry, icon]


def uninstall_desktop(base: str | os.PathLike[str] | None = None) -> list[Path]:
    """Remove the menu entry and the icon written by :func:`install_desktop`; returns those removed."""
    removed = []
    for path in desktop_targets(data_home(base)):
        if path.exists():
            path.unlink()
            removed.append(path)
    return removed
