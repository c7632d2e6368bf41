"""Names refuse NUL, control characters and line breaks; free text has limits; output files are written
through a random temporary name, never through a symlink, never deleting a file of the user's."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign_app import fileio
from campaign_app.errors import DiskFullError, ServiceError
from campaign_app.services import campaigns
from campaign_app.services import platoons as platoon_service
from campaign_app.services import sologear_sheet as sheet_service
from campaign_app.store.models import Campaign, Platoon
from tests.ids import campaign_id, sheet_id


@pytest.mark.parametrize("bad", ["A\x00B", "A\nB", "A\rB", "A\x1bB", "A\u2028B", "A\x7fB"])
def test_names_refuse_nul_control_characters_and_line_breaks(bad: str):
    with pytest.raises(ServiceError, match="must not contain"):
        campaigns.create_campaign(bad, "atomic_africa")
    campaigns.create_campaign("Good", "atomic_africa")
    with pytest.raises(ServiceError, match="must not contain"):
        platoon_service.create_platoon(campaign_id("Good"), bad, training=10, equipment=10, morale=8, armor=2)
    with pytest.raises(ServiceError, match="must not contain"):
        sheet_service.create_sheet("Solo", bad, 30)
    assert [c.name for c in Campaign.select()] == ["Good"]
    assert Platoon.select().count() == 0


def test_notes_keep_line_breaks_but_refuse_nul():
    made = campaigns.create_campaign("C", "atomic_africa", notes="line one\nline two\ttab")
    assert Campaign.get_by_id(made.id).notes == "line one\nline two\ttab"
    with pytest.raises(ServiceError, match="NUL"):
        campaigns.set_campaign(campaign_id("C"), notes="a\x00b")


def test_sologear_notes_are_limited():
    with pytest.raises(ServiceError, match="too long"):
        sheet_service.create_sheet("Solo", "Pilot", 30, notes="n" * 10_001)
    sheet_service.create_sheet("Solo", "Pilot", 30, notes="fine")
    with pytest.raises(ServiceError, match="too long"):
        sheet_service.update_sheet(sheet_id("Solo"), notes="n" * 10_001)


def test_reason_is_limited_and_one_clean_text():
    campaigns.create_campaign("C", "atomic_africa")
    p = platoon_service.create_platoon(campaign_id("C"), "P", training=10, equipment=10, morale=8, armor=2).id
    with pytest.raises(ServiceError, match="too long"):
        platoon_service.set_xp(p, 3, reason="r" * 501)
    with pytest.raises(ServiceError, match="NUL"):
        platoon_service.set_xp(p, 3, reason="a\x00")
    assert Platoon.get(Platoon.name == "P").xp == 0


def test_output_never_follows_a_symlink_and_never_deletes_the_users_file(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("keep me")
    out = tmp_path / "out.pdf"
    # a symlink planted at the old predictable temporary name, and one at the target itself
    planted = tmp_path / "out.pdf.part"
    planted.symlink_to(secret)
    out.symlink_to(secret)
    fileio.write_atomic(out, b"%PDF-new")
    assert secret.read_text() == "keep me"
    assert not out.is_symlink() and out.read_bytes() == b"%PDF-new"
    assert planted.is_symlink(), "a file of the user's is never deleted"
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.pdf.")]
    assert leftovers == []


def test_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "out.pdf"
    out.write_bytes(b"old")

    def broken(path: Path, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", broken)
    with pytest.raises(DiskFullError, match="disk full"):
        fileio.write_atomic(out, b"new")
    monkeypatch.undo()
    assert out.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "data") == ["out.pdf"]


def test_output_never_replaces_a_device_or_pipe(tmp_path: Path):
    """`-o /dev/null` (as root) put a PDF in place of /dev/null: a target that is a device, a pipe or a
    socket (also through a symlink) is refused and left as it is."""
    import os
    import stat

    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    link = tmp_path / "link.pdf"
    link.symlink_to(fifo)
    for target in (fifo, link):
        with pytest.raises(ServiceError, match="not a regular file"):
            fileio.write_atomic(target, b"%PDF-new")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and link.is_symlink()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []
    dangling = tmp_path / "dangling.pdf"
    dangling.symlink_to(tmp_path / "missing.pdf")
    fileio.write_atomic(dangling, b"%PDF-new")  # a dangling link is replaced by the file
    assert not dangling.is_symlink() and dangling.read_bytes() == b"%PDF-new"


def test_print_to_a_pipe_is_one_line(tmp_path: Path, app_paths, capsys: pytest.CaptureFixture[str]):
    import os

    from campaign_app.cli import main

    fifo = tmp_path / "cards.pdf"
    os.mkfifo(fifo)
    code = main(["print", "cards", "--deck", "atomic-africa", "-o", str(fifo), "--data-dir", str(app_paths.data_dir)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "not a regular file" in err, err


@pytest.mark.file_db
def test_output_never_replaces_a_database(tmp_path: Path, app_paths, capsys: pytest.CaptureFixture[str]):
    """`export -o campaign.db` (the open database) replaced it with JSON: every campaign was gone. An output
    path that is an SQLite file (the open database, a backup, another campaign file) or the journal beside one
    is refused and left as it was."""
    from campaign_app.cli import main
    from campaign_app.services.demo import create_demo
    from campaign_app.store import close_db

    create_demo()
    close_db()
    data = ["--data-dir", str(app_paths.data_dir)]
    assert main(["backup", *data]) == 0
    (backup,) = app_paths.backup_dir.glob("*-manual.db")
    wal = app_paths.db_file.with_name(app_paths.db_file.name + "-wal")
    for target, argv in (
        (app_paths.db_file, ["export", "--campaign", "Congo 1960 (sample)"]),
        (backup, ["export", "--campaign", "Congo 1960 (sample)"]),
        (wal, ["export", "--campaign", "Congo 1960 (sample)"]),
        (app_paths.db_file, ["print", "cards", "--deck", "atomic-africa"]),
    ):
        before = target.read_bytes() if target.exists() else None
        capsys.readouterr()
        code = main([*argv, "-o", str(target), *data])
        err = capsys.readouterr().err
        assert code == 2 and "is a database file" in err and err.count("\n") == 1, (target, err)
        if before is not None and target != app_paths.db_file:
            assert target.read_bytes() == before
        close_db()
    assert main(["campaign", "list", *data]) == 0
    assert "Congo 1960 (sample)" in capsys.readouterr().out
