"""The campaign standings on one page (PDF): the league table, the head-to-head records (disputed games named)
and the Sologear pilots. Takes plain data (:class:`StandingsData`, built by ``services.printing``); the whole
page is shrunk to fit when a league is long, so it is always one page."""

from __future__ import annotations

import datetime as _dt
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.platypus import KeepInFrame, Paragraph, Spacer, TableStyle

from .sheetkit import (
    ACCENT_LIGHT,
    SectionHeading,
    canvas_maker,
    content_widths,
    esc,
    grid_table,
    one_frame_document,
    print_date_text,
    resolve_paper,
    styles,
)

MARGIN = 36.0


@dataclass(frozen=True)
class StandingsData:
    """What the standings page prints: ``platoons`` rows (already in ranking order, as texts), the head-to-head
    lines and the pilots' rows."""

    campaign: str
    headers: tuple[str, ...]
    platoons: tuple[tuple[str, ...], ...]
    pairs: tuple[tuple[str, ...], ...] = ()
    disputed_pairs: tuple[int, ...] = ()
    """Indexes of ``pairs`` whose results disagree (marked on the page)."""
    pilots: tuple[tuple[str, ...], ...] = ()
    note: str = ""


PAIR_HEADERS = ("Pair (A – B)", "A won", "B won", "Draws", "Disputed", "The disputed games")
PILOT_HEADERS = ("Pilot", "Turns", "Recognition", "Noticed", "Result")


def _table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], width: float, st: dict[str, Any], right: Sequence[int] = ()
) -> Any:
    return grid_table(headers, rows, content_widths(headers, rows, width), st=st, align_right=right)


def build_standings_report(
    data: StandingsData, *, paper: str | None = None, printed_on: _dt.date | None = None, invariant: bool = True
) -> bytes:
    _name, size = resolve_paper(paper)
    width = size[0] - 2 * MARGIN
    height = size[1] - 2 * MARGIN
    st = dict(styles())
    buffer = io.BytesIO()
    title = f"Standings: {data.campaign}"
    printed = print_date_text(printed_on)

    doc = one_frame_document(
        buffer, size, MARGIN, title, "standings", printed, lambda page: f"{data.campaign} \u00b7 standings"
    )
    story: list[Any] = [Paragraph("CAMPAIGN STANDINGS", st["tiny"]), Paragraph(esc(data.campaign), st["title"])]
    if data.note:
        story.append(Paragraph(esc(data.note), st["subtitle"]))
    story.append(Spacer(1, 8))
    if data.platoons:
        right = tuple(range(2, len(data.headers)))
        table = _table(data.headers, data.platoons, width, st, right=right[:-1])
        story.append(table)
        story.append(
            Paragraph(
                "Ranked by victories, then victories \u2212 defeats, then current XP, then name "
                "(RULES \u00a76). Obj. XP: XP from objectives; wounds: wound counters suffered; "
                "XP lost: to recovery rolls; leaders lost: casualties and promotions.",
                st["tiny"],
            )
        )
    if data.pairs:
        story.append(
            SectionHeading(
                "Head to head",
                "each side's own logged results; disputed games are shown, never settled by the app",
                space_before=10,
                keep_with_next=False,
            )
        )
        pairs = _table(PAIR_HEADERS, data.pairs, width, st, right=(1, 2, 3, 4))
        if data.disputed_pairs:
            pairs.setStyle(
                TableStyle([("BACKGROUND", (0, i + 1), (-1, i + 1), ACCENT_LIGHT) for i in data.disputed_pairs])
            )
        story.append(pairs)
    if data.pilots:
        story.append(
            SectionHeading("Pilots", "Sologear: turns played and the reckoning", space_before=10, keep_with_next=False)
        )
        story.append(_table(PILOT_HEADERS, data.pilots, width, st, right=(1, 2)))
    if not (data.platoons or data.pilots):
        story.append(Paragraph("Nothing to rank yet: the campaign has no platoons or pilots.", st["body"]))
    doc.build(
        [KeepInFrame(width, height, story, mode="shrink")],
        canvasmaker=canvas_maker(title, "Campaign standings", invariant),
    )
    return buffer.getvalue()
