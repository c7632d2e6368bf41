"""The play-aid cards' options: decks and single cards, card size, backs (fronts only, double-sided or
fold-over), whose house rules, back style, safe margin, bleed, duplex offset (with the alignment test page),
card stock and grayscale."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...printing.sizes import (
    BACK_STYLES,
    CARD_SIZES,
    CARD_STOCK,
    CARD_STOCK_SIZES,
    DEFAULT_MARGIN_MM,
    MAX_BLEED_MM,
    MAX_MARGIN_MM,
    MAX_OFFSET_MM,
    PrintSetup,
)
from ...services.print_requests import CardsRequest, PrintRequest
from ...services.printing import print_setup
from ...words import plural
from ..widgets import DecimalSpin, error_style
from .base import DATA, Opening, OptionPanel

LAYOUT_LABELS = (
    ("fronts", "Fronts only"),
    ("backs", "Fronts, then backs (print double-sided)"),
    ("fold", "Fold-over: front and back side by side"),
)
SYSTEM_DECKS = {"atomic_africa": "atomic-africa", "sologear": "sologear"}
"""The deck ticked when the dialog opens on a campaign of this game system (its house rules print on it)."""


def _children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    """The child items of a tree item, in order."""
    return [child for i in range(item.childCount()) if (child := item.child(i)) is not None]


def _mm_spin(parent: QWidget, low: float, high: float, name: str) -> DecimalSpin:
    spin = DecimalSpin(parent)
    spin.setRange(low, high)
    spin.setDecimals(1)
    spin.setSingleStep(0.5)
    spin.setSuffix(" mm")
    spin.setAccessibleName(name)
    spin.setKeyboardTracking(False)
    return spin


class CardsPanel(OptionPanel):
    kind = "cards"
    label = "Play-aid cards"

    def __init__(self, user_decks_dir: Path | None, parent: Any = None) -> None:
        super().__init__(parent)
        self._decks_dir = user_decks_dir
        self.library: Any = None
        """The loaded decks (shipped and the user's), read when the panel is filled."""
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("Decks and cards:", self))
        self.deck_tree = QTreeWidget(self)
        self.deck_tree.setAccessibleName("Decks and cards")
        self.deck_tree.setHeaderHidden(True)
        lay.addWidget(self.deck_tree, 1)
        self.deck_problems = QLabel(self)
        self.deck_problems.setWordWrap(True)
        self.deck_problems.setStyleSheet(error_style(self.deck_problems))
        self.deck_problems.hide()
        lay.addWidget(self.deck_problems)
        options = QFormLayout()
        self.size_combo = QComboBox(self)
        self.size_combo.setAccessibleName("Card size")
        for key, size in CARD_SIZES.items():
            self.size_combo.addItem(size.label, key)
        options.addRow("Card si&ze:", self.size_combo)
        self.layout_combo = QComboBox(self)
        self.layout_combo.setAccessibleName("Card backs")
        for key, label in LAYOUT_LABELS:
            self.layout_combo.addItem(label, key)
        options.addRow("&Backs:", self.layout_combo)
        self.rules_combo = QComboBox(self)
        self.rules_combo.setAccessibleName("House rules the cards print")
        self.rules_combo.setToolTip(
            "Atomic Africa and Sologear cards print this campaign's house rules "
            "(thresholds, objective XP, replacement leader, reward dice …)"
        )
        self.rules_combo.addItem("Default rules", None)
        options.addRow("R&ules of:", self.rules_combo)
        self.back_style_combo = QComboBox(self)
        self.back_style_combo.setAccessibleName("Back style")
        for key, label in zip(BACK_STYLES, ("Light pattern and frame (less ink)", "Solid deck colour"), strict=True):
            self.back_style_combo.addItem(label, key)
        options.addRow("Back st&yle:", self.back_style_combo)
        self.margin_spin = _mm_spin(self, 0.0, MAX_MARGIN_MM, "Safe margin")
        self.margin_spin.setToolTip(
            "Nothing is printed closer to the paper's edge (most printers cannot print the outer 4–6.35 mm)"
        )
        options.addRow("Safe &margin:", self.margin_spin)
        self.bleed_spin = _mm_spin(self, 0.0, MAX_BLEED_MM, "Bleed")
        self.bleed_spin.setToolTip(
            "Header bands and solid backs run this far past the cut line, so a "
            "slightly uneven cut shows no white edge (e.g. 2 mm)"
        )
        options.addRow("B&leed:", self.bleed_spin)
        offsets = QHBoxLayout()
        self.offset_x_spin = _mm_spin(self, -MAX_OFFSET_MM, MAX_OFFSET_MM, "Duplex offset x")
        self.offset_y_spin = _mm_spin(self, -MAX_OFFSET_MM, MAX_OFFSET_MM, "Duplex offset y")
        offsets.addWidget(QLabel("x", self))
        offsets.addWidget(self.offset_x_spin)
        offsets.addWidget(QLabel("y", self))
        offsets.addWidget(self.offset_y_spin)
        offset_label = QLabel("Duplex o&ffset:", self)
        offset_label.setBuddy(self.offset_x_spin)
        options.addRow(offset_label, offsets)
        lay.addLayout(options)
        self.alignment_button = QPushButton("Alignment &test page…", self)
        self.alignment_button.setToolTip(
            "A one-sheet test to print double-sided: it shows the duplex offset to enter above"
        )
        lay.addWidget(self.alignment_button)
        self.stock_check = QCheckBox("Print on card stoc&k (one card per page)", self)
        self.stock_check.setToolTip(
            "For 3×5 in index, 4×6 in postcard and A6 card stock: each page is one card, its border at the safe margin"
        )
        lay.addWidget(self.stock_check)
        self.grayscale_check = QCheckBox("&Grayscale (saves ink)", self)
        lay.addWidget(self.grayscale_check)

    def _spins(self) -> tuple[DecimalSpin, ...]:
        return (self.margin_spin, self.bleed_spin, self.offset_x_spin, self.offset_y_spin)

    # ------------------------------------------------------------------------------------------ settings

    def restore(self, settings: QSettings) -> None:
        size = str(settings.value("print/card_size", "") or "poker")
        self.size_combo.setCurrentIndex(max(0, self.size_combo.findData(size)))
        for spin, key, default in (
            (self.margin_spin, "print/margin_mm", DEFAULT_MARGIN_MM),
            (self.bleed_spin, "print/bleed_mm", 0.0),
            (self.offset_x_spin, "print/offset_x_mm", 0.0),
            (self.offset_y_spin, "print/offset_y_mm", 0.0),
        ):
            stored: Any = settings.value(key, default)  # QSettings gives what it stored (a str from the file)
            try:
                value = float(stored or default)
            except (TypeError, ValueError):
                value = default
            spin.setValue(min(max(value, spin.minimum()), spin.maximum()))
        style = str(settings.value("print/back_style", "") or "pattern")
        self.back_style_combo.setCurrentIndex(max(0, self.back_style_combo.findData(style)))

    def remember_setup(self, settings: QSettings) -> None:
        """Keep the margin, bleed, duplex offset and back style (also after an alignment test page)."""
        settings.setValue("print/margin_mm", self.margin_spin.value())
        settings.setValue("print/bleed_mm", self.bleed_spin.value())
        settings.setValue("print/offset_x_mm", self.offset_x_spin.value())
        settings.setValue("print/offset_y_mm", self.offset_y_spin.value())
        settings.setValue("print/back_style", self.back_style_combo.currentData())

    def remember(self, settings: QSettings) -> None:
        settings.setValue("print/card_size", self.size_combo.currentData())
        self.remember_setup(settings)

    # -------------------------------------------------------------------------------------------- decks

    def fill(self, opening: Opening) -> None:
        for camp in opening.tree:
            if camp.system in SYSTEM_DECKS:
                self.rules_combo.addItem(f"Campaign {camp.name}", camp.id)
        self._fill_decks()
        if opening.campaign is not None:
            self.rules_combo.setCurrentIndex(max(0, self.rules_combo.findData(opening.campaign.id)))
        system = {"platoon": "atomic_africa", "sheet": "sologear"}.get(opening.kind or "")
        if opening.kind == "campaign" and opening.campaign is not None:
            system = opening.campaign.system
        self._check_decks(SYSTEM_DECKS.get(system or ""))

    def _fill_decks(self) -> None:
        from ...printing.decks import load_decks

        self.library = load_decks(self._decks_dir)
        for deck in self.library.decks.values():
            item = QTreeWidgetItem(self.deck_tree, [f"{deck.title} ({len(deck.cards)} cards)"])
            item.setData(0, DATA, deck.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsAutoTristate)
            item.setCheckState(0, Qt.CheckState.Unchecked)
            for card in deck.cards:
                child = QTreeWidgetItem(item, [card.title])
                child.setData(0, DATA, card.full_id)
                child.setFlags(child.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                child.setCheckState(0, Qt.CheckState.Unchecked)
        problems = self.library.problems
        if problems:
            self.deck_problems.setText(
                f"{plural(len(problems), 'file')} could not be read and were skipped: "
                + "; ".join(str(p) for p in problems[:3])
            )
            self.deck_problems.show()

    def _check_decks(self, deck_id: str | None) -> None:
        """Tick the deck of the selected game system (every deck when there is none)."""
        decks = _children(self.deck_tree.invisibleRootItem())
        ids = [item.data(0, DATA) for item in decks]
        wanted = {deck_id} if deck_id in ids else set(ids)
        for item in decks:
            item.setCheckState(0, Qt.CheckState.Checked if item.data(0, DATA) in wanted else Qt.CheckState.Unchecked)

    def connect_changes(self) -> None:
        for combo in (self.size_combo, self.layout_combo, self.rules_combo, self.back_style_combo):
            combo.currentIndexChanged.connect(self.changed)
        for spin in self._spins():
            spin.valueChanged.connect(self.changed)
            spin.problemChanged.connect(self.changed)  # a refused value is said, and nothing is built
        self.stock_check.toggled.connect(self.changed)
        self.deck_tree.itemChanged.connect(self.changed)
        self.grayscale_check.toggled.connect(self.changed)

    # ------------------------------------------------------------------------------------------- choice

    def chosen_cards(self) -> tuple[list[str], list[str]]:
        """(whole decks, single cards) ticked in the tree."""
        decks: list[str] = []
        cards: list[str] = []
        for item in _children(self.deck_tree.invisibleRootItem()):
            state = item.checkState(0)
            if state == Qt.CheckState.Checked:
                decks.append(item.data(0, DATA))
            elif state == Qt.CheckState.PartiallyChecked:
                cards += [card.data(0, DATA) for card in _children(item) if card.checkState(0) == Qt.CheckState.Checked]
        return decks, cards

    def card_size(self) -> str:
        return str(self.size_combo.currentData())

    def setup(self) -> PrintSetup:
        """The card print setup (margin, bleed, duplex offset, back style) chosen now."""
        return print_setup(
            self.margin_spin.value(),
            self.bleed_spin.value(),
            (self.offset_x_spin.value(), self.offset_y_spin.value()),
            self.back_style_combo.currentData(),
        )

    def request(self, paper: str, qr: bool) -> CardsRequest:
        decks, cards = self.chosen_cards()
        return CardsRequest(
            decks=tuple(decks),
            cards=tuple(cards),
            library=self.library,
            size=self.size_combo.currentData(),
            layout=self.layout_combo.currentData(),
            grayscale=self.grayscale_check.isChecked(),
            paper=CARD_STOCK if self.stock_check.isChecked() else paper,
            campaign=self.rules_combo.currentData(),
            setup=self.setup(),
        )

    def problem(self, request: PrintRequest) -> str | None:
        for spin in self._spins():
            if spin.problem():  # refused, never clamped to the nearest allowed value
                return spin.problem()
        match request:
            case CardsRequest(decks=(), cards=()):
                return "Tick at least one deck or card."
            case CardsRequest(paper=paper, size=size) if paper == CARD_STOCK and size not in CARD_STOCK_SIZES:
                labels = ", ".join(CARD_SIZES[s].label for s in CARD_STOCK_SIZES)
                return f"Card stock takes one card per page: choose {labels} as the card size."
        return None

    def file_name(self) -> str:
        return "Play-aid cards"
