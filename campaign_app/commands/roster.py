"""``campaign-cli campaign | platoon | leader | attached | equipment ...``: the roster (RULES.md 1.1, 1.3).

Values are checked by the services (a d7, Armor 6, XP 33, an unknown platoon, a duplicate name): one line
on stderr, exit status 2, nothing written.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..lazyimport import lazy_module
from ..rules.dice import DiceError, parse_die
from ..rules.enums import UnitKind
from ..rules.experience import XP_MAX, RulesError, Thresholds
from ..words import plural
from . import club, lookup, overview
from .base import CliError, Context, add_dice_options, add_json, dice_source, emit, whole_arg

if TYPE_CHECKING:
    from ..services.campaigns import CampaignDetail, ListedCampaign
    from ..services.common import RollResult
    from ..services.edits import Edit
    from ..services.platoons import AttachedUnitInfo, EquipmentItem, PlatoonDetail, PlatoonRow

# The services are typed for mypy and imported on first use at run time, so that building the parser does not
# load the database code.
if TYPE_CHECKING:
    from ..services import attachments as attachment_service
    from ..services import campaigns as campaign_service
    from ..services import leaders as leader_service
    from ..services import platoons as platoon_service
else:
    campaign_service = lazy_module("campaign_app.services.campaigns")
    platoon_service = lazy_module("campaign_app.services.platoons")
    leader_service = lazy_module("campaign_app.services.leaders")
    attachment_service = lazy_module("campaign_app.services.attachments")

KIND_ALIASES: dict[str, UnitKind] = {
    **{k.value: k for k in UnitKind},
    "fire-support": UnitKind.FIRE_SUPPORT,
    "support": UnitKind.FIRE_SUPPORT,
}


def _kind(text: str) -> UnitKind:
    kind = KIND_ALIASES.get(text.strip().lower())
    if kind is None:
        raise CliError(f"attached unit kind must be team, vehicle or fire-support, not {text!r}")
    return kind


def _emit_edit(args: argparse.Namespace, edit: Edit[Any], data: Any = None) -> int:
    return emit(args, edit.to_dict() if data is None else data, edit.message)


def die_arg(text: str | None, what: str) -> int | None:
    """``--training d8`` (or ``8``): the die's sides, which the services take."""
    if text is None:
        return None
    try:
        return parse_die(text)
    except DiceError as exc:
        raise CliError(f"{what}: {exc}") from None


def _dice_values(args: argparse.Namespace) -> dict[str, int | None]:
    return {a: die_arg(getattr(args, a), a.capitalize()) for a in ("training", "equipment", "morale")}


def armor_arg(text: str | None, what: str = "Armor") -> int | None:
    """``--armor N``: the digits read as a number (the range is the service's to check)."""
    number = _whole(text)
    if text is not None and number is None:
        raise CliError(f"{what} must be 1 to 5, not {text!r}")
    return number


def xp_arg(text: str | None, what: str) -> int | None:
    """``--xp N``/``--leader-xp N``: the digits read as a number (the range is the service's to check)."""
    number = _whole(text)
    if text is not None and number is None:
        raise CliError(f"{what} must be a whole number from 0 to {XP_MAX}, not {text!r}")
    return number


def ap_arg(text: str | None) -> int | None:
    """``--ap N``: -2, +1 or \u22122 (a typographic minus), read as a number (the range is the service's to check);
    empty: none."""
    if text is None or not text.strip():
        return None
    raw = text.strip().replace("\u2212", "-")
    if not raw.lstrip("+-").isdigit() or len(raw) > 6:
        raise CliError(f"AP value must be a whole number like -2, not {text!r}")
    return int(raw)


def period_arg(text: str) -> int | None:
    """``--period N|none``: a campaign period (the range is the service's to check), or None to clear it."""
    word = text.strip().lower()
    if word in ("", "none", "-"):
        return None
    if not word.isdigit() or len(word) > 6:
        raise CliError(f"campaign period must be 1 to 5 (or none), not {text!r}")
    return int(word)


def thresholds_arg(text: str | None) -> Thresholds | None:
    """``--thresholds G,R,V,L``: the four XP thresholds."""
    if text is None:
        return None
    try:
        return Thresholds.parse(text)
    except RulesError as exc:
        raise CliError(f"XP thresholds: {exc}") from None


def _required_armor(text: str) -> int:
    armor = armor_arg(text)
    assert armor is not None  # argparse requires the option
    return armor


def _whole(text: str | None) -> int | None:
    """A whole number typed on the command line (a minus sign allowed), or None for anything else."""
    if text is None:
        return None
    raw = text.strip()
    if not raw.removeprefix("-").isdigit():
        return None
    return int(raw)


def _required_die(text: str, what: str) -> int:
    sides = die_arg(text, what)
    assert sides is not None  # argparse requires the option
    return sides


def _roll_line(roll: RollResult | None) -> str:
    """The text line for a stored roll (force generation, the replacement roll), or nothing."""
    if roll is None:
        return ""
    return f"\n  roll {roll.expression} {list(roll.faces)} ({roll.source}): {roll.outcome}"


# --- text renderings --------------------------------------------------------------------------------------


def _campaign_text(c: CampaignDetail) -> str:
    from ..services.campaigns import AtomicAfricaCampaignDetail, DeathBlowCampaign

    lines = [f"{c.name}  ({c.system_label}{', archived' if c.archived else ''})"]
    for rule in () if isinstance(c, DeathBlowCampaign) else c.house_rules:  # Atomic Africa's house rules
        default = (
            ""
            if rule.is_default
            else "  (changed; default "
            + (
                rule.default_text
                if rule.default_text is not None
                else "not set"
                if rule.default is None
                else ",".join(map(str, rule.default))
                if isinstance(rule.default, tuple)
                else str(rule.default)
            )
            + ")"
        )
        lines.append(f"  {rule.label}: {rule.text}{default}")
    if c.notes:
        lines.append(f"  Notes: {c.notes}")
    if isinstance(c, AtomicAfricaCampaignDetail):
        lines.append(f"  Platoons ({len(c.platoons)}):")
        lines.extend("    " + _platoon_line(p) for p in c.platoons)
    elif isinstance(c, DeathBlowCampaign):
        lines.append(f"  Fighters: {c.fighter_count} (campaign-cli fighter list --campaign NAME)")
    else:
        lines.append(f"  Sologear sheets: {c.sheet_count}")
    return "\n".join(lines)


def _platoon_line(p: PlatoonRow) -> str:
    leader = f"{p.leader} ({p.leader_xp} XP, {p.leader_level})" if p.leader else "no leader"
    return (
        f"{p.name}: {p.training}/{p.equipment}/{p.morale} Armor {p.armor}, {p.xp} XP "
        f"{p.level}, {p.cards} cards; {leader}"
    )


def _attached_text(a: AttachedUnitInfo) -> str:
    if a.kind == UnitKind.FIRE_SUPPORT:
        head = f"{a.name}: {a.support} off-board fire support"
    else:
        head = f"{a.name}: {a.kind} T {a.training} E {a.equipment} M {a.morale} Armor {a.armor}"
    return head


def _equipment_text(e: EquipmentItem) -> str:
    ap = f", AP {e.ap} vs {e.ap_vs}" if e.ap is not None else ""
    return f"{e.name} (targets {e.targets}{ap})"


def platoon_text(d: PlatoonDetail) -> str:
    w = d.words
    lines = [
        f"{d.name}  (campaign {d.campaign})",
        f"  Training {d.training} ({w.training})  Equipment {d.equipment} ({w.equipment})  "
        f"Morale {d.morale} ({w.morale})",
        f"  Armor {d.armor} ({d.armor_class})",
        f"  XP {d.xp}/32: {d.level}; orders cards per turn: {d.cards}"
        + (f" ({d.cards_with_fire_support} with fire support)" if d.cards_with_fire_support else ""),
    ]
    ld = d.leader
    lines.append(f"  Leader: {ld.name} ({ld.rank}), {ld.xp} XP ({ld.level})" if ld else "  Leader: none")
    for f in d.former_leaders:
        when = f"battle {f.left_battle}" if f.left_battle else (f.left_at or "")
        lines.append(f"    former: {f.name} ({f.rank}), {f.xp} XP, {f.how} {when}".rstrip())
    if d.attached:
        lines.append("  Attached:")
        for a in d.attached:
            lines.append("    " + _attached_text(a))
            lines.extend("      - " + _equipment_text(e) for e in a.equipment_list)
    if d.equipment_list:
        lines.append("  Heavy weapons / equipment:")
        lines.extend("    - " + _equipment_text(e) for e in d.equipment_list)
    if d.notes:
        lines.append(f"  Notes: {d.notes}")
    return "\n".join(lines)


# --- campaign ---------------------------------------------------------------------------------------------


def _campaign_new(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = campaign_service.create_campaign(
        args.name,
        args.system,
        period=period_arg(args.period) if args.period is not None else None,
        thresholds=thresholds_arg(args.thresholds),
        objective_xp_to=args.objective_xp or "both",
        notes=args.notes or "",
        replacement_dice=whole_arg(args.replacement_dice or "2", "--replacement-dice") or 0,
    )
    return _emit_edit(args, edit)


def _campaign_list(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db(reading=True)
    from ..services.campaigns import AtomicAfricaCampaign, DeathBlowCampaign

    rows: list[ListedCampaign] = campaign_service.list_campaigns(include_archived=not args.active)

    def text() -> str:
        if not rows:
            return "no campaigns yet (campaign-cli campaign new --name ...)"
        out = []
        for c in rows:
            count = (
                plural(c.platoon_count, "platoon")
                if isinstance(c, AtomicAfricaCampaign)
                else plural(c.fighter_count, "fighter")
                if isinstance(c, DeathBlowCampaign)
                else plural(c.sheet_count, "sheet")
            )
            out.append(f"{c.name}  [{c.system_label}{', archived' if c.archived else ''}]  {count}")
        return "\n".join(out)

    return emit(args, [c.to_dict() for c in rows], text)


def _campaign_show(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db(reading=True)
    data: CampaignDetail = campaign_service.show_campaign(lookup.campaign_id(args.campaign))
    return emit(args, data.to_dict(), lambda: _campaign_text(data))


def _campaign_rename(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    return _emit_edit(args, campaign_service.rename_campaign(lookup.campaign_id(args.campaign), args.new_name))


def _campaign_set(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    kwargs: dict[str, Any] = {}
    if args.period is not None:
        kwargs["period"] = period_arg(args.period)
    if (
        not kwargs
        and args.thresholds is None
        and args.objective_xp is None
        and args.notes is None
        and args.replacement_dice is None
    ):
        raise CliError("nothing to change: give --period, --thresholds, --objective-xp, --replacement-dice or --notes")
    edit = campaign_service.set_campaign(
        lookup.campaign_id(args.campaign),
        thresholds=thresholds_arg(args.thresholds),
        objective_xp_to=args.objective_xp,
        notes=args.notes,
        replacement_dice=whole_arg(args.replacement_dice, "--replacement-dice"),
        **kwargs,
    )
    return _emit_edit(args, edit)


def _campaign_archive(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    return _emit_edit(
        args, campaign_service.archive_campaign(lookup.campaign_id(args.campaign), archived=not args.unarchive)
    )


def _campaign_unarchive(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    return _emit_edit(args, campaign_service.unarchive_campaign(lookup.campaign_id(args.campaign)))


def _campaign_delete(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    return _emit_edit(args, campaign_service.delete_campaign(lookup.campaign_id(args.campaign), forget=args.forget))


# --- platoon ----------------------------------------------------------------------------------------------


def _platoon_new(args: argparse.Namespace, ctx: Context) -> int:
    uses_dice = bool(getattr(args, "dice", None)) or getattr(args, "seed", None) is not None
    if uses_dice and not args.generate:
        raise CliError("--seed and --dice are for force generation: add --generate")
    if args.generate and (args.xp is not None or args.leader_xp is not None):
        raise CliError("--generate rolls the platoon's and the leader's XP: leave out --xp and --leader-xp")
    ctx.open_db()
    edit = platoon_service.create_platoon(
        lookup.campaign_id(args.campaign),
        args.name,
        training=_required_die(args.training, "Training"),
        equipment=_required_die(args.equipment, "Equipment"),
        morale=_required_die(args.morale, "Morale"),
        armor=_required_armor(args.armor),
        xp=xp_arg(args.xp, "platoon XP"),
        leader_name=args.leader,
        leader_rank=args.leader_rank,
        leader_xp=xp_arg(args.leader_xp, "leader XP"),
        notes=args.notes or "",
        dice=dice_source(args) if args.generate else None,
    )

    def text() -> str:
        return edit.message + _roll_line(edit.result.roll) + "\n" + platoon_text(edit.result.platoon)

    return emit(args, edit.to_dict(), text)


def _pid(args: argparse.Namespace) -> int:
    """``--platoon NAME [--campaign NAME]``: the platoon's id."""
    return lookup.platoon_id(args.platoon, args.campaign)


def _platoon_set(args: argparse.Namespace, ctx: Context) -> int:
    values: dict[str, Any] = {k: getattr(args, k) for k in ("training", "equipment", "morale", "notes")}
    values.update(
        armor=armor_arg(args.armor), xp=xp_arg(args.xp, "platoon XP"), leader_xp=xp_arg(args.leader_xp, "leader XP")
    )
    if all(v is None for v in values.values()):
        raise CliError(
            "nothing to change: give --training, --equipment, --morale, --armor, --notes, --xp or --leader-xp"
        )
    values.update(_dice_values(args))
    ctx.open_db()
    edit = platoon_service.update_platoon(_pid(args), reason=args.reason or "", **values)
    return emit(args, edit.to_dict(), edit.message)


def _platoon_list(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db(reading=True)
    rows: list[PlatoonRow] = platoon_service.list_platoons(lookup.optional_campaign_id(args.campaign))

    def text() -> str:
        if not rows:
            return "no platoons"
        return "\n".join(f"{r.campaign}: " + _platoon_line(r) for r in rows)

    return emit(args, [r.to_dict() for r in rows], text)


def _platoon_show(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db(reading=True)
    data: PlatoonDetail = platoon_service.platoon_detail(_pid(args))
    return emit(args, data.to_dict(), lambda: platoon_text(data))


def _platoon_rename(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    return _emit_edit(
        args,
        platoon_service.rename_platoon(_pid(args), args.new_name, reason=args.reason or ""),
    )


def _platoon_delete(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    return _emit_edit(args, platoon_service.delete_platoon(_pid(args)))


# --- leader -----------------------------------------------------------------------------------------------


def _leader_replace(args: argparse.Namespace, ctx: Context) -> int:
    uses_dice = bool(getattr(args, "dice", None)) or getattr(args, "seed", None) is not None
    if uses_dice and not args.roll:
        raise CliError("--seed and --dice are for the replacement roll: add --roll")
    if args.roll and args.xp is not None:
        raise CliError("give either --xp or --roll, not both")
    if not args.roll and args.xp is None:
        raise CliError("give the new leader's XP (--xp N) or roll for it (--roll)")
    ctx.open_db()
    edit = leader_service.replace_leader(
        _pid(args),
        args.name,
        rank=args.rank,
        xp=xp_arg(args.xp, "leader XP"),
        dice=dice_source(args) if args.roll else None,
        how=args.how,
        notes=args.notes or "",
    )
    return emit(args, edit.to_dict(), lambda: edit.message + _roll_line(edit.result.roll))


def _leader_set(args: argparse.Namespace, ctx: Context) -> int:
    if args.name is None and args.rank is None and args.notes is None:
        raise CliError("nothing to change: give --name, --rank or --notes")
    ctx.open_db()
    return _emit_edit(
        args,
        leader_service.set_leader(_pid(args), name=args.name, rank=args.rank, notes=args.notes),
    )


# --- attached units ---------------------------------------------------------------------------------------


def _attached_add(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = attachment_service.add_attached(
        _pid(args),
        args.name,
        _kind(args.kind),
        **_dice_values(args),
        armor=armor_arg(args.armor),
        support=args.support,
        notes=args.notes or "",
    )
    return _emit_edit(args, edit)


def _attached_edit(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    pid = _pid(args)
    unit = lookup.attached_id(pid, args.unit)
    kwargs: dict[str, Any] = {"support": args.support} if args.support is not None else {}
    if args.armor is not None:
        kwargs["armor"] = armor_arg(args.armor)
    kwargs.update({k: v for k, v in _dice_values(args).items() if v is not None})
    if args.kind is not None:
        kwargs["kind"] = _kind(args.kind)
    if args.new_name is not None:
        kwargs["name"] = args.new_name
    if args.notes is not None:
        kwargs["notes"] = args.notes
    if not kwargs:
        raise CliError(
            "nothing to change: give --name, --kind, --training, --equipment, --morale, --armor, --support or --notes"
        )
    return _emit_edit(args, attachment_service.edit_attached(unit, reason=args.reason or "", **kwargs))


def _attached_remove(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    pid = _pid(args)
    unit = lookup.attached_id(pid, args.unit)
    return _emit_edit(args, attachment_service.remove_attached(unit, reason=args.reason or ""))


# --- equipment --------------------------------------------------------------------------------------------


def _equipment_add(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    pid = _pid(args)
    edit = attachment_service.add_equipment(
        pid,
        args.name,
        attached=lookup.attached_id(pid, args.attached) if args.attached is not None else None,
        targets=args.targets,
        ap=ap_arg(args.ap),
        ap_vs=args.ap_vs,
        notes=args.notes or "",
    )
    return _emit_edit(args, edit)


def _equipment_edit(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    pid = _pid(args)
    item = lookup.equipment_id(pid, args.item, args.attached)
    kwargs: dict[str, Any] = {}
    if args.new_name is not None:
        kwargs["name"] = args.new_name
    if args.targets is not None:
        kwargs["targets"] = args.targets
    if args.no_ap:
        kwargs["ap"] = None
    elif args.ap is not None:
        kwargs["ap"] = ap_arg(args.ap)
    if args.ap_vs is not None:
        kwargs["ap_vs"] = args.ap_vs
    if args.notes is not None:
        kwargs["notes"] = args.notes
    if not kwargs:
        raise CliError("nothing to change: give --name, --targets, --ap, --no-ap, --ap-vs or --notes")
    return _emit_edit(args, attachment_service.edit_equipment(item, **kwargs))


def _equipment_remove(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    pid = _pid(args)
    item = lookup.equipment_id(pid, args.item, args.attached)
    return _emit_edit(args, attachment_service.remove_equipment(item))


# --- the parser -------------------------------------------------------------------------------------------


def _sub(
    group: Any, name: str, parent: argparse.ArgumentParser, help_text: str, handler: Any, json_out: bool = True
) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = group.add_parser(name, parents=[parent], help=help_text, description=help_text)
    if json_out:
        add_json(p)
    p.set_defaults(handler=handler)
    return p


def _platoon_ref(p: argparse.ArgumentParser) -> None:
    p.add_argument("platoon", metavar="PLATOON", help="platoon name (or id)")
    p.add_argument("--campaign", metavar="NAME", help="the platoon's campaign (when two share the name)")


def _dice_args(p: argparse.ArgumentParser, required: bool = False) -> None:
    for attr in ("training", "equipment", "morale"):
        p.add_argument(f"--{attr}", required=required, metavar="DIE", help=f"{attr} die: d4, d6, d8, d10 or d12")
    p.add_argument(
        "--armor", required=required, metavar="N", help="Armor 1-5 (1 light, 2 medium, 3 heavy infantry; 4-5 vehicles)"
    )


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    # campaign
    cp = subparsers.add_parser(
        "campaign",
        parents=[parent],
        help="create, list, show, rename, archive, delete campaigns",
        description="Campaigns and their house rules.",
    )
    cs = cp.add_subparsers(dest="campaign_command", metavar="ACTION")
    cs.required = True
    p = _sub(cs, "new", parent, "create a campaign", _campaign_new)
    p.add_argument("--name", required=True)
    p.add_argument("--system", default="atomic-africa", help="atomic-africa (default), sologear or death-blow")
    p.add_argument("--period", metavar="1..5", help="campaign period (replacement and force generation die)")
    p.add_argument("--thresholds", metavar="G,R,V,L", help="XP thresholds (default 1,4,9,16)")
    p.add_argument(
        "--objective-xp",
        metavar="both|platoon",
        help="objective XP goes to the platoon and leader (both, default) or the platoon only",
    )
    p.add_argument(
        "--replacement-dice",
        metavar="2|1",
        help="replacement leader's XP: the lower of 2 dice − 1 (default) or 1 die − 1 (house rule)",
    )
    p.add_argument("--notes")
    p = _sub(cs, "list", parent, "list campaigns", _campaign_list)
    p.add_argument("--active", action="store_true", help="leave out archived campaigns")
    p = _sub(cs, "show", parent, "show a campaign's settings and platoons", _campaign_show)
    p.add_argument("campaign", metavar="NAME")
    p = _sub(cs, "rename", parent, "rename a campaign", _campaign_rename)
    p.add_argument("campaign", metavar="NAME")
    p.add_argument("new_name", metavar="NEW_NAME")
    p = _sub(cs, "set", parent, "change a campaign's house rules or notes", _campaign_set)
    p.add_argument("campaign", metavar="NAME")
    p.add_argument("--period", metavar="1..5|none")
    p.add_argument("--thresholds", metavar="G,R,V,L")
    p.add_argument("--objective-xp", metavar="both|platoon")
    p.add_argument(
        "--replacement-dice",
        metavar="2|1",
        help="replacement leader's XP: the lower of 2 dice − 1 (the rule) or 1 die − 1 (house rule)",
    )
    p.add_argument("--notes")
    p = _sub(cs, "archive", parent, "archive a campaign (hidden from the navigator)", _campaign_archive)
    p.add_argument("campaign", metavar="NAME")
    p.add_argument("--unarchive", action="store_true", help="bring an archived campaign back")
    p = _sub(cs, "unarchive", parent, "bring an archived campaign back", _campaign_unarchive)
    p.add_argument("campaign", metavar="NAME")
    p = _sub(cs, "delete", parent, "delete a campaign with all its platoons and history", _campaign_delete)
    p.add_argument("campaign", metavar="NAME")
    p.add_argument(
        "--forget",
        action="store_true",
        help="also remove the campaign from the journal (its text is overwritten on disk); the deletion "
        "then cannot be undone, only the backup made first brings it back",
    )
    club.register_campaign_actions(cs, parent)  # club play: add-player, remove-player, players
    overview.register_campaign_actions(cs, parent)  # standings

    # platoon
    pp = subparsers.add_parser(
        "platoon", parents=[parent], help="create, change, list, show platoons", description="Atomic Africa platoons."
    )
    ps = pp.add_subparsers(dest="platoon_command", metavar="ACTION")
    ps.required = True
    p = _sub(ps, "new", parent, "create a platoon by hand or with force generation (--generate)", _platoon_new)
    p.add_argument("--campaign", required=True, metavar="NAME")
    p.add_argument("--name", required=True)
    _dice_args(p, required=True)
    p.add_argument("--xp", metavar="N", help="platoon XP 0-32 (default 0)")
    p.add_argument("--leader", metavar="NAME", help="the leader's name")
    p.add_argument("--leader-rank", metavar="RANK", help="the leader's rank (default Lieutenant)")
    p.add_argument("--leader-xp", metavar="N", help="leader XP 0-32 (default 0)")
    p.add_argument("--notes")
    p.add_argument(
        "--generate",
        action="store_true",
        help="force generation: roll two dice of the period's type for the leader's and the platoon's XP (RULES 1.3)",
    )
    add_dice_options(p)
    p = _sub(ps, "set", parent, "change a platoon's dice, Armor, notes or XP", _platoon_set)
    _platoon_ref(p)
    _dice_args(p)
    p.add_argument("--notes")
    p.add_argument("--xp", metavar="N", help="set the platoon's XP (logged with --reason)")
    p.add_argument("--leader-xp", metavar="N", help="set the current leader's XP (logged with --reason)")
    p.add_argument("--reason", help="why (kept with each change)")
    p = _sub(ps, "list", parent, "list platoons", _platoon_list)
    p.add_argument("--campaign", metavar="NAME")
    p = _sub(ps, "show", parent, "show a platoon (--json: the data the sheet prints)", _platoon_show)
    _platoon_ref(p)
    p = _sub(ps, "rename", parent, "rename a platoon", _platoon_rename)
    _platoon_ref(p)
    p.add_argument("new_name", metavar="NEW_NAME")
    p.add_argument("--reason")
    p = _sub(ps, "delete", parent, "delete a platoon with its history", _platoon_delete)
    _platoon_ref(p)

    club.register_platoon_actions(ps, parent)  # club play: set-owner

    # leader
    lp = subparsers.add_parser(
        "leader", parents=[parent], help="replace or edit a platoon's leader", description="The platoon's leader."
    )
    ls = lp.add_subparsers(dest="leader_command", metavar="ACTION")
    ls.required = True
    p = _sub(
        ls,
        "replace",
        parent,
        "a new leader takes over (XP given or rolled: one die of the period's type minus one)",
        _leader_replace,
    )
    _platoon_ref(p)
    p.add_argument("--name", required=True)
    p.add_argument("--rank", help="rank (default Lieutenant)")
    p.add_argument("--xp", metavar="N")
    p.add_argument("--roll", action="store_true", help="roll the replacement leader's XP (RULES 1.2 step 4)")
    p.add_argument(
        "--how",
        metavar="casualty|promoted|replaced",
        default="replaced",
        help="how the old leader left (default: replaced)",
    )
    p.add_argument("--notes")
    add_dice_options(p)
    p = _sub(ls, "set", parent, "change the current leader's name, rank or notes", _leader_set)
    _platoon_ref(p)
    p.add_argument("--name")
    p.add_argument("--rank")
    p.add_argument("--notes")

    # attached units
    ap = subparsers.add_parser(
        "attached",
        parents=[parent],
        help="attached teams, vehicles, fire support",
        description="Attached units (no XP of their own).",
    )
    asub = ap.add_subparsers(dest="attached_command", metavar="ACTION")
    asub.required = True
    p = _sub(asub, "add", parent, "attach a team, vehicle or off-board fire support", _attached_add)
    _platoon_ref(p)
    p.add_argument("--name", required=True)
    p.add_argument("--kind", required=True, help="team, vehicle or fire-support")
    _dice_args(p)
    p.add_argument("--support", metavar="light|medium|heavy", help="fire support level")
    p.add_argument("--notes")
    p = _sub(asub, "edit", parent, "change an attached unit", _attached_edit)
    _platoon_ref(p)
    p.add_argument("unit", metavar="UNIT")
    p.add_argument("--name", dest="new_name")
    p.add_argument("--kind")
    _dice_args(p)
    p.add_argument("--support", metavar="light|medium|heavy")
    p.add_argument("--notes")
    p.add_argument("--reason")
    p = _sub(asub, "remove", parent, "remove an attached unit (with its equipment)", _attached_remove)
    _platoon_ref(p)
    p.add_argument("unit", metavar="UNIT")
    p.add_argument("--reason")

    # equipment
    ep = subparsers.add_parser(
        "equipment",
        parents=[parent],
        help="heavy weapons / special equipment",
        description="Heavy weapons and special equipment of a platoon or of one of its attached units.",
    )
    es = ep.add_subparsers(dest="equipment_command", metavar="ACTION")
    es.required = True
    p = _sub(es, "add", parent, "add a heavy weapon or special equipment", _equipment_add)
    _platoon_ref(p)
    p.add_argument("--name", required=True)
    p.add_argument("--attached", metavar="UNIT", help="give it to this attached unit instead of the platoon")
    p.add_argument("--targets", default="both", metavar="dispersed|point|both", help="eligible targets (default both)")
    p.add_argument("--ap", metavar="N", help="AP value, e.g. -2")
    p.add_argument("--ap-vs", metavar="dispersed|point|both", help="target type the AP applies to")
    p.add_argument("--notes")
    p = _sub(es, "edit", parent, "change a heavy weapon or special equipment", _equipment_edit)
    _platoon_ref(p)
    p.add_argument("item", metavar="NAME")
    p.add_argument("--attached", metavar="UNIT")
    p.add_argument("--name", dest="new_name")
    p.add_argument("--targets", metavar="dispersed|point|both")
    p.add_argument("--ap", metavar="N")
    p.add_argument("--no-ap", action="store_true", help="remove the AP value")
    p.add_argument("--ap-vs", metavar="dispersed|point|both")
    p.add_argument("--notes")
    p = _sub(es, "remove", parent, "remove a heavy weapon or special equipment", _equipment_remove)
    _platoon_ref(p)
    p.add_argument("item", metavar="NAME")
    p.add_argument("--attached", metavar="UNIT")
