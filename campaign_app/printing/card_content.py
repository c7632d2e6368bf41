"""What a play-aid card says: its blocks (text, rule tables, boxes, fields, numbers) as reportlab flowables
that fit the card's width, rule tables read from the rules engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepInFrame, Paragraph, Spacer, Table, TableStyle

from .card_style import MIN_FONT, CardStyle, markup, mix
from .decks import Block, Card, DeckError
from .fonts import FONT, FONT_BOLD

# ---------------------------------------------------------------------------------------------- flowables


class FitTable(Flowable):
    """A table that picks its column widths when it learns the width it has: each column gets its natural
    width if everything fits, else at least its longest word, the rest shared by how much each column wants.
    Cells are paragraphs, so long cells wrap. ``widths`` (relative) overrides the automatic choice."""

    def __init__(
        self, headers: Sequence[str], rows: Sequence[Sequence[str]], style: CardStyle, widths: Sequence[float] = ()
    ) -> None:
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
        header_fill = colors.Color(0.86, 0.86, 0.86) if st.grayscale else mix(st.accent, colors.white, 0.78)
        stripe = colors.Color(0.95, 0.95, 0.95) if st.grayscale else mix(st.accent, colors.white, 0.93)
        start = 1 if self.headers else 0
        if self.headers:
            commands.append(("BACKGROUND", (0, 0), (-1, 0), header_fill))
        for r in range(start + 1, len(data), 2):
            commands.append(("BACKGROUND", (0, r), (-1, r), stripe))
        self._table = Table(
            data, colWidths=widths, style=TableStyle(commands), hAlign="LEFT", spaceBefore=st.body.fontSize * 0.35
        )
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

    def __init__(self, label: str, count: int, style: CardStyle) -> None:
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

    def __init__(self, labels: Sequence[str], style: CardStyle) -> None:
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


class ShrinkToFit(KeepInFrame):
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
            raise DeckError(
                f"rule table {block.name!r} has no {cols} {', '.join(map(repr, missing))} "
                f"(columns: {', '.join(headers)})"
            )
        idx = [headers.index(c) for c in block.columns]
        headers = tuple(headers[i] for i in idx)
        rows = [tuple(r[i] for i in idx) for r in rows]
    if block.row_range:
        first, last = block.row_range
        if last > len(rows):
            raise DeckError(f"rule table {block.name!r} has {len(rows)} rows, not {last}")
        rows = rows[first - 1 : last]
    if block.labels:
        if len(block.labels) != len(headers):
            raise DeckError(
                f"rule table {block.name!r}: 'labels' names {len(block.labels)} columns, the table "
                f"prints {len(headers)}"
            )
        headers = tuple(block.labels)
    return headers, rows


class Numbers(Flowable):
    """Key values in large numerals side by side, each with a small label under it."""

    def __init__(self, items: Sequence[str], style: CardStyle) -> None:
        super().__init__()
        self.items = [tuple(part.strip() for part in item.split("|", 1)) for item in items]
        self.st = style
        self.big = style.body.fontSize * 2.1
        self.label_style = ParagraphStyle(
            "numlabel", parent=style.caption, alignment=TA_CENTER, textColor=colors.Color(0.2, 0.2, 0.2), spaceBefore=0
        )
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
            self.label_style = ParagraphStyle(
                "numlabel_fit",
                parent=self.label_style,
                fontSize=size,
                leading=self.label_style.leading * size / self.label_style.fontSize,
            )

        def breakable(label: str) -> str:
            return " ".join(w.replace("-", "- ") if stringWidth(w, font, size) > col - 2 else w for w in label.split())

        self._labels = [
            Paragraph(markup(breakable(label), self.st.grayscale), self.label_style) for _v, label in self.items
        ]
        self._label_h = max(p.wrap(col - 2, 1000)[1] for p in self._labels)
        self.width, self.height = availWidth, self.big * 1.05 + self._label_h
        self._col = col
        return self.width, self.height

    def getSpaceBefore(self) -> float:
        return self.st.body.fontSize * 0.5

    def draw(self) -> None:
        c = self.canv
        colour = colors.black if self.st.grayscale else mix(self.st.accent, colors.black, 0.25)
        for i, ((value, _label), para) in enumerate(zip(self.items, self._labels, strict=True)):
            x = i * self._col
            size = self.big
            while size > self.st.body.fontSize and stringWidth(value, FONT_BOLD, size) > self._col - 2:
                size -= 0.5
            c.setFont(FONT_BOLD, size)
            c.setFillColor(colour)
            c.drawCentredString(x + self._col / 2, self._label_h + self.big * 0.22, value)
            para.drawOn(c, x + 1, 0)


def card_flowables(card: Card, st: CardStyle, rules: Any = None, rules_note: str = "") -> list[Flowable]:
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
        depends = (
            depends
            or any("{{" in t for t in raw_texts)
            or (block.type == "rule_table" and RULE_TABLES[block.name].house_rules)
        )
        if block.type == "heading":
            out.append(Paragraph(text(block.text), st.heading))
        elif block.type == "paragraph":
            out.append(Paragraph(text(block.text), st.body))
        elif block.type == "bullets":
            for item in block.items:
                out.append(Paragraph(text(item), st.bullet, bulletText="•"))
        elif block.type == "steps":
            width = stringWidth(f"{len(block.items)}.", FONT_BOLD, st.body.fontSize)
            step = ParagraphStyle(
                "step",
                parent=st.bullet,
                bulletFontName=FONT_BOLD,
                leftIndent=st.bullet.bulletIndent + width + st.body.fontSize * 0.6,
            )
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
        out.append(
            Paragraph(
                escape(rules_note), ParagraphStyle("rules_note", parent=st.caption, spaceBefore=st.body.fontSize * 0.5)
            )
        )
    if out and isinstance(out[0], Paragraph):
        out.insert(0, Spacer(0, 0))  # no space above the first block
    return out
