"""What the Sologear services give back (:mod:`.sologear_sheet`, :mod:`.sologear_play`): typed, frozen results.

``to_dict()`` (:class:`~.results.Result`) gives the JSON the CLI prints (``sologear show --json`` and the
others): the field names are its keys, in this order. Rolls are the rules' :class:`~campaign_app.rules.dice.
RollRecord` (a stored roll read back as one), breakdown lines the rules' :class:`~campaign_app.rules.sologear.reckoning.
ScoreItem`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.dice import RollRecord
from ..rules.sologear.reckoning import ScoreItem
from .results import Result

StoredRoll = RollRecord
"""A stored roll read back (:func:`~.sologear_sheet.roll_record`): the rules' record of it, whose ``to_dict()``
is the stored roll's JSON (the one place to change for another roll type)."""

Cell = dict[str, str | None]
"""A combat-table cell as stored on a turn (keys glory, hit, enemy, ends: :func:`~campaign_app.rules.sologear.combat.
parse_cell`)."""


@dataclass(frozen=True)
class Odds(Result):
    """Player total / enemy total, its odds band (Winning .. Losing) and the ratio as shown."""

    ratio: float
    band: str
    ratio_text: str


@dataclass(frozen=True)
class Totals(Result):
    """Both sides' combat power totals and unit counts, and the odds (``None`` while a side has no power)."""

    player: float
    player_units: int
    enemy: float
    enemy_units: int
    odds: Odds | None

    def side(self, side: str) -> float:
        return self.player if side == "player" else self.enemy


@dataclass(frozen=True)
class UnitRow(Result):
    """One company-sized unit of a side: base power × skill × loyalty = total."""

    id: int
    side: str
    name: str
    company_tv: int | None
    base_power: float
    skill: str
    skill_x: float
    loyalty: str
    loyalty_x: float
    total: float
    position: int


@dataclass(frozen=True)
class TurnRecord(Result):
    """What the player recorded for a turn's battle."""

    glory_collected: int
    enemy_tv_destroyed: int
    bunkers_destroyed: int
    gear_damaged: bool
    short_ammo: bool
    pilot_dead: bool
    pilot_captured: bool


@dataclass(frozen=True)
class FormRow(Result):
    """A turn's row of the battle form, as text (the printed form and the Battle form tab)."""

    turn: str
    action: str
    enemy: str
    glory: str
    special: str

    def cells(self) -> tuple[str, str, str, str, str]:
        return (self.turn, self.action, self.enemy, self.glory, self.special)


@dataclass(frozen=True)
class TurnRow(Result):
    """A played turn: what was rolled (the combat-table row and cell, Glory, enemy, light critical, battle
    length, entry edge), what it means, what was recorded, its battle-form row and its rolls."""

    turn: int
    id: int
    action: str
    label: str
    posture: int | None
    posture_name: str | None
    combat_total: int | None
    column: str | None
    cell: Cell | None
    cell_text: str | None
    glory: int | None
    enemy_tv: int | None
    light_critical: int | None
    repair_hours: int | None
    battle_length: int | None
    entry_edge: str | None
    ends: str | None
    breakout: bool
    starts_breakout: bool
    battle: bool
    recorded: bool
    result: TurnRecord
    notes: str
    meaning: tuple[str, ...]
    form: FormRow
    rolls: tuple[StoredRoll, ...]


@dataclass(frozen=True)
class PlayedTurn(TurnRow):
    """A turn as :func:`~.sologear_play.play_turn` / :func:`~.sologear_play.record_turn` leave it: the turn, and
    whether (why) the campaign ended with it."""

    campaign_ended: str | None = None
    campaign_ended_text: str | None = None


@dataclass(frozen=True)
class ResultBand(Result):
    """The row of the reward or punishment table the reckoning landed on."""

    label: str
    title: str
    text: str


@dataclass(frozen=True)
class RewardTableNames(Result):
    """The row labels of the reward and punishment tables in use (standard or variable)."""

    rewards: tuple[str, ...]
    punishments: tuple[str, ...]


@dataclass(frozen=True)
class Reckoning(Result):
    """The end-of-campaign reckoning: stored once done (``final``), else a preview from the turns so far."""

    final: bool
    recognition: int
    recognition_breakdown: tuple[ScoreItem, ...]
    noticed_on: str
    d66: int | None
    noticed: bool | None
    impression: int
    impression_breakdown: tuple[ScoreItem, ...]
    table: str | None
    result: int | None
    band: ResultBand | None
    outcome: str | None
    tables: str
    reward_dice: str
    reward_table_names: RewardTableNames
    rolls: tuple[StoredRoll, ...]


@dataclass(frozen=True)
class ReckoningDone(Result):
    """What :func:`~.sologear_play.end_campaign` rolled and stored."""

    recognition: int
    recognition_breakdown: tuple[ScoreItem, ...]
    noticed_on: str
    noticed: bool | None
    d66: int | None
    impression: int
    impression_breakdown: tuple[ScoreItem, ...]
    table: str | None
    tables: str
    roll: int | None
    result: int | None
    band: ResultBand | None
    outcome: str
    rolls: tuple[RollRecord, ...]


@dataclass(frozen=True)
class NextTurn(Result):
    """What the next turn can be: its number, odds column, the actions allowed, or why none can be played
    (``blocked``)."""

    number: int
    length: int | None
    band: str | None
    ratio: float | None
    ratio_text: str | None
    breakout: bool
    actions: tuple[str, ...]
    can_rep: bool
    gear_tv: int
    ferocious: bool
    blocked: str | None
    posture_fixed: int | None


@dataclass(frozen=True)
class CampaignRef(Result):
    id: int
    name: str
    archived: bool


@dataclass(frozen=True)
class SheetOptions(Result):
    """The optional rules (⚙)."""

    variable_tables: bool
    ferocious: bool
    reward_dice: str


@dataclass(frozen=True)
class SheetState(Result):
    """The Gear's and the pilot's state, and the campaign's (active / ended, why, break-out, reckoned)."""

    gear_damaged: bool
    short_ammo: bool
    pilot_status: str
    status: str
    end_reason: str | None
    end_text: str | None
    breakout: bool
    reckoned: bool


@dataclass(frozen=True)
class Forces(Result):
    """Both sides' units, in their order."""

    player: tuple[UnitRow, ...]
    enemy: tuple[UnitRow, ...]

    def side(self, side: str) -> tuple[UnitRow, ...]:
        return self.player if side == "player" else self.enemy


@dataclass(frozen=True)
class SideTotals(Result):
    player: float
    enemy: float

    def side(self, side: str) -> float:
        return self.player if side == "player" else self.enemy


@dataclass(frozen=True)
class SheetData(Result):
    """A sheet's full data: header, options, state, both sides' units with totals and odds, the battle form
    with every turn and roll, what the next turn can be, the reckoning (``sologear show --json``)."""

    id: int
    campaign: CampaignRef
    name: str
    date: str
    area: str
    pilot: str
    gear_name: str
    gear_tv: int
    player_unit: str
    player_affiliation: str
    enemy_unit: str
    enemy_affiliation: str
    notes: str
    length: int | None
    length_dice: str | None
    length_rolls: tuple[StoredRoll, ...]
    options: SheetOptions
    state: SheetState
    enemy_quality_column: str
    forces: Forces
    totals: SideTotals
    odds: Odds | None
    turns_played: int
    turns_left: int | None
    turns: tuple[TurnRow, ...]
    next: NextTurn
    reckoning: Reckoning
    created_at: str | None

    def header(self, key: str) -> str | int:
        """A header field by name (one of :data:`~.sologear_sheet.HEADER_FIELDS`: the sheet tab's fields)."""
        value: str | int = getattr(self, key)
        return value


@dataclass(frozen=True)
class HistoryEntry(Result):
    """One line of a campaign's history: ``kind`` sheet, roll, turn, record, end or reckoning; the turn it
    belongs to; its text; the roll (for a roll line)."""

    kind: str
    turn: int | None
    text: str
    roll: StoredRoll | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.roll is None:  # the JSON of a line without a roll has always named "roll" before "text"
            out["text"] = out.pop("text")
        return out


@dataclass(frozen=True)
class SheetChange(Result):
    """What :func:`~.sologear_sheet.update_sheet` changed: each field's old and new value."""

    id: int
    old: dict[str, str | int]
    """Field name -> its value before (text, or the Gear's TV)."""
    new: dict[str, str | int]


@dataclass(frozen=True)
class LengthRolled(Result):
    length: int
    rolls: tuple[StoredRoll, ...]


@dataclass(frozen=True)
class PlayUndone(Result):
    """What :func:`~.sologear_play.undo_last` stepped back: the reckoning, a record, a turn (its number and
    label) or the length roll."""

    undone: str
    turn: int | None = None
    label: str | None = None

    def to_dict(self) -> dict[str, Any]:
        # the turn and its label are printed only when a turn was undone
        out = super().to_dict()
        if self.undone != "turn" or self.turn is None:
            out.pop("turn")
            out.pop("label")
        return out
