"""0006: reserved for the club server's journal work (issue 20) on another branch; does nothing here.

Issue 26 was given migration number 0007 while 0006 is written elsewhere, and the runner needs the scripts numbered
1..n. At merge this placeholder is replaced by the real 0006 (or 0007 is renumbered); it changes nothing.
"""

from __future__ import annotations

from typing import Any


def migrate(migrator: Any, database: Any) -> None:
    return None
