"""Every service test works on a database."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _database(fresh_db: object) -> None:
    """The fresh database of tests/conftest.py, for each test here."""
