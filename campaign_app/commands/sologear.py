"""``campaign-cli sologear ...``: a lone Gear pilot's campaign (RULES.md §2).

Every value is checked by the rules/services (a posture of 3, an unknown skill word, REP while the Gear is
undamaged, a turn after the end, dice that do not fit): one line on stderr, exit status 2, nothing written.
``--dice`` takes one argument per roll in the order the rules ask for them (see ``turn --help``).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..lazyimport import lazy_module
from ..rules.enums import TurnAction
from ..rules.sologear.combat import (
    COMBAT_TABLE,
    combat_cell,
    combat_row,
    describe_cell,
    enemy_column_label,
    enemy_quality,
    enemy_row,
    gear_tv_column,
)
from ..rules.sologear.forces import BAND_NAMES, MAX_TOTAL, band_name, odds
from ..rules.sologear.reckoning import DEFAULT_REWARD_DICE, ScoreItem, is_noticed, lookup_result, noticed_label
from ..rules.sologear.table_text import card_tables
from . import club, lookup
from .base import CliError, Context, add_dice_options, add_json, dice_source, emit, number_arg, whole_arg

if TYPE_CHECKING:
    from ..services.edits import Edit
    from ..services.sologear_results import PlayedTurn, ReckoningDone, SheetData

TURN_DICE_HELP = (
    "--dice: one argument per roll, in this order: FIG: the combat 2d6 (e.g. 6,5), then the "
    "Glory dice if the result has nD6G, the enemy-quality d6 for * or **, the light-critical d6 "
    "for #, the battle length 4d6 and the entry-edge d4. REP: one d6. DEC: none."
)
END_DICE_HELP = "--dice: the D66 as two d6 (tens,units, e.g. 1,4), then the reward/punishment roll if noticed."


# typed for mypy, imported on first use at run time (building the parser does not load the database code)
if TYPE_CHECKING:
    from ..services import sologear_play as play_service
    from ..services import sologear_sheet as sheet_service
else:
    sheet_service = lazy_module("campaign_app.services.sologear_sheet")
    play_service = lazy_module("campaign_app.services.sologear_play")


def _required(value: int | None) -> int:
    assert value is not None  # argparse requires the option or gives its default
    return value


def action_arg(text: str) -> TurnAction:
    """``--action``: dec, rep or fig, in any case."""
    key = text.strip().lower()
    if key not in {a.value for a in TurnAction}:
        raise CliError(f"unknown action {text!r} (expected dec, rep or fig)")
    return TurnAction(key)


def posture_arg(text: str | None) -> int | None:
    """``--posture``: a whole number such as -1, 0 or +2 (the range is the service's to check); empty or not
    given: none."""
    if text is None or not text.strip():
        return None
    raw = text.strip().removeprefix("+")
    if not raw.removeprefix("-").isdigit() or len(raw) > 3:
        raise CliError(f"posture must be a whole number from -2 to 2, not {text!r}")
    return int(raw)


def _flag(value: str | None, what: str) -> bool | None:
    if value is None:
        return None
    key = value.strip().lower()
    if key in ("on", "yes", "true", "1"):
        return True
    if key in ("off", "no", "false", "0"):
        return False
    raise CliError(f"{what} must be on or off, not {value!r}")


def _emit_edit(args: argparse.Namespace, edit: Edit[Any], text: str | None = None) -> int:
    return emit(args, edit.to_dict(), text if text is not None else edit.message)


# --- text renderings --------------------------------------------------------------------------------------


def sheet_text(d: SheetData) -> str:
    s = d.state
    lines = [
        f"{d.name}: pilot {d.pilot}, {d.gear_name or 'Gear'} TV {d.gear_tv} "
        f"(enemy-quality column {d.enemy_quality_column})"
    ]
    if d.date or d.area:
        lines.append(f"  Date {d.date or '-'}, area {d.area or '-'}")
    for side, label, unit, aff in (
        ("player", "Player", d.player_unit, d.player_affiliation),
        ("enemy", "Enemy", d.enemy_unit, d.enemy_affiliation),
    ):
        unit = unit or "-"
        lines.append(f"  {label} unit: {unit}" + (f" ({aff})" if aff else ""))
        for f in d.forces.side(side):
            lines.append(
                f"    [{f.id}] {f.name}: base {f.base_power:g} × {f.skill} {f.skill_x:g} "
                f"× {f.loyalty} {f.loyalty_x:g} = {f.total:g}"
            )
        lines.append(f"    total combat power {d.totals.side(side):g}")
    odds = d.odds
    lines.append(f"  Odds: {odds.ratio_text} {odds.band}" if odds else "  Odds: - (enter both sides' units)")
    length = f"{d.length} turns" if d.length else f"not rolled ({d.length_dice or 'needs units'})"
    lines.append(f"  Length: {length}; turns played {d.turns_played}")
    o = d.options
    lines.append(
        f"  Options: {'variable' if o.variable_tables else 'standard'} reward tables, ferocious "
        f"battles {'on' if o.ferocious else 'off'}, reward dice {o.reward_dice}"
    )
    state = [f"campaign {s.status}" + (f" ({s.end_text})" if s.end_reason else "")]
    if s.gear_damaged:
        state.append("Gear damaged")
    if s.short_ammo:
        state.append("short of ammunition")
    if s.pilot_status != "active":
        state.append(f"pilot {s.pilot_status}")
    if s.breakout:
        state.append("break-out under way")
    lines.append("  State: " + ", ".join(state))
    if d.turns:
        lines.append("  Turn  Action    Enemy        Glory      Special")
        for t in d.turns:
            row = t.form
            lines.append(f"  {row.turn:>4}  {row.action:<9} {row.enemy:<12} {row.glory:<10} {row.special}")
    rk = d.reckoning
    if rk.final:
        lines.append(
            f"  Reckoning: recognition {rk.recognition}, D66 {rk.d66} "
            f"({'noticed' if rk.noticed else 'not noticed'}), impression {rk.impression}"
            + (f", {rk.table} roll {rk.result}" if rk.table else "")
        )
        lines.append(f"    {rk.outcome}")
    elif d.next.blocked:
        lines.append(f"  Next: {d.next.blocked}")
    else:
        lines.append(f"  Next: turn {d.next.number} ({', '.join(d.next.actions)})")
    return "\n".join(lines)


def turn_text(t: PlayedTurn) -> str:
    lines = [f"Turn {t.turn}: {t.label}" + (f", {t.column} column" if t.column else "")]
    lines.extend(f"  {m}" for m in t.meaning)
    if t.battle and not t.recorded:
        lines.append(f"  Play the battle, then: sologear record --turn {t.turn} --glory N --enemy-tv N --bunkers N")
    if t.campaign_ended:
        lines.append(f"  The campaign has ended ({t.campaign_ended_text or t.campaign_ended}).")
    return "\n".join(lines)


def _score_text(label: str, total: int, items: Sequence[ScoreItem]) -> list[str]:
    parts = [f"{i.label} {i.points:+d}" for i in items if i.points or i.count]
    return [f"{label} {total}" + (f" ({'; '.join(parts)})" if parts else "")]


def end_text(r: ReckoningDone) -> str:
    lines = _score_text("Recognition", r.recognition, r.recognition_breakdown)
    lines.append(f"D66 {r.d66}: noticed on {r.noticed_on} -> {'noticed' if r.noticed else 'not noticed'}")
    lines.extend(_score_text("Impression", r.impression, r.impression_breakdown))
    if r.table and r.band is not None:
        lines.append(f"{r.table.capitalize()} roll {r.result} ({r.band.label}): {r.outcome}")
    else:
        lines.append(r.outcome)
    return "\n".join(lines)


# --- handlers ---------------------------------------------------------------------------------------------


def _cmd_new(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    into = None
    if args.campaign is not None:
        into = lookup.campaign_id(args.campaign)
    edit = sheet_service.create_sheet(
        args.name or "",
        args.pilot,
        _required(whole_arg(args.gear_tv, "--gear-tv")),
        campaign=into,
        date=args.date,
        area=args.area,
        gear_name=args.gear_name,
        player_unit=args.player_unit,
        player_affiliation=args.player_affiliation,
        enemy_unit=args.enemy_unit,
        enemy_affiliation=args.enemy_affiliation,
        variable_tables=args.variable_tables,
        ferocious=args.ferocious,
        reward_dice=args.reward_dice,
        notes=args.notes,
    )
    return emit(args, edit.to_dict(), lambda: edit.message + "\n" + sheet_text(edit.result))


def _cmd_edit(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    fields = {
        k: getattr(args, k)
        for k in (
            "name",
            "date",
            "area",
            "pilot",
            "gear_name",
            "gear_tv",
            "player_unit",
            "player_affiliation",
            "enemy_unit",
            "enemy_affiliation",
            "notes",
        )
        if getattr(args, k) is not None
    }
    if "gear_tv" in fields:
        fields["gear_tv"] = whole_arg(fields["gear_tv"], "--gear-tv")
    if not fields:
        raise CliError("nothing to change: give at least one field")
    return _emit_edit(args, sheet_service.update_sheet(lookup.sheet_id(args.campaign), **fields))


def _cmd_options(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    variable = _flag(args.variable_tables, "--variable-tables")
    ferocious = _flag(args.ferocious, "--ferocious")
    if variable is None and ferocious is None and args.reward_dice is None:
        return emit(args, sheet_service.sheet_data(lookup.sheet_id(args.campaign)).options.to_dict())
    return _emit_edit(
        args,
        sheet_service.set_options(
            lookup.sheet_id(args.campaign), variable_tables=variable, ferocious=ferocious, reward_dice=args.reward_dice
        ),
    )


def _cmd_force_add(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = sheet_service.add_force(
        lookup.sheet_id(args.campaign),
        args.side,
        args.name,
        base_power=number_arg(args.base, "--base"),
        company_tv=whole_arg(args.company_tv, "--company-tv"),
        skill=args.skill,
        loyalty=args.loyalty,
    )
    return _emit_edit(args, edit)


def _cmd_force_edit(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    fields = {
        k: v
        for k, v in (
            ("side", args.side),
            ("name", args.name),
            ("base_power", number_arg(args.base, "--base")),
            ("company_tv", whole_arg(args.company_tv, "--company-tv")),
            ("skill", args.skill),
            ("loyalty", args.loyalty),
        )
        if v is not None
    }
    if not fields:
        raise CliError("nothing to change: give at least one field")
    return _emit_edit(
        args, sheet_service.update_force(_force_id(args.id), sheet=lookup.sheet_id(args.campaign), **fields)
    )


def _force_id(text: str) -> int:
    if not str(text).strip().isdigit():
        raise CliError(f"--id must be a unit's number (see 'sologear force list'), not {text!r}")
    return int(text)


def _cmd_force_remove(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    return _emit_edit(args, sheet_service.remove_force(_force_id(args.id), sheet=lookup.sheet_id(args.campaign)))


def _cmd_force_list(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db(reading=True)
    data = sheet_service.sheet_data(lookup.sheet_id(args.campaign))
    out = {
        "forces": data.forces.to_dict(),
        "totals": data.totals.to_dict(),
        "odds": data.odds.to_dict() if data.odds is not None else None,
    }
    return emit(args, out, lambda: sheet_text(data))


def _cmd_length(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = play_service.roll_length(lookup.sheet_id(args.campaign), dice_source(args))
    return _emit_edit(args, edit)


def _cmd_turn(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    action, posture = action_arg(args.action), posture_arg(args.posture)
    edit = play_service.play_turn(lookup.sheet_id(args.campaign), action, posture, dice=dice_source(args))
    return emit(args, edit.to_dict(), lambda: turn_text(edit.result))


def _cmd_record(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = play_service.record_turn(
        lookup.sheet_id(args.campaign),
        _required(whole_arg(args.turn, "--turn")),
        glory=_required(whole_arg(args.glory, "--glory")),
        enemy_tv=_required(whole_arg(args.enemy_tv, "--enemy-tv")),
        bunkers=_required(whole_arg(args.bunkers, "--bunkers")),
        gear_damaged=args.gear_damaged,
        short_ammo=args.short_ammo,
        pilot_dead=args.pilot_dead,
        pilot_captured=args.pilot_captured,
        notes=args.notes,
    )
    return _emit_edit(args, edit)


def _cmd_end(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = play_service.end_campaign(lookup.sheet_id(args.campaign), dice_source(args))
    return emit(args, edit.to_dict(), lambda: end_text(edit.result))


def _cmd_undo(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    return _emit_edit(args, play_service.undo_last(lookup.sheet_id(args.campaign)))


def _cmd_show(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db(reading=True)
    data = sheet_service.sheet_data(lookup.sheet_id(args.campaign))
    return emit(args, data.to_dict(), lambda: sheet_text(data))


def _cmd_history(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db(reading=True)
    entries = sheet_service.history(lookup.sheet_id(args.campaign))
    return emit(
        args,
        [e.to_dict() for e in entries],
        lambda: "\n".join(("  " if e.kind == "roll" else "") + e.text for e in entries),
    )


def _int(text: str, what: str) -> int:
    try:
        return int(str(text).strip())
    except ValueError:  # only int() of the typed text is inside the try
        raise CliError(f"{what} must be a whole number, not {text!r}") from None


def _number(text: str, what: str, high: float = MAX_TOTAL) -> float:
    try:
        value = float(str(text).strip())
    except ValueError:  # only float() of the typed text is inside the try
        raise CliError(f"{what} must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise CliError(f"{what} must be a finite number, not {text!r}")
    if value < 0:
        raise CliError(f"{what} cannot be negative")
    if value > high:
        raise CliError(f"{what} must be at most {high:,.0f}, not {text!r}")
    return value


def _cmd_table(args: argparse.Namespace, ctx: Context) -> int:
    which = args.table.strip().lower()
    if which == "combat":
        if args.odds is None or args.roll is None:
            raise CliError("table combat needs --odds BAND and --roll 0..14")
        band = band_name(args.odds)
        roll = combat_row(_int(args.roll, "--roll"))
        cell = combat_cell(band, roll)
        text = COMBAT_TABLE[roll][BAND_NAMES.index(band)]
        return emit(args, cell, f"roll {roll}, {band}: {text} ({'; '.join(describe_cell(cell))})")
    if which in ("enemy", "enemy-quality", "enemy_quality"):
        if args.gear_tv is None or args.roll is None:
            raise CliError("table enemy needs --gear-tv N and --roll N (the d6, +1 for **)")
        roll = _int(args.roll, "--roll")
        if roll < 1:
            raise CliError(f"--roll must be 1 or more (the d6, +1 for **), not {roll}")
        row, note = enemy_row(roll)  # as the engine reads it: above 7 is row 7
        tv = _int(args.gear_tv, "--gear-tv")
        if tv < 1:
            raise CliError(f"--gear-tv must be above 0, not {tv}")
        value = enemy_quality(tv, row)
        col = enemy_column_label(gear_tv_column(tv))
        said = f" ({note})" if note else ""
        return emit(
            args,
            {"gear_tv": tv, "roll": roll, "row": row, "column": col, "enemy_tv": value, "note": note},
            f"Gear TV {tv} (column {col}), row {row}{said}: enemy unit of TV {value}",
        )
    if which == "noticed":
        if args.recognition is None:
            raise CliError("table noticed needs --recognition N")
        rec = _int(args.recognition, "--recognition")
        data: dict[str, Any] = {"recognition": rec, "noticed_on": noticed_label(rec)}
        if args.d66 is not None:
            d66 = _int(args.d66, "--d66")
            data["d66"] = d66
            data["noticed"] = is_noticed(rec, d66)
        return emit(args, data)
    if which in ("result", "rewards", "punishments"):
        if args.roll is None or args.impression is None:
            raise CliError(f"table {which} needs --impression N and --roll N (the reward roll with the impression)")
        value, imp = _int(args.roll, "--roll"), _int(args.impression, "--impression")
        table, result = lookup_result(value, imp, variable=args.variable)
        return emit(
            args,
            {"table": table, "range": result.label, "title": result.title, "text": result.text},
            f"{table} {result.label}: {result.title}. {result.text}",
        )
    if which in card_tables():
        headers, rows = card_tables()[which]
        return emit(
            args, {"headers": headers, "rows": rows}, lambda: "\n".join(" | ".join(r) for r in [headers, *rows])
        )
    if which == "list":
        return emit(args, sorted(card_tables()))
    raise CliError(
        f"unknown table {args.table!r} (combat, enemy, noticed, result, list, or a card table: "
        f"{', '.join(sorted(card_tables()))})"
    )


def _cmd_odds(args: argparse.Namespace, ctx: Context) -> int:
    if args.campaign is not None:
        if args.player is not None or args.enemy is not None:
            raise CliError("give either --campaign (the next turn's odds) or --player and --enemy (a column)")
        return _turn_odds(args, ctx)
    if args.player is None or args.enemy is None:
        raise CliError("give --campaign NAME for the next turn's odds, or --player and --enemy for a column")
    if args.posture is not None:
        raise CliError("--posture goes with --campaign")
    player = _number(args.player, "--player")
    enemy = _number(args.enemy, "--enemy")
    data = odds(player, enemy)
    return emit(args, data, f"{player:g} / {enemy:g} = {data['ratio_text']}: {data['band']}")


def _turn_odds(args: argparse.Namespace, ctx: Context) -> int:
    from ..rules.sologear.odds import KINDS, percent, posture_words
    from ..services.sologear_odds import turn_odds

    posture = posture_arg(args.posture)
    ctx.open_db()
    odds = turn_odds(lookup.sheet_id(args.campaign), posture)
    data = odds.to_dict()

    def text() -> str:
        c = odds.combat
        head = (
            f"{odds.campaign}: next combat roll 2d6{c.posture:+d} on the {c.column} column"
            f"{' (break-out)' if c.breakout else ''}, {posture_words(c.posture)}"
        )
        lines = [head]
        lines += [
            f"  {r.total:>2}  {percent(r.probability):>7}  {r.result:<9} {r.words}" for r in c.rows if r.probability
        ]
        lines.append(
            "  " + ", ".join(f"{words} {percent(c.chance(kind))}" for kind, words in KINDS if kind in c.kinds())
        )
        lines.append(f"Noticed with recognition {odds.recognition} so far: {data['noticed'] * 100:.1f} %")
        lines.append(
            f"If noticed, {odds.reward_dice} {odds.impression:+d} (impression): "
            + ", ".join(f"{b['table']} {b['range']} {b['title']} {b['probability'] * 100:.1f} %" for b in odds.bands)
        )
        return "\n".join(lines)

    return emit(args, data, text)


# --- parser -----------------------------------------------------------------------------------------------


def register(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    sg_parser = sub.add_parser(
        "sologear",
        parents=[parent],
        help="a lone Gear pilot's campaign (Sologear)",
        description="Sologear campaigns (RULES.md §2).",
    )
    sgs = sg_parser.add_subparsers(dest="sologear_command", metavar="COMMAND")
    sgs.required = True

    def cmd(name: str, handler: Any, help_text: str, campaign: bool = True, **kw: Any) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = sgs.add_parser(name, parents=[parent], help=help_text, description=help_text, **kw)
        if campaign:
            p.add_argument("--campaign", required=True, metavar="NAME", help="the Sologear campaign's name")
        add_json(p)
        p.set_defaults(handler=handler)
        return p

    club.register_sologear_actions(sgs, parent)  # club play: set-owner

    def header_options(p: argparse.ArgumentParser, new: bool) -> None:
        if new:
            where = p.add_mutually_exclusive_group(required=True)
            where.add_argument("--name", help="the new campaign's name")
            where.add_argument(
                "--campaign",
                metavar="NAME",
                help="put the sheet into this Sologear campaign, which has none yet (on a club "
                "server: one an organiser made, with you in it)",
            )
            p.add_argument("--pilot", required=True, help="the pilot's name")
            p.add_argument("--gear-tv", required=True, metavar="TV", help="the pilot's Gear's threat value")
        else:
            p.add_argument("--name", help="new campaign name")
            p.add_argument("--pilot", help="the pilot's name")
            p.add_argument("--gear-tv", metavar="TV", help="the pilot's Gear's threat value")
        default = "" if new else None
        for opt, help_text in (
            ("--gear-name", "the Gear's name"),
            ("--date", "campaign date"),
            ("--area", "campaign area"),
            ("--player-unit", "the player's unit"),
            ("--player-affiliation", "the player's affiliation"),
            ("--enemy-unit", "the enemy unit"),
            ("--enemy-affiliation", "the enemy's affiliation"),
            ("--notes", "notes"),
        ):
            p.add_argument(opt, default=default, help=help_text)

    p = cmd("new", _cmd_new, "create a Sologear campaign sheet", campaign=False)
    header_options(p, new=True)
    p.add_argument("--variable-tables", action="store_true", help="⚙ use the milder variable reward tables")
    p.add_argument("--ferocious", action="store_true", help="⚙ ferocious battles: no surrender, break-out")
    p.add_argument(
        "--reward-dice",
        default=DEFAULT_REWARD_DICE,
        help="⚙ reward-roll dice, a sum such as 1d6 or 2d6 (default 1d6; not D66)",
    )

    p = cmd("edit", _cmd_edit, "change the sheet's header")
    header_options(p, new=False)

    p = cmd("options", _cmd_options, "show or change the optional rules")
    p.add_argument("--variable-tables", metavar="on|off", help="⚙ milder variable reward/punishment tables")
    p.add_argument("--ferocious", metavar="on|off", help="⚙ ferocious battles (fixed once a turn is played)")
    p.add_argument("--reward-dice", metavar="DICE", help="⚙ reward-roll dice, e.g. 1d6")

    force = sgs.add_parser("force", parents=[parent], help="the units of both sides")
    fs = force.add_subparsers(dest="force_command", metavar="COMMAND")
    fs.required = True

    def fcmd(name: str, handler: Any, help_text: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = fs.add_parser(name, parents=[parent], help=help_text, description=help_text)
        p.add_argument("--campaign", required=True, metavar="NAME", help="the Sologear campaign's name")
        add_json(p)
        p.set_defaults(handler=handler)
        return p

    p = fcmd("add", _cmd_force_add, "add a company-sized unit to one side")
    p.add_argument("--side", required=True, metavar="player|enemy")
    p.add_argument("--name", required=True)
    p.add_argument("--base", metavar="POWER", help="base combat power")
    p.add_argument("--company-tv", metavar="TV", help="TV of the company's units (base = TV / 20)")
    p.add_argument(
        "--skill",
        default="regular",
        metavar="WORD",
        help="rookie, regular, veteran, elite or legendary (default regular)",
    )
    p.add_argument("--loyalty", default="reliable", metavar="WORD", help="shaken, reliable or firm (default reliable)")
    p = fcmd("edit", _cmd_force_edit, "change a unit")
    p.add_argument("--id", required=True, help="the unit's number (see force list)")
    for opt in ("--side", "--name", "--base", "--company-tv", "--skill", "--loyalty"):
        p.add_argument(opt)
    p = fcmd("remove", _cmd_force_remove, "remove a unit")
    p.add_argument("--id", required=True, help="the unit's number (see force list)")
    fcmd("list", _cmd_force_list, "list both sides' units, totals and odds")

    p = cmd("length", _cmd_length, "roll the campaign length (as many d6 as the smaller side has units)")
    add_dice_options(p)

    p = cmd("turn", _cmd_turn, "play the next battle turn", epilog=TURN_DICE_HELP)
    p.add_argument("--action", required=True, metavar="dec|rep|fig")
    p.add_argument("--posture", metavar="X", help="FIG posture -2 (Cowardly) .. 2 (Bold)")
    add_dice_options(p)

    p = cmd("record", _cmd_record, "record what happened in a turn's battle")
    p.add_argument("--turn", required=True, metavar="N")
    p.add_argument("--glory", default="0", metavar="N", help="Glory markers collected")
    p.add_argument("--enemy-tv", default="0", metavar="TV", help="TV of enemy units destroyed")
    p.add_argument("--bunkers", default="0", metavar="N", help="bunkers destroyed (0..6)")
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--gear-damaged",
        dest="gear_damaged",
        action="store_true",
        default=None,
        help="the Gear is damaged after the turn",
    )
    g.add_argument("--gear-ok", dest="gear_damaged", action="store_false", help="the Gear is undamaged")
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--short-ammo", dest="short_ammo", action="store_true", default=None, help="the Gear is short of ammunition"
    )
    g.add_argument("--ammo-full", dest="short_ammo", action="store_false", help="the Gear has full ammunition")
    p.add_argument("--pilot-dead", action="store_true")
    p.add_argument("--pilot-captured", action="store_true")
    p.add_argument("--notes")

    p = cmd(
        "end",
        _cmd_end,
        "the end-of-campaign reckoning (recognition, D66, impression, reward/punishment)",
        epilog=END_DICE_HELP,
    )
    add_dice_options(p)

    cmd("undo", _cmd_undo, "undo the last step: the reckoning, else the last turn, else the length roll")
    cmd("show", _cmd_show, "show the campaign sheet, battle form and reckoning")
    cmd("history", _cmd_history, "the campaign's turns and rolls, oldest first")

    p = cmd("table", _cmd_table, "look a value up in a Sologear table", campaign=False)
    p.add_argument("table", help="combat, enemy, noticed, result, list, or a card table's name")
    p.add_argument("--odds", metavar="BAND", help="odds band (winning, advantaged, equal, disadvantaged, losing)")
    p.add_argument("--roll", metavar="N")
    p.add_argument("--gear-tv", metavar="TV")
    p.add_argument("--recognition", metavar="N")
    p.add_argument("--d66", metavar="N")
    p.add_argument("--impression", metavar="N")
    p.add_argument("--variable", action="store_true", help="the variable (milder) tables")

    p = cmd(
        "odds", _cmd_odds, "the next turn's exact odds (--campaign), or the column of two combat powers", campaign=False
    )
    p.add_argument(
        "--campaign",
        metavar="NAME",
        help="the Sologear campaign: the next combat roll's rows on its column, the chance of each "
        "kind of result, of being noticed so far and of each reward or punishment band",
    )
    p.add_argument("--posture", metavar="X", help="with --campaign: the FIG posture -2..+2 (default 0)")
    p.add_argument("--player", metavar="POWER", help="the player's combat power (with --enemy: the column)")
    p.add_argument("--enemy", metavar="POWER", help="the enemy's combat power")
