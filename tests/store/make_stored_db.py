"""Make the stored databases of tests/store/data (run by hand when a migration is added):

    python -m tests.store.make_stored_db 3 tests/store/data/schema_0003_labels.db
    python -m tests.store.make_stored_db 4 tests/store/data/schema_0004.db  (made while 4 was the newest)
    python -m tests.store.make_stored_db 5 tests/store/data/schema_0005.db
    python -m tests.store.make_stored_db 6 tests/store/data/schema_0006.db  (0006 is a placeholder)
    python -m tests.store.make_stored_db 7 tests/store/data/schema_0007.db
    python -m tests.store.make_stored_db 8 tests/store/data/schema_0008.db
    python -m tests.store.make_stored_db 9 tests/store/data/schema_0009.db

Schema 3 (the last before 0004): what versions of that schema stored, labels and all (roll purposes and rules
in words, Sologear end reasons with spaces), with the quirks 0004 mends (names the same under the new case
rule, two active leaders) and a journal whose recorded images hold the old labels. Schema 4: the demo data."""

from __future__ import annotations

import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

from campaign_app.store import close_db, init_db
from campaign_app.store import migrate as store_migrate


def _at_version(path: Path, version: int) -> None:
    real = store_migrate.available_migrations
    store_migrate.available_migrations = lambda folder=None: real(folder)[:version]  # type: ignore[assignment]
    try:
        init_db(path, path.parent / "backups", daily_backup=False)
        close_db()
    finally:
        store_migrate.available_migrations = real  # type: ignore[assignment]


real_migrations = store_migrate.available_migrations


def make(version: int, out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "campaign.db"
        if version == 3:
            from tests.store.test_migration_0004 import _old_data, _with_journal_record

            _at_version(path, 3)
            _with_journal_record(path, _old_data(path))
        elif version == len(store_migrate.available_migrations()):
            from campaign_app.services.demo import create_demo

            init_db(path, path.parent / "backups", daily_backup=False)
            create_demo()
            close_db()
        elif version >= 4:  # an older schema with the demo data, as a version of the app that stopped there made it
            from campaign_app.services.demo import create_demo

            store_migrate.available_migrations = lambda folder=None: real_migrations(folder)[:version]  # type: ignore
            try:
                init_db(path, path.parent / "backups", daily_backup=False)
                create_demo()
                close_db()
            finally:
                store_migrate.available_migrations = real_migrations  # type: ignore[assignment]
        else:
            raise SystemExit(f"no recipe for schema {version}")
        con = sqlite3.connect(path)
        con.execute("PRAGMA journal_mode=DELETE")
        con.execute("VACUUM")
        con.close()
        shutil.copy(path, out)
    print(f"wrote {out}")


if __name__ == "__main__":
    make(int(sys.argv[1]), Path(sys.argv[2]))
