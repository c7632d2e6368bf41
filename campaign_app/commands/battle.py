"""``campaign-cli battle log|undo|edit`` and ``campaign-cli history``: the post-battle aftermath of a platoon
(RULES.md 1.2) and its campaign history, over the same services as the GUI's wizard and history view.

``--dice`` takes one argument per roll, in the order the rules ask for them: the recovery rolls (1d8, 2d8, ...
as long as wound counters remain), then the leader's 2d12, then the replacement leader's die if the leader
was lost. Bad input: one line on stderr, exit status 2, nothing written.
"""

from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING, Literal

from ..lazyimport import lazy_module
from ..rules.codes import purpose_text, rule_text
from ..rules.enums import Outcome
from . import lookup
from .base import CliError, Context, add_dice_options, add_json, date_arg, dice_source, emit

# typed for mypy, imported on first use at run time (building the parser does not load the database code)
if TYPE_CHECKING:
    from ..services import battles
    from ..services.battles import BattleSummary, BattleUndone
    from ..services.history_results import PlatoonHistory
else:
    battles = lazy_module("campaign_app.services.battles")

LOG_DICE_HELP = (
    "the faces you rolled, one argument per roll in the rules' order: each recovery roll (1d8, "
    "then 2d8, ...), the leader's 2d12, then the replacement leader's die (e.g. --dice 3 5,2 7,9)"
)


def _platoon_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--platoon", required=True, metavar="NAME", help="the platoon's name (or id)")
    p.add_argument("--campaign", metavar="NAME", help="its campaign, when two campaigns have a platoon of that name")


def _platoon_ref(args: argparse.Namespace) -> int:
    """The platoon's row id. ``--platoon`` is always read as a name first (a platoon named "1" is that
    platoon, whatever row 1 is); only a digits-only value that names no platoon is taken as an id."""
    return lookup.platoon_id(args.platoon, args.campaign)


# --- reading the arguments (the services take numbers and an Outcome; the words a user types are read here) ---


def objectives_arg(text: str | None) -> int | None:
    """``--objectives``: "0", "1", "+1", "2"... (the range is the service's to check)."""
    if text is None:
        return None
    raw = text.strip().removeprefix("+")
    if not raw.isdigit():
        raise CliError(f"objectives met must be 0 (none), 1 (hard, +1 XP) or 2 (near-impossible, +2 XP), not {text!r}")
    return int(raw)


def count_arg(text: str | None, what: str) -> int | None:
    """``--wounds``/``--leader-wounds``: a whole number (a negative one is the service's to refuse)."""
    if text is None:
        return None
    if not re.fullmatch(r"-?\d+", text.strip()):
        raise CliError(f"{what} must be a whole number, 0 or more, not {text!r}")
    return int(text.strip())


def outcome_arg(text: str | None) -> Outcome | None:
    """``--outcome``: victory, defeat or draw in any case; "none", "-" or "" for not recorded."""
    if text is None:
        return None
    word = text.strip().lower()
    if word in ("", "none", "-"):
        return None
    if word not in {o.value for o in Outcome}:
        raise CliError(f"outcome must be victory, defeat or draw, not {text!r}")
    return Outcome(word)


# --- texts ------------------------------------------------------------------------------------------------


def log_text(s: BattleSummary) -> str:
    det = s.details
    head = f"Battle {s.number} of {s.platoon.name} logged (id {s.battle_id}), {det.date.isoformat()}"
    extras = [x for x in (det.scenario, f"vs {det.opponent}" if det.opponent else "", det.outcome) if x]
    if extras:
        head += ": " + ", ".join(extras)
    lines = [head, f"Wound counters {s.wounds} (on the leader's element {s.leader_wounds})", f"Award: {s.award.text}"]
    for r in s.rolls:
        who = "typed in" if r.source == "entered" else "app"
        faces = ", ".join(str(f) for f in r.faces)
        lines.append(
            f"  {purpose_text(r.purpose)}: {r.expression} [{faces}] = {r.total} \u2192 {r.outcome} "
            f"({who}; {rule_text(r.rule)})"
        )
    pl = s.platoon
    lines.append(f"Platoon XP {pl.xp_before} \u2192 {pl.xp_after} (award +{pl.award}, recovery \u2212{pl.xp_lost})")
    ld = s.leader
    if ld:
        lines.append(f"{ld.name}: XP {ld.xp_before} \u2192 {ld.xp_after}, {ld.fate}")
    else:
        lines.append("No leader: no leader's fate roll")
    rep = s.replacement
    if rep:
        lines.append(f"New leader: {rep.name} ({rep.rank}), {rep.xp} XP")
    return "\n".join(lines)


def undo_text(message: str, s: BattleUndone) -> str:
    text = [message]
    if s.leader:
        fate = battles.FATE_WORDS.get(s.leader.fate_undone, s.leader.fate_undone)
        who = s.leader.name or "The leader"
        text.append(
            f"{who}: XP {s.leader.xp_before} \u2192 {s.leader.xp_after}; the roll that found "
            f"the leader {fate} is undone"
        )
    if s.removed_leaders:
        n = len(s.removed_leaders)
        text.append(f"Removed the replacement leader{'s' if n != 1 else ''}: " + ", ".join(s.removed_leaders))
    text.append(f"Removed {s.removed_rolls} roll{'s' if s.removed_rolls != 1 else ''}")
    return "\n".join(text)


def history_text(h: PlatoonHistory) -> str:
    p = h.platoon
    n = len(h.battles)
    lines = [f"{p.name} ({p.campaign}): {n} battle{'s' if n != 1 else ''}, XP {p.xp}"]
    for e in h.events:
        battle = f"#{e.battle_number}" if e.battle_number is not None else "-"
        lines.append(f"{e.at}  {e.kind:<9} {battle:>4}  {e.text}")
    return "\n".join(lines)


# --- handlers ---------------------------------------------------------------------------------------------


def _required(value: int | None) -> int:
    assert value is not None  # argparse requires the option (or gives its default)
    return value


def _opponent_platoon(args: argparse.Namespace, platoon_id: int) -> int | None:
    """``--opponent-platoon NAME``: a platoon of the same campaign as the one logging the battle."""
    if args.opponent_platoon is None:
        return None
    return lookup.opponent_id(args.opponent_platoon, platoon_id)


def _cmd_log(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    platoon_id = _platoon_ref(args)
    edit = battles.log_battle(
        platoon_id,
        wounds=_required(count_arg(args.wounds, "wound counters")),
        leader_wounds=_required(count_arg(args.leader_wounds, "wound counters on the leader's element")),
        objectives=_required(objectives_arg(args.objectives)),
        opponent_platoon=_opponent_platoon(args, platoon_id),
        outcome=outcome_arg(args.outcome),
        scenario=args.scenario,
        opponent=args.opponent,
        date=date_arg(args.date, "battle date"),
        fire_support=args.fire_support,
        notes=args.notes,
        replacement_name=args.replacement_name,
        replacement_rank=args.replacement_rank,
        dice=dice_source(args),
    )
    return emit(args, edit.to_dict(), lambda: log_text(edit.result))


def _cmd_undo(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = battles.undo_last_battle(_platoon_ref(args))
    return emit(args, edit.to_dict(), lambda: undo_text(edit.message, edit.result))


EDIT_OPTIONS = (
    "date",
    "scenario",
    "opponent",
    "outcome",
    "fire_support",
    "notes",
    "objectives",
    "wounds",
    "leader_wounds",
)


def _cmd_edit(args: argparse.Namespace, ctx: Context) -> int:
    if all(getattr(args, name) is None for name in EDIT_OPTIONS):
        raise CliError(
            "nothing to change: give --date, --scenario, --opponent, --outcome, --fire-support or "
            "--no-fire-support, and/or --notes"
        )
    number = None
    if args.battle is not None:
        if not args.battle.strip().isdigit():
            raise CliError(f"--battle must be a battle number like 3, not {args.battle!r}")
        number = int(args.battle)
    ctx.open_db()
    from ..services import battle_edits

    b = battle_edits.find_battle(_platoon_ref(args), number)
    outcome: Outcome | None | Literal[""] = "" if args.outcome is None else outcome_arg(args.outcome)
    edit = battle_edits.edit_battle(
        b.id,
        date=date_arg(args.date, "battle date"),
        scenario=args.scenario,
        opponent=args.opponent,
        outcome=outcome,
        fire_support=args.fire_support,
        notes=args.notes,
        objectives=objectives_arg(args.objectives),
        wounds=count_arg(args.wounds, "wound counters"),
        leader_wounds=count_arg(args.leader_wounds, "wound counters on the leader's element"),
        reason=args.reason or "",
    )
    return emit(args, edit.to_dict(), edit.message)


def _cmd_history(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db(reading=True)
    from ..services import history

    h = history.history(_platoon_ref(args))
    if args.csv:
        print(history.events_csv(h.events), end="")
        return 0
    return emit(args, h.to_dict(), lambda: history_text(h))


def register(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    bp = sub.add_parser(
        "battle",
        parents=[parent],
        help="log a platoon's battle, undo it, edit its text",
        description="After a battle (RULES.md 1.2): award, recovery, leader's fate, replacement.",
    )
    bs = bp.add_subparsers(dest="battle_command", metavar="COMMAND")
    bs.required = True

    p = bs.add_parser(
        "log",
        parents=[parent],
        help="log a battle and run its aftermath rolls",
        description="Log a battle: award, recovery rolls, the leader's fate and a replacement "
        "leader if needed, all in one transaction.",
    )
    _platoon_args(p)
    p.add_argument(
        "--wounds",
        required=True,
        metavar="W",
        help="all wound counters of the battle (units removed before the end included)",
    )
    p.add_argument("--leader-wounds", required=True, metavar="L", help="wound counters on the leader's element")
    p.add_argument(
        "--objectives",
        default="0",
        metavar="0|1|2",
        help="objectives met: 0 none, 1 hard (+1 XP), 2 near-impossible (+2 XP)",
    )
    p.add_argument("--outcome", metavar="victory|defeat|draw", help="the battle's outcome")
    p.add_argument("--scenario", default="", help="scenario name")
    p.add_argument("--opponent", default="", help="who the platoon fought")
    p.add_argument(
        "--opponent-platoon",
        metavar="NAME",
        help="the platoon of the same campaign it fought (counts in the campaign's head-to-head "
        "standings; --opponent defaults to its name)",
    )
    p.add_argument("--date", help="date of the battle, YYYY-MM-DD (default today)")
    p.add_argument("--fire-support", action="store_true", help="fire support was used")
    p.add_argument("--notes", default="", help="notes")
    p.add_argument(
        "--replacement-name", metavar="NAME", help="name of the new leader if the leader is lost (default 'New leader')"
    )
    p.add_argument("--replacement-rank", metavar="RANK", help="rank of the new leader (default Lieutenant)")
    add_dice_options(p)
    for action in p._actions:
        if action.dest == "dice":
            action.help = LOG_DICE_HELP
    add_json(p)
    p.set_defaults(handler=_cmd_log)

    p = bs.add_parser(
        "undo",
        parents=[parent],
        help="undo the platoon's newest battle",
        description="Undo the newest battle: XP, leaders and rolls return to their state before it.",
    )
    _platoon_args(p)
    add_json(p)
    p.set_defaults(handler=_cmd_undo)

    p = bs.add_parser(
        "edit",
        parents=[parent],
        help="change a logged battle's date, scenario, opponent, outcome, fire support or notes",
        description="Change what a logged battle records that did not come from a roll (each change "
        "is logged). Objectives and wound counters set the XP and the rolls: a different "
        "value is refused (undo the battle and log it again).",
    )
    _platoon_args(p)
    p.add_argument("--battle", metavar="N", help="battle number (default: the newest)")
    p.add_argument("--date", help="new date, YYYY-MM-DD")
    p.add_argument("--scenario", help="new scenario name")
    p.add_argument("--opponent", help="new opponent")
    p.add_argument("--outcome", metavar="victory|defeat|draw|none", help="new outcome")
    fire = p.add_mutually_exclusive_group()
    fire.add_argument(
        "--fire-support", dest="fire_support", action="store_const", const=True, help="fire support was used"
    )
    fire.add_argument(
        "--no-fire-support", dest="fire_support", action="store_const", const=False, help="fire support was not used"
    )
    p.add_argument("--notes", help="new notes")
    p.add_argument("--objectives", metavar="0|1|2", help="refused unless unchanged (it sets the XP award)")
    p.add_argument("--wounds", metavar="W", help="refused unless unchanged (it set the recovery rolls)")
    p.add_argument("--leader-wounds", metavar="L", help="refused unless unchanged (it set the leader's fate roll)")
    p.add_argument("--reason", help="why (stored with the change)")
    add_json(p)
    p.set_defaults(handler=_cmd_edit)

    p = sub.add_parser(
        "history",
        parents=[parent],
        help="a platoon's campaign timeline",
        description="Every battle, XP change, leader change, attribute change and roll of a platoon, newest first.",
    )
    _platoon_args(p)
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print JSON: battles with their rolls, and events")
    fmt.add_argument("--csv", action="store_true", help="print the timeline as CSV")
    p.set_defaults(handler=_cmd_history)
