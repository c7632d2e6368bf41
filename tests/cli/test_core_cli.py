from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_app import __version__
from campaign_app.cli import main
from campaign_app.store import close_db


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_demo_then_check_ok(capsys, tmp_path: Path):
    close_db()
    data = tmp_path / "group"
    code, out, _ = run(capsys, "demo", "--data-dir", str(data), "--json")
    assert code == 0
    assert json.loads(out)["campaigns"]
    assert (data / "campaign.db").exists()
    code, out, err = run(capsys, "check", "--data-dir", str(data), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["ok"] is True and report["problems"] == []
    code, out, _ = run(capsys, "check", "--data-dir", str(data))
    assert "no problems found" in out


def test_check_exit_1_on_problems(capsys, tmp_path: Path):
    close_db()
    data = tmp_path / "d"
    run(capsys, "demo", "--data-dir", str(data))
    import sqlite3

    con = sqlite3.connect(data / "campaign.db")
    con.execute("UPDATE journal_state SET mode = 'off'")  # another program, around the app's journal
    con.execute("UPDATE platoon SET xp = (xp + 1) % 33 WHERE id = (SELECT platoon_id FROM xp_change LIMIT 1)")
    con.execute("UPDATE journal_state SET mode = 'record'")
    con.commit()
    con.close()
    code, out, _ = run(capsys, "check", "--data-dir", str(data))
    assert code == 1
    assert "XP is 7 but its last XP change says 6" in out


def test_db_option_opens_another_file(capsys, tmp_path: Path):
    close_db()
    other = tmp_path / "club.db"
    code, _, _ = run(capsys, "demo", "--data-dir", str(tmp_path / "d"), "--db", str(other))
    assert code == 0
    assert other.exists()
    assert not (tmp_path / "d" / "campaign.db").exists()


def test_environment_variable_sets_data_dir(capsys, tmp_path: Path, monkeypatch):
    close_db()
    monkeypatch.setenv("CAMPAIGN_APP_DATA_DIR", str(tmp_path / "env"))
    code, _, _ = run(capsys, "check")
    assert code == 0
    assert (tmp_path / "env" / "campaign.db").exists()


def test_bad_database_one_line_error_exit_2(capsys, tmp_path: Path):
    close_db()
    bad = tmp_path / "bad.db"
    bad.write_text("hello")
    code, out, err = run(capsys, "check", "--db", str(bad), "--data-dir", str(tmp_path / "d"))
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "bad.db" in err
    assert bad.read_text() == "hello"


def test_console_script_entry_point_runs(tmp_path: Path):
    env = dict(os.environ, CAMPAIGN_APP_DATA_DIR=str(tmp_path / "x"))
    result = subprocess.run(
        [sys.executable, "-m", "campaign_app.cli", "--version"], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 0 and __version__ in result.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["level", "--xp"],
        ["odds", "recovery", "--wounds", "5"],
        ["no-such-command"],
        ["check", "--no-such-option"],
        [],
    ],
)
def test_usage_errors_are_one_line_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    assert info.value.code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "error:" in err
