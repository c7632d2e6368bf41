"""The navigator panel: a filter box over a tree of campaigns and their platoons / Sologear pilots."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QCheckBox, QLineEdit, QTreeView, QVBoxLayout, QWidget

from ..services.navigator import FighterNode, PlatoonNode, navigator_tree
from .lazy_qt import USER_ROLE, set_enum

KIND_ROLE = USER_ROLE + 1
ID_ROLE = USER_ROLE + 2

SYSTEM_LABEL = {"atomic_africa": "Atomic Africa", "sologear": "Sologear", "death_blow": "d12 Death Blow"}


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

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
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
    def reload(self) -> None:
        keep = self.current()
        self.model.removeRows(0, self.model.rowCount())
        root = self.model.invisibleRootItem()
        for camp in navigator_tree(include_archived=self.show_archived.isChecked()):
            label = camp.name + ("  (archived)" if camp.archived else "")
            item = self._item(label, "campaign", camp.id)
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
