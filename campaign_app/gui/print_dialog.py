"""File ▸ Print / Export PDF…: pick what to print, see it, save it.

What: a platoon's Unit Data Sheet (filled, pencil or blank; several platoons at once), play-aid cards (decks
or single cards, card size, duplex backs or fold-over, grayscale), a Sologear campaign sheet and battle form
(filled or blank), or a platoon's history report; on A4 or Letter (cards also straight onto card stock).
Cards follow the house rules of the campaign chosen (or the default rules), inside a safe margin, with an
optional bleed, a duplex offset (measured with the one-page alignment test) and pattern or solid backs.

The dialog holds no printing logic. Each kind's options are a panel of :mod:`.print_options` (its widgets,
settings, typed request of :mod:`campaign_app.services.print_requests` and refusal); the dialog keeps the kind
chooser, the paper, the preview, the progress, Save and Print and the cache of what was built. It asks the
chosen panel for its request, and ``services.printing.prepare`` reads the data (in the GUI
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
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..printing.paper import default_paper
from ..printing.sizes import PAPER_SIZES
from ..services.common import ServiceError
from ..services.navigator import CampaignNode, navigator_tree
from ..services.print_requests import PrintRequest
from ..services.printing import BuiltPdf, PrintJob, prepare, write_pdf_atomic
from .context import AppContext
from .file_dialogs import remember_folder
from .print_options import (
    KINDS,
    CardsPanel,
    ChroniclePanel,
    HistoryPanel,
    Opening,
    OptionPanel,
    SologearPanel,
    StandingsPanel,
    UnitSheetPanel,
)
from .sizing import fit_resize
from .widgets import error_style

log = logging.getLogger(__name__)

__all__ = ["KINDS", "PrintDialog", "open_print_dialog", "print_pdf_pages"]

PAPER_LABELS = {"a4": "A4 (210 × 297 mm)", "letter": "Letter (8.5 × 11 in)"}
PREVIEW_DELAY_MS = 250


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


def _opening(tree: list[CampaignNode], selection: dict[str, Any]) -> Opening:
    """What the dialog opens on: the navigator's ``selection`` ({"kind": "platoon"|"sheet"|"campaign", "id": n})
    and the campaign it belongs to."""
    kind, ident = selection.get("kind"), selection.get("id")
    campaign: CampaignNode | None = None
    if kind == "campaign":
        campaign = next((c for c in tree if c.id == ident), None)
    elif kind in ("platoon", "sheet"):
        campaign = next((c for c in tree if any((n.kind, n.id) == (kind, ident) for n in c.children)), None)
    return Opening(tree=tree, kind=str(kind) if kind is not None else None, ident=ident, campaign=campaign)


class PrintDialog(QDialog):
    """The print / export dialog. ``selection`` ({"kind": "platoon"|"campaign"|"sheet", "id": n} or {})
    picks what is printed first. The options of each kind are a panel of :mod:`.print_options`, shown in a stack
    under the kind chooser; the dialog builds the chosen panel's request, previews, saves and prints it."""

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

        # one panel per kind, in the chooser's order (the stack's index is the chooser's)
        self.unit_sheet = UnitSheetPanel(self)
        self.cards = CardsPanel(self.ctx.paths.user_decks_dir, self)
        self.sologear = SologearPanel(self)
        self.history = HistoryPanel(self)
        self.standings = StandingsPanel(self)
        self.chronicle = ChroniclePanel(self)
        self.panels: dict[str, OptionPanel] = {
            panel.kind: panel
            for panel in (self.unit_sheet, self.cards, self.sologear, self.history, self.standings, self.chronicle)
        }
        assert tuple(self.panels) == tuple(kind for kind, _label in KINDS)
        self.pages = QStackedWidget(controls)
        for panel in self.panels.values():
            self.pages.addWidget(panel)
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

    # --------------------------------------------------------------------------------------------- data

    def _fill(self, selection: dict[str, Any]) -> None:
        settings = self.ctx.settings
        paper = str(settings.value("print/paper", "") or default_paper())
        self.paper_combo.setCurrentIndex(max(0, self.paper_combo.findData(paper)))
        self.open_check.setChecked(str(settings.value("print/open_when_done", "true")).lower() != "false")
        for panel in self.panels.values():
            panel.restore(settings)

        opening = _opening(navigator_tree(include_archived=True), selection)
        for panel in self.panels.values():
            panel.fill(opening)
        chosen = "sheet"
        if opening.kind == "sheet" or (
            opening.kind == "campaign" and opening.campaign is not None and opening.campaign.system == "sologear"
        ):
            chosen = "sologear"
        if selection.get("print") in ("standings", "chronicle"):
            chosen = str(selection["print"])
        if chosen == "sheet":
            self.unit_sheet.blank_when_none_ticked()
        self.kind_combo.setCurrentIndex(self.kind_combo.findData(chosen))
        self.pages.setCurrentIndex(self.kind_combo.currentIndex())

    def _connect_changes(self) -> None:
        self.kind_combo.currentIndexChanged.connect(self._kind_changed)
        self.paper_combo.currentIndexChanged.connect(self.schedule_preview)
        self.qr_check.toggled.connect(self.schedule_preview)
        for panel in self.panels.values():
            panel.connect_changes()
            panel.changed.connect(self.schedule_preview)
            panel.refused.connect(self._show_error)
        self.cards.alignment_button.clicked.connect(self.save_alignment_test)

    def _kind_changed(self, index: int) -> None:
        self.pages.setCurrentIndex(index)
        self._clear_preview()  # the old kind's pages must not stay on show (or be saved) while the new one builds
        self.schedule_preview()

    # ------------------------------------------------------------------------------------------ options

    def kind(self) -> str:
        return str(self.kind_combo.currentData())

    def paper(self) -> str:
        return str(self.paper_combo.currentData())

    def panel(self) -> OptionPanel:
        """The options of the kind chosen now."""
        return self.panels[self.kind()]

    def request(self) -> PrintRequest:
        """What is chosen now, as the request ``services.printing.prepare`` builds."""
        return self.panel().request(self.paper(), self.qr_check.isChecked())

    def _check(self, request: PrintRequest) -> str | None:
        """A message when the choice cannot be printed (before any work is done)."""
        return self.panels[request.kind].problem(request)

    def suggested_name(self) -> str:
        return _safe_file_name(self.panel().file_name()) + ".pdf"

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

    def _remember_options(self) -> None:
        """Every panel keeps its options for the next print (after a save or a print)."""
        for panel in self.panels.values():
            panel.remember(self.ctx.settings)

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
        self._remember_options()
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
            setup = self.cards.setup()
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
            build_alignment_test(buffer, paper=paper, size=self.cards.card_size(), setup=setup)
            written = write_pdf_atomic(path, buffer.getvalue())
        except CampaignError as exc:
            self._show_error(str(exc))
            return
        self.cards.remember_setup(self.ctx.settings)
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
        self._remember_options()
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
