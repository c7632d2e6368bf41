"""One set of type rules for every PDF: nothing printed below 7 pt, measured from the PDFs'
content streams (font size × the scale it is drawn at), for every kind the app ships: cards at every size,
the alignment sheet, Unit Data Sheets (filled, pencil, blank, a platoon with 10 attached units and 6
weapons, a very long name), Sologear forms (blank and filled) and the history report."""

from __future__ import annotations

import datetime
import io

import pytest
from pdfgeom import pdf_geometry, smallest_font
from sheet_pdf_checks import reader, text

from campaign_app.printing.cards import build_alignment_test, build_cards_pdf
from campaign_app.printing.decks import load_decks, select_cards
from campaign_app.printing.history_report import build_history_report
from campaign_app.printing.sizes import CARD_SIZES
from campaign_app.printing.sologear_sheet import FormRow, SologearSheetData, build_sologear_sheet
from campaign_app.printing.unit_sheet import (
    AttachedUnitData,
    BlankSheet,
    LeaderData,
    UnitSheet,
    Weapon,
    build_unit_sheets,
)
from campaign_app.rules.dice import SeededDice
from campaign_app.services.battles import log_battle
from campaign_app.services.campaigns import create_campaign
from campaign_app.services.history import history_report
from campaign_app.services.platoons import create_platoon
from campaign_app.services.printing import history_from_report
from tests.ids import campaign_id, platoon_id

FLOOR = 7.0
SAFE = 6.5 * 72 / 25.4
"""Sheets, forms and reports keep at least the cards' default safe margin (they use 12.7 mm)."""
DAY = datetime.date(2024, 5, 1)
LONG_NAME = "The Extremely Long Named Independent Reconnaissance Platoon of the Northern Province"


def crowded(name: str = "2nd Platoon") -> UnitSheet:
    weapons = tuple(
        Weapon(
            f"Heavy weapon {i}",
            ("point", "dispersed", "both")[i % 3],
            -(i % 3) or None,
            "point",
            notes="long-range, two crew" if i % 2 else "",
        )
        for i in range(6)
    )
    attached = tuple(
        AttachedUnitData(
            f"Attached team {i}",
            "vehicle" if i % 2 else "team",
            6,
            8,
            10,
            3 + i % 2,
            weapons=weapons[:2],
            notes="dug in on the ridge" if i % 3 == 0 else "",
        )
        for i in range(9)
    ) + (AttachedUnitData("Mortars", "fire_support", support="medium"),)
    return UnitSheet(
        name=name,
        campaign="Congo 1960",
        training=10,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader=LeaderData("Okafor", "Lieutenant", 2),
        weapons=weapons,
        attached=attached,
        notes="Tired after the river crossing. " * 20,
        former_leaders=("Sgt. Mbeki (casualty)",),
    )


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_unit_sheets_never_print_below_the_floor(paper: str) -> None:
    plain = UnitSheet(
        name="2nd Platoon",
        campaign="Congo 1960",
        training=10,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader=LeaderData("Okafor", "Lieutenant", 2),
    )
    for entries, pencil in (
        ([plain], False),
        ([plain], True),
        ([BlankSheet("Congo 1960")], False),
        ([crowded()], False),
        ([crowded(LONG_NAME)], True),
    ):
        pdf = build_unit_sheets(entries, paper=paper, pencil=pencil, printed_on=DAY)
        assert smallest_font(pdf) >= FLOOR - 0.01, (entries[0].__class__.__name__, pencil)
        assert all(g.edge_distance() >= SAFE for g in pdf_geometry(pdf))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_crowded_platoon_continues_on_a_second_page_with_repeated_headers(paper: str) -> None:
    pdf = build_unit_sheets([crowded()], paper=paper, printed_on=DAY)
    pages = [" ".join(p.extract_text().split()) for p in reader(pdf).pages]
    assert len(pages) >= 2
    everything = " ".join(pages)
    for i in range(6):
        assert f"Heavy weapon {i}" in everything
    for i in range(9):
        assert f"Attached team {i}" in everything
    assert "Mortars" in everything
    later = pages[1]
    assert "continued" in later and "2nd Platoon" in later
    # the table that runs over repeats its header row on the new page
    assert "Weapons and equipment" in later or "Targets" in later
    for geo in pdf_geometry(pdf):
        assert geo.edge_distance() >= 6.5 * 72 / 25.4


def test_a_long_platoon_name_is_printed_whole() -> None:
    pdf = build_unit_sheets([crowded(LONG_NAME)], paper="letter", printed_on=DAY)
    assert "Northern Province" in " ".join(text(pdf).split()) and smallest_font(pdf) >= FLOOR - 0.01


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sologear_forms_never_print_below_the_floor(paper: str) -> None:
    assert smallest_font(build_sologear_sheet(None, paper=paper, printed_on=DAY)) >= FLOOR - 0.01
    turns = tuple(FormRow(str(n), "FIG(+2)", "300/300 TV", "2", "1 bunker, light critical") for n in range(1, 31))
    data = SologearSheetData(name="Long campaign", pilot="Kara", gear_tv=350, length=30, turns=turns)
    pdf = build_sologear_sheet(data, paper=paper, printed_on=DAY)
    assert smallest_font(pdf) >= FLOOR - 0.01
    assert all(g.edge_distance() >= SAFE for g in pdf_geometry(pdf))


def test_history_report_never_prints_below_the_floor(fresh_db) -> None:
    create_campaign("Katanga 1961", "atomic_africa")
    create_platoon(
        campaign_id("Katanga 1961"),
        "1st Platoon",
        training=8,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader_name="Lt. Okafor",
        leader_xp=2,
    )
    for n in range(1, 13):
        log_battle(
            platoon_id("1st Platoon"),
            wounds=n % 5 + 1,
            leader_wounds=min(n % 3, n % 5 + 1),
            objectives=n % 3,
            outcome=("victory", "defeat", "draw")[n % 3],
            scenario=f"Bridge {n}",
            opponent="Gendarmes",
            date=datetime.date(1961, 2, n),
            dice=SeededDice(n * 7),
            replacement_name=f"Lt. New {n}",
            notes=f"Battle {n}: held the bridge until dusk, then fell back." if n % 2 else "",
        )
    data = history_from_report(history_report(platoon_id("1st Platoon")))
    for paper in ("a4", "letter"):
        pdf = build_history_report(data, paper=paper, printed_on=DAY)
        assert smallest_font(pdf) >= FLOOR - 0.01
        assert all(g.edge_distance() >= SAFE for g in pdf_geometry(pdf))


@pytest.mark.parametrize("size", list(CARD_SIZES))
def test_cards_never_print_below_the_floor(size: str) -> None:
    """Every shipped card on the smallest size (poker) and on a size whose text grows (tarot); every fifth
    card on the others (each card's own fit is checked at every size by test_cards_pdf)."""
    library = load_decks()
    cards = select_cards(library)
    if size not in ("poker", "tarot"):
        cards = cards[::5]
    out = io.BytesIO()
    build_cards_pdf(cards, out, decks=library, size=size, paper="a4", layout="backs")
    assert smallest_font(out.getvalue()) >= FLOOR - 0.01


def test_alignment_sheet_never_prints_below_the_floor() -> None:
    out = io.BytesIO()
    build_alignment_test(out, paper="letter")
    assert smallest_font(out.getvalue()) >= FLOOR - 0.01
