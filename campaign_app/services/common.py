"""Shared service helpers: the error type, look-ups by name, storing roll records."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..rules.dice import RollRecord
from ..rules.experience import Thresholds
from ..store.models import Campaign, Platoon, Roll, SologearSheet


class ServiceError(ValueError):
    """Input a service refuses; the message says what is wrong. Nothing was written."""


class NotFound(ServiceError):
    """An unknown campaign, platoon, ..."""


def name_key(name: str) -> str:
    """How names are compared when looked up: spaces collapsed, case ignored (names are stored tidied)."""
    return " ".join(str(name).split()).casefold()


def _by_name(query: Any, field: Any, name: str) -> list[Any]:
    """Rows of ``query`` whose ``field`` is ``name`` exactly or, failing that, equal under :func:`name_key`."""
    exact = list(query.where(field == name).limit(2))
    if exact:
        return exact
    key = name_key(name)
    return [row for row in query if name_key(getattr(row, field.name)) == key][:2]


def find_campaign(name_or_id: str | int) -> Campaign:
    """A campaign by id (an int, from the GUI) or by name (a str is always a name)."""
    if isinstance(name_or_id, int):
        found = Campaign.get_or_none(Campaign.id == name_or_id)
    else:
        matches = _by_name(Campaign.select(), Campaign.name, name_or_id)
        found = matches[0] if len(matches) == 1 else None
    if found is None:
        raise NotFound(f"no campaign named {name_or_id!r}")
    return found


def find_platoon(name_or_id: str | int, campaign: str | int | Campaign | None = None) -> Platoon:
    """A platoon by id, or by name (within ``campaign`` if given; a name used in two campaigns must be
    qualified)."""
    if isinstance(name_or_id, int):
        found = Platoon.get_or_none(Platoon.id == name_or_id)
        if found is None:
            raise NotFound(f"no platoon with id {name_or_id}")
        return found
    query = Platoon.select()
    if campaign is not None:
        camp = campaign if isinstance(campaign, Campaign) else find_campaign(campaign)
        query = query.where(Platoon.campaign == camp)
    matches = _by_name(query, Platoon.name, name_or_id)
    if not matches:
        where = f" in campaign {campaign if not isinstance(campaign, Campaign) else campaign.name!r}" \
            if campaign is not None else ""
        raise NotFound(f"no platoon named {name_or_id!r}{where}")
    if len(matches) > 1:
        raise ServiceError(f"more than one platoon is named {name_or_id!r}; name its campaign too")
    return matches[0]


def resolve_platoon(ref: str | int | Platoon, campaign: str | int | None = None) -> Platoon:
    """What services accept as "a platoon": a Platoon, an ``int`` row id (the GUI), or a name (the CLI; a
    string is a name first, so a platoon named "1" is found by its name; only when no platoon has that name
    does a digits-only string fall back to the row id)."""
    if isinstance(ref, Platoon):
        return ref
    if isinstance(ref, bool):
        raise ServiceError(f"no platoon {ref!r}")
    try:
        return find_platoon(ref, campaign)
    except NotFound:
        if isinstance(ref, str) and ref.strip().isdigit() and campaign is None:
            found = Platoon.get_or_none(Platoon.id == int(ref.strip()))
            if found is not None:
                return found
        raise


def find_sheet(name_or_id: str | int) -> SologearSheet:
    """A Sologear campaign sheet by its campaign's name (or the sheet id)."""
    if isinstance(name_or_id, int):
        found = SologearSheet.get_or_none(SologearSheet.id == name_or_id)
    else:
        try:
            camp = find_campaign(name_or_id)
        except NotFound:
            camp = None
        found = SologearSheet.select().where(SologearSheet.campaign == camp).first() if camp else None
    if found is None:
        raise NotFound(f"no Sologear campaign named {name_or_id!r}")
    return found


def thresholds_of(campaign: Campaign) -> Thresholds:
    return Thresholds(campaign.threshold_green, campaign.threshold_regular, campaign.threshold_veteran,
                      campaign.threshold_legendary)


def store_rolls(records: Iterable[RollRecord], start_seq: int = 0, **links: Any) -> list[Roll]:
    """Write roll records (inside the caller's transaction), linked to battle/platoon/leader/sheet/turn."""
    rows = []
    for seq, rec in enumerate(records, start=start_seq):
        rows.append(Roll.create(seq=seq, purpose=rec.purpose, expression=rec.expression, faces=rec.faces,
                                modifier=rec.modifier, total=rec.total, source=rec.source, rule=rec.rule,
                                table_row=rec.table_row, outcome=rec.outcome, **links))
    return rows


def roll_to_dict(roll: Roll) -> dict[str, Any]:
    return {"purpose": roll.purpose, "expression": roll.expression, "faces": list(roll.faces),
            "modifier": roll.modifier, "total": roll.total, "source": roll.source, "rule": roll.rule,
            "table_row": roll.table_row, "outcome": roll.outcome}
