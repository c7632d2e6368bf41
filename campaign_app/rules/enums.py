"""The closed sets of words the app stores and compares: a battle's outcome, the leader's fate, an attached
unit's kind.

Each is a ``StrEnum`` whose values are exactly the strings stored in the database (and written in campaign
files and ``--json`` output), so stored data needs no change: a member *is* its string (``Outcome.VICTORY ==
"victory"``, ``json.dumps`` writes ``"victory"``, SQLite stores ``victory``). Code compares with the members,
never with string literals, so a typo is a NameError, not a comparison that is silently never true. The words
shown to people are derived elsewhere (the GUI's and the printouts' labels); these values are keys.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """How a battle ended for the platoon (optional: a battle may have no outcome recorded)."""

    VICTORY = "victory"
    DEFEAT = "defeat"
    DRAW = "draw"


class LeaderFate(StrEnum):
    """RULES 1.2 step 3, the leader's fate after a battle (2d12). A casualty or a promoted leader leaves the
    platoon, and the leader's stored status becomes that same word."""

    CASUALTY = "casualty"
    PROMOTED = "promoted"
    STAYS = "stays"

    @property
    def leaves(self) -> bool:
        """The leader leaves the platoon (casualty or promoted): a replacement is rolled."""
        return self is not LeaderFate.STAYS


LEADER_LEAVES: tuple[LeaderFate, ...] = (LeaderFate.CASUALTY, LeaderFate.PROMOTED)
"""The fates (and the leader statuses) of a leader who left the platoon."""


class UnitKind(StrEnum):
    """An attached unit: an infantry team, a vehicle, or off-board fire support (which has a support level
    instead of attribute dice and Armor)."""

    TEAM = "team"
    VEHICLE = "vehicle"
    FIRE_SUPPORT = "fire_support"


class BoutWinner(StrEnum):
    """Who won a d12 Death Blow bout: the bout's fighter, the opponent (a fighter of the campaign or an outside
    opponent), or nobody."""

    FIGHTER = "fighter"
    OPPONENT = "opponent"
    DRAW = "draw"


class TurnAction(StrEnum):
    """A Sologear battle turn's action (RULES 2.2): decline, repair, or fight."""

    DEC = "dec"
    REP = "rep"
    FIG = "fig"


__all__ = ["LEADER_LEAVES", "BoutWinner", "LeaderFate", "Outcome", "TurnAction", "UnitKind"]
