"""0004: stored keys become codes, and the database enforces what the code assumes.

What it does, in one transaction with foreign keys off (``FOREIGN_KEYS_OFF``; the runner checks
``PRAGMA foreign_key_check`` before committing):

1. **Codes instead of labels.** ``roll.purpose`` and ``roll.rule`` held the words shown to the user
   ("leader's fate", "RULES 1.2 recovery", "2.2 combat table"); they now hold the codes of
   ``campaign_app/rules/codes.py`` (``leader_fate``, ``aa.1.2.recovery``, ``sg.2.2.combat``), and
   ``sologear_sheet.end_reason`` ``turns used up``/``pilot dead``/``pilot captured`` become ``turns_used_up``/
   ``pilot_dead``/``pilot_captured`` (also inside ``sologear_turn.state_before``). The mapping below is frozen
   here (never imported from the app). A purpose or rule this version never wrote is left as it is (it is shown
   as stored).
2. **Constraints** (the tables are rebuilt the documented way: create, copy, drop, rename, re-index):
   ``battle.leader_xp_before``/``leader_xp_after`` are 0..32 or NULL; a roll has exactly one owner (an Atomic
   Africa platoon with its battle/leader, if any, or a Sologear sheet with its turn, if any); one Sologear sheet
   per campaign (unique index); at most one active leader per platoon (partial unique index);
   ``sologear_sheet.end_reason`` is one of the codes.
3. **One case rule for names**: ``campaign``, ``platoon`` and ``attached_unit`` get a ``name_key`` column
   (``store.models.name_key``: spaces collapsed, Unicode case folding; frozen here as :func:`_name_key`) that
   carries the unique indexes (campaign names; platoon names within a campaign; attached unit names within a
   platoon) in place of the old ones, which compared names exactly (campaign) or by ASCII case only.

Existing rows that break a new rule:

- names that are the same under the new rule (say "Über Front" and "über front", which the old ASCII-only
  comparison let through): the older row (lower id) keeps its name; each later one gets " (2)", " (3)", ... (the
  first number whose name is free) appended, and the rename is logged;
- more than one active leader in a platoon: the newest (highest id, the one the app showed as the leader) stays
  active; the others become ``replaced``, leaving when the newest joined;
- a battle whose leader XP is outside 0..32, a roll with no owner or two, two Sologear sheets in one campaign, or
  an end reason this version does not know: the upgrade is refused, naming the rows (the file is put back from
  the backup made before the upgrade); nothing is guessed.
"""

from __future__ import annotations

import json
import logging
import unicodedata
from typing import Any

FOREIGN_KEYS_OFF = True
"""Tables are rebuilt: the runner switches foreign keys off around this migration and checks them before the
commit."""

log = logging.getLogger(__name__)

PURPOSES = {
    "recovery": "recovery",
    "leader's fate": "leader_fate",
    "replacement leader": "replacement_leader",
    "force generation": "force_generation",
    "campaign length": "campaign_length",
    "repair time": "repair_time",
    "combat table": "combat",
    "Glory markers": "glory",
    "enemy quality": "enemy_quality",
    "light critical check": "light_critical",
    "battle length": "battle_length",
    "entry edge": "entry_edge",
    "noticed? (D66)": "noticed",
    "rewards roll": "rewards",
    "punishments roll": "punishments",
}
"""The purpose words versions before 0004 stored -> the code."""

RULES = {
    "RULES 1.2 award": "aa.1.2.award",
    "RULES 1.2 recovery": "aa.1.2.recovery",
    "RULES 1.2 leader's fate": "aa.1.2.leader_fate",
    "RULES 1.2 replacement leader": "aa.1.2.replacement",
    "RULES 1.3 force generation": "aa.1.3.force",
    "2.1 campaign length": "sg.2.1.length",
    "2.2 REP": "sg.2.2.repair",
    "2.2 combat table": "sg.2.2.combat",
    "2.2 Glory": "sg.2.2.glory",
    "2.2 enemy quality": "sg.2.2.enemy_quality",
    "2.2 hit on the way in (#)": "sg.2.2.hit",
    "2.2 battlefield": "sg.2.2.battlefield",
    "2.3 noticed": "sg.2.3.noticed",
    "2.3 rewards": "sg.2.3.rewards",
    "2.3 punishments": "sg.2.3.punishments",
    "2.3 rewards (variable)": "sg.2.3.rewards.variable",
    "2.3 punishments (variable)": "sg.2.3.punishments.variable",
}
"""The rule references versions before 0004 stored -> the code."""

END_REASONS = {
    "turns used up": "turns_used_up",
    "pilot dead": "pilot_dead",
    "pilot captured": "pilot_captured",
    "surrendered": "surrendered",
    "routed": "routed",
    "broke_through": "broke_through",
}
"""Sologear end reasons before 0004 -> the code (the last three were codes already)."""

NAMED = {"campaign": None, "platoon": "campaign_id", "attached_unit": "platoon_id"}
"""Tables with a ``name_key`` -> the column whose value is the scope a name is unique in (None: all rows)."""

TABLES: dict[str, tuple[str, list[str]]] = {
    "campaign": (
        'CREATE TABLE "campaign" ("id" INTEGER NOT NULL PRIMARY KEY, "name" TEXT NOT NULL, "name_key" TEXT NOT NULL, "system" TEXT NOT NULL CHECK (system IN (\'atomic_africa\', \'sologear\')), "period" INTEGER CHECK (period IS NULL OR period BETWEEN 1 AND 5), "threshold_green" INTEGER NOT NULL, "threshold_regular" INTEGER NOT NULL, "threshold_veteran" INTEGER NOT NULL, "threshold_legendary" INTEGER NOT NULL, "objective_xp_to" TEXT NOT NULL CHECK (objective_xp_to IN (\'both\', \'platoon\')), "replacement_dice" INTEGER NOT NULL CHECK (replacement_dice IN (1, 2)), "archived" INTEGER NOT NULL, "notes" TEXT NOT NULL, "created_at" DATETIME NOT NULL, CHECK (threshold_green >= 1 AND threshold_green < threshold_regular AND threshold_regular < threshold_veteran AND threshold_veteran < threshold_legendary AND threshold_legendary <= 32))',
        [
            'CREATE UNIQUE INDEX "campaign_name_key" ON "campaign" ("name_key")',
        ],
    ),
    "platoon": (
        'CREATE TABLE "platoon" ("id" INTEGER NOT NULL PRIMARY KEY, "campaign_id" INTEGER NOT NULL, "name" TEXT NOT NULL, "name_key" TEXT NOT NULL, "training" INTEGER NOT NULL CHECK (training IN (4, 6, 8, 10, 12)), "equipment" INTEGER NOT NULL CHECK (equipment IN (4, 6, 8, 10, 12)), "morale" INTEGER NOT NULL CHECK (morale IN (4, 6, 8, 10, 12)), "armor" INTEGER NOT NULL CHECK (armor BETWEEN 1 AND 5), "xp" INTEGER NOT NULL CHECK (xp BETWEEN 0 AND 32), "notes" TEXT NOT NULL, "created_at" DATETIME NOT NULL, FOREIGN KEY ("campaign_id") REFERENCES "campaign" ("id") ON DELETE CASCADE)',
        [
            'CREATE INDEX "platoon_campaign_id" ON "platoon" ("campaign_id")',
            'CREATE UNIQUE INDEX "platoon_campaign_id_name_key" ON "platoon" ("campaign_id", "name_key")',
        ],
    ),
    "attached_unit": (
        'CREATE TABLE "attached_unit" ("id" INTEGER NOT NULL PRIMARY KEY, "platoon_id" INTEGER NOT NULL, "name" TEXT NOT NULL, "name_key" TEXT NOT NULL, "kind" TEXT NOT NULL CHECK (kind IN (\'team\', \'vehicle\', \'fire_support\')), "training" INTEGER CHECK (training IS NULL OR training IN (4, 6, 8, 10, 12)), "equipment" INTEGER CHECK (equipment IS NULL OR equipment IN (4, 6, 8, 10, 12)), "morale" INTEGER CHECK (morale IS NULL OR morale IN (4, 6, 8, 10, 12)), "armor" INTEGER CHECK (armor IS NULL OR armor BETWEEN 1 AND 5), "support" TEXT CHECK (support IS NULL OR support IN (\'light\', \'medium\', \'heavy\')), "notes" TEXT NOT NULL, "position" INTEGER NOT NULL, FOREIGN KEY ("platoon_id") REFERENCES "platoon" ("id") ON DELETE CASCADE, CHECK ((kind = \'fire_support\' AND support IS NOT NULL) OR (kind != \'fire_support\' AND training IS NOT NULL AND equipment IS NOT NULL AND morale IS NOT NULL AND armor IS NOT NULL)))',
        [
            'CREATE INDEX "attached_unit_platoon_id" ON "attached_unit" ("platoon_id")',
            'CREATE UNIQUE INDEX "attached_unit_platoon_id_name_key" ON "attached_unit" ("platoon_id", "name_key")',
        ],
    ),
    "battle": (
        'CREATE TABLE "battle" ("id" INTEGER NOT NULL PRIMARY KEY, "platoon_id" INTEGER NOT NULL, "number" INTEGER NOT NULL, "date" DATE NOT NULL, "scenario" TEXT NOT NULL, "opponent" TEXT NOT NULL, "opponent_platoon_id" INTEGER, "outcome" TEXT CHECK (outcome IS NULL OR outcome IN (\'victory\', \'defeat\', \'draw\')), "objectives" INTEGER NOT NULL CHECK (objectives BETWEEN 0 AND 2), "fire_support" INTEGER NOT NULL, "notes" TEXT NOT NULL, "wounds" INTEGER NOT NULL CHECK (wounds >= 0), "leader_wounds" INTEGER NOT NULL CHECK (leader_wounds >= 0), "platoon_xp_before" INTEGER NOT NULL CHECK (platoon_xp_before BETWEEN 0 AND 32), "platoon_xp_after" INTEGER NOT NULL CHECK (platoon_xp_after BETWEEN 0 AND 32), "leader_xp_before" INTEGER CHECK (leader_xp_before IS NULL OR leader_xp_before BETWEEN 0 AND 32), "leader_xp_after" INTEGER CHECK (leader_xp_after IS NULL OR leader_xp_after BETWEEN 0 AND 32), "leader_fate" TEXT CHECK (leader_fate IS NULL OR leader_fate IN (\'casualty\', \'promoted\', \'stays\')), "xp_lost" INTEGER NOT NULL, "created_at" DATETIME NOT NULL, FOREIGN KEY ("platoon_id") REFERENCES "platoon" ("id") ON DELETE CASCADE, FOREIGN KEY ("opponent_platoon_id") REFERENCES "platoon" ("id") ON DELETE SET NULL)',
        [
            'CREATE INDEX "battle_platoon_id" ON "battle" ("platoon_id")',
            'CREATE INDEX "battle_opponent_platoon_id" ON "battle" ("opponent_platoon_id")',
            'CREATE UNIQUE INDEX "battle_platoon_id_number" ON "battle" ("platoon_id", "number")',
        ],
    ),
    "sologear_sheet": (
        'CREATE TABLE "sologear_sheet" ("id" INTEGER NOT NULL PRIMARY KEY, "campaign_id" INTEGER NOT NULL, "date" TEXT NOT NULL, "area" TEXT NOT NULL, "pilot" TEXT NOT NULL, "gear_name" TEXT NOT NULL, "gear_tv" INTEGER NOT NULL CHECK (gear_tv > 0), "player_unit" TEXT NOT NULL, "player_affiliation" TEXT NOT NULL, "enemy_unit" TEXT NOT NULL, "enemy_affiliation" TEXT NOT NULL, "length" INTEGER CHECK (length IS NULL OR length >= 1), "variable_tables" INTEGER NOT NULL, "ferocious" INTEGER NOT NULL, "reward_dice" TEXT NOT NULL, "gear_damaged" INTEGER NOT NULL, "short_ammo" INTEGER NOT NULL, "pilot_status" TEXT NOT NULL CHECK (pilot_status IN (\'active\', \'dead\', \'captured\')), "status" TEXT NOT NULL CHECK (status IN (\'active\', \'ended\')), "end_reason" TEXT CHECK (end_reason IS NULL OR end_reason IN (\'turns_used_up\', \'surrendered\', \'routed\', \'broke_through\', \'pilot_dead\', \'pilot_captured\')), "recognition" INTEGER, "noticed" INTEGER, "d66" INTEGER, "impression" INTEGER, "result_table" TEXT, "result" INTEGER, "outcome" TEXT, "notes" TEXT NOT NULL, "created_at" DATETIME NOT NULL, FOREIGN KEY ("campaign_id") REFERENCES "campaign" ("id") ON DELETE CASCADE)',
        [
            'CREATE UNIQUE INDEX "sologear_sheet_campaign_id" ON "sologear_sheet" ("campaign_id")',
        ],
    ),
    "roll": (
        'CREATE TABLE "roll" ("id" INTEGER NOT NULL PRIMARY KEY, "platoon_id" INTEGER, "battle_id" INTEGER, "leader_id" INTEGER, "sheet_id" INTEGER, "turn_id" INTEGER, "seq" INTEGER NOT NULL, "purpose" TEXT NOT NULL, "expression" TEXT NOT NULL, "faces" TEXT NOT NULL, "modifier" INTEGER NOT NULL, "total" INTEGER NOT NULL, "source" TEXT NOT NULL CHECK (source IN (\'app\', \'entered\')), "rule" TEXT NOT NULL, "table_row" TEXT, "outcome" TEXT NOT NULL, "created_at" DATETIME NOT NULL, FOREIGN KEY ("platoon_id") REFERENCES "platoon" ("id") ON DELETE CASCADE, FOREIGN KEY ("battle_id") REFERENCES "battle" ("id") ON DELETE CASCADE, FOREIGN KEY ("leader_id") REFERENCES "leader" ("id") ON DELETE SET NULL, FOREIGN KEY ("sheet_id") REFERENCES "sologear_sheet" ("id") ON DELETE CASCADE, FOREIGN KEY ("turn_id") REFERENCES "sologear_turn" ("id") ON DELETE CASCADE, CHECK ((platoon_id IS NOT NULL AND sheet_id IS NULL AND turn_id IS NULL) OR (sheet_id IS NOT NULL AND platoon_id IS NULL AND battle_id IS NULL AND leader_id IS NULL)))',
        [
            'CREATE INDEX "roll_platoon_id" ON "roll" ("platoon_id")',
            'CREATE INDEX "roll_battle_id" ON "roll" ("battle_id")',
            'CREATE INDEX "roll_leader_id" ON "roll" ("leader_id")',
            'CREATE INDEX "roll_sheet_id" ON "roll" ("sheet_id")',
            'CREATE INDEX "roll_turn_id" ON "roll" ("turn_id")',
        ],
    ),
}
"""The rebuilt tables: their schema and indexes as of 0004, exactly what ``store/models.py`` creates."""

LEADER_INDEX = (
    'CREATE UNIQUE INDEX "leader_one_active_per_platoon" ON "leader" ("platoon_id") WHERE ("status" = \'active\')'
)


class Refused(Exception):
    """Stored data breaks a new rule and cannot be mended without guessing."""


def _name_key(name: Any) -> str:
    text = " ".join(str(name).split())
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _rows(database: Any, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    return list(database.execute_sql(sql, params).fetchall())


def _columns(database: Any, table: str) -> list[str]:
    return [r[1] for r in _rows(database, f'PRAGMA table_info("{table}")')]


# --- refusals ----------------------------------------------------------------------------------------------


def _refusals(database: Any) -> list[str]:
    problems = []
    for pname, number, before, after in _rows(
        database,
        "SELECT p.name, b.number, b.leader_xp_before, b.leader_xp_after FROM battle b "
        "JOIN platoon p ON p.id = b.platoon_id WHERE b.leader_xp_before NOT BETWEEN 0 AND 32 "
        "OR b.leader_xp_after NOT BETWEEN 0 AND 32 ORDER BY p.id, b.number",
    ):
        problems.append(f"battle {number} of platoon {pname!r} has leader XP {before} \u2192 {after} (XP is 0..32)")
    bad_rolls = [
        r[0]
        for r in _rows(
            database,
            "SELECT id FROM roll WHERE NOT ((platoon_id IS NOT NULL AND sheet_id IS NULL AND turn_id IS NULL) "
            "OR (sheet_id IS NOT NULL AND platoon_id IS NULL AND battle_id IS NULL AND leader_id IS NULL)) "
            "ORDER BY id",
        )
    ]
    if bad_rolls:
        shown = ", ".join(map(str, bad_rolls[:10])) + (", ..." if len(bad_rolls) > 10 else "")
        what = "roll belongs" if len(bad_rolls) == 1 else f"{len(bad_rolls)} rolls belong"
        problems.append(f"{what} to no platoon or Sologear sheet, or to both (ids {shown})")
    for cname, n, ids in _rows(
        database,
        "SELECT c.name, count(s.id), group_concat(s.id, ', ') FROM sologear_sheet s "
        "JOIN campaign c ON c.id = s.campaign_id GROUP BY c.id HAVING count(s.id) > 1 ORDER BY c.id",
    ):
        problems.append(f"campaign {cname!r} has {n} Sologear sheets (ids {ids}); a campaign has one")
    known = set(END_REASONS)
    for cname, reason in _rows(
        database,
        "SELECT c.name, s.end_reason FROM sologear_sheet s JOIN campaign c ON c.id = s.campaign_id "
        "WHERE s.end_reason IS NOT NULL ORDER BY s.id",
    ):
        if reason not in known:
            problems.append(
                f"the Sologear campaign {cname!r} ended for a reason this version does not know ({reason!r})"
            )
    return problems


# --- deterministic repairs ---------------------------------------------------------------------------------


def _one_active_leader(database: Any) -> None:
    for platoon_id, pname in _rows(
        database,
        "SELECT p.id, p.name FROM platoon p WHERE (SELECT count(*) FROM leader l "
        "WHERE l.platoon_id = p.id AND l.status = 'active') > 1 ORDER BY p.id",
    ):
        leaders = _rows(
            database,
            "SELECT id, name, joined_at FROM leader WHERE platoon_id = ? AND status = 'active' ORDER BY id",
            (platoon_id,),
        )
        keep_id, keep_name, joined = leaders[-1]
        for lid, lname, _joined in leaders[:-1]:
            database.execute_sql(
                "UPDATE leader SET status = 'replaced', left_at = coalesce(left_at, ?) WHERE id = ?", (joined, lid)
            )
            log.warning(
                "platoon %r had more than one active leader: %r (id %s) is now replaced by %r (id %s)",
                pname,
                lname,
                lid,
                keep_name,
                keep_id,
            )


def _codes(database: Any) -> None:
    for column, mapping in (("purpose", PURPOSES), ("rule", RULES)):
        changed = {old: new for old, new in mapping.items() if old != new}
        cases = " ".join("WHEN ? THEN ?" for _ in changed)
        marks = ", ".join("?" for _ in changed)
        params = [x for pair in changed.items() for x in pair] + list(changed)
        database.execute_sql(
            f"UPDATE roll SET {column} = CASE {column} {cases} END WHERE {column} IN ({marks})", params
        )  # one pass over the rolls per column
    for old, new in END_REASONS.items():
        if old != new:
            database.execute_sql("UPDATE sologear_sheet SET end_reason = ? WHERE end_reason = ?", (new, old))
    for turn_id, state in _rows(database, "SELECT id, state_before FROM sologear_turn WHERE state_before IS NOT NULL"):
        converted = convert_state(state)
        if converted != state:
            database.execute_sql("UPDATE sologear_turn SET state_before = ? WHERE id = ?", (converted, turn_id))


def convert_state(text: str | None) -> str | None:
    """A ``sologear_turn.state_before`` JSON text with its ``end_reason`` converted."""
    if not text:
        return text
    try:
        state = json.loads(text)
    except ValueError:
        return text
    if isinstance(state, dict) and state.get("end_reason") in END_REASONS:
        state["end_reason"] = END_REASONS[state["end_reason"]]
        return json.dumps(state)
    return text


def convert_row(table: str, row: dict[str, Any]) -> dict[str, Any]:
    """One stored row (a dict of column -> value, e.g. a journal image) converted to the 0004 schema: codes,
    and ``name_key`` for the named tables. Unknown values are kept."""
    out = dict(row)
    if table == "roll":
        if out.get("purpose") in PURPOSES:
            out["purpose"] = PURPOSES[out["purpose"]]
        if out.get("rule") in RULES:
            out["rule"] = RULES[out["rule"]]
    elif table == "sologear_sheet":
        if out.get("end_reason") in END_REASONS:
            out["end_reason"] = END_REASONS[out["end_reason"]]
    elif table == "sologear_turn":
        if isinstance(out.get("state_before"), str):
            out["state_before"] = convert_state(out["state_before"])
        elif isinstance(out.get("state_before"), dict) and out["state_before"].get("end_reason") in END_REASONS:
            out["state_before"] = {**out["state_before"], "end_reason": END_REASONS[out["state_before"]["end_reason"]]}
    if table in NAMED and "name" in out:
        out["name_key"] = _name_key(out["name"])
    return out


def _free_name(name: str, taken: set[str]) -> str:
    n = 2
    while _name_key(f"{name} ({n})") in taken:
        n += 1
    return f"{name} ({n})"


def _name_keys(database: Any, table: str) -> None:
    """Fill ``name_key`` of the (new) table; a name that is the same as an older one's is renamed."""
    scope = NAMED[table]
    select = f'SELECT id, name, {scope or "NULL"} FROM "{table}" ORDER BY id'
    seen: dict[Any, set[str]] = {}
    for row_id, name, where in _rows(database, select):
        taken = seen.setdefault(where, set())
        key = _name_key(name)
        if key in taken:
            new_name = _free_name(name, taken)
            log.warning(
                "%s %r (id %s) has the same name as an older one; renamed %r",
                table.replace("_", " "),
                name,
                row_id,
                new_name,
            )
            name, key = new_name, _name_key(new_name)
            database.execute_sql(f'UPDATE "{table}" SET name = ? WHERE id = ?', (name, row_id))
        taken.add(key)
        database.execute_sql(f'UPDATE "{table}" SET name_key = ? WHERE id = ?', (key, row_id))


# --- the table rebuilds -------------------------------------------------------------------------------------


def _rebuild(database: Any, table: str) -> None:
    """https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema Changes": create the new
    table, copy the rows, drop the old one, rename the new one, create its indexes (foreign keys are off). An empty
    table (a new database) is simply dropped and created anew."""
    create, indexes = TABLES[table]
    if not database.execute_sql(f'SELECT EXISTS (SELECT 1 FROM "{table}")').fetchone()[0]:
        database.execute_sql(f'DROP TABLE "{table}"')  # nothing to copy (a new database): create it anew
        database.execute_sql(create)
        for index in indexes:
            database.execute_sql(index)
        return
    temp = f"{table}__new"
    old_columns = _columns(database, table)
    database.execute_sql(create.replace(f'CREATE TABLE "{table}"', f'CREATE TABLE "{temp}"', 1))
    new_columns = _columns(database, temp)
    copied = [c for c in new_columns if c in old_columns]
    values = [f'"{c}"' for c in copied]
    targets = list(values)
    if "name_key" in new_columns and "name_key" not in old_columns:
        targets.append('"name_key"')
        values.append('"name"')  # a placeholder, set by _name_keys before the unique index exists
    database.execute_sql(f'INSERT INTO "{temp}" ({", ".join(targets)}) SELECT {", ".join(values)} FROM "{table}"')
    database.execute_sql(f'DROP TABLE "{table}"')
    database.execute_sql(f'ALTER TABLE "{temp}" RENAME TO "{table}"')
    if table in NAMED:
        _name_keys(database, table)
    for index in indexes:
        database.execute_sql(index)


# --- the journal (migration 0003) ---------------------------------------------------------------------------


def _has_journal(database: Any) -> bool:
    return bool(
        database.execute_sql(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'operation_change')"
        ).fetchone()[0]
    )


def _journal_images(database: Any) -> None:
    """The before/after images of the journal's recorded changes, converted like the rows themselves (codes,
    ``name_key``), so undoing or redoing an operation recorded before this upgrade writes the new codes and finds
    the rows as they are now."""
    tables = ("roll", "sologear_sheet", "sologear_turn", *NAMED)
    marks = ", ".join("?" for _ in tables)
    for change_id, table, old, new in _rows(
        database, f"SELECT id, table_name, old, new FROM operation_change WHERE table_name IN ({marks})", tables
    ):
        images = []
        for text in (old, new):
            if text is None:
                images.append(None)
                continue
            image = json.loads(text)
            converted = convert_row(table, image)
            images.append(text if converted == image else json.dumps(converted, ensure_ascii=False))
        if images != [old, new]:
            database.execute_sql("UPDATE operation_change SET old = ?, new = ? WHERE id = ?", (*images, change_id))


def migrate(migrator: Any, database: Any) -> None:
    problems = _refusals(database)
    if problems:
        raise Refused(
            "the database holds data the new version does not allow: " + "; ".join(problems) + ". Nothing was changed"
        )
    journal = _has_journal(database)
    if journal:  # re-created from the new schema at the end; renaming a table re-reads every trigger
        for (name,) in _rows(
            database, "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'journal\\_%' ESCAPE '\\'"
        ):
            database.execute_sql(f'DROP TRIGGER "{name}"')
    _one_active_leader(database)
    _codes(database)
    for table in TABLES:
        _rebuild(database, table)
    database.execute_sql(LEADER_INDEX)
    if journal:
        from campaign_app.store.journal import install_triggers

        _journal_images(database)
        install_triggers(database)  # the rebuilt tables lost theirs; the named ones have a new column
