"""Play-aid cards as a PDF (reportlab, no Qt).

Cards are laid out N-up on A4 or Letter with cut marks in the gutters; a card never straddles two pages.
Each card's text sits in a ``Frame`` inside a ``KeepInFrame(mode="shrink")``: long text shrinks, but never
below :data:`~.card_style.MIN_FONT` points; a card that would need smaller text is an error naming the card
(:class:`~.card_face.CardFitError`). Options: card size, paper, grayscale (ink-saving), and either duplex backs (a back
page after each page of fronts, mirrored for flipping on the long edge) or a fold-over layout (front and back
side by side, fold on the line between them). Output is byte-identical for identical input (``invariant=1``).

Entry points: :func:`build_cards_pdf` (cards in, PDF out) and :func:`build_alignment_test`. The parts: what a
card says (:mod:`.card_content`), how it looks (:mod:`.card_style`), one card laid out and drawn
(:mod:`.card_face`, with :func:`~.card_face.check_card_fits`), the cards on the page (:mod:`.card_grid`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import IO, Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import KeepInFrame

from ..errors import Refused
from ..words import plural
from .card_face import CardFitError, Fit, LaidOut, back_text, draw_back, draw_front, lay_out_grown
from .card_grid import LAYOUTS, page_marks, place_card, plan_grid
from .card_style import INSET, MIN_FONT, CardStyle, lookup_card_size, style_for
from .decks import Card, Deck, DeckError, DeckLibrary
from .fonts import FONT, register_fonts
from .paper import default_paper, paper_size
from .rltyped import font_canvas
from .sizes import CARD_SIZES, CARD_STOCK, DEFAULT_SIZE, PrintSetup

Progress = Callable[[int, int], None]


@dataclass
class CardsPdf:
    """What :func:`build_cards_pdf` produced."""

    pages: int
    cards: int
    per_page: int
    rotated: bool
    paper: str
    size: str
    layout: str
    fits: list[Fit] = field(default_factory=list)
    setup: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pages": self.pages,
            "cards": self.cards,
            "per_page": self.per_page,
            "rotated": self.rotated,
            "paper": self.paper,
            "size": self.size,
            "layout": self.layout,
            "smallest_font": round(min((f.min_font for f in self.fits), default=0.0), 2),
            **self.setup,
        }


# ---------------------------------------------------------------------------------------------- the PDF


def _decks_of(decks: Mapping[str, Deck] | DeckLibrary) -> Mapping[str, Deck]:
    return decks.decks if isinstance(decks, DeckLibrary) else decks


def build_cards_pdf(
    cards: Sequence[Card],
    output: str | os.PathLike[str] | IO[bytes],
    *,
    decks: Mapping[str, Deck] | DeckLibrary,
    size: str = DEFAULT_SIZE,
    paper: str | None = None,
    grayscale: bool = False,
    layout: str = "fronts",
    progress: Progress | None = None,
    title: str = "Play-aid cards",
    setup: PrintSetup | None = None,
    rules: Any = None,
) -> CardsPdf:
    """Write ``cards`` (in order) as a PDF to ``output`` (a path or a binary file object).

    ``decks`` maps deck ids to decks (or pass the DeckLibrary): it gives each card's colour and back face.
    ``layout``: "fronts" (fronts only), "backs" (each page of fronts followed by its page of backs, mirrored
    left-right for duplex printing flipped on the long edge) or "fold" (front and back side by side; cut
    around the pair and fold on the dashed mark). ``paper`` None: :func:`default_paper`; "card": one card per
    page on card stock of the card's size. ``setup``: safe margin, bleed, duplex offset and back style
    (:class:`PrintSetup`). ``rules``: a campaign's :class:`~campaign_app.rules.tables.CardRules` (thresholds,
    objective XP, replacement leader, reward dice ...); None prints the default rules, and every card that
    depends on them says which. ``progress(done, total)`` is called after each card. Raises CardFitError (naming
    the card) when a card does not fit, DeckError for a bad size, paper or layout; nothing is written then.
    """
    if layout not in LAYOUTS:
        raise DeckError(f"unknown layout {layout!r}: use one of {', '.join(LAYOUTS)}")
    if not cards:
        raise DeckError("no cards to print")
    setup = setup or PrintSetup()
    card_size = lookup_card_size(size)
    paper = (paper or default_paper()).lower()
    if paper != CARD_STOCK:
        try:
            paper_size(paper)
        except Refused as exc:
            raise DeckError(f"{exc} (or {CARD_STOCK} for card stock)") from None
    deck_map = _decks_of(decks)
    for card in cards:
        if card.deck_id not in deck_map:
            raise DeckError(f"card {card.full_id}: its deck {card.deck_id!r} was not given")
    register_fonts()
    from ..rules.tables import CardRules

    rules = rules if rules is not None else CardRules()
    grid = plan_grid(paper, size, layout, setup)
    inset = max(INSET, setup.margin_pt) if grid.stock else INSET
    bleed = 0.0 if grid.stock else setup.bleed_pt

    # Lay every card out first (on a scratch canvas) so that a card that does not fit stops the build
    # before anything is written.
    import io

    scratch = font_canvas(io.BytesIO(), FONT)
    base_styles: dict[str, CardStyle] = {}
    laid: list[LaidOut] = []
    for card in cards:
        st = base_styles.get(card.deck_id)
        if st is None:
            st = base_styles[card.deck_id] = style_for(
                card_size, deck_map[card.deck_id], grayscale, 1.0, inset, bleed, setup.back_style
            )
        try:
            laid.append(lay_out_grown(card, deck_map[card.deck_id], st, scratch, rules, rules.note))
        except CardFitError:
            raise
        except (Refused, ValueError) as exc:  # ValueError: reportlab refusing the markup of the card's text
            raise DeckError(f"card {card.full_id} ({card.source}): {exc}") from None

    target = os.fspath(output) if isinstance(output, str | os.PathLike) else output
    canvas = font_canvas(target, FONT, MIN_FONT, pagesize=(grid.page_w, grid.page_h), page_compression=True)
    canvas.setTitle(title)
    canvas.setAuthor("campaign_app")
    canvas.setCreator("campaign_app")
    canvas.setSubject(f"{plural(len(cards), 'card')}, {card_size.label}, {paper}, {layout}")

    rotation = 90 if grid.rotated else 0
    backs: dict[str, tuple[KeepInFrame, float]] = {}
    numbers: dict[str, int] = {d: len(deck_map[d].cards) for d in deck_map}
    position: dict[str, int] = {}
    for d in deck_map:
        for i, c in enumerate(deck_map[d].cards, start=1):
            position[c.full_id] = i
    dx, dy = setup.offset_x * mm, setup.offset_y * mm
    total = len(cards)
    pages = 0
    for start in range(0, total, grid.per_page):
        chunk = list(range(start, min(start + grid.per_page, total)))
        slots = list(range(len(chunk)))
        # fronts (and, for fold-over, the backs beside them)
        for slot, i in enumerate(chunk):
            card, lay = cards[i], laid[i]
            st = lay.style
            x, y = grid.slot_origin(slot)
            index = position.get(card.full_id, 0)
            count = numbers.get(card.deck_id, 0)

            def front(
                card: Card = card, lay: LaidOut = lay, st: CardStyle = st, index: int = index, count: int = count
            ) -> None:
                draw_front(canvas, card, deck_map[card.deck_id], st, lay, index, count)

            place_card(canvas, grid, x, y, rotation, front)
            if grid.pair:
                deck = deck_map[card.deck_id]
                bst = base_styles[card.deck_id]
                back = backs.get(deck.id) or backs.setdefault(deck.id, back_text(deck, bst, scratch))
                place_card(canvas, grid, x + grid.card_w, y, -rotation, partial(draw_back, canvas, deck, bst, back))
            if progress is not None:
                progress(i + 1, total)
        folds = [grid.slot_origin(slot)[0] + grid.card_w for slot in slots] if grid.pair else []
        page_marks(canvas, grid, slots, fold_xs=folds)
        canvas.showPage()
        pages += 1
        if layout == "backs":
            for slot, i in enumerate(chunk):
                card = cards[i]
                x, y = grid.slot_origin(slot)
                mirrored_x = grid.page_w - x - grid.slot_w
                deck = deck_map[card.deck_id]
                bst = base_styles[card.deck_id]
                back = backs.get(deck.id) or backs.setdefault(deck.id, back_text(deck, bst, scratch))
                place_card(
                    canvas, grid, mirrored_x + dx, y + dy, -rotation, partial(draw_back, canvas, deck, bst, back)
                )
            mirrored = [grid.cols * (s // grid.cols) + (grid.cols - 1 - s % grid.cols) for s in slots]
            page_marks(canvas, grid, mirrored, dx, dy)
            canvas.showPage()
            pages += 1
    canvas.save()
    return CardsPdf(
        pages=pages,
        cards=total,
        per_page=grid.per_page,
        rotated=grid.rotated,
        paper=paper,
        size=size,
        layout=layout,
        fits=[lay.fit for lay in laid],
        setup={**setup.to_dict(), "rules": rules.note},
    )


# ---------------------------------------------------------------------------------------------- alignment


def build_alignment_test(
    output: str | os.PathLike[str] | IO[bytes],
    *,
    paper: str | None = None,
    size: str = DEFAULT_SIZE,
    setup: PrintSetup | None = None,
) -> int:
    """A one-sheet duplex alignment test: the front page has the card outlines and, at the middle of the
    page, a cross with a millimetre scale in x and y; the back page has a cross alone, drawn where a
    perfectly aligned printer puts it (the setup's current offset applied). Print both sides, hold the
    sheet against the light and read on the scales where the back's cross falls: those are the x and y
    (mm) to enter as the duplex offset, with the opposite sign. Returns the number of pages (2)."""
    setup = setup or PrintSetup()
    paper = (paper or default_paper()).lower()
    register_fonts()
    grid = plan_grid(paper, size, "backs", setup)
    target = os.fspath(output) if isinstance(output, str | os.PathLike) else output
    canvas = font_canvas(target, FONT, MIN_FONT, pagesize=(grid.page_w, grid.page_h), page_compression=True)
    canvas.setTitle("Duplex alignment test")
    canvas.setAuthor("campaign_app")
    canvas.setCreator("campaign_app")
    cx, cy = grid.page_w / 2, grid.page_h / 2
    span = 10  # mm each way

    def cross(x: float, y: float, width: float) -> None:
        canvas.setLineWidth(width)
        canvas.line(x - (span + 2) * mm, y, x + (span + 2) * mm, y)
        canvas.line(x, y - (span + 2) * mm, x, y + (span + 2) * mm)
        canvas.circle(x, y, 1.5 * mm, stroke=1, fill=0)

    # front: outlines of the card slots, the cross and its scales
    canvas.setStrokeColor(colors.Color(0.6, 0.6, 0.6))
    canvas.setLineWidth(0.3)
    for slot in range(grid.per_page):
        x, y = grid.slot_origin(slot)
        canvas.rect(x, y, grid.slot_w, grid.card_h, stroke=1, fill=0)
    page_marks(canvas, grid, list(range(grid.per_page)))
    lines = [
        "Duplex alignment test: print this sheet on both sides (flip on the long edge), as you print cards.",
        "Hold it against the light. Where the back's cross falls on the scales shows the printer's shift;",
        "enter the opposite numbers as the duplex offset (x to the right, y up, in mm) and print again.",
        f"Now: {paper}, {CARD_SIZES[size].label}, safe margin {setup.margin:g} mm, duplex offset "
        f"x {setup.offset_x:+g} mm, y {setup.offset_y:+g} mm.",
    ]
    # a white panel over the card outlines holds the cross, its scales and the instructions, so no cut line
    # runs through the text or the scales
    text_top = cy - (span + 14) * mm
    text_w = max(stringWidth(line, FONT, 8) for line in lines)
    pad = 3 * mm
    panel_w = max(text_w, 2 * (span + 8) * mm) + 2 * pad
    panel_top = cy + (span + 4) * mm
    panel_bottom = text_top - 10 * (len(lines) - 1) - 3 - pad
    canvas.setFillColor(colors.white)
    canvas.setStrokeColor(colors.Color(0.8, 0.8, 0.8))
    canvas.setLineWidth(0.3)
    canvas.rect(cx - panel_w / 2, panel_bottom, panel_w, panel_top - panel_bottom, stroke=1, fill=1)
    canvas.setStrokeColor(colors.black)
    canvas.setFillColor(colors.black)
    cross(cx, cy, 0.4)
    canvas.setFont(FONT, MIN_FONT)
    # the scales read like a ruler's: x numbers in a row under the cross, y numbers in a column to its right,
    # each in line with its tick, so no two labels (nor a label and an axis) meet
    for k in range(-span, span + 1):
        tick = (2.2 if k % 5 == 0 else 1.2) * mm
        canvas.setLineWidth(0.3)
        canvas.line(cx + k * mm, cy - tick, cx + k * mm, cy + tick)
        canvas.line(cx - tick, cy + k * mm, cx + tick, cy + k * mm)
        if k and k % 5 == 0:
            canvas.drawCentredString(cx + k * mm, cy - (span + 2) * mm - MIN_FONT - 1, f"{k:+d}")
            canvas.drawString(cx + (span + 2) * mm + 2, cy + k * mm - MIN_FONT * 0.35, f"{k:+d}")
    canvas.setFont(FONT, 8)
    y = text_top
    for line in lines:
        canvas.drawCentredString(cx, y, line)
        y -= 10
    canvas.showPage()
    # back: the cross alone, mirrored position (the middle stays the middle) plus the offset
    canvas.setStrokeColor(colors.Color(0.75, 0.1, 0.1))
    cross(cx + setup.offset_x * mm, cy + setup.offset_y * mm, 0.6)
    canvas.setFillColor(colors.Color(0.75, 0.1, 0.1))
    canvas.setFont(FONT, 8)
    canvas.drawCentredString(
        cx + setup.offset_x * mm, cy + setup.offset_y * mm - (span + 6) * mm, "back of the alignment test"
    )
    canvas.showPage()
    canvas.save()
    return 2
