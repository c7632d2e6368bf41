"""The sample data of ``campaign-cli demo`` and the GUI's first-run page."""

from __future__ import annotations

from typing import Any

from ..store.database import db
from ..store.models import AttachedUnit, Campaign, Equipment, Leader, Platoon

DEMO_CAMPAIGN = "Congo 1960 (sample)"
DEMO_PLATOON = "2nd Platoon"


def create_demo() -> dict[str, Any]:
    """Create the sample Atomic Africa campaign (the rules' example platoon) unless it exists."""
    messages: list[str] = []
    with db.atomic():
        camp = Campaign.get_or_none(Campaign.name == DEMO_CAMPAIGN)
        if camp is None:
            camp = Campaign.create(name=DEMO_CAMPAIGN, system="atomic_africa",
                                   notes="Sample campaign: the example platoon of the rules.")
            platoon = Platoon.create(campaign=camp, name=DEMO_PLATOON, training=10, equipment=10, morale=8,
                                     armor=2, xp=6, notes="Regular army, tired after recent battles.")
            Leader.create(platoon=platoon, name="Lt. Okafor", rank="Lieutenant", xp=2, xp_at_join=2)
            team = AttachedUnit.create(platoon=platoon, name="Weapons team", kind="team", training=8,
                                       equipment=10, morale=8, armor=2)
            Equipment.create(attached=team, name="Medium machine gun", targets="dispersed")
            Equipment.create(platoon=platoon, name="Recoilless rifle", targets="point", ap=-2, ap_vs="point")
            messages.append(f"created campaign {DEMO_CAMPAIGN!r} with platoon {DEMO_PLATOON!r}")
        else:
            messages.append(f"campaign {DEMO_CAMPAIGN!r} already exists; left as it is")
    return {"campaigns": [DEMO_CAMPAIGN], "messages": messages}
