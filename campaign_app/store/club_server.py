"""Setting up a club server: roles, grants and row-level security on PostgreSQL.

``campaign-cli --db URL server init`` runs :func:`init_server` as the owner of the database's tables (the login
that created the schema). In one transaction it:

- makes two group roles (NOLOGIN) named after the database: ``<db>_players`` and ``<db>_organisers`` (a member of
  the players group). Player logins join the first (``server add-player``); organisers join both. Only the
  players group may connect to the database, and it may not make temporary tables;
- grants the players group what the app needs on every table (read; insert, update, delete on the app's tables
  and the journal; read only on the migration log);
- installs the SQL functions the policies ask: which campaigns a login sees and organises, which platoons,
  sheets and attached units it sees and may change (``club_campaigns_seen``, ``club_platoons_changed`` ...), and
  the one-row checks the client asks (``club_can_platoon``, ``club_is_organiser`` ...). They are ``SECURITY
  DEFINER`` (owned by the tables' owner, ``search_path`` pinned) on purpose: a policy on ``campaign_member``
  that reads ``campaign_member`` would recurse, and a policy on ``battle`` must read the platoon's owner even
  where the player's own policies would hide it. They take the login as an argument (inside them
  ``current_user`` is the owner) and only answer with ids or yes/no;
- enables row-level security on every table and (re)creates the ``club_*`` policies:

  ================  ============================================  ==============================================
  table             a player sees                                 a player changes (INSERT/UPDATE/DELETE)
  ================  ============================================  ==============================================
  campaign          campaigns they belong to (or created)         organisers only; creating: the organisers group
  campaign_member   members of their campaigns, their own rows    organisers only (the creator enrols first)
  platoon, sheet    those of their campaigns                      their own; organisers: any, ownership included
  rows under them   those of their campaigns                      under their own platoon/sheet; organisers: any
  operation         their own and those of their campaigns        their own; undo flags: own or organiser
  operation_change  those of the operations they see              only into their own operations
  schema_migration  all                                           never (the owner migrates)
  ================  ============================================  ==============================================

  (rows under a platoon: battles, leaders, attached units, equipment, XP and attribute changes, rolls; under a
  Sologear sheet: its forces, turns and rolls.) A player's every write is recorded by the journal: the trigger
  records it into the open operation only if that operation is the player's own, and the switch that turns the
  journal's recording off (for the owner's migrations) makes a player's writes refused.

Row-level security is enabled, not forced: the tables' owner (the club's administrator, who runs migrations and
``server init``) is not bound by the policies, and neither are the definer functions it owns. Players never own
tables. Foreign-key cascades (deleting a campaign takes its platoons) are done by the server as the owner, as
PostgreSQL does for every referential action.

PostgreSQL's policies skip rows silently where a player UPDATEs or DELETEs what they may not change (0 rows) and
refuse an INSERT or a changed row they may not write ("new row violates row-level security policy"): the client
checks first (:mod:`.access`) so the user gets one clear line, and the server's refusal is the guarantee.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import Refused
from . import death_blow_club
from .models import database_proxy as db
from .server import IDLE_IN_TRANSACTION_SECONDS


class ServerSetupError(Refused):
    """``server init`` or ``server add-player`` cannot do what was asked (one line; nothing was changed)."""


class NeedsClubServer(Refused):
    """A club command given a file database."""


def needs_club_server(command: str) -> NeedsClubServer:
    return NeedsClubServer(
        f"'{command}' needs a club server: give --db postgresql://USER@HOST/DBNAME (a file "
        "database has no logins: whoever can open the file may change everything)"
    )


# ----------------------------------------------------------------------------------------------- naming


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def quote_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


LOGIN_PATTERN = re.compile(r"^[a-z_][a-z0-9_.\-]{0,62}$")


def check_login(login: str) -> str:
    """A player's login as PostgreSQL keeps it: lower case letters, digits, ``_ . -``; at most 63 characters."""
    text = (login or "").strip()
    if not LOGIN_PATTERN.match(text):
        raise ServerSetupError(
            f"{login!r} is not a usable login: use lower-case letters, digits, '_', '.' or '-' "
            "(starting with a letter or '_'), at most 63 characters"
        )
    if text.startswith("pg_"):
        raise ServerSetupError(f"{login!r} is not a usable login: names starting with 'pg_' are PostgreSQL's own")
    return text


@dataclass(frozen=True)
class Groups:
    players: str
    organisers: str


def groups(database: Any = None) -> Groups:
    """The two group roles of this database (roles are server-wide, so they carry the database's name)."""
    bound = database if database is not None else db.obj
    name = str(bound.execute_sql("SELECT current_database()").fetchone()[0])
    base = re.sub(r"[^a-z0-9_]", "_", name.lower())[:40]
    return Groups(f"{base}_players", f"{base}_organisers")


# ----------------------------------------------------------------------------------------------- the SQL

FUNCTIONS = r"""
-- The club's check functions. SECURITY DEFINER: they read campaign_member, campaign, platoon, sologear_sheet and
-- the rows under them as the tables' owner (no policy recursion, no rows hidden from the check). They answer for
-- the connected login only (session_user: a SET ROLE changes nothing), never about another login. Their
-- search_path is pinned with pg_temp last, and players get no TEMPORARY privilege, so no table of a player's can
-- stand in for one of these. The policies use the set-returning ones as "column IN (SELECT club_...())": an
-- uncorrelated subquery that PostgreSQL runs once per statement and probes as a hash, not once per row. They are
-- PL/pgSQL so that their queries are planned once per session, not at every call.
CREATE OR REPLACE FUNCTION club_is_admin() RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RETURN (SELECT pg_has_role(session_user, (SELECT relowner FROM pg_class WHERE oid = 'public.campaign'::regclass),
                             'MEMBER'));
END
$$;
CREATE OR REPLACE FUNCTION club_campaigns_seen() RETURNS SETOF bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RETURN QUERY SELECT m.campaign_id FROM campaign_member m WHERE m.login = session_user
  UNION
  SELECT c.id FROM campaign c WHERE c.created_by = session_user AND c.created_by <> ''
    AND NOT EXISTS (SELECT 1 FROM campaign_member m WHERE m.campaign_id = c.id)
  UNION
  SELECT c.id FROM campaign c WHERE (SELECT club_is_admin());
END
$$;
CREATE OR REPLACE FUNCTION club_campaigns_organised() RETURNS SETOF bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RETURN QUERY SELECT m.campaign_id FROM campaign_member m WHERE m.login = session_user AND m.role = 'organiser'
  UNION
  SELECT c.id FROM campaign c WHERE c.created_by = session_user AND c.created_by <> ''
    AND NOT EXISTS (SELECT 1 FROM campaign_member m WHERE m.campaign_id = c.id)
  UNION
  SELECT c.id FROM campaign c WHERE (SELECT club_is_admin());
END
$$;
-- an opponent named in a battle: a platoon of the same campaign as the battle's own
CREATE OR REPLACE FUNCTION club_same_campaign(pid bigint, other bigint) RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RETURN (SELECT a.campaign_id = b.campaign_id FROM platoon a, platoon b WHERE a.id = pid AND b.id = other)
    AND other IN (SELECT club_platoons_seen());
END
$$;
-- the journal's hooks (store.journal_pg): who may know an operation exists (its login, or a member of its
-- campaign)...
CREATE OR REPLACE FUNCTION campaign_app_may_see(p_op bigint) RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM operation o WHERE o.id = p_op
                 AND (o."user" = session_user OR o.campaign_id IN (SELECT club_campaigns_seen())
                      OR (SELECT club_is_admin())));
END
$$;
-- ... and who may undo or redo an operation: the login that made it, an organiser
-- of its campaign, the club's administrator
CREATE OR REPLACE FUNCTION campaign_app_may_replay(p_op bigint) RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM operation o WHERE o.id = p_op
                 AND (o."user" = session_user OR o.campaign_id IN (SELECT club_campaigns_organised())
                      OR (SELECT club_is_admin())));
END
$$;
-- ... and who may fold a campaign's journal and set its budget (campaign_app_compact): its organisers, the club's
-- administrator
CREATE OR REPLACE FUNCTION campaign_app_may_manage(p_campaign bigint) RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RETURN p_campaign IN (SELECT club_campaigns_organised());
END
$$;
"""


@dataclass(frozen=True)
class Check:
    """One of the club's check functions: its signature (for grants) and its ``CREATE`` statement."""

    signature: str
    sql: str


_DEFINER = "LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$"


def _ids_function(name: str, query: str) -> Check:
    """A set-returning check (the ids the connected login sees or may change), as FUNCTIONS describes."""
    return Check(
        f"{name}()",
        f"CREATE OR REPLACE FUNCTION {name}() RETURNS SETOF bigint\n{_DEFINER}\nBEGIN\n"
        f"  RETURN QUERY {query};\nEND\n$$;\n",
    )


def owned_checks(plural: str, table: str) -> tuple[Check, ...]:
    """``club_<plural>_seen`` and ``club_<plural>_changed`` of a row a player owns within a campaign (a platoon,
    a Sologear sheet, a fighter): seen by the campaign's members; changed by its owner while a member, and by the
    campaign's organisers always."""
    return (
        _ids_function(
            f"club_{plural}_seen", f"SELECT r.id FROM {table} r WHERE r.campaign_id IN (SELECT club_campaigns_seen())"
        ),
        _ids_function(
            f"club_{plural}_changed",
            f"SELECT r.id FROM {table} r WHERE (r.owner = session_user AND r.campaign_id IN "
            "(SELECT club_campaigns_seen())) OR r.campaign_id IN (SELECT club_campaigns_organised())",
        ),
    )


def under_checks(
    plural: str, table: str, column: str, parent: str, *, seen: bool = True, also: str | None = None
) -> tuple[Check, ...]:
    """The checks of rows under a parent (``column`` holds the parent's id): ``club_<plural>_changed`` are those
    whose parent the login may change (and, with ``also``, whose second reference, when given, too), and with
    ``seen`` ``club_<plural>_seen``, those whose parent it sees."""
    changed = f"SELECT r.id FROM {table} r WHERE r.{column} IN (SELECT club_{parent}_changed())"
    if also is not None:
        changed += f" AND (r.{also} IS NULL OR r.{also} IN (SELECT club_{parent}_changed()))"
    out: tuple[Check, ...] = (_ids_function(f"club_{plural}_changed", changed),)
    if seen:
        out = (
            _ids_function(
                f"club_{plural}_seen", f"SELECT r.id FROM {table} r WHERE r.{column} IN (SELECT club_{parent}_seen())"
            ),
            *out,
        )
    return out


def can_check(name: str, arg: str, ids: str) -> Check:
    """A one-row check for the client (:mod:`.access`): is ``arg`` among the ids ``ids`` gives the login."""
    return Check(
        f"{name}(bigint)",
        f"CREATE OR REPLACE FUNCTION {name}({arg} bigint) RETURNS boolean\n{_DEFINER}\n"
        f"BEGIN\n  RETURN {arg} IN (SELECT {ids}());\nEND\n$$;\n",
    )


CHECKS: tuple[Check, ...] = (
    *owned_checks("platoons", "platoon"),
    *owned_checks("sheets", "sologear_sheet"),
    *under_checks("attached", "attached_unit", "platoon_id", "platoons"),
    # the rows a new row may point at: battles, leaders and turns under what the login may change
    *under_checks("battles", "battle", "platoon_id", "platoons", seen=False),
    *under_checks("leaders", "leader", "platoon_id", "platoons", seen=False),
    *under_checks("turns", "sologear_turn", "sheet_id", "sheets", seen=False),
    can_check("club_is_member", "cid", "club_campaigns_seen"),
    can_check("club_is_organiser", "cid", "club_campaigns_organised"),
    can_check("club_can_platoon", "pid", "club_platoons_changed"),
    can_check("club_can_sheet", "sid", "club_sheets_changed"),
    *death_blow_club.checks(owned_checks, under_checks, can_check),  # d12 Death Blow's tables
)
"""The check functions of the rows players own and the rows under them, made by one generator each."""

FUNCTIONS += "".join(check.sql for check in CHECKS)

FUNCTION_NAMES = (
    "club_is_admin()",
    "club_campaigns_seen()",
    "club_campaigns_organised()",
    "club_same_campaign(bigint, bigint)",
    "campaign_app_may_replay(bigint)",
    "campaign_app_may_see(bigint)",
    "campaign_app_may_manage(bigint)",
    *(check.signature for check in CHECKS),
)

OLD_FUNCTIONS: tuple[str, ...] = (
    "club_is_admin(text)",
    "club_campaigns_seen(text)",
    "club_campaigns_organised(text)",
    "club_platoons_seen(text)",
    "club_platoons_changed(text)",
    "club_sheets_seen(text)",
    "club_sheets_changed(text)",
    "club_attached_seen(text)",
    "club_attached_changed(text)",
    "club_journal_tick()",
    "club_journal_newest()",
    "club_own_operation(bigint, text)",
    "club_is_member(bigint, text)",
    "club_is_organiser(bigint, text)",
    "club_can_platoon(bigint, text)",
    "club_can_sheet(bigint, text)",
    *death_blow_club.OLD_FUNCTION_NAMES,
)
"""Functions of an earlier ``server init`` (they took the login as an argument and answered about anyone, or let
the client number the journal): dropped after the new policies are in place."""

PRIVATE_TABLES = ("journal_open", "journal_replay", "journal_budget")
"""The server journal's bookkeeping and the campaigns' journal budgets (:mod:`.journal_pg`): nobody but the owner
reads or writes them."""

ME = "session_user"


JOURNALED = "coalesce(current_setting('campaign_app.journal_mode', true), '') <> 'off'"
"""A player's writes are always recorded by the journal: the switch that lets a migration convert rows unrecorded
(``store.journal.recording_off``) is the owner's alone; for a player it makes every write refused."""


def _journaled(rules: Rules) -> Rules:
    def both(expr: str | None) -> str | None:
        return None if expr is None else f"({expr} AND {JOURNALED})"

    return Rules(
        select=rules.select,
        insert=both(rules.insert),
        update_old=both(rules.update_old),
        update_new=both(rules.update_new),
        delete=both(rules.delete),
        grants=rules.grants,
    )


def _in(column: str, function: str) -> str:
    """``column`` is one of the ids the set-returning check function gives the connected login."""
    return f"{column} IN (SELECT {function}())"


@dataclass(frozen=True)
class Rules:
    """The policies of one table: who sees a row; who may insert one, change one (the row before and after the
    change) and delete one. ``None``: that command is not granted at all."""

    select: str
    insert: str | None
    update_old: str | None
    update_new: str | None
    delete: str | None
    grants: tuple[str, ...] = ("SELECT", "INSERT", "UPDATE", "DELETE")


def _under(can: str, sees: str) -> Rules:
    return Rules(select=sees, insert=can, update_old=can, update_new=can, delete=can)


def _owned() -> Rules:
    """A platoon or a sheet: its owner changes it while they belong to its campaign; its campaign's organisers
    always (ownership included: a row whose owner changes must pass as the organiser's)."""
    member = _in("campaign_id", "club_campaigns_seen")
    organiser = _in("campaign_id", "club_campaigns_organised")
    can = f"((owner = {ME} AND {member}) OR {organiser})"
    return Rules(select=f"({member} OR owner = {ME})", insert=can, update_old=can, update_new=can, delete=can)


def _points(column: str, function: str) -> str:
    """A reference that may be empty but, when given, lies under what the login may change."""
    return f"({column} IS NULL OR {_in(column, function)})"


def _under_refs(can: str, sees: str, *refs: str) -> Rules:
    """Rows under a platoon or sheet: written where the login may change them, and every reference they hold
    (a battle, a leader, a turn...) lies under what it may change too: a row cannot be hung on another player's
    battle (which would keep her from undoing it)."""
    new = " AND ".join((can, *refs))
    return Rules(select=sees, insert=f"({new})", update_old=can, update_new=f"({new})", delete=can)


READ_ONLY = ("SELECT",)


def table_rules(organisers_group: str) -> dict[str, Rules]:
    platoon_can, platoon_sees = _in("platoon_id", "club_platoons_changed"), _in("platoon_id", "club_platoons_seen")
    sheet_can, sheet_sees = _in("sheet_id", "club_sheets_changed"), _in("sheet_id", "club_sheets_seen")
    member = _in("campaign_id", "club_campaigns_seen")
    battle_ref = _points("battle_id", "club_battles_changed")
    leader_ref = _points("leader_id", "club_leaders_changed")
    opponent_ref = "(opponent_platoon_id IS NULL OR club_same_campaign(platoon_id, opponent_platoon_id))"
    roll_can = (
        f"((platoon_id IS NOT NULL OR sheet_id IS NOT NULL) AND "
        f"{_points('platoon_id', 'club_platoons_changed')}"
        f" AND {_points('sheet_id', 'club_sheets_changed')})"
    )
    equipment_can = (
        f"((platoon_id IS NOT NULL OR attached_id IS NOT NULL) AND "
        f"{_points('platoon_id', 'club_platoons_changed')} AND "
        f"{_points('attached_id', 'club_attached_changed')})"
    )
    nothing = Rules(select="true", insert=None, update_old=None, update_new=None, delete=None, grants=READ_ONLY)
    rules = {
        "campaign": Rules(
            select=f"({_in('id', 'club_campaigns_seen')} OR created_by = {ME})",
            insert=f"(created_by = {ME} AND pg_has_role({ME}, {quote_literal(organisers_group)}, 'MEMBER'))",
            update_old=_in("id", "club_campaigns_organised"),
            update_new=_in("id", "club_campaigns_organised"),
            delete=_in("id", "club_campaigns_organised"),
        ),
        "campaign_member": _under(_in("campaign_id", "club_campaigns_organised"), f"(login = {ME} OR {member})"),
        "platoon": _owned(),
        "sologear_sheet": _owned(),
        "battle": _under_refs(platoon_can, platoon_sees, opponent_ref),
        "leader": _under_refs(
            platoon_can,
            platoon_sees,
            _points("joined_battle_id", "club_battles_changed"),
            _points("left_battle_id", "club_battles_changed"),
        ),
        "attached_unit": _under(platoon_can, platoon_sees),
        "xp_change": _under_refs(platoon_can, platoon_sees, leader_ref, battle_ref),
        "attribute_change": _under_refs(platoon_can, platoon_sees, battle_ref),
        "equipment": _under_refs(
            f"({platoon_can} OR {_in('attached_id', 'club_attached_changed')})",
            f"({platoon_sees} OR {_in('attached_id', 'club_attached_seen')})",
            equipment_can,
        ),
        "sologear_force": _under(sheet_can, sheet_sees),
        "sologear_turn": _under(sheet_can, sheet_sees),
        "roll": _under_refs(
            f"({platoon_can} OR {sheet_can})",
            f"({platoon_sees} OR {sheet_sees})",
            roll_can,
            battle_ref,
            leader_ref,
            _points("turn_id", "club_turns_changed"),
        ),
        **death_blow_club.table_rules(_owned, _under, _in),  # fighter, bout, bout_round, fighter_change
        # the campaign at a glance (migration 0008, models.OVERVIEW_MODELS): a campaign's chronicle entries and
        # remembered prints are seen by its members; their writer changes them while a member, its organisers always
        "chronicle_entry": _owned(),
        "print_record": _owned(),
        # the journal: written by the server alone (store.journal_pg); a login reads its own operations and
        # those of its campaigns
        "operation": Rules(
            select=f'("user" = {ME} OR {member})',
            insert=None,
            update_old=None,
            update_new=None,
            delete=None,
            grants=READ_ONLY,
        ),
        "operation_change": Rules(
            select="operation_id IN (SELECT o.id FROM operation o)",
            insert=None,
            update_old=None,
            update_new=None,
            delete=None,
            grants=READ_ONLY,
        ),
        "schema_migration": nothing,
        "journal_state": nothing,
    }
    return {
        table: rule
        if table in ("operation", "operation_change", "schema_migration", "journal_state")
        else _journaled(rule)
        for table, rule in rules.items()
    }


def policy_statements(table: str, rules: Rules) -> list[str]:
    t = quote_ident(table)
    out = [f"CREATE POLICY club_select ON {t} FOR SELECT USING ({rules.select})"]
    if rules.insert is not None:
        out.append(f"CREATE POLICY club_insert ON {t} FOR INSERT WITH CHECK ({rules.insert})")
    if rules.update_old is not None and rules.update_new is not None:
        out.append(
            f"CREATE POLICY club_update ON {t} FOR UPDATE USING ({rules.update_old}) WITH CHECK ({rules.update_new})"
        )
    if rules.delete is not None:
        out.append(f"CREATE POLICY club_delete ON {t} FOR DELETE USING ({rules.delete})")
    return out


# ------------------------------------------------------------------------------------------------ init


@dataclass
class InitReport:
    database: str
    owner: str
    groups: Groups
    secured: list[str] = field(default_factory=list)
    policies: int = 0
    created_groups: list[str] = field(default_factory=list)
    without_rules: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "database": self.database,
            "owner": self.owner,
            "players_group": self.groups.players,
            "organisers_group": self.groups.organisers,
            "created_groups": self.created_groups,
            "tables": self.secured,
            "policies": self.policies,
            "tables_without_rules": self.without_rules,
        }

    def text(self) -> str:
        made = f" (created {', '.join(self.created_groups)})" if self.created_groups else ""
        lines = [
            f"club server ready: database {self.database}, owned by {self.owner}",
            f"  groups: {self.groups.players} (players), {self.groups.organisers} (organisers){made}",
            f"  row-level security on {len(self.secured)} tables, {self.policies} policies",
        ]
        if self.without_rules:
            lines.append(f"  no club rules for: {', '.join(self.without_rules)} (players cannot read them)")
        lines.append("next: campaign-cli --db URL server add-player LOGIN [--organiser] --password-stdin")
        return "\n".join(lines)


def _rows(sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    return list(db.execute_sql(sql, tuple(params)).fetchall())


def _role_exists(name: str) -> bool:
    return bool(_rows("SELECT 1 FROM pg_roles WHERE rolname = ?", (name,)))


def _tables() -> list[str]:
    return [
        r[0]
        for r in _rows(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname"
        )
    ]


def _table_owner() -> tuple[str, bool]:
    """The owner of the app's tables, and whether the connected login is (or acts as) it."""
    row = db.execute_sql(
        "SELECT pg_get_userbyid(relowner), pg_has_role(current_user, relowner, 'MEMBER') "
        "FROM pg_class WHERE oid = 'public.campaign'::regclass"
    ).fetchone()
    return str(row[0]), bool(row[1])


def _can_create_roles() -> bool:
    row = db.execute_sql("SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user").fetchone()
    return bool(row and row[0])


def init_server() -> InitReport:
    """Install (or re-install: it is idempotent) the club's groups, grants and policies on the bound server
    database. Run as the owner of the tables; everything in one transaction."""
    from . import access

    if not access.is_club():
        raise needs_club_server("server init")
    owner, is_owner = _table_owner()
    me = access.current_user()
    if not is_owner:
        raise ServerSetupError(
            f"server init must be run by the owner of the database's tables ({owner}); you are connected as {me}"
        )
    g = groups()
    dbname = str(db.execute_sql("SELECT current_database()").fetchone()[0])
    report = InitReport(dbname, owner, g)
    with db.atomic():
        missing = [name for name in (g.players, g.organisers) if not _role_exists(name)]
        if missing and not _can_create_roles():
            raise ServerSetupError(
                f"cannot create the group roles {', '.join(missing)}: {me} may not create roles; ask the "
                f"server's administrator to run CREATE ROLE {' ; CREATE ROLE '.join(missing)} NOLOGIN, "
                f"GRANT {g.players} TO {g.organisers} and GRANT {g.players} TO {me} WITH ADMIN OPTION, then try "
                "again"
            )
        for name in missing:
            db.execute_sql(f"CREATE ROLE {quote_ident(name)} NOLOGIN")
            report.created_groups.append(name)
        players, organisers = quote_ident(g.players), quote_ident(g.organisers)
        if not _rows(
            "SELECT 1 FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid "
            "JOIN pg_roles u ON u.oid = m.member WHERE r.rolname = ? AND u.rolname = ?",
            (g.players, g.organisers),
        ):
            db.execute_sql(f"GRANT {players} TO {organisers}")
        database = quote_ident(dbname)
        db.execute_sql(f"REVOKE ALL ON DATABASE {database} FROM PUBLIC")
        db.execute_sql(f"GRANT CONNECT ON DATABASE {database} TO {players}")  # no TEMPORARY: see FUNCTIONS
        db.execute_sql("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        db.execute_sql(f"GRANT USAGE ON SCHEMA public TO {players}")
        # the server ends a transaction a session leaves open and idle (a player's psql may set it back for
        # itself: the app's own statements still wait no longer than their lock timeout)
        db.execute_sql(
            f"ALTER DATABASE {database} SET idle_in_transaction_session_timeout = '{IDLE_IN_TRANSACTION_SECONDS}s'"
        )
        db.execute_sql(FUNCTIONS)
        from .journal_pg import GRANTED_FUNCTIONS

        for fn in (*FUNCTION_NAMES, *GRANTED_FUNCTIONS):
            db.execute_sql(f"REVOKE ALL ON FUNCTION {fn} FROM PUBLIC")
            db.execute_sql(f"GRANT EXECUTE ON FUNCTION {fn} TO {players}")
        rules = table_rules(g.organisers)
        for table in _tables():
            t = quote_ident(table)
            db.execute_sql(f"REVOKE ALL ON {t} FROM PUBLIC")
            db.execute_sql(f"REVOKE ALL ON {t} FROM {players}")
            db.execute_sql(f"ALTER TABLE {t} ENABLE ROW LEVEL SECURITY")
            if table in PRIVATE_TABLES:
                continue
            for (name,) in _rows(
                "SELECT policyname FROM pg_policies WHERE schemaname = 'public' AND tablename = ? "
                "AND left(policyname, 5) = 'club_'",
                (table,),
            ):
                db.execute_sql(f"DROP POLICY {quote_ident(name)} ON {t}")
            rule = rules.get(table)
            if rule is None:
                report.without_rules.append(table)
                continue
            db.execute_sql(f"GRANT {', '.join(rule.grants)} ON {t} TO {players}")
            for statement in policy_statements(table, rule):
                db.execute_sql(statement)
                report.policies += 1
            report.secured.append(table)
        # new rows take their ids from their tables' identities, which needs no right on the sequences: players
        # get none (they cannot draw or move them)
        db.execute_sql(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {players}")
        for fn in OLD_FUNCTIONS:
            db.execute_sql(f"DROP FUNCTION IF EXISTS {fn}")
    db.obj._club_rules = True  # store.access: this connection now works under the club's rules
    return report


def club_initialised(database: Any) -> bool:
    """Whether ``server init`` ever set this database up (its check functions exist, old or new)."""
    row = database.execute_sql(
        "SELECT to_regprocedure('club_can_platoon(bigint)') IS NOT NULL OR "
        "to_regprocedure('club_can_platoon(bigint, text)') IS NOT NULL"
    ).fetchone()
    return bool(row[0])


def reapply_rules(database: Any) -> InitReport | None:
    """After an upgrade of the schema (or a restore): install the club's rules again where ``server init`` had
    set them up before; nothing on a database that never was a club's."""
    if not club_initialised(database):
        return None
    return init_server()


def rules_problems(database: Any) -> list[str]:
    """What ``server init`` set up and this club database no longer has (after a ``pg_restore`` without
    ``--create``, the database's own grants and settings are gone; a policy or function dropped by hand...), one
    sentence each, each ending in what to do. Empty for a database that never was a club's."""
    if not club_initialised(database):
        return []

    def rows(sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return list(database.execute_sql(sql, params).fetchall())

    again = "run 'campaign-cli --db URL server init' as the tables' owner"
    out: list[str] = []
    if rows("SELECT has_database_privilege('public', current_database(), 'CONNECT')")[0][0]:
        out.append(
            f"every login of the server may connect to this database (the club's revoke is missing, as "
            f"after a restore with pg_restore): {again}"
        )
    if not rows(
        "SELECT 1 FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase "
        "WHERE d.datname = current_database() AND s.setrole = 0 "
        "AND EXISTS (SELECT 1 FROM unnest(s.setconfig) c "
        "WHERE c LIKE 'idle_in_transaction_session_timeout=%')"
    ):
        out.append(f"the server does not end transactions left idle (a player could hold a table): {again}")
    missing = [fn for fn in FUNCTION_NAMES if not rows("SELECT to_regprocedure(?)", (fn,))[0][0]]
    if missing:
        out.append(f"the club's check functions are missing ({', '.join(missing[:3])}): {again}")
    rules = table_rules("x")
    for table in _tables():
        if table in PRIVATE_TABLES:
            continue
        secured = rows("SELECT relrowsecurity FROM pg_class WHERE oid = to_regclass(?)", (f"public.{table}",))
        have = {
            r[0]
            for r in rows("SELECT policyname FROM pg_policies WHERE schemaname = 'public' AND tablename = ?", (table,))
        }
        if not secured or not secured[0][0]:
            out.append(f"row-level security is off for the table {table}: {again}")
        elif table in rules and "club_select" not in have:
            out.append(f"the club's rules for the table {table} are missing: {again}")
        elif table not in rules:
            out.append(f"the table {table} has no club rules (players cannot read it): {again}")
    g = groups(database)
    if _role_exists(g.players):
        written = rows(
            "SELECT t FROM unnest(ARRAY['operation', 'operation_change', 'journal_state']) t "
            "WHERE has_table_privilege(?, t, 'INSERT') OR has_table_privilege(?, t, 'UPDATE') "
            "OR has_table_privilege(?, t, 'DELETE')",
            (g.players, g.players, g.players),
        )
        if written:
            out.append(f"players may write the journal ({', '.join(r[0] for r in written)}): {again}")
    return out


# ------------------------------------------------------------------------------------------------ players


@dataclass(frozen=True)
class Player:
    login: str
    organiser: bool
    can_log_in: bool
    campaigns: tuple[tuple[str, str], ...]
    """(campaign name, role) for every campaign the login belongs to."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "login": self.login,
            "organiser": self.organiser,
            "can_log_in": self.can_log_in,
            "campaigns": [{"campaign": c, "role": r} for c, r in self.campaigns],
        }


def _require_initialised(g: Groups) -> None:
    if not _role_exists(g.players):
        raise ServerSetupError(
            "this database is not set up as a club server yet: run "
            "'campaign-cli --db URL server init' as its owner first"
        )


DEFAULT_CONNECTIONS = 8
"""How many connections one player's login may hold at once (``server add-player --connections``): a window
uses two (its work and its live updates), each command one."""


def add_player(
    login: str, *, organiser: bool = False, password: str | None = None, connections: int = DEFAULT_CONNECTIONS
) -> dict[str, Any]:
    """Make ``login`` a player of this club server: a PostgreSQL login role (created if needed, with
    ``password`` if given) in the players group, and in the organisers group with ``organiser`` (who may create
    campaigns). An existing login keeps its password unless a new one is given. The login may hold at most
    ``connections`` connections at once, and the server ends its transactions left idle."""
    from . import access

    if not access.is_club():
        raise needs_club_server("server add-player")
    login = check_login(login)
    if isinstance(connections, bool) or not isinstance(connections, int) or not 1 <= connections <= 1000:
        raise ServerSetupError(
            f"{connections!r} is not a usable connection limit: give a whole number from 1 to "
            "1000 (a window uses two connections, each command one)"
        )
    if password is not None and (not password or "\n" in password or "\x00" in password):
        raise ServerSetupError("the password must be one line of text, not empty")
    g = groups()
    _require_initialised(g)
    if login in (g.players, g.organisers):
        raise ServerSetupError(f"{login!r} is one of the club's group roles, not a player's login")
    if not _can_create_roles():
        raise ServerSetupError(
            f"cannot add {login}: {access.current_user()} may not manage the club's logins (that "
            "takes CREATEROLE on the server: ask the club's administrator)"
        )
    with db.atomic():
        existed = _role_exists(login)
        if not existed:
            db.execute_sql(f"CREATE ROLE {quote_ident(login)} LOGIN")
        if password is not None:
            db.execute_sql(f"ALTER ROLE {quote_ident(login)} PASSWORD {quote_literal(_encrypted(login, password))}")
        db.execute_sql(f"GRANT {quote_ident(g.players)} TO {quote_ident(login)}")
        db.execute_sql(f"ALTER ROLE {quote_ident(login)} CONNECTION LIMIT {int(connections)}")
        db.execute_sql(
            f"ALTER ROLE {quote_ident(login)} SET idle_in_transaction_session_timeout = "
            f"'{IDLE_IN_TRANSACTION_SECONDS}s'"
        )
        if organiser:
            db.execute_sql(f"GRANT {quote_ident(g.organisers)} TO {quote_ident(login)}")
    return {
        "login": login,
        "created": not existed,
        "organiser": organiser or _in_group(login, g.organisers),
        "password_set": password is not None,
        "connections": int(connections),
    }


def _encrypted(login: str, password: str) -> str:
    """The password as the server stores it (SCRAM, hashed here by libpq's ``PQencryptPasswordConn``), so the
    clear text never travels in the ``ALTER ROLE`` statement nor reaches the server's statement log. ALTER ROLE
    takes no parameters: the hash goes as a quoted literal."""
    connection = db.connection()
    pgconn = getattr(connection, "pgconn", None)
    if pgconn is None:  # pragma: no cover - psycopg always has it
        return password
    return bytes(pgconn.encrypt_password(password.encode("utf-8"), login.encode("utf-8"))).decode("ascii")


def _in_group(login: str, group: str) -> bool:
    return bool(_rows("SELECT pg_has_role(?, ?, 'MEMBER')", (login, group))[0][0]) if _role_exists(login) else False


def players() -> list[Player]:
    """Every login in the players group (directly or as an organiser), with the campaigns it belongs to (as far
    as the connected login may see them). Superusers and the tables' owner (the club's administrators) are not
    players."""
    from . import access

    if not access.is_club():
        raise needs_club_server("server players")
    g = groups()
    _require_initialised(g)
    logins = _rows(
        "SELECT u.rolname, u.rolcanlogin, pg_has_role(u.oid, o.oid, 'MEMBER') FROM pg_roles u "
        "CROSS JOIN (SELECT oid FROM pg_roles WHERE rolname = ?) o "
        "WHERE pg_has_role(u.oid, (SELECT oid FROM pg_roles WHERE rolname = ?), 'MEMBER') "
        "AND u.rolname NOT IN (?, ?) AND NOT u.rolsuper AND NOT pg_has_role(u.oid, (SELECT relowner "
        "FROM pg_class WHERE oid = 'public.campaign'::regclass), 'MEMBER') ORDER BY u.rolname",
        (g.organisers, g.players, g.players, g.organisers),
    )
    member_rows = _rows(
        "SELECT m.login, c.name, m.role FROM campaign_member m JOIN campaign c "
        "ON c.id = m.campaign_id ORDER BY c.name_key, m.login"
    )
    out = []
    for login, can_log_in, is_organiser in logins:
        mine = tuple((c, r) for who, c, r in member_rows if who == login)
        out.append(Player(str(login), bool(is_organiser), bool(can_log_in), mine))
    return out
