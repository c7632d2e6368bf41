"""Logging a battle (RULES.md 1.2), undoing it and editing its text (the history is ``services.history``).

Logging is a step-by-step :class:`BattleSession` (the wizard walks it page by page; :func:`log_battle` runs it
in one go for the CLI): battle details -> casualties -> exact odds -> each roll (app-rolled or typed faces) ->
replacement leader -> summary. Nothing is written until :meth:`BattleSession.commit`, which writes the battle,
its rolls, the XP changes and the leader changes in one transaction (one journal operation) and returns an
``Edit[BattleSummary]``; undoing that operation takes it all back, and redo puts it back with the same ids and the
same dice.

:func:`undo_last_battle` removes a platoon's newest battle later on (XP, leaders and rolls return to their
state before it); redoing its operation brings the battle back. Editing what a battle records that did not come
from a roll (date, scenario, opponent, outcome, fire support, notes) is :mod:`.battle_edits`.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, cast

from peewee import fn

from ..rules.aftermath import (
    OBJECTIVE_LABELS,
    OBJECTIVE_XP,
    SURVIVAL_XP,
    Aftermath,
    AftermathStep,
    Award,
    Recovery,
    award,
    check_count,
    period_sides,
)
from ..rules.codes import PURPOSE_LEADER, PURPOSE_REPLACEMENT, RULE_AWARD, rule_text
from ..rules.dice import DiceSource, RollRecord, Source, TypedDice, parse_faces
from ..rules.enums import LeaderFate, Outcome
from ..rules.experience import RulesError, Thresholds
from ..rules.odds import leader_odds, recovery_mean, recovery_odds
from ..store import journal_read, journal_replay
from ..store.batch import ChangedMeanwhile, RowRef, expect, insert, read_together, update
from ..store.journal import Operation, current_operation, operation
from ..store.models import Battle, Campaign, Leader, Platoon, Roll, XpChange, now
from . import common
from .common import (
    Conflict,
    NotFound,
    ServiceError,
    check_line,
    check_multiline,
    check_row_id,
    iso_text,
    resolve_platoon,
    suggested_leader_name,
    thresholds_of,
)
from .edits import Edit, Recorder
from .results import Result

OUTCOMES: tuple[Outcome, ...] = tuple(Outcome)
TEXT_FIELDS: tuple[str, ...] = ("scenario", "notes", "outcome")
"""Text fields of a committed battle (all of :data:`EDITABLE_FIELDS` may be edited; each change is logged)."""
DEFAULT_REPLACEMENT_NAME = "New leader"
DEFAULT_RANK = "Lieutenant"
WOUNDS_MAX = 999
SCENARIO_MAX = 200
OPPONENT_MAX = 80
NOTES_MAX = 10_000
REASON_MAX = 500
NAME_MAX = 80
FATE_WORDS: dict[str, str] = {
    LeaderFate.CASUALTY: "casualty (killed or invalided out)",
    LeaderFate.PROMOTED: "promoted out of the platoon",
    LeaderFate.STAYS: "stays with the platoon",
}


# --- small helpers -----------------------------------------------------------------------------------------

_platoon = resolve_platoon


def _active_leader_query(platoon_id: int) -> Any:
    return (
        Leader.select()
        .where((Leader.platoon == platoon_id) & (Leader.status == "active"))
        .order_by(Leader.id.desc())
        .limit(1)
    )


def _active_leader(platoon_id: int) -> Leader | None:
    leader: Leader | None = _active_leader_query(platoon_id).first()
    return leader


def _last_number_query(platoon_id: int) -> Any:
    return Battle.select(fn.MAX(Battle.number)).where(Battle.platoon == platoon_id).tuples()


def _platoon_now(platoon_id: int) -> tuple[Platoon | None, Leader | None, int]:
    """The platoon, its active leader and its last battle's number, read together (one round trip)."""
    found, leaders, last = read_together(
        Platoon.select().where(Platoon.id == platoon_id),
        _active_leader_query(platoon_id),
        _last_number_query(platoon_id),
    )
    return (found[0] if found else None), (leaders[0] if leaders else None), int(last[0][0] or 0)


_iso = iso_text


def _text(value: Any, what: str, limit: int | None = None) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ServiceError(f"{what} must be text, not {value!r}")
    value = value.strip()
    if what in ("notes", "reason"):
        return check_multiline(value, what, limit or NOTES_MAX)
    return check_line(value, what, limit or NAME_MAX)


def check_outcome(value: Outcome | None) -> Outcome | None:
    """An :class:`Outcome`, or ``None``: not recorded. (Words a user typed, any case, "none", are read by the CLI's
    argument layer and the GUI's picker; this checks the value.)"""
    if value is None:
        return None
    if isinstance(value, bool) or value not in OUTCOMES:
        raise ServiceError(f"outcome must be victory, defeat or draw, not {value!r}")
    return Outcome(value)


def check_date(value: _dt.date | None) -> _dt.date:
    """The battle's date (``None``: today)."""
    return common.check_date(value, "battle date")


def check_objectives(value: int) -> int:
    """Objectives met: 0, 1 or 2 (the CLI reads "+1" as 1)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(OBJECTIVE_XP):
        raise ServiceError(
            f"objectives met must be 0 (none), 1 (hard, +1 XP) or 2 (near-impossible, +2 XP), not {value!r}"
        )
    return value


def check_wounds(value: int, what: str) -> int:
    """A number of wound counters, 0 to the most a battle can have."""
    try:
        check_count(value, what)
    except RulesError as exc:
        raise ServiceError(str(exc)) from None
    if value > WOUNDS_MAX:
        raise ServiceError(f"{what} must be at most {WOUNDS_MAX}, not {value}")
    return int(value)


def check_leader_wounds(wounds: int, leader_wounds: int) -> None:
    """The leader's element's counters are part of the battle's total, so never more than it."""
    if leader_wounds > wounds:
        raise ServiceError(
            f"wound counters on the leader's element ({leader_wounds}) cannot exceed the "
            f"battle's total wound counters ({wounds})"
        )


def percent(p: Fraction | float) -> str:
    """A probability for people: ``41.2 %``; tiny but possible ones as ``<0.1 %``."""
    value = float(p) * 100
    if value == 0:
        return "0 %"
    if value < 0.05:
        return "<0.1 %"
    if value > 99.95 and p != 1:
        return ">99.9 %"
    return f"{value:.1f} %"


@dataclass(frozen=True)
class OpponentChoice(Result):
    """Another platoon tracked in the app, offered as a battle's opponent."""

    id: int
    name: str
    campaign: str
    """The name of its campaign."""


def opponent_choices(platoon_id: int) -> list[OpponentChoice]:
    """Other platoons tracked in the app, for the opponent field: those of the platoon's own campaign first
    (a battle against one of them counts in the campaign's head-to-head standings), then the others."""
    own = Platoon.select(Platoon.campaign).where(Platoon.id == platoon_id).scalar()
    query = (
        Platoon.select(Platoon.id, Platoon.name, Campaign.name, Platoon.campaign)
        .join(Campaign)
        .where(Platoon.id != platoon_id)
        .order_by(Campaign.name, Platoon.name)
        .tuples()
    )
    rows = cast("Iterable[tuple[int, str, str, int]]", query)  # .tuples(): rows are tuples
    choices = sorted(rows, key=lambda r: r[3] != own)  # stable: the own campaign's first, each by name
    return [OpponentChoice(id=pid, name=name, campaign=campaign) for pid, name, campaign, _c in choices]


# --- the step-by-step session ------------------------------------------------------------------------------

RollStep = AftermathStep
"""The roll the session wants next (RULES 1.2's order lives in :class:`~campaign_app.rules.aftermath.Aftermath`)."""


@dataclass(frozen=True)
class BattleDetails(Result):
    """Step 1 of logging a battle: what the player writes down (``opponent_platoon``: the id of the platoon
    fought, when it is tracked in the app)."""

    date: _dt.date = field(default_factory=_dt.date.today)
    scenario: str = ""
    opponent: str = ""
    opponent_platoon: int | None = field(default=None, metadata={"json": "opponent_platoon_id"})
    outcome: Outcome | None = None
    objectives: int = 0
    fire_support: bool = False
    notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["date"] = self.date.isoformat()  # the JSON shape: ISO text
        return out


@dataclass(frozen=True)
class Chance(Result):
    """An exact probability: as a float, as a fraction (``"11/36"``) and for people (``"30.6 %"``)."""

    p: float
    fraction: str
    percent: str

    @classmethod
    def of(cls, p: Fraction) -> Chance:
        return cls(p=float(p), fraction=str(p), percent=percent(p))


@dataclass(frozen=True)
class XpLossChance(Result):
    """The chance that recovery costs ``xp_lost`` XP (leaving ``xp_after``)."""

    xp_lost: int
    xp_after: int
    p: float
    fraction: str
    percent: str


@dataclass(frozen=True)
class RecoveryOdds(Result):
    """The XP loss distribution of recovery for a platoon at ``xp`` after the award, and its mean."""

    xp: int
    xp_lost: tuple[XpLossChance, ...]
    mean: float


@dataclass(frozen=True)
class LeaderOdds(Result):
    """The leader's fate roll (2d12): a casualty on ``survival`` (the wound counters on the leader's element)
    or less, else promoted on ``xp`` (the leader's XP after the award) or less, else stays."""

    xp: int
    survival: int
    casualty: Chance
    promoted: Chance
    stays: Chance

    def chance(self, fate: LeaderFate) -> Chance:
        chance: Chance = getattr(self, fate.value)
        return chance


@dataclass(frozen=True)
class BattleOdds(Result):
    """The exact odds of a battle's aftermath before any roll (``leader`` ``None`` without a leader)."""

    wounds: int
    leader_wounds: int
    award: Award
    recovery: RecoveryOdds
    leader: LeaderOdds | None


@dataclass(frozen=True)
class BattlePlatoon(Result):
    """The platoon's XP before the battle, after it, its award and what recovery cost."""

    id: int
    name: str
    xp_before: int
    xp_after: int
    award: int
    xp_lost: int


@dataclass(frozen=True)
class BattleLeader(Result):
    """The leader's XP before and after the battle and the fate rolled (``None`` until rolled)."""

    name: str | None
    xp_before: int | None
    xp_after: int | None
    fate: LeaderFate | None


@dataclass(frozen=True)
class Replacement(Result):
    """The new leader who replaces a casualty or a promoted leader (XP from the replacement roll)."""

    name: str
    rank: str
    xp: int


@dataclass(frozen=True)
class AwardSummary(Result):
    """The award (RULES 1.2 step 1, no dice), its rule and the words shown for it."""

    rule: str
    rule_text: str
    text: str
    platoon_xp_before: int
    platoon_xp_after: int
    platoon_delta: int
    leader_xp_before: int | None
    leader_xp_after: int | None
    leader_delta: int | None


@dataclass(frozen=True)
class BattleRoll(Result):
    """One roll of a battle as the summary shows it."""

    purpose: str
    purpose_text: str
    expression: str
    faces: tuple[int, ...]
    total: int
    source: str
    rule: str
    rule_text: str
    table_row: str | None
    outcome: str

    @classmethod
    def of(cls, r: RollRecord) -> BattleRoll:
        return cls(
            purpose=r.purpose,
            purpose_text=r.purpose_text,
            expression=r.expression,
            faces=tuple(r.faces),
            total=r.total,
            source=r.source,
            rule=r.rule,
            rule_text=r.rule_text,
            table_row=r.table_row,
            outcome=r.outcome,
        )


@dataclass(frozen=True)
class BattleSummary(Result):
    """What a battle will write (and, after commit, wrote): the shape of ``battle log --json``
    (``battle_id`` is ``None`` until committed; ``wounds`` ``None`` until the casualties are entered)."""

    battle_id: int | None
    number: int
    platoon: BattlePlatoon
    leader: BattleLeader | None
    replacement: Replacement | None
    wounds: int | None
    leader_wounds: int
    counters_left: int
    details: BattleDetails
    award: AwardSummary
    rolls: tuple[BattleRoll, ...]


class BattleSession:
    """One battle being logged. Reads the platoon when created; writes nothing until :meth:`commit`.

    Order: :meth:`set_details`, :meth:`set_casualties`, (:meth:`odds`), then while :attr:`next_step` is not
    ``None`` either :meth:`roll` (app or any dice source) or :meth:`enter` (typed faces); when
    :attr:`needs_replacement`, :meth:`set_replacement` (name; its XP is the last roll); :meth:`summary`;
    :meth:`commit`. Changing the details' objectives or the casualties after rolling starts the rolls again.
    """

    def __init__(self, platoon: int | Platoon) -> None:
        pid = platoon.id if isinstance(platoon, Platoon) else check_row_id(platoon, "platoon")
        # every read at once (one round trip on a server)
        found, campaigns, leaders, last_number, mark = read_together(
            Platoon.select().where(Platoon.id == pid),
            Campaign.select().where(Campaign.id == Platoon.select(Platoon.campaign).where(Platoon.id == pid)),
            _active_leader_query(pid),
            _last_number_query(pid),
            (journal_read.newest_id_sql(), None),
        )
        if not found or not campaigns:
            raise NotFound(f"no platoon with id {platoon if not isinstance(platoon, Platoon) else pid}")
        p, c = found[0], campaigns[0]
        if c.system != "atomic_africa":
            raise ServiceError(f"campaign {c.name!r} is not an Atomic Africa campaign")
        leader = leaders[0] if leaders else None
        op = current_operation()
        self._read_rows: tuple[Platoon, Leader | None] = (p, leader)
        self._read_under: object = op._locked if op is not None and ("platoon", pid) in op._locked else None
        """The row lock this read was made under (in the operation that logs the battle: nothing can change the
        platoon before the commit), or None (a wizard's read: the commit reads again under its lock)."""
        self._battle: int | RowRef | None = None
        self.platoon_id: int = p.id
        self.platoon_name: str = p.name
        self.campaign_id: int = c.id
        self.campaign_name: str = c.name
        self.period: int | None = c.period
        self.objective_xp_to: str = c.objective_xp_to
        self.replacement_dice: int = c.replacement_dice
        self.thresholds: Thresholds = thresholds_of(c)
        self.platoon_xp: int = p.xp
        self.leader_id: int | None = leader.id if leader else None
        self.leader_name: str | None = leader.name if leader else None
        self.leader_rank: str | None = leader.rank if leader else None
        self.leader_xp: int | None = leader.xp if leader else None
        self.number: int = int(last_number[0][0] or 0) + 1
        self.journal_mark: int = int(mark[0][0] or 0)
        """The journal's clock when the platoon was read: what changed it since is named if the commit is
        refused."""
        self.details = BattleDetails()
        self.wounds: int | None = None
        self.leader_wounds: int = 0
        self.replacement_name: str = ""
        self.replacement_rank: str = DEFAULT_RANK
        self.committed: Edit[BattleSummary] | None = None
        self._reset_rolls()

    # -- inputs ------------------------------------------------------------------------------------------
    def set_details(
        self,
        *,
        date: _dt.date | None = None,
        scenario: str | None = "",
        opponent: str | None = "",
        opponent_platoon: int | None = None,
        outcome: Outcome | None = None,
        objectives: int = 0,
        fire_support: bool = False,
        notes: str | None = "",
    ) -> BattleDetails:
        """Step 1. Refuses bad values (ServiceError); a change of objectives restarts the rolls."""
        details = BattleDetails(
            date=check_date(date),
            scenario=_text(scenario, "scenario", SCENARIO_MAX),
            opponent=_text(opponent, "opponent", OPPONENT_MAX),
            opponent_platoon=None,
            outcome=check_outcome(outcome),
            objectives=check_objectives(objectives),
            fire_support=bool(fire_support),
            notes=_text(notes, "notes", NOTES_MAX),
        )
        if opponent_platoon is not None:
            if isinstance(opponent_platoon, bool) or not isinstance(opponent_platoon, int):
                raise ServiceError(f"opponent platoon must be a platoon id, not {opponent_platoon!r}")
            if opponent_platoon == self.platoon_id:
                raise ServiceError("a platoon cannot fight itself: choose another opponent")
            other = Platoon.get_or_none(Platoon.id == opponent_platoon)
            if other is None:
                raise NotFound(f"no platoon with id {opponent_platoon} (opponent)")
            details = replace(details, opponent_platoon=other.id, opponent=details.opponent or other.name)
        if details.objectives != self.details.objectives:
            self._reset_rolls()
        self.details = details
        return details

    def set_report(self, text: str) -> str:
        """The after-action report (the battle's notes), written on the wizard's last page: it changes no roll."""
        notes = _text(text, "notes", NOTES_MAX)  # multi-line text, as the notes it is
        self.details = replace(self.details, notes=notes)
        return notes

    def set_casualties(self, wounds: int, leader_wounds: int = 0) -> None:
        """Step 2: all wound counters of the battle (units removed before the end included) and those on the
        leader's element. A change restarts the rolls."""
        w = check_wounds(wounds, "wound counters")
        lw = check_wounds(leader_wounds, "wound counters on the leader's element")
        check_leader_wounds(w, lw)
        if (w, lw) != (self.wounds, self.leader_wounds):
            self.wounds, self.leader_wounds = w, lw
            self._reset_rolls()

    def set_replacement(self, name: str, rank: str | None = None) -> str:
        """Step 4: the replacement leader's name (and rank)."""
        text = _text(name, "replacement leader's name", NAME_MAX)
        if not text:
            raise ServiceError("the replacement leader needs a name")
        self.replacement_name = " ".join(text.split())
        if rank is not None:
            self.replacement_rank = " ".join(_text(rank, "rank", NAME_MAX).split()) or DEFAULT_RANK
        return self.replacement_name

    # -- derived state -----------------------------------------------------------------------------------
    def _reset_rolls(self) -> None:
        self._aftermath: Aftermath | None = None

    @property
    def has_leader(self) -> bool:
        return self.leader_id is not None

    @property
    def award(self) -> Award:
        return award(self.platoon_xp, self.leader_xp, self.details.objectives, self.objective_xp_to)

    def _need_casualties(self) -> None:
        if self.wounds is None:
            raise ServiceError("enter the casualties (wound counters) first")

    @property
    def aftermath(self) -> Aftermath:
        """RULES 1.2 for the casualties entered, in the rules' order (the rolls made so far kept)."""
        self._need_casualties()
        if self._aftermath is None:
            assert self.wounds is not None
            self._aftermath = Aftermath(
                platoon_xp=self.platoon_xp,
                leader_xp=self.leader_xp,
                wounds=self.wounds,
                leader_wounds=self.leader_wounds,
                objectives=self.details.objectives,
                objective_xp_to=self.objective_xp_to,
                period=self.period,
                replacement_dice=self.replacement_dice,
            )
        return self._aftermath

    @property
    def recovery(self) -> Recovery:
        """The recovery in progress (counters removed and remaining, XP lost so far)."""
        return self.aftermath.recovery

    @property
    def fate(self) -> LeaderFate | None:
        return self._aftermath.fate if self._aftermath else None

    @property
    def _fate(self) -> LeaderFate | None:
        return self.fate

    @property
    def needs_replacement(self) -> bool:
        return self._aftermath is not None and self._aftermath.needs_replacement

    @property
    def replacement_xp(self) -> int | None:
        return self._aftermath.replacement_xp if self._aftermath else None

    @property
    def _replacement_xp(self) -> int | None:
        return self.replacement_xp

    @property
    def next_step(self) -> RollStep | None:
        """The next roll wanted, in the rules' order; ``None`` when all rolls are made."""
        return self.aftermath.next_step

    @property
    def rolls_done(self) -> bool:
        return self.next_step is None

    @property
    def ready(self) -> bool:
        """Every roll made and, if a replacement is needed, named."""
        return (
            self.wounds is not None and self.rolls_done and (not self.needs_replacement or bool(self.replacement_name))
        )

    @property
    def records(self) -> list[RollRecord]:
        """Every roll made so far, in the order made."""
        return self._aftermath.records if self._aftermath else []

    @property
    def platoon_xp_after(self) -> int:
        return self.recovery.xp

    @property
    def leader_xp_after(self) -> int | None:
        return self.award.leader_xp_after

    # -- rolling ------------------------------------------------------------------------------------------
    def apply(self, faces: list[int], source: Source = "app") -> RollRecord:
        """Apply the faces of the next roll (checked against its dice; DiceError says what is wrong)."""
        return self.aftermath.apply(faces, source)

    def roll(self, dice: DiceSource) -> RollRecord:
        """Roll the next dice from ``dice`` (the app's dice, or TypedDice) and apply them."""
        return self.aftermath.roll(dice)

    def enter(self, text: str) -> RollRecord:
        """The faces the user rolled, as typed (``"5,2"``; see :func:`~campaign_app.rules.dice.parse_faces`)."""
        return self.apply(parse_faces(text), "entered")

    def roll_all(self, dice: DiceSource, until: str | None = None) -> list[RollRecord]:
        """Make every remaining roll from ``dice`` (stopping before the first roll of kind ``until``)."""
        made = []
        while (step := self.next_step) is not None and step.kind != until:
            made.append(self.roll(dice))
        return made

    # -- showing -----------------------------------------------------------------------------------------
    def odds(self) -> BattleOdds:
        """The exact odds before any roll, for the casualties entered: XP loss distribution of recovery (and
        its mean), the leader's casualty / promotion / stays chances."""
        self._need_casualties()
        assert self.wounds is not None
        given = self.award
        dist = recovery_odds(self.wounds, given.platoon_xp_after)
        recovery = RecoveryOdds(
            xp=given.platoon_xp_after,
            xp_lost=tuple(
                XpLossChance(
                    xp_lost=k, xp_after=given.platoon_xp_after - k, p=float(p), fraction=str(p), percent=percent(p)
                )
                for k, p in dist.items()
            ),
            mean=float(recovery_mean(self.wounds, given.platoon_xp_after)),
        )
        leader = None
        if given.leader_xp_after is not None:
            lo = leader_odds(self.leader_wounds, given.leader_xp_after)
            leader = LeaderOdds(
                xp=given.leader_xp_after,
                survival=self.leader_wounds,
                casualty=Chance.of(lo[LeaderFate.CASUALTY]),
                promoted=Chance.of(lo[LeaderFate.PROMOTED]),
                stays=Chance.of(lo[LeaderFate.STAYS]),
            )
        return BattleOdds(
            wounds=self.wounds, leader_wounds=self.leader_wounds, award=given, recovery=recovery, leader=leader
        )

    def award_text(self) -> str:
        given = self.award
        bonus = OBJECTIVE_XP[self.details.objectives]
        why = f"+{SURVIVAL_XP} for surviving" + (
            f", +{bonus} for a {OBJECTIVE_LABELS[self.details.objectives]} objective" if bonus else ""
        )
        text = f"Platoon {given.platoon_xp_before} \u2192 {given.platoon_xp_after} XP ({why})"
        if given.leader_xp_before is not None:
            lb = bonus if self.objective_xp_to == "both" else 0
            lwhy = f"+{SURVIVAL_XP} for surviving" + (f", +{lb} objective" if lb else "")
            text += f"; {self.leader_name} {given.leader_xp_before} \u2192 {given.leader_xp_after} XP ({lwhy})"
        return text

    def summary(self, battle_id: int | None = None) -> BattleSummary:
        """What the battle will write (and, after :meth:`commit`, wrote, as ``battle_id``): the shape of
        ``battle log --json``."""
        given = self.award
        rec = self.recovery
        replacement = None
        if self.needs_replacement and self._replacement_xp is not None:
            replacement = Replacement(
                name=self.replacement_name or DEFAULT_REPLACEMENT_NAME,
                rank=self.replacement_rank,
                xp=self._replacement_xp,
            )
        leader = None
        if self.has_leader:
            leader = BattleLeader(
                name=self.leader_name, xp_before=given.leader_xp_before, xp_after=given.leader_xp_after, fate=self._fate
            )
        return BattleSummary(
            battle_id=battle_id if battle_id is not None else self.committed.id if self.committed else None,
            number=self.number,
            platoon=BattlePlatoon(
                id=self.platoon_id,
                name=self.platoon_name,
                xp_before=self.platoon_xp,
                xp_after=rec.xp,
                award=given.platoon_delta,
                xp_lost=rec.xp_lost,
            ),
            leader=leader,
            replacement=replacement,
            wounds=self.wounds,
            leader_wounds=self.leader_wounds,
            counters_left=rec.remaining,
            details=self.details,
            award=AwardSummary(
                rule=RULE_AWARD,
                rule_text=rule_text(RULE_AWARD),
                text=self.award_text(),
                platoon_xp_before=given.platoon_xp_before,
                platoon_xp_after=given.platoon_xp_after,
                platoon_delta=given.platoon_delta,
                leader_xp_before=given.leader_xp_before,
                leader_xp_after=given.leader_xp_after,
                leader_delta=given.leader_delta,
            ),
            rolls=tuple(BattleRoll.of(r) for r in self.records),
        )

    # -- committing --------------------------------------------------------------------------------------
    def _changed_since(self, p: Platoon) -> str:
        """The refusal when the platoon changed after the session read it: names the change (from the
        journal), when and by whom."""
        found = journal_read.list_operations(platoon=p.id, since=self.journal_mark, limit=1)
        if not found:  # e.g. a run of XP steps begun before the session: the platoon's newest change
            found = journal_read.list_operations(platoon=p.id, undone=False, limit=1)
        if not found:
            return f"{p.name} changed since you started logging this battle; nothing was written, start again"
        op = found[0]
        what = f"\u201c{op.label}\u201d" + (" was undone" if op.undone else "")
        try:
            stamp = op.undone_at if op.undone and op.undone_at else op.updated_at
            at = _dt.datetime.fromisoformat(stamp).astimezone().strftime("%H:%M")
        except (TypeError, ValueError):
            at = "?"
        who = f" by {op.user}" if op.user else ""
        return (
            f"{p.name} changed since you started logging this battle: {what} at {at}{who}; nothing was "
            "written, start again"
        )

    def _stale(self, p: Platoon) -> bool:
        leader = _active_leader(p.id)
        last = Battle.select(fn.MAX(Battle.number)).where(Battle.platoon == p.id).scalar()
        return self._stale_given(p, leader, last)

    def _stale_given(self, p: Platoon, leader: Leader | None, last: int | None) -> bool:
        return bool(
            p.xp != self.platoon_xp
            or (leader.id if leader else None) != self.leader_id
            or (leader is not None and leader.xp != self.leader_xp)
            or (last or 0) + 1 != self.number
        )

    def conflict(self) -> str | None:
        """Why Commit would be refused because the platoon changed after the session read it (None: it did
        not). Read-only: the wizard asks at every page and whenever another program commits, so the player
        hears of it at once, not only on Commit."""
        if self.committed is not None:
            return None
        p = Platoon.get_or_none(Platoon.id == self.platoon_id)
        if p is None:
            return f"platoon {self.platoon_name!r} no longer exists; nothing can be written, start again"
        return self._changed_since(p) if self._stale(p) else None

    def commit(self) -> Edit[BattleSummary]:
        """Write the battle, its rolls, XP changes and leader changes in one transaction. Refuses (nothing
        written) when a roll or the replacement's name is missing, or the platoon changed meanwhile."""
        if self.committed is not None:
            raise ServiceError(f"battle {self.number} of {self.platoon_name} is already logged")
        self._need_casualties()
        step = self.next_step
        if step is not None:
            raise ServiceError(f"not all rolls are made: next is {step.label}")
        if self.needs_replacement and not self.replacement_name:
            raise ServiceError("the replacement leader needs a name")
        given = self.award
        rec = self.recovery
        details = self.details
        rec_obj = Recorder()
        try:
            with rec_obj.operation("battle.log") as op:
                op.target(campaign=self.campaign_id, platoon=self.platoon_id)
                p, leader = self._platoon_under_lock(op)
                rec_obj.label(f"Log battle {self.number} of {p.name}")
                battle = self._write(p, leader, given, rec, details)
        except ChangedMeanwhile:
            raise self.changed_refusal() from None
        self._battle = battle
        battle_id = battle if isinstance(battle, int) else battle.value  # a server's: once the commit is answered
        self.committed = Edit("battle", battle_id or 0, self._message(), self.summary(battle_id), rec_obj.changes)
        return self.committed

    def _message(self) -> str:
        fate = f", leader {self._fate}" if self._fate else ""
        return (
            f"logged battle {self.number} of {self.platoon_name}: XP {self.platoon_xp} \u2192 {self.recovery.xp}{fate}"
        )

    def changed_refusal(self) -> Conflict:
        """The refusal when the platoon changed after the session read it (the journal names the change)."""
        return Conflict(self._changed_since(self._read_rows[0]))

    def _platoon_under_lock(self, op: Operation) -> tuple[Platoon, Leader | None]:
        """The platoon and its active leader as the battle will change them, under the operation's row lock: the
        session's own read when it was made under this very lock; else read now (with the lock, in one message)
        and compared with what the session read."""
        if self._read_under is not None and self._read_under is op._locked:
            return self._read_rows
        found, leader, last = _platoon_now(self.platoon_id)
        if found is None:
            raise NotFound(f"platoon {self.platoon_name!r} no longer exists")
        if self._stale_given(found, leader, last):
            raise Conflict(self._changed_since(found))
        return found, leader

    def _write(self, p: Platoon, leader: Leader | None, given: Award, rec: Recovery, details: BattleDetails) -> Any:
        """The battle's rows. They travel together (on a server, in the message that commits), after a guard
        that refuses them when the platoon is no longer what the session read (store.batch.expect)."""
        expect(
            "SELECT (SELECT xp FROM platoon WHERE id = ?) = ? "
            "AND COALESCE((SELECT MAX(number) FROM battle WHERE platoon_id = ?), 0) = ? "
            "AND COALESCE((SELECT id FROM leader WHERE platoon_id = ? AND status = 'active' "
            "ORDER BY id DESC LIMIT 1), 0) = ? "
            "AND COALESCE((SELECT xp FROM leader WHERE platoon_id = ? AND status = 'active' "
            "ORDER BY id DESC LIMIT 1), -1) = ?",
            (
                p.id,
                self.platoon_xp,
                p.id,
                self.number - 1,
                p.id,
                self.leader_id or 0,
                p.id,
                -1 if self.leader_xp is None else self.leader_xp,
            ),
        )
        when = now()
        battle = insert(
            Battle,
            platoon=p.id,
            number=self.number,
            date=details.date,
            scenario=details.scenario,
            opponent=details.opponent,
            opponent_platoon=details.opponent_platoon,
            outcome=details.outcome,
            objectives=details.objectives,
            fire_support=details.fire_support,
            notes=details.notes,
            wounds=self.wounds,
            leader_wounds=self.leader_wounds,
            platoon_xp_before=self.platoon_xp,
            platoon_xp_after=rec.xp,
            leader_xp_before=given.leader_xp_before,
            leader_xp_after=given.leader_xp_after,
            leader_fate=self._fate,
            xp_lost=rec.xp_lost,
            created_at=when,
        )
        tag = f"battle {self.number}"
        new_leader: int | RowRef | None = None
        if leader is not None:
            values: dict[str, object] = {}
            if given.leader_xp_after != leader.xp:
                values["xp"] = given.leader_xp_after
            if self.needs_replacement:
                values.update(status=self._fate, left_battle=battle, left_at=when)
            if values:
                update(Leader, leader.id, **values)
            if self.needs_replacement:
                xp = self._replacement_xp
                assert xp is not None
                new_leader = insert(
                    Leader,
                    platoon=p.id,
                    name=self.replacement_name,
                    rank=self.replacement_rank,
                    xp=xp,
                    xp_at_join=xp,
                    joined_battle=battle,
                    joined_at=when,
                    notes=f"replaced {leader.name} after {tag}",
                )
        if rec.xp != p.xp:
            update(Platoon, p.id, xp=rec.xp)
        bonus = OBJECTIVE_XP[details.objectives]
        if given.platoon_delta:
            insert(
                XpChange,
                platoon=p.id,
                who="platoon",
                delta=given.platoon_delta,
                xp_after=given.platoon_xp_after,
                battle=battle,
                created_at=when,
                reason=f"{tag}: award (survived +{SURVIVAL_XP}" + (f", objective +{bonus}" if bonus else "") + ")",
            )
        if rec.xp_lost:
            insert(
                XpChange,
                platoon=p.id,
                who="platoon",
                delta=-rec.xp_lost,
                xp_after=rec.xp,
                battle=battle,
                created_at=when,
                reason=f"{tag}: recovery ({self.wounds} wound counters, {len(rec.records)} "
                f"roll{'s' if len(rec.records) != 1 else ''})",
            )
        if leader is not None and given.leader_delta:
            lbonus = bonus if self.objective_xp_to == "both" else 0
            insert(
                XpChange,
                platoon=p.id,
                leader=leader.id,
                who="leader",
                delta=given.leader_delta,
                xp_after=given.leader_xp_after,
                battle=battle,
                created_at=when,
                reason=f"{tag}: award (survived +{SURVIVAL_XP}" + (f", objective +{lbonus}" if lbonus else "") + ")",
            )
        for seq, record in enumerate(self.records):
            links: int | RowRef | None = None
            if record.purpose == PURPOSE_LEADER and leader is not None:
                links = leader.id
            elif record.purpose == PURPOSE_REPLACEMENT and new_leader is not None:
                links = new_leader
            insert(
                Roll,
                platoon=p.id,
                battle=battle,
                leader=links,
                seq=seq,
                purpose=record.purpose,
                expression=record.expression,
                faces=list(record.faces),
                modifier=record.modifier,
                total=record.total,
                source=record.source,
                rule=record.rule,
                table_row=record.table_row,
                outcome=record.outcome,
                created_at=when,
            )
        return battle


def log_battle(
    platoon: int,
    *,
    wounds: int,
    leader_wounds: int = 0,
    objectives: int = 0,
    outcome: Outcome | None = None,
    scenario: str | None = "",
    opponent: str | None = "",
    opponent_platoon: int | None = None,
    date: _dt.date | None = None,
    fire_support: bool = False,
    notes: str | None = "",
    replacement_name: str | None = None,
    replacement_rank: str | None = None,
    dice: DiceSource,
) -> Edit[BattleSummary]:
    """The whole wizard in one call (the CLI): dice are asked for in the rules' order (recovery rolls, the
    leader's 2d12, the replacement die). Typed dice must all be used. Returns the commit's Edit (its
    ``result`` is what was written; ``to_dict()`` the ``battle log --json`` shape) with this whole operation's
    changes.

    The platoon is read, the dice rolled and the battle written under one write lock, so another window or
    command logging a battle of the same platoon meanwhile makes this call wait, not fail."""
    session: BattleSession | None = None
    try:
        # the platoon is checked and locked first: its read and the rolls happen under the lock, and the whole
        # battle's writes travel with the commit (store.batch)
        with operation("battle.log", platoon=platoon if isinstance(platoon, int) else None) as op:
            session = BattleSession(platoon)
            _roll_and_commit(
                session,
                op,
                wounds,
                leader_wounds,
                objectives,
                outcome,
                scenario,
                opponent,
                opponent_platoon,
                date,
                fire_support,
                notes,
                replacement_name,
                replacement_rank,
                dice,
            )
    except ChangedMeanwhile:
        assert session is not None
        raise session.changed_refusal() from None
    battle_id = int(session._battle) if session._battle is not None else 0
    result = session.summary(battle_id)
    session.committed = Edit("battle", battle_id, session._message(), result, op)
    return Edit("battle", battle_id, session._message(), result, op)


def _roll_and_commit(
    session: BattleSession,
    op: Operation,
    wounds: int,
    leader_wounds: int,
    objectives: int,
    outcome: Outcome | None,
    scenario: str | None,
    opponent: str | None,
    opponent_platoon: int | None,
    date: _dt.date | None,
    fire_support: bool,
    notes: str | None,
    replacement_name: str | None,
    replacement_rank: str | None,
    dice: DiceSource,
) -> None:
    """The wizard's steps in order (the CLI's one call), inside the operation that logs the battle."""
    session.set_details(
        date=date,
        scenario=scenario,
        opponent=opponent,
        opponent_platoon=opponent_platoon,
        outcome=outcome,
        objectives=objectives,
        fire_support=fire_support,
        notes=notes,
    )
    session.set_casualties(wounds, leader_wounds)
    session.roll_all(dice)
    if isinstance(dice, TypedDice):
        dice.check_all_used()
    if session.needs_replacement:
        session.set_replacement(
            replacement_name or suggested_leader_name(session.platoon_id, session.number), replacement_rank
        )
    op.label = f"Log battle {session.number} of {session.platoon_name}"
    op.target(campaign=session.campaign_id, platoon=session.platoon_id)
    session.commit()


# --- undo, redo, edit -----------------------------------------------------------------------------------------


def _newest_battle(p: Platoon, missing: str = "battle to undo") -> Battle:
    battle: Battle | None = Battle.select().where(Battle.platoon == p.id).order_by(Battle.number.desc()).first()
    if battle is None:
        raise ServiceError(f"{p.name} has no {missing}")
    return battle


@dataclass(frozen=True)
class UndonePlatoon(Result):
    id: int
    name: str
    xp_before: int | None
    """The XP the battle had given the platoon (what it had before the undo)."""
    xp_after: int | None
    """The XP back as it was before the battle."""


@dataclass(frozen=True)
class UndoneLeader(Result):
    name: str | None
    xp_before: int | None
    xp_after: int | None
    fate_undone: str
    """The leader's fate the battle had recorded (a ``LeaderFate`` value), now taken back."""


@dataclass(frozen=True)
class BattleUndone(Result):
    """What ``battle undo`` took back: the battle, the XP, the leader's fate, the leaders it had brought in and
    how many rolls."""

    operation: int
    battle_id: int | None
    number: int | None
    platoon: UndonePlatoon
    leader: UndoneLeader | None
    removed_leaders: list[str]
    removed_rolls: int


def undo_last_battle(platoon: int) -> Edit[BattleUndone]:
    """Undo the platoon's newest logged battle through the journal: the battle, its rolls, XP changes and edits
    go; the platoon's and the leader's XP and the leaders are exactly as before it. Refused, naming it, when a
    later change (an edit of the battle, XP set by hand, a new leader...) touched the same rows."""
    p = _platoon(platoon)
    found = journal_read.list_operations(platoon=p.id, kinds=("battle.log",), undone=False, limit=1)
    if not found:
        newest = Battle.select().where(Battle.platoon == p.id).order_by(Battle.number.desc()).first()
        if newest is not None:
            raise ServiceError(
                f"battle {newest.number} of {p.name} was logged before this version started its "
                "journal of changes, so it cannot be undone"
            )
        raise ServiceError(f"{p.name} has no battle to undo")
    info = found[0]
    battle_rows = journal_read.images(info.id, "battle")
    b = battle_rows[0] if battle_rows else {}
    fate_rolls = [r for r in journal_read.images(info.id, "roll", "insert") if r.get("purpose") == PURPOSE_LEADER]
    changes = journal_replay.undo(info.id)
    leader_id = fate_rolls[0].get("leader_id") if fate_rolls else None
    led = Leader.get_or_none(Leader.id == leader_id) if leader_id is not None else None
    summary = BattleUndone(
        operation=info.id,
        battle_id=b.get("id"),
        number=b.get("number"),
        platoon=UndonePlatoon(
            id=p.id, name=p.name, xp_before=b.get("platoon_xp_after"), xp_after=b.get("platoon_xp_before")
        ),
        leader=(
            UndoneLeader(
                name=led.name if led else None,
                xp_before=b.get("leader_xp_after"),
                xp_after=b.get("leader_xp_before"),
                fate_undone=str(b["leader_fate"]),
            )
            if b.get("leader_fate")
            else None
        ),
        removed_leaders=[str(ld["name"]) for ld in journal_read.images(info.id, "leader", "insert")],
        removed_rolls=len(changes.ids("roll")),
    )
    return Edit(
        "platoon",
        p.id,
        f"undid battle {b.get('number')} of {p.name}: XP {b.get('platoon_xp_after')} "
        f"\u2192 {b.get('platoon_xp_before')}",
        summary,
        changes,
        undid=[info.id],
    )


__all__ = [
    "OUTCOMES",
    "TEXT_FIELDS",
    "BattleSession",
    "BattleDetails",
    "RollStep",
    "log_battle",
    "OpponentChoice",
    "BattleOdds",
    "RecoveryOdds",
    "LeaderOdds",
    "Chance",
    "XpLossChance",
    "BattleSummary",
    "BattlePlatoon",
    "BattleLeader",
    "Replacement",
    "AwardSummary",
    "BattleRoll",
    "undo_last_battle",
    "BattleUndone",
    "UndoneLeader",
    "UndonePlatoon",
    "FATE_WORDS",
    "opponent_choices",
    "parse_faces",
    "percent",
    "period_sides",
]
