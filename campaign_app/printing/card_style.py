"""How a play-aid card looks: the type sizes, inks and colours of one card (grayscale for ink saving) and the
light markup (``**bold**``, red suits) its text may use."""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from .decks import Deck, DeckError
from .fonts import FONT, FONT_BOLD
from .sizes import CARD_SIZES, CardSize
from .typeset import keep_dice_codes

MIN_FONT = 7.0
"""The smallest text a card may print (points)."""


INSET = 1.5 * mm  # border inside the cut line, so an uneven cut does not show
PAD = 1.9 * mm  # text inside the border


# ---------------------------------------------------------------------------------------------- styles


def hex_colour(colour: str) -> colors.Color:
    return colors.HexColor(colour)


def mix(colour: colors.Color, toward: colors.Color, amount: float) -> colors.Color:
    return colors.Color(
        colour.red + (toward.red - colour.red) * amount,
        colour.green + (toward.green - colour.green) * amount,
        colour.blue + (toward.blue - colour.blue) * amount,
    )


def gray_of(colour: colors.Color) -> colors.Color:
    y = 0.299 * colour.red + 0.587 * colour.green + 0.114 * colour.blue
    return colors.Color(y, y, y)


@dataclass(frozen=True)
class CardStyle:
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
        return min(
            self.body.fontSize,
            self.heading.fontSize,
            self.bullet.fontSize,
            self.cell.fontSize,
            self.head_cell.fontSize,
            self.caption.fontSize,
        )


def style_for(
    size: CardSize,
    deck: Deck,
    grayscale: bool,
    factor: float = 1.0,
    inset: float = INSET,
    bleed: float = 0.0,
    back_style: str = "pattern",
) -> CardStyle:
    base = size.base_font * factor
    accent = hex_colour(deck.back.colour)
    if grayscale:
        accent = gray_of(accent)
    ink = colors.black
    body = ParagraphStyle(
        "body",
        fontName=FONT,
        fontSize=base,
        leading=base * 1.18,
        textColor=ink,
        spaceBefore=base * 0.3,
        alignment=TA_LEFT,
    )
    heading = ParagraphStyle(
        "heading",
        parent=body,
        fontName=FONT_BOLD,
        fontSize=base + 0.5,
        leading=(base + 0.5) * 1.2,
        spaceBefore=base * 0.55,
        spaceAfter=0,
        textColor=ink if grayscale else mix(accent, colors.black, 0.35),
    )
    # reportlab starts a bullet's first line at bulletIndent + bullet width + 0.6 em when that is beyond
    # leftIndent: indent the wrapped lines exactly that far, so that every line of the item starts together
    bullet_indent = base * 0.15
    bullet = ParagraphStyle(
        "bullet",
        parent=body,
        bulletIndent=bullet_indent,
        leftIndent=bullet_indent + stringWidth("•", FONT, base) + base * 0.6,
        spaceBefore=base * 0.15,
        bulletFontName=FONT,
    )
    cell_size = base - 0.5
    cell = ParagraphStyle("cell", fontName=FONT, fontSize=cell_size, leading=cell_size * 1.12, textColor=ink)
    head_cell = ParagraphStyle("head_cell", parent=cell, fontName=FONT_BOLD)
    caption = ParagraphStyle("caption", parent=cell, textColor=colors.Color(0.25, 0.25, 0.25), spaceBefore=base * 0.2)
    title_colour = ink if grayscale else colors.white
    title = ParagraphStyle(
        "title",
        fontName=FONT_BOLD,
        fontSize=base + 1.5,
        leading=(base + 1.5) * 1.12,
        textColor=title_colour,
        alignment=TA_LEFT,
    )
    return CardStyle(
        size,
        grayscale,
        inset,
        bleed,
        back_style,
        factor,
        accent,
        body,
        heading,
        bullet,
        cell,
        head_cell,
        caption,
        title,
    )


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


def lookup_card_size(size: str) -> CardSize:
    try:
        return CARD_SIZES[size]
    except KeyError:
        raise DeckError(f"unknown card size {size!r}: use one of {', '.join(CARD_SIZES)}") from None
