"""The GUI's one change feed, and how a view listens to it.

Every change reaches the views as one signal, ``ctx.signals.op_changed(OpChanges)``:

- this window's own writes, undos and redos (``perform`` and the undo stack emit the operation's changes);
- another window's or program's operations: on a file :class:`~campaign_app.gui.watch.ChangeWatcher` reads
  the journal after ``PRAGMA data_version`` moved, on a club server :class:`~campaign_app.gui.club.LiveUpdates`
  after a NOTIFY; both deliver a batch with :func:`announce` (each view reloads once per batch);
- a restore, an import, a sample load, a write refused as busy, a change that left no trace in the journal:
  :func:`announce_everything`, an ``OpChanges`` whose kind is :data:`EVERYTHING` (every view reloads).

A view subscribes with :class:`ViewFeed`: it says which changes concern it (usually with :func:`concerns`) and
how to reload; the feed reloads at once when the view is visible and otherwise once, when it is next shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

from ..services.journal import OpChanges

if TYPE_CHECKING:
    from .context import AppContext

EVERYTHING = "everything"
"""The kind of the ``OpChanges`` that stands for "anything may have changed; read it all again"."""


def everything_changed(reason: str) -> OpChanges:
    """The news that anything may have changed (``reason`` says why, for the log)."""
    return OpChanges(None, EVERYTHING, reason)


def is_everything(changes: OpChanges) -> bool:
    return changes.kind == EVERYTHING


def announce(ctx: AppContext, changes: Iterable[OpChanges]) -> None:
    """Deliver operations made elsewhere, oldest first; a view concerned by several of them reloads once, after
    the last."""
    batch = list(changes)
    if len(batch) == 1:
        ctx.signals.op_changed.emit(batch[0])
        return
    signals = ctx.signals
    outer = signals.held is None
    if outer:
        signals.held = []
    try:
        for item in batch:
            signals.op_changed.emit(item)
    finally:
        if outer:
            held, signals.held = signals.held or [], None
            for feed in held:
                feed.refresh()


def announce_everything(ctx: AppContext, reason: str) -> None:
    """Every view reads what it shows again (a restore, an import, a refused write, an unknown change)."""
    ctx.signals.op_changed.emit(everything_changed(reason))


def concerns(
    changes: OpChanges, *, campaign: int | None = None, platoon: int | None = None, sheet: int | None = None
) -> bool:
    """Whether an operation's changes concern a view showing a campaign, a platoon (of ``campaign``) or a
    Sologear sheet (of ``campaign``): it touched that row, was made on it, or on its campaign as a whole. An
    operation that names no target at all (a sample load, an import) and "everything changed" concern every
    view."""
    if is_everything(changes):
        return True
    if not changes:
        return False
    if changes.campaign_id is None and changes.platoon_id is None and changes.sheet_id is None:
        return True
    if platoon is not None and (changes.platoon_id == platoon or changes.touches("platoon", platoon)):
        return True
    if sheet is not None and (changes.sheet_id == sheet or changes.touches("sologear_sheet", sheet)):
        return True
    if campaign is not None:
        if changes.touches("campaign", campaign):
            return True
        same = changes.campaign_id == campaign
        if platoon is None and sheet is None:
            return same  # a campaign's page lists its platoons and pilots: anything in it
        if same and changes.platoon_id is None and changes.sheet_id is None:
            return True  # the campaign as a whole (its rules, deleting it)
        if same and platoon is not None and changes.touches("battle"):
            return True  # a battle against this platoon (opponent platoon) is in its history
    return False


class ViewFeed(QObject):
    """One view's subscription to the change feed: when a change ``wants`` accepts arrives, ``reload`` runs at
    once if ``view`` is visible, else once when it is next shown. A view calls :meth:`refresh` itself when what
    it shows is switched (another platoon): the same "now or when shown" rule."""

    def __init__(
        self, ctx: AppContext, view: QWidget, wants: Callable[[OpChanges], bool], reload: Callable[[], None]
    ) -> None:
        super().__init__(view)
        self.ctx = ctx
        self.view = view
        self.wants = wants
        self.reload = reload
        self.dirty = False
        """A change arrived while the view was hidden: reload when shown."""
        ctx.signals.op_changed.connect(self._heard)
        view.installEventFilter(self)

    def _heard(self, changes: OpChanges) -> None:
        if not self.wants(changes):
            return
        held = self.ctx.signals.held
        if held is not None:  # a batch is being delivered: reload once, after its last operation
            if self not in held:
                held.append(self)
            return
        self.refresh()

    def refresh(self) -> None:
        """Reload now when the view is visible, else when it is next shown."""
        if self.view.isVisible():
            self.dirty = False
            self.reload()
        else:
            self.dirty = True

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if obj is self.view and event.type() == QEvent.Type.Show and self.dirty:
            self.dirty = False
            self.reload()
        return False


__all__ = [
    "EVERYTHING",
    "ViewFeed",
    "announce",
    "announce_everything",
    "concerns",
    "everything_changed",
    "is_everything",
]
