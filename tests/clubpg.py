"""A throwaway PostgreSQL cluster for the club tests (issue 15), and a club set up on it.

``ClubServer.start()`` runs initdb/pg_ctl into a fresh temporary folder (unix socket only, no TCP port); the
tests skip with the reason when no PostgreSQL binaries exist. :func:`make_club` builds a database with the app's
schema, runs ``server init`` as its owner and adds the players ana and bob and the organiser olga, with a
campaign "Congo 1960" that olga organises, ana's "2nd Platoon" and bob's "Red Devils" in it (each with a battle,
a leader, an attached unit with equipment, an XP change, a logged change and a roll), and "Secret War", a
campaign only olga belongs to.

Until the shared ``pg_server`` fixture of the engine work lands, this starts its own server.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

PLAYERS = ("ana", "bob")
ORGANISER = "olga"
OWNER = "clubadmin"


def _bin_dir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return Path(candidates[0]).parent if candidates else None


@dataclass
class ClubServer:
    folder: Path
    bindir: Path
    superuser: str = "postgres"
    _as: list[str] = field(default_factory=list)

    @property
    def socket(self) -> str:
        return str(self.folder)

    @classmethod
    def start(cls) -> ClubServer:
        bindir = _bin_dir()
        if bindir is None:
            pytest.skip("no PostgreSQL server binaries (initdb/pg_ctl) on this machine")
        try:
            import psycopg  # noqa: F401
        except ImportError:
            pytest.skip("psycopg is not installed (pip install '.[server]')")
        folder = Path(tempfile.mkdtemp(prefix="club-pg-"))
        run_as: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: run the cluster as the postgres system user
            import pwd

            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("running as root and there is no 'postgres' system user to run the server")
            os.chown(folder, pw.pw_uid, pw.pw_gid)
            run_as = ["runuser", "-u", "postgres", "--"]
        server = cls(folder, bindir, _as=run_as)
        data = folder / "data"
        subprocess.run([*run_as, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
                        "--no-sync"], check=True, capture_output=True)
        subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l", str(folder / "log"), "-o",
                        f"-k {folder} -c listen_addresses='' -c fsync=off", "start"], check=True,
                       capture_output=True)
        return server

    def stop(self) -> None:
        subprocess.run([*self._as, str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                        "stop"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def connect(self, dbname: str = "postgres", user: str | None = None, autocommit: bool = True) -> Any:
        import psycopg

        return psycopg.connect(host=self.socket, dbname=dbname, user=user or self.superuser, autocommit=autocommit)

    def create_database(self, name: str) -> str:
        """A new empty database owned by the superuser (dropped first if it exists); its URL."""
        with self.connect() as su:
            su.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            su.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def url(self, dbname: str, user: str | None = None) -> str:
        from urllib.parse import quote

        return f"postgresql://{user or self.superuser}@/{dbname}?host={quote(self.socket, safe='')}"


def peewee_database(server: ClubServer, dbname: str, user: str) -> Any:
    """A peewee database bound the way the app binds one (``dialect``, ``?`` placeholders): the engine's own
    class when it has landed, else a small stand-in."""
    from peewee import PostgresqlDatabase

    class ClubTestDatabase(PostgresqlDatabase):
        dialect = "postgresql"

        def execute_sql(self, sql: str, params: Any = None) -> Any:
            if params and "?" in sql:
                sql = sql.replace("%", "%%").replace("?", "%s")
            return super().execute_sql(sql, params)  # type: ignore[no-untyped-call]

    return ClubTestDatabase(dbname, host=server.socket, user=user)


def bind(server: ClubServer, dbname: str, user: str) -> Any:
    from campaign_app.store.models import database_proxy

    database = peewee_database(server, dbname, user)
    database_proxy.initialize(database)
    database.connect(reuse_if_open=True)
    return database


def build_schema(server: ClubServer, dbname: str) -> None:
    """The app's tables, owned by the club's administrator (the models' DDL: the engine's migrations build the
    same schema on PostgreSQL once they land)."""
    from campaign_app.store.models import JOURNAL_MODELS, MODELS, database_proxy

    database = bind(server, dbname, OWNER)
    database.create_tables([*MODELS, *JOURNAL_MODELS])
    database.execute_sql("INSERT INTO journal_state (id, operation_id, mode) VALUES (1, NULL, 'record')")
    database.close()
    database_proxy.initialize(None)


def make_club(server: ClubServer, dbname: str) -> dict[str, Any]:
    """A club database as described in the module's docstring; returns the ids of its rows."""
    with server.connect() as su:
        su.execute(f'DROP DATABASE IF EXISTS "{dbname}"')
        for role in (*PLAYERS, ORGANISER, OWNER):
            if not su.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
                su.execute(f'CREATE ROLE "{role}" LOGIN' + (" CREATEROLE" if role == OWNER else ""))
        su.execute(f'CREATE DATABASE "{dbname}" OWNER "{OWNER}"')
    with server.connect(dbname) as su:
        su.execute(f'ALTER SCHEMA public OWNER TO "{OWNER}"')
    build_schema(server, dbname)
    from campaign_app.store import club_server
    from campaign_app.store.models import database_proxy

    database = bind(server, dbname, OWNER)
    try:
        club_server.init_server()
        for login in PLAYERS:
            club_server.add_player(login)
        club_server.add_player(ORGANISER, organiser=True)
    finally:
        database.close()
        database_proxy.initialize(None)
    ids: dict[str, Any] = {}
    with server.connect(dbname, OWNER) as owner:
        def one(sql: str, params: tuple[Any, ...] = ()) -> int:
            return int(owner.execute(sql, params).fetchone()[0])

        ids["congo"] = one("INSERT INTO campaign (name, name_key, system, threshold_green, threshold_regular, "
                           "threshold_veteran, threshold_legendary, objective_xp_to, replacement_dice, archived, "
                           "notes, created_at, created_by) VALUES ('Congo 1960', 'congo 1960', 'atomic_africa', 1, "
                           "4, 9, 16, 'both', 2, false, '', now(), %s) RETURNING id", (ORGANISER,))
        ids["secret"] = one("INSERT INTO campaign (name, name_key, system, threshold_green, threshold_regular, "
                            "threshold_veteran, threshold_legendary, objective_xp_to, replacement_dice, archived, "
                            "notes, created_at, created_by) VALUES ('Secret War', 'secret war', 'sologear', 1, 4, "
                            "9, 16, 'both', 2, false, '', now(), %s) RETURNING id", (ORGANISER,))
        for login, role in ((ORGANISER, "organiser"), ("ana", "player"), ("bob", "player")):
            owner.execute("INSERT INTO campaign_member (campaign_id, login, role) VALUES (%s, %s, %s)",
                          (ids["congo"], login, role))
        owner.execute("INSERT INTO campaign_member (campaign_id, login, role) VALUES (%s, %s, 'organiser')",
                      (ids["secret"], ORGANISER))
        ids["secret_sheet"] = one(
            "INSERT INTO sologear_sheet (campaign_id, date, area, pilot, gear_name, gear_tv, player_unit, "
            "player_affiliation, enemy_unit, enemy_affiliation, variable_tables, ferocious, reward_dice, "
            "gear_damaged, short_ammo, pilot_status, status, notes, created_at, owner) VALUES (%s, '', '', 'Kael', "
            "'', 30, '', '', '', '', false, false, '1d6', false, false, 'active', 'active', '', now(), %s) "
            "RETURNING id", (ids["secret"], ORGANISER))
        for key, name, login in (("ana", "2nd Platoon", "ana"), ("bob", "Red Devils", "bob")):
            pid = one("INSERT INTO platoon (campaign_id, name, name_key, training, equipment, morale, armor, xp, "
                      "notes, created_at, owner) VALUES (%s, %s, lower(%s), 8, 6, 8, 2, 3, '', now(), %s) "
                      "RETURNING id", (ids["congo"], name, name, login))
            ids[f"{key}_platoon"] = pid
            ids[f"{key}_battle"] = one(
                "INSERT INTO battle (platoon_id, number, date, scenario, opponent, objectives, fire_support, notes, "
                "wounds, leader_wounds, platoon_xp_before, platoon_xp_after, xp_lost, created_at) VALUES "
                "(%s, 1, current_date, '', '', 0, false, '', 0, 0, 0, 3, 0, now()) RETURNING id", (pid,))
            ids[f"{key}_leader"] = one("INSERT INTO leader (platoon_id, name, rank, xp, xp_at_join, status, joined_at, "
                                       "notes) VALUES (%s, 'Lt. ' || %s, 'Lieutenant', 1, 1, 'active', now(), '') "
                                       "RETURNING id", (pid, key))
            ids[f"{key}_attached"] = one(
                "INSERT INTO attached_unit (platoon_id, name, name_key, kind, training, equipment, morale, armor, "
                "notes, position) VALUES (%s, 'MG team', 'mg team', 'team', 6, 6, 6, 1, '', 0) RETURNING id", (pid,))
            ids[f"{key}_equipment"] = one("INSERT INTO equipment (attached_id, name, targets, notes, position) VALUES "
                                          "(%s, 'HMG', 'both', '', 0) RETURNING id", (ids[f"{key}_attached"],))
            ids[f"{key}_xp"] = one("INSERT INTO xp_change (platoon_id, who, delta, xp_after, reason, created_at) "
                                   "VALUES (%s, 'platoon', 3, 3, '', now()) RETURNING id", (pid,))
            ids[f"{key}_attr"] = one("INSERT INTO attribute_change (platoon_id, field, reason, created_at) VALUES "
                                     "(%s, 'armor', '', now()) RETURNING id", (pid,))
            ids[f"{key}_roll"] = one("INSERT INTO roll (platoon_id, battle_id, seq, purpose, expression, faces, "
                                     "modifier, total, source, rule, outcome, created_at) VALUES (%s, %s, 0, "
                                     "'recovery', '1d6', '[3]', 0, 3, 'app', '', '', now()) RETURNING id",
                                     (pid, ids[f"{key}_battle"]))
    return ids


@pytest.fixture(scope="session")
def club_pg() -> Any:
    """The throwaway PostgreSQL cluster, once per test run."""
    server = ClubServer.start()
    yield server
    server.stop()


def engine_landed() -> bool:
    """Whether the store opens ``postgresql://`` URLs (the engine work of issue 15)."""
    from campaign_app.store import database

    return hasattr(database, "is_server_url")


def ensure_role(server: Any, login: str) -> None:
    with server.connect() as su:
        if not su.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (login,)).fetchone():
            su.execute(f'CREATE ROLE "{login}" LOGIN')
