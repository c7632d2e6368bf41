"""Editing a logged battle (RULES.md 1.2): what the player wrote down may change later (date, scenario,
opponent, outcome, fire support, notes); what decided the rolls and the XP (objectives, wound counters) may not
(undo the battle and log it again). Each edit is one journal operation and each changed field an
``AttributeChange`` row with its reason."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..rules.enums import Outcome
from ..store.models import AttributeChange, Battle, Platoon, now
from .battles import (
    NOTES_MAX,
    OPPONENT_MAX,
    REASON_MAX,
    SCENARIO_MAX,
    _iso,
    _newest_battle,
    _platoon,
    _text,
    check_date,
    check_objectives,
    check_outcome,
    check_wounds,
)
from .common import UNSET, NotFound, ServiceError, Unset
from .edits import Edit, Recorder
from .results import Result


def find_battle(platoon: int, number: int | None = None, missing: str = "battles to edit") -> Battle:
    """Battle ``number`` of a platoon (the newest when ``number`` is None); ``missing`` words the refusal when
    it has none (``"<platoon> has no battles to edit"``)."""
    p = _platoon(platoon)
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
KEEP: Final = UNSET
"""``opponent_platoon`` left as it is."""


def _shown(name: str, value: Any) -> str:
    if value is None:
        return "none"
    if name == "fire_support":
        return "used" if value in (True, "True", "1", 1) else "not used"
    return repr(str(value)) if name != "date" else str(value)[:10]


@dataclass(frozen=True)
class BattleEdited(Result):
    """The changed fields of a committed battle, before and after (dates as ISO text)."""

    battle_id: int
    number: int
    platoon: str
    old: dict[str, Any]
    new: dict[str, Any]


def edit_battle(
    battle_id: int,
    *,
    date: _dt.date | None = None,
    scenario: str | None = None,
    opponent: str | None = None,
    opponent_platoon: int | None | Unset = KEEP,
    outcome: Outcome | None | Literal[""] = "",
    fire_support: bool | None = None,
    notes: str | None = None,
    objectives: int | None = None,
    wounds: int | None = None,
    leader_wounds: int | None = None,
    reason: str = "",
) -> Edit[BattleEdited]:
    """Change what a committed battle records that did not come from a roll: date, scenario, opponent (text,
    and the opponent platoon: cleared when only the text changes), outcome (``None`` clears it; the default
    ``""`` leaves it), fire support, notes. Each change is an AttributeChange row (field ``battle.<name>``);
    the whole edit is one transaction and can be undone.

    Objectives and wound counters decide the XP award, the recovery rolls and the leader's fate: a different
    value is refused (ServiceError naming why; undo the battle and log it again). The same value is fine."""
    values: dict[str, object] = {}
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
    asked = {
        "objectives": None if objectives is None else check_objectives(objectives),
        "wounds": None if wounds is None else check_wounds(wounds, "wound counters"),
        "leader_wounds": None
        if leader_wounds is None
        else check_wounds(leader_wounds, "wound counters on the leader's element"),
    }
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
                    "Undo the battle and log it again to change them"
                )
        if opponent_platoon is not KEEP:
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
            rec.create(
                AttributeChange,
                platoon=b.platoon_id,
                battle=b.id,
                field=f"battle.{name}",
                old_value=None if old is None else str(old),
                new_value=None if new is None else str(new),
                reason=reason or f"battle {b.number} edited",
                created_at=now(),
            )
        p = Platoon.get_by_id(b.platoon_id)
    shown = {k: v for k, v in changed.items() if k != "opponent_platoon" or "opponent" not in changed}
    text = ", ".join(
        f"{k.replace('_', ' ')} {_shown(k, o)} \u2192 {_shown(k, n)}" if k != "notes" else "notes changed"
        for k, (o, n) in shown.items()
    )
    return Edit(
        "battle",
        b.id,
        f"{p.name}, battle {b.number}: {text or 'nothing changed'}",
        BattleEdited(
            battle_id=b.id,
            number=b.number,
            platoon=p.name,
            old={k: _iso(v[0]) if k == "date" else v[0] for k, v in changed.items()},
            new={k: _iso(v[1]) if k == "date" else v[1] for k, v in changed.items()},
        ),
        rec.changes,
    )


def edit_battle_text(
    battle_id: int,
    *,
    scenario: str | None = None,
    notes: str | None = None,
    outcome: Outcome | None | Literal[""] = "",
    reason: str = "",
) -> Edit[BattleEdited]:
    """Change a committed battle's scenario, notes and/or outcome (see :func:`edit_battle`)."""
    return edit_battle(battle_id, scenario=scenario, notes=notes, outcome=outcome, reason=reason)


__all__ = ["BattleEdited", "KEEP", "EDITABLE_FIELDS", "XP_FIELDS", "find_battle", "edit_battle", "edit_battle_text"]
