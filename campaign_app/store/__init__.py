"""The store: peewee models, the one database entry point, migrations, backups, integrity checks."""

from .check import check_database
from .database import close_db, current_db, db, init_db
from .errors import DatabaseError, DatabaseOpenError, DatabaseTooNewError, MigrationFailedError
from .file_engine import CampaignDatabase

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
