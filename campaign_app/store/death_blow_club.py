"""d12 Death Blow on a club server: the new tables, who owns their rows, and the club's rules for them.

**The one place to carry over** when the club server's journal and policies change: the tables of migration 0007
and their ownership path are listed in :data:`TABLES`; :func:`checks` names the check functions the policies use
(made by ``club_server``'s generators, like the platoons' and sheets'); :func:`table_rules` gives each table its
policies in ``club_server.Rules`` form. ``club_server`` adds them to its own (see ``club_server.CHECKS`` and
``table_rules``).

=================  ===========================================  ============================================
table              a player sees                                a player changes (INSERT/UPDATE/DELETE)
=================  ===========================================  ============================================
fighter            those of their campaigns (and their own)      their own while in the campaign; organisers:
                                                                any, ownership included
bout               bouts of the fighters they see               only when they may change its fighter **and**
                                                                its opponent fighter (if any): the owner of
                                                                both, or an organiser (a row may reference
                                                                only rows its writer may change)
bout_round         rounds of the bouts they see                 under the bouts they may change
fighter_change     changes of the fighters they see             under the fighters they may change
=================  ===========================================  ============================================

The client asks the same functions first (:func:`why_not_fighter`) so the user gets one clear line.
"""

from __future__ import annotations

from typing import Any

from .models import database_proxy as db

TABLES: dict[str, str] = {
    "fighter": "owner (the login that created it) within campaign_id",
    "bout": "fighter_id and opponent_fighter_id (both must be changeable by the writer)",
    "bout_round": "bout_id -> bout",
    "fighter_change": "fighter_id -> fighter",
}
"""Migration 0007's tables -> the path to their owner (journal triggers: every app table; portable file:
``services.portable.TABLES``; backups: the whole database)."""


def checks(owned: Any, under: Any, can: Any) -> tuple[Any, ...]:
    """The check functions the policies use, made by ``club_server``'s generators (passed in, so this module does
    not import ``club_server``): a fighter is owned like a platoon; a bout is under its fighter, and changed only
    where its opponent fighter (when given) may be changed too."""
    return (
        *owned("fighters", "fighter"),
        *under("bouts", "bout", "fighter_id", "fighters", also="opponent_fighter_id"),
        can("club_can_fighter", "fid", "club_fighters_changed"),
    )


OLD_FUNCTION_NAMES = (
    "club_fighters_seen(text)",
    "club_fighters_changed(text)",
    "club_bouts_seen(text)",
    "club_bouts_changed(text)",
    "club_can_fighter(bigint, text)",
)
"""The forms that took the login as an argument (dropped by ``server init``)."""


def table_rules(owned: Any, under: Any, in_: Any) -> dict[str, Any]:
    """The policies of the new tables, built with ``club_server``'s own ``_owned``, ``_under`` and ``_in`` helpers
    (passed in, so this module does not import ``club_server``)."""
    changed, seen = in_("fighter_id", "club_fighters_changed"), in_("fighter_id", "club_fighters_seen")
    bout_can = f"({changed} AND (opponent_fighter_id IS NULL OR {in_('opponent_fighter_id', 'club_fighters_changed')}))"
    return {
        "fighter": owned(),
        "bout": under(bout_can, seen),
        "bout_round": under(in_("bout_id", "club_bouts_changed"), in_("bout_id", "club_bouts_seen")),
        "fighter_change": under(changed, seen),
    }


def why_not_fighter(fighter_id: int) -> str | None:
    """Why the connected login may not change this fighter (one line), or ``None`` when it may (always on a
    file database, or a server without the club's rules)."""
    from . import access

    if not access.is_club() or not access.rules_installed():
        return None
    row = db.execute_sql(
        "SELECT club_can_fighter(f.id), f.name, f.owner, "
        "coalesce(c.name, 'its campaign') FROM fighter f LEFT JOIN campaign c "
        "ON c.id = f.campaign_id WHERE f.id = ?",
        (fighter_id,),
    ).fetchone()
    if row is None or row[0]:
        return None
    name, owner, cname = row[1], row[2], row[3]
    if owner and owner == access.current_user():
        return f"{name} is yours, but you no longer belong to {cname}; ask one of its organisers to add you again"
    if owner:
        return (
            f"{name} belongs to {owner}; you can look but not change it (only its owner or an organiser of {cname} can)"
        )
    return f"{name} belongs to no player; only an organiser of {cname} can change it"


def require_fighters(*fighter_ids: int | None) -> None:
    """Refuse (``access.NotYours``, one line, nothing written) unless the connected login may change every one
    of the fighters (a bout between two fighters needs both)."""
    from . import access

    for fighter_id in fighter_ids:
        if fighter_id is None:
            continue
        reason = why_not_fighter(fighter_id)
        if reason is not None:
            raise access.NotYours(reason)


def fighters_of_operation(op_id: int) -> list[int]:
    """The fighters an operation touched: a bout's own fighter first, then its opponent, then any other fighter
    row (a rename, a correction)."""
    import json

    rows = db.execute_sql(
        "SELECT table_name, row_id, coalesce(old, new) FROM operation_change "
        "WHERE operation_id = ? AND table_name IN ('fighter', 'bout', 'fighter_change') "
        "ORDER BY id",
        (op_id,),
    ).fetchall()
    first: list[int] = []
    rest: list[int] = []
    for table, row_id, image in rows:
        if table == "fighter":
            rest.append(int(row_id))
            continue
        data = json.loads(image) if isinstance(image, str) else (image or {})
        for key in ("fighter_id", "opponent_fighter_id"):
            if data.get(key) is not None:
                first.append(int(data[key]))
    out: list[int] = []
    for fighter_id in [*first, *rest]:
        if fighter_id not in out:
            out.append(fighter_id)
    return out
