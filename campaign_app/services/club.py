"""Club play: who belongs to a campaign, and who owns a platoon or a Sologear sheet.

Only on a club server (PostgreSQL): on a file database these refuse in one line (a file has no logins; whoever
can open it may change everything). Each change is one journal operation (undo takes it back), and only an
organiser of the campaign may make it; the server's row-level security says the same (``store.club_server``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..store import access
from ..store.club_server import InitReport, Player, check_login, groups, needs_club_server
from ..store.club_server import add_player as add_player
from ..store.club_server import init_server as init_server
from ..store.club_server import players as players
from ..store.journal import operation
from ..store.models import Campaign, CampaignMember, Platoon, SologearSheet
from ..store.models import database_proxy as db
from ..store.opened import Capability, can, require
from .common import NotFound, ServiceError, resolve_campaign, resolve_platoon, resolve_sheet
from .results import Result

ROLES = ("player", "organiser")

__all__ = [
    "InitReport",
    "Player",
    "add_member",
    "add_player",
    "check_login",
    "init_server",
    "members",
    "needs_club_server",
    "players",
    "remove_member",
    "set_platoon_owner",
    "set_sheet_owner",
]


@dataclass(frozen=True)
class Membership(Result):
    campaign: str
    login: str
    role: str
    previous_role: str | None
    """The role before (None: the login was not in the campaign); equal to ``role`` when nothing changed."""
    operation_id: int | None

    @property
    def message(self) -> str:
        if self.previous_role == self.role:
            return f"{self.login} is already {_a(self.role)} of {self.campaign}; nothing changed"
        if self.previous_role is None:
            return f"{self.login} joined {self.campaign} as {_a(self.role)}"
        return f"{self.login} is now {_a(self.role)} of {self.campaign} (was {_a(self.previous_role)})"


@dataclass(frozen=True)
class Ownership(Result):
    kind: str
    """``platoon`` or ``sheet``."""
    name: str
    campaign: str
    owner: str
    previous_owner: str
    operation_id: int | None

    @property
    def message(self) -> str:
        if self.owner == self.previous_owner:
            return f"{self.name} already belongs to {self.owner}; nothing changed"
        before = f" (was {self.previous_owner})" if self.previous_owner else " (it belonged to no player)"
        return f"{self.name} now belongs to {self.owner}{before}"


@dataclass(frozen=True)
class Member(Result):
    login: str
    role: str


def _a(role: str) -> str:
    return "an organiser" if role == "organiser" else "a player"


def _club(command: str) -> None:
    if not can(Capability.SEVERAL_LOGINS):
        raise needs_club_server(command)


def _is_player_login(login: str) -> bool:
    """Whether ``login`` is a login of this club (a role in its players group)."""
    g = groups()
    row = db.execute_sql(
        "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ?) AND pg_has_role(?, ?, 'MEMBER')",
        (login, login, g.players),
    ).fetchone()
    return bool(row[0])


def _role_of(campaign_id: int, login: str) -> str | None:
    row = db.execute_sql(
        "SELECT role FROM campaign_member WHERE campaign_id = ? AND login = ?", (campaign_id, login)
    ).fetchone()
    return str(row[0]) if row else None


def add_member(campaign: int, login: str, *, organiser: bool = False) -> Membership:
    """Put ``login`` (a player of this club server) into the campaign as a player or an organiser; an existing
    member's role changes to the one given. Only an organiser of the campaign may."""
    _club("campaign add-player")
    login = check_login(login)
    role = "organiser" if organiser else "player"
    with operation("campaign.member") as op:
        c = resolve_campaign(campaign)
        access.require_organiser(c.id, "add or remove its players")
        op.target(campaign=c.id)
        if not _is_player_login(login):
            raise NotFound(
                f"{login} is not a player of this club server; add the login first with "
                f"'campaign-cli --db URL server add-player {login}'"
            )
        before = _role_of(c.id, login)
        if before is None:
            CampaignMember.create(campaign=c.id, login=login, role=role)
        elif before != role:
            CampaignMember.update(role=role).where(
                (CampaignMember.campaign == c.id) & (CampaignMember.login == login)
            ).execute()
        op.label = (
            f"{login} joins {c.name} as {_a(role)}"
            if before is None
            else f"{login}: {_a(before)} \u2192 {_a(role)} of {c.name}"
        )
    return Membership(c.name, login, role, before, op.changes.operation_id)


def remove_member(campaign: int, login: str) -> Membership:
    """Take ``login`` out of the campaign (what they own stays theirs, but they can no longer change it)."""
    _club("campaign remove-player")
    login = check_login(login)
    with operation("campaign.member") as op:
        c = resolve_campaign(campaign)
        access.require_organiser(c.id, "add or remove its players")
        op.target(campaign=c.id)
        before = _role_of(c.id, login)
        if before is None:
            raise NotFound(f"{login} does not belong to {c.name}")
        if before == "organiser":
            others = db.execute_sql(
                "SELECT count(*) FROM campaign_member WHERE campaign_id = ? AND role = 'organiser' AND login <> ?",
                (c.id, login),
            ).fetchone()[0]
            if not others:
                raise ServiceError(f"{login} is the only organiser of {c.name}; make another player an organiser first")
        db.execute_sql("DELETE FROM campaign_member WHERE campaign_id = ? AND login = ?", (c.id, login))
        op.label = f"{login} leaves {c.name}"
    return Membership(c.name, login, "none", before, op.changes.operation_id)


def members(campaign: int) -> list[Member]:
    """Who belongs to the campaign (as far as the connected login may see)."""
    _club("campaign players")
    c = resolve_campaign(campaign)
    rows = db.execute_sql(
        "SELECT login, role FROM campaign_member WHERE campaign_id = ? ORDER BY role DESC, login", (c.id,)
    ).fetchall()
    return [Member(str(login), str(role)) for login, role in rows]


def _new_owner(campaign: Campaign, login: str) -> str:
    login = check_login(login)
    if _role_of(campaign.id, login) is None:
        raise NotFound(
            f"{login} does not belong to {campaign.name}; add them first with "
            f"'campaign-cli --db URL campaign add-player --campaign \"{campaign.name}\" --player {login}'"
        )
    return login


def set_platoon_owner(ref: int, login: str) -> Ownership:
    """Give a platoon (with everything under it) to another player of its campaign: an organiser's change."""
    _club("platoon set-owner")
    with operation("platoon.owner") as op:
        p = resolve_platoon(ref)
        c = Campaign.get_by_id(p.campaign_id)
        access.require_organiser(c.id, "give a platoon to another player")
        op.target(campaign=c.id, platoon=p.id)
        owner = _new_owner(c, login)
        before = p.owner
        if owner != before:
            Platoon.update(owner=owner).where(Platoon.id == p.id).execute()
        op.label = f"Give {p.name} to {owner}"
    return Ownership("platoon", p.name, c.name, owner, before, op.changes.operation_id)


def set_sheet_owner(ref: int, login: str) -> Ownership:
    """Give a Sologear sheet to another player of its campaign: an organiser's change."""
    _club("sologear set-owner")
    with operation("sheet.owner") as op:
        s = resolve_sheet(ref)
        c = Campaign.get_by_id(s.campaign_id)
        access.require_organiser(c.id, "give a Sologear sheet to another player")
        op.target(campaign=c.id, sheet=s.id)
        owner = _new_owner(c, login)
        before = s.owner
        if owner != before:
            SologearSheet.update(owner=owner).where(SologearSheet.id == s.id).execute()
        op.label = f"Give the Sologear sheet of {s.pilot} to {owner}"
    return Ownership(
        "sheet", f"The Sologear sheet of {s.pilot} ({c.name})", c.name, owner, before, op.changes.operation_id
    )


@dataclass(frozen=True)
class Connection(Result):
    """Who is connected, and whether the club's rules apply."""

    login: str
    club_server: bool
    rules: bool


def whoami() -> Connection:
    """Who is connected, and whether the club's rules apply."""
    opened = require()
    return Connection(opened.login(), opened.can(Capability.SEVERAL_LOGINS), opened.can(Capability.CLUB_RULES))
