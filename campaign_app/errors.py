"""The error types every layer shares (no Qt, no peewee).

``ServiceError``: input a service refuses; nothing was written. Its subclass ``StoreProblem`` is trouble in
the environment met while reading or writing the database (busy, disk full, read-only, I/O): the transaction
was rolled back, so nothing was written either. Because a ``StoreProblem`` *is* a ``ServiceError``, every
place that shows a refusal and reloads the stored values (the GUI pages, the CLI's one-line errors) handles
it too. ``exit_code`` is the CLI's exit status: 2 for something the user can fix or retry, 1 for the
environment.
"""

from __future__ import annotations


class ServiceError(ValueError):
    """Input a service refuses; the message says what is wrong. Nothing was written."""

    exit_code = 2


class StoreProblem(ServiceError):
    """The database could not be read or written because of the environment; nothing was written."""

    exit_code = 1


class DatabaseBusyError(StoreProblem):
    """Another window or command held the write lock for longer than the busy timeout."""

    exit_code = 2


class DiskFullError(StoreProblem):
    """The disk (or the file system) is full."""


class ReadOnlyError(StoreProblem):
    """The database file or its folder cannot be written."""


class StorageIOError(StoreProblem):
    """Any other I/O failure of the database file."""


BUSY_MESSAGE = ("the database is busy (another window or command is writing to it); nothing was written, "
                "try again")
