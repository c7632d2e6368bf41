"""``--db`` with spaces around it (a pasted address): the CLI strips them as the window does, so a server address
is a server address and never names a new file, and a file name names the file without the spaces."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from campaign_app.cli import main
from campaign_app.paths import is_server_url, resolve_paths


@pytest.fixture
def db_engine() -> str:
    """These tests name their database themselves: one run."""
    return "sqlite"


@pytest.mark.parametrize(
    "text",
    [" postgresql://ana@localhost/club", "postgres://ana@localhost/club\n", "\tPOSTGRESQL://ana@localhost/club  "],
)
def test_a_server_address_with_spaces_around_it_is_a_server(text: str, tmp_path: Path) -> None:
    assert is_server_url(text)
    paths = resolve_paths(tmp_path / "d", text)
    assert paths.db_url == text.strip()
    assert paths.db_file == (tmp_path / "d" / "campaign.db").resolve()


@pytest.mark.parametrize(
    "text",
    ["campaign.db", "/tmp/postgresql/x.db", "postgresql:/ana@localhost/club", "", None, "mysql://ana@localhost/club"],
)
def test_anything_else_is_a_file(text: Any) -> None:
    assert not is_server_url(text)


def test_the_cli_reaches_for_the_server_and_creates_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: a new SQLite file named `` postgresql:/ana@localhost/club`` in the working folder, exit 0."""
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "d"
    code = main(["--data-dir", str(data), "--db", " postgresql://ana@127.0.0.1:1/club", "journal", "--json"])
    out, err = capsys.readouterr()
    assert code == 1, (out, err)
    assert out == "" and "ana@127.0.0.1:1/club" in err and "reach" in err.lower(), err
    made = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert not any("postgresql" in name or name.endswith(".db") for name in made), made


def test_a_file_name_with_spaces_around_it_opens_that_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "d"
    assert main(["--data-dir", str(data), "--db", "  league.db \n", "journal", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert (tmp_path / "league.db").is_file()
    assert not any(p.name.startswith(" ") or p.name.endswith(("\n", " ")) for p in tmp_path.iterdir())


def test_the_cli_opens_the_server_given_with_spaces(
    pg_server: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    url = pg_server.create_database(pg_server.new_database_name("spaces"))
    try:
        data = tmp_path / "d"
        assert main(["--data-dir", str(data), "--db", f"  {url}\n", "journal", "--json"]) == 0, capsys.readouterr()
        assert json.loads(capsys.readouterr().out) == []
        assert not (data / "campaign.db").exists()  # the data folder's own file was not made
        assert not any(p.suffix == ".db" or "postgres" in p.name for p in tmp_path.iterdir())
    finally:
        from campaign_app.store import close_db

        close_db()
