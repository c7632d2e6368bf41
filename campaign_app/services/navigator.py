"""The navigator's tree: campaigns with their platoons or Sologear pilots, in two queries."""

from __future__ import annotations

from typing import Any

from ..rules.experience import Thresholds, level_name
from ..store.models import Campaign, Leader, Platoon, SologearSheet


def navigator_tree(include_archived: bool = False) -> list[dict[str, Any]]:
    campaigns = Campaign.select().order_by(Campaign.name)
    if not include_archived:
        campaigns = campaigns.where(Campaign.archived == False)  # noqa: E712
    tree: dict[int, dict[str, Any]] = {}
    for c in campaigns:
        tree[c.id] = {"kind": "campaign", "id": c.id, "name": c.name, "system": c.system,
                      "archived": bool(c.archived), "children": [],
                      "_thresholds": Thresholds(c.threshold_green, c.threshold_regular, c.threshold_veteran,
                                                c.threshold_legendary)}
    if tree:
        leaders = {row.platoon_id: row.name for row in
                   Leader.select(Leader.platoon, Leader.name).where(Leader.status == "active")}
        platoons = (Platoon.select(Platoon.id, Platoon.name, Platoon.xp, Platoon.campaign)
                    .where(Platoon.campaign.in_(list(tree))).order_by(Platoon.name))
        for p in platoons:
            node = tree[p.campaign_id]
            node["children"].append({"kind": "platoon", "id": p.id, "name": p.name, "xp": p.xp,
                                     "level": level_name(p.xp, node["_thresholds"]),
                                     "leader": leaders.get(p.id)})
        sheets = (SologearSheet.select(SologearSheet.id, SologearSheet.pilot, SologearSheet.campaign,
                                       SologearSheet.status)
                  .where(SologearSheet.campaign.in_(list(tree))).order_by(SologearSheet.id))
        for s in sheets:
            tree[s.campaign_id]["children"].append({"kind": "sheet", "id": s.id, "name": s.pilot,
                                                    "status": s.status})
    for node in tree.values():
        node.pop("_thresholds")
    return list(tree.values())


def has_any_campaign() -> bool:
    return Campaign.select().exists()


_ITEM_MODELS: dict[str, type[Campaign] | type[Platoon] | type[SologearSheet]] = {
    "campaign": Campaign, "platoon": Platoon, "sheet": SologearSheet}


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
        row = (Platoon.select(Platoon.name, Campaign.name).join(Campaign).where(Platoon.id == obj_id)
               .tuples().first())
        return list(row) if row else []
    if kind == "sheet":
        row = (SologearSheet.select(SologearSheet.pilot, Campaign.name).join(Campaign)
               .where(SologearSheet.id == obj_id).tuples().first())
        return [f"{row[0] or 'Pilot'} (pilot)", row[1]] if row else []
    return []


def item_campaign(kind: str, obj_id: int) -> dict[str, Any] | None:
    """The campaign an item belongs to (or is) as ``{"id", "name", "system"}``; ``None`` when not stored."""
    query = Campaign.select(Campaign.id, Campaign.name, Campaign.system)
    if kind == "campaign":
        query = query.where(Campaign.id == obj_id)
    elif kind in ("platoon", "sheet"):
        model = _ITEM_MODELS[kind]
        query = query.join(model).where(model.id == obj_id)
    else:
        return None
    row = query.dicts().first()
    return dict(row) if row else None


def find_item(kind: str, name: str) -> int | None:
    """The id of the item ``kind`` ("campaign", "platoon", "sheet": a Sologear campaign's name or its pilot's)
    named ``name``; ``None`` when nothing has that name."""
    row: Campaign | Platoon | SologearSheet | None
    if kind == "campaign":
        row = Campaign.get_or_none(Campaign.name == name)
    elif kind == "platoon":
        row = Platoon.get_or_none(Platoon.name == name)
    elif kind == "sheet":
        row = (SologearSheet.select().join(Campaign).where(Campaign.name == name).first()
               or SologearSheet.get_or_none(SologearSheet.pilot == name))
    else:
        return None
    return int(row.id) if row else None
