"""The whole content of the bound database, on either engine, for tests that compare before and after."""

from __future__ import annotations

from typing import Any

from campaign_app.store.database import db
from campaign_app.store.journal import app_tables


def dump(skip: tuple[str, ...] = ()) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every app table (not the journal's own tables), in id order."""
    return {
        t: [tuple(r) for r in db.execute_sql(f'SELECT * FROM "{t}" ORDER BY id').fetchall()]
        for t in app_tables(db.obj)
        if t not in skip
    }
