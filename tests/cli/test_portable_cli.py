"""The portable campaign file: export -> import into an empty database gives the same platoon, history and
Sologear output (apart from row ids and creation times); bad files are refused with nothing written."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from campaign_app.cli import main
from campaign_app.services.demo import create_demo
from campaign_app.store import close_db

pytestmark = pytest.mark.usefixtures("fresh_db")

ID_KEY = re.compile(r"(^id$|_id$|^created_at$|^joined_at$|^left_at$|^at$|_ids$)")


def strip_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: strip_ids(v) for k, v in value.items() if not ID_KEY.search(k)}
    if isinstance(value, list):
        return [strip_ids(v) for v in value]
    return value


def run(capsys, *argv: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(db_target: str) -> str:
    """The demo's database: the data folder's file, or the test server's database (the same tests move
    campaigns between a server and a file)."""
    return db_target


@pytest.fixture
def demo(app_paths, fresh_db, db):  # type: ignore[no-untyped-def]
    create_demo()
    close_db()
    # one more battle in which the leader falls and is replaced, so former leaders travel too
    assert (
        main(
            [
                "battle",
                "log",
                "--platoon",
                "2nd Platoon",
                "--wounds",
                "7",
                "--leader-wounds",
                "3",
                "--objectives",
                "1",
                "--outcome",
                "victory",
                "--replacement-name",
                "Lt. Adebayo",
                "--dice",
                "3",
                "2,2",
                "2,2",
                "6,9",
                "--data-dir",
                str(app_paths.data_dir),
                "--db",
                db,
            ]
        )
        == 0
    )
    return app_paths


def outputs(capsys, db: Path | str, data: Path) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    where = ["--db", str(db), "--data-dir", str(data)]
    found = {}
    for name, argv in {
        "platoon": ["platoon", "show", "2nd Platoon", "--json"],
        "history": ["history", "--platoon", "2nd Platoon", "--json"],
        "sologear": ["sologear", "show", "--campaign", "Hill 214 (sample)", "--json"],
        "campaign": ["campaign", "show", "Congo 1960 (sample)", "--json"],
    }.items():
        code, out, err = run(capsys, *argv, *where)
        assert code == 0, err
        found[name] = strip_ids(json.loads(out))
    return found


def test_round_trip_into_an_empty_database(capsys, demo, db, tmp_path):
    data = str(demo.data_dir)
    for camp, file in (("Congo 1960 (sample)", "congo.json"), ("Hill 214 (sample)", "hill.json")):
        code, out, err = run(
            capsys, "export", "--campaign", camp, "-o", str(tmp_path / file), "--data-dir", data, "--db", db
        )
        assert code == 0, err
    doc = json.loads((tmp_path / "congo.json").read_text(encoding="utf-8"))
    assert doc["format"] == "campaign_app-campaign" and doc["format_version"] == 1
    assert {"app_version", "schema_version"} <= set(doc)
    assert doc["tables"]["roll"] and doc["tables"]["xp_change"]
    assert {ld["status"] for ld in doc["tables"]["leader"]} >= {"active", "casualty"}
    other = tmp_path / "other.db"
    for file in ("congo.json", "hill.json"):
        code, out, err = run(capsys, "import", str(tmp_path / file), "--db", str(other), "--data-dir", data, "--json")
        assert code == 0, err
    assert json.loads(out)["sologear_turn"] >= 1
    assert outputs(capsys, db, demo.data_dir) == outputs(capsys, other, demo.data_dir)


def test_name_clash_refused_unless_as(capsys, demo, db, tmp_path):
    data = str(demo.data_dir)
    run(
        capsys,
        "export",
        "--campaign",
        "Congo 1960 (sample)",
        "-o",
        str(tmp_path / "c.json"),
        "--data-dir",
        data,
        "--db",
        db,
    )
    code, out, err = run(capsys, "import", str(tmp_path / "c.json"), "--data-dir", data, "--db", db)
    assert code == 2 and "already exists" in err and "--as" in err
    code, out, err = run(
        capsys, "import", str(tmp_path / "c.json"), "--as", "Congo copy", "--data-dir", data, "--db", db
    )
    assert code == 0, err
    code, out, err = run(capsys, "platoon", "list", "--campaign", "Congo copy", "--data-dir", data, "--db", db)
    assert "2nd Platoon" in out
    if not db.startswith("postgresql://"):  # a server's backups are the server's business
        assert list(demo.backup_dir.glob("*-import.db")), "a backup is made before an import"


def _campaigns(capsys, data: str, db: str) -> str:  # type: ignore[no-untyped-def]
    return run(capsys, "campaign", "list", "--json", "--data-dir", data, "--db", db)[1]


@pytest.mark.parametrize(
    "tamper,message",
    [
        (lambda d: d.update(format_version=2), "newer campaign_app"),
        (lambda d: d.update(format="something"), "not a campaign_app campaign file"),
        (lambda d: d["tables"]["platoon"][0].update(name="bad\x00name"), "NUL"),
        (lambda d: d["tables"]["platoon"][0].update(xp=99), "refuses"),
        (lambda d: d["tables"]["platoon"][0].update(notes="n" * 10_001), "too long"),
        (lambda d: d["tables"]["battle"][0].update(platoon_id=424242), "not in the file"),
        (lambda d: d["tables"]["battle"][0].update(date="yesterday"), "not a date"),
        (lambda d: d["tables"]["battle"][0].update(wounds="three"), "whole number"),
        (lambda d: d["tables"]["battle"][-1].update(number=9), "battle numbers"),
        (lambda d: d["tables"]["leader"][0].update(secret=1), "unknown columns"),
        (lambda d: d["tables"]["roll"][0].update(faces='{"a": 1}'), "die faces"),
        (lambda d: d["tables"]["roll"][0].update(faces="5"), "die faces"),
        (lambda d: d["tables"]["roll"][0].update(faces='["a", null]'), "die faces"),
        (lambda d: d["tables"]["roll"][0].update(faces="[1e300]"), "die faces"),
        (lambda d: d["tables"]["battle"][0].update(leader_wounds=99), "leader's element"),
    ],
)
def test_bad_files_are_refused_and_nothing_is_written(capsys, demo, db, tmp_path, tamper, message):
    data = str(demo.data_dir)
    run(
        capsys,
        "export",
        "--campaign",
        "Congo 1960 (sample)",
        "-o",
        str(tmp_path / "c.json"),
        "--data-dir",
        data,
        "--db",
        db,
    )
    doc = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    tamper(doc)
    (tmp_path / "bad.json").write_text(json.dumps(doc), encoding="utf-8")
    before = _campaigns(capsys, data, db)
    code, out, err = run(
        capsys, "import", str(tmp_path / "bad.json"), "--as", "Imported", "--data-dir", data, "--db", db
    )
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert message in err
    assert _campaigns(capsys, data, db) == before


def test_not_json_and_not_a_file(capsys, demo, db, tmp_path):
    data = str(demo.data_dir)
    (tmp_path / "x.json").write_bytes(b"\xff\xfe garbage")
    code, _out, err = run(capsys, "import", str(tmp_path / "x.json"), "--data-dir", data, "--db", db)
    assert code == 2 and "not UTF-8" in err
    (tmp_path / "y.json").write_text("[" * 100_000)
    code, _out, err = run(capsys, "import", str(tmp_path / "y.json"), "--data-dir", data, "--db", db)
    assert code == 2 and "not valid JSON" in err


@pytest.mark.parametrize(
    "column,value",
    [
        ("cell", '["x"]'),
        ("cell", '{"hit": 5}'),
        ("cell", '{"boom": "x"}'),
        ("state_before", '"active"'),
        ("state_before", '{"status": [1]}'),
    ],
)
def test_sologear_json_columns_of_the_wrong_shape_are_refused(capsys, demo, db, tmp_path, column, value):
    data = str(demo.data_dir)
    run(
        capsys,
        "export",
        "--campaign",
        "Hill 214 (sample)",
        "-o",
        str(tmp_path / "h.json"),
        "--data-dir",
        data,
        "--db",
        db,
    )
    doc = json.loads((tmp_path / "h.json").read_text(encoding="utf-8"))
    doc["tables"]["sologear_turn"][0][column] = value
    (tmp_path / "bad.json").write_text(json.dumps(doc), encoding="utf-8")
    before = _campaigns(capsys, data, db)
    code, out, err = run(
        capsys, "import", str(tmp_path / "bad.json"), "--as", "Imported", "--data-dir", data, "--db", db
    )
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert f"sologear_turn row 1, {column} must be" in err
    assert _campaigns(capsys, data, db) == before


def test_a_file_from_a_version_before_schema_4_is_read_in_codes(capsys, demo, db, tmp_path):
    """Versions before schema 4 wrote display labels as roll purposes/rules and Sologear end reasons; such a
    file imports with codes (and the derived name_key, which files never hold)."""
    from campaign_app.rules import codes

    data = str(demo.data_dir)
    for camp, file in (("Congo 1960 (sample)", "congo.json"), ("Hill 214 (sample)", "hill.json")):
        assert (
            run(capsys, "export", "--campaign", camp, "-o", str(tmp_path / file), "--data-dir", data, "--db", db)[0]
            == 0
        )
    before = outputs(capsys, db, demo.data_dir)
    for file in ("congo.json", "hill.json"):
        doc = json.loads((tmp_path / file).read_text(encoding="utf-8"))
        assert "name_key" not in doc["campaign"]
        for row in doc["tables"].get("roll", []):
            row["purpose"], row["rule"] = codes.purpose_text(row["purpose"]), codes.rule_text(row["rule"])
        for row in doc["tables"].get("sologear_sheet", []):
            old = {v: k for k, v in codes.LEGACY_END_REASONS.items()}
            row["end_reason"] = old.get(row["end_reason"], row["end_reason"])
        for row in doc["tables"].get("sologear_turn", []):
            state = row.get("state_before")
            if isinstance(state, dict) and state.get("end_reason") == "turns_used_up":
                state["end_reason"] = "turns used up"
        doc["schema_version"] = 2
        (tmp_path / file).write_text(json.dumps(doc), encoding="utf-8")
    assert "leader's fate" in (tmp_path / "congo.json").read_text(encoding="utf-8")
    other = tmp_path / "other.db"
    for file in ("congo.json", "hill.json"):
        code, out, err = run(capsys, "import", str(tmp_path / file), "--db", str(other), "--data-dir", data)
        assert code == 0, err
    assert outputs(capsys, other, demo.data_dir) == before
