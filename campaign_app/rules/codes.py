"""The stored codes of rolls and their display text: one table, the only source of both.

A roll row stores *codes* (``roll.purpose``, ``roll.rule``), short and stable, never the words shown to the
user; the words are derived here (:func:`purpose_text`, :func:`rule_text`) wherever a roll is shown (the GUI,
the CLI's text output, the history report). Renaming a display text is then a change of this table only;
stored rows, undo and exported files keep working. A code is never renamed (migration ``0004`` converted the
labels older versions stored).

============================ ================================== ===========================================
code                         display text                       where it is rolled
============================ ================================== ===========================================
*purposes* (``roll.purpose``)
recovery                     recovery                           Atomic Africa §1.2 step 2
leader_fate                  leader's fate                      §1.2 step 3
replacement_leader           replacement leader                 §1.2 step 4
force_generation             force generation                   §1.3
campaign_length              campaign length                    Sologear §2.1
repair_time                  repair time                        §2.2 REP
combat                       combat table                       §2.2 FIG
glory                        Glory markers                      §2.2
enemy_quality                enemy quality                      §2.2
light_critical               light critical check               §2.2 hit on the way in (#)
battle_length                battle length                      §2.2 battlefield
entry_edge                   entry edge                         §2.2 battlefield
noticed                      noticed? (D66)                     §2.3
rewards                      rewards roll                       §2.3
punishments                  punishments roll                   §2.3
*rules* (``roll.rule``)
aa.1.2.award                 RULES 1.2 award                    (the award is not a roll; shown with it)
aa.1.2.recovery              RULES 1.2 recovery
aa.1.2.leader_fate           RULES 1.2 leader's fate
aa.1.2.replacement           RULES 1.2 replacement leader
aa.1.3.force                 RULES 1.3 force generation
sg.2.1.length                2.1 campaign length
sg.2.2.repair                2.2 REP
sg.2.2.combat                2.2 combat table
sg.2.2.glory                 2.2 Glory
sg.2.2.enemy_quality         2.2 enemy quality
sg.2.2.hit                   2.2 hit on the way in (#)
sg.2.2.battlefield           2.2 battlefield
sg.2.3.noticed               2.3 noticed
sg.2.3.rewards               2.3 rewards
sg.2.3.punishments           2.3 punishments
sg.2.3.rewards.variable      2.3 rewards (variable)
sg.2.3.punishments.variable  2.3 punishments (variable)
*Sologear end reasons* (``sologear_sheet.end_reason``)
turns_used_up                all battle turns were played
surrendered                  surrounded: the pilot surrendered
routed                       the army was routed
broke_through                the pilot broke through (ferocious battles)
pilot_dead                   the pilot is dead
pilot_captured               the pilot was captured
============================ ================================== ===========================================

The dictionaries below are this table (a test checks that the two agree).
A code this version does not know (a row written by a newer version) is shown as it is stored.
"""

from __future__ import annotations

PURPOSES: dict[str, str] = {
    "recovery": "recovery",
    "leader_fate": "leader's fate",
    "replacement_leader": "replacement leader",
    "force_generation": "force generation",
    "campaign_length": "campaign length",
    "repair_time": "repair time",
    "combat": "combat table",
    "glory": "Glory markers",
    "enemy_quality": "enemy quality",
    "light_critical": "light critical check",
    "battle_length": "battle length",
    "entry_edge": "entry edge",
    "noticed": "noticed? (D66)",
    "rewards": "rewards roll",
    "punishments": "punishments roll",
}
"""Roll purpose code -> the words shown for it."""

RULES: dict[str, str] = {
    "aa.1.2.award": "RULES 1.2 award",
    "aa.1.2.recovery": "RULES 1.2 recovery",
    "aa.1.2.leader_fate": "RULES 1.2 leader's fate",
    "aa.1.2.replacement": "RULES 1.2 replacement leader",
    "aa.1.3.force": "RULES 1.3 force generation",
    "sg.2.1.length": "2.1 campaign length",
    "sg.2.2.repair": "2.2 REP",
    "sg.2.2.combat": "2.2 combat table",
    "sg.2.2.glory": "2.2 Glory",
    "sg.2.2.enemy_quality": "2.2 enemy quality",
    "sg.2.2.hit": "2.2 hit on the way in (#)",
    "sg.2.2.battlefield": "2.2 battlefield",
    "sg.2.3.noticed": "2.3 noticed",
    "sg.2.3.rewards": "2.3 rewards",
    "sg.2.3.punishments": "2.3 punishments",
    "sg.2.3.rewards.variable": "2.3 rewards (variable)",
    "sg.2.3.punishments.variable": "2.3 punishments (variable)",
}
"""Rule code -> the rule reference shown with a roll."""

END_REASONS: dict[str, str] = {
    "turns_used_up": "all battle turns were played",
    "surrendered": "surrounded: the pilot surrendered",
    "routed": "the army was routed",
    "broke_through": "the pilot broke through (ferocious battles)",
    "pilot_dead": "the pilot is dead",
    "pilot_captured": "the pilot was captured",
}
"""Why a Sologear campaign ended (``sologear_sheet.end_reason``) -> the words shown for it."""

# the codes the engines use (names for the table's keys)
PURPOSE_RECOVERY = "recovery"
PURPOSE_LEADER = "leader_fate"
PURPOSE_REPLACEMENT = "replacement_leader"
PURPOSE_FORCE = "force_generation"
PURPOSE_LENGTH = "campaign_length"
PURPOSE_REPAIR = "repair_time"
PURPOSE_COMBAT = "combat"
PURPOSE_GLORY = "glory"
PURPOSE_ENEMY = "enemy_quality"
PURPOSE_LIGHT_CRITICAL = "light_critical"
PURPOSE_BATTLE_LENGTH = "battle_length"
PURPOSE_ENTRY_EDGE = "entry_edge"
PURPOSE_NOTICED = "noticed"
PURPOSE_REWARDS = "rewards"
PURPOSE_PUNISHMENTS = "punishments"
RESULT_PURPOSES = (PURPOSE_REWARDS, PURPOSE_PUNISHMENTS)
"""The reckoning's reward or punishment roll."""

RULE_AWARD = "aa.1.2.award"
RULE_RECOVERY = "aa.1.2.recovery"
RULE_LEADER = "aa.1.2.leader_fate"
RULE_REPLACEMENT = "aa.1.2.replacement"
RULE_FORCE = "aa.1.3.force"
RULE_LENGTH = "sg.2.1.length"
RULE_REPAIR = "sg.2.2.repair"
RULE_COMBAT = "sg.2.2.combat"
RULE_GLORY = "sg.2.2.glory"
RULE_ENEMY = "sg.2.2.enemy_quality"
RULE_HIT = "sg.2.2.hit"
RULE_BATTLEFIELD = "sg.2.2.battlefield"
RULE_NOTICED = "sg.2.3.noticed"
RECKONING_RULE_PREFIX = "sg.2.3."
"""Every roll of the reckoning (RULES 2.3) has a rule code starting with this."""

END_TURNS_USED_UP = "turns_used_up"
END_PILOT_DEAD = "pilot_dead"
END_PILOT_CAPTURED = "pilot_captured"


def result_rule(table: str, variable: bool) -> str:
    """The rule code of the reckoning's ``rewards``/``punishments`` roll."""
    code = f"sg.2.3.{table}" + (".variable" if variable else "")
    if code not in RULES:
        raise KeyError(f"no result table {table!r}")
    return code


def purpose_text(code: str | None) -> str:
    """The words shown for a roll's purpose code (an unknown code is shown as it is)."""
    return PURPOSES.get(code or "", code or "")


def rule_text(code: str | None) -> str:
    """The rule reference shown for a roll's rule code (an unknown code is shown as it is)."""
    return RULES.get(code or "", code or "")


def end_reason_text(code: str | None) -> str:
    """The words shown for why a Sologear campaign ended."""
    return END_REASONS.get(code or "", code or "")


# --- what versions before schema 4 stored ----------------------------------------------------------------

LEGACY_PURPOSES: dict[str, str] = {text: code for code, text in PURPOSES.items()}
"""The purpose words stored before schema 4 (the display texts of that time) -> the code. Used to read
campaign files exported by those versions; migration 0004 has its own frozen copy (a test keeps them equal)."""
LEGACY_RULES: dict[str, str] = {text: code for code, text in RULES.items()}
"""The rule references stored before schema 4 -> the code."""
LEGACY_END_REASONS: dict[str, str] = {
    "turns used up": END_TURNS_USED_UP,
    "pilot dead": END_PILOT_DEAD,
    "pilot captured": END_PILOT_CAPTURED,
}
"""The end reasons stored before schema 4 that are not codes -> the code."""


def upgrade_row(table: str, row: dict[str, object]) -> dict[str, object]:
    """A row as versions before schema 4 stored it (from a campaign file) with its labels turned into codes;
    a row already in codes is returned unchanged."""
    out = dict(row)
    if table == "roll":
        purpose, rule = out.get("purpose"), out.get("rule")
        if isinstance(purpose, str) and purpose not in PURPOSES and purpose in LEGACY_PURPOSES:
            out["purpose"] = LEGACY_PURPOSES[purpose]
        if isinstance(rule, str) and rule not in RULES and rule in LEGACY_RULES:
            out["rule"] = LEGACY_RULES[rule]
    elif table == "sologear_sheet":
        reason = out.get("end_reason")
        if isinstance(reason, str) and reason in LEGACY_END_REASONS:
            out["end_reason"] = LEGACY_END_REASONS[reason]
    elif table == "sologear_turn":
        state = out.get("state_before")
        if (
            isinstance(state, dict)
            and isinstance(state.get("end_reason"), str)
            and state["end_reason"] in LEGACY_END_REASONS
        ):
            out["state_before"] = {**state, "end_reason": LEGACY_END_REASONS[state["end_reason"]]}
        elif isinstance(state, str) and any(f'"{old}"' in state for old in LEGACY_END_REASONS):
            import json

            try:
                parsed = json.loads(state)
            except ValueError:
                return out
            if isinstance(parsed, dict):
                out["state_before"] = json.dumps(upgrade_row(table, {"state_before": parsed})["state_before"])
    return out
