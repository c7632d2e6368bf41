"""What the database itself enforces (schema 4): one case rule for names, one active leader per platoon, one
owner per roll, XP ranges on battles, one Sologear sheet per campaign; and the stored codes' one table."""

from __future__ import annotations

import contextlib
import datetime as dt
import re
import subprocess
import sys
from pathlib import Path

import peewee
import pytest
from peewee import SqliteDatabase

from campaign_app.rules import codes
from campaign_app.services.attachments import add_attached
from campaign_app.services.campaigns import create_campaign, rename_campaign
from campaign_app.services.common import NotFound, ServiceError, resolve_campaign
from campaign_app.services.platoons import create_platoon, rename_platoon
from campaign_app.store import close_db, init_db
from campaign_app.store.models import (
    END_REASON_SQL,
    MODELS,
    AttachedUnit,
    Battle,
    Campaign,
    Leader,
    Platoon,
    Roll,
    SologearSheet,
    database_proxy,
    name_key,
)
from tests.ids import campaign_id, platoon_id

MIGRATIONS = Path(__file__).resolve().parents[2] / "db" / "migrations"

pytestmark = pytest.mark.usefixtures("fresh_db")


def _campaign_named(name: str) -> Campaign:
    """The campaign a name typed on the command line finds (the argument layer's look-up)."""
    return resolve_campaign(campaign_id(name))


def _schema(database: peewee.Database) -> dict[tuple[str, str], str]:
    """Tables and indexes of the models' tables (not triggers) as SQLite stores their SQL."""
    tables = {m._meta.table_name for m in MODELS}
    return {
        (t, n): s
        for t, n, tbl, s in database.execute_sql(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index')"
        )
        if tbl in tables
    }


def test_migrations_and_models_create_the_same_schema(fresh_db):
    """Every table and index of the models, as the numbered migrations leave them, is the very SQL the models'
    create_table writes (columns and their order, types, CHECKs, foreign keys and ON DELETE, indexes)."""
    migrated = _schema(fresh_db)
    close_db()
    memory = SqliteDatabase(":memory:")
    database_proxy.initialize(memory)
    memory.create_tables(MODELS)
    from_models = _schema(memory)
    memory.close()
    assert set(migrated) == set(from_models)
    for key, sql in from_models.items():
        assert migrated[key] == sql, key


def _op() -> contextlib.AbstractContextManager[object]:
    """Rows written directly, as test data: inside an operation of the journal (when there is one)."""
    try:
        from campaign_app.store.journal import operation
    except ImportError:  # pragma: no cover - before the journal
        return contextlib.nullcontext()
    return operation("test.setup", "test data")


# --- one case rule for names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a,b",
    [
        ("Über Front", "über front"),
        ("Über Front", "ÜBER   FRONT"),
        ("Straße", "STRASSE"),
        ("İstanbul", "İSTANBUL"),
        ("İstanbul", "i\u0307stanbul"),
        ("U\u0308ber", "Über"),
    ],
)
def test_the_same_name_under_the_case_rule(a: str, b: str):
    assert name_key(a) == name_key(b)
    create_campaign(a)
    with pytest.raises(ServiceError, match="already"):
        create_campaign(b)
    assert _campaign_named(b).name == a
    assert Campaign.select().count() == 1


@pytest.mark.parametrize("a,b", [("İstanbul", "istanbul"), ("Istanbul", "ıstanbul"), ("Cafe", "Café")])
def test_different_names_under_the_case_rule(a: str, b: str):
    """Unicode's default case folding, no language's special rules: the Turkish dotted capital İ folds to
    i + combining dot, so "İstanbul" and "istanbul" are two names (as are dotless ı and I)."""
    assert name_key(a) != name_key(b)
    create_campaign(a)
    create_campaign(b)
    assert _campaign_named(a).name == a and _campaign_named(b).name == b


def test_the_database_refuses_a_second_name_with_the_same_key_whoever_writes_it():
    with _op():
        Campaign.create(name="Über Front", system="atomic_africa")
        with pytest.raises(peewee.IntegrityError, match="campaign.name_key"):
            Campaign.create(name="über front", system="atomic_africa")
        # the key follows the name on every write path, whatever the caller passes for it
        c = Campaign.create(name="Zweite", system="atomic_africa", name_key="nonsense")
        assert c.name_key == "zweite" and Campaign.get_by_id(c.id).name_key == "zweite"
        Campaign.update(name="Dritte Front").where(Campaign.id == c.id).execute()
        assert Campaign.get_by_id(c.id).name_key == "dritte front"
        Campaign.insert_many(
            [
                {
                    "name": "Vierte",
                    "system": "sologear",
                    "threshold_green": 1,
                    "threshold_regular": 4,
                    "threshold_veteran": 9,
                    "threshold_legendary": 16,
                    "objective_xp_to": "both",
                    "replacement_dice": 2,
                    "archived": False,
                    "notes": "",
                    "created_at": dt.datetime(2026, 1, 1),
                }
            ]
        ).execute()
        assert Campaign.get(Campaign.name == "Vierte").name_key == "vierte"
        columns = [
            "system",
            "threshold_green",
            "threshold_regular",
            "threshold_veteran",
            "threshold_legendary",
            "objective_xp_to",
            "replacement_dice",
            "archived",
            "notes",
            "created_at",
        ]
        row = ("sologear", 1, 4, 9, 16, "both", 2, False, "", dt.datetime(2026, 1, 1))
        Campaign.insert_many([("Groß Fünf", *row, "junk")], fields=[Campaign.name, *columns, "name_key"]).execute()
        assert Campaign.get(Campaign.name == "Groß Fünf").name_key == "gross fünf"
        with pytest.raises(peewee.IntegrityError, match="campaign.name_key"):
            Campaign.update(name="ÜBER FRONT").where(Campaign.id == c.id).execute()


def _find_platoon(name: str, campaign: str | None = None) -> Platoon:
    """The platoon a user's ``--platoon NAME [--campaign NAME]`` names (the CLI's look-up)."""
    return Platoon.get_by_id(platoon_id(name, campaign))


def test_platoon_and_attached_names_follow_the_rule():
    create_campaign("Congo")
    create_campaign("Katanga")
    create_platoon(campaign_id("Congo"), "Über Zug", training=10, equipment=10, morale=8, armor=2)
    with pytest.raises(ServiceError, match="already has a platoon"):
        create_platoon(campaign_id("Congo"), "ÜBER ZUG", training=10, equipment=10, morale=8, armor=2)
    create_platoon(campaign_id("Katanga"), "über zug", training=10, equipment=10, morale=8, armor=2)  # another campaign
    assert _find_platoon("über zug", "Congo").name == "Über Zug"
    assert _find_platoon("Über Zug").campaign.name == "Congo"  # the exact spelling wins across campaigns
    assert _find_platoon("über zug").campaign.name == "Katanga"
    with pytest.raises(ServiceError, match="more than one platoon"):
        _find_platoon("ÜBER ZUG")
    create_platoon(campaign_id("Congo"), "Straße", training=10, equipment=10, morale=8, armor=2)
    with pytest.raises(ServiceError, match="already has a platoon"):
        rename_platoon(_find_platoon("Über Zug", "Congo").id, "STRASSE")
    rename_platoon(_find_platoon("Straße", "Congo").id, "STRASSE")  # its own name in other letters
    assert _find_platoon("straße", "Congo").name == "STRASSE"
    with pytest.raises(peewee.IntegrityError, match="platoon.campaign_id, platoon.name_key"), _op():
        Platoon.create(campaign=_campaign_named("Congo"), name="strasse", training=10, equipment=10, morale=8, armor=2)
    pid = _find_platoon("Strasse", "Congo").id
    add_attached(pid, "Mörser Trupp", kind="team", training=8, equipment=8, morale=8, armor=2)
    with pytest.raises(ServiceError, match="already"):
        add_attached(pid, "MÖRSER  TRUPP", kind="team", training=8, equipment=8, morale=8, armor=2)
    assert AttachedUnit.select().where(AttachedUnit.platoon == pid).count() == 1


def test_rename_to_the_same_name_in_another_case_is_allowed():
    create_campaign("über front")
    rename_campaign(campaign_id("über front"), "Über Front")
    assert _campaign_named("ÜBER FRONT").name == "Über Front"
    with pytest.raises(NotFound):
        _campaign_named("Ueber Front")


NEW_CAMPAIGN = r"""
import sys
from campaign_app.cli import main
sys.exit(main(["campaign", "new", "--name", sys.argv[1], "--data-dir", sys.argv[2]]))
"""


def test_two_clis_creating_the_same_name_at_once_one_wins(tmp_path: Path):
    close_db()
    data = tmp_path / "data"
    init_db(data / "campaign.db", data / "backups")
    close_db()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", NEW_CAMPAIGN, name, str(data)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("Über Front", "über front")
    ]
    results = [(p.wait(timeout=60), *p.communicate()) for p in procs]
    codes_ = sorted(r[0] for r in results)
    assert codes_[0] == 0 and codes_[1] != 0, results
    refused = next(r for r in results if r[0] != 0)
    assert "already" in refused[2] and "Traceback" not in refused[2], refused
    assert len(refused[2].strip().splitlines()) == 1
    init_db(data / "campaign.db", data / "backups")
    assert Campaign.select().count() == 1


# --- the other constraints ---------------------------------------------------------------------------------


def _platoon() -> Platoon:
    camp = Campaign.create(name="C", system="atomic_africa")
    return Platoon.create(campaign=camp, name="P", training=10, equipment=10, morale=8, armor=2, xp=6)


def test_one_active_leader_per_platoon():
    with _op():
        p = _platoon()
        Leader.create(platoon=p, name="A")
        with pytest.raises(peewee.IntegrityError, match="leader.platoon_id"):
            Leader.create(platoon=p, name="B")
        Leader.create(platoon=p, name="B", status="casualty")
        Leader.create(platoon=p, name="C", status="replaced")
        assert Leader.select().where(Leader.platoon == p).count() == 3


@pytest.mark.parametrize("field,value", [("leader_xp_before", 33), ("leader_xp_after", -1), ("leader_xp_after", 40)])
def test_battle_leader_xp_range(field: str, value: int):
    with _op():
        p = _platoon()
        values = dict(
            platoon=p,
            number=1,
            date=dt.date(2026, 1, 1),
            platoon_xp_before=6,
            platoon_xp_after=7,
            leader_xp_before=3,
            leader_xp_after=4,
        )
        Battle.create(**values)
        values.update(number=2, **{field: value})
        with pytest.raises(peewee.IntegrityError, match="CHECK"):
            Battle.create(**values)
        values.update(number=3, leader_xp_before=None, leader_xp_after=None)
        Battle.create(**values)


def test_a_roll_has_exactly_one_owner():
    with _op():
        p = _platoon()
        b = Battle.create(platoon=p, number=1, date=dt.date(2026, 1, 1), platoon_xp_before=6, platoon_xp_after=7)
        camp = Campaign.create(name="S", system="sologear")
        sheet = SologearSheet.create(campaign=camp, pilot="Janne", gear_tv=650)
        roll = dict(purpose="recovery", expression="1d8", faces=[3], total=3, source="app", rule="aa.1.2.recovery")
        Roll.create(platoon=p, battle=b, **roll)
        Roll.create(platoon=p, **roll)  # a force generation or replacement roll: the platoon alone
        Roll.create(sheet=sheet, **roll)
        for owners in ({}, {"battle": b}, {"platoon": p, "sheet": sheet}, {"sheet": sheet, "battle": b}):
            with pytest.raises(peewee.IntegrityError, match="CHECK"):
                Roll.create(**owners, **roll)
        assert Roll.select().count() == 3


def test_one_sologear_sheet_per_campaign():
    with _op():
        camp = Campaign.create(name="S", system="sologear")
        SologearSheet.create(campaign=camp, pilot="Janne", gear_tv=650)
        with pytest.raises(peewee.IntegrityError, match="sologear_sheet.campaign_id"):
            SologearSheet.create(campaign=camp, pilot="Other", gear_tv=650)


def test_end_reason_is_a_code():
    with _op():
        camp = Campaign.create(name="S", system="sologear")
        with pytest.raises(peewee.IntegrityError, match="CHECK"):
            SologearSheet.create(campaign=camp, pilot="Janne", gear_tv=650, end_reason="turns used up")
        SologearSheet.create(campaign=camp, pilot="Janne", gear_tv=650, end_reason="turns_used_up")


# --- the codes' one table ----------------------------------------------------------------------------------


def test_the_codes_docstring_table_is_the_data():
    rows = re.findall(r"^(\S+)\s{2,}(.+?)(?:\s{2,}.*)?$", codes.__doc__ or "", re.MULTILINE)
    table = {code: text.strip() for code, text in rows if not code.startswith(("=", "*", "code"))}
    assert table == {**codes.PURPOSES, **codes.RULES, **codes.END_REASONS}
    assert len(codes.PURPOSES) + len(codes.RULES) + len(codes.END_REASONS) == len(table)


def test_codes_are_short_stable_identifiers():
    for code in [*codes.PURPOSES, *codes.RULES, *codes.END_REASONS]:
        assert re.fullmatch(r"[a-z0-9_.]+", code), code
    assert ", ".join(f"'{c}'" for c in codes.END_REASONS) == END_REASON_SQL
    assert codes.purpose_text("leader_fate") == "leader's fate"
    assert codes.rule_text("sg.2.2.combat") == "2.2 combat table"
    assert codes.purpose_text("a label from a newer version") == "a label from a newer version"


def test_the_migrations_frozen_maps_match_the_codes():
    import importlib.util

    path = next(MIGRATIONS.glob("0004_*.py"))
    spec = importlib.util.spec_from_file_location("m0004", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.PURPOSES == codes.LEGACY_PURPOSES
    assert module.RULES == codes.LEGACY_RULES
    assert {k: v for k, v in module.END_REASONS.items() if k != v} == codes.LEGACY_END_REASONS
    assert set(module.END_REASONS.values()) == set(codes.END_REASONS)
    assert module._name_key("Straße  İ") == name_key("Straße  İ")  # the migration's own frozen copy


def test_check_reports_a_name_key_another_program_left_stale(fresh_db):
    from campaign_app.store import check_database

    create_campaign("Über Front")
    assert check_database(fresh_db).ok
    with _op():
        fresh_db.execute_sql("UPDATE campaign SET name = 'Ganz anders'")  # as a program that knows no name_key
    report = check_database(fresh_db)
    assert "campaign 'Ganz anders'" in report.text() and "stale name key" in report.text()


def test_undo_that_would_bring_back_a_name_taken_since_is_refused_naming_it():
    from campaign_app.services.campaigns import delete_campaign
    from campaign_app.store.journal import Conflict
    from campaign_app.store.journal_read import list_operations
    from campaign_app.store.journal_replay import undo

    create_campaign("Über Front")
    create_campaign("Other")
    delete_campaign(campaign_id("Über Front"))
    create_campaign("über front")
    deleted = next(o for o in list_operations() if o.kind == "campaign.delete")
    with pytest.raises(Conflict, match="the name 'Über Front' is taken by another campaign now"):
        undo(deleted.id)
    assert sorted(c.name for c in Campaign.select()) == ["Other", "über front"]
