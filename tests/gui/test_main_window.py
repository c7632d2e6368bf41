from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from campaign_app.gui.main_window import MainWindow
from campaign_app.services.demo import DEMO_CAMPAIGN, DEMO_PLATOON, create_demo
from campaign_app.store.models import Campaign


def test_main_window_has_menus_navigator_and_status_bar(qtbot, gui_ctx):
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    titles = [a.text().replace("&", "") for a in win.menuBar().actions()]
    for name in ("File", "Edit", "View", "Tools", "Help"):
        assert name in titles
    assert win.navigator.isVisibleTo(win)
    assert win.statusBar() is not None
    # the file's name, cut in the middle when long (a third of the window at most); in full in its tip
    assert str(gui_ctx.paths.db_file) in win.db_label.toolTip()
    assert win.db_label.text().endswith("campaign.db")


def test_first_run_page_shown_on_empty_database_and_sample_loads(qtbot, gui_ctx):
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    assert win.stack.currentWidget() is win.first_run
    qtbot.mouseClick(win.first_run.sample_button, Qt.MouseButton.LeftButton)
    assert Campaign.select().where(Campaign.name == DEMO_CAMPAIGN).exists()
    qtbot.waitUntil(lambda: win.stack.currentWidget() is not win.first_run)
    assert DEMO_CAMPAIGN in win.navigator.data_for_tests()


def test_navigator_filter_finds_platoon(qtbot, gui_ctx):
    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    qtbot.keyClick(win, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: win.navigator.filter_edit.hasFocus())
    qtbot.keyClicks(win.navigator.filter_edit, "2nd")
    qtbot.keyClick(win.navigator.filter_edit, Qt.Key.Key_Return)
    assert win.navigator.current()[0] == "platoon"
    assert win.navigator.tree.currentIndex().data() == DEMO_PLATOON
    qtbot.keyClicks(win.navigator.filter_edit, "zzz-no-such")
    assert win.navigator.proxy.rowCount() == 0


def test_about_box_shows_version(qtbot, gui_ctx):
    from campaign_app import __version__

    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    seen: list[str] = []

    def close_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            seen.append(box.text())
            box.accept()

    QTimer.singleShot(0, close_box)
    win.act_about.trigger()
    assert seen and __version__ in seen[0]


def test_window_geometry_is_remembered(qtbot, gui_ctx):
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.resize(731, 517)
    win.show()
    win.close()
    again = MainWindow(gui_ctx)
    qtbot.addWidget(again)
    assert (again.width(), again.height()) == (731, 517)


def test_archiving_the_shown_campaign_keeps_its_actions(qtbot, gui_ctx):
    from campaign_app.services.campaigns import archive_campaign
    from campaign_app.store.models import Platoon

    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    platoon = Platoon.get(Platoon.name == DEMO_PLATOON)
    win.open_item("platoon", platoon.id)
    assert win.act_log_battle.isEnabled() and win.act_new_platoon.isEnabled()
    gui_ctx.signals.op_changed.emit(archive_campaign(platoon.campaign_id).changes)  # as another view would
    # the navigator hides an archived campaign, but its platoon stays in view, named in the title
    assert win.stack.currentWidget() is win.page("platoon")
    assert win.windowTitle().startswith(f"{DEMO_PLATOON} \u2014 ")
    assert win.act_log_battle.isEnabled() and win.act_new_platoon.isEnabled()


def test_new_platoon_is_off_for_sologear_campaigns(qtbot, gui_ctx):
    from campaign_app.services.demo import DEMO_SOLOGEAR
    from campaign_app.store.models import Campaign as C

    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.open_item("campaign", C.get(C.name == DEMO_SOLOGEAR).id)
    assert not win.act_new_platoon.isEnabled()
    win.open_item("campaign", C.get(C.name == DEMO_CAMPAIGN).id)
    assert win.act_new_platoon.isEnabled()


def test_empty_page_says_what_to_do_and_offers_the_buttons(qtbot, gui_ctx):
    """With campaigns but nothing picked, the page names the next steps and its buttons do them."""
    create_demo()
    win = MainWindow(gui_ctx)
    qtbot.addWidget(win)
    win.show()
    win.stack.setCurrentWidget(win.empty_page)
    texts = [b.text() for b in win.empty_page.buttons]
    assert texts == ["New campaign…", "New Sologear campaign…", "New platoon…", "Log battle…"]
    assert all("&" not in t for t in texts)  # the menus keep their Alt keys
    opened: list[str] = []

    def close_dialog() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is not None:
            opened.append(dialog.windowTitle())
            dialog.reject()

    QTimer.singleShot(0, close_dialog)
    qtbot.mouseClick(win.empty_page.buttons[0], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(opened))
    assert "campaign" in opened[0].lower()
    assert Campaign.select().count() == 2  # cancelled: nothing written


def test_a_campaign_deleted_elsewhere_can_be_undone_here(qtbot, gui_ctx):
    from campaign_app.gui.campaign_page import CampaignPage
    from campaign_app.services import campaigns

    create_demo()
    cid = Campaign.get(Campaign.name == DEMO_CAMPAIGN).id
    page = CampaignPage(gui_ctx)
    qtbot.addWidget(page)
    page.show_campaign(cid)
    page.show()
    campaigns.delete_campaign(cid)  # as campaign-cli would: one operation of the shared journal
    page.load()
    assert "Edit \u25b8 Undo" in page.info_label.text()  # this window's Undo reaches it
    assert gui_ctx.undo_stack.undoText().startswith("Delete campaign")
    gui_ctx.undo_stack.undo()
    assert page.name_edit.text() == DEMO_CAMPAIGN and page.rules_box.isEnabled()
