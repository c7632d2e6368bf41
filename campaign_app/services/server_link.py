"""The link to a club server beside the store's own connection (Qt-free): trying a login before the app
switches to it, listening for the operations other players make, and telling a lost connection from other
errors.

- :func:`probe` connects once with the login (and password) given and closes again, within libpq's
  ``connect_timeout``; it raises :class:`ServerUnavailable` (with the server's name and the reason),
  :class:`PasswordRequired` or :class:`ServerSupportMissing`. The connect dialog runs it off the GUI thread.
- :class:`ServerListener`: its own psycopg connection that ``LISTEN``\\s on the journal's channel; the server
  says ``NOTIFY campaign_app, '<operation id>'`` after each operation commits. :meth:`ServerListener.read`
  returns what arrived without waiting (the GUI calls it when the socket is readable).
- :func:`operation_changes` is what one operation touched (None when it is not visible or gone);
  :func:`own_session` the server process of this program's store connection (its own operations are not news).
- :class:`ServerSchemas`: the schema version each server had when ``campaign-cli`` last opened it, so that the
  next command opens without asking (the version is checked with its first message).
- :func:`lost_connection` turns an error that means "the server went away" (restarted, network gone) into one
  :class:`ServerUnavailable`; :func:`reset_connection` drops the dead connection so the next query reconnects.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from os import PathLike
from typing import TYPE_CHECKING, Any, cast

from ..errors import SERVER_SUPPORT_MESSAGE
from ..server_target import CONNECT_TIMEOUT, ServerSupportMissing, ServerTarget, ServerUnavailable
from ..store.journal import OpChanges

if TYPE_CHECKING:
    from ..store.server import ServerDatabase

log = logging.getLogger(__name__)

DEFAULT_CHANNEL = "campaign_app"


def channel() -> str:
    """The journal's NOTIFY channel (``store.journal.NOTIFY_CHANNEL``)."""
    from ..store import journal

    return str(getattr(journal, "NOTIFY_CHANNEL", DEFAULT_CHANNEL))


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise ServerSupportMissing(SERVER_SUPPORT_MESSAGE) from None
    return psycopg


def unavailable(target: ServerTarget, exc: BaseException) -> ServerUnavailable:
    """The store's error for a failed connection to ``target``, in the store's words (the sentences of
    :func:`campaign_app.store.server.server_problem`, which ``init_db`` gives too), naming the server as the
    window's title does."""
    from ..store.server import server_problem

    problem = server_problem(exc, target.display())
    if isinstance(problem, ServerUnavailable):
        return problem
    first = next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)
    return ServerUnavailable(f"cannot reach the campaign server {target.display()} ({first}); nothing was written")


def _connect(target: ServerTarget, password: str | None, **kwargs: Any) -> Any:
    psycopg = _psycopg()
    extra = dict(kwargs)
    if password:
        extra["password"] = password
    try:
        return psycopg.connect(target.url(timeout=True), **extra)
    except psycopg.Error as exc:
        raise unavailable(target, exc) from None


def probe(target: ServerTarget, password: str | None = None) -> None:
    """Connect once with this login and close again (within the URL's ``connect_timeout``, else
    :data:`CONNECT_TIMEOUT` seconds). Raises :class:`PasswordRequired`, :class:`ServerUnavailable` or
    :class:`ServerSupportMissing`; never logs the password."""
    conn = _connect(target, password)
    conn.close()


@dataclass(frozen=True)
class Notice:
    """One announcement: the server process that sent it and the operation id it names (None: not a number)."""

    session: int
    operation_id: int | None


class ServerListener:
    """``LISTEN campaign_app`` on a connection of its own. :meth:`open` connects, :meth:`fileno` is the socket to
    watch, :meth:`read` returns the notices that arrived (never waits). A dead connection raises
    :class:`ServerUnavailable` from :meth:`read`; :meth:`open` again to reconnect."""

    def __init__(self, target: ServerTarget, password: str | None = None) -> None:
        self.target = target
        self._password = password
        self.conn: Any = None

    @property
    def is_open(self) -> bool:
        return self.conn is not None and not self.conn.closed

    def open(self) -> None:
        self.close()
        conn = _connect(self.target, self._password, autocommit=True, application_name="campaign_app listener")
        try:
            conn.execute(f'LISTEN "{channel()}"')
        except Exception as exc:
            conn.close()
            raise unavailable(self.target, exc) from None
        self.conn = conn

    def fileno(self) -> int:
        if self.conn is None:
            return -1
        return int(self.conn.pgconn.socket)

    def read(self) -> list[Notice]:
        """The notices that have arrived, oldest first (an empty list when none)."""
        if self.conn is None:
            return []
        psycopg = _psycopg()
        pgconn = self.conn.pgconn
        try:
            pgconn.consume_input()
        except psycopg.Error as exc:
            self.close()
            raise unavailable(self.target, exc) from None
        if pgconn.status != psycopg.pq.ConnStatus.OK:
            self.close()
            raise unavailable(self.target, psycopg.OperationalError("the connection was lost"))
        found: list[Notice] = []
        while True:
            note = pgconn.notifies()
            if note is None:
                return found
            payload = note.extra.decode("utf-8", "replace").strip()
            found.append(Notice(int(note.be_pid), int(payload) if payload.isdigit() else None))

    def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # noqa: BLE001 - closing a dead connection: nothing to keep
                log.debug("closing the listener connection failed", exc_info=True)


# ------------------------------------------------------------------------------------------------ the store's link


def _db() -> Any:
    from ..store.database import db

    return db


def own_session() -> int | None:
    """The server process of the store's connection (operations it announces are this program's own); None
    where the open database announces nothing (a file)."""
    from ..store.opened import Capability, can

    if not can(Capability.ANNOUNCES):
        return None
    try:
        return int(_db().execute_sql("SELECT pg_backend_pid()").fetchone()[0])
    except Exception as exc:  # noqa: BLE001 - a lost connection: the caller treats every notice as news
        log.debug("pg_backend_pid failed: %s", exc)
        return None


class ChangeFeed:
    """What changed in the journal since this reader last asked (operations made, undone or redone by anyone
    this login can see). An announcement (NOTIFY) is only a hint to ask: a fake one costs one small query."""

    def __init__(self) -> None:
        from ..store.opened import require

        self.mark = require().newest_mark()

    def since_last(self) -> list[OpChanges]:
        from ..store.opened import require

        self.mark, found = require().changes_since(self.mark)
        return found


def operation_changes(op_id: int) -> OpChanges | None:
    """What operation ``op_id`` touched; None when this login cannot see it (or it is gone)."""
    from ..errors import NotFound
    from ..store.opened import require

    try:
        return require().operation_changes(op_id)
    except NotFound:
        return None


def lost_connection(exc: BaseException, target: ServerTarget | None) -> ServerUnavailable | None:
    """When ``exc`` says the server connection broke (the server restarted, the network went), the one
    :class:`ServerUnavailable` to show instead; None for any other error."""
    if isinstance(exc, ServerUnavailable):
        return exc
    if target is None:
        return None
    try:
        import psycopg
    except ImportError:
        return None
    import peewee

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, psycopg.OperationalError | psycopg.InterfaceError) or (
            isinstance(current, peewee.OperationalError | peewee.InterfaceError) and _broken()
        ):
            return unavailable(target, current)
        current = current.__cause__ or current.__context__
    return None


def _broken() -> bool:
    """Whether the store's server connection is closed or broken."""
    db = _db()
    obj = getattr(db, "obj", db)
    state = getattr(obj, "_state", None)
    conn = getattr(state, "conn", None)
    return conn is None or bool(getattr(conn, "closed", False)) or bool(getattr(conn, "broken", False))


def open_database() -> Any:
    """The bound database object (a thread that used it closes its own connection with ``close()``)."""
    db = _db()
    return getattr(db, "obj", db)


def thread_session() -> int | None:
    """The server process of the calling thread's connection as the driver knows it (no round trip); None on
    a file or before this thread connected."""
    state = getattr(open_database(), "_state", None)
    info = getattr(getattr(state, "conn", None), "info", None)
    pid = getattr(info, "backend_pid", None)
    return int(pid) if isinstance(pid, int) and pid else None


def reset_connection() -> None:
    """Drop the store's (dead) connection: the next query connects again."""
    db = _db()
    obj = getattr(db, "obj", db)
    state = getattr(obj, "_state", None)
    conn = getattr(state, "conn", None)
    try:
        if conn is not None:
            conn.close()
    except Exception:  # noqa: BLE001 - it is dead already
        log.debug("closing the dead connection failed", exc_info=True)
    try:
        obj.close()
    except Exception:  # noqa: BLE001 - peewee refuses to close inside a transaction: forget the connection
        if state is not None:
            state.reset()


__all__ = [
    "CONNECT_TIMEOUT",
    "Notice",
    "ServerListener",
    "channel",
    "lost_connection",
    "operation_changes",
    "open_database",
    "own_session",
    "thread_session",
    "probe",
    "reset_connection",
    "unavailable",
]


class ServerSchemas:
    """The schema version each club server had when this computer last opened it (``server_schemas.json`` in
    the data folder, keyed by ``login@host:port/db``, never a password). A command whose server had the app's own
    version opens it without asking (one round trip less); the version is checked with the first message, and a
    surprise forgets it here, so the next command asks (and upgrades or refuses) as a first open does."""

    FILE = "server_schemas.json"

    def __init__(self, data_dir: str | PathLike[str]) -> None:
        from pathlib import Path

        self.path = Path(data_dir) / self.FILE

    def _load(self) -> dict[str, int]:
        try:
            found = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): v for k, v in found.items() if isinstance(v, int)} if isinstance(found, dict) else {}

    def _save(self, known: dict[str, int]) -> None:
        import os

        try:
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(known, sort_keys=True), "utf-8")
            os.replace(tmp, self.path)
        except OSError:  # a read-only data folder: the next command asks the server again
            pass

    @staticmethod
    def key(target: str) -> str:
        from ..store.server import server_name

        return server_name(target)

    def get(self, target: str) -> int | None:
        from ..paths import is_server_url

        return self._load().get(self.key(target)) if is_server_url(target) else None

    def remember(self, target: str, database: object) -> None:
        from ..store.migrate import schema_version_supported

        key = self.key(target)
        supported = schema_version_supported()

        def forget() -> None:
            known = self._load()
            if known.pop(key, None) is not None:
                self._save(known)

        cast("ServerDatabase", database).on_schema_changed = forget  # a server engine: the caller asked
        known = self._load()
        if known.get(key) != supported:
            known[key] = supported
            self._save(known)


class RememberedNames:
    """The ids names gave on a club server (``server_names.json`` in the data folder, keyed by
    ``login@host:port/db``): a command that names a platoon it named before sends the remembered id with its first
    message, with the look-up's own query as a check (``names.confirm_platoon_id``), instead of asking first: one
    round trip less. A check that fails forgets this server's names and the command runs again with fresh look-ups."""

    FILE = "server_names.json"
    LIMIT = 200  # names kept per server (the oldest go first)

    def __init__(self, data_dir: str | PathLike[str], target: str) -> None:
        from pathlib import Path

        self.path = Path(data_dir) / self.FILE
        self.server = ServerSchemas.key(target)

    def _load(self) -> dict[str, Any]:
        try:
            found = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return found if isinstance(found, dict) else {}

    def _save(self, everything: dict[str, Any]) -> None:
        import os

        try:
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(everything, sort_keys=True), "utf-8")
            os.replace(tmp, self.path)
        except OSError:  # a read-only data folder: names are asked each time
            pass

    @staticmethod
    def _key(kind: str, campaign: str | None, name: str) -> str:
        return json.dumps([kind, campaign, name])

    def get(self, kind: str, campaign: str | None, name: str) -> int | None:
        mine = self._load().get(self.server)
        found = mine.get(self._key(kind, campaign, name)) if isinstance(mine, dict) else None
        return found if isinstance(found, int) and not isinstance(found, bool) else None

    def remember(self, kind: str, campaign: str | None, name: str, row_id: int) -> None:
        everything = self._load()
        mine = everything.get(self.server)
        mine = dict(mine) if isinstance(mine, dict) else {}
        key = self._key(kind, campaign, name)
        if mine.get(key) == row_id:
            return
        mine.pop(key, None)
        mine[key] = row_id
        while len(mine) > self.LIMIT:
            del mine[next(iter(mine))]
        everything[self.server] = mine
        self._save(everything)

    def forget(self) -> None:
        everything = self._load()
        if everything.pop(self.server, None) is not None:
            self._save(everything)
