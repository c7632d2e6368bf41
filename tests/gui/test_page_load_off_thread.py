"""Pages read off the GUI thread on a club server: a real PostgreSQL behind the latency proxy of
benchmarks/bench_club_latency.py (slow enough that a page takes a good part of a second). While a page is read
the window handles typing and its timers keep running; then the page shows the right data; a page shown again
shows what it had at once and the fresh data when it comes; a second request supersedes the first."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from server_window import server_window

from benchmarks.bench_club_latency import LatencyProxy
from campaign_app.gui.history_view import HistoryView
from campaign_app.gui.main_window import MainWindow
from campaign_app.gui.platoon_page import PlatoonPage
from campaign_app.services import campaigns
from campaign_app.services import platoons as platoon_service
from campaign_app.store import close_db, init_db
from tests.ids import campaign_id

pytest.importorskip("psycopg")

DELAY_MS = 60.0
"""Each way: 120 ms a round trip, so a platoon page (several round trips) is read for well over 100 ms."""


@pytest.fixture
def slow_club(pg_server: Any, app_paths: Any) -> Any:
    """A club database with two platoons, opened through the latency proxy: (url through the proxy, ids)."""
    pg_server.sql(
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'slowgui') THEN "
        "CREATE ROLE slowgui LOGIN SUPERUSER PASSWORD 'pw-slowgui'; END IF; END $$"
    )
    name = f"slow_{uuid.uuid4().hex[:10]}"
    pg_server.create_database(name)
    url = pg_server.url(name, user="slowgui", password="pw-slowgui", tcp=True)
    init_db(url, app_paths.backup_dir, daily_backup=False)
    campaigns.create_campaign("Congo 1960")
    ids = {}
    for platoon, xp in (("2nd Platoon", 6), ("3rd Platoon", 14)):
        edit = platoon_service.create_platoon(
            campaign_id("Congo 1960"),
            platoon,
            training=10,
            equipment=10,
            morale=8,
            armor=2,
            xp=xp,
            leader_name="Lt. Okafor",
        )
        ids[platoon] = edit.id
    close_db()
    with LatencyProxy(pg_server.port, DELAY_MS) as proxy:
        slow = url.replace(f":{pg_server.port}/", f":{proxy.port}/")
        init_db(slow, app_paths.backup_dir, daily_backup=False)
        yield slow, ids
        close_db()


def _window(qtbot: Any, app_paths: Any, url: str) -> MainWindow:
    win = server_window(qtbot, app_paths, url)
    return win


def _platoon_page(win: MainWindow) -> PlatoonPage:
    page = win.page("platoon")
    assert isinstance(page, PlatoonPage)
    return page


def worker_threads() -> list[threading.Thread]:
    """The page loader's reading threads that are running (by the name it gives them)."""
    return [t for t in threading.enumerate() if t.name == "campaign_app-db-worker" and t.is_alive()]


def test_the_window_handles_input_while_a_platoon_page_is_read(qtbot, app_paths, slow_club) -> None:  # type: ignore[no-untyped-def]
    url, ids = slow_club
    win = _window(qtbot, app_paths, url)
    ticks: list[int] = []
    timer = QTimer(win)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(10)
    win.open_item("platoon", ids["3rd Platoon"])
    page = _platoon_page(win)
    assert page.loading.waiting  # the read went to the worker: the event loop is free
    assert not page.name_edit.isEnabled()  # nothing is typed over another platoon's values meanwhile
    assert "Reading the platoon" in page.info_label.text()
    assert win.ctx.db_worker is not None
    assert worker_threads() != []  # a thread of its own, not the event loop's

    # a person types into the navigator's filter while the page is being read: each key is handled at once
    qtbot.keyClicks(win.navigator.filter_edit, "3rd")
    assert win.navigator.filter_edit.text() == "3rd"
    assert page.loading.waiting, "the read should still be running over the slow link"
    qtbot.waitUntil(lambda: not page.loading.waiting, timeout=10000)
    assert len(ticks) >= 3  # the window's timers ran while it waited
    timer.stop()

    assert page.name_edit.text() == "3rd Platoon"
    assert page.name_edit.isEnabled()
    assert "14 XP" in page.platoon_xp_label.text()
    assert "Congo 1960" in page.info_label.text()
    qtbot.waitUntil(lambda: not win.busy_indicator.isVisible(), timeout=5000)


def test_a_page_shown_again_shows_its_old_content_at_once_then_the_fresh(qtbot, app_paths, slow_club) -> None:  # type: ignore[no-untyped-def]
    url, ids = slow_club
    win = _window(qtbot, app_paths, url)
    page = _platoon_page(win)
    second, third = ids["2nd Platoon"], ids["3rd Platoon"]
    win.open_item("platoon", second)
    qtbot.waitUntil(lambda: page.name_edit.text() == "2nd Platoon" and not page.loading.waiting, timeout=10000)
    win.open_item("platoon", third)
    qtbot.waitUntil(lambda: page.name_edit.text() == "3rd Platoon" and not page.loading.waiting, timeout=10000)
    worker = win.ctx.db_worker
    assert worker is not None
    qtbot.waitUntil(lambda: worker.pending == 0, timeout=10000)

    # another program renames the 2nd platoon (no notice reaches this window: it does not listen here)
    platoon_service.rename_platoon(second, "2nd Rifles")
    win.open_item("platoon", second)
    assert page.name_edit.text() == "2nd Platoon"  # what it read before, at once
    assert page.name_edit.isEnabled()  # usable while the fresh read runs
    assert worker.pending >= 1
    qtbot.waitUntil(lambda: page.name_edit.text() == "2nd Rifles", timeout=10000)


def test_a_second_request_supersedes_the_first(qtbot, app_paths, slow_club) -> None:  # type: ignore[no-untyped-def]
    url, ids = slow_club
    win = _window(qtbot, app_paths, url)
    page = _platoon_page(win)
    shown: list[int] = []
    fill = page.loading.show

    def record(key: int, data: Any) -> None:
        shown.append(key)
        fill(key, data)

    page.loading.show = record
    win.open_item("platoon", ids["2nd Platoon"])
    win.open_item("platoon", ids["3rd Platoon"])
    qtbot.waitUntil(lambda: not page.loading.waiting, timeout=10000)
    worker = win.ctx.db_worker
    assert worker is not None
    qtbot.waitUntil(lambda: worker.pending == 0, timeout=10000)
    assert shown == [ids["3rd Platoon"]]  # the first answer (if it was read at all) was never shown
    assert page.name_edit.text() == "3rd Platoon"


def test_the_history_tab_is_read_off_the_gui_thread(qtbot, app_paths, slow_club) -> None:  # type: ignore[no-untyped-def]
    url, ids = slow_club
    win = _window(qtbot, app_paths, url)
    page = _platoon_page(win)
    history = page.findChild(HistoryView)
    assert history is not None
    page.tabs.setCurrentWidget(history)
    win.open_item("platoon", ids["3rd Platoon"])
    assert history.loading.waiting
    assert "Reading the history" in history.summary.text()
    qtbot.waitUntil(lambda: not history.loading.waiting, timeout=10000)
    assert history.title.text() == "History of 3rd Platoon (Congo 1960)"
    assert "No battles yet" in history.summary.text()


def test_the_campaign_page_is_read_off_the_gui_thread(qtbot, app_paths, slow_club) -> None:  # type: ignore[no-untyped-def]
    url, _ids = slow_club
    win = _window(qtbot, app_paths, url)
    from campaign_app.gui.campaign_page import CampaignPage
    from campaign_app.services.navigator import find_item

    cid = find_item("campaign", "Congo 1960")
    assert cid
    win.open_item("campaign", cid)
    page = win.page("campaign")
    assert isinstance(page, CampaignPage)
    assert page.loading.waiting
    qtbot.waitUntil(lambda: not page.loading.waiting, timeout=10000)
    assert page.name_edit.text() == "Congo 1960"
    assert page.model.rowCount() == 2


def test_the_worker_closes_its_connection_with_the_window(qtbot, app_paths, slow_club, pg_server) -> None:  # type: ignore[no-untyped-def]
    url, ids = slow_club
    before = set(worker_threads())
    win = _window(qtbot, app_paths, url)
    page = _platoon_page(win)
    win.open_item("platoon", ids["2nd Platoon"])
    qtbot.waitUntil(lambda: not page.loading.waiting, timeout=10000)
    worker = win.ctx.db_worker
    assert worker is not None and worker.reads >= 1
    [thread] = set(worker_threads()) - before  # this window's reading thread
    session = worker.session
    assert session is not None
    import psycopg

    def alive() -> bool:
        with psycopg.connect(pg_server.url("postgres"), autocommit=True) as side:
            return bool(side.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (session,)).fetchall())

    assert alive()  # one connection, kept between reads
    win.close()
    assert win.ctx.db_worker is None
    assert not thread.is_alive()
    qtbot.waitUntil(lambda: not alive(), timeout=5000)  # the thread closed it
