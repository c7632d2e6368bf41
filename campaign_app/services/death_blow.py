"""d12 Death Blow campaigns (RULES.md §5): fighters and their careers, bouts logged from the table or played solo
by the app (round by round, app dice or typed dice), the odds before a bout, and a fighter's history.

Every write is one journal operation in one transaction (a whole bout, its rounds and both fighters' careers:
one operation, undone as one). On a club server a fighter belongs to the login that created it: only its owner
or an organiser changes it, and a bout between two fighters needs the right to change both
(``store.death_blow_club``).
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import json
import os
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from ..rules import death_blow as rules
from ..rules.death_blow import Career, DeathBlowError
from ..rules.enums import BoutWinner
from ..store import death_blow_club
from ..store.models import Bout, BoutRound, Campaign, Fighter, FighterChange
from ..words import plural
from .campaigns import NAME_MAX, check_notes
from .common import (
    NotFound,
    ServiceError,
    check_date,
    check_line,
    check_reason,
    check_row_id,
    iso_text,
    name_key,
    resolve_campaign,
)
from .edits import Edit, Recorder
from .results import Result

SYSTEM = "death_blow"
DEFAULT_ODDS_BOUTS = rules.DEFAULT_ODDS_BOUTS
MAX_ODDS_BOUTS = 1_000_000
SEED_MAX_LEN = 80


# ------------------------------------------------------------------------------------------------ results


@dataclass(frozen=True)
class Record(Result):
    bouts: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def text(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses}"


@dataclass(frozen=True)
class FighterRow(Result):
    """A fighter as listed (``fighter list``, the campaign page)."""

    id: int
    campaign_id: int
    campaign: str
    name: str
    level: int
    xp: int
    """XP toward the next level (the sheet's 12 boxes; 0 at level 11)."""
    lifetime_xp: int
    start_level: int
    status: str
    bouts: int
    wins: int
    draws: int
    losses: int
    notes: str
    owner: str

    @property
    def retired(self) -> bool:
        return self.status == "retired"

    @property
    def reaction_speed_face(self) -> int:
        """A face card's Reaction Speed at this level (§5.1)."""
        return self.level

    @property
    def signature_bonus(self) -> int:
        """A signature move's damage bonus at this level (§5.1)."""
        return self.level


@dataclass(frozen=True)
class BoutRow(Result):
    """One bout as listed and shown; ``winner`` is the winning fighter's name or ``"draw"``."""

    id: int
    date: str
    mode: str
    """``table`` (logged from the table) or ``solo`` (played by the app)."""
    fighter: str
    fighter_id: int
    opponent: str
    opponent_fighter_id: int | None
    opponent_level: int
    fighter_level: int
    winner: str
    face_cards_left: int
    xp_gained: int
    seed: str | None
    notes: str
    fighter_after: dict[str, int]
    opponent_after: dict[str, int] | None
    level_ups: list[dict[str, Any]]
    """Each level reached in this bout: ``{"fighter": name, "level": n}``."""


@dataclass(frozen=True)
class BoutDetail(BoutRow):
    rounds: list[dict[str, Any]] = field(default_factory=list)
    """One per round (solo bouts): ``a`` (the fighter) and ``b`` (the opponent), each with card, dice, Initiative,
    styles, Attack, Defense, damage, discarded, cards left."""
    dice_note: str = ""
    """How the dice were rolled ("typed dice for rounds 1-2, the app rolled the rest")."""


@dataclass(frozen=True)
class FighterDetail(FighterRow):
    """A fighter with its bouts (newest first) (``fighter show``, the fighter page)."""

    recent: list[BoutRow] = field(default_factory=list)


@dataclass(frozen=True)
class OddsResult(Result):
    fighter: str
    opponent: str
    fighter_level: int
    opponent_level: int
    fighter_wins: float
    opponent_wins: float
    draws: float
    margin: float
    bouts: int
    seed: str
    estimate: bool = True

    @property
    def text(self) -> str:
        def pct(p: float) -> str:
            return f"{100 * p:.1f} %"

        return (
            f"{self.fighter} (level {self.fighter_level}) wins {pct(self.fighter_wins)}, {self.opponent} "
            f"(level {self.opponent_level}) wins {pct(self.opponent_wins)}, draws {pct(self.draws)} "
            f"(estimate from {self.bouts:,} solo bouts, \u00b1{100 * self.margin:.1f} points at 95 %)"
        )


# ------------------------------------------------------------------------------------------------ look-ups


def _campaign(ref: int | Campaign) -> Campaign:
    camp = ref if isinstance(ref, Campaign) else resolve_campaign(ref)
    if camp.system != SYSTEM:
        raise ServiceError(
            f"{camp.name} is not a d12 Death Blow campaign (fighters belong to Death Blow "
            "campaigns: campaign new --system death-blow)"
        )
    return camp


def find_fighter(ref: int | Fighter) -> Fighter:
    """What services accept as "a fighter": a Fighter or its row id (the CLI's argument layer looks names up)."""
    if isinstance(ref, Fighter):
        return ref
    found = Fighter.get_or_none(Fighter.id == check_row_id(ref, "fighter"))
    if found is None:
        raise NotFound(f"no fighter with id {ref}")
    return found


def _records(fighter_ids: Sequence[int]) -> dict[int, Record]:
    if not fighter_ids:
        return {}
    tally: dict[int, list[int]] = {i: [0, 0, 0, 0] for i in fighter_ids}
    query = (
        Bout.select(Bout.fighter, Bout.opponent_fighter, Bout.winner)
        .where(Bout.fighter.in_(list(fighter_ids)) | Bout.opponent_fighter.in_(list(fighter_ids)))
        .tuples()
    )
    for fid, oid, winner in cast("Iterable[tuple[int, int | None, str]]", query):  # .tuples(): rows are tuples
        for me, mine in ((fid, "fighter"), (oid, "opponent")):
            if me in tally:
                t = tally[me]
                t[0] += 1
                if winner == "draw":
                    t[2] += 1
                elif winner == mine:
                    t[1] += 1
                else:
                    t[3] += 1
    return {i: Record(*t) for i, t in tally.items()}


def _row(f: Fighter, record: Record, campaign_name: str) -> dict[str, Any]:
    return dict(
        id=f.id,
        campaign_id=f.campaign_id,
        campaign=campaign_name,
        name=f.name,
        level=f.level,
        xp=f.xp,
        lifetime_xp=f.lifetime_xp,
        start_level=f.start_level,
        status=f.status,
        bouts=record.bouts,
        wins=record.wins,
        draws=record.draws,
        losses=record.losses,
        notes=f.notes,
        owner=f.owner,
    )


def list_fighters(campaign: int | Campaign, *, include_retired: bool = True) -> list[FighterRow]:
    """The campaign's fighters, by name (retired ones too unless asked not to)."""
    camp = _campaign(campaign)
    query = Fighter.select().where(Fighter.campaign == camp).order_by(Fighter.name_key, Fighter.id)
    if not include_retired:
        query = query.where(Fighter.status == "active")
    fighters = list(query)
    records = _records([f.id for f in fighters])
    return [FighterRow(**_row(f, records[f.id], camp.name)) for f in fighters]


def _names(ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    query = Fighter.select(Fighter.id, Fighter.name).where(Fighter.id.in_(list(ids))).tuples()
    return dict(cast("Iterable[tuple[int, str]]", query))


def _bout_values(b: Bout, names: dict[int, str]) -> dict[str, Any]:
    fighter = names.get(b.fighter_id, f"fighter {b.fighter_id}")
    opponent = names.get(b.opponent_fighter_id, b.opponent_name) if b.opponent_fighter_id else b.opponent_name
    winner = {"fighter": fighter, "opponent": opponent}.get(b.winner, "draw")
    ups = [{"fighter": fighter, "level": lv} for lv in range(b.fighter_level_before + 1, b.fighter_level_after + 1)]
    opponent_after = None
    if b.opponent_fighter_id is not None and b.opponent_level_after is not None:
        opponent_after = {
            "level": b.opponent_level_after,
            "xp": b.opponent_xp_after or 0,
            "lifetime_xp": b.opponent_lifetime_after or 0,
        }
        ups += [{"fighter": opponent, "level": lv} for lv in range(b.opponent_level + 1, b.opponent_level_after + 1)]
    return dict(
        id=b.id,
        date=iso_text(b.date) or "",
        mode=b.mode,
        fighter=fighter,
        fighter_id=b.fighter_id,
        opponent=opponent,
        opponent_fighter_id=b.opponent_fighter_id,
        opponent_level=b.opponent_level,
        fighter_level=b.fighter_level_before,
        winner=winner,
        face_cards_left=b.face_cards_left,
        xp_gained=b.xp_gained,
        seed=b.seed,
        notes=b.notes,
        fighter_after={
            "level": b.fighter_level_after,
            "xp": b.fighter_xp_after,
            "lifetime_xp": b.fighter_lifetime_after,
        },
        opponent_after=opponent_after,
        level_ups=ups,
    )


def _bouts_of(fighter_id: int) -> list[Bout]:
    return list(
        Bout.select()
        .where((Bout.fighter == fighter_id) | (Bout.opponent_fighter == fighter_id))
        .order_by(Bout.date.desc(), Bout.id.desc())
    )


def show_fighter(ref: int | Fighter) -> FighterDetail:
    f = find_fighter(ref)
    camp = Campaign.get_by_id(f.campaign_id)
    bouts = _bouts_of(f.id)
    names = _names(
        {f.id} | {b.fighter_id for b in bouts} | {b.opponent_fighter_id for b in bouts if b.opponent_fighter_id}
    )
    recent = [BoutRow(**_bout_values(b, names)) for b in bouts]
    return FighterDetail(**_row(f, _records([f.id])[f.id], camp.name), recent=recent)


def show_bout(bout_id: int) -> BoutDetail:
    b = Bout.get_or_none(Bout.id == check_row_id(bout_id, "bout"))
    if b is None:
        raise NotFound(f"no bout {bout_id}")
    names = _names({b.fighter_id} | ({b.opponent_fighter_id} if b.opponent_fighter_id else set()))
    rounds = [
        {"round": r.number, "a": r.a, "b": r.b}
        for r in BoutRound.select().where(BoutRound.bout == b).order_by(BoutRound.number)
    ]
    return BoutDetail(**_bout_values(b, names), rounds=rounds, dice_note=_dice_note(rounds))


def _dice_note(rounds: list[dict[str, Any]]) -> str:
    if not rounds:
        return ""
    typed = [r["round"] for r in rounds if r["a"].get("dice_source") == "entered"]
    if not typed:
        return "the app rolled every die"
    if len(typed) == len(rounds):
        return "every die was typed in"
    return f"dice typed for {plural(len(typed), 'round')}, the app rolled the rest"


# ------------------------------------------------------------------------------------------------ checks


def _check_level(value: int, what: str = "level") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= rules.MAX_LEVEL:
        raise ServiceError(f"{what} must be an Experience Level from 0 to {rules.MAX_LEVEL}, not {value!r}")
    return value


def _check_whole(value: int, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _check_date(value: _dt.date | None) -> _dt.date:
    return check_date(value, "the bout's date")


def _check_name(name: Any) -> str:
    return check_line(name, "the fighter's name", NAME_MAX, required=True)


def _name_taken(camp_id: int, name: str, exclude: int | None = None) -> bool:
    query = Fighter.select().where((Fighter.campaign == camp_id) & (Fighter.name_key == name_key(name)))
    if exclude is not None:
        query = query.where(Fighter.id != exclude)
    return query.exists()


def _target(op: Any, camp_id: int, *fighters: int | None) -> None:
    """The operation concerns this campaign (for the journal's lists) and these fighters (club play: refused at
    once, one line, unless the login may change every one of them). The campaign is set without the
    organiser's check: the fighters decide (``store.death_blow_club``)."""
    death_blow_club.require_fighters(*fighters)
    op.campaign_id = camp_id


def _career(f: Fighter) -> Career:
    return Career(f.level, f.xp, f.lifetime_xp)


# ------------------------------------------------------------------------------------------------ fighters


def create_fighter(campaign: int, name: str, level: int = 0, notes: str = "") -> Edit[FighterDetail]:
    """A new fighter: level 0 unless the players agree on another (then 0 XP in it; §5.1)."""
    name = _check_name(name)
    level = _check_level(level, "the starting level")
    notes = check_notes(notes, "the fighter's notes")
    rec = Recorder()
    with rec.operation("fighter.create", f"New fighter {name}") as op:
        camp = _campaign(campaign)
        op.campaign_id = camp.id
        if _name_taken(camp.id, name):
            raise ServiceError(f"{camp.name} already has a fighter named {name!r}")
        f = rec.create(
            Fighter, campaign=camp, name=name, start_level=level, level=level, xp=0, lifetime_xp=0, notes=notes
        )
    return Edit("fighter", f.id, f"created fighter {name!r} (level {level})", show_fighter(f.id), rec.changes)


def rename_fighter(ref: int, new_name: str) -> Edit[FighterDetail]:
    new_name = _check_name(new_name)
    rec = Recorder()
    with rec.operation("fighter.rename") as op:
        f = find_fighter(ref)
        _target(op, f.campaign_id, f.id)
        old = f.name
        rec.label(f"Rename fighter {old} \u2192 {new_name}")
        if old == new_name:
            raise ServiceError(f"the fighter is already named {new_name!r}")
        if _name_taken(f.campaign_id, new_name, exclude=f.id):
            raise ServiceError(f"the campaign already has a fighter named {new_name!r}")
        rec.update(f, name=new_name)
        rec.create(FighterChange, fighter=f, field="name", old_value=old, new_value=new_name)
    return Edit("fighter", f.id, f"renamed fighter {old!r} to {new_name!r}", show_fighter(f.id), rec.changes)


def edit_fighter(ref: int, *, notes: str | None = None) -> Edit[FighterDetail]:
    """Change a fighter's notes."""
    rec = Recorder()
    with rec.operation("fighter.edit") as op:
        f = find_fighter(ref)
        _target(op, f.campaign_id, f.id)
        rec.label(f"Edit fighter {f.name}")
        if notes is not None:
            rec.update(f, notes=check_notes(notes, "the fighter's notes"))
    return Edit("fighter", f.id, f"edited fighter {f.name!r}", show_fighter(f.id), rec.changes)


def set_fighter(ref: int, *, level: int | None = None, xp: int | None = None, reason: str = "") -> Edit[FighterDetail]:
    """A correction of level and/or XP toward the next level, journalled with its reason (lifetime XP is not
    changed: it counts XP earned in bouts)."""
    if level is None and xp is None:
        raise ServiceError("nothing to set: give --level and/or --xp")
    why = check_reason(reason)
    rec = Recorder()
    with rec.operation("fighter.set") as op:
        f = find_fighter(ref)
        _target(op, f.campaign_id, f.id)
        new_level = f.level if level is None else _check_level(level)
        new_xp = (
            (0 if level is not None and new_level != f.level else f.xp)
            if xp is None
            else _check_whole(xp, "XP toward the next level", 0, rules.XP_PER_LEVEL - 1)
        )
        try:
            rules.check_xp(new_xp, new_level)
        except DeathBlowError as exc:
            raise ServiceError(str(exc)) from None
        rec.label(f"Correct {f.name}: level {new_level}, {new_xp} XP")
        changes = rec.update(f, level=new_level, xp=new_xp)
        for name, (old, new) in changes.items():
            rec.create(FighterChange, fighter=f, field=name, old_value=str(old), new_value=str(new), reason=why)
    message = f"{f.name}: level {new_level}, {new_xp} XP toward the next" if changes else f"{f.name}: nothing changed"
    return Edit("fighter", f.id, message, show_fighter(f.id), rec.changes)


def retire_fighter(ref: int, retired: bool = True) -> Edit[FighterDetail]:
    status = "retired" if retired else "active"
    rec = Recorder()
    with rec.operation("fighter.retire" if retired else "fighter.unretire") as op:
        f = find_fighter(ref)
        _target(op, f.campaign_id, f.id)
        rec.label(f"{'Retire' if retired else 'Bring back'} fighter {f.name}")
        if f.status == status:
            raise ServiceError(f"{f.name} is already {'retired' if retired else 'active'}")
        old = f.status
        rec.update(f, status=status)
        rec.create(FighterChange, fighter=f, field="status", old_value=old, new_value=status)
    return Edit("fighter", f.id, f"{f.name} {'retired' if retired else 'is back'}", show_fighter(f.id), rec.changes)


@dataclass(frozen=True)
class FighterDeleted(Result):
    id: int
    name: str
    deleted: bool = True


@dataclass(frozen=True)
class BoutUndone(Result):
    id: int
    undone: bool = True


def delete_fighter(ref: int) -> Edit[FighterDeleted]:
    """Delete a fighter with its bouts. A fighter who fought other fighters of the campaign is refused (their
    records would change): retire it instead, or undo those bouts first."""
    rec = Recorder()
    with rec.operation("fighter.delete") as op:
        f = find_fighter(ref)
        _target(op, f.campaign_id, f.id)
        rec.label(f"Delete fighter {f.name}")
        shared = (
            Bout.select()
            .where(((Bout.fighter == f.id) & Bout.opponent_fighter.is_null(False)) | (Bout.opponent_fighter == f.id))
            .count()
        )
        if shared:
            raise ServiceError(
                f"{f.name} fought {plural(shared, 'bout')} against other fighters of the campaign "
                "(their records would change): retire the fighter instead"
            )
        name = f.name
        rec.delete(Fighter, f.id)
    return Edit("fighter", f.id, f"deleted fighter {name!r}", FighterDeleted(id=f.id, name=name), rec.changes)


# ------------------------------------------------------------------------------------------------ bouts


@dataclass(frozen=True)
class _Sides:
    fighter: Fighter
    opponent: Fighter | None
    opponent_name: str
    opponent_level: int


def _sides(
    fighter: int | Fighter,
    opponent_fighter: int | Fighter | None,
    opponent: str | None,
    opponent_level: int | None,
) -> _Sides:
    f = find_fighter(fighter)
    if f.status == "retired":
        raise ServiceError(f"{f.name} is retired; bring the fighter back before a bout")
    if opponent_fighter is not None and opponent not in (None, ""):
        raise ServiceError("name the opponent once: either a fighter of the campaign or an outside opponent")
    if opponent_fighter is not None:
        o = find_fighter(opponent_fighter)
        if o.campaign_id != f.campaign_id:
            raise ServiceError(
                f"{o.name} is a fighter of another campaign "
                f"({Campaign.get_by_id(o.campaign_id).name}), not of "
                f"{Campaign.get_by_id(f.campaign_id).name}"
            )
        if o.id == f.id:
            raise ServiceError(f"{f.name} cannot fight themselves")
        if o.status == "retired":
            raise ServiceError(f"{o.name} is retired; bring the fighter back before a bout")
        if opponent_level is not None and _check_level(opponent_level, "the opponent's level") != o.level:
            raise ServiceError(f"{o.name} is at level {o.level}: --opponent-level is for outside opponents")
        return _Sides(f, o, o.name, o.level)
    if opponent in (None, ""):
        raise ServiceError("name the opponent: --opponent-fighter NAME, or --opponent NAME --opponent-level L")
    name = check_line(opponent, "the opponent's name", NAME_MAX, required=True)
    if opponent_level is None:
        raise ServiceError(f"give the level of {name} (--opponent-level 0..11)")
    return _Sides(f, None, name, _check_level(opponent_level, "the opponent's level"))


WINNERS = frozenset(BoutWinner)


def _winner_side(winner: BoutWinner) -> str:
    if isinstance(winner, bool) or winner not in WINNERS:
        raise ServiceError(f"the winner must be the fighter, the opponent or a draw, not {winner!r}")
    return BoutWinner(winner).value


def _write_bout(
    rec: Recorder,
    sides: _Sides,
    *,
    winner: str,
    face_cards: int,
    date: _dt.date,
    notes: str,
    mode: str,
    seed: str | None,
    rounds: Sequence[rules.Round] = (),
) -> Bout:
    """The bout, its rounds, and both careers (inside the open operation)."""
    f, o = sides.fighter, sides.opponent
    gained = 0 if winner == "draw" else face_cards
    before_f = _career(f)
    after_f = rules.gain_xp(before_f, gained).after if winner == "fighter" else before_f
    before_o = _career(o) if o is not None else None
    after_o = None
    if o is not None and before_o is not None:
        after_o = rules.gain_xp(before_o, gained).after if winner == "opponent" else before_o
    bout = rec.create(
        Bout,
        fighter=f,
        opponent_fighter=o,
        opponent_name=sides.opponent_name,
        opponent_level=sides.opponent_level,
        date=date,
        notes=notes,
        mode=mode,
        winner=winner,
        face_cards_left=0 if winner == "draw" else face_cards,
        xp_gained=gained,
        seed=seed,
        fighter_level_before=before_f.level,
        fighter_xp_before=before_f.xp,
        fighter_lifetime_before=before_f.lifetime_xp,
        fighter_level_after=after_f.level,
        fighter_xp_after=after_f.xp,
        fighter_lifetime_after=after_f.lifetime_xp,
        opponent_xp_before=before_o.xp if before_o else None,
        opponent_lifetime_before=before_o.lifetime_xp if before_o else None,
        opponent_level_after=after_o.level if after_o else None,
        opponent_xp_after=after_o.xp if after_o else None,
        opponent_lifetime_after=after_o.lifetime_xp if after_o else None,
    )
    if rounds:
        BoutRound.insert_many(
            [{"bout": bout.id, "number": r.number, "a": r.a.to_dict(), "b": r.b.to_dict()} for r in rounds]
        ).execute()
    if after_f != before_f:
        rec.update(f, level=after_f.level, xp=after_f.xp, lifetime_xp=after_f.lifetime_xp)
    if o is not None and after_o is not None and after_o != before_o:
        rec.update(o, level=after_o.level, xp=after_o.xp, lifetime_xp=after_o.lifetime_xp)
    return bout


def _bout_label(sides: _Sides, winner: str) -> str:
    result = {"fighter": f"{sides.fighter.name} won", "opponent": f"{sides.opponent_name} won"}.get(winner, "draw")
    return f"Bout {sides.fighter.name} vs {sides.opponent_name} ({result})"


def _bout_message(detail: BoutDetail) -> str:
    if detail.winner == "draw":
        text = f"{detail.fighter} and {detail.opponent} drew: no XP"
    else:
        text = f"{detail.winner} won with {plural(detail.face_cards_left, 'face card')} left: +{detail.xp_gained} XP"
        if detail.opponent_fighter_id is None and detail.winner == detail.opponent:
            text += " (an outside opponent: not recorded)"
    for up in detail.level_ups:
        text += f"; {up['fighter']} reached level {up['level']}"
    return text


def log_bout(
    fighter: int,
    *,
    opponent_fighter: int | None = None,
    opponent: str | None = None,
    opponent_level: int | None = None,
    winner: BoutWinner,
    face_cards: int,
    date: _dt.date | None = None,
    notes: str = "",
) -> Edit[BoutDetail]:
    """A bout played at the table: the result typed in; the victor (a fighter of the campaign) gains 1 XP per face
    card left in their deck (§5.2), with level-ups and carry-over (§5.1)."""
    sides = _sides(fighter, opponent_fighter, opponent, opponent_level)
    side = _winner_side(winner)
    cards = _check_whole(face_cards, "face cards left in the victor's deck", 0, rules.MAX_XP_GAIN)
    if side == "draw" and cards:
        raise ServiceError("a draw leaves no victor: face cards left must be 0 (or leave it out)")
    day = _check_date(date)
    text = check_notes(notes, "the bout's notes")
    rec = Recorder()
    with rec.operation("bout.log", _bout_label(sides, side)) as op:
        sides = _sides(
            sides.fighter.id,
            sides.opponent.id if sides.opponent else None,
            None if sides.opponent else sides.opponent_name,
            None if sides.opponent else sides.opponent_level,
        )  # as they are now, in the lock
        _target(op, sides.fighter.campaign_id, sides.fighter.id, sides.opponent.id if sides.opponent else None)
        bout = _write_bout(rec, sides, winner=side, face_cards=cards, date=day, notes=text, mode="table", seed=None)
    detail = show_bout(bout.id)
    return Edit("bout", bout.id, _bout_message(detail), detail, rec.changes)


# --- solo bouts ---------------------------------------------------------------------------------------------


def check_seed(seed: str | int) -> str:
    text = "" if seed is None else " ".join(str(seed).split())
    if not text:
        raise ServiceError("the seed must not be empty")
    if len(text) > SEED_MAX_LEN:
        raise ServiceError(f"the seed is too long ({len(text)} characters, at most {SEED_MAX_LEN})")
    check_line(text, "the seed", SEED_MAX_LEN)
    return text


def parse_dice_pairs(items: Sequence[str | Sequence[int]]) -> list[tuple[int, int]]:
    """Typed dice for a solo bout: one item per fighter per round, two d12 faces joined by a comma (``7,3``)."""
    pairs: list[tuple[int, int]] = []
    for n, item in enumerate(items, 1):
        if isinstance(item, tuple | list):
            faces = list(item)
        else:
            parts = str(item).replace(" ", "").split(",")
            if len(parts) != 2 or not all(p.isdigit() and len(p) <= 2 for p in parts):
                raise ServiceError(f"dice {n} ({item!r}) must be two d12 faces joined by a comma, e.g. 7,3")
            faces = [int(p) for p in parts]
        if len(faces) != 2 or any(isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 12 for x in faces):
            raise ServiceError(f"dice {n} ({item!r}) must be two d12 faces from 1 to 12, e.g. 7,3")
        pairs.append((faces[0], faces[1]))
    return pairs


class SoloBout:
    """A solo bout being played (the GUI's bout dialog; ``bout play``): nothing is written until :meth:`save`.
    Cancelling is dropping the object."""

    def __init__(
        self,
        fighter: int,
        opponent_fighter: int,
        *,
        seed: str | int | None = None,
        dice: Sequence[str | tuple[int, int]] = (),
    ) -> None:
        self.sides = _sides(fighter, opponent_fighter, None, None)
        if self.sides.opponent is None:  # pragma: no cover - _sides demands an opponent fighter here
            raise ServiceError("a solo bout is between two fighters of the campaign")
        death_blow_club.require_fighters(self.sides.fighter.id, self.sides.opponent.id)
        self.seed = check_seed(seed) if seed not in (None, "") else str(secrets.randbelow(10**9))
        pairs = parse_dice_pairs(dice)
        deck_a, deck_b = rules.shuffled_decks(self.seed)
        self.dice = rules.FallbackDice(pairs, self.seed)
        self.typed_given = len(pairs)
        self.bout = rules.Bout(self.sides.fighter.level, self.sides.opponent.level, deck_a, deck_b, self.dice)
        self._stamp = self._careers()

    def _careers(self) -> tuple[Any, ...]:
        o = self.sides.opponent
        assert o is not None
        return (self.sides.fighter.level, self.sides.fighter.xp, o.level, o.xp)

    @property
    def fighter_name(self) -> str:
        return self.sides.fighter.name

    @property
    def opponent_name(self) -> str:
        return self.sides.opponent_name

    @property
    def levels(self) -> tuple[int, int]:
        return self.bout.level_a, self.bout.level_b

    @property
    def over(self) -> bool:
        return self.bout.over

    @property
    def rounds(self) -> list[rules.Round]:
        return self.bout.rounds

    def cards_left(self) -> tuple[int, int]:
        return len(self.bout.deck_a), len(self.bout.deck_b)

    def face_cards_left(self) -> tuple[int, int]:
        return rules.face_cards(self.bout.deck_a), rules.face_cards(self.bout.deck_b)

    def next_round(self, dice_a: Sequence[int] | None = None, dice_b: Sequence[int] | None = None) -> rules.Round:
        """Play one round, with the two pairs typed for it (both or neither) or the app's dice."""
        if (dice_a is None) != (dice_b is None):
            raise ServiceError("type both fighters' dice for the round, or neither")
        if dice_a is not None and dice_b is not None:
            self.dice.add(parse_dice_pairs([tuple(dice_a), tuple(dice_b)]))
        try:
            return self.bout.next_round()
        except DeathBlowError as exc:
            raise ServiceError(str(exc)) from None

    def play_to_end(self) -> rules.BoutResult:
        return self.bout.play_to_end()

    @property
    def app_rolled_from(self) -> int | None:
        """The first round whose dice the app rolled after typed dice ran out (``None``: none typed, or all)."""
        if not self.typed_given or self.dice.switched_at is None:
            return None
        return (self.dice.switched_at + 1) // 2

    def save(self, *, date: _dt.date | None = None, notes: str = "") -> Edit[BoutDetail]:
        """Write the finished bout (one operation): the bout, every round, both careers."""
        if not self.over:
            raise ServiceError("the bout is not over yet: play it to the end first")
        result = self.bout.result
        day = _check_date(date)
        text = check_notes(notes, "the bout's notes")
        side = {"a": "fighter", "b": "opponent", "draw": "draw"}[result.winner]
        rec = Recorder()
        o = self.sides.opponent
        assert o is not None
        with rec.operation("bout.play", _bout_label(self.sides, side) + " \u2013 solo") as op:
            now = _sides(self.sides.fighter.id, o.id, None, None)
            assert now.opponent is not None
            if (now.fighter.level, now.fighter.xp, now.opponent.level, now.opponent.xp) != self._stamp:
                raise ServiceError(
                    f"{now.fighter.name} or {now.opponent.name} changed since the bout started; start the bout again"
                )
            _target(op, now.fighter.campaign_id, now.fighter.id, now.opponent.id)
            bout = _write_bout(
                rec,
                now,
                winner=side,
                face_cards=result.face_cards_left,
                date=day,
                notes=text,
                mode="solo",
                seed=self.seed,
                rounds=result.rounds,
            )
        detail = show_bout(bout.id)
        return Edit("bout", bout.id, _bout_message(detail), detail, rec.changes)


def play_bout(
    fighter: int,
    opponent_fighter: int,
    *,
    seed: str | int | None = None,
    dice: Sequence[str | tuple[int, int]] = (),
    date: _dt.date | None = None,
    notes: str = "",
) -> tuple[Edit[BoutDetail], SoloBout]:
    """A whole solo bout played by the app (§5.2) and saved: shuffled decks from the seed, typed dice first (one
    pair per fighter per round, a's then b's), the app's dice for the rest."""
    solo = SoloBout(fighter, opponent_fighter, seed=seed, dice=dice)
    solo.play_to_end()
    return solo.save(date=date, notes=notes), solo


def undo_bout(bout_id: int) -> Edit[BoutUndone]:
    """Undo the operation that logged or played this bout (refused, one line, when a later bout changed the same
    fighters: undo that one first)."""
    from ..store import journal_replay
    from ..store.models import database_proxy

    detail = show_bout(bout_id)
    found = database_proxy.execute_sql(
        "SELECT operation_id FROM operation_change WHERE table_name = 'bout' AND row_id = ? AND action = 'insert' "
        "ORDER BY id DESC LIMIT 1",
        (detail.id,),
    ).fetchone()
    if found is None:
        raise NotFound(f"bout {bout_id} was not recorded by the journal")
    changes = journal_replay.undo(int(found[0]))
    return Edit(
        "bout",
        detail.id,
        f"undid bout {detail.id} ({detail.fighter} vs {detail.opponent})",
        BoutUndone(id=detail.id),
        changes,
    )


def fighters_of_operation(op_id: int) -> list[int]:
    """The fighters a journal operation touched, the bout's own fighter first (Edit ▸ Undo shows it)."""
    return death_blow_club.fighters_of_operation(op_id)


# ------------------------------------------------------------------------------------------------ odds


def bout_odds(
    fighter: int,
    opponent_fighter: int,
    *,
    bouts: int = DEFAULT_ODDS_BOUTS,
    seed: str | int | None = 0,
) -> OddsResult:
    """Each side's chance to win a solo bout (and of a draw), estimated by playing ``bouts`` seeded bouts
    (§5.2 ▶): an estimate, with the half-width of its 95 % interval."""
    sides = _sides(fighter, opponent_fighter, None, None)
    assert sides.opponent is not None
    n = _check_whole(bouts, "the number of bouts", 100, MAX_ODDS_BOUTS)
    text = check_seed(seed if seed not in (None, "") else 0)
    odds = rules.estimate_odds(sides.fighter.level, sides.opponent.level, n, text)
    return odds_result(sides.fighter.name, sides.opponent.name, sides.fighter.level, sides.opponent.level, odds)


def odds_result(fighter: str, opponent: str, level_a: int, level_b: int, odds: rules.Odds) -> OddsResult:
    return OddsResult(
        fighter,
        opponent,
        level_a,
        level_b,
        odds.fighter_wins,
        odds.opponent_wins,
        odds.draws,
        odds.margin,
        odds.bouts,
        str(odds.seed),
    )


# ------------------------------------------------------------------------------------------------ history


@dataclass(frozen=True)
class TimelineEvent(Result):
    date: str
    kind: str
    """``created``, ``bout``, ``level``, ``correction``, ``rename``, ``retired``, ``active``."""
    text: str
    bout_id: int | None = None
    xp_gained: int = 0
    level_after: int | None = None
    xp_after: int | None = None
    lifetime_after: int | None = None


@dataclass(frozen=True)
class FighterHistory(Result):
    fighter: FighterRow
    events: list[TimelineEvent]
    series: list[dict[str, Any]]
    """Level and lifetime XP after each bout, oldest first (``{"bout": n, "bout_id", "date", "level",
    "lifetime_xp"}``; bout 0 is the start)."""
    head_to_head: list[dict[str, Any]]


def fighter_history(ref: int) -> FighterHistory:
    """A fighter's timeline (bouts, XP, level-ups, corrections), newest first; the level/lifetime-XP series over
    the bouts; the fighter's head-to-head records."""
    f = find_fighter(ref)
    detail = show_fighter(f.id)
    row = FighterRow(**{k: getattr(detail, k) for k in FighterRow.__dataclass_fields__})
    created = iso_text(f.created_at) or ""
    events: list[tuple[tuple[str, str, int, int], TimelineEvent]] = [
        (
            ("", "", 0, 0),
            TimelineEvent(
                created[:10],
                "created",  # always first, even before back-dated bouts
                f"joined the campaign at level {f.start_level}",
                level_after=f.start_level,
                xp_after=0,
                lifetime_after=0,
            ),
        )
    ]
    bouts = sorted(_bouts_of(f.id), key=lambda b: (b.date, b.id))
    names = _names({b.fighter_id for b in bouts} | {b.opponent_fighter_id for b in bouts if b.opponent_fighter_id})
    series = [{"bout": 0, "bout_id": None, "date": created[:10], "level": f.start_level, "lifetime_xp": 0}]
    for n, b in enumerate(bouts, 1):
        v = _bout_values(b, names)
        mine = b.fighter_id == f.id
        other = v["opponent"] if mine else v["fighter"]
        level: int | None
        xp: int | None
        life: int | None
        if mine:
            level, xp, life = b.fighter_level_after, b.fighter_xp_after, b.fighter_lifetime_after
            before = b.fighter_level_before
        else:
            level, xp, life = b.opponent_level_after, b.opponent_xp_after, b.opponent_lifetime_after
            before = b.opponent_level
        won = v["winner"] == f.name
        result = "drew with" if v["winner"] == "draw" else "beat" if won else "lost to"
        gained = b.xp_gained if won else 0
        text = f"{result} {other}" + (f" (+{gained} XP)" if won else "") + (" \u2013 solo" if b.mode == "solo" else "")
        made = iso_text(b.created_at) or ""
        events.append(
            ((v["date"], made, b.id, 1), TimelineEvent(v["date"], "bout", text, b.id, gained, level, xp, life))
        )
        for lv in range((before or 0) + 1, (level or 0) + 1):
            events.append(
                (
                    (v["date"], made, b.id, 2),
                    TimelineEvent(v["date"], "level", f"reached level {lv}", b.id, level_after=lv),
                )
            )
        series.append({"bout": n, "bout_id": b.id, "date": v["date"], "level": level, "lifetime_xp": life})
    for ch in FighterChange.select().where(FighterChange.fighter == f.id).order_by(FighterChange.id):
        when = iso_text(ch.created_at) or ""
        kind = {"name": "rename", "status": ch.new_value or "status"}.get(ch.field, "correction")
        if ch.field == "name":
            text = f"renamed from {ch.old_value} to {ch.new_value}"
        elif ch.field == "status":
            text = "retired" if ch.new_value == "retired" else "back in the campaign"
        else:
            what = "level" if ch.field == "level" else "XP toward the next level"
            text = f"{what} corrected from {ch.old_value} to {ch.new_value}" + (f": {ch.reason}" if ch.reason else "")
        events.append(((when[:10], when, 0, 3), TimelineEvent(when[:10], kind, text)))
    events.sort(key=lambda e: e[0], reverse=True)
    return FighterHistory(row, [e[1] for e in events], series, head_to_head(f.campaign_id, fighter=f.id))


def head_to_head(campaign: int, fighter: int | None = None) -> list[dict[str, Any]]:
    """Each pair of the campaign's fighters that met: bouts, each side's wins, draws (ordered by name)."""
    camp = _campaign(campaign)
    ids = [
        i for (i,) in cast("Iterable[tuple[int]]", Fighter.select(Fighter.id).where(Fighter.campaign == camp).tuples())
    ]
    if not ids:
        return []
    names = _names(set(ids))
    pairs: dict[tuple[int, int], list[int]] = {}
    met = (
        Bout.select(Bout.fighter, Bout.opponent_fighter, Bout.winner)
        .where(Bout.fighter.in_(ids) & Bout.opponent_fighter.is_null(False))
        .tuples()
    )
    for fid, oid, winner in cast("Iterable[tuple[int, int, str]]", met):
        a, b = sorted((fid, oid), key=lambda i: (name_key(names[i]), i))
        t = pairs.setdefault((a, b), [0, 0, 0, 0])
        t[0] += 1
        if winner == "draw":
            t[3] += 1
        else:
            won = fid if winner == "fighter" else oid
            t[1 if won == a else 2] += 1
    out = []
    for (a, b), t in sorted(pairs.items(), key=lambda kv: (name_key(names[kv[0][0]]), name_key(names[kv[0][1]]))):
        if fighter is not None and fighter not in (a, b):
            continue
        out.append(
            {
                "fighter": names[a],
                "opponent": names[b],
                "bouts": t[0],
                "fighter_wins": t[1],
                "opponent_wins": t[2],
                "draws": t[3],
            }
        )
    return out


CSV_COLUMNS = ("date", "kind", "text", "bout_id", "xp_gained", "level_after", "xp_after", "lifetime_after")


def history_csv(ref: int) -> str:
    data = fighter_history(ref)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for e in data.events:
        writer.writerow(["" if getattr(e, c) is None else getattr(e, c) for c in CSV_COLUMNS])
    return out.getvalue()


def export_history(ref: int, path: str | os.PathLike[str], fmt: str = "csv") -> int:
    """Write the fighter's timeline to ``path`` as ``csv`` or ``json`` (the whole history); returns the number of
    events."""
    if fmt not in ("csv", "json"):
        raise ServiceError(f"export format must be csv or json, not {fmt!r}")
    data = fighter_history(ref)
    text = history_csv(ref) if fmt == "csv" else json.dumps(data.to_dict(), ensure_ascii=False, indent=1, default=str)
    from .. import fileio

    fileio.write_atomic(path, text, f"fighter.{fmt}")
    return len(data.events)


__all__ = [
    "BoutDetail",
    "BoutRow",
    "FighterDetail",
    "FighterHistory",
    "FighterRow",
    "OddsResult",
    "SoloBout",
    "TimelineEvent",
    "bout_odds",
    "create_fighter",
    "delete_fighter",
    "edit_fighter",
    "export_history",
    "fighter_history",
    "find_fighter",
    "head_to_head",
    "history_csv",
    "list_fighters",
    "log_bout",
    "parse_dice_pairs",
    "play_bout",
    "rename_fighter",
    "retire_fighter",
    "set_fighter",
    "show_bout",
    "show_fighter",
    "undo_bout",
]
