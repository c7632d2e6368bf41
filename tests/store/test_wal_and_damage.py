"""Only the database's own -wal is read, and a file found damaged takes no more writes.

Real files throughout: a crash is the database and its -wal copied while the app has them open (what a killed
program leaves), a foreign -wal is one crafted from an older backup, another campaign database and another
program's SQLite file; damage is one flipped byte in a page header of the roll table.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from campaign_app.cli import main
from campaign_app.services.campaigns import create_campaign, list_campaigns
from campaign_app.services.demo import create_demo
from campaign_app.store import DatabaseOpenError, close_db, init_db
from campaign_app.store.backups import make_backup
from campaign_app.store.check import check_database
from campaign_app.store.damage import DatabaseDamagedError, damage_of
from campaign_app.store.database import current_db
from campaign_app.store.errors import ForeignWalError
from campaign_app.store.walcheck import foreign_wal


def _crash_copy(db_file: Path, into: Path) -> Path:
    """The database and its -wal as a killed program leaves them (copied while open, nothing checkpointed)."""
    into.mkdir(parents=True, exist_ok=True)
    shutil.copy(db_file, into / db_file.name)
    wal = db_file.with_name(db_file.name + "-wal")
    assert wal.exists() and wal.stat().st_size > 0
    shutil.copy(wal, into / wal.name)
    return into / db_file.name


def _campaign_db(folder: Path, extra: str) -> tuple[Path, Path, Path]:
    """A campaign file with the sample campaigns, an 'older' backup of it, then one more campaign written
    into its -wal; returns (crashed copy of the file and its -wal, the backup, the backup folder)."""
    close_db()
    db_file, backups = folder / "campaign.db", folder / "backups"
    database = init_db(db_file, backups, daily_backup=False)
    create_demo()
    backup = make_backup(database, db_file, backups, "manual")
    create_campaign(f"{extra} Before")  # the backup is older than the file
    current_db().execute_sql("PRAGMA wal_autocheckpoint=0")  # type: ignore[union-attr]
    current_db().execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")  # type: ignore[union-attr]
    create_campaign(extra)
    crashed = _crash_copy(db_file, folder / "crashed")
    close_db()
    return crashed, backup, backups


def _beside(path: Path) -> set[str]:
    return {p.name for p in path.parent.iterdir() if p.name.startswith(path.name)}


def test_own_wal_after_a_crash_is_read(tmp_path: Path):
    crashed, _backup, backups = _campaign_db(tmp_path, "Late Campaign")
    assert foreign_wal(crashed, crashed.with_name("campaign.db-wal")) is None
    init_db(crashed, backups, daily_backup=False)
    assert "Late Campaign" in {c.name for c in list_campaigns()}


def test_older_backup_copied_over_the_file_is_refused_naming_the_wal(tmp_path: Path, capsys):
    crashed, backup, backups = _campaign_db(tmp_path, "Late Campaign")
    shutil.copy(backup, crashed)  # by hand, over the file, with the crash's -wal beside it
    wal = crashed.with_name("campaign.db-wal")
    before = (crashed.read_bytes(), wal.read_bytes())
    with pytest.raises(ForeignWalError) as info:
        init_db(crashed, backups)
    message = str(info.value)
    assert str(wal) in message and "Move" in message and "restore" in message and str(backup) in message
    assert (crashed.read_bytes(), wal.read_bytes()) == before
    assert _beside(crashed) == {"campaign.db", "campaign.db-wal"}  # no -shm
    # the CLI: one line, exit 2, for reading and writing commands alike; nothing changes
    for argv in (["platoon", "list"], ["check"], ["history", "--platoon", "1st Platoon"]):
        code = main([*argv, "--db", str(crashed), "--data-dir", str(tmp_path)])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and str(wal) in err, err
    assert (crashed.read_bytes(), wal.read_bytes()) == before
    assert _beside(crashed) == {"campaign.db", "campaign.db-wal"}
    # restore works in that state: the file and its -wal are kept in the backup folder, the backup put back
    code = main(["restore", str(backup), "--db", str(crashed), "--data-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    kept = sorted(backups.glob("campaign-*-restore.db-wal"))
    assert len(kept) == 1 and kept[0].read_bytes() == before[1]
    assert kept[0].with_name(kept[0].name[:-4]).read_bytes() == before[0]
    init_db(crashed, backups, daily_backup=False)
    assert "Late Campaign" not in {c.name for c in list_campaigns()}
    assert check_database(current_db()).ok  # type: ignore[arg-type]


def test_wal_of_another_campaign_database_is_refused(tmp_path: Path):
    mine, _b, backups = _campaign_db(tmp_path / "mine", "Mine")
    theirs, _b2, _ = _campaign_db(tmp_path / "theirs", "Theirs")
    shutil.copy(theirs.with_name("campaign.db-wal"), mine.with_name("campaign.db-wal"))
    before = mine.read_bytes()
    with pytest.raises(ForeignWalError, match="another database"):
        init_db(mine, backups)
    assert mine.read_bytes() == before and _beside(mine) == {"campaign.db", "campaign.db-wal"}


def test_wal_of_another_program_is_refused_not_called_a_foreign_database(tmp_path: Path):
    mine, _b, backups = _campaign_db(tmp_path / "mine", "Mine")
    mine.with_name("campaign.db-wal").unlink()
    other = tmp_path / "recipes.db"
    owner = sqlite3.connect(other)
    owner.execute("PRAGMA journal_mode=WAL")
    owner.execute("PRAGMA wal_autocheckpoint=0")
    owner.execute("CREATE TABLE recipes (name TEXT)")
    owner.commit()
    owner.execute("INSERT INTO recipes VALUES ('soup')")
    owner.commit()
    shutil.copy(tmp_path / "recipes.db-wal", mine.with_name("campaign.db-wal"))
    owner.close()
    with pytest.raises(ForeignWalError) as info:
        init_db(mine, backups)
    assert "not a campaign database" not in str(info.value)
    assert _beside(mine) == {"campaign.db", "campaign.db-wal"}
    # a file of another page size, too
    other2 = tmp_path / "big-pages.db"
    con = sqlite3.connect(other2)
    con.execute("PRAGMA page_size=8192")
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("CREATE TABLE t (x)")
    con.commit()
    shutil.copy(tmp_path / "big-pages.db-wal", mine.with_name("campaign.db-wal"))
    con.close()
    with pytest.raises(ForeignWalError, match="8192"):
        init_db(mine, backups)


def _flip_roll_page(db_file: Path) -> None:
    """One flipped byte in the b-tree page header of the roll table (the file checkpointed and closed)."""
    con = sqlite3.connect(db_file)
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'roll'").fetchone()[0]
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    with db_file.open("r+b") as fh:
        fh.seek((root - 1) * page_size + 3)  # the number of cells on the page
        cells = fh.read(2)
        fh.seek((root - 1) * page_size + 3)
        fh.write(bytes([cells[0] ^ 0x01, cells[1] ^ 0x40]))


def test_damage_found_by_check_stops_writes_reads_go_on(tmp_path: Path, capsys):
    close_db()
    db_file, backups = tmp_path / "campaign.db", tmp_path / "backups"
    init_db(db_file, backups, daily_backup=False)
    create_demo()
    close_db()
    good = make_backup(db_file, db_file, backups, "manual")
    _flip_roll_page(db_file)
    args = ["--db", str(db_file), "--data-dir", str(tmp_path)]
    assert main(["check", *args]) == 1
    capsys.readouterr()
    assert damage_of(db_file) is not None
    before = db_file.read_bytes()
    code = main(
        ["battle", "log", "--platoon", "2nd Platoon", "--wounds", "4", "--leader-wounds", "0", "--seed", "1", *args]
    )
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "damaged" in err and "restore" in err.lower() and str(good) in err
    assert main(["undo", *args]) == 1
    capsys.readouterr()
    assert main(["platoon", "list", *args]) == 0  # reads still work
    assert "2nd Platoon" in capsys.readouterr().out
    close_db()
    con = sqlite3.connect(db_file)
    assert con.execute("SELECT count(*) FROM battle").fetchone()[0] == 0 or db_file.read_bytes()[:100] == before[:100]
    con.close()
    # restore lifts the mark; writes work again
    assert main(["restore", str(good), *args]) == 0
    capsys.readouterr()
    assert damage_of(db_file) is None
    assert main(["campaign", "new", "--name", "After Restore", *args]) == 0


def test_damage_found_by_the_daily_backup_refuses_the_write_and_warns_a_reader(tmp_path: Path, capsys):
    close_db()
    db_file, backups = tmp_path / "campaign.db", tmp_path / "backups"
    init_db(db_file, backups, daily_backup=False)
    create_demo()
    close_db()
    _flip_roll_page(db_file)
    args = ["--db", str(db_file), "--data-dir", str(tmp_path)]
    code = main(
        ["battle", "log", "--platoon", "2nd Platoon", "--wounds", "4", "--leader-wounds", "0", "--seed", "1", *args]
    )
    out, err = capsys.readouterr()
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("campaign-cli: error:") and "changes are refused" in err
    close_db()
    assert not list(backups.glob("*-daily.db"))
    # a reading command works, and says after its output that today's backup was not made
    code = main(["platoon", "list", *args])
    out, err = capsys.readouterr()
    assert code == 0 and "2nd Platoon" in out
    assert err.startswith("campaign-cli: warning: today's backup") and "damaged" in err
    assert len(err.strip().splitlines()) == 1


def test_daily_backup_refused_for_space_is_a_warning(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch):
    import campaign_app.store.backups as store_backups

    close_db()
    db_file = tmp_path / "campaign.db"
    init_db(db_file, tmp_path / "backups", daily_backup=False)
    create_demo()
    close_db()
    monkeypatch.setattr(store_backups, "room_for_backup", lambda db_file, backup_dir: False)
    code = main(["platoon", "list", "--db", str(db_file), "--data-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0 and "2nd Platoon" in out
    assert err.startswith("campaign-cli: warning: today's backup") and "free space" in err


def test_damaged_database_refuses_writes_in_process(tmp_path: Path):
    close_db()
    db_file, backups = tmp_path / "campaign.db", tmp_path / "backups"
    init_db(db_file, backups, daily_backup=False)
    create_demo()
    close_db()
    _flip_roll_page(db_file)
    init_db(db_file, backups, daily_backup=False)
    assert not check_database(current_db()).ok  # type: ignore[arg-type]
    with pytest.raises(DatabaseDamagedError, match="damaged"):
        create_campaign("Into The Damage")
    close_db()
    with pytest.raises(DatabaseOpenError):
        make_backup(db_file, db_file, backups, "manual")


def test_own_wal_after_a_partial_checkpoint_is_read(tmp_path: Path):
    """A checkpoint copied part of the -wal into the file (page 1 included) and more was written after it:
    still the file's own."""
    close_db()
    db_file, backups = tmp_path / "campaign.db", tmp_path / "backups"
    init_db(db_file, backups, daily_backup=False)
    database = current_db()
    assert database is not None
    database.execute_sql("PRAGMA wal_autocheckpoint=0")
    create_demo()
    reader = sqlite3.connect(db_file)  # a reader holds the -wal: the checkpoint cannot start it afresh
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM campaign").fetchone()
    create_campaign("Between")
    database.execute_sql("PRAGMA wal_checkpoint(PASSIVE)")
    reader.rollback()
    create_campaign("After The Checkpoint")
    crashed = _crash_copy(db_file, tmp_path / "crashed")
    reader.close()
    close_db()
    assert foreign_wal(crashed, crashed.with_name("campaign.db-wal")) is None
    init_db(crashed, backups, daily_backup=False)
    assert {"Between", "After The Checkpoint"} <= {c.name for c in list_campaigns()}
