"""Every service test works on a database, once on each engine: the file (SQLite) and a PostgreSQL server."""

from __future__ import annotations

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def db_engine(request: pytest.FixtureRequest) -> str:
    """Both engines, except for tests marked ``file_db`` (about the file itself), which run on the file only."""
    if request.param == "postgresql" and request.node.get_closest_marker("file_db"):
        pytest.skip("about the database file itself (backups, files on disk): the file engine only")
    return str(request.param)


@pytest.fixture(autouse=True)
def _database(fresh_db: object) -> None:
    """The fresh database of tests/conftest.py, for each test here."""
