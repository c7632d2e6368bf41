"""The numbered migrations of ``db/migrations/`` and their two runners: a file's (one transaction per
migration, foreign keys off for a table rebuild when the script asks) and a server's (a frozen baseline at
schema 4 for an empty database, then the shared migrations, in one transaction under the schema lock). Neither
records into the journal: converting stored rows is not a user's change."""

from __future__ import annotations

import importlib.util
import logging
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .. import __version__
from ..resources import migrations_dir
from .errors import DatabaseError, DatabaseOpenError
from .file_engine import CampaignDatabase
from .models import SchemaMigration
from .server import ServerDatabase

log = logging.getLogger(__name__)


# ------------------------------------------------------------------------------------------- migrations


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
    import re

    folder = folder or migrations_dir()
    pattern = re.compile(r"^(\d{4})_([a-z0-9_]+)\.py$")
    found = []
    for path in sorted(folder.iterdir()):
        m = pattern.match(path.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), path))
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise DatabaseError(f"migration scripts in {folder} are not numbered 1..n: {numbers}")
    return found


def schema_version_supported() -> int:
    return len(available_migrations())


def server_schema_version(database: ServerDatabase, *, fresh: bool = False) -> int:
    """The applied schema version of a server database (0 for an empty one); refuses a database that holds
    other tables. With ``fresh``, the version read with the session settings when the connection was made
    serves (no round trip); under the schema lock it is asked again."""
    known = database.fresh_schema_version() if fresh else None
    if known is not None:
        return known
    has = database.execute_sql("SELECT to_regclass('schema_migration') IS NOT NULL").fetchone()[0]
    if not has:
        other = database.execute_sql(
            "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
        ).fetchone()[0]
        if other:
            raise DatabaseOpenError(
                f"the database {database.where} holds other tables, so it is not a campaign "
                "database; it was left untouched (use an empty database for a campaign)"
            )
        return 0
    return int(database.execute_sql("SELECT COALESCE(MAX(number), 0) FROM schema_migration").fetchone()[0])


def migrate_server(database: ServerDatabase, supported: int) -> None:
    """Build (baseline at schema 4) or upgrade a server database in one transaction, holding the writers' lock
    so that two programs opening a new database at once do not both build it."""
    from playhouse.migrate import PostgresqlMigrator

    from . import journal

    migrator = PostgresqlMigrator(database)
    with database.atomic():
        database.lock_schema()
        version = server_schema_version(database)
        if version == 0:
            baseline = Migration(0, "postgresql", migrations_dir() / "postgresql_0004.py").load()
            baseline.migrate(migrator, database)
            for mig in available_migrations()[: baseline.VERSION]:
                SchemaMigration.create(number=mig.number, name=mig.name, app_version=__version__)
            version = baseline.VERSION
        for mig in available_migrations():
            if mig.number <= version:
                continue
            with journal.recording_off(database):
                mig.load().migrate(migrator, database)
            SchemaMigration.create(number=mig.number, name=mig.name, app_version=__version__)
            log.info("applied migration %04d_%s to %s", mig.number, mig.name, database.where)


def migrate_file(database: CampaignDatabase, pending: list[Migration], version: int, db_file: Path) -> None:
    from playhouse.migrate import SqliteMigrator  # only when migrating (~30 ms of imports at every start)

    migrator = SqliteMigrator(database)
    if version == 0:
        with database.atomic():
            database.create_tables([SchemaMigration], safe=True)
    for mig in pending:
        module = mig.load()
        fk_off = bool(getattr(module, "FOREIGN_KEYS_OFF", False))
        if fk_off:
            _set_foreign_keys(database, False)
        try:
            with database.atomic():
                # another program may have applied it while we waited for the write lock
                if SchemaMigration.get_or_none(SchemaMigration.number == mig.number) is not None:
                    continue
                from . import journal

                if journal.has_journal(database):  # converting stored rows is not a user's change
                    with journal.recording_off(database):
                        module.migrate(migrator, database)
                else:
                    module.migrate(migrator, database)
                SchemaMigration.create(number=mig.number, name=mig.name, app_version=__version__)
                bad = database.execute_sql("PRAGMA foreign_key_check").fetchall()
                if bad:
                    raise DatabaseError(f"migration {mig.number:04d} left broken references: {bad[:3]}")
        finally:
            if fk_off:
                _set_foreign_keys(database, True)
        log.info("applied migration %04d_%s to %s", mig.number, mig.name, db_file)


def _set_foreign_keys(database: CampaignDatabase, on: bool) -> None:
    """Switch foreign key enforcement (a migration that rebuilds tables declares ``FOREIGN_KEYS_OFF = True``,
    the first step of SQLite's documented table rebuild). SQLite ignores the pragma inside a transaction, so it
    is set between transactions and read back."""
    database.execute_sql(f"PRAGMA foreign_keys={1 if on else 0}")
    if bool(database.execute_sql("PRAGMA foreign_keys").fetchone()[0]) != on:  # pragma: no cover - in a transaction
        raise DatabaseError(f"cannot switch foreign keys {'on' if on else 'off'} for a migration")
