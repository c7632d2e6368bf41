"""The CLI builds only the parser of the command given (a fast start); the table it uses to find
a command's module matches what the modules register, and every way of calling it still parses."""

from __future__ import annotations

import argparse
import importlib

import pytest

from campaign_app.cli import _common_parent, build_parser, command_in, main
from campaign_app.commands import COMMAND_MODULES, COMMAND_NAMES


def test_command_names_match_what_each_module_registers() -> None:
    for module in COMMAND_MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(module).register(sub, _common_parent())
        assert tuple(sub.choices) == COMMAND_NAMES.get(module), (
            f"list the commands of {module} in COMMAND_NAMES (campaign_app/commands/__init__.py)"
        )


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["level", "--xp", "6"], "level"),
        (["--data-dir", "/tmp/x", "platoon", "show", "A"], "platoon"),
        (["--db", "level", "level"], "level"),  # a database file named "level"
        (["--version"], ""),
        (["--help"], None),
        (["-h", "level"], None),
        ([], None),
        (["nonsense"], "nonsense"),
    ],
)
def test_command_in(argv: list[str], command: str | None) -> None:
    assert command_in(argv) == command


def test_only_the_commands_module_is_built_and_others_still_parse() -> None:
    sub = next(a for a in build_parser("level")._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == {"demo", "check", "level", "cards", "odds", "roll"}
    full = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert {"platoon", "battle", "sologear", "print", "level"} <= set(full.choices)
    unknown = next(a for a in build_parser("nonsense")._actions if isinstance(a, argparse._SubParsersAction))
    assert set(unknown.choices) == set(full.choices)  # an unknown word gets the full list in its error


def test_unknown_command_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["nonsense"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'nonsense'" in err and "'sologear'" in err and "'level'" in err


def test_version_and_level(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.startswith("campaign-cli ")
    assert main(["level", "--xp", "6"]) == 0
    assert "Regular" in capsys.readouterr().out
