"""Live refresh from a real PostgreSQL server: the listener's own connection hears a ``NOTIFY campaign_app``,
reads the journal since the last id the window knew, and hands each operation this window did not make to the one
change feed (``op_changed``) within 2 s; a fake notice delivers nothing; the window's own operations are not
delivered twice; a dropped listening connection is reopened quietly and what was missed is delivered."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_app.gui.club import LiveUpdates
from campaign_app.gui.context import AppContext
from campaign_app.gui.feed import is_everything
from campaign_app.rules.dice import TypedDice
from campaign_app.server_target import ServerTarget, parse_server_url
from campaign_app.services import battles, server_link
from campaign_app.services.journal import OpChanges

psycopg = pytest.importorskip("psycopg")


def _server_target(pg_server: Any) -> ServerTarget:
    target, _password = parse_server_url(pg_server.url("postgres"))
    return target


def _announce(target: ServerTarget, op_id: int | str) -> None:
    """Another program's commit: the server says NOTIFY on the journal's channel."""
    with psycopg.connect(target.url(timeout=True), autocommit=True) as conn:
        conn.execute("SELECT pg_notify(%s, %s)", (server_link.channel(), str(op_id)))


@pytest.fixture
def live_ctx(gui_ctx: AppContext, pg_server: Any, qtbot) -> Any:  # type: ignore[no-untyped-def]
    target = _server_target(pg_server)
    live = LiveUpdates(gui_ctx, target, None)
    assert live.start() and live.connected
    yield gui_ctx, live, target
    live.stop()


def test_a_foreign_operation_reaches_op_changed_within_two_seconds(qtbot, live_ctx, congo_platoon) -> None:  # type: ignore[no-untyped-def]
    ctx, live, target = live_ctx
    pid = congo_platoon()
    live.catch_up()  # what came before is known
    logged = battles.log_battle(pid, wounds=1, outcome="victory", dice=TypedDice([[3], [12, 12]]))
    op_id = logged.operation_id
    assert op_id
    with qtbot.waitSignal(ctx.signals.op_changed, timeout=2000) as got:
        _announce(target, op_id)
    changes = got.args[0]
    assert isinstance(changes, OpChanges)
    assert changes.operation_id == op_id and changes.platoon_id == pid and changes.touches("battle")


def test_a_notice_is_a_hint_the_journal_says_what_is_new(qtbot, live_ctx, congo_platoon) -> None:  # type: ignore[no-untyped-def]
    """Whatever a notice says (another id, no number at all), the window delivers what the journal holds since
    the last id it knew: a fake notice delivers nothing and reloads nothing."""
    ctx, live, target = live_ctx
    pid = congo_platoon()
    live.catch_up()
    heard: list[int] = []
    reloads: list[OpChanges] = []  # "everything changed" (a reload of every view)
    live.delivered.connect(heard.append)
    ctx.signals.op_changed.connect(lambda ch: reloads.append(ch) if is_everything(ch) else None)
    for fake in ("999999", "all", "1"):
        _announce(target, fake)
    qtbot.waitUntil(lambda: not live.listener.read() and live.notifier.isEnabled(), timeout=2000)
    qtbot.wait(300)
    assert heard == [] and reloads == []
    logged = battles.log_battle(pid, wounds=1, outcome="victory", dice=TypedDice([[3], [12, 12]]))
    with qtbot.waitSignal(live.delivered, timeout=2000) as got:  # the control: a real change is delivered,
        _announce(target, "not a number")  # whatever its notice says
    assert got.args[0] == logged.operation_id


def test_the_windows_own_operation_is_not_delivered_again(qtbot, live_ctx, congo_platoon) -> None:  # type: ignore[no-untyped-def]
    from campaign_app.services.journal import operations

    ctx, live, target = live_ctx
    pid = congo_platoon()
    live.catch_up()
    battles.log_battle(pid, wounds=1, outcome="victory", dice=TypedDice([[3], [12, 12]]))
    own = operations(limit=1)[0].id
    ctx.signals.op_changed.emit(OpChanges(own, "battle.log", "mine", frozenset({("battle", 1)})))  # the window's
    heard: list[int] = []
    live.delivered.connect(heard.append)
    _announce(target, own)
    _announce(target, 999999)  # an operation this login cannot see (or gone): nothing to deliver
    qtbot.waitUntil(lambda: not live.listener.read() and live.notifier.isEnabled(), timeout=2000)
    qtbot.wait(300)
    assert heard == []


def test_a_dropped_listener_reconnects_quietly_and_catches_up(
    qtbot,
    live_ctx,
    congo_platoon,  # type: ignore[no-untyped-def]
    monkeypatch,
) -> None:
    """While the listening connection is down nothing is heard; when it is back the window reads the journal
    since the last id it knew and delivers exactly what was missed (no reload of everything)."""
    ctx, live, target = live_ctx
    monkeypatch.setattr(LiveUpdates, "RETRY_MS", (50,))
    pid = congo_platoon()
    live.catch_up()
    pid_before = live.listener.conn.info.backend_pid
    reloads: list[OpChanges] = []  # "everything changed" (a reload of every view)
    ctx.signals.op_changed.connect(lambda ch: reloads.append(ch) if is_everything(ch) else None)
    heard: list[int] = []
    live.delivered.connect(heard.append)
    with psycopg.connect(target.url(timeout=True), autocommit=True) as conn:  # the server drops the connection
        conn.execute("SELECT pg_terminate_backend(%s)", (pid_before,))
    missed = battles.log_battle(pid, wounds=1, outcome="victory", dice=TypedDice([[3], [12, 12]]))
    qtbot.waitUntil(lambda: live.connected and live.listener.conn.info.backend_pid != pid_before, timeout=5000)
    qtbot.waitUntil(lambda: heard == [missed.operation_id], timeout=2000)
    assert reloads == []
    again = battles.log_battle(pid, wounds=0, outcome="draw", dice=TypedDice([[12, 12]]))
    with qtbot.waitSignal(ctx.signals.op_changed, timeout=2000) as got:
        _announce(target, again.operation_id)  # and it hears again
    assert got.args[0].operation_id == again.operation_id


def test_a_listener_that_cannot_connect_tries_again_later(qtbot, gui_ctx, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(LiveUpdates, "RETRY_MS", (60000,))
    live = LiveUpdates(gui_ctx, ServerTarget("127.0.0.1", "league", "ana", port=1), None)
    assert live.start() is False
    assert live.retry_timer.isActive() and not live.connected
    live.stop()
    assert not live.retry_timer.isActive()
