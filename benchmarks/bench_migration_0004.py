"""How long migration 0004 (codes, constraints, name keys: six tables rebuilt) takes on a big database of
schema 3, against copying the same database whole (``VACUUM INTO``) in the same run.

    python benchmarks/bench_migration_0004.py [--platoons 400] [--battles 50]

The database is filled with raw SQL (schema 3 as older versions wrote it: labels as roll purposes/rules), each
platoon with two leaders, an attached team, its battles and four rolls a battle. The migration runs inside a
transaction that is rolled back, so every repeat starts from the same file.
"""

from __future__ import annotations

import argparse
import importlib.util
import sqlite3
import tempfile
import time
from pathlib import Path

from benchlib import ROOT, median_ms  # noqa: F401 - ROOT puts the project on sys.path

NOW = "2026-01-01 12:00:00"


def build(path: Path, platoons: int, battles: int) -> dict[str, int]:
    from campaign_app.store import close_db, init_db
    from campaign_app.store import migrate as store_migrate

    real = store_migrate.available_migrations
    store_migrate.available_migrations = lambda folder=None: real(folder)[:3]  # type: ignore[assignment]
    try:
        init_db(path, path.parent / "backups", daily_backup=False)
        close_db()
    finally:
        store_migrate.available_migrations = real  # type: ignore[assignment]
    con = sqlite3.connect(path)
    journal = con.execute("SELECT 1 FROM sqlite_master WHERE name = 'journal_state'").fetchone() is not None
    with con:
        if journal:
            con.execute("UPDATE journal_state SET mode = 'off' WHERE id = 1")
        for c in range(platoons // 20 + 1):
            con.execute(
                "INSERT INTO campaign (name, system, threshold_green, threshold_regular, threshold_veteran, "
                "threshold_legendary, objective_xp_to, replacement_dice, archived, notes, created_at) "
                "VALUES (?, 'atomic_africa', 1, 4, 9, 16, 'both', 2, 0, '', ?)",
                (f"Campaign {c}", NOW),
            )
        for p in range(platoons):
            pid = con.execute(
                "INSERT INTO platoon (campaign_id, name, training, equipment, morale, armor, xp, notes, "
                "created_at) VALUES (?, ?, 10, 10, 8, 2, 6, '', ?)",
                (p // 20 + 1, f"Platoon {p}", NOW),
            ).lastrowid
            con.execute(
                "INSERT INTO attached_unit (platoon_id, name, kind, training, equipment, morale, armor, notes, "
                "position) VALUES (?, 'Weapons team', 'team', 8, 8, 8, 2, '', 0)",
                (pid,),
            )
            for status in ("casualty", "active"):
                con.execute(
                    "INSERT INTO leader (platoon_id, name, rank, xp, xp_at_join, status, joined_at, notes) "
                    "VALUES (?, 'Lt. X', 'Lieutenant', 3, 3, ?, ?, '')",
                    (pid, status, NOW),
                )
            for n in range(1, battles + 1):
                bid = con.execute(
                    "INSERT INTO battle (platoon_id, number, date, scenario, opponent, objectives, fire_support, "
                    "notes, wounds, leader_wounds, platoon_xp_before, platoon_xp_after, leader_xp_before, "
                    "leader_xp_after, xp_lost, created_at) VALUES (?, ?, '2026-01-01', '', '', 0, 0, '', 3, 1, 5, 6, "
                    "3, 4, 0, ?)",
                    (pid, n, NOW),
                ).lastrowid
                con.executemany(
                    "INSERT INTO roll (platoon_id, battle_id, seq, purpose, expression, faces, modifier, total, "
                    "source, rule, table_row, outcome, created_at) VALUES (?, ?, ?, ?, '1d8', '[3]', 0, 3, 'app', ?, "
                    "'roll 1: 1d8', 'removed 3', ?)",
                    [
                        (pid, bid, 0, "recovery", "RULES 1.2 recovery", NOW),
                        (pid, bid, 1, "recovery", "RULES 1.2 recovery", NOW),
                        (pid, bid, 2, "leader's fate", "RULES 1.2 leader's fate", NOW),
                        (pid, bid, 3, "replacement leader", "RULES 1.2 replacement leader", NOW),
                    ],
                )
        if journal:
            con.execute("UPDATE journal_state SET mode = 'record' WHERE id = 1")
    counts = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("platoon", "battle", "roll")}
    con.close()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--platoons", type=int, default=400)
    parser.add_argument("--battles", type=int, default=50)
    args = parser.parse_args()
    path = next((ROOT / "db" / "migrations").glob("0004_*.py"))
    spec = importlib.util.spec_from_file_location("m0004", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with tempfile.TemporaryDirectory() as tmp:
        db_file = Path(tmp) / "old.db"
        counts = build(db_file, args.platoons, args.battles)
        size = db_file.stat().st_size
        from campaign_app.store.file_engine import CampaignDatabase

        database = CampaignDatabase(str(db_file))
        database.connect()

        def migrate() -> None:
            database.execute_sql("PRAGMA foreign_keys=0")
            database.execute_sql("BEGIN IMMEDIATE")
            try:
                if database.execute_sql("SELECT 1 FROM sqlite_master WHERE name = 'journal_state'").fetchone():
                    database.execute_sql("UPDATE journal_state SET mode = 'off' WHERE id = 1")
                module.migrate(None, database)
                assert not database.execute_sql("PRAGMA foreign_key_check").fetchall()
            finally:
                database.execute_sql("ROLLBACK")
                database.execute_sql("PRAGMA foreign_keys=1")

        def copy() -> None:
            target = Path(tmp) / "copy.db"
            target.unlink(missing_ok=True)
            database.execute_sql("VACUUM INTO ?", (str(target),))

        t0 = time.perf_counter()
        copy_ms = median_ms(copy, repeat=3)
        migrate_ms = median_ms(migrate, repeat=3)
        database.close()
    print(
        f"database: {counts['platoon']} platoons, {counts['battle']} battles, {counts['roll']} rolls, "
        f"{size / 1e6:.1f} MB"
    )
    print(f"copy the whole database (VACUUM INTO), baseline: {copy_ms:.0f} ms")
    print(
        f"migration 0004 (rolled back):                      {migrate_ms:.0f} ms  "
        f"(ratio {migrate_ms / copy_ms:.1f}x the copy)"
    )
    print(f"(total bench time {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
