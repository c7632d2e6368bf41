"""Every Sologear table as rows of strings, for the printed play-aid cards, the sheet and the help. It reads
the tables of the rule modules; nothing here is a table of its own."""

from __future__ import annotations

from .combat import (
    COMBAT_SYMBOLS,
    COMBAT_TABLE,
    ENEMY_QUALITY_COLUMNS,
    ENEMY_QUALITY_TABLE,
    ENTRY_EDGES,
    POSTURES,
    enemy_column_label,
)
from .forces import BAND_NAMES, LOYALTY_MULTIPLIERS, ODDS_BANDS, SKILL_MULTIPLIERS
from .reckoning import (
    IMPRESSION_POINTS,
    NOTICED_BANDS,
    PUNISHMENTS,
    RECOGNITION_POINTS,
    REWARDS,
    VARIABLE_PUNISHMENTS,
    VARIABLE_REWARDS,
    range_label,
)

# =========================================================================================================
# Play-aid cards: the very tables above, as strings
# =========================================================================================================


def _num(x: float) -> str:
    return f"{x:g}"


def card_tables() -> dict[str, tuple[list[str], list[list[str]]]]:
    """Every Sologear table as (headers, rows) of strings, for the printed play-aid cards and the help."""
    tables: dict[str, tuple[list[str], list[list[str]]]] = {}
    tables["skill"] = (["Skill", "×"], [[k.capitalize(), _num(v)] for k, v in SKILL_MULTIPLIERS.items()])
    tables["loyalty"] = (["Loyalty", "×"], [[k.capitalize(), _num(v)] for k, v in LOYALTY_MULTIPLIERS.items()])
    op_text = {">=": "≥", ">": ">"}
    tables["odds"] = (
        ["Odds (player ÷ enemy)", "Band"],
        [[f"{op_text[op]} {t}" if op != "else" else "otherwise", band] for band, op, t in ODDS_BANDS],
    )
    tables["postures"] = (["X", "Posture"], [[f"{x:+d}" if x else "0", name] for x, name in POSTURES.items()])
    tables["combat"] = (["2D6+X", *BAND_NAMES], [[str(i), *row] for i, row in enumerate(COMBAT_TABLE)])
    tables["combat_key"] = (["Symbol", "Meaning"], [[s, m] for s, m in COMBAT_SYMBOLS])
    tables["enemy_quality"] = (
        ["D6", *(enemy_column_label(i) for i in range(len(ENEMY_QUALITY_COLUMNS)))],
        [[str(i), *(str(v) for v in row)] for i, row in enumerate(ENEMY_QUALITY_TABLE, start=1)],
    )
    tables["entry_edge"] = (["D4", "Edge"], [[str(k), v] for k, v in ENTRY_EDGES.items()])
    tables["recognition"] = (
        ["Deed", "Recognition", "Impression"],
        [
            ["DEC", f"+{RECOGNITION_POINTS['dec']} each", f"{IMPRESSION_POINTS['dec']} each"],
            ["REP", f"+{RECOGNITION_POINTS['rep']} each", f"{IMPRESSION_POINTS['rep']} each"],
            ["FIG(X)", "+X if X > 0", "X if X < 0"],
            ["Glory", f"+{RECOGNITION_POINTS['glory']} each", f"+{IMPRESSION_POINTS['glory']} each"],
            ["Bunker", f"+{RECOGNITION_POINTS['bunkers']} each", f"+{IMPRESSION_POINTS['bunkers']} each"],
            ["Enemy TV", f"+{RECOGNITION_POINTS['units']} per full 100", f"+{IMPRESSION_POINTS['units']} per full 100"],
        ],
    )
    tables["noticed"] = (
        ["Recognition", "Noticed on D66"],
        [
            [range_label(lo, hi) if lo else f"{hi} or less", "never" if lim is None else f"11–{lim}"]
            for lo, hi, lim in NOTICED_BANDS
        ],
    )
    for name, bands in (
        ("rewards", REWARDS),
        ("punishments", PUNISHMENTS),
        ("variable_rewards", VARIABLE_REWARDS),
        ("variable_punishments", VARIABLE_PUNISHMENTS),
    ):
        tables[name] = (["Roll", "Result"], [[b.label, f"{b.title}: {b.text}"] for b in bands])
    return tables
