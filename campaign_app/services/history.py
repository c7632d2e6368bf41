"""The platoon's campaign history, read back (history queries only; nothing here writes).

:func:`history` (battles with their rolls, and a timeline of every battle, XP change, leader change,
attribute change and roll, newest first), :func:`leaders_roll`, :func:`campaign_summary`, :func:`xp_series`,
:func:`wounds_series`, :func:`timeline_csv`, :func:`history_json` and :func:`history_report` (all of it from
one read) answer with a fixed number of queries (:data:`HISTORY_SQL`), however many battles the platoon has.

Each answers typed results (:mod:`campaign_app.services.history_results`: :class:`PlatoonHistory` with its
:class:`TimelineEvent` kinds and :class:`HistoryBattle`, :class:`HistoryLeader`, :class:`CampaignSummary`,
:class:`XpSeries`, :class:`WoundsSeriesPoint`); ``to_dict()`` gives the JSON of ``campaign-cli --json``.

The read keeps SQLite's rows as tuples; the timeline is put in order from them, and each event (and its
text) is made only when something asks for it (:class:`Events`, :class:`Battles`): the history view paints
a few dozen rows of a timeline of thousands. :func:`history` makes them all (export, CLI, print).
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
from operator import itemgetter
from typing import Any, overload

from ..rules.codes import PURPOSE_LEADER, purpose_text, rule_text
from ..rules.enums import LEADER_LEAVES, LeaderFate, Outcome
from ..rules.experience import LEVELS, Thresholds, level_name
from ..store.database import db
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
CSV_COLUMNS: tuple[str, ...] = ("at", "kind", "battle_number", "date", "text", "who", "delta", "xp_after",
                                "reason", "purpose", "expression", "faces", "total", "source", "rule",
                                "outcome", "field", "old", "new")

_platoon = resolve_platoon


_iso = iso_text


_OUTCOME: dict[str | None, Outcome | None] = {None: None, **{o.value: o for o in Outcome}}
_FATE: dict[str | None, LeaderFate | None] = {None: None, **{f.value: f for f in LeaderFate}}
"""Stored words to their enum members (the store's CHECK constraints allow no others)."""


def _date_part(value: object) -> str | None:
    text = _iso(value)
    return text[:10] if text else None


# --- the read: five queries, rows as tuples ----------------------------------------------------------------

_BATTLE_COLUMNS = ("id", "number", "date", "scenario", "opponent", "opponent_platoon_id", "outcome", "objectives",
                   "fire_support", "notes", "wounds", "leader_wounds", "platoon_xp_before", "platoon_xp_after",
                   "leader_xp_before", "leader_xp_after", "leader_fate", "xp_lost", "created_at")
(B_ID, B_NUMBER, B_DATE, B_SCENARIO, B_OPPONENT, B_OPPONENT_PLATOON, B_OUTCOME, B_OBJECTIVES, B_FIRE_SUPPORT,
 B_NOTES, B_WOUNDS, B_LEADER_WOUNDS, B_XP_BEFORE, B_XP_AFTER, B_LEADER_XP_BEFORE, B_LEADER_XP_AFTER,
 B_FATE, B_XP_LOST, B_CREATED) = range(len(_BATTLE_COLUMNS))
_LEADER_COLUMNS = ("id", "name", "rank", "xp", "xp_at_join", "status", "joined_battle_id", "left_battle_id",
                   "joined_at", "left_at")
(L_ID, L_NAME, L_RANK, L_XP, L_XP_AT_JOIN, L_STATUS, L_JOINED_BATTLE, L_LEFT_BATTLE, L_JOINED_AT,
 L_LEFT_AT) = range(len(_LEADER_COLUMNS))
_XP_COLUMNS = ("id", "leader_id", "who", "delta", "xp_after", "reason", "battle_id", "created_at")
X_ID, X_LEADER, X_WHO, X_DELTA, X_XP_AFTER, X_REASON, X_BATTLE, X_CREATED = range(len(_XP_COLUMNS))
_ATTRIBUTE_COLUMNS = ("id", "battle_id", "field", "old_value", "new_value", "reason", "created_at")
A_ID, A_BATTLE, A_FIELD, A_OLD, A_NEW, A_REASON, A_CREATED = range(len(_ATTRIBUTE_COLUMNS))
_ROLL_COLUMNS = ("id", "battle_id", "leader_id", "seq", "purpose", "expression", "faces", "modifier", "total",
                 "source", "rule", "table_row", "outcome", "created_at")
(R_ID, R_BATTLE, R_LEADER, R_SEQ, R_PURPOSE, R_EXPRESSION, R_FACES, R_MODIFIER, R_TOTAL, R_SOURCE, R_RULE,
 R_TABLE_ROW, R_OUTCOME, R_CREATED) = range(len(_ROLL_COLUMNS))


def _select(model: type[BaseModel], columns: tuple[str, ...], order: str) -> str:
    return (f"SELECT {', '.join(columns)} FROM {model._meta.table_name} WHERE platoon_id = ? "  # noqa: S608
            f"ORDER BY {order}")


HISTORY_SQL: dict[str, str] = {
    "battles": _select(Battle, _BATTLE_COLUMNS, "number"),
    "leaders": _select(Leader, _LEADER_COLUMNS, "id"),  # ids, not clocks: stable on every computer
    "xp_changes": _select(XpChange, _XP_COLUMNS, "id"),
    "attribute_changes": _select(AttributeChange, _ATTRIBUTE_COLUMNS, "id"),
    "rolls": _select(Roll, _ROLL_COLUMNS, "id"),
}
"""The history's queries after the platoon's own row, each with the platoon id as its one parameter (the
benchmark runs the same SQL in plain sqlite3 as the floor of a read)."""


class _Rows:
    """Everything the history needs about one platoon, read with a fixed number of queries (rows as tuples,
    columns as the ``B_``/``L_``/``X_``/``A_``/``R_`` indexes say)."""

    __slots__ = ("platoon_id", "platoon_name", "platoon_xp", "campaign_name", "thresholds", "battles", "leaders",
                 "xp_changes", "attribute_changes", "rolls", "_battles_by_id", "_leaders_by_id", "_faces")

    def __init__(self, platoon_id: int, platoon_name: str, platoon_xp: int, campaign_name: str,
                 thresholds: Thresholds, lists: dict[str, list[tuple[Any, ...]]]) -> None:
        self.platoon_id = platoon_id
        self.platoon_name = platoon_name
        self.platoon_xp = platoon_xp
        self.campaign_name = campaign_name
        self.thresholds = thresholds
        self.battles = lists["battles"]
        self.leaders = lists["leaders"]
        self.xp_changes = lists["xp_changes"]
        self.attribute_changes = lists["attribute_changes"]
        self.rolls = lists["rolls"]
        self._battles_by_id: dict[int, tuple[Any, ...]] | None = None
        self._leaders_by_id: dict[int, tuple[Any, ...]] | None = None
        self._faces: dict[str, tuple[int, ...]] = {}

    @property
    def battles_by_id(self) -> dict[int, tuple[Any, ...]]:
        if self._battles_by_id is None:
            self._battles_by_id = {b[B_ID]: b for b in self.battles}
        return self._battles_by_id

    @property
    def leaders_by_id(self) -> dict[int, tuple[Any, ...]]:
        if self._leaders_by_id is None:
            self._leaders_by_id = {ld[L_ID]: ld for ld in self.leaders}
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


def _load(platoon: str | int, campaign: str | int | None = None) -> _Rows:
    if isinstance(platoon, int):
        row = (Platoon.select(Platoon, Campaign).join(Campaign).where(Platoon.id == platoon).first())
        if row is None:
            raise NotFound(f"no platoon with id {platoon}")
    else:
        row = _platoon(platoon, campaign)
    c = row.campaign
    pid = row.id
    lists = {name: db.execute_sql(sql, (pid,)).fetchall() for name, sql in HISTORY_SQL.items()}
    return _Rows(pid, row.name, row.xp, c.name, thresholds_of(c), lists)


def event_text(ev: TimelineEvent) -> str:
    """The one-line text of a timeline event (its :attr:`~TimelineEvent.text`, made when first asked for)."""
    return ev.text


# --- the timeline: put in order from the tuples, events made on demand --------------------------------------

_BATTLE, _ROLL, _XP, _JOINED, _LEFT, _ATTRIBUTE = range(6)
_KIND_NAMES = ("battle", "roll", "xp", "leader", "leader", "attribute")


class _Timeline:
    """The ordered timeline of one read: for each event its maker code and row (``refs``), its kind and its
    battle id (``kinds``, ``battle_ids``: what the view filters and groups on without making the event)."""

    def __init__(self, rows: _Rows) -> None:
        self.rows = rows
        battles_by_id = rows.battles_by_id
        # each battle's group: the battle, its rolls (seq, id), XP changes (id), leaders who left in it (id),
        # leaders who joined in it (id) -- the order the timeline has always had
        rolls_in: dict[int, list[tuple[Any, ...]]] = {}
        xp_in: dict[int, list[tuple[Any, ...]]] = {}
        left_in: dict[int, list[tuple[Any, ...]]] = {}
        joined_in: dict[int, list[tuple[Any, ...]]] = {}
        # events that stand alone (or share a key: a leader who joined and left at the same moment), by key
        loose: dict[tuple[Any, ...], list[tuple[tuple[Any, ...], int, tuple[Any, ...]]]] = {}

        def alone(key: tuple[Any, ...], order: tuple[Any, ...], code: int, row: tuple[Any, ...]) -> None:
            members = loose.get(key)
            if members is None:
                loose[key] = [(order, code, row)]
            else:
                members.append((order, code, row))

        for r in rows.rolls:
            bid = r[R_BATTLE]
            if bid is not None and bid in battles_by_id:
                members = rolls_in.get(bid)
                if members is None:
                    rolls_in[bid] = [r]
                else:
                    members.append(r)
            else:
                alone((r[R_CREATED], 0, 1, r[R_ID]), (-1, -r[R_SEQ], -r[R_ID]), _ROLL, r)
        for x in rows.xp_changes:
            bid = x[X_BATTLE]
            if bid is not None and bid in battles_by_id:
                xp_in.setdefault(bid, []).append(x)
            else:
                alone((x[X_CREATED], 0, 2, x[X_ID]), (-2, 0, -x[X_ID]), _XP, x)
        for ld in rows.leaders:
            bid = ld[L_JOINED_BATTLE]
            if bid is not None and bid in battles_by_id:
                joined_in.setdefault(bid, []).append(ld)
            else:
                alone((ld[L_JOINED_AT], 0, 3, ld[L_ID]), (-4, 0, -ld[L_ID]), _JOINED, ld)
            if ld[L_STATUS] != "active":
                bid = ld[L_LEFT_BATTLE]
                if bid is not None and bid in battles_by_id:
                    left_in.setdefault(bid, []).append(ld)
                else:
                    at = ld[L_LEFT_AT] or ld[L_JOINED_AT]
                    alone((at, 0, 3, ld[L_ID]), (-3, 0, -ld[L_ID]), _LEFT, ld)
        for a in rows.attribute_changes:
            # edits are shown when they were made, not with the battle they changed; in the same second as
            # its battle, after it (an edit cannot come before the battle it changes)
            b = battles_by_id.get(a[A_BATTLE]) if a[A_BATTLE] is not None else None
            number = b[B_NUMBER] if b is not None else 0
            alone((a[A_CREATED], number, 1 if number else 5, a[A_ID]), (-5, 0, -a[A_ID]), _ATTRIBUTE, a)

        keys: list[tuple[Any, ...]] = [(b[B_CREATED], b[B_NUMBER], 0, 0, b) for b in rows.battles]
        keys.extend(loose)
        keys.sort(key=itemgetter(0, 1, 2, 3), reverse=True)
        refs: list[tuple[int, tuple[Any, ...]]] = []
        kinds: list[str] = []
        battle_ids: list[int | None] = []
        add_ref, add_kind, add_bid = refs.append, kinds.append, battle_ids.append
        by_seq = itemgetter(R_SEQ, R_ID)
        for key in keys:
            if len(key) == 5:  # a battle and its group
                b = key[4]
                bid = b[B_ID]
                add_ref((_BATTLE, b))
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
                for code, kind, members in ((_XP, "xp", xp_in.get(bid)), (_LEFT, "leader", left_in.get(bid)),
                                            (_JOINED, "leader", joined_in.get(bid))):
                    if members:
                        if len(members) > 1 and code != _XP:  # leaders come in (joined_at, id) order
                            members.sort(key=itemgetter(L_ID))
                        for row in members:
                            add_ref((code, row))
                            add_kind(kind)
                            add_bid(bid)
                continue
            members = loose[key]
            if len(members) > 1:
                members.sort(key=itemgetter(0), reverse=True)
            for _order, code, row in members:
                add_ref((code, row))
                add_kind(_KIND_NAMES[code])
                add_bid(self._battle_of(code, row))
        self.refs = refs
        self.kinds = kinds
        self.battle_ids = battle_ids
        self.made: list[TimelineEvent | None] = [None] * len(refs)
        self._led_by: dict[int, str] | None = None
        self._replacement: dict[int, tuple[Any, ...]] | None = None

    @staticmethod
    def _battle_of(code: int, row: tuple[Any, ...]) -> int | None:
        if code == _ROLL:
            return row[R_BATTLE]  # type: ignore[no-any-return]
        if code == _XP:
            return row[X_BATTLE]  # type: ignore[no-any-return]
        if code == _JOINED:
            return row[L_JOINED_BATTLE]  # type: ignore[no-any-return]
        if code == _LEFT:
            return row[L_LEFT_BATTLE]  # type: ignore[no-any-return]
        return row[A_BATTLE]  # type: ignore[no-any-return]

    # what a battle's line names: who led it (the leader of its fate roll) and who took over
    def led_by(self, battle_id: int) -> str | None:
        if self._led_by is None:
            leaders = self.rows.leaders_by_id
            led: dict[int, str] = {}
            for r in self.rows.rolls:
                bid = r[R_BATTLE]
                if bid is not None and bid not in led and r[R_PURPOSE] == PURPOSE_LEADER and r[R_LEADER] in leaders:
                    led[bid] = str(leaders[r[R_LEADER]][L_NAME])
            self._led_by = led
        return self._led_by.get(battle_id)

    def replacement(self, battle_id: int) -> Replacement | None:
        if self._replacement is None:
            self._replacement = {ld[L_JOINED_BATTLE]: ld for ld in self.rows.leaders
                                 if ld[L_JOINED_BATTLE] is not None}
        rep = self._replacement.get(battle_id)
        if rep is None:
            return None
        return Replacement(id=rep[L_ID], name=rep[L_NAME], rank=rep[L_RANK], xp=rep[L_XP_AT_JOIN])

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
        return _iso(at), _iso(b[B_DATE]), b[B_NUMBER]

    def _make(self, code: int, row: tuple[Any, ...]) -> TimelineEvent:
        rows = self.rows
        if code == _BATTLE:
            b = row
            bid = b[B_ID]
            return BattleEvent(id=bid, at=_iso(b[B_CREATED]), date=_iso(b[B_DATE]), battle_id=bid,
                               battle_number=b[B_NUMBER], outcome=_OUTCOME[b[B_OUTCOME]], scenario=b[B_SCENARIO],
                               opponent=b[B_OPPONENT], wounds=b[B_WOUNDS], leader_wounds=b[B_LEADER_WOUNDS],
                               xp_lost=b[B_XP_LOST], leader_fate=_FATE[b[B_FATE]], xp_before=b[B_XP_BEFORE],
                               xp_after=b[B_XP_AFTER], leader=self.led_by(bid), replacement=self.replacement(bid))
        if code == _ROLL:
            r = row
            at, date, number = self._where(r[R_CREATED], r[R_BATTLE])
            return RollEvent(id=r[R_ID], at=at, date=date, battle_id=r[R_BATTLE], battle_number=number,
                             purpose=r[R_PURPOSE], purpose_text=purpose_text(r[R_PURPOSE]),
                             expression=r[R_EXPRESSION], faces=rows.faces(r[R_FACES]), total=r[R_TOTAL],
                             source=r[R_SOURCE], rule=r[R_RULE], rule_text=rule_text(r[R_RULE]),
                             table_row=r[R_TABLE_ROW], outcome=r[R_OUTCOME], leader_id=r[R_LEADER], seq=r[R_SEQ],
                             modifier=r[R_MODIFIER])
        if code == _XP:
            x = row
            ld = rows.leaders_by_id.get(x[X_LEADER]) if x[X_LEADER] else None
            name = ld[L_NAME] if ld is not None else rows.platoon_name if x[X_WHO] == "platoon" else "leader"
            at, date, number = self._where(x[X_CREATED], x[X_BATTLE])
            return XpEvent(id=x[X_ID], at=at, date=date, battle_id=x[X_BATTLE], battle_number=number, who=x[X_WHO],
                           name=name, leader_id=x[X_LEADER], delta=x[X_DELTA], xp_after=x[X_XP_AFTER],
                           reason=x[X_REASON])
        if code in (_JOINED, _LEFT):
            ld = row
            if code == _JOINED:
                at, date, number = self._where(ld[L_JOINED_AT], ld[L_JOINED_BATTLE])
                return LeaderEvent(id=ld[L_ID], at=at, date=date, battle_id=ld[L_JOINED_BATTLE],
                                   battle_number=number, change="joined", leader_id=ld[L_ID], name=ld[L_NAME],
                                   rank=ld[L_RANK], xp=ld[L_XP_AT_JOIN], status=ld[L_STATUS])
            at, date, number = self._where(ld[L_LEFT_AT] or ld[L_JOINED_AT], ld[L_LEFT_BATTLE])
            return LeaderEvent(id=ld[L_ID], at=at, date=date, battle_id=ld[L_LEFT_BATTLE], battle_number=number,
                               change="left", leader_id=ld[L_ID], name=ld[L_NAME], rank=ld[L_RANK], xp=ld[L_XP],
                               status=ld[L_STATUS])
        a = row
        at, _date, number = self._where(a[A_CREATED], a[A_BATTLE])
        # an edit is dated the day it was made, not the battle's date
        return AttributeEvent(id=a[A_ID], at=at, date=_date_part(a[A_CREATED]), battle_id=a[A_BATTLE],
                              battle_number=number, field=a[A_FIELD], old=a[A_OLD], new=a[A_NEW],
                              reason=a[A_REASON])


class Events(Sequence[TimelineEvent]):
    """The timeline's events, newest first; each event is made when it is first asked for (and kept).

    :attr:`kinds` and :attr:`battle_ids` give every event's kind and battle id without making it (what the
    view filters and groups on)."""

    def __init__(self, timeline: _Timeline) -> None:
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

    def __init__(self, timeline: _Timeline) -> None:
        self._timeline = timeline
        self._rows = list(reversed(timeline.rows.battles))
        self._made: list[HistoryBattle | None] = [None] * len(self._rows)
        self._pos: dict[int, int] | None = None
        self._rolls_of: dict[int, list[tuple[Any, ...]]] | None = None

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
            self._pos = {b[B_ID]: i for i, b in enumerate(self._rows)}
        i = self._pos.get(battle_id)
        return None if i is None else self[i]


def _rolls_by_battle(rows: _Rows) -> dict[int, list[tuple[Any, ...]]]:
    """Each battle's rolls in their order (seq, id)."""
    rolls_of: dict[int, list[tuple[Any, ...]]] = {}
    for r in rows.rolls:
        if r[R_BATTLE] is not None:
            rolls_of.setdefault(r[R_BATTLE], []).append(r)
    by_seq = itemgetter(R_SEQ, R_ID)
    for group in rolls_of.values():
        group.sort(key=by_seq)
    return rolls_of


def _battle_roll(rows: _Rows, r: tuple[Any, ...]) -> BattleRoll:
    return BattleRoll(id=r[R_ID], seq=r[R_SEQ], purpose=r[R_PURPOSE], purpose_text=purpose_text(r[R_PURPOSE]),
                      expression=r[R_EXPRESSION], faces=rows.faces(r[R_FACES]), modifier=r[R_MODIFIER],
                      total=r[R_TOTAL], source=r[R_SOURCE], rule=r[R_RULE], rule_text=rule_text(r[R_RULE]),
                      table_row=r[R_TABLE_ROW], outcome=r[R_OUTCOME], leader_id=r[R_LEADER],
                      battle_id=r[R_BATTLE], at=_iso(r[R_CREATED]))


def _battle(timeline: _Timeline, b: tuple[Any, ...], rolls_of: dict[int, list[tuple[Any, ...]]]) -> HistoryBattle:
    bid = b[B_ID]
    rows = timeline.rows
    return HistoryBattle(
        id=bid, number=b[B_NUMBER], date=_iso(b[B_DATE]), scenario=b[B_SCENARIO], opponent=b[B_OPPONENT],
        opponent_platoon_id=b[B_OPPONENT_PLATOON], outcome=_OUTCOME[b[B_OUTCOME]], objectives=b[B_OBJECTIVES],
        fire_support=bool(b[B_FIRE_SUPPORT]), notes=b[B_NOTES], wounds=b[B_WOUNDS],
        leader_wounds=b[B_LEADER_WOUNDS], platoon_xp_before=b[B_XP_BEFORE], platoon_xp_after=b[B_XP_AFTER],
        leader_xp_before=b[B_LEADER_XP_BEFORE], leader_xp_after=b[B_LEADER_XP_AFTER], leader_fate=_FATE[b[B_FATE]],
        xp_lost=b[B_XP_LOST], leader=timeline.led_by(bid), replacement=timeline.replacement(bid),
        created_at=_iso(b[B_CREATED]), rolls=tuple(_battle_roll(rows, r) for r in rolls_of.get(bid, ())))


def _build(rows: _Rows, lazy: bool = False) -> PlatoonHistory:
    """Battles (newest first, with their rolls) and the timeline events (newest first). With ``lazy`` (the
    view) both are lazy sequences (:class:`Battles`, :class:`Events`) that make an item when first asked for;
    else tuples of every item."""
    timeline = _Timeline(rows)
    platoon = HistoryPlatoon(id=rows.platoon_id, name=rows.platoon_name, campaign=rows.campaign_name,
                             xp=rows.platoon_xp)
    if lazy:
        return PlatoonHistory(platoon=platoon, battles=Battles(timeline), events=Events(timeline))
    events = tuple(timeline.event(i) for i in range(len(timeline.refs)))
    rolls_of = _rolls_by_battle(rows)
    battles = tuple(_battle(timeline, b, rolls_of) for b in reversed(rows.battles))
    return PlatoonHistory(platoon=platoon, battles=battles, events=events)


def history(platoon: str | int, campaign: str | int | None = None) -> PlatoonHistory:
    """The platoon (:class:`HistoryPlatoon`), its battles (:class:`HistoryBattle`, with their rolls) and the
    timeline (:class:`TimelineEvent` of each kind), newest first.

    Every event has ``kind`` (battle, xp, leader, attribute, roll), ``id`` (of its row), ``at`` (when it was
    logged), ``date`` (the battle's date for battle events), ``battle_id``, ``battle_number`` and ``text``,
    plus the fields of its kind. Events of one battle stay together (battle, its rolls in order, XP changes,
    leader changes); edits show at the time they were made."""
    with _no_gc():
        return _build(_load(platoon, campaign))


def _fiction_when(battle: tuple[Any, ...] | None, after: tuple[Any, ...] | None) -> str:
    """When something happened in the campaign's own time: in a battle -> "battle 3 (1960-08-02)"; between
    battles (a leader replaced by hand) -> "after battle 2 (1960-07-30)"; before the first battle -> "at the
    start". The day it was typed into the app is never shown as a campaign date."""
    if battle is not None:
        return f"battle {battle[B_NUMBER]} ({_iso(battle[B_DATE])})"
    if after is None:
        return "at the start"
    return f"after battle {after[B_NUMBER]} ({_iso(after[B_DATE])})"


def _leaders(rows: _Rows) -> tuple[HistoryLeader, ...]:
    battles_by_id = rows.battles_by_id
    led: dict[int, int] = {}
    # the last battle each leader fought (their fate rolls): a leader who joined by hand, between battles,
    # joined after the last battle of those before him (none: at the start)
    fought: dict[int, int] = {}
    for r in rows.rolls:
        if r[R_PURPOSE] == PURPOSE_LEADER and r[R_BATTLE] is not None and r[R_LEADER] is not None:
            lid = r[R_LEADER]
            led[lid] = led.get(lid, 0) + 1
            b = battles_by_id.get(r[R_BATTLE])
            if b is not None:
                fought[lid] = max(fought.get(lid, 0), b[B_NUMBER])
    by_number = {b[B_NUMBER]: b for b in rows.battles}
    last_so_far = 0
    out = []
    for ld in rows.leaders:
        jb = battles_by_id.get(ld[L_JOINED_BATTLE]) if ld[L_JOINED_BATTLE] else None
        lb = battles_by_id.get(ld[L_LEFT_BATTLE]) if ld[L_LEFT_BATTLE] else None
        joined = _fiction_when(jb, by_number.get(last_so_far))
        last_so_far = max(last_so_far, fought.get(ld[L_ID], 0), jb[B_NUMBER] if jb else 0)
        status = ld[L_STATUS]
        left = "" if status == "active" else _fiction_when(lb, by_number.get(last_so_far))
        out.append(HistoryLeader(
            id=ld[L_ID], name=ld[L_NAME], rank=ld[L_RANK], status=status, current=status == "active",
            how="still in command" if status == "active" else FATE_WORDS.get(status, "replaced"),
            joined_at=_iso(ld[L_JOINED_AT]), joined_battle=jb[B_NUMBER] if jb else None,
            joined_date=_iso(jb[B_DATE]) if jb else _date_part(ld[L_JOINED_AT]),
            left_at=_iso(ld[L_LEFT_AT]), left_battle=lb[B_NUMBER] if lb else None,
            left_date=_iso(lb[B_DATE]) if lb else _date_part(ld[L_LEFT_AT]),
            joined=joined, left=left, battles_led=led.get(ld[L_ID], 0), xp_at_join=ld[L_XP_AT_JOIN], xp=ld[L_XP],
            xp_gained=ld[L_XP] - ld[L_XP_AT_JOIN], level=level_name(ld[L_XP], rows.thresholds)))
    return tuple(out)


def leaders_roll(platoon: str | int, campaign: str | int | None = None) -> tuple[HistoryLeader, ...]:
    """Every leader of the platoon, first first: dates and battles of joining and leaving, battles led
    (leader's fate rolls made), XP at joining, XP now (or when leaving), XP gained, and how they left."""
    return _leaders(_load(platoon, campaign))


def _summary(rows: _Rows) -> CampaignSummary:
    bs = rows.battles
    count = dict.fromkeys(OUTCOMES, 0)
    unrecorded = wounds = leader_wounds = xp_lost = 0
    for b in bs:
        outcome = b[B_OUTCOME]
        if outcome is None:
            unrecorded += 1
        elif outcome in count:
            count[outcome] += 1
        wounds += b[B_WOUNDS]
        leader_wounds += b[B_LEADER_WOUNDS]
        xp_lost += b[B_XP_LOST]
    lost = [ld for ld in rows.leaders if ld[L_STATUS] in LEADER_LEAVES]  # a leader who left has the fate as status
    current = [ld for ld in rows.leaders if ld[L_STATUS] == "active"]
    awards = sum(x[X_DELTA] for x in rows.xp_changes
                 if x[X_WHO] == "platoon" and x[X_BATTLE] is not None and x[X_DELTA] > 0)
    return CampaignSummary(
        platoon=rows.platoon_name, campaign=rows.campaign_name, xp=rows.platoon_xp,
        level=level_name(rows.platoon_xp, rows.thresholds), leader=current[-1][L_NAME] if current else None,
        battles=len(bs), victories=count[Outcome.VICTORY], defeats=count[Outcome.DEFEAT], draws=count[Outcome.DRAW],
        unrecorded=unrecorded, total_wounds=wounds, leader_wounds=leader_wounds, xp_lost=xp_lost, xp_awarded=awards,
        leaders_lost=len(lost), casualties=sum(1 for ld in lost if ld[L_STATUS] == LeaderFate.CASUALTY),
        promotions=sum(1 for ld in lost if ld[L_STATUS] == LeaderFate.PROMOTED), leaders=len(rows.leaders),
        first_battle=_iso(bs[0][B_DATE]) if bs else None, last_battle=_iso(bs[-1][B_DATE]) if bs else None)


def campaign_summary(platoon: str | int, campaign: str | int | None = None) -> CampaignSummary:
    """Battles, victories/defeats/draws, total wounds, XP lost to recovery, leaders lost (casualties and
    promotions), the platoon's XP and level now."""
    return _summary(_load(platoon, campaign))


def _xp_series(rows: _Rows) -> XpSeries:
    joined_in = {ld[L_JOINED_BATTLE]: ld for ld in rows.leaders if ld[L_JOINED_BATTLE] is not None}
    leaders_by_id = rows.leaders_by_id
    fate_leader = {r[R_BATTLE]: r[R_LEADER] for r in rows.rolls
                   if r[R_PURPOSE] == PURPOSE_LEADER and r[R_BATTLE] is not None}
    points = []
    for b in rows.battles:
        rep = joined_in.get(b[B_ID])
        fate = _FATE[b[B_FATE]]
        change = None
        if fate in LEADER_LEAVES:
            assert fate is not None
            leader_xp = rep[L_XP_AT_JOIN] if rep else None
            old = leaders_by_id.get(fate_leader.get(b[B_ID]))  # type: ignore[arg-type]
            change = LeaderChange(fate=fate, old=old[L_NAME] if old else None, old_xp=b[B_LEADER_XP_AFTER],
                                  new=rep[L_NAME] if rep else None, new_xp=rep[L_XP_AT_JOIN] if rep else None)
        else:
            leader_xp = b[B_LEADER_XP_AFTER]
        points.append(XpSeriesPoint(battle=b[B_NUMBER], battle_id=b[B_ID], date=_iso(b[B_DATE]),
                                    platoon_xp=b[B_XP_AFTER], leader_xp=leader_xp, leader_change=change))
    first = rows.battles[0] if rows.battles else None
    if first is not None:
        start = XpStart(battle=0, platoon_xp=first[B_XP_BEFORE], leader_xp=first[B_LEADER_XP_BEFORE])
    else:
        current = [ld for ld in rows.leaders if ld[L_STATUS] == "active"]
        start = XpStart(battle=0, platoon_xp=rows.platoon_xp, leader_xp=current[-1][L_XP] if current else None)
    return XpSeries(thresholds=rows.thresholds.as_tuple(), levels=tuple(LEVELS), start=start, points=tuple(points))


def xp_series(platoon: str | int, campaign: str | int | None = None) -> XpSeries:
    """Chart data: platoon and leader XP after each battle (``start`` = before the first), the level
    thresholds for the bands, and each leader change (``leader_change``: fate, old and new leader)."""
    return _xp_series(_load(platoon, campaign))


def _wounds_series(rows: _Rows) -> tuple[WoundsSeriesPoint, ...]:
    return tuple(WoundsSeriesPoint(battle=b[B_NUMBER], battle_id=b[B_ID], date=_iso(b[B_DATE]), wounds=b[B_WOUNDS],
                                   leader_wounds=b[B_LEADER_WOUNDS], xp_lost=b[B_XP_LOST]) for b in rows.battles)


def wounds_series(platoon: str | int, campaign: str | int | None = None) -> tuple[WoundsSeriesPoint, ...]:
    """Chart data: wound counters, those on the leader's element and XP lost to recovery, per battle."""
    return _wounds_series(_load(platoon, campaign))


class HistoryReport:
    """What :func:`history_report` answers: the parts of a platoon's history, each made from the one read when
    first asked for (the view shows the timeline first; the leaders' roll and the charts wait for their tab)."""

    PARTS: tuple[str, ...] = ("history", "leaders", "summary", "xp_series", "wounds_series")

    def __init__(self, rows: _Rows, lazy: bool) -> None:
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


def history_report(platoon: str | int, campaign: str | int | None = None, *,
                   lazy_text: bool = False) -> HistoryReport:
    """Everything about a platoon's campaign from one read (for the history view and the printed history
    report): ``history`` (battles, events), ``leaders``, ``summary``, ``xp_series``, ``wounds_series``, each
    made from the read when first asked for. With ``lazy_text`` (the view) the history's events and battles
    are lazy sequences (:class:`Events`, :class:`Battles`): an event (and its ``text``) or a battle is made
    when first asked for (per painted row)."""
    with _no_gc():
        return HistoryReport(_load(platoon, campaign), lazy_text)


def _csv_row(e: TimelineEvent) -> dict[str, str | int | None]:
    """An event's cells (:data:`CSV_COLUMNS`; a missing one is empty)."""
    row: dict[str, str | int | None] = {"at": e.at, "kind": e.kind, "battle_number": e.battle_number,
                                        "date": e.date, "text": e.text}
    if isinstance(e, BattleEvent):
        row.update(xp_after=e.xp_after, outcome=e.outcome)
    elif isinstance(e, XpEvent):
        row.update(who=e.name, delta=e.delta, xp_after=e.xp_after, reason=e.reason)
    elif isinstance(e, LeaderEvent):
        row["who"] = e.name
    elif isinstance(e, AttributeEvent):
        row.update(field=e.field, old=e.old, new=e.new, reason=e.reason)
    elif isinstance(e, RollEvent):  # a spreadsheet shows the words, as it always did (JSON has the codes)
        row.update(purpose=purpose_text(e.purpose), expression=e.expression, faces=" ".join(str(f) for f in e.faces),
                   total=e.total, source=e.source, rule=rule_text(e.rule), outcome=e.outcome)
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


def timeline_csv(platoon: str | int, campaign: str | int | None = None) -> str:
    """The platoon's timeline as CSV, newest first."""
    return events_csv(history(platoon, campaign).events)


def history_json(platoon: str | int, campaign: str | int | None = None) -> str:
    """The platoon's history (battles with rolls, and events) as JSON text."""
    return json.dumps(history(platoon, campaign).to_dict(), ensure_ascii=False, indent=1, default=str)


def export_history(platoon: str | int, path: str | os.PathLike[str], fmt: str = "csv") -> int:
    """Write the timeline to ``path`` as ``csv`` or ``json``; returns the number of events."""
    if fmt not in ("csv", "json"):
        raise ServiceError(f"export format must be csv or json, not {fmt!r}")
    data = history(platoon)
    text = events_csv(data.events) if fmt == "csv" else json.dumps(data.to_dict(), ensure_ascii=False, indent=1,
                                                                    default=str)
    from .. import fileio

    fileio.write_atomic(path, text, f"history.{fmt}")
    return len(data.events)


__all__ = [
    "KINDS", "CSV_COLUMNS", "HISTORY_SQL", "Events", "Battles", "HistoryReport", "history", "leaders_roll",
    "campaign_summary", "xp_series", "wounds_series", "history_report", "timeline_csv", "history_json",
    "events_csv", "export_history", "event_text", "change_text", "FIELD_LABELS",
    "AttributeEvent", "BattleEvent", "BattleRoll", "CampaignSummary", "HistoryBattle", "HistoryLeader",
    "HistoryPlatoon", "LeaderChange", "LeaderEvent", "PlatoonHistory", "Replacement", "RollEvent", "TimelineEvent",
    "WoundsSeriesPoint", "XpEvent", "XpSeries", "XpSeriesPoint", "XpStart",
]
