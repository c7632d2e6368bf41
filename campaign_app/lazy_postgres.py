"""PostgreSQL's driver only when a club server is opened.

peewee imports psycopg at its own import whenever psycopg is installed (about a third of the desktop window's
start) although a window on a database file never uses it. The desktop start imports the store (and with it
peewee) inside :func:`postgres_drivers_hidden`; opening a server database later hands psycopg to peewee
first (:func:`campaign_app.store.pg_driver.ensure_peewee_postgres`), as peewee's own import would have.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

DRIVERS = ("psycopg", "psycopg2", "psycopg2cffi")


@contextmanager
def postgres_drivers_hidden() -> Iterator[None]:
    """While inside, ``import psycopg`` (and psycopg2) fails as if it were not installed; afterwards they import
    as usual. No effect when peewee was imported already (it has looked for them then)."""
    if "peewee" in sys.modules:
        yield
        return
    hidden = {name: sys.modules.get(name) for name in DRIVERS}
    for name in DRIVERS:
        sys.modules[name] = None  # type: ignore[assignment]  # ``import name`` raises ImportError
    try:
        yield
    finally:
        for name, module in hidden.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
