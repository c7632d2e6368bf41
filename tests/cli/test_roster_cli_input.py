"""What the roster commands take as input: a name made of digits is a name, typed dice that are not used are
refused, the unknown platoon is named before missing unit values, notes have a length limit."""

from __future__ import annotations

import json

from campaign_app.cli import main
from campaign_app.store.models import Leader, Platoon, Roll


def run(capsys, app_paths, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--data-dir", str(app_paths.data_dir)])
    out, err = capsys.readouterr()
    return code, out, err


def _setup(capsys, app_paths) -> None:
    assert run(capsys, app_paths, "campaign", "new", "--name", "C", "--system", "atomic-africa")[0] == 0
    for name in ("Alpha", "Bravo", "1"):
        code, _, err = run(
            capsys,
            app_paths,
            "platoon",
            "new",
            "--campaign",
            "C",
            "--name",
            name,
            "--training",
            "d8",
            "--equipment",
            "d8",
            "--morale",
            "d8",
            "--armor",
            "1",
            "--xp",
            "3",
        )
        assert code == 0, err


def test_digit_only_name_is_a_name_not_an_id(capsys, app_paths):
    _setup(capsys, app_paths)
    assert Platoon.get(Platoon.name == "Alpha").id == 1
    code, out, _ = run(capsys, app_paths, "platoon", "show", "1", "--json")
    assert code == 0 and json.loads(out)["name"] == "1"
    code, _, err = run(capsys, app_paths, "platoon", "delete", "1")
    assert code == 0, err
    assert Platoon.get_or_none(Platoon.name == "Alpha") is not None
    assert Platoon.get_or_none(Platoon.name == "1") is None


def test_extra_typed_dice_are_refused_and_nothing_written(capsys, app_paths):
    _setup(capsys, app_paths)
    before = (Platoon.select().count(), Roll.select().count())
    code, out, err = run(
        capsys,
        app_paths,
        "platoon",
        "new",
        "--campaign",
        "C",
        "--name",
        "Gen",
        "--generate",
        "--dice",
        "1,3",
        "4",
        "--training",
        "d8",
        "--equipment",
        "d8",
        "--morale",
        "d8",
        "--armor",
        "1",
    )
    assert code == 2 and out == "" and "too many dice" in err
    assert (Platoon.select().count(), Roll.select().count()) == before
    leaders = Leader.select().count()
    code, out, err = run(
        capsys, app_paths, "leader", "replace", "Bravo", "--name", "Zed", "--roll", "--dice", "3,4", "5"
    )
    assert code == 2 and out == "" and "too many dice" in err
    assert Leader.select().count() == leaders


def test_unknown_platoon_named_before_missing_unit_values(capsys, app_paths):
    _setup(capsys, app_paths)
    code, out, err = run(capsys, app_paths, "attached", "add", "Nope", "--name", "T1", "--kind", "team")
    assert code == 2 and out == ""
    assert "Nope" in err


def test_notes_have_a_length_limit(capsys, app_paths):
    _setup(capsys, app_paths)
    long = "x" * 10_001
    code, out, err = run(capsys, app_paths, "platoon", "set", "Bravo", "--notes", long)
    assert code == 2 and out == "" and "too long" in err
    assert Platoon.get(Platoon.name == "Bravo").notes == ""
    code, out, err = run(capsys, app_paths, "campaign", "new", "--name", "D", "--system", "sologear", "--notes", long)
    assert code == 2 and "too long" in err
