"""Nothing outside ``store/`` asks which engine the open database is: it asks what the database can do
(``store.opened.can``). And there is one test of "is this address a server?" (``paths.is_server_url``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "campaign_app"

ENGINE_QUESTIONS = re.compile(
    r"\bdialect\b|\bis_club\(|\bcurrent_server\(|\bjournal_on_server\(|\bserver_journal\b"
    r"|isinstance\([^)]*\b(?:ServerDatabase|CampaignDatabase|PostgresqlDatabase|SqliteDatabase)\b"
)


def _outside_store() -> list[Path]:
    return [p for p in ROOT.rglob("*.py") if "store" not in p.relative_to(ROOT).parts[:1]]


def test_no_module_outside_the_store_asks_which_engine_it_is() -> None:
    files = _outside_store()
    assert len(files) > 100  # the walk found the app
    found = [
        f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
        for p in files
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if ENGINE_QUESTIONS.search(line)
    ]
    assert found == []


def test_the_pattern_catches_the_old_spellings() -> None:
    """The control: each spelling this replaced is caught."""
    for old in (
        'reading = {"x": 1} if dialect() == "postgresql" else {}',
        "if not access.is_club():",
        "if current_server() is not None:",
        'getattr(db.obj, "dialect", "sqlite")',
        "return isinstance(obj, ServerDatabase)",
    ):
        assert ENGINE_QUESTIONS.search(old), old


def test_one_is_server_url() -> None:
    defined = [
        p.relative_to(ROOT).as_posix()
        for p in ROOT.rglob("*.py")
        if re.search(r"^def is_server\w*\(", p.read_text(encoding="utf-8"), re.M)
    ]
    assert defined == ["paths.py"]
