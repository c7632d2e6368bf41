"""The rule tables a printed card (or help text) can name instead of copying them.

``rule_table(name)`` returns ``(headers, rows)`` as text, built from the very data and functions the engine
uses (experience, aftermath, odds, Sologear), so a card never disagrees with the rules. ``RULE_TABLE_NAMES``
lists every name; ``RULE_TABLES[name]`` has a one-line description. The engine modules are imported only
when a table is asked for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..errors import Refused

Rows = list[tuple[str, ...]]
TableData = tuple[tuple[str, ...], Rows]


class RuleTableError(Refused):
    """No rule table (or placeholder) of that name."""


@dataclass(frozen=True)
class CardRules:
    """The ⚙ house rules printed cards follow: a campaign's, or the defaults (``campaign`` None).

    ``thresholds`` is a :class:`~campaign_app.rules.experience.Thresholds` (None: the default). The printed
    cards read the engine's tables through :func:`rule_table` with these, and their text may name them with
    ``{{placeholders}}`` (:data:`PLACEHOLDERS`)."""

    campaign: str | None = None
    thresholds: Any = None
    objective_xp_to: str = "both"
    replacement_dice: int = 2
    period: int | None = None
    reward_dice: str = "1d6"
    variable_tables: bool = False
    ferocious: bool = False
    fighters: tuple[tuple[str, int, int, int], ...] = ()
    """A d12 Death Blow campaign's fighters: (name, level, XP toward the next level, lifetime XP)."""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def note(self) -> str:
        return f"Rules: campaign {self.campaign}" if self.campaign else "Rules: default rules"

    def levels(self) -> Any:
        from .experience import DEFAULT_THRESHOLDS

        return self.thresholds or DEFAULT_THRESHOLDS


def _placeholder_values(rules: CardRules) -> dict[str, str]:
    from .aftermath import period_sides, replacement_rule_text
    from .experience import LEVELS

    t = rules.levels().as_tuple()
    sides = period_sides(rules.period)
    return {
        "thresholds": ", ".join(f"{name} {xp}" for name, xp in zip(LEVELS[1:], t, strict=True)),
        "green": str(t[0]),
        "regular": str(t[1]),
        "veteran": str(t[2]),
        "legendary": str(t[3]),
        "objective_xp": ("platoon and leader" if rules.objective_xp_to == "both" else "the platoon only (house rule)"),
        "objective_xp_leader": (
            "the leader gets the same"
            if rules.objective_xp_to == "both"
            else "the leader gets only the +1 for coming through (house rule)"
        ),
        "replacement": replacement_rule_text(rules.replacement_dice),
        "replacement_dice": replacement_rule_text(rules.replacement_dice, sides),
        "period_die": f"d{sides}",
        "reward_dice": rules.reward_dice,
        "reward_tables": "the milder tables (house rule)" if rules.variable_tables else "the standard tables",
        "ferocious": "on" if rules.ferocious else "off",
        **rules.extra,
    }


PLACEHOLDERS: tuple[str, ...] = (
    "thresholds",
    "green",
    "regular",
    "veteran",
    "legendary",
    "objective_xp",
    "objective_xp_leader",
    "replacement",
    "replacement_dice",
    "period_die",
    "reward_dice",
    "reward_tables",
    "ferocious",
)
"""Names a card's text may use as ``{{name}}``; they print the campaign's value (or the default)."""
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")


def fill_placeholders(text: str, rules: CardRules | None = None) -> str:
    """``{{reward_dice}}`` -> "1d6" (the campaign's value); an unknown name raises RuleTableError."""
    if "{{" not in text:
        return text
    values = _placeholder_values(rules or CardRules())

    def one(m: re.Match[str]) -> str:
        try:
            return values[m.group(1)]
        except KeyError:
            raise RuleTableError(f"no placeholder {{{{{m.group(1)}}}}} (known: {', '.join(PLACEHOLDERS)})") from None

    return _PLACEHOLDER.sub(one, text)


@dataclass(frozen=True)
class RuleTable:
    name: str
    description: str
    build: Callable[[CardRules], TableData]
    house_rules: bool = False
    """The table changes with a campaign's house rules (its cards say whose rules they print)."""


def percent(p: float | Fraction) -> str:
    """A probability as a short percentage for a card: "0%", "<1%", "37%", ">99%", "100%"."""
    value = float(p) * 100
    if value <= 0:
        return "0%"
    if value >= 100:
        return "100%"
    if value < 0.5:
        return "<1%"
    if value > 99.5:
        return ">99%"
    return f"{value:.0f}%"


def _rows(rows: Sequence[Sequence[object]]) -> Rows:
    return [tuple(str(c) for c in r) for r in rows]


# --- Atomic Africa: experience (RULES 1.1) ------------------------------------------------------------------


def _aa_levels(rules: CardRules) -> TableData:
    from .experience import LEVEL_LETTERS, LEVELS

    thresholds = (0, *rules.levels().as_tuple())
    letters = ("–", *LEVEL_LETTERS)
    rows: Rows = [
        (name, f"{xp}+", letter, str(2 * rank))
        for rank, (name, xp, letter) in enumerate(zip(LEVELS, thresholds, letters, strict=True), start=1)
    ]
    return ("Level", "XP", "Track", "Cards"), rows


def _aa_orders_grid(rules: CardRules) -> TableData:
    from .experience import LEVELS, orders_cards

    thresholds = (0, *rules.levels().as_tuple())
    headers = ("Platoon", "no leader", *(name[0] for name in LEVELS))
    rows = []
    for p_rank, name in enumerate(LEVELS, start=1):
        rows.append(
            (
                f"{name} {thresholds[p_rank - 1]}+",
                str(orders_cards(p_rank, None)),
                *(str(orders_cards(p_rank, l_rank)) for l_rank in range(1, len(LEVELS) + 1)),
            )
        )
    return headers, rows


def _aa_attribute_dice(rules: CardRules) -> TableData:
    from .dice import DIE_SIDES
    from .experience import ATTRIBUTE_LEVEL_WORDS

    rows = [
        (f"{level}", f"d{sides}", *(ATTRIBUTE_LEVEL_WORDS[a][level - 1] for a in ("training", "equipment", "morale")))
        for level, sides in enumerate(DIE_SIDES, start=1)
    ]
    return ("Level", "Die", "Training", "Equipment", "Morale"), rows


def _aa_armor(rules: CardRules) -> TableData:
    from .experience import ARMOR_CLASSES

    return ("Armor", "Class"), [(str(k), v) for k, v in sorted(ARMOR_CLASSES.items())]


# --- Atomic Africa: aftermath and force generation (RULES 1.2, 1.3) ----------------------------------------


def _aa_replacement(rules: CardRules) -> TableData:
    from .aftermath import replacement_table

    headers, rows = replacement_table()
    rule = rules.replacement_dice
    out = [(period, f"{'2' if rule == 2 else '1'}{die}", xp) for period, die, xp in rows]
    if rules.period is not None:  # the campaign's own period first, marked
        out = [(f"{p} (this campaign)" if p == str(rules.period) else p, d, x) for p, d, x in out]
    headers = (headers[0], "Replacement roll" if rule == 2 else "Roll (house rule)", headers[2])
    return tuple(headers), _rows(out)


def _aa_recovery_sequence(rules: CardRules) -> TableData:
    from .aftermath import recovery_table

    headers, rows = recovery_table()
    return tuple(headers), _rows(rows)


def _aa_leader_fate(rules: CardRules) -> TableData:
    from .aftermath import leader_fate_table

    headers, rows = leader_fate_table()
    return tuple(headers), _rows(rows)


RECOVERY_WOUNDS: tuple[int, ...] = (2, 4, 6, 8, 10, 12, 16)
"""Wound counters the recovery-odds card shows (platoon XP high enough that it never runs out)."""
LEADER_WOUND_ROWS: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 8)
LEADER_XP_ROWS: tuple[int, ...] = (1, 2, 4, 6, 9, 12, 16, 20, 24)


def _aa_recovery_odds(rules: CardRules) -> TableData:
    from .odds import recovery_odds

    headers = ("Wounds", "0", "−1", "−2", "−3", "−4+")
    rows: Rows = []
    for wounds in RECOVERY_WOUNDS:
        dist = _distribution(recovery_odds(wounds, 32))
        cells = [percent(dist.get(k, 0)) for k in range(4)]
        cells.append(percent(sum((p for k, p in dist.items() if k >= 4), Fraction(0))))
        rows.append((str(wounds), *cells))
    return headers, rows


def _distribution(result: object) -> dict[int, Fraction]:
    """XP lost -> probability, from whatever shape ``odds.recovery_odds`` returns."""
    dist = getattr(result, "xp_lost", result)
    if isinstance(dist, dict):
        return {
            int(k): Fraction(v) if not isinstance(v, float) else Fraction(v).limit_denominator(10**12)
            for k, v in dist.items()
        }
    raise TypeError(f"unexpected recovery odds {result!r}")


def _fate_probs(result: object) -> dict[str, Fraction | float]:
    if isinstance(result, dict):
        return result
    from .enums import LeaderFate

    return {fate: getattr(result, fate) for fate in LeaderFate}


def _aa_leader_casualty(rules: CardRules) -> TableData:
    from .enums import LeaderFate
    from .odds import leader_odds

    rows: Rows = [(str(w), percent(_fate_probs(leader_odds(w, 0))[LeaderFate.CASUALTY])) for w in LEADER_WOUND_ROWS]
    return ("Wounds on his element", "Casualty"), rows


def _aa_leader_stays(rules: CardRules) -> TableData:
    from .enums import LeaderFate
    from .odds import leader_odds

    rows: Rows = []
    for xp in LEADER_XP_ROWS:
        probs = _fate_probs(leader_odds(0, xp))
        rows.append((str(xp), percent(probs[LeaderFate.STAYS]), percent(probs[LeaderFate.PROMOTED])))
    return ("Leader XP", "Stays", "Promoted"), rows


def _aa_force_odds(rules: CardRules) -> TableData:
    """Chance of each experience level for the platoon and for its leader, by campaign period, found by
    applying the engine's force-generation rule to every pair of faces. Levels no die can reach are left
    out."""
    from .aftermath import PERIODS, force_record, period_sides
    from .experience import LEVELS, level_rank

    table: list[tuple[str, str, list[Fraction]]] = []
    for period in PERIODS:
        sides = period_sides(period)
        counts = {"platoon": [0] * len(LEVELS), "leader": [0] * len(LEVELS)}
        for a in range(1, sides + 1):
            for b in range(1, sides + 1):
                result = force_record([a, b], "entered", period)
                counts["platoon"][level_rank(result.platoon_xp, rules.levels()) - 1] += 1
                counts["leader"][level_rank(result.leader_xp, rules.levels()) - 1] += 1
        for side in ("platoon", "leader"):
            label = f"{period} (d{sides})" if side == "platoon" else ""
            table.append((label, side, [Fraction(n, sides * sides) for n in counts[side]]))
    used = [i for i in range(len(LEVELS)) if any(probs[i] for _, _, probs in table)]
    headers = ("Period", "For", *(LEVELS[i][0] for i in used))
    return headers, [(label, side, *(percent(probs[i]) for i in used)) for label, side, probs in table]


# --- Sologear (RULES 2) ------------------------------------------------------------------------------------

SOLOGEAR_TABLES: dict[str, tuple[str, str]] = {
    # our name -> (key in sologear.card_tables(), description)
    "sologear.skill": ("skill", "skill multipliers (RULES 2.1)"),
    "sologear.loyalty": ("loyalty", "loyalty multipliers (RULES 2.1)"),
    "sologear.odds": ("odds", "campaign odds bands (RULES 2.1)"),
    "sologear.postures": ("postures", "FIG postures and their modifiers (RULES 2.2)"),
    "sologear.combat": ("combat", "combat table: 2d6 + posture by campaign odds (RULES 2.2)"),
    "sologear.combat_key": ("combat_key", "what the combat table's symbols mean (RULES 2.2)"),
    "sologear.enemy_quality": ("enemy_quality", "enemy unit TV by 1d6 and the pilot's Gear TV (RULES 2.2)"),
    "sologear.entry_edge": ("entry_edge", "map edge the pilot enters from, 1d4 (RULES 2.2)"),
    "sologear.recognition": ("recognition", "recognition and impression points (RULES 2.3)"),
    "sologear.noticed": ("noticed", "D66 needed to be noticed, by recognition (RULES 2.3)"),
    "sologear.rewards": ("rewards", "rewards table (RULES 2.3)"),
    "sologear.punishments": ("punishments", "punishments table (RULES 2.3)"),
    "sologear.variable_rewards": ("variable_rewards", "optional milder rewards table (RULES 2.3)"),
    "sologear.variable_punishments": ("variable_punishments", "optional milder punishments table (RULES 2.3)"),
}


def _sologear(key: str) -> Callable[[CardRules], TableData]:
    def build(rules: CardRules) -> TableData:
        from .sologear.table_text import card_tables

        tables = card_tables()
        if key not in tables:
            raise RuleTableError(f"sologear.card_tables() has no table {key!r} (it has: {', '.join(tables)})")
        headers, rows = tables[key]
        return tuple(str(h) for h in headers), _rows(rows)

    return build


# --- d12 Death Blow (RULES 5) --------------------------------------------------------------------------------


def _db_styles(rules: CardRules) -> TableData:
    from .death_blow import SCALE, STYLE_NAMES, attack_defense

    rows: Rows = []
    for style in reversed(SCALE):  # most offensive first, as the sheet prints it
        attack, defense = attack_defense(style, (9, 4))
        rows.append((STYLE_NAMES[style], _dice_words(attack, "attack"), _dice_words(defense, "defense")))
    return ("Style", "Attack", "Defense"), rows


def _dice_words(value: int, _what: str) -> str:
    """The Scale of Styles in words, read off the engine with dice 9 and 4: 13 = both, 9 = high, 4 = low."""
    return {13: "both dice", 9: "high die", 4: "low die", 0: "0"}[value]


BLANK_FIGHTER_ROWS = 5


def _db_fighters(rules: CardRules) -> TableData:
    headers = ("Fighter", "Level", "XP", "Face card speed", "Signature +")
    if not rules.fighters:
        return headers, [("", "", "/12", "", "") for _ in range(BLANK_FIGHTER_ROWS)]
    return headers, [
        (name, str(level), "last level" if level >= 11 else f"{xp}/12", str(level), f"+{level}")
        for name, level, xp, _life in rules.fighters
    ]


def _db_levels(rules: CardRules) -> TableData:
    from .death_blow import MAX_LEVEL, XP_PER_LEVEL

    return (
        ("Level", "Face card speed", "Signature +", "XP to reach it"),
        [(str(lv), str(lv), f"+{lv}", str(lv * XP_PER_LEVEL)) for lv in range(MAX_LEVEL + 1)],
    )


# --- the registry ------------------------------------------------------------------------------------------

_ENTRIES: tuple[RuleTable, ...] = (
    RuleTable(
        "aa.experience_levels",
        "experience levels, XP thresholds, letters and orders cards (RULES 1.1)",
        _aa_levels,
        True,
    ),
    RuleTable(
        "aa.orders_cards", "orders cards per turn by platoon and leader level (RULES 1.1)", _aa_orders_grid, True
    ),
    RuleTable("aa.attribute_dice", "attribute dice levels and their words (RULES 1.1)", _aa_attribute_dice),
    RuleTable("aa.armor", "Armor values and classes (RULES 1.1)", _aa_armor),
    RuleTable(
        "aa.replacement_die",
        "replacement leader / force generation die by period (RULES 1.2, 1.3)",
        _aa_replacement,
        True,
    ),
    RuleTable("aa.recovery_sequence", "recovery rolls 1d8, 2d8, ... (RULES 1.2)", _aa_recovery_sequence),
    RuleTable("aa.leader_fate", "leader's fate on 2d12 (RULES 1.2)", _aa_leader_fate),
    RuleTable("aa.recovery_odds", "exact odds of XP lost in recovery by wound counters (RULES 1.2)", _aa_recovery_odds),
    RuleTable(
        "aa.leader_casualty_odds",
        "exact odds the leader is a casualty, by wound counters (RULES 1.2)",
        _aa_leader_casualty,
    ),
    RuleTable(
        "aa.leader_stays_odds", "exact odds the leader stays or is promoted, by XP (RULES 1.2)", _aa_leader_stays
    ),
    RuleTable(
        "aa.force_generation_odds", "exact odds of each level from force generation (RULES 1.3)", _aa_force_odds, True
    ),
    *(RuleTable(name, description, _sologear(key)) for name, (key, description) in SOLOGEAR_TABLES.items()),
    RuleTable("death_blow.styles", "the Scale of Styles: Attack and Defense of each style (RULES 5.2)", _db_styles),
    RuleTable(
        "death_blow.levels",
        "what each level gives: face card speed, signature bonus, lifetime XP (RULES 5.1)",
        _db_levels,
    ),
    RuleTable(
        "death_blow.fighters",
        "the campaign's fighters: level, XP, face card speed, signature bonus (RULES 5.1)",
        _db_fighters,
        True,
    ),
)

RULE_TABLES: dict[str, RuleTable] = {entry.name: entry for entry in _ENTRIES}
RULE_TABLE_NAMES: tuple[str, ...] = tuple(RULE_TABLES)


def rule_table(name: str, rules: CardRules | None = None) -> TableData:
    """``(headers, rows)`` of the rule table ``name`` (all cells text), for a campaign's house ``rules``
    (None: the default rules)."""
    try:
        entry = RULE_TABLES[name]
    except KeyError:
        raise RuleTableError(f"no rule table {name!r} (known: {', '.join(RULE_TABLE_NAMES)})") from None
    headers, rows = entry.build(rules or CardRules())
    return tuple(headers), _rows(rows)
