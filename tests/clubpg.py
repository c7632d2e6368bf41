"""A club on the test server: the shared ``pg_server`` of tests/conftest.py, set up the documented
way, for the club tests (tests/club, tests/cli/test_club_cli.py, benchmarks/bench_club_access.py).

:func:`make_club` makes a database owned by the club's administrator ``clubadmin`` (schema built by the app's
own migrations), runs ``server init`` as it, adds the players ada and bob and the organiser olga, and writes,
straight into the tables as the owner: "Congo 1960", organised by olga, with ada and bob in it, ada's
"2nd Platoon" and bob's "Red Devils" (each with a battle, a leader, an attached unit with equipment, an XP
change, a logged change and a roll), and "Secret War", a Sologear campaign only olga belongs to.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

PLAYERS = ("ada", "bob")
ORGANISER = "olga"
OWNER = "clubadmin"


class ClubServer:
    """The test server as the club tests use it: psycopg connections and URLs by database and login."""

    def __init__(self, pg: Any) -> None:
        self.pg = pg

    def url(self, dbname: str, user: str | None = None) -> str:
        return str(self.pg.url(dbname, user=user))

    def connect(self, dbname: str = "postgres", user: str | None = None, autocommit: bool = True) -> Any:
        import psycopg

        return psycopg.connect(self.url(dbname, user), autocommit=autocommit)

    def create_database(self, name: str, owner: str | None = None) -> str:
        """A new empty database (dropped first if it exists), owned by ``owner`` if given; its superuser URL."""
        self.pg.drop_database(name)
        url = str(self.pg.create_database(name))
        if owner:
            self.pg.sql(f'ALTER DATABASE "{name}" OWNER TO "{owner}"')
            self.pg.sql(f'ALTER SCHEMA public OWNER TO "{owner}"', dbname=name)
        return url


@pytest.fixture(scope="session")
def club_pg(pg_server: Any) -> ClubServer:
    """The shared test server (it skips, with the reason, where no PostgreSQL binaries exist)."""
    return ClubServer(pg_server)


def ensure_role(server: ClubServer, login: str, *, createrole: bool = False) -> None:
    with server.connect() as su:
        if not su.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (login,)).fetchone():
            su.execute(f'CREATE ROLE "{login}" LOGIN' + (" CREATEROLE" if createrole else ""))


def bind(server: ClubServer, dbname: str, user: str) -> Any:
    """Open the club database as ``user`` the way the app does (``init_db`` of its URL)."""
    from campaign_app.store import close_db, init_db

    close_db()
    return init_db(server.url(dbname, user))


def unbind() -> None:
    from campaign_app.store import close_db
    from campaign_app.store.models import database_proxy

    close_db()
    database_proxy.initialize(None)


def build_schema(server: ClubServer, dbname: str) -> None:
    """An empty database of the administrator's with the app's schema (its migrations), not yet a club."""
    ensure_role(server, OWNER, createrole=True)
    server.create_database(dbname, owner=OWNER)
    bind(server, dbname, OWNER)
    unbind()


@contextmanager
def owner_writes(server: ClubServer, dbname: str) -> Iterator[Any]:
    """A transaction of the tables' owner with the journal's recording off (test data written straight into the
    tables, as a migration would); committed at the end."""
    with server.connect(dbname, OWNER, autocommit=False) as con:
        con.execute("SELECT set_config('campaign_app.journal_mode', 'off', true)")
        yield con
        con.commit()


def open_operation(con: Any, who: str, kind: str = "test.sql") -> int:
    """What a player's own program (``psql``) does before it writes, as the app does: the server opens an
    operation of the login's in the transaction (``campaign_app_begin``), which its trigger records into."""
    del who  # the server takes the login from the session
    return int(con.execute("SELECT id FROM campaign_app_begin(%s, %s)", (kind, kind)).fetchone()[0])


def close_operation(con: Any, op_id: int, label: str = "") -> int:
    """Close the operation ``open_operation`` opened, as the app does (``campaign_app_end``): the server numbers
    it, derives its targets from the rows it touched and announces it. Its final id (None: it wrote nothing)."""
    row = con.execute("SELECT id FROM campaign_app_end(%s, %s)", (op_id, label)).fetchone()
    return row[0]


def make_club(server: ClubServer, dbname: str) -> dict[str, Any]:
    """A club database as described in the module's docstring; returns the ids of its rows."""
    for role in (*PLAYERS, ORGANISER):
        ensure_role(server, role)
    build_schema(server, dbname)
    from campaign_app.store import club_server

    bind(server, dbname, OWNER)
    try:
        club_server.init_server()
        for login in PLAYERS:
            club_server.add_player(login)
        club_server.add_player(ORGANISER, organiser=True)
    finally:
        unbind()
    ids: dict[str, Any] = {}
    with owner_writes(server, dbname) as owner:

        def one(sql: str, params: tuple[Any, ...] = ()) -> int:
            return int(owner.execute(sql, params).fetchone()[0])

        campaign = (
            "INSERT INTO campaign (name, name_key, system, threshold_green, threshold_regular, "
            "threshold_veteran, threshold_legendary, objective_xp_to, replacement_dice, archived, notes, "
            "created_at, created_by) VALUES (%s, lower(%s), %s, 1, 4, 9, 16, 'both', 2, false, '', now(), "
            "%s) RETURNING id"
        )
        ids["congo"] = one(campaign, ("Congo 1960", "Congo 1960", "atomic_africa", ORGANISER))
        ids["secret"] = one(campaign, ("Secret War", "Secret War", "sologear", ORGANISER))
        for login, role in ((ORGANISER, "organiser"), ("ada", "player"), ("bob", "player")):
            owner.execute(
                "INSERT INTO campaign_member (campaign_id, login, role) VALUES (%s, %s, %s)",
                (ids["congo"], login, role),
            )
        owner.execute(
            "INSERT INTO campaign_member (campaign_id, login, role) VALUES (%s, %s, 'organiser')",
            (ids["secret"], ORGANISER),
        )
        ids["secret_sheet"] = one(
            "INSERT INTO sologear_sheet (campaign_id, date, area, pilot, gear_name, gear_tv, player_unit, "
            "player_affiliation, enemy_unit, enemy_affiliation, variable_tables, ferocious, reward_dice, "
            "gear_damaged, short_ammo, pilot_status, status, notes, created_at, owner) VALUES (%s, '', '', 'Kael', "
            "'', 30, '', '', '', '', false, false, '1d6', false, false, 'active', 'active', '', now(), %s) "
            "RETURNING id",
            (ids["secret"], ORGANISER),
        )
        for key, name, login in (("ada", "2nd Platoon", "ada"), ("bob", "Red Devils", "bob")):
            pid = one(
                "INSERT INTO platoon (campaign_id, name, name_key, training, equipment, morale, armor, xp, "
                "notes, created_at, owner) VALUES (%s, %s, lower(%s), 8, 6, 8, 2, 3, '', now(), %s) "
                "RETURNING id",
                (ids["congo"], name, name, login),
            )
            ids[f"{key}_platoon"] = pid
            ids[f"{key}_battle"] = one(
                "INSERT INTO battle (platoon_id, number, date, scenario, opponent, objectives, fire_support, notes, "
                "wounds, leader_wounds, platoon_xp_before, platoon_xp_after, xp_lost, created_at) VALUES "
                "(%s, 1, current_date, '', '', 0, false, '', 0, 0, 0, 3, 0, now()) RETURNING id",
                (pid,),
            )
            ids[f"{key}_leader"] = one(
                "INSERT INTO leader (platoon_id, name, rank, xp, xp_at_join, status, joined_at, "
                "notes) VALUES (%s, 'Lt. ' || %s, 'Lieutenant', 1, 1, 'active', now(), '') "
                "RETURNING id",
                (pid, key),
            )
            ids[f"{key}_attached"] = one(
                "INSERT INTO attached_unit (platoon_id, name, name_key, kind, training, equipment, morale, armor, "
                "notes, position) VALUES (%s, 'MG team', 'mg team', 'team', 6, 6, 6, 1, '', 0) RETURNING id",
                (pid,),
            )
            ids[f"{key}_equipment"] = one(
                "INSERT INTO equipment (attached_id, name, targets, notes, position) VALUES "
                "(%s, 'HMG', 'both', '', 0) RETURNING id",
                (ids[f"{key}_attached"],),
            )
            ids[f"{key}_xp"] = one(
                "INSERT INTO xp_change (platoon_id, who, delta, xp_after, reason, created_at) "
                "VALUES (%s, 'platoon', 3, 3, '', now()) RETURNING id",
                (pid,),
            )
            ids[f"{key}_attr"] = one(
                "INSERT INTO attribute_change (platoon_id, field, reason, created_at) VALUES "
                "(%s, 'armor', '', now()) RETURNING id",
                (pid,),
            )
            ids[f"{key}_roll"] = one(
                "INSERT INTO roll (platoon_id, battle_id, seq, purpose, expression, faces, "
                "modifier, total, source, rule, outcome, created_at) VALUES (%s, %s, 0, "
                "'recovery', '1d6', '[3]', 0, 3, 'app', '', '', now()) RETURNING id",
                (pid, ids[f"{key}_battle"]),
            )
    return ids
