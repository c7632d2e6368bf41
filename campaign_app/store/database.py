"""The one database entry point.

``init_db(path, backup_dir)`` refuses a file that is not an SQLite database, fails ``PRAGMA
integrity_check`` or was made by a newer campaign_app (naming the file and the newest backup, and never
touching it); otherwise it backs the file up, applies the pending numbered migrations of ``db/migrations/``
(playhouse.migrations), and opens it with ``foreign_keys=1`` and WAL.
"""

from __future__ import annotations

import datetime as _dt
import importlib.util
import logging
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from peewee import SqliteDatabase
from playhouse.migrate import SqliteMigrator

from .. import __version__
from ..resources import migrations_dir
from .models import MODELS, SchemaMigration, database_proxy

log = logging.getLogger(__name__)

db = database_proxy
"""Use ``db.atomic()`` in services; the real database is bound by :func:`init_db`."""

SQLITE_HEADER = b"SQLite format 3\x00"
KEEP_BACKUPS = 20
_MIGRATION_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.py$")


class DatabaseError(Exception):
    """Base class of the errors that keep a database from opening."""


class DatabaseOpenError(DatabaseError):
    """Not an SQLite database, or damaged. The file is left untouched."""


class DatabaseTooNewError(DatabaseError):
    """The file was written by a newer campaign_app. The file is left untouched."""


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    path: Path

    def load(self) -> ModuleType:
        spec = importlib.util.spec_from_file_location(f"campaign_app_migration_{self.number:04d}", self.path)
        if spec is None or spec.loader is None:  # pragma: no cover - only on a broken install
            raise DatabaseError(f"cannot load migration {self.path}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


def available_migrations(folder: Path | None = None) -> list[Migration]:
    folder = folder or migrations_dir()
    found = []
    for path in sorted(folder.iterdir()):
        m = _MIGRATION_FILE.match(path.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), path))
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise DatabaseError(f"migration scripts in {folder} are not numbered 1..n: {numbers}")
    return found


def schema_version_supported() -> int:
    return len(available_migrations())


def newest_backup(backup_dir: Path | None, db_file: Path) -> Path | None:
    if backup_dir is None or not backup_dir.is_dir():
        return None
    backups = sorted(backup_dir.glob(f"{db_file.stem}-*.db"))
    return backups[-1] if backups else None


def _backup_hint(backup_dir: Path | None, db_file: Path) -> str:
    newest = newest_backup(backup_dir, db_file)
    return f"The newest backup is {newest}." if newest else "No backup of it was found."


def _inspect(db_file: Path, backup_dir: Path | None) -> int:
    """Check an existing file read-only; return its applied schema version (0 for an empty database)."""
    with db_file.open("rb") as fh:
        header = fh.read(16)
    if header and header != SQLITE_HEADER:
        raise DatabaseOpenError(f"{db_file} is not a campaign_app database (not an SQLite file). "
                                f"It was left untouched. {_backup_hint(backup_dir, db_file)}")
    if not header:
        return 0
    try:
        con = sqlite3.connect(f"{db_file.as_uri()}?mode=ro", uri=True)
        try:
            rows = con.execute("PRAGMA integrity_check").fetchall()
            if rows != [("ok",)]:
                problems = "; ".join(str(r[0]) for r in rows[:3])
                raise DatabaseOpenError(f"{db_file} is damaged (integrity check: {problems}). It was left "
                                        f"untouched. {_backup_hint(backup_dir, db_file)}")
            has_table = con.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND "
                                    "name='schema_migration'").fetchone()
            if not has_table:
                other = con.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
                if other:
                    raise DatabaseOpenError(f"{db_file} is an SQLite file but not a campaign_app database. "
                                            f"It was left untouched. {_backup_hint(backup_dir, db_file)}")
                return 0
            version = con.execute("SELECT max(number) FROM schema_migration").fetchone()[0]
            return int(version or 0)
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise DatabaseOpenError(f"{db_file} cannot be read as a database ({exc}). It was left untouched. "
                                f"{_backup_hint(backup_dir, db_file)}") from exc


def backup_file(db_file: Path, backup_dir: Path, keep: int = KEEP_BACKUPS) -> Path:
    """Copy the database (WAL-safe, with SQLite's backup API) to ``<stem>-<timestamp>.db``."""
    backup_dir.mkdir(parents=True, exist_ok=True)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    target = backup_dir / f"{db_file.stem}-{stamp}.db"
    src = sqlite3.connect(f"{db_file.as_uri()}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    old = sorted(backup_dir.glob(f"{db_file.stem}-*.db"))
    for stale in old[:-keep] if keep > 0 else []:
        stale.unlink(missing_ok=True)
    log.info("backed up %s to %s", db_file, target)
    return target


def init_db(path: str | Path, backup_dir: str | Path | None = None) -> SqliteDatabase:
    """Open (creating if needed) the database at ``path``, migrate it, bind the models to it."""
    db_file = Path(path)
    bdir = Path(backup_dir) if backup_dir else db_file.parent / "backups"
    migrations = available_migrations()
    supported = len(migrations)
    version = _inspect(db_file, bdir) if db_file.exists() else 0
    if version > supported:
        raise DatabaseTooNewError(
            f"{db_file} was made by a newer version of campaign_app (schema {version}; this is version "
            f"{__version__}, schema {supported}). Please update campaign_app. The file was left untouched.")
    close_db()
    db_file.parent.mkdir(parents=True, exist_ok=True)
    if version < supported and db_file.exists() and db_file.stat().st_size > 0:
        backup_file(db_file, bdir)
    database = SqliteDatabase(str(db_file), pragmas={"foreign_keys": 1, "journal_mode": "wal",
                                                     "busy_timeout": 5000})
    database_proxy.initialize(database)
    database.connect(reuse_if_open=True)
    pending = [m for m in migrations if m.number > version]
    if pending:
        migrator = SqliteMigrator(database)
        if version == 0:
            database.create_tables([SchemaMigration], safe=True)
        for mig in pending:
            module = mig.load()
            # foreign keys off while a migration rebuilds tables; checked again afterwards
            database.execute_sql("PRAGMA foreign_keys=0")
            try:
                with database.atomic():
                    module.migrate(migrator, database)
                    SchemaMigration.create(number=mig.number, name=mig.name, app_version=__version__)
                bad = database.execute_sql("PRAGMA foreign_key_check").fetchall()
                if bad:
                    raise DatabaseError(f"migration {mig.number:04d} left broken references: {bad[:3]}")
            finally:
                database.execute_sql("PRAGMA foreign_keys=1")
            log.info("applied migration %04d_%s to %s", mig.number, mig.name, db_file)
    return database


def close_db() -> None:
    current = database_proxy.obj
    if current is not None and not current.is_closed():
        current.close()


@dataclass
class CheckReport:
    db_file: str
    problems: list[str] = field(default_factory=list)
    facts: dict[str, object] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, object]:
        return {"file": self.db_file, "ok": self.ok, "problems": list(self.problems), **self.facts}

    def text(self) -> str:
        lines = [f"Database: {self.db_file}"]
        lines += [f"  {k.replace('_', ' ')}: {v}" for k, v in self.facts.items()]
        if self.ok:
            lines.append("Result: OK, no problems found.")
        else:
            lines.append(f"Result: {len(self.problems)} problem(s):")
            lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


def check_database(database: SqliteDatabase) -> CheckReport:
    """Integrity check of an open database: SQLite's own checks plus the app's invariants."""
    report = CheckReport(db_file=str(database.database))
    rows = database.execute_sql("PRAGMA integrity_check").fetchall()
    if rows != [("ok",)]:
        report.problems += [f"integrity: {r[0]}" for r in rows]
    for table, rowid, parent, _fk in database.execute_sql("PRAGMA foreign_key_check").fetchall():
        report.problems.append(f"row {rowid} of {table} points to a missing {parent}")
    version = SchemaMigration.select().count()
    report.facts["schema_version"] = version
    report.facts["schema_supported"] = schema_version_supported()
    counts = {m._meta.table_name: m.select().count() for m in MODELS if m is not SchemaMigration}
    report.facts["rows"] = ", ".join(f"{k} {v}" for k, v in counts.items() if v)  or "none"
    for (platoon_id, name, n) in database.execute_sql(
            "SELECT p.id, p.name, count(l.id) FROM platoon p JOIN leader l ON l.platoon_id = p.id "
            "AND l.status = 'active' GROUP BY p.id HAVING count(l.id) > 1").fetchall():
        report.problems.append(f"platoon {name!r} (id {platoon_id}) has {n} active leaders")
    for (name, n_battles, top) in database.execute_sql(
            "SELECT p.name, count(b.id), max(b.number) FROM platoon p JOIN battle b ON b.platoon_id = p.id "
            "GROUP BY p.id HAVING count(b.id) != max(b.number)").fetchall():
        report.problems.append(f"platoon {name!r}: battle numbers have gaps ({n_battles} battles, "
                               f"highest number {top})")
    for (name, xp, after) in database.execute_sql(
            "SELECT p.name, p.xp, x.xp_after FROM platoon p JOIN xp_change x ON x.id = "
            "(SELECT max(id) FROM xp_change WHERE platoon_id = p.id AND who = 'platoon') "
            "WHERE p.xp != x.xp_after").fetchall():
        report.problems.append(f"platoon {name!r}: XP is {xp} but its last XP change says {after}")
    return report
