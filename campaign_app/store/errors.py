"""The store's errors that keep a database from opening (each names the file or server and what to do)."""

from __future__ import annotations

from ..errors import CampaignError


class DatabaseError(CampaignError):
    """Base class of the errors that keep a database from opening."""

    exit_code = 2


class DatabaseOpenError(DatabaseError):
    """Not an SQLite database, or damaged. The file is left untouched."""


class ForeignWalError(DatabaseOpenError):
    """The ``-wal`` file beside the database is not its own (:mod:`.walcheck`). Both files are left untouched;
    ``restore`` still works (it moves the ``-wal`` aside into the backup folder)."""


class DatabaseTooNewError(DatabaseError):
    """The file was written by a newer campaign_app. The file is left untouched."""


class MigrationFailedError(DatabaseError):
    """A migration failed; the file was put back from the backup made just before."""

    exit_code = 1
