"""Logging a battle (RULES.md 1.2), undoing it, editing its text, and the platoon's campaign history.

Logging is a step-by-step :class:`BattleSession` (the wizard walks it page by page; :func:`log_battle` runs it
in one go for the CLI): battle details -> casualties -> exact odds -> each roll (app-rolled or typed faces) ->
replacement leader -> summary. Nothing is written until :meth:`BattleSession.commit`, which writes the battle,
its rolls, the XP changes and the leader changes in one transaction and returns an :class:`Edit` whose change
set reverts it (:func:`revert`) and puts it back with the same ids and the same dice (:func:`reapply`).

:func:`undo_last_battle` removes a platoon's newest battle later on (XP, leaders and rolls return to their
state before it); its Edit can be reverted too (the battle comes back). :func:`edit_battle` changes what a
battle records that did not come from a roll (date, scenario, opponent, outcome, fire support, notes), each
change logged as an ``AttributeChange`` row; objectives and wound counters are refused (they set the XP).

History: :func:`history` (battles with their rolls, and a timeline of every battle, XP change, leader change,
attribute change and roll, newest first), :func:`leaders_roll`, :func:`campaign_summary`, :func:`xp_series`,
:func:`wounds_series`, :func:`timeline_csv`, :func:`history_json` and :func:`history_report` (all of it from
one read) answer with a fixed number of queries, however many battles the platoon has.
"""

from __future__ import annotations

import csv
import datetime as _dt
import gc
import io
import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from operator import itemgetter
from typing import Any, cast

from peewee import fn

from ..rules.aftermath import (
    FATES,
    OBJECTIVE_LABELS,
    OBJECTIVE_XP,
    PURPOSE_LEADER,
    PURPOSE_REPLACEMENT,
    RULE_AWARD,
    SURVIVAL_XP,
    Aftermath,
    AftermathStep,
    Award,
    Recovery,
    award,
    check_count,
    period_sides,
)
from ..rules.dice import DiceSource, RollRecord, Source, TypedDice, parse_faces
from ..rules.enums import LEADER_LEAVES, LeaderFate, Outcome
from ..rules.experience import LEVELS, RulesError, Thresholds, level_name
from ..rules.odds import leader_odds, recovery_mean, recovery_odds
from ..store import journal
from ..store.database import db
from ..store.journal import operation
from ..store.models import AttributeChange, Battle, Campaign, Leader, Platoon, Roll, XpChange, now
from .common import (
    Conflict,
    NotFound,
    ServiceError,
    check_line,
    check_multiline,
    resolve_platoon,
    suggested_leader_name,
    thresholds_of,
)
from .edits import Edit, Recorder

OUTCOMES: tuple[Outcome, ...] = tuple(Outcome)
TEXT_FIELDS: tuple[str, ...] = ("scenario", "notes", "outcome")
"""Text fields of a committed battle (all of :data:`EDITABLE_FIELDS` may be edited; each change is logged)."""
KINDS: tuple[str, ...] = ("battle", "xp", "leader", "attribute", "roll")
"""Kinds of timeline events."""
DEFAULT_REPLACEMENT_NAME = "New leader"
DEFAULT_RANK = "Lieutenant"
WOUNDS_MAX = 999
SCENARIO_MAX = 200
OPPONENT_MAX = 80
NOTES_MAX = 10_000
REASON_MAX = 500
NAME_MAX = 80
FATE_WORDS: dict[str, str] = {LeaderFate.CASUALTY: "casualty (killed or invalided out)",
                              LeaderFate.PROMOTED: "promoted out of the platoon",
                              LeaderFate.STAYS: "stays with the platoon"}
CSV_COLUMNS: tuple[str, ...] = ("at", "kind", "battle_number", "date", "text", "who", "delta", "xp_after",
                                "reason", "purpose", "expression", "faces", "total", "source", "rule",
                                "outcome", "field", "old", "new")


# --- small helpers -----------------------------------------------------------------------------------------

_platoon = resolve_platoon


def _active_leader(platoon_id: int) -> Leader | None:
    leader: Leader | None = (Leader.select().where((Leader.platoon == platoon_id) & (Leader.status == "active"))
                             .order_by(Leader.id.desc()).first())
    return leader


def _iso(value: Any) -> str | None:
    if value.__class__ is str:  # as SQLite gives it (the common case in the history)
        return value
    if value is None:
        return None
    if isinstance(value, _dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, _dt.date):
        return value.isoformat()
    return str(value)


def _date_part(value: Any) -> str | None:
    text = _iso(value)
    return text[:10] if text else None


def _text(value: Any, what: str, limit: int | None = None) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ServiceError(f"{what} must be text, not {value!r}")
    value = value.strip()
    if what in ("notes", "reason"):
        return check_multiline(value, what, limit or NOTES_MAX)
    return check_line(value, what, limit or NAME_MAX)


def check_outcome(value: Any) -> Outcome | None:
    """``victory``/``defeat``/``draw`` (any case); ``None``, ``""`` or ``"none"`` mean not recorded."""
    if value is None:
        return None
    text = str(value).strip().lower()
    if text in ("", "none", "-"):
        return None
    if text not in OUTCOMES:
        raise ServiceError(f"outcome must be victory, defeat or draw, not {value!r}")
    return Outcome(text)


def check_date(value: Any) -> _dt.date:
    if value is None:
        return _dt.date.today()
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    try:
        return _dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise ServiceError(f"battle date must be a date like 2024-05-31, not {value!r}") from None


def check_objectives(value: Any) -> int:
    if isinstance(value, str) and value.strip().lstrip("+").isdigit():
        value = int(value.strip().lstrip("+"))
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(OBJECTIVE_XP):
        raise ServiceError(f"objectives met must be 0 (none), 1 (hard, +1 XP) or 2 (near-impossible, +2 XP), "
                           f"not {value!r}")
    return value


def check_wounds(value: Any, what: str) -> int:
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
        value = int(value.strip())
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
        raise ServiceError(f"wound counters on the leader's element ({leader_wounds}) cannot exceed the "
                           f"battle's total wound counters ({wounds})")


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


def opponent_choices(platoon_id: int) -> list[dict[str, Any]]:
    """Other platoons tracked in the app (any campaign), for the opponent field."""
    query = (Platoon.select(Platoon.id, Platoon.name, Campaign.name.alias("campaign"))
             .join(Campaign).where(Platoon.id != platoon_id).order_by(Campaign.name, Platoon.name).dicts())
    return [{"id": r["id"], "name": r["name"], "campaign": r["campaign"]}
            for r in cast("Iterable[dict[str, Any]]", query)]  # .dicts(): rows are dicts


def suggest_name(seed: int | None = None) -> str | None:
    """A generated leader name (RULES.md 4) when the name generator is installed, else ``None``."""
    try:
        from ..rules import names
    except ImportError:
        return None
    suggest = getattr(names, "suggest_name", None)
    if suggest is None:
        return None
    import random

    return str(suggest(random.Random(seed)))


# --- the step-by-step session ------------------------------------------------------------------------------

RollStep = AftermathStep
"""The roll the session wants next (RULES 1.2's order lives in :class:`~campaign_app.rules.aftermath.Aftermath`)."""


@dataclass
class BattleDetails:
    date: _dt.date = field(default_factory=_dt.date.today)
    scenario: str = ""
    opponent: str = ""
    opponent_platoon: int | None = None
    outcome: str | None = None
    objectives: int = 0
    fire_support: bool = False
    notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"date": self.date.isoformat(), "scenario": self.scenario, "opponent": self.opponent,
                "opponent_platoon_id": self.opponent_platoon, "outcome": self.outcome,
                "objectives": self.objectives, "fire_support": self.fire_support, "notes": self.notes}


class BattleSession:
    """One battle being logged. Reads the platoon when created; writes nothing until :meth:`commit`.

    Order: :meth:`set_details`, :meth:`set_casualties`, (:meth:`odds`), then while :attr:`next_step` is not
    ``None`` either :meth:`roll` (app or any dice source) or :meth:`enter` (typed faces); when
    :attr:`needs_replacement`, :meth:`set_replacement` (name; its XP is the last roll); :meth:`summary`;
    :meth:`commit`. Changing the details' objectives or the casualties after rolling starts the rolls again.
    """

    def __init__(self, platoon: str | int | Platoon, campaign: str | int | None = None) -> None:
        p = _platoon(platoon, campaign)
        c = Campaign.get_by_id(p.campaign_id)
        if c.system != "atomic_africa":
            raise ServiceError(f"campaign {c.name!r} is not an Atomic Africa campaign")
        leader = _active_leader(p.id)
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
        last = Battle.select(fn.MAX(Battle.number)).where(Battle.platoon == p.id).scalar()
        self.number: int = (last or 0) + 1
        self.details = BattleDetails()
        self.wounds: int | None = None
        self.leader_wounds: int = 0
        self.replacement_name: str = ""
        self.replacement_rank: str = DEFAULT_RANK
        self.committed: Edit | None = None
        self._reset_rolls()

    # -- inputs ------------------------------------------------------------------------------------------
    def set_details(self, *, date: Any = None, scenario: Any = "", opponent: Any = "",
                    opponent_platoon: int | None = None, outcome: Any = None, objectives: Any = 0,
                    fire_support: bool = False, notes: Any = "") -> BattleDetails:
        """Step 1. Refuses bad values (ServiceError); a change of objectives restarts the rolls."""
        details = BattleDetails(
            date=check_date(date), scenario=_text(scenario, "scenario", SCENARIO_MAX),
            opponent=_text(opponent, "opponent", OPPONENT_MAX), opponent_platoon=None,
            outcome=check_outcome(outcome), objectives=check_objectives(objectives),
            fire_support=bool(fire_support), notes=_text(notes, "notes", NOTES_MAX))
        if opponent_platoon is not None:
            if isinstance(opponent_platoon, bool) or not isinstance(opponent_platoon, int):
                raise ServiceError(f"opponent platoon must be a platoon id, not {opponent_platoon!r}")
            if opponent_platoon == self.platoon_id:
                raise ServiceError("a platoon cannot fight itself: choose another opponent")
            other = Platoon.get_or_none(Platoon.id == opponent_platoon)
            if other is None:
                raise NotFound(f"no platoon with id {opponent_platoon} (opponent)")
            details.opponent_platoon = other.id
            details.opponent = details.opponent or other.name
        if details.objectives != self.details.objectives:
            self._reset_rolls()
        self.details = details
        return details

    def set_casualties(self, wounds: Any, leader_wounds: Any = 0) -> None:
        """Step 2: all wound counters of the battle (units removed before the end included) and those on the
        leader's element. A change restarts the rolls."""
        w = check_wounds(wounds, "wound counters")
        lw = check_wounds(leader_wounds, "wound counters on the leader's element")
        check_leader_wounds(w, lw)
        if (w, lw) != (self.wounds, self.leader_wounds):
            self.wounds, self.leader_wounds = w, lw
            self._reset_rolls()

    def set_replacement(self, name: Any, rank: Any = None) -> str:
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
            self._aftermath = Aftermath(platoon_xp=self.platoon_xp, leader_xp=self.leader_xp, wounds=self.wounds,
                                        leader_wounds=self.leader_wounds, objectives=self.details.objectives,
                                        objective_xp_to=self.objective_xp_to, period=self.period,
                                        replacement_dice=self.replacement_dice)
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
        return self.wounds is not None and self.rolls_done and (
            not self.needs_replacement or bool(self.replacement_name))

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
    def odds(self) -> dict[str, Any]:
        """The exact odds before any roll, for the casualties entered: XP loss distribution of recovery (and
        its mean), the leader's casualty / promotion / stays chances."""
        self._need_casualties()
        assert self.wounds is not None
        given = self.award
        dist = recovery_odds(self.wounds, given.platoon_xp_after)
        out: dict[str, Any] = {
            "wounds": self.wounds, "leader_wounds": self.leader_wounds, "award": given.to_dict(),
            "recovery": {
                "xp": given.platoon_xp_after,
                "xp_lost": [{"xp_lost": k, "xp_after": given.platoon_xp_after - k, "p": float(p),
                             "fraction": str(p), "percent": percent(p)} for k, p in dist.items()],
                "mean": float(recovery_mean(self.wounds, given.platoon_xp_after)),
            },
            "leader": None,
        }
        if given.leader_xp_after is not None:
            lo = leader_odds(self.leader_wounds, given.leader_xp_after)
            out["leader"] = {"xp": given.leader_xp_after, "survival": self.leader_wounds,
                             **{f: {"p": float(lo[f]), "fraction": str(lo[f]), "percent": percent(lo[f])}
                                for f in FATES}}
        return out

    def award_text(self) -> str:
        given = self.award
        bonus = OBJECTIVE_XP[self.details.objectives]
        why = f"+{SURVIVAL_XP} for surviving" + (
            f", +{bonus} for a {OBJECTIVE_LABELS[self.details.objectives]} objective" if bonus else "")
        text = f"Platoon {given.platoon_xp_before} \u2192 {given.platoon_xp_after} XP ({why})"
        if given.leader_xp_before is not None:
            lb = bonus if self.objective_xp_to == "both" else 0
            lwhy = f"+{SURVIVAL_XP} for surviving" + (f", +{lb} objective" if lb else "")
            text += (f"; {self.leader_name} {given.leader_xp_before} \u2192 {given.leader_xp_after} XP "
                     f"({lwhy})")
        return text

    def summary(self) -> dict[str, Any]:
        """What the battle will write (and, after :meth:`commit`, wrote): the shape of ``battle log --json``."""
        given = self.award
        rec = self.recovery
        replacement = None
        if self.needs_replacement and self._replacement_xp is not None:
            replacement = {"name": self.replacement_name or DEFAULT_REPLACEMENT_NAME,
                           "rank": self.replacement_rank, "xp": self._replacement_xp}
        leader = None
        if self.has_leader:
            leader = {"name": self.leader_name, "xp_before": given.leader_xp_before,
                      "xp_after": given.leader_xp_after, "fate": self._fate}
        return {
            "battle_id": self.committed.id if self.committed else None,
            "number": self.number,
            "platoon": {"id": self.platoon_id, "name": self.platoon_name, "xp_before": self.platoon_xp,
                        "xp_after": rec.xp, "award": given.platoon_delta, "xp_lost": rec.xp_lost},
            "leader": leader,
            "replacement": replacement,
            "wounds": self.wounds, "leader_wounds": self.leader_wounds,
            "counters_left": rec.remaining,
            "details": self.details.to_dict(),
            "award": {"rule": RULE_AWARD, "text": self.award_text(), **given.to_dict()},
            "rolls": [{"purpose": r.purpose, "expression": r.expression, "faces": list(r.faces),
                       "total": r.total, "source": r.source, "rule": r.rule, "table_row": r.table_row,
                       "outcome": r.outcome} for r in self.records],
        }

    # -- committing --------------------------------------------------------------------------------------
    def commit(self) -> Edit:
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
        with rec_obj.operation("battle.log") as op:
            p = Platoon.get_or_none(Platoon.id == self.platoon_id)
            if p is None:
                raise NotFound(f"platoon {self.platoon_name!r} no longer exists")
            op.target(campaign=p.campaign_id, platoon=p.id)
            rec_obj.label(f"Log battle {self.number} of {p.name}")
            leader = _active_leader(p.id)
            if p.xp != self.platoon_xp or (leader.id if leader else None) != self.leader_id or (
                    leader is not None and leader.xp != self.leader_xp):
                raise Conflict(f"{p.name} changed while the battle was being logged (XP or leader); "
                               "start again")
            last = Battle.select(fn.MAX(Battle.number)).where(Battle.platoon == p.id).scalar()
            if (last or 0) + 1 != self.number:
                raise Conflict(f"another battle of {p.name} was logged meanwhile; start again")
            when = now()
            battle = rec_obj.create(
                Battle, platoon=p.id, number=self.number, date=details.date, scenario=details.scenario,
                opponent=details.opponent, opponent_platoon=details.opponent_platoon, outcome=details.outcome,
                objectives=details.objectives, fire_support=details.fire_support, notes=details.notes,
                wounds=self.wounds, leader_wounds=self.leader_wounds, platoon_xp_before=self.platoon_xp,
                platoon_xp_after=rec.xp, leader_xp_before=given.leader_xp_before,
                leader_xp_after=given.leader_xp_after, leader_fate=self._fate, xp_lost=rec.xp_lost,
                created_at=when)
            tag = f"battle {self.number}"
            new_leader = None
            if leader is not None:
                values: dict[str, Any] = {"xp": given.leader_xp_after}
                if self.needs_replacement:
                    values.update(status=self._fate, left_battle=battle.id, left_at=when)
                rec_obj.update(leader, **values)
                if self.needs_replacement:
                    xp = self._replacement_xp
                    assert xp is not None
                    new_leader = rec_obj.create(Leader, platoon=p.id, name=self.replacement_name,
                                                rank=self.replacement_rank, xp=xp, xp_at_join=xp,
                                                joined_battle=battle.id, joined_at=when,
                                                notes=f"replaced {leader.name} after {tag}")
            rec_obj.update(p, xp=rec.xp)
            bonus = OBJECTIVE_XP[details.objectives]
            if given.platoon_delta:
                rec_obj.create(XpChange, platoon=p.id, who="platoon", delta=given.platoon_delta,
                               xp_after=given.platoon_xp_after, battle=battle.id, created_at=when,
                               reason=f"{tag}: award (survived +{SURVIVAL_XP}"
                                      + (f", objective +{bonus}" if bonus else "") + ")")
            if rec.xp_lost:
                rec_obj.create(XpChange, platoon=p.id, who="platoon", delta=-rec.xp_lost, xp_after=rec.xp,
                               battle=battle.id, created_at=when,
                               reason=f"{tag}: recovery ({self.wounds} wound counters, {len(rec.records)} "
                                      f"roll{'s' if len(rec.records) != 1 else ''})")
            if leader is not None and given.leader_delta:
                lbonus = bonus if self.objective_xp_to == "both" else 0
                rec_obj.create(XpChange, platoon=p.id, leader=leader.id, who="leader", delta=given.leader_delta,
                               xp_after=given.leader_xp_after, battle=battle.id, created_at=when,
                               reason=f"{tag}: award (survived +{SURVIVAL_XP}"
                                      + (f", objective +{lbonus}" if lbonus else "") + ")")
            for seq, record in enumerate(self.records):
                links: int | None = None
                if record.purpose == PURPOSE_LEADER and leader is not None:
                    links = leader.id
                elif record.purpose == PURPOSE_REPLACEMENT and new_leader is not None:
                    links = new_leader.id
                rec_obj.create(Roll, platoon=p.id, battle=battle.id, leader=links, seq=seq,
                               purpose=record.purpose, expression=record.expression, faces=list(record.faces),
                               modifier=record.modifier, total=record.total, source=record.source,
                               rule=record.rule, table_row=record.table_row, outcome=record.outcome,
                               created_at=when)
        fate = f", leader {self._fate}" if self._fate else ""
        message = (f"logged battle {self.number} of {self.platoon_name}: XP {self.platoon_xp} \u2192 "
                   f"{rec.xp}{fate}")
        self.committed = Edit("battle", battle.id, message, {}, rec_obj.changes)
        self.committed.summary = self.summary()
        return self.committed


def log_battle(platoon: str | int, *, wounds: Any, leader_wounds: Any = 0, objectives: Any = 0,
               outcome: Any = None, scenario: Any = "", opponent: Any = "", opponent_platoon: int | None = None,
               date: Any = None, fire_support: bool = False, notes: Any = "", replacement_name: Any = None,
               replacement_rank: Any = None, dice: DiceSource, campaign: str | int | None = None) -> Edit:
    """The whole wizard in one call (the CLI): dice are asked for in the rules' order (recovery rolls, the
    leader's 2d12, the replacement die). Typed dice must all be used. Returns the commit's Edit (its
    ``summary`` is the ``battle log --json`` shape).

    The platoon is read, the dice rolled and the battle written under one write lock, so another window or
    command logging a battle of the same platoon meanwhile makes this call wait, not fail."""
    with operation("battle.log") as op:
        session = BattleSession(platoon, campaign)
        session.set_details(date=date, scenario=scenario, opponent=opponent, opponent_platoon=opponent_platoon,
                            outcome=outcome, objectives=objectives, fire_support=fire_support, notes=notes)
        session.set_casualties(wounds, leader_wounds)
        session.roll_all(dice)
        if isinstance(dice, TypedDice):
            dice.check_all_used()
        if session.needs_replacement:
            session.set_replacement(replacement_name or suggested_leader_name(session.platoon_id, session.number),
                                    replacement_rank)
        op.label = f"Log battle {session.number} of {session.platoon_name}"
        op.target(campaign=session.campaign_id, platoon=session.platoon_id)
        edit = session.commit()
    edit._changes = op
    return edit


# --- undo, redo, edit -----------------------------------------------------------------------------------------

def revert(edit: Edit) -> Edit:
    """Take back what a service of this module did (a logged battle, a text edit, an undone battle) through the
    journal, exactly, in one transaction; refuses (nothing changed) naming the later change in the way."""
    from .journal import revert_edit

    step = revert_edit(edit)
    return Edit(edit.kind, edit.id, step.message, step.to_dict(), step.changes)


def reapply(edit: Edit) -> Edit:
    """Put back what :func:`revert` took away: the same rows with the same ids and the same dice."""
    from .journal import reapply_edit

    step = reapply_edit(edit)
    return Edit(edit.kind, edit.id, step.message, step.to_dict(), step.changes)


def _newest_battle(p: Platoon, missing: str = "battle to undo") -> Battle:
    battle: Battle | None = Battle.select().where(Battle.platoon == p.id).order_by(Battle.number.desc()).first()
    if battle is None:
        raise ServiceError(f"{p.name} has no {missing}")
    return battle


def undo_last_battle(platoon: str | int, campaign: str | int | None = None) -> Edit:
    """Undo the platoon's newest logged battle through the journal: the battle, its rolls, XP changes and edits
    go; the platoon's and the leader's XP and the leaders are exactly as before it. Refused, naming it, when a
    later change (an edit of the battle, XP set by hand, a new leader...) touched the same rows."""
    p = _platoon(platoon, campaign)
    found = journal.list_operations(platoon=p.id, kinds=("battle.log",), undone=False, limit=1)
    if not found:
        newest = Battle.select().where(Battle.platoon == p.id).order_by(Battle.number.desc()).first()
        if newest is not None:
            raise ServiceError(f"battle {newest.number} of {p.name} was logged before this version started its "
                               "journal of changes, so it cannot be undone")
        raise ServiceError(f"{p.name} has no battle to undo")
    info = found[0]
    battle_rows = journal.images(info.id, "battle")
    b = battle_rows[0] if battle_rows else {}
    fate_rolls = [r for r in journal.images(info.id, "roll", "insert") if r.get("purpose") == PURPOSE_LEADER]
    changes = journal.undo(info.id)
    led = Leader.get_or_none(Leader.id == fate_rolls[0].get("leader")) if fate_rolls else None
    summary = {"operation": info.id, "battle_id": b.get("id"), "number": b.get("number"),
               "platoon": {"id": p.id, "name": p.name, "xp_before": b.get("platoon_xp_after"),
                           "xp_after": b.get("platoon_xp_before")},
               "leader": ({"name": led.name if led else None, "xp_before": b.get("leader_xp_after"),
                           "xp_after": b.get("leader_xp_before"),
                           "fate_undone": b.get("leader_fate")} if b.get("leader_fate") else None),
               "removed_leaders": [ld["name"] for ld in journal.images(info.id, "leader", "insert")],
               "removed_rolls": len(changes.ids("roll"))}
    return Edit("platoon", p.id, f"undid battle {b.get('number')} of {p.name}: XP {b.get('platoon_xp_after')} "
                f"\u2192 {b.get('platoon_xp_before')}", summary, changes, undid=[info.id])


def find_battle(platoon: str | int, number: int | None = None, campaign: str | int | None = None,
                missing: str = "battles to edit") -> Battle:
    """Battle ``number`` of a platoon (the newest when ``number`` is None); ``missing`` words the refusal when
    it has none (``"<platoon> has no battles to edit"``)."""
    p = _platoon(platoon, campaign)
    if number is None:
        return _newest_battle(p, missing)
    b = Battle.get_or_none((Battle.platoon == p.id) & (Battle.number == number))
    if b is None:
        raise NotFound(f"{p.name} has no battle {number}")
    return b


EDITABLE_FIELDS: tuple[str, ...] = ("date", "scenario", "opponent", "outcome", "fire_support", "notes")
"""What a committed battle may still change: what the player wrote down, nothing that came from a roll."""
XP_FIELDS: dict[str, tuple[str, str]] = {
    "objectives": ("objectives met", "they set the XP award"),
    "wounds": ("wound counters", "they set the recovery rolls and the XP lost"),
    "leader_wounds": ("wound counters on the leader's element", "they set the leader's fate roll"),
}
"""Fields of a committed battle that decide its XP and rolls: never edited (undo the battle and log it again)."""
_KEEP: Any = object()


def _shown(name: str, value: Any) -> str:
    if value is None:
        return "none"
    if name == "fire_support":
        return "used" if value in (True, "True", "1", 1) else "not used"
    return repr(str(value)) if name != "date" else str(value)[:10]


def edit_battle(battle_id: int, *, date: Any = None, scenario: Any = None, opponent: Any = None,
                opponent_platoon: Any = _KEEP, outcome: Any = "", fire_support: bool | None = None,
                notes: Any = None, objectives: Any = None, wounds: Any = None, leader_wounds: Any = None,
                reason: str = "") -> Edit:
    """Change what a committed battle records that did not come from a roll: date, scenario, opponent (text,
    and the opponent platoon: cleared when only the text changes), outcome (``None`` clears it; the default
    ``""`` leaves it), fire support, notes. Each change is an AttributeChange row (field ``battle.<name>``);
    the whole edit is one transaction and can be undone.

    Objectives and wound counters decide the XP award, the recovery rolls and the leader's fate: a different
    value is refused (ServiceError naming why; undo the battle and log it again). The same value is fine."""
    values: dict[str, Any] = {}
    if date is not None:
        values["date"] = check_date(date)
    if scenario is not None:
        values["scenario"] = _text(scenario, "scenario", SCENARIO_MAX)
    if opponent is not None:
        values["opponent"] = _text(opponent, "opponent", OPPONENT_MAX)
    if notes is not None:
        values["notes"] = _text(notes, "notes", NOTES_MAX)
    if outcome != "":
        values["outcome"] = check_outcome(outcome)
    if fire_support is not None:
        values["fire_support"] = bool(fire_support)
    reason = _text(reason, "reason", REASON_MAX)
    asked = {"objectives": None if objectives is None else check_objectives(objectives),
             "wounds": None if wounds is None else check_wounds(wounds, "wound counters"),
             "leader_wounds": None if leader_wounds is None else check_wounds(
                 leader_wounds, "wound counters on the leader's element")}
    rec = Recorder()
    with rec.operation("battle.edit") as op:
        b = Battle.get_or_none(Battle.id == battle_id)
        if b is None:
            raise NotFound(f"no battle with id {battle_id}")
        owner = Platoon.get_by_id(b.platoon_id)
        op.target(campaign=owner.campaign_id, platoon=owner.id)
        rec.label(f"Edit battle {b.number} of {owner.name}")
        for name, value in asked.items():
            if value is not None and value != getattr(b, name):
                label, why = XP_FIELDS[name]
                raise ServiceError(
                    f"the {label} of battle {b.number} cannot be edited ({getattr(b, name)} recorded): {why}. "
                    "Undo the battle and log it again to change them")
        if opponent_platoon is not _KEEP:
            if opponent_platoon is not None:
                if isinstance(opponent_platoon, bool) or not isinstance(opponent_platoon, int):
                    raise ServiceError(f"opponent platoon must be a platoon id, not {opponent_platoon!r}")
                if opponent_platoon == b.platoon_id:
                    raise ServiceError("a platoon cannot fight itself: choose another opponent")
                other = Platoon.get_or_none(Platoon.id == opponent_platoon)
                if other is None:
                    raise NotFound(f"no platoon with id {opponent_platoon} (opponent)")
                values.setdefault("opponent", other.name)
            values["opponent_platoon"] = opponent_platoon
        elif "opponent" in values and values["opponent"] != b.opponent:
            values["opponent_platoon"] = None  # a typed name is no longer that platoon
        changed = rec.update(b, **values)
        for name, (old, new) in changed.items():
            rec.create(AttributeChange, platoon=b.platoon_id, battle=b.id, field=f"battle.{name}",
                       old_value=None if old is None else str(old), new_value=None if new is None else str(new),
                       reason=reason or f"battle {b.number} edited", created_at=now())
        p = Platoon.get_by_id(b.platoon_id)
    shown = {k: v for k, v in changed.items() if k != "opponent_platoon" or "opponent" not in changed}
    text = ", ".join(f"{k.replace('_', ' ')} {_shown(k, o)} \u2192 {_shown(k, n)}" if k != "notes"
                     else "notes changed" for k, (o, n) in shown.items())
    return Edit("battle", b.id, f"{p.name}, battle {b.number}: {text or 'nothing changed'}",
                {"battle_id": b.id, "number": b.number, "platoon": p.name,
                 "old": {k: _iso(v[0]) if k == "date" else v[0] for k, v in changed.items()},
                 "new": {k: _iso(v[1]) if k == "date" else v[1] for k, v in changed.items()}},
                rec.changes)


def edit_battle_text(battle_id: int, *, scenario: Any = None, notes: Any = None, outcome: Any = "",
                     reason: str = "") -> Edit:
    """Change a committed battle's scenario, notes and/or outcome (see :func:`edit_battle`)."""
    return edit_battle(battle_id, scenario=scenario, notes=notes, outcome=outcome, reason=reason)


# --- history --------------------------------------------------------------------------------------------------

@dataclass
class _Rows:
    """Everything the history needs about one platoon, read with a fixed number of queries."""

    platoon: dict[str, Any]
    campaign: dict[str, Any]
    thresholds: Thresholds
    battles: list[dict[str, Any]]
    leaders: list[dict[str, Any]]
    xp_changes: list[dict[str, Any]]
    attribute_changes: list[dict[str, Any]]
    rolls: list[dict[str, Any]]


@contextmanager
def _no_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while a history is read: the read makes ~20,000 dicts and lists
    (no reference cycles), and each few hundred of them would start a collection that walks the objects of
    the whole process (in the GUI, every Qt wrapper too); it runs again, once, when the read is done."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


_HISTORY_SQL: dict[Any, str] = {}


def _fetch(query: Any, platoon_id: int | None = None) -> list[dict[str, Any]]:
    """Rows of a model query as dicts keyed by field name, straight from SQLite: dates and times stay the ISO
    text they are stored as, ``faces`` is decoded, booleans are bools (much faster than model rows).

    With ``platoon_id`` (a query whose only parameter is that id) its SQL text is made once per model and
    kept (peewee's SQL building is a few percent of a history read)."""
    model = query.model
    if platoon_id is None:
        sql, params = query.sql()
    else:
        sql = _HISTORY_SQL.get(model)
        params = [platoon_id]
        if sql is None:
            sql, made = query.sql()
            if list(made) != params:
                raise AssertionError(f"history query of {model.__name__} has other parameters: {made}")
            _HISTORY_SQL[model] = sql
    cursor = db.execute_sql(sql, params)
    columns = model._meta.columns
    names = [columns[d[0]].name if d[0] in columns else d[0] for d in cursor.description]
    rows = [dict(zip(names, row)) for row in cursor.fetchall()]  # noqa: B905 - one length by construction
    if "faces" in names:
        decoded: dict[str, list[int]] = {}  # few distinct faces texts ("[3]", "[12, 12]"): decode each once
        for r in rows:
            text = r["faces"]
            if text is None:
                r["faces"] = []
                continue
            faces = decoded.get(text)
            if faces is None:
                faces = decoded[text] = json.loads(text)
            r["faces"] = list(faces)
    if "fire_support" in names:
        for r in rows:
            r["fire_support"] = bool(r["fire_support"])
    return rows


def _load(platoon: str | int, campaign: str | int | None = None) -> _Rows:
    if isinstance(platoon, int):
        row = (Platoon.select(Platoon, Campaign).join(Campaign).where(Platoon.id == platoon).first())
        if row is None:
            raise NotFound(f"no platoon with id {platoon}")
    else:
        row = _platoon(platoon, campaign)
    c = row.campaign
    pid = row.id
    return _Rows(
        platoon={"id": pid, "name": row.name, "xp": row.xp, "created_at": row.created_at},
        campaign={"id": c.id, "name": c.name, "period": c.period},
        thresholds=thresholds_of(c),
        battles=_fetch(Battle.select().where(Battle.platoon == pid).order_by(Battle.number), pid),
        leaders=_fetch(Leader.select().where(Leader.platoon == pid).order_by(Leader.joined_at, Leader.id), pid),
        xp_changes=_fetch(XpChange.select().where(XpChange.platoon == pid).order_by(XpChange.id), pid),
        attribute_changes=_fetch(AttributeChange.select().where(AttributeChange.platoon == pid)
                                 .order_by(AttributeChange.id), pid),
        rolls=_fetch(Roll.select().where(Roll.platoon == pid).order_by(Roll.id), pid),
    )


def _roll_text(r: dict[str, Any]) -> str:
    faces = ", ".join(str(f) for f in r["faces"])
    outcome = f": {r['outcome']}" if r.get("outcome") else ""
    who = "typed in" if r["source"] == "entered" else "rolled by the app"
    return f"{r['purpose'].capitalize()} {r['expression']} [{faces}] = {r['total']}{outcome} ({who})"


def _battle_text(b: dict[str, Any], leader_name: str | None, replacement: dict[str, Any] | None) -> str:
    """A battle's line; ``b`` is a battle row or a battle event (``battle_number``, ``xp_before``, ...)."""
    number = b["number"] if "number" in b else b["battle_number"]
    xp_before = b["platoon_xp_before"] if "platoon_xp_before" in b else b["xp_before"]
    xp_after = b["platoon_xp_after"] if "platoon_xp_after" in b else b["xp_after"]
    bits = [f"Battle {number}"]
    if b["scenario"]:
        bits[0] += f" \u2013 {b['scenario']}"
    if b["opponent"]:
        bits.append(f"vs {b['opponent']}")
    if b["outcome"]:
        bits.append(b["outcome"])
    bits.append(f"{b['wounds']} wound counter{'s' if b['wounds'] != 1 else ''}")
    bits.append(f"platoon XP {xp_before} \u2192 {xp_after}")
    if b["leader_fate"]:
        who = leader_name or "leader"
        bits.append(f"{who} {b['leader_fate']}")
    if replacement:
        bits.append(f"{replacement['name']} takes over ({replacement['xp']} XP)")
    return ", ".join(bits)


def event_text(ev: dict[str, Any]) -> str:
    """The one-line text of a timeline event, from its own fields (``ev["text"]`` once made; the history
    view asks for it only for the rows it paints, see ``history_report(lazy_text=True)``)."""
    text = ev.get("text")
    if text is not None:
        return str(text)
    kind = ev["kind"]
    if kind == "battle":
        text = _battle_text(ev, ev.get("leader"), ev.get("replacement"))
    elif kind == "roll":
        text = _roll_text(ev)
    elif kind == "xp":
        sign = "+" if ev["delta"] > 0 else "\u2212"
        reason = f" ({ev['reason']})" if ev["reason"] else ""
        text = f"{ev['name']} {sign}{abs(ev['delta'])} XP \u2192 {ev['xp_after']}{reason}"
    elif kind == "leader":
        number = ev["battle_number"]
        if ev["change"] == "joined":
            where = f" after battle {number}" if number is not None else ""
            text = f"{ev['name']} takes command{where} ({ev['rank']}, {ev['xp']} XP)"
        else:
            where = f" in battle {number}" if number is not None else ""
            how = FATE_WORDS.get(ev["status"], "replaced")
            text = f"{ev['name']} leaves the platoon{where}: {how} ({ev['xp']} XP)"
    else:
        reason = f" ({ev['reason']})" if ev["reason"] else ""
        old = "\u2013" if ev["old"] is None else ev["old"] or "(empty)"
        new = "\u2013" if ev["new"] is None else ev["new"] or "(empty)"
        label = ev["field"]
        if ev["battle_number"] is not None:
            label = f"battle {ev['battle_number']} {label.removeprefix('battle.')}"
        label = label.replace("_", " ")
        label = label[:1].upper() + label[1:]  # sentence case: "Battle 2 outcome: draw → victory"
        text = f"{label}: {old} \u2192 {new}{reason}"
    ev["text"] = text
    return text


def _build(rows: _Rows, text: bool = True) -> dict[str, Any]:
    """Battles (newest first, with their rolls) and the timeline events (newest first). With ``text=False``
    the events carry no ``text`` yet (:func:`event_text` makes it on demand)."""
    iso = _iso
    battles_by_id = {b["id"]: b for b in rows.battles}
    leaders_by_id = {ld["id"]: ld for ld in rows.leaders}
    rolls_by_battle: dict[int, list[dict[str, Any]]] = {}
    for r in rows.rolls:
        if r["battle"] is not None:
            rolls_by_battle.setdefault(r["battle"], []).append(r)
    joined_in: dict[int, dict[str, Any]] = {}
    for ld in rows.leaders:
        if ld["joined_battle"] is not None:
            joined_in[ld["joined_battle"]] = ld
    # the dates of a battle's events, as text, once per battle
    battle_date = {bid: iso(b["date"]) for bid, b in battles_by_id.items()}

    def led_by(b: dict[str, Any]) -> str | None:
        for r in rolls_by_battle.get(b["id"], ()):
            if r["purpose"] == PURPOSE_LEADER and r["leader"] in leaders_by_id:
                return str(leaders_by_id[r["leader"]]["name"])
        return None

    roll_events: dict[int, dict[str, Any]] = {}
    # events by their group (a battle with its rolls, XP and leader changes; or one event alone), each with
    # its order inside the group: sorting ~1,000 groups and then each small group is much cheaper than one
    # sort of every event on (group, order), and gives the same order
    groups: dict[tuple[Any, ...], list[tuple[tuple[Any, ...], dict[str, Any]]]] = {}

    def add(key: tuple[Any, ...], order: tuple[Any, ...], ev: dict[str, Any]) -> None:
        members = groups.get(key)
        if members is None:
            groups[key] = [(order, ev)]
        else:
            members.append((order, ev))

    for r in rows.rolls:
        bid = r["battle"]
        b = battles_by_id.get(bid) if bid is not None else None
        at = iso(r["created_at"])
        ev = {"kind": "roll", "id": r["id"], "at": at,
              "date": battle_date[bid] if b else (at[:10] if at else None),
              "battle_id": bid, "battle_number": b["number"] if b else None,
              "purpose": r["purpose"], "expression": r["expression"], "faces": r["faces"], "total": r["total"],
              "source": r["source"], "rule": r["rule"], "table_row": r["table_row"], "outcome": r["outcome"],
              "leader_id": r["leader"], "seq": r["seq"], "modifier": r["modifier"]}
        roll_events[r["id"]] = ev
        key = (b["created_at"], b["number"], 0, 0) if b else (r["created_at"], 0, 1, r["id"])
        add(key, (-1, -r["seq"], -r["id"]), ev)

    def roll_dict(r: dict[str, Any]) -> dict[str, Any]:
        ev = roll_events[r["id"]]
        return {"id": r["id"], "seq": r["seq"], "purpose": r["purpose"], "expression": r["expression"],
                "faces": list(r["faces"]), "modifier": r["modifier"], "total": r["total"], "source": r["source"],
                "rule": r["rule"], "table_row": r["table_row"], "outcome": r["outcome"],
                "leader_id": r["leader"], "battle_id": r["battle"], "at": ev["at"]}

    battles_out = []
    for b in rows.battles:
        rep = joined_in.get(b["id"])
        replacement = {"id": rep["id"], "name": rep["name"], "rank": rep["rank"], "xp": rep["xp_at_join"]} \
            if rep else None
        leader_name = led_by(b)
        ordered = sorted(rolls_by_battle.get(b["id"], ()), key=lambda r: (r["seq"], r["id"]))
        # text-less (view) mode shares the roll events, which hold every key of a roll's dict
        rolls = [roll_events[r["id"]] for r in ordered] if not text else [roll_dict(r) for r in ordered]
        date = battle_date[b["id"]]
        created = iso(b["created_at"])
        bd = {"id": b["id"], "number": b["number"], "date": date, "scenario": b["scenario"],
              "opponent": b["opponent"], "opponent_platoon_id": b["opponent_platoon"], "outcome": b["outcome"],
              "objectives": b["objectives"], "fire_support": bool(b["fire_support"]), "notes": b["notes"],
              "wounds": b["wounds"], "leader_wounds": b["leader_wounds"],
              "platoon_xp_before": b["platoon_xp_before"], "platoon_xp_after": b["platoon_xp_after"],
              "leader_xp_before": b["leader_xp_before"], "leader_xp_after": b["leader_xp_after"],
              "leader_fate": b["leader_fate"], "xp_lost": b["xp_lost"], "leader": leader_name,
              "replacement": replacement, "created_at": created, "rolls": rolls}
        battles_out.append(bd)
        add((b["created_at"], b["number"], 0, 0), (0, 0),
            {"kind": "battle", "id": b["id"], "at": created, "date": date,
             "battle_id": b["id"], "battle_number": b["number"],
             "outcome": b["outcome"], "scenario": b["scenario"], "opponent": b["opponent"],
             "wounds": b["wounds"], "leader_wounds": b["leader_wounds"], "xp_lost": b["xp_lost"],
             "leader_fate": b["leader_fate"], "xp_before": b["platoon_xp_before"],
             "xp_after": b["platoon_xp_after"], "leader": leader_name, "replacement": replacement})

    def group(at: Any, battle_id: int | None, rank: int, row_id: int) -> tuple[Any, ...]:
        if battle_id is not None and battle_id in battles_by_id:
            b = battles_by_id[battle_id]
            return (b["created_at"], b["number"], 0, 0)
        return (at, 0, rank, row_id)

    def base(kind: str, row_id: int, at: Any, battle_id: int | None) -> dict[str, Any]:
        b = battles_by_id.get(battle_id) if battle_id is not None else None
        return {"kind": kind, "id": row_id, "at": iso(at),
                "date": battle_date[battle_id] if b else _date_part(at),
                "battle_id": battle_id, "battle_number": b["number"] if b else None}

    for x in rows.xp_changes:
        x_leader = leaders_by_id.get(x["leader"]) if x["leader"] else None
        who_name = x_leader["name"] if x_leader else rows.platoon["name"] if x["who"] == "platoon" else "leader"
        ev = base("xp", x["id"], x["created_at"], x["battle"])
        ev.update(who=x["who"], name=who_name, leader_id=x["leader"], delta=x["delta"], xp_after=x["xp_after"],
                  reason=x["reason"])
        add(group(x["created_at"], x["battle"], 2, x["id"]), (-2, 0, -x["id"]), ev)
    for ld in rows.leaders:
        ev = base("leader", ld["id"], ld["joined_at"], ld["joined_battle"])
        ev.update(change="joined", leader_id=ld["id"], name=ld["name"], rank=ld["rank"], xp=ld["xp_at_join"],
                  status=ld["status"])
        add(group(ld["joined_at"], ld["joined_battle"], 3, ld["id"]), (-4, 0, -ld["id"]), ev)
        if ld["status"] != "active":
            at = ld["left_at"] or ld["joined_at"]
            ev = base("leader", ld["id"], at, ld["left_battle"])
            ev.update(change="left", leader_id=ld["id"], name=ld["name"], rank=ld["rank"], xp=ld["xp"],
                      status=ld["status"])
            add(group(at, ld["left_battle"], 3, ld["id"]), (-3, 0, -ld["id"]), ev)
    for a in rows.attribute_changes:
        # edits are shown when they were made, not with the battle they changed
        ev = base("attribute", a["id"], a["created_at"], a["battle"])
        ev["date"] = _date_part(a["created_at"])
        ev.update(field=a["field"], old=a["old_value"], new=a["new_value"], reason=a["reason"])
        # same second as its battle: after it (an edit cannot come before the battle it changes)
        number = battles_by_id[a["battle"]]["number"] if a["battle"] in battles_by_id else 0
        add((a["created_at"], number, 1 if number else 5, a["id"]), (-5, 0, -a["id"]), ev)

    # newest group first, in order inside a group: the order keys above are negated, so an ascending sort
    # on (group, -order), reversed, does it (the same as one stable sort of every event, then reversed)
    out_events: list[dict[str, Any]] = []
    first = itemgetter(0)
    for key in sorted(groups, reverse=True):
        members = groups[key]
        if len(members) == 1:
            out_events.append(members[0][1])
            continue
        members.sort(key=first)
        out_events.extend([m[1] for m in reversed(members)])
    battles_out.reverse()
    if text:
        for ev in out_events:
            event_text(ev)
    return {"platoon": {"id": rows.platoon["id"], "name": rows.platoon["name"],
                        "campaign": rows.campaign["name"], "xp": rows.platoon["xp"]},
            "battles": battles_out, "events": out_events}


def history(platoon: str | int, campaign: str | int | None = None) -> dict[str, Any]:
    """``{"platoon": {...}, "battles": [{..., "rolls": [...]}], "events": [...]}``, newest first.

    Every event has ``kind`` (battle, xp, leader, attribute, roll), ``id`` (of its row), ``at`` (when it was
    logged), ``date`` (the battle's date for battle events), ``battle_id``, ``battle_number`` and ``text``,
    plus the fields of its kind. Events of one battle stay together (battle, its rolls in order, XP changes,
    leader changes); edits show at the time they were made."""
    with _no_gc():
        return _build(_load(platoon, campaign))


def _fiction_when(battle: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """When something happened in the campaign's own time: in a battle -> "battle 3 (1960-08-02)"; between
    battles (a leader replaced by hand) -> "after battle 2 (1960-07-30)"; before the first battle -> "at the
    start". The day it was typed into the app is never shown as a campaign date."""
    if battle is not None:
        return f"battle {battle['number']} ({_iso(battle['date'])})"
    if after is None:
        return "at the start"
    return f"after battle {after['number']} ({_iso(after['date'])})"


def _leaders(rows: _Rows) -> list[dict[str, Any]]:
    battles_by_id = {b["id"]: b for b in rows.battles}
    led: dict[int, int] = {}
    for r in rows.rolls:
        if r["purpose"] == PURPOSE_LEADER and r["battle"] is not None and r["leader"] is not None:
            led[r["leader"]] = led.get(r["leader"], 0) + 1
    # the last battle each leader fought (their fate rolls): a leader who joined by hand, between battles,
    # joined after the last battle of those before him (none: at the start)
    fought: dict[int, int] = {}
    for r in rows.rolls:
        b = battles_by_id.get(r["battle"]) if r["battle"] is not None else None
        if r["purpose"] == PURPOSE_LEADER and b is not None and r["leader"] is not None:
            fought[r["leader"]] = max(fought.get(r["leader"], 0), b["number"])
    by_number = {b["number"]: b for b in rows.battles}
    last_so_far = 0
    out = []
    for ld in rows.leaders:
        jb = battles_by_id.get(ld["joined_battle"]) if ld["joined_battle"] else None
        lb = battles_by_id.get(ld["left_battle"]) if ld["left_battle"] else None
        joined = _fiction_when(jb, by_number.get(last_so_far))
        last_so_far = max(last_so_far, fought.get(ld["id"], 0), jb["number"] if jb else 0)
        left = "" if ld["status"] == "active" else _fiction_when(lb, by_number.get(last_so_far))
        out.append({
            "id": ld["id"], "name": ld["name"], "rank": ld["rank"], "status": ld["status"],
            "current": ld["status"] == "active",
            "how": "still in command" if ld["status"] == "active" else FATE_WORDS.get(ld["status"], "replaced"),
            "joined_at": _iso(ld["joined_at"]), "joined_battle": jb["number"] if jb else None,
            "joined_date": _iso(jb["date"]) if jb else _date_part(ld["joined_at"]),
            "left_at": _iso(ld["left_at"]), "left_battle": lb["number"] if lb else None,
            "left_date": _iso(lb["date"]) if lb else _date_part(ld["left_at"]),
            "joined": joined, "left": left,
            "battles_led": led.get(ld["id"], 0), "xp_at_join": ld["xp_at_join"], "xp": ld["xp"],
            "xp_gained": ld["xp"] - ld["xp_at_join"],
            "level": level_name(ld["xp"], rows.thresholds),
        })
    return out


def leaders_roll(platoon: str | int, campaign: str | int | None = None) -> list[dict[str, Any]]:
    """Every leader of the platoon, first first: dates and battles of joining and leaving, battles led
    (leader's fate rolls made), XP at joining, XP now (or when leaving), XP gained, and how they left."""
    return _leaders(_load(platoon, campaign))


def _summary(rows: _Rows) -> dict[str, Any]:
    bs = rows.battles
    count = {o: sum(1 for b in bs if b["outcome"] == o) for o in OUTCOMES}
    lost = [ld for ld in rows.leaders if ld["status"] in LEADER_LEAVES]  # a leader who left has the fate as status
    current = [ld for ld in rows.leaders if ld["status"] == "active"]
    awards = sum(x["delta"] for x in rows.xp_changes
                 if x["who"] == "platoon" and x["battle"] is not None and x["delta"] > 0)
    return {
        "platoon": rows.platoon["name"], "campaign": rows.campaign["name"], "xp": rows.platoon["xp"],
        "level": level_name(rows.platoon["xp"], rows.thresholds),
        "leader": current[-1]["name"] if current else None,
        "battles": len(bs), "victories": count[Outcome.VICTORY], "defeats": count[Outcome.DEFEAT],
        "draws": count[Outcome.DRAW],
        "unrecorded": sum(1 for b in bs if b["outcome"] is None),
        "total_wounds": sum(b["wounds"] for b in bs), "leader_wounds": sum(b["leader_wounds"] for b in bs),
        "xp_lost": sum(b["xp_lost"] for b in bs), "xp_awarded": awards,
        "leaders_lost": len(lost), "casualties": sum(1 for ld in lost if ld["status"] == LeaderFate.CASUALTY),
        "promotions": sum(1 for ld in lost if ld["status"] == LeaderFate.PROMOTED),
        "leaders": len(rows.leaders),
        "first_battle": _iso(bs[0]["date"]) if bs else None, "last_battle": _iso(bs[-1]["date"]) if bs else None,
    }


def campaign_summary(platoon: str | int, campaign: str | int | None = None) -> dict[str, Any]:
    """Battles, victories/defeats/draws, total wounds, XP lost to recovery, leaders lost (casualties and
    promotions), the platoon's XP and level now."""
    return _summary(_load(platoon, campaign))


def _xp_series(rows: _Rows) -> dict[str, Any]:
    joined_in = {ld["joined_battle"]: ld for ld in rows.leaders if ld["joined_battle"] is not None}
    leaders_by_id = {ld["id"]: ld for ld in rows.leaders}
    fate_leader = {r["battle"]: r["leader"] for r in rows.rolls
                   if r["purpose"] == PURPOSE_LEADER and r["battle"] is not None}
    points = []
    for b in rows.battles:
        rep = joined_in.get(b["id"])
        left = b["leader_fate"] in LEADER_LEAVES
        leader_xp = (rep["xp_at_join"] if rep else None) if left else b["leader_xp_after"]
        change = None
        if left:
            old = leaders_by_id.get(fate_leader.get(b["id"]))
            change = {"fate": b["leader_fate"], "old": old["name"] if old else None,
                      "old_xp": b["leader_xp_after"], "new": rep["name"] if rep else None,
                      "new_xp": rep["xp_at_join"] if rep else None}
        points.append({"battle": b["number"], "battle_id": b["id"], "date": _iso(b["date"]),
                       "platoon_xp": b["platoon_xp_after"], "leader_xp": leader_xp, "leader_change": change})
    first = rows.battles[0] if rows.battles else None
    start = {"battle": 0, "platoon_xp": first["platoon_xp_before"] if first else rows.platoon["xp"],
             "leader_xp": first["leader_xp_before"] if first else None}
    if first is None:
        current = [ld for ld in rows.leaders if ld["status"] == "active"]
        start["leader_xp"] = current[-1]["xp"] if current else None
    return {"thresholds": list(rows.thresholds.as_tuple()), "levels": list(LEVELS), "start": start,
            "points": points}


def xp_series(platoon: str | int, campaign: str | int | None = None) -> dict[str, Any]:
    """Chart data: platoon and leader XP after each battle (``start`` = before the first), the level
    thresholds for the bands, and each leader change (``leader_change``: fate, old and new leader)."""
    return _xp_series(_load(platoon, campaign))


def _wounds_series(rows: _Rows) -> list[dict[str, Any]]:
    return [{"battle": b["number"], "battle_id": b["id"], "date": _iso(b["date"]), "wounds": b["wounds"],
             "leader_wounds": b["leader_wounds"], "xp_lost": b["xp_lost"]} for b in rows.battles]


def wounds_series(platoon: str | int, campaign: str | int | None = None) -> list[dict[str, Any]]:
    """Chart data: wound counters, those on the leader's element and XP lost to recovery, per battle."""
    return _wounds_series(_load(platoon, campaign))


def history_report(platoon: str | int, campaign: str | int | None = None, *,
                   lazy_text: bool = False) -> dict[str, Any]:
    """Everything about a platoon's campaign from one read (for the history view and the printed history
    report): ``history`` (battles, events), ``leaders``, ``summary``, ``xp_series``, ``wounds_series``.
    With ``lazy_text`` (the view) the events' ``text`` is left for :func:`event_text` (made per painted row)
    and a battle's ``rolls`` are its roll events themselves (the same keys and a few more), not copies."""
    with _no_gc():
        rows = _load(platoon, campaign)
        return {"history": _build(rows, text=not lazy_text), "leaders": _leaders(rows),
                "summary": _summary(rows), "xp_series": _xp_series(rows), "wounds_series": _wounds_series(rows)}


def events_csv(events: list[dict[str, Any]]) -> str:
    """Timeline events as CSV text (one row per event, :data:`CSV_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(CSV_COLUMNS), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for e in events:
        row = dict(e)
        if "faces" in row:
            row["faces"] = " ".join(str(f) for f in row["faces"])
        if e["kind"] == "xp" or e["kind"] == "leader":
            row["who"] = e.get("name")
        writer.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in CSV_COLUMNS})
    return out.getvalue()


def timeline_csv(platoon: str | int, campaign: str | int | None = None) -> str:
    """The platoon's timeline as CSV, newest first."""
    return events_csv(history(platoon, campaign)["events"])


def history_json(platoon: str | int, campaign: str | int | None = None) -> str:
    """The platoon's history (battles with rolls, and events) as JSON text."""
    return json.dumps(history(platoon, campaign), ensure_ascii=False, indent=1, default=str)


def export_history(platoon: str | int, path: Any, fmt: str = "csv") -> int:
    """Write the timeline to ``path`` as ``csv`` or ``json``; returns the number of events."""
    if fmt not in ("csv", "json"):
        raise ServiceError(f"export format must be csv or json, not {fmt!r}")
    data = history(platoon)
    text = events_csv(data["events"]) if fmt == "csv" else json.dumps(data, ensure_ascii=False, indent=1,
                                                                        default=str)
    from .. import fileio

    fileio.write_atomic(path, text, f"history.{fmt}")
    return len(data["events"])


__all__ = [
    "OUTCOMES", "KINDS", "TEXT_FIELDS", "BattleSession", "BattleDetails", "RollStep", "log_battle",
    "undo_last_battle", "revert", "reapply", "edit_battle", "edit_battle_text", "find_battle", "history",
    "leaders_roll", "EDITABLE_FIELDS", "XP_FIELDS",
    "campaign_summary", "xp_series", "wounds_series", "history_report", "timeline_csv", "history_json",
    "events_csv", "export_history", "event_text", "opponent_choices", "percent", "suggest_name",
    "period_sides",
]
