"""Every service test works on a database, once on each engine: the file (SQLite) and a PostgreSQL server."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pg_server import both_engines_only_where_aware


@pytest.fixture(params=["sqlite", "postgresql"])
def db_engine(request: pytest.FixtureRequest) -> str:
    """Both engines (tests marked ``file_db``, about the file itself, run on the file only)."""
    return str(request.param)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    both_engines_only_where_aware(config, items, Path(__file__).parent, frozenset({"fresh_db", "db_target"}))


@pytest.fixture(autouse=True)
def _database(fresh_db: object) -> None:
    """The fresh database of tests/conftest.py, for each test here."""
