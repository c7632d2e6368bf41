"""The open database: one object for the campaign database the program works on (as Anki's ``Collection`` or
TagStudio's ``Library``).

:func:`current` is the :class:`OpenDatabase` of the database :func:`~.database.init_db` opened last; opening
another replaces it. It owns the **engine** (a campaign file, :class:`~.file_engine.CampaignDatabase`, or a club
server, :class:`~.server.ServerDatabase`), and through it the login, the rights checks, the data version and
the "what changed since journal mark N" feed (:meth:`OpenDatabase.changes_since`). Both engines implement the
small :class:`Engine` interface; what differs between them is asked as a capability ("can this database keep
backups here?", :meth:`OpenDatabase.can`), never as "which engine is it?". Code outside ``store/`` asks only
through this object.

Per connection it remembers what cannot change under it: the login, and (on a server) whether the club's rules
are installed. Qt-free.
"""

from __future__ import annotations

import enum
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import Refused
from .models import database_proxy

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .check import CheckReport
    from .file_engine import CampaignDatabase
    from .journal import OpChanges
    from .server import ServerDatabase


class Capability(enum.Enum):
    """What a database can or cannot do, asked instead of "is it a server?"."""

    BACKUP = "backup"
    """Copies in the backup folder beside it, restore from one, SQLite's page check in the background (a file)."""
    COMPACT = "compact"
    """The journal's budget is kept here: compact, forget a deleted campaign (a file; a server keeps its own)."""
    CLUB_RULES = "club rules"
    """The club's rules are installed: players own platoons and sheets, organisers run campaigns, row-level
    security judges each row (a club server after ``server init``)."""
    SEVERAL_LOGINS = "several logins"
    """Several logins work on it at once, and each operation names its login (a server)."""
    ANNOUNCES = "announces"
    """Other programs' operations are announced as they commit (LISTEN/NOTIFY); a file is polled instead."""
    SHARED_CONNECTION = "shared connection"
    """One connection can serve several threads in turn (a server's: a window keeps one; SQLite's connections stay
    with the thread that made them)."""


class Engine(Protocol):
    """What each engine class implements (:class:`~.file_engine.CampaignDatabase`,
    :class:`~.server.ServerDatabase`), besides peewee's own database interface."""

    where: str
    """The database as a person names it: the file's path, ``ana@club.example.org:5432/league``."""

    def login(self) -> str:
        """Who is connected: the system login on a file, the server login (``session_user``) on a server."""
        ...

    def begin_write(self) -> None:
        """First step of every write transaction (a file an integrity check found damaged refuses here)."""
        ...

    def set_open(self, op_id: int | None) -> None:
        """Mark ``op_id`` as the operation the journal's triggers record into (``None``: none is open)."""
        ...

    def data_version(self) -> int:
        """A number that moves when another connection commits."""
        ...

    def check(self) -> CheckReport:
        """The integrity check: the engine's own and the app's invariants."""
        ...

    def can(self, capability: Capability) -> bool: ...

    def reading(self) -> AbstractContextManager[Any]:
        """One consistent read transaction (a deferred one of a file, a repeatable-read one on a server)."""
        ...

    def insert_returning_id(self, sql: str, params: list[Any]) -> int:
        """Run an ``INSERT`` of one row and return the new row's id."""
        ...

    def read_together(self, statements: Sequence[tuple[str, Any]]) -> list[tuple[Any, list[Any]]]:
        """Run several reads (``(sql, params)``; each one ``SELECT``) and return each one's ``(description,
        rows)``: a file runs them one by one, a server sends them in one message (:mod:`.batch`)."""
        ...

    def write_row(self, table: str, values: dict[str, Any], ref: Any) -> Any:
        """Insert one row (column values); its id (a file, at once) or ``ref`` (a server: sent with the next
        message, :class:`.batch.RowRef`)."""
        ...

    def update_row(self, table: str, row_id: Any, values: dict[str, Any]) -> None:
        """Update one row by id (a server: sent with the next message)."""
        ...

    def expect(self, sql: str, params: Any) -> None:
        """The guard of :func:`.batch.expect` (a file: now; a server: in front of the next message)."""
        ...

    def defer_handled(self, sql: str, params: Any, handler: Any, *, refuses: bool = False) -> None:
        """A read whose rows go to ``handler``: a file runs it now, a server with the next message."""
        ...

    def check_with_next_message(self, sql: str, params: Any, handler: Any) -> None:
        """A check whose rows go to ``handler``, which may refuse: a file runs it now; a server sends it in front
        of the next message, in a transaction or not, and raises the refusal once that message is answered (a
        message that would commit outside a transaction waits for it)."""
        ...

    def changed_rows(self) -> int:
        """This connection's count of rows changed so far (0 where the engine's data version moves with this
        program's writes too)."""
        ...

    def is_closed(self) -> bool: ...

    # the journal's recording: the app's tables and their columns, the triggers, a migration's quiet
    def table_columns(self, table: str) -> list[tuple[str, str]]: ...

    def app_table_names(self) -> list[str]: ...

    def has_journal(self) -> bool: ...

    def recording_off(self) -> AbstractContextManager[None]: ...

    def install_journal_triggers(self) -> None: ...

    def execute_sql(self, sql: str, params: Any = None) -> Any: ...


class NotAvailable(Refused):
    """The open database cannot do this (a file's backup on a club server...); nothing was changed."""


class OpenDatabase:
    """The campaign database the program works on (see the module's text)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def __repr__(self) -> str:
        return f"<OpenDatabase {self.where}>"

    @property
    def where(self) -> str:
        return self.engine.where

    def login(self) -> str:
        """Who is connected (asked of the engine once per connection)."""
        return self.engine.login()

    def can(self, capability: Capability) -> bool:
        return self.engine.can(capability)

    def reading(self) -> AbstractContextManager[Any]:
        return self.engine.reading()

    def insert_returning_id(self, sql: str, params: list[Any]) -> int:
        return self.engine.insert_returning_id(sql, params)

    def check(self) -> CheckReport:
        return self.engine.check()

    def changes_since(self, mark: int) -> tuple[int, list[OpChanges]]:
        """The change feed: what was made, undone or redone after journal mark ``mark`` that this login can
        see, oldest first, and the mark to ask with next time."""
        from .journal_read import changes_since

        return changes_since(mark)

    def operation_changes(self, op_id: int) -> OpChanges:
        """What operation ``op_id`` touched (:class:`~.journal.NotJournaled` when this login cannot see it)."""
        from .journal_read import operation_changes

        return operation_changes(op_id)

    def newest_mark(self) -> int:
        """The journal's clock now (see :func:`~.journal_read.newest_id`)."""
        from .journal_read import newest_id

        return newest_id()

    def data_version(self) -> int | None:
        """A number that moves when another connection commits (``None`` once closed)."""
        if self.engine.is_closed():
            return None
        return self.engine.data_version()

    def stamp(self) -> tuple[int, str, int]:
        """Which database is open and its data version: a cached read is still good while this is equal (and
        this program made no change meanwhile). A closed connection is reopened, as by any query."""
        return (id(self.engine), self.where, self.engine.data_version())

    def write_stamp(self) -> tuple[int, str, int, int]:
        """:meth:`stamp` and this connection's count of changed rows: it moves with every write, this
        program's and another's."""
        return (*self.stamp(), self.engine.changed_rows())

    def file(self, refusal: str) -> CampaignDatabase:
        """The open campaign file, for what only a file's engine does (its backups, its journal's budget):
        ``refusal`` is the one line said (:class:`NotAvailable`) when the database is not a file."""
        from .file_engine import CampaignDatabase

        if not isinstance(self.engine, CampaignDatabase):
            raise NotAvailable(refusal)
        return self.engine


_opened: OpenDatabase | None = None


def current() -> OpenDatabase | None:
    """The open database, or ``None`` when none is open. It follows the engine the models are bound to, so
    opening another database (or a test binding one) replaces it."""
    global _opened
    engine = database_proxy.obj
    if engine is None:
        return None
    if _opened is None or _opened.engine is not engine:
        _opened = OpenDatabase(engine)
    return _opened


def require() -> OpenDatabase:
    """The open database; refuses (one line) when none is open."""
    found = current()
    if found is None:
        raise NotAvailable("no database is open")
    return found


def can(capability: Capability) -> bool:
    """Whether the open database can do this (False when none is open)."""
    found = current()
    return found is not None and found.can(capability)


def journal_on_server(database: Any = None) -> bool:
    """Inside ``store/`` only: whether the journal of ``database`` (default: the open one) is kept by a server's
    own functions (:mod:`.journal_pg`) rather than by this program's triggers and replay."""
    engine = database if database is not None else database_proxy.obj
    return bool(getattr(engine, "server_journal", False))


def data_version() -> int | None:
    """The open database's data version (it moves when another connection commits), ``None`` when none is open
    or it is closed."""
    found = current()
    return found.data_version() if found is not None else None


def data_stamp() -> tuple[int, str, int] | None:
    """:meth:`OpenDatabase.stamp` of the open database, ``None`` when none is open."""
    found = current()
    return found.stamp() if found is not None else None


def write_stamp() -> tuple[int, str, int, int] | None:
    """:meth:`OpenDatabase.write_stamp` of the open database, ``None`` when none is open."""
    found = current()
    return found.write_stamp() if found is not None else None


if TYPE_CHECKING:  # mypy proves that both engine classes implement the interface

    def _both_engines(file: CampaignDatabase, server: ServerDatabase) -> tuple[Engine, Engine]:
        return file, server
