"""The sample data of ``campaign-cli demo`` and the GUI's first-run page.

The Atomic Africa sample is the rules' example platoon (Training d10, Equipment d10, Morale d8, Armor 2),
brought to 6 XP by three logged battles; its first lieutenant falls in the last one and a 2 XP replacement
takes over. The Sologear sample is the worked example of RULES.md 2 (Janne's Regiment, 700, against
Johnboy's Company, 1350: Equal odds; a 250 TV Gear; a 5-turn campaign). The dice are fixed, so the sample is
the same every time. Everything is written in one transaction.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from ..rules.dice import TypedDice
from ..rules.enums import Outcome, TurnAction, UnitKind
from ..store.journal import operation
from ..store.models import Campaign
from .results import Result

DEMO_CAMPAIGN = "Congo 1960 (sample)"
DEMO_PLATOON = "2nd Platoon"
DEMO_SOLOGEAR = "Hill 214 (sample)"


class _Battle(TypedDict):
    """A sample battle: its details, wounds, leader wounds, the typed dice in the rules' order (recovery
    rolls, leader 2d12, replacement), the replacement leader's name if the leader falls."""

    date: _dt.date
    scenario: str
    opponent: str
    outcome: Outcome
    objectives: int
    wounds: int
    leader_wounds: int
    dice: list[list[int]]
    replacement: NotRequired[str]
    notes: NotRequired[str]


@dataclass(frozen=True)
class OpenFirst(Result):
    """What to show first: a platoon or a Sologear sheet (``kind`` as the views name it) and its id."""

    kind: str
    id: int


@dataclass(frozen=True)
class DemoCreated(Result):
    """The sample campaigns' names, what was done for each, and what to show first (None: both existed)."""

    campaigns: tuple[str, ...]
    messages: tuple[str, ...]
    open: OpenFirst | None


_BATTLES: list[_Battle] = [
    {
        "date": _dt.date(1960, 7, 14),
        "scenario": "Crossing at Matadi",
        "opponent": "Katangese gendarmes",
        "outcome": Outcome.VICTORY,
        "objectives": 1,
        "wounds": 3,
        "leader_wounds": 0,
        "dice": [[5], [6, 4]],
    },
    {
        "date": _dt.date(1960, 8, 2),
        "scenario": "Night patrol on the river road",
        "opponent": "Mercenary column",
        "outcome": Outcome.DRAW,
        "objectives": 0,
        "wounds": 6,
        "leader_wounds": 1,
        "dice": [[2], [5, 3], [9, 8]],
    },
    {
        "date": _dt.date(1960, 9, 19),
        "scenario": "Holding the airfield",
        "opponent": "Soviet advisers' battalion",
        "outcome": Outcome.VICTORY,
        "objectives": 2,
        "wounds": 6,
        "leader_wounds": 5,
        "dice": [[6], [2, 3], [3, 7]],
        "replacement": "Lt. Okafor",
        "notes": "Lt. Dubois led the counter-charge across the runway and was carried off badly wounded.",
    },
]


def _create_atomic_africa() -> OpenFirst:
    from .attachments import add_attached, add_equipment
    from .battles import log_battle
    from .campaigns import create_campaign
    from .platoons import create_platoon

    camp = create_campaign(
        DEMO_CAMPAIGN, "atomic_africa", notes="Sample campaign: the example platoon of the Atomic Africa rules."
    )
    platoon = create_platoon(
        camp.id,
        DEMO_PLATOON,
        training=10,
        equipment=10,
        morale=8,
        armor=2,
        xp=1,
        leader_name="Lt. Dubois",
        leader_xp=3,
        notes="Regular army from a well-funded nation; tired after recent battles.",
    )
    team = add_attached(platoon.id, "Weapons team", UnitKind.TEAM, training=8, equipment=10, morale=8, armor=2)
    add_equipment(platoon.id, "Medium machine gun", attached=team.result.unit.id, targets="dispersed")
    add_equipment(platoon.id, "Recoilless rifle", targets="point", ap=-2, ap_vs="point")
    for b in _BATTLES:
        log_battle(
            platoon.id,
            wounds=b["wounds"],
            leader_wounds=b["leader_wounds"],
            objectives=b["objectives"],
            outcome=b["outcome"],
            scenario=b["scenario"],
            opponent=b["opponent"],
            date=b["date"],
            notes=b.get("notes", ""),
            replacement_name=b.get("replacement"),
            dice=TypedDice(b["dice"]),
        )
    return OpenFirst("platoon", platoon.id)


def _create_sologear() -> OpenFirst:
    from . import sologear_play as play_service
    from . import sologear_sheet as sheet_service

    sheet = sheet_service.create_sheet(
        DEMO_SOLOGEAR,
        "Janne",
        250,
        date="TN1932",
        area="Badlands hill",
        gear_name="Hunter",
        player_unit="Janne's Regiment",
        player_affiliation="Northern",
        enemy_unit="Johnboy's Company",
        enemy_affiliation="Southern",
        notes="Sample campaign: the worked example of the Sologear rules.",
    )
    sheet_service.add_force(sheet.id, "player", "1st Company", base_power=350, skill="regular", loyalty="reliable")
    sheet_service.add_force(sheet.id, "player", "2nd Company", base_power=350, skill="regular", loyalty="reliable")
    sheet_service.add_force(sheet.id, "enemy", "Johnboy's Company", base_power=400, skill="veteran", loyalty="firm")
    play_service.roll_length(sheet.id, TypedDice([[5]]))
    # FIG +1: 2d6 8 + 1 = 9 on the Equal column (1D6 Glory and an enemy unit); Glory 4; enemy quality 4 on the
    # <=300 TV column (a 300 TV enemy, as in the rules' example); battle length 4d6 = 16; entry edge 2 (East)
    play_service.play_turn(sheet.id, TurnAction.FIG, 1, dice=TypedDice([[4, 4], [4], [4], [3, 5, 2, 6], [2]]))
    play_service.record_turn(sheet.id, 1, glory=3, enemy_tv=300, bunkers=1)
    return OpenFirst("sheet", sheet.id)


def create_demo() -> DemoCreated:
    """Create the sample campaigns that do not exist yet; returns what was made and what to show first."""
    messages: list[str] = []
    opened: OpenFirst | None = None
    with operation("demo.create", "Create the sample campaigns"):
        if Campaign.get_or_none(Campaign.name == DEMO_CAMPAIGN) is None:
            opened = _create_atomic_africa()
            messages.append(f"created campaign {DEMO_CAMPAIGN!r}: {DEMO_PLATOON!r} with 3 logged battles")
        else:
            messages.append(f"campaign {DEMO_CAMPAIGN!r} already exists; left as it is")
        if Campaign.get_or_none(Campaign.name == DEMO_SOLOGEAR) is None:
            made = _create_sologear()
            opened = opened or made
            messages.append(f"created Sologear campaign {DEMO_SOLOGEAR!r} (pilot Janne, 5 turns)")
        else:
            messages.append(f"campaign {DEMO_SOLOGEAR!r} already exists; left as it is")
    return DemoCreated(campaigns=(DEMO_CAMPAIGN, DEMO_SOLOGEAR), messages=tuple(messages), open=opened)
