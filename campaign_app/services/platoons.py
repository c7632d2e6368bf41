"""Platoons (RULES.md 1.1, 1.3): creating one (with force generation), reading it, its dice, Armor, notes
and XP track, renaming and deleting it; the checks and the change log the roster's other modules share.

Every write is one journal operation (one transaction), refuses an illegal value with a :class:`ServiceError`
naming the problem (nothing written), and returns an :class:`~.edits.Edit`; ``services.journal.undo`` reverts
it and ``redo`` puts it back exactly (same ids, no new dice). Every change of a platoon's name, dice, Armor or
notes is an ``AttributeChange`` row; every XP change an ``XpChange`` row; force generation rolls are ``Roll``
rows linked to the platoon.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from ..rules.aftermath import roll_force
from ..rules.dice import DiceError, DiceSource, TypedDice, level_for_die
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
from ..store.batch import read_together
from ..store.models import AttachedUnit, AttributeChange, Battle, Campaign, Equipment, Leader, Platoon, XpChange
from .campaigns import check_name, check_notes
from .common import (
    UNSET as UNSET,
)
from .common import (
    NotFound,
    RollResult,
    ServiceError,
    check_reason,
    check_row_id,
    iso_text,
    name_key,
    resolve_campaign,
    resolve_platoon,
    roll_result,
    store_rolls,
    suggested_leader_name,
    thresholds_of,
)
from .edits import Edit, Recorder
from .results import FieldsChanged, Renamed, Result

LEADER_EXITS: dict[str, str] = {
    LeaderFate.CASUALTY: "casualty",
    LeaderFate.PROMOTED: "promoted",
    "replaced": "replaced by hand",
}
DEFAULT_RANK = "Lieutenant"


def check_die(value: int, what: str) -> int:
    """An attribute die given by its sides (10 for a d10); anything but d4..d12 is refused naming ``what``. (The
    CLI reads "d10"; the GUI's die pickers give the sides.)"""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ServiceError(f"{what}: not a die: {value!r} (expected d4, d6, d8, d10 or d12)")
    try:
        level_for_die(value)
    except DiceError as exc:
        raise ServiceError(f"{what}: {exc}") from None
    return value


def check_armor_value(value: int, what: str = "Armor") -> int:
    """Armor 1-5 (the CLI reads the digits; the GUI's spin boxes give the number)."""
    try:
        return check_armor(value)
    except RulesError:
        raise ServiceError(f"{what} must be 1 to 5, not {value!r}") from None


def check_xp_value(value: int, what: str) -> int:
    """XP 0-32 (the CLI reads the digits; the GUI's tracks give the number)."""
    try:
        return check_xp(value, what)
    except RulesError as exc:
        raise ServiceError(str(exc)) from None


def check_choice(value: object, choices: Collection[str], what: str) -> str:
    if value not in choices:
        raise ServiceError(f"{what} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


def check_all_dice_used(dice: DiceSource | None) -> None:
    """Typed dice must match the rolls asked for exactly: extra faces are a mistake, not ignored."""
    if isinstance(dice, TypedDice):
        dice.check_all_used()


def die_text(sides: int | None) -> str | None:
    return None if sides is None else f"d{sides}"


def current_leader(p: Platoon) -> Leader | None:
    leader: Leader | None = (
        Leader.select().where((Leader.platoon == p) & (Leader.status == "active")).order_by(Leader.id.desc()).first()
    )
    return leader


def _platoon_name_taken(campaign_id: int, name: str, exclude_id: int | None = None) -> bool:
    query = Platoon.select(Platoon.id).where((Platoon.campaign == campaign_id) & (Platoon.name_key == name_key(name)))
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


def log_change(rec: Recorder, p: Platoon, field: str, old: object, new: object, reason: str = "") -> None:
    rec.create(
        AttributeChange,
        platoon=p.id,
        field=field,
        old_value=None if old is None else str(old),
        new_value=None if new is None else str(new),
        reason=check_reason(reason),
    )


def shown_value(field: str, value: Any) -> Any:
    if field in ATTRIBUTES:
        return die_text(value)
    return value


# --- what the roster reads (the platoon page, the Unit Data Sheet, ``platoon show/list --json``) ----------


@dataclass(frozen=True)
class EquipmentItem(Result):
    """A heavy weapon or special equipment of the platoon or of one attached unit."""

    id: int
    name: str
    targets: str
    """``dispersed``, ``point`` or ``both``."""
    ap: int | None
    ap_vs: str | None
    """The target type the AP value applies to (``None`` without an AP value)."""
    notes: str


@dataclass(frozen=True)
class AttachedUnitInfo(Result):
    """An attached unit: a team or vehicle with its own dice (``"d8"``) and Armor, or off-board fire support
    with a support level instead (dice, Armor and its class ``None``)."""

    id: int
    name: str
    kind: UnitKind
    training: str | None
    equipment: str | None
    morale: str | None
    armor: int | None
    armor_class: str | None
    support: str | None
    notes: str
    equipment_list: tuple[EquipmentItem, ...]


@dataclass(frozen=True)
class LeaderInfo(Result):
    """A platoon's current leader (times are the stored text, ``2024-05-31 20:15:00``)."""

    id: int
    name: str
    rank: str
    xp: int
    level: str
    level_rank: int
    xp_at_join: int
    joined_at: str | None
    joined_battle: int | None
    """The number of the battle after which the leader joined (a replacement), else ``None``."""
    notes: str


@dataclass(frozen=True)
class FormerLeader(LeaderInfo):
    """A leader who left the platoon: ``status`` is the stored word (casualty, promoted, replaced), ``how`` the
    words shown for it."""

    status: str
    how: str
    left_at: str | None
    left_battle: int | None
    """The number of the battle the leader left after (``None`` when replaced by hand)."""
    left_battle_id: int | None


@dataclass(frozen=True)
class AttributeWords(Result):
    """The level words of the three attribute dice (``Professional``, ``Modern``, ``Steady``...)."""

    training: str
    equipment: str
    morale: str


@dataclass(frozen=True)
class PlatoonDetail(Result):
    """Everything the platoon page, the Unit Data Sheet and ``platoon show --json`` show: dice as ``"d10"``,
    the level words, Armor and its class, the XP and its level, orders cards per turn (and with fire support,
    when fire support is attached), the leader (``None`` without one), former leaders, attached units (each
    with its equipment), the platoon's own equipment and its count of battles."""

    id: int
    name: str
    campaign: str
    campaign_id: int
    period: int | None
    replacement_dice: int
    thresholds: tuple[int, int, int, int]
    training: str
    equipment: str
    morale: str
    words: AttributeWords
    armor: int
    armor_class: str
    xp: int
    level: str
    level_rank: int
    cards: int
    cards_with_fire_support: int | None
    notes: str
    leader: LeaderInfo | None
    former_leaders: tuple[FormerLeader, ...]
    attached: tuple[AttachedUnitInfo, ...]
    equipment_list: tuple[EquipmentItem, ...]
    battles: int


@dataclass(frozen=True)
class PlatoonRow(Result):
    """One platoon in a list (``platoon list --json``, the campaign page)."""

    id: int
    name: str
    campaign: str
    campaign_id: int
    training: str
    equipment: str
    morale: str
    armor: int
    xp: int
    level: str
    leader: str | None
    """The current leader's name (``None`` without one)."""
    leader_xp: int | None
    leader_level: str | None
    cards: int


@dataclass(frozen=True)
class XpChangeRow(Result):
    """One change of a platoon's or its leader's XP (``who``: platoon or leader)."""

    id: int
    who: str
    leader_id: int | None
    delta: int
    xp_after: int
    reason: str
    battle_id: int | None
    created_at: str


@dataclass(frozen=True)
class AttributeChangeRow(Result):
    """One logged change of a platoon's name, dice, Armor, notes, leader or attachments (values as text)."""

    id: int
    field: str
    old: str | None
    new: str | None
    reason: str
    battle_id: int | None
    created_at: str


def _die(sides: int) -> str:
    return f"d{sides}"


def _leader_info(ld: Leader, thresholds: Thresholds, battle_numbers: dict[int, int]) -> LeaderInfo:
    """The current leader as :class:`LeaderInfo`, one who left as :class:`FormerLeader`."""
    joined_battle = battle_numbers.get(ld.joined_battle_id) if ld.joined_battle_id else None
    level, rank = level_name(ld.xp, thresholds), level_rank(ld.xp, thresholds)
    if ld.status == "active":
        return LeaderInfo(
            id=ld.id,
            name=ld.name,
            rank=ld.rank,
            xp=ld.xp,
            level=level,
            level_rank=rank,
            xp_at_join=ld.xp_at_join,
            joined_at=iso_text(ld.joined_at),
            joined_battle=joined_battle,
            notes=ld.notes,
        )
    return FormerLeader(
        id=ld.id,
        name=ld.name,
        rank=ld.rank,
        xp=ld.xp,
        level=level,
        level_rank=rank,
        xp_at_join=ld.xp_at_join,
        joined_at=iso_text(ld.joined_at),
        joined_battle=joined_battle,
        notes=ld.notes,
        status=ld.status,
        how=LEADER_EXITS[ld.status],
        left_at=iso_text(ld.left_at),
        left_battle=battle_numbers.get(ld.left_battle_id) if ld.left_battle_id else None,
        left_battle_id=ld.left_battle_id,
    )


def equipment_item(e: Equipment) -> EquipmentItem:
    return EquipmentItem(id=e.id, name=e.name, targets=e.targets, ap=e.ap, ap_vs=e.ap_vs, notes=e.notes)


def attached_info(a: AttachedUnit, equipment: Iterable[EquipmentItem] = ()) -> AttachedUnitInfo:
    kind = UnitKind(a.kind)
    if kind == UnitKind.FIRE_SUPPORT:
        return AttachedUnitInfo(
            id=a.id,
            name=a.name,
            kind=kind,
            training=None,
            equipment=None,
            morale=None,
            armor=None,
            armor_class=None,
            support=a.support,
            notes=a.notes,
            equipment_list=tuple(equipment),
        )
    return AttachedUnitInfo(
        id=a.id,
        name=a.name,
        kind=kind,
        training=die_text(a.training),
        equipment=die_text(a.equipment),
        morale=die_text(a.morale),
        armor=a.armor,
        armor_class=ARMOR_CLASSES[cast(int, a.armor)],  # set for a team or vehicle: CHECK
        support=None,
        notes=a.notes,
        equipment_list=tuple(equipment),
    )


def platoon_detail(ref: int | Platoon) -> PlatoonDetail:
    """Everything the platoon page, the Unit Data Sheet and ``platoon show --json`` show (see
    :class:`PlatoonDetail`)."""
    pid = ref.id if isinstance(ref, Platoon) else check_row_id(ref, "platoon")
    # every read at once (one round trip on a server): what depends on the platoon is keyed by its id
    units = AttachedUnit.select(AttachedUnit.id).where(AttachedUnit.platoon == pid)
    found, campaigns, leaders, battles, attached, equipment = read_together(
        Platoon.select().where(Platoon.id == pid),
        Campaign.select().where(Campaign.id == Platoon.select(Platoon.campaign).where(Platoon.id == pid)),
        Leader.select().where(Leader.platoon == pid).order_by(Leader.id),  # ids, not clocks
        Battle.select(Battle.id, Battle.number).where(Battle.platoon == pid).tuples(),
        AttachedUnit.select().where(AttachedUnit.platoon == pid).order_by(AttachedUnit.position, AttachedUnit.id),
        Equipment.select()
        .where((Equipment.platoon == pid) | Equipment.attached.in_(units))
        .order_by(Equipment.position, Equipment.id),
    )
    if not found or not campaigns:
        raise NotFound(f"no platoon with id {ref if not isinstance(ref, Platoon) else pid}")
    p, c = found[0], campaigns[0]
    t = thresholds_of(c)
    battle_numbers = {int(i): int(n) for i, n in battles}
    active = [ld for ld in leaders if ld.status == "active"]
    current = active[-1] if active else None
    former = sorted((ld for ld in leaders if ld.status != "active"), key=lambda ld: (ld.left_at or ld.joined_at, ld.id))
    own: list[EquipmentItem] = []
    by_unit: dict[int, list[EquipmentItem]] = {a.id: [] for a in attached}
    for e in equipment:
        # one owner (the CHECK): the platoon, else an attached unit
        (own if e.platoon_id else by_unit[cast(int, e.attached_id)]).append(equipment_item(e))
    leader_xp = current.xp if current else None
    cards = orders_cards_for_xp(p.xp, leader_xp, thresholds=t)
    has_support = any(a.kind == UnitKind.FIRE_SUPPORT for a in attached)
    return PlatoonDetail(
        id=p.id,
        name=p.name,
        campaign=c.name,
        campaign_id=c.id,
        period=c.period,
        replacement_dice=c.replacement_dice,
        thresholds=t.as_tuple(),
        training=_die(p.training),
        equipment=_die(p.equipment),
        morale=_die(p.morale),
        words=AttributeWords(*(attribute_word(a, getattr(p, a)) for a in ATTRIBUTES)),
        armor=p.armor,
        armor_class=ARMOR_CLASSES[p.armor],
        xp=p.xp,
        level=level_name(p.xp, t),
        level_rank=level_rank(p.xp, t),
        cards=cards,
        cards_with_fire_support=orders_cards_for_xp(p.xp, leader_xp, True, t) if has_support else None,
        notes=p.notes,
        leader=_leader_info(current, t, battle_numbers) if current else None,
        former_leaders=tuple(cast(FormerLeader, _leader_info(ld, t, battle_numbers)) for ld in former),
        attached=tuple(attached_info(a, by_unit[a.id]) for a in attached),
        equipment_list=tuple(own),
        battles=len(battle_numbers),
    )


def list_platoons(campaign: int | None = None) -> list[PlatoonRow]:
    """One summary row per platoon (of one campaign, or of all Atomic Africa campaigns), by name."""
    query = (
        Platoon.select(
            Platoon.id,
            Platoon.name,
            Platoon.campaign,
            Platoon.training,
            Platoon.equipment,
            Platoon.morale,
            Platoon.armor,
            Platoon.xp,
            Campaign.name,
            Campaign.threshold_green,
            Campaign.threshold_regular,
            Campaign.threshold_veteran,
            Campaign.threshold_legendary,
        )
        .join(Campaign)
        .order_by(Campaign.name, Platoon.name)
    )
    if campaign is not None:
        query = query.where(Platoon.campaign == resolve_campaign(campaign))
    # id, name, campaign id, training, equipment, morale, armor, xp, campaign name, the four thresholds
    platoons = list(
        cast("Iterable[tuple[int, str, int, int, int, int, int, int, str, int, int, int, int]]", query.tuples())
    )
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
        rows.append(
            PlatoonRow(
                id=pid,
                name=name,
                campaign=cname,
                campaign_id=cid,
                training=_die(training),
                equipment=_die(equipment),
                morale=_die(morale),
                armor=armor,
                xp=xp,
                level=level_name(xp, t),
                leader=leader[0] if leader else None,
                leader_xp=lxp,
                leader_level=level_name(lxp, t) if lxp is not None else None,
                cards=orders_cards_for_xp(xp, lxp, thresholds=t),
            )
        )
    return rows


def xp_history(ref: int, who: str | None = None) -> list[XpChangeRow]:
    """The XP change rows of a platoon (newest last); ``who`` = "platoon"/"leader" to filter."""
    p = resolve_platoon(ref)
    query = XpChange.select().where(XpChange.platoon == p).order_by(XpChange.id)
    if who is not None:
        query = query.where(XpChange.who == who)
    return [
        XpChangeRow(
            id=x.id,
            who=x.who,
            leader_id=x.leader_id,
            delta=x.delta,
            xp_after=x.xp_after,
            reason=x.reason,
            battle_id=x.battle_id,
            created_at=x.created_at.isoformat(sep=" "),
        )
        for x in query
    ]


def attribute_history(ref: int) -> list[AttributeChangeRow]:
    p = resolve_platoon(ref)
    return [
        AttributeChangeRow(
            id=a.id,
            field=a.field,
            old=a.old_value,
            new=a.new_value,
            reason=a.reason,
            battle_id=a.battle_id,
            created_at=a.created_at.isoformat(sep=" "),
        )
        for a in AttributeChange.select().where(AttributeChange.platoon == p).order_by(AttributeChange.id)
    ]


@dataclass(frozen=True)
class PlatoonCreated(Result):
    """A new platoon, and the force generation roll that made it (``None`` when made by hand). Its JSON is the
    platoon's (``platoon show --json``) with the roll under ``roll`` when there is one."""

    platoon: PlatoonDetail
    roll: RollResult | None

    def to_dict(self) -> dict[str, Any]:
        data = self.platoon.to_dict()
        if self.roll is not None:
            data["roll"] = self.roll.to_dict()
        return data


@dataclass(frozen=True)
class XpSet(Result):
    """The platoon's (``who="platoon"``) or its leader's XP before and after, and the reason given."""

    id: int
    who: str
    old: int
    new: int
    reason: str
    leader: str | None = field(default=None, metadata={"json": False})
    """The leader's name when ``who`` is "leader"."""


@dataclass(frozen=True)
class PlatoonDeleted(Result):
    id: int
    name: str
    campaign_id: int


def create_platoon(
    campaign: int,
    name: str,
    *,
    training: int,
    equipment: int,
    morale: int,
    armor: int,
    xp: int | None = None,
    leader_name: str | None = None,
    leader_rank: str = DEFAULT_RANK,
    leader_xp: int | None = None,
    notes: str = "",
    dice: DiceSource | None = None,
) -> Edit[PlatoonCreated]:
    """A new platoon in an Atomic Africa campaign, by hand (``xp``, ``leader_xp``) or with force generation
    (``dice``: RULES 1.3, two dice of the period's type; the lower -1 to the leader, the higher -1 to the
    platoon; the roll is kept). A leader is created when ``leader_name`` is given or the force is
    generated."""
    name = check_name(name, "platoon")
    dice_values = {
        a: check_die(v, a.capitalize())
        for a, v in (("training", training), ("equipment", equipment), ("morale", morale))
    }
    armor = check_armor_value(armor)
    if dice is not None and (xp is not None or leader_xp is not None):
        raise ServiceError("force generation rolls the XP: do not give platoon or leader XP as well")
    if dice is None:
        xp = check_xp_value(0 if xp is None else xp, "platoon XP")
        if leader_xp is not None:
            leader_xp = check_xp_value(leader_xp, "leader XP")
            if leader_name is None:
                raise ServiceError("leader XP given, but no leader name")
    if leader_name is not None:
        leader_name = check_name(leader_name, "leader")
    elif dice is not None:
        leader_name = suggested_leader_name(campaign, name)
    rank = (leader_rank or DEFAULT_RANK).strip() or DEFAULT_RANK
    rec = Recorder()
    with rec.operation("platoon.create") as op:
        c = resolve_campaign(campaign)
        if c.system != "atomic_africa":
            raise ServiceError(
                f"campaign {c.name!r} is a Sologear campaign; platoons belong to Atomic Africa campaigns"
            )
        if _platoon_name_taken(c.id, name):
            raise ServiceError(f"campaign {c.name!r} already has a platoon named {name!r}")
        force = None
        if dice is not None:
            try:
                force = roll_force(c.period, dice)
                check_all_dice_used(dice)
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
        created = PlatoonCreated(platoon=platoon_detail(p), roll=roll_result(roll) if roll is not None else None)
    how = " by force generation" if force else ""
    return Edit("platoon", p.id, f"created platoon {name!r}{how}", created, rec.changes)


def rename_platoon(ref: int, new_name: str, reason: str = "") -> Edit[Renamed]:
    new_name = check_name(new_name, "platoon")
    rec = Recorder()
    with rec.operation("platoon.rename") as op:
        p = resolve_platoon(ref)
        old = p.name
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"Rename platoon {old} \u2192 {new_name}")
        if _platoon_name_taken(p.campaign_id, new_name, exclude_id=p.id):
            c = Campaign.get_by_id(p.campaign_id)
            raise ServiceError(f"campaign {c.name!r} already has a platoon named {new_name!r}")
        if rec.update(p, name=new_name):
            log_change(rec, p, "name", old, new_name, reason)
    return Edit(
        "platoon",
        p.id,
        f"renamed platoon {old!r} to {new_name!r}",
        Renamed(id=p.id, old=old, new=new_name),
        rec.changes,
    )


def set_platoon(
    ref: int,
    *,
    training: int | None = None,
    equipment: int | None = None,
    morale: int | None = None,
    armor: int | None = None,
    notes: str | None = None,
    reason: str = "",
) -> Edit[FieldsChanged]:
    """Change dice, Armor and/or notes; each changed field is logged with ``reason``."""
    values: dict[str, int | str] = {}
    for attr, value in (("training", training), ("equipment", equipment), ("morale", morale)):
        if value is not None:
            values[attr] = check_die(value, attr.capitalize())
    if armor is not None:
        values["armor"] = check_armor_value(armor)
    if notes is not None:
        values["notes"] = check_notes(notes)
    rec = Recorder()
    with rec.operation("platoon.set") as op:
        p = resolve_platoon(ref)
        op.target(campaign=p.campaign_id, platoon=p.id)
        changed = rec.update(p, **values)
        for field, (old, new) in changed.items():
            log_change(rec, p, field, shown_value(field, old), shown_value(field, new), reason)
        rec.label(
            f"{p.name}: "
            + (
                ", ".join(
                    f"{f.capitalize()} {shown_value(f, o)} \u2192 {shown_value(f, n)}"
                    if f != "notes"
                    else "edit the notes"
                    for f, (o, n) in changed.items()
                )
                or "no change"
            )
        )
    text = (
        ", ".join(
            f"{f} {shown_value(f, o)} \u2192 {shown_value(f, n)}" if f != "notes" else "notes"
            for f, (o, n) in changed.items()
        )
        or "nothing changed"
    )
    return Edit(
        "platoon",
        p.id,
        f"{p.name}: {text}",
        FieldsChanged(
            id=p.id,
            old={f: shown_value(f, v[0]) for f, v in changed.items()},
            new={f: shown_value(f, v[1]) for f, v in changed.items()},
        ),
        rec.changes,
    )


def set_xp(ref: int, xp: int, reason: str = "", who: str = "platoon") -> Edit[XpSet]:
    """Set the platoon's (``who="platoon"``) or its current leader's (``who="leader"``) XP, stored as an
    XP change row with ``reason``."""
    check_choice(who, ("platoon", "leader"), "whose XP")
    xp = check_xp_value(xp, f"{who} XP")
    rec = Recorder()
    p = resolve_platoon(ref)
    leader = current_leader(p) if who == "leader" else None
    # a run of steps on one XP track within a minute is one operation (and one XP change row)
    key = f"xp:{p.id}:{who}:{leader.id if leader else ''}"
    with rec.operation("xp.set", merge_key=key) as op:
        p = resolve_platoon(p.id)
        target: Platoon | Leader
        if who == "leader":
            leader = current_leader(p)
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
                if xp == start:  # the steps cancel out: no XP change row of 0 is kept
                    rec.delete(XpChange, earlier.id)
                else:
                    rec.update(earlier, delta=xp - start, xp_after=xp, reason=check_reason(reason) or earlier.reason)
            else:
                rec.create(
                    XpChange,
                    platoon=p.id,
                    leader=leader.id if leader else None,
                    who=who,
                    delta=xp - old,
                    xp_after=xp,
                    reason=check_reason(reason),
                )
        whose = "Platoon" if who == "platoon" else f"Leader {target.name}"
        op.label = (
            f"{p.name}: {whose} XP {start} \u2192 {xp}"
            if start != xp
            else f"{p.name}: {whose} XP back to {xp} (steps that cancel out)"
        )
    label = f"{p.name}" if who == "platoon" else f"{p.name}'s leader {target.name}"
    msg = f"{label}: XP {old} \u2192 {xp}" if old != xp else f"{label}: XP stays {xp}"
    return Edit(
        "platoon",
        p.id,
        msg,
        XpSet(id=p.id, who=who, old=old, new=xp, reason=reason, leader=None if who == "platoon" else target.name),
        rec.changes,
    )


def update_platoon(
    ref: int,
    *,
    name: str | None = None,
    training: int | None = None,
    equipment: int | None = None,
    morale: int | None = None,
    armor: int | None = None,
    notes: str | None = None,
    xp: int | None = None,
    leader_xp: int | None = None,
    reason: str = "",
) -> Edit[PlatoonDetail]:
    """Several changes at once (the CLI's ``platoon set``), all or nothing in one transaction."""
    rec = Recorder()
    with rec.operation("platoon.set") as op:
        p = resolve_platoon(ref)
        op.target(campaign=p.campaign_id, platoon=p.id)
        done: list[str] = []  # what changed, in words (for the journal's label and the message)
        if name is not None:
            renamed = rename_platoon(p.id, name, reason=reason).result
            done.append(f"renamed platoon {renamed.old!r} to {renamed.new!r}")
        fields = set_platoon(
            p.id, training=training, equipment=equipment, morale=morale, armor=armor, notes=notes, reason=reason
        ).result
        if fields.old:
            done.append(
                ", ".join(f"{f} {o} \u2192 {fields.new[f]}" if f != "notes" else "notes" for f, o in fields.old.items())
            )
        for who, value in (("platoon", xp), ("leader", leader_xp)):
            if value is not None:
                xp_set = set_xp(p.id, value, reason=reason, who=who).result
                if xp_set.old != xp_set.new:
                    whose = "" if xp_set.leader is None else f"leader {xp_set.leader} "
                    done.append(f"{whose}XP {xp_set.old} \u2192 {xp_set.new}")
        detail = platoon_detail(p.id)
        op.label = f"{p.name}: " + ("; ".join(done) or "no change")
    return Edit("platoon", p.id, f"{p.name}: " + ("; ".join(done) or "nothing changed"), detail, op)


def delete_platoon(ref: int) -> Edit[PlatoonDeleted]:
    """Delete a platoon with its leaders, battles, attached units, equipment, XP/attribute history and rolls
    (undo puts every row back)."""
    rec = Recorder()
    with rec.operation("platoon.delete") as op:
        p = resolve_platoon(ref)
        name, campaign_id = p.name, p.campaign_id
        op.target(campaign=campaign_id, platoon=p.id)
        rec.label(f"Delete platoon {name}")
        rec.delete(Platoon, p.id)
    return Edit(
        "platoon",
        p.id,
        f"deleted platoon {name!r}",
        PlatoonDeleted(id=p.id, name=name, campaign_id=campaign_id),
        rec.changes,
    )
