"""The argument layer's name look-ups: ``--platoon NAME``, ``--campaign NAME`` ... become row ids here, and the
command hands the ids to the services. An unknown or ambiguous name is one line on stderr, exit status 2.
(The queries are the ``names`` service's: commands reach the database only through services.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazyimport import lazy_module

if TYPE_CHECKING:
    from ..services import names
else:
    names = lazy_module("campaign_app.services.names")


def campaign_id(name: str) -> int:
    """``--campaign NAME``: the campaign's id."""
    return names.campaign_id(name)


def platoon_id(name: str, campaign: str | None = None) -> int:
    """``--platoon NAME [--campaign NAME]``: the platoon's id (a name first; digits that name no platoon, given
    without ``--campaign``, are its id)."""
    return names.platoon_id(name, campaign)


def opponent_id(name: str, platoon: int) -> int:
    """``--opponent-platoon NAME``: a platoon of the same campaign as ``platoon``, not ``platoon`` itself."""
    from .base import CliError

    other = names.platoon_beside(name, platoon)
    if other == platoon:
        raise CliError("a platoon cannot fight itself: name another platoon as the opponent")
    return other
