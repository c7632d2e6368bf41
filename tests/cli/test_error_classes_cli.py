"""Every kind of failure is one line on stderr (exit 2: input the user can fix; exit 1: the environment),
never a traceback, and nothing is written."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign_app.cli import main
from campaign_app.services.demo import create_demo
from campaign_app.store import close_db, init_db
from campaign_app.store.models import Battle

pytestmark = pytest.mark.usefixtures("fresh_db")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("campaign-cli: error: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def demo(app_paths, fresh_db):  # type: ignore[no-untyped-def]
    create_demo()
    close_db()
    return app_paths


def battles(db_file: Path) -> int:
    con = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True)
    try:
        return int(con.execute("SELECT count(*) FROM battle").fetchone()[0])
    finally:
        con.close()


def test_argument_that_is_not_utf8(capsys, demo):
    bad = b"bad\xff\xfe".decode("utf-8", "surrogateescape")
    code, out, err = run(capsys, "campaign", "show", bad, "--data-dir", str(demo.data_dir))
    assert code == 2 and out == ""
    assert "not valid text" in one_line(err)


@pytest.mark.parametrize(
    "argv",
    [
        ["platoon", "show", "99999999999999999999999"],
        ["battle", "log", "--platoon", "2nd Platoon", "--wounds", "99999999999999999999", "--leader-wounds", "0"],
        ["sologear", "show", "--campaign", "99999999999999999999999"],
        ["platoon", "set", "2nd Platoon", "--xp", "-99999999999999999999999"],
    ],
)
def test_numbers_out_of_range(capsys, demo, argv, db_args):
    """On both engines: a number no database column holds is refused in one line (a server's BIGINT and a
    file's 64-bit integers hold the same range)."""

    def count() -> int:
        init_db(db_args[1] if db_args else demo.db_file, demo.backup_dir)
        try:
            return Battle.select().count()
        finally:
            close_db()

    before = count()
    code, out, err = run(capsys, *argv, "--data-dir", str(demo.data_dir), *db_args)
    assert code == 2 and out == ""
    one_line(err)
    assert count() == before


@pytest.mark.parametrize("target", ["/proc/version", "/proc/nope/x.pdf", "/"])
def test_output_path_not_writable(capsys, demo, target):
    code, out, err = run(capsys, "print", "sheet", "--blank", "-o", target, "--data-dir", str(demo.data_dir))
    assert code == 2 and out == ""
    assert target.rstrip("/") in one_line(err) or "folder" in err


def test_missing_and_unreadable_input_files(capsys, demo, tmp_path):
    code, _out, err = run(capsys, "import", str(tmp_path / "nope.json"), "--data-dir", str(demo.data_dir))
    assert code == 2 and "does not exist" in one_line(err)
    code, _out, err = run(capsys, "restore", str(tmp_path), "--data-dir", str(demo.data_dir))
    assert code == 2 and "not a file" in one_line(err)
    code, _out, err = run(
        capsys, "check", "--db", str(tmp_path / "missing-folder" / "x" / "y.db"), "--data-dir", str(demo.data_dir)
    )
    assert code == 0  # a new database is created where the user asked (the folders are made)


# ------------------------------------------------------------------------- read-only and full file systems


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A tiny tmpfs at ``path`` (needs root: else the test is skipped with the reason)."""
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a tiny tmpfs needs root")
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True, text=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def remount(path: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(path)], check=True, capture_output=True)


def test_disk_full_says_disk_full_and_writes_nothing(capsys, tmp_path):
    close_db()
    with tmpfs(tmp_path / "small", "1800k") as small:
        data = ["--data-dir", str(tmp_path / "data"), "--db", str(small / "campaign.db")]
        assert run(capsys, "demo", *data)[0] == 0
        close_db()
        before = battles(small / "campaign.db")
        filler = small / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
        os.close(fd)
        code, out, err = run(
            capsys,
            "battle",
            "log",
            "--platoon",
            "2nd Platoon",
            "--wounds",
            "3",
            "--leader-wounds",
            "1",
            "--outcome",
            "victory",
            "--notes",
            "n" * 9000,
            "--seed",
            "1",
            *data,
        )
        line = one_line(err)
        assert code == 1 and out == "" and "disk full" in line, line
        filler.unlink()
        assert battles(small / "campaign.db") == before
        assert run(capsys, "check", *data)[0] == 0


def test_read_only_database_folder(capsys, tmp_path):
    close_db()
    with tmpfs(tmp_path / "ro", "2m") as folder:
        data = ["--data-dir", str(folder)]
        assert run(capsys, "demo", *data)[0] == 0
        close_db()
        before = battles(folder / "campaign.db")
        remount(folder, "ro")
        code, out, err = run(
            capsys,
            "battle",
            "log",
            "--platoon",
            "2nd Platoon",
            "--wounds",
            "1",
            "--leader-wounds",
            "0",
            "--seed",
            "1",
            *data,
        )
        line = one_line(err)
        assert code == 1 and out == ""
        assert str(folder) in line and ("read-only" in line or "can be written" in line), line
        assert battles(folder / "campaign.db") == before
        code, out, err = run(capsys, "check", "--data-dir", str(folder / "new"))
        assert code == 1 and str(folder / "new") in one_line(err)


def test_gui_start_on_a_read_only_folder_names_it(tmp_path):
    with tmpfs(tmp_path / "ro", "1m") as folder:
        remount(folder, "ro")
        code = (
            "import sys\n"
            "from PySide6.QtWidgets import QMessageBox\n"
            "shown = []\n"
            "QMessageBox.critical = staticmethod(lambda *a, **k: shown.append(a[2]))\n"
            "from campaign_app.app import main\n"
            f"rc = main(['--data-dir', {str(folder / 'data')!r}])\n"
            "print(rc, shown[0])\n"
        )
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.stdout.startswith("1 "), (result.stdout, result.stderr)
    assert str(folder / "data") in result.stdout
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["import", "\x00"],
        ["restore", "a\x00b"],
        ["print", "sheet", "--blank", "-o", "x\x00"],
        ["campaign", "new", "--name", "A\x00B", "--system", "atomic-africa"],
    ],
)
def test_nul_in_an_argument(capsys, demo, argv):
    """Found by the property test: a NUL in a path gave 'embedded null byte' from the OS."""
    code, out, err = run(capsys, *argv, "--data-dir", str(demo.data_dir))
    assert code == 2 and out == "" and "NUL" in one_line(err)


def test_disk_full_before_the_database_is_open_says_disk_full(capsys, tmp_path):
    """With no room for the -shm/-wal files beside the database, SQLite reports a 'disk I/O error'
    (SQLITE_IOERR_SHMSIZE): every command, reading or writing, says disk full and names the folder."""
    close_db()
    with tmpfs(tmp_path / "small", "2400k") as small:
        data = ["--data-dir", str(tmp_path / "data"), "--db", str(small / "campaign.db")]
        assert run(capsys, "demo", *data)[0] == 0
        close_db()
        before = battles(small / "campaign.db")
        con = sqlite3.connect(small / "campaign.db")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        for extra in ("campaign.db-wal", "campaign.db-shm"):  # as after a clean exit: nothing beside the file
            with contextlib.suppress(FileNotFoundError):
                (small / extra).unlink()
        filler = small / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 1024)
        os.close(fd)
        for argv in (["campaign", "list"], ["history", "--platoon", "2nd Platoon"]):
            # a reading command opens the file read-only (immutable) and works, creating nothing
            done = subprocess.run(
                [sys.executable, "-m", "campaign_app.cli", *argv, *data], capture_output=True, text=True, timeout=60
            )
            assert done.returncode == 0 and done.stdout.strip(), (argv, done.stderr)
            assert not (small / "campaign.db-shm").exists() and not (small / "campaign.db-wal").exists()
        for argv in (["battle", "log", "--platoon", "2nd Platoon", "--wounds", "1", "--leader-wounds", "0"],):
            # a fresh process: one that has the file open keeps its -shm mapped
            done = subprocess.run(
                [sys.executable, "-m", "campaign_app.cli", *argv, *data], capture_output=True, text=True, timeout=60
            )
            line = one_line(done.stderr)
            assert done.returncode == 1 and done.stdout == "", (argv, line)
            assert "disk full" in line and str(small) in line, (argv, line)
        filler.unlink()
        assert battles(small / "campaign.db") == before


def test_read_only_data_folder_is_called_read_only(capsys, tmp_path):
    close_db()
    with tmpfs(tmp_path / "ro", "2m") as folder:
        data = ["--data-dir", str(folder)]
        assert run(capsys, "demo", *data)[0] == 0
        close_db()
        remount(folder, "ro")
        # reading commands work (today's backup cannot be made: said after the output)
        for argv in (
            ["campaign", "list"],
            ["export", "--campaign", "Congo 1960 (sample)", "-o", str(tmp_path / "c.json")],
        ):
            code, out, err = run(capsys, *argv, *data)
            assert code == 0 and out.strip(), (argv, err)
            assert err == "" or (
                err.startswith("campaign-cli: warning: today's backup") and len(err.strip().splitlines()) == 1
            ), err
            close_db()
        for argv in (["backup"], ["campaign", "new", "--name", "Nope"]):
            code, out, err = run(capsys, *argv, *data)
            line = one_line(err)
            assert code == 1 and "read-only" in line and str(folder) in line, (argv, line)
            close_db()
        code = (
            "from PySide6.QtWidgets import QMessageBox\n"
            "shown = []\n"
            "QMessageBox.critical = staticmethod(lambda *a, **k: shown.append(a[2]))\n"
            "from campaign_app.app import main\n"
            f"rc = main(['--data-dir', {str(folder)!r}])\n"
            "print(rc, shown[0])\n"
        )
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.stdout.startswith("1 Cannot open "), (result.stdout, result.stderr)
    assert "read-only" in result.stdout and str(folder) in result.stdout


def test_daily_backup_never_fills_the_disk(capsys, tmp_path):
    """On a nearly full disk the first command of the day does not spend the last free space on its daily
    backup (which then made the user's own write fail with 'disk full')."""
    close_db()
    with tmpfs(tmp_path / "small", "2m") as small:
        data = ["--data-dir", str(small)]
        assert run(capsys, "demo", *data)[0] == 0
        close_db()
        con = sqlite3.connect(small / "campaign.db")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        for extra in ("campaign.db-wal", "campaign.db-shm"):
            with contextlib.suppress(FileNotFoundError):
                (small / extra).unlink()
        for old in (small / "backups").glob("*.db"):
            old.unlink()
        st = os.statvfs(small)  # leave about 260 KiB: room for a backup (180 KiB) or for the write
        (small / "filler").write_bytes(b"\0" * (st.f_bavail * st.f_frsize - 260 * 1024))
        code, out, err = run(
            capsys,
            "battle",
            "log",
            "--platoon",
            "2nd Platoon",
            "--wounds",
            "1",
            "--leader-wounds",
            "0",
            "--seed",
            "1",
            *data,
        )
        close_db()
        assert code == 0, err
        assert list((small / "backups").glob("*-daily.db")) == []


def test_data_folder_that_is_a_file(capsys, tmp_path):
    close_db()
    a_file = tmp_path / "campaign.json"
    a_file.write_text("{}", encoding="utf-8")
    for folder in (a_file, a_file / "sub"):
        code, out, err = run(capsys, "campaign", "list", "--data-dir", str(folder))
        line = one_line(err)
        assert code == 2 and str(folder) in line and "is a file, not a folder" in line, line
    assert a_file.read_text(encoding="utf-8") == "{}"


def test_gui_start_with_a_data_folder_that_is_a_file(tmp_path):
    from campaign_app.app import prepare_folders
    from campaign_app.paths import resolve_paths

    a_file = tmp_path / "not-a-folder"
    a_file.write_text("x", encoding="utf-8")
    problem = prepare_folders(resolve_paths(a_file))
    assert problem is not None and str(a_file) in problem and "is a file, not a folder" in problem


def test_data_folder_that_is_not_valid_text(tmp_path):
    """A data folder from the environment with bytes that are not UTF-8: no 'Logging error' tracebacks, and
    with a strict UTF-8 locale no 'unexpected problem' after the work was done (the path is printed escaped)."""
    folder = os.fsencode(tmp_path) + b"/bad\xffdir"
    env = {k.encode(): v.encode() for k, v in os.environ.items() if k != "CAMPAIGN_APP_DATA_DIR"}
    env[b"CAMPAIGN_APP_DATA_DIR"] = folder
    env[b"PYTHONIOENCODING"] = b"utf-8:strict"
    for argv in (["demo"], ["backup"], ["backup", "list", "--json"]):
        done = subprocess.run(
            [sys.executable, "-m", "campaign_app.cli", *argv], capture_output=True, env=env, timeout=60
        )
        assert done.returncode == 0 and done.stderr == b"", (argv, done.stderr.decode(errors="replace"))
    assert b"bad\\udcffdir" in done.stdout
    log = folder + b"/logs/campaign_app.log"
    with open(log, "rb") as fh:
        assert b"bad\\udcffdir" in fh.read()


def test_standard_output_on_a_full_disk_is_not_called_a_database_problem(demo, tmp_path):
    """`campaign-cli campaign list > /dev/full` said 'disk full: cannot write the database; nothing was written'."""
    done = subprocess.run(
        f"{sys.executable} -m campaign_app.cli campaign list --data-dir {demo.data_dir} > /dev/full",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    line = one_line(done.stderr)
    assert done.returncode == 1 and "standard output" in line and "database" not in line, line
