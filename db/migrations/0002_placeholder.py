"""0002: intentionally empty (reserved).

The print branch needed migration 0003 while another branch was expected to add 0002; the loader wants the
numbers 1..n without gaps, so this no-op keeps them contiguous. If another 0002 migration lands, this file
is replaced by it (the 0003 migration does not depend on anything 0002 does)."""

from __future__ import annotations

from typing import Any


def migrate(migrator: Any, database: Any) -> None:
    return None
