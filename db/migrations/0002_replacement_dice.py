"""0002: ⚙ house rule for the replacement leader (RULES.md 1.2 step 4): ``campaign.replacement_dice`` is 2
(the lower of two dice − 1, the rule) or 1 (one die − 1, a house rule). Existing campaigns get 2."""

from __future__ import annotations

from typing import Any

STATEMENTS = [
    'ALTER TABLE "campaign" ADD COLUMN "replacement_dice" INTEGER NOT NULL DEFAULT 2 '
    "CHECK (replacement_dice IN (1, 2))",
]


def migrate(migrator: Any, database: Any) -> None:
    for statement in STATEMENTS:
        database.execute_sql(statement)
