"""The journal's budget and forgetting: on a campaign file here; a club server folds and forgets with its own
SQL functions (:mod:`.journal_pg`, ``campaign_app_compact`` and ``campaign_app_forget``), called from here.

The journal stores less (:mod:`.journal`'s triggers): an insert records no row image (the row is in its table;
undo writes its image into the journal just before it deletes the row, for a redo), an update only the columns
it changed; a delete keeps the whole row. Undo and redo stay exact.

On top of that the journal has a budget: an operation beyond the newest ``keep`` (default 1,000,
``CAMPAIGN_APP_JOURNAL_KEEP``) or older than ``days`` (default 90, ``CAMPAIGN_APP_JOURNAL_DAYS``; 0: no age
limit) is *folded*: its row images are dropped, its summary stays (kind, label, who, when, undone or not), so
the history still says who did what and when, but it can no longer be undone or redone (the Undo list and the
CLI say so; :attr:`~.journal.OperationInfo.folded`). Folding runs by itself when a file is opened and something
is due (:func:`fold_if_due`), and by hand with ``campaign-cli journal compact`` (:func:`compact`), which also
gives the freed pages back to the file system (VACUUM) and reports what it freed.

:func:`forget_deleted` removes what the journal holds of a deleted campaign (``campaign delete --forget``):
every recorded image of its rows, over each row's life in this file, and the operations about it; the delete
operation stays as a summary that names nothing. It runs in the delete's own transaction with
``secure_delete`` on, so the text is overwritten, not merely unlinked; the write-ahead log is then emptied.

Everything here is one transaction: a kill leaves the journal as it was or as it is after.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import Refused
from .journal import START_KIND, utc_now
from .journal_pg import DEFAULT_DAYS, DEFAULT_KEEP, MAX_DAYS, MAX_KEEP
from .journal_pg import FORGOTTEN_LABEL as FORGOTTEN_LABEL  # the summary a forgotten deletion keeps
from .models import database_proxy as db

ENV_KEEP = "CAMPAIGN_APP_JOURNAL_KEEP"
ENV_DAYS = "CAMPAIGN_APP_JOURNAL_DAYS"


def _setting(value: Any, env: str, default: int, low: int, high: int, what: str) -> int:
    raw = value if value is not None else os.environ.get(env)
    if raw is None or raw == "":
        return default
    try:
        number = int(str(raw).strip()) if not isinstance(raw, int) or isinstance(raw, bool) else raw
    except ValueError:
        raise Refused(f"{what} must be a whole number, not {raw!r}") from None
    if isinstance(number, bool) or not low <= number <= high:
        raise Refused(f"{what} must be between {low} and {high:,}, not {raw!r}")
    return int(number)


def keep_setting(value: Any = None) -> int:
    """How many of the newest operations keep their row images (undoable): ``value``, else
    ``CAMPAIGN_APP_JOURNAL_KEEP``, else 1,000."""
    return _setting(value, ENV_KEEP, DEFAULT_KEEP, 1, MAX_KEEP, "the number of operations to keep undoable")


def days_setting(value: Any = None) -> int:
    """Operations older than this many days are folded (0: no age limit): ``value``, else
    ``CAMPAIGN_APP_JOURNAL_DAYS``, else 90."""
    return _setting(value, ENV_DAYS, DEFAULT_DAYS, 0, MAX_DAYS, "the number of days")


@dataclass(frozen=True)
class Compacted:
    """What :func:`compact` (or :func:`fold`) did."""

    folded: int
    """Operations folded now (their row images dropped)."""
    records: int
    """Change records removed."""
    keep: int
    days: int
    bytes_before: int = 0
    bytes_after: int = 0
    vacuumed: bool = False

    @property
    def freed(self) -> int:
        return max(0, self.bytes_before - self.bytes_after)

    @property
    def message(self) -> str:
        kept = f"the newest {self.keep:,} operations"
        age = f", none older than {self.days} days" if self.days else ""
        if not self.folded:
            text = f"nothing to fold: {kept} keep what undo needs{age}"
        else:
            ops = "operation" if self.folded == 1 else "operations"
            text = (
                f"folded {self.folded:,} older {ops} into the history ({self.records:,} change records "
                f"dropped; they stay listed but can no longer be undone); {kept} stay undoable{age}"
            )
        if self.vacuumed:
            text += (
                f"; the file went from {_size(self.bytes_before)} to {_size(self.bytes_after)} "
                f"({_size(self.freed)} freed)"
            )
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "folded": self.folded,
            "records": self.records,
            "keep": self.keep,
            "days": self.days,
            "bytes_before": self.bytes_before,
            "bytes_after": self.bytes_after,
            "freed": self.freed,
            "vacuumed": self.vacuumed,
        }


@dataclass(frozen=True)
class CampaignCompacted:
    """What :func:`compact_server` did to one campaign's journal on a server."""

    campaign: str
    folded: int
    records: int
    keep: int
    days: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign,
            "folded": self.folded,
            "records": self.records,
            "keep": self.keep,
            "days": self.days,
        }


@dataclass(frozen=True)
class ServerCompacted:
    """``journal compact`` on a server: each campaign the login organises (or the one named), folded by its own
    budget; the server gives the space back by itself (autovacuum)."""

    campaigns: tuple[CampaignCompacted, ...]

    @property
    def folded(self) -> int:
        return sum(c.folded for c in self.campaigns)

    @property
    def records(self) -> int:
        return sum(c.records for c in self.campaigns)

    @property
    def message(self) -> str:
        lines = []
        for c in self.campaigns:
            age = f", none older than {c.days} days" if c.days else ""
            budget = f"the newest {c.keep:,} operations stay undoable{age}"
            if c.folded:
                ops = "operation" if c.folded == 1 else "operations"
                lines.append(
                    f"{c.campaign}: folded {c.folded:,} older {ops} into the history ({c.records:,} change "
                    f"records dropped; they stay listed but can no longer be undone); {budget}"
                )
            else:
                lines.append(f"{c.campaign}: nothing to fold; {budget}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"folded": self.folded, "records": self.records, "campaigns": [c.to_dict() for c in self.campaigns]}


def _server_call(sql: str, params: tuple[Any, ...]) -> dict[str, Any]:
    """One call of a journal function of the server's, its refusals as the app's errors (one line)."""
    import json

    import peewee

    from .journal import _server_refusal

    try:
        row = db.execute_sql(sql, params).fetchone()
    except (peewee.DatabaseError, Refused) as exc:
        refused = _server_refusal(exc)
        if refused is exc:
            raise
        raise refused from exc
    return dict(json.loads(row[0]))


def compact_server(campaign: int | None = None, keep: Any = None, days: Any = None) -> ServerCompacted:
    """``journal compact`` on a server (``campaign_app_compact``, :mod:`.journal_pg`): fold the operations of
    ``campaign`` (default: every campaign the login organises) beyond its budget. ``keep`` and ``days``, when
    given, become the campaign's budget first. The server refuses a campaign the login does not organise."""
    n_keep = None if keep is None else keep_setting(keep)
    n_days = None if days is None else days_setting(days)
    if campaign is None:
        from . import access

        sql = (
            "SELECT c.id, c.name FROM campaign c WHERE c.id IN (SELECT club_campaigns_organised()) ORDER BY c.name_key"
            if access.rules_installed()
            else "SELECT c.id, c.name FROM campaign c ORDER BY c.name_key"
        )
        targets = [(int(i), str(n)) for i, n in db.execute_sql(sql).fetchall()]
        if not targets:
            raise Refused(
                "you organise no campaign on this server: only a campaign's organisers may compact its journal"
            )
    else:
        row = db.execute_sql("SELECT name FROM campaign WHERE id = ?", (campaign,)).fetchone()
        targets = [(int(campaign), str(row[0]) if row else f"campaign {campaign}")]
    done = []
    with db.atomic():
        for cid, name in targets:
            got = _server_call("SELECT campaign_app_compact(?, ?, ?)::text", (cid, n_keep, n_days))
            done.append(
                CampaignCompacted(name, int(got["folded"]), int(got["records"]), int(got["keep"]), int(got["days"]))
            )
    return ServerCompacted(tuple(done))


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n / 1024:.0f} KiB"


def _boundaries(keep: int, days: int) -> tuple[int, str | None]:
    """The id of the oldest operation among the newest ``keep`` (0 when there are fewer) and the time before
    which operations are folded (``None``: no age limit)."""
    row = db.execute_sql(
        "SELECT id FROM operation WHERE kind != ? ORDER BY id DESC LIMIT 1 OFFSET ?", (START_KIND, keep - 1)
    ).fetchone()
    first_kept = int(row[0]) if row else 0
    cutoff = None
    if days:
        cutoff = (_dt.datetime.now(_dt.UTC) - _dt.timedelta(days=days)).isoformat(timespec="milliseconds")
    return first_kept, cutoff


def _foldable_sql(first_kept: int, cutoff: str | None) -> tuple[str, list[Any]]:
    where = "kind != ? AND (id < ?" + (" OR created_at < ?)" if cutoff else ")")
    params: list[Any] = [START_KIND, first_kept]
    if cutoff:
        params.append(cutoff)
    return where, params


def _refuse_if_damaged() -> None:
    refuse = getattr(db.obj, "refuse_if_damaged", None)
    if refuse is not None:
        refuse()


def fold(keep: Any = None, days: Any = None) -> Compacted:
    """Fold every operation beyond the budget, in one transaction."""
    n_keep, n_days = keep_setting(keep), days_setting(days)
    with db.atomic():
        _refuse_if_damaged()
        first_kept, cutoff = _boundaries(n_keep, n_days)
        where, params = _foldable_sql(first_kept, cutoff)
        ops = db.execute_sql(
            f"SELECT count(*) FROM operation o WHERE {where.replace('id <', 'o.id <')} AND "
            "EXISTS (SELECT 1 FROM operation_change c WHERE c.operation_id = o.id)",
            params,
        ).fetchone()[0]
        cursor = db.execute_sql(
            f"DELETE FROM operation_change WHERE operation_id IN (SELECT id FROM operation WHERE {where})", params
        )
        records = max(0, int(cursor.rowcount or 0))
    return Compacted(int(ops), records, n_keep, n_days)


def fold_if_due(keep: Any = None, days: Any = None) -> Compacted | None:
    """Fold when the oldest operation that still has row images is beyond the budget (one indexed look-up when
    nothing is due). Used when a file is opened."""
    n_keep, n_days = keep_setting(keep), days_setting(days)
    oldest = db.execute_sql(
        "SELECT c.operation_id, o.created_at FROM operation_change c JOIN operation o "
        "ON o.id = c.operation_id ORDER BY c.operation_id LIMIT 1"
    ).fetchone()
    if oldest is None:
        return None
    first_kept, cutoff = _boundaries(n_keep, n_days)
    if not (int(oldest[0]) < first_kept or (cutoff is not None and str(oldest[1]) < cutoff)):
        return None
    return fold(n_keep, n_days)


def compact(keep: Any = None, days: Any = None, vacuum: bool = True) -> Compacted:
    """``campaign-cli journal compact``: fold what is beyond the budget, then give the freed pages back to the
    file system (VACUUM, when no other program is reading the file) and report the sizes."""
    from .database import current_db

    database = current_db()
    db_file = Path(database.db_file) if database is not None else None
    before = _file_bytes(db_file)
    result = fold(keep, days)
    vacuumed = False
    if database is not None and vacuum:
        try:
            database.execute_sql("VACUUM")
            database.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            vacuumed = True
        except Exception:  # noqa: BLE001 - busy (another program reads it): the pages are reused later
            vacuumed = False
    after = _file_bytes(db_file)
    return Compacted(result.folded, result.records, result.keep, result.days, before, after, vacuumed)


def _file_bytes(db_file: Path | None) -> int:
    if db_file is None:
        return 0
    total = 0
    for path in (db_file, db_file.with_name(db_file.name + "-wal")):
        with contextlib.suppress(OSError):
            total += path.stat().st_size
    return total


@dataclass(frozen=True)
class Forgotten:
    records: int
    """Change records removed (the deleted rows' images over their life in this file)."""
    operations: int
    """Operations about the deleted campaign removed from the history."""

    def to_dict(self) -> dict[str, int]:
        return {"records": self.records, "operations": self.operations}


def forget_on_server(delete_op: int) -> Forgotten:
    """``campaign delete --forget`` on a server (``campaign_app_forget``, :mod:`.journal_pg`): call in the
    deletion's transaction, after its operation closed. The server checks that the caller made that deletion of
    one whole campaign, and removes the campaign's rows' images and the operations about it."""
    got = _server_call("SELECT campaign_app_forget(?)::text", (delete_op,))
    return Forgotten(int(got["records"]), int(got["operations"]))


def forget_deleted(delete_op: int, campaign_id: int) -> Forgotten:
    """Remove from the journal what it holds of the rows ``delete_op`` deleted (a whole campaign): each row's
    recorded images from the operation that inserted it to the deletion, then the operations about the
    campaign, its platoons and Sologear sheets that are left with nothing; ``delete_op`` stays as a summary
    that names nothing. Call inside the deletion's transaction, with ``secure_delete`` on."""
    gone = db.execute_sql(
        "SELECT DISTINCT table_name, row_id FROM operation_change WHERE operation_id = ? AND action = 'delete'",
        (delete_op,),
    ).fetchall()
    records = 0
    for table, row_id in gone:
        born = db.execute_sql(
            "SELECT MAX(operation_id) FROM operation_change WHERE table_name = ? AND row_id = ? "
            "AND action = 'insert' AND operation_id <= ?",
            (table, row_id, delete_op),
        ).fetchone()
        first = int(born[0]) if born and born[0] is not None else 0
        cursor = db.execute_sql(
            "DELETE FROM operation_change WHERE table_name = ? AND row_id = ? AND operation_id BETWEEN ? AND ?",
            (table, row_id, first, delete_op),
        )
        records += max(0, int(cursor.rowcount or 0))
    platoons = [int(r) for t, r in gone if t == "platoon"]
    sheets = [int(r) for t, r in gone if t == "sologear_sheet"]
    about = ["campaign_id = ?"]
    params: list[Any] = [campaign_id]
    for column, ids in (("platoon_id", platoons), ("sheet_id", sheets)):
        if ids:
            about.append(f"{column} IN ({', '.join('?' * len(ids))})")
            params += ids
    cursor = db.execute_sql(
        f"DELETE FROM operation WHERE id != ? AND kind != ? AND ({' OR '.join(about)}) AND NOT EXISTS "
        "(SELECT 1 FROM operation_change c WHERE c.operation_id = operation.id)",
        [delete_op, START_KIND, *params],
    )
    operations = max(0, int(cursor.rowcount or 0))
    db.execute_sql(
        "UPDATE operation SET label = ?, campaign_id = NULL, platoon_id = NULL, sheet_id = NULL, "
        "merge_key = NULL, updated_at = ? WHERE id = ?",
        (FORGOTTEN_LABEL, utc_now(), delete_op),
    )
    return Forgotten(records, operations)


def forget(delete_op: int, campaign_id: int) -> Forgotten:
    """Forget the deleted campaign ``campaign_id`` (:func:`forget_deleted` on a file; on a club server the
    server forgets, and checks who may). Call inside the deletion's transaction, within :func:`secure_deletes`."""
    from .opened import Capability, can

    return forget_deleted(delete_op, campaign_id) if can(Capability.COMPACT) else forget_on_server(delete_op)


@contextlib.contextmanager
def secure_deletes() -> Iterator[None]:
    """Around a forgetting: on a file, freed pages are overwritten rather than merely unlinked, and once the
    block has committed the write-ahead log's copies of them go too (when no one is reading). A server forgets on
    its own side, and this does nothing there."""
    from .opened import Capability, can, current

    opened = current()
    if opened is None or not can(Capability.COMPACT):
        yield
        return
    database = opened.file("secure deletion is for a campaign file")
    database.execute_sql("PRAGMA secure_delete = ON")
    try:
        yield
    finally:
        database.execute_sql("PRAGMA secure_delete = OFF")
    with contextlib.suppress(Exception):
        database.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")


def ensure_triggers(database: Any) -> bool:
    """Re-install the journal's triggers of a file made before the journal stored less (an insert recorded its
    whole row, an update both whole rows). Returns True when they were re-installed."""
    from .journal import has_journal, install_triggers

    if getattr(database, "read_only", None) is not None or not has_journal(database):
        return False
    old = database.execute_sql(
        "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE "
        "'journal\\_%\\_insert' ESCAPE '\\' AND sql NOT LIKE '%''insert'', NULL, NULL)%'"
    ).fetchone()[0]
    if not old:
        return False
    with database.atomic():
        install_triggers(database)
    return True
