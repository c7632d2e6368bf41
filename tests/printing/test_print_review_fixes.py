"""Defects a review of issue 14 found on printed pages, each measured from the PDF itself (pypdf)."""

from __future__ import annotations

import datetime
import re

import pytest
from pdfgeom import smallest_font
from sheet_pdf_checks import page_texts, reader

from campaign_app.printing.unit_sheet import LeaderData, UnitSheet, build_unit_sheets

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
