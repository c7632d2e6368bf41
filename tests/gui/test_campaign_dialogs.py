"""New campaign / new platoon dialogs (by hand and force generation: "Roll for me" and "I rolled") and the
campaign page, driven with clicks and keys; the hooks push one undoable step."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from campaign_app.gui import campaign_page as page_module
from campaign_app.gui.campaign_dialog import (
    NewCampaignDialog,
    NewPlatoonDialog,
    ThresholdsEditor,
    new_campaign,
    new_platoon,
)
from campaign_app.gui.campaign_page import CampaignPage
from campaign_app.gui.context import AppContext
from campaign_app.gui.roster_models import PlatoonListModel
from campaign_app.rules.experience import Thresholds
from campaign_app.services import campaigns
from campaign_app.services import platoons as platoon_service
from campaign_app.services.campaigns import CampaignDetail
from campaign_app.store.models import Campaign, Platoon, Roll

pytestmark = pytest.mark.usefixtures("fresh_db")


@pytest.fixture
def ctx(qtbot, app_paths, fresh_db, tmp_path) -> AppContext:
    return AppContext(paths=app_paths, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


def click(qtbot, button: QWidget) -> None:
    """Click a push button or a radio button (on its indicator, which is always inside the hit area)."""
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))


def when_dialog_opens(qtbot, act: Callable[[QDialog], None]) -> list[str]:
    """Run ``act`` on the modal dialog as soon as it is shown (the hooks block in ``exec``)."""
    errors: list[str] = []

    def run() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            QTimer.singleShot(10, run)
            return
        try:
            act(dialog)
        except Exception as exc:  # noqa: BLE001 - reported by the test, and the dialog must close
            errors.append(repr(exc))
            dialog.reject()

    QTimer.singleShot(0, run)
    return errors


# --- new campaign -----------------------------------------------------------------------------------------


def test_new_campaign_dialog_validates_the_name(qtbot) -> None:
    campaigns.create_campaign("Congo 1960")
    dialog = NewCampaignDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.ok_button.isEnabled()
    qtbot.keyClicks(dialog.name_edit, "congo 1960")
    assert not dialog.ok_button.isEnabled() and "already exists" in dialog.problem.text()
    qtbot.keyClick(dialog.name_edit, Qt.Key.Key_Backspace)
    qtbot.keyClicks(dialog.name_edit, "1")
    assert dialog.ok_button.isEnabled() and not dialog.problem.text()
    dialog.system.setFocus()
    qtbot.keyClick(dialog.system, Qt.Key.Key_Down)  # Sologear: the Atomic Africa house rules do not apply
    assert dialog.values()["system"] == "sologear" and not dialog.rules_box.isEnabled()


def test_thresholds_editor_only_offers_rising_values(qtbot) -> None:
    editor = ThresholdsEditor()
    qtbot.addWidget(editor)
    editor.show()
    green, regular, veteran, legendary = editor.spins
    assert (green.maximum(), regular.minimum(), regular.maximum(), legendary.maximum()) == (3, 2, 8, 32)
    seen: list[Thresholds] = []
    editor.edited.connect(seen.append)
    green.setFocus()
    for _ in range(5):
        qtbot.keyClick(green, Qt.Key.Key_Up)
    assert green.value() == 3  # stops below Regular (4)
    regular.setFocus()
    qtbot.keyClick(regular, Qt.Key.Key_Up)
    qtbot.keyClick(green, Qt.Key.Key_Up)
    assert editor.thresholds() == Thresholds(4, 5, 9, 16)
    assert seen[-1] == Thresholds(4, 5, 9, 16) and editor.reset_button.isEnabled()
    click(qtbot, editor.reset_button)
    assert editor.thresholds() == Thresholds() and seen[-1] == Thresholds()


def test_new_campaign_hook_creates_one_undoable_campaign(qtbot, ctx: AppContext) -> None:
    def fill(dialog: NewCampaignDialog) -> None:
        qtbot.keyClicks(dialog.name_edit, "Katanga 1961")
        dialog.period.setFocus()
        qtbot.keyClick(dialog.period, Qt.Key.Key_Down)
        qtbot.keyClick(dialog.period, Qt.Key.Key_Down)  # period 2 -> d6
        dialog.objective.setFocus()
        qtbot.keyClick(dialog.objective, Qt.Key.Key_Down)
        click(qtbot, dialog.ok_button)

    errors = when_dialog_opens(qtbot, fill)
    new_id = new_campaign(ctx, None)
    assert not errors
    c = Campaign.get_by_id(new_id)
    assert (c.name, c.period, c.objective_xp_to, c.system) == ("Katanga 1961", 2, "platoon", "atomic_africa")
    assert ctx.undo_stack.count() == 1 and ctx.undo_stack.undoText() == "Create campaign Katanga 1961"
    ctx.undo_stack.undo()
    assert Campaign.get_or_none(Campaign.id == new_id) is None
    ctx.undo_stack.redo()
    assert Campaign.get_by_id(new_id).name == "Katanga 1961"


def test_new_campaign_cancel(qtbot, ctx: AppContext) -> None:
    when_dialog_opens(qtbot, lambda dialog: qtbot.keyClick(dialog, Qt.Key.Key_Escape))
    assert new_campaign(ctx, None) is None
    assert Campaign.select().count() == 0 and ctx.undo_stack.count() == 0


# --- new platoon ------------------------------------------------------------------------------------------


@pytest.fixture
def congo(fresh_db) -> CampaignDetail:
    cid = campaigns.create_campaign("Congo 1960", period=3).id
    return campaigns.show_campaign(cid)


def test_new_platoon_by_hand(qtbot, congo: CampaignDetail) -> None:
    dialog = NewPlatoonDialog(congo)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.by_hand.isChecked() and not dialog.ok_button.isEnabled()
    qtbot.keyClicks(dialog.name_edit, "2nd Platoon")
    dialog.pickers["training"].setFocus()
    qtbot.keyClick(dialog.pickers["training"], Qt.Key.Key_Down)
    assert not dialog.leader_xp_spin.isEnabled()  # no leader named yet
    qtbot.keyClicks(dialog.leader_edit, "Lt. Okafor")
    assert dialog.leader_xp_spin.isEnabled() and not dialog.face_spins[0].isEnabled()
    dialog.xp_spin.setFocus()
    dialog.xp_spin.selectAll()
    qtbot.keyClicks(dialog.xp_spin, "6")
    dialog.leader_xp_spin.selectAll()
    qtbot.keyClicks(dialog.leader_xp_spin, "2")
    values = dialog.values()
    assert values == {
        "campaign": congo.id,
        "name": "2nd Platoon",
        "training": 10,
        "equipment": 8,
        "morale": 8,
        "armor": 1,
        "leader_name": "Lt. Okafor",
        "leader_rank": "Lieutenant",
        "notes": "",
        "xp": 6,
        "leader_xp": 2,
    }
    assert dialog.xp_spin.maximum() == 32


def test_force_generation_i_rolled_validates_the_faces(qtbot, congo: CampaignDetail) -> None:
    dialog = NewPlatoonDialog(congo)
    qtbot.addWidget(dialog)
    dialog.show()
    click(qtbot, dialog.generate)
    assert not dialog.xp_spin.isEnabled() and dialog.roll_for_me.isChecked()
    assert "2d8" in dialog.preview.text()  # period 3 -> d8
    click(qtbot, dialog.i_rolled)
    first, second = dialog.face_spins
    assert first.isEnabled() and (first.minimum(), first.maximum()) == (1, 8)
    first.setFocus()
    first.selectAll()
    qtbot.keyClicks(first, "9")  # not a face of a d8: refused with a message beside the faces, not dropped
    assert first.value() == 1 and first.text() == "d8: 9"
    assert dialog.faces_message.text() == "Face of die 1: 9 is too high (at most 8)"
    assert dialog.faces_message.isVisible()
    first.selectAll()
    qtbot.keyClicks(first, "3")
    second.selectAll()
    qtbot.keyClicks(second, "8")
    assert dialog.faces() == [3, 8]
    assert "Leader <b>2 XP</b> (Green), platoon <b>7 XP</b> (Regular)" in dialog.preview.text()


def test_new_platoon_hook_with_typed_dice(qtbot, ctx: AppContext, congo: CampaignDetail) -> None:
    def fill(dialog: NewPlatoonDialog) -> None:
        qtbot.keyClicks(dialog.name_edit, "3rd Platoon")
        qtbot.keyClicks(dialog.leader_edit, "Sgt. Bello")
        assert dialog.generate.isChecked()  # "Generate platoon…" preselects force generation
        click(qtbot, dialog.i_rolled)
        dialog.face_spins[0].setValue(6)
        dialog.face_spins[1].setValue(2)
        click(qtbot, dialog.ok_button)

    errors = when_dialog_opens(qtbot, fill)
    new_id = new_platoon(ctx, None, congo.id, generate=True)
    assert not errors
    d = platoon_service.platoon_detail(new_id)
    assert (d.xp, d.leader.xp, d.leader.name) == (5, 1, "Sgt. Bello")
    roll = Roll.get(Roll.platoon == new_id)
    assert (roll.faces, roll.source, roll.expression) == ([6, 2], "entered", "2d8")
    ctx.undo_stack.undo()
    assert Platoon.select().count() == 0 and Roll.select().count() == 0


def test_new_platoon_hook_roll_for_me(qtbot, ctx: AppContext, congo: CampaignDetail) -> None:
    def fill(dialog: NewPlatoonDialog) -> None:
        qtbot.keyClicks(dialog.name_edit, "4th Platoon")
        click(qtbot, dialog.generate)
        assert not dialog.ok_button.isEnabled()  # the generated leader needs a name (no "New leader")
        qtbot.keyClicks(dialog.leader_edit, "Lt. Mensah")
        click(qtbot, dialog.ok_button)

    when_dialog_opens(qtbot, fill)
    new_id = new_platoon(ctx, None, congo.id)
    roll = Roll.get(Roll.platoon == new_id)
    assert roll.source == "app" and all(1 <= f <= 8 for f in roll.faces)
    d = platoon_service.platoon_detail(new_id)
    assert d.xp == max(roll.faces) - 1 and d.leader.xp == min(roll.faces) - 1
    assert d.leader.name == "Lt. Mensah"


def test_new_platoon_duplicate_name_keeps_ok_disabled(qtbot, congo: CampaignDetail) -> None:
    platoon_service.create_platoon(congo.id, "2nd Platoon", training=8, equipment=8, morale=8, armor=1)
    dialog = NewPlatoonDialog(congo)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.name_edit, "2nd platoon")
    assert not dialog.ok_button.isEnabled() and "already has a platoon" in dialog.problem.text()


# --- campaign page ----------------------------------------------------------------------------------------


@pytest.fixture
def cpage(qtbot, ctx: AppContext, congo: CampaignDetail) -> CampaignPage:
    for i in range(3):
        platoon_service.create_platoon(
            congo.id,
            f"Platoon {i}",
            training=8,
            equipment=8,
            morale=8,
            armor=1,
            xp=i * 4,
            leader_name=f"Lt. {i}",
            leader_xp=i,
        )
    page = CampaignPage(ctx)
    qtbot.addWidget(page)
    page.resize(1000, 800)
    page.show_campaign(congo.id)
    page.show()
    qtbot.waitExposed(page)
    return page


def test_campaign_page_shows_rules_with_defaults(cpage: CampaignPage) -> None:
    assert cpage.name_edit.text() == "Congo 1960"
    assert cpage.period.value() == 3 and "changed" in cpage.period_default.text()
    assert cpage.thresholds.thresholds() == Thresholds() and "changed" not in cpage.thresholds_default.text()
    assert cpage.objective.value() == "both"
    assert cpage.model.rowCount() == 3 and cpage.model.row_data(2).level == "Regular"


def test_campaign_page_edits_house_rules(qtbot, cpage: CampaignPage) -> None:
    cid = cpage.cid
    cpage.period.setFocus()
    qtbot.keyClick(cpage.period, Qt.Key.Key_Home)
    assert Campaign.get_by_id(cid).period is None and "changed" not in cpage.period_default.text()
    legendary = cpage.thresholds.spins[3]
    legendary.setFocus()
    qtbot.keyClick(legendary, Qt.Key.Key_Up)
    assert Campaign.get_by_id(cid).threshold_legendary == 17
    cpage.objective.setFocus()
    qtbot.keyClick(cpage.objective, Qt.Key.Key_End)
    assert Campaign.get_by_id(cid).objective_xp_to == "platoon"
    assert [o.kind for o in cpage.ctx.undo_stack.operations()[-3:]] == ["campaign.set"] * 3
    cpage.ctx.undo_stack.undo()
    cpage.ctx.undo_stack.undo()
    assert Campaign.get_by_id(cid).threshold_legendary == 16 and cpage.thresholds.spins[3].value() == 16
    # ⚙ the replacement leader's house rule: one die instead of the lower of two (RULES.md 1.2 step 4)
    assert cpage.replacement.value() == 2 and "changed" not in cpage.replacement_default.text()
    cpage.replacement.setFocus()
    qtbot.keyClick(cpage.replacement, Qt.Key.Key_End)
    assert Campaign.get_by_id(cid).replacement_dice == 1 and "changed" in cpage.replacement_default.text()
    cpage.ctx.undo_stack.undo()
    assert Campaign.get_by_id(cid).replacement_dice == 2


def test_campaign_page_rename_archive(qtbot, cpage: CampaignPage) -> None:
    cpage.name_edit.setFocus()
    cpage.name_edit.selectAll()
    qtbot.keyClicks(cpage.name_edit, "Congo 1961")
    qtbot.keyClick(cpage.name_edit, Qt.Key.Key_Return)
    assert Campaign.get_by_id(cpage.cid).name == "Congo 1961"
    click(qtbot, cpage.archive_button)
    assert Campaign.get_by_id(cpage.cid).archived and cpage.archive_button.text() == "Un&archive"
    click(qtbot, cpage.archive_button)
    assert not Campaign.get_by_id(cpage.cid).archived


def test_campaign_page_opens_platoon_with_enter(qtbot, cpage: CampaignPage) -> None:
    opened: list[tuple[str, int]] = []
    cpage.ctx.signals.open_item.connect(lambda kind, i: opened.append((kind, i)))
    cpage.view.setFocus()
    qtbot.keyClick(cpage.view, Qt.Key.Key_Down)
    assert cpage.open_button.isEnabled()
    qtbot.keyClick(cpage.view, Qt.Key.Key_Return)
    assert opened == [("platoon", cpage.model.row_data(cpage.view.currentIndex().row()).id)]


def test_campaign_page_deletes_platoon_and_campaign(qtbot, cpage: CampaignPage, monkeypatch) -> None:
    monkeypatch.setattr(page_module, "confirm", lambda *a, **k: True)
    monkeypatch.setattr(page_module, "confirm_with_option", lambda *a, **k: (True, False))
    cpage.view.selectRow(0)
    click(qtbot, cpage.delete_platoon_button)
    assert Platoon.select().count() == 2 and cpage.model.rowCount() == 2
    click(qtbot, cpage.delete_button)
    assert Campaign.select().count() == 0 and not cpage.rules_box.isEnabled()
    cpage.ctx.undo_stack.undo()
    assert Platoon.select().count() == 2 and cpage.rules_box.isEnabled()
    cpage.ctx.undo_stack.undo()
    assert Platoon.select().count() == 3 and cpage.model.rowCount() == 3


def test_platoon_list_model_passes_qtmodeltester(qtmodeltester, congo: CampaignDetail) -> None:
    platoon_service.create_platoon(congo.id, "Lonely", training=4, equipment=4, morale=4, armor=1)
    model = PlatoonListModel()
    model.set_rows(platoon_service.list_platoons(congo.id))
    qtmodeltester.check(model)
    assert model.data(model.index(0, 1)) == "none"


def test_sologear_campaign_page(qtbot, ctx: AppContext) -> None:
    cid = campaigns.create_campaign("Pilot", "sologear").id
    page = CampaignPage(ctx)
    qtbot.addWidget(page)
    page.show_campaign(cid)
    page.show()
    assert not page.rules_box.isVisible() and not page.platoons_box.isVisible()
    assert "no pilot yet" in page.sheets_label.text() and page.sheet_button.isVisible()


def test_campaign_delete_dialog_can_forget_the_campaign(qtbot, cpage: CampaignPage) -> None:
    """The delete dialog's check box removes the campaign from the journal too (clicked as a person
    does); the journal keeps a summary that names nothing, and undo says it cannot bring it back."""
    from PySide6.QtWidgets import QCheckBox, QMessageBox

    from campaign_app.store.database import current_db
    from campaign_app.store.journal_read import list_operations

    seen: list[str] = []

    def answer(dialog: QDialog) -> None:
        assert isinstance(dialog, QMessageBox)
        seen.append(dialog.text())
        box = dialog.findChild(QCheckBox, "confirm_option")
        assert box is not None and not box.isChecked() and "undo history" in box.text()
        assert "cannot be undone" in dialog.text()
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(6, box.height() // 2))
        assert box.isChecked()
        delete = next(b for b in dialog.buttons() if b.text() == "Delete")
        qtbot.mouseClick(delete, Qt.MouseButton.LeftButton)

    errors = when_dialog_opens(qtbot, answer)
    click(qtbot, cpage.delete_button)
    assert not errors and seen and "Congo 1960" in seen[0]
    assert Campaign.select().count() == 0
    labels = [op.label for op in list_operations()]
    assert not any("Congo" in label or "Platoon 1" in label for label in labels), labels
    database = current_db()
    assert database is not None
    database.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    assert b"Lt. 2" not in database.db_file.read_bytes()
    cpage.ctx.undo_stack.undo()
    assert Campaign.select().count() == 0


def test_campaign_delete_dialog_on_a_club_server_offers_to_erase_without_a_backup(qtbot, cpage: CampaignPage) -> None:
    """On a club server the dialog offers the same check box (the server erases the campaign from its journal)
    and says that no backup can bring it back; cancelled, nothing is deleted."""
    from PySide6.QtWidgets import QCheckBox, QMessageBox

    from campaign_app.server_target import ServerTarget

    seen: list[str] = []

    def answer(dialog: QDialog) -> None:
        assert isinstance(dialog, QMessageBox)
        seen.append(dialog.text())
        box = dialog.findChild(QCheckBox, "confirm_option")
        assert box is not None and "undo history" in box.text()
        qtbot.mouseClick(dialog.button(QMessageBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)

    cpage.ctx.server = ServerTarget("club.example.org", "league", "olga")
    try:
        errors = when_dialog_opens(qtbot, answer)
        click(qtbot, cpage.delete_button)
    finally:
        cpage.ctx.server = None
    assert not errors and seen
    assert "club's journal" in seen[0] and "keeps no backup" in seen[0] and "backup made just before" not in seen[0]
    assert Campaign.select().count() == 1
