"""Printouts that know when they are stale: a test prints, changes things (and undoes some), and checks
exactly which printouts are reported stale and what changed; the stamp on every page; on both engines."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from pypdf import PdfReader

from campaign_app.rules.dice import SeededDice
from campaign_app.services import battles, platoons, printing, prints
from campaign_app.services.chronicle import add_entry, chronicle
from campaign_app.services.print_requests import ChronicleRequest, HistoryRequest, StandingsRequest, UnitSheetRequest
from campaign_app.store import journal_replay
from campaign_app.store.models import PrintRecord
from tests.ids import campaign_id, platoon_id


def _print(kind: str, out: Path, **options: object) -> None:
    printing.print_pdf(kind, out, **options)


def _stale(campaign: str = "Congo 1960") -> dict[str, tuple[str, ...]]:
    return {s.title: s.changes for s in prints.stale_prints(campaign_id(campaign))}


def test_printouts_go_stale_exactly_and_undo_makes_them_current(congo_platoon, tmp_path: Path) -> None:
    pid = congo_platoon(rival=True)
    red = platoon_id("Red Company")
    _print(UnitSheetRequest(platoons=(pid, platoon_id("Red Company"))), tmp_path / "sheets.pdf")
    _print(HistoryRequest(platoon=pid), tmp_path / "history.pdf")
    _print(StandingsRequest(campaign=campaign_id("Congo 1960")), tmp_path / "standings.pdf")
    _print(ChronicleRequest(campaign=campaign_id("Congo 1960")), tmp_path / "chronicle.pdf")
    assert PrintRecord.select().count() == 5
    assert _stale() == {}

    # a die changed by hand: 2nd Platoon's sheet, and its history report (which lists the changes made by hand);
    # not the standings, the chronicle or Red Company's sheet
    platoons.set_platoon(pid, training=12)
    dice_change = {
        "Unit Data Sheet: 2nd Platoon": ("Training d10 \u2192 d12",),
        "History report: 2nd Platoon": ("Changes by hand 0 \u2192 1",),
    }
    assert _stale() == dice_change

    # a battle against Red Company: the sheet, history, standings and chronicle of the campaign change;
    # Red Company's own sheet does not (its battles are its own)
    battles.log_battle(pid, wounds=0, leader_wounds=0, outcome="victory", opponent_platoon=red, dice=SeededDice(5))
    stale = _stale()
    assert set(stale) == {
        "Unit Data Sheet: 2nd Platoon",
        "History report: 2nd Platoon",
        "Standings: Congo 1960",
        "Chronicle: Congo 1960",
    }
    assert stale["Unit Data Sheet: 2nd Platoon"][0] == "battle 1"
    assert "Training d10 \u2192 d12" in stale["Unit Data Sheet: 2nd Platoon"]
    notice = prints.platoon_notices(pid)
    assert notice == [
        "printed sheet out of date: 2 changes since (battle 1, Training d10 \u2192 d12)",
        "printed history report out of date: 1 change since (battle 1)",
    ]
    # (the battle's consequences, XP and the leader, are not repeated beside it; the history's changes by hand are
    # the battle's too)
    assert prints.platoon_notices(red) == []

    # undo the battle: everything but the dice change is current again
    journal_replay.undo()
    assert _stale() == dice_change
    # undo the dice too: nothing is stale; redo the dice: the sheet is stale again
    journal_replay.undo()
    assert _stale() == {}
    journal_replay.redo()
    assert _stale() == dice_change
    # changing it back by hand: the sheet is current again (what it would print is what it printed); the history
    # report now lists two changes by hand
    platoons.set_platoon(pid, training=10)
    assert _stale() == {"History report: 2nd Platoon": ("Changes by hand 0 \u2192 2",)}
    _print(HistoryRequest(platoon=pid), tmp_path / "history2.pdf")

    # a campaign entry: only the chronicle
    add_entry(campaign_id("Congo 1960"), "Season 2 begins", "Rains.", _dt.date(2026, 2, 1))
    assert set(_stale()) == {"Chronicle: Congo 1960"}
    assert chronicle(campaign_id("Congo 1960")).items[-1].headline == "Season 2 begins"
    # printed again: current; the newest printout of a subject is the one that counts
    _print(ChronicleRequest(campaign=campaign_id("Congo 1960")), tmp_path / "chronicle2.pdf")
    assert _stale() == {}
    # undoing the print forgets it: the older printout counts again, and it is stale
    journal_replay.undo()
    assert set(_stale()) == {"Chronicle: Congo 1960"}


def test_every_page_carries_the_stamp_and_the_qr_code_is_optional(congo_platoon, tmp_path: Path) -> None:
    pid = congo_platoon(rival=True)
    _print(UnitSheetRequest(platoons=(pid, platoon_id("Red Company")), qr=True), tmp_path / "a.pdf")
    reader = PdfReader(tmp_path / "a.pdf")
    assert len(reader.pages) == 2
    position = prints.position()
    for page in reader.pages:
        text = page.extract_text()
        assert "Congo 1960 \u00b7 Unit Data Sheets: 2nd Platoon, Red Company" in text
        assert f"journal {position}" in text and "check " in text
        assert "/XObject" in str(page.get("/Resources")) or page.get_contents() is not None
    with_qr = (tmp_path / "a.pdf").stat().st_size
    _print(UnitSheetRequest(platoons=(pid, platoon_id("Red Company"))), tmp_path / "b.pdf")
    assert (tmp_path / "b.pdf").stat().st_size < with_qr  # the QR code's modules are drawn only when asked
    # printing twice does not move the stamp's journal position (remembering a print is not a change)
    assert prints.position() == position


def test_a_deleted_platoon_shows_its_printout_as_gone(congo_platoon, tmp_path: Path) -> None:
    congo_platoon(rival=True)
    _print(UnitSheetRequest(platoons=(platoon_id("Red Company"),)), tmp_path / "a.pdf")
    platoons.delete_platoon(platoon_id("Red Company"))
    assert prints.stale_prints(campaign_id("Congo 1960")) == []  # its records went with it (ON DELETE CASCADE)
    journal_replay.undo()
    assert prints.stale_prints(campaign_id("Congo 1960")) == []  # and came back with it, current
