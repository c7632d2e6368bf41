"""The store: peewee models, the one database entry point, migrations, backups, integrity checks."""

from .database import (
    CampaignDatabase,
    DatabaseError,
    DatabaseOpenError,
    DatabaseTooNewError,
    MigrationFailedError,
    check_database,
    close_db,
    current_db,
    db,
    init_db,
)

__all__ = [
    "CampaignDatabase",
    "DatabaseError",
    "DatabaseOpenError",
    "DatabaseTooNewError",
    "MigrationFailedError",
    "check_database",
    "close_db",
    "current_db",
    "db",
    "init_db",
]
