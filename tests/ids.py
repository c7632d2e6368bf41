"""Row ids for tests that set up rows by name: the services take ids, as the GUI gives them. Names are looked up
the way the CLI's argument layer looks them up (``campaign_app/commands/lookup.py``)."""

from __future__ import annotations

from campaign_app.commands import lookup


def campaign_id(name: str) -> int:
    """The id of the campaign named ``name``."""
    return lookup.campaign_id(name)


def platoon_id(name: str, campaign: str | None = None) -> int:
    """The id of the platoon named ``name`` (within ``campaign`` when two campaigns use the name)."""
    return lookup.platoon_id(name, campaign)


def sheet_id(campaign: str) -> int:
    """The id of the Sologear sheet of the campaign named ``campaign``."""
    return lookup.sheet_id(campaign)


def fighter_id(name: str, campaign: str | None = None) -> int:
    """The id of the d12 Death Blow fighter named ``name`` (within ``campaign`` when two campaigns use the name)."""
    return lookup.fighter_id(name, campaign)


def attached_id(platoon: int, name: str) -> int:
    """The id of the platoon's attached unit named ``name``."""
    return lookup.attached_id(platoon, name)


def equipment_id(platoon: int, name: str, attached: str | None = None) -> int:
    """The id of the platoon's (or its attached unit's) equipment named ``name``."""
    return lookup.equipment_id(platoon, name, attached)
