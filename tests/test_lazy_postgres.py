"""The desktop start imports peewee without psycopg (a window on a file never uses it); a club server opened
later in the same process still works: peewee is handed psycopg when the server engine is made."""

from __future__ import annotations

import os
import subprocess
import sys

CODE = """
import sys
from campaign_app.lazy_postgres import postgres_drivers_hidden
with postgres_drivers_hidden():
    from campaign_app.store import close_db, init_db
import peewee
assert peewee.psycopg is None and 'psycopg' not in sys.modules, 'psycopg was loaded'
from campaign_app.store.models import Campaign
init_db(sys.argv[1], None, daily_backup=False)
print(Campaign.select().count(), type(peewee.psycopg).__name__)
close_db()
"""


def test_a_file_window_loads_no_postgres_driver_and_a_server_still_opens(pg_server, pg_template) -> None:  # type: ignore[no-untyped-def]
    name = pg_server.new_database_name()
    url = pg_server.create_database(name, template=pg_template)
    try:
        result = subprocess.run(
            [sys.executable, "-c", CODE, url], capture_output=True, text=True, timeout=120, env=dict(os.environ)
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == ["0", "module"]
    finally:
        pg_server.drop_database(name)


def test_the_control_peewee_alone_loads_psycopg() -> None:
    """Without the start's care peewee imports psycopg by itself (what the start avoids)."""
    result = subprocess.run(
        [sys.executable, "-c", "import sys, peewee; print('psycopg' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.strip() == "True"
