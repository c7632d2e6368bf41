"""The platoon's campaign history, read back (history queries only; nothing here writes).

:func:`history` (battles with their rolls, and a timeline of every battle, XP change, leader change,
attribute change and roll, newest first), :func:`leaders_roll`, :func:`campaign_summary`, :func:`xp_series`,
:func:`wounds_series`, :func:`timeline_csv`, :func:`history_json` and :func:`history_report` (all of it from
one read) answer with a fixed number of queries (:data:`HISTORY_SQL`), however many battles the platoon has.

Each answers typed results (:mod:`campaign_app.services.history_results`: :class:`PlatoonHistory` with its
:class:`TimelineEvent` kinds and :class:`HistoryBattle`, :class:`HistoryLeader`, :class:`CampaignSummary`,
:class:`XpSeries`, :class:`WoundsSeriesPoint`); ``to_dict()`` gives the JSON of ``campaign-cli --json``.

The read turns SQLite's rows into named rows (:class:`BattleRow`, :class:`LeaderRow`, :class:`XpRow`,
:class:`AttributeRow`, :class:`RollRow`); the timeline is put in order by one sort key (:func:`timeline_key`),
and each event (and its text) is made only when something asks for it (:class:`Events`, :class:`Battles`): the
history view paints a few dozen rows of a timeline of thousands. :func:`history` makes them all (export, CLI, print).
"""

from __future__ import annotations

import csv
import gc
import io
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple, overload

from ..rules.codes import PURPOSE_LEADER, purpose_text, rule_text
from ..rules.enums import LEADER_LEAVES, LeaderFate, Outcome
from ..rules.experience import LEVELS, Thresholds, level_name
from ..store.batch import read_together
from ..store.models import AttributeChange, BaseModel, Battle, Campaign, Leader, Platoon, Roll, XpChange
from .battles import FATE_WORDS, OUTCOMES
from .common import NotFound, ServiceError, iso_text, resolve_platoon, thresholds_of
from .history_results import (
    FIELD_LABELS,
    AttributeEvent,
    BattleEvent,
    BattleRoll,
    CampaignSummary,
    HistoryBattle,
    HistoryLeader,
    HistoryPlatoon,
    LeaderChange,
    LeaderEvent,
    PlatoonHistory,
    Replacement,
    RollEvent,
    TimelineEvent,
    WoundsSeriesPoint,
    XpEvent,
    XpSeries,
    XpSeriesPoint,
    XpStart,
    change_text,
)

KINDS: tuple[str, ...] = ("battle", "xp", "leader", "attribute", "roll")
"""Kinds of timeline events."""
CSV_COLUMNS: tuple[str, ...] = (
    "at",
    "kind",
    "battle_number",
    "date",
    "text",
    "who",
    "delta",
    "xp_after",
    "reason",
    "purpose",
    "expression",
    "faces",
    "total",
    "source",
    "rule",
    "outcome",
    "field",
    "old",
    "new",
)

_platoon = resolve_platoon


_iso = iso_text


_OUTCOME: dict[str | None, Outcome | None] = {None: None, **{o.value: o for o in Outcome}}
_FATE: dict[str | None, LeaderFate | None] = {None: None, **{f.value: f for f in LeaderFate}}
"""Stored words to their enum members (the store's CHECK constraints allow no others)."""


def _date_part(value: object) -> str | None:
    text = _iso(value)
    return text[:10] if text else None


# --- the read: five queries, named rows --------------------------------------------------------------------


class BattleRow(NamedTuple):
    """A battle as the history reads it."""

    id: int
    number: int
    date: Any
    scenario: str
    opponent: str
    opponent_platoon_id: int | None
    outcome: str | None
    objectives: int
    fire_support: int
    notes: str
    wounds: int
    leader_wounds: int
    platoon_xp_before: int
    platoon_xp_after: int
    leader_xp_before: int | None
    leader_xp_after: int | None
    leader_fate: str | None
    xp_lost: int
    created_at: Any


class LeaderRow(NamedTuple):
    """A leader of the platoon, past or present."""

    id: int
    name: str
    rank: str
    xp: int
    xp_at_join: int
    status: str
    joined_battle_id: int | None
    left_battle_id: int | None
    joined_at: Any
    left_at: Any


class XpRow(NamedTuple):
    """One XP change of the platoon or a leader."""

    id: int
    leader_id: int | None
    who: str
    delta: int
    xp_after: int
    reason: str
    battle_id: int | None
    created_at: Any


class AttributeRow(NamedTuple):
    """One change of an attribute made by hand."""

    id: int
    battle_id: int | None
    field: str
    old_value: str | None
    new_value: str | None
    reason: str
    created_at: Any


class RollRow(NamedTuple):
    """One stored roll."""

    id: int
    battle_id: int | None
    leader_id: int | None
    seq: int
    purpose: str
    expression: str
    faces: str | None
    modifier: int
    total: int
    source: str
    rule: str
    table_row: str | None
    outcome: str
    created_at: Any


def _select(model: type[BaseModel], row: type[tuple[Any, ...]], order: str) -> str:
    columns: tuple[str, ...] = row._fields  # type: ignore[attr-defined]
    return (
        f"SELECT {', '.join(columns)} FROM {model._meta.table_name} WHERE platoon_id = ? "  # noqa: S608
        f"ORDER BY {order}"
    )


HISTORY_ROWS: dict[str, type[tuple[Any, ...]]] = {
    "battles": BattleRow,
    "leaders": LeaderRow,
    "xp_changes": XpRow,
    "attribute_changes": AttributeRow,
    "rolls": RollRow,
}
"""Each list of the read and the named row its tuples become."""

HISTORY_SQL: dict[str, str] = {
    "battles": _select(Battle, BattleRow, "number"),
    "leaders": _select(Leader, LeaderRow, "id"),  # ids, not clocks: stable on every computer
    "xp_changes": _select(XpChange, XpRow, "id"),
    "attribute_changes": _select(AttributeChange, AttributeRow, "id"),
    "rolls": _select(Roll, RollRow, "id"),
}
"""The history's queries after the platoon's own row, each with the platoon id as its one parameter (the
benchmark runs the same SQL in plain sqlite3 as the floor of a read)."""


class HistoryRows:
    """Everything the history needs about one platoon, read with a fixed number of queries (named rows)."""

    __slots__ = (
        "platoon_id",
        "platoon_name",
        "platoon_xp",
        "campaign_name",
        "thresholds",
        "battles",
        "leaders",
        "xp_changes",
        "attribute_changes",
        "rolls",
        "_battles_by_id",
        "_leaders_by_id",
        "_faces",
    )

    def __init__(
        self,
        platoon_id: int,
        platoon_name: str,
        platoon_xp: int,
        campaign_name: str,
        thresholds: Thresholds,
        battles: list[BattleRow],
        leaders: list[LeaderRow],
        xp_changes: list[XpRow],
        attribute_changes: list[AttributeRow],
        rolls: list[RollRow],
    ) -> None:
        self.platoon_id = platoon_id
        self.platoon_name = platoon_name
        self.platoon_xp = platoon_xp
        self.campaign_name = campaign_name
        self.thresholds = thresholds
        self.battles = battles
        self.leaders = leaders
        self.xp_changes = xp_changes
        self.attribute_changes = attribute_changes
        self.rolls = rolls
        self._battles_by_id: dict[int, BattleRow] | None = None
        self._leaders_by_id: dict[int, LeaderRow] | None = None
        self._faces: dict[str, tuple[int, ...]] = {}

    @property
    def battles_by_id(self) -> dict[int, BattleRow]:
        if self._battles_by_id is None:
            self._battles_by_id = {b.id: b for b in self.battles}
        return self._battles_by_id

    @property
    def leaders_by_id(self) -> dict[int, LeaderRow]:
        if self._leaders_by_id is None:
            self._leaders_by_id = {ld.id: ld for ld in self.leaders}
        return self._leaders_by_id

    def faces(self, text: str | None) -> tuple[int, ...]:
        """A roll's faces from their stored JSON text (few distinct texts: each decoded once, then shared)."""
        if text is None:
            return ()
        faces = self._faces.get(text)
        if faces is None:
            faces = self._faces[text] = tuple(json.loads(text))
        return faces


@contextmanager
def _no_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while a history is read or its events made: each few hundred new
    containers would start a collection that walks the objects of the whole process (in the GUI, every Qt
    wrapper too); it runs again, once, when the work is done."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def read_rows(platoon: int) -> HistoryRows:
    """The platoon, its campaign and every row of its history, read at once (one round trip on a server)."""
    pid = platoon if isinstance(platoon, int) else _platoon(platoon).id
    found, *answers = read_together(
        Platoon.select(Platoon, Campaign).join(Campaign).where(Platoon.id == pid),
        *((sql, (pid,)) for sql in HISTORY_SQL.values()),
    )
    if not found:
        raise NotFound(f"no platoon with id {platoon}")
    row = found[0]
    c = row.campaign
    lists = {
        name: list(map(HISTORY_ROWS[name]._make, rows))  # type: ignore[attr-defined]
        for name, rows in zip(HISTORY_SQL, answers, strict=True)
    }
    return HistoryRows(pid, row.name, row.xp, c.name, thresholds_of(c), **lists)


def event_text(ev: TimelineEvent) -> str:
    """The one-line text of a timeline event (its :attr:`~TimelineEvent.text`, made when first asked for)."""
    return ev.text


# --- the timeline: put in order by one key, events made on demand -------------------------------------------

_BATTLE, _ROLL, _XP, _JOINED, _LEFT, _ATTRIBUTE = range(6)
_KIND_NAMES = ("battle", "roll", "xp", "leader", "leader", "attribute")

HistoryRow = BattleRow | RollRow | XpRow | LeaderRow | AttributeRow
Ref = tuple[int, HistoryRow]
"""An event not made yet: its maker code (``_BATTLE`` ...) and its row."""
SortKey = tuple[Any, int, int, int, int, int, int]


def timeline_key(code: int, row: HistoryRow, battles_by_id: dict[int, BattleRow]) -> SortKey:
    """The timeline's one sort key (the timeline is newest first: sorted by this key, reversed).

    The first four parts name the event's group: a battle's group (its time and number) holds the battle, its
    rolls, its XP changes and the leaders who left or joined in it; any other event is a group of its own (its
    time, the number of the battle an edit changes, a rank, its id; a leader who joined and left at one moment
    shares one). The last three place the event in its group: the battle, then its rolls (seq, id), XP
    changes, leaders who left, leaders who joined (id). Edits show when they were made, not with the battle they
    changed: in the same second as its battle, after it."""
    if code == _BATTLE:
        b: Any = row
        return (b.created_at, b.number, 0, 0, 0, 0, 0)
    if code == _ATTRIBUTE:
        a: Any = row
        changed = battles_by_id.get(a.battle_id) if a.battle_id is not None else None
        number = changed.number if changed is not None else 0
        return (a.created_at, number, 1 if number else 5, a.id, -5, 0, -a.id)
    if code == _ROLL:
        r: Any = row
        battle, at, rank, place, seq = r.battle_id, r.created_at, 1, -1, -r.seq
    elif code == _XP:
        x: Any = row
        battle, at, rank, place, seq = x.battle_id, x.created_at, 2, -2, 0
    else:
        ld: Any = row
        if code == _JOINED:
            battle, at, rank, place, seq = ld.joined_battle_id, ld.joined_at, 3, -4, 0
        else:
            battle, at, rank, place, seq = ld.left_battle_id, ld.left_at or ld.joined_at, 3, -3, 0
    in_battle = battles_by_id.get(battle) if battle is not None else None
    if in_battle is not None:
        return (in_battle.created_at, in_battle.number, 0, 0, place, seq, -row.id)
    return (at, 0, rank, row.id, place, seq, -row.id)


def timeline_refs(rows: HistoryRows) -> list[Ref]:
    """Every event of the timeline, newest first, in the plain way: each with its :func:`timeline_key`, sorted
    once. (:class:`Timeline` gets the same order faster for long histories; a test holds the two equal.)"""
    refs: list[Ref] = [(_BATTLE, b) for b in rows.battles]
    refs += [(_ROLL, r) for r in rows.rolls]
    refs += [(_XP, x) for x in rows.xp_changes]
    refs += [(_JOINED, ld) for ld in rows.leaders]
    refs += [(_LEFT, ld) for ld in rows.leaders if ld.status != "active"]
    refs += [(_ATTRIBUTE, a) for a in rows.attribute_changes]
    by_id = rows.battles_by_id
    refs.sort(key=lambda ref: timeline_key(ref[0], ref[1], by_id), reverse=True)
    return refs


def plain_timeline(rows: HistoryRows) -> tuple[list[Ref], list[str], list[int | None]]:
    """The timeline the plain way: :func:`timeline_refs` with each event's kind and battle id (what
    :class:`Timeline` gives, 10-25 ms slower for 1,000 battles: ``benchmarks/bench_history.py``)."""
    refs = timeline_refs(rows)
    return refs, [_KIND_NAMES[code] for code, _row in refs], [Timeline._battle_of(code, row) for code, row in refs]


class Timeline:
    """The ordered timeline of one read: for each event its maker code and row (``refs``), its kind and its
    battle id (``kinds``, ``battle_ids``: what the view filters and groups on without making the event).

    The order is :func:`timeline_key`'s (:func:`plain_timeline` sorts every event by it; a test holds the two
    equal). Sorting every event costs a fifth to a third of the whole read for 1,000 battles, so here the events
    are put in order a group at a time: the groups (each battle, each event of its own) are sorted by the key,
    then each battle's members are laid out in place (rolls by seq, the rest as read, in id order)."""

    def __init__(self, rows: HistoryRows) -> None:
        self.rows = rows
        battles_by_id = rows.battles_by_id
        rolls_in: dict[int, list[RollRow]] = {}
        xp_in: dict[int, list[XpRow]] = {}
        left_in: dict[int, list[LeaderRow]] = {}
        joined_in: dict[int, list[LeaderRow]] = {}
        loose: list[tuple[SortKey, int, HistoryRow]] = []

        def alone(code: int, row: HistoryRow) -> None:
            loose.append((timeline_key(code, row, battles_by_id), code, row))

        for r in rows.rolls:
            bid = r.battle_id
            if bid is not None and bid in battles_by_id:
                members = rolls_in.get(bid)
                if members is None:
                    rolls_in[bid] = [r]
                else:
                    members.append(r)
            else:
                alone(_ROLL, r)
        for x in rows.xp_changes:
            bid = x.battle_id
            if bid is not None and bid in battles_by_id:
                xp_in.setdefault(bid, []).append(x)  # in id order, as read
            else:
                alone(_XP, x)
        for ld in rows.leaders:
            bid = ld.joined_battle_id
            if bid is not None and bid in battles_by_id:
                joined_in.setdefault(bid, []).append(ld)  # in id order, as read
            else:
                alone(_JOINED, ld)
            if ld.status != "active":
                bid = ld.left_battle_id
                if bid is not None and bid in battles_by_id:
                    left_in.setdefault(bid, []).append(ld)
                else:
                    alone(_LEFT, ld)
        for a in rows.attribute_changes:
            alone(_ATTRIBUTE, a)

        groups: list[tuple[SortKey, int, HistoryRow]] = [
            ((b.created_at, b.number, 0, 0, 0, 0, 0), _BATTLE, b) for b in rows.battles
        ]
        groups += loose
        groups.sort(key=itemgetter(0), reverse=True)
        refs: list[Ref] = []
        kinds: list[str] = []
        battle_ids: list[int | None] = []
        add_ref, add_kind, add_bid = refs.append, kinds.append, battle_ids.append
        by_seq = attrgetter("seq", "id")
        for _key, code, row in groups:
            if code != _BATTLE:
                add_ref((code, row))
                add_kind(_KIND_NAMES[code])
                add_bid(self._battle_of(code, row))
                continue
            bid = row.id
            add_ref((_BATTLE, row))
            add_kind("battle")
            add_bid(bid)
            group = rolls_in.get(bid)
            if group:
                if len(group) > 1:
                    group.sort(key=by_seq)
                for r in group:
                    add_ref((_ROLL, r))
                    add_kind("roll")
                    add_bid(bid)
            others: tuple[tuple[int, str, Sequence[HistoryRow] | None], ...] = (
                (_XP, "xp", xp_in.get(bid)),
                (_LEFT, "leader", left_in.get(bid)),
                (_JOINED, "leader", joined_in.get(bid)),
            )
            for member_code, kind, followers in others:
                if followers:
                    for member in followers:
                        add_ref((member_code, member))
                        add_kind(kind)
                        add_bid(bid)
        self.refs = refs
        self.kinds = kinds
        self.battle_ids = battle_ids
        self.made: list[TimelineEvent | None] = [None] * len(refs)
        self._led_by: dict[int, str] | None = None
        self._replacement: dict[int, LeaderRow] | None = None

    @staticmethod
    def _battle_of(code: int, row: HistoryRow) -> int | None:
        """The battle an event belongs to (a leader's: the one they joined or left in)."""
        if isinstance(row, BattleRow):
            return row.id
        if isinstance(row, LeaderRow):
            return row.joined_battle_id if code == _JOINED else row.left_battle_id
        return row.battle_id

    # what a battle's line names: who led it (the leader of its fate roll) and who took over
    def led_by(self, battle_id: int) -> str | None:
        if self._led_by is None:
            leaders = self.rows.leaders_by_id
            led: dict[int, str] = {}
            for r in self.rows.rolls:
                bid = r.battle_id
                if bid is not None and bid not in led and r.purpose == PURPOSE_LEADER and r.leader_id in leaders:
                    led[bid] = str(leaders[r.leader_id].name)
            self._led_by = led
        return self._led_by.get(battle_id)

    def replacement(self, battle_id: int) -> Replacement | None:
        if self._replacement is None:
            self._replacement = {ld.joined_battle_id: ld for ld in self.rows.leaders if ld.joined_battle_id is not None}
        rep = self._replacement.get(battle_id)
        if rep is None:
            return None
        return Replacement(id=rep.id, name=rep.name, rank=rep.rank, xp=rep.xp_at_join)

    def event(self, i: int) -> TimelineEvent:
        ev = self.made[i]
        if ev is None:
            ev = self.made[i] = self._make(*self.refs[i])
        return ev

    def _where(self, at: object, battle_id: int | None) -> tuple[str | None, str | None, int | None]:
        """(``at``, ``date``, ``battle_number``) of an event logged ``at``, in battle ``battle_id`` (if any)."""
        b = self.rows.battles_by_id.get(battle_id) if battle_id is not None else None
        if b is None:
            return _iso(at), _date_part(at), None
        return _iso(at), _iso(b.date), b.number

    def _make(self, code: int, row: HistoryRow) -> TimelineEvent:
        rows = self.rows
        if isinstance(row, BattleRow):
            b = row
            bid = b.id
            return BattleEvent(
                id=bid,
                at=_iso(b.created_at),
                date=_iso(b.date),
                battle_id=bid,
                battle_number=b.number,
                outcome=_OUTCOME[b.outcome],
                scenario=b.scenario,
                opponent=b.opponent,
                wounds=b.wounds,
                leader_wounds=b.leader_wounds,
                xp_lost=b.xp_lost,
                leader_fate=_FATE[b.leader_fate],
                xp_before=b.platoon_xp_before,
                xp_after=b.platoon_xp_after,
                leader=self.led_by(bid),
                replacement=self.replacement(bid),
            )
        if isinstance(row, RollRow):
            r = row
            at, date, number = self._where(r.created_at, r.battle_id)
            return RollEvent(
                id=r.id,
                at=at,
                date=date,
                battle_id=r.battle_id,
                battle_number=number,
                purpose=r.purpose,
                purpose_text=purpose_text(r.purpose),
                expression=r.expression,
                faces=rows.faces(r.faces),
                total=r.total,
                source=r.source,
                rule=r.rule,
                rule_text=rule_text(r.rule),
                table_row=r.table_row,
                outcome=r.outcome,
                leader_id=r.leader_id,
                seq=r.seq,
                modifier=r.modifier,
            )
        if isinstance(row, XpRow):
            x = row
            ld = rows.leaders_by_id.get(x.leader_id) if x.leader_id else None
            name = ld.name if ld is not None else rows.platoon_name if x.who == "platoon" else "leader"
            at, date, number = self._where(x.created_at, x.battle_id)
            return XpEvent(
                id=x.id,
                at=at,
                date=date,
                battle_id=x.battle_id,
                battle_number=number,
                who=x.who,
                name=name,
                leader_id=x.leader_id,
                delta=x.delta,
                xp_after=x.xp_after,
                reason=x.reason,
            )
        if isinstance(row, LeaderRow):
            ld = row
            if code == _JOINED:
                at, date, number = self._where(ld.joined_at, ld.joined_battle_id)
                return LeaderEvent(
                    id=ld.id,
                    at=at,
                    date=date,
                    battle_id=ld.joined_battle_id,
                    battle_number=number,
                    change="joined",
                    leader_id=ld.id,
                    name=ld.name,
                    rank=ld.rank,
                    xp=ld.xp_at_join,
                    status=ld.status,
                )
            at, date, number = self._where(ld.left_at or ld.joined_at, ld.left_battle_id)
            return LeaderEvent(
                id=ld.id,
                at=at,
                date=date,
                battle_id=ld.left_battle_id,
                battle_number=number,
                change="left",
                leader_id=ld.id,
                name=ld.name,
                rank=ld.rank,
                xp=ld.xp,
                status=ld.status,
            )
        a = row
        at, _date, number = self._where(a.created_at, a.battle_id)
        # an edit is dated the day it was made, not the battle's date
        return AttributeEvent(
            id=a.id,
            at=at,
            date=_date_part(a.created_at),
            battle_id=a.battle_id,
            battle_number=number,
            field=a.field,
            old=a.old_value,
            new=a.new_value,
            reason=a.reason,
        )


class Events(Sequence[TimelineEvent]):
    """The timeline's events, newest first; each event is made when it is first asked for (and kept).

    :attr:`kinds` and :attr:`battle_ids` give every event's kind and battle id without making it (what the
    view filters and groups on)."""

    def __init__(self, timeline: Timeline) -> None:
        self._timeline = timeline
        self.kinds: Sequence[str] = timeline.kinds
        self.battle_ids: Sequence[int | None] = timeline.battle_ids

    def __len__(self) -> int:
        return len(self._timeline.refs)

    @overload
    def __getitem__(self, i: int) -> TimelineEvent: ...

    @overload
    def __getitem__(self, i: slice) -> list[TimelineEvent]: ...

    def __getitem__(self, i: int | slice) -> TimelineEvent | list[TimelineEvent]:
        if isinstance(i, slice):
            return [self._timeline.event(j) for j in range(*i.indices(len(self)))]
        return self._timeline.event(i if i >= 0 else len(self) + i)

    def __iter__(self) -> Iterator[TimelineEvent]:
        event = self._timeline.event
        with _no_gc():
            made = [event(i) for i in range(len(self))]
        return iter(made)


class Battles(Sequence[HistoryBattle]):
    """The platoon's battles, newest first, each with its rolls, made when first asked for; :meth:`by_id` finds
    one without making the others."""

    def __init__(self, timeline: Timeline) -> None:
        self._timeline = timeline
        self._rows = list(reversed(timeline.rows.battles))
        self._made: list[HistoryBattle | None] = [None] * len(self._rows)
        self._pos: dict[int, int] | None = None
        self._rolls_of: dict[int, list[RollRow]] | None = None

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, i: int) -> HistoryBattle: ...

    @overload
    def __getitem__(self, i: slice) -> list[HistoryBattle]: ...

    def __getitem__(self, i: int | slice) -> HistoryBattle | list[HistoryBattle]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        bd = self._made[i]
        if bd is None:
            if self._rolls_of is None:
                self._rolls_of = _rolls_by_battle(self._timeline.rows)
            bd = self._made[i] = _battle(self._timeline, self._rows[i], self._rolls_of)
        return bd

    def by_id(self, battle_id: int) -> HistoryBattle | None:
        if self._pos is None:
            self._pos = {b.id: i for i, b in enumerate(self._rows)}
        i = self._pos.get(battle_id)
        return None if i is None else self[i]


def _rolls_by_battle(rows: HistoryRows) -> dict[int, list[RollRow]]:
    """Each battle's rolls in their order (seq, id)."""
    rolls_of: dict[int, list[RollRow]] = {}
    for r in rows.rolls:
        if r.battle_id is not None:
            rolls_of.setdefault(r.battle_id, []).append(r)
    by_seq = attrgetter("seq", "id")
    for group in rolls_of.values():
        group.sort(key=by_seq)
    return rolls_of


def _battle_roll(rows: HistoryRows, r: RollRow) -> BattleRoll:
    return BattleRoll(
        id=r.id,
        seq=r.seq,
        purpose=r.purpose,
        purpose_text=purpose_text(r.purpose),
        expression=r.expression,
        faces=rows.faces(r.faces),
        modifier=r.modifier,
        total=r.total,
        source=r.source,
        rule=r.rule,
        rule_text=rule_text(r.rule),
        table_row=r.table_row,
        outcome=r.outcome,
        leader_id=r.leader_id,
        battle_id=r.battle_id,
        at=_iso(r.created_at),
    )


def _battle(timeline: Timeline, b: BattleRow, rolls_of: dict[int, list[RollRow]]) -> HistoryBattle:
    bid = b.id
    rows = timeline.rows
    return HistoryBattle(
        id=bid,
        number=b.number,
        date=_iso(b.date),
        scenario=b.scenario,
        opponent=b.opponent,
        opponent_platoon_id=b.opponent_platoon_id,
        outcome=_OUTCOME[b.outcome],
        objectives=b.objectives,
        fire_support=bool(b.fire_support),
        notes=b.notes,
        wounds=b.wounds,
        leader_wounds=b.leader_wounds,
        platoon_xp_before=b.platoon_xp_before,
        platoon_xp_after=b.platoon_xp_after,
        leader_xp_before=b.leader_xp_before,
        leader_xp_after=b.leader_xp_after,
        leader_fate=_FATE[b.leader_fate],
        xp_lost=b.xp_lost,
        leader=timeline.led_by(bid),
        replacement=timeline.replacement(bid),
        created_at=_iso(b.created_at),
        rolls=tuple(_battle_roll(rows, r) for r in rolls_of.get(bid, ())),
    )


def _build(rows: HistoryRows, lazy: bool = False) -> PlatoonHistory:
    """Battles (newest first, with their rolls) and the timeline events (newest first). With ``lazy`` (the
    view) both are lazy sequences (:class:`Battles`, :class:`Events`) that make an item when first asked for;
    else tuples of every item."""
    timeline = Timeline(rows)
    platoon = HistoryPlatoon(
        id=rows.platoon_id, name=rows.platoon_name, campaign=rows.campaign_name, xp=rows.platoon_xp
    )
    if lazy:
        return PlatoonHistory(platoon=platoon, battles=Battles(timeline), events=Events(timeline))
    events = tuple(timeline.event(i) for i in range(len(timeline.refs)))
    rolls_of = _rolls_by_battle(rows)
    battles = tuple(_battle(timeline, b, rolls_of) for b in reversed(rows.battles))
    return PlatoonHistory(platoon=platoon, battles=battles, events=events)


def history(platoon: int) -> PlatoonHistory:
    """The platoon (:class:`HistoryPlatoon`), its battles (:class:`HistoryBattle`, with their rolls) and the
    timeline (:class:`TimelineEvent` of each kind), newest first.

    Every event has ``kind`` (battle, xp, leader, attribute, roll), ``id`` (of its row), ``at`` (when it was
    logged), ``date`` (the battle's date for battle events), ``battle_id``, ``battle_number`` and ``text``,
    plus the fields of its kind. Events of one battle stay together (battle, its rolls in order, XP changes,
    leader changes); edits show at the time they were made."""
    with _no_gc():
        return _build(read_rows(platoon))


def _fiction_when(battle: BattleRow | None, after: BattleRow | None) -> str:
    """When something happened in the campaign's own time: in a battle -> "battle 3 (1960-08-02)"; between
    battles (a leader replaced by hand) -> "after battle 2 (1960-07-30)"; before the first battle -> "at the
    start". The day it was typed into the app is never shown as a campaign date."""
    if battle is not None:
        return f"battle {battle.number} ({_iso(battle.date)})"
    if after is None:
        return "at the start"
    return f"after battle {after.number} ({_iso(after.date)})"


def _leaders(rows: HistoryRows) -> tuple[HistoryLeader, ...]:
    battles_by_id = rows.battles_by_id
    led: dict[int, int] = {}
    # the last battle each leader fought (their fate rolls): a leader who joined by hand, between battles,
    # joined after the last battle of those before him (none: at the start)
    fought: dict[int, int] = {}
    for r in rows.rolls:
        if r.purpose == PURPOSE_LEADER and r.battle_id is not None and r.leader_id is not None:
            lid = r.leader_id
            led[lid] = led.get(lid, 0) + 1
            b = battles_by_id.get(r.battle_id)
            if b is not None:
                fought[lid] = max(fought.get(lid, 0), b.number)
    by_number = {b.number: b for b in rows.battles}
    last_so_far = 0
    out = []
    for ld in rows.leaders:
        jb = battles_by_id.get(ld.joined_battle_id) if ld.joined_battle_id else None
        lb = battles_by_id.get(ld.left_battle_id) if ld.left_battle_id else None
        joined = _fiction_when(jb, by_number.get(last_so_far))
        last_so_far = max(last_so_far, fought.get(ld.id, 0), jb.number if jb else 0)
        status = ld.status
        left = "" if status == "active" else _fiction_when(lb, by_number.get(last_so_far))
        out.append(
            HistoryLeader(
                id=ld.id,
                name=ld.name,
                rank=ld.rank,
                status=status,
                current=status == "active",
                how="still in command" if status == "active" else FATE_WORDS.get(status, "replaced"),
                joined_at=_iso(ld.joined_at),
                joined_battle=jb.number if jb else None,
                joined_date=_iso(jb.date) if jb else _date_part(ld.joined_at),
                left_at=_iso(ld.left_at),
                left_battle=lb.number if lb else None,
                left_date=_iso(lb.date) if lb else _date_part(ld.left_at),
                joined=joined,
                left=left,
                battles_led=led.get(ld.id, 0),
                xp_at_join=ld.xp_at_join,
                xp=ld.xp,
                xp_gained=ld.xp - ld.xp_at_join,
                level=level_name(ld.xp, rows.thresholds),
            )
        )
    return tuple(out)


def leaders_roll(platoon: int) -> tuple[HistoryLeader, ...]:
    """Every leader of the platoon, first first: dates and battles of joining and leaving, battles led
    (leader's fate rolls made), XP at joining, XP now (or when leaving), XP gained, and how they left."""
    return _leaders(read_rows(platoon))


def _summary(rows: HistoryRows) -> CampaignSummary:
    bs = rows.battles
    count = dict.fromkeys(OUTCOMES, 0)
    unrecorded = wounds = leader_wounds = xp_lost = 0
    for b in bs:
        outcome = b.outcome
        if outcome is None:
            unrecorded += 1
        elif (known := _OUTCOME.get(outcome)) is not None and known in count:
            count[known] += 1
        wounds += b.wounds
        leader_wounds += b.leader_wounds
        xp_lost += b.xp_lost
    lost = [ld for ld in rows.leaders if ld.status in LEADER_LEAVES]  # a leader who left has the fate as status
    current = [ld for ld in rows.leaders if ld.status == "active"]
    awards = sum(x.delta for x in rows.xp_changes if x.who == "platoon" and x.battle_id is not None and x.delta > 0)
    return CampaignSummary(
        platoon=rows.platoon_name,
        campaign=rows.campaign_name,
        xp=rows.platoon_xp,
        level=level_name(rows.platoon_xp, rows.thresholds),
        leader=current[-1].name if current else None,
        battles=len(bs),
        victories=count[Outcome.VICTORY],
        defeats=count[Outcome.DEFEAT],
        draws=count[Outcome.DRAW],
        unrecorded=unrecorded,
        total_wounds=wounds,
        leader_wounds=leader_wounds,
        xp_lost=xp_lost,
        xp_awarded=awards,
        leaders_lost=len(lost),
        casualties=sum(1 for ld in lost if ld.status == LeaderFate.CASUALTY),
        promotions=sum(1 for ld in lost if ld.status == LeaderFate.PROMOTED),
        leaders=len(rows.leaders),
        first_battle=_iso(bs[0].date) if bs else None,
        last_battle=_iso(bs[-1].date) if bs else None,
    )


def campaign_summary(platoon: int) -> CampaignSummary:
    """Battles, victories/defeats/draws, total wounds, XP lost to recovery, leaders lost (casualties and
    promotions), the platoon's XP and level now."""
    return _summary(read_rows(platoon))


def _xp_series(rows: HistoryRows) -> XpSeries:
    joined_in = {ld.joined_battle_id: ld for ld in rows.leaders if ld.joined_battle_id is not None}
    leaders_by_id = rows.leaders_by_id
    fate_leader = {
        r.battle_id: r.leader_id for r in rows.rolls if r.purpose == PURPOSE_LEADER and r.battle_id is not None
    }
    points = []
    for b in rows.battles:
        rep = joined_in.get(b.id)
        fate = _FATE[b.leader_fate]
        change = None
        if fate in LEADER_LEAVES:
            assert fate is not None
            leader_xp = rep.xp_at_join if rep else None
            old = leaders_by_id.get(fate_leader.get(b.id))  # type: ignore[arg-type]
            change = LeaderChange(
                fate=fate,
                old=old.name if old else None,
                old_xp=b.leader_xp_after,
                new=rep.name if rep else None,
                new_xp=rep.xp_at_join if rep else None,
            )
        else:
            leader_xp = b.leader_xp_after
        points.append(
            XpSeriesPoint(
                battle=b.number,
                battle_id=b.id,
                date=_iso(b.date),
                platoon_xp=b.platoon_xp_after,
                leader_xp=leader_xp,
                leader_change=change,
            )
        )
    first = rows.battles[0] if rows.battles else None
    if first is not None:
        start = XpStart(battle=0, platoon_xp=first.platoon_xp_before, leader_xp=first.leader_xp_before)
    else:
        current = [ld for ld in rows.leaders if ld.status == "active"]
        start = XpStart(battle=0, platoon_xp=rows.platoon_xp, leader_xp=current[-1].xp if current else None)
    return XpSeries(thresholds=rows.thresholds.as_tuple(), levels=tuple(LEVELS), start=start, points=tuple(points))


def xp_series(platoon: int) -> XpSeries:
    """Chart data: platoon and leader XP after each battle (``start`` = before the first), the level
    thresholds for the bands, and each leader change (``leader_change``: fate, old and new leader)."""
    return _xp_series(read_rows(platoon))


def _wounds_series(rows: HistoryRows) -> tuple[WoundsSeriesPoint, ...]:
    return tuple(
        WoundsSeriesPoint(
            battle=b.number,
            battle_id=b.id,
            date=_iso(b.date),
            wounds=b.wounds,
            leader_wounds=b.leader_wounds,
            xp_lost=b.xp_lost,
        )
        for b in rows.battles
    )


def wounds_series(platoon: int) -> tuple[WoundsSeriesPoint, ...]:
    """Chart data: wound counters, those on the leader's element and XP lost to recovery, per battle."""
    return _wounds_series(read_rows(platoon))


class HistoryReport:
    """What :func:`history_report` answers: the parts of a platoon's history, each made from the one read when
    first asked for (the view shows the timeline first; the leaders' roll and the charts wait for their tab)."""

    PARTS: tuple[str, ...] = ("history", "leaders", "summary", "xp_series", "wounds_series")

    def __init__(self, rows: HistoryRows, lazy: bool) -> None:
        self._rows = rows
        self._lazy = lazy

    @cached_property
    def history(self) -> PlatoonHistory:
        """Battles and timeline (lazy sequences when the report was read for the view)."""
        with _no_gc():
            return _build(self._rows, lazy=self._lazy)

    @cached_property
    def leaders(self) -> tuple[HistoryLeader, ...]:
        with _no_gc():
            return _leaders(self._rows)

    @cached_property
    def summary(self) -> CampaignSummary:
        return _summary(self._rows)

    @cached_property
    def xp_series(self) -> XpSeries:
        with _no_gc():
            return _xp_series(self._rows)

    @cached_property
    def wounds_series(self) -> tuple[WoundsSeriesPoint, ...]:
        with _no_gc():
            return _wounds_series(self._rows)


def history_report(platoon: int, *, lazy_text: bool = False) -> HistoryReport:
    """Everything about a platoon's campaign from one read (for the history view and the printed history
    report): ``history`` (battles, events), ``leaders``, ``summary``, ``xp_series``, ``wounds_series``, each
    made from the read when first asked for. With ``lazy_text`` (the view) the history's events and battles
    are lazy sequences (:class:`Events`, :class:`Battles`): an event (and its ``text``) or a battle is made
    when first asked for (per painted row)."""
    with _no_gc():
        return HistoryReport(read_rows(platoon), lazy_text)


def _csv_row(e: TimelineEvent) -> dict[str, str | int | None]:
    """An event's cells (:data:`CSV_COLUMNS`; a missing one is empty)."""
    row: dict[str, str | int | None] = {
        "at": e.at,
        "kind": e.kind,
        "battle_number": e.battle_number,
        "date": e.date,
        "text": e.text,
    }
    if isinstance(e, BattleEvent):
        row.update(xp_after=e.xp_after, outcome=e.outcome)
    elif isinstance(e, XpEvent):
        row.update(who=e.name, delta=e.delta, xp_after=e.xp_after, reason=e.reason)
    elif isinstance(e, LeaderEvent):
        row["who"] = e.name
    elif isinstance(e, AttributeEvent):
        row.update(field=e.field, old=e.old, new=e.new, reason=e.reason)
    elif isinstance(e, RollEvent):  # a spreadsheet shows the words, as it always did (JSON has the codes)
        row.update(
            purpose=purpose_text(e.purpose),
            expression=e.expression,
            faces=" ".join(str(f) for f in e.faces),
            total=e.total,
            source=e.source,
            rule=rule_text(e.rule),
            outcome=e.outcome,
        )
    return row


def events_csv(events: Sequence[TimelineEvent]) -> str:
    """Timeline events as CSV text (one row per event, :data:`CSV_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for e in events:
        row = _csv_row(e)
        writer.writerow(["" if row.get(k) is None else row.get(k) for k in CSV_COLUMNS])
    return out.getvalue()


def timeline_csv(platoon: int) -> str:
    """The platoon's timeline as CSV, newest first."""
    return events_csv(history(platoon).events)


def history_json(platoon: int) -> str:
    """The platoon's history (battles with rolls, and events) as JSON text."""
    return json.dumps(history(platoon).to_dict(), ensure_ascii=False, indent=1, default=str)


def export_history(platoon: int, path: str | os.PathLike[str], fmt: str = "csv") -> int:
    """Write the timeline to ``path`` as ``csv`` or ``json``; returns the number of events."""
    if fmt not in ("csv", "json"):
        raise ServiceError(f"export format must be csv or json, not {fmt!r}")
    data = history(platoon)
    text = (
        events_csv(data.events)
        if fmt == "csv"
        else json.dumps(data.to_dict(), ensure_ascii=False, indent=1, default=str)
    )
    from .. import fileio

    fileio.write_atomic(path, text, f"history.{fmt}")
    return len(data.events)


__all__ = [
    "KINDS",
    "CSV_COLUMNS",
    "HISTORY_SQL",
    "Events",
    "Battles",
    "HistoryReport",
    "history",
    "leaders_roll",
    "campaign_summary",
    "xp_series",
    "wounds_series",
    "history_report",
    "timeline_csv",
    "history_json",
    "events_csv",
    "export_history",
    "event_text",
    "change_text",
    "FIELD_LABELS",
    "AttributeEvent",
    "BattleEvent",
    "BattleRoll",
    "CampaignSummary",
    "HistoryBattle",
    "HistoryLeader",
    "HistoryPlatoon",
    "LeaderChange",
    "LeaderEvent",
    "PlatoonHistory",
    "Replacement",
    "RollEvent",
    "TimelineEvent",
    "WoundsSeriesPoint",
    "XpEvent",
    "XpSeries",
    "XpSeriesPoint",
    "XpStart",
]
