"""File ▸ Print / Export PDF…: pick what to print, see it, save it.

What: a platoon's Unit Data Sheet (filled, pencil or blank; several platoons at once), play-aid cards (decks
or single cards, card size, duplex backs or fold-over, grayscale), a Sologear campaign sheet and battle form
(filled or blank), or a platoon's history report; on A4 or Letter (cards also straight onto card stock).
Cards follow the house rules of the campaign chosen (or the default rules), inside a safe margin, with an
optional bleed, a duplex offset (measured with the one-page alignment test) and pattern or solid backs.

The dialog holds no printing logic: it builds the typed request of what is chosen
(:mod:`campaign_app.services.print_requests`), and ``services.printing.prepare`` reads the data (in the GUI
thread, where the database lives) and hands back a job that only builds the PDF; the job runs in a worker thread
so the window stays responsive, with a progress bar for long decks. The preview (QtPdf) updates a moment after
any option changes. "Save PDF…" asks for a file, writes it atomically and opens it; "Print…" opens the system's print
dialog and sends the very pages of the preview to the printer, full page, at the printer's resolution;
cancelling either writes or prints nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QIODevice,
    QSize,
    QSizeF,
    Qt,
    QThread,
    QTimer,
    Signal,
)
from PySide6.QtGui import QCloseEvent, QPageLayout, QPageSize, QPainter
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSplitter,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..printing.paper import default_paper
from ..printing.sizes import (
    BACK_STYLES,
    CARD_SIZES,
    CARD_STOCK,
    CARD_STOCK_SIZES,
    DEFAULT_MARGIN_MM,
    MAX_BLEED_MM,
    MAX_MARGIN_MM,
    MAX_OFFSET_MM,
    PAPER_SIZES,
)
from ..services.common import ServiceError
from ..services.navigator import CampaignNode, PlatoonNode, navigator_tree
from ..services.print_requests import (
    CardsRequest,
    ChronicleRequest,
    HistoryRequest,
    PrintRequest,
    SologearRequest,
    StandingsRequest,
    UnitSheetRequest,
)
from ..services.printing import BuiltPdf, PrintJob, prepare, print_setup, write_pdf_atomic
from ..words import plural
from .context import AppContext
from .file_dialogs import remember_folder
from .sizing import fit_resize
from .widgets import DecimalSpin, error_style

log = logging.getLogger(__name__)

KINDS: tuple[tuple[str, str], ...] = (
    ("sheet", "Unit Data Sheet"),
    ("cards", "Play-aid cards"),
    ("sologear", "Sologear campaign sheet and battle form"),
    ("history", "Platoon history report"),
    ("standings", "Campaign standings"),
    ("chronicle", "Campaign chronicle (a diary)"),
)
PAPER_LABELS = {"a4": "A4 (210 × 297 mm)", "letter": "Letter (8.5 × 11 in)"}
SHEET_MODES = (
    ("filled", "Filled in"),
    ("pencil", "Pencil: XP boxes, levels and cards left empty"),
    ("blank", "Blank sheet to fill in by hand"),
)
LAYOUT_LABELS = (
    ("fronts", "Fronts only"),
    ("backs", "Fronts, then backs (print double-sided)"),
    ("fold", "Fold-over: front and back side by side"),
)
SYSTEM_DECKS = {"atomic_africa": "atomic-africa", "sologear": "sologear"}
PREVIEW_DELAY_MS = 250
DATA = Qt.ItemDataRole.UserRole
SEP = " \u2014 "


def _children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    """The child items of a tree item, in order."""
    return [child for i in range(item.childCount()) if (child := item.child(i)) is not None]


"""Between a platoon's (or pilot's) name and its campaign's in the lists."""


def choose_printer(parent: QWidget, printer: Any) -> bool:
    """The system's print dialog for ``printer``; True when the user chose to print (a function so tests can
    answer it)."""
    from PySide6.QtPrintSupport import QPrintDialog

    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle("Print")
    return dialog.exec() == QDialog.DialogCode.Accepted


MAX_PRINT_DPI = 300
"""Pages are rendered for the printer at most at this resolution (text and lines stay sharp at 300 dpi)."""


def print_pdf_pages(pdf: bytes, printer: Any, progress: Callable[[int, int], None] | None = None) -> int:
    """Send every page of ``pdf`` to ``printer`` (a QPrinter): full page (the PDF's own safe margins are kept,
    the printer adds none), each page rendered at the printer's resolution and the paper set to the page's
    size. Returns the number of pages printed."""
    document = QPdfDocument()
    buffer = QBuffer(document)  # owned by the document: never freed while the document still reads it
    buffer.setData(QByteArray(pdf))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    document.load(buffer)
    count = document.pageCount() if document.status() == QPdfDocument.Status.Ready else 0
    if count == 0:
        document.close()
        document.deleteLater()
        raise ServiceError("there is nothing to print (the PDF could not be read or has no pages)")
    first = document.pagePointSize(0)
    printer.setFullPage(True)
    printer.setPageSize(
        QPageSize(QSizeF(first.width(), first.height()), QPageSize.Unit.Point, "", QPageSize.SizeMatchPolicy.FuzzyMatch)
    )
    printer.setPageOrientation(QPageLayout.Orientation.Portrait)
    painter = QPainter()
    if not painter.begin(printer):
        raise ServiceError("the printer could not be opened (is it connected, and is the file name valid?)")
    try:
        dpi = min(printer.resolution(), MAX_PRINT_DPI)  # the printer scales up; 600 dpi pages are 140 MB
        for index in range(count):
            if index:
                printer.newPage()
            points = document.pagePointSize(index)
            size = QSize(max(1, round(points.width() / 72 * dpi)), max(1, round(points.height() / 72 * dpi)))
            image = document.render(index, size)
            from PySide6.QtPrintSupport import QPrinter

            painter.drawImage(printer.paperRect(QPrinter.Unit.DevicePixel).toRect(), image)
            if progress is not None:
                progress(index + 1, count)
    finally:
        painter.end()
        document.close()
        buffer.close()
        document.deleteLater()
    return count


def open_file(path: Path) -> bool:
    """Open a saved PDF in the user's viewer (a function so tests can replace it); False when no program
    could open it (the caller says so)."""
    from .file_dialogs import open_with_desktop

    return open_with_desktop(path)


def open_pdf_or_say(parent: QWidget | None, path: Path) -> None:
    """ "Open the PDF when saved": open it, or say where it is when no program opens PDFs here."""
    if not open_file(path):
        from .file_dialogs import say_cannot_open

        say_cannot_open(parent, path, "PDF")


def _safe_file_name(text: str) -> str:
    return re.sub(r"[^\w .()-]+", "_", text).strip(" ._") or "print"


def _new_printer() -> Any:
    from PySide6.QtPrintSupport import QPrinter

    return QPrinter(QPrinter.PrinterMode.HighResolution)


class _Cancelled(CampaignError):
    """The options changed while a PDF was being built: that build stops (never shown)."""


class BuildThread(QThread):
    """Runs one :class:`PrintJob` (no database access) off the GUI thread."""

    progressed = Signal(int, int)
    built = Signal(object, object)  # (bytes, BuiltPdf)
    failed = Signal(str)
    crashed = Signal(object)  # a programming error (the exception), raised again in the GUI thread

    def __init__(self, job: PrintJob, key: PrintRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.job = job
        self.key = key

    def run(self) -> None:  # noqa: D401 - QThread override
        try:
            pdf = self.job.run(self._progress)
        except _Cancelled:
            return
        except (CampaignError, OSError) as exc:  # refused (e.g. a card that does not fit) or the environment
            self.failed.emit(str(exc))
            return
        except Exception as exc:  # a bug: never shown as if the user had chosen something wrong
            if self.isInterruptionRequested():  # nobody waits for this build any more: the log has it
                log.exception("building a PDF that was no longer wanted failed")
            else:
                self.crashed.emit(exc)
            return
        if not self.isInterruptionRequested():
            self.built.emit(pdf.data, pdf)

    def _progress(self, done: int, total: int) -> None:
        if self.isInterruptionRequested():
            raise _Cancelled
        self.progressed.emit(done, total)


class PrintDialog(QDialog):
    """The print / export dialog. ``selection`` ({"kind": "platoon"|"campaign"|"sheet", "id": n} or {})
    picks what is printed first."""

    saved = Signal(str)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, selection: dict[str, Any] | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle("Print / Export PDF")
        self.setObjectName("PrintDialog")
        fit_resize(self, 1020, 700)
        self.choose_path: Callable[[str], str | None] = self._ask_path
        self.choose_printer: Callable[[QWidget, Any], bool] = choose_printer
        self.make_printer: Callable[[], Any] = _new_printer
        self._print_next = False
        self._builder: BuildThread | None = None
        self._result: tuple[PrintRequest, bytes, BuiltPdf] | None = None
        self._save_to: Path | None = None
        self._buffer: QBuffer | None = None
        self._error = ""
        self._library: Any = None
        self._jobs: dict[PrintRequest, PrintJob] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.refresh_preview)
        self._build_ui()
        self._fill(selection or {})
        self._connect_changes()
        self.schedule_preview()

    # ------------------------------------------------------------------------------------------- layout

    def _build_ui(self) -> None:
        controls = QWidget(self)
        form = QVBoxLayout(controls)
        form.setContentsMargins(0, 0, 6, 0)

        top = QFormLayout()
        self.kind_combo = QComboBox(controls)
        self.kind_combo.setAccessibleName("What to print")
        for key, label in KINDS:
            self.kind_combo.addItem(label, key)
        top.addRow("&Print:", self.kind_combo)
        self.paper_combo = QComboBox(controls)
        self.paper_combo.setAccessibleName("Paper")
        for key in PAPER_SIZES:
            self.paper_combo.addItem(PAPER_LABELS.get(key, key), key)
        top.addRow("P&aper:", self.paper_combo)
        form.addLayout(top)

        self.pages = QStackedWidget(controls)
        self.pages.addWidget(self._sheet_page())
        self.pages.addWidget(self._cards_page())
        self.pages.addWidget(self._sologear_page())
        self.pages.addWidget(self._history_page())
        self.pages.addWidget(self._campaign_page("standings"))
        self.pages.addWidget(self._campaign_page("chronicle"))
        form.addWidget(self.pages, 1)

        # every page carries a small stamp (campaign, what, journal position, date, check code)
        self.qr_check = QCheckBox("Add a &QR code to each page's print stamp", controls)
        self.qr_check.setToolTip(
            "Each printed page names the campaign, what it prints, the journal position it "
            "reflects and the date; the QR code says the same (not on cards)"
        )
        form.addWidget(self.qr_check)

        self.open_check = QCheckBox("&Open the PDF when it is saved", controls)
        form.addWidget(self.open_check)
        self.progress = QProgressBar(controls)
        self.progress.setAccessibleName("Progress")
        self.progress.setTextVisible(True)
        self.progress.hide()
        form.addWidget(self.progress)
        self.message = QLabel(controls)
        self.message.setWordWrap(True)
        self.message.setAccessibleName("Message")
        form.addWidget(self.message)

        buttons = QHBoxLayout()
        self.save_button = QPushButton("&Save PDF…", controls)
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)
        self.print_button = QPushButton("P&rint…", controls)
        self.print_button.setToolTip("Send the pages of the preview to a printer (the system's print dialog)")
        self.print_button.clicked.connect(self.print_now)
        self.close_button = QPushButton("Cancel", controls)
        self.close_button.clicked.connect(self.reject)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        buttons.addWidget(self.print_button)
        buttons.addWidget(self.save_button)
        form.addLayout(buttons)

        self.document = QPdfDocument(self)
        self.view = QPdfView(self)
        self.view.setAccessibleName("Preview")
        self.view.setDocument(self.document)
        self.view.setPageMode(QPdfView.PageMode.MultiPage)
        self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        self.view.setPageSpacing(12)
        self.preview_label = QLabel("Preview", self)
        preview = QWidget(self)
        pv = QVBoxLayout(preview)
        pv.setContentsMargins(6, 0, 0, 0)
        pv.addWidget(self.preview_label)
        pv.addWidget(self.view, 1)

        splitter = QSplitter(self)
        splitter.addWidget(controls)
        splitter.addWidget(preview)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([360, 660])
        QVBoxLayout(self).addWidget(splitter)

    def _sheet_page(self) -> QWidget:
        page = QWidget(self)
        lay = QVBoxLayout(page)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("Platoons (one page each):", page))
        self.platoon_list = QListWidget(page)
        self.platoon_list.setAccessibleName("Platoons")
        lay.addWidget(self.platoon_list, 1)
        self.mode_group = QButtonGroup(page)
        self.mode_buttons: dict[str, QRadioButton] = {}
        for index, (key, label) in enumerate(SHEET_MODES):
            button = QRadioButton(label, page)
            self.mode_group.addButton(button, index)
            self.mode_buttons[key] = button
            lay.addWidget(button)
        self.mode_buttons["filled"].setChecked(True)
        self.changed_button = QPushButton("Only what &changed since the last print", page)
        self.changed_button.setToolTip("Tick only the platoons whose printed sheet is out of date")
        self.changed_button.clicked.connect(self.tick_only_changed)
        lay.addWidget(self.changed_button)
        self.changed_label = QLabel(page)
        self.changed_label.setWordWrap(True)
        self.changed_label.setAccessibleName("Out-of-date sheets")
        lay.addWidget(self.changed_label)
        return page

    def tick_only_changed(self) -> list[int]:
        """Tick the platoons whose last printed sheet is out of date; say which and why."""
        from ..services.prints import stale_sheet_platoons

        try:
            stale = stale_sheet_platoons()
        except CampaignError as exc:
            self._show_error(str(exc))
            return []
        self._check_platoons(set(stale))
        self.mode_buttons["filled"].setChecked(True)
        if not stale:
            self.changed_label.setText("Every printed sheet is up to date.")
        else:
            names = {
                self.platoon_list.item(r).data(DATA): self.platoon_list.item(r).text().split(SEP)[0]
                for r in range(self.platoon_list.count())
            }
            self.changed_label.setText(
                "Out of date: "
                + "; ".join(
                    f"{names.get(pid, pid)} ({', '.join(why[:3])}{', …' if len(why) > 3 else ''})"
                    for pid, why in stale.items()
                )
            )
        self.schedule_preview()
        return list(stale)

    def _cards_page(self) -> QWidget:
        page = QWidget(self)
        lay = QVBoxLayout(page)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("Decks and cards:", page))
        self.deck_tree = QTreeWidget(page)
        self.deck_tree.setAccessibleName("Decks and cards")
        self.deck_tree.setHeaderHidden(True)
        lay.addWidget(self.deck_tree, 1)
        self.deck_problems = QLabel(page)
        self.deck_problems.setWordWrap(True)
        self.deck_problems.setStyleSheet(error_style(self.deck_problems))
        self.deck_problems.hide()
        lay.addWidget(self.deck_problems)
        options = QFormLayout()
        self.size_combo = QComboBox(page)
        self.size_combo.setAccessibleName("Card size")
        for key, size in CARD_SIZES.items():
            self.size_combo.addItem(size.label, key)
        options.addRow("Card si&ze:", self.size_combo)
        self.layout_combo = QComboBox(page)
        self.layout_combo.setAccessibleName("Card backs")
        for key, label in LAYOUT_LABELS:
            self.layout_combo.addItem(label, key)
        options.addRow("&Backs:", self.layout_combo)
        self.rules_combo = QComboBox(page)
        self.rules_combo.setAccessibleName("House rules the cards print")
        self.rules_combo.setToolTip(
            "Atomic Africa and Sologear cards print this campaign's house rules "
            "(thresholds, objective XP, replacement leader, reward dice …)"
        )
        self.rules_combo.addItem("Default rules", None)
        options.addRow("R&ules of:", self.rules_combo)
        self.back_style_combo = QComboBox(page)
        self.back_style_combo.setAccessibleName("Back style")
        for key, label in zip(BACK_STYLES, ("Light pattern and frame (less ink)", "Solid deck colour"), strict=True):
            self.back_style_combo.addItem(label, key)
        options.addRow("Back st&yle:", self.back_style_combo)
        self.margin_spin = self._mm_spin(page, 0.0, MAX_MARGIN_MM, "Safe margin")
        self.margin_spin.setToolTip(
            "Nothing is printed closer to the paper's edge (most printers cannot print the outer 4–6.35 mm)"
        )
        options.addRow("Safe &margin:", self.margin_spin)
        self.bleed_spin = self._mm_spin(page, 0.0, MAX_BLEED_MM, "Bleed")
        self.bleed_spin.setToolTip(
            "Header bands and solid backs run this far past the cut line, so a "
            "slightly uneven cut shows no white edge (e.g. 2 mm)"
        )
        options.addRow("B&leed:", self.bleed_spin)
        offsets = QHBoxLayout()
        self.offset_x_spin = self._mm_spin(page, -MAX_OFFSET_MM, MAX_OFFSET_MM, "Duplex offset x")
        self.offset_y_spin = self._mm_spin(page, -MAX_OFFSET_MM, MAX_OFFSET_MM, "Duplex offset y")
        offsets.addWidget(QLabel("x", page))
        offsets.addWidget(self.offset_x_spin)
        offsets.addWidget(QLabel("y", page))
        offsets.addWidget(self.offset_y_spin)
        offset_label = QLabel("Duplex o&ffset:", page)
        offset_label.setBuddy(self.offset_x_spin)
        options.addRow(offset_label, offsets)
        lay.addLayout(options)
        self.alignment_button = QPushButton("Alignment &test page…", page)
        self.alignment_button.setToolTip(
            "A one-sheet test to print double-sided: it shows the duplex offset to enter above"
        )
        self.alignment_button.clicked.connect(self.save_alignment_test)
        lay.addWidget(self.alignment_button)
        self.stock_check = QCheckBox("Print on card stoc&k (one card per page)", page)
        self.stock_check.setToolTip(
            "For 3×5 in index, 4×6 in postcard and A6 card stock: each page is one card, its border at the safe margin"
        )
        lay.addWidget(self.stock_check)
        self.grayscale_check = QCheckBox("&Grayscale (saves ink)", page)
        lay.addWidget(self.grayscale_check)
        return page

    def _mm_spin(self, parent: QWidget, low: float, high: float, name: str) -> DecimalSpin:
        spin = DecimalSpin(parent)
        spin.setRange(low, high)
        spin.setDecimals(1)
        spin.setSingleStep(0.5)
        spin.setSuffix(" mm")
        spin.setAccessibleName(name)
        spin.setKeyboardTracking(False)
        return spin

    def _sologear_page(self) -> QWidget:
        page = QWidget(self)
        lay = QFormLayout(page)
        lay.setContentsMargins(0, 0, 0, 0)
        self.sologear_combo = QComboBox(page)
        self.sologear_combo.setAccessibleName("Sologear campaign")
        lay.addRow("&Campaign:", self.sologear_combo)
        self.sologear_blank = QCheckBox("B&lank forms to fill in by hand", page)
        lay.addRow(self.sologear_blank)
        return page

    def _campaign_page(self, kind: str) -> QWidget:
        page = QWidget(self)
        lay = QFormLayout(page)
        lay.setContentsMargins(0, 0, 0, 0)
        combo = QComboBox(page)
        combo.setAccessibleName(f"Campaign for the {kind}")
        lay.addRow("Ca&mpaign:", combo)
        note = QLabel(
            "One page: the league table, head to head and the pilots."
            if kind == "standings"
            else "The platoons' XP over campaign time, then every entry, battle (outcome, aftermath and "
            "after-action report) and Sologear turn in order.",
            page,
        )
        note.setWordWrap(True)
        lay.addRow(note)
        if kind == "standings":
            self.standings_combo = combo
        else:
            self.chronicle_combo = combo
        return page

    def _history_page(self) -> QWidget:
        page = QWidget(self)
        lay = QFormLayout(page)
        lay.setContentsMargins(0, 0, 0, 0)
        self.history_combo = QComboBox(page)
        self.history_combo.setAccessibleName("Platoon for the history report")
        lay.addRow("P&latoon:", self.history_combo)
        return page

    # --------------------------------------------------------------------------------------------- data

    def _fill(self, selection: dict[str, Any]) -> None:
        settings = self.ctx.settings
        paper = str(settings.value("print/paper", "") or default_paper())
        self.paper_combo.setCurrentIndex(max(0, self.paper_combo.findData(paper)))
        size = str(settings.value("print/card_size", "") or "poker")
        self.size_combo.setCurrentIndex(max(0, self.size_combo.findData(size)))
        self.open_check.setChecked(str(settings.value("print/open_when_done", "true")).lower() != "false")
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

        tree = navigator_tree(include_archived=True)
        campaign_of: dict[tuple[str, int | None], CampaignNode] = {}
        for camp in tree:
            if camp.system in SYSTEM_DECKS:
                self.rules_combo.addItem(f"Campaign {camp.name}", camp.id)
            self.standings_combo.addItem(camp.name, camp.id)
            self.chronicle_combo.addItem(camp.name, camp.id)
            for child in camp.children:
                campaign_of[(child.kind, child.id)] = camp
                label = f"{child.name}{SEP}{camp.name}"
                if isinstance(child, PlatoonNode):
                    item = QListWidgetItem(label, self.platoon_list)
                    item.setData(DATA, child.id)
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    item.setCheckState(Qt.CheckState.Unchecked)
                    self.history_combo.addItem(label, child.id)
                else:
                    self.sologear_combo.addItem(f"{camp.name}{SEP}{child.name}", child.id)
        self._fill_decks()

        kind, ident = selection.get("kind"), selection.get("id")
        chosen = "sheet"
        system = None
        camp_of_selection = (
            campaign_of.get((str(kind), ident))
            if kind in ("platoon", "sheet")
            else next((c for c in tree if c.id == ident), None)
            if kind == "campaign"
            else None
        )
        if camp_of_selection is not None:
            self.rules_combo.setCurrentIndex(max(0, self.rules_combo.findData(camp_of_selection.id)))
        if kind == "platoon":
            self._check_platoons({ident})
            self.history_combo.setCurrentIndex(max(0, self.history_combo.findData(ident)))
            system = "atomic_africa"
        elif kind == "sheet":
            chosen = "sologear"
            self.sologear_combo.setCurrentIndex(max(0, self.sologear_combo.findData(ident)))
            system = "sologear"
        elif kind == "campaign":
            chosen_camp = next((c for c in tree if c.id == ident), None)
            for combo in (self.standings_combo, self.chronicle_combo):
                combo.setCurrentIndex(max(0, combo.findData(ident)))
            if chosen_camp is not None:
                system = chosen_camp.system
                ids = {c.id for c in chosen_camp.children if isinstance(c, PlatoonNode)}
                sheets = [c.id for c in chosen_camp.children if not isinstance(c, PlatoonNode)]
                if system == "sologear":
                    chosen = "sologear"
                    if sheets:
                        self.sologear_combo.setCurrentIndex(max(0, self.sologear_combo.findData(sheets[0])))
                    else:
                        self.sologear_blank.setChecked(True)
                else:
                    self._check_platoons(ids)
                    if ids:
                        first = min(ids, key=lambda i: self.history_combo.findData(i))
                        self.history_combo.setCurrentIndex(max(0, self.history_combo.findData(first)))
        if selection.get("print") in ("standings", "chronicle"):
            chosen = str(selection["print"])
        if chosen == "sheet" and not self.checked_platoons():
            self.mode_buttons["blank"].setChecked(True)
        if self.sologear_combo.count() == 0:
            self.sologear_blank.setChecked(True)
            self.sologear_blank.setEnabled(False)
        self._check_decks(SYSTEM_DECKS.get(system or ""))
        self.kind_combo.setCurrentIndex(self.kind_combo.findData(chosen))
        self.pages.setCurrentIndex(self.kind_combo.currentIndex())

    def _fill_decks(self) -> None:
        from ..printing.decks import load_decks

        self._library = load_decks(self.ctx.paths.user_decks_dir)
        for deck in self._library.decks.values():
            item = QTreeWidgetItem(self.deck_tree, [f"{deck.title} ({len(deck.cards)} cards)"])
            item.setData(0, DATA, deck.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsAutoTristate)
            item.setCheckState(0, Qt.CheckState.Unchecked)
            for card in deck.cards:
                child = QTreeWidgetItem(item, [card.title])
                child.setData(0, DATA, card.full_id)
                child.setFlags(child.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                child.setCheckState(0, Qt.CheckState.Unchecked)
        problems = self._library.problems
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

    def _check_platoons(self, ids: set[Any]) -> None:
        for row in range(self.platoon_list.count()):
            item = self.platoon_list.item(row)
            item.setCheckState(Qt.CheckState.Checked if item.data(DATA) in ids else Qt.CheckState.Unchecked)

    def _connect_changes(self) -> None:
        self.kind_combo.currentIndexChanged.connect(self._kind_changed)
        for combo in (
            self.paper_combo,
            self.size_combo,
            self.layout_combo,
            self.sologear_combo,
            self.history_combo,
            self.rules_combo,
            self.back_style_combo,
            self.standings_combo,
            self.chronicle_combo,
        ):
            combo.currentIndexChanged.connect(self.schedule_preview)
        for spin in (self.margin_spin, self.bleed_spin, self.offset_x_spin, self.offset_y_spin):
            spin.valueChanged.connect(self.schedule_preview)
            spin.problemChanged.connect(self.schedule_preview)  # a refused value is said, and nothing is built
        self.stock_check.toggled.connect(self.schedule_preview)
        self.platoon_list.itemChanged.connect(self.schedule_preview)
        self.deck_tree.itemChanged.connect(self.schedule_preview)
        self.mode_group.idToggled.connect(lambda _i, on: self.schedule_preview() if on else None)
        self.grayscale_check.toggled.connect(self.schedule_preview)
        self.qr_check.toggled.connect(self.schedule_preview)
        self.sologear_blank.toggled.connect(self._sologear_blank_toggled)

    def _kind_changed(self, index: int) -> None:
        self.pages.setCurrentIndex(index)
        self._clear_preview()  # the old kind's pages must not stay on show (or be saved) while the new one builds
        self.schedule_preview()

    def _sologear_blank_toggled(self, on: bool) -> None:
        self.sologear_combo.setEnabled(not on)
        self.schedule_preview()

    # ------------------------------------------------------------------------------------------ options

    def kind(self) -> str:
        return str(self.kind_combo.currentData())

    def paper(self) -> str:
        return str(self.paper_combo.currentData())

    def checked_platoons(self) -> list[int]:
        return [
            self.platoon_list.item(r).data(DATA)
            for r in range(self.platoon_list.count())
            if self.platoon_list.item(r).checkState() == Qt.CheckState.Checked
        ]

    def sheet_mode(self) -> str:
        return next(key for key, button in self.mode_buttons.items() if button.isChecked())

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

    def request(self) -> PrintRequest:
        """What is chosen now, as the request ``services.printing.prepare`` builds."""
        kind = self.kind()
        paper, qr = self.paper(), self.qr_check.isChecked()
        if kind == "sheet":
            mode = self.sheet_mode()
            return UnitSheetRequest(
                platoons=tuple(self.checked_platoons()),
                blank=mode == "blank",
                pencil=mode == "pencil",
                paper=paper,
                qr=qr,
            )
        if kind == "cards":
            decks, cards = self.chosen_cards()
            return CardsRequest(
                decks=tuple(decks),
                cards=tuple(cards),
                library=self._library,
                size=self.size_combo.currentData(),
                layout=self.layout_combo.currentData(),
                grayscale=self.grayscale_check.isChecked(),
                paper=CARD_STOCK if self.stock_check.isChecked() else paper,
                campaign=self.rules_combo.currentData(),
                setup=self.setup(),
            )
        if kind == "sologear":
            blank = self.sologear_blank.isChecked()
            return SologearRequest(
                campaign=None if blank else self.sologear_combo.currentData(), blank=blank, paper=paper, qr=qr
            )
        if kind == "standings":
            return StandingsRequest(campaign=self.standings_combo.currentData(), paper=paper, qr=qr)
        if kind == "chronicle":
            return ChronicleRequest(campaign=self.chronicle_combo.currentData(), paper=paper, qr=qr)
        return HistoryRequest(platoon=self.history_combo.currentData(), paper=paper, qr=qr)

    def setup(self) -> Any:
        """The card print setup (margin, bleed, duplex offset, back style) chosen now."""
        return print_setup(
            self.margin_spin.value(),
            self.bleed_spin.value(),
            (self.offset_x_spin.value(), self.offset_y_spin.value()),
            self.back_style_combo.currentData(),
        )

    def _check(self, request: PrintRequest) -> str | None:
        """A message when the choice cannot be printed (before any work is done)."""
        for spin in (self.margin_spin, self.bleed_spin, self.offset_x_spin, self.offset_y_spin):
            if spin.problem():  # refused, never clamped to the nearest allowed value
                return spin.problem()
        match request:
            case UnitSheetRequest(blank=False, platoons=()):
                return "Tick at least one platoon, or choose a blank sheet."
            case CardsRequest(decks=(), cards=()):
                return "Tick at least one deck or card."
            case CardsRequest(paper=paper, size=size) if paper == CARD_STOCK and size not in CARD_STOCK_SIZES:
                labels = ", ".join(CARD_SIZES[s].label for s in CARD_STOCK_SIZES)
                return f"Card stock takes one card per page: choose {labels} as the card size."
            case SologearRequest(blank=False, campaign=None):
                return "There is no Sologear campaign yet: print blank forms."
            case HistoryRequest(platoon=None):
                return "There is no platoon yet."
            case StandingsRequest(campaign=None) | ChronicleRequest(campaign=None):
                return "There is no campaign yet."
        return None

    def suggested_name(self) -> str:
        kind = self.kind()
        if kind == "sheet":
            items = [
                self.platoon_list.item(r)
                for r in range(self.platoon_list.count())
                if self.platoon_list.item(r).checkState() == Qt.CheckState.Checked
            ]
            if self.sheet_mode() == "blank":
                base = "Unit Data Sheet (blank)"
            elif len(items) == 1:
                base = f"{items[0].text().split(SEP)[0]} - Unit Data Sheet"
            else:
                base = "Unit Data Sheets"
        elif kind == "cards":
            base = "Play-aid cards"
        elif kind == "sologear":
            base = (
                "Sologear forms (blank)"
                if self.sologear_blank.isChecked()
                else f"{self.sologear_combo.currentText()} - Sologear"
            )
        elif kind in ("standings", "chronicle"):
            combo = self.standings_combo if kind == "standings" else self.chronicle_combo
            base = f"{combo.currentText()} - {kind}"
        else:
            base = f"{self.history_combo.currentText().split(SEP)[0]} - history"
        return _safe_file_name(base) + ".pdf"

    # ------------------------------------------------------------------------------------------ building

    def schedule_preview(self, *_args: Any) -> None:
        self._timer.start()

    def refresh_preview(self) -> None:
        self._start(save_to=None)

    def _start(self, save_to: Path | None) -> None:
        key = self.request()
        problem = self._check(key)
        if problem:
            self._show_error(problem)
            self._clear_preview()
            return
        if self._result is not None and self._result[0] == key:
            if save_to is not None:
                self._write(save_to, self._result[1], self._result[2])
            return
        if self._builder is not None:
            if self._builder.key == key:
                self._save_to = save_to or self._save_to
                return
            self._stop_builder()
        self._save_to = save_to
        try:
            job = prepare(key)
        except CampaignError as exc:
            self._show_error(str(exc))
            self._clear_preview()
            return
        self._jobs[key] = job  # remembered when its PDF is saved or printed
        self._show_message("Building the PDF…")
        self.progress.setRange(0, 0)
        self.progress.show()
        builder = BuildThread(job, key, self)
        builder.progressed.connect(self._progressed)
        builder.built.connect(self._built)
        builder.failed.connect(self._failed)
        builder.crashed.connect(self._crashed)
        builder.finished.connect(self._finished)
        self._builder = builder
        builder.start()

    def _stop_builder(self) -> None:
        builder = self._builder
        if builder is None:
            return
        builder.requestInterruption()
        for signal in (builder.progressed, builder.built, builder.failed, builder.crashed, builder.finished):
            signal.disconnect()
        builder.wait()
        builder.deleteLater()
        self._builder = None

    def _progressed(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"{done} of {total} cards")

    def _built(self, data: bytes, details: BuiltPdf) -> None:
        sender = self.sender()
        key = sender.key if isinstance(sender, BuildThread) else self.request()
        self._result = (key, data, details)
        self._show_preview(data, details)
        save_to, self._save_to = self._save_to, None
        if save_to is not None:
            self._write(save_to, data, details)
        elif self._print_next:
            self._print_next = False
            self._send_to_printer(data, details)

    def _failed(self, message: str) -> None:
        self._save_to = None
        self._print_next = False
        self._show_error(message)
        self._clear_preview()

    def _crashed(self, exc: BaseException) -> None:
        """A programming error in the build thread: the dialog says so, and the exception goes on to the
        exception hook (logged with its traceback, shown as an unexpected error)."""
        self._failed("could not build the PDF because of an internal error (the details are in the log file)")
        raise exc

    def _finished(self) -> None:
        builder = self._builder
        self._builder = None
        self.progress.hide()
        if builder is not None:
            # 'finished' is sent just before the thread ends: wait for the end, or deleting a QThread that is
            # still running aborts the whole app (Qt's "destroyed while thread is still running")
            builder.wait()
            builder.deleteLater()
        # options changed while building: build again for what is chosen now
        stale = self._result is None or self._result[0] != self.request()
        if stale and not self._error and self._check(self.request()) is None:
            self.schedule_preview()

    # ------------------------------------------------------------------------------------------- preview

    def _show_preview(self, data: bytes, details: BuiltPdf) -> None:
        self.document.close()
        buffer = QBuffer(self)
        buffer.setData(QByteArray(data))
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        self.document.load(buffer)
        if self._buffer is not None:
            self._buffer.deleteLater()
        self._buffer = buffer
        pages = details.pages
        self.preview_label.setText(f"Preview: {pages} page{'s' if pages != 1 else ''}")
        self._show_message(f"{pages} page{'s' if pages != 1 else ''} on {self.paper_combo.currentText()}.")

    def _clear_preview(self) -> None:
        self._result = None
        self.document.close()
        self.preview_label.setText("Preview")

    def preview_pages(self) -> int:
        return self.document.pageCount() if self.document.status() == QPdfDocument.Status.Ready else 0

    def _show_message(self, text: str) -> None:
        self._error = ""
        self.message.setStyleSheet("")
        self.message.setText(text)
        self.save_button.setEnabled(True)
        self.print_button.setEnabled(True)

    def _show_error(self, text: str) -> None:
        self._error = text
        self.message.setStyleSheet(error_style(self.message))
        self.message.setText(text)
        self.save_button.setEnabled(False)
        self.print_button.setEnabled(False)

    # ---------------------------------------------------------------------------------------------- save

    def _ask_path(self, suggested: str) -> str | None:
        from .file_dialogs import ask_save_path

        path = ask_save_path(self, self.ctx.settings, "Save PDF", suggested, "PDF (*.pdf)")
        return str(path) if path else None

    def save(self) -> None:
        """Ask for a file, build (or reuse the preview) and write it; cancelling writes nothing."""
        problem = self._check(self.request())
        if problem:
            self._show_error(problem)
            return
        chosen = self.choose_path(self.suggested_name())
        if not chosen:
            return
        path = Path(chosen)
        if path.suffix.lower() != ".pdf":
            path = path.with_name(path.name + ".pdf")
        self._timer.stop()
        self._start(save_to=path)

    def _remember_setup(self) -> None:
        settings = self.ctx.settings
        settings.setValue("print/margin_mm", self.margin_spin.value())
        settings.setValue("print/bleed_mm", self.bleed_spin.value())
        settings.setValue("print/offset_x_mm", self.offset_x_spin.value())
        settings.setValue("print/offset_y_mm", self.offset_y_spin.value())
        settings.setValue("print/back_style", self.back_style_combo.currentData())

    def print_now(self) -> None:
        """Print…: build (or reuse the preview), then the system's print dialog; cancelling prints nothing."""
        problem = self._check(self.request())
        if problem:
            self._show_error(problem)
            return
        key = self.request()
        if self._result is not None and self._result[0] == key:
            self._send_to_printer(self._result[1], self._result[2])
            return
        self._print_next = True
        self._timer.stop()
        self._start(save_to=None)

    def _send_to_printer(self, data: bytes, details: BuiltPdf) -> None:
        printer = self.make_printer()
        printer.setDocName(self.suggested_name().removesuffix(".pdf"))
        if not self.choose_printer(self, printer):
            return
        from PySide6.QtWidgets import QApplication

        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            pages = print_pdf_pages(data, printer)
        except CampaignError as exc:
            self._show_error(str(exc))
            return
        finally:
            QApplication.restoreOverrideCursor()
        self._remember_setup()
        self._remember_print(self.request())
        self.ctx.settings.setValue("print/paper", self.paper())
        text = f"Sent {pages} page{'s' if pages != 1 else ''} to the printer"
        self._show_message(text + ". Print at 100 % (actual size), not 'fit to page', to keep the cards' size.")
        self.ctx.signals.status.emit(text)

    def save_alignment_test(self) -> None:
        """Save the duplex alignment test sheet (two pages: print them double-sided)."""
        import io

        from ..printing.cards import build_alignment_test

        try:
            setup = self.setup()
        except CampaignError as exc:
            self._show_error(str(exc))
            return
        chosen = self.choose_path("Duplex alignment test.pdf")
        if not chosen:
            return
        path = Path(chosen)
        if path.suffix.lower() != ".pdf":
            path = path.with_name(path.name + ".pdf")
        buffer = io.BytesIO()
        paper = self.paper()
        try:
            build_alignment_test(buffer, paper=paper, size=str(self.size_combo.currentData()), setup=setup)
            written = write_pdf_atomic(path, buffer.getvalue())
        except CampaignError as exc:
            self._show_error(str(exc))
            return
        self._remember_setup()
        self._show_message(
            f"Saved {written.name}: print it double-sided, hold it against the light and enter "
            "the offset you read as the duplex offset."
        )
        if self.open_check.isChecked():
            open_pdf_or_say(self, written)

    def _write(self, path: Path, data: bytes, details: BuiltPdf) -> None:
        try:
            written = write_pdf_atomic(path, data)
        except CampaignError as exc:
            self._show_error(str(exc))
            return
        self._remember_print(self._result[0] if self._result is not None else self.request())
        settings = self.ctx.settings
        remember_folder(settings, written)
        settings.setValue("print/paper", self.paper())
        settings.setValue("print/card_size", self.size_combo.currentData())
        self._remember_setup()
        settings.setValue("print/open_when_done", "true" if self.open_check.isChecked() else "false")
        pages = details.pages
        self.ctx.signals.status.emit(f"Saved {written.name} ({pages} page{'s' if pages != 1 else ''})")
        self.saved.emit(str(written))
        self.accept()
        if self.open_check.isChecked():
            open_pdf_or_say(self.parentWidget(), written)

    def _remember_print(self, key: PrintRequest) -> None:
        """The app remembers what was printed, to tell when it goes out of date (one undoable operation)."""
        job = self._jobs.get(key)
        if job is None or not job.subjects:
            return
        from .undo_commands import perform

        try:
            perform(self.ctx, job.remember)
        except CampaignError as exc:
            self.ctx.signals.status.emit(f"printed, but could not remember it: {exc}")

    # --------------------------------------------------------------------------------------------- close

    def done(self, result: int) -> None:  # noqa: D401 - QDialog override
        self._timer.stop()
        self._save_to = None
        self._stop_builder()
        self.document.close()
        super().done(result)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self._timer.stop()
        self._stop_builder()
        super().closeEvent(event)


def open_print_dialog(ctx: AppContext, parent: QWidget | None = None, selection: dict[str, Any] | None = None) -> None:
    """File ▸ Print / Export PDF… (Ctrl+P), starting from what is selected in the navigator."""
    dialog = PrintDialog(ctx, parent, selection or {})
    try:
        dialog.exec()
    finally:
        dialog.deleteLater()
