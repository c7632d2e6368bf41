"""The journal as the user sees it: the list of operations, undo and redo of any of them (GUI and CLI).

Every change is one operation of :mod:`campaign_app.store.journal`; these functions find the operations of a
campaign, platoon or pilot and undo or redo one, returning typed results. A refusal is a
:class:`~campaign_app.store.journal.Conflict` naming the operation in the way (nothing is written).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..store import journal_read, journal_replay
from ..store.journal import Conflict, NotJournaled, OpChanges
from ..store.journal_read import OperationInfo
from .common import resolve_campaign, resolve_platoon, resolve_sheet
from .results import Result

__all__ = [
    "Conflict",
    "NotJournaled",
    "OpChanges",
    "OperationInfo",
    "JournalStep",
    "operations",
    "undo",
    "redo",
    "newest_undoable",
    "newest_redoable",
    "live_operations",
    "redo_queue",
    "compact",
]


@dataclass(frozen=True)
class JournalStep(Result):
    """What an undo or redo did: the operation and every row it restored. Its JSON (``campaign-cli journal
    undo|redo --json``) lists the restored rows' ids by table."""

    verb: str
    """"undo" or "redo"."""
    operation: OperationInfo
    changes: OpChanges

    @property
    def message(self) -> str:
        done = "Undone" if self.verb == "undo" else "Redone"
        return f"{done}: {self.operation.label}"

    def to_dict(self) -> dict[str, Any]:  # the JSON's own shape: the changes summed up, not the fields
        restored: dict[str, list[int]] = {}
        for table, row_id in sorted(self.changes.rows):
            restored.setdefault(table, []).append(row_id)
        return {
            "done": self.verb,
            "operation": self.operation.to_dict(),
            "restored": restored,
            "rows": len(self.changes.rows),
        }


def operations(
    *,
    campaign: int | None = None,
    platoon: int | None = None,
    pilot: int | None = None,
    limit: int | None = None,
) -> list[OperationInfo]:
    """The journal newest first: everything, or what concerns one campaign, platoon or Sologear pilot (named by
    its campaign)."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise NotJournaled(f"the number of operations to list must be a whole number of 1 or more, not {limit!r}")
    if platoon is not None:
        p = resolve_platoon(platoon)
        return journal_read.list_operations(platoon=p.id, limit=limit)
    if pilot is not None:
        return journal_read.list_operations(sheet=resolve_sheet(pilot).id, limit=limit)
    if campaign is not None:
        return journal_read.list_operations(campaign=resolve_campaign(campaign).id, limit=limit)
    return journal_read.list_operations(limit=limit)


def compact(keep: int | None = None, days: int | None = None, campaign: int | None = None) -> Any:
    """``journal compact``: fold what is beyond the journal's budget and report what it freed. On a club server
    the budget is each campaign's (``campaign``, or every campaign the login organises; ``keep``/``days`` given
    become its budget), and only its organisers may fold it."""
    from ..store.journal_budget import compact as compact_file
    from ..store.journal_budget import compact_server
    from ..store.opened import Capability, can

    if not can(Capability.COMPACT):  # the server keeps the budget, and judges who may fold
        if campaign is None or isinstance(campaign, int):  # an id: the server judges it (it may not be seen)
            return compact_server(campaign, keep, days)
        return compact_server(resolve_campaign(campaign).id, keep, days)
    if campaign is not None:
        raise NotJournaled("a campaign file has one journal budget for all its campaigns: leave out --campaign")
    return compact_file(keep, days)


def undo(operation: int | None = None) -> JournalStep:
    """Undo the newest operation that is not undone, or the one given."""
    changes = journal_replay.undo(operation)
    assert changes.operation_id is not None
    return JournalStep("undo", journal_read.get_operation(changes.operation_id), changes)


def redo(operation: int | None = None) -> JournalStep:
    """Redo the operation undone most recently, or the one given."""
    changes = journal_replay.redo(operation)
    assert changes.operation_id is not None
    return JournalStep("redo", journal_read.get_operation(changes.operation_id), changes)


def newest_undoable() -> OperationInfo | None:
    return journal_read.newest_undoable()


def newest_redoable() -> OperationInfo | None:
    return journal_read.newest_redoable()


def live_operations(limit: int | None = None) -> list[OperationInfo]:
    """The operations that are not undone, newest first (what Undo steps back through; on a club server the
    login's own and, for an organiser, those in her campaigns)."""
    return journal_read.replay_queue(True, limit)


def redo_queue(limit: int | None = None) -> list[OperationInfo]:
    """The undone operations in the order Redo takes them: the one undone most recently first (read-only; the
    GUI's undo view shows them; on a club server only those the login may redo). As in every editor a new change
    ends the chain: an operation undone before the newest change was made is not offered (the journal's one
    clock: ids and undo stamps compare); the History tab's Changes list can still redo it on purpose."""
    return journal_read.replay_queue(False, limit)
