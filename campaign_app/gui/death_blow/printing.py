"""Printing from the Death Blow screens: a fighter's sheet and a bout's round log, saved as a PDF where the user
chooses (the same ``services.printing`` jobs as ``campaign-cli print fighter|bout``)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from ...errors import CampaignError
from ...services.print_requests import BoutRequest, FighterRequest
from ..context import AppContext

SAVE_DIALOG: Any = QFileDialog.getSaveFileName
"""The save dialog (tests answer it)."""


def save_pdf(
    ctx: AppContext, parent: QWidget | None, request: FighterRequest | BoutRequest, suggested: str
) -> str | None:
    """Ask where, then build and write the PDF ``request`` asks for (fighter sheets or a bout's round log); the
    path, or None."""
    from ...services.printing import print_pdf

    folder = ctx.paths.data_dir if ctx.paths is not None else None
    start = str(folder / suggested) if folder is not None else suggested
    path, _chosen = SAVE_DIALOG(parent, "Save as PDF", start, "PDF (*.pdf)")
    if not path:
        return None
    if not path.lower().endswith(".pdf"):
        path += ".pdf"
    try:
        printed = print_pdf(request, path)
    except CampaignError as exc:
        QMessageBox.warning(parent, "Save as PDF", str(exc))
        return None
    ctx.signals.status.emit(f"wrote {printed.path} ({printed.pages} page{'s' if printed.pages != 1 else ''})")
    return str(printed.path)
