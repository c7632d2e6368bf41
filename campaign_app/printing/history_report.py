"""The platoon history report (PDF): a summary, the XP chart, the battles table, the leaders' roll and the
changes made by hand (each as the sentence ``services.history.change_text`` makes).

Takes plain data (:class:`HistoryData`, built from ``services.history.history_report`` by
``campaign_app.services.printing.history_from_report``), which gathers it and writes the file.
The XP chart is drawn with reportlab graphics: the platoon's and the leader's XP after each battle over the
level bands of the campaign's thresholds, with a mark where a leader was lost and the line of the new one.
"""

from __future__ import annotations

import datetime as _dt
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.graphics.shapes import Circle, Drawing, Line, Polygon, PolyLine, String
from reportlab.lib import colors
from reportlab.platypus import CondPageBreak, Paragraph, Spacer, Table, TableStyle

from ..rules.enums import LeaderFate, Outcome
from ..rules.experience import DEFAULT_THRESHOLDS, LEVEL_LETTERS, LEVELS, XP_MAX, Thresholds
from .fonts import FONT, FONT_BOLD
from .rltyped import rect
from .sheetkit import (
    ACCENT,
    ACCENT_LIGHT,
    INK,
    LIGHT,
    MID,
    SectionHeading,
    canvas_maker,
    content_widths,
    esc,
    grid_table,
    new_drawing,
    one_frame_document,
    print_date_text,
    resolve_paper,
    styles,
    table,
)

MARGIN = 36.0
CHART_FONT = 7.0
"""Axis labels and legends: the type floor of every printed page."""
LEADER_COLOUR = colors.HexColor("#c0392b")
BAND_COLOURS = ("#ffffff", "#f3f5f8", "#e9edf2", "#dfe5ec", "#d5dde6")
OUTCOME_WORDS: dict[str | None, str] = {**{o: o.value for o in Outcome}, None: "\u2013"}
OBJECTIVE_WORDS = {0: "\u2013", 1: "hard +1", 2: "near-imp. +2"}
FATE_SHORT: dict[str | None, str] = {**{f: f.value for f in LeaderFate}, None: ""}


# ----------------------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class RollRow:
    """One roll of a battle, for the roll appendix."""

    purpose: str
    expression: str
    faces: tuple[int, ...]
    total: int
    rule: str = ""
    table_row: str = ""
    outcome: str = ""
    source: str = "app"


@dataclass(frozen=True)
class BattleRow:
    number: int
    date: str
    scenario: str = ""
    opponent: str = ""
    outcome: str | None = None
    objectives: int = 0
    wounds: int = 0
    leader_wounds: int = 0
    xp_before: int = 0
    xp_after: int = 0
    xp_lost: int = 0
    leader: str = ""
    leader_xp_before: int | None = None
    leader_xp_after: int | None = None
    leader_fate: str | None = None
    replacement: str = ""
    fire_support: bool = False
    notes: str = ""
    rolls: tuple[RollRow, ...] = ()


@dataclass(frozen=True)
class LeaderRow:
    name: str
    rank: str = ""
    how: str = ""
    joined: str = ""
    left: str = ""
    battles_led: int = 0
    xp_at_join: int = 0
    xp: int = 0
    level: str = ""
    current: bool = False


@dataclass(frozen=True)
class XpPoint:
    """XP after a battle (battle 0 = before the first). ``change`` is the lost leader's fate when the leader
    changed in that battle, with ``old_leader_xp`` the XP the old leader left with."""

    battle: int
    platoon_xp: int
    leader_xp: int | None = None
    change: str | None = None
    old_leader_xp: int | None = None


@dataclass(frozen=True)
class Summary:
    xp: int = 0
    level: str = ""
    leader: str | None = None
    battles: int = 0
    victories: int = 0
    defeats: int = 0
    draws: int = 0
    unrecorded: int = 0
    total_wounds: int = 0
    leader_wounds: int = 0
    xp_lost: int = 0
    xp_awarded: int = 0
    leaders_lost: int = 0
    casualties: int = 0
    promotions: int = 0
    leaders: int = 0
    first_battle: str | None = None
    last_battle: str | None = None


@dataclass(frozen=True)
class WoundsPoint:
    """Wound counters of one battle (those on the leader's element among them) and the XP recovery cost."""

    battle: int
    wounds: int
    leader_wounds: int = 0
    xp_lost: int = 0


@dataclass(frozen=True)
class ChangeRow:
    """A change made by hand since the first battle (the roster, a battle's record, XP set by hand): the day
    it was made, and its sentence."""

    date: str
    text: str


@dataclass(frozen=True)
class HistoryData:
    platoon: str
    campaign: str
    summary: Summary
    battles: tuple[BattleRow, ...] = ()
    leaders: tuple[LeaderRow, ...] = ()
    xp_points: tuple[XpPoint, ...] = ()
    thresholds: Thresholds = DEFAULT_THRESHOLDS
    wounds: tuple[WoundsPoint, ...] = ()
    changes: tuple[ChangeRow, ...] = ()
    """Oldest first."""


# ----------------------------------------------------------------------------------------------- chart


def xp_chart(points: Sequence[XpPoint], thresholds: Thresholds, width: float, height: float = 190.0) -> Drawing:
    """The XP chart: level bands (G/R/V/L at the thresholds), the platoon's XP (solid) and the leader's
    (dashed, red) after each battle; a leader lost in a battle is marked (× casualty, ▲ promoted) and the
    new leader's line starts at the XP the replacement joined with."""
    d = new_drawing(width, height)
    left, right, bottom, top = 30.0, 26.0, 26.0, 8.0
    pw, ph = width - left - right, height - bottom - top
    last = max((p.battle for p in points), default=0)
    span = max(last, 1)

    def x_of(battle: float) -> float:
        return left + pw * battle / span

    def y_of(xp: float) -> float:
        return bottom + ph * xp / XP_MAX

    # level bands
    edges = (0, *thresholds.as_tuple(), XP_MAX)
    for rank in range(len(LEVELS)):
        lo, hi = edges[rank], edges[rank + 1]
        d.add(
            rect(
                left, y_of(lo), pw, y_of(hi) - y_of(lo), fillColor=colors.HexColor(BAND_COLOURS[rank]), strokeColor=None
            )
        )
        label_y = (y_of(lo) + y_of(hi)) / 2 - 2.5
        if y_of(hi) - y_of(lo) >= 8:
            d.add(String(left + pw + 3, label_y, LEVELS[rank][:3], fontName=FONT, fontSize=CHART_FONT, fillColor=MID))
    for value, letter in zip(thresholds.as_tuple(), LEVEL_LETTERS, strict=True):
        d.add(
            Line(left, y_of(value), left + pw, y_of(value), strokeColor=LIGHT, strokeWidth=0.5, strokeDashArray=[2, 2])
        )
        d.add(
            String(
                left - 4,
                y_of(value) - 2.5,
                f"{letter} {value}",
                fontName=FONT_BOLD,
                fontSize=CHART_FONT,
                fillColor=MID,
                textAnchor="end",
            )
        )
    # axes
    d.add(Line(left, bottom, left + pw, bottom, strokeColor=INK, strokeWidth=0.8))
    d.add(Line(left, bottom, left, bottom + ph, strokeColor=INK, strokeWidth=0.8))
    for value in (0, XP_MAX):
        if any(abs(y_of(value) - y_of(t)) < CHART_FONT + 1 for t in thresholds.as_tuple()):
            continue  # a threshold label is already there
        d.add(
            String(
                left - 4,
                y_of(value) - 2.5,
                str(value),
                fontName=FONT,
                fontSize=CHART_FONT,
                fillColor=MID,
                textAnchor="end",
            )
        )
    step = max(1, -(-last // 20))
    for battle in range(0, last + 1, step):
        d.add(Line(x_of(battle), bottom, x_of(battle), bottom - 3, strokeColor=INK, strokeWidth=0.6))
        d.add(
            String(
                x_of(battle),
                bottom - 11,
                "start" if battle == 0 else str(battle),
                fontName=FONT,
                fontSize=CHART_FONT,
                fillColor=MID,
                textAnchor="middle",
            )
        )
    d.add(String(left + pw / 2, 2, "battle", fontName=FONT, fontSize=CHART_FONT, fillColor=MID, textAnchor="middle"))
    if last == 0:
        d.add(
            String(
                left + pw / 2,
                bottom + ph / 2,
                "no battles yet",
                fontName=FONT,
                fontSize=9,
                fillColor=MID,
                textAnchor="middle",
            )
        )
    if not points:
        return d
    # leader's XP: one line per leader
    segment: list[float] = []
    marks: list[tuple[float, float, str]] = []
    for p in points:
        if p.change and p.old_leader_xp is not None:
            segment += [x_of(p.battle), y_of(p.old_leader_xp)]
            marks.append((x_of(p.battle), y_of(p.old_leader_xp), p.change))
            _leader_line(d, segment)
            segment = []
        if p.leader_xp is not None:
            segment += [x_of(p.battle), y_of(p.leader_xp)]
        else:
            _leader_line(d, segment)
            segment = []
    _leader_line(d, segment)
    for mx, my, fate in marks:
        if fate == LeaderFate.PROMOTED:
            d.add(
                Polygon(
                    [mx - 3.5, my - 2.5, mx + 3.5, my - 2.5, mx, my + 3.5], fillColor=LEADER_COLOUR, strokeColor=None
                )
            )
        else:
            d.add(Line(mx - 3, my - 3, mx + 3, my + 3, strokeColor=LEADER_COLOUR, strokeWidth=1.4))
            d.add(Line(mx - 3, my + 3, mx + 3, my - 3, strokeColor=LEADER_COLOUR, strokeWidth=1.4))
    # platoon's XP on top
    line = [v for p in points for v in (x_of(p.battle), y_of(p.platoon_xp))]
    if len(line) >= 4:
        d.add(PolyLine(line, strokeColor=ACCENT, strokeWidth=1.8, strokeLineJoin=1))
    for p in points:
        d.add(
            Circle(x_of(p.battle), y_of(p.platoon_xp), 1.9, fillColor=ACCENT, strokeColor=colors.white, strokeWidth=0.5)
        )
    # legend
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lx, ly = left + 6, bottom + ph - 10
    w_platoon = stringWidth("platoon", FONT, CHART_FONT)
    w_leader = stringWidth("leader", FONT, CHART_FONT)
    fates = "\u00d7 casualty  \u25b2 promoted"
    x_leader = lx + 17 + w_platoon + 8
    x_fates = x_leader + 17 + w_leader + 8
    total = x_fates + stringWidth(fates, FONT, CHART_FONT) + 4 - (lx - 3)
    d.add(rect(lx - 3, ly - 4, total, 13, fillColor=colors.white, strokeColor=LIGHT, strokeWidth=0.4))
    d.add(Line(lx, ly + 2, lx + 14, ly + 2, strokeColor=ACCENT, strokeWidth=1.8))
    d.add(String(lx + 17, ly - 0.5, "platoon", fontName=FONT, fontSize=CHART_FONT, fillColor=INK))
    d.add(
        Line(
            x_leader, ly + 2, x_leader + 14, ly + 2, strokeColor=LEADER_COLOUR, strokeWidth=1.2, strokeDashArray=[3, 2]
        )
    )
    d.add(String(x_leader + 17, ly - 0.5, "leader", fontName=FONT, fontSize=CHART_FONT, fillColor=INK))
    d.add(String(x_fates, ly - 0.5, fates, fontName=FONT, fontSize=CHART_FONT, fillColor=LEADER_COLOUR))
    return d


WOUND_COLOUR = colors.HexColor("#8a5a2b")


def wounds_chart(points: Sequence[WoundsPoint], width: float, height: float = 190.0) -> Drawing:
    """Wound counters per battle as bars (the part on the leader's element darker), with whole-number ticks
    and the XP each battle's recovery cost printed over its bar."""
    d = new_drawing(width, height)
    left, right, bottom, top = 24.0, 6.0, 26.0, 20.0
    pw, ph = width - left - right, height - bottom - top
    most = max((p.wounds for p in points), default=0)
    step = 1 if most <= 5 else 2 if most <= 10 else 5 if most <= 25 else 10
    scale_top = max(step, -(-most // step) * step)

    def y_of(value: float) -> float:
        return bottom + ph * value / scale_top

    d.add(Line(left, bottom, left + pw, bottom, strokeColor=INK, strokeWidth=0.8))
    d.add(Line(left, bottom, left, bottom + ph, strokeColor=INK, strokeWidth=0.8))
    for value in range(0, scale_top + 1, step):
        d.add(Line(left - 3, y_of(value), left, y_of(value), strokeColor=INK, strokeWidth=0.6))
        d.add(
            String(
                left - 5,
                y_of(value) - 2.5,
                str(value),
                fontName=FONT,
                fontSize=CHART_FONT,
                fillColor=MID,
                textAnchor="end",
            )
        )
        if value:
            d.add(
                Line(
                    left,
                    y_of(value),
                    left + pw,
                    y_of(value),
                    strokeColor=LIGHT,
                    strokeWidth=0.4,
                    strokeDashArray=[2, 2],
                )
            )
    d.add(String(left + pw / 2, 2, "battle", fontName=FONT, fontSize=CHART_FONT, fillColor=MID, textAnchor="middle"))
    d.add(
        String(
            left,
            height - 9,
            "wound counters (on the leader's element darker)",
            fontName=FONT,
            fontSize=CHART_FONT,
            fillColor=MID,
        )
    )
    if not points:
        d.add(
            String(
                left + pw / 2,
                bottom + ph / 2,
                "no battles yet",
                fontName=FONT,
                fontSize=9,
                fillColor=MID,
                textAnchor="middle",
            )
        )
        return d
    n = len(points)
    slot = pw / n
    bar = max(1.0, min(slot * 0.7, 18.0))
    label_every = max(1, -(-n // 20))
    for i, p in enumerate(points):
        x = left + slot * i + (slot - bar) / 2
        if p.wounds:
            d.add(
                rect(
                    x,
                    bottom,
                    bar,
                    y_of(p.wounds) - bottom,
                    fillColor=colors.HexColor("#d9c3a5"),
                    strokeColor=WOUND_COLOUR,
                    strokeWidth=0.4,
                )
            )
        if p.leader_wounds:
            d.add(
                rect(
                    x,
                    bottom,
                    bar,
                    y_of(min(p.leader_wounds, p.wounds)) - bottom,
                    fillColor=WOUND_COLOUR,
                    strokeColor=None,
                )
            )
        if p.xp_lost and slot >= 12:
            d.add(
                String(
                    x + bar / 2,
                    y_of(p.wounds) + 2,
                    f"\u2212{p.xp_lost}",
                    fontName=FONT,
                    fontSize=CHART_FONT,
                    fillColor=INK,
                    textAnchor="middle",
                )
            )
        if i % label_every == 0:
            d.add(
                String(
                    x + bar / 2,
                    bottom - 11,
                    str(p.battle),
                    fontName=FONT,
                    fontSize=CHART_FONT,
                    fillColor=MID,
                    textAnchor="middle",
                )
            )
    return d


def _leader_line(d: Drawing, segment: list[float]) -> None:
    if len(segment) >= 4:
        d.add(PolyLine(segment, strokeColor=LEADER_COLOUR, strokeWidth=1.2, strokeDashArray=[3, 2]))
    for i in range(0, len(segment), 2):
        d.add(Circle(segment[i], segment[i + 1], 1.5, fillColor=LEADER_COLOUR, strokeColor=None))


# ---------------------------------------------------------------------------------------------- report


def _summary_table(data: HistoryData, width: float, st: dict[str, Any]) -> Table:
    s = data.summary
    record = f"{s.victories} won \u00b7 {s.defeats} lost \u00b7 {s.draws} drawn"
    if s.unrecorded:
        record += f" \u00b7 {s.unrecorded} no result"
    cells = [
        ("Battles", str(s.battles), record),
        ("Platoon XP", str(s.xp), s.level),
        ("Leader", s.leader or "none", f"{s.leaders} in all"),
        ("Wound counters", str(s.total_wounds), f"{s.leader_wounds} on the leader's element"),
        ("XP awarded / lost", f"+{s.xp_awarded} / \u2212{s.xp_lost}", "lost: to recovery"),
        (
            "Leaders lost",
            str(s.leaders_lost),
            f"{s.casualties} {'casualty' if s.casualties == 1 else 'casualties'} \u00b7 {s.promotions} promoted",
        ),
    ]
    boxes = []
    for label, value, note in cells:
        boxes.append(
            [
                Paragraph(esc(label.upper()), st["tiny"]),
                Paragraph(esc(value), st["title_small"]),
                Paragraph(esc(note), st["small"]),
            ]
        )
    cols = 3
    w = width / cols
    rows = []
    for i in range(0, len(boxes), cols):
        row = []
        for box in boxes[i : i + cols]:
            row.append(
                table(
                    [[box[0]], [box[1]], [box[2]]],
                    [w - 10],
                    style=[
                        ("LEFTPADDING", (0, 0), (-1, -1), 0),
                        ("TOPPADDING", (0, 0), (-1, -1), 0),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                    ],
                )
            )
        rows.append(row)
    return table(
        rows,
        [w] * cols,
        style=[
            ("BOX", (0, 0), (-1, -1), 0.8, INK),
            ("INNERGRID", (0, 0), (-1, -1), 0.5, LIGHT),
            ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#f7f8fa")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 6),
            ("TOPPADDING", (0, 0), (-1, -1), 4),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ],
    )


def _date_span(s: Summary) -> str:
    if not s.first_battle:
        return ""
    first = str(s.first_battle)[:10]
    last = str(s.last_battle or s.first_battle)[:10]
    return first if first == last else f"{first} \u2013 {last}"


def _battle_rows(battles: Sequence[BattleRow]) -> list[list[str]]:
    rows = []
    for b in battles:
        what = b.scenario or ""
        if b.opponent:
            what = f"{what} vs {b.opponent}".strip()
        if b.fire_support:
            what += " (fire support)"
        objectives = OBJECTIVE_WORDS.get(b.objectives, str(b.objectives))
        wounds = str(b.wounds) + (f" ({b.leader_wounds})" if b.leader_wounds else "")
        xp = f"{b.xp_before}\u2192{b.xp_after}" + (f" (\u2212{b.xp_lost})" if b.xp_lost else "")
        fate = FATE_SHORT.get(b.leader_fate, b.leader_fate or "")
        leader = b.leader
        if b.leader_xp_before is not None and b.leader_xp_after is not None:
            leader += f" {b.leader_xp_before}\u2192{b.leader_xp_after}"
        if fate:
            leader += f", {fate}"
        if b.replacement:
            leader += f"; {b.replacement} takes over"
        rows.append(
            [
                str(b.number),
                b.date,
                what or "\u2013",
                OUTCOME_WORDS.get(b.outcome, b.outcome or ""),
                objectives,
                wounds,
                xp,
                leader.strip(", "),
            ]
        )
    return rows


BATTLE_HEADERS = ("#", "Date", "Scenario / opponent", "Result", "Objective", "Wounds", "XP", "Leader")


def _battles_table(battles: Sequence[BattleRow], width: float, st: dict[str, Any]) -> Table:
    """The battles, one row each, with the battle's notes on a row of their own under it (the campaign's
    story); split over pages with the header row repeated."""
    rows = _battle_rows(battles)
    widths = content_widths(BATTLE_HEADERS, rows, width, (0.04, 0.1, 0.16, 0.07, 0.09, 0.07, 0.09, 0.18))
    data: list[list[Any]] = [[Paragraph(esc(h), st["head"]) for h in BATTLE_HEADERS]]
    commands: list[tuple[Any, ...]] = []
    stripe = colors.HexColor("#f5f6f8")
    for i, (b, row) in enumerate(zip(battles, rows, strict=True)):
        data.append([Paragraph(esc(c), st["cell"]) for c in row])
        r = len(data) - 1
        if i % 2:
            commands.append(("BACKGROUND", (0, r), (-1, r), stripe))
        if b.notes:
            note = esc(b.notes).replace("\n", "<br/>")
            data.append([Paragraph(f"<i>{note}</i>", st["note"])] + [""] * (len(BATTLE_HEADERS) - 1))
            n = len(data) - 1
            commands += [
                ("SPAN", (0, n), (-1, n)),
                ("LINEABOVE", (0, n), (-1, n), 0, colors.white),
                ("LEFTPADDING", (0, n), (-1, n), widths[0] + 3),
            ]
            if i % 2:
                commands.append(("BACKGROUND", (0, n), (-1, n), stripe))
    t = Table(data, colWidths=widths, repeatRows=1)
    t.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, 0), ACCENT),
                ("GRID", (0, 0), (-1, -1), 0.5, LIGHT),
                ("BOX", (0, 0), (-1, -1), 0.8, INK),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                ("FONTNAME", (0, 0), (-1, -1), FONT),
                *commands,
            ]
        )
    )
    return t


def _charts(data: HistoryData, width: float) -> Table:
    """The XP chart and, beside it, the wounds chart."""
    gap = 10.0
    xp_w = (width - gap) * 0.6
    wounds_w = width - gap - xp_w
    return table(
        [[xp_chart(data.xp_points, data.thresholds, xp_w), "", wounds_chart(data.wounds, wounds_w)]],
        [xp_w, gap, wounds_w],
        style=[
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ],
    )


def _leader_rows(leaders: Sequence[LeaderRow]) -> list[list[str]]:
    rows = []
    for ld in leaders:
        rows.append(
            [
                ld.name + (" (now)" if ld.current else ""),
                ld.rank,
                ld.joined or "\u2013",
                ld.left or "\u2013",
                ld.how,
                str(ld.battles_led),
                f"{ld.xp_at_join}\u2192{ld.xp} ({ld.level})",
            ]
        )
    return rows


def build_history_report(
    data: HistoryData, *, paper: str | None = None, printed_on: _dt.date | None = None, invariant: bool = True
) -> bytes:
    """The history report's PDF (bytes): summary, XP chart, battles table (split over pages with its
    header repeated), leaders' roll."""
    _name, size = resolve_paper(paper)
    width = size[0] - 2 * MARGIN
    st = dict(styles())
    st["title_small"] = st["title"].clone("title_small", fontSize=13, leading=16)
    st["note"] = st["cell"].clone("note", textColor=INK)
    buffer = io.BytesIO()
    title = f"Platoon history: {data.platoon}"
    printed = print_date_text(printed_on)

    doc = one_frame_document(
        buffer,
        size,
        MARGIN,
        title,
        "report",
        printed,
        lambda page: f"{data.platoon} \u00b7 {data.campaign} \u00b7 page {page}",
    )
    dates = _date_span(data.summary)
    story: list[Any] = [
        Paragraph("PLATOON HISTORY \u00b7 ATOMIC AFRICA", st["tiny"]),
        Paragraph(esc(data.platoon), st["title"]),
        Paragraph(esc(data.campaign) + (f" \u00b7 {esc(dates)}" if dates else ""), st["subtitle"]),
        Spacer(1, 8),
        _summary_table(data, width, st),
        SectionHeading(
            "Experience and wounds", "XP over the levels \u00b7 wound counters (\u2212n: XP lost)", space_before=10
        ),
        _charts(data, width),
        CondPageBreak(90),
        SectionHeading(
            "Battles",
            "wounds (on the leader's element) \u00b7 platoon XP before\u2192after (lost to recovery)",
            space_before=10,
            keep_with_next=False,
        ),
    ]
    if data.battles:
        story.append(_battles_table(data.battles, width, st))
    else:
        story.append(Paragraph("No battles logged yet.", st["body"]))
    story.append(CondPageBreak(80))
    story.append(SectionHeading("Leaders' roll", "first to last", space_before=12, keep_with_next=False))
    if data.leaders:
        headers = ("Leader", "Rank", "Joined", "Left", "How", "Battles", "XP")
        leader_rows = _leader_rows(data.leaders)
        widths = content_widths(headers, leader_rows, width, (0.14, 0.08, 0.12, 0.12, 0.12, 0.06, 0.1))
        roll = grid_table(headers, leader_rows, widths, st=st)
        current = [i for i, ld in enumerate(data.leaders, start=1) if ld.current]
        if current:
            roll.setStyle(TableStyle([("BACKGROUND", (0, i), (-1, i), ACCENT_LIGHT) for i in current]))
        story.append(roll)
    else:
        story.append(Paragraph("The platoon has had no leader.", st["body"]))
    if data.changes:
        story.append(CondPageBreak(80))
        story.append(
            SectionHeading(
                "Changes by hand",
                "since the first battle: the roster, battles' records and XP, oldest first",
                space_before=12,
                keep_with_next=False,
            )
        )
        change_rows = [[c.date, c.text] for c in data.changes]
        story.append(
            grid_table(
                ("Made on", "Change"),
                change_rows,
                content_widths(("Made on", "Change"), change_rows, width, (0.1, 0.5)),
                st=st,
            )
        )
    rolls = [(b, r) for b in data.battles for r in b.rolls]
    if rolls:
        story.append(CondPageBreak(120))
        story.append(
            SectionHeading(
                "Roll appendix",
                "every roll: the dice, the faces, the rule and the table row it used, the result",
                space_before=12,
                keep_with_next=False,
            )
        )
        headers = ("#", "Roll", "Dice", "Faces", "Total", "Rule and table row", "Result")
        rows = [
            [
                str(b.number),
                r.purpose,
                r.expression,
                " ".join(str(f) for f in r.faces),
                str(r.total),
                "; ".join(x for x in (r.rule.removeprefix("RULES "), r.table_row) if x),
                r.outcome + ("" if r.source == "app" else " (typed in)"),
            ]
            for b, r in rolls
        ]
        story.append(
            grid_table(
                headers, rows, content_widths(headers, rows, width, (0.04, 0.1, 0.06, 0.07, 0.05, 0.2, 0.2)), st=st
            )
        )
    doc.build(story, canvasmaker=canvas_maker(title, "Atomic Africa platoon history", invariant))
    return buffer.getvalue()
