"""``campaign-cli level | cards | odds ... | roll ...``: the Atomic Africa rules (RULES.md 1.1-1.3) without a
database. Exact odds print as decimals that add up to exactly 1; rolls use the app's dice (``--seed``) or the
faces the user typed (``--dice``, one argument per roll, in the order the rules ask for them)."""

from __future__ import annotations

import argparse
import json
import uuid
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..rules.aftermath import (
    FATES,
    roll_force,
    roll_leader_fate,
    roll_replacement,
    run_recovery,
)
from ..rules.dice import DiceSource, TypedDice
from ..rules.experience import (
    CARDS_PER_LEVEL,
    DEFAULT_THRESHOLDS,
    Thresholds,
    check_xp,
    level_name,
    level_rank,
    orders_cards_for_xp,
)
from ..rules.odds import (
    fraction_strings,
    fraction_text,
    leader_odds,
    probability_strings,
    recovery_mean,
    recovery_odds,
    round_significant,
)
from ..words import plural
from .base import CliError, Context, add_dice_options, add_json, dice_source, emit

PROB_DIGITS = 15


# --- argument helpers ------------------------------------------------------------------------------------


def _int(text: str | int | None, what: str) -> int | None:
    """Parse a whole number ourselves so a bad value is a one-line error (not argparse's usage text)."""
    if text is None or isinstance(text, int):
        return text
    try:
        return int(text.strip())
    except ValueError:  # only int() of the typed text is inside the try
        raise CliError(f"{what} must be a whole number, not {text!r}") from None


def _req_int(text: str | int | None, what: str) -> int:
    value = _int(text, what)
    if value is None:  # pragma: no cover - argparse makes these options required
        raise CliError(f"{what} is required")
    return value


def _count(text: str, what: str) -> int:
    value = _req_int(text, what)
    if value < 0:
        raise CliError(f"{what} must be 0 or more, not {value}")
    return value


def _xp(text: str | None, what: str) -> int:
    return check_xp(_req_int(text, what), what)


def _thresholds(args: argparse.Namespace) -> Thresholds:
    return Thresholds.parse(args.thresholds) if args.thresholds else DEFAULT_THRESHOLDS


def _period(args: argparse.Namespace) -> int | None:
    period = _int(args.period, "--period")
    if period is not None and not 1 <= period <= 5:
        raise CliError(f"--period must be 1 to 5, not {period}")
    return period


def _finish_dice(source: DiceSource) -> None:
    if isinstance(source, TypedDice):
        source.check_all_used()


def _dumps_exact(data: Any, numbers: Mapping[str, str]) -> str:
    """JSON of ``data`` where the string placeholders in ``numbers`` become those decimal numbers verbatim."""
    text = json.dumps(data, ensure_ascii=False)
    for token, number in numbers.items():
        text = text.replace(json.dumps(token), number)
    return text


def _emit_probabilities(args: argparse.Namespace, data: dict[str, Any], probs: dict[str, str], text: str) -> int:
    """Print ``data`` with ``probs`` placeholders as JSON numbers (``--json``) or ``text``."""
    if getattr(args, "json", False):
        print(_dumps_exact(data, probs))
    else:
        print(text)
    return 0


# --- level, cards ----------------------------------------------------------------------------------------


def _cmd_level(args: argparse.Namespace, ctx: Context) -> int:
    thresholds = _thresholds(args)
    xp = _xp(args.xp, "--xp")
    rank = level_rank(xp, thresholds)
    data = {"xp": xp, "level": level_name(xp, thresholds), "rank": rank, "cards": CARDS_PER_LEVEL * rank}
    return emit(
        args,
        data,
        f"{xp} XP: {data['level']} (level {rank}), adds {data['cards']} orders cards a turn"
        f" (thresholds G{thresholds.green} R{thresholds.regular} V{thresholds.veteran} "
        f"L{thresholds.legendary})",
    )


def _cmd_cards(args: argparse.Namespace, ctx: Context) -> int:
    thresholds = _thresholds(args)
    platoon_xp = _xp(args.platoon_xp, "--platoon-xp")
    if args.no_leader:
        leader_xp = None
        if args.leader_xp is not None:
            _xp(args.leader_xp, "--leader-xp")
    elif args.leader_xp is None:
        raise CliError("give --leader-xp, or --no-leader when the leader is not on the table")
    else:
        leader_xp = _xp(args.leader_xp, "--leader-xp")
    cards = orders_cards_for_xp(platoon_xp, leader_xp, args.fire_support, thresholds)
    parts = [f"platoon {level_name(platoon_xp, thresholds)}"]
    parts.append("no leader" if leader_xp is None else f"leader {level_name(leader_xp, thresholds)}")
    if args.fire_support:
        parts.append("fire support available (one card fewer)")
    return emit(args, {"cards": cards}, f"{cards} orders cards a turn ({', '.join(parts)})")


# --- odds ------------------------------------------------------------------------------------------------


def _placeholders(values: Mapping[Any, str]) -> tuple[dict[Any, str], dict[str, str]]:
    """One unique placeholder string per value, for :func:`_dumps_exact`."""
    tag = uuid.uuid4().hex
    keyed = {key: f"@{tag}:{i}@" for i, key in enumerate(values)}
    return keyed, {keyed[key]: values[key] for key in values}


def _cmd_odds_recovery(args: argparse.Namespace, ctx: Context) -> int:
    wounds = _count(args.wounds, "--wounds")
    xp = _xp(args.xp, "--xp")
    odds = recovery_odds(wounds, xp)
    mean = recovery_mean(wounds, xp)
    strings = probability_strings(odds, PROB_DIGITS)
    _, mean_text = round_significant(mean, PROB_DIGITS) if mean else (Fraction(0), "0")
    keyed, numbers = _placeholders({**{str(k): v for k, v in strings.items()}, "mean": mean_text})
    data = {
        "wounds": wounds,
        "xp": xp,
        "xp_lost": {str(k): keyed[str(k)] for k in strings},
        "mean": keyed["mean"],
        "exact": {"xp_lost": {str(k): v for k, v in fraction_strings(odds).items()}, "mean": fraction_text(mean)},
    }
    width = max(len(s) for s in strings.values())
    lines = [
        f"Recovery with {plural(wounds, 'wound counter')}, platoon at {xp} XP (RULES 1.2):",
        "XP lost  probability",
    ]
    lines += [f"{k:>7}  {s:<{width}}  ({float(odds[k]):.2%})" for k, s in strings.items()]
    lines.append(f"mean XP lost: {mean_text}")
    return _emit_probabilities(args, data, numbers, "\n".join(lines))


def _cmd_odds_leader(args: argparse.Namespace, ctx: Context) -> int:
    wounds = _count(args.leader_wounds, "--leader-wounds")
    xp = _xp(args.leader_xp, "--leader-xp")
    odds = leader_odds(wounds, xp)
    strings = probability_strings(odds, PROB_DIGITS)
    keyed, numbers = _placeholders(strings)
    data: dict[str, Any] = {fate: keyed[fate] for fate in FATES}
    data["exact"] = fraction_strings(odds)
    lines = [f"Leader's fate, 2d12 against {plural(wounds, 'wound counter')} and {xp} XP (RULES 1.2):"]
    lines += [f"{fate:>9}  {strings[fate]}  ({float(odds[fate]):.2%})" for fate in FATES]
    return _emit_probabilities(args, data, numbers, "\n".join(lines))


# --- rolls -----------------------------------------------------------------------------------------------


def _cmd_roll_recovery(args: argparse.Namespace, ctx: Context) -> int:
    wounds = _count(args.wounds, "--wounds")
    xp = _xp(args.xp, "--xp")
    source = dice_source(args)
    result = run_recovery(wounds, xp, source)
    _finish_dice(source)
    data = result.to_dict()

    def text() -> str:
        if not result.records:
            why = "no wound counters" if wounds == 0 else "the platoon is at 0 XP"
            return f"No recovery roll ({why}); platoon stays at {xp} XP."
        lines = [f"Recovery of {plural(wounds, 'wound counter')}, platoon at {xp} XP:"]
        lines += [
            f"  roll {i}: {r.expression} {r.faces} = {r.total}: {r.outcome}"
            for i, r in enumerate(result.records, start=1)
        ]
        lines.append(f"XP lost: {result.xp_lost}; platoon now {result.xp_after} XP")
        return "\n".join(lines)

    return emit(args, data, text)


def _cmd_roll_leader(args: argparse.Namespace, ctx: Context) -> int:
    wounds = _count(args.leader_wounds, "--leader-wounds")
    xp = _xp(args.leader_xp, "--leader-xp")
    source = dice_source(args)
    fate, record = roll_leader_fate(wounds, xp, source)
    _finish_dice(source)
    data = {"faces": record.faces, "total": record.total, "outcome": fate}
    return emit(args, data, f"2d12 {record.faces} = {record.total}: {record.table_row}")


def _cmd_roll_replacement(args: argparse.Namespace, ctx: Context) -> int:
    period = _period(args)
    source = dice_source(args)
    count = 1 if args.one_die else 2
    xp, record = roll_replacement(period, source, count)
    _finish_dice(source)
    die = str(record.details["die"])
    data = {"die": die, "dice": count, "faces": record.faces, "xp": xp}
    faces = ", ".join(str(f) for f in record.faces)
    how = f"lower of {faces}" if count == 2 else faces
    return emit(
        args, data, f"Replacement leader ({record.table_row}): {record.expression} [{faces}]: {how} \u22121 = {xp} XP"
    )


def _cmd_roll_force(args: argparse.Namespace, ctx: Context) -> int:
    period = _period(args)
    source = dice_source(args)
    force = roll_force(period, source)
    _finish_dice(source)
    return emit(
        args,
        force.to_dict(),
        f"Force generation ({force.record.table_row}): {force.record.faces} \u2192 "
        f"leader {force.leader_xp} XP, platoon {force.platoon_xp} XP",
    )


# --- parser ----------------------------------------------------------------------------------------------


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "level",
        parents=[parent],
        help="experience level and orders cards for an XP value",
        description="Experience level for an XP value (RULES 1.1).",
    )
    p.add_argument("--xp", required=True, metavar="XP", help="XP, 0 to 32")
    p.add_argument(
        "--thresholds", metavar="G,R,V,L", help="XP for Green, Regular, Veteran, Legendary (default 1,4,9,16)"
    )
    add_json(p)
    p.set_defaults(handler=_cmd_level)

    p = sub.add_parser(
        "cards",
        parents=[parent],
        help="orders cards drawn per turn",
        description="Orders cards per turn: 2 per platoon level + 2 per leader level, one fewer "
        "with fire support available (RULES 1.1).",
    )
    p.add_argument("--platoon-xp", required=True, metavar="XP")
    p.add_argument("--leader-xp", metavar="XP")
    p.add_argument("--no-leader", action="store_true", help="the leader is not on the table")
    p.add_argument("--fire-support", action="store_true", help="fire support is available this turn")
    p.add_argument("--thresholds", metavar="G,R,V,L", help="XP thresholds (default 1,4,9,16)")
    add_json(p)
    p.set_defaults(handler=_cmd_cards)

    odds = sub.add_parser(
        "odds",
        parents=[parent],
        help="exact odds of the aftermath rolls",
        description="Exact odds (RULES 1.2), computed from the dice, not sampled.",
    )
    odds_sub = odds.add_subparsers(dest="odds_command", metavar="WHAT")
    odds_sub.required = True
    p = odds_sub.add_parser("recovery", parents=[parent], help="distribution of XP lost in recovery")
    p.add_argument("--wounds", required=True, metavar="N", help="wound counters gathered after the battle")
    p.add_argument("--xp", required=True, metavar="XP", help="platoon XP when recovery starts (after the award)")
    add_json(p)
    p.set_defaults(handler=_cmd_odds_recovery)
    p = odds_sub.add_parser("leader", parents=[parent], help="P(casualty), P(promoted), P(stays)")
    p.add_argument(
        "--leader-wounds", required=True, metavar="N", help="wound counters on the leader's element this battle"
    )
    p.add_argument("--leader-xp", required=True, metavar="XP", help="leader XP after the award")
    add_json(p)
    p.set_defaults(handler=_cmd_odds_leader)

    roll = sub.add_parser(
        "roll",
        parents=[parent],
        help="make (or enter) one aftermath roll",
        description="Aftermath and force-generation rolls (RULES 1.2, 1.3).",
    )
    roll_sub = roll.add_subparsers(dest="roll_command", metavar="WHAT")
    roll_sub.required = True
    p = roll_sub.add_parser("recovery", parents=[parent], help="recovery rolls: 1d8, 2d8, ...")
    p.add_argument("--wounds", required=True, metavar="N", help="wound counters gathered after the battle")
    p.add_argument("--xp", required=True, metavar="XP", help="platoon XP when recovery starts (after the award)")
    add_dice_options(p)
    add_json(p)
    p.set_defaults(handler=_cmd_roll_recovery)
    p = roll_sub.add_parser("leader", parents=[parent], help="the leader's fate (2d12)")
    p.add_argument(
        "--leader-wounds", required=True, metavar="N", help="wound counters on the leader's element this battle"
    )
    p.add_argument("--leader-xp", required=True, metavar="XP", help="leader XP after the award")
    add_dice_options(p)
    add_json(p)
    p.set_defaults(handler=_cmd_roll_leader)
    p = roll_sub.add_parser(
        "replacement",
        parents=[parent],
        help="XP of a replacement leader",
        description="RULES 1.2 step 4: roll two dice of the period's type; the lower, minus "
        "one (at least 0), is the new leader's XP. --dice takes the two faces "
        "(e.g. --dice 7,3).",
    )
    p.add_argument("--period", metavar="1..5", help="campaign period (d4..d12); default d10")
    p.add_argument(
        "--one-die", action="store_true", help="⚙ house rule: one die minus one (then --dice takes one face)"
    )
    add_dice_options(p)
    add_json(p)
    p.set_defaults(handler=_cmd_roll_replacement)
    p = roll_sub.add_parser("force", parents=[parent], help="XP of a new platoon and its leader")
    p.add_argument("--period", metavar="1..5", help="campaign period (d4..d12); default d10")
    add_dice_options(p)
    add_json(p)
    p.set_defaults(handler=_cmd_roll_force)
