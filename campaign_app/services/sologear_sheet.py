"""A Sologear campaign's sheet (RULES.md 2.1): creating it, its header and optional rules, both
sides' forces, and reading it all back as typed results (:mod:`.sologear_results`: the sheet, the battle form, the
reckoning so far, the history).

A Sologear campaign is a ``Campaign`` row with system "sologear" and one ``SologearSheet``. Every write is one
journal operation (one transaction), refuses bad input with a :class:`ServiceError` (nothing written) and
returns an :class:`~.edits.Edit` (``result`` is what it made or changed, typed; ``to_dict()`` is its JSON, what
the CLI prints; ``changes`` says what its journal operation touched). Playing the campaign is
:mod:`.sologear_play`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar, cast

from peewee import ModelSelect

from ..rules import codes
from ..rules.dice import RollRecord, Source
from ..rules.experience import RulesError
from ..rules.sologear.combat import ACTIONS, POSTURES, REPAIRED_TEXT, cell_text, enemy_column_label, gear_tv_column
from ..rules.sologear.forces import (
    LOYALTY_MULTIPLIERS,
    MAX_BASE_POWER,
    MAX_COMPANY_TV,
    SIDES,
    SKILL_MULTIPLIERS,
    base_power_from_tv,
    force_total_exact,
    loyalty_word,
    odds_band,
    ratio_text,
    skill_word,
    unit_total,
)
from ..rules.sologear.reckoning import (
    DEFAULT_REWARD_DICE,
    ScoreItem,
    TurnTally,
    check_reward_dice,
    impression,
    lookup_result,
    noticed_label,
    recognition,
    result_tables,
)
from ..rules.sologear.turn import breakout_flags as turn_breakout_flags
from ..rules.sologear.turn import end_reason
from ..store.journal import Operation
from ..store.models import Campaign, Roll, SologearForce, SologearSheet, SologearTurn
from ..words import number, plural
from .campaigns import check_name, create_campaign, rename_campaign
from .common import NotFound, ServiceError, check_line, check_multiline, resolve_sheet, store_rolls
from .edits import Edit, Recorder
from .sologear_results import (
    CampaignRef,
    Forces,
    FormRow,
    HistoryEntry,
    NextTurn,
    Odds,
    Reckoning,
    ResultBand,
    RewardTableNames,
    SheetChange,
    SheetData,
    SheetOptions,
    SheetState,
    SideTotals,
    StoredRoll,
    Totals,
    TurnRecord,
    TurnRow,
    UnitRow,
)

if TYPE_CHECKING:
    from ..printing.sologear_sheet import SologearSheetData

T = TypeVar("T")


HEADER_FIELDS: tuple[str, ...] = (
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
"""Sheet fields the user edits directly (plus the campaign ``name``)."""


TEXT_MAX = 120


NOTES_MAX = 10_000


STATE_FIELDS: tuple[str, ...] = ("gear_damaged", "short_ammo", "pilot_status", "status", "end_reason")
"""The sheet's state a turn may change (undo restores it from the journal)."""

LENGTH_RULE = codes.RULE_LENGTH
RECKONING_RULE_PREFIX = codes.RECKONING_RULE_PREFIX


@contextmanager
def _rules_errors() -> Iterator[None]:
    """Rules errors become service errors (one message, nothing written)."""
    try:
        yield
    except RulesError as exc:
        raise ServiceError(str(exc)) from None


def guard_rules(fn: Callable[[], T]) -> T:
    with _rules_errors():
        return fn()


def load_sheet(ref: int | SologearSheet) -> SologearSheet:
    if isinstance(ref, SologearSheet):
        return SologearSheet.get_by_id(ref.id)
    return resolve_sheet(ref)


def _text(value: Any, what: str) -> str:
    return check_line(value, what, TEXT_MAX)


def check_sheet_notes(value: object, what: str = "notes") -> str:
    return check_multiline(value, what, NOTES_MAX, verb="are")


def check_whole(value: int, what: str, low: int | None = 0, high: int | None = None) -> int:
    """A whole number in range (the CLI reads the digits; the GUI's spin boxes give numbers)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ServiceError(f"{what} must be a whole number, not {value!r}")
    number = value
    if low is not None and number < low:
        raise ServiceError(f"{what} must be at least {low}, not {number}")
    if high is not None and number > high:
        raise ServiceError(f"{what} must be at most {high}, not {number}")
    return number


def _number(value: float, what: str, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ServiceError(f"{what} must be a number, not {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0:
        raise ServiceError(f"{what} must be a number of 0 or more, not {value!r}")
    if high is not None and number > high:
        raise ServiceError(f"{what} must be at most {high:,.0f}, not {value!r}")
    return number


def _gear_tv(value: int) -> int:
    return check_whole(value, "the Gear's TV", low=1, high=100000)


def sheet_forces(sheet: SologearSheet) -> list[SologearForce]:
    return list(
        SologearForce.select()
        .where(SologearForce.sheet == sheet)
        .order_by(SologearForce.side, SologearForce.position, SologearForce.id)
    )


def sheet_turns(sheet: SologearSheet) -> list[SologearTurn]:
    return list(SologearTurn.select().where(SologearTurn.sheet == sheet).order_by(SologearTurn.number))


def is_reckoned(sheet: SologearSheet) -> bool:
    return sheet.noticed is not None


def track_rolls(rec: Recorder, records: Sequence[RollRecord], start_seq: int = 0, **links: Any) -> list[Roll]:
    return store_rolls(records, start_seq=start_seq, **links)


def about_sheet(op: Operation, sheet: SologearSheet, label: str) -> None:
    """The operation concerns this sheet (and its campaign); its label names the pilot."""
    op.target(campaign=sheet.campaign_id, sheet=sheet.id)
    if not op.merged:
        op.label = f"{sheet.pilot}: {label}"


def breakout_flags(sheet: SologearSheet, turns: Sequence[SologearTurn]) -> tuple[list[tuple[bool, bool]], bool]:
    """The break-out state of each turn (the rule: :func:`campaign_app.rules.sologear.turn.breakout_flags`)."""
    return turn_breakout_flags(bool(sheet.ferocious), [(t.cell, t.ends) for t in turns])


def had_battle(turn: SologearTurn) -> bool:
    """Was there a battle on the table to record (a FIG turn with a battle length)?"""
    return turn.action == "fig" and turn.battle_length is not None


def turn_end_reason(sheet: SologearSheet, turn: SologearTurn, breakout_after: bool) -> str | None:
    return end_reason(
        number=turn.number,
        length=sheet.length,
        ends=turn.ends,
        pilot_dead=bool(turn.pilot_dead),
        pilot_captured=bool(turn.pilot_captured),
        breakout_after=breakout_after,
    )


def unit_row(f: SologearForce) -> UnitRow:
    total = unit_total(f.base_power, f.skill, f.loyalty)
    return UnitRow(
        id=f.id,
        side=f.side,
        name=f.name,
        company_tv=f.company_tv,
        base_power=f.base_power,
        skill=f.skill,
        skill_x=SKILL_MULTIPLIERS[f.skill],
        loyalty=f.loyalty,
        loyalty_x=LOYALTY_MULTIPLIERS[f.loyalty],
        total=total,
        position=f.position,
    )


def totals(forces: Sequence[UnitRow] | Sequence[SologearForce]) -> Totals:
    """Both sides' totals, unit counts and the odds (``None`` while a side has no power)."""
    exact = {}
    counts = {}
    for side in SIDES:
        units = [(f.base_power, f.skill, f.loyalty) for f in forces if f.side == side]
        exact[side] = force_total_exact(units)
        counts[side] = len(units)
    odds = None
    if exact["enemy"] > 0:
        ratio = exact["player"] / exact["enemy"]
        odds = Odds(ratio=float(ratio), band=odds_band(ratio), ratio_text=ratio_text(ratio))
    return Totals(
        player=float(exact["player"]),
        player_units=counts["player"],
        enemy=float(exact["enemy"]),
        enemy_units=counts["enemy"],
        odds=odds,
    )


def roll_record(r: Roll) -> StoredRoll:
    """A stored roll as the rules' record of it (its ``to_dict()`` is the stored roll's JSON)."""
    return RollRecord(
        purpose=r.purpose,
        expression=r.expression,
        faces=list(r.faces),
        total=r.total,
        source=cast(Source, r.source),
        rule=r.rule,
        modifier=r.modifier,
        table_row=r.table_row,
        outcome=r.outcome,
    )


def _rolls_of(query: ModelSelect[Roll]) -> tuple[StoredRoll, ...]:
    return tuple(roll_record(r) for r in query.order_by(Roll.id))


def action_label(action: str, posture: int | None) -> str:
    """A turn's action as the battle form writes it: DEC, REP, FIG(+1)..."""
    if action == "fig":
        return f"FIG({posture:+d})" if posture else "FIG(0)"
    return ACTIONS[action]


def turn_row(
    turn: SologearTurn, *, breakout: bool = False, starts_breakout: bool = False, rolls: Sequence[Roll] | None = None
) -> TurnRow:
    roll_rows = (
        list(rolls) if rolls is not None else list(Roll.select().where(Roll.turn == turn).order_by(Roll.seq, Roll.id))
    )
    light = next((r for r in roll_rows if r.purpose == codes.PURPOSE_LIGHT_CRITICAL), None)
    meaning: list[str] = []
    if turn.action == "dec":
        meaning.append("DEC: the pilot declined the battle")
    for r in roll_rows:
        shown = codes.purpose_text(r.purpose)
        meaning.append(f"{shown}: {r.outcome}" if r.outcome else shown)
    if turn.action == "rep":
        meaning.append(REPAIRED_TEXT)
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
        special.append(
            {"surrendered": "surrendered (S)", "routed": "routed (E)", "broke_through": "broke through"}[turn.ends]
        )
    if turn.pilot_dead:
        special.append("pilot dead")
    if turn.pilot_captured:
        special.append("pilot captured")
    if had_battle(turn) and not turn.recorded:
        special.append("not recorded yet")
    enemy = ""
    if turn.enemy_tv is not None:
        enemy = f"{turn.enemy_tv_destroyed}/{turn.enemy_tv} TV" if turn.recorded else f"TV {turn.enemy_tv} met"
    elif turn.enemy_tv_destroyed:
        enemy = f"{turn.enemy_tv_destroyed} TV"
    glory = ""
    if turn.action == "fig" and (turn.glory_rolled is not None or turn.glory_collected):
        counted = TurnTally(turn.action, glory=turn.glory_collected, breakout=breakout).glory_points
        glory = (
            f"{counted}" + (" (×2)" if breakout and turn.glory_collected else "")
            if turn.recorded
            else f"{turn.glory_rolled or 0} placed"
        )
    return TurnRow(
        turn=turn.number,
        id=turn.id,
        action=turn.action,
        label=action_label(turn.action, turn.posture),
        posture=turn.posture,
        posture_name=POSTURES.get(turn.posture) if turn.posture is not None else None,
        combat_total=turn.combat_total,
        column=turn.odds_column,
        cell=turn.cell,
        cell_text=cell_text(turn.cell) if turn.cell else None,
        glory=turn.glory_rolled,
        enemy_tv=turn.enemy_tv,
        light_critical=light.total if light is not None else None,
        repair_hours=turn.repair_hours,
        battle_length=turn.battle_length,
        entry_edge=turn.entry_edge,
        ends=turn.ends,
        breakout=breakout,
        starts_breakout=starts_breakout,
        battle=had_battle(turn),
        recorded=bool(turn.recorded),
        result=TurnRecord(
            glory_collected=turn.glory_collected,
            enemy_tv_destroyed=turn.enemy_tv_destroyed,
            bunkers_destroyed=turn.bunkers_destroyed,
            gear_damaged=bool(turn.gear_damaged),
            short_ammo=bool(turn.short_ammo),
            pilot_dead=bool(turn.pilot_dead),
            pilot_captured=bool(turn.pilot_captured),
        ),
        notes=turn.notes,
        meaning=tuple(meaning),
        form=FormRow(
            turn=str(turn.number),
            action=action_label(turn.action, turn.posture),
            enemy=enemy,
            glory=glory,
            special=", ".join(special),
        ),
        rolls=tuple(roll_record(r) for r in roll_rows),
    )


def turn_tallies(sheet: SologearSheet, turns: Sequence[SologearTurn]) -> list[TurnTally]:
    flags, _ = breakout_flags(sheet, turns)
    return [
        TurnTally(t.action, t.posture, t.glory_collected, t.bunkers_destroyed, t.enemy_tv_destroyed, breakout=during)
        for t, (during, _s) in zip(turns, flags, strict=True)
    ]


def reckoning(ref: int | SologearSheet) -> Reckoning:
    """The end-of-campaign reckoning: stored values if done, else a preview of recognition and impression
    from the turns so far (``final`` False)."""
    sheet = load_sheet(ref)
    tallies = turn_tallies(sheet, sheet_turns(sheet))
    rec, imp = recognition(tallies), impression(tallies)
    rewards, punishments = result_tables(bool(sheet.variable_tables))
    band = None
    if sheet.result is not None and sheet.result_table:
        _table, found = lookup_result(sheet.result, sheet.impression or 0, variable=bool(sheet.variable_tables))
        band = ResultBand(label=found.label, title=found.title, text=found.text)
    rolls = _rolls_of(
        Roll.select().where((Roll.sheet == sheet) & Roll.turn.is_null() & Roll.rule.startswith(RECKONING_RULE_PREFIX))
    )
    return Reckoning(
        final=is_reckoned(sheet),
        recognition=sheet.recognition if is_reckoned(sheet) and sheet.recognition is not None else rec.total,
        recognition_breakdown=rec.items,
        noticed_on=noticed_label(rec.total),
        d66=sheet.d66,
        noticed=None if sheet.noticed is None else bool(sheet.noticed),
        impression=sheet.impression if is_reckoned(sheet) and sheet.impression is not None else imp.total,
        impression_breakdown=imp.items,
        table=sheet.result_table,
        result=sheet.result,
        band=band,
        outcome=sheet.outcome,
        tables="variable" if sheet.variable_tables else "standard",
        reward_dice=sheet.reward_dice,
        reward_table_names=RewardTableNames(
            rewards=tuple(b.label for b in rewards), punishments=tuple(b.label for b in punishments)
        ),
        rolls=rolls,
    )


def next_turn(ref: int | SologearSheet) -> NextTurn:
    """What the next turn can be: its number, the odds column, the actions allowed, or why none can be
    played (``blocked``)."""
    sheet = load_sheet(ref)
    turns = sheet_turns(sheet)
    _flags, breakout = breakout_flags(sheet, turns)
    t = totals(sheet_forces(sheet))
    blocked = None
    if is_reckoned(sheet):
        blocked = "the campaign is over and its reckoning is done"
    elif sheet.status == "ended":
        blocked = f"the campaign has ended ({codes.end_reason_text(sheet.end_reason)}): no more turns"
    elif sheet.length is None:
        blocked = "roll the campaign length first"
    else:
        pending = [x for x in turns if had_battle(x) and not x.recorded]
        if pending:
            blocked = f"record what happened in turn {pending[-1].number} first"
    needs_repair = bool(sheet.gear_damaged or sheet.short_ammo)
    actions = ("fig",) if breakout else ("dec", *(("rep",) if needs_repair else ()), "fig")
    odds = t.odds if not breakout else None
    return NextTurn(
        number=(turns[-1].number if turns else 0) + 1,
        length=sheet.length,
        band="Losing" if breakout else (t.odds.band if t.odds else None),
        ratio=odds.ratio if odds else None,
        ratio_text=odds.ratio_text if odds else None,
        breakout=breakout,
        actions=actions,
        can_rep=needs_repair and not breakout,
        gear_tv=sheet.gear_tv,
        ferocious=bool(sheet.ferocious),
        blocked=blocked,
        posture_fixed=2 if breakout else None,
    )


def sheet_data(ref: int | SologearSheet) -> SheetData:
    """A sheet's full data (header, options, state, both sides' units with totals and odds, the battle form
    with every turn and roll, the reckoning): what ``sologear show --json`` prints and the printed sheet
    uses."""
    sheet = load_sheet(ref)
    camp = Campaign.get_by_id(sheet.campaign_id)
    forces = [unit_row(f) for f in sheet_forces(sheet)]
    t = totals(forces)
    turns = sheet_turns(sheet)
    flags, breakout = breakout_flags(sheet, turns)
    rolls_by_turn: dict[int | None, list[Roll]] = {}
    for r in Roll.select().where(Roll.turn.in_([x.id for x in turns])).order_by(Roll.seq, Roll.id):
        rolls_by_turn.setdefault(r.turn_id, []).append(r)
    turn_rows = [
        turn_row(x, breakout=during, starts_breakout=starts, rolls=rolls_by_turn.get(x.id, []))
        for x, (during, starts) in zip(turns, flags, strict=True)
    ]
    length_rolls = _rolls_of(Roll.select().where((Roll.sheet == sheet) & (Roll.rule == LENGTH_RULE)))
    length_dice = None
    if t.player_units and t.enemy_units:
        length_dice = f"{min(t.player_units, t.enemy_units)}d6"
    return SheetData(
        id=sheet.id,
        campaign=CampaignRef(id=camp.id, name=camp.name, archived=bool(camp.archived)),
        name=camp.name,
        date=sheet.date,
        area=sheet.area,
        pilot=sheet.pilot,
        gear_name=sheet.gear_name,
        gear_tv=sheet.gear_tv,
        player_unit=sheet.player_unit,
        player_affiliation=sheet.player_affiliation,
        enemy_unit=sheet.enemy_unit,
        enemy_affiliation=sheet.enemy_affiliation,
        notes=sheet.notes,
        length=sheet.length,
        length_dice=length_dice,
        length_rolls=length_rolls,
        options=sheet_options(sheet),
        state=SheetState(
            gear_damaged=bool(sheet.gear_damaged),
            short_ammo=bool(sheet.short_ammo),
            pilot_status=sheet.pilot_status,
            status=sheet.status,
            end_reason=sheet.end_reason,
            end_text=codes.end_reason_text(sheet.end_reason) or None,
            breakout=breakout,
            reckoned=is_reckoned(sheet),
        ),
        enemy_quality_column=enemy_column_label(gear_tv_column(sheet.gear_tv)),
        forces=Forces(
            player=tuple(f for f in forces if f.side == "player"), enemy=tuple(f for f in forces if f.side == "enemy")
        ),
        totals=SideTotals(player=t.player, enemy=t.enemy),
        odds=t.odds,
        turns_played=len(turns),
        turns_left=(max(0, sheet.length - len(turns)) if sheet.length is not None else None),
        turns=tuple(turn_rows),
        next=next_turn(sheet),
        reckoning=reckoning(sheet),
        created_at=sheet.created_at.isoformat(sep=" ") if sheet.created_at else None,
    )


def sheet_options(sheet: SologearSheet) -> SheetOptions:
    return SheetOptions(
        variable_tables=bool(sheet.variable_tables), ferocious=bool(sheet.ferocious), reward_dice=sheet.reward_dice
    )


def print_data(data: SheetData) -> SologearSheetData:
    """The printed campaign sheet and battle form's data (:mod:`campaign_app.printing.sologear_sheet`)."""
    from ..printing.sologear_sheet import ForceRow, ReckoningData, ScoreLine, SologearSheetData
    from ..printing.sologear_sheet import FormRow as PrintedRow

    def force(f: UnitRow) -> ForceRow:
        return ForceRow(
            name=f.name,
            base_power=float(f.base_power),
            skill=f.skill,
            skill_x=float(f.skill_x),
            loyalty=f.loyalty,
            loyalty_x=float(f.loyalty_x),
            total=float(f.total),
            company_tv=f.company_tv,
        )

    def lines(items: Sequence[ScoreItem]) -> tuple[ScoreLine, ...]:
        return tuple(ScoreLine(i.label, i.count, i.per, i.points) for i in items)

    rk, state, options, odds = data.reckoning, data.state, data.options, data.odds
    reckoned = None
    if rk.final:
        band = rk.band
        reckoned = ReckoningData(
            recognition=rk.recognition,
            recognition_lines=lines(rk.recognition_breakdown),
            noticed_on=rk.noticed_on,
            d66=rk.d66,
            noticed=rk.noticed,
            impression=rk.impression,
            impression_lines=lines(rk.impression_breakdown),
            table=rk.table,
            result=rk.result,
            band_label=band.label if band else "",
            band_title=band.title if band else "",
            band_text=band.text if band else "",
            outcome=rk.outcome or "",
            reward_dice=rk.reward_dice,
            variable_tables=rk.tables == "variable",
        )
    return SologearSheetData(
        name=data.name,
        pilot=data.pilot,
        gear_tv=data.gear_tv,
        gear_name=data.gear_name,
        date=data.date,
        area=data.area,
        player_unit=data.player_unit,
        player_affiliation=data.player_affiliation,
        enemy_unit=data.enemy_unit,
        enemy_affiliation=data.enemy_affiliation,
        length=data.length,
        length_dice=data.length_dice,
        player=tuple(force(f) for f in data.forces.player),
        enemy=tuple(force(f) for f in data.forces.enemy),
        player_total=data.totals.player,
        enemy_total=data.totals.enemy,
        odds_ratio=odds.ratio if odds else None,
        odds_band=odds.band if odds else None,
        turns=tuple(PrintedRow(*t.form.cells()) for t in data.turns),
        status=state.status,
        end_text=state.end_text or "",
        gear_damaged=state.gear_damaged,
        short_ammo=state.short_ammo,
        pilot_status=state.pilot_status,
        ferocious=options.ferocious,
        variable_tables=options.variable_tables,
        reward_dice=options.reward_dice,
        enemy_quality_column=data.enemy_quality_column,
        reckoning=reckoned,
        notes=data.notes,
    )


def roll_words(r: StoredRoll) -> str:
    """One roll as a player reads it: "Glory markers: 2d6 rolled 3, 5 = 8: 8 Glory markers scattered over the
    two maps"; the combat roll with its row of the table ("row 11, Equal: 2D6G,##", as the printed table
    writes it). No formula is repeated ("1d6-2 = -1") and no table code stands alone ("→ 2D6G")."""
    faces = ", ".join(str(f) for f in r.faces)
    expression = r.expression.replace("-", "\u2212")
    text = f"{r.purpose_text}: {expression} rolled {faces}"
    if len(r.faces) > 1 or r.expression.rstrip("0123456789").endswith(("+", "-")):
        text += f" = {number(r.total)}"
    if r.purpose == codes.PURPOSE_COMBAT and r.table_row:
        text += f" \u2192 {r.table_row}"
    if r.outcome:
        text += f": {r.outcome}"
    return text


def history(ref: int | SologearSheet, data: SheetData | None = None) -> list[HistoryEntry]:
    """The campaign's history, oldest first: the length roll, each turn with its rolls and what was
    recorded, the reckoning. ``data``: the sheet's :func:`sheet_data` if the caller has it already."""
    data = data if data is not None else sheet_data(ref)
    out: list[HistoryEntry] = []

    def roll_entry(r: StoredRoll, turn: int | None) -> HistoryEntry:
        text = roll_words(r) + (" · typed" if r.source == "entered" else " · app")
        return HistoryEntry("roll", turn, text, r)

    out.append(
        HistoryEntry("sheet", None, f"Campaign sheet: {data.pilot} in {data.gear_name or 'a Gear'} (TV {data.gear_tv})")
    )
    for r in data.length_rolls:
        out.append(roll_entry(r, None))
    for t in data.turns:
        head = f"Turn {t.turn}: {t.label}"
        if t.column:
            head += f", {t.column} column"
        if t.breakout:
            head += " (break-out)"
        out.append(HistoryEntry("turn", t.turn, head))
        for r in t.rolls:
            out.append(roll_entry(r, t.turn))
        if t.battle and t.recorded:
            res = t.result
            bits = [
                f"{res.glory_collected} Glory",
                f"{res.enemy_tv_destroyed} enemy TV destroyed",
                plural(res.bunkers_destroyed, "bunker"),
            ]
            if res.pilot_dead:
                bits.append("pilot dead")
            if res.pilot_captured:
                bits.append("pilot captured")
            out.append(HistoryEntry("record", t.turn, f"Turn {t.turn} recorded: " + ", ".join(bits)))
    if data.state.status == "ended":
        out.append(HistoryEntry("end", None, f"Campaign ended: {data.state.end_text}"))
    rk = data.reckoning
    for r in rk.rolls:
        out.append(roll_entry(r, None))
    if rk.final:
        out.append(
            HistoryEntry(
                "reckoning", None, f"Reckoning: recognition {rk.recognition}, impression {rk.impression}; {rk.outcome}"
            )
        )
    return out


def _s(items: Any) -> str:
    """The plural ending for a count or a collection ("field" / "fields")."""
    return "" if (items if isinstance(items, int) else len(items)) == 1 else "s"


def create_sheet(
    name: str,
    pilot: str,
    gear_tv: int,
    *,
    date: str = "",
    area: str = "",
    gear_name: str = "",
    player_unit: str = "",
    player_affiliation: str = "",
    enemy_unit: str = "",
    enemy_affiliation: str = "",
    variable_tables: bool = False,
    ferocious: bool = False,
    reward_dice: str = DEFAULT_REWARD_DICE,
    notes: str = "",
    campaign: int | None = None,
) -> Edit[SheetData]:
    """A new Sologear campaign: a Campaign (system "sologear") and its sheet. With ``campaign`` (the id of a
    Sologear campaign that has no sheet yet, e.g. one made by ``campaign new --system sologear``) the sheet goes
    into that campaign instead, and ``name`` is not used."""
    name = check_name(name, "campaign") if campaign is None else ""
    pilot = _text(pilot, "the pilot's name")
    if not pilot:
        raise ServiceError("the pilot's name must not be empty")
    tv = _gear_tv(gear_tv)
    dice = guard_rules(lambda: check_reward_dice(reward_dice)).expression
    values = {
        "date": _text(date, "date"),
        "area": _text(area, "area"),
        "gear_name": _text(gear_name, "Gear name"),
        "player_unit": _text(player_unit, "player unit"),
        "player_affiliation": _text(player_affiliation, "player affiliation"),
        "enemy_unit": _text(enemy_unit, "enemy unit"),
        "enemy_affiliation": _text(enemy_affiliation, "enemy affiliation"),
    }
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
        sheet = rec.create(
            SologearSheet,
            campaign=campaign_id,
            pilot=pilot,
            gear_tv=tv,
            variable_tables=bool(variable_tables),
            ferocious=bool(ferocious),
            reward_dice=dice,
            notes=check_sheet_notes(notes),
            **values,
        )
        op.target(campaign=campaign_id, sheet=sheet.id)
        op.label = f"Create Sologear campaign {name} for {pilot}"
        summary = sheet_data(sheet)
    said = (
        f"created Sologear campaign {name!r} for pilot {pilot}"
        if campaign is None
        else f"added the pilot sheet of {pilot} to the Sologear campaign {name!r}"
    )
    return Edit("sheet", sheet.id, said, summary, rec.changes)


def update_sheet(ref: int, **fields: Any) -> Edit[SheetChange]:
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
            values[key] = check_sheet_notes(value)
        else:
            values[key] = _text(value, key.replace("_", " "))
            if key == "pilot" and not values[key]:
                raise ServiceError("the pilot's name must not be empty")
    rec = Recorder()
    with rec.operation("sheet.edit") as op:
        sheet = load_sheet(ref)
        about_sheet(op, sheet, "edit the sheet")
        changed = rec.update(sheet, **values)
        camp = Campaign.get_by_id(sheet.campaign_id)
        if "name" in fields and check_name(fields["name"], "campaign") != camp.name:
            renamed = rename_campaign(camp.id, fields["name"])
            op.label = f"{sheet.pilot}: edit the sheet"  # the rename joined this operation
            changed["name"] = (renamed.result.old, renamed.result.new)
    text = ", ".join(f"{k} {old!r} \u2192 {new!r}" for k, (old, new) in changed.items()) or "nothing changed"
    return Edit(
        "sheet",
        sheet.id,
        f"sheet: {text}",
        SheetChange(id=sheet.id, old={k: v[0] for k, v in changed.items()}, new={k: v[1] for k, v in changed.items()}),
        rec.changes,
    )


def set_options(
    ref: int,
    *,
    variable_tables: bool | None = None,
    ferocious: bool | None = None,
    reward_dice: str | None = None,
) -> Edit[SheetOptions]:
    """⚙ The optional rules: variable (milder) reward/punishment tables, ferocious battles, reward-roll
    dice. Ferocious battles are fixed once a turn is played; nothing changes after the reckoning."""
    values: dict[str, Any] = {}
    if variable_tables is not None:
        values["variable_tables"] = bool(variable_tables)
    if reward_dice is not None:
        values["reward_dice"] = guard_rules(lambda: check_reward_dice(reward_dice)).expression
    rec = Recorder()
    with rec.operation("sheet.options") as op:
        sheet = load_sheet(ref)
        about_sheet(op, sheet, "change the optional rules")
        if is_reckoned(sheet):
            raise ServiceError("the reckoning is done: undo it before changing the optional rules")
        if ferocious is not None and bool(ferocious) != bool(sheet.ferocious):
            if sheet_turns(sheet):
                raise ServiceError("ferocious battles cannot be switched once turns have been played")
            values["ferocious"] = bool(ferocious)
        changed = rec.update(sheet, **values)
    text = ", ".join(f"{k} {old!r} \u2192 {new!r}" for k, (old, new) in changed.items()) or "nothing changed"
    return Edit("sheet", sheet.id, f"options: {text}", sheet_options(sheet), rec.changes)


def _force_values(
    side: Any = None,
    name: Any = None,
    base_power: float | None = None,
    company_tv: int | None = None,
    skill: Any = None,
    loyalty: Any = None,
    *,
    creating: bool,
) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if side is not None or creating:
        key = str(side or "").strip().lower()
        if key not in SIDES:
            raise ServiceError(f"side must be 'player' or 'enemy', not {side!r}")
        values["side"] = key
    if name is not None or creating:
        text = _text(name, "unit name")
        if not text:
            raise ServiceError("a unit needs a name")
        values["name"] = text
    if company_tv is not None:
        tv = check_whole(company_tv, "company TV", low=0, high=MAX_COMPANY_TV)
        values["company_tv"] = tv
        if base_power is None:
            values["base_power"] = base_power_from_tv(tv)
    if base_power is not None:
        values["base_power"] = _number(base_power, "base power", high=MAX_BASE_POWER)
    if creating and "base_power" not in values:
        raise ServiceError("give the unit's base power or its company TV (base power = TV / 20)")
    if skill is not None or creating:
        values["skill"] = guard_rules(lambda: skill_word(skill or "regular"))
    if loyalty is not None or creating:
        values["loyalty"] = guard_rules(lambda: loyalty_word(loyalty or "reliable"))
    return values


FORCE_LOCKED_FIELDS: tuple[str, ...] = ("side", "base_power", "company_tv", "skill", "loyalty")
"""What may no longer change once the campaign length is rolled (the units' names may)."""


def forces_locked(sheet: SologearSheet) -> bool:
    """Once the length is rolled, the sides are fixed: no unit added or removed, no power changed."""
    return sheet.length is not None


def _open_sheet_for_forces(sheet: SologearSheet, what: str | None = None) -> None:
    if is_reckoned(sheet):
        raise ServiceError("the reckoning is done: undo it before changing the units")
    if what is not None and forces_locked(sheet):
        length = cast(int, sheet.length)  # locked: the length is rolled
        raise ServiceError(
            f"the campaign length is rolled ({plural(length, 'turn')}): {what} is no longer "
            "possible; undo the length roll first (only names can change)"
        )


def add_force(
    ref: int,
    side: str,
    name: str,
    *,
    base_power: float | None = None,
    company_tv: int | None = None,
    skill: str = "regular",
    loyalty: str = "reliable",
) -> Edit[UnitRow]:
    """Add a company-sized unit to one side (base power entered, or computed from the company's TV / 20)."""
    values = _force_values(side, name, base_power, company_tv, skill, loyalty, creating=True)
    rec = Recorder()
    with rec.operation("force.add") as op:
        sheet = load_sheet(ref)
        about_sheet(op, sheet, f"add {values['side']} unit {values['name']}")
        _open_sheet_for_forces(sheet, "adding a unit")
        last = (
            SologearForce.select()
            .where((SologearForce.sheet == sheet) & (SologearForce.side == values["side"]))
            .order_by(SologearForce.position.desc())
            .first()
        )
        force = rec.create(SologearForce, sheet=sheet, position=(last.position + 1) if last else 0, **values)
        summary = unit_row(force)
    return Edit(
        "sheet",
        sheet.id,
        f"added {values['side']} unit {values['name']!r} (total {summary.total:g})",
        summary,
        rec.changes,
    )


def _force(force_id: int, sheet: SologearSheet | None = None) -> SologearForce:
    force = SologearForce.get_or_none(SologearForce.id == force_id)
    if force is None or (sheet is not None and force.sheet_id != sheet.id):
        raise NotFound(f"no unit with id {force_id}" + (" in this campaign" if sheet is not None else ""))
    return force


def update_force(force_id: int, *, sheet: int | None = None, **fields: Any) -> Edit[UnitRow]:
    """Change a unit's side, name, base power, company TV (which recomputes the base unless a base is
    given too), skill or loyalty."""
    unknown = set(fields) - {"side", "name", "base_power", "company_tv", "skill", "loyalty"}
    if unknown:
        raise ServiceError(f"unknown unit field{_s(unknown)}: {', '.join(sorted(unknown))}")
    values = _force_values(creating=False, **fields)
    rec = Recorder()
    with rec.operation("force.edit") as op:
        force = _force(force_id, load_sheet(sheet) if sheet is not None else None)
        sheet_row = SologearSheet.get_by_id(force.sheet_id)
        about_sheet(op, sheet_row, f"edit unit {force.name}")
        _open_sheet_for_forces(sheet_row)
        locked = [k for k in FORCE_LOCKED_FIELDS if k in values and getattr(force, k) != values[k]]
        if locked:
            _open_sheet_for_forces(sheet_row, f"changing a unit's {', '.join(k.replace('_', ' ') for k in locked)}")
        changed = rec.update(force, **values)
        summary = unit_row(force)
    text = ", ".join(f"{k} {old!r} \u2192 {new!r}" for k, (old, new) in changed.items()) or "nothing changed"
    return Edit("sheet", sheet_row.id, f"unit {force.name!r}: {text}", summary, rec.changes)


def remove_force(force_id: int, *, sheet: int | None = None) -> Edit[UnitRow]:
    rec = Recorder()
    with rec.operation("force.remove") as op:
        force = _force(force_id, load_sheet(sheet) if sheet is not None else None)
        sheet_row = SologearSheet.get_by_id(force.sheet_id)
        about_sheet(op, sheet_row, f"remove unit {force.name}")
        _open_sheet_for_forces(sheet_row, "removing a unit")
        summary = unit_row(force)
        rec.delete(SologearForce, force.id)
    return Edit("sheet", sheet_row.id, f"removed {summary.side} unit {summary.name!r}", summary, rec.changes)
