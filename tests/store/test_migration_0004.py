"""Migration 0004 on a database of schema 3 holding what older versions stored: labels become codes, names
that are the same under the new case rule are told apart, two active leaders become one; data that cannot be
mended without guessing refuses the upgrade, naming the rows, and the file is put back. And the runner: foreign
keys are off only for a migration that declares it, and checked before its commit."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from campaign_app.store import MigrationFailedError, check_database, close_db, init_db
from campaign_app.store import migrate as store_migrate
from campaign_app.store.errors import DatabaseError
from campaign_app.store.migrate import Migration, available_migrations
from campaign_app.store.models import (
    AttachedUnit,
    Campaign,
    Leader,
    Platoon,
    Roll,
    SchemaMigration,
    SologearSheet,
    SologearTurn,
    name_key,
)
from tests.ids import sheet_id

NOW = "2026-01-01 12:00:00"
DEFAULTS: dict[str, dict[str, Any]] = {
    "campaign": dict(
        system="atomic_africa",
        threshold_green=1,
        threshold_regular=4,
        threshold_veteran=9,
        threshold_legendary=16,
        objective_xp_to="both",
        replacement_dice=2,
        archived=0,
        notes="",
        created_at=NOW,
    ),
    "platoon": dict(training=10, equipment=10, morale=8, armor=2, xp=6, notes="", created_at=NOW),
    "attached_unit": dict(kind="team", training=8, equipment=8, morale=8, armor=2, notes="", position=0),
    "leader": dict(rank="Lieutenant", xp=3, xp_at_join=3, status="active", notes=""),
    "battle": dict(
        date="2026-01-01",
        scenario="",
        opponent="",
        objectives=0,
        fire_support=0,
        notes="",
        wounds=0,
        leader_wounds=0,
        platoon_xp_before=5,
        platoon_xp_after=6,
        xp_lost=0,
        created_at=NOW,
    ),
    "sologear_sheet": dict(
        date="",
        area="",
        gear_name="",
        gear_tv=650,
        player_unit="",
        player_affiliation="",
        enemy_unit="",
        enemy_affiliation="",
        variable_tables=1,
        ferocious=0,
        reward_dice="1d6",
        gear_damaged=0,
        short_ammo=0,
        pilot_status="active",
        status="active",
        notes="",
        created_at=NOW,
    ),
    "sologear_turn": dict(
        recorded=1,
        glory_collected=0,
        enemy_tv_destroyed=0,
        bunkers_destroyed=0,
        gear_damaged=0,
        short_ammo=0,
        pilot_dead=0,
        pilot_captured=0,
        notes="",
        created_at=NOW,
    ),
    "roll": dict(
        seq=0, expression="2d12", faces="[7, 9]", modifier=0, total=16, source="app", outcome="", created_at=NOW
    ),
}


def _insert(con: sqlite3.Connection, table: str, **values: Any) -> int:
    row = {**DEFAULTS[table], **values}
    cols = ", ".join(f'"{c}"' for c in row)
    cur = con.execute(f'INSERT INTO "{table}" ({cols}) VALUES ({", ".join("?" for _ in row)})', list(row.values()))
    return int(cur.lastrowid or 0)


def _schema_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty database of schema 3 (the migrations before 0004), closed."""
    close_db()
    path = tmp_path / "old" / "campaign.db"
    real = store_migrate.available_migrations
    monkeypatch.setattr(store_migrate, "available_migrations", lambda folder=None: real(folder)[:3])
    init_db(path, tmp_path / "old" / "backups", daily_backup=False)
    close_db()
    monkeypatch.setattr(store_migrate, "available_migrations", real)
    return path


@contextmanager
def _unrecorded(con: sqlite3.Connection) -> Iterator[None]:
    """Raw writes as an older version made them: with the journal's triggers (0003) switched off."""
    journal = con.execute("SELECT 1 FROM sqlite_master WHERE name = 'journal_state'").fetchone() is not None
    if journal:
        con.execute("UPDATE journal_state SET mode = 'off' WHERE id = 1")
    try:
        yield
    finally:
        if journal:
            con.execute("UPDATE journal_state SET mode = 'record' WHERE id = 1")


def _old_data(path: Path) -> dict[str, int]:
    """Rows as versions before schema 4 wrote them, with every quirk 0004 mends."""
    ids: dict[str, int] = {}
    con = sqlite3.connect(path)
    with con, _unrecorded(con):
        ids["front"] = _insert(con, "campaign", name="Über Front")
        ids["front2"] = _insert(con, "campaign", name="über front (2)")
        ids["front3"] = _insert(con, "campaign", name="über front")  # the same as "Über Front" now
        ids["hill"] = _insert(con, "campaign", name="Hill 214", system="sologear")
        ids["p1"] = _insert(con, "platoon", campaign_id=ids["front"], name="Straße")
        ids["p2"] = _insert(con, "platoon", campaign_id=ids["front"], name="STRASSE")
        ids["p3"] = _insert(con, "platoon", campaign_id=ids["front3"], name="Straße")  # another campaign
        ids["p4"] = _insert(con, "platoon", campaign_id=ids["front2"], name="2nd Platoon", xp=6)
        ids["a1"] = _insert(con, "attached_unit", platoon_id=ids["p1"], name="MG Team")
        ids["a2"] = _insert(con, "attached_unit", platoon_id=ids["p1"], name="mg  team", position=1)
        ids["l1"] = _insert(con, "leader", platoon_id=ids["p1"], name="Lt. Old", joined_at="2026-01-01 10:00:00")
        ids["l2"] = _insert(con, "leader", platoon_id=ids["p1"], name="Lt. New", joined_at="2026-01-02 10:00:00")
        ids["b1"] = _insert(
            con, "battle", platoon_id=ids["p1"], number=1, leader_xp_before=3, leader_xp_after=4, leader_fate="stays"
        )
        ids["r_fate"] = _insert(
            con,
            "roll",
            platoon_id=ids["p1"],
            battle_id=ids["b1"],
            leader_id=ids["l2"],
            purpose="leader's fate",
            rule="RULES 1.2 leader's fate",
        )
        ids["r_rec"] = _insert(
            con, "roll", platoon_id=ids["p1"], battle_id=ids["b1"], purpose="recovery", rule="RULES 1.2 recovery", seq=1
        )
        ids["r_odd"] = _insert(con, "roll", platoon_id=ids["p1"], purpose="a house roll", rule="house rule 7")
        ids["sheet"] = _insert(
            con,
            "sologear_sheet",
            campaign_id=ids["hill"],
            pilot="Janne",
            length=1,
            status="ended",
            end_reason="turns used up",
        )
        ids["turn"] = _insert(
            con,
            "sologear_turn",
            sheet_id=ids["sheet"],
            number=1,
            action="fig",
            posture=0,
            state_before=json.dumps(
                {
                    "gear_damaged": False,
                    "short_ammo": False,
                    "pilot_status": "active",
                    "status": "ended",
                    "end_reason": "pilot dead",
                }
            ),
        )
        ids["r_combat"] = _insert(
            con,
            "roll",
            sheet_id=ids["sheet"],
            turn_id=ids["turn"],
            purpose="combat table",
            rule="2.2 combat table",
            expression="2d6",
        )
        ids["r_reward"] = _insert(
            con,
            "roll",
            sheet_id=ids["sheet"],
            purpose="rewards roll",
            rule="2.3 rewards (variable)",
            expression="1d6+2",
        )
        ids["r_length"] = _insert(
            con, "roll", sheet_id=ids["sheet"], purpose="campaign length", rule="2.1 campaign length", expression="1d6"
        )
    con.close()
    return ids


def test_0004_converts_and_mends_old_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    path = _schema_3(tmp_path, monkeypatch)
    ids = _old_data(path)
    database = init_db(path, tmp_path / "old" / "backups")
    assert SchemaMigration.select().count() == len(available_migrations())
    assert list((tmp_path / "old" / "backups").glob("campaign-*-upgrade.db"))
    # names: the older row keeps its name, a later one that is the same under the case rule is numbered
    names = {c.id: (c.name, c.name_key) for c in Campaign.select()}
    assert names[ids["front"]] == ("Über Front", "über front")
    assert names[ids["front2"]] == ("über front (2)", "über front (2)")
    assert names[ids["front3"]] == ("über front (3)", "über front (3)")
    assert Platoon.get_by_id(ids["p2"]).name == "STRASSE (2)"
    assert (Platoon.get_by_id(ids["p3"]).name, Platoon.get_by_id(ids["p3"]).name_key) == ("Straße", "strasse")
    assert AttachedUnit.get_by_id(ids["a2"]).name == "mg  team (2)"
    assert all(
        row.name_key == name_key(row.name) for model in (Campaign, Platoon, AttachedUnit) for row in model.select()
    )
    assert "renamed 'über front (3)'" in caplog.text
    # one active leader: the newest; the other left when it joined
    old, new = Leader.get_by_id(ids["l1"]), Leader.get_by_id(ids["l2"])
    assert (old.status, new.status) == ("replaced", "active")
    assert str(old.left_at) == "2026-01-02 10:00:00"
    # codes
    roll = {r.id: (r.purpose, r.rule) for r in Roll.select()}
    assert roll[ids["r_fate"]] == ("leader_fate", "aa.1.2.leader_fate")
    assert roll[ids["r_rec"]] == ("recovery", "aa.1.2.recovery")
    assert roll[ids["r_odd"]] == ("a house roll", "house rule 7")  # unknown: kept, shown as stored
    assert roll[ids["r_combat"]] == ("combat", "sg.2.2.combat")
    assert roll[ids["r_reward"]] == ("rewards", "sg.2.3.rewards.variable")
    assert roll[ids["r_length"]] == ("campaign_length", "sg.2.1.length")
    assert SologearSheet.get_by_id(ids["sheet"]).end_reason == "turns_used_up"
    assert SologearTurn.get_by_id(ids["turn"]).state_before["end_reason"] == "pilot_dead"
    assert check_database(database).ok
    assert database.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
    # and the app reads it: the fate roll is linked, the sheet says why it ended, in words
    from campaign_app.services import sologear_sheet as sheet_service
    from campaign_app.services.history import history

    data = sheet_service.sheet_data(sheet_id("Hill 214"))
    assert data.state.end_text == "all battle turns were played"
    assert data.length_rolls[0].purpose_text == "campaign length"
    battles = history(ids["p1"]).battles
    fate = next(r for b in battles for r in b.rolls if r.purpose == "leader_fate")
    assert (fate.purpose_text, fate.rule_text) == ("leader's fate", "RULES 1.2 leader's fate")


BREAKS: list[tuple[str, Callable[[sqlite3.Connection, dict[str, int]], object], str]] = [
    (
        "battle leader XP",
        lambda con, ids: con.execute("UPDATE battle SET leader_xp_after = 40"),
        "battle 1 of platoon 'Straße' has leader XP 3 \u2192 40",
    ),
    (
        "roll of two owners",
        lambda con, ids: con.execute("UPDATE roll SET sheet_id = ? WHERE id = ?", (ids["sheet"], ids["r_rec"])),
        "roll belongs to no platoon or Sologear sheet, or to both (ids {r_rec})",
    ),
    (
        "roll of no owner",
        lambda con, ids: con.execute("UPDATE roll SET sheet_id = NULL WHERE sheet_id IS NOT NULL"),
        "3 rolls belong to no platoon or Sologear sheet, or to both (ids {r_combat}, {r_reward}, {r_length})",
    ),
    (
        "two sheets",
        lambda con, ids: _insert(con, "sologear_sheet", campaign_id=ids["hill"], pilot="Other"),
        "campaign 'Hill 214' has 2 Sologear sheets",
    ),
    (
        "unknown end",
        lambda con, ids: con.execute("UPDATE sologear_sheet SET end_reason = 'eaten by a grue'"),
        "'Hill 214' ended for a reason this version does not know ('eaten by a grue')",
    ),
]


@pytest.mark.parametrize("why,damage,message", BREAKS, ids=[b[0] for b in BREAKS])
def test_0004_refuses_what_it_cannot_mend_and_puts_the_file_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, why: str, damage: Any, message: str
):
    path = _schema_3(tmp_path, monkeypatch)
    ids = _old_data(path)
    con = sqlite3.connect(path)
    with con, _unrecorded(con):
        damage(con, ids)
    before = con.execute("SELECT name FROM campaign ORDER BY id").fetchall()
    con.close()
    with pytest.raises(MigrationFailedError) as info:
        init_db(path, tmp_path / "old" / "backups")
    text = str(info.value)
    assert message.format(**ids) in text and "put back" in text
    con = sqlite3.connect(path)
    assert con.execute("SELECT max(number) FROM schema_migration").fetchone()[0] == 3
    assert con.execute("SELECT name FROM campaign ORDER BY id").fetchall() == before
    assert con.execute("SELECT purpose FROM roll WHERE id = ?", (ids["r_fate"],)).fetchone()[0] == "leader's fate"
    con.close()


# --- the runner ------------------------------------------------------------------------------------------------

PLAIN = """
def migrate(migrator, database):
    on = database.execute_sql("PRAGMA foreign_keys").fetchone()[0]
    database.execute_sql("CREATE TABLE probe (fk_on INTEGER)")
    database.execute_sql("INSERT INTO probe VALUES (?)", (on,))
"""

FK_OFF = """
FOREIGN_KEYS_OFF = True

def migrate(migrator, database):
    on = database.execute_sql("PRAGMA foreign_keys").fetchone()[0]
    database.execute_sql("INSERT INTO probe VALUES (?)", (on,))
    database.execute_sql(BROKEN)
"""


@pytest.mark.parametrize("broken", [False, True])
def test_runner_switches_foreign_keys_off_only_when_a_migration_declares_it(fresh_db, tmp_path: Path, broken: bool):
    version = len(available_migrations())
    plain = tmp_path / f"{version + 1:04d}_plain.py"
    plain.write_text(PLAIN)
    off = tmp_path / f"{version + 2:04d}_rebuild.py"
    insert = (
        "INSERT INTO platoon (campaign_id, name, name_key, training, equipment, morale, armor, xp, notes, "
        "created_at) VALUES (999, 'Orphan', 'orphan', 10, 10, 8, 2, 0, '', '2026-01-01')"
    )
    off.write_text(FK_OFF.replace("BROKEN", repr(insert if broken else "SELECT 1")))
    pending = [Migration(version + 1, "plain", plain), Migration(version + 2, "rebuild", off)]
    if broken:
        with pytest.raises(DatabaseError, match=f"migration {version + 2:04d} left broken references"):
            store_migrate.migrate_file(fresh_db, pending, version, Path(fresh_db.database))
    else:
        store_migrate.migrate_file(fresh_db, pending, version, Path(fresh_db.database))
    probes = [r[0] for r in fresh_db.execute_sql("SELECT fk_on FROM probe").fetchall()]
    assert probes == ([1] if broken else [1, 0])  # the broken one was rolled back whole
    assert Platoon.select().count() == 0
    assert SchemaMigration.select().count() == version + (1 if broken else 2)
    assert fresh_db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1


def _with_journal_record(path: Path, ids: dict[str, int]) -> int | None:
    """On a database of schema 3 with the journal (0003): one operation recorded by the triggers, whose images
    hold what schema 3 stored (a roll with labels, a platoon without ``name_key``). Returns its id."""
    con = sqlite3.connect(path)
    try:
        if not con.execute("SELECT 1 FROM sqlite_master WHERE name = 'operation_change'").fetchone():
            return None
        with con:
            op_id = int(con.execute("SELECT coalesce(max(id), 0) + 1 FROM operation").fetchone()[0])
            con.execute(
                'INSERT INTO operation (id, kind, label, created_at, updated_at, "user") '
                "VALUES (?, 'test.old', 'An operation of schema 3', ?, ?, '')",
                (op_id, NOW, NOW),
            )
            con.execute("UPDATE journal_state SET operation_id = ? WHERE id = 1", (op_id,))
            ids["r_new"] = _insert(
                con,
                "roll",
                platoon_id=ids["p1"],
                battle_id=ids["b1"],
                purpose="replacement leader",
                rule="RULES 1.2 replacement leader",
                seq=2,
                expression="2d10",
            )
            con.execute("UPDATE platoon SET name = 'Zweiter Zug' WHERE id = ?", (ids["p3"],))
            con.execute("UPDATE journal_state SET operation_id = NULL WHERE id = 1")
        return op_id
    finally:
        con.close()


# --- with the journal (0003) ---------------------------------------------------------------------------------


def test_0004_on_a_journaled_database_records_nothing_converts_the_images_and_reinstalls_triggers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from campaign_app.store import journal_replay

    monkeypatch.setenv("CAMPAIGN_APP_JOURNAL_DAYS", "0")  # the journal budget would fold its old operation

    path = _schema_3(tmp_path, monkeypatch)
    ids = _old_data(path)
    op_id = _with_journal_record(path, ids)
    assert op_id is not None, "schema 3 has the journal"
    con = sqlite3.connect(path)
    changes_before = con.execute("SELECT count(*) FROM operation_change").fetchone()[0]
    ops_before = con.execute("SELECT count(*) FROM operation").fetchone()[0]
    con.close()
    database = init_db(path, tmp_path / "old" / "backups")
    # the migration ran with recording off: no new operation, no new change rows; the switch is back on
    assert database.execute_sql("SELECT count(*) FROM operation_change").fetchone()[0] == changes_before
    assert database.execute_sql("SELECT count(*) FROM operation").fetchone()[0] == ops_before
    assert database.execute_sql("SELECT mode, operation_id FROM journal_state").fetchone() == ("record", None)
    # every app table has its three triggers again, the rebuilt ones included, and they see name_key
    triggers = {
        r[0]
        for r in database.execute_sql(
            "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'journal%'"
        )
    }
    assert {"campaign", "platoon", "attached_unit", "battle", "roll", "sologear_sheet", "leader"} <= triggers
    with pytest.raises(Exception, match="outside an operation"):
        Campaign.create(name="Sneaky", system="atomic_africa")
    # the recorded images hold codes and name_key now
    images = {
        (t, a): (json.loads(o) if o else None, json.loads(n) if n else None)
        for t, a, o, n in database.execute_sql(
            "SELECT table_name, action, old, new FROM operation_change WHERE operation_id = ?", (op_id,)
        )
    }
    # an insert is journalled without an image (the row is in its table, converted by 0004 itself);
    # the conversion of whole insert images by 0004 is the next test's, on a file the version of schema 3 made
    assert images[("roll", "insert")] == (None, None)
    assert (Roll.get_by_id(ids["r_new"]).purpose, Roll.get_by_id(ids["r_new"]).rule) == (
        "replacement_leader",
        "aa.1.2.replacement",
    )
    old_p, new_p = images[("platoon", "update")]
    assert (old_p["name_key"], new_p["name_key"]) == ("strasse", "zweiter zug")
    # so undoing that operation of schema 3 works and puts back rows of schema 4
    journal_replay.undo(op_id)
    assert Roll.get_or_none(Roll.id == ids["r_new"]) is None
    p3 = Platoon.get_by_id(ids["p3"])
    assert (p3.name, p3.name_key) == ("Straße", "strasse")
    journal_replay.redo(op_id)
    assert Roll.get_by_id(ids["r_new"]).purpose == "replacement_leader"
    assert Platoon.get_by_id(ids["p3"]).name_key == "zweiter zug"
    assert check_database(database).ok


def test_the_stored_schema_3_database_journal_undoes_and_redoes_after_0004(tmp_path: Path):
    """tests/store/data/schema_0003.db (made by the version of schema 3) logged a battle: after the upgrade its
    recorded images hold the codes and name keys, so undoing the XP step and the battle, and redoing them, work."""
    from campaign_app.store import journal_replay

    close_db()
    work = tmp_path / "campaign.db"
    shutil.copy(Path(__file__).parent / "data" / "schema_0003.db", work)
    database = init_db(work, tmp_path / "backups")
    fate = Roll.get(Roll.purpose == "leader_fate")
    assert fate.rule == "aa.1.2.leader_fate"
    ops = {kind: op_id for op_id, kind in database.execute_sql("SELECT id, kind FROM operation")}
    journal_replay.undo(ops["xp.set"])
    journal_replay.undo(ops["battle.log"])
    assert Roll.get_or_none(Roll.id == fate.id) is None
    journal_replay.redo(ops["battle.log"])
    journal_replay.redo(ops["xp.set"])
    again = Roll.get_by_id(fate.id)
    assert (again.purpose, again.rule) == ("leader_fate", "aa.1.2.leader_fate")
    assert Platoon.get(Platoon.name == "Journal Platoon").name_key == "journal platoon"
    assert check_database(database).ok
