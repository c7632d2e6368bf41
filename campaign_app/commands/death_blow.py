"""``campaign-cli fighter ...`` and ``campaign-cli bout ...``: d12 Death Blow fighters and their bouts
(RULES.md §5), over the same services as the GUI.

Bad input (a level of 12, 13 face cards, a winner who did not fight, a fighter of another campaign, dice that are
not two d12 faces): one line on stderr, exit status 2, nothing written.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..lazyimport import lazy_module
from ..words import plural
from . import lookup
from .base import CliError, Context, add_json, date_arg, emit, whole_arg

if TYPE_CHECKING:
    from ..services.death_blow import BoutDetail, FighterDetail, FighterHistory, FighterRow

# typed for mypy, imported on first use at run time (building the parser does not load the database code)
if TYPE_CHECKING:
    from ..services import death_blow as service
else:
    service = lazy_module("campaign_app.services.death_blow")

PLAY_DICE_HELP = (
    "the dice you rolled: one argument per fighter per round, the two d12 faces joined by a comma, "
    "the --fighter's pair first, then the opponent's, round after round (e.g. --dice 7,3 11,2 5,5 9,1); "
    "when they run out the app rolls the rest and says so"
)


# --- texts ----------------------------------------------------------------------------------------------


def _record(f: FighterRow) -> str:
    return f"{f.bouts} bouts, {f.wins} won, {f.draws} drawn, {f.losses} lost"


def fighter_line(f: FighterRow) -> str:
    retired = ", retired" if f.retired else ""
    return f"{f.name}  level {f.level}, {f.xp}/12 XP, lifetime {f.lifetime_xp} XP; {_record(f)}{retired}"


def fighter_text(f: FighterDetail) -> str:
    lines = [
        f"{f.name} ({f.campaign}){', retired' if f.retired else ''}",
        f"  Level {f.level}, XP toward the next level {f.xp}/12, lifetime XP {f.lifetime_xp} "
        f"(started at level {f.start_level})",
        f"  Face cards: Reaction Speed {f.level}; signature move: +{f.level} damage",
        f"  Record: {_record(f)}",
    ]
    if f.notes:
        lines.append(f"  Notes: {f.notes}")
    for b in f.recent[:10]:
        lines.append("  " + bout_line(b))
    return "\n".join(lines)


def bout_line(b: Any) -> str:
    result = (
        "draw"
        if b.winner == "draw"
        else f"{b.winner} won, {plural(b.face_cards_left, 'face card')} left (+{b.xp_gained} XP)"
    )
    mode = "solo" if b.mode == "solo" else "table"
    return f"#{b.id} {b.date}  {b.fighter} vs {b.opponent} (level {b.opponent_level}): {result} [{mode}]"


STYLE_SHORT = {"iron-defense": "ID", "mixed-defense": "MD", "mixed-offense": "MO", "all-out-attack": "AOA"}


def _side(s: dict[str, Any]) -> str:
    style = STYLE_SHORT.get(s["style"], s["style"])
    final = STYLE_SHORT.get(s["final_style"], s["final_style"])
    shift = style if style == final else f"{style}\u2192{final}"
    typed = "*" if s.get("dice_source") == "entered" else ""
    return (
        f"{s['card']:>5} {s['dice'][0]:>2},{s['dice'][1]:<2}{typed:1} ini {s['initiative']} {shift:<7} "
        f"A{s['attack']:>2} D{s['defense']:>2} dmg {s['damage']:>2} lost {s['discarded']:>2} "
        f"left {s['cards_left']:>2}"
    )


def bout_text(b: BoutDetail, note: str = "") -> str:
    lines = [bout_line(b)]
    if b.seed:
        lines.append(f"  seed {b.seed}; {b.dice_note}" + (" (* typed)" if "typed" in b.dice_note else ""))
    for r in b.rounds:
        lines.append(f"  {r['round']:>3}  {_side(r['a'])}  |  {_side(r['b'])}")
    for up in b.level_ups:
        lines.append(f"  {up['fighter']} reached level {up['level']}")
    if note:
        lines.append(note)
    return "\n".join(lines)


def history_text(h: FighterHistory) -> str:
    lines = [fighter_line(h.fighter)]
    for e in h.events:
        lines.append(f"  {e.date}  {e.kind:<10} {e.text}")
    if h.head_to_head:
        lines.append("  Head to head:")
        for p in h.head_to_head:
            lines.append(
                f"    {p['fighter']} {p['fighter_wins']} \u2013 {p['opponent_wins']} {p['opponent']}"
                f" ({p['draws']} drawn)"
            )
    return "\n".join(lines)


# --- handlers -------------------------------------------------------------------------------------------


def _fighter(args: argparse.Namespace) -> int:
    """``FIGHTER [--campaign NAME]``: the fighter's id."""
    return lookup.fighter_id(args.fighter, args.campaign)


def _opponent(args: argparse.Namespace, fighter: int) -> int | None:
    """``--opponent-fighter NAME``: a fighter of ``fighter``'s campaign, or None (an outside opponent)."""
    if args.opponent_fighter is None:
        return None
    return lookup.opponent_fighter_id(args.opponent_fighter, fighter)


def _fighter_new(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = service.create_fighter(
        lookup.campaign_id(args.campaign),
        args.name,
        level=whole_arg(args.level, "--level") or 0,
        notes=args.notes or "",
    )
    return emit(args, edit.to_dict(), edit.message)


def _fighter_list(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    rows = service.list_fighters(lookup.campaign_id(args.campaign), include_retired=not args.active)
    text = "\n".join(fighter_line(r) for r in rows) or "no fighters yet (campaign-cli fighter new --campaign ...)"
    return emit(args, [r.to_dict() for r in rows], text)


def _fighter_show(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    f = service.show_fighter(_fighter(args))
    return emit(args, f.to_dict(), lambda: fighter_text(f))


def _fighter_set(args: argparse.Namespace, ctx: Context) -> int:
    if args.level is None and args.xp is None:
        raise CliError("nothing to set: give --level and/or --xp")
    ctx.open_db()
    edit = service.set_fighter(
        _fighter(args), level=whole_arg(args.level, "--level"), xp=whole_arg(args.xp, "--xp"), reason=args.reason or ""
    )
    return emit(args, edit.to_dict(), edit.message)


def _fighter_rename(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = service.rename_fighter(_fighter(args), args.new_name)
    return emit(args, edit.to_dict(), edit.message)


def _fighter_notes(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = service.edit_fighter(_fighter(args), notes=args.notes)
    return emit(args, edit.to_dict(), edit.message)


def _fighter_retire(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = service.retire_fighter(_fighter(args), retired=not args.back)
    return emit(args, edit.to_dict(), edit.message)


def _fighter_delete(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = service.delete_fighter(_fighter(args))
    return emit(args, edit.to_dict(), edit.message)


def _fighter_history(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    if args.csv:
        print(service.history_csv(_fighter(args)), end="")
        return 0
    h = service.fighter_history(_fighter(args))
    return emit(args, h.to_dict(), lambda: history_text(h))


def _fighter_export(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    fmt = args.format or ("json" if str(args.output).lower().endswith(".json") else "csv")
    n = service.export_history(_fighter(args), args.output, fmt)
    return emit(
        args,
        {"file": str(args.output), "format": fmt, "events": n},
        f"wrote {n} events of {args.fighter}'s history to {args.output}",
    )


def _head_to_head(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    pairs = service.head_to_head(lookup.campaign_id(args.campaign))
    text = (
        "\n".join(
            f"{p['fighter']} {p['fighter_wins']} \u2013 {p['opponent_wins']} {p['opponent']} "
            f"({p['bouts']} bouts, {p['draws']} drawn)"
            for p in pairs
        )
        or "no bouts between fighters yet"
    )
    return emit(args, pairs, text)


def _bout_log(args: argparse.Namespace, ctx: Context) -> int:
    if args.opponent_fighter is None and args.opponent is None:
        raise CliError("name the opponent: --opponent-fighter NAME, or --opponent NAME --opponent-level L")
    if args.face_cards is None:
        if str(args.winner).strip().lower() != "draw":
            raise CliError("give --face-cards N: the face cards (J, Q, K) left in the victor's deck, 0..12")
        args.face_cards = "0"
    face_cards = whole_arg(args.face_cards, "--face-cards") or 0  # given, or 0 for a draw (above)
    opponent_level = whole_arg(args.opponent_level, "--opponent-level")
    ctx.open_db()
    fighter = _fighter(args)
    opponent_fighter = _opponent(args, fighter)
    edit = service.log_bout(
        fighter,
        opponent_fighter=opponent_fighter,
        opponent=args.opponent,
        opponent_level=opponent_level,
        winner=lookup.bout_winner(args.winner, fighter, opponent_fighter, args.opponent),
        face_cards=face_cards,
        date=date_arg(args.date, "the bout's date"),
        notes=args.notes or "",
    )
    return emit(args, edit.to_dict(), lambda: edit.message + "\n" + bout_line(edit.result))


def _bout_play(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    fighter = _fighter(args)
    edit, solo = service.play_bout(
        fighter,
        lookup.opponent_fighter_id(args.opponent_fighter, fighter),
        seed=args.seed,
        dice=args.dice or (),
        date=date_arg(args.date, "the bout's date"),
        notes=args.notes or "",
    )
    note = ""
    if solo.app_rolled_from is not None:
        note = f"the typed dice ran out: the app rolled the dice from round {solo.app_rolled_from} on"
    data = {**edit.to_dict(), "app_rolled_from_round": solo.app_rolled_from}
    return emit(args, data, lambda: bout_text(edit.result, note) + "\n" + edit.message)


def _bout_show(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    b = service.show_bout(lookup.bout_id(args.bout))
    return emit(args, b.to_dict(), lambda: bout_text(b))


def _bout_odds(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db(daily_backup=False)
    fighter = _fighter(args)
    opponent = lookup.opponent_fighter_id(args.opponent_fighter, fighter)
    odds = service.bout_odds(fighter, opponent, bouts=whole_arg(args.bouts, "--bouts") or 0, seed=args.seed)
    return emit(args, odds.to_dict(), odds.text)


def _bout_undo(args: argparse.Namespace, ctx: Context) -> int:
    ctx.open_db()
    edit = service.undo_bout(lookup.bout_id(args.bout))
    return emit(args, edit.to_dict(), edit.message)


# --- parser ---------------------------------------------------------------------------------------------


def _sub(group: Any, name: str, parent: argparse.ArgumentParser, help_text: str, handler: Any) -> Any:
    p = group.add_parser(name, parents=[parent], help=help_text, description=help_text)
    add_json(p)
    p.set_defaults(handler=handler)
    return p


def _fighter_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("fighter", metavar="NAME", help="the fighter's name")
    p.add_argument("--campaign", metavar="NAME", help="its campaign, when two campaigns have a fighter of that name")


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    fp = subparsers.add_parser(
        "fighter",
        parents=[parent],
        help="d12 Death Blow fighters and their careers",
        description="d12 Death Blow fighters: level 0-11, XP toward the next level (12 boxes), lifetime XP, record.",
    )
    fs = fp.add_subparsers(dest="fighter_command", metavar="ACTION")
    fs.required = True
    p = _sub(fs, "new", parent, "add a fighter to a Death Blow campaign", _fighter_new)
    p.add_argument("--campaign", required=True, metavar="NAME")
    p.add_argument("--name", required=True)
    p.add_argument("--level", metavar="0..11", help="starting level the players agreed on (default 0)")
    p.add_argument("--notes")
    p = _sub(fs, "list", parent, "list a campaign's fighters", _fighter_list)
    p.add_argument("--campaign", required=True, metavar="NAME")
    p.add_argument("--active", action="store_true", help="leave out retired fighters")
    p = _sub(fs, "show", parent, "a fighter's level, XP, record and bouts", _fighter_show)
    _fighter_arg(p)
    p = _sub(fs, "set", parent, "correct a fighter's level or XP (journalled with the reason)", _fighter_set)
    _fighter_arg(p)
    p.add_argument("--level", metavar="0..11")
    p.add_argument("--xp", metavar="0..11", help="XP toward the next level")
    p.add_argument("--reason", help="why (stored with the correction)")
    p = _sub(fs, "rename", parent, "rename a fighter", _fighter_rename)
    _fighter_arg(p)
    p.add_argument("new_name", metavar="NEW_NAME")
    p = _sub(fs, "notes", parent, "set a fighter's notes", _fighter_notes)
    _fighter_arg(p)
    p.add_argument("--notes", required=True)
    p = _sub(fs, "retire", parent, "retire a fighter (or bring one back with --back)", _fighter_retire)
    _fighter_arg(p)
    p.add_argument("--back", action="store_true", help="bring a retired fighter back")
    p = _sub(fs, "delete", parent, "delete a fighter who fought no other fighter", _fighter_delete)
    _fighter_arg(p)
    p = fs.add_parser(
        "history",
        parents=[parent],
        help="a fighter's timeline, level/XP series and head-to-head",
        description="Every bout, level-up and correction of a fighter, newest first.",
    )
    _fighter_arg(p)
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print JSON: events, series, head-to-head")
    fmt.add_argument("--csv", action="store_true", help="print the timeline as CSV")
    p.set_defaults(handler=_fighter_history)
    p = _sub(fs, "export", parent, "write a fighter's history to a CSV or JSON file", _fighter_export)
    _fighter_arg(p)
    p.add_argument("--output", "-o", required=True, metavar="FILE")
    p.add_argument("--format", choices=("csv", "json"), help="default: from the file name (csv otherwise)")
    p = _sub(fs, "head-to-head", parent, "each pair of a campaign's fighters that met", _head_to_head)
    p.add_argument("--campaign", required=True, metavar="NAME")

    bp = subparsers.add_parser(
        "bout",
        parents=[parent],
        help="d12 Death Blow bouts: log, play solo, odds",
        description="Bouts between fighters: logged from the table or played by the app.",
    )
    bs = bp.add_subparsers(dest="bout_command", metavar="ACTION")
    bs.required = True
    p = _sub(bs, "log", parent, "log a bout played at the table (the app computes the XP)", _bout_log)
    p.add_argument("--fighter", required=True, metavar="NAME")
    p.add_argument("--campaign", metavar="NAME", help="the fighter's campaign, when the name is not unique")
    p.add_argument("--opponent-fighter", metavar="NAME", help="the opponent, a fighter of the same campaign")
    p.add_argument("--opponent", metavar="NAME", help="an outside opponent (give --opponent-level too)")
    p.add_argument("--opponent-level", metavar="0..11", help="the outside opponent's level")
    p.add_argument("--winner", required=True, metavar="NAME|draw", help="who won, or draw")
    p.add_argument("--face-cards", metavar="N", help="face cards (J, Q, K) left in the victor's deck, 0..12")
    p.add_argument("--date", help="YYYY-MM-DD (default today)")
    p.add_argument("--notes")
    p = _sub(bs, "play", parent, "play a solo bout: both decks shuffled, every round by the rules", _bout_play)
    p.add_argument("--fighter", required=True, metavar="NAME")
    p.add_argument("--campaign", metavar="NAME")
    p.add_argument("--opponent-fighter", required=True, metavar="NAME")
    dice = p.add_mutually_exclusive_group()
    dice.add_argument("--seed", help="the bout's seed: the same seed and fighters give the same bout")
    dice.add_argument("--dice", nargs="+", metavar="A,B", help=PLAY_DICE_HELP)
    p.add_argument("--date", help="YYYY-MM-DD (default today)")
    p.add_argument("--notes")
    p = _sub(bs, "show", parent, "a bout with its rounds", _bout_show)
    p.add_argument("bout", metavar="ID")
    p = _sub(bs, "odds", parent, "estimate each side's chance in a solo bout", _bout_odds)
    p.add_argument("--fighter", required=True, metavar="NAME")
    p.add_argument("--campaign", metavar="NAME")
    p.add_argument("--opponent-fighter", required=True, metavar="NAME")
    p.add_argument("--bouts", default=str(20_000), metavar="N", help="how many seeded bouts to play (default 20000)")
    p.add_argument("--seed", default="0", help="the estimate's seed (default 0)")
    p = _sub(bs, "undo", parent, "undo the operation that logged or played a bout", _bout_undo)
    p.add_argument("bout", metavar="ID")
