"""Text on play-aid cards and the duplex alignment sheet, measured from the PDF itself (pypdf): big-number
captions never break inside a word, and the alignment sheet's text is clear of its lines and of other text."""

from __future__ import annotations

import io

import pytest
from pdfgeom import smallest_font
from pypdf.generic import ContentStream
from reportlab.pdfbase.pdfmetrics import stringWidth
from sheet_pdf_checks import reader

from campaign_app.printing.cards import build_alignment_test, build_cards_pdf
from campaign_app.printing.decks import load_decks, select_cards
from campaign_app.printing.fonts import FONT


def _drawn_strings(pdf: bytes, page: int = 0) -> list[str]:
    """Every string shown on ``page`` (one entry per text-showing operator)."""
    found: list[str] = []

    def visit(text: str, _cm: object, _tm: object, _font: object, _size: object) -> None:
        if text.strip():
            found.append(text)

    reader(pdf).pages[page].extract_text(visitor_text=visit)
    return found


def _broken_words(tokens: set[str], words: set[str]) -> list[str]:
    """Words drawn in two pieces split between letters (a break after a hyphen is fine)."""
    broken = []
    for w in words:
        for i in range(1, len(w)):
            if w[i - 1] != "-" and w[:i] in tokens and w[i:] in tokens:
                broken.append(f"{w[:i]} / {w[i:]}")
    return broken


@pytest.mark.parametrize("size", ["poker", "a6"])
def test_big_number_captions_never_break_inside_a_word(size: str) -> None:
    library = load_decks()
    cards = [c for c in select_cards(library) if any(b.type == "numbers" for b in c.blocks)]
    assert any(c.title == "After the battle: award and recovery" for c in cards)
    for card in cards:
        words = {
            w
            for b in card.blocks
            if b.type == "numbers"
            for item in b.items
            for w in item.split("|", 1)[-1].split()
            if len(w) > 3
        }
        out = io.BytesIO()
        build_cards_pdf([card], out, decks=library, size=size, paper="a4", layout="backs")
        pdf = out.getvalue()
        tokens = {t for page in range(len(reader(pdf).pages)) for s in _drawn_strings(pdf, page) for t in s.split()}
        assert not _broken_words(tokens, words), (card.title, _broken_words(tokens, words))
        assert smallest_font(pdf) >= 7.0 - 0.01


Box = tuple[float, float, float, float]
Painted = tuple[list[tuple[int, Box]], list[tuple[int, Box]], list[tuple[int, Box, str]]]


def _painted(pdf: bytes, page: int = 0) -> Painted:
    """In paint order: stroked segments and rectangles (their boxes), white-filled rectangles, and text (the
    box each string takes, from its origin, size and DejaVu Sans metrics). Enough for the alignment sheet,
    which reportlab draws without transforms."""
    content = ContentStream(reader(pdf).pages[page].get_contents(), reader(pdf))
    strokes: list[tuple[int, Box]] = []
    whites: list[tuple[int, Box]] = []
    texts: list[tuple[int, Box, str]] = []
    path: list[Box] = []
    areas: list[Box] = []
    point = (0.0, 0.0)
    fill_white = False
    size = 0.0
    origin = (0.0, 0.0)
    for n, (ops, op) in enumerate(content.operations):
        if op == b"m":
            point = (float(ops[0]), float(ops[1]))
        elif op == b"l":
            x, y = float(ops[0]), float(ops[1])
            path.append((min(point[0], x), min(point[1], y), max(point[0], x), max(point[1], y)))
            point = (x, y)
        elif op == b"re":
            x, y, w, h = (float(v) for v in ops)
            x0, y0, x1, y1 = min(x, x + w), min(y, y + h), max(x, x + w), max(y, y + h)
            areas.append((x0, y0, x1, y1))
            path += [(x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1)]  # its edges
        elif op == b"rg":
            fill_white = all(float(v) == 1.0 for v in ops)
        elif op == b"g":
            fill_white = float(ops[0]) == 1.0
        elif op in (b"S", b"s", b"B", b"b", b"B*", b"b*", b"f", b"F", b"f*", b"n"):
            if op in (b"S", b"s", b"B", b"b", b"B*", b"b*"):
                strokes += [(n, box) for box in path]
            if op in (b"B", b"b", b"B*", b"b*", b"f", b"F", b"f*") and fill_white:
                whites += [(n, box) for box in areas]
            path = []
            areas = []
        elif op == b"Tf":
            size = float(ops[1])
        elif op == b"Tm":
            origin = (float(ops[4]), float(ops[5]))
        elif op == b"Td":
            origin = (origin[0] + float(ops[0]), origin[1] + float(ops[1]))
        elif op == b"Tj":
            text = str(ops[0])
            w = stringWidth(text, FONT, size)
            texts.append((n, (origin[0], origin[1] - 0.2 * size, origin[0] + w, origin[1] + 0.75 * size), text))
    return strokes, whites, texts


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _covers(a: Box, b: Box) -> bool:
    return a[0] <= b[0] and a[1] <= b[1] and a[2] >= b[2] and a[3] >= b[3]


@pytest.mark.parametrize(("paper", "size"), [("a4", "poker"), ("letter", "poker"), ("a4", "a6"), ("letter", "tarot")])
def test_alignment_sheet_text_is_clear_of_lines_and_other_text(paper: str, size: str) -> None:
    out = io.BytesIO()
    build_alignment_test(out, paper=paper, size=size)
    strokes, whites, texts = _painted(out.getvalue())
    assert any("Duplex alignment test" in t for _n, _b, t in texts)
    for i, (n, box, text) in enumerate(texts):
        for _m, other, other_text in texts[i + 1 :]:
            assert not _meet(box, other), (text, other_text)
        for m, line in strokes:
            if _meet(box, line):  # a line through the text must be painted over by white before the text
                assert any(m < w < n and _covers(white, box) for w, white in whites), (text, line)
