"""``campaign-cli --db postgresql://... server init | add-player | players``, and the club's actions under
``campaign`` (``add-player``, ``remove-player``, ``players``), ``platoon set-owner`` and ``sologear set-owner``.

Setting up a club server takes three commands (README, "Club play")::

    campaign-cli --db postgresql://owner@host/club server init
    printf '%s\\n' "$PASSWORD" | campaign-cli --db postgresql://owner@host/club server add-player ana --password-stdin
    campaign-cli --db postgresql://ana@host/club campaign add-player --campaign "Congo 1960" --player bob

Given a file database, each says in one line that it needs a club server (exit 2) and opens nothing.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from . import lookup
from .base import CliError, Context, add_json, emit


def _server_target(ctx: Context, command: str) -> None:
    """Refuse a file database before anything is opened (nothing is created beside it)."""
    from ..paths import is_server_url
    from ..services import club

    if not is_server_url(ctx.paths.db_target):
        raise club.needs_club_server(command)


def _cmd_init(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.club import init_server

    _server_target(ctx, "server init")
    ctx.open_db(daily_backup=False)
    report = init_server()
    return emit(args, report.to_dict(), report.text)


def _password(args: argparse.Namespace) -> str | None:
    if not args.password_stdin:
        return None
    if sys.stdin.isatty():  # typed at the terminal: not echoed
        import getpass

        return getpass.getpass(f"Password for {args.login}: ") or _no_password()
    line = sys.stdin.readline()
    password = line[:-1] if line.endswith("\n") else line
    if password.endswith("\r"):
        password = password[:-1]
    return password or _no_password()


def _no_password() -> str:
    raise CliError("--password-stdin: standard input gave no password (one line is read)")


def _connection_limit(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"{value} is outside 1-1000")
    return value


def _cmd_add_player(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.club import add_player, check_login

    _server_target(ctx, "server add-player")
    login = check_login(args.login)
    password = _password(args)
    ctx.open_db(daily_backup=False)
    result = add_player(login, organiser=args.organiser, password=password, connections=args.connections)
    made = "created the login" if result["created"] else "the login already existed:"
    role = "an organiser (may create campaigns)" if result["organiser"] else "a player"
    pw = "; password set" if result["password_set"] else ""
    return emit(
        args,
        result,
        f"{made} {login}; {login} is {role} of this club server, with at most "
        f"{result['connections']} connections at once{pw}",
    )


def _cmd_players(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.club import players

    _server_target(ctx, "server players")
    ctx.open_db(daily_backup=False)
    found = players()

    def text() -> str:
        if not found:
            return "no players yet (add one with 'server add-player LOGIN')"
        lines = []
        for p in found:
            what = "organiser" if p.organiser else "player"
            camps = ", ".join(f"{c} ({r})" for c, r in p.campaigns) or "no campaign yet"
            off = "" if p.can_log_in else " [cannot log in]"
            lines.append(f"{p.login:<20} {what:<10} {camps}{off}")
        return "\n".join(lines)

    return emit(args, [p.to_dict() for p in found], text)


def _cmd_campaign_add_player(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import club

    _server_target(ctx, "campaign add-player")
    ctx.open_db()
    result = club.add_member(lookup.campaign_id(args.campaign), args.player, organiser=args.organiser)
    return emit(args, {**result.to_dict(), "message": result.message}, result.message)


def _cmd_campaign_remove_player(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import club

    _server_target(ctx, "campaign remove-player")
    ctx.open_db()
    result = club.remove_member(lookup.campaign_id(args.campaign), args.player)
    message = f"{result.login} left {result.campaign}"
    return emit(args, {**result.to_dict(), "message": message}, message)


def _cmd_campaign_players(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import club

    _server_target(ctx, "campaign players")
    ctx.open_db(daily_backup=False)
    found = club.members(lookup.campaign_id(args.campaign))
    return emit(
        args,
        [m.to_dict() for m in found],
        lambda: "\n".join(f"{m.login:<20} {m.role}" for m in found) or "nobody belongs to it yet",
    )


def _cmd_platoon_set_owner(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import club

    _server_target(ctx, "platoon set-owner")
    ctx.open_db()
    result = club.set_platoon_owner(lookup.platoon_id(args.platoon, args.campaign), args.owner)
    return emit(args, {**result.to_dict(), "message": result.message}, result.message)


def _cmd_sheet_set_owner(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import club

    _server_target(ctx, "sologear set-owner")
    ctx.open_db()
    result = club.set_sheet_owner(lookup.sheet_id(args.campaign), args.owner)
    return emit(args, {**result.to_dict(), "message": result.message}, result.message)


def _add(
    group: Any, name: str, parent: argparse.ArgumentParser, help_text: str, handler: Any, description: str | None = None
) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = group.add_parser(
        name, parents=[parent], help=help_text, description=description or help_text
    )
    add_json(p)
    p.set_defaults(handler=handler)
    return p


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    sp = subparsers.add_parser(
        "server",
        parents=[parent],
        help="set up a club server (PostgreSQL): roles, players, who may do what",
        description="Club play on a PostgreSQL server: give --db postgresql://USER@HOST/DB.",
    )
    ss = sp.add_subparsers(dest="server_command", metavar="ACTION")
    ss.required = True
    _add(
        ss,
        "init",
        parent,
        "set up the database as a club server (run as the database's owner): groups, grants, row-level security",
        _cmd_init,
    )
    p = _add(ss, "add-player", parent, "make a login a player of the club server (created if needed)", _cmd_add_player)
    p.add_argument("login", metavar="LOGIN", help="the player's PostgreSQL login (lower case)")
    p.add_argument("--organiser", action="store_true", help="an organiser: may create campaigns")
    p.add_argument(
        "--connections",
        type=_connection_limit,
        default=8,
        metavar="N",
        help="how many connections the login may hold at once (default 8: a window uses two, each command one)",
    )
    p.add_argument(
        "--password-stdin", action="store_true", help="read the login's password from the first line of standard input"
    )
    _add(ss, "players", parent, "list the club's players, organisers and their campaigns", _cmd_players)


def register_campaign_actions(group: Any, parent: argparse.ArgumentParser) -> None:
    """``campaign add-player | remove-player | players`` (registered by ``commands.roster``)."""
    p = _add(
        group,
        "add-player",
        parent,
        "put a player into a campaign (club server; organisers only)",
        _cmd_campaign_add_player,
    )
    p.add_argument("--campaign", required=True, metavar="NAME")
    p.add_argument("--player", required=True, metavar="LOGIN")
    p.add_argument("--organiser", action="store_true", help="as an organiser of the campaign")
    p = _add(
        group,
        "remove-player",
        parent,
        "take a player out of a campaign (club server; organisers only)",
        _cmd_campaign_remove_player,
    )
    p.add_argument("--campaign", required=True, metavar="NAME")
    p.add_argument("--player", required=True, metavar="LOGIN")
    p = _add(group, "players", parent, "who belongs to a campaign (club server)", _cmd_campaign_players)
    p.add_argument("--campaign", required=True, metavar="NAME")


def register_platoon_actions(group: Any, parent: argparse.ArgumentParser) -> None:
    """``platoon set-owner`` (registered by ``commands.roster``)."""
    p = _add(
        group,
        "set-owner",
        parent,
        "give a platoon to another player of its campaign (club server; organisers only)",
        _cmd_platoon_set_owner,
    )
    p.add_argument("platoon", metavar="PLATOON", help="platoon name (or id)")
    p.add_argument("--campaign", metavar="NAME", help="the platoon's campaign (when two share the name)")
    p.add_argument("--owner", required=True, metavar="LOGIN")


def register_sologear_actions(group: Any, parent: argparse.ArgumentParser) -> None:
    """``sologear set-owner`` (registered by ``commands.sologear``)."""
    p = _add(
        group,
        "set-owner",
        parent,
        "give a Sologear sheet to another player of its campaign (club server; organisers only)",
        _cmd_sheet_set_owner,
    )
    p.add_argument("--campaign", required=True, metavar="NAME", help="the Sologear campaign's name")
    p.add_argument("--owner", required=True, metavar="LOGIN")
