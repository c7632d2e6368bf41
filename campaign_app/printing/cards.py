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
from functools import partial
from typing import IO, Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, KeepInFrame, Paragraph, Spacer, Table, TableStyle

from ..errors import Refused
from .decks import Block, Card, Deck, DeckError, DeckLibrary
from .fonts import FONT, FONT_BOLD, register_fonts
from .paper import default_paper, paper_size
from .rltyped import font_canvas
from .sizes import CARD_SIZES, CARD_STOCK, CARD_STOCK_SIZES, DEFAULT_SIZE, CardSize, PrintSetup
from .typeset import keep_dice_codes

__all__ = ["CARD_SIZES", "DEFAULT_SIZE", "CardSize", "PrintSetup", "build_cards_pdf", "check_card_fits",
           "plan_grid", "build_alignment_test"]

MIN_FONT = 7.0
"""The smallest text a card may print (points)."""


LAYOUTS = ("fronts", "backs", "fold")

CUT_MARK = 3 * mm  # longest cut mark
MIN_MARK = 1.5 * mm  # shorter room than this: no mark on that side
CUT_GAP = 0.5 * mm  # between a mark and the card (or its bleed)
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
    setup: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"pages": self.pages, "cards": self.cards, "per_page": self.per_page, "rotated": self.rotated,
                "paper": self.paper, "size": self.size, "layout": self.layout,
                "smallest_font": round(min((f.min_font for f in self.fits), default=0.0), 2), **self.setup}


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
    inset: float  # the card's border, inside the cut line (the safe margin on card stock)
    bleed: float  # how far header bands and solid backs reach past the cut line
    back_style: str
    factor: float  # text size relative to the size's base font (grown to fill big cards)
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


def _style(size: CardSize, deck: Deck, grayscale: bool, factor: float = 1.0, inset: float = INSET,
           bleed: float = 0.0, back_style: str = "pattern") -> _Style:
    base = size.base_font * factor
    accent = _hex(deck.back.colour)
    if grayscale:
        accent = _gray_of(accent)
    ink = colors.black
    body = ParagraphStyle("body", fontName=FONT, fontSize=base, leading=base * 1.18, textColor=ink,
                          spaceBefore=base * 0.3, alignment=TA_LEFT)
    heading = ParagraphStyle("heading", parent=body, fontName=FONT_BOLD, fontSize=base + 0.5,
                             leading=(base + 0.5) * 1.2, spaceBefore=base * 0.55, spaceAfter=0,
                             textColor=ink if grayscale else _mix(accent, colors.black, 0.35))
    # reportlab starts a bullet's first line at bulletIndent + bullet width + 0.6 em when that is beyond
    # leftIndent: indent the wrapped lines exactly that far, so that every line of the item starts together
    bullet_indent = base * 0.15
    bullet = ParagraphStyle("bullet", parent=body, bulletIndent=bullet_indent,
                            leftIndent=bullet_indent + stringWidth("•", FONT, base) + base * 0.6,
                            spaceBefore=base * 0.15, bulletFontName=FONT)
    cell_size = base - 0.5
    cell = ParagraphStyle("cell", fontName=FONT, fontSize=cell_size, leading=cell_size * 1.12, textColor=ink)
    head_cell = ParagraphStyle("head_cell", parent=cell, fontName=FONT_BOLD)
    caption = ParagraphStyle("caption", parent=cell, textColor=colors.Color(0.25, 0.25, 0.25),
                             spaceBefore=base * 0.2)
    title_colour = ink if grayscale else colors.white
    title = ParagraphStyle("title", fontName=FONT_BOLD, fontSize=base + 1.5, leading=(base + 1.5) * 1.12,
                           textColor=title_colour, alignment=TA_LEFT)
    return _Style(size, grayscale, inset, bleed, back_style, factor, accent, body, heading, bullet, cell,
                  head_cell, caption, title)


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_RED_SUITS = re.compile("([♥♦])")


def markup(text: str, grayscale: bool = False) -> str:
    """Plain card text -> reportlab paragraph markup: XML escaped, ``**bold**``, line breaks, red ♥♦, dice
    codes kept on one line."""
    out = escape(keep_dice_codes(text.strip()))
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
        self.pad = style.cell.fontSize * 0.22

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
                atomic = len(plain) <= 11 and any(ch.isdigit() for ch in plain)
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


def resolve_rule_table(block: Block, rules: Any = None) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The rows a ``rule_table`` block prints: the engine's table (for the campaign's ``rules`` when given),
    cut to ``columns`` when given."""
    from ..rules.tables import rule_table

    headers, rows = rule_table(block.name, rules)
    headers = tuple(headers)
    rows = [tuple(r) for r in rows]
    if block.columns:
        missing = [c for c in block.columns if c not in headers]
        if missing:
            cols = "column" if len(missing) == 1 else "columns"
            raise DeckError(f"rule table {block.name!r} has no {cols} {', '.join(map(repr, missing))} "
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


class Numbers(Flowable):
    """Key values in large numerals side by side, each with a small label under it."""

    def __init__(self, items: Sequence[str], style: _Style) -> None:
        super().__init__()
        self.items = [tuple(part.strip() for part in item.split("|", 1)) for item in items]
        self.st = style
        self.big = style.body.fontSize * 2.1
        self.label_style = ParagraphStyle("numlabel", parent=style.caption, alignment=TA_CENTER,
                                          textColor=colors.Color(0.2, 0.2, 0.2), spaceBefore=0)
        self._labels: list[Paragraph] = []
        self._label_h = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        n = len(self.items)
        col = availWidth / n
        # a label never breaks inside a word: all labels get smaller together (down to the card's smallest type,
        # which its shrink-to-fit keeps at or above the 7 pt floor) until
        # the longest word fits its column; only then does a hyphenated word break, after its hyphen
        words = [w for _v, label in self.items for w in label.split()]
        font = self.label_style.fontName
        size = self.st.caption.fontSize
        floor = max(MIN_FONT, self.st.smallest)  # the card's own shrink-to-fit is checked against this
        while size > floor and max((stringWidth(w, font, size) for w in words), default=0) > col - 2:
            size = max(floor, size - 0.25)
        if size != self.label_style.fontSize:
            self.label_style = ParagraphStyle("numlabel_fit", parent=self.label_style, fontSize=size,
                                              leading=self.label_style.leading * size / self.label_style.fontSize)

        def breakable(label: str) -> str:
            return " ".join(w.replace("-", "- ") if stringWidth(w, font, size) > col - 2 else w
                            for w in label.split())

        self._labels = [Paragraph(markup(breakable(label), self.st.grayscale), self.label_style)
                        for _v, label in self.items]
        self._label_h = max(p.wrap(col - 2, 1000)[1] for p in self._labels)
        self.width, self.height = availWidth, self.big * 1.05 + self._label_h
        self._col = col
        return self.width, self.height

    def getSpaceBefore(self) -> float:
        return self.st.body.fontSize * 0.5

    def draw(self) -> None:
        c = self.canv
        colour = colors.black if self.st.grayscale else _mix(self.st.accent, colors.black, 0.25)
        for i, ((value, _label), para) in enumerate(zip(self.items, self._labels, strict=True)):
            x = i * self._col
            size = self.big
            while size > self.st.body.fontSize and stringWidth(value, FONT_BOLD, size) > self._col - 2:
                size -= 0.5
            c.setFont(FONT_BOLD, size)
            c.setFillColor(colour)
            c.drawCentredString(x + self._col / 2, self._label_h + self.big * 0.22, value)
            para.drawOn(c, x + 1, 0)


def card_flowables(card: Card, st: _Style, rules: Any = None, rules_note: str = "") -> list[Flowable]:
    """The card's blocks as reportlab flowables in the style ``st``; rule tables and ``{{placeholders}}``
    follow ``rules`` (a :class:`~campaign_app.rules.tables.CardRules`, default rules when None);
    ``rules_note`` (e.g. "Rules: default") is added under the cards that depend on them."""
    from ..rules.tables import RULE_TABLES, fill_placeholders

    def text(raw: str) -> str:
        return markup(fill_placeholders(raw, rules), st.grayscale)

    out: list[Flowable] = []
    depends = False
    for block in card.blocks:
        raw_texts = [block.text, *block.items, block.caption]
        depends = (depends or any("{{" in t for t in raw_texts)
                   or (block.type == "rule_table" and RULE_TABLES[block.name].house_rules))
        if block.type == "heading":
            out.append(Paragraph(text(block.text), st.heading))
        elif block.type == "paragraph":
            out.append(Paragraph(text(block.text), st.body))
        elif block.type == "bullets":
            for item in block.items:
                out.append(Paragraph(text(item), st.bullet, bulletText="•"))
        elif block.type == "steps":
            width = stringWidth(f"{len(block.items)}.", FONT_BOLD, st.body.fontSize)
            step = ParagraphStyle("step", parent=st.bullet, bulletFontName=FONT_BOLD,
                                  leftIndent=st.bullet.bulletIndent + width + st.body.fontSize * 0.6)
            for n, item in enumerate(block.items, start=1):
                out.append(Paragraph(text(item), step, bulletText=f"{n}."))
        elif block.type == "numbers":
            out.append(Numbers([fill_placeholders(item, rules) for item in block.items], st))
            if block.caption:
                out.append(Paragraph(text(block.caption), st.caption))
        elif block.type in ("table", "rule_table"):
            if block.type == "rule_table":
                headers, rows = resolve_rule_table(block, rules)
            else:
                headers, rows = block.headers, list(block.rows)
                headers = tuple(fill_placeholders(h, rules) for h in headers)
                rows = [tuple(fill_placeholders(c, rules) for c in r) for r in rows]
            out.append(FitTable(headers, rows, st, block.widths))
            if block.caption:
                out.append(Paragraph(text(block.caption), st.caption))
        elif block.type == "fields":
            out.append(Fields(block.items, st))
        elif block.type == "boxes":
            out.append(Boxes(block.text, block.count, st))
        else:  # pragma: no cover - decks.py validates the types
            raise DeckError(f"unknown block type {block.type!r}")
    if depends and rules_note:
        out.append(Paragraph(escape(rules_note), ParagraphStyle("rules_note", parent=st.caption,
                                                                spaceBefore=st.body.fontSize * 0.5)))
    if out and isinstance(out[0], Paragraph):
        out.insert(0, Spacer(0, 0))  # no space above the first block
    return out


# ---------------------------------------------------------------------------------------------- one card


def _one_line_words(words: Sequence[str], font: str, size: float, width: float) -> int:
    """How many of ``words`` fit on the first line of ``width`` (greedy, like the paragraph does)."""
    space = stringWidth(" ", font, size)
    used, n = 0.0, 0
    for word in words:
        w = stringWidth(word, font, size)
        if n and used + space + w > width:
            break
        used += (space if n else 0) + w
        n += 1
    return n


def _title_paragraph(card: Card, st: _Style, width: float) -> Paragraph:
    """The title, two lines at most, never one word alone on a second line: it shrinks (down to body size)
    when that makes it fit one line; otherwise it breaks before its last two words. Too long for two lines
    even at body size: CardFitError."""
    words = card.title.split()
    floor = max(MIN_FONT, st.body.fontSize)

    def para(size: float, text: str) -> tuple[Paragraph, float, float]:
        style = ParagraphStyle("t", parent=st.title, fontSize=size, leading=size * 1.12)
        p = Paragraph(text, style)
        _, h = p.wrap(width, 1000)
        return p, h, style.leading

    plain = markup(card.title, grayscale=True)
    size = st.title.fontSize
    while True:
        p, h, leading = para(size, plain)
        first = _one_line_words(words, FONT_BOLD, size, width)
        if first >= len(words):
            return p  # one line
        orphan = len(words) > 2 and len(words) - first == 1
        if not orphan and h <= 2 * leading + 0.01:
            return p
        if size - 0.25 < floor:
            break
        size -= 0.25
    # still one word alone (or three lines) at body size: back to full size, broken before the last two words
    size = st.title.fontSize
    while size >= floor:
        head, tail = " ".join(words[:-2]), " ".join(words[-2:])
        text = f"{markup(head, grayscale=True)}<br/>{markup(tail, grayscale=True)}"
        p, h, leading = para(size, text)
        if h <= 2 * leading + 0.01:
            return p
        size -= 0.25
    raise CardFitError(f"card {card.full_id} ({card.source}): the title {card.title!r} needs more than two "
                       f"lines on a {st.size.label} card; shorten it")


@dataclass
class _Laid:
    title: Paragraph
    title_h: float
    header_h: float
    kif: KeepInFrame
    body_box: tuple[float, float, float, float]  # x, y, w, h in card coordinates
    fit: Fit
    style: _Style


def _footer_size(st: _Style) -> float:
    return MIN_FONT


def _strip_width(card: Card) -> float:
    """The phase strip along the card's left edge (0 when the card has no phase)."""
    return MIN_FONT * 1.05 if card.phase else 0.0


PHASE_COLOURS: dict[str, str] = {
    "setup": "#2e7d32", "turn": "#1f5fa8", "action": "#b35c00", "aftermath": "#a12b2b",
    "campaign": "#6a3d9a", "reference": "#5a5a5a",
}
"""The colour strip of each phase (the same on every deck, so a glance finds the turn cards)."""


def _lay_out(card: Card, st: _Style, canvas: Canvas, rules: Any = None, rules_note: str = "") -> _Laid:
    size = st.size
    strip = _strip_width(card)
    title_w = size.width - 2 * (st.inset + PAD)
    inner_w = title_w - strip
    title = _title_paragraph(card, st, title_w)
    _, title_h = title.wrap(title_w, 1000)
    header_h = title_h + 2 * PAD * 0.7
    footer_h = _footer_size(st) * 1.85
    body_top = size.height - st.inset - header_h - PAD * 0.9
    body_bottom = st.inset + footer_h + PAD * 0.4
    body_h = body_top - body_bottom
    content = card_flowables(card, st, rules, rules_note)
    kif = _ShrinkToFit(inner_w, body_h, content=content, mode="shrink", fakeWidth=False, name=card.full_id)
    kif.canv = canvas
    w, h = kif.wrap(inner_w, body_h)
    scale = float(getattr(kif, "_scale", 1.0))
    min_font = min(st.smallest / scale, _footer_size(st))
    if min_font < MIN_FONT - 1e-6 or h > body_h + 0.5 or w > inner_w + 0.5:
        raise CardFitError(
            f"card {card.full_id} ({card.title!r}, {card.source}) does not fit a {size.label} card: its text "
            f"would have to shrink to {st.smallest / scale:.1f} pt, below the {MIN_FONT:g} pt minimum; shorten "
            f"it or split it into two cards")
    fit = Fit(card.full_id, scale, min_font)
    return _Laid(title, title_h, header_h, kif, (st.inset + PAD + strip, body_bottom, inner_w, body_h), fit, st)


def _lay_out_grown(card: Card, deck: Deck, st: _Style, canvas: Canvas, rules: Any = None,
                   rules_note: str = "") -> _Laid:
    """Lay the card out at the size's base font; when its text leaves room, grow the text (up to the
    size's ``max_font``) to fill the card, as large as still fits without shrinking."""
    laid = _lay_out(card, st, canvas, rules, rules_note)
    top = st.size.max_font / st.size.base_font
    if laid.fit.scale > 1.0 + 1e-6 or top <= 1.0:
        return laid
    _, h = laid.kif.wrap(laid.body_box[2], laid.body_box[3])
    if h <= 0 or h > laid.body_box[3] * 0.92:
        return laid

    def attempt(factor: float) -> _Laid | None:
        grown = _style(st.size, deck, st.grayscale, factor, st.inset, st.bleed, st.back_style)
        try:
            result = _lay_out(card, grown, canvas, rules, rules_note)
        except CardFitError:
            return None
        return result if result.fit.scale <= 1.0 + 1e-6 else None

    # wrapped text grows about with the square of its size: start from that guess, step down a little
    guess = min(top, (laid.body_box[3] / h) ** 0.5 * 0.98)
    for step in range(4):
        factor = guess * (1 - 0.05 * step)
        if factor <= 1.02:
            break
        found = attempt(factor)
        if found is not None:
            return found
    return laid


def check_card_fits(card: Card, deck: Deck, size: str = DEFAULT_SIZE) -> Fit:
    """Lay the card out on a scratch canvas; raises CardFitError when it does not fit ``size``."""
    register_fonts()
    import io

    canvas = font_canvas(io.BytesIO(), FONT)
    return _lay_out(card, _style(_card_size(size), deck, False), canvas).fit


def _rounded_top(canvas: Canvas, x0: float, y0: float, x1: float, y1: float, radius: float) -> Any:
    path = canvas.beginPath()
    path.moveTo(x0, y0)
    path.lineTo(x0, y1 - radius)
    path.arcTo(x0, y1 - 2 * radius, x0 + 2 * radius, y1, startAng=180, extent=-90)
    path.lineTo(x1 - radius, y1)
    path.arcTo(x1 - 2 * radius, y1 - 2 * radius, x1, y1, startAng=90, extent=-90)
    path.lineTo(x1, y0)
    path.close()
    return path


def _draw_front(canvas: Canvas, card: Card, deck: Deck, st: _Style, laid: _Laid, index: int,
                total: int) -> None:
    size = st.size
    w, h = size.width, size.height
    radius = 2.5 * mm
    ins = st.inset
    # border and header band (with a bleed, the band runs past the top and side cut lines)
    canvas.setLineWidth(0.9 if not st.grayscale else 0.7)
    canvas.setStrokeColor(st.accent if not st.grayscale else colors.black)
    header_y = h - ins - laid.header_h
    if not st.grayscale:
        canvas.setFillColor(st.accent)
        if st.bleed > 0:
            canvas.rect(-st.bleed, header_y, w + 2 * st.bleed, h + st.bleed - header_y, stroke=0, fill=1)
        else:
            canvas.drawPath(_rounded_top(canvas, ins, header_y, w - ins, h - ins, radius), stroke=0, fill=1)
    else:
        canvas.setLineWidth(0.6)
        canvas.line(ins + PAD * 0.5, header_y, w - ins - PAD * 0.5, header_y)
    canvas.setLineWidth(0.9 if not st.grayscale else 0.7)
    canvas.roundRect(ins, ins, w - 2 * ins, h - 2 * ins, radius, stroke=1, fill=0)
    laid.title.drawOn(canvas, ins + PAD, header_y + (laid.header_h - laid.title_h) / 2)
    fs = _footer_size(st)
    footer_top = ins + fs * 1.85
    # phase: a colour strip down the left of the body with the phase word in it
    if card.phase:
        strip = _strip_width(card)
        colour = _hex(PHASE_COLOURS.get(card.phase, "#5a5a5a"))
        if st.grayscale:
            colour = _gray_of(colour)
        x0 = ins + PAD * 0.45
        y0, y1 = footer_top, header_y - PAD * 0.45
        canvas.setFillColor(colour)
        canvas.roundRect(x0, y0, strip, y1 - y0, 1.2, stroke=0, fill=1)
        canvas.saveState()
        canvas.setFillColor(colors.white)
        canvas.setFont(FONT_BOLD, fs)
        canvas.translate(x0 + strip / 2 + fs * 0.35, y1 - PAD)
        canvas.rotate(90)
        canvas.drawRightString(0, 0, card.phase.upper())
        canvas.restoreState()
    # footer: system on the left; tag and number on the right
    canvas.setFont(FONT, fs)
    canvas.setFillColor(colors.Color(0.35, 0.35, 0.35))
    y = ins + fs * 0.65
    right = f"{index}/{total}"
    canvas.drawRightString(w - ins - PAD, y, right)
    right_w = stringWidth(right, FONT, fs)
    if card.tag:
        canvas.setFont(FONT_BOLD, fs)
        canvas.setFillColor(colors.black if st.grayscale else _mix(st.accent, colors.black, 0.3))
        tag = f"{card.tag} ·"
        canvas.drawRightString(w - ins - PAD - right_w - fs * 0.3, y, tag)
        right_w += stringWidth(tag, FONT_BOLD, fs) + fs * 0.3
    canvas.setFont(FONT, fs)
    canvas.setFillColor(colors.Color(0.35, 0.35, 0.35))
    room = w - 2 * (ins + PAD) - right_w - fs
    system = card.system
    if stringWidth(system, FONT, fs) > room and deck.short:
        system = deck.short
    while system and stringWidth(system, FONT, fs) > room:
        system = system[:-2] + "…" if len(system) > 2 else ""
    canvas.drawString(ins + PAD, y, system)
    # body
    bx, by, bw, bh = laid.body_box
    frame = Frame(bx, by, bw, bh, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0,
                  showBoundary=0, id=f"body-{card.full_id}")
    if not frame.add(laid.kif, canvas):  # pragma: no cover - _lay_out already proved it fits
        raise CardFitError(f"card {card.full_id} does not fit its frame")


def _back_ink(deck: Deck, st: _Style) -> colors.Color:
    if st.grayscale:
        return colors.black
    if st.back_style == "solid":
        return colors.white
    return _mix(_hex(deck.back.colour), colors.black, 0.2)


def _back_text(deck: Deck, st: _Style, canvas: Canvas) -> tuple[KeepInFrame, float]:
    """The back's title, text and system, shrunk to fit; built once per deck and drawn on every back."""
    size = st.size
    ink = _back_ink(deck, st)
    inner_w = size.width - 2 * (st.inset + 6 * mm)
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
    box_h = size.height - 2 * (st.inset + 8 * mm)
    kif = _ShrinkToFit(inner_w, box_h, content=flow, mode="shrink", fakeWidth=False, name=f"back-{deck.id}")
    kif.canv = canvas
    _, fh = kif.wrap(inner_w, box_h)
    return kif, fh


def _draw_back(canvas: Canvas, deck: Deck, st: _Style, text: tuple[KeepInFrame, float]) -> None:
    """A back: by default a light tint of the deck colour with a frame and a diagonal pattern (little ink,
    no curling, a small misalignment does not show); ``solid`` fills it with the deck colour."""
    size = st.size
    w, h = size.width, size.height
    radius = 2.5 * mm
    ins = st.inset
    back_colour = _hex(deck.back.colour)
    ink = _back_ink(deck, st)
    if st.grayscale:
        canvas.setStrokeColor(colors.black)
        canvas.setLineWidth(0.9)
        canvas.roundRect(ins, ins, w - 2 * ins, h - 2 * ins, radius, stroke=1, fill=0)
        canvas.setStrokeColor(colors.Color(0.55, 0.55, 0.55))
        canvas.setLineWidth(0.4)
        canvas.roundRect(ins + 2 * mm, ins + 2 * mm, w - 2 * ins - 4 * mm, h - 2 * ins - 4 * mm,
                         radius * 0.7, stroke=1, fill=0)
    elif st.back_style == "solid":
        canvas.setFillColor(back_colour)
        if st.bleed > 0:
            canvas.rect(-st.bleed, -st.bleed, w + 2 * st.bleed, h + 2 * st.bleed, stroke=0, fill=1)
        else:
            canvas.roundRect(ins, ins, w - 2 * ins, h - 2 * ins, radius, stroke=0, fill=1)
        canvas.setStrokeColor(_mix(back_colour, colors.white, 0.55))
        canvas.setLineWidth(0.6)
        canvas.roundRect(ins + 2 * mm, ins + 2 * mm, w - 2 * ins - 4 * mm, h - 2 * ins - 4 * mm,
                         radius * 0.7, stroke=1, fill=0)
    else:
        # light tint, diagonal hatching in the deck colour, a frame band 2.5 mm wide inside the border
        tint = _mix(back_colour, colors.white, 0.9)
        canvas.setFillColor(tint)
        canvas.roundRect(ins, ins, w - 2 * ins, h - 2 * ins, radius, stroke=0, fill=1)
        canvas.saveState()
        clip = canvas.beginPath()
        clip.roundRect(ins, ins, w - 2 * ins, h - 2 * ins, radius)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.setStrokeColor(_mix(back_colour, colors.white, 0.72))
        canvas.setLineWidth(0.5)
        step = 3 * mm
        k = -h
        while k < w:
            canvas.line(k, 0, k + h, h)
            k += step
        canvas.restoreState()
        canvas.setStrokeColor(back_colour)
        canvas.setLineWidth(2.2 * mm)
        band = ins + 1.1 * mm + 0.8 * mm
        canvas.roundRect(band, band, w - 2 * band, h - 2 * band, radius, stroke=1, fill=0)
        # a clear panel behind the text
        kif, fh = text
        canvas.setFillColor(colors.white)
        canvas.setStrokeColor(_mix(back_colour, colors.white, 0.4))
        canvas.setLineWidth(0.6)
        canvas.roundRect(ins + 5 * mm, (h - fh) / 2 - 3 * mm, w - 2 * (ins + 5 * mm), fh + 6 * mm, 2 * mm,
                         stroke=1, fill=1)
    # a suit in each corner
    suit_size = st.size.base_font * 1.3
    canvas.setFont(FONT, suit_size)
    if st.grayscale:
        canvas.setFillColor(ink)
    elif st.back_style == "solid":
        canvas.setFillColor(_mix(back_colour, colors.white, 0.65))
    else:
        canvas.setFillColor(colors.white)
    off = ins + 2 * mm + suit_size * 0.45
    for x, y, suit in ((off, h - off - suit_size * 0.7, "♠"), (w - off, h - off - suit_size * 0.7, "♥"),
                       (off, off, "♣"), (w - off, off, "♦")):
        canvas.drawCentredString(x, y, suit)
    # title, text and system in the middle
    kif, fh = text
    inner_w = w - 2 * (ins + 6 * mm)
    frame = Frame(ins + 6 * mm, (h - fh) / 2 - 1, inner_w, fh + 2, leftPadding=0, rightPadding=0,
                  topPadding=0, bottomPadding=0, showBoundary=0, id=f"back-{deck.id}")
    frame.add(kif, canvas)


# ---------------------------------------------------------------------------------------------- page layout


@dataclass(frozen=True)
class Grid:
    """Where the slots sit on a page (points, page coordinates): a slot holds one card, or one front+back
    pair in the fold-over layout. Cards touch (shared cut lines) unless there is a bleed: then
    ``gutter`` = 2 × bleed. Everything, bleed included, lies inside the safe ``margin``.
    ``rotated``: cards lie on their side (90°)."""

    page_w: float
    page_h: float
    card_w: float  # footprint of one card on the page (after rotation)
    card_h: float
    cols: int
    rows: int
    gutter: float
    left: float
    bottom: float
    rotated: bool
    pair: bool  # fold-over: each slot is two cards side by side
    margin: float
    bleed: float
    stock: bool = False  # one card per page on card stock (no cut marks)

    @property
    def slot_w(self) -> float:
        return self.card_w * (2 if self.pair else 1)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def width(self) -> float:
        return self.cols * self.slot_w + (self.cols - 1) * self.gutter

    @property
    def height(self) -> float:
        return self.rows * self.card_h + (self.rows - 1) * self.gutter

    def slot_origin(self, index: int) -> tuple[float, float]:
        """Lower-left corner of slot ``index`` (row by row from the top left)."""
        row, col = divmod(index, self.cols)
        top = self.bottom + self.height
        x = self.left + col * (self.slot_w + self.gutter)
        y = top - (row + 1) * self.card_h - row * self.gutter
        return x, y


def _fit_count(avail: float, item: float, gutter: float) -> int:
    if item > avail:
        return 0
    return int((avail + gutter) // (item + gutter))


def plan_grid(paper: str, size: str, layout: str = "fronts", setup: PrintSetup | None = None) -> Grid:
    """The most cards per page inside the safe margin (portrait paper; cards upright or on their side,
    upright on a tie), centred. ``paper`` "card": one card per page on card stock of the card's size."""
    setup = setup or PrintSetup()
    card = _card_size(size)
    margin, bleed = setup.margin_pt, setup.bleed_pt
    pair = layout == "fold"
    if paper == CARD_STOCK:
        if size not in CARD_STOCK_SIZES:
            raise DeckError(f"card stock printing takes {', '.join(CARD_STOCK_SIZES)} cards (3×5 in, 4×6 in, A6), "
                            f"not {card.label}: print {size} cards on A4 or Letter and cut them out")
        if pair:
            raise DeckError("card stock takes one card per page: print the backs on the other side "
                            "(duplex backs) instead of the fold-over layout")
        return Grid(card.width, card.height, card.width, card.height, 1, 1, 0.0, 0.0, 0.0, False, False,
                    margin, 0.0, stock=True)
    page_w, page_h = paper_size(paper)
    gutter = 2 * bleed
    best: Grid | None = None
    for rotated in (False, True):
        cw, ch = (card.height, card.width) if rotated else (card.width, card.height)
        slot_w = cw * (2 if pair else 1)
        avail_w = page_w - 2 * (margin + bleed)
        avail_h = page_h - 2 * (margin + bleed)
        cols, rows = _fit_count(avail_w, slot_w, gutter), _fit_count(avail_h, ch, gutter)
        if cols * rows == 0:
            continue
        width = cols * slot_w + (cols - 1) * gutter
        height = rows * ch + (rows - 1) * gutter
        grid = Grid(page_w, page_h, cw, ch, cols, rows, gutter, (page_w - width) / 2, (page_h - height) / 2,
                    rotated, pair, margin, bleed)
        if best is None or grid.per_page > best.per_page:
            best = grid
    if best is None:
        if pair:
            raise DeckError(f"a front-and-back pair of {card.label} cards does not fit on {paper} paper inside "
                            f"a {setup.margin:g} mm margin: use duplex backs instead of the fold-over layout")
        raise DeckError(f"a {card.label} card does not fit on {paper} paper inside a {setup.margin:g} mm margin")
    return best


def _cut_lines(grid: Grid, slots: Sequence[int]) -> tuple[list[float], list[float]]:
    """The x of every vertical and the y of every horizontal cut line of the cards in ``slots``."""
    xs: set[float] = set()
    ys: set[float] = set()
    for slot in slots:
        x, y = grid.slot_origin(slot)
        xs.update((round(x, 3), round(x + grid.slot_w, 3)))
        ys.update((round(y, 3), round(y + grid.card_h, 3)))
    return sorted(xs), sorted(ys)


def _page_marks(canvas: Canvas, grid: Grid, slots: Sequence[int], dx: float = 0.0, dy: float = 0.0,
                fold_xs: Sequence[float] = ()) -> None:
    """Cut marks in line with every cut line, outside the block of cards (past its bleed), only where the
    room between the block and the safe margin allows a mark of at least MIN_MARK; fold marks (dashed) in
    line with the fold of each fold-over pair. ``dx``/``dy``: the duplex offset of a back page (marks move
    with the cards, still never closer to the edge than the margin)."""
    if grid.stock or not slots:
        return
    xs, ys = _cut_lines(grid, slots)
    left, right = grid.left - grid.bleed + dx, grid.left + grid.width + grid.bleed + dx
    bottom, top = grid.bottom - grid.bleed + dy, grid.bottom + grid.height + grid.bleed + dy
    m = grid.margin

    def reach(room: float) -> float:
        length = min(CUT_MARK, room - CUT_GAP)
        return length if length >= MIN_MARK else 0.0

    up = reach(grid.page_h - m - top)
    down = reach(bottom - m)
    to_left = reach(left - m)
    to_right = reach(grid.page_w - m - right)
    canvas.saveState()
    canvas.setLineWidth(0.3)
    canvas.setStrokeColor(colors.Color(0.3, 0.3, 0.3))
    for x in xs:
        x += dx
        if up:
            canvas.line(x, top + CUT_GAP, x, top + CUT_GAP + up)
        if down:
            canvas.line(x, bottom - CUT_GAP, x, bottom - CUT_GAP - down)
    for y in ys:
        y += dy
        if to_left:
            canvas.line(left - CUT_GAP, y, left - CUT_GAP - to_left, y)
        if to_right:
            canvas.line(right + CUT_GAP, y, right + CUT_GAP + to_right, y)
    if fold_xs:
        canvas.setStrokeColor(colors.Color(0.45, 0.45, 0.45))
        canvas.setDash(1.2, 1.2)
        for x in fold_xs:
            x += dx
            if up:
                canvas.line(x, top + CUT_GAP, x, top + CUT_GAP + up)
            if down:
                canvas.line(x, bottom - CUT_GAP, x, bottom - CUT_GAP - down)
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
                    progress: Progress | None = None, title: str = "Play-aid cards",
                    setup: PrintSetup | None = None, rules: Any = None) -> CardsPdf:
    """Write ``cards`` (in order) as a PDF to ``output`` (a path or a binary file object).

    ``decks`` maps deck ids to decks (or pass the DeckLibrary): it gives each card's colour and back face.
    ``layout``: "fronts" (fronts only), "backs" (each page of fronts followed by its page of backs, mirrored
    left-right for duplex printing flipped on the long edge) or "fold" (front and back side by side; cut
    around the pair and fold on the dashed mark). ``paper`` None: :func:`default_paper`; "card": one card per
    page on card stock of the card's size. ``setup``: safe margin, bleed, duplex offset and back style
    (:class:`PrintSetup`). ``rules``: a campaign's :class:`~campaign_app.rules.tables.CardRules` (thresholds,
    objective XP, replacement leader, reward dice ...); None prints the default rules, and every card that
    depends on them says which. ``progress(done, total)`` is called after each card. Raises CardFitError (naming
    the card) when a card does not fit, DeckError for a bad size, paper or layout; nothing is written then.
    """
    if layout not in LAYOUTS:
        raise DeckError(f"unknown layout {layout!r}: use one of {', '.join(LAYOUTS)}")
    if not cards:
        raise DeckError("no cards to print")
    setup = setup or PrintSetup()
    card_size = _card_size(size)
    paper = (paper or default_paper()).lower()
    if paper != CARD_STOCK:
        try:
            paper_size(paper)
        except Refused as exc:
            raise DeckError(f"{exc} (or {CARD_STOCK} for card stock)") from None
    deck_map = _decks_of(decks)
    for card in cards:
        if card.deck_id not in deck_map:
            raise DeckError(f"card {card.full_id}: its deck {card.deck_id!r} was not given")
    register_fonts()
    from ..rules.tables import CardRules

    rules = rules if rules is not None else CardRules()
    grid = plan_grid(paper, size, layout, setup)
    inset = max(INSET, setup.margin_pt) if grid.stock else INSET
    bleed = 0.0 if grid.stock else setup.bleed_pt

    # Lay every card out first (on a scratch canvas) so that a card that does not fit stops the build
    # before anything is written.
    import io

    scratch = font_canvas(io.BytesIO(), FONT)
    base_styles: dict[str, _Style] = {}
    laid: list[_Laid] = []
    for card in cards:
        st = base_styles.get(card.deck_id)
        if st is None:
            st = base_styles[card.deck_id] = _style(card_size, deck_map[card.deck_id], grayscale, 1.0, inset,
                                                    bleed, setup.back_style)
        try:
            laid.append(_lay_out_grown(card, deck_map[card.deck_id], st, scratch, rules, rules.note))
        except CardFitError:
            raise
        except (Refused, ValueError) as exc:  # ValueError: reportlab refusing the markup of the card's text
            raise DeckError(f"card {card.full_id} ({card.source}): {exc}") from None

    target = os.fspath(output) if isinstance(output, str | os.PathLike) else output
    canvas = font_canvas(target, FONT, MIN_FONT, pagesize=(grid.page_w, grid.page_h), page_compression=True)
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
    dx, dy = setup.offset_x * mm, setup.offset_y * mm
    total = len(cards)
    pages = 0
    for start in range(0, total, grid.per_page):
        chunk = list(range(start, min(start + grid.per_page, total)))
        slots = list(range(len(chunk)))
        # fronts (and, for fold-over, the backs beside them)
        for slot, i in enumerate(chunk):
            card, lay = cards[i], laid[i]
            st = lay.style
            x, y = grid.slot_origin(slot)
            index = position.get(card.full_id, 0)
            count = numbers.get(card.deck_id, 0)

            def front(card: Card = card, lay: _Laid = lay, st: _Style = st, index: int = index,
                      count: int = count) -> None:
                _draw_front(canvas, card, deck_map[card.deck_id], st, lay, index, count)

            _place(canvas, grid, x, y, rotation, front)
            if grid.pair:
                deck = deck_map[card.deck_id]
                bst = base_styles[card.deck_id]
                back = backs.get(deck.id) or backs.setdefault(deck.id, _back_text(deck, bst, scratch))
                _place(canvas, grid, x + grid.card_w, y, -rotation,
                       partial(_draw_back, canvas, deck, bst, back))
            if progress is not None:
                progress(i + 1, total)
        folds = [grid.slot_origin(slot)[0] + grid.card_w for slot in slots] if grid.pair else []
        _page_marks(canvas, grid, slots, fold_xs=folds)
        canvas.showPage()
        pages += 1
        if layout == "backs":
            for slot, i in enumerate(chunk):
                card = cards[i]
                x, y = grid.slot_origin(slot)
                mirrored_x = grid.page_w - x - grid.slot_w
                deck = deck_map[card.deck_id]
                bst = base_styles[card.deck_id]
                back = backs.get(deck.id) or backs.setdefault(deck.id, _back_text(deck, bst, scratch))
                _place(canvas, grid, mirrored_x + dx, y + dy, -rotation,
                       partial(_draw_back, canvas, deck, bst, back))
            mirrored = [grid.cols * (s // grid.cols) + (grid.cols - 1 - s % grid.cols) for s in slots]
            _page_marks(canvas, grid, mirrored, dx, dy)
            canvas.showPage()
            pages += 1
    canvas.save()
    return CardsPdf(pages=pages, cards=total, per_page=grid.per_page, rotated=grid.rotated, paper=paper,
                    size=size, layout=layout, fits=[lay.fit for lay in laid],
                    setup={**setup.to_dict(), "rules": rules.note})


# ---------------------------------------------------------------------------------------------- alignment


def build_alignment_test(output: str | os.PathLike[str] | IO[bytes], *, paper: str | None = None,
                         size: str = DEFAULT_SIZE, setup: PrintSetup | None = None) -> int:
    """A one-sheet duplex alignment test: the front page has the card outlines and, at the middle of the
    page, a cross with a millimetre scale in x and y; the back page has a cross alone, drawn where a
    perfectly aligned printer puts it (the setup's current offset applied). Print both sides, hold the
    sheet against the light and read on the scales where the back's cross falls: those are the x and y
    (mm) to enter as the duplex offset, with the opposite sign. Returns the number of pages (2)."""
    setup = setup or PrintSetup()
    paper = (paper or default_paper()).lower()
    register_fonts()
    grid = plan_grid(paper, size, "backs", setup)
    target = os.fspath(output) if isinstance(output, str | os.PathLike) else output
    canvas = font_canvas(target, FONT, MIN_FONT, pagesize=(grid.page_w, grid.page_h), page_compression=True)
    canvas.setTitle("Duplex alignment test")
    canvas.setAuthor("campaign_app")
    canvas.setCreator("campaign_app")
    cx, cy = grid.page_w / 2, grid.page_h / 2
    span = 10  # mm each way

    def cross(x: float, y: float, width: float) -> None:
        canvas.setLineWidth(width)
        canvas.line(x - (span + 2) * mm, y, x + (span + 2) * mm, y)
        canvas.line(x, y - (span + 2) * mm, x, y + (span + 2) * mm)
        canvas.circle(x, y, 1.5 * mm, stroke=1, fill=0)

    # front: outlines of the card slots, the cross and its scales
    canvas.setStrokeColor(colors.Color(0.6, 0.6, 0.6))
    canvas.setLineWidth(0.3)
    for slot in range(grid.per_page):
        x, y = grid.slot_origin(slot)
        canvas.rect(x, y, grid.slot_w, grid.card_h, stroke=1, fill=0)
    _page_marks(canvas, grid, list(range(grid.per_page)))
    lines = [
        "Duplex alignment test: print this sheet on both sides (flip on the long edge), as you print cards.",
        "Hold it against the light. Where the back's cross falls on the scales shows the printer's shift;",
        "enter the opposite numbers as the duplex offset (x to the right, y up, in mm) and print again.",
        f"Now: {paper}, {CARD_SIZES[size].label}, safe margin {setup.margin:g} mm, duplex offset "
        f"x {setup.offset_x:+g} mm, y {setup.offset_y:+g} mm.",
    ]
    # a white panel over the card outlines holds the cross, its scales and the instructions, so no cut line
    # runs through the text or the scales
    text_top = cy - (span + 14) * mm
    text_w = max(stringWidth(line, FONT, 8) for line in lines)
    pad = 3 * mm
    panel_w = max(text_w, 2 * (span + 8) * mm) + 2 * pad
    panel_top = cy + (span + 4) * mm
    panel_bottom = text_top - 10 * (len(lines) - 1) - 3 - pad
    canvas.setFillColor(colors.white)
    canvas.setStrokeColor(colors.Color(0.8, 0.8, 0.8))
    canvas.setLineWidth(0.3)
    canvas.rect(cx - panel_w / 2, panel_bottom, panel_w, panel_top - panel_bottom, stroke=1, fill=1)
    canvas.setStrokeColor(colors.black)
    canvas.setFillColor(colors.black)
    cross(cx, cy, 0.4)
    canvas.setFont(FONT, MIN_FONT)
    # the scales read like a ruler's: x numbers in a row under the cross, y numbers in a column to its right,
    # each in line with its tick, so no two labels (nor a label and an axis) meet
    for k in range(-span, span + 1):
        tick = (2.2 if k % 5 == 0 else 1.2) * mm
        canvas.setLineWidth(0.3)
        canvas.line(cx + k * mm, cy - tick, cx + k * mm, cy + tick)
        canvas.line(cx - tick, cy + k * mm, cx + tick, cy + k * mm)
        if k and k % 5 == 0:
            canvas.drawCentredString(cx + k * mm, cy - (span + 2) * mm - MIN_FONT - 1, f"{k:+d}")
            canvas.drawString(cx + (span + 2) * mm + 2, cy + k * mm - MIN_FONT * 0.35, f"{k:+d}")
    canvas.setFont(FONT, 8)
    y = text_top
    for line in lines:
        canvas.drawCentredString(cx, y, line)
        y -= 10
    canvas.showPage()
    # back: the cross alone, mirrored position (the middle stays the middle) plus the offset
    canvas.setStrokeColor(colors.Color(0.75, 0.1, 0.1))
    cross(cx + setup.offset_x * mm, cy + setup.offset_y * mm, 0.6)
    canvas.setFillColor(colors.Color(0.75, 0.1, 0.1))
    canvas.setFont(FONT, 8)
    canvas.drawCentredString(cx + setup.offset_x * mm, cy + setup.offset_y * mm - (span + 6) * mm,
                             "back of the alignment test")
    canvas.showPage()
    canvas.save()
    return 2
