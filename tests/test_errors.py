"""One exception root: every error class of the app is a CampaignError and none is a ValueError (or any other
built-in error a library raises), so ``except CampaignError`` never hides a programming error; the CLI
turns a real bug into its logged "unexpected problem" line, not into a user error."""

from __future__ import annotations

import importlib
import logging
import pkgutil
import subprocess
import sys

import pytest

import campaign_app
from campaign_app import errors
from campaign_app.errors import CampaignError, Conflict, NotFound, Refused, ServiceError, StoreProblem


def _app_exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of campaign_app (``__main__`` is not imported: it runs)."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(campaign_app.__path__, "campaign_app."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == info.name:
                found[f"{info.name}.{value.__qualname__}"] = value
    return found


def test_every_app_exception_is_a_campaign_error_and_no_builtin_error():
    classes = _app_exception_classes()
    # the walk does find the errors of every layer (a walk that finds nothing proves nothing)
    for name in (
        "campaign_app.errors.Refused",
        "campaign_app.errors.DiskFullError",
        "campaign_app.rules.dice.DiceError",
        "campaign_app.rules.experience.RulesError",
        "campaign_app.rules.tables.RuleTableError",
        "campaign_app.printing.decks.DeckError",
        "campaign_app.printing.card_face.CardFitError",
        "campaign_app.store.errors.DatabaseError",
        "campaign_app.store.errors.MigrationFailedError",
        "campaign_app.commands.base.CliError",
        "campaign_app.commands.base.OutputError",
        "campaign_app.gui.print_dialog._Cancelled",
    ):
        assert name in classes, sorted(classes)
    builtin = (ValueError, LookupError, TypeError, ArithmeticError, OSError, RuntimeError, AssertionError)
    for name, cls in classes.items():
        assert issubclass(cls, CampaignError), f"{name} does not derive from CampaignError"
        assert not issubclass(cls, builtin), f"{name} derives from a built-in error: {cls.__mro__}"


def test_the_tree_and_its_exit_codes():
    from campaign_app.commands.base import CliError, OutputError
    from campaign_app.printing.decks import DeckError
    from campaign_app.rules.dice import DiceError
    from campaign_app.rules.experience import RulesError
    from campaign_app.store import journal
    from campaign_app.store.errors import DatabaseError, MigrationFailedError

    assert ServiceError is Refused  # the older name the services raise
    assert journal.Conflict is Conflict and issubclass(journal.NotJournaled, NotFound)  # undo/redo refusals
    for cls in (NotFound, Conflict, DiceError, RulesError, DeckError, CliError):
        assert issubclass(cls, Refused) and cls.exit_code == 2, cls
    assert not issubclass(StoreProblem, Refused), "a full disk is not a refusal of the user's input"
    assert StoreProblem.exit_code == errors.DiskFullError.exit_code == errors.ReadOnlyError.exit_code == 1
    assert errors.StorageIOError.exit_code == 1
    assert errors.DatabaseBusyError.exit_code == 2  # retry
    assert DatabaseError.exit_code == 2 and MigrationFailedError.exit_code == 1
    assert OutputError.exit_code == 1 and not issubclass(OutputError, Refused)
    assert NotFound("no platoon named 'X'").exit_code == 2


def test_errors_module_needs_neither_qt_nor_peewee():
    code = (
        "import sys, campaign_app.errors\n"
        "bad = [m for m in ('peewee', 'PySide6', 'reportlab') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_cli_reports_a_user_error_as_one_line(app_paths: object, capsys: pytest.CaptureFixture[str]):
    from campaign_app.cli import main

    assert main(["platoon", "show", "No such platoon"]) == 2
    err = capsys.readouterr().err
    assert err == "campaign-cli: error: no platoon named 'No such platoon'\n"


def test_cli_does_not_take_a_bug_for_a_user_error(
    app_paths: object,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
):
    """A ValueError from deep inside (here: a service with a bug) is not a refusal of the user's input: it
    is the logged "unexpected problem" (exit 1, the traceback in the log), never a plain exit-2 message."""
    from campaign_app.cli import main
    from campaign_app.services import campaigns

    def buggy(*_args: object, **_kwargs: object) -> object:
        return int("not a number")  # a programming error: ValueError

    monkeypatch.setattr(campaigns, "list_campaigns", buggy)
    with caplog.at_level(logging.ERROR):
        code = main(["campaign", "list"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("campaign-cli: error: unexpected problem: ValueError: invalid literal"), err
    assert "the details are in the log file" in err and err.count("\n") == 1
    logged = [r for r in caplog.records if r.exc_info]
    assert logged and logged[0].exc_info[0] is ValueError  # type: ignore[index]


@pytest.mark.parametrize("argv", [["print", "alignment"], ["print", "cards", "--deck", "atomic-africa"]])
def test_a_full_disk_while_printing_is_exit_status_1(argv, tmp_path, monkeypatch, capsys):
    """The print commands turned every ServiceError into a usage error (exit 2), a full disk included; the
    store problems keep their own exit status (1: the environment) now that the CLI catches CampaignError."""
    from pathlib import Path

    from campaign_app.cli import main

    def full(*_args: object, **_kwargs: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    monkeypatch.setattr("campaign_app.fileio.os.replace", full)
    out = tmp_path / "out.pdf"
    code = main([*argv, "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.startswith("campaign-cli: error: disk full: cannot write") and err.count("\n") == 1
    assert not out.exists()
