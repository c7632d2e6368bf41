"""Who may do what on a club server, checked by the client before it writes.

On a **file database** everything is allowed: whoever can open the file owns it all (``owner`` is ``''``, nobody in
particular). On a **club server** (the open database can do ``Capability.SEVERAL_LOGINS``) the connected login is
PostgreSQL's ``session_user`` (the login connected; a ``SET ROLE`` changes nothing of it); a player changes only
the platoons and Sologear sheets they own and the rows under them; an organiser of a campaign changes anything in
it, ownership and membership included; the database's owner (who ran ``server init``) and superusers change
everything.

The server enforces the same rules itself with row-level security (:mod:`.club_server`): the checks here ask the
very SQL functions the policies use (``club_can_platoon`` ...), so client and server cannot disagree. What the
client adds is the one clear line before anything is written ("2nd Platoon belongs to ana; you can look but not
change it"), where PostgreSQL alone would skip the row silently (an UPDATE or DELETE of rows a policy hides) or
answer in its own words (an INSERT): :func:`refusal` turns those words into one line too.

:func:`require_change` is called by ``store.journal`` whenever an operation names its platoon, sheet or
campaign. Qt-free; SQL only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import Refused
from .models import database_proxy as db
from .opened import Capability, can, require

ORGANISER_ACTIONS: dict[str, str] = {
    "campaign.rename": "rename it",
    "campaign.set": "change its house rules",
    "campaign.archive": "archive it",
    "campaign.delete": "delete it",
    "campaign.member": "add or remove its players",
    "platoon.owner": "give a platoon to another player",
    "sheet.owner": "give a Sologear sheet to another player",
}
"""What an operation of each kind does to a campaign, in the refusal's words ("only an organiser of Congo 1960
can rename it"); other kinds that name only a campaign: "change it"."""


class NotYours(Refused):
    """The connected login may look at this but not change it (a club server's rule); nothing was written."""


def is_club() -> bool:
    """Whether the open database is shared by several logins (a club server)."""
    return can(Capability.SEVERAL_LOGINS)


def current_user() -> str:
    """Who is connected: PostgreSQL's ``session_user`` on a club server, the system login on a file (the open
    database's login, asked once per connection)."""
    return require().login()


def rules_installed() -> bool:
    """Whether ``server init`` installed the club's rules on this server (its SQL functions exist; asked once per
    opened database). A server database without them has no club rules: the server's own grants decide."""
    return can(Capability.CLUB_RULES)


def _one(sql: str, params: tuple[Any, ...]) -> Any:
    return db.execute_sql(sql, params).fetchone()


def _campaign_words(campaign_id: int) -> str:
    row = _one("SELECT name FROM campaign WHERE id = ?", (campaign_id,))
    return f"{row[0]}" if row else f"campaign {campaign_id}"


def why_not(
    *,
    platoon: int | None = None,
    sheet: int | None = None,
    campaign: int | None = None,
    kind: str = "",
    action: str | None = None,
) -> str | None:
    """Why the connected login may not change this (one line), or ``None`` when it may. The most precise
    target decides: a platoon, else a sheet, else the campaign (an organiser's business). A row the login
    cannot even see is not refused here (the service says it is not found)."""
    check = change_check(platoon=platoon, sheet=sheet, campaign=campaign, kind=kind, action=action)
    if check is None:
        return None
    sql, params, verdict = check
    return verdict(_one(sql, params))


Verdict = Callable[[Any], "str | None"]


def change_check(
    *,
    platoon: int | None = None,
    sheet: int | None = None,
    campaign: int | None = None,
    kind: str = "",
    action: str | None = None,
) -> tuple[str, tuple[Any, ...], Verdict] | None:
    """:func:`why_not` in two halves, so that the question can travel with other statements: the query (one row
    or none) and the verdict on its row. ``None``: nothing to ask (a file; no club rules; no target)."""
    if not is_club() or not rules_installed():
        return None
    if platoon is not None:

        def on_platoon(row: Any) -> str | None:
            if row is None or row[0]:
                return None
            name, owner, cname = row[1], row[2], row[3]
            if owner and owner == current_user():
                return (
                    f"{name} is yours, but you no longer belong to {cname}; ask one of its organisers to add you again"
                )
            if owner:
                return f"{name} belongs to {owner}; you can look but not change it"
            return f"{name} belongs to no player; only an organiser of {cname} can change it"

        # LEFT JOIN: a platoon of one's own stays visible in a campaign one no longer belongs to (hidden then)
        return (
            "SELECT club_can_platoon(p.id), p.name, p.owner, coalesce(c.name, 'its campaign') "
            "FROM platoon p LEFT JOIN campaign c ON c.id = p.campaign_id WHERE p.id = ?",
            (platoon,),
            on_platoon,
        )
    if sheet is not None:

        def on_sheet(row: Any) -> str | None:
            if row is None or row[0]:
                return None
            what = f"The Sologear sheet of {row[1]} ({row[3]})"
            if row[2] and row[2] == current_user():
                return (
                    f"{what} is yours, but you no longer belong to {row[3]}; ask one of its organisers to add you again"
                )
            if row[2]:
                return f"{what} belongs to {row[2]}; you can look but not change it"
            return f"{what} belongs to no player; only an organiser of {row[3]} can change it"

        return (
            "SELECT club_can_sheet(s.id), s.pilot, s.owner, coalesce(c.name, 'its campaign') "
            "FROM sologear_sheet s LEFT JOIN campaign c ON c.id = s.campaign_id WHERE s.id = ?",
            (sheet,),
            on_sheet,
        )
    if campaign is not None:
        doing = action or ORGANISER_ACTIONS.get(kind, "change it")

        def on_campaign(row: Any) -> str | None:
            if row is None or row[0]:
                return None
            return f"only an organiser of {row[1]} can {doing}"

        return "SELECT club_is_organiser(c.id), c.name FROM campaign c WHERE c.id = ?", (campaign,), on_campaign
    return None


def can_change(*, platoon: int | None = None, sheet: int | None = None, campaign: int | None = None) -> bool:
    """Whether the connected login may change the platoon (and the rows under it), the sheet, or the campaign
    itself. Always True on a file database."""
    return why_not(platoon=platoon, sheet=sheet, campaign=campaign) is None


def require_change(
    *,
    platoon: int | None = None,
    sheet: int | None = None,
    campaign: int | None = None,
    kind: str = "",
    action: str | None = None,
) -> None:
    """Refuse (:class:`NotYours`, one line, nothing written) unless the connected login may change it."""
    if platoon is None and sheet is None and campaign is None:
        return
    if not is_club():  # a file: everything is allowed (and nothing is asked of the database)
        return
    reason = why_not(platoon=platoon, sheet=sheet, campaign=campaign, kind=kind, action=action)
    if reason is not None:
        raise NotYours(reason)


def require_organiser(campaign: int, action: str) -> None:
    """Refuse unless the connected login is an organiser of the campaign (or the server's owner)."""
    reason = why_not(campaign=campaign, action=action)
    if reason is not None:
        raise NotYours(reason)


def is_organiser(campaign: int) -> bool:
    return why_not(campaign=campaign, action="do that") is None


def require_campaign_creator() -> None:
    """Refuse unless the connected login may create campaigns: on a club server the organisers (``server
    add-player LOGIN --organiser``) and the server's owner; everyone on a file."""
    if not is_club() or not rules_installed():
        return
    from .club_server import groups

    group = groups().organisers
    row = _one(
        "SELECT pg_has_role(session_user, ?, 'MEMBER') OR pg_has_role(session_user, "
        "(SELECT relowner FROM pg_class WHERE oid = 'public.campaign'::regclass), 'MEMBER')",
        (group,),
    )
    if not row[0]:
        who = current_user()
        raise NotYours(
            f"only the club's organisers can create campaigns, and {who} is a player; ask an organiser "
            "to create it (or the club's administrator to make you an organiser)"
        )


def enrol_creator(campaign_id: int) -> None:
    """On a club server the login that creates a campaign becomes its organiser (a ``campaign_member`` row,
    written in the creating operation, so undo takes it away with the campaign). Nothing on a file."""
    if not is_club():
        return
    db.execute_sql(
        "INSERT INTO campaign_member (campaign_id, login, role) VALUES (?, session_user, 'organiser')", (campaign_id,)
    )


# --------------------------------------------------------------------------------- the server's own words

TABLE_WORDS: dict[str, str] = {
    "campaign": "a campaign",
    "campaign_member": "a campaign's players",
    "platoon": "a platoon",
    "battle": "a battle",
    "leader": "a leader",
    "attached_unit": "an attached unit",
    "equipment": "equipment",
    "xp_change": "an XP change",
    "attribute_change": "a logged change",
    "sologear_sheet": "a Sologear sheet",
    "sologear_force": "a Sologear unit",
    "sologear_turn": "a Sologear turn",
    "roll": "a roll",
    "operation": "the journal",
    "operation_change": "the journal",
    "schema_migration": "the database's version",
}


def sqlstate(exc: BaseException) -> tuple[str | None, str]:
    """The SQLSTATE and the message of the psycopg error behind ``exc`` (peewee wraps it)."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        current = todo.pop(0)
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        state = getattr(current, "sqlstate", None)
        if state is not None:
            diag = getattr(current, "diag", None)
            primary = getattr(diag, "message_primary", None) if diag is not None else None
            return str(state), str(primary or current).strip().splitlines()[0]
        args = [a for a in getattr(current, "args", ())[:1] if isinstance(a, BaseException)]
        todo += [*args, current.__cause__, current.__context__]
    return None, str(exc)


def refusal(exc: BaseException) -> Refused | None:
    """The one-line :class:`NotYours` for the server's refusal of a write (a row-level security policy or a
    missing privilege, SQLSTATE 42501), or ``None`` when ``exc`` is something else."""
    state, text = sqlstate(exc)
    if state != "42501":
        return None
    import re

    table = re.search(r'(?:for table|on table|relation) "?([a-z_]+)"?', text)
    what = TABLE_WORDS.get(table.group(1), table.group(1).replace("_", " ")) if table else "this"
    if "row-level security" in text:
        return NotYours(
            f"the club server refused the change to {what}: you change only the platoons and "
            "Sologear sheets you own (an organiser: anything in their campaigns); nothing was written"
        )
    return NotYours(f"the club server refused: your login may not change {what} ({text}); nothing was written")
