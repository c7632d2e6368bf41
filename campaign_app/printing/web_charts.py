"""The printed charts as SVG, for the static web export (``services.html_export``): the very drawings of the PDFs
(``history_report.xp_chart``, ``history_report.wounds_chart``, ``chronicle_report.xp_time_chart``), rendered by
reportlab's SVG renderer, with the PDF font's name replaced by the names a browser knows."""

from __future__ import annotations

import re
from typing import Any

from .chronicle_report import ChronicleData, xp_time_chart
from .history_report import HistoryData, wounds_chart, xp_chart


def drawing_svg(drawing: Any) -> str:
    """A reportlab drawing as an inline ``<svg>`` element (no XML prologue)."""
    from reportlab.graphics import renderSVG

    text = renderSVG.drawToString(drawing)
    start = text.find("<svg")
    text = text[start:] if start >= 0 else text
    text = re.sub(
        r"font-family: ?DejaVuSans-Bold", "font-family: 'DejaVu Sans', Verdana, sans-serif; font-weight: bold", text
    )
    return re.sub(r"font-family: ?DejaVuSans\b", "font-family: 'DejaVu Sans', Verdana, sans-serif", text)


def history_svgs(data: HistoryData) -> tuple[str, str]:
    """A platoon's XP chart and wounds chart."""
    return drawing_svg(xp_chart(data.xp_points, data.thresholds, 440)), drawing_svg(wounds_chart(data.wounds, 300))


def xp_time_svg(data: ChronicleData, width: float = 720) -> str:
    """The platoons' XP over campaign time."""
    return drawing_svg(xp_time_chart(data, width))
