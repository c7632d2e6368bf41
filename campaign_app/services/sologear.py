"""Sologear campaigns (RULES.md §2): the campaign sheet, its forces, the campaign length, battle turns, what
the player records after each battle, the end-of-campaign reckoning, undo, and the sheet as data.

A Sologear campaign is a ``Campaign`` row with system "sologear" and one ``SologearSheet``. Every write is
one transaction, refuses bad input with a :class:`ServiceError` (nothing written) and returns an
:class:`~.edits.Edit` (``summary`` is what the CLI prints; ``changes`` says what its journal operation touched).

Life of a sheet: active (length rolled, turns played) -> ended (``end_reason``: turns used up,
surrendered, routed, broke through, pilot dead, pilot captured) -> reckoned (recognition, D66, impression,
reward or punishment stored on the sheet). :func:`undo_last` steps back through play one journal operation at
a time (the reckoning, a recorded turn, a turn, the length roll); the journal restores every row exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any, TypeVar, cast

from ..rules import codes
from ..rules import sologear as sg
from ..rules.dice import DiceSource, RollRecord
from ..rules.experience import RulesError
from ..store.database import db
from ..store.journal import Operation, images, list_operations, operation_changes
from ..store.journal import undo as journal_undo
from ..store.models import Campaign, Roll, SologearForce, SologearSheet, SologearTurn
from ..words import plural
from .campaigns import check_name, create_campaign, rename_campaign
from .common import NotFound, ServiceError, check_line, check_multiline, find_sheet, roll_to_dict, store_rolls
from .edits import Edit, Recorder

T = TypeVar("T")

HEADER_FIELDS: tuple[str, ...] = ("date", "area", "pilot", "gear_name", "gear_tv", "player_unit",
                                  "player_affiliation", "enemy_unit", "enemy_affiliation", "notes")
"""Sheet fields the user edits directly (plus the campaign ``name``)."""

TEXT_MAX = 120
NOTES_MAX = 10_000
STATE_FIELDS: tuple[str, ...] = ("gear_damaged", "short_ammo", "pilot_status", "status", "end_reason")
"""The sheet's state a turn may change (undo restores it from the journal)."""

LENGTH_RULE = codes.RULE_LENGTH
RECKONING_RULE_PREFIX = codes.RECKONING_RULE_PREFIX


# --- helpers ---------------------------------------------------------------------------------------------

@contextmanager
def _rules_errors() -> Any:
    """Rules errors become service errors (one message, nothing written)."""
    try:
        yield
    except RulesError as exc:
        raise ServiceError(str(exc)) from None


def _guard(fn: Callable[[], T]) -> T:
    with _rules_errors():
        return fn()


def _sheet(ref: str | int | SologearSheet) -> SologearSheet:
    if isinstance(ref, SologearSheet):
        return SologearSheet.get_by_id(ref.id)
    return find_sheet(ref)


def _text(value: Any, what: str) -> str:
    return check_line(value, what, TEXT_MAX)


def _notes(value: Any, what: str = "notes") -> str:
    return check_multiline(value, what, NOTES_MAX, verb="are")


def _whole(value: Any, what: str, low: int | None = 0, high: int | None = None) -> int:
    if isinstance(value, bool):
        raise ServiceError(f"{what} must be a whole number, not {value!r}")
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise ServiceError(f"{what} must be a whole number, not {value!r}") from None
    if low is not None and number < low:
        raise ServiceError(f"{what} must be at least {low}, not {number}")
    if high is not None and number > high:
        raise ServiceError(f"{what} must be at most {high}, not {number}")
    return number


def _number(value: Any, what: str, high: float | None = None) -> float:
    if isinstance(value, bool):
        raise ServiceError(f"{what} must be a number, not {value!r}")
    try:
        number = float(str(value).strip())
    except (TypeError, ValueError):
        raise ServiceError(f"{what} must be a number, not {value!r}") from None
    if not math.isfinite(number) or number < 0:
        raise ServiceError(f"{what} must be a number of 0 or more, not {value!r}")
    if high is not None and number > high:
        raise ServiceError(f"{what} must be at most {high:,.0f}, not {value!r}")
    return number


def _gear_tv(value: Any) -> int:
    return _whole(value, "the Gear's TV", low=1, high=100000)


def _forces(sheet: SologearSheet) -> list[SologearForce]:
    return list(SologearForce.select().where(SologearForce.sheet == sheet)
                .order_by(SologearForce.side, SologearForce.position, SologearForce.id))


def _turns(sheet: SologearSheet) -> list[SologearTurn]:
    return list(SologearTurn.select().where(SologearTurn.sheet == sheet).order_by(SologearTurn.number))


def _reckoned(sheet: SologearSheet) -> bool:
    return sheet.noticed is not None


def _track_rolls(rec: Recorder, records: Sequence[RollRecord], start_seq: int = 0, **links: Any) -> list[Roll]:
    return store_rolls(records, start_seq=start_seq, **links)


def _about(op: Operation, sheet: SologearSheet, label: str) -> None:
    """The operation concerns this sheet (and its campaign); its label names the pilot."""
    op.target(campaign=sheet.campaign_id, sheet=sheet.id)
    if not op.merged:
        op.label = f"{sheet.pilot}: {label}"


_plural = plural


def _state(sheet: SologearSheet) -> dict[str, Any]:
    return {name: getattr(sheet, name) for name in STATE_FIELDS}


def _breakout_flags(sheet: SologearSheet, turns: Sequence[SologearTurn]) -> tuple[list[tuple[bool, bool]], bool]:
    """The break-out state of each turn (the rule: :func:`campaign_app.rules.sologear.breakout_flags`)."""
    return sg.breakout_flags(bool(sheet.ferocious), [(t.cell, t.ends) for t in turns])


def _battle(turn: SologearTurn) -> bool:
    """Was there a battle on the table to record (a FIG turn with a battle length)?"""
    return turn.action == "fig" and turn.battle_length is not None


def _end_reason(sheet: SologearSheet, turn: SologearTurn, breakout_after: bool) -> str | None:
    return sg.end_reason(number=turn.number, length=sheet.length, ends=turn.ends, pilot_dead=bool(turn.pilot_dead),
                         pilot_captured=bool(turn.pilot_captured), breakout_after=breakout_after)


# --- reading -------------------------------------------------------------------------------------------------

def force_dict(f: SologearForce) -> dict[str, Any]:
    total = sg.unit_total(f.base_power, f.skill, f.loyalty)
    return {"id": f.id, "side": f.side, "name": f.name, "company_tv": f.company_tv, "base_power": f.base_power,
            "skill": f.skill, "skill_x": sg.SKILL_MULTIPLIERS[f.skill], "loyalty": f.loyalty,
            "loyalty_x": sg.LOYALTY_MULTIPLIERS[f.loyalty], "total": total, "position": f.position}


def totals(forces: Sequence[dict[str, Any]] | Sequence[SologearForce]) -> dict[str, Any]:
    """Both sides' totals, unit counts and the odds (``None`` while a side has no power)."""
    out: dict[str, Any] = {}
    exact = {}
    for side in sg.SIDES:
        units = [(f["base_power"], f["skill"], f["loyalty"]) if isinstance(f, dict)
                 else (f.base_power, f.skill, f.loyalty) for f in forces
                 if (f["side"] if isinstance(f, dict) else f.side) == side]
        exact[side] = sg.force_total_exact(units)
        out[side] = float(exact[side])
        out[f"{side}_units"] = len(units)
    if exact["enemy"] > 0:
        ratio = exact["player"] / exact["enemy"]
        out["odds"] = {"ratio": float(ratio), "band": sg.odds_band(ratio), "ratio_text": sg.ratio_text(ratio)}
    else:
        out["odds"] = None
    return out


def _rolls_of(query: Any) -> list[dict[str, Any]]:
    return [roll_to_dict(r) for r in query.order_by(Roll.id)]


def _action_label(turn: Any) -> str:
    if turn.action == "fig":
        return f"FIG({turn.posture:+d})" if turn.posture else "FIG(0)"
    return sg.ACTIONS[turn.action]


def turn_dict(turn: SologearTurn, *, breakout: bool = False, starts_breakout: bool = False,
              rolls: Sequence[Roll] | None = None) -> dict[str, Any]:
    roll_rows = list(rolls) if rolls is not None else list(
        Roll.select().where(Roll.turn == turn).order_by(Roll.seq, Roll.id))
    light = next((r for r in roll_rows if r.purpose == codes.PURPOSE_LIGHT_CRITICAL), None)
    meaning: list[str] = []
    if turn.action == "dec":
        meaning.append("DEC: the pilot declined the battle")
    for r in roll_rows:
        shown = codes.purpose_text(r.purpose)
        meaning.append(f"{shown}: {r.outcome}" if r.outcome else shown)
    if turn.action == "rep":
        meaning.append(sg.REPAIRED_TEXT)
    if starts_breakout:
        meaning.append("ferocious battles: no surrender; the pilot must fight her way out")
    special: list[str] = []
    if turn.bunkers_destroyed:
        special.append(f"{turn.bunkers_destroyed} bunker{'s' if turn.bunkers_destroyed != 1 else ''}")
    if turn.repair_hours is not None:
        special.append(f"repairs {turn.repair_hours} h")
    if turn.cell and turn.cell.get("hit"):
        if turn.cell["hit"] == "##" or (light is not None and light.total > 0):
            special.append("light critical")
        else:
            special.append("hit, no damage")
    if starts_breakout:
        special.append("surrounded: break-out")
    if breakout:
        special.append("break-out")
    if turn.ends:
        special.append({"surrendered": "surrendered (S)", "routed": "routed (E)",
                        "broke_through": "broke through"}[turn.ends])
    if turn.pilot_dead:
        special.append("pilot dead")
    if turn.pilot_captured:
        special.append("pilot captured")
    if _battle(turn) and not turn.recorded:
        special.append("not recorded yet")
    enemy = ""
    if turn.enemy_tv is not None:
        enemy = f"{turn.enemy_tv_destroyed}/{turn.enemy_tv} TV" if turn.recorded else f"TV {turn.enemy_tv} met"
    elif turn.enemy_tv_destroyed:
        enemy = f"{turn.enemy_tv_destroyed} TV"
    glory = ""
    if turn.action == "fig" and (turn.glory_rolled is not None or turn.glory_collected):
        counted = turn.glory_collected * (2 if breakout else 1)
        glory = (f"{counted}" + (" (×2)" if breakout and turn.glory_collected else "")
                 if turn.recorded else f"{turn.glory_rolled or 0} placed")
    return {
        "turn": turn.number, "id": turn.id, "action": turn.action, "label": _action_label(turn),
        "posture": turn.posture, "posture_name": sg.POSTURES.get(turn.posture) if turn.posture is not None
        else None, "combat_total": turn.combat_total, "column": turn.odds_column, "cell": turn.cell,
        "cell_text": sg.cell_text(turn.cell) if turn.cell else None, "glory": turn.glory_rolled,
        "enemy_tv": turn.enemy_tv, "light_critical": light.total if light is not None else None,
        "repair_hours": turn.repair_hours, "battle_length": turn.battle_length, "entry_edge": turn.entry_edge,
        "ends": turn.ends, "breakout": breakout, "starts_breakout": starts_breakout, "battle": _battle(turn),
        "recorded": bool(turn.recorded),
        "result": {"glory_collected": turn.glory_collected, "enemy_tv_destroyed": turn.enemy_tv_destroyed,
                   "bunkers_destroyed": turn.bunkers_destroyed, "gear_damaged": bool(turn.gear_damaged),
                   "short_ammo": bool(turn.short_ammo), "pilot_dead": bool(turn.pilot_dead),
                   "pilot_captured": bool(turn.pilot_captured)},
        "notes": turn.notes, "meaning": meaning,
        "form": {"turn": str(turn.number), "action": _action_label(turn), "enemy": enemy, "glory": glory,
                 "special": ", ".join(special)},
        "rolls": [roll_to_dict(r) for r in roll_rows],
    }


def _tallies(sheet: SologearSheet, turns: Sequence[SologearTurn]) -> list[sg.TurnTally]:
    flags, _ = _breakout_flags(sheet, turns)
    return [sg.TurnTally(t.action, t.posture, t.glory_collected, t.bunkers_destroyed, t.enemy_tv_destroyed,
                         breakout=during) for t, (during, _s) in zip(turns, flags, strict=True)]


def reckoning(ref: str | int | SologearSheet) -> dict[str, Any]:
    """The end-of-campaign reckoning: stored values if done, else a preview of recognition and impression
    from the turns so far (``final`` False)."""
    sheet = _sheet(ref)
    tallies = _tallies(sheet, _turns(sheet))
    rec, imp = sg.recognition(tallies), sg.impression(tallies)
    rewards, punishments = sg.result_tables(bool(sheet.variable_tables))
    band = None
    if sheet.result is not None and sheet.result_table:
        _table, found = sg.lookup_result(sheet.result, sheet.impression or 0, variable=bool(sheet.variable_tables))
        band = {"label": found.label, "title": found.title, "text": found.text}
    rolls = _rolls_of(Roll.select().where((Roll.sheet == sheet) & Roll.turn.is_null()
                                          & Roll.rule.startswith(RECKONING_RULE_PREFIX)))
    return {
        "final": _reckoned(sheet),
        "recognition": sheet.recognition if _reckoned(sheet) else rec.total,
        "recognition_breakdown": [i.to_dict() for i in rec.items],
        "noticed_on": sg.noticed_label(rec.total),
        "d66": sheet.d66, "noticed": sheet.noticed,
        "impression": sheet.impression if _reckoned(sheet) else imp.total,
        "impression_breakdown": [i.to_dict() for i in imp.items],
        "table": sheet.result_table, "result": sheet.result, "band": band,
        "outcome": sheet.outcome,
        "tables": "variable" if sheet.variable_tables else "standard",
        "reward_dice": sheet.reward_dice,
        "reward_table_names": {"rewards": [b.label for b in rewards], "punishments": [b.label for b in punishments]},
        "rolls": rolls,
    }


def next_turn(ref: str | int | SologearSheet) -> dict[str, Any]:
    """What the next turn can be: its number, the odds column, the actions allowed, or why none can be
    played (``blocked``)."""
    sheet = _sheet(ref)
    turns = _turns(sheet)
    _flags, breakout = _breakout_flags(sheet, turns)
    t = totals(_forces(sheet))
    blocked = None
    if _reckoned(sheet):
        blocked = "the campaign is over and its reckoning is done"
    elif sheet.status == "ended":
        blocked = f"the campaign has ended ({codes.end_reason_text(sheet.end_reason)}): no more turns"
    elif sheet.length is None:
        blocked = "roll the campaign length first"
    else:
        pending = [x for x in turns if _battle(x) and not x.recorded]
        if pending:
            blocked = f"record what happened in turn {pending[-1].number} first"
    needs_repair = bool(sheet.gear_damaged or sheet.short_ammo)
    actions = ["fig"] if breakout else ["dec", *(["rep"] if needs_repair else []), "fig"]
    band = "Losing" if breakout else (t["odds"]["band"] if t["odds"] else None)
    return {"number": (turns[-1].number if turns else 0) + 1, "length": sheet.length, "band": band,
            "ratio": t["odds"]["ratio"] if t["odds"] and not breakout else None,
            "ratio_text": t["odds"]["ratio_text"] if t["odds"] and not breakout else None, "breakout": breakout,
            "actions": actions, "can_rep": needs_repair and not breakout, "gear_tv": sheet.gear_tv,
            "ferocious": bool(sheet.ferocious), "blocked": blocked,
            "posture_fixed": 2 if breakout else None}


def sheet_data(ref: str | int | SologearSheet) -> dict[str, Any]:
    """A sheet's full data (header, options, state, both sides' units with totals and odds, the battle form
    with every turn and roll, the reckoning): what ``sologear show --json`` prints and the printed sheet
    uses."""
    sheet = _sheet(ref)
    camp = Campaign.get_by_id(sheet.campaign_id)
    forces = [force_dict(f) for f in _forces(sheet)]
    t = totals(forces)
    turns = _turns(sheet)
    flags, breakout = _breakout_flags(sheet, turns)
    rolls_by_turn: dict[int | None, list[Roll]] = {}
    for r in Roll.select().where(Roll.turn.in_([x.id for x in turns])).order_by(Roll.seq, Roll.id):
        rolls_by_turn.setdefault(r.turn_id, []).append(r)
    turn_rows = [turn_dict(x, breakout=during, starts_breakout=starts, rolls=rolls_by_turn.get(x.id, []))
                 for x, (during, starts) in zip(turns, flags, strict=True)]
    length_rolls = _rolls_of(Roll.select().where((Roll.sheet == sheet) & (Roll.rule == LENGTH_RULE)))
    length_dice = None
    if t["player_units"] and t["enemy_units"]:
        length_dice = f"{min(t['player_units'], t['enemy_units'])}d6"
    return {
        "id": sheet.id, "campaign": {"id": camp.id, "name": camp.name, "archived": bool(camp.archived)},
        "name": camp.name,
        **{name: getattr(sheet, name) for name in HEADER_FIELDS},
        "length": sheet.length, "length_dice": length_dice, "length_rolls": length_rolls,
        "options": {"variable_tables": bool(sheet.variable_tables), "ferocious": bool(sheet.ferocious),
                    "reward_dice": sheet.reward_dice},
        "state": {"gear_damaged": bool(sheet.gear_damaged), "short_ammo": bool(sheet.short_ammo),
                  "pilot_status": sheet.pilot_status, "status": sheet.status, "end_reason": sheet.end_reason,
                  "end_text": codes.end_reason_text(sheet.end_reason) or None,
                  "breakout": breakout, "reckoned": _reckoned(sheet)},
        "enemy_quality_column": sg.enemy_column_label(sg.gear_tv_column(sheet.gear_tv)),
        "forces": {side: [f for f in forces if f["side"] == side] for side in sg.SIDES},
        "totals": {"player": t["player"], "enemy": t["enemy"]},
        "odds": t["odds"],
        "turns_played": len(turns),
        "turns_left": (max(0, sheet.length - len(turns)) if sheet.length is not None else None),
        "turns": turn_rows,
        "next": next_turn(sheet),
        "reckoning": reckoning(sheet),
        "created_at": sheet.created_at.isoformat(sep=" ") if sheet.created_at else None,
    }


def history(ref: str | int | SologearSheet, data: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The campaign's history, oldest first: the length roll, each turn with its rolls and what was
    recorded, the reckoning. Each entry: ``{"kind", "turn", "text", "roll"}`` (roll is a dict or None).
    ``data``: the sheet's :func:`sheet_data` if the caller has it already."""
    data = data if data is not None else sheet_data(ref)
    out: list[dict[str, Any]] = []

    def roll_entry(r: dict[str, Any], turn: int | None) -> dict[str, Any]:
        faces = ",".join(str(f) for f in r["faces"])
        text = f"{r['purpose_text']}: {r['expression']} [{faces}] = {r['total']}"
        if r["table_row"]:
            text += f" → {r['table_row']}"
        if r["outcome"]:
            text += f" ({r['outcome']})"
        text += " · typed" if r["source"] == "entered" else " · app"
        return {"kind": "roll", "turn": turn, "text": text, "roll": r}

    out.append({"kind": "sheet", "turn": None, "roll": None,
                "text": f"Campaign sheet: {data['pilot']} in {data['gear_name'] or 'a Gear'} "
                        f"(TV {data['gear_tv']})"})
    for r in data["length_rolls"]:
        out.append(roll_entry(r, None))
    for t in data["turns"]:
        head = f"Turn {t['turn']}: {t['label']}"
        if t["column"]:
            head += f", {t['column']} column"
        if t["breakout"]:
            head += " (break-out)"
        out.append({"kind": "turn", "turn": t["turn"], "roll": None, "text": head})
        for r in t["rolls"]:
            out.append(roll_entry(r, t["turn"]))
        if t["battle"] and t["recorded"]:
            res = t["result"]
            bits = [f"{res['glory_collected']} Glory", f"{res['enemy_tv_destroyed']} enemy TV destroyed",
                    _plural(res['bunkers_destroyed'], "bunker")]
            if res["pilot_dead"]:
                bits.append("pilot dead")
            if res["pilot_captured"]:
                bits.append("pilot captured")
            out.append({"kind": "record", "turn": t["turn"], "roll": None,
                        "text": f"Turn {t['turn']} recorded: " + ", ".join(bits)})
    if data["state"]["status"] == "ended":
        out.append({"kind": "end", "turn": None, "roll": None,
                    "text": f"Campaign ended: {data['state']['end_text']}"})
    rk = data["reckoning"]
    for r in rk["rolls"]:
        out.append(roll_entry(r, None))
    if rk["final"]:
        out.append({"kind": "reckoning", "turn": None, "roll": None,
                    "text": f"Reckoning: recognition {rk['recognition']}, impression {rk['impression']}; "
                            f"{rk['outcome']}"})
    return out


def find_sheet_id(ref: str | int) -> int:
    return _sheet(ref).id


# --- the sheet ---------------------------------------------------------------------------------------------

def _s(items: Any) -> str:
    """The plural ending for a count or a collection ("field" / "fields")."""
    return "" if (items if isinstance(items, int) else len(items)) == 1 else "s"


def create_sheet(name: str, pilot: str, gear_tv: Any, *, date: str = "", area: str = "", gear_name: str = "",
                 player_unit: str = "", player_affiliation: str = "", enemy_unit: str = "",
                 enemy_affiliation: str = "", variable_tables: bool = False, ferocious: bool = False,
                 reward_dice: str = sg.DEFAULT_REWARD_DICE, notes: str = "", campaign: int | None = None) -> Edit:
    """A new Sologear campaign: a Campaign (system "sologear") and its sheet. With ``campaign`` (the id of a
    Sologear campaign that has no sheet yet, e.g. one made by ``campaign new --system sologear``) the sheet goes
    into that campaign instead, and ``name`` is not used."""
    name = check_name(name, "campaign") if campaign is None else ""
    pilot = _text(pilot, "the pilot's name")
    if not pilot:
        raise ServiceError("the pilot's name must not be empty")
    tv = _gear_tv(gear_tv)
    dice = _guard(lambda: sg.check_reward_dice(reward_dice)).expression
    values = {"date": _text(date, "date"), "area": _text(area, "area"), "gear_name": _text(gear_name, "Gear name"),
              "player_unit": _text(player_unit, "player unit"),
              "player_affiliation": _text(player_affiliation, "player affiliation"),
              "enemy_unit": _text(enemy_unit, "enemy unit"),
              "enemy_affiliation": _text(enemy_affiliation, "enemy affiliation")}
    rec = Recorder()
    with rec.operation("sheet.create") as op:
        if campaign is None:
            made = create_campaign(name, "sologear", notes="")
            campaign_id = made.id
        else:
            camp = Campaign.get_or_none(Campaign.id == campaign)
            if camp is None:
                raise NotFound(f"no campaign with id {campaign}")
            if camp.system != "sologear":
                raise ServiceError(f"campaign {camp.name!r} is not a Sologear campaign")
            if SologearSheet.select().where(SologearSheet.campaign == camp.id).exists():
                raise ServiceError(f"campaign {camp.name!r} already has its pilot sheet")
            campaign_id, name = camp.id, camp.name
        sheet = rec.create(SologearSheet, campaign=campaign_id, pilot=pilot, gear_tv=tv,
                           variable_tables=bool(variable_tables), ferocious=bool(ferocious), reward_dice=dice,
                           notes=_notes(notes), **values)
        op.target(campaign=campaign_id, sheet=sheet.id)
        op.label = f"Create Sologear campaign {name} for {pilot}"
        summary = sheet_data(sheet)
    return Edit("sheet", sheet.id, f"created Sologear campaign {name!r} for pilot {pilot}", summary, rec.changes)


def update_sheet(ref: str | int, **fields: Any) -> Edit:
    """Edit the sheet's header: ``name`` (the campaign's), date, area, pilot, gear_name, gear_tv, units and
    affiliations, notes."""
    unknown = set(fields) - {"name", *HEADER_FIELDS}
    if unknown:
        raise ServiceError(f"unknown sheet field{_s(unknown)}: {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "name":
            continue
        if key == "gear_tv":
            values[key] = _gear_tv(value)
        elif key == "notes":
            values[key] = _notes(value)
        else:
            values[key] = _text(value, key.replace("_", " "))
            if key == "pilot" and not values[key]:
                raise ServiceError("the pilot's name must not be empty")
    rec = Recorder()
    with rec.operation("sheet.edit") as op:
        sheet = _sheet(ref)
        _about(op, sheet, "edit the sheet")
        changed = rec.update(sheet, **values)
        camp = Campaign.get_by_id(sheet.campaign_id)
        if "name" in fields and check_name(fields["name"], "campaign") != camp.name:
            renamed = rename_campaign(camp.id, fields["name"])
            op.label = f"{sheet.pilot}: edit the sheet"  # the rename joined this operation
            changed["name"] = (renamed.summary["old"], renamed.summary["new"])
    text = ", ".join(f"{k} {old!r} \u2192 {new!r}" for k, (old, new) in changed.items()) or "nothing changed"
    return Edit("sheet", sheet.id, f"sheet: {text}", {"id": sheet.id, "old": {k: v[0] for k, v in changed.items()},
                                                      "new": {k: v[1] for k, v in changed.items()}}, rec.changes)


def set_options(ref: str | int, *, variable_tables: bool | None = None, ferocious: bool | None = None,
                reward_dice: str | None = None) -> Edit:
    """⚙ The optional rules: variable (milder) reward/punishment tables, ferocious battles, reward-roll
    dice. Ferocious battles are fixed once a turn is played; nothing changes after the reckoning."""
    values: dict[str, Any] = {}
    if variable_tables is not None:
        values["variable_tables"] = bool(variable_tables)
    if reward_dice is not None:
        values["reward_dice"] = _guard(lambda: sg.check_reward_dice(reward_dice)).expression
    rec = Recorder()
    with rec.operation("sheet.options") as op:
        sheet = _sheet(ref)
        _about(op, sheet, "change the optional rules")
        if _reckoned(sheet):
            raise ServiceError("the reckoning is done: undo it before changing the optional rules")
        if ferocious is not None and bool(ferocious) != bool(sheet.ferocious):
            if _turns(sheet):
                raise ServiceError("ferocious battles cannot be switched once turns have been played")
            values["ferocious"] = bool(ferocious)
        changed = rec.update(sheet, **values)
    text = ", ".join(f"{k} {old!r} \u2192 {new!r}" for k, (old, new) in changed.items()) or "nothing changed"
    return Edit("sheet", sheet.id, f"options: {text}", sheet_data(sheet)["options"], rec.changes)


# --- forces ------------------------------------------------------------------------------------------------

def _force_values(side: Any = None, name: Any = None, base_power: Any = None, company_tv: Any = None,
                  skill: Any = None, loyalty: Any = None, *, creating: bool) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if side is not None or creating:
        key = str(side or "").strip().lower()
        if key not in sg.SIDES:
            raise ServiceError(f"side must be 'player' or 'enemy', not {side!r}")
        values["side"] = key
    if name is not None or creating:
        text = _text(name, "unit name")
        if not text:
            raise ServiceError("a unit needs a name")
        values["name"] = text
    if company_tv is not None and company_tv != "":
        tv = _whole(company_tv, "company TV", low=0, high=sg.MAX_COMPANY_TV)
        values["company_tv"] = tv
        if base_power is None or base_power == "":
            values["base_power"] = sg.base_power_from_tv(tv)
    if base_power is not None and base_power != "":
        values["base_power"] = _number(base_power, "base power", high=sg.MAX_BASE_POWER)
    if creating and "base_power" not in values:
        raise ServiceError("give the unit's base power or its company TV (base power = TV / 20)")
    if skill is not None or creating:
        values["skill"] = _guard(lambda: sg.skill_word(skill or "regular"))
    if loyalty is not None or creating:
        values["loyalty"] = _guard(lambda: sg.loyalty_word(loyalty or "reliable"))
    return values


FORCE_LOCKED_FIELDS: tuple[str, ...] = ("side", "base_power", "company_tv", "skill", "loyalty")
"""What may no longer change once the campaign length is rolled (the units' names may)."""


def forces_locked(sheet: SologearSheet) -> bool:
    """Once the length is rolled, the sides are fixed: no unit added or removed, no power changed."""
    return sheet.length is not None


def _open_sheet_for_forces(sheet: SologearSheet, what: str | None = None) -> None:
    if _reckoned(sheet):
        raise ServiceError("the reckoning is done: undo it before changing the units")
    if what is not None and forces_locked(sheet):
        length = cast(int, sheet.length)  # locked: the length is rolled
        raise ServiceError(f"the campaign length is rolled ({_plural(length, 'turn')}): {what} is no longer "
                           "possible; undo the length roll first (only names can change)")


def add_force(ref: str | int, side: str, name: str, *, base_power: Any = None, company_tv: Any = None,
              skill: str = "regular", loyalty: str = "reliable") -> Edit:
    """Add a company-sized unit to one side (base power entered, or computed from the company's TV / 20)."""
    values = _force_values(side, name, base_power, company_tv, skill, loyalty, creating=True)
    rec = Recorder()
    with rec.operation("force.add") as op:
        sheet = _sheet(ref)
        _about(op, sheet, f"add {values['side']} unit {values['name']}")
        _open_sheet_for_forces(sheet, "adding a unit")
        last = (SologearForce.select().where((SologearForce.sheet == sheet) & (SologearForce.side == values["side"]))
                .order_by(SologearForce.position.desc()).first())
        force = rec.create(SologearForce, sheet=sheet, position=(last.position + 1) if last else 0, **values)
        summary = force_dict(force)
    return Edit("sheet", sheet.id, f"added {values['side']} unit {values['name']!r} (total {summary['total']:g})",
                summary, rec.changes)


def _force(force_id: int, sheet: SologearSheet | None = None) -> SologearForce:
    force = SologearForce.get_or_none(SologearForce.id == force_id)
    if force is None or (sheet is not None and force.sheet_id != sheet.id):
        raise NotFound(f"no unit with id {force_id}" + (" in this campaign" if sheet is not None else ""))
    return force


def update_force(force_id: int, *, sheet: str | int | None = None, **fields: Any) -> Edit:
    """Change a unit's side, name, base power, company TV (which recomputes the base unless a base is
    given too), skill or loyalty."""
    unknown = set(fields) - {"side", "name", "base_power", "company_tv", "skill", "loyalty"}
    if unknown:
        raise ServiceError(f"unknown unit field{_s(unknown)}: {', '.join(sorted(unknown))}")
    values = _force_values(creating=False, **fields)
    rec = Recorder()
    with rec.operation("force.edit") as op:
        force = _force(force_id, _sheet(sheet) if sheet is not None else None)
        sheet_row = SologearSheet.get_by_id(force.sheet_id)
        _about(op, sheet_row, f"edit unit {force.name}")
        _open_sheet_for_forces(sheet_row)
        locked = [k for k in FORCE_LOCKED_FIELDS if k in values and getattr(force, k) != values[k]]
        if locked:
            _open_sheet_for_forces(sheet_row, f"changing a unit's {', '.join(k.replace('_', ' ') for k in locked)}")
        changed = rec.update(force, **values)
        summary = force_dict(force)
    text = ", ".join(f"{k} {old!r} \u2192 {new!r}" for k, (old, new) in changed.items()) or "nothing changed"
    return Edit("sheet", sheet_row.id, f"unit {force.name!r}: {text}", summary, rec.changes)


def remove_force(force_id: int, *, sheet: str | int | None = None) -> Edit:
    rec = Recorder()
    with rec.operation("force.remove") as op:
        force = _force(force_id, _sheet(sheet) if sheet is not None else None)
        sheet_row = SologearSheet.get_by_id(force.sheet_id)
        _about(op, sheet_row, f"remove unit {force.name}")
        _open_sheet_for_forces(sheet_row, "removing a unit")
        summary = force_dict(force)
        rec.delete(SologearForce, force.id)
    return Edit("sheet", sheet_row.id, f"removed {summary['side']} unit {summary['name']!r}", summary, rec.changes)


# --- length ------------------------------------------------------------------------------------------------

def length_procedure(ref: str | int | SologearSheet) -> sg.LengthProcedure:
    """The campaign-length roll, to be fed one roll at a time (the GUI) or by :func:`roll_length`."""
    sheet = _sheet(ref)
    if sheet.length is not None:
        raise ServiceError(f"the campaign length is already rolled ({sheet.length} turns); undo it to roll again")
    t = totals(_forces(sheet))
    return _guard(lambda: sg.LengthProcedure(t["player_units"], t["enemy_units"]))


def roll_length(ref: str | int, dice: DiceSource) -> Edit:
    """Roll the length: as many d6 as the smaller side has units; the sum is the number of battle turns."""
    sheet = _sheet(ref)
    proc = length_procedure(sheet)
    sg.run(proc, dice)
    assert proc.length is not None  # run() rolled every die of the length
    rec = Recorder()
    with rec.operation("sologear.length") as op:
        sheet = _sheet(sheet.id)
        _about(op, sheet, f"roll the campaign length ({_plural(proc.length, 'battle turn')})")
        if sheet.length is not None:
            raise ServiceError("the campaign length is already rolled")
        rec.update(sheet, length=proc.length)
        rolls = _track_rolls(rec, proc.records, sheet=sheet)
    return Edit("sheet", sheet.id, f"the campaign lasts {_plural(proc.length, 'battle turn')}",
                {"length": proc.length, "rolls": [roll_to_dict(r) for r in rolls]}, rec.changes)


# --- battle turns ------------------------------------------------------------------------------------------

def turn_procedure(ref: str | int | SologearSheet, action: str, posture: Any = None) -> sg.TurnProcedure:
    """A turn's procedure for this sheet, refusing a turn that cannot be played now."""
    sheet = _sheet(ref)
    nxt = next_turn(sheet)
    if nxt["blocked"]:
        raise ServiceError(nxt["blocked"])
    action = _guard(lambda: sg.check_action(action))
    if action == "fig" and nxt["band"] is None:
        raise ServiceError("no odds yet: enter the units of both sides")
    if posture is not None and str(posture).strip() == "":
        posture = None
    return _guard(lambda: sg.TurnProcedure(
        action, band=nxt["band"], posture=posture, gear_tv=sheet.gear_tv,
        gear_needs_repair=bool(sheet.gear_damaged or sheet.short_ammo), ferocious=bool(sheet.ferocious),
        breakout=nxt["breakout"]))


def play_turn(ref: str | int, action: str, posture: Any = None, *, dice: DiceSource) -> Edit:
    """Play the next battle turn (DEC, REP or FIG with a posture): roll everything the turn needs (combat
    table, Glory, enemy quality, light critical, battle length, entry edge) and store the turn and its rolls.
    A battle must then be recorded with :func:`record_turn`."""
    sheet = _sheet(ref)
    proc = turn_procedure(sheet, action, posture)
    _guard(lambda: sg.run(proc, dice))
    res = proc.result
    rec = Recorder()
    with rec.operation("sologear.turn") as op:
        sheet = _sheet(sheet.id)
        turns = _turns(sheet)
        number = (turns[-1].number if turns else 0) + 1
        _about(op, sheet, f"play turn {number}")
        battle = res.action == "fig" and res.battle_length is not None
        gear_damaged = bool(sheet.gear_damaged or res.gear_damaged)
        short_ammo = bool(sheet.short_ammo)
        if res.action == "rep":  # 2.2 REP: the repair turn leaves the Gear repaired and re-armed
            gear_damaged = short_ammo = False
        turn = rec.create(
            SologearTurn, sheet=sheet, number=number, action=res.action, posture=res.posture,
            combat_total=res.combat_total, odds_column=res.column, cell=res.cell, repair_hours=res.repair_hours,
            glory_rolled=res.glory, enemy_tv=res.enemy_tv, battle_length=res.battle_length,
            entry_edge=res.entry_edge, ends=res.ends, recorded=not battle, gear_damaged=gear_damaged,
            short_ammo=short_ammo)
        _track_rolls(rec, proc.records, sheet=sheet, turn=turn)
        _flags, breakout_after = _breakout_flags(sheet, [*turns, turn])
        reason = _end_reason(sheet, turn, breakout_after)
        rec.update(sheet, gear_damaged=gear_damaged, short_ammo=short_ammo,
                   status="ended" if reason else "active", end_reason=reason)
        flags, _ = _breakout_flags(sheet, [*turns, turn])
        summary = turn_dict(turn, breakout=flags[-1][0], starts_breakout=flags[-1][1])
        summary["campaign_ended"] = reason
        summary["campaign_ended_text"] = codes.end_reason_text(reason) or None
        summary["meaning"] = list(res.meaning)
    message = f"turn {number}: {summary['label']}" + (f", {res.cell_text}" if res.cell_text else "")
    if res.action == "rep":
        message += f": {res.repair_hours} hour{'s' if res.repair_hours != 1 else ''} of repairs; {sg.REPAIRED_TEXT}"
    if reason:
        message += f"; the campaign has ended ({reason})"
    return Edit("sheet", sheet.id, message, summary, rec.changes)


def record_turn(ref: str | int, number: Any, *, glory: Any = 0, enemy_tv: Any = 0, bunkers: Any = 0,
                gear_damaged: bool | None = None, short_ammo: bool | None = None, pilot_dead: bool = False,
                pilot_captured: bool = False, notes: str | None = None) -> Edit:
    """Record what happened on the table in turn ``number``: Glory collected, enemy TV destroyed, bunkers
    destroyed; and (for the last turn) whether the Gear is damaged / short of ammunition (None: unchanged),
    the pilot dead or captured (which ends the campaign)."""
    glory_n = _whole(glory, "Glory collected", low=0)
    tv_n = _whole(enemy_tv, "enemy TV destroyed", low=0)
    bunkers_n = _whole(bunkers, "bunkers destroyed", low=0, high=sg.BUNKERS_TOTAL)
    number_n = _whole(number, "turn", low=1)
    if pilot_dead and pilot_captured:
        raise ServiceError("the pilot cannot be both dead and captured")
    rec = Recorder()
    with rec.operation("sologear.record") as op:
        sheet = _sheet(ref)
        _about(op, sheet, f"record turn {number_n}")
        if _reckoned(sheet):
            raise ServiceError("the reckoning is done: undo it before changing a turn")
        turns = _turns(sheet)
        turn = next((t for t in turns if t.number == number_n), None)
        if turn is None:
            raise NotFound(f"no turn {number_n} in this campaign ({len(turns)} played)")
        is_last = turn.id == turns[-1].id
        battle = _battle(turn)
        if not battle and (glory_n or tv_n or bunkers_n or pilot_dead or pilot_captured):
            raise ServiceError(f"turn {number_n} ({_action_label(turn)}) had no battle: only the Gear's state "
                               "can be recorded")
        if glory_n > (turn.glory_rolled or 0):
            raise ServiceError(f"only {turn.glory_rolled or 0} Glory markers were placed in turn {number_n}, "
                               f"not {glory_n}")
        if tv_n > (turn.enemy_tv or 0):
            raise ServiceError(f"no enemy unit appeared in turn {number_n}" if not turn.enemy_tv else
                               f"the enemy unit in turn {number_n} had TV {turn.enemy_tv}: it cannot lose {tv_n}")
        if not is_last and (gear_damaged is not None or short_ammo is not None or pilot_dead or pilot_captured):
            raise ServiceError("the Gear's state and the pilot's fate can only be recorded for the last turn "
                               f"(turn {turns[-1].number})")
        values: dict[str, Any] = {"glory_collected": glory_n, "enemy_tv_destroyed": tv_n,
                                  "bunkers_destroyed": bunkers_n, "pilot_dead": bool(pilot_dead),
                                  "pilot_captured": bool(pilot_captured), "recorded": True}
        if gear_damaged is not None:
            values["gear_damaged"] = bool(gear_damaged)
        if short_ammo is not None:
            values["short_ammo"] = bool(short_ammo)
        if notes is not None:
            values["notes"] = _notes(notes, "turn notes")
        rec.update(turn, **values)
        reason = None
        if is_last:
            _flags, breakout_after = _breakout_flags(sheet, turns)
            reason = _end_reason(sheet, turn, breakout_after)
            # a turn is played only while the pilot is active: recorded again, the pilot is active unless dead
            # or captured in it
            status = "dead" if pilot_dead else "captured" if pilot_captured else "active"
            rec.update(sheet, gear_damaged=bool(turn.gear_damaged), short_ammo=bool(turn.short_ammo),
                       pilot_status=status, status="ended" if reason else "active", end_reason=reason)
        flags, _ = _breakout_flags(sheet, turns)
        index = turns.index(turn)
        summary = turn_dict(turn, breakout=flags[index][0], starts_breakout=flags[index][1])
        summary["campaign_ended"] = reason
        summary["campaign_ended_text"] = codes.end_reason_text(reason) or None
    message = f"turn {number_n} recorded: {glory_n} Glory, {tv_n} enemy TV, {_plural(bunkers_n, 'bunker')}"
    if reason:
        message += f"; the campaign has ended ({reason})"
    return Edit("sheet", sheet.id, message, summary, rec.changes)


# --- the end -----------------------------------------------------------------------------------------------

def end_procedure(ref: str | int | SologearSheet) -> sg.EndProcedure:
    """The reckoning's rolls (D66, then the reward/punishment roll if noticed), refusing while the campaign
    is not over or a battle is not recorded."""
    sheet = _sheet(ref)
    if _reckoned(sheet):
        raise ServiceError("the reckoning of this campaign is already done")
    turns = _turns(sheet)
    if sheet.status != "ended":
        left = f"{len(turns)} of {sheet.length} turns played" if sheet.length else "the length is not rolled"
        raise ServiceError(f"the campaign is not over yet ({left})")
    pending = [t for t in turns if _battle(t) and not t.recorded]
    if pending:
        raise ServiceError(f"record what happened in turn {pending[-1].number} first")
    return _guard(lambda: sg.EndProcedure(_tallies(sheet, turns), reward_dice=sheet.reward_dice,
                                          variable=bool(sheet.variable_tables)))


def end_campaign(ref: str | int, dice: DiceSource) -> Edit:
    """The end-of-campaign reckoning: recognition, the D66 noticed roll, impression, the reward or
    punishment roll; stored on the sheet with its rolls."""
    sheet = _sheet(ref)
    proc = end_procedure(sheet)
    _guard(lambda: sg.run(proc, dice))
    res = proc.result
    rec = Recorder()
    with rec.operation("sologear.end") as op:
        sheet = _sheet(sheet.id)
        _about(op, sheet, "the end-of-campaign reckoning")
        if _reckoned(sheet):
            raise ServiceError("the reckoning of this campaign is already done")
        rec.update(sheet, recognition=res.recognition.total, noticed=bool(res.noticed), d66=res.d66,
                   impression=res.impression.total, result_table=res.table, result=res.result,
                   outcome=res.outcome)
        _track_rolls(rec, proc.records, sheet=sheet)
        summary = {
            "recognition": res.recognition.total, "recognition_breakdown": [i.to_dict() for i in res.recognition.items],
            "noticed_on": res.noticed_range, "noticed": res.noticed, "d66": res.d66,
            "impression": res.impression.total, "impression_breakdown": [i.to_dict() for i in res.impression.items],
            "table": res.table, "tables": "variable" if proc.variable else "standard",
            "roll": res.roll, "result": res.result,
            "band": {"label": res.band.label, "title": res.band.title, "text": res.band.text} if res.band else None,
            "outcome": res.outcome, "rolls": [r.to_dict() for r in proc.records],
        }
    return Edit("sheet", sheet.id, f"reckoning: {res.outcome}", summary, rec.changes)


# --- undo ----------------------------------------------------------------------------------------------------

PLAY_KINDS: tuple[str, ...] = ("sologear.end", "sologear.record", "sologear.turn", "sologear.length")
"""Operations of playing a Sologear campaign (what ``sologear undo`` steps back through)."""


def undo_last(ref: str | int) -> Edit:
    """Step back once through play, through the journal (every row comes back exactly): the reckoning; else the
    newest turn together with what was recorded for it; else the length roll. Refused, naming it, when a later
    change of the same rows is in the way (nothing is changed then)."""
    sheet = _sheet(ref)
    with db.atomic():
        found = list_operations(sheet=sheet.id, kinds=PLAY_KINDS, undone=False, limit=1)
        if not found:
            raise ServiceError("nothing to undo in this Sologear campaign")
        info = found[0]
        if info.kind == "sologear.record":
            # a recorded turn is undone with the turn itself: first its records (newest first), then the turn
            turn_ids = {r["id"] for r in images(info.id, "sologear_turn")}
            plays = [o for o in list_operations(sheet=sheet.id, kinds=("sologear.turn", "sologear.record"),
                                                undone=False)]
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
    what = {"sologear.end": "reckoning", "sologear.record": "record", "sologear.turn": "turn",
            "sologear.length": "length"}[info.kind]
    summary: dict[str, Any] = {"undone": what}
    turns = images(info.id, "sologear_turn", "insert")
    if what == "turn" and turns:
        row = turns[0]
        summary.update(turn=row["number"], label=_action_label(SimpleNamespace(action=row["action"],
                                                                                posture=row["posture"])))
    message = {"reckoning": "undid the end-of-campaign reckoning", "length": "undid the campaign length roll",
               "record": f"undid {info.label}"}.get(what) \
        or f"undid turn {summary.get('turn')} ({summary.get('label')})"
    return Edit("sheet", sheet.id, message, summary, operation_changes(info.id),
                undid=[o.id for o in undone])


def undo_last_turn(ref: str | int) -> Edit:
    """Undo the last turn only (refused when the reckoning is done or no turn was played)."""
    sheet = _sheet(ref)
    if _reckoned(sheet):
        raise ServiceError("the reckoning is done: undo it first")
    if not _turns(sheet):
        raise ServiceError("no turn has been played")
    return undo_last(sheet.id)
