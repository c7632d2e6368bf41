"""What :mod:`campaign_app.services.history` answers: typed results (frozen dataclasses, :class:`Result`), and
the sentences of the timeline's events (each event makes its own ``text`` when first asked for).

The fields of each result are in the order of the keys its ``to_dict()`` gives the CLI's ``--json`` (and the
JSON export); a timeline event's ``text`` comes last.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..rules.codes import purpose_text
from ..rules.enums import LeaderFate, Outcome
from .attachments import KINDS as KIND_LABELS
from .battles import FATE_WORDS
from .results import Result

_R = TypeVar("_R", bound=Result)
_T = TypeVar("_T")

if TYPE_CHECKING:
    once = cached_property
else:

    class once(Generic[_T]):  # noqa: N801 - used as a decorator, like cached_property
        """:func:`functools.cached_property` without its lock (Python 3.11 takes one on every first access:
        about 7% of an export's time making every event's text): the value is stored in the instance's
        ``__dict__``, where it hides this descriptor from then on."""

        def __init__(self, func: Callable[[Any], _T]) -> None:
            self.func = func
            self.name = func.__name__
            self.__doc__ = func.__doc__

        def __get__(self, instance: object, owner: type | None = None) -> Any:
            if instance is None:
                return self
            value = instance.__dict__[self.name] = self.func(instance)
            return value


def _quick_init(cls: type[_R]) -> type[_R]:
    """Give a frozen result class an ``__init__`` that stores its fields straight into the instance's
    ``__dict__`` (same parameters, in the same order, as the dataclass's own). A frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``, about three times what building the dict the
    history used to answer cost; a timeline makes thousands of events (export, print, ``campaign-cli``). The
    instance stays frozen: assigning a field afterwards still raises ``FrozenInstanceError``."""
    fields = [f for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]  # a dataclass
    if any(f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING for f in fields):
        raise TypeError(f"{cls.__name__}: _quick_init takes fields without defaults only")
    params = ", ".join(f.name for f in fields)
    stored = ", ".join(f"{f.name!r}: {f.name}" for f in fields)
    namespace: dict[str, Any] = {}
    exec(f"def __init__(self, {params}):\n    self.__dict__.update({{{stored}}})\n", {}, namespace)  # noqa: S102
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


# --- the timeline's events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Replacement(Result):
    """The leader who took over in a battle (their XP when they joined)."""

    id: int
    name: str
    rank: str
    xp: int


@dataclass(frozen=True)
class TimelineEvent(Result):
    """One line of the timeline: what every kind of event has. ``kind`` is the class's (battle, roll, xp,
    leader, attribute); ``id`` is its row's; ``at`` when it was logged; ``date`` the battle's date for a
    battle's events, else the day it was logged. :attr:`text` (its sentence) is made when first asked for."""

    kind: str = dc_field(init=False, default="")
    id: int
    at: str | None
    date: str | None
    battle_id: int | None
    battle_number: int | None

    @once
    def text(self) -> str:
        """The one-line text of the event, from its own fields (made once, when first asked for: the history
        view asks only for the rows it paints)."""
        return self._sentence()

    def _sentence(self) -> str:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["text"] = self.text
        return out


@_quick_init
@dataclass(frozen=True)
class BattleEvent(TimelineEvent):
    """A battle logged: its outcome, wounds, XP, who led it and who took over."""

    kind: str = dc_field(init=False, default="battle")
    outcome: Outcome | None
    scenario: str
    opponent: str
    wounds: int
    leader_wounds: int
    xp_lost: int
    leader_fate: LeaderFate | None
    xp_before: int
    xp_after: int
    leader: str | None
    """The name of the leader of the battle's fate roll (None: no leader)."""
    replacement: Replacement | None

    def _sentence(self) -> str:
        return battle_text(
            self.battle_number,
            self.scenario,
            self.opponent,
            self.outcome,
            self.wounds,
            self.xp_before,
            self.xp_after,
            self.leader_fate,
            self.leader,
            self.replacement,
        )


@_quick_init
@dataclass(frozen=True)
class RollEvent(TimelineEvent):
    """A roll (an aftermath roll of a battle, or one made by hand)."""

    kind: str = dc_field(init=False, default="roll")
    purpose: str
    purpose_text: str
    expression: str
    faces: tuple[int, ...]
    total: int
    source: str
    rule: str
    rule_text: str
    table_row: str | None
    outcome: str
    leader_id: int | None
    seq: int
    modifier: int

    def _sentence(self) -> str:
        return roll_text(self.purpose, self.expression, self.faces, self.total, self.outcome, self.source)


@_quick_init
@dataclass(frozen=True)
class XpEvent(TimelineEvent):
    """The platoon's or a leader's XP changed (by a battle, or set by hand)."""

    kind: str = dc_field(init=False, default="xp")
    who: str
    """"platoon" or "leader"."""
    name: str
    leader_id: int | None
    delta: int
    xp_after: int
    reason: str

    def _sentence(self) -> str:
        return change_text(self)


@_quick_init
@dataclass(frozen=True)
class LeaderEvent(TimelineEvent):
    """A leader took command (``change`` "joined", with the XP they joined with) or left ("left", with the XP
    they left with; ``status`` is how they left)."""

    kind: str = dc_field(init=False, default="leader")
    change: str
    leader_id: int
    name: str
    rank: str
    xp: int
    status: str
    """"active", or the fate they left by (a :class:`LeaderFate`'s value)."""

    def _sentence(self) -> str:
        number = self.battle_number
        if self.change == "joined":
            where = f" after battle {number}" if number is not None else ""
            return f"{self.name} takes command{where} ({self.rank}, {self.xp} XP)"
        where = f" in battle {number}" if number is not None else ""
        how = FATE_WORDS.get(self.status, "replaced")
        return f"{self.name} leaves the platoon{where}: {how} ({self.xp} XP)"


@_quick_init
@dataclass(frozen=True)
class AttributeEvent(TimelineEvent):
    """A stored field changed by hand (the roster, a battle's record): ``field`` is its path as stored
    (``attached[MG Team].equipment``), ``old``/``new`` its values as stored text."""

    kind: str = dc_field(init=False, default="attribute")
    field: str
    old: str | None
    new: str | None
    reason: str

    def _sentence(self) -> str:
        return change_text(self)


# --- battles, leaders, summary, charts ---------------------------------------------------------------------


@_quick_init
@dataclass(frozen=True)
class BattleRoll(Result):
    """A battle's roll as :func:`~campaign_app.services.history.history` lists it under the battle."""

    id: int
    seq: int
    purpose: str
    purpose_text: str
    expression: str
    faces: tuple[int, ...]
    modifier: int
    total: int
    source: str
    rule: str
    rule_text: str
    table_row: str | None
    outcome: str
    leader_id: int | None
    battle_id: int | None
    at: str | None


@_quick_init
@dataclass(frozen=True)
class HistoryBattle(Result):
    """A logged battle with everything it records, who led it, who took over, and its rolls in order."""

    id: int
    number: int
    date: str | None
    scenario: str
    opponent: str
    opponent_platoon_id: int | None
    outcome: Outcome | None
    objectives: int
    fire_support: bool
    notes: str
    wounds: int
    leader_wounds: int
    platoon_xp_before: int
    platoon_xp_after: int
    leader_xp_before: int | None
    leader_xp_after: int | None
    leader_fate: LeaderFate | None
    xp_lost: int
    leader: str | None
    replacement: Replacement | None
    created_at: str | None
    rolls: tuple[BattleRoll, ...]


@dataclass(frozen=True)
class HistoryPlatoon(Result):
    id: int
    name: str
    campaign: str
    xp: int


@dataclass(frozen=True)
class PlatoonHistory(Result):
    """Battles (newest first, with their rolls) and the timeline (newest first). In the history view both are
    lazy sequences (:class:`~campaign_app.services.history.Battles`, :class:`~.Events`) that make an item when
    it is first asked for; else tuples."""

    platoon: HistoryPlatoon
    battles: Sequence[HistoryBattle]
    events: Sequence[TimelineEvent]

    def to_dict(self) -> dict[str, Any]:
        return {
            "platoon": self.platoon.to_dict(),
            "battles": [b.to_dict() for b in self.battles],
            "events": [e.to_dict() for e in self.events],
        }


@dataclass(frozen=True)
class HistoryLeader(Result):
    """A leader on the platoon's roll: when (in the campaign's own time) they joined and left, how they left,
    battles led, XP at joining and now (or when leaving)."""

    id: int
    name: str
    rank: str
    status: str
    """"active", or the fate they left by."""
    current: bool
    how: str
    joined_at: str | None
    joined_battle: int | None
    joined_date: str | None
    left_at: str | None
    left_battle: int | None
    left_date: str | None
    joined: str
    """"at the start", "battle 3 (1960-08-02)", "after battle 2 (1960-07-30)"."""
    left: str
    """As ``joined``; empty for the leader in command."""
    battles_led: int
    xp_at_join: int
    xp: int
    xp_gained: int
    level: str


@dataclass(frozen=True)
class CampaignSummary(Result):
    """The platoon's campaign in figures."""

    platoon: str
    campaign: str
    xp: int
    level: str
    leader: str | None
    battles: int
    victories: int
    defeats: int
    draws: int
    unrecorded: int
    total_wounds: int
    leader_wounds: int
    xp_lost: int
    xp_awarded: int
    leaders_lost: int
    casualties: int
    promotions: int
    leaders: int
    first_battle: str | None
    last_battle: str | None


@dataclass(frozen=True)
class LeaderChange(Result):
    """A leader lost in a battle (``fate``, with the XP they left with) and who took over (their XP at joining)."""

    fate: LeaderFate
    old: str | None
    old_xp: int | None
    new: str | None
    new_xp: int | None


@dataclass(frozen=True)
class XpStart(Result):
    """The XP before the first battle (battle 0)."""

    battle: int
    platoon_xp: int
    leader_xp: int | None


@dataclass(frozen=True)
class XpSeriesPoint(Result):
    battle: int
    battle_id: int
    date: str | None
    platoon_xp: int
    leader_xp: int | None
    leader_change: LeaderChange | None


@dataclass(frozen=True)
class XpSeries(Result):
    """Chart data: XP after each battle, the level thresholds and names for the bands."""

    thresholds: tuple[int, ...]
    levels: tuple[str, ...]
    start: XpStart
    points: tuple[XpSeriesPoint, ...]


@dataclass(frozen=True)
class WoundsSeriesPoint(Result):
    battle: int
    battle_id: int
    date: str | None
    wounds: int
    leader_wounds: int
    xp_lost: int


# --- the sentences -----------------------------------------------------------------------------------------


def roll_text(purpose: str, expression: str, faces: Sequence[int], total: int, outcome: str | None, source: str) -> str:
    shown = ", ".join(str(f) for f in faces)
    result = f": {outcome}" if outcome else ""
    who = "typed in" if source == "entered" else "rolled by the app"
    return f"{purpose_text(purpose).capitalize()} {expression} [{shown}] = {total}{result} ({who})"


def battle_text(
    number: int | None,
    scenario: str,
    opponent: str,
    outcome: str | None,
    wounds: int,
    xp_before: int,
    xp_after: int,
    leader_fate: str | None,
    leader_name: str | None,
    replacement: Replacement | None,
) -> str:
    bits = [f"Battle {number}"]
    if scenario:
        bits[0] += f" \u2013 {scenario}"
    if opponent:
        bits.append(f"vs {opponent}")
    if outcome:
        bits.append(outcome)
    bits.append(f"{wounds} wound counter{'s' if wounds != 1 else ''}")
    bits.append(f"platoon XP {xp_before} \u2192 {xp_after}")
    if leader_fate:
        who = leader_name or "leader"
        bits.append(f"{who} {leader_fate}")
    if replacement:
        bits.append(f"{replacement.name} takes over ({replacement.xp} XP)")
    return ", ".join(bits)


# what a stored field is called in a sentence ("MG Team Bravo: Equipment d10 → d12")
FIELD_LABELS: dict[str, str] = {
    "training": "Training",
    "equipment": "Equipment",
    "morale": "Morale",
    "armor": "Armor",
    "notes": "Notes",
    "support": "Fire support",
    "kind": "Kind",
    "targets": "Targets",
    "ap": "AP",
    "ap_vs": "AP applies to",
    "rank": "Rank",
    "date": "Date",
    "scenario": "Scenario",
    "opponent": "Opponent",
    "opponent_platoon": "Opponent platoon",
    "outcome": "Outcome",
    "fire_support": "Fire support",
}
_UNIT_FIELDS = "name|kind|training|equipment|morale|armor|support|notes"
_ITEM_FIELDS = "name|targets|ap|ap_vs|notes"
_FIELD_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # the shapes of AttributeChange.field the roster and battle services write, most specific first
    ("unit_item_field", re.compile(rf"attached\[(?P<unit>.+)\]\.equipment\[(?P<item>.+)\]\.(?P<f>{_ITEM_FIELDS})")),
    ("unit_item", re.compile(r"attached\[(?P<unit>.+)\]\.equipment\[(?P<item>.+)\]")),
    ("unit_field", re.compile(rf"attached\[(?P<unit>.+)\]\.(?P<f>{_UNIT_FIELDS})")),
    ("unit", re.compile(r"attached\[(?P<unit>.+)\]")),
    ("item_field", re.compile(rf"equipment\[(?P<item>.+)\]\.(?P<f>{_ITEM_FIELDS})")),
    ("item", re.compile(r"equipment\[(?P<item>.+)\]")),
    ("leader_field", re.compile(r"leader\.(?P<f>\w+)")),
    ("battle_field", re.compile(r"battle\.(?P<f>\w+)")),
    ("field", re.compile(r"(?P<f>\w+)")),
)
_SHORT = 48
"""Longer values (notes) are cut to this many characters in a sentence (the data fields keep them whole)."""


def _value(field: str, value: str | None) -> str:
    """A stored old or new value as a sentence shows it."""
    if value is None:
        return "not recorded" if field == "outcome" else "none"
    text = str(value)
    if field == "fire_support":
        return "used" if text in ("True", "1", "true") else "not used"
    if field == "kind":
        return KIND_LABELS.get(text, text)
    if field == "opponent_platoon":
        return f"platoon #{text}"
    if field == "date":
        return text[:10]
    if not text:
        return "(empty)"
    line = " ".join(text.split())
    return line if len(line) <= _SHORT else line[: _SHORT - 1].rstrip() + "\u2026"


def _details(name: str, description: str | None) -> str:
    """What an added or removed unit or item was: its stored description less its own name."""
    text = str(description or "")
    if text.startswith(f"{name} (") and text.endswith(")"):
        return text[len(name) + 2 : -1]
    return text


def change_text(ev: XpEvent | AttributeEvent) -> str:
    """The sentence of a change event, from the stored row's fields alone:
    "MG Team Bravo: Equipment d10 \u2192 d12", "Lt. Okafor: Leader XP 5 \u2192 6 (reason)", "HMG: AP 2 \u2192 3",
    "Platoon renamed 1st \u2192 2nd Platoon", "Battle 2: Outcome draw \u2192 victory". The timeline, the printed
    history and ``campaign-cli history`` all show this text (the event's ``text``); the data fields stay as
    stored."""
    reason = str(ev.reason or "")
    if isinstance(ev, XpEvent):
        after = int(ev.xp_after)
        before = after - int(ev.delta)
        if ev.who == "leader":
            subject = f"{ev.name}: Leader XP" if ev.name and ev.name != "leader" else "Leader XP"
        else:
            subject = "Platoon XP"
        return f"{subject} {before} \u2192 {after}" + (f" ({reason})" if reason else "")
    path, old, new = str(ev.field), ev.old, ev.new
    form, parts = "other", {}
    for name, pattern in _FIELD_FORMS:
        m = pattern.fullmatch(path)
        if m:
            form, parts = name, m.groupdict()
            break
    f = parts.get("f") or ""
    label = FIELD_LABELS.get(f, f.replace("_", " ").capitalize())
    arrow = f"{_value(f, old)} \u2192 {_value(f, new)}"
    unit, item = parts.get("unit"), parts.get("item")
    if form in ("unit", "unit_item", "item"):
        thing = item if item is not None else unit
        what = "equipment" if item is not None else "attached unit"
        if old is None:
            text = f"{what.capitalize()} added: {thing}"
            details = _details(str(thing), new)
        elif new is None:
            text = f"{what.capitalize()} removed: {thing}"
            details = _details(str(thing), old)
        else:
            text, details = f"{thing}: {_value('', old)} \u2192 {_value('', new)}", ""
        if details:
            text += f" \u2013 {details}"
        if form == "unit_item":
            text = f"{unit}: {text[:1].lower()}{text[1:]}"
    elif form in ("unit_field", "unit_item_field", "item_field"):
        owner = f"{unit}, {item}" if form == "unit_item_field" else unit if form == "unit_field" else item
        if f == "name":
            what = "Attached unit" if form == "unit_field" else "Equipment"
            where = f"{unit}: " if form == "unit_item_field" else ""
            text = f"{where}{what} renamed {arrow}"
        else:
            text = f"{owner}: {label} {arrow}"
    elif form == "leader_field":
        text = f"Leader renamed {arrow}" if f == "name" else f"Leader's {label.lower()} {arrow}"
    elif form == "battle_field":
        number = ev.battle_number
        text = f"Battle {number}: {label} {arrow}" if number is not None else f"Battle: {label} {arrow}"
        if number is not None and reason == f"battle {number} edited":
            reason = ""  # the default reason says no more than the sentence
    elif form == "field":
        text = f"Platoon renamed {arrow}" if f == "name" else f"Platoon: {label} {arrow}"
    else:
        text = f"{path}: {_value('', old)} \u2192 {_value('', new)}"
    return text + (f" ({reason})" if reason else "")


__all__ = [
    "Replacement",
    "TimelineEvent",
    "BattleEvent",
    "RollEvent",
    "XpEvent",
    "LeaderEvent",
    "AttributeEvent",
    "BattleRoll",
    "HistoryBattle",
    "HistoryPlatoon",
    "PlatoonHistory",
    "HistoryLeader",
    "CampaignSummary",
    "LeaderChange",
    "XpStart",
    "XpSeriesPoint",
    "XpSeries",
    "WoundsSeriesPoint",
    "FIELD_LABELS",
    "change_text",
    "roll_text",
    "battle_text",
]
