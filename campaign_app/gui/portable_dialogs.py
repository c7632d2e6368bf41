"""File ▸ Export campaign… and File ▸ Import campaign…: the portable campaign file (JSON)."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox, QWidget

from ..errors import CampaignError
from ..words import plural
from .file_dialogs import ask_open_path, ask_save_path

FILTER = "Campaign files (*.json);;All files (*)"


def _file_name(name: str) -> str:
    return (re.sub(r"[^\w.-]+", "-", name).strip("-") or "campaign") + ".json"


def export_campaign(ctx: Any, parent: QWidget | None, campaign_id: int | None) -> str | None:
    """Ask where to write the selected campaign; returns the file written."""
    from ..services import portable
    from ..services.navigator import item_campaign

    camp = item_campaign("campaign", campaign_id) if campaign_id is not None else None
    if camp is None:
        QMessageBox.information(parent, "Export campaign", "Select a campaign (or one of its platoons) first.")
        return None
    name = camp.name
    chosen = ask_save_path(parent, ctx.settings, f"Export campaign {name}", _file_name(name), FILTER)
    if chosen is None:
        return None
    path = str(chosen)
    try:
        result = portable.export_campaign(camp.id, path)
    except CampaignError as exc:
        QMessageBox.warning(parent, "Export campaign", str(exc))
        return None
    ctx.signals.status.emit(f"Exported {name!r} to {result.file}")
    return str(result.file)


def _sentence(text: str | None) -> str:
    return (text or "")[:1].upper() + (text or "")[1:]


def import_campaign(ctx: Any, parent: QWidget | None, path: str | None = None) -> int | None:
    """Ask for a campaign file and read it in (asking for another name on a clash); returns the new id."""
    from ..services import portable
    from ..services.campaigns import name_problem

    if path is None:
        chosen = ask_open_path(parent, ctx.settings, "Import campaign", FILTER)
        if chosen is None:
            return None
        path = str(chosen)
    try:
        doc = portable.read_document(path)
        name = str(doc["campaign"].get("name", ""))
        new_name = None
        while name_problem(new_name or name):
            text, ok = QInputDialog.getText(
                parent,
                "Import campaign",
                f"{_sentence(name_problem(new_name or name))}.\nImport it under this name:",
                QLineEdit.EchoMode.Normal,
                f"{name} (imported)",
            )
            if not ok:
                return None
            new_name = text
        result = portable.import_campaign(path, new_name)
    except CampaignError as exc:
        QMessageBox.warning(parent, "Import campaign", str(exc))
        return None
    counts = result.counts
    ctx.signals.status.emit(
        f"Imported campaign {result.campaign!r}: {plural(counts.platoon, 'platoon')}, "
        f"{plural(counts.battle, 'battle')}, {plural(counts.sologear_sheet, 'Sologear sheet')}"
    )
    return result.campaign_id
