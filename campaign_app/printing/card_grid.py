"""Cards on the page: how many fit on the paper in each layout, where each goes, and the cut marks in the
gutters."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .card_style import lookup_card_size
from .decks import DeckError
from .paper import paper_size
from .sizes import CARD_STOCK, CARD_STOCK_SIZES, PrintSetup

LAYOUTS = ("fronts", "backs", "fold")

CUT_MARK = 3 * mm  # longest cut mark
MIN_MARK = 1.5 * mm  # shorter room than this: no mark on that side
CUT_GAP = 0.5 * mm  # between a mark and the card (or its bleed)


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
    card = lookup_card_size(size)
    margin, bleed = setup.margin_pt, setup.bleed_pt
    pair = layout == "fold"
    if paper == CARD_STOCK:
        if size not in CARD_STOCK_SIZES:
            raise DeckError(
                f"card stock printing takes {', '.join(CARD_STOCK_SIZES)} cards (3×5 in, 4×6 in, A6), "
                f"not {card.label}: print {size} cards on A4 or Letter and cut them out"
            )
        if pair:
            raise DeckError(
                "card stock takes one card per page: print the backs on the other side "
                "(duplex backs) instead of the fold-over layout"
            )
        return Grid(
            card.width, card.height, card.width, card.height, 1, 1, 0.0, 0.0, 0.0, False, False, margin, 0.0, stock=True
        )
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
        grid = Grid(
            page_w,
            page_h,
            cw,
            ch,
            cols,
            rows,
            gutter,
            (page_w - width) / 2,
            (page_h - height) / 2,
            rotated,
            pair,
            margin,
            bleed,
        )
        if best is None or grid.per_page > best.per_page:
            best = grid
    if best is None:
        if pair:
            raise DeckError(
                f"a front-and-back pair of {card.label} cards does not fit on {paper} paper inside "
                f"a {setup.margin:g} mm margin: use duplex backs instead of the fold-over layout"
            )
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


def page_marks(
    canvas: Canvas, grid: Grid, slots: Sequence[int], dx: float = 0.0, dy: float = 0.0, fold_xs: Sequence[float] = ()
) -> None:
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


def place_card(canvas: Canvas, grid: Grid, x: float, y: float, rotation: int, draw: Callable[[], None]) -> None:
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
