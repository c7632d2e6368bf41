"""Dice: expressions, the two dice sources (the app's seeded generator and dice the user typed in), and roll
records.

The rules never call ``random`` themselves: they ask a :class:`DiceSource` for the faces of a :class:`Dice`
expression. ``SeededDice`` rolls them; ``TypedDice`` hands out the faces the user typed, one group per roll,
checking the count and the range of every face. :func:`parse_faces` reads typed faces (``"5,2"``, ``"5 2"``):
the one grammar of the GUI's faces fields, the CLI's ``--dice`` and the services.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from ..errors import Refused
from . import codes

DIE_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12)
"""The five attribute die types, lowest first (attribute level 1..5)."""

Source = Literal["app", "entered"]


class DiceError(Refused):
    """Dice that do not fit: wrong count, a face out of range, too few rolls typed, a bad expression."""


_EXPR = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` faces plus ``modifier`` (e.g. 2d8, 1d6-2, 2d12)."""

    count: int
    sides: int
    modifier: int = 0

    def __post_init__(self) -> None:
        if self.count < 1:
            raise DiceError(f"a roll needs at least one die, not {self.count}")
        if self.sides < 2:
            raise DiceError(f"a die needs at least 2 faces, not {self.sides}")

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Parse ``NdS[+M|-M]``; a missing N means 1 (``d8`` is ``1d8``)."""
        m = _EXPR.match(text)
        if not m:
            raise DiceError(f"not a dice expression: {text!r} (expected e.g. 2d8 or 1d6-2)")
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2))
        mod = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
        return cls(count, sides, mod)

    @property
    def expression(self) -> str:
        base = f"{self.count}d{self.sides}"
        if self.modifier > 0:
            return f"{base}+{self.modifier}"
        if self.modifier < 0:
            return f"{base}{self.modifier}"
        return base

    def __str__(self) -> str:
        return self.expression

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    def check_faces(self, faces: Sequence[int]) -> None:
        """Raise :class:`DiceError` naming the problem if ``faces`` cannot be a roll of these dice."""
        if len(faces) != self.count:
            raise DiceError(
                f"{self.count}d{self.sides} needs {self.count} face{'s' if self.count != 1 else ''}, got {len(faces)}"
            )
        for f in faces:
            if not 1 <= f <= self.sides:
                raise DiceError(f"{f} is not a face of a d{self.sides} (1..{self.sides})")

    def total(self, faces: Sequence[int]) -> int:
        return sum(faces) + self.modifier


def d(sides: int, count: int = 1, modifier: int = 0) -> Dice:
    return Dice(count, sides, modifier)


# --- attribute dice ---------------------------------------------------------------------------------------


def die_for_level(level: int) -> int:
    """Attribute level 1..5 -> die sides 4..12."""
    if not 1 <= level <= 5:
        raise DiceError(f"attribute level must be 1..5, not {level}")
    return DIE_SIDES[level - 1]


def level_for_die(sides: int) -> int:
    """Die sides 4/6/8/10/12 -> attribute level 1..5."""
    if sides not in DIE_SIDES:
        raise DiceError(f"d{sides} is not an attribute die (d4, d6, d8, d10 or d12)")
    return DIE_SIDES.index(sides) + 1


def parse_die(text: str | int) -> int:
    """``"d10"``/``"D10"``/``"10"``/``10`` -> 10, refusing anything but d4..d12."""
    raw = str(text).strip().lower().removeprefix("d")
    if not raw.isdigit():
        raise DiceError(f"not a die: {text!r} (expected d4, d6, d8, d10 or d12)")
    sides = int(raw)
    level_for_die(sides)
    return sides


def shift_down(sides: int, steps: int = 1) -> int | None:
    """Shift an attribute die ``steps`` types lower (d12->d10->...->d4); ``None`` when it falls below d4
    (the unit splits or is removed)."""
    if steps < 0:
        raise DiceError(f"cannot shift a die by a negative number of steps ({steps})")
    level = level_for_die(sides) - steps
    return DIE_SIDES[level - 1] if level >= 1 else None


# --- dice sources -----------------------------------------------------------------------------------------


class DiceSource(Protocol):
    """Where faces come from. ``source`` is recorded with every roll ("app" or "entered")."""

    @property
    def source(self) -> Source: ...

    def roll(self, dice: Dice, purpose: str = "") -> list[int]: ...


class SeededDice:
    """The app's own dice: a private ``random.Random`` (seeded for reproducible tests and ``--seed``)."""

    source: Source = "app"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self, dice: Dice, purpose: str = "") -> list[int]:
        return [self._rng.randint(1, dice.sides) for _ in range(dice.count)]


class TypedDice:
    """Faces the user typed: one group per roll, used in the order the rules ask for them."""

    source: Source = "entered"

    def __init__(self, groups: Iterable[Sequence[int]]) -> None:
        self._groups = [list(g) for g in groups]
        self._next = 0

    @property
    def used(self) -> int:
        return self._next

    @property
    def remaining(self) -> int:
        return len(self._groups) - self._next

    def roll(self, dice: Dice, purpose: str = "") -> list[int]:
        what = f" for {purpose}" if purpose else ""
        if self._next >= len(self._groups):
            raise DiceError(f"too few dice: roll {self._next + 1} ({dice.count}d{dice.sides}{what}) was not given")
        faces = self._groups[self._next]
        try:
            dice.check_faces(faces)
        except DiceError as exc:
            raise DiceError(f"roll {self._next + 1} ({dice.count}d{dice.sides}{what}): {exc}") from None
        self._next += 1
        return list(faces)

    def check_all_used(self) -> None:
        if self.remaining:
            raise DiceError(
                f"too many dice: {self.remaining} roll{'' if self.remaining == 1 else 's'} given but not needed"
            )


# --- typed faces -----------------------------------------------------------------------------------------

FACES_HELP = "whole numbers separated by commas or spaces, e.g. 5,2"
"""How typed faces are written (for help texts and messages)."""

MAX_FACE_DIGITS = 6
"""A face with more digits than this is no die's face (and is never turned into a huge int)."""

_FACE = re.compile(r"[0-9]+")
_SEPARATOR = re.compile(r"\s*,\s*|\s+")


def parse_faces(text: str, dice: Dice | None = None) -> list[int]:
    """The faces of one roll as the user typed them, the one grammar of the GUI, the CLI and the services.

    Grammar: one or more faces, each a whole number written with the digits 0-9 (no sign, no decimal point),
    separated by a comma (spaces around it are allowed) or by spaces; spaces at either end are ignored.
    ``"5,2"``, ``"5, 2"``, ``"5 2"`` and ``" 5 ,2 "`` are all ``[5, 2]``. Refused, with a message naming the
    problem: nothing typed, a comma with no face before or after it (``"5,,2"``, ``"5,"``), anything that is
    not a whole number (``"'7x' is not a die face"``, also ``-3``, ``2.5``, ``5;2``), and 0. With ``dice``
    the count and the range are checked too (``"9 is not a face of a d8 (1..8)"``).
    Raises :class:`DiceError`.
    """
    if not isinstance(text, str):
        raise DiceError(f"{text!r} is not typed faces (type {FACES_HELP})")
    stripped = text.strip()
    if not stripped:
        raise DiceError(f"no faces given (type the faces you rolled as {FACES_HELP})")
    faces: list[int] = []
    tokens = _SEPARATOR.split(stripped)
    for index, token in enumerate(tokens):
        if not token:
            where = "before" if index == 0 else "after" if index == len(tokens) - 1 else "between"
            around = {
                "before": "a comma with no face before it",
                "after": "a comma with no face after it",
                "between": "two commas with no face between them",
            }[where]
            raise DiceError(f"{stripped!r} has {around} (type {FACES_HELP})")
        if not _FACE.fullmatch(token):
            raise DiceError(f"{token!r} is not a die face (type {FACES_HELP})")
        if len(token.lstrip("0")) > MAX_FACE_DIGITS:
            raise DiceError(f"{token[: MAX_FACE_DIGITS + 2]}\u2026 is not a die face (far too large)")
        face = int(token)
        if face == 0:
            raise DiceError("0 is not a die face (faces start at 1)")
        faces.append(face)
    if dice is not None:
        dice.check_faces(faces)
    return faces


# --- roll records -----------------------------------------------------------------------------------------


@dataclass
class RollRecord:
    """One roll as it is stored and shown: what it was for, the dice, the faces, the rule and table row it
    used, and what it changed."""

    purpose: str
    expression: str
    faces: list[int]
    total: int
    source: Source
    rule: str
    modifier: int = 0
    table_row: str | None = None
    outcome: str = ""
    details: dict[str, object] = field(default_factory=dict)

    @property
    def purpose_text(self) -> str:
        """The words shown for :attr:`purpose` (a code of :mod:`.codes`)."""
        return codes.purpose_text(self.purpose)

    @property
    def rule_text(self) -> str:
        """The rule reference shown for :attr:`rule` (a code of :mod:`.codes`)."""
        return codes.rule_text(self.rule)

    def to_dict(self) -> dict[str, object]:
        return {
            "purpose": self.purpose,
            "purpose_text": self.purpose_text,
            "expression": self.expression,
            "faces": list(self.faces),
            "modifier": self.modifier,
            "total": self.total,
            "source": self.source,
            "rule": self.rule,
            "rule_text": self.rule_text,
            "table_row": self.table_row,
            "outcome": self.outcome,
            **({"details": dict(self.details)} if self.details else {}),
        }


def roll_record(
    source: DiceSource, dice: Dice, purpose: str, rule: str, *, table_row: str | None = None, outcome: str = ""
) -> RollRecord:
    """Roll ``dice`` from ``source`` and wrap the result as a :class:`RollRecord`."""
    faces = source.roll(dice, codes.purpose_text(purpose))
    return RollRecord(
        purpose=purpose,
        expression=dice.expression,
        faces=faces,
        total=dice.total(faces),
        source=source.source,
        rule=rule,
        modifier=dice.modifier,
        table_row=table_row,
        outcome=outcome,
    )
