"""Where the user's data lives: database, backups, logs, user card decks.

Default is the platform's user data folder (platformdirs). ``--data-dir DIR`` or the environment variable
``CAMPAIGN_APP_DATA_DIR`` put everything under DIR instead; ``--db FILE`` opens another database file, and
``--db postgresql://login@host/dbname`` a campaign database on a club server (the data folder still holds the
logs, backups of files and the user's decks).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ENV_DATA_DIR = "CAMPAIGN_APP_DATA_DIR"
DB_NAME = "campaign.db"


SERVER_URL_SCHEMES = ("postgresql", "postgres")


def is_server_url(target: object) -> bool:
    """The one test of "is this a server?" for what a user gave (``--db``, File ▸ Open recent, the connect
    dialog): True for a ``postgresql://`` (or ``postgres://``) URL, False for a file path. Whitespace around it
    is ignored, as everywhere the app reads a ``--db`` value (:func:`clean_target`)."""
    if not isinstance(target, str):
        return False
    head, sep, _rest = target.strip().partition("://")
    return bool(sep) and head.lower() in SERVER_URL_SCHEMES


def clean_target(target: str | os.PathLike[str]) -> str:
    """A ``--db`` value as the app uses it: without the spaces, tabs or line ends a paste leaves around it (a
    file name or URL with a leading space is almost always such a slip, and would silently name a new file)."""
    return os.fspath(target).strip()


@dataclass(frozen=True)
class AppPaths:
    data_dir: Path
    db_file: Path
    """The database file (with a server URL: the data folder's own file, the one to fall back on)."""
    db_url: str | None = None
    """A club server's ``postgresql://`` URL when the campaign is there."""

    @property
    def db_target(self) -> str:
        """What to open: the server URL, or the file."""
        return self.db_url or str(self.db_file)

    @property
    def backup_dir(self) -> Path:
        return self.data_dir / "backups"

    @property
    def log_dir(self) -> Path:
        return self.data_dir / "logs"

    @property
    def user_decks_dir(self) -> Path:
        return self.data_dir / "decks"

    def ensure(self) -> AppPaths:
        for folder in (self.data_dir, self.backup_dir, self.log_dir, self.db_file.parent):
            folder.mkdir(parents=True, exist_ok=True)
        return self


def resolve_paths(data_dir: str | os.PathLike[str] | None = None, db: str | os.PathLike[str] | None = None) -> AppPaths:
    """Command-line option first, then the environment variable, then the platform default."""
    if data_dir:
        base = Path(data_dir).expanduser()
    elif os.environ.get(ENV_DATA_DIR):
        base = Path(os.environ[ENV_DATA_DIR]).expanduser()
    else:
        import platformdirs  # only for the default folder (it loads tempfile and more: ~14 ms)

        base = Path(platformdirs.user_data_dir("campaign_app", appauthor=False))
    target = clean_target(db) if db else ""
    if is_server_url(target):
        return AppPaths(data_dir=usable(base), db_file=usable(base / DB_NAME), db_url=target)
    db_file = Path(target).expanduser() if target else base / DB_NAME
    return AppPaths(data_dir=usable(base), db_file=usable(db_file))


def usable(path: Path) -> Path:
    """``path`` resolved, refused in one line (BadPathError, exit 2) when it cannot name a file: a loop of
    symbolic links, or a name or path too long for the file system."""
    from .errors import bad_path

    try:
        resolved = path.resolve()
        os.stat(resolved)
    except FileNotFoundError:
        return path.resolve()
    except (OSError, RuntimeError) as exc:
        problem = bad_path(path, exc)
        if problem is not None:
            raise problem from None
        if isinstance(exc, RuntimeError):
            raise
        return path.absolute()
    return resolved
