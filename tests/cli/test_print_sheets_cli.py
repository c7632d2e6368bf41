"""``campaign-cli print sheet | sologear | history``: the PDFs they write, JSON output, one-line errors, and
no file (nor a half file) left behind when something is wrong."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from campaign_app.cli import main
from tests.ids import platoon_id

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


@pytest.fixture
def demo(cli) -> None:
    cli("demo")


def _pdf(path: Path) -> PdfReader:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    return PdfReader(io.BytesIO(data))


def _size(reader: PdfReader) -> tuple[float, float]:
    box = reader.pages[0].mediabox
    return round(float(box.width), 2), round(float(box.height), 2)


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".part")]


def test_print_sheet_of_a_platoon(cli, demo, tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    text = cli("print", "sheet", "--platoon", "2nd Platoon", "--paper", "a4", "-o", str(out))
    assert text.strip() == f"wrote {out}: 1 page"
    reader = _pdf(out)
    assert len(reader.pages) == 1 and _size(reader) == A4
    page = " ".join(reader.pages[0].extract_text().split())
    assert "2nd Platoon" in page and "d10 Professional" in page and "6 XP · Regular" in page


def test_print_several_platoons_on_letter_as_json(cli, demo, tmp_path: Path) -> None:
    cli(
        "platoon",
        "new",
        "--campaign",
        "Congo 1960 (sample)",
        "--name",
        "3rd Platoon",
        "--training",
        "d8",
        "--equipment",
        "d6",
        "--morale",
        "d12",
        "--armor",
        "1",
        "--xp",
        "10",
    )
    out = tmp_path / "sheets.pdf"
    data = json.loads(
        cli(
            "print",
            "sheet",
            "--platoon",
            "2nd Platoon",
            "--platoon",
            "3rd Platoon",
            "--paper",
            "letter",
            "--pencil",
            "-o",
            str(out),
            "--json",
        )
    )
    assert data["kind"] == "sheet" and data["pages"] == 2 and data["pencil"] is True
    assert data["output"] == str(out) and data["bytes"] == out.stat().st_size
    reader = _pdf(out)
    assert _size(reader) == LETTER
    assert "3rd Platoon" in reader.pages[1].extract_text()
    assert "d12 Fanatical" in " ".join(reader.pages[1].extract_text().split())


def test_print_blank_sheet_needs_no_platoon(cli, tmp_path: Path) -> None:
    out = tmp_path / "blank.pdf"
    data = json.loads(cli("print", "sheet", "--blank", "--paper", "a4", "-o", str(out), "--json"))
    assert data["pages"] == 1 and data["blank"] is True
    assert "circle the die" in _pdf(out).pages[0].extract_text()


def test_print_blank_sheet_for_a_campaign_uses_its_thresholds(cli, tmp_path: Path) -> None:
    cli("campaign", "new", "--name", "House", "--system", "atomic-africa")
    cli("campaign", "set", "House", "--thresholds", "2,5,10,20")
    out = tmp_path / "blank.pdf"
    cli("print", "sheet", "--blank", "--campaign", "House", "-o", str(out))
    page = " ".join(_pdf(out).pages[0].extract_text().split())
    assert "House" in page and "G 2, R 5, V 10, L 20" in page


def test_print_sologear_blank_and_filled(cli, tmp_path: Path, fresh_db) -> None:
    blank = tmp_path / "blank.pdf"
    cli("print", "sologear", "--blank", "-o", str(blank))
    assert len(_pdf(blank).pages) == 2
    from campaign_app.services import sologear_sheet as sheet_service

    sheet_service.create_sheet("Badlands", "Janne", 250)
    filled = tmp_path / "sologear.pdf"
    data = json.loads(cli("print", "sologear", "--campaign", "Badlands", "-o", str(filled), "--json"))
    assert data["pages"] == 2 and data["campaign"] == "Badlands"
    assert "Janne" in _pdf(filled).pages[0].extract_text()


def test_print_history(cli, demo, tmp_path: Path) -> None:
    from campaign_app.rules.dice import SeededDice
    from campaign_app.services.battles import log_battle

    log_battle(platoon_id("2nd Platoon"), wounds=2, outcome="victory", scenario="Ford", dice=SeededDice(3))
    out = tmp_path / "history.pdf"
    assert cli("print", "history", "--platoon", "2nd Platoon", "-o", str(out)).startswith("wrote ")
    page = " ".join(_pdf(out).pages[0].extract_text().split())
    assert "PLATOON HISTORY" in page and "Ford" in page and "victory" in page


@pytest.mark.parametrize(
    "argv, message",
    [
        (("print", "sheet"), "name at least one platoon"),
        (("print", "sheet", "--platoon", "Nobody"), "no platoon named 'Nobody'"),
        (("print", "sologear"), "name a Sologear campaign"),
        (("print", "sologear", "--campaign", "Nowhere"), "no Sologear campaign named 'Nowhere'"),
        (("print", "history", "--platoon", "Nobody"), "no platoon named 'Nobody'"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    cli, demo, tmp_path: Path, argv: tuple[str, ...], message: str
) -> None:
    out = tmp_path / "out.pdf"
    err = cli(*argv, "-o", str(out), rc=2)
    assert message in err
    assert not out.exists() and _leftovers(tmp_path) == []


def test_a_failed_print_leaves_the_old_file_alone(cli, demo, tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    out.write_bytes(b"old contents")
    cli("print", "sheet", "--platoon", "Nobody", "-o", str(out), rc=2)
    assert out.read_bytes() == b"old contents" and _leftovers(tmp_path) == []
    cli("print", "sheet", "--platoon", "2nd Platoon", "-o", str(out))
    assert out.read_bytes().startswith(b"%PDF-") and _leftovers(tmp_path) == []


def test_output_folder_problems(cli, tmp_path: Path) -> None:
    assert "does not exist" in cli("print", "sheet", "--blank", "-o", str(tmp_path / "no" / "x.pdf"), rc=2)
    assert "is a folder" in cli("print", "sologear", "--blank", "-o", str(tmp_path), rc=2)


def test_same_input_same_bytes(cli, demo, tmp_path: Path) -> None:
    # the footer carries the print date: both runs are on the same day
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    cli("print", "sheet", "--platoon", "2nd Platoon", "-o", str(first))
    cli("print", "sheet", "--platoon", "2nd Platoon", "-o", str(second))
    assert first.read_bytes() == second.read_bytes()


def test_help_lists_the_sheet_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["print", "--help"])
    out = capsys.readouterr().out
    assert all(name in out for name in ("sheet", "sologear", "history"))
