"""Times on a club server are instants: what a player in one time zone writes, another reads in theirs."""

from __future__ import annotations

import datetime as dt
import os
import time

import pytest

from campaign_app.services import campaigns
from campaign_app.store import close_db, init_db
from campaign_app.store.database import db
from campaign_app.store.models import Campaign
from tests.pg_server import PgServer


@pytest.fixture
def tz(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def use(zone: str) -> None:
        monkeypatch.setenv("TZ", zone)
        time.tzset()

    yield use
    monkeypatch.delenv("TZ", raising=False)
    time.tzset()


def test_a_time_written_in_one_zone_reads_right_in_another(pg_server: PgServer, tz) -> None:  # type: ignore[no-untyped-def]
    name = pg_server.new_database_name("tz")
    url = pg_server.create_database(name)
    tz("Africa/Lagos")  # UTC+1, no summer time
    init_db(url)
    campaigns.create_campaign("League", "atomic_africa")
    written = Campaign.get().created_at
    assert written.tzinfo is None  # the app keeps working in naive local time
    stored = db.execute_sql("SELECT created_at AT TIME ZONE 'UTC' FROM campaign").fetchone()[0]
    assert stored.replace(tzinfo=None) == written - dt.timedelta(hours=1)  # the true instant, in UTC
    close_db()
    tz("America/Sao_Paulo")  # UTC-3
    init_db(url)
    assert Campaign.get().created_at == written - dt.timedelta(hours=4)  # the same moment, in Sao Paulo
    assert os.environ["TZ"] == "America/Sao_Paulo"
