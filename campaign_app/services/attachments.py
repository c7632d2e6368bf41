"""What a platoon has attached (RULES.md 1.1): attached units (teams, vehicles, off-board fire
support) and heavy weapons or special equipment, of the platoon or of one attached unit. Each write is one
journal operation, logged as ``AttributeChange`` rows of the platoon.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from ..rules.enums import UnitKind
from ..store.models import AttachedUnit, Equipment, Platoon
from .campaigns import check_name, check_notes
from .common import UNSET, NotFound, ServiceError, Unset, check_row_id, name_key, resolve_platoon
from .edits import Edit, Recorder
from .platoons import (
    AttachedUnitInfo,
    EquipmentItem,
    attached_info,
    check_armor_value,
    check_choice,
    check_die,
    die_text,
    equipment_item,
    log_change,
    shown_value,
)
from .results import Result

KINDS: dict[str, str] = {
    UnitKind.TEAM: "infantry team",
    UnitKind.VEHICLE: "vehicle",
    UnitKind.FIRE_SUPPORT: "off-board fire support",
}
SUPPORT_LEVELS: tuple[str, ...] = ("light", "medium", "heavy")
TARGETS: dict[str, str] = {"dispersed": "dispersed targets", "point": "point targets", "both": "both"}
TEAM_MAX_ARMOR = 3
AP_RANGE = (-10, 10)


def _check_ap(value: int | None) -> int | None:
    """An AP value, -10..10, or None (the CLI reads "-2", "+1", "\u22122")."""
    if value is None:
        return None
    lo, hi = AP_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ServiceError(f"AP value must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _attached(ref: int | AttachedUnit) -> AttachedUnit:
    if isinstance(ref, AttachedUnit):
        return ref
    found = AttachedUnit.get_or_none(AttachedUnit.id == check_row_id(ref, "attached unit"))
    if found is None:
        raise NotFound(f"no attached unit with id {ref}")
    return found


class _UnitValues(TypedDict):
    """An attached unit's checked values (the columns they are stored in)."""

    kind: str
    training: int | None
    equipment: int | None
    morale: int | None
    armor: int | None
    support: str | None


class _UnitChange(_UnitValues, total=False):
    name: str
    notes: str


class _EquipmentValues(TypedDict):
    """A weapon's checked targets and AP (the columns they are stored in)."""

    targets: str
    ap: int | None
    ap_vs: str | None


class _EquipmentChange(_EquipmentValues, total=False):
    name: str
    notes: str


def _attached_values(
    kind: str, training: int | None, equipment: int | None, morale: int | None, armor: int | None, support: str | None
) -> _UnitChange:
    check_choice(kind, KINDS, "attached unit kind")
    if kind == UnitKind.FIRE_SUPPORT:
        if any(v is not None for v in (training, equipment, morale, armor)):
            raise ServiceError(
                "off-board fire support has no attribute dice or Armor; give only its support "
                "level (light, medium or heavy)"
            )
        if support is None:
            raise ServiceError("off-board fire support needs a support level: light, medium or heavy")
        return _UnitChange(
            kind=kind,
            training=None,
            equipment=None,
            morale=None,
            armor=None,
            support=check_choice(support, SUPPORT_LEVELS, "fire support level"),
        )
    if support is not None:
        raise ServiceError(f"a {KINDS[kind]} has no fire support level (that is for off-board fire support)")
    missing = [
        n
        for n, v in (("training", training), ("equipment", equipment), ("morale", morale), ("armor", armor))
        if v is None
    ]
    if missing:
        raise ServiceError(f"a {KINDS[kind]} needs its own {', '.join(missing)}")
    assert training is not None and equipment is not None and morale is not None and armor is not None
    arm = check_armor_value(armor)
    if kind == UnitKind.TEAM and arm > TEAM_MAX_ARMOR:
        raise ServiceError(f"Armor {arm} is for vehicles only; an infantry team has Armor 1 to {TEAM_MAX_ARMOR}")
    return _UnitChange(
        kind=kind,
        training=check_die(training, "Training"),
        equipment=check_die(equipment, "Equipment"),
        morale=check_die(morale, "Morale"),
        armor=arm,
        support=None,
    )


def _attached_name_taken(platoon_id: int, name: str, exclude_id: int | None = None) -> bool:
    query = AttachedUnit.select(AttachedUnit.id).where(
        (AttachedUnit.platoon == platoon_id) & (AttachedUnit.name_key == name_key(name))
    )
    if exclude_id is not None:
        query = query.where(AttachedUnit.id != exclude_id)
    return query.exists()


def _describe_attached(values: _UnitValues) -> str:
    if values["kind"] == UnitKind.FIRE_SUPPORT:
        return f"{values['support']} fire support"
    return (
        f"{values['kind']} {die_text(values['training'])}/{die_text(values['equipment'])}/"
        f"{die_text(values['morale'])} Armor {values['armor']}"
    )


@dataclass(frozen=True)
class AttachedChange(Result):
    """An attached unit as it is after the change, its platoon, and (an edit) the changed fields' old values as
    shown. Its JSON is the unit's with ``platoon_id`` first (and ``old`` last, for an edit)."""

    platoon_id: int
    unit: AttachedUnitInfo
    old: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {"platoon_id": self.platoon_id, **self.unit.to_dict()}
        if self.old is not None:
            data["old"] = self.old
        return data


@dataclass(frozen=True)
class EquipmentChange(Result):
    """An equipment row as it is after the change, its platoon and attached unit (``None``: the platoon's own).
    Its JSON is the item's after ``platoon_id`` and ``attached_id``."""

    platoon_id: int
    attached_id: int | None
    item: EquipmentItem

    def to_dict(self) -> dict[str, Any]:
        return {"platoon_id": self.platoon_id, "attached_id": self.attached_id, **self.item.to_dict()}


@dataclass(frozen=True)
class Removed(Result):
    """A removed attached unit or equipment row of the platoon."""

    platoon_id: int
    id: int
    name: str


def add_attached(
    platoon: int,
    name: str,
    kind: str,
    *,
    training: int | None = None,
    equipment: int | None = None,
    morale: int | None = None,
    armor: int | None = None,
    support: str | None = None,
    notes: str = "",
) -> Edit[AttachedChange]:
    """Attach an on-board team or vehicle (own three dice and Armor) or off-board fire support."""
    name = check_name(name, "attached unit")
    resolve_platoon(platoon)  # an unknown platoon is named before the unit's values are checked
    values = _attached_values(kind, training, equipment, morale, armor, support)
    rec = Recorder()
    with rec.operation("attached.add") as op:
        p = resolve_platoon(platoon)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: attach {name}")
        if _attached_name_taken(p.id, name):
            raise ServiceError(f"platoon {p.name!r} already has an attached unit named {name!r}")
        last = (
            AttachedUnit.select(AttachedUnit.position)
            .where(AttachedUnit.platoon == p)
            .order_by(AttachedUnit.position.desc())
            .first()
        )
        a = rec.create(
            AttachedUnit,
            platoon=p.id,
            name=name,
            notes=check_notes(notes),
            position=(last.position + 1) if last else 0,
            **values,
        )
        log_change(rec, p, f"attached[{name}]", None, _describe_attached(values))
        info = attached_info(a)
    return Edit(
        "platoon",
        p.id,
        f"{p.name}: attached {name} ({KINDS[values['kind']]})",
        AttachedChange(platoon_id=p.id, unit=info),
        rec.changes,
    )


def edit_attached(
    unit: int | AttachedUnit,
    *,
    name: str | None = None,
    kind: str | None = None,
    training: int | None | Unset = UNSET,
    equipment: int | None | Unset = UNSET,
    morale: int | None | Unset = UNSET,
    armor: int | None | Unset = UNSET,
    support: str | None | Unset = UNSET,
    notes: str | None = None,
    reason: str = "",
) -> Edit[AttachedChange]:
    """Change an attached unit; the result must be a whole legal unit (a change of kind to fire support
    drops the dice and Armor; a change to team/vehicle needs them)."""
    rec = Recorder()
    with rec.operation("attached.edit") as op:
        a = _attached(unit)
        p = Platoon.get_by_id(a.platoon_id)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: edit {a.name}")
        new_kind = a.kind if kind is None else kind
        check_choice(new_kind, KINDS, "attached unit kind")
        if new_kind == UnitKind.FIRE_SUPPORT:
            if any(v is not UNSET and v is not None for v in (training, equipment, morale, armor)):
                raise ServiceError("off-board fire support has no attribute dice or Armor")
            values = _attached_values(new_kind, None, None, None, None, a.support if support is UNSET else support)
        else:
            values = _attached_values(
                new_kind,
                a.training if training is UNSET else training,
                a.equipment if equipment is UNSET else equipment,
                a.morale if morale is UNSET else morale,
                a.armor if armor is UNSET else armor,
                None if support is UNSET else support,
            )
        label = a.name
        if name is not None:
            values["name"] = check_name(name, "attached unit")
            if _attached_name_taken(p.id, values["name"], exclude_id=a.id):
                raise ServiceError(f"platoon {p.name!r} already has an attached unit named {values['name']!r}")
        if notes is not None:
            values["notes"] = check_notes(notes)
        changed = rec.update(a, **values)
        for field, (old, new) in changed.items():
            log_change(rec, p, f"attached[{label}].{field}", shown_value(field, old), shown_value(field, new), reason)
        info = attached_info(a)
    text = ", ".join(
        f"{f} {shown_value(f, o)} \u2192 {shown_value(f, n)}" for f, (o, n) in changed.items() if f != "notes"
    )
    if "notes" in changed:
        text = f"{text}, notes" if text else "notes"
    return Edit(
        "platoon",
        p.id,
        f"{p.name}: {label}: {text or 'nothing changed'}",
        AttachedChange(platoon_id=p.id, unit=info, old={f: shown_value(f, v[0]) for f, v in changed.items()}),
        rec.changes,
    )


def remove_attached(unit: int | AttachedUnit, reason: str = "") -> Edit[Removed]:
    rec = Recorder()
    with rec.operation("attached.remove") as op:
        a = _attached(unit)
        p = Platoon.get_by_id(a.platoon_id)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: remove {a.name}")
        stored = _UnitValues(
            kind=a.kind, training=a.training, equipment=a.equipment, morale=a.morale, armor=a.armor, support=a.support
        )
        log_change(rec, p, f"attached[{a.name}]", _describe_attached(stored), None, reason)
        rec.delete(AttachedUnit, a.id)
    return Edit(
        "platoon", p.id, f"{p.name}: removed {a.name}", Removed(platoon_id=p.id, id=a.id, name=a.name), rec.changes
    )


def _equipment_values(targets: str, ap: int | None, ap_vs: str | None, name: str) -> _EquipmentChange:
    check_choice(targets, TARGETS, "targets")
    ap_value = _check_ap(ap)
    if ap_value is None:
        if ap_vs not in (None, ""):
            raise ServiceError(f"{name}: an AP target type needs an AP value")
        return _EquipmentChange(targets=targets, ap=None, ap_vs=None)
    vs = targets if ap_vs in (None, "") else check_choice(ap_vs, TARGETS, "AP applies to")
    if targets != "both" and vs != targets:
        raise ServiceError(f"{name} targets only {targets} targets, so its AP cannot apply to {vs} targets")
    return _EquipmentChange(targets=targets, ap=ap_value, ap_vs=vs)


def _describe_equipment(name: str, v: _EquipmentValues) -> str:
    text = f"{name} (targets {v['targets']}"
    if v["ap"] is not None:
        text += f", AP {v['ap']} vs {v['ap_vs']}"
    return text + ")"


def add_equipment(
    platoon: int,
    name: str,
    *,
    attached: int | None = None,
    targets: str = "both",
    ap: int | None = None,
    ap_vs: str | None = None,
    notes: str = "",
) -> Edit[EquipmentChange]:
    """A heavy weapon / special equipment row for the platoon or (``attached``) one of its attached units."""
    name = check_name(name, "equipment")
    values = _equipment_values(targets, ap, ap_vs, name)
    rec = Recorder()
    with rec.operation("equipment.add") as op:
        p = resolve_platoon(platoon)
        unit = _attached(attached) if attached is not None else None
        if unit is not None and unit.platoon_id != p.id:
            raise NotFound(f"platoon {p.name!r} has no attached unit with id {attached}")
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: add {name}" + (f" to {unit.name}" if unit else ""))
        owner = (Equipment.attached == unit) if unit else (Equipment.platoon == p)
        last = Equipment.select(Equipment.position).where(owner).order_by(Equipment.position.desc()).first()
        e = rec.create(
            Equipment,
            platoon=None if unit else p.id,
            attached=unit.id if unit else None,
            name=name,
            notes=check_notes(notes),
            position=(last.position + 1) if last else 0,
            **values,
        )
        where = f"attached[{unit.name}]." if unit else ""
        log_change(rec, p, f"{where}equipment[{name}]", None, _describe_equipment(name, values))
        item = equipment_item(e)
    return Edit(
        "platoon",
        p.id,
        f"{p.name}: added {name}" + (f" to {unit.name}" if unit else ""),
        EquipmentChange(platoon_id=p.id, attached_id=unit.id if unit else None, item=item),
        rec.changes,
    )


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


def edit_equipment(
    item: int | Equipment,
    *,
    name: str | None = None,
    targets: str | None = None,
    ap: int | None | Unset = UNSET,
    ap_vs: str | None | Unset = UNSET,
    notes: str | None = None,
    reason: str = "",
) -> Edit[EquipmentChange]:
    rec = Recorder()
    with rec.operation("equipment.edit") as op:
        e = _equipment(item)
        p, unit = _equipment_owner(e)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: edit {e.name}" + (f" of {unit.name}" if unit else ""))
        new_name = e.name if name is None else check_name(name, "equipment")
        new_ap = e.ap if ap is UNSET else ap
        new_vs = (e.ap_vs if ap is UNSET else None) if ap_vs is UNSET else ap_vs
        values = _equipment_values(e.targets if targets is None else targets, new_ap, new_vs, new_name)
        values["name"] = new_name
        if notes is not None:
            values["notes"] = check_notes(notes)
        label = e.name
        changed = rec.update(e, **values)
        where = f"attached[{unit.name}]." if unit else ""
        for field, (old, new) in changed.items():
            log_change(rec, p, f"{where}equipment[{label}].{field}", old, new, reason)
        changed_item = equipment_item(e)
    text = ", ".join(f"{f} {o} \u2192 {n}" for f, (o, n) in changed.items()) or "nothing changed"
    return Edit(
        "platoon",
        p.id,
        f"{p.name}: {label}: {text}",
        EquipmentChange(platoon_id=p.id, attached_id=unit.id if unit else None, item=changed_item),
        rec.changes,
    )


def remove_equipment(item: int | Equipment, reason: str = "") -> Edit[Removed]:
    rec = Recorder()
    with rec.operation("equipment.remove") as op:
        e = _equipment(item)
        p, unit = _equipment_owner(e)
        op.target(campaign=p.campaign_id, platoon=p.id)
        rec.label(f"{p.name}: remove {e.name}" + (f" from {unit.name}" if unit else ""))
        where = f"attached[{unit.name}]." if unit else ""
        log_change(
            rec,
            p,
            f"{where}equipment[{e.name}]",
            _describe_equipment(e.name, _EquipmentValues(targets=e.targets, ap=e.ap, ap_vs=e.ap_vs)),
            None,
            reason,
        )
        rec.delete(Equipment, e.id)
    return Edit(
        "platoon",
        p.id,
        f"{p.name}: removed {e.name}" + (f" from {unit.name}" if unit else ""),
        Removed(platoon_id=p.id, id=e.id, name=e.name),
        rec.changes,
    )
