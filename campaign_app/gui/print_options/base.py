"""What every option panel of the print dialog offers the dialog, and what the dialog hands it when it opens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import QWidget

from ...services.navigator import CampaignNode
from ...services.print_requests import PrintRequest

DATA = Qt.ItemDataRole.UserRole
SEP = " \u2014 "
"""Between a platoon's (or pilot's) name and its campaign's in the lists."""


@dataclass(frozen=True)
class Opening:
    """What the dialog opens on: every campaign (archived ones too) with its platoons and Sologear sheets, and
    what is selected in the navigator (``kind`` "platoon", "sheet" or "campaign" and its ``ident``; None when
    nothing is) with the campaign it belongs to."""

    tree: list[CampaignNode]
    kind: str | None = None
    ident: Any = None
    campaign: CampaignNode | None = None


class OptionPanel(QWidget):
    """The options of one kind of print, shown in the dialog's stack when that kind is chosen. A panel builds
    its widgets, fills them from the :class:`Opening`, says when an option changes (``changed``), restores and
    remembers its settings, and gives the typed request of what is chosen with its own refusal."""

    kind: ClassVar[str]
    label: ClassVar[str]
    """What the dialog's "Print:" chooser says."""

    changed = Signal()
    """An option changed: the preview is built again a moment later."""
    refused = Signal(str)
    """Something the panel did at the user's request could not be done (the dialog says it in place)."""

    def fill(self, opening: Opening) -> None:
        """Fill the lists and pick what the dialog opens on."""

    def connect_changes(self) -> None:
        """Send ``changed`` when an option changes (after :meth:`fill`, which sends nothing)."""

    def restore(self, settings: QSettings) -> None:
        """Take the options remembered from the last print."""

    def remember(self, settings: QSettings) -> None:
        """Keep the options for the next print (after a save or a print)."""

    def request(self, paper: str, qr: bool) -> PrintRequest:
        """What is chosen now, on ``paper`` (and the QR code beside each page's stamp when ``qr``)."""
        raise NotImplementedError

    def problem(self, request: PrintRequest) -> str | None:
        """Why ``request`` (this panel's own) cannot be printed, before any work is done; None when it can."""
        return None

    def file_name(self) -> str:
        """The name suggested for the PDF, without ".pdf" (made safe for a file name by the dialog)."""
        raise NotImplementedError
