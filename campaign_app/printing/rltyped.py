"""Typed doors into reportlab where its stubs (types-reportlab) are wrong or silent.

Each helper does exactly what the reportlab call it wraps does; it exists so that mypy --strict checks the
callers' arguments instead of every call site carrying a ``type: ignore``.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Any, cast

from reportlab.graphics.shapes import Rect
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame

if TYPE_CHECKING:
    from typing import Unpack

    from reportlab.graphics.shapes import _SolidShapeKwArgs


def font_canvas(
    target: str | IO[bytes],
    font: str,
    font_size: float | None = None,
    *,
    pagesize: tuple[float, float] | None = None,
    invariant: bool = True,
    page_compression: bool | None = None,
) -> Canvas:
    """``Canvas(target, pagesize=..., invariant=..., pageCompression=..., initialFontName=font,
    initialFontSize=font_size)``: a canvas whose initial font is ``font`` (so Helvetica is never referenced).

    types-reportlab declares ``initialFontName`` as a float; reportlab takes a font name. (A cast, not a
    ``type: ignore``, so that a corrected stub does not make the ignore an error.)"""
    from .stamp import StampingCanvas  # every PDF of the app carries the print stamp when one is set

    return StampingCanvas(
        target,
        pagesize=pagesize,
        invariant=1 if invariant else 0,
        pageCompression=None if page_compression is None else int(page_compression),
        initialFontName=cast(Any, font),  # the stub says float: see above
        initialFontSize=font_size,
    )


def rect(
    x: float, y: float, width: float, height: float, rx: float = 0, ry: float = 0, **kw: Unpack[_SolidShapeKwArgs]
) -> Rect:
    """``reportlab.graphics.shapes.Rect``. types-reportlab writes its ``**kw`` without ``Unpack``, so every
    styling keyword (fillColor, strokeColor, strokeWidth...) would be refused; these are the keywords every
    solid shape takes."""
    return Rect(x, y, width, height, rx, ry, **cast("dict[str, Any]", kw))  # the stub lacks Unpack: see above


class CursorFrame(Frame):
    """A platypus ``Frame`` whose fill cursor is read: reportlab keeps where the next flowable goes in ``_y``,
    the frame's bottom in ``_y1`` and the available width in ``_aW``; the stubs leave these private attributes
    out. (Declarations only: the class behaves exactly as ``Frame``.)"""

    _y: float
    _y1: float
    _aW: float
