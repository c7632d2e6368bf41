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


def item_exists(kind: str, obj_id: int) -> bool:
    """Whether a campaign, platoon or Sologear sheet (``kind`` campaign, platoon, sheet) is still there."""
    model = {"campaign": Campaign, "platoon": Platoon, "sheet": SologearSheet}.get(kind)
    return model is not None and model.select().where(model.id == obj_id).exists()
