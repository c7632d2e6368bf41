"""Measure what a PDF page paints, from its content stream (pypdf): every point of every painted path
(lines, rectangles, curves' control points) and every text origin, in page coordinates, clipped to the
active clipping box; and the effective size of every text shown (font size × the scale of the text and
current matrices). Enough for reportlab's output: no XObjects or shadings are followed."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

from pypdf import PdfReader
from pypdf.generic import ContentStream

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
PAINT = {b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF order: a point p maps to p·m·n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


@dataclass
class PageGeometry:
    width: float
    height: float
    points: list[tuple[float, float]] = field(default_factory=list)
    text_points: list[tuple[float, float]] = field(default_factory=list)
    font_sizes: list[float] = field(default_factory=list)
    origins: list[Matrix] = field(default_factory=list)  # first cm of each top-level q block

    def all_points(self) -> list[tuple[float, float]]:
        return self.points + self.text_points

    def edge_distance(self) -> float:
        """The smallest distance from anything painted to the paper's edge."""
        pts = self.all_points()
        return min(min(x, y, self.width - x, self.height - y) for x, y in pts) if pts else math.inf


def _clip(box: tuple[float, float, float, float] | None, x: float, y: float) -> tuple[float, float]:
    if box is None:
        return x, y
    x0, y0, x1, y1 = box
    return min(max(x, x0), x1), min(max(y, y0), y1)


def page_geometry(page: object) -> PageGeometry:
    box = page.mediabox  # type: ignore[attr-defined]
    geo = PageGeometry(float(box.width), float(box.height))
    content = ContentStream(page.get_contents(), page.pdf)  # type: ignore[attr-defined]
    ctm: Matrix = IDENTITY
    clip: tuple[float, float, float, float] | None = None
    stack: list[tuple[Matrix, tuple[float, float, float, float] | None]] = []
    path: list[tuple[float, float]] = []
    pending_clip = False
    tm: Matrix = IDENTITY
    tlm: Matrix = IDENTITY
    size = 0.0
    leading = 0.0
    depth = 0
    first_cm_in_block = False
    for operands, op in content.operations:
        if op == b"q":
            stack.append((ctm, clip))
            depth += 1
            first_cm_in_block = depth == 1
        elif op == b"Q":
            ctm, clip = stack.pop()
            depth -= 1
        elif op == b"cm":
            m = tuple(float(v) for v in operands)
            if first_cm_in_block:
                geo.origins.append(mul(m, ctm))  # type: ignore[arg-type]
                first_cm_in_block = False
            ctm = mul(m, ctm)  # type: ignore[arg-type]
        elif op in (b"m", b"l"):
            path.append(apply(ctm, float(operands[0]), float(operands[1])))
        elif op == b"c":
            for i in range(0, 6, 2):
                path.append(apply(ctm, float(operands[i]), float(operands[i + 1])))
        elif op in (b"v", b"y"):
            for i in range(0, 4, 2):
                path.append(apply(ctm, float(operands[i]), float(operands[i + 1])))
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            path += [apply(ctm, x, y), apply(ctm, x + w, y), apply(ctm, x, y + h), apply(ctm, x + w, y + h)]
        elif op in (b"W", b"W*"):
            pending_clip = True
        elif op in PAINT or op == b"n":
            if op in PAINT:
                geo.points += [_clip(clip, x, y) for x, y in path]
            if pending_clip and path:
                xs, ys = [p[0] for p in path], [p[1] for p in path]
                new = (min(xs), min(ys), max(xs), max(ys))
                clip = (
                    new
                    if clip is None
                    else (max(clip[0], new[0]), max(clip[1], new[1]), min(clip[2], new[2]), min(clip[3], new[3]))
                )
            pending_clip = False
            path = []
        elif op == b"BT":
            tm = tlm = IDENTITY
        elif op == b"Tf":
            size = float(operands[1])
        elif op == b"TL":
            leading = float(operands[0])
        elif op == b"Tm":
            tm = tlm = tuple(float(v) for v in operands)  # type: ignore[assignment]
        elif op in (b"Td", b"TD"):
            tlm = mul((1, 0, 0, 1, float(operands[0]), float(operands[1])), tlm)
            tm = tlm
        elif op == b"T*":
            tlm = mul((1, 0, 0, 1, 0, -leading), tlm)
            tm = tlm
        elif op in (b"Tj", b"TJ", b"'", b'"'):
            if op in (b"'", b'"'):
                tlm = mul((1, 0, 0, 1, 0, -leading), tlm)
                tm = tlm
            shown = operands[-1]
            text = "".join(str(t) for t in shown if not isinstance(t, int | float)) if op == b"TJ" else str(shown)
            if not text:
                continue
            full = mul(tm, ctm)
            geo.text_points.append(_clip(clip, full[4], full[5]))
            geo.font_sizes.append(size * math.sqrt(abs(full[0] * full[3] - full[1] * full[2])))
    return geo


def pdf_geometry(pdf: bytes) -> list[PageGeometry]:
    return [page_geometry(p) for p in PdfReader(io.BytesIO(pdf)).pages]


def smallest_font(pdf: bytes) -> float:
    sizes = [s for g in pdf_geometry(pdf) for s in g.font_sizes]
    return min(sizes) if sizes else math.inf
