"""The Unit Data Sheet of an Atomic Africa platoon (RULES.md 1.1), one page per platoon, A4 or Letter.

The functions here take plain data (:class:`UnitSheet`, :class:`BlankSheet`) and return PDF bytes; the
service ``campaign_app.services.printing`` gathers the data and writes the file.

A page shows: the platoon's name and campaign; the three attribute dice drawn as dice on their d4..d12
ladder with the level words; Armor and its class; the 32-box XP tracks of the platoon and of the leader with
G, R, V, L over the threshold boxes; the current levels and the orders cards drawn per turn; the leader;
heavy weapons and special equipment; attached units; notes; the print date.

Modes: a **filled** sheet (the current XP boxes shaded), **pencil** mode (the platoon's data printed but the XP
boxes, levels and cards left empty to keep in pencil) and a **blank** sheet to fill in by hand.
"""

from __future__ import annotations

import datetime as _dt
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing, Line, Polygon, String
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer

from ..errors import Refused
from ..rules.dice import DIE_SIDES, parse_die
from ..rules.enums import UnitKind
from ..rules.experience import (
    ARMOR_CLASSES,
    ATTRIBUTE_LEVEL_WORDS,
    ATTRIBUTES,
    DEFAULT_THRESHOLDS,
    LEVEL_LETTERS,
    LEVELS,
    XP_MAX,
    Thresholds,
    experience_table,
    level_rank,
    orders_cards,
    xp_range,
)
from .fonts import FONT, FONT_BOLD
from .rltyped import CursorFrame, rect
from .sheetkit import (
    ACCENT,
    ACCENT_LIGHT,
    FAINT,
    INK,
    LIGHT,
    MID,
    SECTION_HEIGHT,
    SectionHeading,
    content_widths,
    draw_section,
    esc,
    footer,
    grid_table,
    new_canvas,
    new_drawing,
    print_date_text,
    resolve_paper,
    styles,
)

MARGIN = 36.0
TYPE_FLOOR = 7.0
"""Nothing on a sheet is printed smaller (points)."""
SYSTEM_NAME = "Atomic Africa"
TARGET_WORDS = {"dispersed": "dispersed", "point": "point", "both": "dispersed and point"}
KIND_WORDS: dict[str, str] = {
    UnitKind.TEAM: "infantry team",
    UnitKind.VEHICLE: "vehicle",
    UnitKind.FIRE_SUPPORT: "fire support",
}
BLANK_WEAPON_ROWS = 4
BLANK_ATTACHED_ROWS = 3


# ----------------------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Weapon:
    """A heavy weapon or item of special equipment (RULES 1.1)."""

    name: str
    targets: str = "both"
    ap: int | None = None
    ap_vs: str | None = None
    notes: str = ""

    def targets_text(self) -> str:
        return TARGET_WORDS.get(self.targets, self.targets)

    def ap_text(self) -> str:
        if self.ap is None:
            return ""
        value = f"{self.ap:+d}".replace("-", "\u2212")
        vs = f" vs {TARGET_WORDS.get(self.ap_vs, self.ap_vs)}" if self.ap_vs and self.ap_vs != "both" else ""
        return f"AP {value}{vs}"

    def summary(self) -> str:
        parts = [self.name, f"({self.targets_text()}"]
        ap = self.ap_text()
        parts[-1] += f", {ap})" if ap else ")"
        return " ".join(parts)


@dataclass(frozen=True)
class AttachedUnitData:
    """An attached on-board unit (own dice and Armor) or off-board fire support (RULES 1.1)."""

    name: str
    kind: str
    training: int | None = None
    equipment: int | None = None
    morale: int | None = None
    armor: int | None = None
    support: str | None = None
    weapons: tuple[Weapon, ...] = ()
    notes: str = ""

    def kind_text(self) -> str:
        word = KIND_WORDS.get(self.kind, self.kind)
        return f"{word} ({self.support})" if self.kind == UnitKind.FIRE_SUPPORT and self.support else word


@dataclass(frozen=True)
class LeaderData:
    name: str
    rank: str = ""
    xp: int = 0


@dataclass(frozen=True)
class UnitSheet:
    """Everything one filled Unit Data Sheet prints. Dice are given by their sides (4..12)."""

    name: str
    campaign: str
    training: int
    equipment: int
    morale: int
    armor: int
    xp: int
    leader: LeaderData | None = None
    thresholds: Thresholds = DEFAULT_THRESHOLDS
    weapons: tuple[Weapon, ...] = ()
    attached: tuple[AttachedUnitData, ...] = ()
    notes: str = ""
    former_leaders: tuple[str, ...] = ()

    def die(self, attribute: str) -> int:
        return int(getattr(self, attribute))


@dataclass(frozen=True)
class BlankSheet:
    """A sheet to fill in by hand; the campaign's name and XP thresholds may be printed on it."""

    campaign: str = ""
    thresholds: Thresholds = DEFAULT_THRESHOLDS


SheetEntry = UnitSheet | BlankSheet


# The shape of the roster's ``platoon_detail`` (``services.platoons.PlatoonDetail``) that a sheet reads, as
# protocols: the printing layer does not import the services, and mypy checks that the detail fits.


class WeaponSource(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def targets(self) -> str: ...
    @property
    def ap(self) -> int | None: ...
    @property
    def ap_vs(self) -> str | None: ...
    @property
    def notes(self) -> str: ...


class AttachedSource(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def training(self) -> str | None: ...
    @property
    def equipment(self) -> str | None: ...
    @property
    def morale(self) -> str | None: ...
    @property
    def armor(self) -> int | None: ...
    @property
    def support(self) -> str | None: ...
    @property
    def notes(self) -> str: ...
    @property
    def equipment_list(self) -> Sequence[WeaponSource]: ...


class LeaderSource(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def rank(self) -> str: ...
    @property
    def xp(self) -> int: ...


class FormerLeaderSource(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def status(self) -> str: ...


class PlatoonSource(Protocol):
    """A platoon as the roster reads it: dice as ``"d10"``, the four XP thresholds."""

    @property
    def name(self) -> str: ...
    @property
    def campaign(self) -> str: ...
    @property
    def thresholds(self) -> tuple[int, int, int, int]: ...
    @property
    def training(self) -> str: ...
    @property
    def equipment(self) -> str: ...
    @property
    def morale(self) -> str: ...
    @property
    def armor(self) -> int: ...
    @property
    def xp(self) -> int: ...
    @property
    def notes(self) -> str: ...
    @property
    def leader(self) -> LeaderSource | None: ...
    @property
    def former_leaders(self) -> Sequence[FormerLeaderSource]: ...
    @property
    def attached(self) -> Sequence[AttachedSource]: ...
    @property
    def equipment_list(self) -> Sequence[WeaponSource]: ...


def _weapon_from(w: WeaponSource) -> Weapon:
    return Weapon(name=w.name, targets=w.targets, ap=w.ap, ap_vs=w.ap_vs, notes=w.notes)


def _die_or_none(value: str | None) -> int | None:
    return None if value in (None, "") else parse_die(value)


def unit_sheet_from_detail(detail: PlatoonSource, thresholds: Thresholds | None = None) -> UnitSheet:
    """A :class:`UnitSheet` from the roster's ``platoon_detail`` (the thresholds: the argument, else the
    detail's)."""
    leader = (
        None
        if detail.leader is None
        else LeaderData(name=detail.leader.name, rank=detail.leader.rank, xp=detail.leader.xp)
    )
    attached = tuple(
        AttachedUnitData(
            name=unit.name,
            kind=str(unit.kind),
            training=_die_or_none(unit.training),
            equipment=_die_or_none(unit.equipment),
            morale=_die_or_none(unit.morale),
            armor=unit.armor,
            support=unit.support or None,
            weapons=tuple(_weapon_from(w) for w in unit.equipment_list),
            notes=unit.notes,
        )
        for unit in detail.attached
    )
    former = tuple(f"{f.name} ({f.status})" if f.status else f.name for f in detail.former_leaders)
    return UnitSheet(
        name=detail.name,
        campaign=detail.campaign,
        training=parse_die(detail.training),
        equipment=parse_die(detail.equipment),
        morale=parse_die(detail.morale),
        armor=detail.armor,
        xp=detail.xp,
        leader=leader,
        thresholds=Thresholds(*detail.thresholds) if thresholds is None else thresholds,
        weapons=tuple(_weapon_from(w) for w in detail.equipment_list),
        attached=attached,
        notes=detail.notes,
        former_leaders=former,
    )


# ------------------------------------------------------------------------------------------ dice shapes


def _regular_points(n: int, radius: float, cx: float, cy: float, start_deg: float = 90.0) -> list[float]:
    points: list[float] = []
    for i in range(n):
        angle = math.radians(start_deg + 360.0 * i / n)
        points += [cx + radius * math.cos(angle), cy + radius * math.sin(angle)]
    return points


def die_drawing(sides: int, size: float, *, selected: bool = False, faded: bool = False) -> Drawing:
    """A die of ``sides`` (4, 6, 8, 10, 12) drawn as its usual silhouette, ``size`` points square, with its
    label ("d8") inside. ``selected`` fills it in the accent colour; ``faded`` draws it in light grey."""
    d = new_drawing(size, size)
    c = size / 2.0
    r = size * 0.47
    if selected:
        fill, stroke, inner, text = ACCENT, INK, colors.HexColor("#8897a8"), colors.white
    elif faded:
        fill, stroke, inner, text = colors.white, LIGHT, FAINT, LIGHT
    else:
        fill, stroke, inner, text = colors.white, MID, LIGHT, MID
    width = 1.2 if selected else 0.8
    label_y = c - size * 0.09
    if sides == 4:
        pts = _regular_points(3, r * 1.08, c, c - r * 0.2)
        d.add(Polygon(pts, fillColor=fill, strokeColor=stroke, strokeWidth=width, strokeLineJoin=1))
        label_y = c - size * 0.2
    elif sides == 6:
        s = r * 1.5
        d.add(
            rect(
                c - s / 2,
                c - s / 2,
                s,
                s,
                rx=size * 0.08,
                ry=size * 0.08,
                fillColor=fill,
                strokeColor=stroke,
                strokeWidth=width,
            )
        )
    elif sides == 8:
        outer = _regular_points(6, r, c, c)
        d.add(Polygon(outer, fillColor=fill, strokeColor=stroke, strokeWidth=width, strokeLineJoin=1))
        tri = [outer[0], outer[1], outer[4], outer[5], outer[8], outer[9]]
        d.add(Polygon(tri, fillColor=None, strokeColor=inner, strokeWidth=0.6, strokeLineJoin=1))
    elif sides == 10:
        top, bottom = (c, c + r), (c, c - r)
        right, left = (c + r * 0.9, c + r * 0.12), (c - r * 0.9, c + r * 0.12)
        right_low, left_low = (c + r * 0.9, c - r * 0.28), (c - r * 0.9, c - r * 0.28)
        outline = [*top, *right, *right_low, *bottom, *left_low, *left]
        d.add(Polygon(outline, fillColor=fill, strokeColor=stroke, strokeWidth=width, strokeLineJoin=1))
        face = [*top, c + r * 0.55, c - r * 0.05, c, c - r * 0.38, c - r * 0.55, c - r * 0.05]
        d.add(Polygon(face, fillColor=None, strokeColor=inner, strokeWidth=0.6, strokeLineJoin=1))
        d.add(Line(c, c - r * 0.38, *bottom, strokeColor=inner, strokeWidth=0.6))
        label_y = c - size * 0.12
    elif sides == 12:
        outer = _regular_points(10, r, c, c, start_deg=90.0)
        d.add(Polygon(outer, fillColor=fill, strokeColor=stroke, strokeWidth=width, strokeLineJoin=1))
        face = _regular_points(5, r * 0.6, c, c, start_deg=90.0)
        d.add(Polygon(face, fillColor=None, strokeColor=inner, strokeWidth=0.6, strokeLineJoin=1))
        for i in range(5):
            d.add(
                Line(face[2 * i], face[2 * i + 1], outer[4 * i], outer[4 * i + 1], strokeColor=inner, strokeWidth=0.6)
            )
    else:
        raise ValueError(f"no drawing for a d{sides}")
    d.add(
        String(c, label_y, f"d{sides}", fontName=FONT_BOLD, fontSize=size * 0.26, fillColor=text, textAnchor="middle")
    )
    return d


def shield_drawing(size: float, armor: int | None) -> Drawing:
    """The Armor badge: a shield with the Armor value (empty on a blank sheet)."""
    d = new_drawing(size, size)
    w, h = size * 0.8, size * 0.92
    x0, y0 = (size - w) / 2, (size - h) / 2
    pts = [x0, y0 + h, x0 + w, y0 + h, x0 + w, y0 + h * 0.45, x0 + w / 2, y0, x0, y0 + h * 0.45]
    filled = armor is not None
    d.add(
        Polygon(pts, fillColor=ACCENT if filled else colors.white, strokeColor=INK, strokeWidth=1.2, strokeLineJoin=1)
    )
    if filled:
        d.add(
            String(
                size / 2,
                y0 + h * 0.42,
                str(armor),
                fontName=FONT_BOLD,
                fontSize=size * 0.42,
                fillColor=colors.white,
                textAnchor="middle",
            )
        )
    return d


# ------------------------------------------------------------------------------------------------ page


@dataclass
class _Page:
    canvas: Canvas
    width: float
    height: float
    st: dict[str, Any] = field(default_factory=styles)

    @property
    def content_width(self) -> float:
        return self.width - 2 * MARGIN


def _section(page: _Page, y: float, title: str, note: str = "") -> float:
    """A section heading with a thin rule; returns the y below it."""
    return draw_section(page.canvas, MARGIN, y, page.content_width, title, note)


def _write_line(cv: Canvas, x: float, y: float, width: float) -> None:
    cv.saveState()
    cv.setStrokeColor(LIGHT)
    cv.setLineWidth(0.5)
    cv.line(x, y - 2, x + width, y - 2)
    cv.restoreState()


def _label_value(cv: Canvas, x: float, y: float, label: str, value: str | None, width: float, size: float = 9) -> None:
    """``LABEL value`` on one line; a None value leaves a ruled line to write on."""
    cv.setFont(FONT, TYPE_FLOOR)
    cv.setFillColor(MID)
    cv.drawString(x, y, label.upper())
    lw = cv.stringWidth(label.upper(), FONT, TYPE_FLOOR) + 4
    if value is None:
        _write_line(cv, x + lw, y, width - lw)
    else:
        cv.setFont(FONT_BOLD, size)
        cv.setFillColor(INK)
        cv.drawString(x + lw, y, _fit(cv, value, FONT_BOLD, size, width - lw))


def _fit(cv: Canvas, text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width``."""
    if cv.stringWidth(text, font, size) <= width:
        return text
    while text and cv.stringWidth(text + "\u2026", font, size) > width:
        text = text[:-1]
    return text + "\u2026"


def _wrap_words(cv: Canvas, text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``, broken only at spaces or after a hyphen (a single word
    wider than the line, which no real name is, is the one case broken between letters)."""
    import re

    pieces = [p for p in re.findall(r"[^\s-]*-|[^\s-]+|\s+", text)]
    lines: list[str] = []
    line = ""
    for piece in pieces:
        if piece.isspace():
            if line:
                line += " "
            continue
        if cv.stringWidth((line + piece).rstrip(), font, size) <= width or not line.strip():
            line += piece
        else:
            lines.append(line.rstrip())
            line = piece
        while cv.stringWidth(line, font, size) > width and len(line) > 1:  # one over-long word
            cut = len(line)
            while cut > 1 and cv.stringWidth(line[:cut], font, size) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


def _label_value_wrapped(
    cv: Canvas, x: float, y: float, label: str, value: str, width: float, size: float = 9, leading: float = 9
) -> int:
    """Like :func:`_label_value` for a name: smaller down to the type floor when it is long, then wrapped
    under itself (never cut). Returns how many lines it took."""
    cv.setFont(FONT, TYPE_FLOOR)
    cv.setFillColor(MID)
    cv.drawString(x, y, label.upper())
    lw = cv.stringWidth(label.upper(), FONT, TYPE_FLOOR) + 4
    while size > TYPE_FLOOR and cv.stringWidth(value, FONT_BOLD, size) > width - lw:
        size = max(TYPE_FLOOR, size - 0.5)
    lines = _wrap_words(cv, value, FONT_BOLD, size, width - lw)
    cv.setFont(FONT_BOLD, size)
    cv.setFillColor(INK)
    for i, line in enumerate(lines):
        cv.drawString(x + lw, y - i * leading, line)
    return len(lines)


NAME_SIZE = 20.0
NAME_MIN = 11.0


def _draw_name(cv: Canvas, name: str, x: float, baseline: float, width: float) -> None:
    """The platoon's name: 20 pt, smaller down to 11 pt when it is long, then on two lines (never cut
    unless even two lines of 11 pt cannot hold it)."""
    cv.setFillColor(INK)
    size = NAME_SIZE
    while size > NAME_MIN and cv.stringWidth(name, FONT_BOLD, size) > width:
        size -= 0.5
    if cv.stringWidth(name, FONT_BOLD, size) <= width:
        cv.setFont(FONT_BOLD, size)
        cv.drawString(x, baseline, name)
        return
    words = name.split()
    first: list[str] = []
    while words and cv.stringWidth(" ".join([*first, words[0]]), FONT_BOLD, NAME_MIN) <= width:
        first.append(words.pop(0))
    if not first:  # one very long word
        first, words = [name], []
    cv.setFont(FONT_BOLD, NAME_MIN)
    cv.drawString(x, baseline + NAME_MIN * 0.55, " ".join(first))
    cv.drawString(x, baseline - NAME_MIN * 0.6, _fit(cv, " ".join(words), FONT_BOLD, NAME_MIN, width))


def _header(page: _Page, entry: SheetEntry, y: float) -> float:
    cv = page.canvas
    cv.setFont(FONT, 7.5)
    cv.setFillColor(MID)
    cv.drawString(MARGIN, y - 8, f"UNIT DATA SHEET \u00b7 {SYSTEM_NAME.upper()}")
    name = entry.name if isinstance(entry, UnitSheet) else None
    campaign = entry.campaign or None
    if name is None:
        _label_value(cv, MARGIN, y - 30, "Platoon", None, page.content_width * 0.58)
    else:
        _draw_name(cv, name, MARGIN, y - 30, page.content_width * 0.6)
    x_right = MARGIN + page.content_width * 0.62
    _label_value(cv, x_right, y - 30, "Campaign", campaign, page.content_width * 0.38, size=10)
    return y - 42


def _attributes(page: _Page, entry: SheetEntry, y: float) -> float:
    cv = page.canvas
    filled = isinstance(entry, UnitSheet)
    y = _section(page, y, "Attributes", "each action rolls all three dice; a wound shifts Morale one die lower")
    armor_w = 128.0
    left_w = page.content_width - armor_w - 10
    label_w = 86.0
    cell_w = (left_w - label_w) / 5
    row_h = 54.0
    die_size = 34.0
    for index, attribute in enumerate(ATTRIBUTES):
        top = y - index * row_h
        current = entry.die(attribute) if isinstance(entry, UnitSheet) else None
        if index % 2 == 0:
            cv.setFillColor(colors.HexColor("#f5f6f8"))
            cv.rect(MARGIN, top - row_h + 2, left_w, row_h - 2, stroke=0, fill=1)
        cv.setFont(FONT_BOLD, 10)
        cv.setFillColor(INK)
        cv.drawString(MARGIN + 4, top - 20, attribute.capitalize())
        if current is not None:
            cv.setFont(FONT_BOLD, 8)
            cv.setFillColor(ACCENT)
            cv.drawString(MARGIN + 4, top - 33, f"d{current}")
            cv.setFont(FONT, 7.5)
            cv.drawString(
                MARGIN + 4 + cv.stringWidth(f"d{current} ", FONT_BOLD, 8),
                top - 33,
                ATTRIBUTE_LEVEL_WORDS[attribute][DIE_SIDES.index(current)],
            )
        else:
            cv.setFont(FONT, TYPE_FLOOR)
            cv.setFillColor(MID)
            cv.drawString(MARGIN + 4, top - 33, "circle the die")
        for level, sides in enumerate(DIE_SIDES):
            x = MARGIN + label_w + level * cell_w
            selected = current == sides
            drawing = die_drawing(sides, die_size, selected=selected, faded=filled and not selected)
            renderPDF.draw(drawing, cv, x + (cell_w - die_size) / 2, top - 4 - die_size)
            word = ATTRIBUTE_LEVEL_WORDS[attribute][level]
            cv.setFont(FONT_BOLD if selected else FONT, TYPE_FLOOR)
            cv.setFillColor(INK if selected or not filled else MID)
            cv.drawCentredString(x + cell_w / 2, top - row_h + 8, _fit(cv, word, FONT, TYPE_FLOOR, cell_w - 2))
    # Armor box on the right
    ax = MARGIN + page.content_width - armor_w
    box_h = 3 * row_h - 2
    cv.setStrokeColor(INK)
    cv.setLineWidth(0.8)
    cv.roundRect(ax, y - box_h, armor_w, box_h, 4, stroke=1, fill=0)
    cv.setFont(FONT_BOLD, 10)
    cv.setFillColor(INK)
    cv.drawString(ax + 8, y - 16, "Armor")
    armor = entry.armor if isinstance(entry, UnitSheet) else None
    renderPDF.draw(shield_drawing(46, armor), cv, ax + armor_w - 54, y - 54)
    if armor is not None:
        cv.setFont(FONT, 8)
        cv.setFillColor(ACCENT)
        cv.drawString(ax + 8, y - 30, ARMOR_CLASSES[armor])
    line_y = y - 70
    for value in range(1, 6):
        is_current = armor == value
        cv.setFont(FONT_BOLD if is_current else FONT, 7.5)
        cv.setFillColor(INK if is_current or armor is None else MID)
        cv.drawString(ax + 10, line_y, f"{value}")
        cv.drawString(ax + 24, line_y, ARMOR_CLASSES[value])
        if is_current:
            cv.setStrokeColor(ACCENT)
            cv.circle(ax + 12.3, line_y + 2.6, 5.2, stroke=1, fill=0)
        line_y -= 11.5
    cv.setFont(FONT, TYPE_FLOOR)
    cv.setFillColor(MID)
    cv.drawString(ax + 8, y - box_h + 16, "4–5: vehicles only")
    cv.drawString(ax + 8, y - box_h + 6, "cover: +1 light, +2 heavy")
    return y - 3 * row_h - 4


def _level_spans(thresholds: Thresholds) -> list[tuple[int, int, int]]:
    """(rank, first box, last box) of each level on the 1..32 track (XP 0 has no box)."""
    spans = []
    for rank in range(1, len(LEVELS) + 1):
        low, high = xp_range(rank, thresholds)
        low = max(low, 1)
        if low <= high:
            spans.append((rank, low, high))
    return spans


def xp_box_states(xp: int | None, thresholds: Thresholds) -> list[tuple[int, str, bool]]:
    """Each box of a 32-box XP track as (XP it stands for, the letter printed over it or "", shaded): boxes
    1..xp are shaded; ``xp`` None (blank sheet, pencil mode) leaves them all empty."""
    marks = dict(zip(thresholds.as_tuple(), LEVEL_LETTERS, strict=True))
    filled_to = 0 if xp is None else xp
    return [(n, marks.get(n, ""), n <= filled_to) for n in range(1, XP_MAX + 1)]


def _xp_track(
    page: _Page, y: float, title: str, xp: int | None, thresholds: Thresholds, subtitle: str | None, show_values: bool
) -> float:
    """A 32-box XP track; ``xp`` boxes shaded (None: all empty), G/R/V/L over the threshold boxes, a light
    scale of the levels beneath. Returns the y below it."""
    cv = page.canvas
    width = page.content_width
    pitch = width / XP_MAX
    box = pitch - 2.4
    cv.setFont(FONT_BOLD, 9)
    cv.setFillColor(INK)
    cv.drawString(MARGIN, y - 9, title)
    tw = cv.stringWidth(title, FONT_BOLD, 9) + 8
    right_text = ""
    if show_values and xp is not None:
        right_text = f"{xp} XP \u00b7 {LEVELS[level_rank(xp, thresholds) - 1]}"
    if subtitle is not None:
        # the leader's name and rank: smaller down to the type floor when long; a name and rank too long even
        # then print the name alone (the rank is printed in full under Levels and orders), never cut
        room = width - tw - cv.stringWidth(right_text, FONT_BOLD, 9) - 12 if right_text else width - tw - 120
        size = 8.5
        while size > TYPE_FLOOR and cv.stringWidth(subtitle, FONT, size) > room:
            size = max(TYPE_FLOOR, size - 0.5)
        if cv.stringWidth(subtitle, FONT, size) > room and " \u00b7 " in subtitle:
            subtitle = subtitle.rsplit(" \u00b7 ", 1)[0]
            size = 8.5
            while size > TYPE_FLOOR and cv.stringWidth(subtitle, FONT, size) > room:
                size = max(TYPE_FLOOR, size - 0.5)
        cv.setFont(FONT, size)
        cv.setFillColor(ACCENT)
        cv.drawString(MARGIN + tw, y - 9, subtitle)
    if show_values and xp is not None:
        text = right_text
        cv.setFont(FONT_BOLD, 9)
        cv.setFillColor(ACCENT)
        cv.drawRightString(MARGIN + width, y - 9, text)
    else:
        # "XP ____  level ______", measured from the right so the words never touch the lines
        cv.setFont(FONT, TYPE_FLOOR)
        cv.setFillColor(MID)
        right = MARGIN + width
        level_line, xp_line, gap = 48.0, 24.0, 4.0
        _write_line(cv, right - level_line, y - 9, level_line)
        level_x = right - level_line - gap
        cv.drawRightString(level_x, y - 9, "level")
        xp_end = level_x - cv.stringWidth("level", FONT, TYPE_FLOOR) - 3 * gap
        _write_line(cv, xp_end - xp_line, y - 9, xp_line)
        cv.drawRightString(xp_end - xp_line - gap, y - 9, "XP")
    letters_y = y - 21
    box_top = y - 24
    for n, letter, filled in xp_box_states(xp if show_values else None, thresholds):
        bx = MARGIN + (n - 1) * pitch + 1.2
        if filled:
            cv.setFillColor(ACCENT)
        elif letter:
            cv.setFillColor(ACCENT_LIGHT)
        else:
            cv.setFillColor(colors.white)
        cv.setStrokeColor(INK if letter else MID)
        cv.setLineWidth(1.4 if letter else 0.6)
        cv.rect(bx, box_top - box, box, box, stroke=1, fill=1)
        cv.setFont(FONT, TYPE_FLOOR)
        cv.setFillColor(colors.white if filled else MID)
        cv.drawRightString(bx + box - 1.2, box_top - box + 1.4, str(n))
        if letter:
            cv.setFont(FONT_BOLD, 8)
            cv.setFillColor(INK)
            cv.drawCentredString(bx + box / 2, letters_y, letter)
    # the light threshold scale under the boxes
    scale_y = box_top - box - 7
    current_rank = level_rank(xp, thresholds) if (show_values and xp is not None) else None
    cv.setLineWidth(0.5)
    for rank, first, last in _level_spans(thresholds):
        x0 = MARGIN + (first - 1) * pitch + 1.2
        x1 = MARGIN + last * pitch - 1.2
        here = rank == current_rank
        cv.setStrokeColor(ACCENT if here else LIGHT)
        cv.line(x0, scale_y, x1, scale_y)
        cv.line(x0, scale_y - 2.5, x0, scale_y + 2.5)
        cv.line(x1, scale_y - 2.5, x1, scale_y + 2.5)
        name = LEVELS[rank - 1]
        font = FONT_BOLD if here else FONT
        if cv.stringWidth(name, font, TYPE_FLOOR) + 6 > x1 - x0:
            name = name[0]
        label_w = cv.stringWidth(name, font, TYPE_FLOOR) + 6
        mid = (x0 + x1) / 2
        cv.setFillColor(colors.white)
        cv.rect(mid - label_w / 2, scale_y - 3.5, label_w, 7, stroke=0, fill=1)
        cv.setFont(font, TYPE_FLOOR)
        cv.setFillColor(ACCENT if here else MID)
        cv.drawCentredString(mid, scale_y - 2.5, name)
    return scale_y - 8


def _experience(page: _Page, entry: SheetEntry, y: float, pencil: bool) -> float:
    thresholds = entry.thresholds
    note = "XP needed: " + ", ".join(
        f"{letter} {value}" for letter, value in zip(LEVEL_LETTERS, thresholds.as_tuple(), strict=True)
    )
    y = _section(page, y, "Experience", note + f" \u00b7 at most {XP_MAX}")
    show = isinstance(entry, UnitSheet) and not pencil
    platoon_xp = entry.xp if isinstance(entry, UnitSheet) else None
    y = _xp_track(page, y, "Platoon", platoon_xp, thresholds, None, show)
    y -= 6
    leader = entry.leader if isinstance(entry, UnitSheet) else None
    if isinstance(entry, UnitSheet):
        leader_label = (
            (f"{leader.name} \u00b7 {leader.rank}" if leader.rank else leader.name) if leader else "no leader"
        )
    else:
        leader_label = None
    y = _xp_track(
        page, y, "Leader", leader.xp if leader else None, thresholds, leader_label, show and leader is not None
    )
    return y - 2


def _orders(page: _Page, entry: SheetEntry, y: float, pencil: bool) -> float:
    """Current levels and orders cards per turn (left) beside the experience table (right)."""
    cv = page.canvas
    y = _section(page, y, "Levels and orders", "cards per turn = 2 \u00d7 platoon level + 2 \u00d7 leader level")
    st = page.st
    left_w = page.content_width * 0.52
    filled = isinstance(entry, UnitSheet) and not pencil
    lines: list[tuple[str, str | None]] = []
    if isinstance(entry, UnitSheet) and filled:
        p_rank = level_rank(entry.xp, entry.thresholds)
        lines.append(("Platoon level", f"{LEVELS[p_rank - 1]} ({p_rank}) \u2192 {2 * p_rank} cards"))
        if entry.leader is not None:
            l_rank = level_rank(entry.leader.xp, entry.thresholds)
            lines.append(("Leader level", f"{LEVELS[l_rank - 1]} ({l_rank}) \u2192 {2 * l_rank} cards"))
            total = orders_cards(p_rank, l_rank)
        else:
            lines.append(("Leader level", "no leader \u2192 0 cards"))
            total = orders_cards(p_rank, None)
        lines.append(("Orders cards per turn", f"{total}"))
        lines.append(("With fire support", f"{total - 1}"))
        lines.append(("Leader off the table", f"{orders_cards(p_rank, None)}"))
    else:
        for label in (
            "Platoon level",
            "Leader level",
            "Orders cards per turn",
            "With fire support",
            "Leader off the table",
        ):
            lines.append((label, None))
    line_y = y - 10
    for label, value in lines:
        _label_value(cv, MARGIN + 2, line_y, label, value, left_w - 8, size=9)
        line_y -= 14
    # leader
    leader_y = line_y - 4
    if isinstance(entry, UnitSheet):
        extra = 0.0
        if entry.leader is not None:
            n = _label_value_wrapped(cv, MARGIN + 2, leader_y, "Leader", entry.leader.name, left_w * 0.6)
            if entry.leader.rank:
                n = max(
                    n,
                    _label_value_wrapped(
                        cv, MARGIN + 2 + left_w * 0.62, leader_y, "Rank", entry.leader.rank, left_w * 0.36
                    ),
                )
            else:
                _label_value(cv, MARGIN + 2 + left_w * 0.62, leader_y, "Rank", None, left_w * 0.36)
            extra = (n - 1) * 9.0
        else:
            _label_value(cv, MARGIN + 2, leader_y, "Leader", "none", left_w * 0.6)
            _label_value(cv, MARGIN + 2 + left_w * 0.62, leader_y, "Rank", None, left_w * 0.36)
        if entry.former_leaders:
            cv.setFont(FONT, TYPE_FLOOR)
            cv.setFillColor(MID)
            text = "Before: " + ", ".join(entry.former_leaders)
            before = _wrap_words(cv, text, FONT, TYPE_FLOOR, left_w - 6)
            for i, line in enumerate(before):
                cv.drawString(MARGIN + 2, leader_y - extra - 11 - i * 9, line)
            extra += (len(before) - 1) * 9.0
        leader_y -= extra
    else:
        _label_value(cv, MARGIN + 2, leader_y, "Leader", None, left_w * 0.6)
        _label_value(cv, MARGIN + 2 + left_w * 0.62, leader_y, "Rank", None, left_w * 0.36)
    # experience table on the right: the same table the rules and the cards use
    headers, rows = experience_table(entry.thresholds)
    right_w = page.content_width - left_w - 8
    widths = [right_w * f for f in (0.3, 0.14, 0.2, 0.14, 0.22)]
    table = grid_table(headers, rows, widths, st=st)
    if isinstance(entry, UnitSheet) and filled:
        from reportlab.platypus import TableStyle

        p_rank = level_rank(entry.xp, entry.thresholds)
        table.setStyle(TableStyle([("BACKGROUND", (0, p_rank), (-1, p_rank), ACCENT_LIGHT)]))
    _w, h = table.wrapOn(cv, right_w, 200)
    table.drawOn(cv, MARGIN + left_w + 8, y - 2 - h)
    bottom = min(leader_y - 16, y - 2 - h)
    return bottom - 4


def _weapon_rows(weapons: Sequence[Weapon]) -> list[list[str]]:
    return [[w.name, w.targets_text(), w.ap_text(), w.notes] for w in weapons]


def _attached_rows(units: Sequence[AttachedUnitData]) -> list[list[str]]:
    rows = []
    for u in units:
        dice = [f"d{v}" if v else "\u2013" for v in (u.training, u.equipment, u.morale)]
        kit = "; ".join(w.summary() for w in u.weapons)
        if u.notes:
            kit = f"{kit}; {u.notes}" if kit else u.notes
        rows.append([u.name, u.kind_text(), *dice, str(u.armor) if u.armor else "\u2013", kit])
    return rows


def _notes_box(page: _Page, entry: SheetEntry, top: float, bottom: float) -> None:
    cv = page.canvas
    w = page.content_width
    box_top = draw_section(cv, MARGIN, top, w, "Notes") - 2
    cv.setStrokeColor(INK)
    cv.setLineWidth(0.8)
    cv.roundRect(MARGIN, bottom, w, box_top - bottom, 3, stroke=1, fill=0)
    text_bottom = box_top
    notes = entry.notes if isinstance(entry, UnitSheet) else ""
    if notes:
        frame = CursorFrame(
            MARGIN + 6,
            bottom + 2,
            w - 12,
            box_top - bottom - 6,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
            showBoundary=0,
        )
        paras: list[Flowable] = [Paragraph(esc(line), page.st["body"]) for line in notes.split("\n")]
        frame.addFromList(paras, cv)
        text_bottom = frame._y - 2
        if paras:  # what did not fit is said, never shrunk below the type floor
            cv.setFont(FONT, TYPE_FLOOR)
            cv.setFillColor(MID)
            cv.drawRightString(MARGIN + w - 6, bottom + 3, "notes continue in the app")
    cv.setStrokeColor(FAINT)
    cv.setLineWidth(0.5)
    line_y = text_bottom - 16
    while line_y > bottom + 6:
        cv.line(MARGIN + 6, line_y, MARGIN + w - 6, line_y)
        line_y -= 16


KEEP_WITH_HEADING = 50.0
"""A section heading needs this much room under it (the table's header row and a row or two), else it moves
to the next page with its table."""


def _heading_fits(frame: CursorFrame, heading: SectionHeading, following: Any, cv: Canvas) -> bool:
    """Whether ``heading`` and the start of what follows it (a table's header row and first row, which a
    table split gives, or the whole of anything else) fit in what is left of ``frame``."""
    room = frame._y - frame._y1
    if room < SECTION_HEIGHT + KEEP_WITH_HEADING:
        return False
    if following is None:
        return True
    room -= heading.wrap(frame._aW, room)[1] + following.getSpaceBefore()
    if room <= 0:
        return False
    _w, h = following.wrapOn(cv, frame._aW, room)
    if h <= room:
        return True
    return bool(following.splitOn(cv, frame._aW, room))


def _fill_frame(frame: CursorFrame, flow: list[Any], cv: Canvas) -> None:
    """Add flowables to ``frame`` in order until one does not fit (a table is split, the rest left in
    ``flow``); a section heading is never left alone at the bottom."""
    while flow:
        item = flow[0]
        if isinstance(item, SectionHeading) and not _heading_fits(frame, item, flow[1] if len(flow) > 1 else None, cv):
            return
        one = [flow.pop(0)]
        frame.addFromList(one, cv)
        if one:  # it did not fit whole: the part that fits here (a table split by rows), the rest waits
            parts = frame.split(one[0], cv)  # (addFromList itself never splits)
            if len(parts) >= 2 and frame.add(parts[0], cv, trySplit=0):
                flow[0:0] = parts[1:]
            else:
                flow[0:0] = one
            return


MIN_NOTES = 70.0
"""The notes box gets at least this much height; with less room left it goes on a further page."""


def _lower(page: _Page, entry: SheetEntry, y: float, bottom: float, new_page: Any) -> None:
    """Weapons and attached units, then the notes box down to ``bottom``. Tables never shrink: what does not
    fit continues on a further page (``new_page()`` starts it and returns its top), header row repeated."""
    cv = page.canvas
    st = page.st
    w = page.content_width
    filled = isinstance(entry, UnitSheet)
    weapons = entry.weapons if isinstance(entry, UnitSheet) else ()
    attached = entry.attached if isinstance(entry, UnitSheet) else ()
    weapon_headers = ("Name", "Targets", "AP", "Notes")
    weapon_rows = _weapon_rows(weapons)
    attached_headers = ("Name", "Type", "T", "E", "M", "Armor", "Weapons and equipment")
    attached_rows = _attached_rows(attached)
    flow: list[Any] = [
        SectionHeading("Heavy weapons and special equipment", "targets: dispersed, point or both", space_before=2),
        grid_table(
            weapon_headers,
            weapon_rows,
            content_widths(weapon_headers, weapon_rows, w, (0.22, 0.16, 0.12, 0.2)),
            empty_rows=max(0, (2 if filled else BLANK_WEAPON_ROWS) - len(weapons)),
            st=st,
        ),
        Spacer(1, 4),
        SectionHeading("Attached units", "no XP of their own: they use the platoon's level", space_before=2),
        grid_table(
            attached_headers,
            attached_rows,
            content_widths(attached_headers, attached_rows, w, (0.16, 0.12, 0.05, 0.05, 0.05, 0.06, 0.3)),
            empty_rows=max(0, (1 if filled else BLANK_ATTACHED_ROWS) - len(attached)),
            st=st,
        ),
        Spacer(1, 2),
    ]
    top = y
    while True:
        frame = CursorFrame(
            MARGIN,
            bottom,
            w,
            top - bottom,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
            showBoundary=0,
        )
        _fill_frame(frame, flow, cv)
        if not flow:
            break
        top = new_page()
    notes_top = frame._y - 6
    if notes_top - bottom < MIN_NOTES:
        notes_top = new_page()
    _notes_box(page, entry, notes_top, bottom)


def _continued_header(page: _Page, entry: SheetEntry) -> float:
    cv = page.canvas
    y = page.height - MARGIN + 8
    cv.setFont(FONT, 7.5)
    cv.setFillColor(MID)
    cv.drawString(MARGIN, y - 8, f"UNIT DATA SHEET \u00b7 {SYSTEM_NAME.upper()} \u00b7 continued")
    name = entry.name if isinstance(entry, UnitSheet) else "blank sheet"
    text = f"{name} (continued)"
    size = 12.0
    while size > TYPE_FLOOR and cv.stringWidth(text, FONT_BOLD, size) > page.content_width:
        size -= 0.5
    cv.setFont(FONT_BOLD, size)
    cv.setFillColor(INK)
    cv.drawString(MARGIN, y - 24, _fit(cv, text, FONT_BOLD, size, page.content_width))
    return y - 32


def _draw_sheet(page: _Page, entry: SheetEntry, pencil: bool, printed: str) -> None:
    y = page.height - MARGIN + 8
    y = _header(page, entry, y)
    y = _attributes(page, entry, y - 2)
    y = _experience(page, entry, y, pencil)
    y = _orders(page, entry, y, pencil)
    mode = "blank sheet" if isinstance(entry, BlankSheet) else ("pencil mode" if pencil else "")
    left = printed + (f" \u00b7 {mode}" if mode else "")
    right = f"{entry.name} \u00b7 {entry.campaign}" if isinstance(entry, UnitSheet) else "campaign_app"
    pages = [1]

    def new_page() -> float:
        footer(page.canvas, page.width, MARGIN, left, f"{right} \u00b7 page {pages[0]}")
        page.canvas.showPage()
        pages[0] += 1
        return _continued_header(page, entry)

    _lower(page, entry, y, MARGIN + 4, new_page)
    footer(page.canvas, page.width, MARGIN, left, right if pages[0] == 1 else f"{right} \u00b7 page {pages[0]}")


def build_unit_sheets(
    entries: Sequence[SheetEntry],
    *,
    paper: str | None = None,
    pencil: bool = False,
    printed_on: _dt.date | None = None,
    invariant: bool = True,
) -> bytes:
    """The PDF (bytes) of one page per entry: a :class:`UnitSheet` (filled; XP boxes empty in ``pencil``
    mode) or a :class:`BlankSheet`. ``paper`` is "a4" or "letter" (None: the locale's default);
    ``printed_on`` is the date in the footer (default today)."""
    if not entries:
        raise Refused("nothing to print: give at least one platoon or a blank sheet")
    _name, size = resolve_paper(paper)
    buffer = io.BytesIO()
    names = [e.name for e in entries if isinstance(e, UnitSheet)]
    title = "Unit Data Sheet" + (f": {', '.join(names)}" if names else " (blank)")
    cv = new_canvas(buffer, size, title, subject="Atomic Africa platoon", invariant=invariant)
    printed = print_date_text(printed_on)
    for entry in entries:
        page = _Page(cv, size[0], size[1])
        _draw_sheet(page, entry, pencil, printed)
        cv.showPage()
    cv.save()
    return buffer.getvalue()
