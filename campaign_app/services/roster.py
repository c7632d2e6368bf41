"""The platoon roster (RULES.md 1.1, 1.3): platoons, their leaders, XP tracks, attached units and equipment.

Every write is one journal operation (one transaction), refuses an illegal value with a :class:`ServiceError`
naming the problem (nothing written), and returns an :class:`~.edits.Edit`; ``services.journal.undo`` reverts
it and ``redo`` puts it back exactly (same ids, no new dice).

Logged history: every change of a platoon's name, dice, Armor or notes, of its leader's name/rank and of its
attached units and equipment is an ``AttributeChange`` row; every XP change an ``XpChange`` row; force
generation and replacement rolls are ``Roll`` rows linked to the platoon (and the leader).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from ..rules.aftermath import roll_force, roll_replacement
from ..rules.dice import DiceError, DiceSource, TypedDice, parse_die
from ..rules.enums import LeaderFate, UnitKind
from ..rules.experience import (
    ARMOR_CLASSES,
    ATTRIBUTES,
    RulesError,
    Thresholds,
    attribute_word,
    check_armor,
    check_xp,
    level_name,
    level_rank,
    orders_cards_for_xp,
)
from ..store.models import (
    AttachedUnit,
    AttributeChange,
    Battle,
    Campaign,
    Equipment,
    Leader,
    Platoon,
    XpChange,
    now,
)
from .campaigns import NAME_MAX, check_name, check_notes
from .common import (
    NotFound,
    ServiceError,
    check_line,
    check_reason,
    find_campaign,
    name_key,
    resolve_platoon,
    roll_to_dict,
    store_rolls,
    suggested_leader_name,
    thresholds_of,
)
from .edits import Edit, Recorder, combine

KINDS: dict[str, str] = {UnitKind.TEAM: "infantry team", UnitKind.VEHICLE: "vehicle",
                         UnitKind.FIRE_SUPPORT: "off-board fire support"}
SUPPORT_LEVELS: tuple[str, ...] = ("light", "medium", "heavy")
TARGETS: dict[str, str] = {"dispersed": "dispersed targets", "point": "point targets", "both": "both"}
LEADER_EXITS: dict[str, str] = {LeaderFate.CASUALTY: "casualty", LeaderFate.PROMOTED: "promoted",
                                "replaced": "replaced by hand"}
DEFAULT_RANK = "Lieutenant"
DEFAULT_LEADER_NAME = "New leader"
TEAM_MAX_ARMOR = 3
AP_RANGE = (-10, 10)

_UNSET: Any = object()


# --- validation -------------------------------------------------------------------------------------------

def check_die(value: Any, what: str) -> int:
    """``"d10"``/``10`` -> 10; anything but d4..d12 is refused naming ``what``."""
    try:
        return parse_die(value)
    except DiceError as exc:
        raise ServiceError(f"{what}: {exc}") from None


def _check_armor(value: Any, what: str = "Armor") -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    try:
        return check_armor(value)
    except RulesError:
        raise ServiceError(f"{what} must be 1 to 5, not {value!r}") from None


def _check_xp(value: Any, what: str) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    try:
        return check_xp(value, what)
    except RulesError as exc:
        raise ServiceError(str(exc)) from None


def _check_choice(value: Any, choices: Any, what: str) -> str:
    if value not in choices:
        raise ServiceError(f"{what} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


def _check_ap(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        text = value.strip().replace("\u2212", "-")
        if not text.lstrip("+-").isdigit():
            raise ServiceError(f"AP value must be a whole number like -2, not {value!r}")
        value = int(text)
    lo, hi = AP_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ServiceError(f"AP value must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _all_dice_used(dice: Any) -> None:
    """Typed dice must match the rolls asked for exactly: extra faces are a mistake, not ignored."""
    if isinstance(dice, TypedDice):
        dice.check_all_used()


def die_text(sides: int | None) -> str | None:
    return None if sides is None else f"d{sides}"


_platoon = resolve_platoon


def _current_leader(p: Platoon) -> Leader | None:
    leader: Leader | None = (Leader.select().where((Leader.platoon == p) & (Leader.status == "active"))
                             .order_by(Leader.id.desc()).first())
    return leader


def _platoon_name_taken(campaign_id: int, name: str, exclude_id: int | None = None) -> bool:
    query = Platoon.select(Platoon.id).where((Platoon.campaign == campaign_id)
                                             & (Platoon.name_key == name_key(name)))
    if exclude_id is not None:
        query = query.where(Platoon.id != exclude_id)
    return query.exists()


def platoon_name_problem(campaign_id: int, name: str, exclude_id: int | None = None) -> str | None:
    """Why ``name`` cannot name a platoon of the campaign, or ``None`` (for forms that check as the user
    types)."""
    try:
        name = check_name(name, "platoon")
    except ServiceError as exc:
        return str(exc)
    if _platoon_name_taken(campaign_id, name, exclude_id):
        return f"this campaign already has a platoon named {name!r}"
    return None


def _log(rec: Recorder, p: Platoon, field: str, old: Any, new: Any, reason: str = "") -> None:
    rec.create(AttributeChange, platoon=p.id, field=field, old_value=None if old is None else str(old),
               new_value=None if new is None else str(new), reason=check_reason(reason))


def _shown(field: str, value: Any) -> Any:
    if field in ATTRIBUTES:
        return die_text(value)
    return value


# --- reading ----------------------------------------------------------------------------------------------

def _leader_dict(ld: Leader, thresholds: Any, battle_numbers: dict[int, int]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": ld.id, "name": ld.name, "rank": ld.rank, "xp": ld.xp, "level": level_name(ld.xp, thresholds),
        "level_rank": level_rank(ld.xp, thresholds), "xp_at_join": ld.xp_at_join,
        "joined_at": ld.joined_at.isoformat(sep=" ") if ld.joined_at else None,
        "joined_battle": battle_numbers.get(ld.joined_battle_id) if ld.joined_battle_id else None,
        "notes": ld.notes,
    }
    if ld.status != "active":
        out.update(status=ld.status, how=LEADER_EXITS[ld.status],
                   left_at=ld.left_at.isoformat(sep=" ") if ld.left_at else None,
                   left_battle=battle_numbers.get(ld.left_battle_id) if ld.left_battle_id else None,
                   left_battle_id=ld.left_battle_id)
    return out


def _equipment_dict(e: Equipment) -> dict[str, Any]:
    return {"id": e.id, "name": e.name, "targets": e.targets, "ap": e.ap, "ap_vs": e.ap_vs, "notes": e.notes}


def _attached_dict(a: AttachedUnit, equipment: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": a.id, "name": a.name, "kind": a.kind}
    if a.kind == UnitKind.FIRE_SUPPORT:
        out.update(training=None, equipment=None, morale=None, armor=None, armor_class=None, support=a.support)
    else:
        out.update(training=die_text(a.training), equipment=die_text(a.equipment), morale=die_text(a.morale),
                   armor=a.armor, armor_class=ARMOR_CLASSES[cast(int, a.armor)], support=None)  # set: CHECK
    out.update(notes=a.notes, equipment_list=equipment)
    return out


def platoon_detail(ref: str | int | Platoon, campaign: str | int | None = None) -> dict[str, Any]:
    """Everything the platoon page, the Unit Data Sheet and ``platoon show --json`` show, as plain data.

    Keys: id, name, campaign, campaign_id, period, thresholds, training/equipment/morale ("d10"), words
    (level words), armor, armor_class, xp, level, level_rank, cards (orders cards per turn),
    cards_with_fire_support (when fire support is attached), notes, leader (or None), former_leaders,
    attached (each with its equipment_list), equipment_list, battles (count).
    """
    p = _platoon(ref, campaign)
    c = Campaign.get_by_id(p.campaign_id)
    t = thresholds_of(c)
    leaders = list(Leader.select().where(Leader.platoon == p).order_by(Leader.joined_at, Leader.id))
    battle_ids = {i for ld in leaders for i in (ld.joined_battle_id, ld.left_battle_id) if i}
    battle_numbers = {b.id: b.number for b in
                      Battle.select(Battle.id, Battle.number).where(Battle.id.in_(list(battle_ids)))} \
        if battle_ids else {}
    active = [ld for ld in leaders if ld.status == "active"]
    current = active[-1] if active else None
    former = sorted((ld for ld in leaders if ld.status != "active"),
                    key=lambda ld: (ld.left_at or ld.joined_at, ld.id))
    attached = list(AttachedUnit.select().where(AttachedUnit.platoon == p)
                    .order_by(AttachedUnit.position, AttachedUnit.id))
    att_ids = [a.id for a in attached]
    own: list[dict[str, Any]] = []
    by_unit: dict[int, list[dict[str, Any]]] = {i: [] for i in att_ids}
    eq_query = Equipment.select().where((Equipment.platoon == p) | Equipment.attached.in_(att_ids)) \
        if att_ids else Equipment.select().where(Equipment.platoon == p)
    for e in eq_query.order_by(Equipment.position, Equipment.id):
        # one owner (the CHECK): the platoon, else an attached unit
        (own if e.platoon_id else by_unit[cast(int, e.attached_id)]).append(_equipment_dict(e))
    leader_xp = current.xp if current else None
    cards = orders_cards_for_xp(p.xp, leader_xp, thresholds=t)
    has_support = any(a.kind == UnitKind.FIRE_SUPPORT for a in attached)
    return {
        "id": p.id, "name": p.name, "campaign": c.name, "campaign_id": c.id, "period": c.period,
        "replacement_dice": c.replacement_dice,
        "thresholds": list(t.as_tuple()),
        "training": die_text(p.training), "equipment": die_text(p.equipment), "morale": die_text(p.morale),
        "words": {a: attribute_word(a, getattr(p, a)) for a in ATTRIBUTES},
        "armor": p.armor, "armor_class": ARMOR_CLASSES[p.armor],
        "xp": p.xp, "level": level_name(p.xp, t), "level_rank": level_rank(p.xp, t),
        "cards": cards,
        "cards_with_fire_support": orders_cards_for_xp(p.xp, leader_xp, True, t) if has_support else None,
        "notes": p.notes,
        "leader": _leader_dict(current, t, battle_numbers) if current else None,
        "former_leaders": [_leader_dict(ld, t, battle_numbers) for ld in former],
        "attached": [_attached_dict(a, by_unit[a.id]) for a in attached],
        "equipment_list": own,
        "battles": Battle.select().where(Battle.platoon == p).count(),
    }


def list_platoons(campaign: str | int | None = None) -> list[dict[str, Any]]:
    """One summary row per platoon (of one campaign, or of all Atomic Africa campaigns), by name."""
    query = (Platoon.select(Platoon.id, Platoon.name, Platoon.campaign, Platoon.training, Platoon.equipment,
                            Platoon.morale, Platoon.armor, Platoon.xp, Campaign.name, Campaign.threshold_green,
                            Campaign.threshold_regular, Campaign.threshold_veteran, Campaign.threshold_legendary)
             .join(Campaign).order_by(Campaign.name, Platoon.name))
    if campaign is not None:
        query = query.where(Platoon.campaign == find_campaign(campaign))
    # id, name, campaign id, training, equipment, morale, armor, xp, campaign name, the four thresholds
    platoons = list(cast("Iterable[tuple[int, str, int, int, int, int, int, int, str, int, int, int, int]]",
                         query.tuples()))
    leaders: dict[int, tuple[str, int]] = {}
    if platoons:
        leader_query = Leader.select(Leader.platoon, Leader.name, Leader.xp).where(Leader.status == "active")
        if campaign is not None:
            leader_query = leader_query.where(Leader.platoon.in_([row[0] for row in platoons]))
        for platoon_id, name, xp in cast("Iterable[tuple[int, str, int]]", leader_query.order_by(Leader.id).tuples()):
            leaders[platoon_id] = (name, xp)
    rows = []
    thresholds: dict[int, Thresholds] = {}
    for pid, name, cid, training, equipment, morale, armor, xp, cname, g, r, v, leg in platoons:
        t = thresholds.get(cid) or thresholds.setdefault(cid, Thresholds(g, r, v, leg))
        leader = leaders.get(pid)
        lxp = leader[1] if leader else None
        rows.append({
            "id": pid, "name": name, "campaign": cname, "campaign_id": cid,
            "training": die_text(training), "equipment": die_text(equipment), "morale": die_text(morale),
            "armor": armor, "xp": xp, "level": level_name(xp, t),
            "leader": leader[0] if leader else None, "leader_xp": lxp,
            "leader_level": level_name(lxp, t) if lxp is not None else None,
            "cards": orders_cards_for_xp(xp, lxp, thresholds=t),
        })
    return rows


def xp_history(ref: str | int, who: str | None = None) -> list[dict[str, Any]]:
    """The XP change rows of a platoon (newest last); ``who`` = "platoon"/"leader" to filter."""
    p = _platoon(ref)
    query = XpChange.select().where(XpChange.platoon == p).order_by(XpChange.id)
    if who is not None:
        query = query.where(XpChange.who == who)
    return [{"id": x.id, "who": x.who, "leader_id": x.leader_id, "delta": x.delta, "xp_after": x.xp_after,
             "reason": x.reason, "battle_id": x.battle_id,
             "created_at": x.created_at.isoformat(sep=" ")} for x in query]


def attribute_history(ref: str | int) -> list[dict[str, Any]]:
    p = _platoon(ref)
    return [{"id": a.id, "field": a.field, "old": a.old_value, "new": a.new_value, "reason": a.reason,
             "battle_id": a.battle_id, "created_at": a.created_at.isoformat(sep=" ")}
            for a in AttributeChange.select().where(AttributeChange.platoon == p).order_by(AttributeChange.id)]


# --- platoons ---------------------------------------------------------------------------------------------

def create_platoon(campaign: str | int, name: str, *, training: Any, equipment: Any, morale: Any, armor: Any,
                   xp: Any = None, leader_name: str | None = None, leader_rank: str = DEFAULT_RANK,
                   leader_xp: Any = None, notes: str = "", dice: DiceSource | None = None) -> Edit:
    """A new platoon in an Atomic Africa campaign, by hand (``xp``, ``leader_xp``) or with force generation
    (``dice``: RULES 1.3, two dice of the period's type; the lower -1 to the leader, the higher -1 to the
    platoon; the roll is kept). A leader is created when ``leader_name`` is given or the force is
    generated."""
    name = check_name(name, "platoon")
    dice_values = {a: check_die(v, a.capitalize()) for a, v in
                   (("training", training), ("equipment", equipment), ("morale", morale))}
    armor = _check_armor(armor)
    if dice is not None and (xp is not None or leader_xp is not None):
        raise ServiceError("force generation rolls the XP: do not give platoon or leader XP as well")
    if dice is None:
        xp = _check_xp(0 if xp is None else xp, "platoon XP")
        if leader_xp is not None:
            leader_xp = _check_xp(leader_xp, "leader XP")
            if leader_name is None:
                raise ServiceError("leader XP given, but no leader name")
    if leader_name is not None:
        leader_name = check_name(leader_name, "leader")
    elif dice is not None:
        leader_name = suggested_leader_name(campaign, name)
    rank = (leader_rank or DEFAULT_RANK).strip() or DEFAULT_RANK
    rec = Recorder()
    with rec.operation("platoon.create") as op:
        c = find_campaign(campaign)
        if c.system != "atomic_africa":
            raise ServiceError(f"campaign {c.name!r} is a Sologear campaign; platoons belong to Atomic Africa "
                               "campaigns")
        if _platoon_name_taken(c.id, name):
            raise ServiceError(f"campaign {c.name!r} already has a platoon named {name!r}")
        force = None
        if dice is not None:
            try:
                force = roll_force(c.period, dice)
                _all_dice_used(dice)
            except (DiceError, RulesError) as exc:
                raise ServiceError(str(exc)) from None
            xp, leader_xp = force.platoon_xp, force.leader_xp
        p = rec.create(Platoon, campaign=c.id, name=name, armor=armor, xp=xp, notes=check_notes(notes), **dice_values)
        op.target(campaign=c.id, platoon=p.id)
        rec.label(f"Create platoon {name}" + (" by force generation" if force else ""))
        leader = None
        if leader_name is not None:
            lxp = leader_xp or 0
            leader = rec.create(Leader, platoon=p.id, name=leader_name, rank=rank, xp=lxp, xp_at_join=lxp)
        roll = None
        if force is not None:
            (roll,) = store_rolls([force.record], platoon=p.id, leader=leader.id if leader else None)
        summary = platoon_detail(p)
        if roll is not None:
            summary["roll"] = roll_to_dict(roll)
    how = " by force generation" if force else ""
    return Edit("platoon", p.id, f"created platoon {name!r}{how}", summary, rec.changes)


def rename_platoon(ref: str | int, new_name: str, campaign: str | int | None = None, reason: str = "") -> Edit:
    new_name = check_name(new_name, "platoon")
    rec = Recorder()
    with rec.operation("platoon.rename") as op:
        p = _platoon(ref, campaign)
        old = p.name
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"Rename platoon {old} \u2192 {new_name}")
        if _platoon_name_taken(p.campaign_id, new_name, exclude_id=p.id):
            c = Campaign.get_by_id(p.campaign_id)
            raise ServiceError(f"campaign {c.name!r} already has a platoon named {new_name!r}")
        if rec.update(p, name=new_name):
            _log(rec, p, "name", old, new_name, reason)
    return Edit("platoon", p.id, f"renamed platoon {old!r} to {new_name!r}",
                {"id": p.id, "old": old, "new": new_name}, rec.changes)


def set_platoon(ref: str | int, *, training: Any = None, equipment: Any = None, morale: Any = None,
                armor: Any = None, notes: str | None = None, reason: str = "",
                campaign: str | int | None = None) -> Edit:
    """Change dice, Armor and/or notes; each changed field is logged with ``reason``."""
    values: dict[str, Any] = {}
    for attr, value in (("training", training), ("equipment", equipment), ("morale", morale)):
        if value is not None:
            values[attr] = check_die(value, attr.capitalize())
    if armor is not None:
        values["armor"] = _check_armor(armor)
    if notes is not None:
        values["notes"] = check_notes(notes)
    rec = Recorder()
    with rec.operation("platoon.set") as op:
        p = _platoon(ref, campaign)
        op.target(campaign=p.campaign_id, platoon=p.id)
        changed = rec.update(p, **values)
        for field, (old, new) in changed.items():
            _log(rec, p, field, _shown(field, old), _shown(field, new), reason)
        rec.label(f"{p.name}: " + (", ".join(f"{f.capitalize()} {_shown(f, o)} \u2192 {_shown(f, n)}"
                                             if f != "notes" else "edit the notes" for f, (o, n) in changed.items())
                                   or "no change"))
    text = ", ".join(f"{f} {_shown(f, o)} \u2192 {_shown(f, n)}" if f != "notes" else "notes"
                     for f, (o, n) in changed.items()) or "nothing changed"
    return Edit("platoon", p.id, f"{p.name}: {text}",
                {"id": p.id, "old": {f: _shown(f, v[0]) for f, v in changed.items()},
                 "new": {f: _shown(f, v[1]) for f, v in changed.items()}}, rec.changes)


def set_xp(ref: str | int, xp: Any, reason: str = "", who: str = "platoon",
           campaign: str | int | None = None) -> Edit:
    """Set the platoon's (``who="platoon"``) or its current leader's (``who="leader"``) XP, stored as an
    XP change row with ``reason``."""
    _check_choice(who, ("platoon", "leader"), "whose XP")
    xp = _check_xp(xp, f"{who} XP")
    rec = Recorder()
    p = _platoon(ref, campaign)
    leader = _current_leader(p) if who == "leader" else None
    # a run of steps on one XP track within a minute is one operation (and one XP change row)
    key = f"xp:{p.id}:{who}:{leader.id if leader else ''}"
    with rec.operation("xp.set", merge_key=key) as op:
        p = _platoon(p.id)
        target: Platoon | Leader
        if who == "leader":
            leader = _current_leader(p)
            if leader is None:
                raise ServiceError(f"platoon {p.name!r} has no leader")
            target = leader
        else:
            target = p
        op.target(campaign=p.campaign_id, platoon=p.id)
        old = target.xp
        start = old
        if old != xp:
            rec.update(target, xp=xp)
            earlier = XpChange.get_or_none(XpChange.id.in_(op.inserted("xp_change"))) if op.merged else None
            if earlier is not None:
                start = earlier.xp_after - earlier.delta
                rec.update(earlier, delta=xp - start, xp_after=xp, reason=check_reason(reason) or earlier.reason)
            else:
                rec.create(XpChange, platoon=p.id, leader=leader.id if leader else None, who=who, delta=xp - old,
                           xp_after=xp, reason=check_reason(reason))
        whose = "Platoon" if who == "platoon" else f"Leader {target.name}"
        op.label = f"{p.name}: {whose} XP {start} \u2192 {xp}"
    label = f"{p.name}" if who == "platoon" else f"{p.name}'s leader {target.name}"
    msg = f"{label}: XP {old} \u2192 {xp}" if old != xp else f"{label}: XP stays {xp}"
    return Edit("platoon", p.id, msg, {"id": p.id, "who": who, "old": old, "new": xp, "reason": reason},
                rec.changes)


def update_platoon(ref: str | int, *, name: str | None = None, training: Any = None, equipment: Any = None,
                   morale: Any = None, armor: Any = None, notes: str | None = None, xp: Any = None,
                   leader_xp: Any = None, reason: str = "", campaign: str | int | None = None) -> Edit:
    """Several changes at once (the CLI's ``platoon set``), all or nothing in one transaction."""
    rec = Recorder()
    with rec.operation("platoon.set") as op:
        p = _platoon(ref, campaign)
        op.target(campaign=p.campaign_id, platoon=p.id)
        edits = []
        if name is not None:
            edits.append(rename_platoon(p.id, name, reason=reason))
        edits.append(set_platoon(p.id, training=training, equipment=equipment, morale=morale, armor=armor,
                                 notes=notes, reason=reason))
        if xp is not None:
            edits.append(set_xp(p.id, xp, reason=reason))
        if leader_xp is not None:
            edits.append(set_xp(p.id, leader_xp, reason=reason, who="leader"))
        detail = platoon_detail(p.id)
        done = [e.message.split(": ", 1)[-1] for e in edits
                if "nothing changed" not in e.message and "XP stays" not in e.message]
        op.label = f"{p.name}: " + ("; ".join(done) or "no change")
    return combine("platoon", p.id, edits, op, detail)


# --- leaders ----------------------------------------------------------------------------------------------

def set_leader(ref: str | int, *, name: str | None = None, rank: str | None = None, notes: str | None = None,
               reason: str = "", campaign: str | int | None = None) -> Edit:
    """Edit the current leader's name, rank or notes (logged)."""
    values: dict[str, Any] = {}
    if name is not None:
        values["name"] = check_name(name, "leader")
    if rank is not None:
        values["rank"] = check_line(rank, "rank", NAME_MAX)
    if notes is not None:
        values["notes"] = check_notes(notes)
    rec = Recorder()
    with rec.operation("leader.set") as op:
        p = _platoon(ref, campaign)
        leader = _current_leader(p)
        if leader is None:
            raise ServiceError(f"platoon {p.name!r} has no leader")
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: edit leader {leader.name}")
        changed = rec.update(leader, **values)
        for field, (old, new) in changed.items():
            _log(rec, p, f"leader.{field}", old, new, reason)
    return Edit("platoon", p.id, f"{p.name}: leader " + (", ".join(f"{f} {o!r} \u2192 {n!r}" for f, (o, n)
                                                                    in changed.items()) or "unchanged"),
                {"id": p.id, "leader_id": leader.id, "old": {f: v[0] for f, v in changed.items()},
                 "new": {f: v[1] for f, v in changed.items()}}, rec.changes)


def replace_leader(ref: str | int, name: str, *, rank: str = DEFAULT_RANK, xp: Any = None,
                   dice: DiceSource | None = None, how: str = "replaced", notes: str = "",
                   campaign: str | int | None = None) -> Edit:
    """The current leader (if any) leaves (``how``: casualty, promoted or replaced) and ``name`` takes over
    with ``xp``, or with the replacement roll (RULES 1.2 step 4: the lower of two dice of the period's type
    minus one; ⚙ one die with the campaign's house rule) when ``dice`` is given; the roll is kept."""
    name = check_name(name, "leader")
    _check_choice(how, LEADER_EXITS, "how the leader left")
    if (xp is None) == (dice is None):
        raise ServiceError("give the new leader's XP or roll for it (the replacement roll), not both or neither")
    if xp is not None:
        xp = _check_xp(xp, "leader XP")
    rank = check_line(rank or DEFAULT_RANK, "rank", NAME_MAX) or DEFAULT_RANK
    rec = Recorder()
    with rec.operation("leader.replace") as op:
        p = _platoon(ref, campaign)
        c = Campaign.get_by_id(p.campaign_id)
        old = _current_leader(p)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: {name} takes over" + (f" from {old.name}" if old else ""))
        record = None
        if dice is not None:
            try:
                xp, record = roll_replacement(c.period, dice, c.replacement_dice)
                _all_dice_used(dice)
            except (DiceError, RulesError) as exc:
                raise ServiceError(str(exc)) from None
        if old is not None:
            rec.update(old, status=how, left_at=now())
        new = rec.create(Leader, platoon=p.id, name=name, rank=rank, xp=xp, xp_at_join=xp, notes=check_notes(notes))
        roll = None
        if record is not None:
            (roll,) = store_rolls([record], platoon=p.id, leader=new.id)
    msg = (f"{p.name}: {old.name} ({LEADER_EXITS[how]}) replaced by {name} ({xp} XP)" if old
           else f"{p.name}: {name} leads the platoon ({xp} XP)")
    return Edit("platoon", p.id, msg,
                {"id": p.id, "old_leader": None if old is None else {"id": old.id, "name": old.name,
                                                                     "status": how},
                 "new_leader": {"id": new.id, "name": name, "rank": rank, "xp": xp},
                 "roll": roll_to_dict(roll) if roll else None}, rec.changes)


# --- attached units ---------------------------------------------------------------------------------------

def find_attached(platoon: str | int | Platoon, unit: str | int) -> AttachedUnit:
    p = _platoon(platoon)
    if isinstance(unit, int):
        found = AttachedUnit.get_or_none((AttachedUnit.id == unit) & (AttachedUnit.platoon == p))
    else:
        found = AttachedUnit.get_or_none((AttachedUnit.platoon == p) & (AttachedUnit.name_key == name_key(unit)))
    if found is None:
        raise NotFound(f"platoon {p.name!r} has no attached unit {unit!r}")
    return found


def _attached(ref: int | AttachedUnit) -> AttachedUnit:
    if isinstance(ref, AttachedUnit):
        return ref
    found = AttachedUnit.get_or_none(AttachedUnit.id == ref)
    if found is None:
        raise NotFound(f"no attached unit with id {ref}")
    return found


def _attached_values(kind: str, training: Any, equipment: Any, morale: Any, armor: Any,
                     support: Any) -> dict[str, Any]:
    _check_choice(kind, KINDS, "attached unit kind")
    if kind == UnitKind.FIRE_SUPPORT:
        if any(v is not None for v in (training, equipment, morale, armor)):
            raise ServiceError("off-board fire support has no attribute dice or Armor; give only its support "
                               "level (light, medium or heavy)")
        if support is None:
            raise ServiceError("off-board fire support needs a support level: light, medium or heavy")
        return {"kind": kind, "training": None, "equipment": None, "morale": None, "armor": None,
                "support": _check_choice(support, SUPPORT_LEVELS, "fire support level")}
    if support is not None:
        raise ServiceError(f"a {KINDS[kind]} has no fire support level (that is for off-board fire support)")
    missing = [n for n, v in (("training", training), ("equipment", equipment), ("morale", morale),
                              ("armor", armor)) if v is None]
    if missing:
        raise ServiceError(f"a {KINDS[kind]} needs its own {', '.join(missing)}")
    arm = _check_armor(armor)
    if kind == UnitKind.TEAM and arm > TEAM_MAX_ARMOR:
        raise ServiceError(f"Armor {arm} is for vehicles only; an infantry team has Armor 1 to {TEAM_MAX_ARMOR}")
    return {"kind": kind, "training": check_die(training, "Training"),
            "equipment": check_die(equipment, "Equipment"), "morale": check_die(morale, "Morale"),
            "armor": arm, "support": None}


def _attached_name_taken(platoon_id: int, name: str, exclude_id: int | None = None) -> bool:
    query = AttachedUnit.select(AttachedUnit.id).where((AttachedUnit.platoon == platoon_id)
                                                       & (AttachedUnit.name_key == name_key(name)))
    if exclude_id is not None:
        query = query.where(AttachedUnit.id != exclude_id)
    return query.exists()


def _describe_attached(values: dict[str, Any]) -> str:
    if values["kind"] == UnitKind.FIRE_SUPPORT:
        return f"{values['support']} fire support"
    return (f"{values['kind']} {die_text(values['training'])}/{die_text(values['equipment'])}/"
            f"{die_text(values['morale'])} Armor {values['armor']}")


def add_attached(platoon: str | int, name: str, kind: str, *, training: Any = None, equipment: Any = None,
                 morale: Any = None, armor: Any = None, support: Any = None, notes: str = "",
                 campaign: str | int | None = None) -> Edit:
    """Attach an on-board team or vehicle (own three dice and Armor) or off-board fire support."""
    name = check_name(name, "attached unit")
    _platoon(platoon, campaign)  # an unknown platoon is named before the unit's values are checked
    values = _attached_values(kind, training, equipment, morale, armor, support)
    rec = Recorder()
    with rec.operation("attached.add") as op:
        p = _platoon(platoon, campaign)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: attach {name}")
        if _attached_name_taken(p.id, name):
            raise ServiceError(f"platoon {p.name!r} already has an attached unit named {name!r}")
        last = (AttachedUnit.select(AttachedUnit.position).where(AttachedUnit.platoon == p)
                .order_by(AttachedUnit.position.desc()).first())
        a = rec.create(AttachedUnit, platoon=p.id, name=name, notes=check_notes(notes),
                       position=(last.position + 1) if last else 0, **values)
        _log(rec, p, f"attached[{name}]", None, _describe_attached(values))
        summary = _attached_dict(a, [])
    return Edit("platoon", p.id, f"{p.name}: attached {name} ({KINDS[values['kind']]})",
                {"platoon_id": p.id, **summary}, rec.changes)


def edit_attached(unit: int | AttachedUnit, *, name: str | None = None, kind: str | None = None,
                  training: Any = _UNSET, equipment: Any = _UNSET, morale: Any = _UNSET, armor: Any = _UNSET,
                  support: Any = _UNSET, notes: str | None = None, reason: str = "") -> Edit:
    """Change an attached unit; the result must be a whole legal unit (a change of kind to fire support
    drops the dice and Armor; a change to team/vehicle needs them)."""
    rec = Recorder()
    with rec.operation("attached.edit") as op:
        a = _attached(unit)
        p = Platoon.get_by_id(a.platoon_id)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: edit {a.name}")
        new_kind = a.kind if kind is None else kind
        _check_choice(new_kind, KINDS, "attached unit kind")
        if new_kind == UnitKind.FIRE_SUPPORT:
            merged = {"training": None, "equipment": None, "morale": None, "armor": None,
                      "support": a.support if support is _UNSET else support}
            if any(v is not _UNSET and v is not None for v in (training, equipment, morale, armor)):
                raise ServiceError("off-board fire support has no attribute dice or Armor")
        else:
            merged = {"training": a.training if training is _UNSET else training,
                      "equipment": a.equipment if equipment is _UNSET else equipment,
                      "morale": a.morale if morale is _UNSET else morale,
                      "armor": a.armor if armor is _UNSET else armor,
                      "support": None if support is _UNSET else support}
        values = _attached_values(new_kind, merged["training"], merged["equipment"], merged["morale"],
                                  merged["armor"], merged["support"])
        label = a.name
        if name is not None:
            values["name"] = check_name(name, "attached unit")
            if _attached_name_taken(p.id, values["name"], exclude_id=a.id):
                raise ServiceError(f"platoon {p.name!r} already has an attached unit named {values['name']!r}")
        if notes is not None:
            values["notes"] = check_notes(notes)
        changed = rec.update(a, **values)
        for field, (old, new) in changed.items():
            _log(rec, p, f"attached[{label}].{field}", _shown(field, old), _shown(field, new), reason)
        summary = _attached_dict(a, [])
    text = ", ".join(f"{f} {_shown(f, o)} \u2192 {_shown(f, n)}" for f, (o, n) in changed.items() if f != "notes")
    if "notes" in changed:
        text = f"{text}, notes" if text else "notes"
    return Edit("platoon", p.id, f"{p.name}: {label}: {text or 'nothing changed'}",
                {"platoon_id": p.id, **summary, "old": {f: _shown(f, v[0]) for f, v in changed.items()}},
                rec.changes)


def remove_attached(unit: int | AttachedUnit, reason: str = "") -> Edit:
    rec = Recorder()
    with rec.operation("attached.remove") as op:
        a = _attached(unit)
        p = Platoon.get_by_id(a.platoon_id)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: remove {a.name}")
        values = {"kind": a.kind, "training": a.training, "equipment": a.equipment, "morale": a.morale,
                  "armor": a.armor, "support": a.support}
        _log(rec, p, f"attached[{a.name}]", _describe_attached(values), None, reason)
        rec.delete(AttachedUnit, a.id)
    return Edit("platoon", p.id, f"{p.name}: removed {a.name}", {"platoon_id": p.id, "id": a.id, "name": a.name},
                rec.changes)


# --- equipment --------------------------------------------------------------------------------------------

def _equipment_values(targets: str, ap: Any, ap_vs: Any, name: str) -> dict[str, Any]:
    _check_choice(targets, TARGETS, "targets")
    ap_value = _check_ap(ap)
    if ap_value is None:
        if ap_vs not in (None, ""):
            raise ServiceError(f"{name}: an AP target type needs an AP value")
        return {"targets": targets, "ap": None, "ap_vs": None}
    vs = targets if ap_vs in (None, "") else _check_choice(ap_vs, TARGETS, "AP applies to")
    if targets != "both" and vs != targets:
        raise ServiceError(f"{name} targets only {targets} targets, so its AP cannot apply to {vs} targets")
    return {"targets": targets, "ap": ap_value, "ap_vs": vs}


def _describe_equipment(name: str, v: dict[str, Any]) -> str:
    text = f"{name} (targets {v['targets']}"
    if v["ap"] is not None:
        text += f", AP {v['ap']} vs {v['ap_vs']}"
    return text + ")"


def find_equipment(platoon: str | int, name: str | int, attached: str | int | None = None) -> Equipment:
    p = _platoon(platoon)
    owner = (Equipment.platoon == p) if attached is None else (Equipment.attached == find_attached(p, attached))
    if isinstance(name, int):
        found = Equipment.get_or_none((Equipment.id == name) & owner)
    else:
        found = next((e for e in Equipment.select().where(owner).order_by(Equipment.position, Equipment.id)
                      if name_key(e.name) == name_key(name)), None)  # the one case rule (names not unique here)
    if found is None:
        where = f"attached unit {attached!r} of platoon {p.name!r}" if attached is not None else f"platoon {p.name!r}"
        raise NotFound(f"{where} has no equipment named {name!r}")
    return found


def add_equipment(platoon: str | int, name: str, *, attached: str | int | None = None, targets: str = "both",
                  ap: Any = None, ap_vs: Any = None, notes: str = "", campaign: str | int | None = None) -> Edit:
    """A heavy weapon / special equipment row for the platoon or (``attached``) one of its attached units."""
    name = check_name(name, "equipment")
    values = _equipment_values(targets, ap, ap_vs, name)
    rec = Recorder()
    with rec.operation("equipment.add") as op:
        p = _platoon(platoon, campaign)
        unit = find_attached(p, attached) if attached is not None else None
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: add {name}" + (f" to {unit.name}" if unit else ""))
        owner = (Equipment.attached == unit) if unit else (Equipment.platoon == p)
        last = Equipment.select(Equipment.position).where(owner).order_by(Equipment.position.desc()).first()
        e = rec.create(Equipment, platoon=None if unit else p.id, attached=unit.id if unit else None, name=name,
                       notes=check_notes(notes), position=(last.position + 1) if last else 0, **values)
        where = f"attached[{unit.name}]." if unit else ""
        _log(rec, p, f"{where}equipment[{name}]", None, _describe_equipment(name, values))
        summary = _equipment_dict(e)
    return Edit("platoon", p.id, f"{p.name}: added {name}" + (f" to {unit.name}" if unit else ""),
                {"platoon_id": p.id, "attached_id": unit.id if unit else None, **summary}, rec.changes)


def _equipment_owner(e: Equipment) -> tuple[Platoon, AttachedUnit | None]:
    if e.attached_id:
        unit = AttachedUnit.get_by_id(e.attached_id)
        return Platoon.get_by_id(unit.platoon_id), unit
    return Platoon.get_by_id(e.platoon_id), None


def _equipment(ref: int | Equipment) -> Equipment:
    if isinstance(ref, Equipment):
        return ref
    found = Equipment.get_or_none(Equipment.id == ref)
    if found is None:
        raise NotFound(f"no equipment with id {ref}")
    return found


def edit_equipment(item: int | Equipment, *, name: str | None = None, targets: str | None = None,
                   ap: Any = _UNSET, ap_vs: Any = _UNSET, notes: str | None = None, reason: str = "") -> Edit:
    rec = Recorder()
    with rec.operation("equipment.edit") as op:
        e = _equipment(item)
        p, unit = _equipment_owner(e)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: edit {e.name}" + (f" of {unit.name}" if unit else ""))
        new_name = e.name if name is None else check_name(name, "equipment")
        new_ap = e.ap if ap is _UNSET else ap
        new_vs = (e.ap_vs if ap is _UNSET else None) if ap_vs is _UNSET else ap_vs
        values = _equipment_values(e.targets if targets is None else targets, new_ap, new_vs, new_name)
        values["name"] = new_name
        if notes is not None:
            values["notes"] = check_notes(notes)
        label = e.name
        changed = rec.update(e, **values)
        where = f"attached[{unit.name}]." if unit else ""
        for field, (old, new) in changed.items():
            _log(rec, p, f"{where}equipment[{label}].{field}", old, new, reason)
        summary = _equipment_dict(e)
    text = ", ".join(f"{f} {o} \u2192 {n}" for f, (o, n) in changed.items()) or "nothing changed"
    return Edit("platoon", p.id, f"{p.name}: {label}: {text}",
                {"platoon_id": p.id, "attached_id": unit.id if unit else None, **summary}, rec.changes)


def remove_equipment(item: int | Equipment, reason: str = "") -> Edit:
    rec = Recorder()
    with rec.operation("equipment.remove") as op:
        e = _equipment(item)
        p, unit = _equipment_owner(e)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: remove {e.name}" + (f" from {unit.name}" if unit else ""))
        where = f"attached[{unit.name}]." if unit else ""
        _log(rec, p, f"{where}equipment[{e.name}]",
             _describe_equipment(e.name, {"targets": e.targets, "ap": e.ap, "ap_vs": e.ap_vs}), None, reason)
        rec.delete(Equipment, e.id)
    return Edit("platoon", p.id, f"{p.name}: removed {e.name}" + (f" from {unit.name}" if unit else ""),
                {"platoon_id": p.id, "id": e.id, "name": e.name}, rec.changes)


# --- deleting a platoon -----------------------------------------------------------------------------------

def delete_platoon(ref: str | int, campaign: str | int | None = None) -> Edit:
    """Delete a platoon with its leaders, battles, attached units, equipment, XP/attribute history and rolls
    (undo puts every row back)."""
    rec = Recorder()
    with rec.operation("platoon.delete") as op:
        p = _platoon(ref, campaign)
        name, campaign_id = p.name, p.campaign_id
        op.target(campaign=campaign_id, platoon=p.id)
        rec.label(f"Delete platoon {name}")
        rec.delete(Platoon, p.id)
    return Edit("platoon", p.id, f"deleted platoon {name!r}", {"id": p.id, "name": name,
                                                               "campaign_id": campaign_id}, rec.changes)


def platoon_id(ref: str | int, campaign: str | int | None = None) -> int:
    return _platoon(ref, campaign).id


__all__ = [
    "KINDS", "SUPPORT_LEVELS", "TARGETS", "LEADER_EXITS", "ServiceError", "NotFound", "platoon_detail",
    "list_platoons", "xp_history", "attribute_history", "create_platoon", "rename_platoon", "set_platoon",
    "set_xp", "set_leader", "replace_leader", "find_attached", "add_attached", "edit_attached",
    "remove_attached", "find_equipment", "add_equipment", "edit_equipment", "remove_equipment",
    "delete_platoon", "platoon_id", "update_platoon", "platoon_name_problem",
    "check_die",
]
