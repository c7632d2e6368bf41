"""``campaign-cli sologear odds --campaign C [--posture X] --json``: the next turn's exact odds."""

from __future__ import annotations

import json
from typing import Any

import pytest

from campaign_app.cli import main
from campaign_app.paths import AppPaths
from campaign_app.rules.sologear.odds import combat_odds


def run(paths: AppPaths, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([*argv, "--data-dir", str(paths.data_dir)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def sheet(app_paths: AppPaths, fresh_db: object, capsys: pytest.CaptureFixture[str]) -> str:
    for argv in (
        ("sologear", "new", "--name", "Hill 214", "--pilot", "Janne", "--gear-tv", "250"),
        ("sologear", "force", "add", "--campaign", "Hill 214", "--side", "player", "--name", "1st", "--base", "350"),
        ("sologear", "force", "add", "--campaign", "Hill 214", "--side", "enemy", "--name", "Reds", "--base", "350"),
    ):
        code, _out, err = run(app_paths, capsys, *argv)
        assert code == 0, err
    return "Hill 214"


def odds_json(paths: AppPaths, capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(paths, capsys, "sologear", "odds", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_odds_json_has_the_rows_of_the_column_with_the_posture(app_paths, capsys, sheet) -> None:
    data = odds_json(app_paths, capsys, "--campaign", sheet, "--posture", "+2")
    assert data["column"] == "Equal" and data["posture"] == 2
    assert [r["total"] for r in data["rows"]] == list(range(15))
    assert all(isinstance(r["probability"], float) for r in data["rows"])
    assert abs(sum(r["probability"] for r in data["rows"]) - 1) < 1e-12
    row = data["rows"][11]
    assert row["result"] == "2D6G,##" and row["probability"] == pytest.approx(4 / 36)
    assert data["rows"][0]["probability"] == 0.0
    exact = combat_odds("Equal", 2)
    assert data["kinds"]["hit"] == pytest.approx(float(exact.chance("hit")))
    assert data["noticed"] == 0.0  # recognition 0 before any turn: never noticed
    default = odds_json(app_paths, capsys, "--campaign", sheet)
    assert default["posture"] == 0 and default["rows"][9]["probability"] == pytest.approx(4 / 36)


def test_odds_text_and_refusals(app_paths, capsys, sheet) -> None:
    code, out, _err = run(app_paths, capsys, "sologear", "odds", "--campaign", sheet, "--posture", "-1")
    assert code == 0 and "Equal column" in out and "Holding back (-1)" in out and "Noticed" in out
    for argv, words in (
        (("--campaign", sheet, "--posture", "3"), "posture"),
        (("--campaign", "Nowhere"), "Nowhere"),
        (("--campaign", sheet, "--player", "5"), "either"),
        ((), "--campaign"),
    ):
        code, out, err = run(app_paths, capsys, "sologear", "odds", *argv)
        assert code == 2 and out == "" and words in err and len(err.strip().splitlines()) == 1, err
    # the column of two combat powers still works as before
    code, out, _err = run(app_paths, capsys, "sologear", "odds", "--player", "700", "--enemy", "1350")
    assert code == 0 and out.strip().endswith("Equal")
