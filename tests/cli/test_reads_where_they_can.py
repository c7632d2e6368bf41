"""Reading commands work where nothing can be written beside the database (a full disk, a read-only
folder, a read-only file), leave nothing behind, and messages name what really failed. Plus the smaller defects:
the leader's XP in ``platoon set`` is journalled as the leader's, and a killed backup's temporary file is gone
at the next start. Real tiny tmpfs mounts (root) and real file modes."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_app.store import close_db
from tests.cli.test_error_classes_cli import one_line, remount, run, tmpfs

READS = (
    ["platoon", "list"],
    ["check"],
    ["journal", "--limit", "3"],
    ["history", "--platoon", "2nd Platoon"],
    ["campaign", "show", "Congo 1960 (sample)"],
    ["platoon", "show", "2nd Platoon"],
)


def battles(db_file: Path) -> int:
    """Battles in the file, read without creating anything beside it (no -wal is in use)."""
    import sqlite3

    con = sqlite3.connect(f"{db_file.as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        return int(con.execute("SELECT count(*) FROM battle").fetchone()[0])
    finally:
        con.close()


def _fill(folder: Path, leave: int = 0) -> Path:
    """Fill the file system of ``folder`` up to ``leave`` bytes free."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    with contextlib.suppress(OSError):
        while True:
            os.write(fd, b"\0" * 1024)
    os.close(fd)
    if leave:
        os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def _fresh(argv: list[str], data: list[str]) -> subprocess.CompletedProcess[str]:
    """A fresh process (one that has the file open keeps its -shm mapped)."""
    return subprocess.run(
        [sys.executable, "-m", "campaign_app.cli", *argv, *data], capture_output=True, text=True, timeout=120
    )


def _nothing_beside(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.endswith(("-wal", "-shm", ".part"))]


def _demo_checkpointed(capsys: pytest.CaptureFixture[str], folder: Path, data: list[str]) -> None:
    assert run(capsys, "demo", *data)[0] == 0
    assert run(capsys, "platoon", "list", *data)[0] == 0  # makes today's backup: no copy is tried below
    assert list((folder / "backups").glob("*-daily.db"))
    close_db()
    _nothing_beside(folder)


def test_reads_on_a_full_disk_succeed_and_leave_nothing(capsys, tmp_path):
    close_db()
    with tmpfs(tmp_path / "small", "3m") as small:
        data = ["--data-dir", str(small)]
        _demo_checkpointed(capsys, small, data)
        before = battles(small / "campaign.db")
        filler = _fill(small)
        for argv in READS:
            done = _fresh(argv, data)
            assert done.returncode == 0 and done.stderr == "", (argv, done.stderr)
            assert done.stdout.strip(), argv
            _nothing_beside(small)
        done = _fresh(["export", "--campaign", "Congo 1960 (sample)", "-o", str(tmp_path / "c.json")], data)
        assert done.returncode == 0, done.stderr
        assert json.loads((tmp_path / "c.json").read_text())["campaign"]["name"] == "Congo 1960 (sample)"
        # the backup copy is what cannot be written, and the message says so
        done = _fresh(["backup"], data)
        line = one_line(done.stderr)
        assert done.returncode == 1 and "backup copy" in line and str(small / "backups") in line, line
        assert "cannot grow" not in line
        _nothing_beside(small)
        # a write still says disk full
        done = _fresh(["battle", "log", "--platoon", "2nd Platoon", "--wounds", "1", "--leader-wounds", "0"], data)
        assert done.returncode == 1 and "disk full" in one_line(done.stderr)
        filler.unlink()
        assert battles(small / "campaign.db") == before


def test_backup_with_a_little_room_names_the_backup_copy(capsys, tmp_path):
    close_db()
    with tmpfs(tmp_path / "small", "3m") as small:
        data = ["--data-dir", str(small)]
        _demo_checkpointed(capsys, small, data)
        _fill(small, leave=40 * 1024)
        done = _fresh(["backup"], data)
        line = one_line(done.stderr)
        assert done.returncode == 1 and "backup copy" in line and "cannot grow" not in line, line
        _nothing_beside(small)


def test_reads_in_a_read_only_folder_succeed(capsys, tmp_path):
    close_db()
    with tmpfs(tmp_path / "ro", "4m") as folder:
        data = ["--data-dir", str(folder)]
        _demo_checkpointed(capsys, folder, data)
        remount(folder, "ro")
        for argv in READS:
            code, out, err = run(capsys, *argv, *data)
            assert code == 0 and out.strip() and err == "", (argv, err)
            close_db()
        code, out, err = run(
            capsys, "export", "--campaign", "Congo 1960 (sample)", "-o", str(tmp_path / "c.json"), *data
        )
        assert code == 0, err
        close_db()
        code, out, err = run(capsys, "backup", *data)
        line = one_line(err)
        assert code == 1 and "backup copy" in line and "read-only" in line and str(folder / "backups") in line
        close_db()
        code, out, err = run(capsys, "campaign", "new", "--name", "Not Here", *data)
        assert code == 1 and "read-only" in one_line(err)
        close_db()
        _nothing_beside(folder)


def test_reads_of_a_read_only_file_leave_nothing_behind(capsys, tmp_path):
    close_db()
    folder = tmp_path / "data"
    data = ["--data-dir", str(folder)]
    folder.mkdir()
    _demo_checkpointed(capsys, folder, data)
    db_file = folder / "campaign.db"
    db_file.chmod(stat.S_IRUSR | stat.S_IRGRP)
    try:
        for argv in READS:
            done = _fresh(argv, data)
            if os.geteuid() == 0:  # root writes a read-only file anyway: the usual open
                assert done.returncode == 0, done.stderr
                continue
            assert done.returncode == 0 and done.stderr == "", (argv, done.stderr)
            _nothing_beside(folder)
    finally:
        db_file.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_read_only_file_opens_immutable_and_creates_nothing(tmp_path, monkeypatch):
    """The decision itself (root can write any file, so the mode is asked of the check)."""
    from campaign_app.services.demo import create_demo
    from campaign_app.services.platoons import list_platoons
    from campaign_app.store import database as store_db
    from campaign_app.store import init_db

    close_db()
    db_file = tmp_path / "campaign.db"
    init_db(db_file, tmp_path / "backups", daily_backup=False)
    create_demo()
    close_db()
    monkeypatch.setattr(store_db.os, "access", lambda path, mode: False)
    assert store_db.read_only_mode(db_file) == "immutable"
    database = init_db(db_file, tmp_path / "backups", daily_backup=False, reading=True)
    assert getattr(database, "read_only", None) == "immutable"
    assert [p.name for p in list_platoons()] == ["2nd Platoon"]
    close_db()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.db"]


def test_leader_xp_in_platoon_set_is_journalled_as_the_leaders(cli):
    cli("demo")
    out = json.loads(cli("platoon", "set", "2nd Platoon", "--leader-xp", "3", "--json"))
    assert out
    ops = json.loads(cli("journal", "--limit", "1", "--json"))
    label = ops[0]["label"]
    assert "leader" in label and "Okafor" in label and "XP 2 \u2192 3" in label, label
    assert not label.startswith("2nd Platoon: XP"), label


def test_a_killed_backups_temporary_file_is_removed_at_the_next_start(tmp_path):
    from campaign_app.store import init_db

    close_db()
    backups = tmp_path / "backups"
    backups.mkdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    left = backups / f".campaign-20260101-000000-000000-import.db.pid{pid}.abc123.part"
    left.write_bytes(b"half a copy")
    mine = backups / f".campaign-20260101-000000-000001-manual.db.pid{os.getpid()}.def456.part"
    mine.write_bytes(b"being written")
    init_db(tmp_path / "campaign.db", backups, daily_backup=False)
    close_db()
    assert not left.exists()  # its program is gone: removed at once, not after an hour
    assert mine.exists()  # a live program's copy in progress is left alone
