"""The step-wise machinery of the Sologear procedures: a procedure names the next roll it wants
(:meth:`Procedure.pending`) and takes its faces (:meth:`Procedure.feed`). The GUI asks the user for each roll in
turn ("Roll for me" or typed faces); the CLI and the services run a whole procedure from a
:class:`~campaign_app.rules.dice.DiceSource` with :func:`run`. The rules never roll themselves."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import codes
from ..dice import Dice, DiceError, DiceSource, RollRecord, Source, TypedDice

# --- step-wise procedures ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollRequest:
    """The next roll a procedure wants: its key, dice and what it is for."""

    key: str
    dice: Dice
    purpose: str
    rule: str
    hint: str = ""

    @property
    def expression(self) -> str:
        return "D66" if self.key == "d66" else self.dice.expression

    @property
    def purpose_text(self) -> str:
        """The words shown for :attr:`purpose` (a code of :mod:`.codes`)."""
        return codes.purpose_text(self.purpose)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "expression": self.expression,
            "count": self.dice.count,
            "sides": self.dice.sides,
            "modifier": self.dice.modifier,
            "purpose": self.purpose,
            "purpose_text": self.purpose_text,
            "rule": self.rule,
            "rule_text": codes.rule_text(self.rule),
        }


class Procedure:
    """Base of the step-wise procedures: ``pending()`` -> next RollRequest or None; ``feed(faces, source)``."""

    def __init__(self) -> None:
        self.records: list[RollRecord] = []
        self._queue: list[RollRequest] = []

    @property
    def done(self) -> bool:
        return self.pending() is None

    def pending(self) -> RollRequest | None:
        return self._queue[0] if self._queue else None

    def feed(self, faces: Sequence[int], source: Source = "entered") -> RollRecord:
        req = self.pending()
        if req is None:
            raise DiceError("too many dice: no more rolls are needed")
        faces = [int(f) for f in faces]
        try:
            req.dice.check_faces(faces)
        except DiceError as exc:
            raise DiceError(f"roll {len(self.records) + 1} ({req.expression} for {req.purpose_text}): {exc}") from None
        self._queue.pop(0)
        rec = RollRecord(
            purpose=req.purpose,
            expression=req.expression,
            faces=list(faces),
            total=req.dice.total(faces),
            source=source,
            rule=req.rule,
            modifier=req.dice.modifier,
        )
        self._apply(req, rec)
        self.records.append(rec)
        return rec

    def _apply(self, req: RollRequest, rec: RollRecord) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def faces(self) -> list[list[int]]:
        """The faces used so far, one group per roll (replayable with TypedDice)."""
        return [list(r.faces) for r in self.records]


class MixedDice:
    """Faces gathered one roll at a time, each from the app or typed by the user (the GUI's dialogs).
    ``source`` is the source of the roll handed out last, as :func:`run` reads it after each roll."""

    def __init__(self, groups: Iterable[tuple[Sequence[int], Source]]) -> None:
        self._groups = [(list(f), s) for f, s in groups]
        self._typed = TypedDice([f for f, _ in self._groups])
        self._last: Source = "entered"

    @property
    def source(self) -> Source:
        return self._last

    def roll(self, dice: Dice, purpose: str = "") -> list[int]:
        index = self._typed.used
        faces = self._typed.roll(dice, purpose)
        self._last = self._groups[index][1]
        return faces

    def check_all_used(self) -> None:
        self._typed.check_all_used()


def run(proc: Procedure, dice: DiceSource) -> Procedure:
    """Feed a whole procedure from a dice source; leftover typed dice are refused."""
    while (req := proc.pending()) is not None:
        faces = dice.roll(req.dice, req.purpose_text)
        proc.feed(faces, dice.source)
    check = getattr(dice, "check_all_used", None)
    if check is not None:
        check()
    return proc
