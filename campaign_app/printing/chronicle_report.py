"""The campaign chronicle as a diary (PDF): the platoons' XP over campaign time, then month by month each dated
entry, each battle's outcome and aftermath in words with its after-action report, and each Sologear turn.
Takes plain data (:class:`ChronicleData`, built by ``services.chronicle.printable``)."""

from __future__ import annotations

import datetime as _dt
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.graphics.shapes import Drawing, Line, PolyLine, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import KeepTogether, Paragraph, Spacer

from ..rules.experience import XP_MAX
from ..words import plural
from .fonts import FONT
from .sheetkit import (
    INK,
    LIGHT,
    MID,
    SectionHeading,
    canvas_maker,
    esc,
    new_drawing,
    one_frame_document,
    print_date_text,
    resolve_paper,
    styles,
)

MARGIN = 40.0
PALETTE = ("#3b4a5a", "#c0392b", "#2e7d32", "#b26a00", "#6a1b9a", "#00838f", "#5d4037", "#ad1457")
"""Line colours of the platoons (repeated, with a dash, past eight)."""


@dataclass(frozen=True)
class DiaryItem:
    kind: str
    date: str
    headline: str
    aftermath: str = ""
    report: str = ""


@dataclass(frozen=True)
class ChronicleData:
    campaign: str
    items: tuple[DiaryItem, ...]
    series: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    """Each platoon's XP after each battle, by date."""
    starts: tuple[tuple[str, int], ...] = ()
    """Each platoon's XP before its first battle."""


def _day(text: str) -> _dt.date | None:
    try:
        return _dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


def xp_time_chart(data: ChronicleData, width: float, height: float = 170.0) -> Drawing:
    """The platoons' XP over campaign time: one line per platoon (its XP after each battle, starting from its
    XP before the first), the date along the bottom."""
    d = new_drawing(width, height)
    left, right, bottom, top = 28.0, 8.0, 40.0, 8.0
    pw, ph = width - left - right, height - bottom - top
    days = [day for _n, pts in data.series for (t, _x) in pts if (day := _day(t)) is not None]
    if not days:
        d.add(String(left, bottom + ph / 2, "No battles yet.", fontName=FONT, fontSize=8, fillColor=MID))
        return d
    first, last = min(days), max(days)
    span = max((last - first).days, 1)

    def x_of(day: _dt.date) -> float:
        return left + pw * (day - first).days / span

    def y_of(xp: float) -> float:
        return bottom + ph * xp / XP_MAX

    for xp in (0, 8, 16, 24, 32):
        d.add(Line(left, y_of(xp), left + pw, y_of(xp), strokeColor=LIGHT, strokeWidth=0.4))
        d.add(String(left - 4, y_of(xp) - 2.5, str(xp), fontName=FONT, fontSize=7, fillColor=MID, textAnchor="end"))
    d.add(
        String(
            x_of(first), bottom - 10, first.isoformat(), fontName=FONT, fontSize=7, fillColor=MID, textAnchor="start"
        )
    )
    if last != first:
        d.add(
            String(
                x_of(last), bottom - 10, last.isoformat(), fontName=FONT, fontSize=7, fillColor=MID, textAnchor="end"
            )
        )
    legend_x, legend_row, hidden = left, 0, 0
    for i, (name, points) in enumerate(data.series):
        colour = colors.HexColor(PALETTE[i % len(PALETTE)])
        coords: list[float] = []
        dated = [(day, xp) for t, xp in points if (day := _day(t)) is not None]
        for day, xp in dated:
            coords += [x_of(day), y_of(xp)]
        if len(coords) == 2:  # one battle: a short mark
            coords += [coords[0] + 3, coords[1]]
        if len(coords) >= 4:
            line = PolyLine(coords, strokeColor=colour, strokeWidth=1.2)
            if i >= len(PALETTE):
                line.strokeDashArray = [3, 2]
            d.add(line)
        # legend: left to right in two rows under the dates; what does not fit is counted
        label = name[:24]
        w = 16 + stringWidth(label, FONT, 7) + 10
        if legend_x + w > left + pw and legend_row == 0:
            legend_x, legend_row = left, 1
        if legend_x + w <= left + pw:
            y = 14.0 - 11.0 * legend_row
            mark = Line(legend_x, y + 3, legend_x + 11, y + 3, strokeColor=colour, strokeWidth=1.5)
            if i >= len(PALETTE):
                mark.strokeDashArray = [3, 2]
            d.add(mark)
            d.add(String(legend_x + 14, y, label, fontName=FONT, fontSize=7, fillColor=INK))
            legend_x += w
        else:
            hidden += 1
    if hidden:
        d.add(String(left + pw, 3.0, f"+{hidden} more", fontName=FONT, fontSize=7, fillColor=MID, textAnchor="end"))
    return d


def _month(date: str) -> str:
    day = _day(date)
    return day.strftime("%B %Y") if day else "Undated"


def build_chronicle_report(
    data: ChronicleData, *, paper: str | None = None, printed_on: _dt.date | None = None, invariant: bool = True
) -> bytes:
    _name, size = resolve_paper(paper)
    width = size[0] - 2 * MARGIN
    st = dict(styles())
    st["headline"] = st["body"].clone("headline", fontName=st["cell_bold"].fontName, fontSize=9.5, leading=12)
    st["entry"] = st["body"].clone(
        "entry", fontName=st["cell_bold"].fontName, fontSize=11, leading=14, textColor=colors.HexColor("#3b4a5a")
    )
    st["report"] = st["body"].clone("report", leftIndent=10, fontSize=8.5, leading=11)
    st["after"] = st["small"].clone("after", textColor=MID)
    buffer = io.BytesIO()
    title = f"Chronicle: {data.campaign}"
    printed = print_date_text(printed_on)

    doc = one_frame_document(
        buffer,
        size,
        MARGIN,
        title,
        "diary",
        printed,
        lambda page: f"{data.campaign} \u00b7 chronicle \u00b7 page {page}",
    )
    story: list[Any] = [Paragraph("CAMPAIGN CHRONICLE", st["tiny"]), Paragraph(esc(data.campaign), st["title"])]
    dates = [i.date for i in data.items if i.date]
    if dates:
        story.append(
            Paragraph(
                f"{esc(min(dates))} \u2013 {esc(max(dates))} \u00b7 "
                f"{plural(sum(i.kind == 'battle' for i in data.items), 'battle')}, "
                f"{plural(sum(i.kind == 'entry' for i in data.items), 'entry', 'entries')}",
                st["subtitle"],
            )
        )
    if data.series:
        story.append(SectionHeading("The platoons' experience", "XP over campaign time", space_before=8))
        story.append(xp_time_chart(data, width))
    month = None
    for item in data.items:
        if _month(item.date) != month:
            month = _month(item.date)
            story.append(SectionHeading(month, "", space_before=10))
        story.append(_diary_item(item, st))
    if not data.items:
        story.append(Paragraph("Nothing has happened yet: no battles, turns or entries.", st["body"]))
    doc.build(story, canvasmaker=canvas_maker(title, "Campaign chronicle", invariant))
    return buffer.getvalue()


def _diary_item(item: DiaryItem, st: dict[str, Any]) -> KeepTogether:
    parts: list[Any] = []
    if item.kind == "entry":
        parts.append(Paragraph(f"{esc(item.date)} \u00b7 {esc(item.headline)}", st["entry"]))
    else:
        parts.append(Paragraph(f"{esc(item.date)} \u00b7 {esc(item.headline)}", st["headline"]))
    if item.aftermath:
        parts.append(Paragraph(esc(item.aftermath), st["after"]))
    for para in _paragraphs(item.report):
        parts.append(Paragraph(esc(para), st["report"] if item.kind != "entry" else st["body"]))
    parts.append(Spacer(1, 6))
    return KeepTogether(parts)


def _paragraphs(text: str) -> Sequence[str]:
    return [p.strip().replace("\n", " ") for p in text.split("\n\n") if p.strip()]
