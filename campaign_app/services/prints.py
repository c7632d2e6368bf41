"""Printouts that know when they are stale.

Each printable thing of a campaign is a *subject*: one platoon's Unit Data Sheet or history report, a Sologear
campaign's forms, a campaign's play-aid cards (its house rules), standings or chronicle. A subject's *data* is
exactly what its PDF builder is given; its *fingerprint* is a hash of that data, and its *facts* a few readable
values (the dice, the XP, the leader, the battles...) kept to say in words what changed.

When a printout is made (``print_pdf``, the print dialog), every subject in it is remembered in ``print_record``
(one journaled operation): the fingerprint, the facts, the journal position the printout reflects and the options
to print it again. A remembered printout is **stale** when the fingerprint of what it would print now differs from
the one it printed: a change that is undone (or changed back) makes it current again. Only the newest printout of
each subject counts.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..store.database import db
from ..store.journal import operation
from ..store.models import Campaign, Platoon, PrintRecord, SologearSheet, SologearTurn
from .common import NotFound, ServiceError, iso_text, resolve_campaign
from .edits import Edit
from .results import Result

KIND_WORDS = {
    "sheet": "Unit Data Sheet",
    "history": "history report",
    "sologear": "Sologear forms",
    "cards": "play-aid cards",
    "standings": "standings",
    "chronicle": "chronicle",
}
PER_PLATOON = ("sheet", "history")
PER_CAMPAIGN = ("cards", "standings", "chronicle")


def plain_data(value: Any) -> Any:
    """Printable data as plain JSON-ready values (dataclasses, tuples, dates...)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        to_dict = getattr(value, "to_dict", None)
        if callable(to_dict):
            return plain_data(to_dict())
        return {f.name: plain_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): plain_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_data(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


LAYOUT_OPTIONS = frozenset({"paper", "qr"})
"""Options that change how a printout looks, not what it says (left out of its fingerprint)."""


def fingerprint(data: Any, options: dict[str, Any] | None = None) -> str:
    said = {k: v for k, v in (options or {}).items() if k not in LAYOUT_OPTIONS}
    text = json.dumps(plain_data([data, said]), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class Subject(Result):
    """One printable thing and what it prints now."""

    kind: str
    campaign_id: int
    platoon_id: int | None
    sheet_id: int | None
    campaign: str
    title: str
    fingerprint: str
    facts: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, int, int | None, int | None]:
        return (self.kind, self.campaign_id, self.platoon_id, self.sheet_id)


def _die(n: int | None) -> str:
    return "" if n is None else f"d{n}"


def _battles_of(platoon_id: int) -> list[str]:
    rows = db.execute_sql("SELECT number FROM battle WHERE platoon_id = ? ORDER BY number", (platoon_id,))
    return [f"battle {int(r[0])}" for r in rows.fetchall()]


def sheet_facts(data: Any, platoon_id: int) -> dict[str, Any]:
    """The readable facts of a Unit Data Sheet (``printing.unit_sheet.UnitSheet``)."""
    leader = data.leader
    return {
        "Name": data.name,
        "Training": _die(data.training),
        "Equipment": _die(data.equipment),
        "Morale": _die(data.morale),
        "Armor": str(data.armor),
        "XP": str(data.xp),
        "Leader": f"{leader.rank} {leader.name}".strip() if leader else "none",
        "Leader XP": str(leader.xp) if leader else "",
        "Weapons": ", ".join(w.name for w in data.weapons),
        "Attached": ", ".join(a.name for a in data.attached),
        "Notes": data.notes,
        "Former leaders": ", ".join(data.former_leaders),
        "Thresholds": "/".join(str(x) for x in dataclasses.astuple(data.thresholds)),
        "battles": _battles_of(platoon_id),
    }


def subject(
    kind: str,
    *,
    campaign: int | None = None,
    platoon: int | None = None,
    sheet: int | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[Subject, Any]:
    """The subject ``kind`` of a platoon, sheet or campaign (by id) and the data its PDF is built from now."""
    from . import printing

    opts = dict(options or {})
    if kind in PER_PLATOON:
        if platoon is None:
            raise ServiceError(f"a {KIND_WORDS[kind]} belongs to a platoon")
        p = Platoon.get_or_none(Platoon.id == platoon)
        if p is None:
            raise NotFound(f"no platoon with id {platoon}")
        camp = Campaign.get_by_id(p.campaign_id)
        if kind == "sheet":
            data: Any = printing.unit_sheet_data(p.id)
            facts: dict[str, Any] = sheet_facts(data, p.id)
            title = f"Unit Data Sheet: {p.name}"
        else:
            data = printing.history_data(p.id)
            s = data.summary
            facts = {
                "XP": str(s.xp),
                "Leader": s.leader or "none",
                "Wounds": str(s.total_wounds),
                "XP lost": str(s.xp_lost),
                "Leaders lost": str(s.leaders_lost),
                "Changes by hand": str(len(data.changes)),
                "battles": _battles_of(p.id),
            }
            title = f"History report: {p.name}"
        return Subject(kind, camp.id, p.id, None, camp.name, title, fingerprint(data, opts), facts, opts), data
    if kind == "sologear":
        found = SologearSheet.get_or_none(SologearSheet.id == sheet) if sheet is not None else None
        if found is None:
            raise NotFound(f"no Sologear sheet with id {sheet}")
        camp = Campaign.get_by_id(found.campaign_id)
        data = printing.sologear_data(found.id)
        turns = SologearTurn.select().where(SologearTurn.sheet == found.id).count()
        facts = {
            "Pilot": found.pilot,
            "Turns": str(turns),
            "Status": found.status,
            "Recognition": "" if found.recognition is None else str(found.recognition),
        }
        return Subject(
            kind,
            camp.id,
            None,
            found.id,
            camp.name,
            f"Sologear forms: {found.pilot}",
            fingerprint(data, opts),
            facts,
            opts,
        ), data
    if kind in PER_CAMPAIGN:
        if campaign is None:
            raise ServiceError(f"{KIND_WORDS[kind]} belong to a campaign")
        camp = resolve_campaign(campaign)
        if kind == "cards":
            data = printing.card_rules(camp.id)
            facts = {k: str(v) for k, v in plain_data(data).items() if k != "extra"}
            selection = {"decks": list(opts.get("decks", ())), "cards": list(opts.get("cards", ()))}
            return Subject(
                kind,
                camp.id,
                None,
                None,
                camp.name,
                f"Play-aid cards: {camp.name}",
                fingerprint(data, selection),
                facts,
                opts,
            ), data
        if kind == "standings":
            from .standings import standings

            table = standings(camp.id)
            data = printing.standings_data(table)
            facts = {
                p.platoon: f"{p.battles} battles, {p.victories}-{p.draws}-{p.defeats}, {p.xp} XP"
                for p in table.platoons
            }
            facts.update(
                {
                    " \u2013 ".join(h.platoons): f"{h.a_victories}\u2013{h.b_victories}"
                    + (f" ({h.disagreements} disputed)" if h.disagreements else "")
                    for h in table.head_to_head
                }
            )
            facts.update({p.pilot: f"{p.turns} turns, recognition {p.recognition}" for p in table.pilots})
            return Subject(
                kind, camp.id, None, None, camp.name, f"Standings: {camp.name}", fingerprint(data, opts), facts, opts
            ), data
        from .chronicle import chronicle

        story = chronicle(camp.id)
        data = printing.chronicle_data(story)
        facts = {"items": [f"{it.date} {it.headline}" for it in story.items]}
        facts.update({f"Report of {it.date} {it.headline}": it.report for it in story.items if it.report})
        return Subject(
            kind, camp.id, None, None, camp.name, f"Chronicle: {camp.name}", fingerprint(data, opts), facts, opts
        ), data
    raise ServiceError(f"nothing called {kind!r} is remembered when printed")


# --------------------------------------------------------------------------------------------- remember

PRINT_KIND = "print.record"


def position() -> int:
    """The journal position a printout made now reflects: the clock of the newest change, undo or redo of the
    data (remembering a printout is not a change of what it prints, so printing twice gives the same stamp)."""
    row = db.execute_sql("SELECT MAX(id), MAX(undo_seq) FROM operation WHERE kind <> ?", (PRINT_KIND,)).fetchone()
    return max(int(row[0] or 0), int(row[1] or 0)) if row else 0


@dataclass(frozen=True)
class Remembered(Result):
    """Printouts remembered: how many rows, and the journal position they reflect."""

    records: int
    position: int


def remember(subjects: Sequence[Subject]) -> Edit[dict[str, Any]]:
    """Remember that ``subjects`` were printed now (one operation; nothing when the list is empty). The Edit's
    summary is :class:`Remembered`'s JSON."""
    if not subjects:  # blank forms print without a database: nothing to read, nothing to write
        return Edit("print_record", 0, "nothing to remember", Remembered(records=0, position=0).to_dict())
    at = position()
    campaigns = {s.campaign_id for s in subjects}
    label = f"Print {KIND_WORDS[subjects[0].kind]}" if len({s.kind for s in subjects}) == 1 else "Print"
    label += (
        ": " + ", ".join(s.title.split(": ", 1)[-1] for s in subjects[:3]) + ("\u2026" if len(subjects) > 3 else "")
    )
    with operation(
        PRINT_KIND,
        label,
        campaign=next(iter(campaigns)) if len(campaigns) == 1 else None,
        platoon=subjects[0].platoon_id if len(subjects) == 1 else None,
    ) as op:
        first = 0
        for s in subjects:
            rec = PrintRecord.create(
                campaign=s.campaign_id,
                platoon=s.platoon_id,
                sheet=s.sheet_id,
                kind=s.kind,
                title=s.title[:200],
                position=at,
                fingerprint=s.fingerprint,
                snapshot={"facts": s.facts, "options": s.options},
            )
            first = first or int(rec.id)
    return Edit(
        "print_record",
        first,
        f"remembered {len(subjects)} printout{'s' if len(subjects) != 1 else ''}",
        Remembered(records=len(subjects), position=at).to_dict(),
        op,
    )


# ---------------------------------------------------------------------------------------------- stale


@dataclass(frozen=True)
class PrintState(Result):
    """A remembered printout and whether it is out of date."""

    id: int
    kind: str
    title: str
    platoon_id: int | None
    sheet_id: int | None
    printed_at: str | None
    position: int
    stale: bool
    changes: tuple[str, ...]
    """What changed since, in words (empty when current)."""
    gone: bool = False
    """Its platoon or sheet no longer exists."""
    options: dict[str, Any] = field(default_factory=dict, metadata={"json": False})

    def notice(self) -> str:
        """ "printed sheet out of date: 2 changes since (battle 5, Training d8 → d10)"."""
        word = {
            "sheet": "printed sheet",
            "history": "printed history report",
            "sologear": "printed forms",
            "cards": "printed cards",
            "standings": "printed standings",
            "chronicle": "printed chronicle",
        }[self.kind]
        n = len(self.changes)
        if n == 0:
            return f"{word} out of date"
        shown = ", ".join(self.changes[:4]) + (", \u2026" if n > 4 else "")
        return f"{word} out of date: {n} change{'s' if n != 1 else ''} since ({shown})"


_SKIP_AFTER_BATTLES = frozenset({"XP", "Leader", "Leader XP", "Former leaders", "Wounds", "XP lost", "Leaders lost"})


def describe(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What changed between two sets of facts, in words: each battle logged or undone since, then each fact
    that differs ("Training d8 → d10"; a long text: "Notes changed"). Consequences of a battle (XP, the leader)
    are not repeated beside it."""
    out = []
    added: list[str] = []
    removed: list[str] = []
    for key in ("battles", "items"):
        before, after = [str(x) for x in old.get(key, [])], [str(x) for x in new.get(key, [])]
        added += [x for x in after if x not in before]
        removed += [x for x in before if x not in after]
    out += added + [f"{x} removed" if x[:1].isdigit() else f"{x} undone" for x in removed]
    skip = {"battles", "items"} | (_SKIP_AFTER_BATTLES if added or removed else set())
    keys = list(dict.fromkeys([*old, *new]))
    for key in keys:
        if key in skip or old.get(key) == new.get(key):
            continue
        a, b = str(old.get(key, "") or "\u2013"), str(new.get(key, "") or "\u2013")
        if max(len(a), len(b)) <= 32 and "\n" not in a + b:
            out.append(f"{key} {a} \u2192 {b}")
        else:
            out.append(f"{key} changed")
    return out


def _latest_records(campaign_id: int, platoon: int | None = None) -> list[PrintRecord]:
    query = PrintRecord.select().where(PrintRecord.campaign == campaign_id)
    if platoon is not None:
        query = query.where(PrintRecord.platoon == platoon)
    latest: dict[tuple[str, int | None, int | None], PrintRecord] = {}
    for rec in query.order_by(PrintRecord.id):
        latest[(rec.kind, rec.platoon_id, rec.sheet_id)] = rec
    return sorted(latest.values(), key=lambda r: r.id)


def print_states(campaign: int, *, platoon: int | None = None) -> list[PrintState]:
    """Every remembered printout of a campaign (the newest of each subject), current or stale."""
    camp = resolve_campaign(campaign)
    out = []
    for rec in _latest_records(camp.id, platoon):
        snap = rec.snapshot or {}
        options = dict(snap.get("options") or {})
        try:
            now, _data = subject(
                rec.kind, campaign=camp.id, platoon=rec.platoon_id, sheet=rec.sheet_id, options=options
            )
        except NotFound:
            out.append(
                PrintState(
                    rec.id,
                    rec.kind,
                    rec.title,
                    rec.platoon_id,
                    rec.sheet_id,
                    iso_text(rec.printed_at),
                    int(rec.position),
                    True,
                    ("deleted since",),
                    gone=True,
                    options=options,
                )
            )
            continue
        stale = now.fingerprint != rec.fingerprint
        changes = tuple(describe(dict(snap.get("facts") or {}), now.facts)) if stale else ()
        out.append(
            PrintState(
                rec.id,
                rec.kind,
                rec.title,
                rec.platoon_id,
                rec.sheet_id,
                iso_text(rec.printed_at),
                int(rec.position),
                stale,
                changes,
                options=options,
            )
        )
    return out


def stale_prints(campaign: int) -> list[PrintState]:
    """The remembered printouts of a campaign that are out of date."""
    return [s for s in print_states(campaign) if s.stale]


def platoon_notices(platoon_id: int) -> list[str]:
    """The platoon page's notices: one line per stale printout of the platoon."""
    p = Platoon.get_or_none(Platoon.id == platoon_id)
    if p is None:
        return []
    return [s.notice() for s in print_states(p.campaign_id, platoon=platoon_id) if s.stale and not s.gone]


def stale_sheet_platoons(campaign: int | None = None) -> dict[int, tuple[str, ...]]:
    """The platoons (of one campaign, or of all) whose last printed Unit Data Sheet is out of date, with what
    changed: File ▸ Print's "only what changed since the last print"."""
    if campaign is not None:
        ids = [resolve_campaign(campaign).id]
    else:
        ids = sorted(
            {
                int(r[0])
                for r in db.execute_sql("SELECT DISTINCT campaign_id FROM print_record WHERE kind = 'sheet'").fetchall()
            }
        )
    out: dict[int, tuple[str, ...]] = {}
    for cid in ids:
        for state in print_states(cid):
            if state.kind == "sheet" and state.stale and not state.gone and state.platoon_id is not None:
                out[state.platoon_id] = state.changes
    return out
