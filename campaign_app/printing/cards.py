"""Play-aid cards as a PDF (reportlab, no Qt).

Cards are laid out N-up on A4 or Letter with cut marks in the gutters; a card never straddles two pages.
Each card's text sits in a ``Frame`` inside a ``KeepInFrame(mode="shrink")``: long text shrinks, but never
below :data:`MIN_FONT` points; a card that would need smaller text is an error naming the card
(:class:`CardFitError`). Options: card size, paper, grayscale (ink-saving), and either duplex backs (a back
page after each page of fronts, mirrored for flipping on the long edge) or a fold-over layout (front and back
side by side, fold on the line between them). Output is byte-identical for identical input (``invariant=1``).

Entry points: :func:`build_cards_pdf` (cards in, PDF out) and :func:`check_card_fits`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch, mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, KeepInFrame, Paragraph, Spacer, Table, TableStyle

from .decks import Block, Card, Deck, DeckError, DeckLibrary
from .fonts import FONT, FONT_BOLD, register_fonts
from .paper import default_paper, paper_size

MIN_FONT = 7.0
"""The smallest text a card may print (points)."""


@dataclass(frozen=True)
class CardSize:
    name: str
    width: float  # points, portrait
    height: float
    label: str
    base_font: float  # body text size before any shrinking


CARD_SIZES: dict[str, CardSize] = {
    "poker": CardSize("poker", 63 * mm, 88 * mm, "poker 63×88 mm", 9.0),
    "tarot": CardSize("tarot", 70 * mm, 120 * mm, "tarot 70×120 mm", 9.5),
    "index": CardSize("index", 3 * inch, 5 * inch, "index card 3×5 in", 9.5),
    "a6": CardSize("a6", 105 * mm, 148 * mm, "A6 105×148 mm", 10.5),
}
DEFAULT_SIZE = "poker"
LAYOUTS = ("fronts", "backs", "fold")

PAGE_MARGIN = 4 * mm  # printers rarely print closer to the edge
MIN_GUTTER = 2.5 * mm
MAX_GUTTER = 8 * mm
CUT_MARK = 3 * mm
CUT_GAP = 0.5 * mm
INSET = 1.5 * mm  # border inside the cut line, so an uneven cut does not show
PAD = 1.9 * mm  # text inside the border

Progress = Callable[[int, int], None]


class CardFitError(DeckError):
    """A card whose text does not fit its card even at the minimum font size."""


@dataclass(frozen=True)
class Fit:
    """How a card's text fits: ``scale`` >= 1 is the shrink factor, ``min_font`` the smallest size printed."""

    card: str
    scale: float
    min_font: float


@dataclass
class CardsPdf:
    """What :func:`build_cards_pdf` produced."""

    pages: int
    cards: int
    per_page: int
    rotated: bool
    paper: str
    size: str
    layout: str
    fits: list[Fit] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"pages": self.pages, "cards": self.cards, "per_page": self.per_page, "rotated": self.rotated,
                "paper": self.paper, "size": self.size, "layout": self.layout,
                "smallest_font": round(min((f.min_font for f in self.fits), default=0.0), 2)}


# ---------------------------------------------------------------------------------------------- styles


def _hex(colour: str) -> colors.Color:
    return colors.HexColor(colour)


def _mix(colour: colors.Color, toward: colors.Color, amount: float) -> colors.Color:
    return colors.Color(colour.red + (toward.red - colour.red) * amount,
                        colour.green + (toward.green - colour.green) * amount,
                        colour.blue + (toward.blue - colour.blue) * amount)


def _gray_of(colour: colors.Color) -> colors.Color:
    y = 0.299 * colour.red + 0.587 * colour.green + 0.114 * colour.blue
    return colors.Color(y, y, y)


@dataclass(frozen=True)
class _Style:
    size: CardSize
    grayscale: bool
    accent: colors.Color  # the deck colour (gray in grayscale)
    body: ParagraphStyle
    heading: ParagraphStyle
    bullet: ParagraphStyle
    cell: ParagraphStyle
    head_cell: ParagraphStyle
    caption: ParagraphStyle
    title: ParagraphStyle

    @property
    def smallest(self) -> float:
        return min(self.body.fontSize, self.heading.fontSize, self.bullet.fontSize, self.cell.fontSize,
                   self.head_cell.fontSize, self.caption.fontSize)


def _style(size: CardSize, deck: Deck, grayscale: bool) -> _Style:
    base = size.base_font
    accent = _hex(deck.back.colour)
    if grayscale:
        accent = _gray_of(accent)
    ink = colors.black
    body = ParagraphStyle("body", fontName=FONT, fontSize=base, leading=base * 1.18, textColor=ink,
                          spaceBefore=base * 0.3, alignment=TA_LEFT)
    heading = ParagraphStyle("heading", parent=body, fontName=FONT_BOLD, fontSize=base + 0.5,
                             leading=(base + 0.5) * 1.2, spaceBefore=base * 0.55, spaceAfter=0,
                             textColor=ink if grayscale else _mix(accent, colors.black, 0.35))
    bullet = ParagraphStyle("bullet", parent=body, leftIndent=base * 1.0, bulletIndent=base * 0.15,
                            spaceBefore=base * 0.15, bulletFontName=FONT)
    cell_size = base - 0.5
    cell = ParagraphStyle("cell", fontName=FONT, fontSize=cell_size, leading=cell_size * 1.12, textColor=ink)
    head_cell = ParagraphStyle("head_cell", parent=cell, fontName=FONT_BOLD)
    caption = ParagraphStyle("caption", parent=cell, textColor=colors.Color(0.25, 0.25, 0.25),
                             spaceBefore=base * 0.2)
    title_colour = ink if grayscale else colors.white
    title = ParagraphStyle("title", fontName=FONT_BOLD, fontSize=base + 1.5, leading=(base + 1.5) * 1.12,
                           textColor=title_colour, alignment=TA_LEFT)
    return _Style(size, grayscale, accent, body, heading, bullet, cell, head_cell, caption, title)


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_RED_SUITS = re.compile("([♥♦])")


def markup(text: str, grayscale: bool = False) -> str:
    """Plain card text -> reportlab paragraph markup: XML escaped, ``**bold**``, line breaks, red ♥♦."""
    out = escape(text.strip())
    out = _BOLD.sub(r"<b>\1</b>", out)
    out = out.replace("\n", "<br/>")
    if not grayscale:
        out = _RED_SUITS.sub(r'<font color="#c0392b">\1</font>', out)
    return out


# ---------------------------------------------------------------------------------------------- flowables


class FitTable(Flowable):
    """A table that picks its column widths when it learns the width it has: each column gets its natural
    width if everything fits, else at least its longest word, the rest shared by how much each column wants.
    Cells are paragraphs, so long cells wrap. ``widths`` (relative) overrides the automatic choice."""

    def __init__(self, headers: Sequence[str], rows: Sequence[Sequence[str]], style: _Style,
                 widths: Sequence[float] = ()) -> None:
        super().__init__()
        self.headers = list(headers)
        self.rows = [list(r) for r in rows]
        self.st = style
        self.rel_widths = list(widths)
        self._table: Table | None = None
        self._tables: dict[float, Table] = {}
        self._cells: list[list[Paragraph]] | None = None
        self.pad = style.cell.fontSize * 0.28

    def _col_widths(self, avail: float) -> list[float]:
        data = ([self.headers] if self.headers else []) + self.rows
        ncols = len(data[0])
        if self.rel_widths:
            total = sum(self.rel_widths)
            return [avail * w / total for w in self.rel_widths]
        natural = [0.0] * ncols
        minimum = [0.0] * ncols
        for r, row in enumerate(data):
            bold = r == 0 and bool(self.headers)
            font = FONT_BOLD if bold else FONT
            size = self.st.cell.fontSize
            for c, cell in enumerate(row):
                lines = cell.replace("**", "").split("\n")
                natural[c] = max(natural[c], *(stringWidth(line, font, size) for line in lines))
                plain = cell.replace("**", "")
                # a short cell with a number ("−11 to −12", "1 per 100") reads badly broken: keep it whole
                atomic = len(plain) <= 14 and any(ch.isdigit() for ch in plain)
                words = [plain] if atomic else plain.split()
                longest = max((stringWidth(w, font, size) for w in words), default=0.0)
                minimum[c] = max(minimum[c], longest)
        extra = 2 * self.pad + 0.6
        natural = [n + extra for n in natural]
        minimum = [m + extra for m in minimum]
        if sum(natural) <= avail:
            spare = avail - sum(natural)
            return [n + spare * n / sum(natural) for n in natural]
        if sum(minimum) >= avail:
            return minimum  # too wide: the card shrinks until it fits
        # Short columns (no wider than a fair share) keep their natural width, so that "−11 to −12" stays on
        # one line; the long ones share the rest between their longest word and their natural width.
        share = min(avail / ncols, avail * 0.34)
        keep = [n <= share for n in natural]
        kept = sum(n for n, k in zip(natural, keep, strict=True) if k)
        loose_min = sum(m for m, k in zip(minimum, keep, strict=True) if not k)
        if not all(keep) and kept + loose_min <= avail:
            minimum = [n if k else m for n, m, k in zip(natural, minimum, keep, strict=True)]
        spare = avail - sum(minimum)
        want = [n - m for n, m in zip(natural, minimum, strict=True)]
        total_want = sum(want) or 1.0
        return [m + spare * w / total_want for m, w in zip(minimum, want, strict=True)]

    def _paragraphs(self) -> list[list[Paragraph]]:
        if self._cells is None:  # parsed once; the table is rebuilt for each width KeepInFrame tries
            st = self.st
            cells = []
            if self.headers:
                cells.append([Paragraph(markup(h, st.grayscale), st.head_cell) for h in self.headers])
            for row in self.rows:
                cells.append([Paragraph(markup(c, st.grayscale), st.cell) for c in row])
            self._cells = cells
        return self._cells

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        cached = self._tables.get(round(availWidth, 3))
        if cached is not None:
            self._table = cached
            w, h = cached.wrap(availWidth, availHeight)
            self.width, self.height = w, h
            return w, h
        st = self.st
        widths = self._col_widths(availWidth)
        data: list[list[Any]] = [list(row) for row in self._paragraphs()]
        line = colors.Color(0.55, 0.55, 0.55)
        commands: list[tuple[Any, ...]] = [
            ("FONTNAME", (0, 0), (-1, -1), FONT),  # the default would add a non-embedded Helvetica
            ("GRID", (0, 0), (-1, -1), 0.35, line),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), self.pad),
            ("RIGHTPADDING", (0, 0), (-1, -1), self.pad),
            ("TOPPADDING", (0, 0), (-1, -1), self.pad * 0.4),
            ("BOTTOMPADDING", (0, 0), (-1, -1), self.pad * 0.75),
        ]
        header_fill = colors.Color(0.86, 0.86, 0.86) if st.grayscale else _mix(st.accent, colors.white, 0.78)
        stripe = colors.Color(0.95, 0.95, 0.95) if st.grayscale else _mix(st.accent, colors.white, 0.93)
        start = 1 if self.headers else 0
        if self.headers:
            commands.append(("BACKGROUND", (0, 0), (-1, 0), header_fill))
        for r in range(start + 1, len(data), 2):
            commands.append(("BACKGROUND", (0, r), (-1, r), stripe))
        self._table = Table(data, colWidths=widths, style=TableStyle(commands), hAlign="LEFT",
                            spaceBefore=st.body.fontSize * 0.35)
        self._tables[round(availWidth, 3)] = self._table
        w, h = self._table.wrap(availWidth, availHeight)
        self.width, self.height = w, h
        return w, h

    def getSpaceBefore(self) -> float:
        return self.st.body.fontSize * 0.4

    def draw(self) -> None:
        assert self._table is not None
        self._table.drawOn(self.canv, 0, 0)


class Boxes(Flowable):
    """``count`` empty squares in rows (an XP track to tick), with an optional label before them."""

    def __init__(self, label: str, count: int, style: _Style) -> None:
        super().__init__()
        self.label = label
        self.count = count
        self.st = style
        self.box = style.body.fontSize * 1.05
        self.gap = style.body.fontSize * 0.3

    def _label_width(self) -> float:
        if not self.label:
            return 0.0
        return stringWidth(self.label, FONT_BOLD, self.st.body.fontSize) + self.gap * 2

    def _layout(self, avail: float) -> tuple[int, int]:
        room = max(avail - self._label_width(), self.box)
        most = max(1, int((room + self.gap) // (self.box + self.gap)))
        rows = -(-self.count // most)
        per_row = -(-self.count // rows)  # balanced rows: 12 boxes as 6 + 6 rather than 11 + 1
        return per_row, rows

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        per_row, rows = self._layout(availWidth)
        self._per_row = per_row
        # report the whole width, like a paragraph: KeepInFrame draws its content again at the width it
        # reported, and narrower content would make the paragraphs re-wrap narrower than they were measured
        self.width = max(availWidth, self._label_width() + per_row * (self.box + self.gap) - self.gap)
        self.height = rows * (self.box + self.gap) - self.gap
        return self.width, self.height

    def getSpaceBefore(self) -> float:
        return self.st.body.fontSize * 0.5

    def draw(self) -> None:
        c = self.canv
        size = self.st.body.fontSize
        if self.label:
            c.setFont(FONT_BOLD, size)
            c.setFillColor(colors.black)
            c.drawString(0, self.height - self.box + (self.box - size) / 2 + size * 0.12, self.label)
        x0 = self._label_width()
        c.setLineWidth(0.6)
        c.setStrokeColor(colors.Color(0.2, 0.2, 0.2))
        for i in range(self.count):
            row, col = divmod(i, self._per_row)
            x = x0 + col * (self.box + self.gap)
            y = self.height - (row + 1) * self.box - row * self.gap
            c.rect(x, y, self.box, self.box, stroke=1, fill=0)


class Fields(Flowable):
    """Write-in lines: one label per line followed by a rule to write on."""

    def __init__(self, labels: Sequence[str], style: _Style) -> None:
        super().__init__()
        self.labels = list(labels)
        self.st = style
        self.line_h = style.body.fontSize * 1.9

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = availWidth
        self.height = self.line_h * len(self.labels)
        return self.width, self.height

    def getSpaceBefore(self) -> float:
        return self.st.body.fontSize * 0.3

    def draw(self) -> None:
        c = self.canv
        size = self.st.body.fontSize
        c.setLineWidth(0.5)
        c.setStrokeColor(colors.Color(0.35, 0.35, 0.35))
        for i, label in enumerate(self.labels):
            base = self.height - (i + 1) * self.line_h + size * 0.35
            c.setFont(FONT_BOLD, size)
            c.setFillColor(colors.black)
            c.drawString(0, base + size * 0.15, label)
            x = stringWidth(label, FONT_BOLD, size) + size * 0.4
            c.line(x, base, self.width, base)


class _ShrinkToFit(KeepInFrame):
    """KeepInFrame(mode="shrink") that remembers its last answer: the card is laid out once to check that it
    fits, and the Frame that draws it asks again with the same size; the shrink search is not repeated."""

    _last: tuple[tuple[float, float], tuple[float, float]] | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        key = (round(availWidth, 3), round(availHeight, 3))
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        result = super().wrap(availWidth, availHeight)
        self._last = (key, result)
        return result


def resolve_rule_table(block: Block) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The rows a ``rule_table`` block prints: the engine's table, cut to ``columns`` when given."""
    from ..rules.tables import rule_table

    headers, rows = rule_table(block.name)
    headers = tuple(headers)
    rows = [tuple(r) for r in rows]
    if block.columns:
        missing = [c for c in block.columns if c not in headers]
        if missing:
            raise DeckError(f"rule table {block.name!r} has no column(s) {', '.join(map(repr, missing))} "
                            f"(columns: {', '.join(headers)})")
        idx = [headers.index(c) for c in block.columns]
        headers = tuple(headers[i] for i in idx)
        rows = [tuple(r[i] for i in idx) for r in rows]
    if block.row_range:
        first, last = block.row_range
        if last > len(rows):
            raise DeckError(f"rule table {block.name!r} has {len(rows)} rows, not {last}")
        rows = rows[first - 1:last]
    if block.labels:
        if len(block.labels) != len(headers):
            raise DeckError(f"rule table {block.name!r}: 'labels' names {len(block.labels)} columns, the table "
                            f"prints {len(headers)}")
        headers = tuple(block.labels)
    return headers, rows


def card_flowables(card: Card, st: _Style) -> list[Flowable]:
    """The card's blocks as reportlab flowables in the style ``st``."""
    out: list[Flowable] = []
    for block in card.blocks:
        if block.type == "heading":
            out.append(Paragraph(markup(block.text, st.grayscale), st.heading))
        elif block.type == "paragraph":
            out.append(Paragraph(markup(block.text, st.grayscale), st.body))
        elif block.type == "bullets":
            for item in block.items:
                out.append(Paragraph(markup(item, st.grayscale), st.bullet, bulletText="•"))
        elif block.type in ("table", "rule_table"):
            if block.type == "rule_table":
                headers, rows = resolve_rule_table(block)
            else:
                headers, rows = block.headers, list(block.rows)
            out.append(FitTable(headers, rows, st, block.widths))
            if block.caption:
                out.append(Paragraph(markup(block.caption, st.grayscale), st.caption))
        elif block.type == "fields":
            out.append(Fields(block.items, st))
        elif block.type == "boxes":
            out.append(Boxes(block.text, block.count, st))
        else:  # pragma: no cover - decks.py validates the types
            raise DeckError(f"unknown block type {block.type!r}")
    if out and isinstance(out[0], Paragraph):
        out.insert(0, Spacer(0, 0))  # no space above the first block
    return out


# ---------------------------------------------------------------------------------------------- one card


def _title_paragraph(card: Card, st: _Style, width: float) -> Paragraph:
    """The title, two lines at most: shrinks from title size to body size before giving up."""
    size = st.title.fontSize
    while True:
        style = ParagraphStyle("t", parent=st.title, fontSize=size, leading=size * 1.12)
        para = Paragraph(markup(card.title, grayscale=True), style)
        _, h = para.wrap(width, 1000)
        if h <= 2 * style.leading + 0.01 or size <= st.body.fontSize:
            if h > 2 * style.leading + 0.01:
                raise CardFitError(f"card {card.full_id} ({card.source}): the title {card.title!r} needs "
                                   f"more than two lines on a {st.size.label} card; shorten it")
            return para
        size -= 0.5


@dataclass
class _Laid:
    title: Paragraph
    title_h: float
    header_h: float
    kif: KeepInFrame
    body_box: tuple[float, float, float, float]  # x, y, w, h in card coordinates
    fit: Fit


def _footer_size(st: _Style) -> float:
    return MIN_FONT


def _lay_out(card: Card, st: _Style, canvas: Canvas) -> _Laid:
    size = st.size
    inner_w = size.width - 2 * (INSET + PAD)
    title = _title_paragraph(card, st, inner_w)
    _, title_h = title.wrap(inner_w, 1000)
    header_h = title_h + 2 * PAD * 0.7
    footer_h = _footer_size(st) * 1.85
    body_top = size.height - INSET - header_h - PAD * 0.9
    body_bottom = INSET + footer_h + PAD * 0.4
    body_h = body_top - body_bottom
    content = card_flowables(card, st)
    kif = _ShrinkToFit(inner_w, body_h, content=content, mode="shrink", fakeWidth=False, name=card.full_id)
    kif.canv = canvas
    w, h = kif.wrap(inner_w, body_h)
    scale = float(getattr(kif, "_scale", 1.0))
    min_font = st.smallest / scale
    if min_font < MIN_FONT - 1e-6 or h > body_h + 0.5 or w > inner_w + 0.5:
        raise CardFitError(
            f"card {card.full_id} ({card.title!r}, {card.source}) does not fit a {size.label} card: its text "
            f"would have to shrink to {min_font:.1f} pt, below the {MIN_FONT:g} pt minimum; shorten it or "
            f"split it into two cards")
    fit = Fit(card.full_id, scale, min_font)
    return _Laid(title, title_h, header_h, kif, (INSET + PAD, body_bottom, inner_w, body_h), fit)


def check_card_fits(card: Card, deck: Deck, size: str = DEFAULT_SIZE) -> Fit:
    """Lay the card out on a scratch canvas; raises CardFitError when it does not fit ``size``."""
    register_fonts()
    import io

    canvas = Canvas(io.BytesIO(), invariant=1, initialFontName=FONT)
    return _lay_out(card, _style(_card_size(size), deck, False), canvas).fit


def _draw_front(canvas: Canvas, card: Card, deck: Deck, st: _Style, laid: _Laid, index: int,
                total: int) -> None:
    size = st.size
    w, h = size.width, size.height
    radius = 2.5 * mm
    # border and header band
    canvas.setLineWidth(0.9 if not st.grayscale else 0.7)
    canvas.setStrokeColor(st.accent if not st.grayscale else colors.black)
    header_y = h - INSET - laid.header_h
    if not st.grayscale:
        path = canvas.beginPath()
        # the band follows the rounded top corners
        path.moveTo(INSET, header_y)
        path.lineTo(INSET, h - INSET - radius)
        path.arcTo(INSET, h - INSET - 2 * radius, INSET + 2 * radius, h - INSET, startAng=180, extent=-90)
        path.lineTo(w - INSET - radius, h - INSET)
        path.arcTo(w - INSET - 2 * radius, h - INSET - 2 * radius, w - INSET, h - INSET, startAng=90,
                   extent=-90)
        path.lineTo(w - INSET, header_y)
        path.close()
        canvas.setFillColor(st.accent)
        canvas.drawPath(path, stroke=0, fill=1)
    else:
        canvas.setLineWidth(0.6)
        canvas.line(INSET + PAD * 0.5, header_y, w - INSET - PAD * 0.5, header_y)
    canvas.setLineWidth(0.9 if not st.grayscale else 0.7)
    canvas.roundRect(INSET, INSET, w - 2 * INSET, h - 2 * INSET, radius, stroke=1, fill=0)
    laid.title.drawOn(canvas, INSET + PAD, header_y + (laid.header_h - laid.title_h) / 2)
    # footer: system on the left; tag and number on the right
    fs = _footer_size(st)
    canvas.setFont(FONT, fs)
    canvas.setFillColor(colors.Color(0.35, 0.35, 0.35))
    y = INSET + fs * 0.65
    right = f"{index}/{total}"
    canvas.drawRightString(w - INSET - PAD, y, right)
    right_w = stringWidth(right, FONT, fs)
    if card.tag:
        canvas.setFont(FONT_BOLD, fs)
        canvas.setFillColor(colors.black if st.grayscale else _mix(st.accent, colors.black, 0.3))
        tag = f"{card.tag} ·"
        canvas.drawRightString(w - INSET - PAD - right_w - fs * 0.3, y, tag)
        right_w += stringWidth(tag, FONT_BOLD, fs) + fs * 0.3
    canvas.setFont(FONT, fs)
    canvas.setFillColor(colors.Color(0.35, 0.35, 0.35))
    room = w - 2 * (INSET + PAD) - right_w - fs
    system = card.system
    while system and stringWidth(system, FONT, fs) > room:
        system = system[:-2] + "…" if len(system) > 2 else ""
    canvas.drawString(INSET + PAD, y, system)
    # body
    bx, by, bw, bh = laid.body_box
    frame = Frame(bx, by, bw, bh, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0,
                  showBoundary=0, id=f"body-{card.full_id}")
    if not frame.add(laid.kif, canvas):  # pragma: no cover - _lay_out already proved it fits
        raise CardFitError(f"card {card.full_id} does not fit its frame")


def _back_text(deck: Deck, st: _Style, canvas: Canvas) -> tuple[KeepInFrame, float]:
    """The back's title, text and system, shrunk to fit; built once per deck and drawn on every back."""
    size = st.size
    ink = colors.black if st.grayscale else colors.white
    inner_w = size.width - 2 * (INSET + 6 * mm)
    title_size = size.base_font * 1.8
    title_style = ParagraphStyle("back_title", fontName=FONT_BOLD, fontSize=title_size,
                                 leading=title_size * 1.15, alignment=TA_CENTER, textColor=ink)
    text_style = ParagraphStyle("back_text", fontName=FONT, fontSize=size.base_font,
                                leading=size.base_font * 1.25, alignment=TA_CENTER, textColor=ink,
                                spaceBefore=size.base_font * 0.8)
    small = max(MIN_FONT, size.base_font - 1)
    small_style = ParagraphStyle("back_system", parent=text_style, fontSize=small, leading=small * 1.2)
    flow: list[Flowable] = [Paragraph(escape(deck.back.title), title_style)]
    if deck.back.text:
        flow.append(Paragraph(markup(deck.back.text, True), text_style))
    if deck.system and deck.system != deck.back.title:
        flow.append(Paragraph(escape(deck.system), small_style))
    box_h = size.height - 2 * (INSET + 8 * mm)
    kif = _ShrinkToFit(inner_w, box_h, content=flow, mode="shrink", fakeWidth=False, name=f"back-{deck.id}")
    kif.canv = canvas
    _, fh = kif.wrap(inner_w, box_h)
    return kif, fh


def _draw_back(canvas: Canvas, deck: Deck, st: _Style, text: tuple[KeepInFrame, float]) -> None:
    size = st.size
    w, h = size.width, size.height
    radius = 2.5 * mm
    back_colour = _hex(deck.back.colour)
    if st.grayscale:
        canvas.setStrokeColor(colors.black)
        canvas.setLineWidth(0.9)
        canvas.roundRect(INSET, INSET, w - 2 * INSET, h - 2 * INSET, radius, stroke=1, fill=0)
        canvas.setStrokeColor(colors.Color(0.55, 0.55, 0.55))
        canvas.setLineWidth(0.4)
        canvas.roundRect(INSET + 2 * mm, INSET + 2 * mm, w - 2 * INSET - 4 * mm, h - 2 * INSET - 4 * mm,
                         radius * 0.7, stroke=1, fill=0)
        ink = colors.black
    else:
        canvas.setFillColor(back_colour)
        canvas.setStrokeColor(back_colour)
        canvas.roundRect(INSET, INSET, w - 2 * INSET, h - 2 * INSET, radius, stroke=0, fill=1)
        canvas.setStrokeColor(_mix(back_colour, colors.white, 0.55))
        canvas.setLineWidth(0.6)
        canvas.roundRect(INSET + 2 * mm, INSET + 2 * mm, w - 2 * INSET - 4 * mm, h - 2 * INSET - 4 * mm,
                         radius * 0.7, stroke=1, fill=0)
        ink = colors.white
    # a suit in each corner
    suit_size = st.size.base_font * 1.3
    canvas.setFont(FONT, suit_size)
    canvas.setFillColor(ink if st.grayscale else _mix(back_colour, colors.white, 0.65))
    off = INSET + 2 * mm + suit_size * 0.45
    for x, y, suit in ((off, h - off - suit_size * 0.7, "♠"), (w - off, h - off - suit_size * 0.7, "♥"),
                       (off, off, "♣"), (w - off, off, "♦")):
        canvas.drawCentredString(x, y, suit)
    # title, text and system in the middle
    kif, fh = text
    inner_w = w - 2 * (INSET + 6 * mm)
    frame = Frame(INSET + 6 * mm, (h - fh) / 2 - 1, inner_w, fh + 2, leftPadding=0, rightPadding=0,
                  topPadding=0, bottomPadding=0, showBoundary=0, id=f"back-{deck.id}")
    frame.add(kif, canvas)


# ---------------------------------------------------------------------------------------------- page layout


@dataclass(frozen=True)
class Grid:
    """Where the slots sit on a page (points, page coordinates): a slot holds one card, or one front+back
    pair in the fold-over layout. ``rotated``: cards lie on their side (90°)."""

    page_w: float
    page_h: float
    card_w: float  # footprint of one card on the page (after rotation)
    card_h: float
    cols: int
    rows: int
    gutter_x: float
    gutter_y: float
    left: float
    bottom: float
    rotated: bool
    pair: bool  # fold-over: each slot is two cards side by side

    @property
    def slot_w(self) -> float:
        return self.card_w * (2 if self.pair else 1)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def slot_origin(self, index: int) -> tuple[float, float]:
        """Lower-left corner of slot ``index`` (row by row from the top left)."""
        row, col = divmod(index, self.cols)
        top = self.bottom + self.rows * self.card_h + (self.rows - 1) * self.gutter_y
        x = self.left + col * (self.slot_w + self.gutter_x)
        y = top - (row + 1) * self.card_h - row * self.gutter_y
        return x, y


def _fit_count(avail: float, item: float) -> int:
    if item > avail:
        return 0
    return int((avail + MIN_GUTTER) // (item + MIN_GUTTER))


def _spread(avail: float, item: float, n: int) -> tuple[float, float]:
    """Gutter and leading offset to centre ``n`` items of ``item`` in ``avail``."""
    if n <= 1:
        return 0.0, (avail - item * n) / 2
    gutter = min(MAX_GUTTER, (avail - n * item) / (n - 1))
    used = n * item + (n - 1) * gutter
    return gutter, (avail - used) / 2


def plan_grid(paper: str, size: str, layout: str = "fronts") -> Grid:
    """The most cards per page (portrait paper; cards upright or on their side, upright on a tie)."""
    page_w, page_h = paper_size(paper)
    card = _card_size(size)
    pair = layout == "fold"
    best: Grid | None = None
    for rotated in (False, True):
        cw, ch = (card.height, card.width) if rotated else (card.width, card.height)
        slot_w = cw * (2 if pair else 1)
        avail_w = page_w - 2 * PAGE_MARGIN
        avail_h = page_h - 2 * PAGE_MARGIN
        cols, rows = _fit_count(avail_w, slot_w), _fit_count(avail_h, ch)
        if cols * rows == 0:
            continue
        gx, ox = _spread(avail_w, slot_w, cols)
        gy, oy = _spread(avail_h, ch, rows)
        grid = Grid(page_w, page_h, cw, ch, cols, rows, gx, gy, PAGE_MARGIN + ox, PAGE_MARGIN + oy, rotated,
                    pair)
        if best is None or grid.per_page > best.per_page:
            best = grid
    if best is None:
        if pair:
            raise DeckError(f"a front-and-back pair of {card.label} cards does not fit on {paper} paper: "
                            f"use duplex backs instead of the fold-over layout")
        raise DeckError(f"a {card.label} card does not fit on {paper} paper")
    return best


def _cut_marks(canvas: Canvas, grid: Grid, x: float, y: float, w: float, h: float) -> None:
    """Short marks in line with each edge of the box (x, y, w, h), drawn outside it: in the gutter towards
    a neighbour (marks of two neighbours meet on the same cut line) or in the page margin."""
    def reach(gap: float) -> float:
        return max(0.0, min(CUT_MARK, gap - 2 * CUT_GAP))

    left = reach(grid.gutter_x if x > grid.left + 1 else x - 1 * mm)
    right = reach(grid.gutter_x if x + w < grid.page_w - grid.left - 1 else grid.page_w - x - w - 1 * mm)
    down = reach(grid.gutter_y if y > grid.bottom + 1 else y - 1 * mm)
    up = reach(grid.gutter_y if y + h < grid.page_h - grid.bottom - 1 else grid.page_h - y - h - 1 * mm)
    canvas.saveState()
    canvas.setLineWidth(0.3)
    canvas.setStrokeColor(colors.Color(0.3, 0.3, 0.3))
    for cx in (x, x + w):
        canvas.line(cx, y - CUT_GAP, cx, y - CUT_GAP - down)
        canvas.line(cx, y + h + CUT_GAP, cx, y + h + CUT_GAP + up)
    for cy in (y, y + h):
        canvas.line(x - CUT_GAP, cy, x - CUT_GAP - left, cy)
        canvas.line(x + w + CUT_GAP, cy, x + w + CUT_GAP + right, cy)
    canvas.restoreState()


def _fold_marks(canvas: Canvas, grid: Grid, x: float, y: float, h: float) -> None:
    canvas.saveState()
    canvas.setLineWidth(0.3)
    canvas.setStrokeColor(colors.Color(0.45, 0.45, 0.45))
    canvas.setDash(1.2, 1.2)
    reach = min(CUT_MARK, (grid.gutter_y / 2 if grid.rows > 1 else CUT_MARK))
    canvas.line(x, y - CUT_GAP, x, y - CUT_GAP - reach)
    canvas.line(x, y + h + CUT_GAP, x, y + h + CUT_GAP + reach)
    canvas.restoreState()


def _place(canvas: Canvas, grid: Grid, x: float, y: float, rotation: int, draw: Callable[[], None]) -> None:
    """Draw a card whose footprint's lower-left corner is (x, y), turned by ``rotation`` (0, 90, -90)."""
    canvas.saveState()
    if rotation == 0:
        canvas.translate(x, y)
    elif rotation == 90:  # card's top towards the page's left
        canvas.translate(x + grid.card_w, y)
        canvas.rotate(90)
    else:  # -90: card's top towards the page's right
        canvas.translate(x, y + grid.card_h)
        canvas.rotate(-90)
    draw()
    canvas.restoreState()


# ---------------------------------------------------------------------------------------------- the PDF


def _card_size(size: str) -> CardSize:
    try:
        return CARD_SIZES[size]
    except KeyError:
        raise DeckError(f"unknown card size {size!r}: use one of {', '.join(CARD_SIZES)}") from None


def _decks_of(decks: Mapping[str, Deck] | DeckLibrary) -> Mapping[str, Deck]:
    return decks.decks if isinstance(decks, DeckLibrary) else decks


def build_cards_pdf(cards: Sequence[Card], output: str | os.PathLike[str] | IO[bytes], *,
                    decks: Mapping[str, Deck] | DeckLibrary, size: str = DEFAULT_SIZE,
                    paper: str | None = None, grayscale: bool = False, layout: str = "fronts",
                    progress: Progress | None = None, title: str = "Play-aid cards") -> CardsPdf:
    """Write ``cards`` (in order) as a PDF to ``output`` (a path or a binary file object).

    ``decks`` maps deck ids to decks (or pass the DeckLibrary): it gives each card's colour and back face.
    ``layout``: "fronts" (fronts only), "backs" (each page of fronts followed by its page of backs, mirrored
    left-right for duplex printing flipped on the long edge) or "fold" (front and back side by side; cut
    around the pair and fold on the dashed mark). ``paper`` None: :func:`default_paper`.
    ``progress(done, total)`` is called after each card. Raises CardFitError (naming the card) when a card
    does not fit, DeckError for a bad size, paper or layout; nothing is written then.
    """
    if layout not in LAYOUTS:
        raise DeckError(f"unknown layout {layout!r}: use one of {', '.join(LAYOUTS)}")
    if not cards:
        raise DeckError("no cards to print")
    card_size = _card_size(size)
    paper = (paper or default_paper()).lower()
    try:
        paper_size(paper)
    except ValueError as exc:
        raise DeckError(str(exc)) from None
    deck_map = _decks_of(decks)
    for card in cards:
        if card.deck_id not in deck_map:
            raise DeckError(f"card {card.full_id}: its deck {card.deck_id!r} was not given")
    register_fonts()
    grid = plan_grid(paper, size, layout)

    # Lay every card out first (on a scratch canvas) so that a card that does not fit stops the build
    # before anything is written.
    import io

    scratch = Canvas(io.BytesIO(), invariant=1, initialFontName=FONT)
    styles: dict[str, _Style] = {}
    laid: list[_Laid] = []
    for card in cards:
        st = styles.get(card.deck_id)
        if st is None:
            st = styles[card.deck_id] = _style(card_size, deck_map[card.deck_id], grayscale)
        try:
            laid.append(_lay_out(card, st, scratch))
        except CardFitError:
            raise
        except (DeckError, KeyError, ValueError) as exc:
            raise DeckError(f"card {card.full_id} ({card.source}): {exc}") from None

    target = os.fspath(output) if isinstance(output, str | os.PathLike) else output
    canvas = Canvas(target, pagesize=(grid.page_w, grid.page_h), invariant=1, pageCompression=1,
                    initialFontName=FONT, initialFontSize=MIN_FONT)
    canvas.setTitle(title)
    canvas.setAuthor("campaign_app")
    canvas.setCreator("campaign_app")
    canvas.setSubject(f"{len(cards)} cards, {card_size.label}, {paper}, {layout}")

    rotation = 90 if grid.rotated else 0
    backs: dict[str, tuple[KeepInFrame, float]] = {}
    numbers: dict[str, int] = {d: len(deck_map[d].cards) for d in deck_map}
    position: dict[str, int] = {}
    for d in deck_map:
        for i, c in enumerate(deck_map[d].cards, start=1):
            position[c.full_id] = i
    total = len(cards)
    pages = 0
    for start in range(0, total, grid.per_page):
        chunk = list(range(start, min(start + grid.per_page, total)))
        # fronts (and, for fold-over, the backs beside them)
        for slot, i in enumerate(chunk):
            card, lay = cards[i], laid[i]
            st = styles[card.deck_id]
            x, y = grid.slot_origin(slot)
            index = position.get(card.full_id, 0)
            count = numbers.get(card.deck_id, 0)

            def front(card: Card = card, lay: _Laid = lay, st: _Style = st, index: int = index,
                      count: int = count) -> None:
                _draw_front(canvas, card, deck_map[card.deck_id], st, lay, index, count)

            _place(canvas, grid, x, y, rotation, front)
            if grid.pair:
                deck = deck_map[card.deck_id]
                back = backs.get(deck.id) or backs.setdefault(deck.id, _back_text(deck, st, scratch))
                _place(canvas, grid, x + grid.card_w, y, -rotation,
                       lambda deck=deck, st=st, back=back: _draw_back(canvas, deck, st, back))
                _fold_marks(canvas, grid, x + grid.card_w, y, grid.card_h)
            _cut_marks(canvas, grid, x, y, grid.slot_w, grid.card_h)
            if progress is not None:
                progress(i + 1, total)
        canvas.showPage()
        pages += 1
        if layout == "backs":
            for slot, i in enumerate(chunk):
                card = cards[i]
                st = styles[card.deck_id]
                x, y = grid.slot_origin(slot)
                mirrored_x = grid.page_w - x - grid.slot_w
                deck = deck_map[card.deck_id]
                back = backs.get(deck.id) or backs.setdefault(deck.id, _back_text(deck, st, scratch))
                _place(canvas, grid, mirrored_x, y, -rotation,
                       lambda deck=deck, st=st, back=back: _draw_back(canvas, deck, st, back))
                _cut_marks(canvas, grid, mirrored_x, y, grid.slot_w, grid.card_h)
            canvas.showPage()
            pages += 1
    canvas.save()
    return CardsPdf(pages=pages, cards=total, per_page=grid.per_page, rotated=grid.rotated, paper=paper,
                    size=size, layout=layout, fits=[lay.fit for lay in laid])
