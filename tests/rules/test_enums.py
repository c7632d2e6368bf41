"""The enums of stored words: their values are exactly what the database allows (so stored data needs no
change), and a member is its string everywhere it goes (comparison, JSON, SQLite)."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from campaign_app.rules.aftermath import FATES, leader_fate
from campaign_app.rules.enums import LEADER_LEAVES, LeaderFate, Outcome, UnitKind
from campaign_app.store.database import db


def _allowed(table: str, column: str) -> set[str]:
    """The words the migrated database's CHECK allows in ``table.column`` (``column IN ('a', 'b')``)."""
    (sql,) = db.execute_sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
    found = re.search(rf"\b{column}\s+IN\s*\(([^)]*)\)", sql, re.IGNORECASE)
    assert found, sql
    return set(re.findall(r"'([^']*)'", found.group(1)))


@pytest.mark.parametrize(
    ("enum", "table", "column"),
    [
        (Outcome, "battle", "outcome"),
        (LeaderFate, "battle", "leader_fate"),
        (UnitKind, "attached_unit", "kind"),
    ],
)
def test_values_are_the_stored_words(fresh_db, enum, table, column):  # type: ignore[no-untyped-def]
    assert {m.value for m in enum} == _allowed(table, column)


def test_a_leader_who_left_has_the_fate_as_status(fresh_db):  # type: ignore[no-untyped-def]
    assert {f.value for f in LEADER_LEAVES} <= _allowed("leader", "status")
    assert [f for f in LeaderFate if f.leaves] == list(LEADER_LEAVES)


def test_a_member_is_its_string():
    assert Outcome.VICTORY == "victory" and Outcome.DRAW == "draw" and {"team": 1}[UnitKind.TEAM] == 1
    assert f"{LeaderFate.STAYS}" == str(LeaderFate.STAYS) == "stays"
    assert json.dumps({LeaderFate.CASUALTY: [Outcome.DEFEAT]}) == '{"casualty": ["defeat"]}'
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE t (x TEXT)")
    con.execute("INSERT INTO t VALUES (?)", (UnitKind.FIRE_SUPPORT,))
    assert con.execute("SELECT x, typeof(x) FROM t").fetchone() == ("fire_support", "text")


def test_the_rules_return_members():
    assert FATES == (LeaderFate.CASUALTY, LeaderFate.PROMOTED, LeaderFate.STAYS)
    assert leader_fate(2, 3, 5) is LeaderFate.CASUALTY
    assert leader_fate(5, 3, 5) is LeaderFate.PROMOTED
    assert leader_fate(24, 3, 5) is LeaderFate.STAYS


def test_the_battle_service_gives_an_outcome_as_a_member():
    from campaign_app.commands.battle import outcome_arg
    from campaign_app.services.battles import check_outcome

    assert check_outcome("victory") is Outcome.VICTORY  # the stored value (the GUI's picker, a campaign file)
    assert check_outcome(Outcome.DRAW) is Outcome.DRAW
    assert check_outcome(None) is None
    assert outcome_arg(" Victory ") is Outcome.VICTORY  # what a user types is read by the CLI
    assert outcome_arg("none") is None
