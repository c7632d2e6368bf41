"""PLACEHOLDER on branch ``schema`` until main has the lead's 0003_journal (replaced by it at the merge)."""

from __future__ import annotations

from typing import Any


def migrate(migrator: Any, database: Any) -> None:
    pass
