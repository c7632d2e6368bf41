"""One play-aid card: its title, text and footer laid out to fit (shrinking to at most :data:`MIN_FONT`), its
front and its back drawn on a canvas, and the fit check."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, KeepInFrame, Paragraph

from .card_content import ShrinkToFit, card_flowables
from .card_style import MIN_FONT, PAD, CardStyle, gray_of, hex_colour, lookup_card_size, markup, mix, style_for
from .decks import Card, Deck, DeckError
from .fonts import FONT, FONT_BOLD, register_fonts
from .rltyped import font_canvas
from .sizes import DEFAULT_SIZE


class CardFitError(DeckError):
    """A card whose text does not fit its card even at the minimum font size."""


@dataclass(frozen=True)
class Fit:
    """How a card's text fits: ``scale`` >= 1 is the shrink factor, ``min_font`` the smallest size printed."""

    card: str
    scale: float
    min_font: float


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


def _title_paragraph(card: Card, st: CardStyle, width: float) -> Paragraph:
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
    raise CardFitError(
        f"card {card.full_id} ({card.source}): the title {card.title!r} needs more than two "
        f"lines on a {st.size.label} card; shorten it"
    )


@dataclass
class LaidOut:
    title: Paragraph
    title_h: float
    header_h: float
    kif: KeepInFrame
    body_box: tuple[float, float, float, float]  # x, y, w, h in card coordinates
    fit: Fit
    style: CardStyle


def _footer_size(st: CardStyle) -> float:
    return MIN_FONT


def _strip_width(card: Card) -> float:
    """The phase strip along the card's left edge (0 when the card has no phase)."""
    return MIN_FONT * 1.05 if card.phase else 0.0


PHASE_COLOURS: dict[str, str] = {
    "setup": "#2e7d32",
    "turn": "#1f5fa8",
    "action": "#b35c00",
    "aftermath": "#a12b2b",
    "campaign": "#6a3d9a",
    "reference": "#5a5a5a",
}
"""The colour strip of each phase (the same on every deck, so a glance finds the turn cards)."""


def _lay_out(card: Card, st: CardStyle, canvas: Canvas, rules: Any = None, rules_note: str = "") -> LaidOut:
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
    kif = ShrinkToFit(inner_w, body_h, content=content, mode="shrink", fakeWidth=False, name=card.full_id)
    kif.canv = canvas
    w, h = kif.wrap(inner_w, body_h)
    scale = float(getattr(kif, "_scale", 1.0))
    min_font = min(st.smallest / scale, _footer_size(st))
    if min_font < MIN_FONT - 1e-6 or h > body_h + 0.5 or w > inner_w + 0.5:
        raise CardFitError(
            f"card {card.full_id} ({card.title!r}, {card.source}) does not fit a {size.label} card: its text "
            f"would have to shrink to {st.smallest / scale:.1f} pt, below the {MIN_FONT:g} pt minimum; shorten "
            f"it or split it into two cards"
        )
    fit = Fit(card.full_id, scale, min_font)
    return LaidOut(title, title_h, header_h, kif, (st.inset + PAD + strip, body_bottom, inner_w, body_h), fit, st)


def lay_out_grown(
    card: Card, deck: Deck, st: CardStyle, canvas: Canvas, rules: Any = None, rules_note: str = ""
) -> LaidOut:
    """Lay the card out at the size's base font; when its text leaves room, grow the text (up to the
    size's ``max_font``) to fill the card, as large as still fits without shrinking."""
    laid = _lay_out(card, st, canvas, rules, rules_note)
    top = st.size.max_font / st.size.base_font
    if laid.fit.scale > 1.0 + 1e-6 or top <= 1.0:
        return laid
    _, h = laid.kif.wrap(laid.body_box[2], laid.body_box[3])
    if h <= 0 or h > laid.body_box[3] * 0.92:
        return laid

    def attempt(factor: float) -> LaidOut | None:
        grown = style_for(st.size, deck, st.grayscale, factor, st.inset, st.bleed, st.back_style)
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
    return _lay_out(card, style_for(lookup_card_size(size), deck, False), canvas).fit


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


def draw_front(canvas: Canvas, card: Card, deck: Deck, st: CardStyle, laid: LaidOut, index: int, total: int) -> None:
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
        colour = hex_colour(PHASE_COLOURS.get(card.phase, "#5a5a5a"))
        if st.grayscale:
            colour = gray_of(colour)
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
        canvas.setFillColor(colors.black if st.grayscale else mix(st.accent, colors.black, 0.3))
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
    frame = Frame(
        bx,
        by,
        bw,
        bh,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        showBoundary=0,
        id=f"body-{card.full_id}",
    )
    if not frame.add(laid.kif, canvas):  # pragma: no cover - _lay_out already proved it fits
        raise CardFitError(f"card {card.full_id} does not fit its frame")


def _back_ink(deck: Deck, st: CardStyle) -> colors.Color:
    if st.grayscale:
        return colors.black
    if st.back_style == "solid":
        return colors.white
    return mix(hex_colour(deck.back.colour), colors.black, 0.2)


def back_text(deck: Deck, st: CardStyle, canvas: Canvas) -> tuple[KeepInFrame, float]:
    """The back's title, text and system, shrunk to fit; built once per deck and drawn on every back."""
    size = st.size
    ink = _back_ink(deck, st)
    inner_w = size.width - 2 * (st.inset + 6 * mm)
    title_size = size.base_font * 1.8
    title_style = ParagraphStyle(
        "back_title",
        fontName=FONT_BOLD,
        fontSize=title_size,
        leading=title_size * 1.15,
        alignment=TA_CENTER,
        textColor=ink,
    )
    text_style = ParagraphStyle(
        "back_text",
        fontName=FONT,
        fontSize=size.base_font,
        leading=size.base_font * 1.25,
        alignment=TA_CENTER,
        textColor=ink,
        spaceBefore=size.base_font * 0.8,
    )
    small = max(MIN_FONT, size.base_font - 1)
    small_style = ParagraphStyle("back_system", parent=text_style, fontSize=small, leading=small * 1.2)
    flow: list[Flowable] = [Paragraph(escape(deck.back.title), title_style)]
    if deck.back.text:
        flow.append(Paragraph(markup(deck.back.text, True), text_style))
    if deck.system and deck.system != deck.back.title:
        flow.append(Paragraph(escape(deck.system), small_style))
    box_h = size.height - 2 * (st.inset + 8 * mm)
    kif = ShrinkToFit(inner_w, box_h, content=flow, mode="shrink", fakeWidth=False, name=f"back-{deck.id}")
    kif.canv = canvas
    _, fh = kif.wrap(inner_w, box_h)
    return kif, fh


def draw_back(canvas: Canvas, deck: Deck, st: CardStyle, text: tuple[KeepInFrame, float]) -> None:
    """A back: by default a light tint of the deck colour with a frame and a diagonal pattern (little ink,
    no curling, a small misalignment does not show); ``solid`` fills it with the deck colour."""
    size = st.size
    w, h = size.width, size.height
    radius = 2.5 * mm
    ins = st.inset
    back_colour = hex_colour(deck.back.colour)
    ink = _back_ink(deck, st)
    if st.grayscale:
        canvas.setStrokeColor(colors.black)
        canvas.setLineWidth(0.9)
        canvas.roundRect(ins, ins, w - 2 * ins, h - 2 * ins, radius, stroke=1, fill=0)
        canvas.setStrokeColor(colors.Color(0.55, 0.55, 0.55))
        canvas.setLineWidth(0.4)
        canvas.roundRect(
            ins + 2 * mm, ins + 2 * mm, w - 2 * ins - 4 * mm, h - 2 * ins - 4 * mm, radius * 0.7, stroke=1, fill=0
        )
    elif st.back_style == "solid":
        canvas.setFillColor(back_colour)
        if st.bleed > 0:
            canvas.rect(-st.bleed, -st.bleed, w + 2 * st.bleed, h + 2 * st.bleed, stroke=0, fill=1)
        else:
            canvas.roundRect(ins, ins, w - 2 * ins, h - 2 * ins, radius, stroke=0, fill=1)
        canvas.setStrokeColor(mix(back_colour, colors.white, 0.55))
        canvas.setLineWidth(0.6)
        canvas.roundRect(
            ins + 2 * mm, ins + 2 * mm, w - 2 * ins - 4 * mm, h - 2 * ins - 4 * mm, radius * 0.7, stroke=1, fill=0
        )
    else:
        # light tint, diagonal hatching in the deck colour, a frame band 2.5 mm wide inside the border
        tint = mix(back_colour, colors.white, 0.9)
        canvas.setFillColor(tint)
        canvas.roundRect(ins, ins, w - 2 * ins, h - 2 * ins, radius, stroke=0, fill=1)
        canvas.saveState()
        clip = canvas.beginPath()
        clip.roundRect(ins, ins, w - 2 * ins, h - 2 * ins, radius)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.setStrokeColor(mix(back_colour, colors.white, 0.72))
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
        canvas.setStrokeColor(mix(back_colour, colors.white, 0.4))
        canvas.setLineWidth(0.6)
        canvas.roundRect(
            ins + 5 * mm, (h - fh) / 2 - 3 * mm, w - 2 * (ins + 5 * mm), fh + 6 * mm, 2 * mm, stroke=1, fill=1
        )
    # a suit in each corner
    suit_size = st.size.base_font * 1.3
    canvas.setFont(FONT, suit_size)
    if st.grayscale:
        canvas.setFillColor(ink)
    elif st.back_style == "solid":
        canvas.setFillColor(mix(back_colour, colors.white, 0.65))
    else:
        canvas.setFillColor(colors.white)
    off = ins + 2 * mm + suit_size * 0.45
    for x, y, suit in (
        (off, h - off - suit_size * 0.7, "♠"),
        (w - off, h - off - suit_size * 0.7, "♥"),
        (off, off, "♣"),
        (w - off, off, "♦"),
    ):
        canvas.drawCentredString(x, y, suit)
    # title, text and system in the middle
    kif, fh = text
    inner_w = w - 2 * (ins + 6 * mm)
    frame = Frame(
        ins + 6 * mm,
        (h - fh) / 2 - 1,
        inner_w,
        fh + 2,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        showBoundary=0,
        id=f"back-{deck.id}",
    )
    frame.add(kif, canvas)
