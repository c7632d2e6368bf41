"""Sologear services: sheet, forces, length, turns, records, the reckoning, undo (exact), history."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_app.rules.dice import DiceError, SeededDice, TypedDice
from campaign_app.rules.enums import TurnAction
from campaign_app.services import sologear_play as play_service
from campaign_app.services import sologear_sheet as sheet_service
from campaign_app.services.common import NotFound, ServiceError
from campaign_app.services.sologear_results import FormRow, PlayUndone, SideTotals
from campaign_app.store import journal_replay
from campaign_app.store.models import Campaign, Roll, SologearForce, SologearSheet, SologearTurn
from tests.ids import sheet_id


def make_sheet(length: int | None = None, enemy_base: float = 400, **options: Any) -> int:
    edit = sheet_service.create_sheet(
        "Hill 214",
        "Janne",
        250,
        date="TN1932",
        area="Badlands",
        gear_name="Hunter",
        player_unit="Janne's Regiment",
        enemy_unit="Johnboy's Company",
        **options,
    )
    sid = edit.id
    sheet_service.add_force(sid, "player", "1st Company", base_power=350)
    sheet_service.add_force(sid, "player", "2nd Company", base_power=350, skill="regular", loyalty="reliable")
    sheet_service.add_force(sid, "enemy", "Johnboy's Company", base_power=enemy_base, skill="veteran", loyalty="firm")
    if length is not None:
        play_service.roll_length(sid, TypedDice([[length]]))
    return sid


def counts() -> tuple[int, ...]:
    return (
        Campaign.select().count(),
        SologearSheet.select().count(),
        SologearForce.select().count(),
        SologearTurn.select().count(),
        Roll.select().count(),
    )


def test_create_sheet_worked_example() -> None:
    sid = make_sheet()
    data = sheet_service.sheet_data(sid)
    camp = Campaign.get(Campaign.name == "Hill 214")
    assert camp.system == "sologear" and data.campaign.id == camp.id
    assert data.totals == SideTotals(player=700, enemy=1350)
    assert data.odds.band == "Equal" and round(data.odds.ratio, 3) == 0.519
    assert [f.total for f in data.forces.enemy] == [1350]
    assert data.length_dice == "1d6"
    assert data.enemy_quality_column == "≤300"
    assert data.next.blocked == "roll the campaign length first"


def test_create_sheet_refuses_bad_input() -> None:
    before = counts()
    with pytest.raises(ServiceError, match="Gear's TV"):
        sheet_service.create_sheet("X", "Janne", 0)
    with pytest.raises(ServiceError, match="pilot"):
        sheet_service.create_sheet("X", " ", 100)
    with pytest.raises(ServiceError, match="reward dice"):
        sheet_service.create_sheet("X", "Janne", 100, reward_dice="many")
    sheet_service.create_sheet("X", "Janne", 100)
    with pytest.raises(ServiceError, match="already exists"):
        sheet_service.create_sheet("x", "Other", 100)
    assert counts()[:2] == (before[0] + 1, before[1] + 1)


def test_forces_from_tv_edit_remove_and_bad_words() -> None:
    sid = make_sheet()
    edit = sheet_service.add_force(sid, "enemy", "Recon", company_tv=2000, skill="Rookie", loyalty="Shaken")
    assert edit.result.base_power == 100 and edit.result.total == 100 * 0.25 * 0.75
    fid = edit.result.id
    sheet_service.update_force(fid, skill="elite")
    assert sheet_service.unit_row(SologearForce.get_by_id(fid)).total == 100 * 4 * 0.75
    sheet_service.update_force(fid, company_tv=4000)
    assert SologearForce.get_by_id(fid).base_power == 200
    before = counts()
    for bad in (
        {"skill": "heroic"},
        {"loyalty": "fanatic"},
        {"side": "neutral"},
        {"base_power": -3},
        {"company_tv": "lots"},
    ):
        with pytest.raises(ServiceError):
            sheet_service.update_force(fid, **bad)
    with pytest.raises(ServiceError, match="base power or its company TV"):
        sheet_service.add_force(sid, "enemy", "Ghost")
    assert counts() == before
    sheet_service.remove_force(fid)
    with pytest.raises(NotFound):
        sheet_service.remove_force(fid)


def test_length_roll_and_refusals() -> None:
    sid = make_sheet()
    with pytest.raises(DiceError):
        play_service.roll_length(sid, TypedDice([[5, 5]]))  # 1d6 wanted: the enemy has one unit
    edit = play_service.roll_length(sid, TypedDice([[5]]))
    assert edit.result.length == 5
    assert Roll.get(Roll.sheet == sid).table_row == "1d6"
    with pytest.raises(ServiceError, match="already rolled"):
        play_service.roll_length(sid, SeededDice(1))
    with pytest.raises(ServiceError, match="undo the length roll first"):
        sheet_service.add_force(sid, "enemy", "2nd", base_power=10)
    play_service.undo_last(sid)
    sheet_service.add_force(sid, "enemy", "2nd", base_power=10)
    # two units each now -> 2d6
    assert play_service.length_procedure(sid).pending().dice.expression == "2d6"


def test_length_needs_units() -> None:
    sid = sheet_service.create_sheet("Empty", "P", 100).id
    with pytest.raises(ServiceError, match="units of both sides"):
        play_service.roll_length(sid, SeededDice(1))


def test_fig_turn_stores_rolls_with_table_rows() -> None:
    sid = make_sheet(length=5)
    edit = play_service.play_turn(sid, TurnAction.FIG, 2, dice=TypedDice([[3, 2], [4], [3], [1, 2, 3, 4], [2]]))
    s = edit.result
    assert s.turn == 1 and s.action == "fig" and s.posture == 2 and s.combat_total == 7
    assert s.column == "Equal" and s.cell == {"glory": "1D6", "hit": "#", "enemy": None, "ends": None}
    assert s.glory == 4 and s.enemy_tv is None and s.ends is None
    assert s.light_critical == 1 and s.battle_length == 10 and s.entry_edge == "East"
    assert [r.table_row for r in s.rolls] == ["roll 7, Equal: 1D6G,#", "1D6G", "1d6-2 = 1", "4d6", "2"]
    assert all(r.source == "entered" for r in s.rolls)
    sheet = SologearSheet.get_by_id(sid)
    assert sheet.gear_damaged  # the light critical check hit
    turn = SologearTurn.get(SologearTurn.sheet == sid)
    assert not turn.recorded
    # the battle must be recorded before the next turn
    with pytest.raises(ServiceError, match="record what happened in turn 1"):
        play_service.play_turn(sid, TurnAction.DEC, dice=TypedDice([]))


def test_enemy_quality_turn_worked_example() -> None:
    # odds Equal, roll 9 -> 1D6G,* ; d6 4 with a 250 TV Gear -> 300 TV enemy
    sid = make_sheet(length=5)
    edit = play_service.play_turn(sid, TurnAction.FIG, 0, dice=TypedDice([[4, 5], [2], [4], [1, 1, 1, 1], [1]]))
    assert edit.result.enemy_tv == 300
    assert edit.result.rolls[2].table_row == "row 4, ≤300"
    with pytest.raises(ServiceError, match="TV 300"):
        play_service.record_turn(sid, 1, enemy_tv=400)
    with pytest.raises(ServiceError, match="only 2 Glory"):
        play_service.record_turn(sid, 1, glory=3)
    play_service.record_turn(sid, 1, glory=2, enemy_tv=300, bunkers=2)
    turn = SologearTurn.get(SologearTurn.sheet == sid)
    assert (turn.glory_collected, turn.enemy_tv_destroyed, turn.bunkers_destroyed, turn.recorded) == (2, 300, 2, True)


def test_turn_refusals_write_nothing() -> None:
    sid = make_sheet(length=3)
    before = counts()
    with pytest.raises(ServiceError, match="REP is only allowed"):
        play_service.play_turn(sid, TurnAction.REP, dice=TypedDice([[3]]))
    with pytest.raises(ServiceError, match="posture"):
        play_service.play_turn(sid, TurnAction.FIG, 3, dice=TypedDice([[3, 3]]))
    with pytest.raises(ServiceError, match="posture"):
        play_service.play_turn(sid, TurnAction.FIG, None, dice=TypedDice([[3, 3]]))
    with pytest.raises(ServiceError, match="the action must be DEC, REP or FIG, not 'flee'"):
        play_service.play_turn(sid, "flee", dice=TypedDice([]))  # type: ignore[arg-type]  # the CLI reads words
    with pytest.raises(ServiceError, match="posture must be from -2 .Cowardly. to 2 .Bold., not '.1'"):
        play_service.play_turn(sid, TurnAction.FIG, "+1", dice=TypedDice([[3, 3]]))  # type: ignore[arg-type]
    with pytest.raises(DiceError):
        play_service.play_turn(sid, TurnAction.FIG, 0, dice=TypedDice([[3, 9]]))
    with pytest.raises(DiceError, match="too many"):
        play_service.play_turn(sid, TurnAction.DEC, dice=TypedDice([[3]]))
    assert counts() == before


def test_dec_turns_to_the_end_and_no_turn_after() -> None:
    sid = make_sheet(length=2)
    play_service.play_turn(sid, TurnAction.DEC, dice=TypedDice([]))
    edit = play_service.play_turn(sid, TurnAction.DEC, dice=TypedDice([]))
    assert edit.result.campaign_ended == "turns_used_up"
    before = counts()
    with pytest.raises(ServiceError, match="campaign has ended"):
        play_service.play_turn(sid, TurnAction.DEC, dice=TypedDice([]))
    assert counts() == before


def test_surrender_ends_at_once() -> None:
    sid = make_sheet(length=5, enemy_base=10000)  # -> Losing
    edit = play_service.play_turn(sid, TurnAction.FIG, 0, dice=TypedDice([[1, 3]]))  # Losing 4 = S
    assert edit.result.ends == "surrendered" and edit.result.campaign_ended == "surrendered"
    assert not edit.result.battle and edit.result.recorded
    assert SologearSheet.get_by_id(sid).status == "ended"


def test_pilot_dead_ends_and_only_on_last_turn() -> None:
    sid = make_sheet(length=5)
    play_service.play_turn(sid, TurnAction.FIG, 0, dice=TypedDice([[1, 1], [1, 1, 1, 1], [1]]))
    play_service.record_turn(sid, 1)
    play_service.play_turn(sid, TurnAction.FIG, 0, dice=TypedDice([[1, 1], [1, 1, 1, 1], [1]]))
    with pytest.raises(ServiceError, match="last turn"):
        play_service.record_turn(sid, 1, pilot_dead=True)
    with pytest.raises(ServiceError, match="both dead and captured"):
        play_service.record_turn(sid, 2, pilot_dead=True, pilot_captured=True)
    edit = play_service.record_turn(sid, 2, pilot_dead=True)
    assert edit.result.campaign_ended == "pilot_dead"
    sheet = SologearSheet.get_by_id(sid)
    assert (sheet.status, sheet.pilot_status) == ("ended", "dead")
    # recording again without death re-opens the campaign
    play_service.record_turn(sid, 2)
    sheet = SologearSheet.get_by_id(sid)
    assert (sheet.status, sheet.pilot_status, sheet.end_reason) == ("active", "active", None)


def test_rep_after_damage_and_gear_state() -> None:
    sid = make_sheet(length=5)
    play_service.play_turn(sid, TurnAction.FIG, 0, dice=TypedDice([[2, 3], [6], [1, 1, 1, 1], [1]]))  # Equal 5: 1D6G,##
    assert SologearSheet.get_by_id(sid).gear_damaged
    play_service.record_turn(sid, 1, glory=6, short_ammo=True)
    assert sheet_service.next_turn(sid).actions == ("dec", "rep", "fig")
    edit = play_service.play_turn(sid, TurnAction.REP, dice=TypedDice([[2]]))
    assert edit.result.repair_hours == 1
    play_service.record_turn(sid, 2, gear_damaged=False, short_ammo=False)
    sheet = SologearSheet.get_by_id(sid)
    assert not sheet.gear_damaged and not sheet.short_ammo
    with pytest.raises(ServiceError, match="no battle"):
        play_service.record_turn(sid, 2, glory=1)


def play_short_campaign(sid: int) -> None:
    play_service.play_turn(
        sid, TurnAction.FIG, 2, dice=TypedDice([[4, 5], [3, 2], [1, 1, 1, 1], [1]])
    )  # 11 Equal 2D6G,##
    play_service.record_turn(sid, 1, glory=5, bunkers=1)
    play_service.play_turn(sid, TurnAction.DEC, dice=TypedDice([]))


def test_full_campaign_and_reckoning() -> None:
    sid = make_sheet(length=2)
    play_short_campaign(sid)
    with pytest.raises(DiceError):
        play_service.end_campaign(sid, TypedDice([[1, 7], [3]]))
    # recognition 2 (FIG+2) + 5 glory + 2 bunker + 8 DEC = 17 -> noticed on 11-16
    pre = sheet_service.reckoning(sid)
    assert pre.final is False and pre.recognition == 17 and pre.noticed_on == "11–16"
    edit = play_service.end_campaign(sid, TypedDice([[1, 6], [4]]))
    s = edit.result
    assert s.recognition == 17 and s.noticed is True and s.d66 == 16
    assert s.impression == 5 + 2 - 9 == -2
    assert s.table == "punishments" and s.result == 2 and s.band.label == "0 to −4"
    assert s.recognition == sum(i.points for i in s.recognition_breakdown)
    assert s.impression == sum(i.points for i in s.impression_breakdown)
    rk = sheet_service.reckoning(sid)
    assert rk.final and rk.outcome == s.outcome and len(rk.rolls) == 2
    with pytest.raises(ServiceError, match="already done"):
        play_service.end_campaign(sid, SeededDice(1))


def test_not_noticed_and_end_refused_while_active() -> None:
    sid = make_sheet(length=2)
    with pytest.raises(ServiceError, match="not over"):
        play_service.end_campaign(sid, SeededDice(1))
    play_short_campaign(sid)
    edit = play_service.end_campaign(sid, TypedDice([[6, 6]]))
    assert edit.result.noticed is False and edit.result.table is None and edit.result.result is None
    assert "no reward or punishment" in edit.result.outcome


def test_variable_tables_and_reward_dice_options() -> None:
    sid = make_sheet(length=2)
    sheet_service.set_options(sid, variable_tables=True, reward_dice="2d6")
    play_short_campaign(sid)
    edit = play_service.end_campaign(sid, TypedDice([[1, 1], [3, 3]]))
    assert edit.result.tables == "variable" and edit.result.result == 6 - 2
    assert edit.result.band.title == "Loot and pay lost"
    with pytest.raises(ServiceError, match="reckoning is done"):
        sheet_service.set_options(sid, variable_tables=False)


def test_ferocious_breakout() -> None:
    sid = make_sheet(length=1, enemy_base=10000, ferocious=True)  # Losing
    edit = play_service.play_turn(
        sid, TurnAction.FIG, 0, dice=TypedDice([[1, 3]])
    )  # S -> break-out instead of surrender
    assert edit.result.starts_breakout and edit.result.campaign_ended is None
    nxt = sheet_service.next_turn(sid)
    assert nxt.breakout and nxt.actions == ("fig",) and nxt.band == "Losing"
    with pytest.raises(ServiceError, match="no DEC or REP"):
        play_service.play_turn(sid, TurnAction.DEC, dice=TypedDice([]))
    with pytest.raises(ServiceError, match="ferocious battles cannot be switched"):
        sheet_service.set_options(sid, ferocious=False)
    # break-out turn 2: 2d6 5 + 2 = 7 -> E,## ignored, battle
    edit = play_service.play_turn(sid, TurnAction.FIG, None, dice=TypedDice([[2, 3], [1, 1, 1, 1], [1]]))
    assert edit.result.breakout and edit.result.posture == 2 and edit.result.ends is None
    play_service.record_turn(sid, 2, glory=0)
    # turn 3: 10 + 2 = 12 -> broke through
    play_service.play_turn(sid, TurnAction.FIG, 2, dice=TypedDice([[5, 5]]))
    data = sheet_service.sheet_data(sid)
    assert data.state.end_reason == "broke_through" and data.state.status == "ended"
    # FIG(0) + 2 break-out FIG(+2)
    assert sheet_service.reckoning(sid).recognition == 4


def test_breakout_turns_count_as_bold_fights() -> None:
    sid = make_sheet(length=1, enemy_base=10000, ferocious=True)
    play_service.play_turn(sid, TurnAction.FIG, -1, dice=TypedDice([[2, 3]]))  # 5 - 1 = 4: S -> break-out
    # break-out: 1 + 1 + 2 = 4 -> S again, ignored; the battle goes on
    edit = play_service.play_turn(sid, TurnAction.FIG, 2, dice=TypedDice([[1, 1], [1, 1, 1, 1], [1]]))
    assert edit.result.breakout and edit.result.battle and edit.result.ends is None
    # the Losing column places no Glory markers
    with pytest.raises(ServiceError, match="only 0 Glory"):
        play_service.record_turn(sid, 2, glory=1)
    play_service.record_turn(sid, 2, bunkers=3)
    rk = sheet_service.reckoning(sid)
    items = {i.key: i for i in rk.recognition_breakdown}
    assert items["fig"].points == 2 and items["bunkers"].points == 6
    imp = {i.key: i for i in rk.impression_breakdown}
    assert imp["fig"].points == -1


def test_undo_turn_is_exact_and_redo() -> None:
    sid = make_sheet(length=3)
    snapshot = sheet_service.sheet_data(sid)
    before = counts()
    edit = play_service.play_turn(sid, TurnAction.FIG, 2, dice=TypedDice([[3, 2], [4], [3], [1, 2, 3, 4], [2]]))
    rec = play_service.record_turn(sid, 1, glory=2, gear_damaged=True, short_ammo=True)
    undone = play_service.undo_last(sid)
    assert undone.result == PlayUndone(undone="turn", turn=1, label="FIG(+2)")
    assert undone.to_dict() == {"undone": "turn", "turn": 1, "label": "FIG(+2)"}  # its JSON
    assert counts() == before
    assert sheet_service.sheet_data(sid).state == snapshot.state
    # redo brings the turn back as it was (the same rows, the same dice), then its record
    journal_replay.redo()
    journal_replay.redo()
    assert sheet_service.sheet_data(sid).turns[0].result.glory_collected == 2
    play_service.undo_last(sid)
    assert counts() == before
    # the GUI path: undo the record, then the play, through their change sets
    edit = play_service.play_turn(sid, TurnAction.FIG, 2, dice=TypedDice([[3, 2], [4], [3], [1, 2, 3, 4], [2]]))
    rec = play_service.record_turn(sid, 1, glory=2)
    journal_replay.undo(rec.operation_id)
    assert not SologearTurn.get(SologearTurn.sheet == sid).recorded
    journal_replay.undo(edit.operation_id)
    assert counts() == before
    journal_replay.redo(edit.operation_id)
    assert sheet_service.sheet_data(sid).turns[0].rolls[0].faces == [3, 2]


def test_undo_steps_back_reckoning_turn_length() -> None:
    sid = make_sheet(length=2)
    play_short_campaign(sid)
    play_service.end_campaign(sid, TypedDice([[1, 1], [1]]))
    assert play_service.undo_last(sid).result.undone == "reckoning"
    assert sheet_service.reckoning(sid).final is False
    assert Roll.select().where(Roll.rule.startswith("2.3")).count() == 0
    assert play_service.undo_last(sid).to_dict() == {"undone": "turn", "turn": 2, "label": "DEC"}
    assert SologearSheet.get_by_id(sid).status == "active"
    assert play_service.undo_last(sid).result.turn == 1
    assert play_service.undo_last(sid).result.undone == "length"
    with pytest.raises(ServiceError, match="nothing to undo"):
        play_service.undo_last(sid)


def test_history_lists_turns_and_rolls() -> None:
    sid = make_sheet(length=2)
    play_short_campaign(sid)
    play_service.end_campaign(sid, TypedDice([[1, 1], [1]]))
    entries = sheet_service.history(sid)
    kinds = [e.kind for e in entries]
    assert kinds[0] == "sheet" and kinds[1] == "roll"
    assert kinds.count("turn") == 2 and "record" in kinds and kinds[-1] == "reckoning"
    rolls = [e for e in entries if e.kind == "roll"]
    assert len(rolls) == Roll.select().where(Roll.sheet == sid).count() == 1 + 4 + 2
    assert any("roll 11, Equal: 2D6G,##" in e.text for e in rolls)


def test_sheet_data_battle_form() -> None:
    sid = make_sheet(length=3)
    play_short_campaign(sid)
    rows = [t.form for t in sheet_service.sheet_data(sid).turns]
    assert rows[0].action == "FIG(+2)" and rows[0].glory == "5" and "1 bunker" in rows[0].special
    assert "light critical" in rows[0].special
    assert rows[1] == FormRow(turn="2", action="DEC", enemy="", glory="", special="")


def test_update_sheet_and_rename() -> None:
    sid = make_sheet()
    edit = sheet_service.update_sheet(sid, name="Hill 215", gear_tv=420, area="Westridge")
    assert edit.result.new["name"] == "Hill 215"
    data = sheet_service.sheet_data(sheet_id("Hill 215"))
    assert data.gear_tv == 420 and data.enemy_quality_column == "≤500"
    with pytest.raises(ServiceError):
        sheet_service.update_sheet(sid, gear_tv=-1)
    with pytest.raises(ServiceError, match="unknown sheet field"):
        sheet_service.update_sheet(sid, colour="red")
    journal_replay.undo(edit.operation_id)
    assert sheet_service.sheet_data(sid).name == "Hill 214"


def test_seeded_campaigns_run_to_the_end() -> None:
    for seed in range(15):
        sid = sheet_service.create_sheet(f"Seeded {seed}", "P", 150 + 50 * seed, ferocious=seed % 2 == 0).id
        sheet_service.add_force(sid, "player", "A", base_power=100 + 40 * seed)
        sheet_service.add_force(sid, "enemy", "B", base_power=300)
        dice = SeededDice(seed)
        play_service.roll_length(sid, dice)
        for _ in range(60):
            nxt = sheet_service.next_turn(sid)
            if nxt.blocked:
                break
            action = "fig" if nxt.breakout or seed % 3 else "dec"
            posture = None if action == "dec" else nxt.posture_fixed or 1
            edit = play_service.play_turn(sid, action, posture, dice=dice)
            if edit.result.battle:
                play_service.record_turn(
                    sid, edit.result.turn, glory=edit.result.glory or 0, enemy_tv=edit.result.enemy_tv or 0, bunkers=1
                )
        assert SologearSheet.get_by_id(sid).status == "ended"
        edit = play_service.end_campaign(sid, dice)
        assert edit.result.noticed in (True, False)


# --- edge cases: out-of-range unit values, repair turns, units fixed after the length roll ----------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"base_power": 1e308}, "base power must be at most 1,000,000"),
        ({"base_power": float("inf")}, "base power must be a number of 0 or more"),
        ({"base_power": float("nan")}, "base power must be a number of 0 or more"),
        ({"company_tv": 1_000_001}, "company TV must be at most 1000000"),
    ],
)
def test_huge_or_non_finite_unit_values_are_refused(kwargs: dict[str, Any], message: str) -> None:
    sid = make_sheet()
    before = counts()
    with pytest.raises(ServiceError, match=message):
        sheet_service.add_force(sid, "enemy", "Giant", **kwargs)
    assert counts() == before


def test_rep_turn_repairs_and_rearms_the_gear_and_undoes_exactly() -> None:
    sid = make_sheet(length=5)
    play_service.play_turn(sid, TurnAction.FIG, 0, dice=TypedDice([[2, 3], [6], [1, 1, 1, 1], [1]]))  # Equal 5: 1D6G,##
    play_service.record_turn(sid, 1, glory=6, short_ammo=True)
    sheet = SologearSheet.get_by_id(sid)
    assert sheet.gear_damaged and sheet.short_ammo
    edit = play_service.play_turn(sid, TurnAction.REP, dice=TypedDice([[5]]))
    assert "3 hours of repairs" in edit.message and "repaired and re-armed" in edit.message
    assert any("repaired and re-armed" in m for m in edit.result.meaning)
    assert not edit.result.result.gear_damaged and not edit.result.result.short_ammo
    sheet = SologearSheet.get_by_id(sid)
    assert not sheet.gear_damaged and not sheet.short_ammo
    assert sheet_service.next_turn(sid).actions == ("dec", "fig")  # nothing left to repair
    assert any("repaired and re-armed" in m for m in sheet_service.sheet_data(sid).turns[-1].meaning)
    play_service.undo_last(sid)
    sheet = SologearSheet.get_by_id(sid)
    assert sheet.gear_damaged and sheet.short_ammo and sheet_service.next_turn(sid).actions == ("dec", "rep", "fig")


def test_units_are_fixed_once_the_length_is_rolled_except_their_names() -> None:
    sid = make_sheet(length=5)
    enemy = SologearForce.get(SologearForce.side == "enemy")
    before = counts()
    with pytest.raises(ServiceError, match="adding a unit is no longer possible; undo the length roll first"):
        sheet_service.add_force(sid, "enemy", "Horde", base_power=100)
    with pytest.raises(ServiceError, match="removing a unit .*undo the length roll first"):
        sheet_service.remove_force(enemy.id)
    for field, value in (
        ("base_power", 10),
        ("company_tv", 2000),
        ("skill", "rookie"),
        ("loyalty", "shaken"),
        ("side", "player"),
    ):
        with pytest.raises(ServiceError, match="undo the length roll first"):
            sheet_service.update_force(enemy.id, **{field: value})
    assert counts() == before and SologearForce.get_by_id(enemy.id).base_power == 400
    sheet_service.update_force(enemy.id, name="Rabid Company")  # names may change
    sheet_service.update_force(enemy.id, skill="veteran")  # the same value: nothing changes, nothing refused
    assert SologearForce.get_by_id(enemy.id).name == "Rabid Company"
    play_service.undo_last(sid)  # the length roll
    sheet_service.update_force(enemy.id, base_power=10)
    sheet_service.remove_force(enemy.id)
