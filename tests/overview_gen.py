"""Generated campaigns for the standings, statistics and chronicle tests and benchmarks: random but
seeded, written straight into the tables in one operation (the standings read the tables, not the services)."""

from __future__ import annotations

import datetime as _dt
import random
from typing import Any

from campaign_app.store.journal import operation
from campaign_app.store.models import Battle, Campaign, Platoon, SologearSheet, SologearTurn

OUTCOMES = ("victory", "defeat", "draw", None)
MIRROR = {"victory": "defeat", "defeat": "victory", "draw": "draw", None: None}


def atomic_africa(
    seed: int, platoons: int = 6, battles: int = 60, name: str | None = None, stranger: int | None = None
) -> int:
    """A campaign of ``platoons`` platoons and about ``battles`` logged battles; many name another platoon of the
    campaign (most of those are logged by both sides, some with results that disagree), some name ``stranger`` (a
    platoon of another campaign). Returns the campaign id."""
    rng = random.Random(seed)
    start = _dt.date(2025, 1, 1)
    with operation("test.setup", "generated campaign"):
        camp = Campaign.create(name=name or f"Generated {seed}", system="atomic_africa")
        ids = []
        names = [f"Platoon {chr(65 + i % 26)}{i // 26 or ''}" for i in range(platoons)]
        rng.shuffle(names)
        for pname in names:
            ids.append(
                Platoon.create(
                    campaign=camp,
                    name=pname,
                    training=8,
                    equipment=8,
                    morale=8,
                    armor=2,
                    xp=rng.randint(0, 32),
                    owner=rng.choice(("", "ann", "bob")),
                ).id
            )
        numbers = dict.fromkeys(ids, 0)
        rows: list[dict[str, Any]] = []

        def log(pid: int, opp: int | None, outcome: str | None, day: int) -> None:
            numbers[pid] += 1
            fate = rng.choice((None, "stays", "stays", "casualty", "promoted"))
            rows.append(
                {
                    "platoon": pid,
                    "number": numbers[pid],
                    "date": start + _dt.timedelta(days=day),
                    "opponent": "",
                    "opponent_platoon": opp,
                    "outcome": outcome,
                    "objectives": rng.randint(0, 2),
                    "wounds": rng.randint(0, 12),
                    "leader_wounds": 0,
                    "platoon_xp_before": rng.randint(0, 32),
                    "platoon_xp_after": rng.randint(0, 32),
                    "leader_fate": fate,
                    "xp_lost": rng.randint(0, 4),
                    "fire_support": False,
                    "notes": "",
                    "scenario": "",
                }
            )

        day = 0
        while len(rows) < battles:
            day += rng.randint(0, 3)
            pid = rng.choice(ids)
            roll = rng.random()
            if roll < 0.6 and len(ids) > 1:
                opp = rng.choice([i for i in ids if i != pid])
                outcome = rng.choice(OUTCOMES)
                log(pid, opp, outcome, day)
                second = rng.random()
                if second < 0.7:
                    log(opp, pid, MIRROR[outcome], day)
                elif second < 0.85:
                    log(opp, pid, rng.choice(OUTCOMES), day if rng.random() < 0.7 else day + 1)
            elif roll < 0.7 and stranger is not None:
                log(pid, stranger, rng.choice(OUTCOMES), day)
            else:
                log(pid, None, rng.choice(OUTCOMES), day)
        for chunk in range(0, len(rows), 500):
            Battle.insert_many(rows[chunk : chunk + 500]).execute()
    return int(camp.id)


def sologear(seed: int, turns: int = 6) -> int:
    """A Sologear campaign with one pilot and ``turns`` turns (reckoned or not, at random). Returns its id."""
    rng = random.Random(seed)
    with operation("test.setup", "generated Sologear campaign"):
        camp = Campaign.create(name=f"Sologear {seed}", system="sologear")
        reckoned = rng.random() < 0.6
        sheet = SologearSheet.create(
            campaign=camp,
            pilot=f"Pilot {seed}",
            gear_tv=rng.randint(10, 60),
            owner=rng.choice(("", "ann")),
            status="ended" if reckoned else "active",
            recognition=rng.randint(-5, 40) if reckoned else None,
            noticed=rng.random() < 0.5 if reckoned else None,
            result_table=rng.choice(("rewards", "punishments")) if reckoned else None,
            result=rng.randint(-6, 12) if reckoned else None,
            outcome=rng.choice(("a medal", "a reprimand")) if reckoned else None,
        )
        for n in range(1, turns + 1):
            SologearTurn.create(sheet=sheet, number=n, action=rng.choice(("dec", "rep", "fig")))
    return int(camp.id)
