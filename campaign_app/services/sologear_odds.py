"""The odds a Sologear player sees before each roll (RULES.md 2.2, 2.3): the next turn's combat roll on its
column with a posture, being noticed with the recognition so far, the reward or punishment bands. Read-only;
the rules are in :mod:`campaign_app.rules.sologear.odds`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.sologear.combat import POSTURES
from ..rules.sologear.odds import KINDS, CombatOdds, combat_odds, noticed_chance, result_odds
from ..rules.sologear.reckoning import check_reward_dice
from .common import ServiceError
from .sologear_play import check_turn_posture
from .sologear_sheet import sheet_data


@dataclass(frozen=True)
class TurnOdds:
    """The next turn's odds: the combat roll's rows and the chance of each kind of result, being noticed
    with the recognition so far, and the reward or punishment bands (given that the pilot is noticed)."""

    campaign: str
    combat: CombatOdds
    recognition: int
    noticed: float
    impression: int
    reward_dice: str
    bands: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        c = self.combat
        return {
            "campaign": self.campaign,
            "column": c.column,
            "posture": c.posture,
            "breakout": c.breakout,
            "rows": [
                {"total": r.total, "probability": float(r.probability), "result": r.result, "meaning": r.words}
                for r in c.rows
            ],
            "kinds": {kind: float(p) for kind, p in c.kinds().items()},
            "recognition": self.recognition,
            "noticed": self.noticed,
            "impression": self.impression,
            "reward_dice": self.reward_dice,
            "bands": list(self.bands),
        }


def turn_odds(ref: int, posture: int | None = None) -> TurnOdds:
    """The odds for the sheet's next turn. ``posture`` −2..+2 (default 0, or the break-out's fixed Bold);
    refused when no turn can be played and no column is known."""
    data = sheet_data(ref)
    nxt = data.next
    if posture is None:
        posture = nxt.posture_fixed if nxt.posture_fixed is not None else 0
    posture = check_turn_posture(posture)
    assert posture is not None
    if nxt.posture_fixed is not None and posture != nxt.posture_fixed:
        raise ServiceError(
            f"in the break-out the pilot always fights {POSTURES[nxt.posture_fixed]} "
            f"({nxt.posture_fixed:+d}), not {posture:+d}"
        )
    if not nxt.breakout and nxt.band is None:
        raise ServiceError("no odds column yet: add units to both sides of the sheet first")
    combat = combat_odds(nxt.band or "Losing", posture, breakout=nxt.breakout)
    rk = data.reckoning
    dice = check_reward_dice(data.options.reward_dice)
    bands = tuple(
        {"table": b.table, "range": b.label, "title": b.title, "probability": float(b.probability)}
        for b in result_odds(dice, rk.impression, variable=data.options.variable_tables)
    )
    return TurnOdds(
        data.name,
        combat,
        rk.recognition,
        float(noticed_chance(rk.recognition)),
        rk.impression,
        data.options.reward_dice,
        bands,
    )


def kind_words() -> dict[str, str]:
    return dict(KINDS)
