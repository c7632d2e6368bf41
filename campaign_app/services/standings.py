"""Campaign standings (RULES.md §6): a league table of a campaign's platoons, the head-to-head record of every pair
that fought each other, and the table of a Sologear campaign's pilots.

Everything is counted by SQL over the existing tables (``battle``, ``platoon``, ``sologear_sheet``,
``sologear_turn``) in one read transaction: one aggregate query for the table, one for the head-to-head records
and one for the battles whose two logged results disagree. Only the level of each platoon comes from the rules
(:func:`campaign_app.rules.experience.level_name`, the campaign's thresholds).

Head to head: each platoon logs its own battles. When platoon A logs a battle naming platoon B of the same
campaign as its opponent, and B logs one naming A **on the same date**, the two logs are taken as the same game
(two games of the pair on one day go together in the order of their battle numbers). A game logged by one side
only counts with that side's result. When both sides logged a result and the two cannot both be true (both
victories, a victory and a draw...), the game is a *disagreement*: it counts for neither side, the pair's
``disagreements`` says how many there are, and :attr:`HeadToHead.games` names the battles (never resolved
silently).

Fighters (Death Blow, RULES.md §5) get their own table from their issue: see :data:`SECTIONS`, the seam where a
system's standings are plugged in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.experience import level_name
from ..store.database import db
from ..store.models import Campaign
from ..store.opened import Capability, require
from .common import resolve_campaign, thresholds_of
from .results import Result

PLATOON_FIELDS = (
    "platoon",
    "owner",
    "battles",
    "victories",
    "draws",
    "defeats",
    "objective_xp",
    "wounds",
    "xp_lost",
    "leaders_lost",
    "xp",
    "level",
)
"""The JSON keys of a platoon's row, in order (``owner`` only on a club server)."""

HEAD_TO_HEAD_FIELDS = ("platoons", "a_victories", "b_victories", "draws", "disagreements")
PILOT_FIELDS = ("pilot", "owner", "turns", "recognition", "noticed", "result", "outcome")

FLIP = {"victory": "defeat", "defeat": "victory", "draw": "draw"}
"""A result as the other side would log it."""


# ----------------------------------------------------------------------------------------------- results


@dataclass(frozen=True)
class PlatoonStanding(Result):
    """One platoon's line of the standings (RULES.md §6)."""

    platoon_id: int = field(metadata={"json": False})
    platoon: str
    owner: str = field(metadata={"json": False})
    battles: int
    victories: int
    draws: int
    defeats: int
    objective_xp: int
    """XP earned by objectives met (+1 hard, +2 near-impossible), as awarded in each battle."""
    wounds: int
    xp_lost: int
    leaders_lost: int
    """Leaders lost as casualties or promoted away."""
    xp: int
    level: str

    @property
    def margin(self) -> int:
        return self.victories - self.defeats

    def to_dict(self, *, with_owner: bool = False) -> dict[str, Any]:
        out = super().to_dict()
        if with_owner:
            return {"platoon": out["platoon"], "owner": self.owner, **{k: v for k, v in out.items() if k != "platoon"}}
        return out


@dataclass(frozen=True)
class Disagreement(Result):
    """One game of a pair whose two logged results cannot both be true: each side's battle and its result."""

    a_battle: int
    """The battle number in A's list."""
    a_result: str
    b_battle: int
    b_result: str

    def text(self, a: str, b: str) -> str:
        return f"{a} battle {self.a_battle}: {self.a_result}; {b} battle {self.b_battle}: {self.b_result}"


@dataclass(frozen=True)
class HeadToHead(Result):
    """The record of two platoons of the campaign that fought each other (A is the one ranked higher)."""

    platoons: tuple[str, str]
    a_victories: int
    b_victories: int
    draws: int
    disagreements: int
    games: tuple[Disagreement, ...] = field(default=(), metadata={"json": False})
    """The games whose two logs disagree (``disagreements`` of them)."""
    ids: tuple[int, int] = field(default=(0, 0), metadata={"json": False})

    def text(self) -> str:
        a, b = self.platoons
        line = f"{a} – {b}: {self.a_victories}–{self.b_victories}"
        if self.draws:
            line += f", {self.draws} draw{'s' if self.draws != 1 else ''}"
        if self.disagreements:
            line += f"; ⚠ {self.disagreements} disputed: " + "; ".join(g.text(a, b) for g in self.games)
        return line


@dataclass(frozen=True)
class PilotStanding(Result):
    """A Sologear pilot's line (RULES.md §6): turns played, recognition, noticed or not, reward or punishment."""

    sheet_id: int = field(metadata={"json": False})
    pilot: str
    owner: str = field(metadata={"json": False})
    turns: int
    recognition: int | None
    noticed: bool | None
    result: str | None
    """``reward`` or ``punishment`` once the campaign is reckoned, else None."""
    outcome: str | None
    """The reward's or punishment's words."""

    def to_dict(self, *, with_owner: bool = False) -> dict[str, Any]:
        out = super().to_dict()
        if with_owner:
            return {"pilot": out["pilot"], "owner": self.owner, **{k: v for k, v in out.items() if k != "pilot"}}
        return out


@dataclass(frozen=True)
class Standings(Result):
    """A campaign's standings: ``platoons`` in ranking order, the pairs' ``head_to_head`` and the ``pilots``."""

    campaign: str
    campaign_id: int = field(metadata={"json": False})
    system: str
    on_server: bool = field(metadata={"json": False})
    platoons: tuple[PlatoonStanding, ...]
    head_to_head: tuple[HeadToHead, ...]
    pilots: tuple[PilotStanding, ...]
    extra: dict[str, Any] = field(default_factory=dict, metadata={"json": False})
    """Sections plugged in by other systems (:data:`SECTIONS`), by JSON key."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "campaign": self.campaign,
            "system": self.system,
            "platoons": [p.to_dict(with_owner=self.on_server) for p in self.platoons],
            "head_to_head": [h.to_dict() for h in self.head_to_head],
            "pilots": [p.to_dict(with_owner=self.on_server) for p in self.pilots],
        }
        for key, value in self.extra.items():
            out[key] = value.to_dict() if isinstance(value, Result) else value
        return out

    @property
    def disputed(self) -> int:
        return sum(h.disagreements for h in self.head_to_head)


# --------------------------------------------------------------------------------------------------- SQL

PLATOONS_SQL = """
SELECT p.id, p.name, p.name_key, p.owner, p.xp,
       COUNT(b.id),
       COALESCE(SUM(CASE WHEN b.outcome = 'victory' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN b.outcome = 'draw' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN b.outcome = 'defeat' THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(b.objectives), 0),
       COALESCE(SUM(b.wounds), 0),
       COALESCE(SUM(b.xp_lost), 0),
       COALESCE(SUM(CASE WHEN b.leader_fate IN ('casualty', 'promoted') THEN 1 ELSE 0 END), 0)
FROM platoon p LEFT JOIN battle b ON b.platoon_id = p.id
WHERE p.campaign_id = ?
GROUP BY p.id, p.name, p.name_key, p.owner, p.xp
"""

_GAMES = """
WITH logs AS (
  SELECT b.platoon_id AS me, b.opponent_platoon_id AS them, b.outcome AS outcome, b.number AS number,
         b.date AS day,
         ROW_NUMBER() OVER (PARTITION BY b.platoon_id, b.opponent_platoon_id, b.date ORDER BY b.number) AS n
  FROM battle b
  JOIN platoon p ON p.id = b.platoon_id
  JOIN platoon q ON q.id = b.opponent_platoon_id
  WHERE p.campaign_id = ? AND q.campaign_id = p.campaign_id AND b.opponent_platoon_id <> b.platoon_id
), slots AS (
  SELECT CASE WHEN me < them THEN me ELSE them END AS a,
         CASE WHEN me < them THEN them ELSE me END AS b,
         day, n,
         MAX(CASE WHEN me < them THEN outcome END) AS a_says,
         MAX(CASE WHEN me > them THEN outcome END) AS b_says,
         MAX(CASE WHEN me < them THEN number END) AS a_number,
         MAX(CASE WHEN me > them THEN number END) AS b_number
  FROM logs
  GROUP BY CASE WHEN me < them THEN me ELSE them END, CASE WHEN me < them THEN them ELSE me END, day, n
), games AS (
  SELECT a, b, day, n, a_says, b_says, a_number, b_number,
         CASE b_says WHEN 'victory' THEN 'defeat' WHEN 'defeat' THEN 'victory' ELSE b_says END AS b_as_a
  FROM slots
), judged AS (
  SELECT a, b, day, n, a_says, b_says, a_number, b_number,
         CASE WHEN a_says IS NOT NULL AND b_says IS NOT NULL AND a_says <> b_as_a THEN 1 ELSE 0 END AS disputed,
         COALESCE(a_says, b_as_a) AS result
  FROM games
)
"""

HEAD_TO_HEAD_SQL = (
    _GAMES
    + """
SELECT a, b,
       SUM(CASE WHEN disputed = 0 AND result = 'victory' THEN 1 ELSE 0 END),
       SUM(CASE WHEN disputed = 0 AND result = 'defeat' THEN 1 ELSE 0 END),
       SUM(CASE WHEN disputed = 0 AND result = 'draw' THEN 1 ELSE 0 END),
       SUM(disputed)
FROM judged GROUP BY a, b
"""
)

DISPUTED_SQL = (
    _GAMES
    + """
SELECT a, b, n, a_number, a_says, b_number, b_says FROM judged WHERE disputed = 1 ORDER BY a, b, day, n
"""
)

PILOTS_SQL = """
SELECT s.id, s.pilot, s.owner, COUNT(t.id), s.recognition, s.noticed, s.result_table, s.outcome
FROM sologear_sheet s LEFT JOIN sologear_turn t ON t.sheet_id = s.id
WHERE s.campaign_id = ?
GROUP BY s.id, s.pilot, s.owner, s.recognition, s.noticed, s.result_table, s.outcome
"""

RESULT_WORD = {"rewards": "reward", "punishments": "punishment"}


def platoon_rank_key(row: PlatoonStanding, name_key: str) -> tuple[int, int, int, str]:
    """RULES.md §6: victories, then victories − defeats, then current XP (all highest first), then name."""
    return (-row.victories, -row.margin, -row.xp, name_key)


def _platoons(camp: Campaign) -> list[PlatoonStanding]:
    thresholds = thresholds_of(camp)
    keyed = []
    for (
        pid,
        name,
        key,
        owner,
        xp,
        battles,
        victories,
        draws,
        defeats,
        objective_xp,
        wounds,
        xp_lost,
        leaders_lost,
    ) in db.execute_sql(PLATOONS_SQL, (camp.id,)).fetchall():
        row = PlatoonStanding(
            platoon_id=int(pid),
            platoon=name,
            owner=owner or "",
            battles=int(battles),
            victories=int(victories),
            draws=int(draws),
            defeats=int(defeats),
            objective_xp=int(objective_xp),
            wounds=int(wounds),
            xp_lost=int(xp_lost),
            leaders_lost=int(leaders_lost),
            xp=int(xp),
            level=level_name(int(xp), thresholds),
        )
        keyed.append((platoon_rank_key(row, key), row))
    keyed.sort(key=lambda kr: kr[0])
    return [row for _k, row in keyed]


def _head_to_head(camp: Campaign, ranked: Sequence[PlatoonStanding]) -> list[HeadToHead]:
    place = {row.platoon_id: i for i, row in enumerate(ranked)}
    names = {row.platoon_id: row.platoon for row in ranked}
    disputed: dict[tuple[int, int], list[tuple[Any, ...]]] = {}
    for a, b, _n, a_number, a_says, b_number, b_says in db.execute_sql(DISPUTED_SQL, (camp.id,)).fetchall():
        disputed.setdefault((int(a), int(b)), []).append((int(a_number), a_says, int(b_number), b_says))
    out = []
    for a, b, a_wins, b_wins, draws, n_disputed in db.execute_sql(HEAD_TO_HEAD_SQL, (camp.id,)).fetchall():
        a, b = int(a), int(b)
        games = [
            Disagreement(a_battle=an, a_result=asays, b_battle=bn, b_result=bsays)
            for an, asays, bn, bsays in disputed.get((a, b), [])
        ]
        a_wins, b_wins = int(a_wins), int(b_wins)
        if place[b] < place[a]:  # A is the one ranked higher
            a, b, a_wins, b_wins = b, a, b_wins, a_wins
            games = [
                Disagreement(a_battle=g.b_battle, a_result=g.b_result, b_battle=g.a_battle, b_result=g.a_result)
                for g in games
            ]
        out.append(
            HeadToHead(
                platoons=(names[a], names[b]),
                a_victories=a_wins,
                b_victories=b_wins,
                draws=int(draws),
                disagreements=int(n_disputed),
                games=tuple(games),
                ids=(a, b),
            )
        )
    out.sort(key=lambda h: (place[h.ids[0]], place[h.ids[1]]))
    return out


def _pilots(camp: Campaign) -> list[PilotStanding]:
    rows = []
    for sid, pilot, owner, turns, recognition, noticed, table, outcome in db.execute_sql(
        PILOTS_SQL, (camp.id,)
    ).fetchall():
        rows.append(
            PilotStanding(
                sheet_id=int(sid),
                pilot=pilot,
                owner=owner or "",
                turns=int(turns),
                recognition=None if recognition is None else int(recognition),
                noticed=None if noticed is None else bool(noticed),
                result=RESULT_WORD.get(table) if table else None,
                outcome=outcome,
            )
        )
    # ⚙ RULES.md §6 ranks no pilots: highest recognition first (not yet reckoned last), then turns, then name
    rows.sort(key=lambda r: (r.recognition is None, -(r.recognition or 0), -r.turns, r.pilot.casefold()))
    return rows


Section = Callable[[Campaign], tuple[str, Any]]
SECTIONS: list[Section] = []
"""The seam for other systems' standings (Death Blow fighters): each function gets the campaign and
returns ``(json_key, result)`` (a :class:`Result` or plain JSON) to add to the standings, or ``("", None)``."""


def standings(campaign: int) -> Standings:
    """The standings of a campaign (one read transaction, three or four queries)."""
    opened = require()
    with opened.reading():
        camp = resolve_campaign(campaign)
        platoons = _platoons(camp)
        pairs = _head_to_head(camp, platoons) if platoons else []
        pilots = _pilots(camp) if camp.system == "sologear" else []
        extra: dict[str, Any] = {}
        for section in SECTIONS:
            key, value = section(camp)
            if key:
                extra[key] = value
    return Standings(
        campaign=camp.name,
        campaign_id=camp.id,
        system=camp.system,
        on_server=opened.can(Capability.SEVERAL_LOGINS),
        platoons=tuple(platoons),
        head_to_head=tuple(pairs),
        pilots=tuple(pilots),
        extra=extra,
    )


def standings_text(s: Standings) -> str:
    """The standings as plain text (the CLI without ``--json``)."""
    lines = [f"Standings of {s.campaign}"]
    if s.platoons:
        head = (
            f"{'#':>2}  {'Platoon':<24} {'B':>3} {'V':>3} {'D':>3} {'L':>3} {'Obj':>4} {'Wnd':>4} "
            f"{'Lost':>4} {'Ldr':>4} {'XP':>3}  Level"
        )
        lines.append(head)
        for i, p in enumerate(s.platoons, start=1):
            owner = f" ({p.owner})" if s.on_server and p.owner else ""
            lines.append(
                f"{i:>2}  {(p.platoon + owner)[:24]:<24} {p.battles:>3} {p.victories:>3} {p.draws:>3} "
                f"{p.defeats:>3} {p.objective_xp:>4} {p.wounds:>4} {p.xp_lost:>4} {p.leaders_lost:>4} "
                f"{p.xp:>3}  {p.level}"
            )
        lines.append(
            "B battles, V victories, D draws, L defeats, Obj objective XP, Wnd wound counters, "
            "Lost XP lost to recovery, Ldr leaders lost"
        )
    if s.head_to_head:
        lines.append("Head to head:")
        lines += [f"  {h.text()}" for h in s.head_to_head]
    if s.pilots:
        lines.append("Pilots:")
        for pilot in s.pilots:
            noticed = "—" if pilot.noticed is None else ("noticed" if pilot.noticed else "not noticed")
            lines.append(
                f"  {pilot.pilot}: {pilot.turns} turn{'s' if pilot.turns != 1 else ''}, recognition "
                f"{'—' if pilot.recognition is None else pilot.recognition}, {noticed}"
                + (f", {pilot.result}: {pilot.outcome}" if pilot.result else "")
            )
    if len(lines) == 1:
        lines.append("nothing to rank yet: no platoons or pilots")
    return "\n".join(lines)
