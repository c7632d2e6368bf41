"""Defects a review of issue 14 found on printed pages, each measured from the PDF itself (pypdf)."""

from __future__ import annotations

import datetime
import io
import re

import pytest
from pdfgeom import smallest_font
from sheet_pdf_checks import page_texts, reader

from campaign_app.printing.cards import build_cards_pdf
from campaign_app.printing.decks import load_decks, select_cards
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
