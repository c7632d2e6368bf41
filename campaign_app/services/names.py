"""Names a user types, turned into row ids: every other service takes ids only. The CLI's argument layer
(``commands/lookup.py``) is the one caller; the GUI lists rows and has their ids.

One function per kind. An unknown name, or a name two rows share, is refused with one line (exit status 2).
Names match under :func:`~campaign_app.store.models.name_key` (the case and spacing rule the unique indexes
use); where several rows match, the ones spelt exactly as typed win.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import NotFound, Refused, StaleName
from .common import SQLITE_INT_MAX

if TYPE_CHECKING:
    from peewee import Field, ModelSelect

    from ..rules.enums import BoutWinner
    from ..store.models import BaseModel, Platoon

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


def _platoons_named(campaign: str | None) -> ModelSelect[Platoon]:
    from ..store.models import Campaign, Platoon, name_key

    query = Platoon.select()
    if campaign is not None:  # one query: the campaign's key is unique, so the subquery names at most one
        query = query.where(
            Platoon.campaign == Campaign.select(Campaign.id).where(Campaign.name_key == name_key(campaign))
        )
    return query


def confirm_platoon_id(name: str, campaign: str | None, remembered: int) -> None:
    """Take ``remembered`` (the id ``name`` gave an earlier command) as the platoon's id, checked with the
    database's next message by the very query :func:`platoon_id` asks: when ``name`` now names another platoon,
    none, or two, that message raises :class:`~campaign_app.errors.StaleName` (the caller looks it up afresh)."""
    from ..store.batch import check_with_next_message
    from ..store.models import Platoon, name_key

    query = _platoons_named(campaign).select(Platoon.id, Platoon.name)
    query = query.where(Platoon.name_key == name_key(name)).limit(50)

    def check(rows: list[Any]) -> None:
        exact = [row for row in rows if row[1] == name]
        matches = (exact or rows)[:2]
        if len(matches) != 1 or int(matches[0][0]) != remembered:
            raise StaleName(f"the platoon named {name!r} is not the one it was")

    check_with_next_message(query, check)


def platoon_id(name: str, campaign: str | None = None) -> int:
    """``--platoon NAME [--campaign NAME]``: the platoon's id. The value is a name first (a platoon named "1"
    is that platoon, whatever row 1 is); only a digits-only value that names no platoon, given without
    ``--campaign``, is taken as the row id. A name used in two campaigns must be qualified."""
    from ..store.models import Platoon

    matches = rows_named(_platoons_named(campaign), Platoon.name, name)
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


def sheet_id(name: str) -> int:
    """``sologear ... --campaign NAME``: the id of the Sologear sheet of the campaign named ``name``. As with
    platoons, the value is a name first; digits that name no campaign are the sheet's id."""
    from ..store.models import Campaign, SologearSheet

    matches = rows_named(Campaign.select(), Campaign.name, name)
    if len(matches) == 1:
        sheet = (
            SologearSheet.select(SologearSheet.id)
            .where(SologearSheet.campaign == matches[0].id)
            .order_by(SologearSheet.id)
            .first()
        )
        if sheet is not None:
            return int(sheet.id)
        raise Refused(f"{matches[0].name} is not a Sologear campaign")
    text = name.strip()
    if text.isdigit() and int(text) <= SQLITE_INT_MAX:
        found = SologearSheet.get_or_none(SologearSheet.id == int(text))
        if found is not None:
            return int(found.id)
    raise NotFound(f"no Sologear campaign named {name!r}")


def fighter_id(name: str, campaign: str | None = None) -> int:
    """``FIGHTER [--campaign NAME]``: a d12 Death Blow fighter's id. A name used in two campaigns must name its
    campaign."""
    from ..store.models import Fighter

    query = Fighter.select()
    where = ""
    if campaign is not None:
        camp = campaign_id(campaign)
        query = query.where(Fighter.campaign == camp)
        where = f" in campaign {_campaign_name(camp)}"
    matches = rows_named(query, Fighter.name, name)
    if len(matches) > 1:
        raise Refused(f"more than one fighter is named {name!r}; name the campaign too (--campaign)")
    if not matches:
        raise NotFound(f"no fighter named {name!r}{where}")
    return int(matches[0].id)


def fighter_beside(name: str, fighter: int) -> int:
    """``--opponent-fighter NAME``: the fighter named ``name`` in the campaign of the fighter with id ``fighter``.
    A fighter of that name in another campaign is named in the refusal."""
    from ..store.models import Fighter

    mine = Fighter.get_or_none(Fighter.id == fighter)
    if mine is None:
        raise NotFound(f"no fighter with id {fighter}")
    campaign = int(mine.campaign_id)
    matches = rows_named(Fighter.select().where(Fighter.campaign == campaign), Fighter.name, name)
    if len(matches) > 1:  # pragma: no cover - names are unique within a campaign
        raise Refused(f"more than one fighter is named {name!r}")
    if matches:
        return int(matches[0].id)
    elsewhere = rows_named(Fighter.select(), Fighter.name, name)
    if len(elsewhere) == 1:
        other = elsewhere[0]
        raise Refused(
            f"{other.name} is a fighter of another campaign ({_campaign_name(int(other.campaign_id))}), "
            f"not of {_campaign_name(campaign)}"
        )
    raise NotFound(f"no fighter named {name!r} in campaign {_campaign_name(campaign)}")


def _campaign_name(campaign: int) -> str:
    from ..store.models import Campaign

    camp = Campaign.get_or_none(Campaign.id == campaign)
    return str(camp.name) if camp is not None else str(campaign)


def bout_winner(winner: str, fighter: int, opponent_fighter: int | None, opponent: str | None) -> BoutWinner:
    """``--winner NAME|draw``: which side of the bout won. ``NAME`` is the fighter's or the opponent's name
    (a fighter of the campaign, by id, or the outside opponent's name as typed); "draw" is a draw."""
    from ..rules.enums import BoutWinner
    from ..store.models import Fighter, name_key

    text = " ".join(winner.split())
    if not text:
        raise Refused("say who won: a fighter's name, or draw")
    if text.lower() == "draw":
        return BoutWinner.DRAW
    mine = Fighter.get_or_none(Fighter.id == fighter)
    if mine is None:
        raise NotFound(f"no fighter with id {fighter}")
    other = Fighter.get_or_none(Fighter.id == opponent_fighter) if opponent_fighter is not None else None
    other_name = other.name if other is not None else " ".join((opponent or "").split())
    key = name_key(text)
    if key == name_key(mine.name):
        return BoutWinner.FIGHTER
    if other_name and key == name_key(other_name):
        return BoutWinner.OPPONENT
    raise Refused(
        f"{text!r} did not fight in this bout (the fighters are {mine.name} and {other_name or 'the opponent'}; "
        "or say draw)"
    )


def attached_id(platoon: int, name: str) -> int:
    """``--unit NAME``: the id of the platoon's attached unit of that name."""
    from ..store.models import AttachedUnit, Platoon

    p = Platoon.get_or_none(Platoon.id == platoon)
    if p is None:
        raise NotFound(f"no platoon with id {platoon}")
    matches = rows_named(AttachedUnit.select().where(AttachedUnit.platoon == platoon), AttachedUnit.name, name)
    if len(matches) != 1:
        raise NotFound(f"platoon {p.name!r} has no attached unit {name!r}")
    return int(matches[0].id)


def equipment_id(platoon: int, name: str, attached: str | None = None) -> int:
    """``--item NAME [--attached UNIT]``: the id of the platoon's (or its attached unit's) equipment of that
    name; the first in the list when two share it (equipment names need not be unique)."""
    from ..store.models import Equipment, Platoon, name_key

    p = Platoon.get_or_none(Platoon.id == platoon)
    if p is None:
        raise NotFound(f"no platoon with id {platoon}")
    owner = (
        (Equipment.platoon == platoon) if attached is None else (Equipment.attached == attached_id(platoon, attached))
    )
    key = name_key(name)
    found = next(
        (
            e
            for e in Equipment.select().where(owner).order_by(Equipment.position, Equipment.id)
            if name_key(e.name) == key
        ),
        None,
    )
    if found is None:
        where = f"attached unit {attached!r} of platoon {p.name!r}" if attached is not None else f"platoon {p.name!r}"
        raise NotFound(f"{where} has no equipment named {name!r}")
    return int(found.id)
