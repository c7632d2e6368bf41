"""``--dice`` given the wrong way round (the faces of one roll as separate arguments, or several rolls' faces
in one argument) gets a message that shows how --dice is written, with the user's own faces."""

from __future__ import annotations

import pytest


@pytest.fixture
def cli(cli_result):
    return cli_result  # (exit status, stdout, stderr): these tests check each part themselves


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["roll", "replacement", "--dice", "3", "7"],
            "give the two faces together, separated by commas, as --dice 3,7",
        ),
        (["roll", "force", "--dice", "9", "2"], "as --dice 9,2"),
        (["roll", "leader", "--leader-wounds", "1", "--leader-xp", "5", "--dice", "12", "4"], "as --dice 12,4"),
        (["roll", "replacement", "--dice", "3"], "One roll of 2d10 is one --dice argument"),
        (["roll", "replacement", "--one-die", "--dice", "6,2"], "Each roll is its own --dice argument"),
    ],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_dice_written_the_wrong_way_names_the_form(cli, argv, message, as_json):
    code, out, err = cli(*argv, *(["--json"] if as_json else []))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("campaign-cli: error: ")
    assert message in err


def test_the_form_the_message_names_works(cli):
    code, _err_out, err = cli("roll", "replacement", "--dice", "3", "7")
    assert code == 2 and "--dice 3,7" in err
    code, out, err = cli("roll", "replacement", "--dice", "3,7")
    assert (code, err) == (0, "") and "= 2 XP" in out


def test_every_command_that_takes_dice_names_the_form(cli):
    """The same mistake in battle log (and every other command taking --dice) gets the same help, and
    nothing is written."""
    from campaign_app.store.models import Battle

    assert cli("demo")[0] == 0
    before = Battle.select().count()
    code, out, err = cli(
        "battle", "log", "--platoon", "2nd Platoon", "--wounds", "0", "--leader-wounds", "0", "--dice", "3", "7"
    )
    assert (code, out) == (2, "") and "2d12" in err and "as --dice 3,7" in err
    assert Battle.select().count() == before


@pytest.mark.parametrize("bad", ["7x", "5;2", "-3", "5,,2", "2.5"])
def test_each_dice_argument_is_read_by_the_one_faces_grammar(cli, bad):
    """``--dice`` reads each argument with rules.dice.parse_faces, the grammar of the GUI's faces fields and
    of the services: the same message, prefixed with the argument's number."""
    from campaign_app.rules.dice import DiceError, parse_faces

    with pytest.raises(DiceError) as shared:
        parse_faces(bad)
    code, out, err = cli("roll", "force", "--dice", bad)
    assert (code, out) == (2, "")
    assert err == f"campaign-cli: error: --dice argument 1: {shared.value}\n"


def test_the_faces_of_one_roll_may_be_separated_by_spaces(cli):
    code, out, err = cli("roll", "replacement", "--dice", "3 7")  # one argument (quoted in a shell)
    assert (code, err) == (0, "") and "= 2 XP" in out
