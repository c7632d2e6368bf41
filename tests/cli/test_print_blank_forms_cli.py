"""Blank Sologear forms print without a database: ``print sologear --blank`` opens none, and nothing is
remembered (a blank form shows nothing that can go out of date)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from pypdf import PdfReader

from campaign_app.store import close_db


def test_blank_sologear_forms_print_with_no_database_open(cli, tmp_path: Path) -> None:
    close_db()  # as a fresh CLI process: no database opened before the command
    out = tmp_path / "forms.pdf"
    data = json.loads(cli("print", "sologear", "--blank", "-o", str(out), "--json"))
    assert data["kind"] == "sologear" and data["blank"] is True and data["campaign"] is None and data["pages"] == 2
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    assert len(reader.pages) == 2 and "Sologear" in reader.pages[0].extract_text()
