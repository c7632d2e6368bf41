"""The Sologear turn procedures (RULES.md 2.1 campaign length, 2.2 one battle turn) and the break-out and
end-of-campaign reasoning over the turns played."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import codes
from ..dice import Dice, DiceSource, RollRecord
from ..experience import RulesError
from .combat import (
    BATTLE_LENGTH_DICE,
    BREAKOUT_ROWS,
    COMBAT_TABLE,
    ENEMY_QUALITY_TABLE,
    ENTRY_EDGE_DIE,
    ENTRY_EDGES,
    LIGHT_CRITICAL_DICE,
    POSTURES,
    REPAIR_DICE,
    REPAIRED_TEXT,
    check_action,
    check_posture,
    combat_row,
    describe_cell,
    enemy_column_label,
    enemy_row,
    gear_tv_column,
    glory_dice,
    light_critical_damaged,
    parse_cell,
    repair_hours,
)
from .forces import BAND_NAMES, band_name, length_dice_count
from .steps import Procedure, RollRequest, run


class LengthProcedure(Procedure):
    """2.1 Campaign length: as many d6 as the smaller side has company-sized units; the sum is the length."""

    def __init__(self, player_units: int, enemy_units: int) -> None:
        super().__init__()
        n = length_dice_count(player_units, enemy_units)
        self.length: int | None = None
        self._queue.append(
            RollRequest(
                "length",
                Dice(n, 6),
                codes.PURPOSE_LENGTH,
                codes.RULE_LENGTH,
                f"{n}d6: as many d6 as the smaller side has units ({n})",
            )
        )

    def _apply(self, req: RollRequest, rec: RollRecord) -> None:
        self.length = rec.total
        rec.table_row = f"{req.dice.count}d6"
        rec.outcome = f"the campaign lasts {rec.total} battle turn{'s' if rec.total != 1 else ''}"


@dataclass
class TurnResult:
    """What one battle turn rolled and what it means (before the player records the battle)."""

    action: str
    posture: int | None = None
    breakout: bool = False
    column: str | None = None
    combat_total: int | None = None
    cell: dict[str, str | None] | None = None
    cell_text: str | None = None
    glory: int | None = None
    enemy_row: int | None = None
    enemy_tv: int | None = None
    light_critical: int | None = None
    gear_damaged: bool = False
    repair_hours: int | None = None
    battle_length: int | None = None
    entry_edge: str | None = None
    ends: str | None = None
    starts_breakout: bool = False
    meaning: list[str] = field(default_factory=list)

    @property
    def battle(self) -> bool:
        """Is there a battle on the table to record afterwards?"""
        return self.battle_length is not None


class TurnProcedure(Procedure):
    """2.2 One battle turn. Dice are asked for in this order: REP: 1d6−2 hours. FIG: the combat 2d6, then
    the Glory dice (if any), the enemy-quality d6 (if any), the light-critical d6 (for ``#``), the battle
    length 4d6 and the entry-edge d4. A cell that ends the campaign (S, E) or a break-through needs no more.

    ⚙ Ferocious battles (``ferocious=True``): an ``S`` does not end the campaign but starts the break-out
    (``starts_breakout``); in the break-out (``breakout=True``) every turn is FIG, Bold, on the Losing column,
    enemy quality +1, S/E are ignored, and a combat roll of 12..14 means the pilot broke through.
    """

    def __init__(
        self,
        action: str,
        *,
        band: str | None = None,
        posture: int | str | None = None,
        gear_tv: int = 1,
        gear_needs_repair: bool = False,
        ferocious: bool = False,
        breakout: bool = False,
    ) -> None:
        super().__init__()
        action = check_action(action)
        self.gear_tv = gear_tv
        gear_tv_column(gear_tv)
        self.ferocious = ferocious
        self.result = TurnResult(action=action, breakout=breakout)
        if breakout:
            if action != "fig":
                raise RulesError("in the break-out (ferocious battles) there is no DEC or REP: the pilot must fight")
            if posture is not None and check_posture(posture) != 2:
                raise RulesError("in the break-out (ferocious battles) the pilot always fights Bold (+2)")
            posture = 2
            band = "Losing"
        if action == "dec":
            if posture is not None:
                raise RulesError("a posture is only chosen for FIG")
            self.result.meaning.append("DEC: the pilot declines the battle; nothing happens")
        elif action == "rep":
            if posture is not None:
                raise RulesError("a posture is only chosen for FIG")
            if not gear_needs_repair:
                raise RulesError("REP is only allowed while the Gear is damaged or short of ammunition")
            self._queue.append(
                RollRequest("repair", REPAIR_DICE, codes.PURPOSE_REPAIR, codes.RULE_REPAIR, "1d6−2 hours, at least 1")
            )
        else:
            if posture is None:
                raise RulesError("FIG needs a posture from -2 to 2")
            if band is None:
                raise RulesError("no odds yet: enter the units of both sides")
            self.result.posture = check_posture(posture)
            self.result.column = band_name(band)
            sign = f"{self.result.posture:+d}"
            self._queue.append(
                RollRequest(
                    "combat",
                    Dice(2, 6, self.result.posture),
                    codes.PURPOSE_COMBAT,
                    codes.RULE_COMBAT,
                    f"2d6 {sign} ({POSTURES[self.result.posture]}), column {self.result.column}",
                )
            )

    # --- the steps ---
    def _apply(self, req: RollRequest, rec: RollRecord) -> None:
        res = self.result
        if req.key == "repair":
            res.repair_hours = repair_hours(rec.total)
            rec.table_row = f"1d6-2 = {rec.total}"
            rec.outcome = f"{res.repair_hours} hour{'s' if res.repair_hours != 1 else ''} of repairs" + (
                " (at least 1)" if rec.total < 1 else ""
            )
            res.meaning.append(f"REP: {rec.outcome}")
            res.meaning.append(REPAIRED_TEXT)
        elif req.key == "combat":
            self._combat(rec)
        elif req.key == "glory":
            res.glory = rec.total
            rec.table_row = f"{res.cell.get('glory') if res.cell else ''}G"
            rec.outcome = f"{rec.total} Glory markers scattered over the two maps"
            res.meaning.append(rec.outcome)
        elif req.key == "enemy":
            self._enemy(req, rec)
        elif req.key == "light_critical":
            res.light_critical = rec.total
            res.gear_damaged = light_critical_damaged(rec.total)
            rec.table_row = f"1d6-2 = {rec.total}"
            rec.outcome = (
                f"light critical (check {rec.total}): the Gear is damaged" if res.gear_damaged else "no damage"
            )
            res.meaning.append(f"hit on the way in: {rec.outcome}")
        elif req.key == "battle_length":
            res.battle_length = rec.total
            rec.table_row = "4d6"
            rec.outcome = f"the battle lasts {rec.total} rounds"
            res.meaning.append(rec.outcome)
        elif req.key == "entry_edge":
            res.entry_edge = ENTRY_EDGES[rec.total]
            rec.table_row = str(rec.total)
            rec.outcome = f"the pilot enters from the {res.entry_edge} edge"
            res.meaning.append(rec.outcome)

    def _combat(self, rec: RollRecord) -> None:
        res = self.result
        assert res.column is not None
        total = combat_row(rec.total)
        res.combat_total = total
        text = COMBAT_TABLE[total][BAND_NAMES.index(res.column)]
        cell = parse_cell(text)
        res.cell, res.cell_text = cell, text
        rec.table_row = f"roll {total}, {res.column}: {text}"
        if res.breakout and BREAKOUT_ROWS[0] <= total <= BREAKOUT_ROWS[1]:
            res.ends = "broke_through"
            rec.outcome = "the pilot broke through to her own lines; the campaign ends"
            res.meaning.append(f"combat roll {total}: {rec.outcome}")
            return
        words = describe_cell(cell, breakout=res.breakout)
        rec.outcome = "; ".join(words)
        res.meaning.append(f"combat roll {total} ({res.column}: {text}): {rec.outcome}")
        ends = cell.get("ends")
        if ends and not res.breakout:
            if ends == "surrendered" and self.ferocious:
                res.starts_breakout = True
                res.meaning.append(
                    "ferocious battles: no surrender; from the next turn the pilot fights her "
                    "way out (Bold, Losing column, until a roll of 12-14)"
                )
            else:
                res.ends = ends
        glory = glory_dice(cell.get("glory"))
        if glory is not None:
            self._queue.append(
                RollRequest("glory", glory, codes.PURPOSE_GLORY, codes.RULE_GLORY, f"{glory.expression}: Glory markers")
            )
        elif cell.get("glory"):
            res.glory = int(str(cell["glory"]))
        if cell.get("enemy"):
            plus = (1 if cell["enemy"] == "**" else 0) + (1 if res.breakout else 0)
            self._queue.append(
                RollRequest(
                    "enemy",
                    Dice(1, 6, plus),
                    codes.PURPOSE_ENEMY,
                    codes.RULE_ENEMY,
                    f"1d6{f'+{plus}' if plus else ''}, column {enemy_column_label(gear_tv_column(self.gear_tv))}",
                )
            )
        if cell.get("hit") == "#":
            self._queue.append(
                RollRequest(
                    "light_critical",
                    LIGHT_CRITICAL_DICE,
                    codes.PURPOSE_LIGHT_CRITICAL,
                    codes.RULE_HIT,
                    "1d6−2: 0 or less = no damage",
                )
            )
        elif cell.get("hit") == "##":
            res.gear_damaged = True
        if res.ends is None and not res.starts_breakout:
            self._queue.append(
                RollRequest(
                    "battle_length",
                    BATTLE_LENGTH_DICE,
                    codes.PURPOSE_BATTLE_LENGTH,
                    codes.RULE_BATTLEFIELD,
                    "4d6 rounds",
                )
            )
            self._queue.append(
                RollRequest(
                    "entry_edge",
                    ENTRY_EDGE_DIE,
                    codes.PURPOSE_ENTRY_EDGE,
                    codes.RULE_BATTLEFIELD,
                    "1d4: 1 North, 2 East, 3 South, 4 West",
                )
            )

    def _enemy(self, req: RollRequest, rec: RollRecord) -> None:
        res = self.result
        row, note = enemy_row(rec.total)
        col = gear_tv_column(self.gear_tv)
        res.enemy_row = row
        res.enemy_tv = ENEMY_QUALITY_TABLE[row - 1][col]
        clamp = f" ({note})" if note else ""
        rec.table_row = f"row {row}, {enemy_column_label(col)}{clamp}"
        rec.outcome = f"an enemy unit of TV {res.enemy_tv} appears"
        res.meaning.append(rec.outcome)


def play_turn(action: str, dice: DiceSource, **kwargs: Any) -> TurnProcedure:
    """Run a whole turn from a dice source (see :class:`TurnProcedure` for the arguments)."""
    proc = TurnProcedure(action, **kwargs)
    run(proc, dice)
    return proc


# --- the break-out and the end of a campaign (RULES 2.2, ⚙ ferocious battles) --------------------------------


def breakout_flags(
    ferocious: bool, turns: Sequence[tuple[dict[str, Any] | None, str | None]]
) -> tuple[list[tuple[bool, bool]], bool]:
    """For each turn, given as (its combat table cell, how it ended the campaign): (played in the break-out,
    started the break-out); and whether the break-out is on after the last turn. ⚙ Ferocious battles: a
    surrender result that did not end the campaign starts the break-out; breaking through ends it."""
    flags: list[tuple[bool, bool]] = []
    active = False
    for cell, ends in turns:
        during = active
        starts = False
        if active:
            if ends == "broke_through":
                active = False
        elif ferocious and cell and cell.get("ends") == "surrendered" and ends is None:
            starts = active = True
        flags.append((during, starts))
    return flags, active


def end_reason(
    *, number: int, length: int | None, ends: str | None, pilot_dead: bool, pilot_captured: bool, breakout_after: bool
) -> str | None:
    """Why the campaign is over after turn ``number`` (a code of :data:`.codes.END_REASONS`), or ``None``: the pilot
    dead or captured, a turn that ended it (surrendered, routed, broke through), or the last battle turn played (not
    while breaking out)."""
    if pilot_dead:
        return codes.END_PILOT_DEAD
    if pilot_captured:
        return codes.END_PILOT_CAPTURED
    if ends:
        return str(ends)
    if not breakout_after and length is not None and number >= length:
        return codes.END_TURNS_USED_UP
    return None
