"""Print-safe geometry measured from the PDFs: nothing painted (marks, borders, bands, text)
closer to the paper's edge than the safe margin, for every card size, paper, layout, margin and bleed;
cards on shared cut lines; backs mirror their fronts (with an offset of 0) and move by the duplex offset;
card stock puts one card per page with its border at the margin; the alignment test sheet."""

from __future__ import annotations

import io
from typing import Any

import pytest
from pdfgeom import pdf_geometry
from pypdf import PdfReader

from campaign_app.errors import Refused
from campaign_app.printing.card_grid import plan_grid
from campaign_app.printing.cards import build_alignment_test, build_cards_pdf
from campaign_app.printing.decks import DeckError, DeckLibrary, load_decks, select_cards
from campaign_app.printing.sizes import CARD_SIZES, CARD_STOCK_SIZES, MM, PrintSetup

EPS = 0.01


@pytest.fixture(scope="module")
def library() -> DeckLibrary:
    return load_decks()


def build(cards: list[Any], library: DeckLibrary, **options: Any) -> bytes:
    out = io.BytesIO()
    build_cards_pdf(cards, out, decks=library, **options)
    return out.getvalue()


def sample(library: DeckLibrary, n: int) -> list[Any]:
    """``n`` cards from every deck in turn (colours, phases and backs of all decks)."""
    cards = select_cards(library)
    decks: dict[str, list[Any]] = {}
    for c in cards:
        decks.setdefault(c.deck_id, []).append(c)
    out: list[Any] = []
    while len(out) < n:
        for lst in decks.values():
            if lst and len(out) < n:
                out.append(lst.pop(0))
    return out


@pytest.mark.parametrize("size", list(CARD_SIZES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_is_printed_inside_the_safe_margin(library: DeckLibrary, size: str, paper: str) -> None:
    for setup in (PrintSetup(), PrintSetup(margin=10, bleed=2), PrintSetup(margin=4, back_style="solid", bleed=1.5)):
        grid = plan_grid(paper, size, "backs", setup)
        pdf = build(sample(library, grid.per_page), library, size=size, paper=paper, layout="backs", setup=setup)
        for n, page in enumerate(pdf_geometry(pdf), start=1):
            assert page.points, (size, paper, n)
            assert page.edge_distance() >= setup.margin * MM - EPS, (size, paper, setup, n, page.edge_distance())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_fold_over_marks_stay_inside_the_margin(library: DeckLibrary, paper: str) -> None:
    pdf = build(sample(library, 8), library, paper=paper, layout="fold")
    for page in pdf_geometry(pdf):
        assert page.edge_distance() >= 6.5 * MM - EPS


def test_default_poker_layout_has_shared_cut_lines_and_outer_marks(library: DeckLibrary) -> None:
    for paper in ("a4", "letter"):
        grid = plan_grid(paper, "poker")
        assert (grid.cols, grid.rows, grid.gutter) == (3, 3, 0.0)  # edge to edge
        x0, y0 = grid.slot_origin(0)
        x1, _ = grid.slot_origin(1)
        assert x1 == pytest.approx(x0 + grid.card_w)  # neighbours share a cut line
        assert grid.left >= 6.5 * MM and grid.bottom >= 6.5 * MM
    # A4: room for marks on all four sides; Letter: 1.2 mm above and below the block, no marks there
    a4 = pdf_geometry(build(sample(library, 9), library, paper="a4"))[0]
    letter_grid = plan_grid("letter", "poker")
    letter = pdf_geometry(build(sample(library, 9), library, paper="letter"))[0]
    top_block = letter_grid.bottom + letter_grid.height
    assert not [p for p in letter.points if p[1] > top_block + 0.1]  # nothing above the cards
    a4_grid = plan_grid("a4", "poker")
    above = [p for p in a4.points if p[1] > a4_grid.bottom + a4_grid.height + 0.1]
    assert above and max(p[1] for p in above) <= a4.height - 6.5 * MM + EPS


def test_backs_mirror_their_fronts_and_follow_the_duplex_offset(library: DeckLibrary) -> None:
    cards = sample(library, 7)
    grid = plan_grid("a4", "poker", "backs")
    front, back = pdf_geometry(build(cards, library, paper="a4", layout="backs"))[:2]
    f = sorted((round(o[4], 2), round(o[5], 2)) for o in front.origins if o[:4] == (1, 0, 0, 1))
    b = sorted((round(o[4], 2), round(o[5], 2)) for o in back.origins if o[:4] == (1, 0, 0, 1))
    assert len(f) == len(b) == 7
    expected = sorted((round(grid.page_w - x - grid.card_w, 2), y) for x, y in f)
    assert max(abs(p[0] - q[0]) + abs(p[1] - q[1]) for p, q in zip(b, expected, strict=True)) <= 0.2
    setup = PrintSetup(offset_x=1.5, offset_y=-0.8)
    shifted = pdf_geometry(build(cards, library, paper="a4", layout="backs", setup=setup))[1]
    s = sorted((round(o[4], 2), round(o[5], 2)) for o in shifted.origins if o[:4] == (1, 0, 0, 1))
    for p, q in zip(s, b, strict=True):
        assert p[0] == pytest.approx(q[0] + 1.5 * MM, abs=0.02) and p[1] == pytest.approx(q[1] - 0.8 * MM, abs=0.02)


@pytest.mark.parametrize("size", CARD_STOCK_SIZES)
def test_card_stock_is_one_card_per_page_with_its_border_at_the_margin(library: DeckLibrary, size: str) -> None:
    cards = sample(library, 3)
    pdf = build(cards, library, size=size, paper="card", layout="backs")
    doc = PdfReader(io.BytesIO(pdf))
    card = CARD_SIZES[size]
    assert len(doc.pages) == 6
    for page in doc.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((card.width, card.height))
    for geo in pdf_geometry(pdf):
        assert geo.edge_distance() == pytest.approx(6.5 * MM, abs=0.6)  # the border sits on the margin
    with pytest.raises(DeckError, match="card stock printing takes index, postcard, a6"):
        build(cards, library, size="poker", paper="card")


def test_margin_too_big_for_the_card_is_refused(library: DeckLibrary) -> None:
    with pytest.raises(DeckError, match="does not fit on a4 paper inside a 25 mm margin: use duplex backs"):
        plan_grid("a4", "a6", "fold", PrintSetup(margin=25, bleed=3))
    with pytest.raises(Refused, match="safe margin must be from 0 to 25 mm"):
        PrintSetup(margin=30)
    with pytest.raises(Refused, match="card backs are pattern or solid"):
        PrintSetup(back_style="tartan")


def test_alignment_test_sheet(tmp_path: Any) -> None:
    out = io.BytesIO()
    assert build_alignment_test(out, paper="a4", setup=PrintSetup(offset_x=1, offset_y=-2)) == 2
    pdf = out.getvalue()
    front, back = pdf_geometry(pdf)
    assert front.edge_distance() >= 6.5 * MM - EPS and back.edge_distance() >= 6.5 * MM - EPS
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "Duplex alignment test" in text and "x +1 mm, y -2 mm" in text
    # the back's cross sits at the middle of the page moved by the offset under test
    xs = [p[0] for p in back.points]
    ys = [p[1] for p in back.points]
    assert (min(xs) + max(xs)) / 2 == pytest.approx(front.width / 2 + 1 * MM, abs=0.05)
    assert (min(ys) + max(ys)) / 2 == pytest.approx(front.height / 2 - 2 * MM, abs=0.05)
