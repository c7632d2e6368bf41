"""Several writers on one database file: every write transaction takes the write lock at its start
(BEGIN IMMEDIATE) and waits for it up to the busy timeout; past it, one line and nothing written."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from campaign_app.services.platoons import create_platoon
from campaign_app.store import close_db
from campaign_app.store.journal import operation
from campaign_app.store.models import Battle, Campaign
from tests.ids import campaign_id

WRITER = r"""
import sys, io, contextlib
from campaign_app.cli import main
platoon, data, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
codes, errors = [], []
for i in range(n):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        codes.append(main(["battle", "log", "--platoon", platoon, "--wounds", "1", "--leader-wounds", "0",
                           "--outcome", "draw", "--seed", str(i), "--data-dir", data]))
    errors.append(err.getvalue())
print("codes", ",".join(map(str, codes)))
sys.stderr.write("".join(errors))
"""

HOLDER = r"""
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
con.execute("ROLLBACK")
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("CAMPAIGN_APP_BUSY_TIMEOUT", None)
    return env


def _hold(db_file: Path, seconds: float) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db_file), str(seconds)], stdout=subprocess.PIPE, text=True, env=_env()
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    return holder


def _setup(app_paths) -> list[str]:  # type: ignore[no-untyped-def]
    with operation("test.setup", "test data"):
        Campaign.create(name="Congo", system="atomic_africa")
    names = [f"P{i}" for i in range(3)]
    for name in names:
        create_platoon(
            campaign_id("Congo"), name, training=10, equipment=10, morale=8, armor=2, leader_name=f"Lt. {name}"
        )
    close_db()
    return names


def test_three_writers_wait_for_a_fourth_holding_the_lock(app_paths, fresh_db):
    names = _setup(app_paths)
    holder = _hold(app_paths.db_file, 3.0)
    started = time.monotonic()
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, name, str(app_paths.data_dir), "30"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
        )
        for name in names
    ]
    results = [w.communicate(timeout=240) for w in writers]
    holder.communicate(timeout=30)
    for out, err in results:
        assert out.strip() == "codes " + ",".join(["0"] * 30), (out, err)
        assert "Traceback" not in err and err == "", err
    assert time.monotonic() - started >= 2.5  # they really waited for the lock
    con = sqlite3.connect(app_paths.db_file)
    per_platoon = dict(
        con.execute(
            "SELECT p.name, count(b.id) FROM platoon p LEFT JOIN battle b ON b.platoon_id = p.id GROUP BY p.id"
        ).fetchall()
    )
    con.close()
    assert per_platoon == {name: 30 for name in names}


def test_lock_held_past_the_timeout_is_one_line_and_writes_nothing(app_paths, capsys, fresh_db):
    from campaign_app.cli import main

    _setup(app_paths)
    holder = _hold(app_paths.db_file, 1.5)
    try:
        capsys.readouterr()
        code = main(
            [
                "battle",
                "log",
                "--platoon",
                "P0",
                "--wounds",
                "1",
                "--leader-wounds",
                "0",
                "--busy-timeout",
                "0.3",
                "--data-dir",
                str(app_paths.data_dir),
            ]
        )
        out, err = capsys.readouterr()
    finally:
        holder.communicate(timeout=30)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "campaign-cli: error: the database is busy (another window or command is "
        "writing to it); nothing was written, try again"
    ]
    close_db()
    con = sqlite3.connect(app_paths.db_file)
    assert con.execute("SELECT count(*) FROM battle").fetchone()[0] == 0
    con.close()
    assert Battle._meta.table_name == "battle"


def test_two_writers_on_the_same_platoon_both_succeed(app_paths, fresh_db):
    """Two commands logging battles of one platoon at once: the second waits for the first (the platoon is
    read under the write lock), none is refused with 'changed while the battle was being logged'."""
    names = _setup(app_paths)
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, names[0], str(app_paths.data_dir), "12"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
        )
        for _ in range(2)
    ]
    results = [w.communicate(timeout=240) for w in writers]
    for out, err in results:
        assert out.strip() == "codes " + ",".join(["0"] * 12), (out, err)
        assert err == "", err
    con = sqlite3.connect(app_paths.db_file)
    numbers = [
        n
        for (n,) in con.execute(
            "SELECT b.number FROM battle b JOIN platoon p ON p.id = b.platoon_id WHERE p.name = ? ORDER BY b.number",
            [names[0]],
        ).fetchall()
    ]
    kinds = [k for (k,) in con.execute("SELECT kind FROM operation WHERE kind = 'battle.log'").fetchall()]
    con.close()
    assert numbers == list(range(1, 25))
    assert len(kinds) == 24, "each battle is one operation in the shared journal"
    # undo from yet another program: the newest battle of either writer goes first, one after the other
    from campaign_app.cli import main

    for _ in range(24):
        assert main(["undo", "--data-dir", str(app_paths.data_dir)]) == 0
    close_db()
    con = sqlite3.connect(app_paths.db_file)
    assert con.execute("SELECT COUNT(*) FROM battle").fetchone()[0] == 0
    assert con.execute("SELECT xp FROM platoon WHERE name = ?", [names[0]]).fetchone()[0] == 0
    con.close()


def test_restore_while_another_program_writes_gives_up_after_the_timeout(app_paths, capsys, fresh_db):
    """Python's backup loop retried a busy copy forever: 'restore' waited for as long as another program held
    the write lock. It now gives up after the busy timeout, says so, and the database is unchanged."""
    from campaign_app.cli import main

    _setup(app_paths)
    data = ["--data-dir", str(app_paths.data_dir)]
    assert main(["backup", *data]) == 0
    (backup,) = app_paths.backup_dir.glob("*-manual.db")
    assert main(["campaign", "new", "--name", "After the backup", "--system", "atomic-africa", *data]) == 0
    close_db()
    holder = _hold(app_paths.db_file, 4.0)
    try:
        capsys.readouterr()
        code = main(["restore", str(backup), "--busy-timeout", "0.3", *data])
        out, err = capsys.readouterr()
        still_held = holder.poll() is None
    finally:
        holder.communicate(timeout=30)
    close_db()
    assert code == 2 and out == "" and still_held
    assert err.strip().splitlines() == [
        "campaign-cli: error: the database is busy (another window or command is "
        "writing to it); nothing was written, try again"
    ]
    con = sqlite3.connect(app_paths.db_file)
    assert con.execute("SELECT count(*) FROM campaign WHERE name = 'After the backup'").fetchone()[0] == 1
    con.close()
