"""Sologear campaign sheet and battle form PDF: blank forms, filled from the services (the seed's worked
example), the reckoning once the campaign is over, long campaigns over several pages, identical bytes."""

from __future__ import annotations

import datetime

import pytest
from sheet_pdf_checks import A4, LETTER, assert_fonts_embedded, assert_paper, page_texts, reader, text

from campaign_app.printing.sologear_sheet import (
    ForceRow,
    FormRow,
    SologearSheetData,
    build_sologear_sheet,
)
from campaign_app.rules.dice import SeededDice, TypedDice
from campaign_app.rules.enums import TurnAction
from campaign_app.services import sologear_play as play_service
from campaign_app.services import sologear_sheet as sheet_service

DAY = datetime.date(2024, 5, 1)


@pytest.fixture
def badlands(fresh_db) -> int:
    """The seed's example: two regular companies (700) against a veteran, firm company (1350)."""
    edit = sheet_service.create_sheet(
        "Badlands 1932",
        "Janne",
        250,
        date="TN1932",
        area="Badlands hill",
        gear_name="Jäger",
        player_unit="Janne's Regiment",
        player_affiliation="Northern Guard",
        enemy_unit="Johnboy's Company",
        enemy_affiliation="Southern Republic",
    )
    sheet = edit.id
    sheet_service.add_force(sheet, "player", "1st Company", base_power=350, skill="regular", loyalty="reliable")
    sheet_service.add_force(sheet, "player", "2nd Company", base_power=350, skill="regular", loyalty="reliable")
    sheet_service.add_force(sheet, "enemy", "Johnboy's Company", base_power=400, skill="veteran", loyalty="firm")
    play_service.roll_length(sheet, TypedDice([[2]]))
    return sheet


def _play_out(sheet: int) -> None:
    """Play every turn (DEC, then FIG(+1)), record each battle, and do the reckoning."""
    n = 0
    while not sheet_service.next_turn(sheet).blocked:
        n += 1
        action = "dec" if n == 1 else "fig"
        play_service.play_turn(sheet, action, 1 if action == "fig" else None, dice=SeededDice(n))
        last = sheet_service.sheet_data(sheet).turns[-1]
        if last.battle and not last.recorded:
            play_service.record_turn(sheet, last.turn, glory=last.glory or 0, enemy_tv=last.enemy_tv or 0, bunkers=1)
    play_service.end_campaign(sheet, SeededDice(5))


def test_blank_forms() -> None:
    pdf = build_sologear_sheet(None, paper="a4", printed_on=DAY)
    pages = page_texts(pdf)
    assert len(pages) == 2
    assert_paper(pdf, A4)
    assert_fonts_embedded(pdf)
    sheet, form = pages
    assert "CAMPAIGN SHEET" in sheet and "BATTLE FORM" in form
    for label in (
        "Date of campaign",
        "Campaign area",
        "Player unit",
        "Enemy unit",
        "Player affiliation",
        "Enemy affiliation",
        "Campaign length",
        "Campaign odds",
    ):
        assert label in sheet
    assert sheet.count("TOTAL COMBAT POWER") == 2
    assert "Unit name Base power Unit skill Unit loyalty Unit total" in sheet
    # the rules' own tables: skill and loyalty multipliers, odds bands
    assert "Veteran 2.25" in sheet and "Firm 1.5" in sheet and "≥ 3.00 Winning" in sheet
    assert "Turn Action Enemy Glory Special" in form
    assert " 17 18 " in form and "END OF CAMPAIGN" in form and "Recognition" in form and "Impression" in form
    assert "blank form" in form
    letter = build_sologear_sheet(None, paper="letter", printed_on=DAY)
    assert len(reader(letter).pages) == 2  # the form and its reckoning still fit on one page
    assert_paper(letter, LETTER)


def test_filled_from_the_services(badlands: int) -> None:
    play_service.play_turn(badlands, TurnAction.FIG, 1, dice=SeededDice(11))
    data = sheet_service.print_data(sheet_service.sheet_data(badlands))
    pdf = build_sologear_sheet(data, paper="letter", printed_on=DAY)
    assert_paper(pdf, LETTER)
    assert_fonts_embedded(pdf)
    sheet, form = page_texts(pdf)
    for expected in (
        "Badlands 1932",
        "TN1932",
        "Badlands hill",
        "Janne's Regiment",
        "Johnboy's Company",
        "Northern Guard",
        "Southern Republic",
        "Jäger (TV 250)",
        "2 turns",
        "0.52 (Equal)",
        "1st Company 350 Regular ×1 Reliable ×1 350",
        "Veteran ×2.25 Firm ×1.5 1350",
        "TOTAL COMBAT POWER 700",
        "TOTAL COMBAT POWER 1350",
        "700 ÷ 1350 = 0.52",
    ):
        assert expected in sheet, expected
    assert "1 FIG(+1)" in form and "not recorded yet" in form
    assert "2 " in form  # the second turn's row waits to be filled in
    # not over yet: the reckoning is an empty worksheet to finish by hand
    assert "THE RECKONING" in form and "Recognition ______" in form and "Rolled D66" not in form
    assert "Pilot Janne" in form and "Jäger (TV 250)" in form


def test_the_reckoning_prints_when_the_campaign_is_over(badlands: int) -> None:
    _play_out(badlands)
    data = sheet_service.print_data(sheet_service.sheet_data(badlands))
    assert data.reckoning is not None
    pdf = build_sologear_sheet(data, paper="a4", printed_on=DAY)
    t = text(pdf)
    assert "END OF CAMPAIGN: THE RECKONING" in t
    assert "1 DEC" in t and "2 FIG(+1)" in t and "1 bunker" in t
    rec = data.reckoning
    assert f"Recognition {rec.recognition} → noticed on a D66 of {rec.noticed_on}" in t
    assert f"Rolled D66 {rec.d66}" in t
    assert ("noticed" if rec.noticed else "not noticed") in t
    assert "Campaign over" in t


def test_long_campaign_runs_over_pages_with_the_header_repeated() -> None:
    turns = tuple(FormRow(str(n), "FIG(+2)", "300/300 TV", "2", "1 bunker, light critical") for n in range(1, 61))
    data = SologearSheetData(
        name="Ferocious",
        pilot="Kara",
        gear_tv=350,
        length=60,
        turns=turns,
        player=(ForceRow("A Company", 400, "elite", 4, "firm", 1.5, 2400),),
        enemy=(ForceRow("B Company", 300, "regular", 1, "reliable", 1, 300),),
        player_total=2400,
        enemy_total=300,
        odds_ratio=8.0,
        odds_band="Winning",
        ferocious=True,
    )
    pdf = build_sologear_sheet(data, paper="a4", printed_on=DAY)
    pages = page_texts(pdf)
    assert len(pages) >= 3
    assert all("Turn Action Enemy Glory Special" in p for p in pages[1:])
    assert "60 FIG(+2)" in pages[-1]
    assert "ferocious battles" in pages[0] and "8.00 (Winning)" in pages[0]


def test_identical_input_gives_identical_bytes(badlands: int) -> None:
    data = sheet_service.print_data(sheet_service.sheet_data(badlands))
    first = build_sologear_sheet(data, paper="a4", printed_on=DAY)
    assert first == build_sologear_sheet(data, paper="a4", printed_on=DAY)
    assert first != build_sologear_sheet(data, paper="a4", printed_on=datetime.date(2024, 5, 2))
    assert build_sologear_sheet(None, printed_on=DAY, paper="a4") == build_sologear_sheet(
        None, printed_on=DAY, paper="a4"
    )


def test_sheet_without_forces_says_odds_are_not_known_yet(fresh_db) -> None:
    edit = sheet_service.create_sheet("Empty", "Pilot", 120)
    pdf = build_sologear_sheet(sheet_service.print_data(sheet_service.sheet_data(edit.id)), paper="a4", printed_on=DAY)
    assert len(reader(pdf).pages) == 2
    assert "Odds are worked out once both sides have units" in text(pdf)
