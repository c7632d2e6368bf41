"""0007: PLACEHOLDER on branch issue-27 only: number 7 is reserved for another engineer's migration (issues
26/20), and the runner wants the numbers 1..n. Delete this file at merge (the real 0007 replaces it)."""

from __future__ import annotations

from typing import Any


def migrate(migrator: Any, database: Any) -> None:
    return None
