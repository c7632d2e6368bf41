"""Row ids for tests that set up rows by name: the services take ids, as the GUI gives them."""

from __future__ import annotations

from campaign_app.commands import lookup


def platoon_id(name: str, campaign: str | None = None) -> int:
    """The id of the platoon named ``name`` (within ``campaign`` when two campaigns use the name)."""
    return lookup.platoon_id(name, campaign)
