"""Atomic Africa: after the battle (RULES.md 1.2) and force generation (RULES.md 1.3).

The aftermath runs in the rules' order: award, recovery, leader's fate, replacement leader. Every roll comes
from a :class:`~campaign_app.rules.dice.DiceSource` and becomes a :class:`~campaign_app.rules.dice.RollRecord`
naming the rule and the table row it used. Recovery, whose next roll depends on the last, is a step-by-step
object (:class:`Recovery`) so that a GUI can ask the user for each roll in turn.

The rule tables (period -> die, the recovery sequence, the leader's fate thresholds) exist once here, as
data and small functions; the odds calculator (:mod:`.odds`), the help text and the printed cards use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .codes import (  # noqa: F401 - RULE_AWARD is re-exported for the services
    PURPOSE_FORCE,
    PURPOSE_LEADER,
    PURPOSE_RECOVERY,
    PURPOSE_REPLACEMENT,
    RULE_AWARD,
    RULE_FORCE,
    RULE_LEADER,
    RULE_RECOVERY,
    RULE_REPLACEMENT,
    purpose_text,
    rule_text,
)
from .dice import DIE_SIDES, Dice, DiceError, DiceSource, RollRecord, Source
from .enums import LeaderFate
from .experience import XP_MAX, RulesError, check_xp, clamp_xp

# --- rule references and purposes (stored with every roll as codes; the words are in .codes) ----------------

# --- the rule tables, as data ----------------------------------------------------------------------------

SURVIVAL_XP = 1
"""Step 1: XP to the platoon and to the leader for surviving the battle."""
OBJECTIVE_XP: tuple[int, ...] = (0, 1, 2)
"""Step 1: extra XP for objectives: none met, a hard one (+1), a near-impossible one (+2)."""
OBJECTIVE_LABELS: tuple[str, ...] = ("none", "hard", "near-impossible")
ObjectiveTo = Literal["both", "platoon"]
OBJECTIVE_XP_TO: tuple[str, ...] = ("both", "platoon")

RECOVERY_DIE = 8
"""Step 2: recovery rolls d8s, one more each roll (1d8, 2d8, 3d8, ...)."""
RECOVERY_XP_LOSS = 1
"""Step 2: XP the platoon loses after each recovery roll that leaves counters."""

LEADER_DICE = Dice(2, 12)
"""Step 3: the leader's fate roll."""

PERIODS: tuple[int, ...] = (1, 2, 3, 4, 5)
PERIOD_DIE: dict[int, int] = dict(zip(PERIODS, DIE_SIDES, strict=True))
"""⚙ Campaign period 1..5 -> die sides for the replacement leader and force generation (d4..d12)."""
DEFAULT_DIE = 10
"""The die used when the campaign has no period set."""
DIE_MINUS = 1
"""Replacement leader and force generation: each die counts its face minus one (minimum 0)."""

REPLACEMENT_DICE: tuple[int, ...] = (2, 1)
"""⚙ Dice rolled for a replacement leader: 2 (RULES 1.2 step 4: the lower of two dice, minus one; the
default) or 1 (house rule: one die minus one)."""
DEFAULT_REPLACEMENT_DICE = 2

Fate = LeaderFate
FATES: tuple[Fate, ...] = tuple(LeaderFate)


def _count(n: int, word: str) -> str:
    """ "1 roll", "3 rolls": a count with the right form of the word."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def check_count(value: int, what: str) -> int:
    """A count such as wound counters: a whole number, 0 or more."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulesError(f"{what} must be a whole number, 0 or more, not {value!r}")
    return value


def check_period(period: int | None) -> int | None:
    if period is None:
        return None
    if isinstance(period, bool) or not isinstance(period, int) or period not in PERIOD_DIE:
        raise RulesError(f"campaign period must be 1 to 5 (or not set), not {period!r}")
    return period


def check_objectives(objectives: int) -> int:
    if isinstance(objectives, bool) or not isinstance(objectives, int) or not 0 <= objectives < len(OBJECTIVE_XP):
        raise RulesError(f"objectives must be 0 (none), 1 (hard) or 2 (near-impossible), not {objectives!r}")
    return objectives


def period_sides(period: int | None) -> int:
    """Die sides for the campaign ``period`` (1..5 -> 4..12; ``None`` -> 10)."""
    period = check_period(period)
    return DEFAULT_DIE if period is None else PERIOD_DIE[period]


def period_label(period: int | None) -> str:
    return "period not set" if period is None else f"period {period}"


def check_replacement_dice(count: int) -> int:
    """⚙ 2 (the lower of two dice, the default) or 1 (house rule: one die)."""
    if isinstance(count, bool) or count not in REPLACEMENT_DICE:
        raise RulesError(f"a replacement leader rolls 2 dice (the lower counts) or 1 die (house rule), not {count!r}")
    return count


def replacement_die(period: int | None, dice: int = DEFAULT_REPLACEMENT_DICE) -> Dice:
    """The replacement leader's dice: two dice of the period's type (the lower counts, minus one), or with
    the house rule one die (minus one)."""
    return Dice(check_replacement_dice(dice), period_sides(period))


def replacement_rule_text(dice: int = DEFAULT_REPLACEMENT_DICE, sides: int | None = None) -> str:
    """``"lower of 2d10 − 1"`` / ``"1d10 − 1"`` (``sides`` None: "two dice" / "one die" in words)."""
    check_replacement_dice(dice)
    if sides is None:
        return "the lower of two dice − 1" if dice == 2 else "one die − 1 (house rule)"
    return f"lower of 2d{sides} − 1" if dice == 2 else f"1d{sides} − 1"


def force_dice(period: int | None) -> Dice:
    """Force generation: two dice of the period's type (each counts minus one)."""
    return Dice(2, period_sides(period))


def die_to_xp(face: int) -> int:
    """One die of replacement/force generation -> XP (face minus one, minimum 0)."""
    return max(0, face - DIE_MINUS)


def replacement_table() -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """Replacement leader / force generation dice by campaign period, as ``(headers, rows)``."""
    headers = ("Period", "Die", "XP")
    rows: list[tuple[str, ...]] = []
    for period in (*PERIODS, None):
        sides = period_sides(period)
        rows.append(
            ("not set" if period is None else str(period), f"d{sides}", f"{die_to_xp(1)}\u2013{die_to_xp(sides)}")
        )
    return headers, rows


def recovery_dice(roll_number: int) -> Dice:
    """The dice of recovery roll ``roll_number`` (1 -> 1d8, 2 -> 2d8, ...)."""
    if roll_number < 1:
        raise RulesError(f"recovery rolls are numbered from 1, not {roll_number}")
    return Dice(roll_number, RECOVERY_DIE)


def recovery_table(rolls: int = 4) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The first ``rolls`` steps of the recovery sequence, as ``(headers, rows)``."""
    headers: tuple[str, ...] = ("Roll", "Dice", "Counters left after it")
    rows: list[tuple[str, ...]] = [
        (str(k), recovery_dice(k).expression, f"platoon \u2212{RECOVERY_XP_LOSS} XP, roll again")
        for k in range(1, rolls + 1)
    ]
    return headers, rows


def leader_fate_table() -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The leader's fate (2d12), checked top to bottom, as ``(headers, rows)``."""
    headers: tuple[str, ...] = ("2d12 roll", "Fate")
    rows: list[tuple[str, ...]] = [
        ("\u2264 wound counters on the leader's element", LeaderFate.CASUALTY.value),
        ("\u2264 leader's XP after the award", LeaderFate.PROMOTED.value),
        ("higher than both", LeaderFate.STAYS.value),
    ]
    return headers, rows


# --- step 1: award ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Award:
    platoon_xp_before: int
    platoon_xp_after: int
    leader_xp_before: int | None
    leader_xp_after: int | None

    @property
    def platoon_delta(self) -> int:
        return self.platoon_xp_after - self.platoon_xp_before

    @property
    def leader_delta(self) -> int | None:
        if self.leader_xp_before is None or self.leader_xp_after is None:
            return None
        return self.leader_xp_after - self.leader_xp_before

    def to_dict(self) -> dict[str, object]:
        return {
            "platoon_xp_before": self.platoon_xp_before,
            "platoon_xp_after": self.platoon_xp_after,
            "platoon_delta": self.platoon_delta,
            "leader_xp_before": self.leader_xp_before,
            "leader_xp_after": self.leader_xp_after,
            "leader_delta": self.leader_delta,
        }


def award(
    platoon_xp: int, leader_xp: int | None, objectives: int = 0, objective_xp_to: ObjectiveTo | str = "both"
) -> Award:
    """Step 1: +1 XP each for surviving; objectives +0/+1/+2 to the platoon (and to the leader unless the
    campaign's ⚙ setting gives them to the platoon only). XP is capped at 32. ``leader_xp`` ``None``: the
    platoon has no leader."""
    check_xp(platoon_xp, "platoon XP")
    if leader_xp is not None:
        check_xp(leader_xp, "leader XP")
    bonus = OBJECTIVE_XP[check_objectives(objectives)]
    if objective_xp_to not in OBJECTIVE_XP_TO:
        raise RulesError(f"objective XP goes to 'both' or 'platoon', not {objective_xp_to!r}")
    platoon_after = clamp_xp(platoon_xp + SURVIVAL_XP + bonus)
    leader_after = None
    if leader_xp is not None:
        leader_after = clamp_xp(leader_xp + SURVIVAL_XP + (bonus if objective_xp_to == "both" else 0))
    return Award(platoon_xp, platoon_after, leader_xp, leader_after)


# --- step 2: recovery ------------------------------------------------------------------------------------


@dataclass
class RecoveryResult:
    wounds: int
    xp_before: int
    xp_after: int
    remaining: int
    records: list[RollRecord] = field(default_factory=list)

    @property
    def xp_lost(self) -> int:
        return self.xp_before - self.xp_after

    @property
    def failed_rolls(self) -> int:
        """Rolls that left counters."""
        return sum(1 for r in self.records if r.details.get("remaining"))

    def to_dict(self) -> dict[str, object]:
        """The shape of ``campaign-cli roll recovery --json``."""
        return {
            "rolls": [
                {
                    "expression": r.expression,
                    "faces": list(r.faces),
                    "removed": r.details["removed"],
                    "remaining": r.details["remaining"],
                }
                for r in self.records
            ],
            "xp_lost": self.xp_lost,
            "xp_after": self.xp_after,
        }


class Recovery:
    """Step 2 as state: roll 1d8, 2d8, 3d8, ... removing counters cumulatively; after each roll that leaves
    counters the platoon loses 1 XP; stop when no counters remain or the platoon is at 0 XP.

    ``xp`` is the platoon's XP when recovery starts (after the award). ▶ No roll is made when there are no
    wound counters; likewise none when the platoon is already at 0 XP (the stop rule already holds).
    """

    def __init__(self, wounds: int, xp: int) -> None:
        self.wounds = check_count(wounds, "wound counters")
        self.xp_before = check_xp(xp, "platoon XP")
        self._remaining = self.wounds
        self._xp = self.xp_before
        self._records: list[RollRecord] = []

    @property
    def done(self) -> bool:
        return self._remaining == 0 or self._xp == 0

    @property
    def roll_number(self) -> int:
        """Number of the next roll (1 for the first)."""
        return len(self._records) + 1

    @property
    def next_dice(self) -> Dice | None:
        return None if self.done else recovery_dice(self.roll_number)

    @property
    def remaining(self) -> int:
        """Wound counters still on the table."""
        return self._remaining

    @property
    def xp(self) -> int:
        return self._xp

    @property
    def xp_lost(self) -> int:
        return self.xp_before - self._xp

    @property
    def records(self) -> list[RollRecord]:
        return list(self._records)

    def apply(self, faces: Sequence[int], source: Source = "app") -> RollRecord:
        """Apply the faces of the next roll (checked against :attr:`next_dice`) and return its record."""
        dice = self.next_dice
        if dice is None:
            raise DiceError(f"recovery is over after {_count(len(self._records), 'roll')}: no more dice needed")
        try:
            dice.check_faces(list(faces))
        except DiceError as exc:
            raise DiceError(f"recovery roll {self.roll_number} ({dice.expression}): {exc}") from None
        if source not in ("app", "entered"):
            raise DiceError(f"a roll comes from 'app' or 'entered', not {source!r}")
        total = dice.total(faces)
        removed = min(total, self._remaining)
        self._remaining -= removed
        outcome = f"removed {removed}, {self._remaining} left"
        if self._remaining:
            self._xp = max(0, self._xp - RECOVERY_XP_LOSS)
            outcome += f": \u2212{RECOVERY_XP_LOSS} XP"
            if self._xp == 0:
                outcome += ", platoon at 0 XP: recovery stops"
        record = RollRecord(
            purpose=PURPOSE_RECOVERY,
            expression=dice.expression,
            faces=list(faces),
            total=total,
            source=source,
            rule=RULE_RECOVERY,
            modifier=dice.modifier,
            table_row=f"roll {self.roll_number}: {dice.expression}",
            outcome=outcome,
            details={"removed": removed, "remaining": self._remaining},
        )
        self._records.append(record)
        return record

    def roll(self, dice_source: DiceSource) -> RollRecord:
        """Roll the next dice from ``dice_source`` and apply them."""
        dice = self.next_dice
        if dice is None:
            raise DiceError(f"recovery is over after {_count(len(self._records), 'roll')}: no more dice needed")
        return self.apply(dice_source.roll(dice, purpose_text(PURPOSE_RECOVERY)), dice_source.source)

    def result(self) -> RecoveryResult:
        return RecoveryResult(self.wounds, self.xp_before, self._xp, self._remaining, self.records)


def run_recovery(wounds: int, xp: int, dice_source: DiceSource) -> RecoveryResult:
    """Run the whole recovery with dice from ``dice_source``."""
    recovery = Recovery(wounds, xp)
    while not recovery.done:
        recovery.roll(dice_source)
    return recovery.result()


# --- step 3: leader's fate -------------------------------------------------------------------------------


def leader_fate(roll_total: int, leader_wounds: int, leader_xp_after_award: int) -> Fate:
    """Casualty if the roll does not exceed the wound counters on the leader's element (checked first);
    else promoted if it does not exceed the leader's XP after the award; else the leader stays."""
    if (
        isinstance(roll_total, bool)
        or not isinstance(roll_total, int)
        or not LEADER_DICE.minimum <= roll_total <= LEADER_DICE.maximum
    ):
        raise RulesError(
            f"a {LEADER_DICE.expression} roll totals {LEADER_DICE.minimum} to {LEADER_DICE.maximum}, not {roll_total!r}"
        )
    check_count(leader_wounds, "wound counters on the leader's element")
    check_xp(leader_xp_after_award, "leader XP")
    if roll_total <= leader_wounds:
        return LeaderFate.CASUALTY
    if roll_total <= leader_xp_after_award:
        return LeaderFate.PROMOTED
    return LeaderFate.STAYS


def _fate_row(fate: Fate, total: int, wounds: int, xp: int) -> str:
    if fate == LeaderFate.CASUALTY:
        return f"casualty: {total} \u2264 {_count(wounds, 'wound counter')}"
    if fate == LeaderFate.PROMOTED:
        return f"promoted: {total} > {_count(wounds, 'wound counter')}, \u2264 {xp} XP"
    return f"stays: {total} > {_count(wounds, 'wound counter')} and > {xp} XP"


def leader_fate_record(
    faces: Sequence[int], source: Source, leader_wounds: int, leader_xp: int
) -> tuple[Fate, RollRecord]:
    """The leader's fate for 2d12 ``faces`` (checked), as the fate and its roll record."""
    try:
        LEADER_DICE.check_faces(list(faces))
    except DiceError as exc:
        raise DiceError(f"leader's fate roll ({LEADER_DICE.expression}): {exc}") from None
    total = LEADER_DICE.total(faces)
    fate = leader_fate(total, leader_wounds, leader_xp)
    record = RollRecord(
        purpose=PURPOSE_LEADER,
        expression=LEADER_DICE.expression,
        faces=list(faces),
        total=total,
        source=source,
        rule=RULE_LEADER,
        modifier=LEADER_DICE.modifier,
        table_row=_fate_row(fate, total, leader_wounds, leader_xp),
        outcome=fate,
        details={"fate": fate, "survival": leader_wounds, "promotion": leader_xp},
    )
    return fate, record


def roll_leader_fate(leader_wounds: int, leader_xp: int, dice_source: DiceSource) -> tuple[Fate, RollRecord]:
    """Roll 2d12 for the leader (``leader_xp`` is the XP after the award)."""
    check_count(leader_wounds, "wound counters on the leader's element")
    check_xp(leader_xp, "leader XP")
    faces = dice_source.roll(LEADER_DICE, purpose_text(PURPOSE_LEADER))
    return leader_fate_record(faces, dice_source.source, leader_wounds, leader_xp)


# --- step 4: replacement leader; 1.3 force generation -----------------------------------------------------


def replacement_record(
    faces: Sequence[int], source: Source, period: int | None, dice_count: int = DEFAULT_REPLACEMENT_DICE
) -> tuple[int, RollRecord]:
    """Step 4 from the faces rolled: XP = the lower face minus one (minimum 0); with the one-die house rule
    the one face minus one."""
    dice = replacement_die(period, dice_count)
    try:
        dice.check_faces(list(faces))
    except DiceError as exc:
        raise DiceError(f"replacement leader roll ({dice.expression}): {exc}") from None
    xp = die_to_xp(min(faces))
    rule = replacement_rule_text(dice.count, dice.sides)
    record = RollRecord(
        purpose=PURPOSE_REPLACEMENT,
        expression=dice.expression,
        faces=list(faces),
        total=xp,
        source=source,
        rule=RULE_REPLACEMENT,
        modifier=0,
        table_row=f"{period_label(period)}: {rule}" + ("" if dice.count == 2 else " (house rule)"),
        outcome=f"new leader {xp} XP",
        details={"xp": xp, "die": f"d{dice.sides}", "dice": dice.count},
    )
    return xp, record


def roll_replacement(
    period: int | None, dice_source: DiceSource, dice_count: int = DEFAULT_REPLACEMENT_DICE
) -> tuple[int, RollRecord]:
    """Step 4: the replacement leader's XP = the lower of two dice of the period's type, minus one (minimum
    0); ⚙ ``dice_count=1``: one die minus one."""
    dice = replacement_die(period, dice_count)
    return replacement_record(
        dice_source.roll(dice, purpose_text(PURPOSE_REPLACEMENT)), dice_source.source, period, dice_count
    )


@dataclass(frozen=True)
class ForceResult:
    leader_xp: int
    platoon_xp: int
    record: RollRecord

    def to_dict(self) -> dict[str, object]:
        return {"leader_xp": self.leader_xp, "platoon_xp": self.platoon_xp, "faces": list(self.record.faces)}


def force_record(faces: Sequence[int], source: Source, period: int | None) -> ForceResult:
    dice = force_dice(period)
    try:
        dice.check_faces(list(faces))
    except DiceError as exc:
        raise DiceError(f"force generation roll ({dice.expression}): {exc}") from None
    low, high = sorted(die_to_xp(f) for f in faces)
    record = RollRecord(
        purpose=PURPOSE_FORCE,
        expression=dice.expression,
        faces=list(faces),
        total=dice.total(faces),
        source=source,
        rule=RULE_FORCE,
        modifier=dice.modifier,
        table_row=f"{period_label(period)}: 2d{dice.sides}, each \u22121; lower to the leader",
        outcome=f"leader {low} XP, platoon {high} XP",
        details={"leader_xp": low, "platoon_xp": high},
    )
    return ForceResult(low, high, record)


def roll_force(period: int | None, dice_source: DiceSource) -> ForceResult:
    """RULES 1.3: two dice of the period's type, each minus one; the lower is the leader's XP, the higher the
    platoon's."""
    dice = force_dice(period)
    return force_record(dice_source.roll(dice, purpose_text(PURPOSE_FORCE)), dice_source.source, period)


# --- the whole aftermath ---------------------------------------------------------------------------------


@dataclass
class AftermathResult:
    award: Award
    recovery: RecoveryResult
    leader_wounds: int
    fate: Fate | None
    """``None`` when the platoon had no leader."""
    replacement_xp: int | None
    """XP of the replacement leader, when one was rolled."""
    records: list[RollRecord]
    """Every roll, in the order it was made."""

    @property
    def platoon_xp_before(self) -> int:
        return self.award.platoon_xp_before

    @property
    def platoon_xp_after(self) -> int:
        """After the award and recovery."""
        return self.recovery.xp_after

    @property
    def xp_lost(self) -> int:
        return self.recovery.xp_lost

    @property
    def leader_xp_before(self) -> int | None:
        return self.award.leader_xp_before

    @property
    def leader_xp_after(self) -> int | None:
        """The (old) leader's XP after the award, whatever the fate."""
        return self.award.leader_xp_after

    @property
    def leader_lost(self) -> bool:
        return self.fate is not None and LeaderFate(self.fate).leaves

    @property
    def new_leader_xp(self) -> int | None:
        """XP of whoever leads the platoon after the aftermath (``None``: no leader)."""
        if self.fate == LeaderFate.STAYS:
            return self.award.leader_xp_after
        return self.replacement_xp

    def to_dict(self) -> dict[str, object]:
        return {
            "platoon_xp_before": self.platoon_xp_before,
            "platoon_xp_after": self.platoon_xp_after,
            "platoon_award": self.award.platoon_delta,
            "xp_lost": self.xp_lost,
            "leader_xp_before": self.leader_xp_before,
            "leader_xp_after": self.leader_xp_after,
            "leader_award": self.award.leader_delta,
            "fate": self.fate,
            "replacement_xp": self.replacement_xp,
            "new_leader_xp": self.new_leader_xp,
            "rolls": [r.to_dict() for r in self.records],
        }


@dataclass(frozen=True)
class AftermathStep:
    """The roll RULES 1.2 wants next: its kind ("recovery", "leader", "replacement"), dice, purpose, rule, its
    number within its kind (recovery rolls 1, 2, 3...) and a label for the player."""

    kind: str
    dice: Dice
    purpose: str
    rule: str
    number: int
    label: str

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "expression": self.dice.expression,
            "purpose": self.purpose,
            "purpose_text": purpose_text(self.purpose),
            "rule": self.rule,
            "rule_text": rule_text(self.rule),
            "number": self.number,
            "label": self.label,
        }


class Aftermath:
    """RULES 1.2 after a battle as step-by-step state, the one place that knows the order: the award (no dice),
    then the recovery rolls (1d8, 2d8, ... while counters remain), the leader's fate (2d12, only with a leader),
    then, when the leader was lost and ``replace_leader``, the replacement leader's dice (two, the lower counts;
    ⚙ ``replacement_dice=1``: one). :attr:`next_step` says what is wanted; :meth:`apply` takes the faces (typed
    by the player or rolled by the app) and checks them against it; :meth:`roll` rolls it from a dice source."""

    def __init__(
        self,
        *,
        platoon_xp: int,
        leader_xp: int | None,
        wounds: int,
        leader_wounds: int = 0,
        objectives: int = 0,
        objective_xp_to: ObjectiveTo | str = "both",
        period: int | None = None,
        replace_leader: bool = True,
        replacement_dice: int = DEFAULT_REPLACEMENT_DICE,
    ) -> None:
        check_count(wounds, "wound counters")
        check_count(leader_wounds, "wound counters on the leader's element")
        check_period(period)
        check_replacement_dice(replacement_dice)
        self.award = award(platoon_xp, leader_xp, objectives, objective_xp_to)
        self.recovery = Recovery(wounds, self.award.platoon_xp_after)
        self.leader_wounds = leader_wounds
        self.period = period
        self.replace_leader = replace_leader
        self.replacement_dice = replacement_dice
        self.fate: Fate | None = None
        self.fate_record: RollRecord | None = None
        self.replacement_xp: int | None = None
        self.replacement_record: RollRecord | None = None

    @property
    def has_leader(self) -> bool:
        return self.award.leader_xp_after is not None

    @property
    def needs_replacement(self) -> bool:
        """The leader was lost (a casualty, or promoted away)."""
        return self.fate is not None and LeaderFate(self.fate).leaves

    @property
    def next_step(self) -> AftermathStep | None:
        """The next roll wanted, in the rules' order; ``None`` when all rolls are made."""
        rec = self.recovery
        if not rec.done:
            dice = rec.next_dice
            assert dice is not None
            return AftermathStep(
                "recovery",
                dice,
                PURPOSE_RECOVERY,
                RULE_RECOVERY,
                rec.roll_number,
                f"Recovery roll {rec.roll_number}: {dice.expression}",
            )
        if self.has_leader and self.fate is None:
            return AftermathStep(
                "leader", LEADER_DICE, PURPOSE_LEADER, RULE_LEADER, 1, f"Leader's fate: {LEADER_DICE.expression}"
            )
        if self.needs_replacement and self.replace_leader and self.replacement_xp is None:
            dice = replacement_die(self.period, self.replacement_dice)
            return AftermathStep(
                "replacement",
                dice,
                PURPOSE_REPLACEMENT,
                RULE_REPLACEMENT,
                1,
                f"Replacement leader's XP: {replacement_rule_text(dice.count, dice.sides)}",
            )
        return None

    @property
    def records(self) -> list[RollRecord]:
        """Every roll made so far, in the order made."""
        out = list(self.recovery.records)
        if self.fate_record is not None:
            out.append(self.fate_record)
        if self.replacement_record is not None:
            out.append(self.replacement_record)
        return out

    def apply(self, faces: Sequence[int], source: Source = "app") -> RollRecord:
        """Apply the faces of the next roll (checked against its dice; DiceError says what is wrong)."""
        step = self.next_step
        if step is None:
            raise DiceError("all the rolls of this battle are made: no more dice needed")
        faces = [int(f) for f in faces]
        if step.kind == "recovery":
            return self.recovery.apply(faces, source)
        if step.kind == "leader":
            leader_xp = self.award.leader_xp_after
            assert leader_xp is not None
            self.fate, self.fate_record = leader_fate_record(faces, source, self.leader_wounds, leader_xp)
            return self.fate_record
        self.replacement_xp, self.replacement_record = replacement_record(
            faces, source, self.period, self.replacement_dice
        )
        return self.replacement_record

    def roll(self, dice: DiceSource) -> RollRecord:
        """Roll the next dice from ``dice`` (the app's dice, or the player's typed ones) and apply them."""
        step = self.next_step
        if step is None:
            raise DiceError("all the rolls of this battle are made: no more dice needed")
        return self.apply(dice.roll(step.dice, purpose_text(step.purpose)), dice.source)

    def result(self) -> AftermathResult:
        return AftermathResult(
            self.award, self.recovery.result(), self.leader_wounds, self.fate, self.replacement_xp, self.records
        )


def run_aftermath(
    *,
    platoon_xp: int,
    leader_xp: int | None,
    wounds: int,
    leader_wounds: int = 0,
    objectives: int = 0,
    objective_xp_to: ObjectiveTo | str = "both",
    period: int | None = None,
    dice: DiceSource,
    replace_leader: bool = True,
    replacement_dice: int = DEFAULT_REPLACEMENT_DICE,
) -> AftermathResult:
    """RULES 1.2 in one go: every roll of :class:`Aftermath` from ``dice``, in the rules' order."""
    proc = Aftermath(
        platoon_xp=platoon_xp,
        leader_xp=leader_xp,
        wounds=wounds,
        leader_wounds=leader_wounds,
        objectives=objectives,
        objective_xp_to=objective_xp_to,
        period=period,
        replace_leader=replace_leader,
        replacement_dice=replacement_dice,
    )
    while proc.next_step is not None:
        proc.roll(dice)
    return proc.result()


__all__ = [
    "XP_MAX",
    "Award",
    "award",
    "Recovery",
    "RecoveryResult",
    "run_recovery",
    "leader_fate",
    "roll_leader_fate",
    "leader_fate_record",
    "replacement_die",
    "roll_replacement",
    "replacement_record",
    "ForceResult",
    "roll_force",
    "force_record",
    "AftermathResult",
    "Aftermath",
    "AftermathStep",
    "run_aftermath",
    "replacement_table",
    "recovery_table",
    "leader_fate_table",
    "period_sides",
    "recovery_dice",
    "FATES",
    "PERIOD_DIE",
    "DEFAULT_DIE",
    "REPLACEMENT_DICE",
    "DEFAULT_REPLACEMENT_DICE",
    "check_replacement_dice",
    "replacement_rule_text",
]
