"""Every count a printout or a card PDF prints reads in the singular for one: "1 platoon", "1 battle, 1 entry",
"1 round", "1 turn", "1 card" (read back from the PDF with pypdf)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from sheet_pdf_checks import reader, text

from campaign_app.printing.cards import build_cards_pdf
from campaign_app.printing.chronicle_report import ChronicleData, DiaryItem, build_chronicle_report
from campaign_app.printing.death_blow_sheets import BoutLog, build_bout_log
from campaign_app.printing.decks import load_decks, select_cards
from campaign_app.printing.sologear_sheet import SologearSheetData, build_sologear_sheet
from campaign_app.printing.standings_report import build_standings_report
from campaign_app.services.printing import standings_data
from campaign_app.services.standings import PlatoonStanding, Standings

ONE_PLURAL = re.compile(r"(?<![\d.,])1 (platoons|battles|entries|rounds|turns|battle turns|cards)\b")


def standings_of_one_platoon() -> str:
    platoon = PlatoonStanding(
        platoon_id=1,
        platoon="2nd Platoon",
        owner="",
        battles=1,
        victories=1,
        draws=0,
        defeats=0,
        objective_xp=1,
        wounds=0,
        xp_lost=0,
        leaders_lost=0,
        xp=3,
        level="Green",
    )
    standings = Standings(
        campaign="Congo 1960",
        campaign_id=1,
        system="atomic_africa",
        on_server=False,
        platoons=(platoon,),
        head_to_head=(),
        pilots=(),
    )
    return text(build_standings_report(standings_data(standings)))


def chronicle_of_one_battle_and_one_entry() -> str:
    data = ChronicleData(
        campaign="Congo 1960",
        items=(
            DiaryItem("battle", "1960-07-11", "2nd Platoon beat the Katangese at the bridge"),
            DiaryItem("entry", "1960-07-12", "Rain all day; the river rose"),
        ),
    )
    return text(build_chronicle_report(data))


def bout_of_one_round() -> str:
    side = {
        "card": "7\u2665",
        "dice": (3, 5),
        "initiative": 8,
        "style": "mixed-offense",
        "final_style": "mixed-offense",
        "attack": 4,
        "defense": 3,
        "damage": 2,
        "cards_left": 9,
    }
    log = BoutLog(
        bout_id=1,
        date="2024-05-01",
        campaign="Pit",
        fighter="Rook",
        opponent="Vane",
        fighter_level=1,
        opponent_level=1,
        winner="Rook",
        face_cards_left=3,
        xp_gained=1,
        seed=None,
        dice_note="dice rolled by the app",
        rounds=({"round": 1, "a": side, "b": side},),
    )
    return text(build_bout_log(log))


def sologear_campaign_of_one_turn() -> str:
    data = SologearSheetData(name="Hill 214", pilot="Janne", gear_tv=350, length=1, length_dice="1d6")
    return text(build_sologear_sheet(data))


def one_card() -> str:
    library = load_decks()
    out = io.BytesIO()
    build_cards_pdf(select_cards(library)[:1], out, decks=library, paper="a4")
    metadata = reader(out.getvalue()).metadata
    assert metadata is not None
    return str(metadata.subject)


PRINTOUTS: dict[str, tuple[Callable[[], str], tuple[str, ...]]] = {
    "standings": (standings_of_one_platoon, ("1 platoon",)),
    "chronicle": (chronicle_of_one_battle_and_one_entry, ("1 battle, 1 entry",)),
    "bout log": (bout_of_one_round, ("1 round",)),
    "Sologear sheet": (sologear_campaign_of_one_turn, ("1 turn", "1 battle turn")),
    "cards (the PDF's subject)": (one_card, ("1 card,",)),
}


@pytest.mark.parametrize("name", list(PRINTOUTS))
def test_a_count_of_one_is_printed_in_the_singular(name: str) -> None:
    make, singular = PRINTOUTS[name]
    printed = make()
    assert ONE_PLURAL.findall(printed) == [], printed
    for words in singular:
        assert words in printed
