"""The navigator panel: a filter box over a tree of campaigns and their platoons / Sologear pilots.

It reads its tree through a :class:`~.loader.PageLoad` (off the event loop on a club server): :meth:`reload`
asks, and what the caller wants done with the new tree (select an item, pick the page to show) goes in its
``then``; on a file it all happens at once. The tree it shows also answers the window's small questions without
a query: which campaign an item belongs to (:meth:`campaign_of`), what the title names (:meth:`title_of`),
whether there is any campaign at all (:attr:`any_campaign`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QCheckBox, QLineEdit, QTreeView, QVBoxLayout, QWidget

from ..errors import CampaignError
from ..services.navigator import CampaignNode, CampaignRef, FighterNode, PlatoonNode, navigator_tree
from .lazy_qt import USER_ROLE, set_enum

if TYPE_CHECKING:
    from .context import AppContext

KIND_ROLE = USER_ROLE + 1
ID_ROLE = USER_ROLE + 2
NAME_ROLE = USER_ROLE + 3
"""The item's own name (the text shown adds the level, "(pilot)", "(archived)")."""
SYSTEM_ROLE = USER_ROLE + 4

SYSTEM_LABEL = {"atomic_africa": "Atomic Africa", "sologear": "Sologear", "death_blow": "d12 Death Blow"}


@dataclass(frozen=True)
class NavigatorData:
    """What one read of the navigator brings: the tree, whether any campaign is stored (archived ones too), and
    whether the item asked about (the window's current one) is still stored."""

    tree: list[CampaignNode]
    any_campaign: bool
    asked: tuple[str, int] | None = None
    asked_exists: bool = False


def read_navigator(key: tuple[bool, tuple[str, int] | None]) -> NavigatorData:
    """The navigator's read (Qt-free; on the window's database thread on a club server)."""
    from ..services.navigator import has_any_campaign, item_exists

    include_archived, asked = key
    tree = navigator_tree(include_archived=include_archived)
    return NavigatorData(tree, bool(tree) or has_any_campaign(), asked, asked is not None and item_exists(*asked))


class NavigatorFilter(QSortFilterProxyModel):
    """Case-insensitive match on the name; a campaign stays when one of its children matches."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(True)
        set_enum(self, "filterCaseSensitivity", "CaseInsensitive")  # built before the first paint (lazy_qt.py)
        self.setFilterKeyColumn(0)


class Navigator(QWidget):
    """Emits ``selected(kind, id)`` when the user picks a campaign, platoon or pilot."""

    selected = Signal(str, int)
    activated = Signal(str, int)
    loaded = Signal()
    """A new tree is shown."""

    def __init__(self, parent: QWidget | None = None, ctx: AppContext | None = None) -> None:
        super().__init__(parent)
        self.ctx: AppContext | None = ctx if ctx is not None else getattr(parent, "ctx", None)
        """The window's context (taken from the window it is made in when not given)."""
        self.any_campaign = False
        self.data: NavigatorData | None = None
        self._then: list[Callable[[NavigatorData], None]] = []
        self._loading: Any = None
        self.reading = False
        """A read is under way (on a club server)."""
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText("Filter platoons, pilots, fighters…  (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setAccessibleName("Navigator filter")
        self.show_archived = QCheckBox("Show archived campaigns", self)
        self.model = QStandardItemModel(self)
        self.model.setHorizontalHeaderLabels(["Campaigns"])
        self.proxy = NavigatorFilter(self)
        self.proxy.setSourceModel(self.model)
        self.tree = QTreeView(self)
        self.tree.setModel(self.proxy)
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setEditTriggers(QTreeView.EditTrigger.NoEditTriggers)
        self.tree.setAccessibleName("Campaign navigator")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.show_archived)
        self.setTabOrder(self.filter_edit, self.tree)
        self.setTabOrder(self.tree, self.show_archived)

        self.filter_edit.textChanged.connect(self._on_filter)
        self.show_archived.toggled.connect(lambda _on: self.reload())
        self.tree.selectionModel().currentChanged.connect(self._on_current)
        self.tree.activated.connect(self._on_activated)
        for key in ("Down", "Return", "Enter"):  # one row in Help ▸ Keyboard shortcuts
            jump = QShortcut(QKeySequence(key), self.filter_edit, self._focus_first_match)
            set_enum(jump, "context", "WidgetShortcut")
            jump.setWhatsThis("In the navigator's filter box: go to the first match")

    # --- data -------------------------------------------------------------------------------------------
    def reload(self, then: Callable[[NavigatorData], None] | None = None, asked: tuple[str, int] | None = None) -> None:
        """Read the tree again and show it, then ``then(data)`` (on a file at once; on a club server when the
        answer comes: every ``then`` asked for meanwhile runs after the one tree shown). ``asked``: an item whose
        existence ``then`` wants to know (``data.asked_exists``)."""
        if then is not None:
            self._then.append(then)
        key = (self.show_archived.isChecked(), asked)
        if self.ctx is None:
            self._show(key, read_navigator(key))
            return
        if self._loading is None:
            from .loader import PageLoad

            self._loading = PageLoad(self.ctx, read_navigator, self._show, self._failed)
        self.reading = True
        self._loading.request(key)

    def when_read(self, then: Callable[[NavigatorData], None]) -> None:
        """``then(data)`` after the read under way (on a club server), else after a new one."""
        if self.reading:
            self._then.append(then)
        else:
            self.reload(then)

    def _failed(self, _key: Any, exc: Exception) -> None:
        self.reading = False
        self._then.clear()
        if self.ctx is None or not isinstance(exc, CampaignError):
            raise exc
        self.ctx.signals.status.emit(str(exc))

    def _show(self, _key: Any, data: NavigatorData) -> None:
        self.reading = False
        self.data = data
        self.any_campaign = data.any_campaign
        self._fill(data.tree)
        thens, self._then = self._then, []
        for then in thens:
            then(data)
        self.loaded.emit()

    def _fill(self, tree: list[CampaignNode]) -> None:
        keep = self.current()
        self.model.removeRows(0, self.model.rowCount())
        root = self.model.invisibleRootItem()
        for camp in tree:
            label = camp.name + ("  (archived)" if camp.archived else "")
            item = self._item(label, "campaign", camp.id)
            item.setData(camp.name, NAME_ROLE)
            item.setData(camp.system, SYSTEM_ROLE)
            item.setToolTip(f"{SYSTEM_LABEL.get(camp.system, camp.system)} campaign")
            for child in camp.children:
                if isinstance(child, PlatoonNode):
                    text = child.name
                    tip = f"{child.level} platoon, {child.xp} XP; leader: {child.leader or 'none'}"
                elif isinstance(child, FighterNode):
                    text = f"{child.name} (level {child.level}{', retired' if child.retired else ''})"
                    tip = f"d12 Death Blow fighter: level {child.level}, {child.xp}/12 XP toward the next level"
                else:
                    text = f"{child.name} (pilot)"
                    tip = f"Sologear pilot, campaign {child.status}"
                sub = self._item(text, child.kind, child.id)
                sub.setData(child.name, NAME_ROLE)
                sub.setToolTip(tip)
                item.appendRow(sub)
            root.appendRow(item)
        self.tree.expandAll()
        if keep:
            self.select(*keep, emit=False)

    @staticmethod
    def _item(text: str, kind: str, obj_id: int) -> QStandardItem:
        item = QStandardItem(text)
        item.setData(kind, KIND_ROLE)
        item.setData(obj_id, ID_ROLE)
        item.setEditable(False)
        return item

    # --- selection --------------------------------------------------------------------------------------
    def current(self) -> tuple[str, int] | None:
        idx = self.tree.currentIndex()
        if not idx.isValid():
            return None
        return idx.data(KIND_ROLE), int(idx.data(ID_ROLE))

    def select(self, kind: str, obj_id: int, emit: bool = True) -> bool:
        found = self._find(kind, obj_id)
        if found is None:
            return False
        proxy_idx = self.proxy.mapFromSource(found)
        if not proxy_idx.isValid():
            self.filter_edit.clear()
            proxy_idx = self.proxy.mapFromSource(found)
        self.tree.blockSignals(not emit)
        self.tree.selectionModel().blockSignals(not emit)
        self.tree.setCurrentIndex(proxy_idx)
        self.tree.selectionModel().blockSignals(False)
        self.tree.blockSignals(False)
        self.tree.scrollTo(proxy_idx)
        return True

    def campaign_of(self, kind: str, obj_id: int) -> CampaignRef | None:
        """The campaign of an item the tree shows (None when it does not show it)."""
        found = self._find(kind, obj_id)
        if found is None:
            return None
        camp = found if kind == "campaign" else found.parent()
        return CampaignRef(
            id=int(camp.data(ID_ROLE)), name=str(camp.data(NAME_ROLE)), system=str(camp.data(SYSTEM_ROLE))
        )

    def title_of(self, kind: str, obj_id: int) -> list[str] | None:
        """What the window's title names for an item the tree shows (as ``services.navigator.item_title``);
        None when it does not show it."""
        found = self._find(kind, obj_id)
        if found is None:
            return None
        name = str(found.data(NAME_ROLE))
        if kind == "campaign":
            return [name]
        label = {"sheet": f"{name or 'Pilot'} (pilot)", "fighter": f"{name} (fighter)"}.get(kind, name)
        return [label, str(found.parent().data(NAME_ROLE))]

    def _find(self, kind: str, obj_id: int) -> QModelIndex | None:
        for r in range(self.model.rowCount()):
            camp = self.model.item(r)
            if kind == "campaign" and camp.data(ID_ROLE) == obj_id:
                return camp.index()
            for c in range(camp.rowCount()):
                child = camp.child(c)
                if child.data(KIND_ROLE) == kind and child.data(ID_ROLE) == obj_id:
                    return child.index()
        return None

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.selected.emit(current.data(KIND_ROLE), int(current.data(ID_ROLE)))

    def _on_activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.activated.emit(index.data(KIND_ROLE), int(index.data(ID_ROLE)))

    def _on_filter(self, text: str) -> None:
        self.proxy.setFilterFixedString(text.strip())
        self.tree.expandAll()

    def _focus_first_match(self) -> None:
        first = self._first_leaf(QModelIndex())
        if first is not None:
            self.tree.setCurrentIndex(first)
        self.tree.setFocus()

    def _first_leaf(self, parent: QModelIndex) -> QModelIndex | None:
        text = self.filter_edit.text().strip().lower()
        for r in range(self.proxy.rowCount(parent)):
            idx = self.proxy.index(r, 0, parent)
            if self.proxy.rowCount(idx):
                leaf = self._first_leaf(idx)
                if leaf is not None:
                    return leaf
            if not text or text in str(idx.data()).lower():
                return idx
        return None

    def focus_filter(self) -> None:
        self.filter_edit.setFocus()
        self.filter_edit.selectAll()

    def data_for_tests(self) -> list[Any]:
        return [self.proxy.index(r, 0).data() for r in range(self.proxy.rowCount())]
