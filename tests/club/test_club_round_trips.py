"""Round trips per command on a club server, counted (not timed) at a forwarding proxy in front of the test
server, as a fresh ``campaign-cli`` pays them: the connection (TCP, the SSL question, the password exchange) and
every time the server answers the client. The proxy is the latency benchmark's (``benchmarks/
bench_club_latency.py``) with no delay. Each command runs in-process through ``campaign_app.cli.main``, as the
player over TCP with a password, so the connection costs what it costs a player across the internet."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clubpg import OWNER, ClubServer, club_pg, ensure_role, unbind  # noqa: F401 - club_pg is a fixture

from campaign_app.cli import main
from campaign_app.services import campaigns, club, platoons
from campaign_app.store import close_db, init_db
from campaign_app.store.club_server import add_player, init_server
from tests.ids import campaign_id

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_club_latency import LatencyProxy  # noqa: E402 - the benchmark's own proxy, found above

DB = "club_round_trips"
PLAYER = "rt_ada"
PASSWORD = "rt-ada-pw"
CONNECTING = 5
"""What a new connection costs against the test server (no SSL): the TCP handshake, the SSL question
(``sslmode=prefer``, answered "no"), and the SCRAM exchange (three messages)."""


@pytest.fixture
def player_url(club_pg: ClubServer) -> Iterator[str]:
    """A club with one campaign, the player rt_ada in it and her platoon; yields her URL over TCP (the server
    asks for her password there)."""
    ensure_role(club_pg, OWNER, createrole=True)
    club_pg.create_database(DB, owner=OWNER)
    init_db(club_pg.url(DB, OWNER), daily_backup=False)
    try:
        init_server()
        add_player(PLAYER, password=PASSWORD)
        campaigns.create_campaign("Congo 1960", period=3)
        club.add_member(campaign_id("Congo 1960"), PLAYER)
    finally:
        close_db()
    url = club_pg.pg.url(DB, user=PLAYER, password=PASSWORD, tcp=True)
    init_db(url, daily_backup=False)
    try:
        platoons.create_platoon(
            campaign_id("Congo 1960"), "2nd Platoon", training=8, equipment=8, morale=8, armor=2, leader_name="Lt. Ada"
        )
    finally:
        unbind()
    yield url
    unbind()


BATTLE = ["battle", "log", "--platoon", "2nd Platoon", "--campaign", "Congo 1960", "--wounds", "2"]
BATTLE += ["--leader-wounds", "1", "--objectives", "1", "--outcome", "victory", "--seed", "7"]
COMMANDS: dict[str, list[str]] = {
    "battle log": BATTLE,
    "undo": ["undo"],
    "redo": ["redo"],
    "platoon show": ["platoon", "show", "2nd Platoon", "--campaign", "Congo 1960"],
    "history": ["history", "--platoon", "2nd Platoon", "--campaign", "Congo 1960"],
    "journal": ["journal"],
}


def counted(proxy: LatencyProxy, url: str, data_dir: Path, argv: list[str], capsys: Any) -> int:
    """Run one command through the proxy; the round trips it cost. It must succeed."""
    before = proxy.round_trips
    through = url.replace(url.split("@", 1)[1].split("/", 1)[0], f"127.0.0.1:{proxy.port}", 1)
    code = main([*argv, "--data-dir", str(data_dir), "--db", through])
    out, err = capsys.readouterr()
    assert code == 0, (argv, out, err)
    unbind()
    return proxy.round_trips - before


def port_of(url: str) -> int:
    return int(url.split("@", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])


def test_each_command_costs_at_most_its_round_trips(player_url: str, tmp_path: Path, capsys: Any) -> None:
    """The second run of each command (the first told this computer the server's schema version): battle log,
    within the issue's goals: a platoon named before goes by its remembered id, checked in the first message."""
    most = {"battle log": 8, "undo": 8, "redo": 8, "platoon show": 6, "history": 6, "journal": 6}
    with LatencyProxy(port_of(player_url), 0) as proxy:
        first = counted(proxy, player_url, tmp_path, COMMANDS["journal"], capsys)
        for argv in COMMANDS.values():
            counted(proxy, player_url, tmp_path, argv, capsys)
        again = {name: counted(proxy, player_url, tmp_path, argv, capsys) for name, argv in COMMANDS.items()}
    assert first == again["journal"] + 1  # the first open asks the schema version in a message of its own
    assert {k: v for k, v in again.items() if v > most[k]} == {}, again
    assert again["journal"] == CONNECTING + 1  # the connection's facts went with the journal's one query


def test_a_new_connection_costs_the_handshake_the_ssl_question_and_the_password(player_url: str) -> None:
    """Measured, both ways: ``sslmode=prefer`` (the default) asks the server for SSL first, one round trip more
    against a server without it than ``sslmode=disable``; libpq asks for GSSAPI encryption first only when it
    holds a Kerberos ticket, which ``gssencmode=disable`` (the app's default) never does."""
    import psycopg

    counts = {}
    for mode in ("prefer", "disable"):
        with LatencyProxy(port_of(player_url), 0) as proxy:
            through = player_url.replace(f":{port_of(player_url)}/", f":{proxy.port}/")
            with psycopg.connect(through, sslmode=mode, gssencmode="disable", autocommit=True) as conn:
                conn.execute("SELECT 1").fetchone()
            counts[mode] = proxy.round_trips
    assert counts == {"prefer": CONNECTING + 1, "disable": CONNECTING}


def test_a_surprising_schema_version_refuses_the_first_message_and_is_forgotten(
    player_url: str, club_pg: ClubServer, tmp_path: Path, capsys: Any
) -> None:
    """This computer remembers the server's version; when another program changed it meanwhile (here a newer
    app's migration row appears), the first message is refused before anything is written and the number is
    forgotten: the next run asks the server as a first open does (and says the database is too new). The
    control: without the newer row the same command writes the battle."""
    import json

    from campaign_app.services.server_link import ServerSchemas
    from campaign_app.store.migrate import schema_version_supported

    assert main(["journal", "--data-dir", str(tmp_path), "--db", player_url]) == 0
    unbind()
    known = ServerSchemas(tmp_path)
    supported = schema_version_supported()
    assert list(json.loads(known.path.read_text("utf-8")).values()) == [supported]
    newer = supported + 1
    with club_pg.connect(DB) as su:
        su.execute(
            "INSERT INTO schema_migration (number, name, applied_at, app_version) VALUES (%s, 'later', now(), '99')",
            (newer,),
        )
    capsys.readouterr()
    argv = [*BATTLE, "--data-dir", str(tmp_path), "--db", player_url]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 1, err
    assert f"is at schema {newer}, not {supported}" in err and "nothing was written" in err
    unbind()
    assert json.loads(known.path.read_text("utf-8")) == {}
    assert main(argv) == 2  # as any open of a database a newer app made
    assert "made by a newer version of campaign_app" in capsys.readouterr().err
    unbind()
    with club_pg.connect(DB) as su:
        assert su.execute("SELECT count(*) FROM battle").fetchone()[0] == 0
        su.execute("DELETE FROM schema_migration WHERE number = %s", (newer,))
    assert main(argv) == 0  # the control
    unbind()
    with club_pg.connect(DB) as su:
        assert su.execute("SELECT count(*) FROM battle").fetchone()[0] == 1
