"""The Sologear reckoning (RULES.md 2.3): recognition and impression scores, the noticed bands, the reward
and punishment tables and the procedure that rolls them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import codes
from ..dice import Dice, DiceError, RollRecord
from ..experience import RulesError
from .combat import D66_DICE
from .steps import Procedure, RollRequest

# =========================================================================================================
# 2.3 Campaign end
# =========================================================================================================

MAX_REWARD_DICE = 10
MAX_REWARD_SIDES = 100

RECOGNITION_POINTS: dict[str, int] = {"dec": 8, "rep": 4, "fig_positive": 1, "glory": 1, "bunkers": 2, "units": 1}
"""Recognition: 8 per DEC, 4 per REP, X per FIG(X) with X > 0, 1 per Glory, 2 per bunker, 1 per full
100 TV destroyed."""

IMPRESSION_POINTS: dict[str, int] = {"dec": -9, "rep": -4, "fig_negative": 1, "glory": 1, "bunkers": 2, "units": 2}
"""Impression: −9 per DEC, −4 per REP, X per FIG(X) with X < 0, 1 per Glory, 2 per bunker, 2 per full
100 TV destroyed."""

NOTICED_BANDS: tuple[tuple[int, int | None, int | None], ...] = (
    (0, 5, None),
    (6, 10, 12),
    (11, 15, 14),
    (16, 20, 16),
    (21, 25, 22),
    (26, 30, 24),
    (31, 35, 26),
    (36, 40, 32),
    (41, 45, 34),
    (46, None, 36),
)
"""Noticed? (recognition low, high or None = and more, highest D66 that notices or None = never). A D66 roll
from 11 up to that value means the pilot was noticed."""


@dataclass(frozen=True)
class Band:
    """One row of a result table: the inclusive range low..high (None = open) and its meaning."""

    low: int | None
    high: int | None
    title: str
    text: str

    def contains(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    @property
    def label(self) -> str:
        return range_label(self.low, self.high)


def range_label(low: int | None, high: int | None) -> str:
    def num(v: int) -> str:
        return f"−{-v}" if v < 0 else str(v)

    if high is None and low is not None:
        return f"{num(low)}+"
    if low is None and high is not None:
        return f"{num(high)} and below"
    assert low is not None and high is not None
    if low == high:
        return num(low)
    if high <= 0:
        return f"{num(high)} to {num(low)}"
    return f"{num(low)}–{num(high)}"


REWARDS: tuple[Band, ...] = (
    Band(0, 8, "Double pay", "A large cash payment and a mention of the pilot's deeds."),
    Band(
        9,
        16,
        "New Gear",
        "A new Gear one class better from the pilot's own side, or one of the enemy machines she destroyed.",
    ),
    Band(17, 25, "Promotion and pension", "Promotion, and extra pay for the rest of her life."),
    Band(
        26,
        49,
        "Own Gear, future Duelist",
        "The army gives her a Gear of her own, picked from those she destroyed; a career as a Duelist is assured.",
    ),
    Band(
        50,
        None,
        "Path to high command",
        "Promotion; the way to the highest ranks lies open (and someone films her story).",
    ),
)
"""Rewards table (impression ≥ 0), by reward roll."""

PUNISHMENTS: tuple[Band, ...] = (
    Band(-4, 0, "Loot, pay and honour lost", "Everything gained in loot, pay and honour is taken away."),
    Band(-7, -5, "Court-martial", "Court-martialled; the pilot loses her status."),
    Band(-10, -8, "Disgraced", "Publicly humiliated."),
    Band(-12, -11, "Punished and fined", "A punishment and a fine."),
    Band(-14, -13, "Heavily fined", "A heavy fine."),
    Band(-16, -15, "Retirement or exile", "Forced to retire to a monastery or go into exile."),
    Band(
        -20,
        -17,
        "Declared a coward",
        "Branded a coward and challenged to a duel by her old comrades; out of the army whatever happens.",
    ),
    Band(
        -30,
        -21,
        "Penalty battalion",
        "Sent to a penalty battalion: a suicide mission is her only way back; failure means execution.",
    ),
    Band(-40, -31, "Suicide or execution", "Offered the choice of suicide or a quick execution."),
    Band(None, -41, "Dishonourable execution", "Executed slowly and without honour."),
)
"""Punishments table (impression < 0), by punishment roll; a roll above 0 counts as the mildest band."""

VARIABLE_REWARDS: tuple[Band, ...] = (
    Band(0, 8, "Promotion", "Promotion and a mention of the pilot's deeds."),
    Band(
        9,
        16,
        "New Gear",
        "A new Gear one class better from the pilot's own side, or one of the enemy machines she destroyed.",
    ),
    Band(17, 25, "Promotion and pension", "Promotion, and extra pay for the rest of her life."),
    Band(
        26,
        49,
        "Own Gear, unit Duelist",
        "A Gear of her own, picked from those she destroyed; she becomes the unit's Duelist and her memoirs sell well.",
    ),
    Band(
        50,
        None,
        "Rich rewards",
        "Ranks and medals; high command ahead, a drama series about her, and a place in the next character book.",
    ),
)
"""⚙ Variable (milder) rewards table, as listed in the seed."""

VARIABLE_PUNISHMENTS: tuple[Band, ...] = (
    Band(-4, 0, "Loot and pay lost", "Everything gained in loot and pay is taken away."),
    Band(-10, -5, "Court-martial, status lost", "Court-martialled; the pilot loses her status."),
    Band(-16, -11, "Court-martial, lesser unit", "Court-martialled and moved to a unit of lower standing."),
    Band(
        -30,
        -17,
        "Court-martial, coward",
        "Branded a coward: prison or a penalty battalion; an officer is dismissed from the service.",
    ),
    Band(
        -40,
        -31,
        "Court-martial, prison",
        "Prison or a penalty battalion; senior officers are retired and, in time, released and dismissed.",
    ),
    Band(None, -41, "Executed", "Executed by the army (some armies send her into exile or prison for life instead)."),
)
"""⚙ Variable (milder) punishments table, as listed in the seed."""

DEFAULT_REWARD_DICE = "1d6"


@dataclass(frozen=True)
class ScoreItem:
    key: str
    label: str
    count: int
    per: int | None
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "count": self.count, "per": self.per, "points": self.points}


@dataclass(frozen=True)
class Score:
    """A total with its breakdown; ``total == sum(item.points)``."""

    total: int
    items: tuple[ScoreItem, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "breakdown": [i.to_dict() for i in self.items]}


@dataclass(frozen=True)
class TurnTally:
    """What a played turn contributes to the reckoning."""

    action: str
    posture: int | None = None
    glory: int = 0
    bunkers: int = 0
    enemy_tv: int = 0
    breakout: bool = False

    @property
    def glory_points(self) -> int:
        """⚙ Glory collected in the ferocious break-out counts double."""
        return self.glory * (2 if self.breakout else 1)


def _common_items(turns: Sequence[TurnTally], points: dict[str, int]) -> list[ScoreItem]:
    glory = sum(t.glory_points for t in turns)
    bunkers = sum(t.bunkers for t in turns)
    hundreds = sum(t.enemy_tv for t in turns) // 100
    doubled = any(t.breakout and t.glory for t in turns)
    return [
        ScoreItem(
            "glory",
            "Glory" + (" (break-out Glory doubled)" if doubled else ""),
            glory,
            points["glory"],
            glory * points["glory"],
        ),
        ScoreItem("bunkers", "Bunkers", bunkers, points["bunkers"], bunkers * points["bunkers"]),
        ScoreItem("units", "Units (per full 100 TV destroyed)", hundreds, points["units"], hundreds * points["units"]),
    ]


def recognition(turns: Sequence[TurnTally]) -> Score:
    """Recognition with its breakdown by DEC / REP / FIG / Glory / bunkers / units."""
    p = RECOGNITION_POINTS
    dec = sum(1 for t in turns if t.action == "dec")
    rep = sum(1 for t in turns if t.action == "rep")
    brave = [t.posture for t in turns if t.action == "fig" and t.posture is not None and t.posture > 0]
    items = [
        ScoreItem("dec", "DEC", dec, p["dec"], dec * p["dec"]),
        ScoreItem("rep", "REP", rep, p["rep"], rep * p["rep"]),
        ScoreItem("fig", "FIG with X > 0 (X each)", len(brave), None, sum(brave)),
        *_common_items(turns, p),
    ]
    return Score(sum(i.points for i in items), tuple(items))


def impression(turns: Sequence[TurnTally]) -> Score:
    """Impression with its breakdown by DEC / REP / FIG / Glory / bunkers / units."""
    p = IMPRESSION_POINTS
    dec = sum(1 for t in turns if t.action == "dec")
    rep = sum(1 for t in turns if t.action == "rep")
    timid = [t.posture for t in turns if t.action == "fig" and t.posture is not None and t.posture < 0]
    items = [
        ScoreItem("dec", "DEC", dec, p["dec"], dec * p["dec"]),
        ScoreItem("rep", "REP", rep, p["rep"], rep * p["rep"]),
        ScoreItem("fig", "FIG with X < 0 (X each)", len(timid), None, sum(timid)),
        *_common_items(turns, p),
    ]
    return Score(sum(i.points for i in items), tuple(items))


def d66_value(tens: int, units: int) -> int:
    """D66: the first d6 gives the tens, the second the units (11..66)."""
    for f in (tens, units):
        if not 1 <= f <= 6:
            raise DiceError(f"{f} is not a face of a d6 (1..6)")
    return tens * 10 + units


def noticed_band(recognition_total: int) -> tuple[int, int | None, int | None]:
    """The NOTICED_BANDS row for a recognition total (negative totals use the first row)."""
    for band in NOTICED_BANDS:
        low, high, _ = band
        if (recognition_total <= 5 and low == 0) or (
            low <= recognition_total and (high is None or recognition_total <= high)
        ):
            return band
    raise AssertionError("unreachable")  # pragma: no cover


def noticed_limit(recognition_total: int) -> int | None:
    """The highest D66 that notices the pilot, or None (never noticed)."""
    return noticed_band(recognition_total)[2]


def is_noticed(recognition_total: int, d66: int) -> bool:
    if not 11 <= d66 <= 66 or d66 % 10 == 0 or d66 % 10 > 6:
        raise DiceError(f"{d66} is not a D66 roll (11..66, each digit 1..6)")
    limit = noticed_limit(recognition_total)
    return limit is not None and d66 <= limit


def noticed_label(recognition_total: int) -> str:
    limit = noticed_limit(recognition_total)
    return "never" if limit is None else f"11–{limit}"


def result_tables(variable: bool = False) -> tuple[tuple[Band, ...], tuple[Band, ...]]:
    return (VARIABLE_REWARDS, VARIABLE_PUNISHMENTS) if variable else (REWARDS, PUNISHMENTS)


def lookup_result(value: int, impression_total: int, *, variable: bool = False) -> tuple[str, Band]:
    """``("rewards"|"punishments", band)`` for a reward/punishment roll. Impression ≥ 0 reads the rewards
    table (a roll below 0 counts as its lowest band), < 0 the punishments (a roll above 0 counts as the
    mildest band)."""
    rewards, punishments = result_tables(variable)
    if impression_total >= 0:
        table, bands, clamp = "rewards", rewards, max(value, 0)
    else:
        table, bands, clamp = "punishments", punishments, min(value, 0)
    for band in bands:
        if band.contains(clamp):
            return table, band
    raise AssertionError("unreachable")  # pragma: no cover


def check_reward_dice(text: str) -> Dice:
    """⚙ The reward-roll dice (default 1d6)."""
    try:
        dice = Dice.parse(text)
    except DiceError as exc:
        raise RulesError(f"reward dice: {exc}") from None
    if dice.sides == 66:
        # "d66" elsewhere in the app is D66: two d6 read as tens and units (11..66), never one 66-sided
        # die; a reward roll adds dice to the impression, which a D66 cannot do
        raise RulesError(
            f"reward dice: {text.strip()!r} is not allowed: D66 (two d6 read as tens and units) "
            f"is not a sum of dice; use ordinary dice such as 1d6 or 2d6"
        )
    if dice.count > MAX_REWARD_DICE or dice.sides > MAX_REWARD_SIDES:
        raise RulesError(
            f"reward dice: at most {MAX_REWARD_DICE} dice of at most {MAX_REWARD_SIDES} sides, not {text!r}"
        )
    return dice


@dataclass
class EndResult:
    recognition: Score
    impression: Score
    d66: int | None = None
    noticed: bool | None = None
    noticed_range: str = ""
    table: str | None = None
    roll: int | None = None
    result: int | None = None
    band: Band | None = None
    outcome: str = ""


class EndProcedure(Procedure):
    """2.3 The reckoning: D66 (one roll of two d6: tens, units) against the noticed band; if noticed, the
    reward/punishment roll = reward dice + impression."""

    def __init__(
        self, turns: Sequence[TurnTally], *, reward_dice: str = DEFAULT_REWARD_DICE, variable: bool = False
    ) -> None:
        super().__init__()
        self.variable = variable
        self.reward_dice = check_reward_dice(reward_dice)
        self.result = EndResult(recognition(turns), impression(turns))
        rec = self.result.recognition.total
        self.result.noticed_range = noticed_label(rec)
        self._queue.append(
            RollRequest(
                "d66",
                D66_DICE,
                codes.PURPOSE_NOTICED,
                codes.RULE_NOTICED,
                f"D66 (first die tens, second units): noticed on {self.result.noticed_range} with recognition {rec}",
            )
        )

    def _apply(self, req: RollRequest, rec: RollRecord) -> None:
        res = self.result
        if req.key == "d66":
            value = d66_value(rec.faces[0], rec.faces[1])
            rec.total = value
            res.d66 = value
            res.noticed = is_noticed(res.recognition.total, value)
            rec.table_row = f"recognition {res.recognition.total}: noticed on {res.noticed_range}"
            rec.outcome = "noticed" if res.noticed else "not noticed: no reward or punishment"
            if res.noticed:
                imp = res.impression.total
                table = "rewards" if imp >= 0 else "punishments"
                mod = self.reward_dice.modifier + imp
                dice = Dice(self.reward_dice.count, self.reward_dice.sides, mod)
                self._queue.append(
                    RollRequest(
                        "reward",
                        dice,
                        table,
                        codes.result_rule(table, self.variable),
                        f"{self.reward_dice.expression} + impression {imp}",
                    )
                )
            else:
                res.outcome = "Not noticed: the campaign ends with no reward or punishment."
        elif req.key == "reward":
            imp = res.impression.total
            res.roll = rec.total - imp - self.reward_dice.modifier
            res.result = rec.total
            res.table, res.band = lookup_result(rec.total, imp, variable=self.variable)
            rec.table_row = f"{res.table} {res.band.label}"
            rec.outcome = f"{res.band.title}: {res.band.text}"
            res.outcome = rec.outcome
