"""The error types every layer shares (no Qt, no peewee): one root, :class:`CampaignError`.

Every error the app raises on purpose is a ``CampaignError``, and none is a ``ValueError``: the GUI (its
error labels, message boxes and exception hook) and the CLI (one line on stderr) catch ``CampaignError`` or
a precise subclass, so a programming error (a ``ValueError`` or ``KeyError`` from a library, a typo) is
never shown as if the user had typed something wrong: it reaches the exception hook (GUI) or the CLI's
logged "unexpected problem" line.

The tree (``exit_code`` is the CLI's exit status: 2 for something the user can fix or retry, 1 for the
environment)::

    CampaignError                  2  anything the app says no to; nothing was written
    ├── Refused                    2  the request is refused: bad input, or a rule says no
    │   ├── NotFound               2  the campaign, platoon, battle... named does not exist
    │   ├── Conflict               2  a later change is in the way (e.g. undoing what a later operation touched)
    │   ├── rules: DiceError, RulesError, RuleTableError
    │   ├── printing: DeckError (CardFitError)
    │   └── commands: CliError (a usage problem of one command)
    ├── StoreProblem               1  the database (or an output file) could not be read or written because
    │   │                             of the environment; the transaction was rolled back
    │   ├── DatabaseBusyError      2  another window or command held the write lock too long (retry)
    │   ├── BadPathError           2  a path given is a symlink loop or too long for the file system
    │   ├── DiskFullError          1
    │   ├── ReadOnlyError          1
    │   └── StorageIOError         1
    ├── store: DatabaseError       2  the database file cannot be opened (damaged, too new, a failed migration)
    └── commands: OutputError      1  standard output could not be written

``ServiceError`` is the older name of :class:`Refused` (the services raise it under that name); it is the
same class, so ``except ServiceError`` catches refusals, not store problems: catch ``CampaignError`` for
"anything the app says no to".
"""

from __future__ import annotations


class CampaignError(Exception):
    """The root of every error the app raises on purpose; the message is one sentence for the user."""

    exit_code = 2


class Refused(CampaignError):
    """Input a service (or a rule) refuses; the message says what is wrong. Nothing was written."""


ServiceError = Refused
"""The older name of :class:`Refused`, kept for the services that raise it."""


class StaleName(Refused):
    """A name remembered from an earlier command no longer names the row it named (renamed, deleted, or now
    shared): the command is run again with the name looked up afresh. Nothing was written."""


class NotFound(Refused):
    """An unknown campaign, platoon, battle, unit...: the name or id given names nothing stored."""


class Conflict(Refused):
    """A later change is in the way: e.g. undoing an operation whose rows a later operation changed, or a
    change made from another window since the data was read. The message names the later change."""


class StoreProblem(CampaignError):
    """The database could not be read or written because of the environment; nothing was written."""

    exit_code = 1


class DatabaseBusyError(StoreProblem):
    """Another window or command held the write lock for longer than the busy timeout."""

    exit_code = 2


class BadPathError(StoreProblem):
    """A path the user gave cannot name a file: a symbolic link loop, a name or path too long for the file
    system. Something the user can fix (exit 2)."""

    exit_code = 2


class DiskFullError(StoreProblem):
    """The disk (or the file system) is full."""


class ReadOnlyError(StoreProblem):
    """The database file or its folder cannot be written."""


class StorageIOError(StoreProblem):
    """Any other I/O failure of the database file."""


class ServerUnavailable(StoreProblem):
    """The campaign server (PostgreSQL) could not be reached, or the connection to it was lost. The message
    names the server and the reason; nothing was written."""


class PasswordRequired(ServerUnavailable):
    """The server asks for a password, or refused the one given (the GUI asks for it)."""


class ServerSupportMissing(CampaignError):
    """A ``postgresql://`` database was asked for but the PostgreSQL driver is not installed."""

    exit_code = 2


SERVER_SUPPORT_MESSAGE = (
    "PostgreSQL support is not installed, so a postgresql:// database cannot be opened: "
    "install it with  pip install 'campaign-app[server]'"
)


BUSY_MESSAGE = "the database is busy (another window or command is writing to it); nothing was written, try again"


def bad_path(path: object, exc: BaseException) -> BadPathError | None:
    """The one-line refusal for a path that cannot name a file (``exc`` from the OS or ``Path.resolve``), or
    ``None`` when ``exc`` is another problem."""
    import errno

    number = getattr(exc, "errno", None)
    if number == errno.ELOOP or (isinstance(exc, RuntimeError) and "Symlink loop" in str(exc)):
        return BadPathError(
            f"the path {path} goes round in a loop of symbolic links (one points back to "
            "another that points to it); give another path"
        )
    if number == errno.ENAMETOOLONG:
        return BadPathError(
            f"the path {path} is too long for the file system (a name in it has more than 255 "
            "characters, or the whole path is over 4096); give a shorter one"
        )
    return None
