"""The campaign chronicle: every battle of every platoon and every Sologear turn in campaign time,
with the story: each battle's after-action report (the battle's ``notes``, written in the battle wizard's last
page or later) and the campaign's own dated entries between battles ("Season 2 begins").

Reading is two or three queries (battles with their platoons and the leaders they brought in, the entries, the
turns); writing an entry is one operation, undoable like every other.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..store.database import db
from ..store.journal import operation
from ..store.models import ChronicleEntry
from .campaigns import NOTES_MAX
from .common import NotFound, ServiceError, check_date, check_line, check_multiline, check_row_id, resolve_campaign
from .edits import Edit
from .results import Result

if TYPE_CHECKING:
    from ..printing.chronicle_report import ChronicleData
    from .battle_edits import BattleEdited

TITLE_MAX = 200
OUTCOME_VERB = {"victory": "won", "defeat": "lost", "draw": "drew"}
FATE_WORDS = {
    "casualty": "the leader became a casualty",
    "promoted": "the leader was promoted away",
    "stays": "the leader stayed",
}
ACTION_WORDS = {"dec": "declined battle", "rep": "repaired the Gear", "fig": "fought"}


@dataclass(frozen=True)
class ChronicleItem(Result):
    """One line of the chronicle: a battle, a campaign entry or a Sologear turn."""

    kind: str
    """``battle``, ``entry`` or ``turn``."""
    id: int
    date: str
    who: str
    """The platoon (battles), the pilot (turns), '' (entries)."""
    headline: str
    aftermath: str
    report: str
    """The after-action report (a battle's notes), the entry's text or the turn's notes."""
    platoon_id: int | None = None
    number: int | None = None
    outcome: str | None = None
    xp_after: int | None = None

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"


@dataclass(frozen=True)
class Chronicle(Result):
    campaign: str
    campaign_id: int = field(metadata={"json": False})
    items: tuple[ChronicleItem, ...]
    platoons: tuple[str, ...]
    """The campaign's platoons (or pilot), for a filter."""
    xp_start: dict[str, int] = field(default_factory=dict, metadata={"json": False})
    """Each platoon's XP before its first battle (the charts start there)."""


def _iso(value: Any) -> str:
    if isinstance(value, _dt.datetime):
        return value.date().isoformat()
    if isinstance(value, _dt.date):
        return value.isoformat()
    return str(value or "")[:10]


def battle_headline(platoon: str, outcome: str | None, opponent: str, scenario: str, number: int) -> str:
    verb = OUTCOME_VERB.get(outcome or "")
    against = f" against {opponent}" if opponent else ""
    at = f" ({scenario})" if scenario else ""
    if verb:
        return f"{platoon} {verb} battle {number}{against}{at}"
    return f"{platoon} fought battle {number}{against}{at}"


def battle_aftermath(
    xp_before: int, xp_after: int, xp_lost: int, wounds: int, objectives: int, fate: str | None, newcomer: str | None
) -> str:
    parts = [f"XP {xp_before} \u2192 {xp_after}"]
    if objectives:
        parts.append(f"+{objectives} for objectives")
    parts.append(f"{wounds} wound counter{'s' if wounds != 1 else ''}")
    if xp_lost:
        parts.append(f"{xp_lost} XP lost to recovery")
    if fate in FATE_WORDS:
        parts.append(FATE_WORDS[fate])
    if newcomer:
        parts.append(f"{newcomer} took command")
    return "; ".join(parts)


BATTLES_SQL = """
SELECT b.id, b.platoon_id, p.name, b.number, b.date, b.scenario, b.opponent, b.outcome, b.objectives, b.wounds,
       b.xp_lost, b.platoon_xp_before, b.platoon_xp_after, b.leader_fate, b.notes,
       (SELECT MIN(l.name) FROM leader l WHERE l.joined_battle_id = b.id)
FROM battle b JOIN platoon p ON p.id = b.platoon_id
WHERE p.campaign_id = ?
"""

TURNS_SQL = """
SELECT t.id, s.pilot, t.number, t.action, t.created_at, t.recorded, t.glory_collected, t.enemy_tv_destroyed,
       t.pilot_dead, t.pilot_captured, t.ends, t.notes
FROM sologear_turn t JOIN sologear_sheet s ON s.id = t.sheet_id
WHERE s.campaign_id = ?
"""


def _turn_item(row: Sequence[Any]) -> ChronicleItem:
    tid, pilot, number, action, created, recorded, glory, tv, dead, captured, ends, notes = row
    headline = f"{pilot} {ACTION_WORDS.get(action, action)} (turn {number})"
    parts = []
    if recorded:
        parts.append(f"{glory} Glory collected, enemy TV {tv} destroyed")
    if dead:
        parts.append("the pilot was killed")
    if captured:
        parts.append("the pilot was captured")
    if ends:
        parts.append(f"the campaign ends ({str(ends).replace('_', ' ')})")
    return ChronicleItem(
        kind="turn",
        id=int(tid),
        date=_iso(created),
        who=pilot,
        headline=headline,
        aftermath="; ".join(parts),
        report=notes or "",
        number=int(number),
    )


def chronicle(campaign: int, *, platoon: str | None = None, search: str | None = None) -> Chronicle:
    """The chronicle of a campaign in campaign time (oldest first; on a day, entries before battles), optionally
    only one platoon's (or pilot's) battles with the campaign's entries, and only items whose text holds
    ``search`` (case-insensitive)."""
    camp = resolve_campaign(campaign)
    items: list[tuple[tuple[str, int, int], ChronicleItem]] = []
    platoons: list[str] = []
    xp_start: dict[str, int] = {}
    for (
        bid,
        pid,
        pname,
        number,
        date,
        scenario,
        opponent,
        outcome,
        objectives,
        wounds,
        xp_lost,
        before,
        after,
        fate,
        notes,
        newcomer,
    ) in db.execute_sql(BATTLES_SQL, (camp.id,)).fetchall():
        item = ChronicleItem(
            kind="battle",
            id=int(bid),
            date=_iso(date),
            who=pname,
            headline=battle_headline(pname, outcome, opponent, scenario, int(number)),
            aftermath=battle_aftermath(
                int(before), int(after), int(xp_lost), int(wounds), int(objectives), fate, newcomer
            ),
            report=notes or "",
            platoon_id=int(pid),
            number=int(number),
            outcome=outcome,
            xp_after=int(after),
        )
        items.append(((item.date, 1, int(bid)), item))
        if int(number) == 1:
            xp_start[pname] = int(before)
    for p in db.execute_sql("SELECT name FROM platoon WHERE campaign_id = ? ORDER BY name_key", (camp.id,)):
        platoons.append(p[0])
    if camp.system == "sologear":
        for row in db.execute_sql(TURNS_SQL, (camp.id,)).fetchall():
            item = _turn_item(row)
            items.append(((item.date, 1, item.id), item))
            if item.who not in platoons:
                platoons.append(item.who)
    for e in ChronicleEntry.select().where(ChronicleEntry.campaign == camp.id):
        item = ChronicleItem(
            kind="entry", id=int(e.id), date=_iso(e.date), who="", headline=e.title, aftermath="", report=e.text
        )
        items.append(((item.date, 0, int(e.id)), item))
    items.sort(key=lambda ki: ki[0])
    chosen = [item for _k, item in items]
    if platoon:
        chosen = [i for i in chosen if i.kind == "entry" or i.who.casefold() == platoon.casefold()]
    if search:
        needle = search.casefold()
        chosen = [i for i in chosen if needle in f"{i.headline}\n{i.aftermath}\n{i.report}\n{i.who}".casefold()]
    return Chronicle(
        campaign=camp.name, campaign_id=camp.id, items=tuple(chosen), platoons=tuple(platoons), xp_start=xp_start
    )


# ----------------------------------------------------------------------------------------------- entries


def _date(value: _dt.date | None) -> _dt.date:
    return check_date(value, "the entry's date")


def _entry(entry_id: Any) -> ChronicleEntry:
    found = ChronicleEntry.get_or_none(ChronicleEntry.id == check_row_id(entry_id, "chronicle entry"))
    if found is None:
        raise NotFound(f"no chronicle entry with id {entry_id}")
    return found


@dataclass(frozen=True)
class EntryAdded(Result):
    id: int
    campaign: str
    date: str
    title: str
    text: str


@dataclass(frozen=True)
class EntryChanged(Result):
    id: int
    date: str
    title: str
    text: str


@dataclass(frozen=True)
class EntryRemoved(Result):
    id: int
    title: str


@dataclass(frozen=True)
class ReportWritten(Result):
    """A battle's after-action report as written (the platoon's name, the battle's number)."""

    platoon: str
    battle: int
    report: str


def add_entry(campaign: int, title: str, text: str = "", date: _dt.date | None = None) -> Edit[EntryAdded]:
    """Add a dated campaign entry ("Season 2 begins") to the chronicle."""
    title = check_line(title, "title", TITLE_MAX, required=True)
    body = check_multiline(text, "text", NOTES_MAX)
    day = _date(date)
    with operation("chronicle.add", f"Chronicle: {title}") as op:
        camp = resolve_campaign(campaign)
        entry = ChronicleEntry.create(campaign=camp.id, date=day, title=title, text=body)
        op.target(campaign=camp.id)
    return Edit(
        "chronicle_entry",
        int(entry.id),
        f"added the chronicle entry {title!r} ({day.isoformat()})",
        EntryAdded(id=int(entry.id), campaign=camp.name, date=day.isoformat(), title=title, text=body),
        op,
    )


def edit_entry(
    entry_id: int, *, title: str | None = None, text: str | None = None, date: _dt.date | None = None
) -> Edit[EntryChanged]:
    """Change an entry's title, text or date (what is not given stays)."""
    values: dict[str, Any] = {}
    if title is not None:
        values["title"] = check_line(title, "title", TITLE_MAX, required=True)
    if text is not None:
        values["text"] = check_multiline(text, "text", NOTES_MAX)
    if date is not None:
        values["date"] = _date(date)
    if not values:
        raise ServiceError("nothing to change: give a title, a text or a date")
    with operation("chronicle.edit") as op:
        entry = _entry(entry_id)
        ChronicleEntry.update(values).where(ChronicleEntry.id == entry.id).execute()
        op.label = f"Change the chronicle entry {values.get('title', entry.title)}"
        op.target(campaign=entry.campaign_id)
    fresh = _entry(entry.id)
    return Edit(
        "chronicle_entry",
        int(entry.id),
        f"changed the chronicle entry {fresh.title!r}",
        EntryChanged(id=int(fresh.id), date=_iso(fresh.date), title=fresh.title, text=fresh.text),
        op,
    )


def remove_entry(entry_id: int) -> Edit[EntryRemoved]:
    with operation("chronicle.remove") as op:
        entry = _entry(entry_id)
        op.label = f"Remove the chronicle entry {entry.title}"
        op.target(campaign=entry.campaign_id)
        entry.delete_instance()
    return Edit(
        "chronicle_entry",
        int(entry.id),
        f"removed the chronicle entry {entry.title!r}",
        EntryRemoved(id=int(entry.id), title=entry.title),
        op,
    )


def set_report(battle_id: int, text: str) -> Edit[BattleEdited]:
    """Write a battle's after-action report (its notes; logged as a change of the battle's notes)."""
    from .battle_edits import edit_battle

    return edit_battle(check_row_id(battle_id, "battle"), notes=text)


def write_report(platoon: int, text: str, *, battle: int | None = None) -> Edit[ReportWritten]:
    """A platoon's battle (number ``battle``, default its newest) gets ``text`` as its after-action report."""
    from ..store.models import Battle
    from .common import resolve_platoon

    p = resolve_platoon(platoon)
    query = Battle.select().where(Battle.platoon == p.id)
    if battle is not None:
        if isinstance(battle, bool) or not isinstance(battle, int):
            raise ServiceError(f"battle must be a battle number like 3, not {battle!r}")
        found = query.where(Battle.number == battle).first()
    else:
        found = query.order_by(Battle.number.desc()).first()
    if found is None:
        raise NotFound(f"{p.name} has no battle {battle}" if battle is not None else f"{p.name} has no battles")
    edit = set_report(found.id, text)
    return edit.with_result(ReportWritten(platoon=p.name, battle=int(found.number), report=str(text)))


# ---------------------------------------------------------------------------------------------- printing


def xp_over_time(c: Chronicle) -> dict[str, list[tuple[str, int]]]:
    """Each platoon's XP after each of its battles, by date (the chronicle's charts)."""
    series: dict[str, list[tuple[str, int]]] = {}
    for item in c.items:
        if item.kind == "battle" and item.xp_after is not None:
            if item.who not in series and item.who in c.xp_start and item.date:
                series[item.who] = []
            series.setdefault(item.who, []).append((item.date, item.xp_after))
    return series


def printable(c: Chronicle) -> ChronicleData:
    from ..printing.chronicle_report import ChronicleData, DiaryItem

    return ChronicleData(
        campaign=c.campaign,
        items=tuple(
            DiaryItem(kind=i.kind, date=i.date, headline=i.headline, aftermath=i.aftermath, report=i.report)
            for i in c.items
        ),
        series=tuple((name, tuple(points)) for name, points in sorted(xp_over_time(c).items())),
        starts=tuple(sorted(c.xp_start.items())),
    )


def chronicle_text(c: Chronicle) -> str:
    lines = [f"Chronicle of {c.campaign}"]
    if not c.items:
        lines.append("nothing yet: no battles, turns or entries")
    for i in c.items:
        mark = {"entry": "\u25a0", "battle": "\u2694", "turn": "\u25b8"}.get(i.kind, "-")
        lines.append(f"{i.date}  {mark} {i.headline}" + (f"  [entry {i.id}]" if i.kind == "entry" else ""))
        if i.aftermath:
            lines.append(f"            {i.aftermath}")
        for line in i.report.splitlines():
            lines.append(f"            | {line}")
    return "\n".join(lines)
