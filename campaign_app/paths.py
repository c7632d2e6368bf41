"""Where the user's data lives: database, backups, logs, user card decks.

Default is the platform's user data folder (platformdirs). ``--data-dir DIR`` or the environment variable
``CAMPAIGN_APP_DATA_DIR`` put everything under DIR instead; ``--db FILE`` opens another database file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ENV_DATA_DIR = "CAMPAIGN_APP_DATA_DIR"
DB_NAME = "campaign.db"


@dataclass(frozen=True)
class AppPaths:
    data_dir: Path
    db_file: Path

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


def resolve_paths(data_dir: str | os.PathLike[str] | None = None,
                  db: str | os.PathLike[str] | None = None) -> AppPaths:
    """Command-line option first, then the environment variable, then the platform default."""
    if data_dir:
        base = Path(data_dir).expanduser()
    elif os.environ.get(ENV_DATA_DIR):
        base = Path(os.environ[ENV_DATA_DIR]).expanduser()
    else:
        import platformdirs  # only for the default folder (it loads tempfile and more: ~14 ms)

        base = Path(platformdirs.user_data_dir("campaign_app", appauthor=False))
    db_file = Path(db).expanduser() if db else base / DB_NAME
    return AppPaths(data_dir=base.resolve(), db_file=db_file.resolve())
