"""``campaign-cli journal | undo | redo``: the journal as the command line sees it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_app.paths import AppPaths


def test_journal_lists_newest_first_and_undo_redo_restore_exactly(cli) -> None:  # type: ignore[no-untyped-def]
    cli("demo")
    cli("battle", "log", "--platoon", "2nd Platoon", "--wounds", "3", "--leader-wounds", "0", "--seed", "4")
    cli("platoon", "set", "2nd Platoon", "--xp", "11", "--reason", "promotion")
    ops = json.loads(cli("journal", "--json"))
    assert [o["kind"] for o in ops] == ["platoon.set", "battle.log", "demo.create"]
    assert ops[1]["label"] == "Log battle 4 of 2nd Platoon" and ops[0]["undone"] is False
    assert {"id", "kind", "label", "time", "undone", "user"} <= set(ops[0])
    shown = json.loads(cli("platoon", "show", "2nd Platoon", "--json"))
    text = cli("journal", "--platoon", "2nd Platoon")
    assert "Log battle 4 of 2nd Platoon" in text and "Create the sample campaigns" not in text.splitlines()[0]

    # the battle cannot go first: the XP change made after it is in the way, and nothing is written
    err = cli("undo", "--operation", str(ops[1]["id"]), rc=2)
    assert "“2nd Platoon: XP 7 → 11” (operation" in err and "undo that first" in err
    undone = json.loads(cli("undo", "--json"))
    assert undone["done"] == "undo" and undone["operation"]["kind"] == "platoon.set"
    assert undone["restored"]["platoon"] and undone["restored"]["xp_change"]
    out = cli("undo")
    assert out.startswith("Undone: Log battle 4 of 2nd Platoon") and "battle" in out
    assert json.loads(cli("platoon", "show", "2nd Platoon", "--json"))["battles"] == shown["battles"] - 1
    assert "(undone)" in cli("journal", "--limit", "1")
    cli("redo")  # the battle (undone most recently) comes back with the same dice
    cli("redo")
    assert json.loads(cli("platoon", "show", "2nd Platoon", "--json")) == shown
    assert "nothing to redo" in cli("redo", rc=2)


def test_battle_undo_is_undo_of_the_newest_battle_and_redo_brings_it_back(cli) -> None:  # type: ignore[no-untyped-def]
    cli("demo")
    before = cli("platoon", "show", "2nd Platoon", "--json")
    cli("battle", "log", "--platoon", "2nd Platoon", "--wounds", "2", "--leader-wounds", "0", "--seed", "9")
    after = cli("platoon", "show", "2nd Platoon", "--json")
    cli("battle", "undo", "--platoon", "2nd Platoon")
    assert cli("platoon", "show", "2nd Platoon", "--json") == before
    cli("redo")
    assert cli("platoon", "show", "2nd Platoon", "--json") == after


def test_bad_operation_ids_are_one_line(cli, capsys) -> None:  # type: ignore[no-untyped-def]
    cli("demo")
    assert "no operation 999 in the journal" in cli("undo", "--operation", "999", rc=2)
    for argv, why in (
        (("redo", "--operation", "0"), "must be 1 or more"),
        (("journal", "--limit", "x"), "must be a whole number"),
    ):
        with pytest.raises(SystemExit) as stop:
            cli(*argv)
        assert stop.value.code == 2 and why in capsys.readouterr().err
    assert "no platoon named" in cli("journal", "--platoon", "Nobody", rc=2)
    assert "already undone" not in cli("undo")
    first = json.loads(cli("journal", "--json"))[-1]
    assert "already undone" in cli("undo", "--operation", str(first["id"]), rc=2)


def test_undo_survives_a_restart_and_another_process(app_paths: AppPaths, tmp_path: Path) -> None:
    """Two separate processes: one logs a battle, the next one undoes it (nothing is kept in memory)."""
    exe = shutil.which("campaign-cli")
    base = [sys.executable, "-m", "campaign_app.cli"] if exe is None else [exe]
    data = ["--data-dir", str(app_paths.data_dir)]

    def run(*argv: str) -> str:
        done = subprocess.run([*base, *argv, *data], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    run("demo")
    run("battle", "log", "--platoon", "2nd Platoon", "--wounds", "1", "--leader-wounds", "0", "--seed", "3")
    assert run("undo").startswith("Undone: Log battle 4 of 2nd Platoon")
    assert json.loads(run("platoon", "show", "2nd Platoon", "--json"))["battles"] == 3
