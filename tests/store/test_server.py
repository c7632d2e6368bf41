"""The store on a PostgreSQL server (club play): opening, the errors a user can meet, the journal's triggers,
the writers' lock and the announcement of each operation. Runs against the throwaway server of the tests."""

from __future__ import annotations

import subprocess
import sys

import pytest

from campaign_app.cli import main
from campaign_app.errors import (
    DatabaseBusyError,
    PasswordRequired,
    ServerSupportMissing,
    ServerUnavailable,
)
from campaign_app.services import campaigns
from campaign_app.store import close_db, init_db, journal, journal_read, journal_replay
from campaign_app.store.database import db
from campaign_app.store.errors import DatabaseOpenError, DatabaseTooNewError
from campaign_app.store.models import Campaign
from campaign_app.store.server import server_name, translate_placeholders
from tests.pg_server import PgServer


@pytest.fixture
def dbname(pg_server: PgServer) -> str:
    name = pg_server.new_database_name("store")
    pg_server.create_database(name)
    return name


@pytest.fixture
def server_db(pg_server: PgServer, dbname: str) -> str:
    return pg_server.url(dbname)


def test_placeholders_are_translated_outside_quotes_only() -> None:
    assert (
        translate_placeholders("SELECT ? FROM t WHERE a = '?' AND b LIKE 'x%'")
        == "SELECT %s FROM t WHERE a = '?' AND b LIKE 'x%%'"
    )
    assert translate_placeholders('SELECT "a?" FROM t WHERE id = %s') == 'SELECT "a?" FROM t WHERE id = %s'
    assert translate_placeholders("SELECT 1") == "SELECT 1"


def test_server_name_never_shows_the_password() -> None:
    assert server_name("postgresql://ana:secret@club.example.org:5433/league") == "ana@club.example.org:5433/league"
    assert "secret" not in server_name("postgresql://ana:secret@/league?host=/tmp/x")
    assert server_name("postgresql://ana@%2Ftmp%2Fpg/league") == "ana@local socket:5432/league"


def test_a_new_server_database_gets_the_whole_schema_and_the_journal(server_db: str) -> None:
    database = init_db(server_db)
    assert database.dialect == "postgresql"
    campaigns.create_campaign("League", "atomic_africa")
    ops = journal_read.list_operations()
    assert [o.kind for o in ops] == ["campaign.create"] and ops[0].user == "postgres"
    assert journal_replay.undo().operation_id == ops[0].id and Campaign.select().count() == 0
    journal_replay.redo()
    assert Campaign.get().name == "League"
    close_db()
    init_db(server_db)  # opening again: nothing to migrate
    assert Campaign.select().count() == 1


def test_a_write_outside_an_operation_is_refused_by_the_server(server_db: str) -> None:
    init_db(server_db)
    with pytest.raises(Exception, match="a write outside an operation"):
        db.execute_sql(
            "INSERT INTO campaign (name, name_key, system, threshold_green, threshold_regular, "
            "threshold_veteran, threshold_legendary, objective_xp_to, replacement_dice, archived, "
            "notes, created_at) VALUES ('X', 'x', 'sologear', 1, 2, 3, 4, 'both', 1, false, '', now())"
        )
    assert Campaign.select().count() == 0


def test_an_unreachable_server_is_named_with_the_reason() -> None:
    with pytest.raises(ServerUnavailable) as info:
        init_db("postgresql://ana@127.0.0.1:1/league?connect_timeout=3")
    text = str(info.value)
    assert "ana@127.0.0.1:1/league" in text and "refused" in text.lower() and "\n" not in text


def test_a_password_is_asked_for_and_checked(pg_server: PgServer, dbname: str) -> None:
    pg_server.sql("CREATE ROLE ana LOGIN PASSWORD 'right'")
    pg_server.sql(f'GRANT ALL ON DATABASE "{dbname}" TO ana')
    pg_server.sql("GRANT ALL ON SCHEMA public TO ana", dbname)
    with pytest.raises(PasswordRequired, match="wants a password"):
        init_db(pg_server.url(dbname, "ana", tcp=True))
    with pytest.raises(PasswordRequired):
        init_db(pg_server.url(dbname, "ana", tcp=True), password="wrong")
    database = init_db(pg_server.url(dbname, "ana", tcp=True), password="right")
    assert database.login() == "ana"


def test_without_the_driver_a_url_gets_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    import campaign_app.store.server as server

    monkeypatch.setattr(server, "server_support", lambda: False)
    with pytest.raises(ServerSupportMissing, match=r"pip install 'campaign-app\[server\]'"):
        init_db("postgresql://ana@club.example.org/league")
    code = main(["campaign", "list", "--db", "postgresql://ana@club.example.org/league", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "PostgreSQL support is not installed" in err


def test_cli_names_the_server_that_is_away(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    code = main(
        [
            "campaign",
            "list",
            "--db",
            "postgresql://ana@127.0.0.1:1/league?connect_timeout=3",
            "--data-dir",
            str(tmp_path),
        ]
    )
    out, err = capsys.readouterr()
    assert code != 0 and out == "" and err.count("\n") == 1
    assert "ana@127.0.0.1:1/league" in err and "Traceback" not in err


def test_a_database_with_other_tables_is_left_alone(pg_server: PgServer, dbname: str, server_db: str) -> None:
    pg_server.sql("CREATE TABLE invoices (id int)", dbname)
    with pytest.raises(DatabaseOpenError, match="holds other tables"):
        init_db(server_db)


def test_a_database_from_a_newer_version_is_refused(server_db: str) -> None:
    init_db(server_db)
    db.execute_sql(
        "INSERT INTO schema_migration (number, name, applied_at, app_version) VALUES (999, 'future', now(), '9.9')"
    )
    close_db()
    with pytest.raises(DatabaseTooNewError, match="newer version"):
        init_db(server_db)


def test_a_writer_waits_for_the_lock_then_says_busy(pg_server: PgServer, server_db: str) -> None:
    import psycopg

    init_db(server_db, busy_timeout=0.3)
    with psycopg.connect(server_db) as other:
        other.execute("BEGIN")
        other.execute("LOCK TABLE campaign IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(
            DatabaseBusyError,
            match=r"is busy: postgres's session holds the campaign table "
            r"\(waited 0.3 s\); nothing was written",
        ):
            campaigns.create_campaign("League", "atomic_africa")
        other.execute("ROLLBACK")
    campaigns.create_campaign("League", "atomic_africa")  # the connection is still good
    assert Campaign.select().count() == 1


def test_each_operation_is_announced_when_it_commits(server_db: str) -> None:
    import psycopg

    init_db(server_db)
    heard: list[str] = []
    with psycopg.connect(server_db, autocommit=True) as listener:
        listener.execute(f"LISTEN {journal.NOTIFY_CHANNEL}")
        campaigns.create_campaign("League", "atomic_africa")
        with pytest.raises(RuntimeError), journal.operation("test.fail", "fails"):  # not announced
            Campaign.create(name="Other", system="sologear")
            raise RuntimeError("boom")
        op = journal_read.list_operations()[0]
        journal_replay.undo(op.id)
        for note in listener.notifies(timeout=2.0, stop_after=2):
            heard.append(note.payload)
    assert heard == [str(op.id), str(op.id)]


def test_three_programs_opening_a_new_database_at_once_build_it_once(server_db: str) -> None:
    code = "import sys; from campaign_app.store import init_db; init_db(sys.argv[1])"
    procs = [
        subprocess.Popen([sys.executable, "-c", code, server_db], stderr=subprocess.PIPE, text=True) for _ in range(3)
    ]
    for p in procs:
        _out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    init_db(server_db)
    numbers = [r[0] for r in db.execute_sql("SELECT number FROM schema_migration ORDER BY number").fetchall()]
    assert numbers == list(range(1, len(numbers) + 1))


def test_a_lost_connection_is_one_sentence_then_the_next_action_reconnects(
    pg_server: PgServer, dbname: str, server_db: str
) -> None:
    """The server restarted (or the network dropped) mid-session: the next action says so, writes nothing,
    and the one after it works on a fresh connection."""
    database = init_db(server_db)
    campaigns.create_campaign("League", "atomic_africa")
    pid = int(db.execute_sql("SELECT pg_backend_pid()").fetchone()[0])
    pg_server.sql(f"SELECT pg_terminate_backend({pid})")
    with pytest.raises(ServerUnavailable) as info:
        campaigns.create_campaign("Other", "atomic_africa")
    assert database.where in str(info.value) and "\n" not in str(info.value)
    campaigns.create_campaign("Other", "atomic_africa")
    assert sorted(c.name for c in Campaign.select()) == ["League", "Other"]
