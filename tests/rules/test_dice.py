"""Dice expressions, the two dice sources, roll records, attribute dice (RULES 1.1)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_app.rules.dice import (
    DIE_SIDES,
    Dice,
    DiceError,
    SeededDice,
    TypedDice,
    die_for_level,
    level_for_die,
    parse_die,
    parse_faces,
    roll_record,
    shift_down,
)


@pytest.mark.parametrize(
    "text,count,sides,mod,expr",
    [
        ("2d8", 2, 8, 0, "2d8"),
        ("d8", 1, 8, 0, "1d8"),
        ("1D6-2", 1, 6, -2, "1d6-2"),
        (" 3 d 12 + 1 ", 3, 12, 1, "3d12+1"),
        ("2d12", 2, 12, 0, "2d12"),
    ],
)
def test_parse_and_expression(text, count, sides, mod, expr):
    dice = Dice.parse(text)
    assert (dice.count, dice.sides, dice.modifier) == (count, sides, mod)
    assert dice.expression == expr == str(dice)
    assert Dice.parse(dice.expression) == dice


@pytest.mark.parametrize("text", ["", "d", "2x8", "2d", "-1d8", "2d8*2", "0d8", "1d1"])
def test_bad_expressions_are_refused(text):
    with pytest.raises(DiceError):
        Dice.parse(text)


def test_range_and_total():
    dice = Dice(2, 8, -1)
    assert (dice.minimum, dice.maximum) == (1, 15)
    assert dice.total([3, 5]) == 7


def test_check_faces_names_the_problem():
    with pytest.raises(DiceError, match="2d8 needs 2 faces, got 1"):
        Dice(2, 8).check_faces([3])
    with pytest.raises(DiceError, match="9 is not a face of a d8"):
        Dice(1, 8).check_faces([9])
    with pytest.raises(DiceError, match="0 is not a face"):
        Dice(1, 8).check_faces([0])
    Dice(3, 8).check_faces([1, 8, 4])


def test_worked_example_d10_morale_with_three_wounds_rolls_a_d4():
    # RULES 1.1: Morale shifts one type lower per wound: d10 -> d8 -> d6 -> d4.
    assert shift_down(10, 3) == 4
    assert shift_down(10, 1) == 8
    assert shift_down(12, 0) == 12


def test_shift_below_d4_splits_or_removes():
    assert shift_down(4, 1) is None
    assert shift_down(10, 4) is None
    with pytest.raises(DiceError):
        shift_down(10, -1)
    with pytest.raises(DiceError):
        shift_down(7, 1)


def test_level_and_die():
    assert [die_for_level(level) for level in range(1, 6)] == [4, 6, 8, 10, 12]
    assert [level_for_die(s) for s in DIE_SIDES] == [1, 2, 3, 4, 5]
    for bad in (0, 6):
        with pytest.raises(DiceError):
            die_for_level(bad)
    with pytest.raises(DiceError):
        level_for_die(20)
    assert parse_die("D10") == parse_die("10") == parse_die(10) == parse_die(" d10 ") == 10
    for bad in ("d7", "x", "d", "d20"):
        with pytest.raises(DiceError):
            parse_die(bad)


@given(st.integers(0, 2**32), st.integers(1, 20), st.sampled_from([2, 4, 6, 8, 10, 12, 20]))
def test_seeded_dice_stay_in_range_and_repeat(seed, count, sides):
    dice = Dice(count, sides)
    faces = SeededDice(seed).roll(dice)
    assert len(faces) == count and all(1 <= f <= sides for f in faces)
    assert SeededDice(seed).roll(dice) == faces
    assert SeededDice.source == "app"


def test_typed_dice_hand_out_groups_in_order_and_check_them():
    typed = TypedDice([[3], [5, 2]])
    assert typed.source == "entered"
    assert typed.roll(Dice(1, 8), "recovery") == [3]
    assert (typed.used, typed.remaining) == (1, 1)
    bad = TypedDice([[3], [9, 2]])
    bad.roll(Dice(1, 8))
    with pytest.raises(DiceError, match=r"roll 2 \(2d8 for recovery\): 9 is not a face of a d8"):
        bad.roll(Dice(2, 8), "recovery")
    assert bad.used == 1  # a refused group is not consumed
    assert typed.roll(Dice(2, 8)) == [5, 2]
    typed.check_all_used()
    with pytest.raises(DiceError, match=r"too few dice: roll 3 \(3d8 for recovery\) was not given"):
        typed.roll(Dice(3, 8), "recovery")


def test_typed_dice_wrong_count_and_leftovers():
    with pytest.raises(DiceError, match=r"roll 1 \(2d12 for leader\): 2d12 needs 2 faces, got 1"):
        TypedDice([[7]]).roll(Dice(2, 12), "leader")
    typed = TypedDice([[1], [2]])
    typed.roll(Dice(1, 4))
    with pytest.raises(DiceError, match="too many dice: 1 roll"):
        typed.check_all_used()


# --- typed faces: the one grammar of the GUI, the CLI and the services ----------------------------------

GRAMMAR = re.compile(r"\s*[0-9]+(?:(?:\s*,\s*|\s+)[0-9]+)*\s*")
"""What parse_faces accepts, written once more as a regular expression (the property tests hold it to it)."""

SEPARATORS = st.sampled_from([",", ", ", " ,", " , ", " ", "  ", "\t", ",\t", "\u00a0"])
SPACE = st.sampled_from(["", " ", "  ", "\t", "\n"])


@given(faces=st.lists(st.integers(1, 999_999), min_size=1, max_size=12), data=st.data())
def test_faces_written_any_allowed_way_read_back(faces: list[int], data: st.DataObject):
    seps = [data.draw(SEPARATORS) for _ in faces[1:]]
    text = data.draw(SPACE) + str(faces[0]) + "".join(s + str(f) for s, f in zip(seps, faces[1:], strict=True))
    text += data.draw(SPACE)
    assert parse_faces(text) == faces


@given(st.one_of(st.text(), st.text(alphabet="0123456789 ,\t;.-+x\u00a0\uff15", max_size=20)))
def test_any_text_is_read_by_the_grammar_or_refused_in_one_line(text: str):
    try:
        faces = parse_faces(text)
    except DiceError as exc:
        message = str(exc)
        assert message and "\n" not in message
        tokens = re.split(r"\s*,\s*|\s+", text.strip())
        assert not GRAMMAR.fullmatch(text) or any(t.lstrip("0") == "" or len(t.lstrip("0")) > 6 for t in tokens)
        return
    assert GRAMMAR.fullmatch(text), text
    assert faces == [int(t) for t in re.findall(r"[0-9]+", text)] and all(f >= 1 for f in faces)


@given(
    count=st.integers(1, 4),
    sides=st.sampled_from([4, 6, 8, 10, 12, 66]),
    faces=st.lists(st.integers(0, 70), min_size=1, max_size=5),
)
def test_with_the_dice_known_count_and_range_are_checked(count: int, sides: int, faces: list[int]):
    text = ",".join(map(str, faces))
    fits = len(faces) == count and all(1 <= f <= sides for f in faces)
    try:
        assert parse_faces(text, Dice(count, sides)) == faces
    except DiceError:
        assert not fits
    else:
        assert fits


@pytest.mark.parametrize(
    "text,message",
    [
        ("7x", "'7x' is not a die face (type whole numbers separated by commas or spaces, e.g. 5,2)"),
        ("5;2", "'5;2' is not a die face"),
        ("-3", "'-3' is not a die face"),
        ("2.5", "'2.5' is not a die face"),
        ("", "no faces given"),
        ("   ", "no faces given"),
        ("5,,2", "'5,,2' has two commas with no face between them"),
        ("5, 2,", "'5, 2,' has a comma with no face after it"),
        (",5", "',5' has a comma with no face before it"),
        ("0", "0 is not a die face (faces start at 1)"),
        ("3 " + "9" * 5000, "99999999\u2026 is not a die face (far too large)"),
    ],
)
def test_refusals_name_the_problem(text: str, message: str):
    with pytest.raises(DiceError) as info:
        parse_faces(text)
    assert str(info.value).startswith(message)


def test_a_known_die_names_the_face_out_of_range():
    with pytest.raises(DiceError, match=re.escape("9 is not a face of a d8 (1..8)")):
        parse_faces("9", Dice(1, 8))
    with pytest.raises(DiceError, match="2d10 needs 2 faces, got 3"):
        parse_faces("1 2 3", Dice(2, 10))
    assert parse_faces(" 10 , 1 ", Dice(2, 10)) == [10, 1]


def test_roll_record_carries_everything():
    rec = roll_record(TypedDice([[4, 6]]), Dice(2, 6, -2), "test", "RULES 9.9 test", table_row="row 1", outcome="done")
    assert (rec.expression, rec.faces, rec.total, rec.modifier, rec.source) == ("2d6-2", [4, 6], 8, -2, "entered")
    data = rec.to_dict()
    assert data["rule"] == "RULES 9.9 test" and data["table_row"] == "row 1" and data["outcome"] == "done"
    assert "details" not in data
    rec.details["x"] = 1
    assert rec.to_dict()["details"] == {"x": 1}
