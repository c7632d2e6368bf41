"""The fonts every printed page uses: DejaVu Sans and DejaVu Sans Bold, shipped in ``printing/fonts/``.

reportlab embeds a subset of each TrueType font in the PDF, so the pages look the same on every machine and
the symbols the cards use render: dice faces ⚀–⚅, suits ♠♥♦♣, ★, arrows, ≤ ≥ −.
"""

from __future__ import annotations

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..resources import fonts_dir

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
_FILES = {FONT: "DejaVuSans.ttf", FONT_BOLD: "DejaVuSans-Bold.ttf"}


def register_fonts() -> tuple[str, str]:
    """Register both fonts with reportlab once (later calls do nothing); returns (regular, bold) names.

    The family mapping makes ``<b>`` in a Paragraph pick the bold face; there is no italic face, so italic
    maps to the upright faces rather than to a built-in (non-embedded) font.
    """
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, filename in _FILES.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(fonts_dir() / filename)))
    addMapping(FONT, 0, 0, FONT)
    addMapping(FONT, 1, 0, FONT_BOLD)
    addMapping(FONT, 0, 1, FONT)
    addMapping(FONT, 1, 1, FONT_BOLD)
    return FONT, FONT_BOLD
