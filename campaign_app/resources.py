"""The one place that finds the shipped data folders (db/migrations, templates, fonts, icons, user guide).

Three ways the app is run, one rule:
- an installed wheel: they live in ``campaign_app/_shipped/`` (pyproject.toml force-includes them there);
- the frozen build (packaging/, PyInstaller): the same ``campaign_app/_shipped/`` layout inside the bundle's
  folder (``sys._MEIPASS``, where the frozen modules' ``__file__`` points), plus ``build-info.json``;
- a source checkout (or an editable install): the top-level ``db/``, ``templates/`` and ``docs/guide/``
  folders beside the package.
Fonts and icons are inside the package in all three. ``version_text`` is what ``--version`` prints.
"""

from __future__ import annotations

import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT_NAMES = {"guide": Path("docs") / "guide"}


def is_frozen() -> bool:
    """True in the frozen build (PyInstaller sets ``sys.frozen``)."""
    return bool(getattr(sys, "frozen", False))


def _shipped(name: str) -> Path:
    """``_shipped/NAME`` in a wheel or the frozen build, else the checkout's folder of that name."""
    inside = _PACKAGE / "_shipped" / name
    if inside.is_dir():
        return inside
    checkout = _PACKAGE.parent / _CHECKOUT_NAMES.get(name, Path(name))
    if checkout.is_dir() and not is_frozen():
        return checkout
    raise FileNotFoundError(f"campaign_app data folder {name!r} not found (looked in {inside} and {checkout})")


def migrations_dir() -> Path:
    return _shipped("db") / "migrations"


def templates_dir() -> Path:
    return _shipped("templates")


def fonts_dir() -> Path:
    return _PACKAGE / "printing" / "fonts"


def icons_dir() -> Path:
    """Application and toolbar icons (SVG) and the freedesktop.org ``.desktop`` file."""
    return _PACKAGE / "icons"


def app_icon_file() -> Path:
    return icons_dir() / "campaign-app.svg"


def desktop_entry_file() -> Path:
    return icons_dir() / "campaign-app.desktop"


def guide_dir() -> Path:
    """The user guide (Markdown): ``_shipped/guide`` in a wheel or the frozen build, ``docs/guide`` in a checkout."""
    return _shipped("guide")


def build_info() -> dict[str, str]:
    """What the frozen build recorded about itself (version, ``built`` date, ``commit``, ``platform``); empty
    in a checkout or a wheel."""
    import json

    try:
        data = json.loads((_PACKAGE / "_shipped" / "build-info.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def version_text(program: str) -> str:
    """``--version``: the program, its version and, in the frozen build, when and from which commit it was built."""
    from . import __version__

    info = build_info() if is_frozen() else {}
    if not info.get("built"):
        return f"{program} {__version__}"
    commit = f" from {info['commit']}" if info.get("commit") else ""
    return f"{program} {__version__} (built {info['built']}{commit})"
