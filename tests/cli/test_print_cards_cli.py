"""``campaign-cli print cards`` and ``print decks``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from campaign_app.cli import main
from campaign_app.paths import AppPaths


def run(capsys: pytest.CaptureFixture[str], app_paths: AppPaths, *args: str) -> tuple[int, str, str]:
    code = main(["--data-dir", str(app_paths.data_dir), *args])
    out, err = capsys.readouterr()
    return code, out, err


def pages(path: Path) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(path.read_bytes())).pages]


def test_print_decks_json(capsys: pytest.CaptureFixture[str], app_paths: AppPaths) -> None:
    code, out, _ = run(capsys, app_paths, "print", "decks", "--json")
    assert code == 0
    data = json.loads(out)
    decks = {d["id"]: d for d in data["decks"]}
    assert {"atomic-africa", "sologear", "d12-death-blow", "one-hour-wwii", "space-fantasy", "mass-combat"} <= set(
        decks
    )
    d12 = decks["d12-death-blow"]
    assert d12["title"] == "d12 Death Blow" and d12["system"] and Path(d12["source"]).is_dir()
    card = d12["cards"][0]
    assert set(card) >= {"id", "full_id", "title", "source"} and Path(card["source"]).is_file()
    assert data["problems"] == [] and data["user_decks_dir"] == str(app_paths.user_decks_dir)
    tables = {t["name"]: t["description"] for t in data["rule_tables"]}
    assert "aa.recovery_odds" in tables and "sologear.combat" in tables and all(tables.values())


def test_print_decks_text(capsys: pytest.CaptureFixture[str], app_paths: AppPaths) -> None:
    code, out, _ = run(capsys, app_paths, "print", "decks")
    assert code == 0
    assert "d12-death-blow: d12 Death Blow" in out and "  sologear/combat-1: Combat table" in out


def test_print_cards_of_a_deck(capsys: pytest.CaptureFixture[str], app_paths: AppPaths, tmp_path: Path) -> None:
    out_pdf = tmp_path / "cards.pdf"
    code, out, err = run(
        capsys, app_paths, "print", "cards", "--deck", "d12-death-blow", "--paper", "a4", "-o", str(out_pdf)
    )
    assert code == 0, err
    assert f"wrote {out_pdf}: 5 cards on 1 page" in out  # the fifth is the Death Blow fighters card
    text = pages(out_pdf)[0]
    assert "Scale of styles" in text and "Fighter" in text
    assert not list(tmp_path.glob("*.part"))


def test_print_cards_options_json(capsys: pytest.CaptureFixture[str], app_paths: AppPaths, tmp_path: Path) -> None:
    out_pdf = tmp_path / "cards.pdf"
    code, out, err = run(
        capsys,
        app_paths,
        "print",
        "cards",
        "--card",
        "sologear/combat-1",
        "--card",
        "fighter",
        "--size",
        "tarot",
        "--paper",
        "letter",
        "--grayscale",
        "--backs",
        "--json",
        "-o",
        str(out_pdf),
    )
    assert code == 0, err
    data = json.loads(out)
    assert data == {
        "output": str(out_pdf),
        "pages": 2,
        "cards": 2,
        "per_page": 4,
        "rotated": False,
        "paper": "letter",
        "size": "tarot",
        "layout": "backs",
        "smallest_font": data["smallest_font"],
        "margin_mm": 6.5,
        "bleed_mm": 0.0,
        "offset_x_mm": 0.0,
        "offset_y_mm": 0.0,
        "back_style": "pattern",
        "rules": "Rules: default rules",
    }
    assert data["smallest_font"] >= 7
    reader = PdfReader(io.BytesIO(out_pdf.read_bytes()))
    assert [round(float(p.mediabox.width)) for p in reader.pages] == [612, 612]
    texts = pages(out_pdf)
    assert "Winning" in texts[0] and "Sologear" in texts[1]


def test_print_cards_fold(capsys: pytest.CaptureFixture[str], app_paths: AppPaths, tmp_path: Path) -> None:
    out_pdf = tmp_path / "fold.pdf"
    code, _, err = run(
        capsys, app_paths, "print", "cards", "--deck", "mass-combat", "--fold", "--paper", "a4", "-o", str(out_pdf)
    )
    assert code == 0, err
    assert "Quick and Dirty Mass Combat" in " ".join(pages(out_pdf))


def test_backs_and_fold_exclude_each_other(
    capsys: pytest.CaptureFixture[str], app_paths: AppPaths, tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exc:
        run(capsys, app_paths, "print", "cards", "--backs", "--fold", "-o", str(tmp_path / "x.pdf"))
    assert exc.value.code == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--deck", "nope"], "no deck 'nope'"),
        (["--card", "sologear/nope"], "deck 'sologear' has no card 'nope'"),
        (["--size", "a6", "--fold", "--paper", "a4"], "use duplex backs"),
    ],
)
def test_print_cards_errors(
    capsys: pytest.CaptureFixture[str], app_paths: AppPaths, tmp_path: Path, args: list[str], message: str
) -> None:
    out_pdf = tmp_path / "x.pdf"
    code, out, err = run(capsys, app_paths, "print", "cards", *args, "-o", str(out_pdf))
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1
    assert not out_pdf.exists() and not list(tmp_path.glob("*.part"))


def test_output_folder_must_exist(capsys: pytest.CaptureFixture[str], app_paths: AppPaths, tmp_path: Path) -> None:
    code, _, err = run(capsys, app_paths, "print", "cards", "-o", str(tmp_path / "missing" / "x.pdf"))
    assert code == 2 and "does not exist" in err


def test_user_decks_with_a_broken_file(capsys: pytest.CaptureFixture[str], app_paths: AppPaths, tmp_path: Path) -> None:
    house = app_paths.user_decks_dir / "house"
    house.mkdir(parents=True)
    (house / "deck.toml").write_text('title = "House rules"\n[back]\ncolour = "#224466"\n', encoding="utf-8")
    (house / "01-night.toml").write_text(
        'title = "Night fighting"\n[[blocks]]\ntype = "paragraph"\ntext = "Range +2 at night."\n', encoding="utf-8"
    )
    bad = house / "02-bad.toml"
    bad.write_text('title = "Bad"\n[[blocks]]\ntype = "paragraph"\ntext = "oops\n', encoding="utf-8")

    code, out, _ = run(capsys, app_paths, "print", "decks", "--json")
    assert code == 0
    data = json.loads(out)
    assert [p["file"] for p in data["problems"]] == [str(bad)] and data["problems"][0]["line"] == 4
    house_deck = next(d for d in data["decks"] if d["id"] == "house")
    assert house_deck["origin"] == "user" and [c["id"] for c in house_deck["cards"]] == ["night"]

    out_pdf = tmp_path / "house.pdf"
    code, out, err = run(
        capsys, app_paths, "print", "cards", "--deck", "house", "--deck", "d12-death-blow", "-o", str(out_pdf)
    )
    assert code == 0
    assert f"warning: skipped {bad}:4: TOML syntax error" in err
    text = " ".join(pages(out_pdf))
    assert "Night fighting" in text and "Range +2 at night." in text and "Scale of styles" in text
