"""File ▸ Export campaign… and File ▸ Import campaign…: the portable campaign file (JSON)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox, QWidget

from ..errors import ServiceError
from ..store import DatabaseError

FILTER = "Campaign files (*.json);;All files (*)"


def _file_name(name: str) -> str:
    return (re.sub(r"[^\w.-]+", "-", name).strip("-") or "campaign") + ".json"


def export_campaign(ctx: Any, parent: QWidget | None, campaign_id: int | None) -> str | None:
    """Ask where to write the selected campaign; returns the file written."""
    from ..services import portable
    from ..store.models import Campaign

    camp = Campaign.get_or_none(Campaign.id == campaign_id) if campaign_id is not None else None
    if camp is None:
        QMessageBox.information(parent, "Export campaign", "Select a campaign (or one of its platoons) first.")
        return None
    start = str(Path(ctx.settings.value("portable/folder", str(Path.home()))) / _file_name(camp.name))
    path, _ = QFileDialog.getSaveFileName(parent, f"Export campaign {camp.name}", start, FILTER)
    if not path:
        return None
    try:
        result = portable.export_campaign(camp.id, path)
    except (ServiceError, DatabaseError) as exc:
        QMessageBox.warning(parent, "Export campaign", str(exc))
        return None
    ctx.settings.setValue("portable/folder", str(Path(path).parent))
    ctx.signals.status.emit(f"Exported {camp.name!r} to {result['file']}")
    return str(result["file"])


def import_campaign(ctx: Any, parent: QWidget | None, path: str | None = None) -> int | None:
    """Ask for a campaign file and read it in (asking for another name on a clash); returns the new id."""
    from ..services import portable
    from ..services.campaigns import name_problem

    if path is None:
        path, _ = QFileDialog.getOpenFileName(parent, "Import campaign",
                                              str(ctx.settings.value("portable/folder", str(Path.home()))), FILTER)
        if not path:
            return None
    try:
        doc = portable.read_document(path)
        name = str(doc["campaign"].get("name", ""))
        new_name = None
        while name_problem(new_name or name):
            text, ok = QInputDialog.getText(
                parent, "Import campaign", f"{name_problem(new_name or name)}.\nImport it under this name:",
                QLineEdit.EchoMode.Normal, f"{name} (imported)")
            if not ok:
                return None
            new_name = text
        result = portable.import_campaign(path, new_name)
    except (ServiceError, DatabaseError) as exc:
        QMessageBox.warning(parent, "Import campaign", str(exc))
        return None
    ctx.settings.setValue("portable/folder", str(Path(path).parent))
    ctx.signals.status.emit(f"Imported campaign {result['campaign']!r}: {result['platoon']} platoon(s), "
                            f"{result['battle']} battle(s), {result['sologear_sheet']} Sologear sheet(s)")
    return int(result["campaign_id"])
