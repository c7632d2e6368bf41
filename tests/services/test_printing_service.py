"""services.printing: atomic writes, paper checks, jobs that build without the database."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from campaign_app.errors import DiskFullError
from campaign_app.rules.experience import Thresholds
from campaign_app.services import printing
from campaign_app.services.common import ServiceError
from campaign_app.services.print_requests import CardsRequest, UnitSheetRequest
from tests.ids import campaign_id, platoon_id


def test_write_is_atomic_when_the_rename_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "sheet.pdf"
    out.write_bytes(b"old")

    def broken(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(DiskFullError, match="disk full"):
        printing.write_pdf_atomic(out, b"%PDF-new")
    assert out.read_bytes() == b"old"
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_write_replaces_and_keeps_the_mode(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    out.write_bytes(b"old")
    out.chmod(0o640)
    assert printing.write_pdf_atomic(out, b"%PDF-new") == out
    assert out.read_bytes() == b"%PDF-new" and out.stat().st_mode & 0o777 == 0o640


def test_paper_names() -> None:
    assert printing.check_paper(None) is None and printing.check_paper("Letter") == "letter"
    with pytest.raises(ServiceError, match="unknown paper 'a5'"):
        printing.check_paper("a5")


def test_a_prepared_job_builds_after_the_database_is_closed() -> None:
    from campaign_app.services.demo import DEMO_PLATOON, create_demo
    from campaign_app.store import close_db

    create_demo()
    job = printing.prepare(UnitSheetRequest(platoons=(platoon_id(DEMO_PLATOON),), paper="a4"))
    close_db()
    built = job.run()
    assert built.data.startswith(b"%PDF-") and built.pages == 1 and built.size == len(built.data)
    assert built.details == printing.SheetDetails(platoons=(DEMO_PLATOON,), blank=False, pencil=False)
    assert built.to_dict() == {
        "platoons": [DEMO_PLATOON],
        "blank": False,
        "pencil": False,
        "pages": 1,
        "bytes": len(built.data),
    }


def test_unknown_kind() -> None:
    with pytest.raises(ServiceError, match="nothing called 'poster'"):
        printing.prepare("poster")


def test_cards_follow_a_campaigns_house_rules() -> None:
    """Atomic Africa: thresholds, objective XP and the replacement leader's dice; Sologear: the sheet's reward
    dice and ferocious battles; no campaign: the default rules, said on the cards."""
    import io

    from pypdf import PdfReader

    from campaign_app.services import campaigns
    from campaign_app.services import sologear_sheet as sheet_service

    def text(pdf: bytes) -> str:
        return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())

    campaigns.create_campaign(
        "Katanga", "atomic_africa", thresholds=Thresholds(2, 5, 10, 20), objective_xp_to="platoon", replacement_dice=1
    )
    rules = printing.card_rules(campaign_id("Katanga"))
    assert (rules.campaign, rules.objective_xp_to, rules.replacement_dice) == ("Katanga", "platoon", 1)
    aa_cards = ["atomic-africa/award-recovery", "atomic-africa/replacement", "atomic-africa/orders-table"]
    built = printing.prepare(CardsRequest(cards=aa_cards, campaign=campaign_id("Katanga"), paper="a4")).run()
    t = text(built.data)
    assert isinstance(built.details, printing.CardsDetails)
    assert built.details.rules == "Rules: campaign Katanga" and "Rules: campaign Katanga" in t
    assert "the platoon only (house rule)" in t and "one die − 1 (house rule)" in t and "Regular 5+" in t
    sheet_service.create_sheet("Hill 214", "Janne", 250, reward_dice="2d6", ferocious=True)
    built = printing.prepare(
        CardsRequest(cards=("sologear/rewards", "sologear/ferocious"), campaign=campaign_id("Hill 214"), paper="a4")
    ).run()
    t = text(built.data)
    assert "2d6 + Impression" in t and "this campaign: on" in t and "1d6 + Impression" not in t
    built = printing.prepare(CardsRequest(cards=aa_cards, paper="a4")).run()
    assert "Rules: default rules" in text(built.data) and built.to_dict()["rules"] == "Rules: default rules"
    with pytest.raises(ServiceError, match="no campaign"):
        printing.prepare(CardsRequest(decks=("sologear",), campaign=campaign_id("Nowhere"), paper="a4"))
