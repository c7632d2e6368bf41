"""The JSON the CLI prints of the typed Sologear, backup and campaign-file results keeps its keys, their order
and its plain values (text for paths and times, lists for tuples): the shape scripts read."""

from __future__ import annotations

import json

import pytest

from campaign_app.rules.dice import TypedDice
from campaign_app.rules.enums import TurnAction
from campaign_app.services import backups as backup_service
from campaign_app.services import portable
from campaign_app.services import sologear_play as play_service
from campaign_app.services import sologear_sheet as sheet_service
from campaign_app.services.common import ServiceError
from campaign_app.services.sologear_results import HistoryEntry, PlayUndone
from tests.ids import campaign_id, sheet_id

SHEET_KEYS = [
    "id",
    "campaign",
    "name",
    "date",
    "area",
    "pilot",
    "gear_name",
    "gear_tv",
    "player_unit",
    "player_affiliation",
    "enemy_unit",
    "enemy_affiliation",
    "notes",
    "length",
    "length_dice",
    "length_rolls",
    "options",
    "state",
    "enemy_quality_column",
    "forces",
    "totals",
    "odds",
    "turns_played",
    "turns_left",
    "turns",
    "next",
    "reckoning",
    "created_at",
]
TURN_KEYS = [
    "turn",
    "id",
    "action",
    "label",
    "posture",
    "posture_name",
    "combat_total",
    "column",
    "cell",
    "cell_text",
    "glory",
    "enemy_tv",
    "light_critical",
    "repair_hours",
    "battle_length",
    "entry_edge",
    "ends",
    "breakout",
    "starts_breakout",
    "battle",
    "recorded",
    "result",
    "notes",
    "meaning",
    "form",
    "rolls",
]
ROLL_KEYS = [
    "purpose",
    "purpose_text",
    "expression",
    "faces",
    "modifier",
    "total",
    "source",
    "rule",
    "rule_text",
    "table_row",
    "outcome",
]
COUNT_KEYS = [
    "platoon",
    "battle",
    "leader",
    "attached_unit",
    "equipment",
    "xp_change",
    "attribute_change",
    "sologear_sheet",
    "sologear_force",
    "sologear_turn",
    "roll",
    "fighter",
    "bout",
    "bout_round",
    "fighter_change",
    "chronicle_entry",
    "print_record",
]


def _sheet() -> int:
    sid = sheet_service.create_sheet("Hill 214", "Janne", 250).id
    sheet_service.add_force(sid, "player", "1st Company", base_power=700)
    sheet_service.add_force(sid, "enemy", "Johnboy's Company", base_power=400, skill="veteran", loyalty="firm")
    play_service.roll_length(sid, TypedDice([[2]]))
    play_service.play_turn(sid, TurnAction.FIG, 1, dice=TypedDice([[4, 4], [4], [4], [3, 5, 2, 6], [2]]))
    return sid


def test_sheet_json_keys_and_plain_values() -> None:
    sid = _sheet()
    data = sheet_service.sheet_data(sid).to_dict()
    assert list(data) == SHEET_KEYS
    assert json.loads(json.dumps(data)) == data  # plain JSON: no tuples, dataclasses or enums left
    (turn,) = data["turns"]
    assert list(turn) == TURN_KEYS
    assert [list(r) for r in turn["rolls"]] == [ROLL_KEYS] * 5 and list(data["length_rolls"][0]) == ROLL_KEYS
    assert turn["meaning"][0].startswith("combat table") and isinstance(turn["meaning"], list)
    assert list(data["forces"]) == ["player", "enemy"] and list(data["totals"]) == ["player", "enemy"]
    assert data["next"]["actions"] == ["dec", "fig"] and data["next"]["blocked"].startswith("record what")
    assert list(data["reckoning"]["recognition_breakdown"][0]) == ["key", "label", "count", "per", "points"]


def test_play_edits_json_is_the_result_json() -> None:
    sid = _sheet()
    recorded = play_service.record_turn(sid, 1, glory=3, enemy_tv=300, bunkers=1)
    assert recorded.to_dict() == recorded.result.to_dict()
    assert list(recorded.to_dict())[-2:] == ["campaign_ended", "campaign_ended_text"]
    assert recorded.result.result.glory_collected == 3 and recorded.to_dict()["result"]["glory_collected"] == 3
    undone = play_service.undo_last(sid)  # the record goes with its turn
    assert undone.result == PlayUndone("turn", 1, "FIG(+1)")
    assert play_service.undo_last(sid).to_dict() == {"undone": "length"}  # no turn, no label


def test_history_lines_keep_their_key_order() -> None:
    entries = sheet_service.history(_sheet())
    assert [e.kind for e in entries[:3]] == ["sheet", "roll", "turn"]
    assert list(entries[0].to_dict()) == ["kind", "turn", "roll", "text"]
    assert list(entries[1].to_dict()) == ["kind", "turn", "text", "roll"]
    assert list(entries[1].to_dict()["roll"]) == ROLL_KEYS
    assert HistoryEntry("end", None, "Campaign ended").to_dict() == {
        "kind": "end",
        "turn": None,
        "roll": None,
        "text": "Campaign ended",
    }


@pytest.mark.file_db
def test_backup_json() -> None:
    _sheet()
    backup = backup_service.backup_now().to_dict()
    assert list(backup) == [
        "file",
        "time",
        "reason",
        "size",
        "campaigns",
        "battles",
        "schema_version",
        "good",
        "problem",
    ]
    assert isinstance(backup["file"], str) and len(backup["time"]) == 19 and backup["time"][10] == "T"
    assert [b.to_dict() for b in backup_service.backups()][0] == backup


def test_campaign_file_json(tmp_path) -> None:
    _sheet()
    exported = portable.export_campaign(campaign_id("Hill 214"), tmp_path / "hill.json")
    out = exported.to_dict()
    assert list(out) == [
        "file",
        "campaign",
        "bytes",
        "platoon",
        "battle",
        "leader",
        "attached_unit",
        "xp_change",
        "attribute_change",
        "equipment",
        "sologear_sheet",
        "sologear_force",
        "sologear_turn",
        "roll",
        "fighter",
        "bout",
        "bout_round",
        "fighter_change",
        "chronicle_entry",
        "print_record",
    ]
    assert out["file"] == str(tmp_path / "hill.json") and out["bytes"] == (tmp_path / "hill.json").stat().st_size
    assert (exported.counts.sologear_sheet, exported.counts.sologear_turn, exported.counts.roll) == (1, 1, 6)
    doc = json.loads((tmp_path / "hill.json").read_text(encoding="utf-8"))
    assert list(doc) == [
        "format",
        "format_version",
        "app_version",
        "schema_version",
        "exported_at",
        "campaign",
        "tables",
    ]  # the file's own format is not a result: unchanged
    # and it is the same from either engine: true/false as 1/0, times as text, JSON columns as JSON text
    turn = doc["tables"]["sologear_turn"][0]
    assert doc["campaign"]["archived"] == 0 and turn["recorded"] == 0 and turn["gear_damaged"] == 0
    assert isinstance(doc["campaign"]["created_at"], str) and doc["campaign"]["created_at"][10] == " "
    assert json.loads(turn["cell"]) == {"glory": "1D6", "hit": None, "enemy": "*", "ends": None}
    imported = portable.import_campaign(tmp_path / "hill.json", "Hill 215")
    assert list(imported.to_dict()) == ["file", "campaign", "campaign_id", *COUNT_KEYS]
    assert imported.counts == exported.counts and imported.campaign == "Hill 215"
    assert (
        sheet_service.sheet_data(sheet_id("Hill 215")).turns[0].form
        == sheet_service.sheet_data(sheet_id("Hill 214")).turns[0].form
    )


def test_campaign_file_round_trip_keeps_every_row(tmp_path) -> None:
    """The sample Atomic Africa campaign (battles, leaders, rolls, XP changes) exported, imported under another
    name and exported again gives the same rows, but for their ids: on either engine."""
    from campaign_app.services.demo import DEMO_CAMPAIGN, create_demo

    create_demo()
    first = portable.export_campaign(campaign_id(DEMO_CAMPAIGN), tmp_path / "first.json")
    portable.import_campaign(tmp_path / "first.json", "Congo copy")
    second = portable.export_campaign(campaign_id("Congo copy"), tmp_path / "second.json")
    assert second.counts == first.counts and first.counts.battle == 3 and first.counts.roll > 0

    def rows(name: str) -> dict[str, list[dict[str, object]]]:
        doc = json.loads((tmp_path / name).read_text(encoding="utf-8"))
        return {
            table: [{k: v for k, v in row.items() if k != "id" and not k.endswith("_id")} for row in found]
            for table, found in doc["tables"].items()
        }

    assert rows("second.json") == rows("first.json")


def test_backups_of_a_server_database_are_refused_by_name(db_engine: str) -> None:
    if db_engine != "postgresql":
        assert backup_service.backup_now().good  # the file engine backs up
        return
    for call in (backup_service.backup_now, backup_service.backups, lambda: backup_service.restore(__file__)):
        with pytest.raises(ServiceError, match="on a database server"):
            call()
