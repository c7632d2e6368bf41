"""File ▸ Print / Export PDF…: the dialog starts from the selection, previews in QtPdf, builds off the GUI
thread with a progress bar for decks, saves atomically and opens the file; cancelling writes nothing."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt, QThread, QTimer
from PySide6.QtPdf import QPdfDocument
from PySide6.QtWidgets import QApplication, QDialog

from campaign_app.gui import print_dialog
from campaign_app.gui.print_dialog import PrintDialog, open_print_dialog
from campaign_app.rules.experience import Thresholds
from campaign_app.services.demo import DEMO_CAMPAIGN, create_demo
from campaign_app.services.navigator import CampaignNode, navigator_tree
from campaign_app.services.print_requests import CardsRequest

TIMEOUT = 15000


def _demo_campaign() -> CampaignNode:
    return next(c for c in navigator_tree() if c.name == DEMO_CAMPAIGN)


@pytest.fixture
def platoon_id(fresh_db) -> int:
    create_demo()
    return next(c.id for c in _demo_campaign().children if c.kind == "platoon")


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    calls: list[Path] = []
    monkeypatch.setattr(print_dialog, "open_file", lambda path: calls.append(path) or True)
    return calls


def _dialog(qtbot: Any, gui_ctx: Any, selection: dict[str, Any]) -> PrintDialog:
    dialog = PrintDialog(gui_ctx, None, selection)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _building(dialog: PrintDialog) -> bool:
    """The dialog says it is building a PDF: its progress bar is up."""
    return dialog.progress.isVisible()


def _wait_preview(qtbot: Any, dialog: PrintDialog, pages: int) -> None:
    qtbot.waitUntil(lambda: dialog.preview_pages() == pages and not _building(dialog), timeout=TIMEOUT)


def preview_text(dialog: PrintDialog) -> str:
    """The text of the preview the dialog shows (QtPdf's own reading of the PDF on screen)."""
    pages = (dialog.document.getAllText(i).text() for i in range(dialog.preview_pages()))
    return " ".join(" ".join(pages).split())


def _threads_running(dialog: PrintDialog) -> list[QThread]:
    return [t for t in dialog.findChildren(QThread) if t.isRunning()]


def _pdf_pages(path: Path) -> int:
    return len(PdfReader(io.BytesIO(path.read_bytes())).pages)


def test_starts_from_the_selected_platoon_and_previews_it(qtbot, gui_ctx, platoon_id: int) -> None:
    dialog = _dialog(qtbot, gui_ctx, {"kind": "platoon", "id": platoon_id})
    assert dialog.kind() == "sheet" and dialog.unit_sheet.checked_platoons() == [platoon_id]
    assert dialog.unit_sheet.sheet_mode() == "filled"
    _wait_preview(qtbot, dialog, 1)
    assert dialog.preview_label.text() == "Preview: 1 page"
    assert dialog.save_button.isEnabled()
    # two more pages: pencil mode still prints one page per platoon; the preview follows the choice
    qtbot.mouseClick(dialog.unit_sheet.mode_buttons["pencil"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "pencil mode" in preview_text(dialog), timeout=TIMEOUT)
    assert dialog.preview_pages() == 1


def test_save_writes_the_pdf_and_opens_it(qtbot, gui_ctx, platoon_id: int, tmp_path: Path, opened: list[Path]) -> None:
    dialog = _dialog(qtbot, gui_ctx, {"kind": "platoon", "id": platoon_id})
    dialog.paper_combo.setCurrentIndex(dialog.paper_combo.findData("a4"))
    target = tmp_path / "out" / "sheet"
    target.parent.mkdir()
    asked: list[str] = []
    dialog.choose_path = lambda suggested: asked.append(suggested) or str(target)
    with qtbot.waitSignal(dialog.saved, timeout=TIMEOUT) as blocker:
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    written = Path(blocker.args[0])
    assert written == target.with_name("sheet.pdf")  # ".pdf" added
    assert asked == ["2nd Platoon - Unit Data Sheet.pdf"]
    reader = PdfReader(io.BytesIO(written.read_bytes()))
    assert len(reader.pages) == 1 and round(float(reader.pages[0].mediabox.width)) == 595
    assert "2nd Platoon" in reader.pages[0].extract_text()
    assert opened == [written]
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert [p.name for p in written.parent.iterdir()] == ["sheet.pdf"]  # no temporary file left
    assert gui_ctx.settings.value("files/last_folder") == str(written.parent.resolve())
    assert gui_ctx.settings.value("print/paper") == "a4"


def test_cancel_writes_nothing(qtbot, gui_ctx, platoon_id: int, tmp_path: Path, opened: list[Path]) -> None:
    dialog = _dialog(qtbot, gui_ctx, {"kind": "platoon", "id": platoon_id})
    folder = tmp_path / "nothing"
    folder.mkdir()
    dialog.choose_path = lambda suggested: None  # the user cancels the file dialog
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    _wait_preview(qtbot, dialog, 1)
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Rejected
    assert list(folder.iterdir()) == [] and opened == []


def test_nothing_ticked_is_explained_and_cannot_be_saved(qtbot, gui_ctx, platoon_id: int) -> None:
    dialog = _dialog(qtbot, gui_ctx, {"kind": "platoon", "id": platoon_id})
    dialog.unit_sheet.platoon_list.item(0).setCheckState(Qt.CheckState.Unchecked)
    qtbot.waitUntil(lambda: "Tick at least one platoon" in dialog.message.text(), timeout=TIMEOUT)
    assert not dialog.save_button.isEnabled() and dialog.preview_pages() == 0
    qtbot.mouseClick(dialog.unit_sheet.mode_buttons["blank"], Qt.MouseButton.LeftButton)
    _wait_preview(qtbot, dialog, 1)
    assert dialog.save_button.isEnabled()


def test_cards_with_progress(qtbot, gui_ctx, platoon_id: int, tmp_path: Path, opened: list[Path]) -> None:
    dialog = _dialog(qtbot, gui_ctx, {"kind": "platoon", "id": platoon_id})
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("cards"))
    assert dialog.pages.currentIndex() == dialog.kind_combo.currentIndex()
    decks, cards = dialog.cards.chosen_cards()
    assert decks == ["atomic-africa"] and cards == []  # the deck of the platoon's game system
    root = dialog.cards.deck_tree.invisibleRootItem()
    decks_by_id = {root.child(i).data(0, Qt.ItemDataRole.UserRole): root.child(i) for i in range(root.childCount())}
    deck_size = decks_by_id["atomic-africa"].childCount()  # the deck's cards, as the tree lists them
    assert deck_size >= 2
    qtbot.waitUntil(lambda: dialog.preview_pages() >= 2 and not _building(dialog), timeout=TIMEOUT)
    assert dialog.progress.maximum() == deck_size and dialog.progress.value() == deck_size
    assert dialog.preview_label.text() == f"Preview: {dialog.preview_pages()} pages"
    assert "After the battle" in preview_text(dialog)
    # one single card of another deck, tarot size
    decks_by_id["atomic-africa"].setCheckState(0, Qt.CheckState.Unchecked)
    decks_by_id["sologear"].child(0).setCheckState(0, Qt.CheckState.Checked)
    dialog.cards.size_combo.setCurrentIndex(dialog.cards.size_combo.findData("tarot"))
    assert dialog.cards.chosen_cards() == ([], [decks_by_id["sologear"].child(0).data(0, Qt.ItemDataRole.UserRole)])
    target = tmp_path / "cards.pdf"
    dialog.choose_path = lambda suggested: str(target)
    with qtbot.waitSignal(dialog.saved, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert _pdf_pages(target) == 1
    assert gui_ctx.settings.value("print/card_size") == "tarot"


def test_sologear_selection_and_blank_forms(qtbot, gui_ctx) -> None:
    from campaign_app.services import sologear_sheet as sheet_service

    sheet = sheet_service.create_sheet("Badlands 2", "Janne", 250).id
    dialog = _dialog(qtbot, gui_ctx, {"kind": "sheet", "id": sheet})
    assert dialog.kind() == "sologear" and dialog.sologear.sologear_combo.currentData() == sheet
    _wait_preview(qtbot, dialog, 2)
    assert "Badlands 2" in preview_text(dialog)  # the campaign's own sheet
    qtbot.mouseClick(dialog.sologear.sologear_blank, Qt.MouseButton.LeftButton)
    assert not dialog.sologear.sologear_combo.isEnabled()
    qtbot.waitUntil(
        lambda: dialog.preview_pages() == 2 and not _building(dialog) and "Badlands 2" not in preview_text(dialog),
        timeout=TIMEOUT,
    )  # the blank forms
    assert dialog.suggested_name() == "Sologear forms (blank).pdf"


def test_history_report(qtbot, gui_ctx, platoon_id: int) -> None:
    dialog = _dialog(qtbot, gui_ctx, {"kind": "campaign", "id": _demo_campaign().id})
    assert dialog.unit_sheet.checked_platoons() == [platoon_id]
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("history"))
    qtbot.waitUntil(lambda: "PLATOON HISTORY" in preview_text(dialog) and not _building(dialog), timeout=TIMEOUT)
    assert dialog.preview_pages() == 1 and dialog.suggested_name() == "2nd Platoon - history.pdf"


def test_empty_database_offers_blank_sheets(qtbot, gui_ctx) -> None:
    dialog = _dialog(qtbot, gui_ctx, {})
    assert dialog.kind() == "sheet" and dialog.unit_sheet.sheet_mode() == "blank"
    assert dialog.sologear.sologear_blank.isChecked() and not dialog.sologear.sologear_blank.isEnabled()
    _wait_preview(qtbot, dialog, 1)


def test_closing_while_building_is_safe(qtbot, gui_ctx, platoon_id: int, opened: list[Path]) -> None:
    dialog = _dialog(qtbot, gui_ctx, {"kind": "platoon", "id": platoon_id})
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("cards"))
    qtbot.waitUntil(lambda: _building(dialog), timeout=TIMEOUT)
    dialog.reject()
    assert not _threads_running(dialog) and opened == []


def test_the_menu_hook_opens_a_modal_dialog(qtbot, gui_ctx, platoon_id: int) -> None:
    seen: list[str] = []

    def close_it() -> None:
        widget = QApplication.activeModalWidget()
        assert isinstance(widget, PrintDialog)
        seen.append(widget.kind())
        widget.reject()

    QTimer.singleShot(0, close_it)
    open_print_dialog(gui_ctx, None, {"kind": "platoon", "id": platoon_id})
    assert seen == ["sheet"]


def test_print_sends_the_preview_pages_to_a_printer(qtbot, gui_ctx, platoon_id: int, tmp_path: Path) -> None:
    """Print… hands the very pages of the PDF to a QPrinter (here one that writes a PDF file, as no real
    printer is attached offscreen): same page count, same paper size, full page."""
    from PySide6.QtPrintSupport import QPrinter

    dialog = _dialog(qtbot, gui_ctx, {"kind": "platoon", "id": platoon_id})
    dialog.paper_combo.setCurrentIndex(dialog.paper_combo.findData("letter"))
    _wait_preview(qtbot, dialog, 1)
    out = tmp_path / "printed.pdf"
    asked: list[Any] = []

    def make() -> QPrinter:
        printer = QPrinter(QPrinter.PrinterMode.ScreenResolution)
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(out))
        return printer

    def answer(parent: Any, printer: QPrinter) -> bool:
        asked.append(printer)
        return True

    dialog.make_printer = make
    dialog.choose_printer = answer
    qtbot.mouseClick(dialog.print_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: out.exists() and out.stat().st_size > 0, timeout=TIMEOUT)
    assert len(asked) == 1 and asked[0].fullPage()
    printed = PdfReader(io.BytesIO(out.read_bytes()))
    assert len(printed.pages) == 1
    box = printed.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)  # Letter, as the sheet
    assert "Sent 1 page to the printer" in dialog.message.text()
    # cancelling the system dialog prints nothing
    out.unlink()
    dialog.choose_printer = lambda parent, printer: False
    qtbot.mouseClick(dialog.print_button, Qt.MouseButton.LeftButton)
    qtbot.wait(200)
    assert not out.exists()


def test_cards_follow_the_chosen_campaign_and_print_setup(
    qtbot, gui_ctx, platoon_id: int, tmp_path: Path, opened: list[Path]
) -> None:
    from campaign_app.services import campaigns as cs

    camp = _demo_campaign()
    cs.set_campaign(camp.id, thresholds=Thresholds(2, 5, 10, 20), replacement_dice=1)
    dialog = _dialog(qtbot, gui_ctx, {"kind": "platoon", "id": platoon_id})
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("cards"))
    assert dialog.cards.rules_combo.currentData() == camp.id  # the platoon's campaign
    request = dialog.request()
    assert isinstance(request, CardsRequest) and request.campaign == camp.id and request.setup is not None
    assert request.setup.margin == 6.5
    qtbot.waitUntil(lambda: dialog.preview_pages() >= 2 and not _building(dialog), timeout=TIMEOUT)
    dialog.choose_path = lambda suggested: None  # Enter in a field presses the default button (Save PDF…)
    dialog.cards.margin_spin.setFocus()
    dialog.cards.margin_spin.lineEdit().selectAll()
    ready = QPdfDocument.Status.Ready
    with qtbot.waitSignal(
        dialog.document.statusChanged, check_params_cb=lambda status: status == ready, timeout=TIMEOUT
    ):  # the preview is built again for the new margin
        qtbot.keyClicks(dialog.cards.margin_spin.lineEdit(), "8")
        qtbot.keyClick(dialog.cards.margin_spin.lineEdit(), Qt.Key.Key_Return)
    assert dialog.cards.setup().margin == 8.0
    qtbot.waitUntil(lambda: not _building(dialog), timeout=TIMEOUT)
    text = preview_text(dialog)
    assert f"Rules: campaign {camp.name}" in text  # the cards say whose rules they print
    assert "Regular 5+" in text  # the campaign's thresholds on the orders card
    # card stock needs a card-stock size: said in the dialog, and nothing can be saved meanwhile
    dialog.cards.stock_check.setChecked(True)
    qtbot.waitUntil(lambda: "Card stock takes one card per page" in dialog.message.text(), timeout=TIMEOUT)
    assert not dialog.save_button.isEnabled()
    dialog.cards.size_combo.setCurrentIndex(dialog.cards.size_combo.findData("a6"))
    qtbot.waitUntil(lambda: dialog.save_button.isEnabled() and not _building(dialog), timeout=TIMEOUT)
    assert "Card stock" not in dialog.message.text()
    # the alignment test page
    target = tmp_path / "align.pdf"
    dialog.choose_path = lambda suggested: str(target)
    qtbot.mouseClick(dialog.cards.alignment_button, Qt.MouseButton.LeftButton)
    assert _pdf_pages(target) == 2 and gui_ctx.settings.value("print/margin_mm") in (8.0, "8.0", "8")


def test_a_margin_out_of_range_is_refused_not_clamped(qtbot: Any, gui_ctx: Any, platoon_id: int) -> None:
    dialog = _dialog(qtbot, gui_ctx, {"kind": "platoon", "id": platoon_id})
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("cards"))
    spin = dialog.cards.margin_spin
    spin.setFocus()  # the field selects its whole text when it gets the focus
    qtbot.keyClicks(spin.lineEdit(), "40")  # so this replaces "6.5 mm" (no "406.5")
    assert spin.lineEdit().text().startswith("40")
    qtbot.waitUntil(lambda: "too high" in dialog.message.text(), timeout=TIMEOUT)
    assert not dialog.save_button.isEnabled()
