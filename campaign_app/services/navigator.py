"""The navigator's tree: campaigns with their platoons or Sologear pilots, in two queries."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.experience import level_name
from ..store.models import Campaign, Fighter, Leader, Platoon, SologearSheet
from .common import thresholds_of
from .results import Result


@dataclass(frozen=True)
class PlatoonNode(Result):
    """An Atomic Africa platoon under its campaign: its XP, level and the leader in command (if any)."""

    kind: str = field(init=False, default="platoon")
    id: int
    name: str
    xp: int
    level: str
    leader: str | None


@dataclass(frozen=True)
class PilotNode(Result):
    """A Sologear pilot (their campaign sheet) under its campaign; ``status`` is the sheet's (active, ended)."""

    kind: str = field(init=False, default="sheet")
    id: int
    name: str
    status: str


@dataclass(frozen=True)
class FighterNode(Result):
    """A d12 Death Blow fighter under its campaign: level, XP toward the next level, retired or not."""

    kind: str = field(init=False, default="fighter")
    id: int
    name: str
    level: int
    xp: int
    retired: bool


@dataclass(frozen=True)
class CampaignNode(Result):
    """A campaign with its platoons (by name) or Sologear pilots (in the order they were made)."""

    kind: str = field(init=False, default="campaign")
    id: int
    name: str
    system: str
    archived: bool
    children: tuple[PlatoonNode | PilotNode | FighterNode, ...]


@dataclass(frozen=True)
class CampaignRef(Result):
    """Which campaign an item belongs to."""

    id: int
    name: str
    system: str


def navigator_tree(include_archived: bool = False) -> list[CampaignNode]:
    """Every campaign (not archived ones unless asked for), by name, with its platoons or pilots."""
    campaigns = list(
        Campaign.select().order_by(Campaign.name)
        if include_archived
        else Campaign.select().where(Campaign.archived == False).order_by(Campaign.name)  # noqa: E712
    )
    children: dict[int, list[PlatoonNode | PilotNode | FighterNode]] = {c.id: [] for c in campaigns}
    if campaigns:
        thresholds = {c.id: thresholds_of(c) for c in campaigns}
        leaders = {
            row.platoon_id: row.name
            for row in Leader.select(Leader.platoon, Leader.name).where(Leader.status == "active")
        }
        platoons = (
            Platoon.select(Platoon.id, Platoon.name, Platoon.xp, Platoon.campaign)
            .where(Platoon.campaign.in_(list(children)))
            .order_by(Platoon.name)
        )
        for p in platoons:
            children[p.campaign_id].append(
                PlatoonNode(
                    id=p.id,
                    name=p.name,
                    xp=p.xp,
                    level=level_name(p.xp, thresholds[p.campaign_id]),
                    leader=leaders.get(p.id),
                )
            )
        sheets = (
            SologearSheet.select(SologearSheet.id, SologearSheet.pilot, SologearSheet.campaign, SologearSheet.status)
            .where(SologearSheet.campaign.in_(list(children)))
            .order_by(SologearSheet.id)
        )
        for s in sheets:
            children[s.campaign_id].append(PilotNode(id=s.id, name=s.pilot, status=s.status))
        fighters = (
            Fighter.select(Fighter.id, Fighter.name, Fighter.campaign, Fighter.level, Fighter.xp, Fighter.status)
            .where(Fighter.campaign.in_(list(children)))
            .order_by(Fighter.name_key, Fighter.id)
        )
        for f in fighters:
            children[f.campaign_id].append(
                FighterNode(id=f.id, name=f.name, level=f.level, xp=f.xp, retired=f.status == "retired")
            )
    return [
        CampaignNode(id=c.id, name=c.name, system=c.system, archived=bool(c.archived), children=tuple(children[c.id]))
        for c in campaigns
    ]


def has_any_campaign() -> bool:
    return Campaign.select().exists()


_ITEM_MODELS: dict[str, type[Campaign] | type[Platoon] | type[SologearSheet] | type[Fighter]] = {
    "campaign": Campaign,
    "platoon": Platoon,
    "sheet": SologearSheet,
    "fighter": Fighter,
}


def item_exists(kind: str, obj_id: int) -> bool:
    """Whether the navigator item ``kind`` ("campaign", "platoon", "sheet") with this id is stored."""
    model = _ITEM_MODELS.get(kind)
    return model is not None and model.select(model.id).where(model.id == obj_id).exists()


def item_title(kind: str, obj_id: int) -> list[str]:
    """What a window title names for an item, most specific first: ``[platoon, campaign]``,
    ``["Pilot (pilot)", campaign]`` or ``[campaign]``; empty when it is not stored (one query)."""
    if kind == "campaign":
        row = Campaign.select(Campaign.name).where(Campaign.id == obj_id).tuples().first()
        return [row[0]] if row else []
    if kind == "platoon":
        row = Platoon.select(Platoon.name, Campaign.name).join(Campaign).where(Platoon.id == obj_id).tuples().first()
        return list(row) if row else []
    if kind == "sheet":
        row = (
            SologearSheet.select(SologearSheet.pilot, Campaign.name)
            .join(Campaign)
            .where(SologearSheet.id == obj_id)
            .tuples()
            .first()
        )
        return [f"{row[0] or 'Pilot'} (pilot)", row[1]] if row else []
    if kind == "fighter":
        row = Fighter.select(Fighter.name, Campaign.name).join(Campaign).where(Fighter.id == obj_id).tuples().first()
        return [f"{row[0]} (fighter)", row[1]] if row else []
    return []


def item_campaign(kind: str, obj_id: int) -> CampaignRef | None:
    """The campaign an item belongs to (or is); ``None`` when not stored."""
    query = Campaign.select(Campaign.id, Campaign.name, Campaign.system)
    if kind == "campaign":
        query = query.where(Campaign.id == obj_id)
    elif kind in ("platoon", "sheet", "fighter"):
        model = _ITEM_MODELS[kind]
        query = query.join(model).where(model.id == obj_id)
    else:
        return None
    row = query.tuples().first()
    return CampaignRef(id=row[0], name=row[1], system=row[2]) if row else None


def find_item(kind: str, name: str) -> int | None:
    """The id of the item ``kind`` ("campaign", "platoon", "sheet": a Sologear campaign's name or its pilot's)
    named ``name``; ``None`` when nothing has that name."""
    row: Campaign | Platoon | SologearSheet | Fighter | None
    if kind == "campaign":
        row = Campaign.get_or_none(Campaign.name == name)
    elif kind == "platoon":
        row = Platoon.get_or_none(Platoon.name == name)
    elif kind == "sheet":
        row = SologearSheet.select().join(Campaign).where(Campaign.name == name).first() or SologearSheet.get_or_none(
            SologearSheet.pilot == name
        )
    elif kind == "fighter":
        row = Fighter.get_or_none(Fighter.name == name)
    else:
        return None
    return int(row.id) if row else None
