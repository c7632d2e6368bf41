"""Sologear campaign sheet and battle form (RULES.md §2), blank or filled, in the seed's layout.

Page 1, the **campaign sheet**: date, area, both units and affiliations, pilot and Gear, length and odds, then
a units table for each side (name, base power, skill ×, loyalty ×, total) with the total combat power, the odds
worked out, and the reference tables the sheet needs (skill, loyalty, odds bands: the very tables the rules
use, from :func:`campaign_app.rules.sologear.table_text.card_tables`).

Page 2, the **battle form**: one row per battle turn (turn, action, enemy, glory, special), then the
**end-of-campaign reckoning** (recognition and impression with their breakdowns, the D66 noticed roll and the
reward or punishment) once it is done, else as an empty worksheet to finish by hand.

The functions take plain data (:class:`SologearSheetData`); ``campaign_app.services.printing`` gathers it
(:func:`campaign_app.services.sologear_sheet.print_data`).
"""

from __future__ import annotations

import datetime as _dt
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
)

from ..rules.sologear.combat import POSTURES
from ..rules.sologear.reckoning import DEFAULT_REWARD_DICE, impression, recognition
from ..rules.sologear.table_text import card_tables
from ..words import plural
from .sheetkit import (
    ACCENT_LIGHT,
    INK,
    LIGHT,
    NO_PADDING,
    NotesBox,
    SectionHeading,
    canvas_maker,
    content_widths,
    esc,
    fmt_number,
    grid_table,
    one_frame_document,
    print_date_text,
    resolve_paper,
    styles,
    table,
)

MARGIN = 36.0
BLANK_FORCE_ROWS = 5
BLANK_TURN_ROWS = 18
MIN_TURN_ROWS = 8


# ----------------------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class ForceRow:
    """One unit of a side: base power × skill × loyalty = total."""

    name: str
    base_power: float
    skill: str
    skill_x: float
    loyalty: str
    loyalty_x: float
    total: float
    company_tv: int | None = None


@dataclass(frozen=True)
class FormRow:
    """One row of the battle form, as text."""

    turn: str
    action: str
    enemy: str = ""
    glory: str = ""
    special: str = ""


@dataclass(frozen=True)
class ScoreLine:
    label: str
    count: int
    per: int | None
    points: int


@dataclass(frozen=True)
class ReckoningData:
    """The finished end-of-campaign reckoning (RULES 2.3)."""

    recognition: int
    recognition_lines: tuple[ScoreLine, ...]
    noticed_on: str
    d66: int | None
    noticed: bool | None
    impression: int
    impression_lines: tuple[ScoreLine, ...]
    table: str | None = None
    result: int | None = None
    band_label: str = ""
    band_title: str = ""
    band_text: str = ""
    outcome: str = ""
    reward_dice: str = DEFAULT_REWARD_DICE
    variable_tables: bool = False


@dataclass(frozen=True)
class SologearSheetData:
    """Everything a filled campaign sheet and battle form print."""

    name: str
    pilot: str
    gear_tv: int
    gear_name: str = ""
    date: str = ""
    area: str = ""
    player_unit: str = ""
    player_affiliation: str = ""
    enemy_unit: str = ""
    enemy_affiliation: str = ""
    length: int | None = None
    length_dice: str | None = None
    player: tuple[ForceRow, ...] = ()
    enemy: tuple[ForceRow, ...] = ()
    player_total: float = 0.0
    enemy_total: float = 0.0
    odds_ratio: float | None = None
    odds_band: str | None = None
    turns: tuple[FormRow, ...] = ()
    status: str = "active"
    end_text: str = ""
    gear_damaged: bool = False
    short_ammo: bool = False
    pilot_status: str = "active"
    ferocious: bool = False
    variable_tables: bool = False
    reward_dice: str = DEFAULT_REWARD_DICE
    enemy_quality_column: str = ""
    reckoning: ReckoningData | None = None
    notes: str = ""


# ---------------------------------------------------------------------------------------------- pieces


def _fields_table(pairs: Sequence[tuple[str, str | None, str, str | None]], width: float, st: dict[str, Any]) -> Table:
    """Label/value pairs, two per row, each value on a ruled line (empty on a blank form)."""
    label_w = 88.0
    value_w = width / 2 - label_w
    data = []
    for l1, v1, l2, v2 in pairs:
        data.append(
            [
                Paragraph(esc(l1), st["tiny"]),
                Paragraph(esc(v1 or ""), st["cell_bold"]),
                Paragraph(esc(l2), st["tiny"]),
                Paragraph(esc(v2 or ""), st["cell_bold"]),
            ]
        )
    return table(
        data,
        [label_w, value_w - 8, label_w, value_w + 8],
        [19] * len(data),
        [
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ("LINEBELOW", (1, 0), (1, -1), 0.5, LIGHT),
            ("LINEBELOW", (3, 0), (3, -1), 0.5, LIGHT),
            ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ("RIGHTPADDING", (1, 0), (1, -1), 10),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ],
    )


def _force_table(rows: Sequence[ForceRow] | None, total: float | None, width: float, st: dict[str, Any]) -> Table:
    headers = ("Unit name", "Base power", "Unit skill", "Unit loyalty", "Unit total")
    widths = [width * f for f in (0.36, 0.14, 0.17, 0.17, 0.16)]
    body: list[list[str]] = []
    if rows is not None:
        for f in rows:
            body.append(
                [
                    f.name,
                    fmt_number(f.base_power),
                    f"{f.skill.capitalize()} \u00d7{fmt_number(f.skill_x)}",
                    f"{f.loyalty.capitalize()} \u00d7{fmt_number(f.loyalty_x)}",
                    fmt_number(f.total),
                ]
            )
    empty = BLANK_FORCE_ROWS if rows is None else (0 if body else 1)
    total_text = "" if total is None else fmt_number(total)
    units = grid_table(headers, body, widths, align_right=(1, 4), empty_rows=empty, st=st)
    # the TOTAL COMBAT POWER row, as on the seed's sheet
    total_row = table(
        [[Paragraph("TOTAL COMBAT POWER", st["cell_bold"]), Paragraph(esc(total_text), st["cell_bold"])]],
        [sum(widths[:-1]), widths[-1]],
        [17],
        [
            ("BACKGROUND", (0, 0), (-1, -1), ACCENT_LIGHT),
            ("BOX", (0, 0), (-1, -1), 0.8, INK),
            ("LINEBEFORE", (1, 0), (1, 0), 0.5, LIGHT),
            ("ALIGN", (0, 0), (0, 0), "RIGHT"),
            ("ALIGN", (1, 0), (1, 0), "RIGHT"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ],
    )
    return table([[units], [total_row]], [width], style=NO_PADDING)


def _reference_tables(width: float, st: dict[str, Any]) -> Table:
    """Skill, loyalty and odds bands side by side: the rules' own tables."""
    tables = card_tables()
    gap = 10.0
    w = (width - 2 * gap) / 3
    parts = []
    for key, split in (("skill", (0.6, 0.4)), ("loyalty", (0.6, 0.4)), ("odds", (0.58, 0.42))):
        headers, rows = tables[key]
        parts.append(grid_table(headers, rows, [w * split[0], w * split[1]], st=st))
    return table(
        [[parts[0], "", parts[1], "", parts[2]]],
        [w, gap, w, gap, w],
        style=[("VALIGN", (0, 0), (-1, -1), "TOP"), *NO_PADDING],
    )


def _title(kind: str, name: str | None, st: dict[str, Any]) -> list[Any]:
    out: list[Any] = [Paragraph(f"SOLOGEAR \u00b7 {esc(kind.upper())}", st["tiny"])]
    if name:
        out.append(Paragraph(esc(name), st["title"]))
    else:
        out.append(Paragraph("Campaign: ____________________________________", st["subtitle"]))
    out.append(Spacer(1, 6))
    return out


def _odds_text(data: SologearSheetData | None) -> tuple[str | None, str | None]:
    """(odds value for the header, a sentence working it out)."""
    if data is None:
        return None, None
    if data.odds_ratio is None or data.odds_band is None:
        return "", "Odds are worked out once both sides have units with combat power."
    ratio = f"{data.odds_ratio:.2f}"
    sentence = (
        f"Odds = player total \u00f7 enemy total = {fmt_number(data.player_total)} \u00f7 "
        f"{fmt_number(data.enemy_total)} = {ratio} \u2192 <b>{esc(data.odds_band)}</b> "
        f"(the column of the combat table)."
    )
    return f"{ratio} ({data.odds_band})", sentence


def _length_text(data: SologearSheetData | None) -> tuple[str | None, str | None]:
    if data is None:
        return None, None
    dice = data.length_dice
    how = (
        f"Roll {dice}: one d6 per company-sized unit of the side that has fewer."
        if dice
        else "Roll one d6 per company-sized unit of the side that has fewer."
    )
    if data.length is None:
        return "", how + " Not rolled yet."
    return plural(data.length, "turn"), how + f" Rolled: {plural(data.length, 'battle turn')}."


def _gear_text(d: SologearSheetData | None) -> str | None:
    if d is None:
        return None
    return f"{d.gear_name} (TV {d.gear_tv})" if d.gear_name else f"TV {d.gear_tv}"


def _campaign_sheet(data: SologearSheetData | None, width: float, st: dict[str, Any]) -> list[Any]:
    flow: list[Any] = _title("campaign sheet", data.name if data else None, st)
    odds_value, odds_sentence = _odds_text(data)
    length_value, length_sentence = _length_text(data)
    d = data
    gear = _gear_text(d)
    flow.append(
        _fields_table(
            [
                ("Date of campaign", d.date if d else None, "Campaign area", d.area if d else None),
                ("Player unit", d.player_unit if d else None, "Enemy unit", d.enemy_unit if d else None),
                (
                    "Player affiliation",
                    d.player_affiliation if d else None,
                    "Enemy affiliation",
                    d.enemy_affiliation if d else None,
                ),
                ("Pilot", d.pilot if d else None, "Gear", gear),
                ("Campaign length", length_value, "Campaign odds", odds_value),
            ],
            width,
            st,
        )
    )
    flow.append(SectionHeading("Player's forces", "total = base power \u00d7 skill \u00d7 loyalty", space_before=10))
    flow.append(_force_table(d.player if d else None, d.player_total if d else None, width, st))
    flow.append(SectionHeading("Enemy forces", "base power = TV of the company's units \u00f7 20", space_before=10))
    flow.append(_force_table(d.enemy if d else None, d.enemy_total if d else None, width, st))
    flow.append(SectionHeading("Odds and length", space_before=10))
    if d is None:
        flow.append(
            Paragraph(
                "Odds = player total \u00f7 enemy total = ________ \u00f7 ________ = ______ "
                "\u2192 band ______________ (the column of the combat table).",
                st["body"],
            )
        )
        flow.append(Spacer(1, 3))
        flow.append(
            Paragraph(
                "Length: roll one d6 per company-sized unit of the side that has fewer; the sum "
                "is the number of battle turns: ______ turns.",
                st["body"],
            )
        )
    else:
        flow.append(Paragraph(odds_sentence or "", st["body"]))
        flow.append(Spacer(1, 3))
        flow.append(Paragraph(esc(length_sentence or ""), st["body"]))
        extra = []
        if d.enemy_quality_column:
            extra.append(f"Enemy quality column (Gear TV {d.gear_tv}): {d.enemy_quality_column}.")
        options = [
            name
            for name, on in (
                ("ferocious battles", d.ferocious),
                ("variable rewards and punishments", d.variable_tables),
            )
            if on
        ]
        if options:
            extra.append("Optional rules: " + ", ".join(options) + ".")
        if d.reward_dice != DEFAULT_REWARD_DICE:
            extra.append(f"Reward roll: {d.reward_dice} + impression.")
        if extra:
            flow.append(Spacer(1, 3))
            flow.append(Paragraph(esc(" ".join(extra)), st["body"]))
    flow.append(SectionHeading("Reference", "the tables the app computes with", space_before=10))
    flow.append(_reference_tables(width, st))
    flow.append(NotesBox("Notes", d.notes if d is not None else "", min_height=70))
    return flow


def _state_text(d: SologearSheetData) -> str:
    parts = []
    if d.status == "ended":
        parts.append("Campaign over" + (f": {d.end_text}" if d.end_text else ""))
    else:
        remaining = max(0, d.length - len(d.turns)) if d.length is not None else None
        left = f", {remaining} turn{'s' if remaining != 1 else ''} left" if remaining is not None else ""
        played = len(d.turns)
        parts.append(f"Campaign going on ({played} turn{'s' if played != 1 else ''} played{left})")
    gear = [w for w, on in (("Gear damaged", d.gear_damaged), ("short of ammunition", d.short_ammo)) if on]
    if gear:
        parts.append(", ".join(gear))
    if d.pilot_status != "active":
        parts.append(f"pilot {d.pilot_status}")
    return ". ".join(parts) + "."


def _battle_form(data: SologearSheetData | None, width: float, st: dict[str, Any]) -> list[Any]:
    d = data
    flow: list[Any] = _title("battle form", d.name if d else None, st)
    flow.append(
        _fields_table(
            [
                ("Player unit", d.player_unit if d else None, "Campaign date", d.date if d else None),
                ("Player affiliation", d.player_affiliation if d else None, "Campaign area", d.area if d else None),
                ("Pilot", d.pilot if d else None, "Gear", _gear_text(d)),
            ],
            width,
            st,
        )
    )
    note = "Action: DEC, REP or FIG(X); Enemy: TV destroyed / met; Special: bunkers, hits, S, E"
    flow.append(CondPageBreak(90))
    flow.append(SectionHeading("Battle turns", note, space_before=10, keep_with_next=False))
    headers = ("Turn", "Action", "Enemy", "Glory", "Special")
    widths = [width * f for f in (0.08, 0.13, 0.17, 0.12, 0.50)]
    rows: list[list[str]] = []
    if d is not None:
        rows = [[r.turn, r.action, r.enemy, r.glory, r.special] for r in d.turns]
        target = d.length if d.length is not None else MIN_TURN_ROWS
        empty = 0 if d.status == "ended" else max(0, target - len(rows))
    else:
        empty = BLANK_TURN_ROWS
    filled = len(rows)
    rows += [[str(filled + 1 + i), "", "", "", ""] for i in range(empty)]
    flow.append(grid_table(headers, rows, widths, st=st, heights=[None] + [None] * filled + [17.0] * empty))
    if d is not None and d.turns:
        flow.append(Spacer(1, 4))
        flow.append(Paragraph(esc(_state_text(d)), st["small"]))
    if d is None:
        flow.append(Spacer(1, 4))
        postures = ", ".join(f"{x:+d} {n}".replace("+0", "0").replace("-", "\u2212") for x, n in POSTURES.items())
        flow.append(
            Paragraph(
                esc(f"Postures for FIG(X): {postures}. REP only while the Gear is damaged or short of ammunition."),
                st["small"],
            )
        )
    return flow


def _score_table(
    title: str, lines: Sequence[ScoreLine], total: int | None, width: float, st: dict[str, Any], filled: bool
) -> Table:
    headers = (title, "Count", "Each", "Points")
    body = []
    for line in lines:
        each = "X" if line.per is None else f"{line.per:+d}".replace("-", "\u2212")
        body.append([line.label, str(line.count) if filled else "", each, (_signed(line.points) if filled else "")])
    body.append(["Total", "", "", "" if total is None else str(total).replace("-", "\u2212")])
    widths = content_widths(headers, body, width, (0.0, 0.14, 0.12, 0.17))
    if filled:
        return grid_table(headers, body, widths, align_right=(1, 2, 3), total_row=True, st=st)
    # blank: rows tall enough to write in, and taller where a label wraps (never over the rules)
    heights: list[float | None] = [None]
    for row in body:
        _w, h = Paragraph(esc(row[0]), st["cell"]).wrap(widths[0] - 6, 1000)
        heights.append(max(17.0, h + 6))
    return grid_table(headers, body, widths, align_right=(1, 2, 3), total_row=True, st=st, heights=heights)


def _signed(value: int) -> str:
    return f"{value:+d}".replace("-", "\u2212") if value else "0"


def _reckoning(data: SologearSheetData | None, width: float, st: dict[str, Any]) -> list[Any]:
    flow: list[Any] = [
        CondPageBreak(260),
        SectionHeading(
            "End of campaign: the reckoning", "turns used up, S, E, or the pilot dead or captured", space_before=14
        ),
    ]
    rec = data.reckoning if data is not None else None
    gap = 12.0
    w = (width - gap) / 2
    if rec is not None:
        left = _score_table("Recognition", rec.recognition_lines, rec.recognition, w, st, True)
        right = _score_table("Impression", rec.impression_lines, rec.impression, w, st, True)
    else:
        empty = recognition([]), impression([])
        left = _score_table(
            "Recognition", [ScoreLine(i.label, 0, i.per, 0) for i in empty[0].items], None, w, st, False
        )
        right = _score_table(
            "Impression", [ScoreLine(i.label, 0, i.per, 0) for i in empty[1].items], None, w, st, False
        )
    flow.append(table([[left, "", right]], [w, gap, w], style=[("VALIGN", (0, 0), (-1, -1), "TOP"), *NO_PADDING]))
    flow.append(Spacer(1, 6))
    lines: list[str] = []
    if rec is not None:
        noticed = (
            "" if rec.d66 is None else f" Rolled D66 {rec.d66}: <b>{'noticed' if rec.noticed else 'not noticed'}</b>."
        )
        lines.append(
            f"Noticed? Recognition {rec.recognition} \u2192 noticed on a D66 of {esc(rec.noticed_on)}.{noticed}"
        )
        if rec.noticed and rec.result is not None:
            which = rec.table or ("rewards" if rec.impression >= 0 else "punishments")
            lines.append(
                f"Impression {rec.impression} \u2192 {which} table; roll {esc(rec.reward_dice)} "
                f"+ impression = <b>{rec.result}</b> \u2192 {esc(rec.band_label)}: "
                f"<b>{esc(rec.band_title)}</b>. {esc(rec.band_text)}"
            )
        elif rec.outcome:
            lines.append(esc(rec.outcome))
        if rec.variable_tables:
            lines.append("Variable (milder) rewards and punishments tables in use.")
    else:
        bands = "; ".join(f"{row[0]}: {row[1]}" for row in card_tables()["noticed"][1])
        lines.append(
            "Noticed? Roll D66 (first die tens, second units); noticed when the roll is within the "
            f"range for the recognition total ({esc(bands)})."
        )
        lines.append("Recognition ______ \u2192 noticed on ______ \u00b7 D66 rolled ______ \u00b7 noticed: yes / no")
        lines.append(
            "Impression ______ \u2192 rewards (\u2265 0) / punishments (< 0) \u00b7 roll "
            f"{esc(data.reward_dice if data is not None else DEFAULT_REWARD_DICE)} + "
            "impression = ______ \u2192 result: ____________________"
        )
    for text in lines:
        flow.append(Paragraph(text, st["body"]))
        flow.append(Spacer(1, 3))
    return [KeepTogether(flow[:3]), *flow[3:]]


# ------------------------------------------------------------------------------------------------ build


def build_sologear_sheet(
    data: SologearSheetData | None,
    *,
    paper: str | None = None,
    printed_on: _dt.date | None = None,
    invariant: bool = True,
) -> bytes:
    """The PDF (bytes): the campaign sheet, then the battle form with the reckoning (filled once the
    campaign's reckoning is done, else an empty worksheet to finish by hand). ``data`` None prints blank
    forms."""
    _name, size = resolve_paper(paper)
    width = size[0] - 2 * MARGIN
    st = styles()
    buffer = io.BytesIO()
    title = f"Sologear sheet: {data.name}" if data else "Sologear sheet (blank)"
    printed = print_date_text(printed_on)
    right = f"Sologear \u00b7 {data.name} \u00b7 {data.pilot}" if data else "Sologear \u00b7 blank form"

    doc = one_frame_document(buffer, size, MARGIN, title, "sheet", printed, lambda page: f"{right} \u00b7 page {page}")
    story: list[Any] = _campaign_sheet(data, width, st)
    story.append(PageBreak())
    story += _battle_form(data, width, st)
    story += _reckoning(data, width, st)
    doc.build(story, canvasmaker=canvas_maker(title, "Sologear campaign", invariant))
    return buffer.getvalue()
