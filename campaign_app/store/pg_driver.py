"""Handing psycopg to peewee when peewee was imported without it (the desktop start on a file hides the
PostgreSQL drivers from peewee's import: :mod:`campaign_app.lazy_postgres`)."""

from __future__ import annotations

import peewee


def ensure_peewee_postgres() -> None:
    """Give peewee the psycopg 3 driver when it was imported without it (no-op when it has it, or when psycopg
    is not installed: peewee then says so itself when connecting)."""
    if getattr(peewee, "psycopg", None) is not None:
        return
    try:
        import psycopg
        from psycopg.pq import TransactionStatus
        from psycopg.types.json import Json, Jsonb
    except ImportError:
        return
    # what peewee's own import sets when it finds psycopg (module globals and the adapter's status constants)
    peewee.psycopg = psycopg  # type: ignore[attr-defined]
    peewee.TransactionStatus = TransactionStatus  # type: ignore[attr-defined]
    peewee.Json_pg3 = Json  # type: ignore[attr-defined]
    peewee.Jsonb_pg3 = Jsonb  # type: ignore[attr-defined]
    adapter = peewee.Psycopg3Adapter
    adapter.txn_idle = TransactionStatus.IDLE
    adapter.txn_inerror = TransactionStatus.INERROR
    adapter.txn_unknown = TransactionStatus.UNKNOWN
