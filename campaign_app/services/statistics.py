"""Statistics across campaigns: per platoon, per leader and (on a club server) per player, the
battles, win rate, average wound counters, XP lost to recovery and leaders lost; and the "luck" view: how the
app's dice and the dice the players typed in fell compared with the exact odds.

The counts are SQL aggregates over ``battle``, ``platoon``, ``campaign`` and ``roll`` (a battle's leader is the
leader its leader's-fate roll names). Luck is measured two ways, both exact (``rules.odds``, no sampling):

- each roll's **percentile** in the distribution of its dice (the sum of its faces: ``P(S < s) + P(S = s) / 2``,
  whose mean is exactly 50 % for fair dice): the mean per source (app / typed in) and per kind of roll;
- each **outcome**'s count against its expected count: the leader's fate (casualty, promoted, stays) summed
  over the battles' exact odds (``rules.odds.leader_odds``), and the XP lost to recovery against its exact mean
  (``rules.odds.recovery_mean``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..rules.dice import Dice, DiceError
from ..rules.odds import dice_sum_counts, leader_odds, recovery_mean
from ..store.database import db
from ..store.opened import Capability, can
from .common import resolve_campaign
from .results import Result

LOST = "('casualty', 'promoted')"

PLATOON_SQL = f"""
SELECT c.name, p.id, p.name, p.owner, COUNT(b.id),
       COALESCE(SUM(CASE WHEN b.outcome = 'victory' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN b.outcome = 'draw' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN b.outcome = 'defeat' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(b.wounds), 0), COALESCE(SUM(b.xp_lost), 0),
       COALESCE(SUM(CASE WHEN b.leader_fate IN {LOST} THEN 1 ELSE 0 END), 0)
FROM platoon p JOIN campaign c ON c.id = p.campaign_id LEFT JOIN battle b ON b.platoon_id = p.id
WHERE c.system = 'atomic_africa' {{where}}
GROUP BY c.name, p.id, p.name, p.owner
"""

LEADER_SQL = f"""
SELECT c.name, p.name, l.id, l.name, l.status, COUNT(b.id),
       COALESCE(SUM(CASE WHEN b.outcome = 'victory' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN b.outcome = 'draw' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN b.outcome = 'defeat' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(b.wounds), 0), COALESCE(SUM(b.xp_lost), 0),
       COALESCE(SUM(CASE WHEN b.leader_fate IN {LOST} THEN 1 ELSE 0 END), 0)
FROM leader l JOIN platoon p ON p.id = l.platoon_id JOIN campaign c ON c.id = p.campaign_id
LEFT JOIN roll r ON r.leader_id = l.id AND r.purpose = 'leader_fate' AND r.battle_id IS NOT NULL
LEFT JOIN battle b ON b.id = r.battle_id
WHERE c.system = 'atomic_africa' {{where}}
GROUP BY c.name, p.name, l.id, l.name, l.status
"""

PLAYER_SQL = f"""
SELECT p.owner, COUNT(DISTINCT p.id), COUNT(b.id),
       COALESCE(SUM(CASE WHEN b.outcome = 'victory' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN b.outcome = 'draw' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN b.outcome = 'defeat' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(b.wounds), 0), COALESCE(SUM(b.xp_lost), 0),
       COALESCE(SUM(CASE WHEN b.leader_fate IN {LOST} THEN 1 ELSE 0 END), 0)
FROM platoon p JOIN campaign c ON c.id = p.campaign_id LEFT JOIN battle b ON b.platoon_id = p.id
WHERE c.system = 'atomic_africa' {{where}}
GROUP BY p.owner
"""

ROLLS_SQL = """
SELECT r.purpose, r.expression, r.faces, r.source
FROM roll r LEFT JOIN platoon p ON p.id = r.platoon_id LEFT JOIN sologear_sheet s ON s.id = r.sheet_id
WHERE 1 = 1 {where}
"""

BATTLE_LUCK_SQL = """
SELECT b.wounds, b.platoon_xp_after + b.xp_lost, b.xp_lost, b.leader_wounds, b.leader_xp_after, b.leader_fate,
       (SELECT MIN(r.source) FROM roll r WHERE r.battle_id = b.id AND r.purpose = 'recovery'),
       (SELECT MIN(r.source) FROM roll r WHERE r.battle_id = b.id AND r.purpose = 'leader_fate')
FROM battle b JOIN platoon p ON p.id = b.platoon_id
WHERE 1 = 1 {where}
"""

SOURCE_WORDS = {"app": "the app's dice", "entered": "typed-in dice"}


@dataclass(frozen=True)
class Record(Result):
    """Battles and what they cost, for a platoon, a leader or a player."""

    battles: int
    victories: int
    draws: int
    defeats: int
    wounds: int = field(metadata={"json": False})
    xp_lost: int
    leaders_lost: int

    @property
    def win_rate(self) -> float | None:
        return None if not self.battles else self.victories / self.battles

    @property
    def average_wounds(self) -> float | None:
        return None if not self.battles else self.wounds / self.battles

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["win_rate"] = None if self.win_rate is None else round(self.win_rate, 4)
        out["average_wounds"] = None if self.average_wounds is None else round(self.average_wounds, 4)
        return out


@dataclass(frozen=True)
class PlatoonStats(Record):
    campaign: str = ""
    platoon: str = ""
    owner: str = field(default="", metadata={"json": False})
    platoon_id: int = field(default=0, metadata={"json": False})


@dataclass(frozen=True)
class LeaderStats(Record):
    campaign: str = ""
    platoon: str = ""
    leader: str = ""
    status: str = ""
    leader_id: int = field(default=0, metadata={"json": False})


@dataclass(frozen=True)
class PlayerStats(Record):
    player: str = ""
    platoons: int = 0


@dataclass(frozen=True)
class LuckRow(Result):
    """The dice of one source (and one kind of roll, or all): how many rolls, their mean percentile."""

    source: str
    purpose: str
    """A roll's purpose code, or ``all``."""
    rolls: int
    mean_percentile: float | None
    """Mean of the rolls' percentiles in their dice's distribution (50 for fair dice on average)."""


@dataclass(frozen=True)
class OutcomeLuck(Result):
    """An outcome's count against its expected count (exact odds), per source."""

    source: str
    roll: str
    outcome: str
    observed: float
    expected: float


@dataclass(frozen=True)
class Statistics(Result):
    scope: str
    """``all campaigns`` or the campaign's name."""
    platoons: tuple[PlatoonStats, ...]
    leaders: tuple[LeaderStats, ...]
    players: tuple[PlayerStats, ...]
    luck: tuple[LuckRow, ...]
    outcomes: tuple[OutcomeLuck, ...]


def _record(values: Iterable[Any]) -> dict[str, int]:
    b, v, d, lo, w, x, lost = (int(x) for x in values)
    return {"battles": b, "victories": v, "draws": d, "defeats": lo, "wounds": w, "xp_lost": x, "leaders_lost": lost}


def _dice_of(expression: str) -> tuple[int, int] | None:
    """(count, sides) of a roll's dice; a d66 is two d6."""
    text = expression.strip().lower()
    if text in ("d66", "1d66"):
        return 2, 6
    try:
        dice = Dice.parse(text)
    except DiceError:
        return None
    if dice.sides == 66:
        return 2 * dice.count, 6
    return dice.count, dice.sides


_CDF_CACHE: dict[tuple[int, int], tuple[list[Fraction], list[Fraction]]] = {}


def percentile(count: int, sides: int, faces_sum: int) -> Fraction:
    """The mid-percentile of a sum of ``count`` d``sides`` that came to ``faces_sum``: P(S < s) + P(S = s)/2."""
    key = (count, sides)
    if key not in _CDF_CACHE:
        counts = dice_sum_counts(count, sides)
        whole = sum(counts)
        below, acc = [], 0
        for c in counts:
            below.append(Fraction(acc, whole))
            acc += c
        _CDF_CACHE[key] = (below, [Fraction(c, whole) for c in counts])
    below, at = _CDF_CACHE[key]
    if not 0 <= faces_sum < len(at) or at[faces_sum] == 0:
        raise ValueError(f"{faces_sum} is not a total of {count}d{sides}")
    return below[faces_sum] + at[faces_sum] / 2


def _where(campaign_id: int | None, column: str = "p.campaign_id") -> tuple[str, tuple[Any, ...]]:
    return ("", ()) if campaign_id is None else (f"AND {column} = ?", (campaign_id,))


def statistics(campaign: int | None = None) -> Statistics:
    """The statistics of every campaign (or of one)."""
    camp = resolve_campaign(campaign) if campaign is not None else None
    cid = camp.id if camp is not None else None
    where, params = _where(cid, "c.id")
    platoons = tuple(
        sorted(
            (
                PlatoonStats(**_record(r[4:]), campaign=r[0], platoon_id=int(r[1]), platoon=r[2], owner=r[3] or "")
                for r in db.execute_sql(PLATOON_SQL.format(where=where), params).fetchall()
            ),
            key=lambda s: (s.campaign.casefold(), s.platoon.casefold()),
        )
    )
    leaders = tuple(
        sorted(
            (
                LeaderStats(
                    **_record(r[5:]), campaign=r[0], platoon=r[1], leader_id=int(r[2]), leader=r[3], status=r[4]
                )
                for r in db.execute_sql(LEADER_SQL.format(where=where), params).fetchall()
            ),
            key=lambda s: (s.campaign.casefold(), s.platoon.casefold(), s.leader_id),
        )
    )
    players: tuple[PlayerStats, ...] = ()
    if can(Capability.SEVERAL_LOGINS):
        players = tuple(
            sorted(
                (
                    PlayerStats(**_record(r[2:]), player=r[0] or "", platoons=int(r[1]))
                    for r in db.execute_sql(PLAYER_SQL.format(where=where), params).fetchall()
                ),
                key=lambda s: s.player,
            )
        )
    luck, outcomes = _luck(cid)
    return Statistics(
        scope=camp.name if camp else "all campaigns",
        platoons=platoons,
        leaders=leaders,
        players=players,
        luck=luck,
        outcomes=outcomes,
    )


def _luck(cid: int | None) -> tuple[tuple[LuckRow, ...], tuple[OutcomeLuck, ...]]:
    where = "" if cid is None else "AND (p.campaign_id = ? OR s.campaign_id = ?)"
    params: tuple[Any, ...] = () if cid is None else (cid, cid)
    sums: dict[tuple[str, str], list[Fraction]] = defaultdict(list)
    for purpose, expression, faces, source in db.execute_sql(ROLLS_SQL.format(where=where), params).fetchall():
        dice = _dice_of(expression)
        faces_list = json.loads(faces) if isinstance(faces, str) else list(faces or [])
        if dice is None or not faces_list:
            continue
        count, sides = dice
        if len(faces_list) != count and not (sides == 6 and len(faces_list) * 2 == count):
            continue
        if len(faces_list) * 2 == count:  # d66 stored as one number per die pair (e.g. 35): its two d6
            faces_list = [d for f in faces_list for d in divmod(int(f), 10)]
        try:
            p = percentile(count, sides, sum(int(f) for f in faces_list))
        except ValueError:
            continue
        sums[(source, purpose)].append(p)
        sums[(source, "all")].append(p)
    luck = tuple(
        LuckRow(source=src, purpose=purpose, rolls=len(ps), mean_percentile=round(float(sum(ps) / len(ps)) * 100, 2))
        for (src, purpose), ps in sorted(sums.items(), key=lambda kv: (kv[0][0], kv[0][1] != "all", kv[0][1]))
    )
    bwhere = "" if cid is None else "AND p.campaign_id = ?"
    bparams: tuple[Any, ...] = () if cid is None else (cid,)
    expected: dict[tuple[str, str, str], Fraction] = defaultdict(Fraction)
    observed: dict[tuple[str, str, str], int] = defaultdict(int)
    for wounds, xp_at_recovery, xp_lost, leader_wounds, leader_xp, fate, rec_src, fate_src in db.execute_sql(
        BATTLE_LUCK_SQL.format(where=bwhere), bparams
    ).fetchall():
        if rec_src is not None and wounds:
            expected[(rec_src, "recovery", "XP lost")] += recovery_mean(int(wounds), min(int(xp_at_recovery), 32))
            observed[(rec_src, "recovery", "XP lost")] += int(xp_lost)
        if fate_src is not None and fate is not None and leader_xp is not None:
            for f, p in leader_odds(int(leader_wounds), int(leader_xp)).items():
                expected[(fate_src, "leader's fate", str(f))] += p
                observed[(fate_src, "leader's fate", str(f))] += int(str(f) == fate)
    outcomes = tuple(
        OutcomeLuck(
            source=src,
            roll=roll,
            outcome=outcome,
            observed=float(observed[key]),
            expected=round(float(expected[key]), 3),
        )
        for key in sorted(expected)
        for (src, roll, outcome) in [key]
    )
    return luck, outcomes


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def luck_words(row: LuckRow) -> str:
    """ "the app's dice: 120 rolls at the 53rd percentile on average (fair dice: 50th)"."""
    if row.mean_percentile is None:
        return f"{SOURCE_WORDS.get(row.source, row.source)}: no rolls"
    words = SOURCE_WORDS.get(row.source, row.source)
    return (
        f"{words[:1].upper()}{words[1:]}: {row.rolls} roll{'s' if row.rolls != 1 else ''} at the "
        f"{ordinal(round(row.mean_percentile))} percentile on average (fair dice: 50th)"
    )


def statistics_text(s: Statistics) -> str:
    def pct(x: float | None) -> str:
        return "\u2013" if x is None else f"{100 * x:.0f} %"

    def avg(x: float | None) -> str:
        return "\u2013" if x is None else f"{x:.1f}"

    lines = [f"Statistics of {s.scope}", "Platoons:"]
    for p in s.platoons:
        lines.append(
            f"  {p.campaign} / {p.platoon}: {p.battles} battles, win rate {pct(p.win_rate)}, "
            f"{avg(p.average_wounds)} wounds a battle, {p.xp_lost} XP lost, {p.leaders_lost} leaders lost"
        )
    lines.append("Leaders:")
    for ld in s.leaders:
        lines.append(
            f"  {ld.leader} ({ld.platoon}, {ld.status}): {ld.battles} battles, win rate {pct(ld.win_rate)}, "
            f"{avg(ld.average_wounds)} wounds a battle"
        )
    if s.players:
        lines.append("Players:")
        for pl in s.players:
            lines.append(
                f"  {pl.player or '(nobody)'}: {pl.platoons} platoons, {pl.battles} battles, win rate "
                f"{pct(pl.win_rate)}, {pl.leaders_lost} leaders lost"
            )
    lines.append("Luck:")
    lines += [f"  {luck_words(r)}" for r in s.luck if r.purpose == "all"]
    for o in s.outcomes:
        lines.append(
            f"  {SOURCE_WORDS.get(o.source, o.source)}, {o.roll} {o.outcome}: {o.observed:g} "
            f"(expected {o.expected:.2f})"
        )
    return "\n".join(lines)
