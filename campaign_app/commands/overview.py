"""The campaign at a glance (issue 27): ``campaign standings``, ``chronicle`` (list, add, edit, remove, report),
``print standings|chronicle|stale`` (the ``print`` group takes them from :data:`PRINT_SUBCOMMANDS`) and
``stats``."""

from __future__ import annotations

import argparse
from typing import Any

from .base import Context, add_json, emit


def _cmd_standings(args: argparse.Namespace, ctx: Context) -> int:
    from ..services.standings import standings, standings_text

    ctx.open_db()
    result = standings(args.campaign)
    return emit(args, result.to_dict(), lambda: standings_text(result))


def register_campaign_actions(group: Any, parent: argparse.ArgumentParser) -> None:
    """``campaign standings`` (added to the ``campaign`` group by :mod:`campaign_app.commands.roster`)."""
    p = group.add_parser("standings", parents=[parent], help="the campaign's standings and head-to-head records",
                         description="The campaign's standings (RULES.md §6): each platoon's battles, "
                                     "victories, draws, defeats, objective XP, wounds, XP lost, leaders lost, XP "
                                     "and level, in ranking order; the head-to-head record of each pair that "
                                     "fought each other (disputed results are shown, never resolved); the "
                                     "Sologear pilots.")
    p.add_argument("--campaign", required=True, metavar="NAME", help="the campaign")
    add_json(p)
    p.set_defaults(handler=_cmd_standings)


def register(sub: Any, parent: argparse.ArgumentParser) -> None:
    """Top-level commands of this module (none yet besides the groups' actions)."""
