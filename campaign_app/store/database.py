"""The one database entry point: :func:`init_db` opens a campaign file or a club server's database, and the
open database becomes :func:`.opened.current` (opening another replaces it).

A file is first checked cheaply and without creating anything beside it (:mod:`.file_checks`); one that fails is
refused untouched. Otherwise it is opened with ``foreign_keys=1``, WAL and a busy timeout
(:class:`~.file_engine.CampaignDatabase`), and if migrations are pending it is backed up first (the backup is
integrity-checked), migrated (:mod:`.migrate`) and, should a migration fail, put back from the backup. Once per
day of use it gets a ``daily`` backup (:mod:`.backups`). The full integrity check (:mod:`.check`) runs on demand
and before a backup or a migration, never at every open. A ``postgresql://`` address opens
:class:`~.server.ServerDatabase`, whose schema is built or upgraded the same way.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

from .. import __version__
from ..errors import CampaignError, StoreProblem
from ..paths import clean_target, is_server_url
from . import migrate
from .damage import DatabaseDamagedError as DatabaseDamagedError  # the damage mark, re-exported
from .damage import damage_of as damage_of
from .errors import DatabaseError, DatabaseTooNewError, MigrationFailedError
from .file_checks import _too_new, inspect_file, read_only_mode, schema_facts
from .file_engine import CampaignDatabase, busy_timeout_setting, translated
from .models import database_proxy
from .server import ServerDatabase

log = logging.getLogger(__name__)

db = database_proxy
"""Use ``db.atomic()`` in services; the real database is bound by :func:`init_db`."""


# ------------------------------------------------------------------------------------------------- open


def init_db(
    path: str | os.PathLike[str],
    backup_dir: str | os.PathLike[str] | None = None,
    *,
    busy_timeout: float | None = None,
    daily_backup: bool = True,
    password: str | None = None,
    reading: bool = False,
    upkeep: bool = True,
    known_schema: int | None = None,
) -> CampaignDatabase | ServerDatabase:
    """Open (creating if needed) the database at ``path``, migrate it, bind the models to it. ``path`` may be a
    ``postgresql://`` URL (:mod:`.server`; ``password`` is then used if the URL and libpq have none).

    With ``reading`` (a command that only reads), an existing, current file whose folder or file cannot be
    written, or whose disk is full, is opened read-only (``immutable`` when no ``-wal`` is in use), so that
    nothing is created beside it and the read succeeds.

    Without ``upkeep`` (the desktop window, which shows first) the file's upkeep is left to the caller, to run
    with :func:`upkeep` once the window has painted: removing half-written backup copies and the journal's
    budget (the daily backup is ``daily_backup``).

    ``known_schema`` (a server): the schema version this computer found there last time. When it is the app's
    own, the server is not asked at the open: the version is checked in front of the first message (no round
    trip of its own; another version refuses that message, nothing written: :class:`.server.SchemaChanged`)."""
    if is_server_url(path):
        return _init_server(
            clean_target(path),
            busy_timeout=busy_timeout_setting(busy_timeout),
            password=password,
            known_schema=known_schema,
        )
    db_file = Path(path)
    bdir = Path(backup_dir) if backup_dir else db_file.parent / "backups"
    timeout = busy_timeout_setting(busy_timeout)
    migrations = migrate.available_migrations()
    supported = len(migrations)
    if upkeep:
        _remove_stale_parts(bdir)
    existed = db_file.exists()
    read_only: str | None = None
    if existed:
        version = inspect_file(db_file, bdir)
        if version is not None and version > supported:
            raise _too_new(db_file, version, supported)
        if reading and version in (None, supported):
            read_only = read_only_mode(db_file)
    close_db()
    if read_only is not None:
        return _open_read_only(db_file, bdir, timeout, read_only, daily_backup)
    with translated(db_file):
        db_file.parent.mkdir(parents=True, exist_ok=True)
    database = CampaignDatabase(str(db_file), timeout, bdir)
    database_proxy.initialize(database)
    database.connect(reuse_if_open=True)
    try:
        with translated(db_file):
            version = schema_facts(database.connection(), db_file, bdir)
    except (DatabaseError, StoreProblem):
        database.close()
        raise
    if version > supported:
        database.close()
        raise _too_new(db_file, version, supported)
    pending = [m for m in migrations if m.number > version]
    made: Path | None = None
    if pending:
        from . import backups
    if pending and existed:
        # a full integrity check of the copy, then the upgrade; a damaged file is not upgraded
        made = backups.make_backup(database, db_file, bdir, reason="upgrade")
    if pending:
        try:
            migrate.migrate_file(database, pending, version, db_file)
        except Exception as exc:
            database.close()
            if made is None:
                raise
            backups.copy_database(made, db_file)
            raise MigrationFailedError(
                f"upgrading {db_file} to schema {supported} failed ({exc}); the file was put back as it was "
                f"from the backup {made} made just before"
            ) from exc
    _ensure_identity(database)
    if upkeep:
        _journal_budget(database)
    if not pending and daily_backup:
        from . import backups

        problems: list[str] = []
        backups.daily_backup(database, db_file, bdir, problems=problems)
        database.backup_problem = problems[0] if problems else None
    return database


def _open_read_only(db_file: Path, bdir: Path, timeout: float, mode: str, daily_backup: bool) -> CampaignDatabase:
    from . import backups

    database = CampaignDatabase(str(db_file), timeout, bdir, read_only=mode)
    database_proxy.initialize(database)
    try:
        database.connect(reuse_if_open=True)
        with translated(db_file):
            version = schema_facts(database.connection(), db_file, bdir)
    except (DatabaseError, StoreProblem):
        database.close()
        raise
    if version != migrate.schema_version_supported():  # pragma: no cover - read before, changed meanwhile
        database.close()
        raise DatabaseError(f"{db_file} changed while it was being opened; try again")
    if daily_backup:
        problems: list[str] = []
        backups.daily_backup(database, db_file, bdir, problems=problems)
        database.backup_problem = problems[0] if problems else None
    return database


def upkeep(database: CampaignDatabase | ServerDatabase | None = None) -> None:
    """What ``init_db(..., upkeep=False)`` left out, for the open file (no-op on a server or with none open):
    half-written backup copies are removed and the journal kept within its budget. Never raises for a busy or
    damaged file (left for the next time)."""
    database = database if database is not None else current_db()
    if not isinstance(database, CampaignDatabase) or database.is_closed():
        return
    _remove_stale_parts(database.backup_dir)
    _journal_budget(database)


def _remove_stale_parts(bdir: Path) -> None:
    from . import backups

    with contextlib.suppress(OSError):  # copies a killed program left half-written
        backups.remove_stale_parts(bdir)


def _journal_budget(database: CampaignDatabase) -> None:
    """The journal's lighter triggers on an older file, and folding what is beyond its budget (see
    :mod:`.journal_budget`). Never in the way of opening: a busy or damaged file is left for the next time."""
    from . import journal_budget
    from .damage import damage_of

    if damage_of(database.db_file) is not None:
        return
    try:
        journal_budget.ensure_triggers(database)
        journal_budget.fold_if_due()
    except (StoreProblem, CampaignError) as exc:
        log.warning("the journal of %s was not compacted: %s", database.db_file, exc)


def _ensure_identity(database: CampaignDatabase) -> None:
    """Give the file its random identity (``application_id``, see :mod:`.walcheck`) if it has none yet."""
    with translated(database.db_file):
        if int(database.execute_sql("PRAGMA application_id").fetchone()[0]):
            return
        import secrets

        from .damage import damage_of

        if damage_of(database.db_file) is not None:
            return
        with database.atomic():
            database.execute_sql(f"PRAGMA application_id = {secrets.randbelow(0x7FFFFFFE) + 1}")


def _init_server(url: str, *, busy_timeout: float, password: str | None, known_schema: int | None) -> ServerDatabase:
    """Open a campaign database on a PostgreSQL server, building or upgrading its schema if needed."""
    close_db()
    database = ServerDatabase(url, password=password, busy_timeout=busy_timeout)
    database.connect()
    database_proxy.initialize(database)
    supported = migrate.schema_version_supported()
    if known_schema == supported:
        database.expect_schema(supported)
        return database
    try:
        version = migrate.server_schema_version(database, fresh=True)
        if version > supported:
            raise DatabaseTooNewError(
                f"the campaign database {database.where} was made by a newer version of campaign_app (schema "
                f"{version}; this is version {__version__}, schema {supported}). Please update campaign_app."
            )
        if version < supported:
            migrate.migrate_server(database, supported)
    except BaseException:
        database.close()
        database_proxy.initialize(None)
        raise
    return database


def current_db() -> CampaignDatabase | None:
    """The open campaign *file* (``None`` when none is open, or when the campaign is on a server)."""
    obj = database_proxy.obj
    return obj if isinstance(obj, CampaignDatabase) else None


def close_db() -> None:
    current = database_proxy.obj
    if current is not None and not current.is_closed():
        current.close()
