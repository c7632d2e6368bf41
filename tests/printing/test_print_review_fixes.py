"""Defects a review of issue 14 found on printed pages, each measured from the PDF itself (pypdf)."""

from __future__ import annotations

import datetime
import io
import re

import pytest
from pdfgeom import smallest_font
from pypdf.generic import ContentStream
from reportlab.pdfbase.pdfmetrics import stringWidth
from sheet_pdf_checks import page_texts, reader

from campaign_app.printing.cards import build_alignment_test, build_cards_pdf
from campaign_app.printing.decks import load_decks, select_cards
from campaign_app.printing.fonts import FONT
from campaign_app.printing.unit_sheet import AttachedUnitData, LeaderData, UnitSheet, Weapon, build_unit_sheets

DAY = datetime.date(2024, 5, 1)
LONG_LEADER = "Sous-lieutenant Jean-Baptiste Mbeki-Kalonji de la Rivi\u00e8re"


def _drawn_strings(pdf: bytes, page: int = 0) -> list[str]:
    """Every string shown on ``page`` (one entry per text-showing operator)."""
    found: list[str] = []

    def visit(text: str, _cm: object, _tm: object, _font: object, _size: object) -> None:
        if text.strip():
            found.append(text)

    reader(pdf).pages[page].extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_long_leader_name_wraps_never_cut(paper: str) -> None:
    sheet = UnitSheet(name="2nd Platoon", campaign="Congo 1960", training=10, equipment=10, morale=8, armor=2,
                      xp=6, leader=LeaderData(LONG_LEADER, "Lieutenant", 2),
                      former_leaders=("Sgt. Mbeki (casualty)",))
    pdf = build_unit_sheets([sheet], paper=paper, printed_on=DAY)
    first = page_texts(pdf)[0]
    assert "\u2026" not in first
    flat = re.sub(r"-\s+", "-", first)
    assert LONG_LEADER in flat, first
    assert "Before: Sgt. Mbeki (casualty)" in first
    assert smallest_font(pdf) >= 7.0 - 0.01


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
        words = {w for b in card.blocks if b.type == "numbers" for item in b.items
                 for w in item.split("|", 1)[-1].split() if len(w) > 3}
        out = io.BytesIO()
        build_cards_pdf([card], out, decks=library, size=size, paper="a4", layout="backs")
        pdf = out.getvalue()
        tokens = {t for page in range(len(reader(pdf).pages)) for s in _drawn_strings(pdf, page) for t in s.split()}
        assert not _broken_words(tokens, words), (card.title, _broken_words(tokens, words))
        assert smallest_font(pdf) >= 7.0 - 0.01


def _crowded() -> UnitSheet:
    weapons = tuple(Weapon(f"Heavy weapon {i}", ("point", "dispersed", "both")[i % 3], -(i % 3) or None, "point",
                           notes="long-range, two crew" if i % 2 else "") for i in range(6))
    attached = tuple(AttachedUnitData(f"Attached team {i}", "vehicle" if i % 2 else "team", 6, 8, 10, 3 + i % 2,
                                      weapons=weapons[:2], notes="dug in on the ridge" if i % 3 == 0 else "")
                     for i in range(9)) + (AttachedUnitData("Mortars", "fire_support", support="medium"),)
    return UnitSheet(name="2nd Platoon", campaign="Congo 1960", training=10, equipment=10, morale=8, armor=2,
                     xp=6, leader=LeaderData("Okafor", "Lieutenant", 2), weapons=weapons, attached=attached,
                     notes="Tired after the river crossing. " * 20, former_leaders=("Sgt. Mbeki (casualty)",))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("leader", ["Okafor", LONG_LEADER])
def test_a_section_heading_stays_with_the_start_of_its_table(paper: str, leader: str) -> None:
    sheet = _crowded()
    sheet = UnitSheet(**{**sheet.__dict__, "leader": LeaderData(leader, "Lieutenant", 2)})
    pdf = build_unit_sheets([sheet], paper=paper, printed_on=DAY)
    for n, page in enumerate(page_texts(pdf)):
        for heading, first_row in (("HEAVY WEAPONS AND SPECIAL EQUIPMENT", "Heavy weapon 0"),
                                   ("ATTACHED UNITS", "Attached team 0")):
            if heading in page:
                assert first_row in page, (paper, n + 1, heading)


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


@pytest.mark.parametrize(("paper", "size"), [("a4", "poker"), ("letter", "poker"), ("a4", "a6"),
                                             ("letter", "tarot")])
def test_alignment_sheet_text_is_clear_of_lines_and_other_text(paper: str, size: str) -> None:
    out = io.BytesIO()
    build_alignment_test(out, paper=paper, size=size)
    strokes, whites, texts = _painted(out.getvalue())
    assert any("Duplex alignment test" in t for _n, _b, t in texts)
    for i, (n, box, text) in enumerate(texts):
        for _m, other, other_text in texts[i + 1:]:
            assert not _meet(box, other), (text, other_text)
        for m, line in strokes:
            if _meet(box, line):  # a line through the text must be painted over by white before the text
                assert any(m < w < n and _covers(white, box) for w, white in whites), (text, line)


@pytest.mark.parametrize("pencil", [False, True])
def test_the_longest_leader_name_and_rank_the_app_takes_are_printed_whole(pencil: bool) -> None:
    name = ("Sous-lieutenant Jean-Baptiste Mbeki-Kalonji de la Rivi\u00e8re et de Saint-Pierre-Mont" + "x" * 80)[:80]
    rank = ("Adjudant-chef de premi\u00e8re classe de la Force Publique, section de reconnaissance" + "y" * 80)[:80]
    sheet = UnitSheet(name="2nd Platoon", campaign="Congo 1960", training=10, equipment=10, morale=8, armor=2,
                      xp=6, leader=LeaderData(name, rank, 2))
    for paper in ("a4", "letter"):
        pdf = build_unit_sheets([sheet], paper=paper, pencil=pencil, printed_on=DAY)
        first = page_texts(pdf)[0]
        assert "\u2026" not in first
        flat = re.sub(r"-\s+", "-", first)
        assert flat.count(name) >= 1 and (pencil or rank in flat), first
        assert smallest_font(pdf) >= 7.0 - 0.01
