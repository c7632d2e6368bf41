"""Undo/redo for every change made in the GUI.

A page calls :func:`perform` with a service function: the service runs (one transaction) and, if it changed
anything, an :class:`EditCommand` holding the service's change set is pushed on ``ctx.undo_stack``. Undo and
redo replay its journal operation (``services.journal``): the same rows come back with the same ids and no dice
are rolled again. Edit ▸ Undo / Redo of the main window drive the stack.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QUndoCommand

from ..errors import CampaignError
from ..services import journal as journal_service
from ..services.common import StoreProblem
from ..services.edits import Edit
from ..store.models import Campaign, Platoon, SologearSheet
from .context import AppContext

log = logging.getLogger(__name__)


def _exists(kind: str, obj_id: int) -> bool:
    model = {"campaign": Campaign, "platoon": Platoon, "sheet": SologearSheet}.get(kind)
    return model is not None and model.get_or_none(model.id == obj_id) is not None


class EditCommand(QUndoCommand):
    """One service call on the undo stack. The first ``redo`` (done by ``push``) does nothing: the service
    already ran."""

    def __init__(self, ctx: AppContext, edit: Edit, text: str | None = None) -> None:
        super().__init__(text or edit.message)
        self.ctx = ctx
        self.edit = edit
        self._done = True
        self._skip_undo = False

    def id(self) -> int:
        return 1  # steps that joined the same journal operation (an XP track run) merge into one command

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        edit = getattr(other, "edit", None)
        if edit is None or edit.operation_id is None or edit.operation_id != self.edit.operation_id:
            return False
        self.edit = edit
        self.setText(edit.label)
        return True

    def _step_back_later(self, step: Callable[[], None]) -> None:
        """After a write refused by the environment (busy, disk full) the data did not change: move the undo
        stack's index back too, without touching the data (the flags make that step a no-op)."""
        QTimer.singleShot(0, step)

    def _notify(self, show: bool) -> None:
        self.ctx.signals.data_changed.emit(self.edit.kind, self.edit.id)
        if show and _exists(self.edit.kind, self.edit.id):
            self.ctx.signals.open_item.emit(self.edit.kind, self.edit.id)

    def redo(self) -> None:
        if self._done:
            self._done = False
            self.ctx.signals.data_changed.emit(self.edit.kind, self.edit.id)
            return
        try:
            journal_service.reapply_edit(self.edit)
        except StoreProblem as exc:  # nothing was written: the command stays, the index goes back
            log.warning("redo of %r refused: %s", self.text(), exc)
            self.ctx.signals.status.emit(f"Cannot redo now: {exc}")
            self._skip_undo = True
            self._step_back_later(self.ctx.undo_stack.undo)
            return
        except CampaignError as exc:
            log.warning("redo of %r failed: %s", self.text(), exc)
            self.ctx.signals.status.emit(f"Cannot redo: {exc}")
            self.setObsolete(True)
            return
        self.ctx.signals.status.emit(f"Redone: {self.text()}")
        self._notify(show=True)

    def undo(self) -> None:
        if self._skip_undo:
            self._skip_undo = False
            self.ctx.signals.data_changed.emit(self.edit.kind, self.edit.id)
            return
        try:
            journal_service.revert_edit(self.edit)
        except StoreProblem as exc:  # nothing was written: the command stays, the index goes back
            log.warning("undo of %r refused: %s", self.text(), exc)
            self.ctx.signals.status.emit(f"Cannot undo now: {exc}")
            self._done = True
            self._step_back_later(self.ctx.undo_stack.redo)
            return
        except CampaignError as exc:
            log.warning("undo of %r failed: %s", self.text(), exc)
            self.ctx.signals.status.emit(f"Cannot undo: {exc}")
            self.setObsolete(True)
            return
        self.ctx.signals.status.emit(f"Undone: {self.text()}")
        self._notify(show=True)


def perform(ctx: AppContext, service: Callable[..., Edit], *args: Any, text: str | None = None,
            **kwargs: Any) -> Edit:
    """Run ``service(*args, **kwargs)``; push an undo command when it changed something, tell the views
    (``data_changed``) and the status bar. A ``CampaignError`` propagates (nothing was written)."""
    edit = service(*args, **kwargs)
    if edit.changed:
        ctx.undo_stack.push(EditCommand(ctx, edit, text))
        ctx.signals.status.emit(edit.message)
    return edit


def try_perform(ctx: AppContext, service: Callable[..., Edit], *args: Any, text: str | None = None,
                **kwargs: Any) -> Edit | None:
    """Like :func:`perform`, but a refusal is shown in the status bar and ``None`` returned."""
    try:
        return perform(ctx, service, *args, text=text, **kwargs)
    except CampaignError as exc:
        ctx.signals.status.emit(str(exc))
        if isinstance(exc, StoreProblem):  # busy, disk full...: every view shows the stored values again
            ctx.signals.data_changed.emit("all", 0)
        return None


def undo_stack_holds(ctx: AppContext, targets: set[tuple[str, Any]]) -> bool:
    """Whether this window's undo stack holds a step of one of ``targets`` (``(kind, id)`` pairs such as
    ``("platoon", 4)``): only then can Edit ▸ Undo or Redo bring back a row that is gone. A deletion made by
    another window or by campaign-cli is not on this stack."""
    stack = ctx.undo_stack
    for i in range(stack.count()):
        edit = getattr(stack.command(i), "edit", None)
        if edit is not None and (getattr(edit, "kind", None), getattr(edit, "id", None)) in targets:
            return True
    return False
