"""The store: peewee models, the one database entry point, migrations, backups, integrity checks."""

from .database import (
    DatabaseError,
    DatabaseOpenError,
    DatabaseTooNewError,
    check_database,
    close_db,
    db,
    init_db,
)

__all__ = [
    "DatabaseError",
    "DatabaseOpenError",
    "DatabaseTooNewError",
    "check_database",
    "close_db",
    "db",
    "init_db",
]
