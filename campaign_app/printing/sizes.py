"""Card sizes, paper names and print-safe geometry defaults, without reportlab.

The CLI parser and the GUI's print dialog read these names when they start; importing
:mod:`campaign_app.printing.cards` (reportlab) is left to the moment a PDF is built.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Refused

MM = 72 / 25.4
"""Points per millimetre."""
INCH = 72.0


@dataclass(frozen=True)
class CardSize:
    name: str
    width: float  # points, portrait
    height: float
    label: str
    base_font: float  # body text size the layout starts from
    max_font: float  # the largest body text size a card grows to when its text leaves room


CARD_SIZES: dict[str, CardSize] = {
    "poker": CardSize("poker", 63 * MM, 88 * MM, "poker 63×88 mm", 9.0, 10.0),
    "tarot": CardSize("tarot", 70 * MM, 120 * MM, "tarot 70×120 mm", 9.5, 12.5),
    "index": CardSize("index", 3 * INCH, 5 * INCH, "index card 3×5 in", 9.5, 12.5),
    "postcard": CardSize("postcard", 4 * INCH, 6 * INCH, "postcard 4×6 in", 10.0, 14.0),
    "a6": CardSize("a6", 105 * MM, 148 * MM, "A6 105×148 mm", 10.5, 14.0),
}
DEFAULT_SIZE = "poker"

PAPER_SIZES: dict[str, tuple[float, float]] = {"a4": (210 * MM, 297 * MM), "letter": (8.5 * INCH, 11 * INCH)}
"""Paper name -> (width, height) in points, portrait (the same numbers as reportlab's A4 and LETTER)."""

CARD_STOCK = "card"
"""The paper name for printing straight onto card stock: one card per page, the page the card's size."""
CARD_STOCK_SIZES: tuple[str, ...] = ("index", "postcard", "a6")
"""Card sizes sold as printable card stock (3×5 in, 4×6 in, A6)."""

SHEET_PAPERS: tuple[str, ...] = ("a4", "letter")
"""Papers for sheets, forms and reports."""
CARD_PAPERS: tuple[str, ...] = (*SHEET_PAPERS, CARD_STOCK)
"""Papers for cards: A4, Letter, or card stock of the card's own size."""

DEFAULT_MARGIN_MM = 6.5
"""Safe margin (mm): nothing is printed closer to the paper's edge (many printers cannot print the outer
5 mm; 6.35 mm is common on Letter)."""
MAX_MARGIN_MM = 25.0
DEFAULT_BLEED_MM = 0.0
MAX_BLEED_MM = 3.0
MAX_OFFSET_MM = 10.0
"""Duplex offset limit (mm) in each direction."""

BACK_STYLES: tuple[str, ...] = ("pattern", "solid")
"""Card backs: a light tint with a frame (less ink, no curling), or a solid fill."""
DEFAULT_BACK_STYLE = "pattern"


@dataclass(frozen=True)
class PrintSetup:
    """Where ink may go on the paper (all in millimetres): the safe margin, the bleed of header bands and
    backs beyond the cut line, the duplex offset added to every back page, and the backs' style."""

    margin: float = DEFAULT_MARGIN_MM
    bleed: float = DEFAULT_BLEED_MM
    offset_x: float = 0.0
    offset_y: float = 0.0
    back_style: str = DEFAULT_BACK_STYLE

    def __post_init__(self) -> None:
        checks = (
            ("safe margin", self.margin, 0.0, MAX_MARGIN_MM),
            ("bleed", self.bleed, 0.0, MAX_BLEED_MM),
            ("duplex offset x", self.offset_x, -MAX_OFFSET_MM, MAX_OFFSET_MM),
            ("duplex offset y", self.offset_y, -MAX_OFFSET_MM, MAX_OFFSET_MM),
        )
        for what, value, low, high in checks:
            if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
                raise Refused(f"{what} must be a number of millimetres, not {value!r}")
            if not low <= value <= high:
                raise Refused(f"{what} must be from {low:g} to {high:g} mm, not {value:g}")
        if self.back_style not in BACK_STYLES:
            raise Refused(f"card backs are {' or '.join(BACK_STYLES)}, not {self.back_style!r}")

    @property
    def margin_pt(self) -> float:
        return self.margin * MM

    @property
    def bleed_pt(self) -> float:
        return self.bleed * MM

    def to_dict(self) -> dict[str, float | str]:
        return {
            "margin_mm": self.margin,
            "bleed_mm": self.bleed,
            "offset_x_mm": self.offset_x,
            "offset_y_mm": self.offset_y,
            "back_style": self.back_style,
        }


def parse_mm(text: str | float | int, what: str) -> float:
    """``"6.5"``, ``"6,5"``, ``"6.5mm"`` -> 6.5; a clear Refused naming ``what`` otherwise."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        return float(text)
    raw = str(text).strip().lower().removesuffix("mm").strip().replace(",", ".").replace("\u2212", "-")
    try:
        value = float(raw)
    except ValueError:  # float() of text that is not a number
        raise Refused(f"{what} must be a number of millimetres such as 6.5, not {text!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise Refused(f"{what} must be a number of millimetres such as 6.5, not {text!r}")
    return value


def parse_offset(text: str) -> tuple[float, float]:
    """``"0.5,-1"`` (x,y in mm) -> (0.5, -1.0)."""
    parts = [p for p in str(text).replace(";", ",").replace(" ", ",").split(",") if p]
    if len(parts) != 2:
        raise Refused(f"the duplex offset is two numbers of millimetres, x,y (e.g. 0.5,-1), not {text!r}")
    return parse_mm(parts[0], "duplex offset x"), parse_mm(parts[1], "duplex offset y")
