"""The one place that finds the shipped data folders (db/migrations, templates, fonts, icons, user guide).

In an installed wheel they live in ``campaign_app/_shipped/``; in a source checkout (or an editable
install) they are the top-level ``db/`` and ``templates/`` folders beside the package.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _shipped(name: str) -> Path:
    inside = _PACKAGE / "_shipped" / name
    if inside.is_dir():
        return inside
    checkout = _PACKAGE.parent / name
    if checkout.is_dir():
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
    """The user guide (Markdown): ``_shipped/guide`` in a wheel, ``docs/guide`` in a source checkout."""
    inside = _PACKAGE / "_shipped" / "guide"
    if inside.is_dir():
        return inside
    checkout = _PACKAGE.parent / "docs" / "guide"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"campaign_app user guide not found (looked in {inside} and {checkout})")
