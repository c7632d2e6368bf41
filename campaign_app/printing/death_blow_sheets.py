"""d12 Death Blow printouts (RULES.md §5): the fighter sheet, filled in (one page per fighter) or blank, and a
solo bout's round log as a report. Plain data in (:class:`FighterSheet`, :class:`BoutLog`), PDF bytes out; the
Scale of Styles comes from the engine's rule table (one source of truth with the cards and the bout engine)."""

from __future__ import annotations

import datetime as _dt
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import (
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from ..rules.death_blow import MAX_LEVEL, XP_PER_LEVEL
from ..rules.tables import rule_table
from ..words import plural
from .fonts import FONT
from .sheetkit import (
    ACCENT,
    ACCENT_LIGHT,
    INK,
    LIGHT,
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

MARGIN = 14 * mm


@dataclass(frozen=True)
class FighterSheet:
    """One fighter's sheet (``name`` '' and ``blank``: a blank sheet to fill in by hand)."""

    name: str = ""
    campaign: str = ""
    level: int | None = None
    xp: int = 0
    lifetime_xp: int | None = None
    bouts: int | None = None
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None
    notes: str = ""
    recent: tuple[tuple[str, str, str], ...] = ()
    """(date, opponent, result) of the newest bouts."""

    @property
    def blank(self) -> bool:
        return self.level is None


@dataclass(frozen=True)
class BoutLog:
    """A bout's round log: who fought, the result, and each round's two sides (the services' dicts)."""

    bout_id: int
    date: str
    campaign: str
    fighter: str
    opponent: str
    fighter_level: int
    opponent_level: int
    winner: str
    face_cards_left: int
    xp_gained: int
    seed: str | None
    dice_note: str
    rounds: tuple[dict[str, Any], ...] = field(default_factory=tuple)


def _doc(buffer: io.BytesIO, paper: str | None, title: str, left: str, right: str) -> tuple[Any, float]:
    _name, size = resolve_paper(paper)
    width = size[0] - 2 * MARGIN

    doc = one_frame_document(buffer, size, MARGIN, title, "sheet", left, lambda page: f"{right} \u00b7 page {page}")
    return doc, width


def _boxes(filled: int, width: float, st: dict[str, Any], last_level: bool) -> Table:
    side = min(13 * mm, width / (XP_PER_LEVEL + 1))
    cells = [["\u2715" if i < filled else "" for i in range(XP_PER_LEVEL)]]
    t = Table(cells, colWidths=[side] * XP_PER_LEVEL, rowHeights=[side], hAlign="LEFT")
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 1.0, INK),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("FONTNAME", (0, 0), (-1, -1), FONT),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("FONTSIZE", (0, 0), (-1, -1), 16),
                ("TEXTCOLOR", (0, 0), (-1, -1), ACCENT),
                *([("BACKGROUND", (0, 0), (-1, -1), ACCENT_LIGHT)] if last_level else []),
            ]
        )
    )
    return t


def _figure_table(pairs: Sequence[tuple[str, str]], width: float, st: dict[str, Any]) -> Table:
    heads = [Paragraph(esc(label), st["tiny"]) for label, _v in pairs]
    values = [Paragraph(esc(value) if value else "&nbsp;", st["figure"]) for _l, value in pairs]
    t = Table([values, heads], colWidths=[width / len(pairs)] * len(pairs))
    t.setStyle(
        TableStyle(
            [
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                ("FONTNAME", (0, 0), (-1, -1), FONT),
                ("LEFTPADDING", (0, 0), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 0), (-1, 0), 2),
            ]
        )
    )
    return t


def _sheet_story(sheet: FighterSheet, width: float, st: dict[str, Any]) -> list[Any]:
    level = "" if sheet.level is None else str(sheet.level)
    story: list[Any] = [
        Paragraph("FIGHTER \u00b7 D12 DEATH BLOW", st["tiny"]),
        Paragraph(esc(sheet.name) if sheet.name else "Name: ______________________________", st["title"]),
        Paragraph(esc(sheet.campaign) if sheet.campaign else "Campaign: ____________________", st["subtitle"]),
        Spacer(1, 8),
    ]
    record = "" if sheet.bouts is None else f"{sheet.wins}\u2013{sheet.draws}\u2013{sheet.losses}"
    story.append(
        _figure_table(
            [
                ("Experience Level (0\u201311)", level),
                ("Lifetime XP", "" if sheet.lifetime_xp is None else str(sheet.lifetime_xp)),
                ("Bouts", "" if sheet.bouts is None else str(sheet.bouts)),
                ("Won\u2013drawn\u2013lost", record),
            ],
            width,
            st,
        )
    )
    story.append(
        SectionHeading("XP toward the next level", "all 12 ticked: up a level, clear, carry the rest", space_before=10)
    )
    last = sheet.level is not None and sheet.level >= MAX_LEVEL
    story.append(_boxes(sheet.xp, width, st, last))
    if last:
        story.append(Paragraph("Level 11 is the last level: XP now counts in lifetime XP only.", st["small"]))
    story.append(SectionHeading("What the level gives", "", space_before=10))
    if sheet.level is None:
        gives = (
            "A face card (J, Q, K) has Reaction Speed = your level: ____. "
            "A signature move (Joker) adds your level to the damage it deals, after the Defense: +____."
        )
    else:
        gives = (
            f"A face card (J, Q, K) has Reaction Speed <b>{sheet.level}</b>. A signature move (Joker) adds "
            f"<b>+{sheet.level}</b> to the damage it deals, after the Defense (so it deals at least "
            f"{sheet.level})."
        )
    story.append(Paragraph(gives, st["body"]))
    story.append(
        SectionHeading("Scale of Styles", "the higher Initiative may shift that many steps along it", space_before=10)
    )
    headers, rows = rule_table("death_blow.styles")
    styles_table = grid_table(headers, rows, content_widths(headers, rows, width * 0.7), st=st)
    styles_table.hAlign = "LEFT"
    story.append(styles_table)
    story.append(
        Paragraph(
            "Reaction Speed: Ace 1, 2\u201310 as printed, J/Q/K your level. Initiative: how many of "
            "your two d12 are at or under it. Damage = Attack \u2212 the other's Defense (at least "
            "0): that many cards off the top of their deck, unplayed.",
            st["small"],
        )
    )
    if sheet.blank:
        story.append(SectionHeading("Bouts", "to fill in after each bout", space_before=10))
        heads = ("Date", "Opponent (level)", "Won / drawn / lost", "Face cards left", "XP")
        story.append(grid_table(heads, [], [width * f for f in (0.14, 0.36, 0.2, 0.18, 0.12)], st=st, empty_rows=8))
    if sheet.recent:
        story.append(SectionHeading("Latest bouts", "newest first", space_before=10))
        rows2 = [list(r) for r in sheet.recent]
        story.append(
            grid_table(
                ("Date", "Opponent", "Result"),
                rows2,
                content_widths(("Date", "Opponent", "Result"), rows2, width),
                st=st,
            )
        )
    story.append(SectionHeading("Notes", "", space_before=10))
    if sheet.notes:
        story.append(Paragraph(esc(sheet.notes).replace("\n", "<br/>"), st["body"]))
    else:
        notes = Table([[""]] * 4, colWidths=[width], rowHeights=[16] * 4)
        notes.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, -1), 0.5, LIGHT), ("FONTNAME", (0, 0), (-1, -1), FONT)]))
        story.append(notes)
    return story


def _styles() -> dict[str, Any]:
    st = dict(styles())
    st["figure"] = st["title"].clone("figure", fontSize=20, leading=24)
    return st


def build_fighter_sheets(
    sheets: Sequence[FighterSheet],
    *,
    paper: str | None = None,
    printed_on: _dt.date | None = None,
    invariant: bool = True,
) -> bytes:
    """One page per fighter (a blank sheet when ``sheets`` holds a blank one)."""
    buffer = io.BytesIO()
    names = [s.name for s in sheets if s.name]
    title = "Fighter sheet" + (f": {', '.join(names)}" if names else " (blank)")
    doc, width = _doc(buffer, paper, title, print_date_text(printed_on), "d12 Death Blow fighter sheet")
    st = _styles()
    story: list[Any] = []
    for i, sheet in enumerate(sheets):
        if i:
            story.append(PageBreak())
        story.extend(_sheet_story(sheet, width, st))
    doc.build(story, canvasmaker=canvas_maker(title, "d12 Death Blow fighter sheet", invariant))
    return buffer.getvalue()


STYLE_SHORT = {"iron-defense": "Iron", "mixed-defense": "M.Def", "mixed-offense": "M.Off", "all-out-attack": "All-Out"}


def _side_cells(s: dict[str, Any]) -> list[str]:
    start, final = STYLE_SHORT[s["style"]], STYLE_SHORT[s["final_style"]]
    style = start if start == final else f"{start}\u2192{final}"
    typed = "*" if s.get("dice_source") == "entered" else ""
    return [
        s["card"],
        f"{s['dice'][0]},{s['dice'][1]}{typed}",
        str(s["initiative"]),
        style,
        f"{s['attack']}/{s['defense']}",
        str(s["damage"]),
        str(s["cards_left"]),
    ]


def build_bout_log(
    log: BoutLog, *, paper: str | None = None, printed_on: _dt.date | None = None, invariant: bool = True
) -> bytes:
    """A bout's round log: the result, then each round's cards, dice, Initiative, styles, Attack/Defense,
    damage dealt and cards left, for both fighters."""
    buffer = io.BytesIO()
    title = f"Bout #{log.bout_id}: {log.fighter} vs {log.opponent}"
    doc, width = _doc(buffer, paper, title, print_date_text(printed_on), f"{title} \u00b7 {log.campaign}")
    st = _styles()
    result = (
        "A draw: both decks ran out in the same round; no XP."
        if log.winner == "draw"
        else f"{log.winner} won with {plural(log.face_cards_left, 'face card')} left in the deck: +{log.xp_gained} XP."
    )
    story: list[Any] = [
        Paragraph("BOUT ROUND LOG \u00b7 D12 DEATH BLOW", st["tiny"]),
        Paragraph(esc(f"{log.fighter} vs {log.opponent}"), st["title"]),
        Paragraph(
            esc(
                f"{log.campaign} \u00b7 {log.date} \u00b7 {log.fighter} level {log.fighter_level}, "
                f"{log.opponent} level {log.opponent_level}"
            ),
            st["subtitle"],
        ),
        Spacer(1, 6),
        Paragraph(esc(result), st["body"]),
        Paragraph(
            esc(
                f"Seed {log.seed}; {log.dice_note}" + (" (* typed in)" if "typed" in log.dice_note else "")
                if log.seed
                else log.dice_note
            ),
            st["small"],
        ),
        SectionHeading(
            "Rounds",
            f"{plural(len(log.rounds), 'round')} \u00b7 A/D: Attack/Defense after the shift \u00b7 dmg: "
            "damage dealt \u00b7 left: cards left in the deck",
            space_before=8,
            keep_with_next=False,
        ),
    ]
    sub = ("Card", "Dice", "Ini", "Style", "A/D", "dmg", "left")
    headers = (
        "#",
        *(f"{log.fighter[:14]}: {h}" if i == 0 else h for i, h in enumerate(sub)),
        *(f"{log.opponent[:14]}: {h}" if i == 0 else h for i, h in enumerate(sub)),
    )
    rows = [[str(r["round"]), *_side_cells(r["a"]), *_side_cells(r["b"])] for r in log.rounds]
    if rows:
        table = grid_table(headers, rows, content_widths(headers, rows, width, size=7.5), st=st)
        table.setStyle(TableStyle([("LINEAFTER", (7, 0), (7, -1), 1.2, INK)]))
        story.append(table)
    else:
        story.append(Paragraph("This bout was played at the table: only its result was logged.", st["body"]))
    doc.build(story, canvasmaker=canvas_maker(title, "d12 Death Blow bout", invariant))
    return buffer.getvalue()
