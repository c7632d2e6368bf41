"""A platoon's leader (RULES.md 1.2, 1.3): editing the current leader's name, rank and notes, and
replacing the leader (by hand, or with the replacement roll). Each write is one journal operation; changes are
``AttributeChange`` rows, the replacement roll a ``Roll`` row linked to the platoon and the new leader.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.aftermath import roll_replacement
from ..rules.dice import DiceError, DiceSource
from ..rules.experience import RulesError
from ..store.models import Campaign, Leader, now
from .campaigns import NAME_MAX, check_name, check_notes
from .common import RollResult, ServiceError, check_line, resolve_platoon, roll_result, store_rolls
from .edits import Edit, Recorder
from .platoons import (
    DEFAULT_RANK,
    LEADER_EXITS,
    check_all_dice_used,
    check_choice,
    check_xp_value,
    current_leader,
    log_change,
)
from .results import Result


@dataclass(frozen=True)
class LeaderChanged(Result):
    """The current leader's changed fields (name, rank, notes) before and after."""

    id: int
    leader_id: int
    old: dict[str, str]
    new: dict[str, str]


@dataclass(frozen=True)
class LeftLeader(Result):
    id: int
    name: str
    status: str


@dataclass(frozen=True)
class NewLeader(Result):
    id: int
    name: str
    rank: str
    xp: int


@dataclass(frozen=True)
class LeaderReplaced(Result):
    """Who left (``None``: the platoon had no leader) and who took over, with the replacement roll if rolled."""

    id: int
    old_leader: LeftLeader | None
    new_leader: NewLeader
    roll: RollResult | None


def set_leader(
    ref: int,
    *,
    name: str | None = None,
    rank: str | None = None,
    notes: str | None = None,
    reason: str = "",
) -> Edit[LeaderChanged]:
    """Edit the current leader's name, rank or notes (logged)."""
    values: dict[str, str] = {}
    if name is not None:
        values["name"] = check_name(name, "leader")
    if rank is not None:
        values["rank"] = check_line(rank, "rank", NAME_MAX)
    if notes is not None:
        values["notes"] = check_notes(notes)
    rec = Recorder()
    with rec.operation("leader.set") as op:
        p = resolve_platoon(ref)
        leader = current_leader(p)
        if leader is None:
            raise ServiceError(f"platoon {p.name!r} has no leader")
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: edit leader {leader.name}")
        changed = rec.update(leader, **values)
        for field, (old, new) in changed.items():
            log_change(rec, p, f"leader.{field}", old, new, reason)
    return Edit(
        "platoon",
        p.id,
        f"{p.name}: leader " + (", ".join(f"{f} {o!r} \u2192 {n!r}" for f, (o, n) in changed.items()) or "unchanged"),
        LeaderChanged(
            id=p.id,
            leader_id=leader.id,
            old={f: v[0] for f, v in changed.items()},
            new={f: v[1] for f, v in changed.items()},
        ),
        rec.changes,
    )


def replace_leader(
    ref: int,
    name: str,
    *,
    rank: str = DEFAULT_RANK,
    xp: int | None = None,
    dice: DiceSource | None = None,
    how: str = "replaced",
    notes: str = "",
) -> Edit[LeaderReplaced]:
    """The current leader (if any) leaves (``how``: casualty, promoted or replaced) and ``name`` takes over
    with ``xp``, or with the replacement roll (RULES 1.2 step 4: the lower of two dice of the period's type
    minus one; ⚙ one die with the campaign's house rule) when ``dice`` is given; the roll is kept."""
    name = check_name(name, "leader")
    check_choice(how, LEADER_EXITS, "how the leader left")
    if (xp is None) == (dice is None):
        raise ServiceError("give the new leader's XP or roll for it (the replacement roll), not both or neither")
    if xp is not None:
        xp = check_xp_value(xp, "leader XP")
    rank = check_line(rank or DEFAULT_RANK, "rank", NAME_MAX) or DEFAULT_RANK
    rec = Recorder()
    with rec.operation("leader.replace") as op:
        p = resolve_platoon(ref)
        c = Campaign.get_by_id(p.campaign_id)
        old = current_leader(p)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: {name} takes over" + (f" from {old.name}" if old else ""))
        record = None
        if dice is not None:
            try:
                xp, record = roll_replacement(c.period, dice, c.replacement_dice)
                check_all_dice_used(dice)
            except (DiceError, RulesError) as exc:
                raise ServiceError(str(exc)) from None
        if old is not None:
            rec.update(old, status=how, left_at=now())
        new = rec.create(Leader, platoon=p.id, name=name, rank=rank, xp=xp, xp_at_join=xp, notes=check_notes(notes))
        roll = None
        if record is not None:
            (roll,) = store_rolls([record], platoon=p.id, leader=new.id)
    msg = (
        f"{p.name}: {old.name} ({LEADER_EXITS[how]}) replaced by {name} ({xp} XP)"
        if old
        else f"{p.name}: {name} leads the platoon ({xp} XP)"
    )
    return Edit(
        "platoon",
        p.id,
        msg,
        LeaderReplaced(
            id=p.id,
            old_leader=None if old is None else LeftLeader(id=old.id, name=old.name, status=how),
            new_leader=NewLeader(id=new.id, name=name, rank=rank, xp=int(new.xp)),
            roll=roll_result(roll) if roll else None,
        ),
        rec.changes,
    )
