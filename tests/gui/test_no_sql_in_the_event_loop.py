"""A window on a club server waits on no network in its event loop, and holds one connection.

A real PostgreSQL behind the latency proxy of benchmarks/bench_club_latency.py. Every statement the window's
database object sends is recorded with the thread that sent it (the store's ``execute_sql``, where every query of
peewee and of the services passes). Every page and every tab is shown, the navigator read again, the undo list
rebuilt, page edits typed, Edit ▸ Undo and Redo used and another player's change delivered: the event loop's
thread sends nothing. The control: a service called in the event loop is recorded as the event loop's. The
server's own view (``pg_stat_activity``) counts the window's connections: one for its reads and writes, one that
listens."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabWidget, QWidget
from server_window import server_window

from benchmarks.bench_club_latency import LatencyProxy
from campaign_app.gui.main_window import MainWindow
from campaign_app.rules.dice import TypedDice
from campaign_app.server_target import parse_server_url
from campaign_app.services import battles, campaigns, death_blow, server_link
from campaign_app.services import platoons as platoon_service
from campaign_app.services.demo import DEMO_CAMPAIGN, DEMO_SOLOGEAR, create_demo
from campaign_app.services.navigator import find_item, navigator_tree
from campaign_app.store import close_db, init_db

psycopg = pytest.importorskip("psycopg")

DELAY_MS = 15.0
"""Each way: 30 ms a round trip (enough that a read in the event loop would be felt)."""


@pytest.fixture
def club(pg_server: Any, app_paths: Any) -> Iterator[tuple[str, str, str, dict[str, int]]]:
    """A club database with a campaign of each kind (a platoon with battles, a Sologear pilot, a fighter),
    opened through the latency proxy: (url through the proxy, the direct url, the database's name, ids)."""
    pg_server.sql(
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'onegui') THEN "
        "CREATE ROLE onegui LOGIN SUPERUSER PASSWORD 'pw-onegui'; END IF; END $$"
    )
    name = f"one_{uuid.uuid4().hex[:10]}"
    pg_server.create_database(name)
    url = pg_server.url(name, user="onegui", password="pw-onegui", tcp=True)
    init_db(url, app_paths.backup_dir, daily_backup=False)
    create_demo()  # Congo 1960 (sample) with its platoons, and a Sologear pilot
    camp = campaigns.create_campaign("The Pit", "death-blow")
    fighter = death_blow.create_fighter(camp.id, "Kenji", level=2).id
    congo = find_item("campaign", DEMO_CAMPAIGN)
    assert congo is not None
    platoon = platoon_service.create_platoon(
        congo, "2nd Rifles", training=10, equipment=10, morale=8, armor=2, xp=6, leader_name="Lt. Okafor"
    ).id
    battles.log_battle(platoon, wounds=1, outcome="victory", scenario="Bridge", dice=TypedDice([[3], [12, 12]]))
    sheet = find_item("sheet", DEMO_SOLOGEAR)
    assert sheet is not None
    sologear = find_item("campaign", DEMO_SOLOGEAR)
    assert sologear is not None
    ids = {"platoon": platoon, "sheet": sheet, "fighter": fighter, "campaign": camp.id, "sologear": sologear}
    ids["congo"] = congo
    close_db()
    with LatencyProxy(pg_server.port, DELAY_MS) as proxy:
        slow = url.replace(f":{pg_server.port}/", f":{proxy.port}/")
        init_db(slow, app_paths.backup_dir, daily_backup=False)
        yield slow, url, name, ids
        close_db()


class Recorder:
    """Wraps the open database's ``execute_sql``: each statement with the name of the thread that sent it."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.on = True
        database = server_link.open_database()
        plain = database.execute_sql

        def execute_sql(sql: str, params: Any = None) -> Any:
            if self.on:
                self.sent.append((threading.current_thread().name, sql[:100]))
            return plain(sql, params)

        database.execute_sql = execute_sql

    def in_event_loop(self) -> list[str]:
        main = threading.main_thread().name
        return [sql for thread, sql in self.sent if thread == main]


def _window(qtbot: Any, app_paths: Any, url: str) -> MainWindow:
    win = server_window(qtbot, app_paths, url)
    qtbot.waitExposed(win)
    return win


def _idle(qtbot: Any, win: MainWindow) -> None:
    """Wait until the window's database thread has nothing left (and the answers were shown)."""
    worker = win.ctx.db_worker
    assert worker is not None
    qtbot.waitUntil(lambda: worker.pending == 0, timeout=15000)
    qtbot.wait(30)
    qtbot.waitUntil(lambda: worker.pending == 0, timeout=15000)


def _every_tab(qtbot: Any, win: MainWindow, page: QWidget) -> list[str]:
    """Show each tab of the page (and of the tabs within it), as Ctrl+Tab would; their titles."""
    seen = []
    for tabs in page.findChildren(QTabWidget):
        for i in range(tabs.count()):
            tabs.setCurrentIndex(i)
            seen.append(tabs.tabText(i).replace("&", ""))
            _idle(qtbot, win)
    return seen


def _connections(pg_server: Any, name: str) -> list[tuple[str, str]]:
    """The server's sessions on the database (application name, state), asked directly (not through the
    proxy, not by the window)."""
    with psycopg.connect(pg_server.url("postgres"), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT application_name, state FROM pg_stat_activity WHERE datname = %s ORDER BY 1", (name,)
        ).fetchall()
    return [(str(a), str(s)) for a, s in rows]


def test_every_page_tab_edit_and_undo_runs_off_the_event_loop(qtbot, app_paths, club) -> None:  # type: ignore[no-untyped-def]
    url, direct, _name, ids = club
    recorder = Recorder()
    win = _window(qtbot, app_paths, url)
    win.start_live()
    _idle(qtbot, win)
    assert win.navigator.any_campaign and len(win.navigator.data_for_tests()) == 3
    recorder.sent.clear()

    shown: dict[str, list[str]] = {}
    every_item = (("campaign", "sologear"), ("campaign", "campaign"), ("campaign", "congo"))
    every_item += (("platoon", "platoon"), ("sheet", "sheet"), ("fighter", "fighter"))
    for kind, key in every_item:  # each campaign's page (Atomic Africa, Sologear, d12 Death Blow), each item's
        win.open_item(kind, ids[key])
        _idle(qtbot, win)
        shown[kind] = _every_tab(qtbot, win, win.page(kind))
    campaign_page: Any = win.page("campaign")
    assert campaign_page.fighters is not None and campaign_page.fighters.model.rowCount() == 1  # (Death Blow's)
    assert {"Standings", "Chronicle", "Statistics"} <= set(shown["campaign"])
    assert {"History", "Timeline", "Charts", "Changes"} <= set(shown["platoon"])
    assert {"Sheet", "Battle form", "History", "Changes"} <= set(shown["sheet"])
    assert {"Bouts", "Timeline", "Head to head"} <= set(shown["fighter"])
    assert "Kenji (fighter)" in win.windowTitle()  # the title from the navigator's tree, no query

    win.navigator.show_archived.click()  # the navigator read again
    _idle(qtbot, win)

    # page edits, typed: the platoon's name, the fighter's notes
    win.open_item("platoon", ids["platoon"])
    _idle(qtbot, win)
    platoon_page: Any = win.page("platoon")
    platoon_page.name_edit.setFocus()
    platoon_page.name_edit.selectAll()
    qtbot.keyClicks(platoon_page.name_edit, "2nd Lancers")
    qtbot.keyClick(platoon_page.name_edit, Qt.Key.Key_Return)
    assert recorder.in_event_loop() == []
    _idle(qtbot, win)
    assert platoon_page.name_edit.text() == "2nd Lancers"
    assert "2nd Lancers" in win.ctx.undo_stack.undoText()  # the undo list rebuilt off the event loop
    win.open_item("fighter", ids["fighter"])
    _idle(qtbot, win)
    fighter_page: Any = win.page("fighter")
    fighter_page.notes.setFocus()
    qtbot.keyClicks(fighter_page.notes, "Fast hands.")
    fighter_page.name_edit.setFocus()  # the notes are kept when the field is left
    _idle(qtbot, win)
    recorder.on = False  # (the test's own look at the database)
    assert death_blow.show_fighter(ids["fighter"]).notes == "Fast hands."
    recorder.on = True

    win.act_undo.trigger()  # Edit ▸ Undo: the notes
    _idle(qtbot, win)
    win.act_redo.trigger()
    _idle(qtbot, win)

    # another player's change arrives as the feed (read off the event loop too)
    live = win.live
    assert live is not None and live.connected
    heard: list[int] = []
    live.delivered.connect(heard.append)
    _other_player_logs_a_battle(direct, ids["platoon"], app_paths.data_dir / "cli")
    qtbot.waitUntil(lambda: len(heard) == 1, timeout=20000)
    _idle(qtbot, win)

    assert recorder.in_event_loop() == [], "\n".join(recorder.in_event_loop())
    assert len(recorder.sent) > 30  # it did read and write (on the window's database thread)

    # the control: a query made in the event loop is recorded as the event loop's
    navigator_tree()
    assert recorder.in_event_loop() != []


def _other_player_logs_a_battle(url: str, platoon: int, data_dir: Path) -> None:
    """Another player logs a battle with campaign-cli (a process of its own, straight to the server)."""
    target, password = parse_server_url(url)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from campaign_app.cli import main; sys.exit(main())",
            "--data-dir",
            str(data_dir),
            "--db",
            target.url(),
        ]
        + ["battle", "log", "--platoon", str(platoon), "--wounds", "0", "--leader-wounds", "0"]
        + ["--outcome", "draw", "--seed", "3"],
        env=dict(os.environ, PGPASSWORD=password or ""),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_a_window_holds_one_connection_and_one_that_listens(qtbot, app_paths, club, pg_server) -> None:  # type: ignore[no-untyped-def]
    url, _direct, name, ids = club
    win = _window(qtbot, app_paths, url)
    win.start_live()
    for kind, key in (("platoon", "platoon"), ("campaign", "congo"), ("sheet", "sheet"), ("fighter", "fighter")):
        win.open_item(kind, ids[key])
        _idle(qtbot, win)
        _every_tab(qtbot, win, win.page(kind))
    navigator_tree()  # a dialog that still reads in the event loop: the same connection, after the thread's turn
    platoon_service.platoon_detail(ids["platoon"])
    _idle(qtbot, win)
    sessions = _connections(pg_server, name)
    assert sorted(app for app, _state in sessions) == ["campaign_app", "campaign_app listener"], sessions
    worker = win.ctx.db_worker
    assert worker is not None and worker.session is not None
    assert server_link.thread_session() == worker.session  # the event loop's thread uses the worker's one

    win.close()  # the window's connections end with it
    qtbot.waitUntil(lambda: _connections(pg_server, name) == [], timeout=10000)


def test_a_read_left_in_the_event_loop_waits_its_turn_and_the_window_keeps_painting(qtbot, app_paths, club) -> None:  # type: ignore[no-untyped-def]
    """What still reads in the event loop (a dialog) uses the window's one connection after the worker's task
    under way, never in the middle of it; meanwhile the window's timers run (it paints)."""
    import time

    from PySide6.QtCore import QTimer

    from campaign_app.gui.loader import run_read
    from campaign_app.gui.one_connection import gate_of

    url, _direct, _name, ids = club
    win = _window(qtbot, app_paths, url)
    _idle(qtbot, win)
    database = server_link.open_database()
    gate = gate_of(database)
    assert gate is not None
    from campaign_app.gui.club import ServerWait

    database.pump = ServerWait("the club")  # as gui.club.open_server sets it when the window opens a server
    order: list[str] = []

    def slow_task() -> int:
        order.append("worker starts")
        time.sleep(0.6)  # inside its turn: nobody else may use the connection
        found = len(navigator_tree())
        order.append("worker ends")
        return found

    answers: list[int] = []
    ticks: list[int] = []
    timer = QTimer(win)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(20)
    run_read(win.ctx, slow_task, answers.append, lambda exc: (_ for _ in ()).throw(exc))
    qtbot.waitUntil(lambda: order == ["worker starts"], timeout=5000)
    waits = gate.waits
    detail = platoon_service.platoon_detail(ids["platoon"])  # read in the event loop, as a dialog would
    order.append("event loop read")
    timer.stop()
    assert detail.name == "2nd Rifles"
    assert order == ["worker starts", "worker ends", "event loop read"]  # it waited for the worker's turn
    assert gate.waits == waits + 1
    assert len(ticks) >= 5  # the window's timers ran while it waited (about 0.6 s at 20 ms)
    qtbot.waitUntil(lambda: answers == [3], timeout=5000)
    worker = win.ctx.db_worker
    assert worker is not None and worker.session == server_link.thread_session()  # one connection for both


def test_a_server_gone_under_the_worker_gives_the_server_away_message(qtbot, app_paths, club, pg_server) -> None:  # type: ignore[no-untyped-def]
    """The network goes while the window works: the next page read (on the worker) fails to reach the server,
    and the window says so once, with the server's name and Try Again (not only a line in the status bar)."""
    from driving import in_modal
    from PySide6.QtWidgets import QApplication, QMessageBox

    _url, direct, _name, ids = club
    close_db()
    proxy = LatencyProxy(pg_server.port, 5.0).__enter__()  # a link of this test's own, cut below
    mine = direct.replace(f":{pg_server.port}/", f":{proxy.port}/") + "?connect_timeout=2"
    init_db(mine, app_paths.backup_dir, daily_backup=False)
    win = _window(qtbot, app_paths, mine)
    win.start_live()
    _idle(qtbot, win)
    proxy.__exit__(None, None, None)  # the network goes (every connection through it is closed)
    shown: list[str] = []

    def close_box() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        shown.append(box.text())
        assert any(b.text().replace("&", "") == "Try Again" for b in box.buttons())
        box.reject()

    errors = in_modal(qtbot, close_box, QMessageBox)
    win.open_item("platoon", ids["platoon"])  # the next read, on the window's database thread
    qtbot.waitUntil(lambda: bool(shown), timeout=20000)
    assert not errors, errors
    assert shown[0].startswith("Cannot reach the campaign server"), shown
    assert "(not reachable)" in win.db_label.text()
