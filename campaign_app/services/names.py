"""Names a user types, turned into row ids: every other service takes ids only. The CLI's argument layer
(``commands/lookup.py``) is the one caller; the GUI lists rows and has their ids.

One function per kind. An unknown name, or a name two rows share, is refused with one line (exit status 2).
Names match under :func:`~campaign_app.store.models.name_key` (the case and spacing rule the unique indexes
use); where several rows match, the ones spelt exactly as typed win.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from ..errors import NotFound, Refused
from .common import SQLITE_INT_MAX

if TYPE_CHECKING:
    from peewee import Field, ModelSelect

    from ..store.models import BaseModel

    _M = TypeVar("_M", bound=BaseModel)


def rows_named(query: ModelSelect[_M], field: Field[str], name: str) -> list[_M]:
    """At most two rows of ``query`` whose name is ``name`` under the one case rule; where several match
    (platoons of different campaigns), the ones spelt exactly like ``name``."""
    from ..store.models import name_key

    key_field = field.model._meta.fields["name_key"]
    found = list(query.where(key_field == name_key(name)).limit(50))
    exact = [row for row in found if getattr(row, field.name) == name]
    return (exact or found)[:2]


def campaign_id(name: str) -> int:
    """``--campaign NAME``: the campaign's id."""
    from ..store.models import Campaign

    matches = rows_named(Campaign.select(), Campaign.name, name)
    if len(matches) != 1:
        raise NotFound(f"no campaign named {name!r}")
    return int(matches[0].id)


def platoon_id(name: str, campaign: str | None = None) -> int:
    """``--platoon NAME [--campaign NAME]``: the platoon's id. The value is a name first (a platoon named "1"
    is that platoon, whatever row 1 is); only a digits-only value that names no platoon, given without
    ``--campaign``, is taken as the row id. A name used in two campaigns must be qualified."""
    from ..store.models import Campaign, Platoon, name_key

    query = Platoon.select()
    if campaign is not None:  # one query: the campaign's key is unique, so the subquery names at most one
        query = query.where(
            Platoon.campaign == Campaign.select(Campaign.id).where(Campaign.name_key == name_key(campaign))
        )
    matches = rows_named(query, Platoon.name, name)
    if not matches and campaign is not None:
        campaign_id(campaign)  # no such campaign: said as such
    if len(matches) > 1:
        raise Refused(f"more than one platoon is named {name!r}; name its campaign too")
    if matches:
        return int(matches[0].id)
    text = name.strip()
    if campaign is None and text.isdigit() and int(text) <= SQLITE_INT_MAX:
        found = Platoon.get_or_none(Platoon.id == int(text))
        if found is not None:
            return int(found.id)
    where = f" in campaign {campaign!r}" if campaign is not None else ""
    raise NotFound(f"no platoon named {name!r}{where}")


def platoon_beside(name: str, platoon: int) -> int:
    """The platoon named ``name`` in the same campaign as the platoon with id ``platoon`` (an opponent)."""
    from ..store.models import Campaign, Platoon

    mine = Platoon.get_or_none(Platoon.id == platoon)
    if mine is None:
        raise NotFound(f"no platoon with id {platoon}")
    campaign = int(mine.campaign_id)
    matches = rows_named(Platoon.select().where(Platoon.campaign == campaign), Platoon.name, name)
    if len(matches) > 1:
        raise Refused(f"more than one platoon is named {name!r}; name its campaign too")
    if not matches:
        camp = Campaign.get_or_none(Campaign.id == campaign)
        raise NotFound(f"no platoon named {name!r} in campaign {(camp.name if camp else campaign)!r}")
    return int(matches[0].id)
