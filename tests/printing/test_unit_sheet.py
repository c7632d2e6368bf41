"""The Unit Data Sheet PDF: one page per platoon, paper sizes, the platoon's data on its page, blank and
pencil modes, embedded fonts, byte-identical output."""

from __future__ import annotations

import datetime

import pytest
from sheet_pdf_checks import A4, LETTER, assert_fonts_embedded, assert_paper, page_texts, reader, text

from campaign_app.errors import Refused
from campaign_app.printing.unit_sheet import (
    AttachedUnitData,
    BlankSheet,
    LeaderData,
    UnitSheet,
    Weapon,
    build_unit_sheets,
    die_drawing,
    unit_sheet_from_detail,
    xp_box_states,
)
from campaign_app.rules.experience import Thresholds
from tests.ids import platoon_id

DAY = datetime.date(2024, 5, 1)


def platoon(**changes: object) -> UnitSheet:
    values: dict[str, object] = dict(
        name="2nd Platoon",
        campaign="Congo 1960",
        training=10,
        equipment=10,
        morale=8,
        armor=2,
        xp=6,
        leader=LeaderData("Okafor", "Lieutenant", 2),
        weapons=(Weapon("Recoilless rifle", "point", -2, "point"),),
        attached=(
            AttachedUnitData("Weapons team", "team", 8, 10, 8, 2, weapons=(Weapon("Medium machine gun", "dispersed"),)),
            AttachedUnitData("Mortars", "fire_support", support="light"),
        ),
        notes="Tired after the river crossing.",
        former_leaders=("Sgt. Mbeki (casualty)",),
    )
    values.update(changes)
    return UnitSheet(**values)  # type: ignore[arg-type]


def test_filled_sheet_has_the_platoon_on_one_a4_page() -> None:
    pdf = build_unit_sheets([platoon()], paper="a4", printed_on=DAY)
    assert len(reader(pdf).pages) == 1
    assert_paper(pdf, A4)
    assert_fonts_embedded(pdf)
    t = text(pdf)
    for expected in (
        "2nd Platoon",
        "Congo 1960",
        "Training",
        "d10 Professional",
        "Equipment",
        "d10 Modern",
        "Morale",
        "d8 Steady",
        "medium infantry",
        "6 XP · Regular",
        "2 XP · Green",
        "Okafor",
        "Lieutenant",
        "Regular (3) → 6 cards",
        "Green (2) → 4 cards",
        "Recoilless rifle",
        "AP −2 vs point",
        "Weapons team",
        "Medium machine gun (dispersed)",
        "fire support (light)",
        "Tired after the river crossing.",
        "Sgt. Mbeki (casualty)",
        "Printed 2024-05-01",
        "G 1, R 4, V 9, L 16",
    ):
        assert expected in t, expected
    # orders cards: 2 x 3 + 2 x 2 = 10, one fewer with fire support, 6 with the leader off the table
    assert "ORDERS CARDS PER TURN 10" in t and "WITH FIRE SUPPORT 9" in t and "LEADER OFF THE TABLE 6" in t


def test_letter_paper_and_the_locale_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert_paper(build_unit_sheets([platoon()], paper="letter", printed_on=DAY), LETTER)
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert_paper(build_unit_sheets([platoon()], printed_on=DAY), LETTER)
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert_paper(build_unit_sheets([platoon()], printed_on=DAY), A4)
    with pytest.raises(Refused, match="unknown paper"):
        build_unit_sheets([platoon()], paper="a5")


def test_several_platoons_one_page_each() -> None:
    sheets = [platoon(name=f"Platoon {n}", xp=n * 3) for n in range(1, 5)]
    pdf = build_unit_sheets(sheets, paper="a4", printed_on=DAY)
    pages = page_texts(pdf)
    assert len(pages) == 4
    for n, page in enumerate(pages, start=1):
        assert f"Platoon {n}" in page
        assert f"{n * 3} XP" in page


def test_blank_sheet_prints_no_values() -> None:
    pdf = build_unit_sheets([BlankSheet(campaign="Katanga")], paper="a4", printed_on=DAY)
    assert len(reader(pdf).pages) == 1
    assert_fonts_embedded(pdf)
    t = text(pdf)
    assert "Katanga" in t and "blank sheet" in t and "circle the die" in t
    assert "XP ·" not in t and "PLATOON PLATOON" not in t
    assert "PLATOON LEVEL LEADER LEVEL ORDERS CARDS PER TURN WITH FIRE SUPPORT LEADER OFF THE TABLE LEADER RANK" in t
    # the dice ladder and the level words are there to circle
    for word in ("d4", "d6", "d8", "d10", "d12", "Untrained", "Elite", "Broken", "Fanatical"):
        assert word in t


def test_pencil_mode_leaves_the_xp_to_the_pencil() -> None:
    pdf = build_unit_sheets([platoon()], pencil=True, paper="a4", printed_on=DAY)
    t = text(pdf)
    assert "pencil mode" in t and "2nd Platoon" in t and "d10 Professional" in t
    assert "6 XP" not in t and "Regular (3)" not in t
    # the light threshold scale and the letters stay
    assert "Green Regular Veteran Legendary" in t
    assert all(mark in t for mark in ("1 G 2", "4 R 5", "9 V 10", "16 L 17"))


def test_xp_boxes_shaded_to_the_current_xp_with_letters_over_thresholds() -> None:
    states = xp_box_states(6, Thresholds())
    assert len(states) == 32
    assert [n for n, _letter, filled in states if filled] == [1, 2, 3, 4, 5, 6]
    assert {n: letter for n, letter, _f in states if letter} == {1: "G", 4: "R", 9: "V", 16: "L"}
    assert not any(filled for _n, _l, filled in xp_box_states(None, Thresholds()))
    assert all(filled for _n, _l, filled in xp_box_states(32, Thresholds()))
    house = xp_box_states(0, Thresholds(2, 6, 12, 20))
    assert {n: letter for n, letter, _f in house if letter} == {2: "G", 6: "R", 12: "V", 20: "L"}


def test_house_thresholds_print_on_the_sheet() -> None:
    t = text(build_unit_sheets([platoon(thresholds=Thresholds(2, 6, 12, 20), xp=6)], paper="a4", printed_on=DAY))
    assert "G 2, R 6, V 12, L 20" in t and "6 XP · Regular" in t and "6–11" in t


def test_no_leader() -> None:
    t = text(build_unit_sheets([platoon(leader=None)], paper="a4", printed_on=DAY))
    assert "no leader" in t and "ORDERS CARDS PER TURN 6" in t


def test_long_lists_continue_on_further_pages_instead_of_shrinking() -> None:
    weapons = tuple(Weapon(f"Weapon {i}", "both", -i % 4 or None, "point") for i in range(14))
    attached = tuple(
        AttachedUnitData(f"Team {i}", "vehicle" if i % 2 else "team", 6, 8, 10, 3, weapons=weapons[:2])
        for i in range(8)
    )
    long_name = "The Extremely Long Named Independent Reconnaissance Platoon of the Northern Province"
    pdf = build_unit_sheets(
        [platoon(name=long_name, weapons=weapons, attached=attached, notes="x " * 400)], paper="letter", printed_on=DAY
    )
    pages = page_texts(pdf)
    assert len(pages) == 2
    t = text(pdf)
    assert "Weapon 13" in t and "Team 7" in t
    # the name wraps onto a second line at 11 pt: printed whole
    assert "The Extremely Long Named Independent" in pages[0] and "of the Northern Province CAMPAIGN" in pages[0]
    assert "Name Type T E M Armor" in pages[1]  # the table's header row again on the new page


def test_identical_input_gives_identical_bytes() -> None:
    first = build_unit_sheets([platoon(), BlankSheet()], paper="a4", printed_on=DAY)
    second = build_unit_sheets([platoon(), BlankSheet()], paper="a4", printed_on=DAY)
    assert first == second
    assert build_unit_sheets([platoon(xp=7), BlankSheet()], paper="a4", printed_on=DAY) != first


def test_nothing_to_print_is_refused() -> None:
    with pytest.raises(Refused, match="nothing to print"):
        build_unit_sheets([])


@pytest.mark.parametrize("sides", [4, 6, 8, 10, 12])
def test_every_die_is_drawn_with_its_label(sides: int) -> None:
    drawing = die_drawing(sides, 34, selected=sides == 8)
    labels = [node.text for node in drawing.contents if hasattr(node, "text")]
    assert labels == [f"d{sides}"]
    assert drawing.width == drawing.height == 34


def test_a_d20_has_no_drawing() -> None:
    with pytest.raises(ValueError, match="d20"):
        die_drawing(20, 30)


def test_sheet_data_from_the_roster_service(fresh_db) -> None:
    from campaign_app.services.demo import DEMO_PLATOON, create_demo
    from campaign_app.services.platoons import platoon_detail

    create_demo()
    sheet = unit_sheet_from_detail(platoon_detail(platoon_id(DEMO_PLATOON)))
    assert (sheet.name, sheet.training, sheet.equipment, sheet.morale, sheet.armor, sheet.xp) == (
        DEMO_PLATOON,
        10,
        10,
        8,
        2,
        6,
    )
    assert sheet.leader is not None and sheet.leader.name == "Lt. Okafor"
    assert [w.name for w in sheet.weapons] == ["Recoilless rifle"]
    assert sheet.weapons[0].ap_text() == "AP −2 vs point"
    assert [u.name for u in sheet.attached] == ["Weapons team"]
    assert sheet.attached[0].weapons[0].name == "Medium machine gun"
    assert sheet.thresholds == Thresholds()
