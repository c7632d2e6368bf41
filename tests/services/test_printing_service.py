"""services.printing: atomic writes, paper checks, jobs that build without the database."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from campaign_app.services import printing
from campaign_app.services.common import ServiceError


def test_write_is_atomic_when_the_rename_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "sheet.pdf"
    out.write_bytes(b"old")

    def broken(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(ServiceError, match="disk full"):
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
    job = printing.prepare("sheet", platoons=[DEMO_PLATOON], paper="a4")
    close_db()
    data, details = job.run()
    assert data.startswith(b"%PDF-") and details["pages"] == 1 and details["platoons"] == [DEMO_PLATOON]


def test_unknown_kind() -> None:
    with pytest.raises(ServiceError, match="nothing called 'poster'"):
        printing.prepare("poster")
