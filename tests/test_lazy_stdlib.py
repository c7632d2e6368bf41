"""peewee's rarely used standard-library modules are not run at the desktop start; the peewee features that
use them still work, and a later ``import`` gives the real module."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CODE = """
import json, sys
from campaign_app.lazy_postgres import postgres_drivers_hidden
from campaign_app.lazy_stdlib import LAZY, loaded_on_first_use
with postgres_drivers_hidden(), loaded_on_first_use():  # as the desktop start imports it
    import peewee
ran = sorted(name for name in LAZY if name in sys.modules)
import datetime
from campaign_app.store import close_db, init_db
from campaign_app.store.models import database_proxy as db
init_db(sys.argv[1], None, daily_backup=False)
with db.atomic():
    with db.atomic():  # a savepoint: named with uuid
        pass
facts = {
    "ran_at_import": ran,
    "ip": peewee.IPField().db_value("10.0.0.1"),
    "stamp": peewee.TimestampField().db_value(datetime.datetime(2020, 1, 1)),
    "uuid": len(peewee.UUIDField().db_value("12345678123456781234567812345678")),
    "md5": len(peewee.hashlib.md5(b"x").hexdigest()),
}
import socket, uuid
facts["real"] = [type(socket.socket).__name__, type(uuid.UUID).__name__, type(sys.modules["calendar"]).__name__]
close_db()
print(json.dumps(facts))
"""


def test_peewee_imports_without_them_and_still_uses_them(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", CODE, str(tmp_path / "c.db")],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ),
    )
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout.strip().splitlines()[-1])
    assert facts["ran_at_import"] == []
    assert facts["ip"] == 167772161 and facts["stamp"] == 1577836800 and facts["uuid"] == 32 and facts["md5"] == 32
    assert facts["real"] == ["type", "type", "module"]
