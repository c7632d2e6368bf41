"""Undo and redo in the GUI: the Qt undo stack is a view of the operation journal.

Every change is one operation of the journal (:mod:`campaign_app.store.journal`), written by this window, another
window or ``campaign-cli`` alike, and kept in the database file across restarts. :class:`JournalUndoStack`
mirrors it: one :class:`JournalCommand` per operation, the live ones oldest to newest, then the undone ones in
the order Redo takes them (the one undone most recently first); its index is the number of live ones. So
Edit ▸ Undo names the newest operation ("Undo Log battle 4 of 2nd Platoon") and Edit ▸ Redo the one undone most
recently, whoever made them and whenever. The stack is rebuilt (:meth:`JournalUndoStack.sync`) whenever the
journal changes: after each write of this window (:func:`perform`, :func:`push_edit`), each undo and redo, and
when the watcher sees another program's commit. Building it never executes anything.

Undo and redo run ``services.journal.undo/redo`` of the operation the stack names; a refusal (a later operation
touched the same rows, the database is busy) is shown in the status bar and nothing changes. After every write,
undo and redo the one change feed, ``ctx.signals.op_changed(OpChanges)``, tells the views what was touched.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import shiboken6
from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..errors import CampaignError
from ..services import journal as journal_service
from ..services.common import StoreProblem
from ..services.edits import Edit
from ..services.journal import JournalStep, OperationInfo

if TYPE_CHECKING:
    from .context import AppContext

log = logging.getLogger(__name__)

ServiceArgs = ParamSpec("ServiceArgs")
"""The arguments of the service :func:`perform` runs: its callers are checked against the service's signature."""
EditT = TypeVar("EditT", bound="Edit[Any]")
"""The Edit type the service returns, returned as it is."""

VIEW_LIMIT = 50
"""How many live and how many undone operations the stack shows (the newest; the journal keeps them all and the
History tab's Changes list reaches further back)."""


def menu_label(label: str, width: int = 60) -> str:
    """An operation's label fit for a menu item: one line, at most ``width`` characters, ``&`` shown as itself."""
    text = " ".join(label.split())
    if len(text) > width:
        text = text[: width - 1].rstrip() + "\u2026"
    return text


def first_upper(text: str) -> str:
    return text[:1].upper() + text[1:]


class JournalCommand(QUndoCommand):
    """One operation of the journal on the stack. Pushing it and moving the index while the stack is being built
    executes nothing; moved by anything else (a ``QUndoView``), it undoes or redoes its operation."""

    def __init__(self, stack: JournalUndoStack, info: OperationInfo) -> None:
        super().__init__(menu_label(info.label))
        self._stack = weakref.ref(stack)  # the stack owns its commands: no reference cycle through Python
        self.info = info

    @property
    def operation_id(self) -> int:
        return self.info.id

    def redo(self) -> None:
        stack = self._stack()
        if stack is not None and not stack.building:
            stack.step_from_qt(self, "redo")

    def undo(self) -> None:
        stack = self._stack()
        if stack is not None and not stack.building:
            stack.step_from_qt(self, "undo")


class JournalUndoStack(QUndoStack):
    """A ``QUndoStack`` that shows the journal (see the module's text). ``undo()`` and ``redo()`` act on the
    journal and rebuild the view; ``push()`` is for :meth:`sync` only."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx: AppContext | None = None
        self.building = False
        self._stepping = False
        self._qt_failed = False
        self._syncing = False
        self._sync_again = False
        self.live_count = 0

    # --- the view -------------------------------------------------------------------------------------------
    def _read(self) -> tuple[list[OperationInfo], list[OperationInfo]]:
        live = [o for o in journal_service.live_operations(VIEW_LIMIT) if o.undoable]
        return live[::-1], journal_service.redo_queue(VIEW_LIMIT)

    def sync(self) -> bool:
        """Rebuild the view from the journal; False (the view kept) when the database cannot be read now. On a
        club server the journal is read on the window's database thread and the view rebuilt when the answer
        comes (True is returned at once)."""
        if self.building or not shiboken6.isValid(self):  # (being destroyed at exit: its clear() emits signals)
            return False
        if self._sync_in_background():
            return True
        try:
            live, undone = self._read()
        except CampaignError as exc:  # a busy or vanished file must not break the window; the next change syncs
            log.warning("cannot read the journal: %s", exc)
            return False
        except Exception:  # anything else (a bug): logged with its traceback; the view is kept
            log.exception("cannot read the journal")
            return False
        self._rebuild(live, undone)
        return True

    def _worker(self) -> Any:
        from .loader import worker_of

        return None if self.ctx is None else worker_of(self.ctx)

    def _sync_in_background(self) -> bool:
        """On a club server: read the journal's view on the window's database thread (one read at a time; a
        sync asked for meanwhile reads once more after it). False on a file."""
        if self._worker() is None or self.ctx is None:
            return False
        if self._syncing:
            self._sync_again = True
            return True
        from .loader import run_read

        self._syncing = True

        def done(view: tuple[list[OperationInfo], list[OperationInfo]]) -> None:
            self._syncing = False
            if shiboken6.isValid(self) and not self.building:
                self._rebuild(*view)
            if self._sync_again:
                self._sync_again = False
                self.sync()

        def failed(exc: Exception) -> None:
            self._syncing = False
            if not isinstance(exc, CampaignError):
                log.error("cannot read the journal", exc_info=exc)
                return
            log.warning("cannot read the journal: %s", exc)

        run_read(self.ctx, self._read, done, failed)
        return True

    def _rebuild(self, live: list[OperationInfo], undone: list[OperationInfo]) -> None:
        shown = [(c.info.id, c.info.label, c.info.undone) for c in self._commands()]
        wanted = [(o.id, o.label, o.undone) for o in (*live, *undone)]
        if shown == wanted and self.index() == len(live):
            return
        self.building = True
        blocked = self.blockSignals(True)  # one round of news when done, not one per command
        try:
            self.clear()
            for info in (*live, *undone):
                self.push(JournalCommand(self, info))
            self.setIndex(len(live))
        finally:
            self.blockSignals(blocked)
            self.building = False
        self.live_count = len(live)
        if not blocked:
            self.indexChanged.emit(self.index())
            self.canUndoChanged.emit(self.canUndo())
            self.canRedoChanged.emit(self.canRedo())
            self.undoTextChanged.emit(self.undoText())
            self.redoTextChanged.emit(self.redoText())

    def _commands(self) -> list[JournalCommand]:
        out = []
        for i in range(self.count()):
            cmd = self.command(i)
            if isinstance(cmd, JournalCommand):
                out.append(cmd)
        return out

    def operations(self) -> list[OperationInfo]:
        """What the view shows, oldest live first, then the undone ones in redo order."""
        return [c.info for c in self._commands()]

    def next_undo(self) -> OperationInfo | None:
        cmd = self.command(self.index() - 1) if self.index() > 0 else None
        return cmd.info if isinstance(cmd, JournalCommand) else None

    def next_redo(self) -> OperationInfo | None:
        cmd = self.command(self.index()) if self.index() < self.count() else None
        return cmd.info if isinstance(cmd, JournalCommand) else None

    # --- acting -------------------------------------------------------------------------------------------------
    def undo(self) -> JournalStep | None:  # type: ignore[override]  # Edit ▸ Undo: the newest live operation
        if self._worker() is not None:
            self.step_newest("undo", self.next_undo())
            return None
        self.sync()
        info = self.next_undo()
        if info is None:
            self._status("Nothing to undo.")
            return None
        return self._show(self.apply("undo", info.id))

    def redo(self) -> JournalStep | None:  # type: ignore[override]  # Edit ▸ Redo: the one undone most recently
        if self._worker() is not None:
            self.step_newest("redo", self.next_redo())
            return None
        self.sync()
        info = self.next_redo()
        if info is None:
            self._status("Nothing to redo.")
            return None
        return self._show(self.apply("redo", info.id))

    def step_newest(self, verb: str, shown: OperationInfo | None) -> None:
        """On a club server: undo the newest live operation (redo the one undone most recently) on the window's
        database thread, provided it is still ``shown`` (what the menu named: another player may have written
        meanwhile; None: whichever it is now); the window stays usable and the status bar says what runs. The
        result is shown when it comes, as :meth:`step` shows it. One at a time: a second Undo while one runs is
        refused in the status bar."""
        from .loader import run_write

        assert self.ctx is not None
        if self._stepping:
            self._status(f"Cannot {verb} now: the previous undo or redo is still being sent to the server.")
            return
        self._stepping = True
        what = menu_label(shown.label) if shown is not None else "the newest change"
        self._status(f"{'Undoing' if verb == 'undo' else 'Redoing'} {what}\u2026")
        action: Callable[[int], JournalStep] = journal_service.undo if verb == "undo" else journal_service.redo

        def work() -> tuple[tuple[list[OperationInfo], list[OperationInfo]], OperationInfo | None, Any]:
            live, undone = self._read()
            head = (live[-1] if live else None) if verb == "undo" else (undone[0] if undone else None)
            if head is None or (shown is not None and head.id != shown.id):  # the journal moved on: nothing done
                return (live, undone), head, None
            step = action(head.id)
            return self._read(), head, (step, self._target_of(step))

        def done(answer: tuple[tuple[list[OperationInfo], list[OperationInfo]], OperationInfo | None, Any]) -> None:
            self._stepping = False
            view, head, stepped = answer
            self._rebuild(*view)
            if stepped is None:
                self._status(
                    f"The newest change is now \u201c{head.label}\u201d (made elsewhere); {verb} again to {verb} it."
                    if head is not None
                    else f"Nothing to {verb}."
                )
                return
            step, target = stepped
            assert self.ctx is not None
            self.ctx.signals.op_changed.emit(step.changes)
            self._status(step.message)
            if target is not None:
                self.ctx.signals.open_item.emit(*target)

        def refused(exc: Exception) -> None:
            self._stepping = False
            self._refused(verb, shown.id if shown is not None else 0, exc)

        run_write(self.ctx, work, done, refused)

    def _show(self, step: JournalStep | None) -> JournalStep | None:
        """After Edit ▸ Undo or Redo, show what came back or went: its platoon, pilot or campaign (if it is
        still there)."""
        if step is None or self.ctx is None:
            return step
        target = self._target_of(step)
        if target is not None:
            self.ctx.signals.open_item.emit(*target)
        return step

    @staticmethod
    def _target_of(step: JournalStep) -> tuple[str, int] | None:
        """The item to show after an undo or redo (reads the database)."""
        from ..services.navigator import item_exists

        info = step.operation
        if info.kind.startswith(("fighter.", "bout.")):  # d12 Death Blow: the (first) fighter it touched
            from ..services.death_blow import fighters_of_operation

            for fighter_id in fighters_of_operation(info.id):
                if item_exists("fighter", fighter_id):
                    return "fighter", fighter_id
        for kind, obj_id in (("platoon", info.platoon_id), ("sheet", info.sheet_id), ("campaign", info.campaign_id)):
            if obj_id is not None and item_exists(kind, obj_id):
                return kind, obj_id
        return None

    def apply(self, verb: str, op_id: int) -> JournalStep | None:
        """Undo or redo one operation; a refusal is shown in the status bar and None returned (nothing
        changed)."""
        try:
            return self.step(verb, op_id)
        except CampaignError:
            return None

    def step(self, verb: str, op_id: int) -> JournalStep:
        """Undo or redo operation ``op_id`` through the journal, rebuild the view and tell the views what changed.
        A refusal (``Conflict``: another operation is in the way; ``StoreProblem``: busy) is shown in the status
        bar and raised; nothing was written then."""
        action: Callable[[int], JournalStep] = journal_service.undo if verb == "undo" else journal_service.redo
        self._stepping = True
        try:
            step = action(op_id)
        except CampaignError as exc:
            self._refused(verb, op_id, exc)
            raise
        finally:
            self._stepping = False
        self._stepped(step)
        return step

    def step_later(
        self,
        verb: str,
        op_id: int,
        done: Callable[[JournalStep], None],
        refused: Callable[[CampaignError], None],
    ) -> bool:
        """:meth:`step` on the window's database thread (a club server): True at once, and ``done(step)`` or
        ``refused(error)`` when the answer comes (after the view, the views and the status bar heard of it as
        after :meth:`step`). False on a file (nothing done: call :meth:`step`)."""
        from .loader import run_write

        if self._worker() is None or self.ctx is None:
            return False
        if self._stepping:
            self._status(f"Cannot {verb} now: the previous undo or redo is still being sent to the server.")
            return True
        self._stepping = True
        action: Callable[[int], JournalStep] = journal_service.undo if verb == "undo" else journal_service.redo

        def work() -> tuple[JournalStep, tuple[list[OperationInfo], list[OperationInfo]]]:
            step = action(op_id)
            return step, self._read()

        def finished(answer: tuple[JournalStep, tuple[list[OperationInfo], list[OperationInfo]]]) -> None:
            self._stepping = False
            step, view = answer
            self._rebuild(*view)
            if self.ctx is not None:
                self.ctx.signals.op_changed.emit(step.changes)
            self._status(step.message)
            done(step)

        def failed(exc: Exception) -> None:
            self._stepping = False
            self._refused(verb, op_id, exc)  # (anything but a refusal is raised there)
            if isinstance(exc, CampaignError):
                refused(exc)

        run_write(self.ctx, work, finished, failed)
        return True

    def _stepped(self, step: JournalStep) -> None:
        """An undo or redo committed: rebuild the view, tell the views, say what was done."""
        self.sync()
        if self.ctx is not None:
            self.ctx.signals.op_changed.emit(step.changes)
        self._status(step.message)

    def _refused(self, verb: str, op_id: int, exc: Exception) -> None:
        """Nothing was written: say why in the status bar (anything but a refusal is a bug: raised)."""
        if isinstance(exc, StoreProblem):  # busy, disk full: the step is still there for later
            log.warning("%s of operation %s refused: %s", verb, op_id, exc)
            self._status(f"Cannot {verb} now: {exc}")
        elif isinstance(exc, CampaignError):
            log.info("%s of operation %s refused: %s", verb, op_id, exc)
            self._status(first_upper(str(exc)))
            self.sync()  # the journal may have moved on (another program)
        else:
            raise exc

    def step_from_qt(self, cmd: JournalCommand, verb: str) -> None:
        """A command moved by Qt itself (a ``QUndoView`` click): run it, then put the view back in line with the
        journal once Qt has finished moving the index."""
        if not self._qt_failed:
            try:
                self.step(verb, cmd.operation_id)
            except CampaignError:
                self._qt_failed = True
        QTimer.singleShot(0, self._after_qt)

    def _after_qt(self) -> None:
        self._qt_failed = False
        self.sync()

    def _status(self, text: str) -> None:
        if self.ctx is not None:
            self.ctx.signals.status.emit(text)


def journal_changed(ctx: AppContext, edit: Edit[Any]) -> None:
    """After a service wrote (or undid) something: rebuild the undo view, tell the views, say what was done."""
    stack = ctx.undo_stack
    if isinstance(stack, JournalUndoStack):
        stack.sync()
    ctx.signals.op_changed.emit(edit.changes)
    ctx.signals.status.emit(edit.message)


def perform(
    ctx: AppContext, service: Callable[ServiceArgs, EditT], /, *args: ServiceArgs.args, **kwargs: ServiceArgs.kwargs
) -> EditT:
    """Run ``service(*args, **kwargs)`` (one journal operation); when it changed something, the undo view shows
    it, the views hear of it (``op_changed``) and the status bar says it. A ``ServiceError`` propagates (nothing
    was written). The arguments are checked against ``service``'s own signature (a ``ParamSpec``), and the
    service's own Edit type comes back (``Edit[FieldsChanged]`` from ``set_platoon``, ...)."""
    edit = service(*args, **kwargs)
    if edit.changed:
        journal_changed(ctx, edit)
    return edit


def try_perform(
    ctx: AppContext, service: Callable[ServiceArgs, EditT], /, *args: ServiceArgs.args, **kwargs: ServiceArgs.kwargs
) -> EditT | None:
    """Like :func:`perform`, but a refusal is shown in the status bar and ``None`` returned."""
    try:
        return perform(ctx, service, *args, **kwargs)
    except CampaignError as exc:
        ctx.signals.status.emit(str(exc))
        if isinstance(exc, StoreProblem):  # busy, disk full...: every view shows the stored values again
            from .feed import announce_everything

            announce_everything(ctx, "a write was refused")
        return None


def perform_later(
    ctx: AppContext,
    done: Callable[[EditT], None] | None,
    refused: Callable[[CampaignError], None],
    service: Callable[ServiceArgs, EditT],
    /,
    *args: ServiceArgs.args,
    **kwargs: ServiceArgs.kwargs,
) -> EditT | None:
    """A page's write: :func:`perform` where it does not freeze the window. On a club server the service runs
    on the window's database thread (the status bar's busy bar moves, the window stays usable; writes run one
    after another in the order they were asked) and None is returned at once; when the answer comes the undo
    view, the views and the status bar hear of it as after :func:`perform`, then ``done(edit)`` runs, or
    ``refused(error)`` for a refusal (nothing was written). On a file it all happens now and the Edit is
    returned (None after a refusal)."""
    from .loader import run_write

    result: list[EditT] = []

    def finished(edit: EditT) -> None:
        if edit.changed:
            journal_changed(ctx, edit)
        result.append(edit)
        if done is not None:
            done(edit)

    def failed(exc: Exception) -> None:
        if not isinstance(exc, CampaignError):
            raise exc
        refused(exc)

    if run_write(ctx, lambda: service(*args, **kwargs), finished, failed):
        ctx.signals.status.emit("Saving to the club server\u2026")
        return None
    return result[0] if result else None


def push_edit(ctx: AppContext, edit: Edit[Any], platoon_id: int | None = None, text: str | None = None) -> None:
    """A service already ran (the battle wizard's commit, ``battle undo``, a battle's text edit): show it."""
    del platoon_id, text
    if edit.changed:
        journal_changed(ctx, edit)


def undo_stack_holds(ctx: AppContext, targets: set[tuple[str, Any]]) -> bool:
    """Whether Edit ▸ Undo or Redo can reach an operation of one of ``targets`` (``(kind, id)`` pairs such as
    ``("platoon", 4)``, kinds campaign, platoon, sheet): only then can it bring back a row that is gone. The view
    is read again first: the journal is shared with other windows and campaign-cli."""
    stack = ctx.undo_stack
    if isinstance(stack, JournalUndoStack) and shiboken6.isValid(stack):
        stack.sync()
        infos = stack.operations()
    else:
        infos = []
    for info in infos:
        of = {("campaign", info.campaign_id), ("platoon", info.platoon_id), ("sheet", info.sheet_id)}
        if any(obj_id is not None and (kind, obj_id) in of for kind, obj_id in targets):
            return True
    return False
