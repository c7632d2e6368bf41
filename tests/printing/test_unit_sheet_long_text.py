"""Long text on the Unit Data Sheet, measured from the PDF itself (pypdf): a long leader name wraps and is
printed whole, and a section heading never stands alone at the foot of a page."""

from __future__ import annotations

import datetime
import re

import pytest
from pdfgeom import smallest_font
from sheet_pdf_checks import page_texts

from campaign_app.printing.unit_sheet import AttachedUnitData, LeaderData, UnitSheet, Weapon, build_unit_sheets

DAY = datetime.date(2024, 5, 1)
LONG_LEADER = "Sous-lieutenant Jean-Baptiste Mbeki-Kalonji de la Rivi\u00e8re"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_long_leader_name_wraps_never_cut(paper: str) -> None:
    sheet = UnitSheet(
        name="2nd Platoon",
        campaign="Congo 1960",
        training=10,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader=LeaderData(LONG_LEADER, "Lieutenant", 2),
        former_leaders=("Sgt. Mbeki (casualty)",),
    )
    pdf = build_unit_sheets([sheet], paper=paper, printed_on=DAY)
    first = page_texts(pdf)[0]
    assert "\u2026" not in first
    flat = re.sub(r"-\s+", "-", first)
    assert LONG_LEADER in flat, first
    assert "Before: Sgt. Mbeki (casualty)" in first
    assert smallest_font(pdf) >= 7.0 - 0.01


def _crowded() -> UnitSheet:
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
        name="2nd Platoon",
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
@pytest.mark.parametrize("leader", ["Okafor", LONG_LEADER])
def test_a_section_heading_stays_with_the_start_of_its_table(paper: str, leader: str) -> None:
    sheet = _crowded()
    sheet = UnitSheet(**{**sheet.__dict__, "leader": LeaderData(leader, "Lieutenant", 2)})
    pdf = build_unit_sheets([sheet], paper=paper, printed_on=DAY)
    for n, page in enumerate(page_texts(pdf)):
        for heading, first_row in (
            ("HEAVY WEAPONS AND SPECIAL EQUIPMENT", "Heavy weapon 0"),
            ("ATTACHED UNITS", "Attached team 0"),
        ):
            if heading in page:
                assert first_row in page, (paper, n + 1, heading)


@pytest.mark.parametrize("pencil", [False, True])
def test_the_longest_leader_name_and_rank_the_app_takes_are_printed_whole(pencil: bool) -> None:
    name = ("Sous-lieutenant Jean-Baptiste Mbeki-Kalonji de la Rivi\u00e8re et de Saint-Pierre-Mont" + "x" * 80)[:80]
    rank = ("Adjudant-chef de premi\u00e8re classe de la Force Publique, section de reconnaissance" + "y" * 80)[:80]
    sheet = UnitSheet(
        name="2nd Platoon",
        campaign="Congo 1960",
        training=10,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader=LeaderData(name, rank, 2),
    )
    for paper in ("a4", "letter"):
        pdf = build_unit_sheets([sheet], paper=paper, pencil=pencil, printed_on=DAY)
        first = page_texts(pdf)[0]
        assert "\u2026" not in first
        flat = re.sub(r"-\s+", "-", first)
        assert flat.count(name) >= 1 and (pencil or rank in flat), first
        assert smallest_font(pdf) >= 7.0 - 0.01
