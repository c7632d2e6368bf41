"""The stamp on every printed page: a small line at the foot of the page naming the campaign, what was
printed, the journal position it reflects, the date and a check code, and optionally a QR code with the same text.

Every PDF of the app is drawn on a :class:`StampingCanvas` (``rltyped.font_canvas`` and ``sheetkit.canvas_maker``
make them); the canvas draws the stamp set by :func:`stamping` on each page as the page is finished, so the
builders need not know about it. Outside :func:`stamping` nothing is drawn.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

STAMP_FONT_SIZE = 7.0
QR_SIZE = 30.0
"""The QR code's side: in the bottom-right corner, below and right of every page's footer (which stops 36 pt
from the edges)."""
EDGE = 6.0
"""The QR code's distance from the page's edges."""
BASELINE = 8.0
"""The stamp line's baseline above the page's bottom edge (below every page's footer and cards)."""


@dataclass(frozen=True)
class Stamp:
    """What a printout says about itself."""

    campaign: str
    what: str
    position: int
    """The journal position (the newest operation id) the printout reflects."""
    date: str
    code: str
    """The first characters of the fingerprint of what was printed (``services.prints``)."""
    qr: bool = False

    def text(self) -> str:
        where = f"{self.campaign} \u00b7 " if self.campaign else ""
        return f"{where}{self.what} \u00b7 journal {self.position} \u00b7 {self.date} \u00b7 check {self.code}"

    def qr_text(self) -> str:
        """The QR code's text: the stamp's facts, short (a small code stays readable)."""
        return f"campaign_app|{self.campaign}|{self.what[:60]}|journal {self.position}|{self.date}|{self.code}"


_current: contextvars.ContextVar[Stamp | None] = contextvars.ContextVar("campaign_app_stamp", default=None)


@contextmanager
def stamping(stamp: Stamp | None) -> Iterator[None]:
    """Every page finished inside the block carries ``stamp`` (None: no stamp)."""
    token = _current.set(stamp)
    try:
        yield
    finally:
        _current.reset(token)


def current_stamp() -> Stamp | None:
    return _current.get()


def draw_stamp(canvas: Canvas, stamp: Stamp) -> None:
    from .fonts import FONT, register_fonts
    from .sheetkit import MID

    register_fonts()
    width = float(getattr(canvas, "_pagesize")[0])  # noqa: B009 - the stub does not declare it
    canvas.saveState()
    canvas.setFont(FONT, STAMP_FONT_SIZE)
    canvas.setFillColor(MID)
    right = width - EDGE - (QR_SIZE + 4 if stamp.qr else 2)
    text = stamp.text()
    from reportlab.pdfbase.pdfmetrics import stringWidth

    while stringWidth(text, FONT, STAMP_FONT_SIZE) > right - EDGE and len(text) > 20:
        text = text[:-2].rstrip() + "\u2026"  # a long title is cut short: the check code goes with it
    canvas.drawRightString(right, BASELINE, text)
    if stamp.qr:
        _draw_qr(canvas, stamp, width - EDGE - QR_SIZE, EDGE)
    canvas.restoreState()


def _draw_qr(canvas: Canvas, stamp: Stamp, x: float, y: float) -> None:
    from reportlab.graphics import renderPDF
    from reportlab.graphics.barcode.qr import QrCodeWidget
    from reportlab.graphics.shapes import Drawing

    widget = QrCodeWidget(stamp.qr_text(), barLevel="L")
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(QR_SIZE, QR_SIZE, transform=[QR_SIZE / (x1 - x0), 0, 0, QR_SIZE / (y1 - y0), 0, 0])
    drawing.add(widget)
    renderPDF.draw(drawing, canvas, x, y)


class StampingCanvas(Canvas):
    """A canvas that draws the current stamp (if any) on every page before it is finished."""

    def showPage(self) -> None:  # noqa: N802 - reportlab API
        stamp = _current.get()
        if stamp is not None:
            draw_stamp(self, stamp)
        super().showPage()


__all__ = ["QR_SIZE", "Stamp", "StampingCanvas", "current_stamp", "draw_stamp", "stamping"]
