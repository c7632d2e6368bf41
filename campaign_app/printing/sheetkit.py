"""Shared pieces of the printed sheets and reports (Unit Data Sheet, Sologear forms, history report).

Every page is drawn in the embedded DejaVu Sans (``fonts.register_fonts``); the canvas starts in it too, so no
built-in (non-embedded) PDF font is ever referenced. ``invariant=True`` makes reportlab leave the creation
date and document id out, so identical input gives byte-identical PDFs (the print date on the page comes from
the caller).
"""

from __future__ import annotations

import datetime as _dt
import io
from collections.abc import Callable, Sequence
from typing import Any

from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from .fonts import FONT, FONT_BOLD, register_fonts
from .paper import default_paper, paper_size
from .rltyped import font_canvas
from .typeset import keep_dice_codes

INK = colors.HexColor("#1a1a1a")
MID = colors.HexColor("#6b6b6b")
LIGHT = colors.HexColor("#b8b8b8")
FAINT = colors.HexColor("#e6e6e6")
ACCENT = colors.HexColor("#3b4a5a")
ACCENT_LIGHT = colors.HexColor("#dde3ea")

CREATOR = "campaign_app"


def resolve_paper(paper: str | None) -> tuple[str, tuple[float, float]]:
    """(name, (width, height)) for ``paper`` or, when None, the locale's default paper."""
    name = (paper or default_paper()).lower()
    return name, paper_size(name)


def new_canvas(
    buffer: io.BytesIO, pagesize: tuple[float, float], title: str, subject: str = "", invariant: bool = True
) -> Canvas:
    """A canvas that starts in DejaVu Sans (so Helvetica is never referenced) with the document's metadata."""
    register_fonts()
    canvas = font_canvas(buffer, FONT, 10, pagesize=pagesize, invariant=invariant)
    canvas.setTitle(title)
    canvas.setAuthor(CREATOR)
    canvas.setCreator(CREATOR)
    if subject:
        canvas.setSubject(subject)
    return canvas


def canvas_maker(title: str, subject: str = "", invariant: bool = True) -> Callable[..., Canvas]:
    """A ``canvasmaker`` for platypus document templates with the same settings as :func:`new_canvas`."""
    register_fonts()

    def make(*args: Any, **kwargs: Any) -> Canvas:
        kwargs["invariant"] = 1 if invariant else 0
        # platypus passes initialFontName=None explicitly: None would mean Helvetica
        if not kwargs.get("initialFontName"):
            kwargs["initialFontName"] = FONT
        if not kwargs.get("initialFontSize"):
            kwargs["initialFontSize"] = 10
        from .stamp import StampingCanvas  # every PDF of the app carries the print stamp when one is set

        canvas = StampingCanvas(*args, **kwargs)
        canvas.setTitle(title)
        canvas.setAuthor(CREATOR)
        canvas.setCreator(CREATOR)
        if subject:
            canvas.setSubject(subject)
        return canvas

    return make


def new_drawing(width: float, height: float) -> Drawing:
    """A reportlab graphics Drawing whose initial font is DejaVu Sans (the default would put a non-embedded
    Helvetica into the PDF)."""
    register_fonts()
    return Drawing(width, height, initialFontName=FONT, initialFontSize=10)


def print_date_text(printed_on: _dt.date | None) -> str:
    day = printed_on or _dt.date.today()
    return f"Printed {day.isoformat()}"


def styles() -> dict[str, ParagraphStyle]:
    """The paragraph styles the sheets share (all DejaVu Sans)."""
    register_fonts()
    base = ParagraphStyle("body", fontName=FONT, fontSize=8.5, leading=10.5, textColor=INK)
    return {
        "body": base,
        "small": ParagraphStyle("small", parent=base, fontSize=7.5, leading=9),
        "tiny": ParagraphStyle("tiny", parent=base, fontSize=7, leading=8.5, textColor=MID),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8, leading=9.5),
        "cell_bold": ParagraphStyle("cell_bold", parent=base, fontName=FONT_BOLD, fontSize=8, leading=9.5),
        "head": ParagraphStyle(
            "head", parent=base, fontName=FONT_BOLD, fontSize=7.5, leading=9, textColor=colors.white
        ),
        "section": ParagraphStyle(
            "section",
            parent=base,
            fontName=FONT_BOLD,
            fontSize=10,
            leading=13,
            textColor=ACCENT,
            spaceBefore=6,
            spaceAfter=3,
        ),
        "title": ParagraphStyle("title", parent=base, fontName=FONT_BOLD, fontSize=18, leading=22),
        "subtitle": ParagraphStyle("subtitle", parent=base, fontSize=10, leading=13, textColor=MID),
        "center": ParagraphStyle("center", parent=base, alignment=TA_CENTER),
    }


def esc(text: object) -> str:
    """Text made safe for a reportlab Paragraph (its mini-markup), dice codes kept on one line."""
    return keep_dice_codes(str(text)).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def grid_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    widths: Sequence[float],
    *,
    align_right: Sequence[int] = (),
    total_row: bool = False,
    empty_rows: int = 0,
    row_height: float | None = None,
    empty_row_height: float = 16.0,
    st: dict[str, ParagraphStyle] | None = None,
    repeat_header: bool = True,
    heights: Sequence[float | None] | None = None,
) -> Table:
    """A ruled table with a dark header row; cells wrap (Paragraphs). ``empty_rows`` adds blank ruled rows
    to fill in by hand (``empty_row_height`` tall); ``row_height`` fixes the height of the filled rows;
    ``heights`` overrides every row's height (header first); ``total_row`` sets the last row in bold on a light band."""
    st = st or styles()
    data: list[list[object]] = [[Paragraph(esc(h), st["head"]) for h in headers]]
    for r_index, row in enumerate(rows):
        bold = total_row and r_index == len(rows) - 1
        data.append(
            [Paragraph(esc(c), st["cell_bold" if bold else "cell"]) if not isinstance(c, Paragraph) else c for c in row]
        )
    for _ in range(empty_rows):
        data.append([""] * len(headers))
    if heights is None:
        heights = [None] + [row_height] * len(rows) + [empty_row_height] * empty_rows
    table = Table(data, colWidths=list(widths), rowHeights=list(heights), repeatRows=1 if repeat_header else 0)
    commands: list[tuple[Any, ...]] = [
        ("BACKGROUND", (0, 0), (-1, 0), ACCENT),
        ("GRID", (0, 0), (-1, -1), 0.5, LIGHT),
        ("BOX", (0, 0), (-1, -1), 0.8, INK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("FONTNAME", (0, 0), (-1, -1), FONT),
    ]
    for col in align_right:
        commands.append(("ALIGN", (col, 1), (col, -1), "RIGHT"))
    if total_row and rows:
        commands.append(("BACKGROUND", (0, len(rows)), (-1, len(rows)), ACCENT_LIGHT))
    table.setStyle(TableStyle(commands))
    return table


def content_widths(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    total: float,
    minimum: Sequence[float] = (),
    size: float = 8.0,
    padding: float = 6.0,
) -> list[float]:
    """Column widths from the content, filling ``total``: each column wants its longest line (header in bold,
    cells at ``size``); when they all fit, the spare width is shared in proportion; when not, every column
    keeps at least its longest word (and ``minimum[i]`` × total, for columns left empty to write in) and the
    rest goes to the columns that want more, in proportion to how much more."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    n = len(headers)
    floor = [total * (minimum[i] if i < len(minimum) else 0.0) for i in range(n)]
    natural = [stringWidth(str(h), FONT_BOLD, size) + padding for h in headers]
    shortest = [max(stringWidth(w, FONT_BOLD, size) for w in str(h).split() or [""]) + padding for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            text = str(cell)
            natural[i] = max(natural[i], stringWidth(text, FONT, size) + padding)
            longest = max((stringWidth(w, FONT, size) for w in text.split()), default=0.0)
            shortest[i] = max(shortest[i], longest + padding)
    natural = [max(a, b) for a, b in zip(natural, floor, strict=True)]
    least = [min(max(a, b), total / n * 2) for a, b in zip(shortest, floor, strict=True)]
    if sum(natural) <= total:
        spare = total - sum(natural)
        return [w + spare * w / sum(natural) for w in natural]
    if sum(least) >= total:
        return [total * w / sum(least) for w in least]
    want = [max(0.0, a - b) for a, b in zip(natural, least, strict=True)]
    spare = total - sum(least)
    return [b + spare * w / (sum(want) or 1.0) for b, w in zip(least, want, strict=True)]


SECTION_HEIGHT = 17.0


def draw_section(canvas: Canvas, x: float, y: float, width: float, title: str, note: str = "") -> float:
    """A section heading (capitals in the accent colour, an optional small note on the right, a thin rule)
    whose top is at ``y``; returns the y just below it."""
    canvas.saveState()
    canvas.setFont(FONT_BOLD, 9.5)
    canvas.setFillColor(ACCENT)
    canvas.drawString(x, y - 10, title.upper())
    if note:
        canvas.setFont(FONT, 7)
        canvas.setFillColor(MID)
        canvas.drawRightString(x + width, y - 10, note)
    canvas.setStrokeColor(ACCENT)
    canvas.setLineWidth(0.6)
    canvas.line(x, y - 13, x + width, y - 13)
    canvas.restoreState()
    return y - SECTION_HEIGHT


class SectionHeading(Flowable):
    """:func:`draw_section` as a platypus flowable, kept on the page of what follows it (for a long table
    that will split anyway, pass ``keep_with_next=False`` and put a ``CondPageBreak`` before it)."""

    def __init__(self, title: str, note: str = "", space_before: float = 6.0, keep_with_next: bool = True) -> None:
        super().__init__()
        self.title = title
        self.note = note
        self.space_before = space_before
        self.keepWithNext = keep_with_next

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width
        return avail_width, SECTION_HEIGHT + self.space_before

    def draw(self) -> None:
        draw_section(self.canv, 0, SECTION_HEIGHT, self.width, self.title, self.note)


class NotesBox(Flowable):
    """A section heading (``title``) over a framed box with ruled lines that takes the rest of the frame's
    height (at least ``min_height``), with ``text`` (if any) printed at the top of the box."""

    def __init__(
        self, title: str, text: str = "", min_height: float = 60.0, line_gap: float = 16.0, space_before: float = 10.0
    ) -> None:
        super().__init__()
        self.title = title
        self.space_before = space_before
        self.text = text
        self.min_height = min_height
        self.line_gap = line_gap
        self._para: Paragraph | None = None
        self._para_h = 0.0

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width
        self.height = max(self.min_height, avail_height - 8)
        self.box_height = self.height - self.space_before - SECTION_HEIGHT - 2
        if self.text:
            self._para = Paragraph(esc(self.text).replace("\n", "<br/>"), styles()["body"])
            _w, self._para_h = self._para.wrap(avail_width - 12, self.box_height)
        return self.width, self.height

    def draw(self) -> None:
        cv = self.canv
        draw_section(cv, 0, self.box_height + 2 + SECTION_HEIGHT, self.width, self.title)
        cv.saveState()
        cv.setStrokeColor(INK)
        cv.setLineWidth(0.8)
        cv.roundRect(0, 0, self.width, self.box_height, 3, stroke=1, fill=0)
        top = self.box_height - 4
        if self._para is not None:
            self._para.drawOn(cv, 6, top - self._para_h)
            top -= self._para_h + 2
        cv.setStrokeColor(FAINT)
        cv.setLineWidth(0.5)
        y = top - self.line_gap
        while y > 6:
            cv.line(6, y, self.width - 6, y)
            y -= self.line_gap
        cv.restoreState()


NO_PADDING: tuple[tuple[Any, ...], ...] = (
    ("LEFTPADDING", (0, 0), (-1, -1), 0),
    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
    ("TOPPADDING", (0, 0), (-1, -1), 0),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
)
"""Table style commands for a layout table that only places other flowables."""


def table(
    data: Sequence[Sequence[object]],
    col_widths: Sequence[float],
    row_heights: Sequence[float | None] | None = None,
    style: Sequence[tuple[Any, ...]] = (),
) -> Table:
    """A platypus Table whose plain-text cells use DejaVu Sans (reportlab's default would be a
    non-embedded Helvetica), with ``style`` commands on top."""
    register_fonts()
    result = Table(
        [list(row) for row in data],
        colWidths=list(col_widths),
        rowHeights=list(row_heights) if row_heights is not None else None,
    )
    result.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT), *style]))
    return result


def footer(canvas: Canvas, width: float, margin: float, left: str, right: str) -> None:
    """A thin rule and one line of small text at the bottom of the page."""
    canvas.saveState()
    canvas.setStrokeColor(LIGHT)
    canvas.setLineWidth(0.5)
    canvas.line(margin, margin - 6, width - margin, margin - 6)
    canvas.setFont(FONT, 7)
    canvas.setFillColor(MID)
    canvas.drawString(margin, margin - 15, left)
    canvas.drawRightString(width - margin, margin - 15, right)
    canvas.restoreState()


def one_frame_document(
    buffer: io.BytesIO,
    size: tuple[float, float],
    margin: float,
    title: str,
    template: str,
    footer_left: str,
    footer_right: Callable[[int], str],
) -> Any:
    """A flowing document of one frame filling the page inside ``margin``, with the shared footer on every page
    (``footer_right`` gets the page number). The reports and sheets that flow over pages all start from it."""
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

    def on_page(canvas: Any, doc: Any) -> None:
        footer(canvas, size[0], margin, footer_left, footer_right(doc.page))

    doc = BaseDocTemplate(
        buffer,
        pagesize=size,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        title=title,
        author="campaign_app",
        creator="campaign_app",
    )
    frame = Frame(
        margin,
        margin,
        size[0] - 2 * margin,
        size[1] - 2 * margin,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        id="body",
    )
    doc.addPageTemplates([PageTemplate(id=template, frames=[frame], onPage=on_page)])
    return doc


def fmt_number(value: float | int | None, digits: int = 2) -> str:
    """``1350`` for whole numbers, ``2.25`` otherwise (trailing zeros dropped); ``""`` for None."""
    if value is None:
        return ""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")
