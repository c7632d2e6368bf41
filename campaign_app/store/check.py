"""The integrity check (``campaign-cli check``, the window's background check, before a backup or a
migration): SQLite's full ``PRAGMA integrity_check`` and foreign keys on a file, the app's own invariants on
both engines, and the club's rules on a server. Damage SQLite's check finds marks the file damaged
(:mod:`.damage`)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .file_engine import CampaignDatabase, translated
from .migrate import schema_version_supported
from .models import MODELS, SchemaMigration, name_key
from .opened import Engine
from .server import ServerDatabase


def integrity_problems(con: sqlite3.Connection, limit: int = 20) -> list[str]:
    """SQLite's full ``PRAGMA integrity_check`` (reads every page): its findings, empty when ok."""
    rows = con.execute(f"PRAGMA integrity_check({int(limit)})").fetchall()
    return [] if rows == [("ok",)] else [str(r[0]) for r in rows]


# ------------------------------------------------------------------------------------------------ check


@dataclass
class CheckReport:
    db_file: str
    problems: list[str] = field(default_factory=list)
    facts: dict[str, object] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, object]:
        return {"file": self.db_file, "ok": self.ok, "problems": list(self.problems), **self.facts}

    def text(self) -> str:
        """The report in the user's words (no table or column names)."""
        lines = [f"Database: {self.db_file}"]
        if "schema_version" in self.facts:
            lines.append(
                f"  Format version: {self.facts['schema_version']} "
                f"(this app reads up to {self.facts.get('schema_supported')})"
            )
        if self.counts:
            shown = [_counted(n, table) for table, n in self.counts.items() if n and table in _ROW_WORDS]
            lines.append(f"  Contents: {', '.join(shown) if shown else 'empty'}")
        if self.ok:
            lines.append("Result: OK, no problems found.")
        else:
            n = len(self.problems)
            lines.append(f"Result: {n} {'problem' if n == 1 else 'problems'}:")
            lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


_ROW_WORDS: dict[str, tuple[str, str]] = {
    "campaign": ("campaign", "campaigns"),
    "platoon": ("platoon", "platoons"),
    "battle": ("battle", "battles"),
    "leader": ("leader", "leaders"),
    "attached_unit": ("attached unit", "attached units"),
    "equipment": ("heavy weapon", "heavy weapons"),
    "roll": ("roll", "rolls"),
    "sologear_sheet": ("Sologear sheet", "Sologear sheets"),
    "sologear_turn": ("Sologear turn", "Sologear turns"),
}


def _counted(n: int, table: str) -> str:
    one, many = _ROW_WORDS[table]
    return f"{n} {one if n == 1 else many}"


def check_connection(con: sqlite3.Connection, db_file: str) -> CheckReport:
    """Integrity check over a plain sqlite3 connection (read-only is enough): SQLite's own full check, the
    foreign keys, and the app's invariants. Used by :func:`check_database` and the GUI's background check."""
    report = CheckReport(db_file=db_file)
    try:
        report.problems += [f"integrity: {p}" for p in integrity_problems(con)]
    except sqlite3.DatabaseError as exc:
        report.problems.append(f"integrity: {exc}")
        return report
    try:
        for table, rowid, parent, _fk in con.execute("PRAGMA foreign_key_check").fetchall():
            report.problems.append(f"row {rowid} of {table} points to a missing {parent}")
        columns = {
            t: {r[1] for r in con.execute(f'PRAGMA table_info("{t}")')}
            for t in ("campaign", "platoon", "attached_unit")
        }
        check_invariants(lambda sql: con.execute(sql).fetchall(), report, columns)
    except sqlite3.DatabaseError as exc:
        report.problems.append(f"cannot read the tables: {exc}")
    return report


def check_invariants(rows: Callable[[str], list[Any]], report: CheckReport, columns: dict[str, set[str]]) -> None:
    """The app's own invariants, on either engine (``rows(sql)`` runs a query; ``columns`` are the name
    tables' columns, to tell schemas before 4)."""
    version = rows("SELECT count(*) FROM schema_migration")[0][0]
    report.facts["schema_version"] = version
    report.facts["schema_supported"] = schema_version_supported()
    counts = {}
    for m in MODELS:
        if m is SchemaMigration:
            continue
        table = m._meta.table_name
        counts[table] = int(rows(f'SELECT count(*) FROM "{table}"')[0][0])
    report.facts["rows"] = ", ".join(f"{k} {v}" for k, v in counts.items() if v) or "none"
    report.counts = counts
    for platoon_id, name, n in rows(
        "SELECT p.id, p.name, count(l.id) FROM platoon p JOIN leader l ON l.platoon_id = p.id "
        "AND l.status = 'active' GROUP BY p.id, p.name HAVING count(l.id) > 1"
    ):
        report.problems.append(f"platoon {name!r} (id {platoon_id}) has {n} active leaders")
    for name, n_battles, top in rows(
        "SELECT p.name, count(b.id), max(b.number) FROM platoon p JOIN battle b ON b.platoon_id = p.id "
        "GROUP BY p.id, p.name HAVING count(b.id) != max(b.number)"
    ):
        report.problems.append(
            f"platoon {name!r}: battle numbers have gaps ({n_battles} battles, highest number {top})"
        )
    for name, xp, after in rows(
        "SELECT p.name, p.xp, x.xp_after FROM platoon p JOIN xp_change x ON x.id = "
        "(SELECT max(id) FROM xp_change WHERE platoon_id = p.id AND who = 'platoon') "
        "WHERE p.xp != x.xp_after"
    ):
        report.problems.append(f"platoon {name!r}: XP is {xp} but its last XP change says {after}")
    for table, what in (("campaign", "campaign"), ("platoon", "platoon"), ("attached_unit", "attached unit")):
        if "name_key" not in columns.get(table, set()):
            continue  # a schema before 4 (read-only check of an old file)
        for row_id, name, key in rows(f'SELECT id, name, name_key FROM "{table}"'):
            if key != name_key(name):
                report.problems.append(
                    f"{what} {name!r} (id {row_id}) has a stale name key (written by another "
                    "program?); names may not be found or kept apart"
                )


def check_server(database: ServerDatabase) -> CheckReport:
    """The check of a server database: the app's invariants (the server looks after its own pages and
    enforces the foreign keys itself)."""
    report = CheckReport(db_file=database.where)

    def rows(sql: str) -> list[Any]:
        return list(database.execute_sql(sql).fetchall())

    columns = {t: {c for c, _ in _server_columns(database, t)} for t in ("campaign", "platoon", "attached_unit")}
    check_invariants(rows, report, columns)
    from .club_server import rules_problems

    report.problems.extend(rules_problems(database))
    return report


def _server_columns(database: ServerDatabase, table: str) -> list[tuple[str, str]]:
    from .journal import _columns

    return _columns(database, table)


def check_database(database: Engine) -> CheckReport:
    """The integrity check of an open database, file or server (:meth:`.opened.Engine.check`)."""
    return database.check()


def check_open_file(database: CampaignDatabase) -> CheckReport:
    """The file engine's check: SQLite's own checks plus the app's invariants."""
    db_file = database.db_file
    with translated(db_file):
        report = check_connection(database.connection(), str(db_file))
    _record_damage(db_file, report)
    return report


def _record_damage(db_file: Path, report: CheckReport) -> None:
    """Damage SQLite's own check found marks the file damaged (writes refused, :mod:`.damage`); a clean check
    lifts an old mark."""
    from .damage import record_check

    record_check(db_file, [p for p in report.problems if p.startswith(("integrity:", "cannot read the tables"))])


def check_file(db_file: str | os.PathLike[str]) -> CheckReport:
    """The same check over a separate read-only connection (for a background thread)."""
    path = Path(db_file)
    con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
    try:
        with translated(path):
            report = check_connection(con, str(path))
    finally:
        con.close()
    _record_damage(path, report)
    return report
