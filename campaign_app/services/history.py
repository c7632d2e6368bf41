"""The platoon's campaign history, read back (history queries only; nothing here writes).

:func:`history` (battles with their rolls, and a timeline of every battle, XP change, leader change,
attribute change and roll, newest first), :func:`leaders_roll`, :func:`campaign_summary`, :func:`xp_series`,
:func:`wounds_series`, :func:`timeline_csv`, :func:`history_json` and :func:`history_report` (all of it from
one read) answer with a fixed number of queries, however many battles the platoon has.
"""

from __future__ import annotations

import csv
import datetime as _dt
import gc
import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from ..rules.aftermath import PURPOSE_LEADER
from ..rules.experience import LEVELS, Thresholds, level_name
from ..store.database import db
from ..store.models import AttributeChange, Battle, Campaign, Leader, Platoon, Roll, XpChange
from .battles import FATE_WORDS, OUTCOMES
from .common import NotFound, ServiceError, resolve_platoon, thresholds_of

KINDS: tuple[str, ...] = ("battle", "xp", "leader", "attribute", "roll")
"""Kinds of timeline events."""
CSV_COLUMNS: tuple[str, ...] = ("at", "kind", "battle_number", "date", "text", "who", "delta", "xp_after",
                                "reason", "purpose", "expression", "faces", "total", "source", "rule",
                                "outcome", "field", "old", "new")

_platoon = resolve_platoon


def _iso(value: Any) -> str | None:
    """A stored date or time as ISO text (SQLite gives the text itself, the common case here)."""
    if value.__class__ is str:
        return value
    if value is None:
        return None
    if isinstance(value, _dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, _dt.date):
        return value.isoformat()
    return str(value)


def _date_part(value: Any) -> str | None:
    text = _iso(value)
    return text[:10] if text else None


@dataclass
class _Rows:
    """Everything the history needs about one platoon, read with a fixed number of queries."""

    platoon: dict[str, Any]
    campaign: dict[str, Any]
    thresholds: Thresholds
    battles: list[dict[str, Any]]
    leaders: list[dict[str, Any]]
    xp_changes: list[dict[str, Any]]
    attribute_changes: list[dict[str, Any]]
    rolls: list[dict[str, Any]]


@contextmanager
def _no_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while a history is read: the read makes ~20,000 dicts and lists
    (no reference cycles), and each few hundred of them would start a collection that walks the objects of
    the whole process (in the GUI, every Qt wrapper too); it runs again, once, when the read is done."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


_HISTORY_SQL: dict[Any, str] = {}


def _fetch(query: Any, platoon_id: int | None = None) -> list[dict[str, Any]]:
    """Rows of a model query as dicts keyed by field name, straight from SQLite: dates and times stay the ISO
    text they are stored as, ``faces`` is decoded, booleans are bools (much faster than model rows).

    With ``platoon_id`` (a query whose only parameter is that id) its SQL text is made once per model and
    kept (peewee's SQL building is a few percent of a history read)."""
    model = query.model
    if platoon_id is None:
        sql, params = query.sql()
    else:
        sql = _HISTORY_SQL.get(model)  # type: ignore[assignment]
        params = [platoon_id]
        if sql is None:
            sql, made = query.sql()
            if list(made) != params:
                raise AssertionError(f"history query of {model.__name__} has other parameters: {made}")
            _HISTORY_SQL[model] = sql
    cursor = db.execute_sql(sql, params)
    columns = model._meta.columns
    names = [columns[d[0]].name if d[0] in columns else d[0] for d in cursor.description]
    rows = [dict(zip(names, row)) for row in cursor.fetchall()]  # noqa: B905 - one length by construction
    if "faces" in names:
        decoded: dict[str, list[int]] = {}  # few distinct faces texts ("[3]", "[12, 12]"): decode each once
        for r in rows:
            text = r["faces"]
            if text is None:
                r["faces"] = []
                continue
            faces = decoded.get(text)
            if faces is None:
                faces = decoded[text] = json.loads(text)
            r["faces"] = list(faces)
    if "fire_support" in names:
        for r in rows:
            r["fire_support"] = bool(r["fire_support"])
    return rows


def _load(platoon: str | int, campaign: str | int | None = None) -> _Rows:
    if isinstance(platoon, int):
        row = (Platoon.select(Platoon, Campaign).join(Campaign).where(Platoon.id == platoon).first())
        if row is None:
            raise NotFound(f"no platoon with id {platoon}")
    else:
        row = _platoon(platoon, campaign)
    c = row.campaign
    pid = row.id
    return _Rows(
        platoon={"id": pid, "name": row.name, "xp": row.xp, "created_at": row.created_at},
        campaign={"id": c.id, "name": c.name, "period": c.period},
        thresholds=thresholds_of(c),
        battles=_fetch(Battle.select().where(Battle.platoon == pid).order_by(Battle.number), pid),
        leaders=_fetch(Leader.select().where(Leader.platoon == pid).order_by(Leader.joined_at, Leader.id), pid),
        xp_changes=_fetch(XpChange.select().where(XpChange.platoon == pid).order_by(XpChange.id), pid),
        attribute_changes=_fetch(AttributeChange.select().where(AttributeChange.platoon == pid)
                                 .order_by(AttributeChange.id), pid),
        rolls=_fetch(Roll.select().where(Roll.platoon == pid).order_by(Roll.id), pid),
    )


def _roll_text(r: dict[str, Any]) -> str:
    faces = ", ".join(str(f) for f in r["faces"])
    outcome = f": {r['outcome']}" if r.get("outcome") else ""
    who = "typed in" if r["source"] == "entered" else "rolled by the app"
    return f"{r['purpose'].capitalize()} {r['expression']} [{faces}] = {r['total']}{outcome} ({who})"


def _battle_text(b: dict[str, Any], leader_name: str | None, replacement: dict[str, Any] | None) -> str:
    """A battle's line; ``b`` is a battle row or a battle event (``battle_number``, ``xp_before``, ...)."""
    number = b["number"] if "number" in b else b["battle_number"]
    xp_before = b["platoon_xp_before"] if "platoon_xp_before" in b else b["xp_before"]
    xp_after = b["platoon_xp_after"] if "platoon_xp_after" in b else b["xp_after"]
    bits = [f"Battle {number}"]
    if b["scenario"]:
        bits[0] += f" \u2013 {b['scenario']}"
    if b["opponent"]:
        bits.append(f"vs {b['opponent']}")
    if b["outcome"]:
        bits.append(b["outcome"])
    bits.append(f"{b['wounds']} wound counter{'s' if b['wounds'] != 1 else ''}")
    bits.append(f"platoon XP {xp_before} \u2192 {xp_after}")
    if b["leader_fate"]:
        who = leader_name or "leader"
        bits.append(f"{who} {b['leader_fate']}")
    if replacement:
        bits.append(f"{replacement['name']} takes over ({replacement['xp']} XP)")
    return ", ".join(bits)


def event_text(ev: dict[str, Any]) -> str:
    """The one-line text of a timeline event, from its own fields (``ev["text"]`` once made; the history
    view asks for it only for the rows it paints, see ``history_report(lazy_text=True)``)."""
    text = ev.get("text")
    if text is not None:
        return str(text)
    kind = ev["kind"]
    if kind == "battle":
        text = _battle_text(ev, ev.get("leader"), ev.get("replacement"))
    elif kind == "roll":
        text = _roll_text(ev)
    elif kind == "xp":
        sign = "+" if ev["delta"] > 0 else "\u2212"
        reason = f" ({ev['reason']})" if ev["reason"] else ""
        text = f"{ev['name']} {sign}{abs(ev['delta'])} XP \u2192 {ev['xp_after']}{reason}"
    elif kind == "leader":
        number = ev["battle_number"]
        if ev["change"] == "joined":
            where = f" after battle {number}" if number is not None else ""
            text = f"{ev['name']} takes command{where} ({ev['rank']}, {ev['xp']} XP)"
        else:
            where = f" in battle {number}" if number is not None else ""
            how = FATE_WORDS.get(ev["status"], "replaced")
            text = f"{ev['name']} leaves the platoon{where}: {how} ({ev['xp']} XP)"
    else:
        reason = f" ({ev['reason']})" if ev["reason"] else ""
        old = "\u2013" if ev["old"] is None else ev["old"] or "(empty)"
        new = "\u2013" if ev["new"] is None else ev["new"] or "(empty)"
        label = ev["field"]
        if ev["battle_number"] is not None:
            label = f"battle {ev['battle_number']} {label.removeprefix('battle.')}"
        label = label.replace("_", " ")
        label = label[:1].upper() + label[1:]  # sentence case: "Battle 2 outcome: draw → victory"
        text = f"{label}: {old} \u2192 {new}{reason}"
    ev["text"] = text
    return text


def _build(rows: _Rows, text: bool = True) -> dict[str, Any]:
    """Battles (newest first, with their rolls) and the timeline events (newest first). With ``text=False``
    the events carry no ``text`` yet (:func:`event_text` makes it on demand)."""
    iso = _iso
    battles_by_id = {b["id"]: b for b in rows.battles}
    leaders_by_id = {ld["id"]: ld for ld in rows.leaders}
    rolls_by_battle: dict[int, list[dict[str, Any]]] = {}
    for r in rows.rolls:
        if r["battle"] is not None:
            rolls_by_battle.setdefault(r["battle"], []).append(r)
    joined_in: dict[int, dict[str, Any]] = {}
    for ld in rows.leaders:
        if ld["joined_battle"] is not None:
            joined_in[ld["joined_battle"]] = ld
    # the dates of a battle's events, as text, once per battle
    battle_date = {bid: iso(b["date"]) for bid, b in battles_by_id.items()}

    def led_by(b: dict[str, Any]) -> str | None:
        for r in rolls_by_battle.get(b["id"], ()):
            if r["purpose"] == PURPOSE_LEADER and r["leader"] in leaders_by_id:
                return str(leaders_by_id[r["leader"]]["name"])
        return None

    roll_events: dict[int, dict[str, Any]] = {}
    # events by their group (a battle with its rolls, XP and leader changes; or one event alone), each with
    # its order inside the group: sorting ~1,000 groups and then each small group is much cheaper than one
    # sort of every event on (group, order), and gives the same order
    groups: dict[tuple[Any, ...], list[tuple[tuple[Any, ...], dict[str, Any]]]] = {}

    def add(key: tuple[Any, ...], order: tuple[Any, ...], ev: dict[str, Any]) -> None:
        members = groups.get(key)
        if members is None:
            groups[key] = [(order, ev)]
        else:
            members.append((order, ev))

    for r in rows.rolls:
        bid = r["battle"]
        b = battles_by_id.get(bid) if bid is not None else None
        at = iso(r["created_at"])
        ev = {"kind": "roll", "id": r["id"], "at": at,
              "date": battle_date[bid] if b else (at[:10] if at else None),
              "battle_id": bid, "battle_number": b["number"] if b else None,
              "purpose": r["purpose"], "expression": r["expression"], "faces": r["faces"], "total": r["total"],
              "source": r["source"], "rule": r["rule"], "table_row": r["table_row"], "outcome": r["outcome"],
              "leader_id": r["leader"], "seq": r["seq"], "modifier": r["modifier"]}
        roll_events[r["id"]] = ev
        key = (b["created_at"], b["number"], 0, 0) if b else (r["created_at"], 0, 1, r["id"])
        add(key, (-1, -r["seq"], -r["id"]), ev)

    def roll_dict(r: dict[str, Any]) -> dict[str, Any]:
        ev = roll_events[r["id"]]
        return {"id": r["id"], "seq": r["seq"], "purpose": r["purpose"], "expression": r["expression"],
                "faces": list(r["faces"]), "modifier": r["modifier"], "total": r["total"], "source": r["source"],
                "rule": r["rule"], "table_row": r["table_row"], "outcome": r["outcome"],
                "leader_id": r["leader"], "battle_id": r["battle"], "at": ev["at"]}

    battles_out = []
    for b in rows.battles:
        rep = joined_in.get(b["id"])
        replacement = {"id": rep["id"], "name": rep["name"], "rank": rep["rank"], "xp": rep["xp_at_join"]} \
            if rep else None
        leader_name = led_by(b)
        ordered = sorted(rolls_by_battle.get(b["id"], ()), key=lambda r: (r["seq"], r["id"]))
        # text-less (view) mode shares the roll events, which hold every key of a roll's dict
        rolls = [roll_events[r["id"]] for r in ordered] if not text else [roll_dict(r) for r in ordered]
        date = battle_date[b["id"]]
        created = iso(b["created_at"])
        bd = {"id": b["id"], "number": b["number"], "date": date, "scenario": b["scenario"],
              "opponent": b["opponent"], "opponent_platoon_id": b["opponent_platoon"], "outcome": b["outcome"],
              "objectives": b["objectives"], "fire_support": bool(b["fire_support"]), "notes": b["notes"],
              "wounds": b["wounds"], "leader_wounds": b["leader_wounds"],
              "platoon_xp_before": b["platoon_xp_before"], "platoon_xp_after": b["platoon_xp_after"],
              "leader_xp_before": b["leader_xp_before"], "leader_xp_after": b["leader_xp_after"],
              "leader_fate": b["leader_fate"], "xp_lost": b["xp_lost"], "leader": leader_name,
              "replacement": replacement, "created_at": created, "rolls": rolls}
        battles_out.append(bd)
        add((b["created_at"], b["number"], 0, 0), (0, 0),
            {"kind": "battle", "id": b["id"], "at": created, "date": date,
             "battle_id": b["id"], "battle_number": b["number"],
             "outcome": b["outcome"], "scenario": b["scenario"], "opponent": b["opponent"],
             "wounds": b["wounds"], "leader_wounds": b["leader_wounds"], "xp_lost": b["xp_lost"],
             "leader_fate": b["leader_fate"], "xp_before": b["platoon_xp_before"],
             "xp_after": b["platoon_xp_after"], "leader": leader_name, "replacement": replacement})

    def group(at: Any, battle_id: int | None, rank: int, row_id: int) -> tuple[Any, ...]:
        if battle_id is not None and battle_id in battles_by_id:
            b = battles_by_id[battle_id]
            return (b["created_at"], b["number"], 0, 0)
        return (at, 0, rank, row_id)

    def base(kind: str, row_id: int, at: Any, battle_id: int | None) -> dict[str, Any]:
        b = battles_by_id.get(battle_id) if battle_id is not None else None
        return {"kind": kind, "id": row_id, "at": iso(at),
                "date": battle_date[battle_id] if b else _date_part(at),
                "battle_id": battle_id, "battle_number": b["number"] if b else None}

    for x in rows.xp_changes:
        ld = leaders_by_id.get(x["leader"]) if x["leader"] else None
        who_name = ld["name"] if ld else rows.platoon["name"] if x["who"] == "platoon" else "leader"
        ev = base("xp", x["id"], x["created_at"], x["battle"])
        ev.update(who=x["who"], name=who_name, leader_id=x["leader"], delta=x["delta"], xp_after=x["xp_after"],
                  reason=x["reason"])
        add(group(x["created_at"], x["battle"], 2, x["id"]), (-2, 0, -x["id"]), ev)
    for ld in rows.leaders:
        ev = base("leader", ld["id"], ld["joined_at"], ld["joined_battle"])
        ev.update(change="joined", leader_id=ld["id"], name=ld["name"], rank=ld["rank"], xp=ld["xp_at_join"],
                  status=ld["status"])
        add(group(ld["joined_at"], ld["joined_battle"], 3, ld["id"]), (-4, 0, -ld["id"]), ev)
        if ld["status"] != "active":
            at = ld["left_at"] or ld["joined_at"]
            ev = base("leader", ld["id"], at, ld["left_battle"])
            ev.update(change="left", leader_id=ld["id"], name=ld["name"], rank=ld["rank"], xp=ld["xp"],
                      status=ld["status"])
            add(group(at, ld["left_battle"], 3, ld["id"]), (-3, 0, -ld["id"]), ev)
    for a in rows.attribute_changes:
        # edits are shown when they were made, not with the battle they changed
        ev = base("attribute", a["id"], a["created_at"], a["battle"])
        ev["date"] = _date_part(a["created_at"])
        ev.update(field=a["field"], old=a["old_value"], new=a["new_value"], reason=a["reason"])
        # same second as its battle: after it (an edit cannot come before the battle it changes)
        number = battles_by_id[a["battle"]]["number"] if a["battle"] in battles_by_id else 0
        add((a["created_at"], number, 1 if number else 5, a["id"]), (-5, 0, -a["id"]), ev)

    # newest group first, in order inside a group: the order keys above are negated, so an ascending sort
    # on (group, -order), reversed, does it (the same as one stable sort of every event, then reversed)
    out_events: list[dict[str, Any]] = []
    first = itemgetter(0)
    for key in sorted(groups, reverse=True):
        members = groups[key]
        if len(members) == 1:
            out_events.append(members[0][1])
            continue
        members.sort(key=first)
        out_events.extend([m[1] for m in reversed(members)])
    battles_out.reverse()
    if text:
        for ev in out_events:
            event_text(ev)
    return {"platoon": {"id": rows.platoon["id"], "name": rows.platoon["name"],
                        "campaign": rows.campaign["name"], "xp": rows.platoon["xp"]},
            "battles": battles_out, "events": out_events}


def history(platoon: str | int, campaign: str | int | None = None) -> dict[str, Any]:
    """``{"platoon": {...}, "battles": [{..., "rolls": [...]}], "events": [...]}``, newest first.

    Every event has ``kind`` (battle, xp, leader, attribute, roll), ``id`` (of its row), ``at`` (when it was
    logged), ``date`` (the battle's date for battle events), ``battle_id``, ``battle_number`` and ``text``,
    plus the fields of its kind. Events of one battle stay together (battle, its rolls in order, XP changes,
    leader changes); edits show at the time they were made."""
    with _no_gc():
        return _build(_load(platoon, campaign))


def _fiction_when(battle: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """When something happened in the campaign's own time: in a battle -> "battle 3 (1960-08-02)"; between
    battles (a leader replaced by hand) -> "after battle 2 (1960-07-30)"; before the first battle -> "at the
    start". The day it was typed into the app is never shown as a campaign date."""
    if battle is not None:
        return f"battle {battle['number']} ({_iso(battle['date'])})"
    if after is None:
        return "at the start"
    return f"after battle {after['number']} ({_iso(after['date'])})"


def _leaders(rows: _Rows) -> list[dict[str, Any]]:
    battles_by_id = {b["id"]: b for b in rows.battles}
    led: dict[int, int] = {}
    for r in rows.rolls:
        if r["purpose"] == PURPOSE_LEADER and r["battle"] is not None and r["leader"] is not None:
            led[r["leader"]] = led.get(r["leader"], 0) + 1
    # the last battle each leader fought (their fate rolls): a leader who joined by hand, between battles,
    # joined after the last battle of those before him (none: at the start)
    fought: dict[int, int] = {}
    for r in rows.rolls:
        b = battles_by_id.get(r["battle"]) if r["battle"] is not None else None
        if r["purpose"] == PURPOSE_LEADER and b is not None and r["leader"] is not None:
            fought[r["leader"]] = max(fought.get(r["leader"], 0), b["number"])
    by_number = {b["number"]: b for b in rows.battles}
    last_so_far = 0
    out = []
    for ld in rows.leaders:
        jb = battles_by_id.get(ld["joined_battle"]) if ld["joined_battle"] else None
        lb = battles_by_id.get(ld["left_battle"]) if ld["left_battle"] else None
        joined = _fiction_when(jb, by_number.get(last_so_far))
        last_so_far = max(last_so_far, fought.get(ld["id"], 0), jb["number"] if jb else 0)
        left = "" if ld["status"] == "active" else _fiction_when(lb, by_number.get(last_so_far))
        out.append({
            "id": ld["id"], "name": ld["name"], "rank": ld["rank"], "status": ld["status"],
            "current": ld["status"] == "active",
            "how": "still in command" if ld["status"] == "active" else FATE_WORDS.get(ld["status"], "replaced"),
            "joined_at": _iso(ld["joined_at"]), "joined_battle": jb["number"] if jb else None,
            "joined_date": _iso(jb["date"]) if jb else _date_part(ld["joined_at"]),
            "left_at": _iso(ld["left_at"]), "left_battle": lb["number"] if lb else None,
            "left_date": _iso(lb["date"]) if lb else _date_part(ld["left_at"]),
            "joined": joined, "left": left,
            "battles_led": led.get(ld["id"], 0), "xp_at_join": ld["xp_at_join"], "xp": ld["xp"],
            "xp_gained": ld["xp"] - ld["xp_at_join"],
            "level": level_name(ld["xp"], rows.thresholds),
        })
    return out


def leaders_roll(platoon: str | int, campaign: str | int | None = None) -> list[dict[str, Any]]:
    """Every leader of the platoon, first first: dates and battles of joining and leaving, battles led
    (leader's fate rolls made), XP at joining, XP now (or when leaving), XP gained, and how they left."""
    return _leaders(_load(platoon, campaign))


def _summary(rows: _Rows) -> dict[str, Any]:
    bs = rows.battles
    count = {o: sum(1 for b in bs if b["outcome"] == o) for o in OUTCOMES}
    lost = [ld for ld in rows.leaders if ld["status"] in ("casualty", "promoted")]
    current = [ld for ld in rows.leaders if ld["status"] == "active"]
    awards = sum(x["delta"] for x in rows.xp_changes
                 if x["who"] == "platoon" and x["battle"] is not None and x["delta"] > 0)
    return {
        "platoon": rows.platoon["name"], "campaign": rows.campaign["name"], "xp": rows.platoon["xp"],
        "level": level_name(rows.platoon["xp"], rows.thresholds),
        "leader": current[-1]["name"] if current else None,
        "battles": len(bs), "victories": count["victory"], "defeats": count["defeat"], "draws": count["draw"],
        "unrecorded": sum(1 for b in bs if b["outcome"] is None),
        "total_wounds": sum(b["wounds"] for b in bs), "leader_wounds": sum(b["leader_wounds"] for b in bs),
        "xp_lost": sum(b["xp_lost"] for b in bs), "xp_awarded": awards,
        "leaders_lost": len(lost), "casualties": sum(1 for ld in lost if ld["status"] == "casualty"),
        "promotions": sum(1 for ld in lost if ld["status"] == "promoted"),
        "leaders": len(rows.leaders),
        "first_battle": _iso(bs[0]["date"]) if bs else None, "last_battle": _iso(bs[-1]["date"]) if bs else None,
    }


def campaign_summary(platoon: str | int, campaign: str | int | None = None) -> dict[str, Any]:
    """Battles, victories/defeats/draws, total wounds, XP lost to recovery, leaders lost (casualties and
    promotions), the platoon's XP and level now."""
    return _summary(_load(platoon, campaign))


def _xp_series(rows: _Rows) -> dict[str, Any]:
    joined_in = {ld["joined_battle"]: ld for ld in rows.leaders if ld["joined_battle"] is not None}
    leaders_by_id = {ld["id"]: ld for ld in rows.leaders}
    fate_leader = {r["battle"]: r["leader"] for r in rows.rolls
                   if r["purpose"] == PURPOSE_LEADER and r["battle"] is not None}
    points = []
    for b in rows.battles:
        rep = joined_in.get(b["id"])
        if b["leader_fate"] in ("casualty", "promoted"):
            leader_xp = rep["xp_at_join"] if rep else None
        else:
            leader_xp = b["leader_xp_after"]
        change = None
        if b["leader_fate"] in ("casualty", "promoted"):
            old = leaders_by_id.get(fate_leader.get(b["id"]))  # type: ignore[arg-type]
            change = {"fate": b["leader_fate"], "old": old["name"] if old else None,
                      "old_xp": b["leader_xp_after"], "new": rep["name"] if rep else None,
                      "new_xp": rep["xp_at_join"] if rep else None}
        points.append({"battle": b["number"], "battle_id": b["id"], "date": _iso(b["date"]),
                       "platoon_xp": b["platoon_xp_after"], "leader_xp": leader_xp, "leader_change": change})
    first = rows.battles[0] if rows.battles else None
    start = {"battle": 0, "platoon_xp": first["platoon_xp_before"] if first else rows.platoon["xp"],
             "leader_xp": first["leader_xp_before"] if first else None}
    if first is None:
        current = [ld for ld in rows.leaders if ld["status"] == "active"]
        start["leader_xp"] = current[-1]["xp"] if current else None
    return {"thresholds": list(rows.thresholds.as_tuple()), "levels": list(LEVELS), "start": start,
            "points": points}


def xp_series(platoon: str | int, campaign: str | int | None = None) -> dict[str, Any]:
    """Chart data: platoon and leader XP after each battle (``start`` = before the first), the level
    thresholds for the bands, and each leader change (``leader_change``: fate, old and new leader)."""
    return _xp_series(_load(platoon, campaign))


def _wounds_series(rows: _Rows) -> list[dict[str, Any]]:
    return [{"battle": b["number"], "battle_id": b["id"], "date": _iso(b["date"]), "wounds": b["wounds"],
             "leader_wounds": b["leader_wounds"], "xp_lost": b["xp_lost"]} for b in rows.battles]


def wounds_series(platoon: str | int, campaign: str | int | None = None) -> list[dict[str, Any]]:
    """Chart data: wound counters, those on the leader's element and XP lost to recovery, per battle."""
    return _wounds_series(_load(platoon, campaign))


def history_report(platoon: str | int, campaign: str | int | None = None, *,
                   lazy_text: bool = False) -> dict[str, Any]:
    """Everything about a platoon's campaign from one read (for the history view and the printed history
    report): ``history`` (battles, events), ``leaders``, ``summary``, ``xp_series``, ``wounds_series``.
    With ``lazy_text`` (the view) the events' ``text`` is left for :func:`event_text` (made per painted row)
    and a battle's ``rolls`` are its roll events themselves (the same keys and a few more), not copies."""
    with _no_gc():
        rows = _load(platoon, campaign)
        return {"history": _build(rows, text=not lazy_text), "leaders": _leaders(rows),
                "summary": _summary(rows), "xp_series": _xp_series(rows), "wounds_series": _wounds_series(rows)}


def events_csv(events: list[dict[str, Any]]) -> str:
    """Timeline events as CSV text (one row per event, :data:`CSV_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(CSV_COLUMNS), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for e in events:
        row = dict(e)
        if "faces" in row:
            row["faces"] = " ".join(str(f) for f in row["faces"])
        if e["kind"] == "xp" or e["kind"] == "leader":
            row["who"] = e.get("name")
        writer.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in CSV_COLUMNS})
    return out.getvalue()


def timeline_csv(platoon: str | int, campaign: str | int | None = None) -> str:
    """The platoon's timeline as CSV, newest first."""
    return events_csv(history(platoon, campaign)["events"])


def history_json(platoon: str | int, campaign: str | int | None = None) -> str:
    """The platoon's history (battles with rolls, and events) as JSON text."""
    return json.dumps(history(platoon, campaign), ensure_ascii=False, indent=1, default=str)


def export_history(platoon: str | int, path: Any, fmt: str = "csv") -> int:
    """Write the timeline to ``path`` as ``csv`` or ``json``; returns the number of events."""
    if fmt not in ("csv", "json"):
        raise ServiceError(f"export format must be csv or json, not {fmt!r}")
    data = history(platoon)
    text = events_csv(data["events"]) if fmt == "csv" else json.dumps(data, ensure_ascii=False, indent=1,
                                                                        default=str)
    from .. import fileio

    fileio.write_atomic(path, text, f"history.{fmt}")
    return len(data["events"])


__all__ = [
    "KINDS", "CSV_COLUMNS", "history", "leaders_roll", "campaign_summary", "xp_series", "wounds_series",
    "history_report", "timeline_csv", "history_json", "events_csv", "export_history", "event_text",
]
