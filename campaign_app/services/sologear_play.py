"""Playing a Sologear campaign (RULES.md 2.1-2.3): the campaign length roll, battle turns, what the
player records after each battle, the end-of-campaign reckoning, and undoing the last step.

Life of a sheet: active (length rolled, turns played) -> ended (``end_reason``: turns used up, surrendered,
routed, broke through, pilot dead, pilot captured) -> reckoned (recognition, D66, impression, reward or
punishment stored on the sheet). :func:`undo_last` steps back through play one journal operation at a time (the
reckoning, a recorded turn, a turn, the length roll); the journal restores every row exactly. Each roll can be
fed one at a time (the GUI asks for each in turn) through the ``*_procedure`` functions.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..rules import codes
from ..rules.dice import DiceSource
from ..rules.enums import TurnAction
from ..rules.sologear.combat import BUNKERS_TOTAL, REPAIRED_TEXT
from ..rules.sologear.reckoning import EndProcedure
from ..rules.sologear.steps import run
from ..rules.sologear.turn import LengthProcedure, TurnProcedure
from ..store.database import db
from ..store.journal_read import images, list_operations, operation_changes
from ..store.journal_replay import undo as journal_undo
from ..store.models import SologearSheet, SologearTurn
from ..words import plural
from .common import NotFound, ServiceError
from .edits import Edit, Recorder
from .sologear_results import LengthRolled, PlayedTurn, PlayUndone, ReckoningDone, ResultBand, TurnRow
from .sologear_sheet import (
    about_sheet,
    action_label,
    breakout_flags,
    check_sheet_notes,
    check_whole,
    guard_rules,
    had_battle,
    is_reckoned,
    load_sheet,
    next_turn,
    roll_record,
    sheet_forces,
    sheet_turns,
    totals,
    track_rolls,
    turn_end_reason,
    turn_row,
    turn_tallies,
)


def length_procedure(ref: int | SologearSheet) -> LengthProcedure:
    """The campaign-length roll, to be fed one roll at a time (the GUI) or by :func:`roll_length`."""
    sheet = load_sheet(ref)
    if sheet.length is not None:
        raise ServiceError(f"the campaign length is already rolled ({sheet.length} turns); undo it to roll again")
    t = totals(sheet_forces(sheet))
    return guard_rules(lambda: LengthProcedure(t.player_units, t.enemy_units))


def roll_length(ref: int, dice: DiceSource) -> Edit[LengthRolled]:
    """Roll the length: as many d6 as the smaller side has units; the sum is the number of battle turns."""
    sheet = load_sheet(ref)
    proc = length_procedure(sheet)
    run(proc, dice)
    assert proc.length is not None  # run() rolled every die of the length
    rec = Recorder()
    with rec.operation("sologear.length") as op:
        sheet = load_sheet(sheet.id)
        about_sheet(op, sheet, f"roll the campaign length ({plural(proc.length, 'battle turn')})")
        if sheet.length is not None:
            raise ServiceError("the campaign length is already rolled")
        rec.update(sheet, length=proc.length)
        rolls = track_rolls(rec, proc.records, sheet=sheet)
    return Edit(
        "sheet",
        sheet.id,
        f"the campaign lasts {plural(proc.length, 'battle turn')}",
        LengthRolled(length=proc.length, rolls=tuple(roll_record(r) for r in rolls)),
        rec.changes,
    )


ACTIONS = frozenset(TurnAction)


def check_turn_action(action: TurnAction) -> TurnAction:
    """A turn's action (the CLI reads "FIG", "dec" ...; the GUI's buttons give the member)."""
    if not isinstance(action, str) or action not in ACTIONS:
        raise ServiceError(f"the action must be DEC, REP or FIG, not {action!r}")
    return TurnAction(action)


def check_turn_posture(posture: int | None) -> int | None:
    """A FIG posture, −2..+2 (the CLI reads "+2"), or None for DEC and REP."""
    if posture is None:
        return None
    if isinstance(posture, bool) or not isinstance(posture, int) or not -2 <= posture <= 2:
        raise ServiceError(f"posture must be from -2 (Cowardly) to 2 (Bold), not {posture!r}")
    return posture


def turn_procedure(ref: int | SologearSheet, action: TurnAction, posture: int | None = None) -> TurnProcedure:
    """A turn's procedure for this sheet, refusing a turn that cannot be played now."""
    sheet = load_sheet(ref)
    nxt = next_turn(sheet)
    if nxt.blocked:
        raise ServiceError(nxt.blocked)
    action = check_turn_action(action)
    posture = check_turn_posture(posture)
    if action == TurnAction.FIG and nxt.band is None:
        raise ServiceError("no odds yet: enter the units of both sides")
    return guard_rules(
        lambda: TurnProcedure(
            action,
            band=nxt.band,
            posture=posture,
            gear_tv=sheet.gear_tv,
            gear_needs_repair=bool(sheet.gear_damaged or sheet.short_ammo),
            ferocious=bool(sheet.ferocious),
            breakout=nxt.breakout,
        )
    )


def play_turn(ref: int, action: TurnAction, posture: int | None = None, *, dice: DiceSource) -> Edit[PlayedTurn]:
    """Play the next battle turn (DEC, REP or FIG with a posture): roll everything the turn needs (combat
    table, Glory, enemy quality, light critical, battle length, entry edge) and store the turn and its rolls.
    A battle must then be recorded with :func:`record_turn`."""
    sheet = load_sheet(ref)
    proc = turn_procedure(sheet, action, posture)
    guard_rules(lambda: run(proc, dice))
    res = proc.result
    rec = Recorder()
    with rec.operation("sologear.turn") as op:
        sheet = load_sheet(sheet.id)
        turns = sheet_turns(sheet)
        number = (turns[-1].number if turns else 0) + 1
        about_sheet(op, sheet, f"play turn {number}")
        battle = res.action == "fig" and res.battle_length is not None
        gear_damaged = bool(sheet.gear_damaged or res.gear_damaged)
        short_ammo = bool(sheet.short_ammo)
        if res.action == "rep":  # 2.2 REP: the repair turn leaves the Gear repaired and re-armed
            gear_damaged = short_ammo = False
        turn = rec.create(
            SologearTurn,
            sheet=sheet,
            number=number,
            action=res.action,
            posture=res.posture,
            combat_total=res.combat_total,
            odds_column=res.column,
            cell=res.cell,
            repair_hours=res.repair_hours,
            glory_rolled=res.glory,
            enemy_tv=res.enemy_tv,
            battle_length=res.battle_length,
            entry_edge=res.entry_edge,
            ends=res.ends,
            recorded=not battle,
            gear_damaged=gear_damaged,
            short_ammo=short_ammo,
        )
        track_rolls(rec, proc.records, sheet=sheet, turn=turn)
        _flags, breakout_after = breakout_flags(sheet, [*turns, turn])
        reason = turn_end_reason(sheet, turn, breakout_after)
        rec.update(
            sheet,
            gear_damaged=gear_damaged,
            short_ammo=short_ammo,
            status="ended" if reason else "active",
            end_reason=reason,
        )
        flags, _ = breakout_flags(sheet, [*turns, turn])
        row = turn_row(turn, breakout=flags[-1][0], starts_breakout=flags[-1][1])
        summary = _played(row, reason, meaning=tuple(res.meaning))
    message = f"turn {number}: {summary.label}" + (f", {res.cell_text}" if res.cell_text else "")
    if res.action == "rep":
        message += f": {res.repair_hours} hour{'s' if res.repair_hours != 1 else ''} of repairs; {REPAIRED_TEXT}"
    if reason:
        message += f"; the campaign has ended: {codes.end_reason_text(reason)}"
    return Edit("sheet", sheet.id, message, summary, rec.changes)


def _played(row: TurnRow, reason: str | None, meaning: tuple[str, ...] | None = None) -> PlayedTurn:
    """The turn's row with whether (why) the campaign ended (and, just played, what the rolls meant)."""
    fields = {f.name: getattr(row, f.name) for f in dataclasses.fields(row)}
    if meaning is not None:
        fields["meaning"] = meaning
    return PlayedTurn(**fields, campaign_ended=reason, campaign_ended_text=codes.end_reason_text(reason) or None)


def record_turn(
    ref: int,
    number: int,
    *,
    glory: int = 0,
    enemy_tv: int = 0,
    bunkers: int = 0,
    gear_damaged: bool | None = None,
    short_ammo: bool | None = None,
    pilot_dead: bool = False,
    pilot_captured: bool = False,
    notes: str | None = None,
) -> Edit[PlayedTurn]:
    """Record what happened on the table in turn ``number``: Glory collected, enemy TV destroyed, bunkers
    destroyed; and (for the last turn) whether the Gear is damaged / short of ammunition (None: unchanged),
    the pilot dead or captured (which ends the campaign)."""
    glory_n = check_whole(glory, "Glory collected", low=0)
    tv_n = check_whole(enemy_tv, "enemy TV destroyed", low=0)
    bunkers_n = check_whole(bunkers, "bunkers destroyed", low=0, high=BUNKERS_TOTAL)
    number_n = check_whole(number, "turn", low=1)
    if pilot_dead and pilot_captured:
        raise ServiceError("the pilot cannot be both dead and captured")
    rec = Recorder()
    with rec.operation("sologear.record") as op:
        sheet = load_sheet(ref)
        about_sheet(op, sheet, f"record turn {number_n}")
        if is_reckoned(sheet):
            raise ServiceError("the reckoning is done: undo it before changing a turn")
        turns = sheet_turns(sheet)
        turn = next((t for t in turns if t.number == number_n), None)
        if turn is None:
            raise NotFound(f"no turn {number_n} in this campaign ({len(turns)} played)")
        is_last = turn.id == turns[-1].id
        battle = had_battle(turn)
        if not battle and (glory_n or tv_n or bunkers_n or pilot_dead or pilot_captured):
            raise ServiceError(
                f"turn {number_n} ({action_label(turn.action, turn.posture)}) had no battle: only "
                "the Gear's state can be recorded"
            )
        if glory_n > (turn.glory_rolled or 0):
            raise ServiceError(
                f"only {turn.glory_rolled or 0} Glory markers were placed in turn {number_n}, not {glory_n}"
            )
        if tv_n > (turn.enemy_tv or 0):
            raise ServiceError(
                f"no enemy unit appeared in turn {number_n}"
                if not turn.enemy_tv
                else f"the enemy unit in turn {number_n} had TV {turn.enemy_tv}: it cannot lose {tv_n}"
            )
        if not is_last and (gear_damaged is not None or short_ammo is not None or pilot_dead or pilot_captured):
            raise ServiceError(
                "the Gear's state and the pilot's fate can only be recorded for the last turn "
                f"(turn {turns[-1].number})"
            )
        values: dict[str, Any] = {
            "glory_collected": glory_n,
            "enemy_tv_destroyed": tv_n,
            "bunkers_destroyed": bunkers_n,
            "pilot_dead": bool(pilot_dead),
            "pilot_captured": bool(pilot_captured),
            "recorded": True,
        }
        if gear_damaged is not None:
            values["gear_damaged"] = bool(gear_damaged)
        if short_ammo is not None:
            values["short_ammo"] = bool(short_ammo)
        if notes is not None:
            values["notes"] = check_sheet_notes(notes, "turn notes")
        rec.update(turn, **values)
        reason = None
        if is_last:
            _flags, breakout_after = breakout_flags(sheet, turns)
            reason = turn_end_reason(sheet, turn, breakout_after)
            # a turn is played only while the pilot is active: recorded again, the pilot is active unless dead
            # or captured in it
            status = "dead" if pilot_dead else "captured" if pilot_captured else "active"
            rec.update(
                sheet,
                gear_damaged=bool(turn.gear_damaged),
                short_ammo=bool(turn.short_ammo),
                pilot_status=status,
                status="ended" if reason else "active",
                end_reason=reason,
            )
        flags, _ = breakout_flags(sheet, turns)
        index = turns.index(turn)
        summary = _played(turn_row(turn, breakout=flags[index][0], starts_breakout=flags[index][1]), reason)
    message = f"turn {number_n} recorded: {glory_n} Glory, {tv_n} enemy TV, {plural(bunkers_n, 'bunker')}"
    if reason:
        message += f"; the campaign has ended: {codes.end_reason_text(reason)}"
    return Edit("sheet", sheet.id, message, summary, rec.changes)


def end_procedure(ref: int | SologearSheet) -> EndProcedure:
    """The reckoning's rolls (D66, then the reward/punishment roll if noticed), refusing while the campaign
    is not over or a battle is not recorded."""
    sheet = load_sheet(ref)
    if is_reckoned(sheet):
        raise ServiceError("the reckoning of this campaign is already done")
    turns = sheet_turns(sheet)
    if sheet.status != "ended":
        left = f"{len(turns)} of {sheet.length} turns played" if sheet.length else "the length is not rolled"
        raise ServiceError(f"the campaign is not over yet ({left})")
    pending = [t for t in turns if had_battle(t) and not t.recorded]
    if pending:
        raise ServiceError(f"record what happened in turn {pending[-1].number} first")
    return guard_rules(
        lambda: EndProcedure(
            turn_tallies(sheet, turns), reward_dice=sheet.reward_dice, variable=bool(sheet.variable_tables)
        )
    )


def end_campaign(ref: int, dice: DiceSource) -> Edit[ReckoningDone]:
    """The end-of-campaign reckoning: recognition, the D66 noticed roll, impression, the reward or
    punishment roll; stored on the sheet with its rolls."""
    sheet = load_sheet(ref)
    proc = end_procedure(sheet)
    guard_rules(lambda: run(proc, dice))
    res = proc.result
    rec = Recorder()
    with rec.operation("sologear.end") as op:
        sheet = load_sheet(sheet.id)
        about_sheet(op, sheet, "the end-of-campaign reckoning")
        if is_reckoned(sheet):
            raise ServiceError("the reckoning of this campaign is already done")
        rec.update(
            sheet,
            recognition=res.recognition.total,
            noticed=bool(res.noticed),
            d66=res.d66,
            impression=res.impression.total,
            result_table=res.table,
            result=res.result,
            outcome=res.outcome,
        )
        track_rolls(rec, proc.records, sheet=sheet)
        summary = ReckoningDone(
            recognition=res.recognition.total,
            recognition_breakdown=res.recognition.items,
            noticed_on=res.noticed_range,
            noticed=res.noticed,
            d66=res.d66,
            impression=res.impression.total,
            impression_breakdown=res.impression.items,
            table=res.table,
            tables="variable" if proc.variable else "standard",
            roll=res.roll,
            result=res.result,
            band=ResultBand(label=res.band.label, title=res.band.title, text=res.band.text) if res.band else None,
            outcome=res.outcome,
            rolls=tuple(proc.records),
        )
    return Edit("sheet", sheet.id, f"reckoning: {res.outcome}", summary, rec.changes)


PLAY_KINDS: tuple[str, ...] = ("sologear.end", "sologear.record", "sologear.turn", "sologear.length")
"""Operations of playing a Sologear campaign (what ``sologear undo`` steps back through)."""


def undo_last(ref: int) -> Edit[PlayUndone]:
    """Step back once through play, through the journal (every row comes back exactly): the reckoning; else the
    newest turn together with what was recorded for it; else the length roll. Refused, naming it, when a later
    change of the same rows is in the way (nothing is changed then)."""
    sheet = load_sheet(ref)
    with db.atomic():
        found = list_operations(sheet=sheet.id, kinds=PLAY_KINDS, undone=False, limit=1)
        if not found:
            raise ServiceError("nothing to undo in this Sologear campaign")
        info = found[0]
        if info.kind == "sologear.record":
            # a recorded turn is undone with the turn itself: first its records (newest first), then the turn
            turn_ids = {r["id"] for r in images(info.id, "sologear_turn")}
            plays = [
                o for o in list_operations(sheet=sheet.id, kinds=("sologear.turn", "sologear.record"), undone=False)
            ]
            steps = []
            for o in plays:
                steps.append(o)
                if o.kind == "sologear.turn" and {r["id"] for r in images(o.id, "sologear_turn", "insert")} & turn_ids:
                    break
            else:
                steps = [info]
            for o in steps:
                journal_undo(o.id)
            undone = steps
            info = steps[-1]
        else:
            journal_undo(info.id)
            undone = [info]
    what = {
        "sologear.end": "reckoning",
        "sologear.record": "record",
        "sologear.turn": "turn",
        "sologear.length": "length",
    }[info.kind]
    summary = PlayUndone(undone=what)
    turns = images(info.id, "sologear_turn", "insert")
    if what == "turn" and turns:
        row = turns[0]
        summary = PlayUndone(undone=what, turn=row["number"], label=action_label(row["action"], row["posture"]))
    message = {
        "reckoning": "undid the end-of-campaign reckoning",
        "length": "undid the campaign length roll",
        "record": f"undid {info.label}",
    }.get(what) or f"undid turn {summary.turn} ({summary.label})"
    return Edit("sheet", sheet.id, message, summary, operation_changes(info.id), undid=[o.id for o in undone])
