"""The argument layer's name look-ups: ``--platoon NAME``, ``--campaign NAME`` ... become row ids here, and the
command hands the ids to the services. An unknown or ambiguous name is one line on stderr, exit status 2.
(The queries are the ``names`` service's: commands reach the database only through services.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazyimport import lazy_module

if TYPE_CHECKING:
    from ..rules.enums import BoutWinner
    from ..services import names
    from ..services.server_link import RememberedNames
else:
    names = lazy_module("campaign_app.services.names")

remembered: RememberedNames | None = None
"""The names this command's club server gave before (set when a server is opened; None for a file)."""


def campaign_id(name: str) -> int:
    """``--campaign NAME``: the campaign's id."""
    return names.campaign_id(name)


def optional_campaign_id(name: str | None) -> int | None:
    """An optional ``--campaign NAME``: its id, or None when it was not given (or given empty)."""
    return None if name is None or name == "" else names.campaign_id(name)


def sheet_id(name: str) -> int:
    """``sologear ... --campaign NAME``: the id of that campaign's Sologear sheet (digits that name no campaign
    are the sheet's id)."""
    return names.sheet_id(name)


def fighter_id(name: str, campaign: str | None = None) -> int:
    """``FIGHTER [--campaign NAME]``: the d12 Death Blow fighter's id."""
    return names.fighter_id(name, campaign)


def opponent_fighter_id(name: str, fighter: int) -> int:
    """``--opponent-fighter NAME``: a fighter of the same campaign as ``fighter``."""
    return names.fighter_beside(name, fighter)


def attached_id(platoon: int, name: str) -> int:
    """``--unit NAME``: the id of the platoon's attached unit."""
    return names.attached_id(platoon, name)


def equipment_id(platoon: int, name: str, attached: str | None = None) -> int:
    """``--item NAME [--attached UNIT]``: the id of the platoon's (or the attached unit's) equipment."""
    return names.equipment_id(platoon, name, attached)


def bout_winner(winner: str, fighter: int, opponent_fighter: int | None, opponent: str | None) -> BoutWinner:
    """``--winner NAME|draw``: the side of the bout that won."""
    return names.bout_winner(winner, fighter, opponent_fighter, opponent)


def bout_id(text: str) -> int:
    """``bout show ID``: a bout is named by its number."""
    from .base import CliError

    value = text.strip()
    if not value.isdigit() or int(value) > 2**63 - 1:  # SQLite's largest row id
        raise CliError(f"no bout {text!r} (a bout is named by its number, e.g. bout show 12)")
    return int(value)


def platoon_id(name: str, campaign: str | None = None) -> int:
    """``--platoon NAME [--campaign NAME]``: the platoon's id (a name first; digits that name no platoon, given
    without ``--campaign``, are its id). On a club server a name looked up before is not asked again: its id goes
    with the command's first message, checked there (:class:`RememberedNames`)."""
    known = remembered
    if known is None or name.strip().isdigit():
        return names.platoon_id(name, campaign)
    found = known.get("platoon", campaign, name)
    if found is not None:
        names.confirm_platoon_id(name, campaign, found)
        return found
    found = names.platoon_id(name, campaign)
    known.remember("platoon", campaign, name, found)
    return found


def opponent_id(name: str, platoon: int) -> int:
    """``--opponent-platoon NAME``: a platoon of the same campaign as ``platoon``, not ``platoon`` itself."""
    from .base import CliError

    other = names.platoon_beside(name, platoon)
    if other == platoon:
        raise CliError("a platoon cannot fight itself: name another platoon as the opponent")
    return other
