"""d12 Death Blow printouts read back with pypdf: the filled fighter sheet (level, XP boxes marked, record, what
the level gives, the Scale of Styles), the blank one, the bout round log, the cards with the fighters' figures."""

from __future__ import annotations

import datetime

import pytest
from sheet_pdf_checks import A4, LETTER, assert_fonts_embedded, assert_paper, page_texts, text

from campaign_app.printing.death_blow_sheets import FighterSheet, build_fighter_sheets
from campaign_app.rules.enums import BoutWinner
from campaign_app.services import campaigns as campaign_service
from campaign_app.services import death_blow as service
from campaign_app.services.common import ServiceError
from campaign_app.services.print_requests import BoutRequest, CardsRequest, FighterRequest
from campaign_app.services.printing import card_rules, prepare
from tests.ids import campaign_id, fighter_id

DAY = datetime.date(2026, 11, 1)


@pytest.fixture
def pit(fresh_db) -> None:  # type: ignore[no-untyped-def]
    campaign_service.create_campaign("Pit", "death-blow")
    service.create_fighter(campaign_id("Pit"), "Kenji", level=3)
    service.create_fighter(campaign_id("Pit"), "Mara")
    service.log_bout(
        fighter_id("Kenji"),
        opponent_fighter=fighter_id("Mara"),
        winner=BoutWinner.FIGHTER,
        face_cards=5,
        date=datetime.date(2026, 10, 1),
    )


def test_filled_fighter_sheet(pit) -> None:  # type: ignore[no-untyped-def]
    pdf = prepare(FighterRequest(fighters=(fighter_id("Kenji"),), paper="a4", printed_on=DAY)).run().data
    assert_paper(pdf, A4)
    assert_fonts_embedded(pdf)
    body = text(pdf)
    for expected in (
        "Kenji",
        "Pit",
        "Reaction Speed 3",
        "+3",
        "1\u20130\u20130",
        "Mara",
        "won, +5 XP",
        "All-Out Attack",
        "Iron Defense",
        "both dice",
        "Printed 2026-11-01",
    ):
        assert expected in body, expected
    assert body.count("\u2715") == 5  # five of the twelve boxes marked


def test_every_active_fighter_of_a_campaign_one_page_each(pit) -> None:  # type: ignore[no-untyped-def]
    built = prepare(FighterRequest(campaign=campaign_id("Pit"), paper="letter", printed_on=DAY)).run()
    assert built.pages == 2 and built.details.fighters == ("Kenji", "Mara")
    assert_paper(built.data, LETTER)
    pages = page_texts(built.data)
    assert "Kenji" in pages[0] and "Mara" in pages[1]


def test_blank_fighter_sheet() -> None:
    pdf = build_fighter_sheets([FighterSheet()], paper="a4", printed_on=DAY)
    body = text(pdf)
    assert "Name:" in body and "Reaction Speed = your level" in body and "\u2715" not in body
    assert "Mixed Defense" in body


def test_same_input_same_bytes(pit) -> None:  # type: ignore[no-untyped-def]
    one = prepare(FighterRequest(fighters=(fighter_id("Kenji"),), paper="a4", printed_on=DAY)).run().data
    two = prepare(FighterRequest(fighters=(fighter_id("Kenji"),), paper="a4", printed_on=DAY)).run().data
    assert one == two


def test_bout_round_log(pit) -> None:  # type: ignore[no-untyped-def]
    edit, solo = service.play_bout(fighter_id("Kenji"), fighter_id("Mara"), seed="print", dice=["7,3", "11,2"])
    built = prepare(BoutRequest(bout=edit.id, paper="a4", printed_on=DAY)).run()
    body = text(built.data)
    assert built.details.rounds == len(solo.rounds)
    assert "Kenji vs Mara" in body and "7,3*" in body and "11,2*" in body
    first = solo.rounds[0]
    assert first.a.card.label in body and first.b.card.label in body
    assert f"{len(solo.rounds)} rounds" in body
    with pytest.raises(ServiceError):
        prepare(BoutRequest(bout=None))


def test_cards_print_the_fighters_figures(pit) -> None:  # type: ignore[no-untyped-def]
    rules = card_rules(campaign_id("Pit"))
    assert rules.fighters == (("Kenji", 3, 5, 5), ("Mara", 0, 0, 0))
    built = prepare(CardsRequest(decks=("d12-death-blow",), campaign=campaign_id("Pit"), paper="a4")).run()
    body = text(built.data)
    assert "Kenji" in body and "5/12" in body and "+3" in body and "Rules: campaign Pit" in body
    blank = text(prepare(CardsRequest(decks=("d12-death-blow",), paper="a4")).run().data)
    assert "Kenji" not in blank and "The campaign's fighters" in blank
