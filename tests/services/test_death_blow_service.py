"""d12 Death Blow services (RULES.md §5), on both engines: fighters, bouts logged and played, undo as one
operation, refusals that write nothing, odds, history."""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path

import pytest

from campaign_app.commands import lookup
from campaign_app.rules import death_blow as rules
from campaign_app.rules.enums import BoutWinner
from campaign_app.services import campaigns as campaign_service
from campaign_app.services import death_blow as s
from campaign_app.services.common import NotFound, ServiceError
from campaign_app.store import journal, journal_read, journal_replay
from campaign_app.store.models import Bout, BoutRound, Fighter, FighterChange
from tests.ids import campaign_id, fighter_id


def counts() -> tuple[int, int, int, int]:
    return (Fighter.select().count(), Bout.select().count(), BoutRound.select().count(), FighterChange.select().count())


@pytest.fixture
def pit() -> str:
    campaign_service.create_campaign("Pit", "death-blow")
    s.create_fighter(campaign_id("Pit"), "Kenji", level=2)
    s.create_fighter(campaign_id("Pit"), "Mara")
    return "Pit"


def test_a_death_blow_campaign_lists_its_fighters(pit: str) -> None:
    info = campaign_service.show_campaign(campaign_id("Pit"))
    assert isinstance(info, campaign_service.DeathBlowCampaign)
    assert info.system == "death_blow" and info.system_label == "d12 Death Blow" and info.fighter_count == 2
    rows = s.list_fighters(campaign_id("Pit"))
    assert [(r.name, r.level, r.xp, r.lifetime_xp, r.bouts) for r in rows] == [
        ("Kenji", 2, 0, 0, 0),
        ("Mara", 0, 0, 0, 0),
    ]


def test_fighters_belong_to_death_blow_campaigns_only(pit: str) -> None:
    campaign_service.create_campaign("Congo", "atomic-africa")
    before = counts()
    with pytest.raises(ServiceError, match="not a d12 Death Blow campaign"):
        s.create_fighter(campaign_id("Congo"), "Kenji")
    with pytest.raises(ServiceError, match="already has a fighter named"):
        s.create_fighter(campaign_id("Pit"), "  kenji ")
    with pytest.raises(ServiceError, match="Experience Level from 0 to 11"):
        s.create_fighter(campaign_id("Pit"), "Old Wu", level=12)
    assert counts() == before


def test_a_table_bout_gives_the_victor_xp_with_carry_over_and_records_both(pit: str) -> None:
    s.set_fighter(fighter_id("Kenji"), xp=10, reason="carried over from the last campaign")
    edit = s.log_bout(
        fighter_id("Kenji"),
        opponent_fighter=fighter_id("Mara"),
        winner=BoutWinner.FIGHTER,
        face_cards=5,
        date=_dt.date(2026, 11, 1),
        notes="in the rain",
    )
    detail = edit.result
    assert (detail.winner, detail.xp_gained, detail.face_cards_left, detail.rounds) == ("Kenji", 5, 5, [])
    assert detail.level_ups == [{"fighter": "Kenji", "level": 3}]
    kenji, mara = s.show_fighter(fighter_id("Kenji")), s.show_fighter(fighter_id("Mara"))
    assert (kenji.level, kenji.xp, kenji.lifetime_xp, kenji.wins, kenji.losses) == (3, 3, 5, 1, 0)
    assert (mara.level, mara.xp, mara.lifetime_xp, mara.wins, mara.losses, mara.bouts) == (0, 0, 0, 0, 1, 1)
    assert "Kenji reached level 3" in edit.message
    # a whole bout is one operation; undo puts both careers back
    journal_replay.undo(edit.operation_id)
    kenji = s.show_fighter(fighter_id("Kenji"))
    assert (kenji.level, kenji.xp, kenji.lifetime_xp, kenji.bouts) == (2, 10, 0, 0)
    journal_replay.redo(edit.operation_id)
    assert s.show_fighter(fighter_id("Kenji")).level == 3


def test_draws_and_outside_opponents(pit: str) -> None:
    s.log_bout(fighter_id("Mara"), opponent_fighter=fighter_id("Kenji"), winner=BoutWinner.DRAW, face_cards=0)
    e = s.log_bout(fighter_id("Mara"), opponent="Old Wu", opponent_level=7, winner=BoutWinner.OPPONENT, face_cards=4)
    assert e.result.winner == "Old Wu" and e.result.opponent_fighter_id is None
    mara = s.show_fighter(fighter_id("Mara"))
    assert (mara.bouts, mara.wins, mara.draws, mara.losses, mara.lifetime_xp) == (2, 0, 1, 1, 0)
    e = s.log_bout(fighter_id("Mara"), opponent="Old Wu", opponent_level=7, winner=BoutWinner.FIGHTER, face_cards=12)
    assert s.show_fighter(fighter_id("Mara")).level == 1 and e.result.opponent_after is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponent_fighter": "Mara", "winner": "Kenji", "face_cards": 13}, "from 0 to 12"),
        ({"opponent_fighter": "Mara", "winner": "Kenji", "face_cards": -1}, "from 0 to 12"),
        ({"opponent_fighter": "Mara", "winner": "Old Wu", "face_cards": 3}, "did not fight in this bout"),
        ({"opponent_fighter": "Kenji", "winner": "Kenji", "face_cards": 3}, "cannot fight themselves"),
        ({"opponent_fighter": "Mara", "winner": "draw", "face_cards": 3}, "a draw leaves no victor"),
        ({"opponent": "Old Wu", "winner": "Kenji", "face_cards": 3}, "give the level of Old Wu"),
        ({"opponent_fighter": "Mara", "winner": "Kenji", "face_cards": 3, "date": "yesterday"}, "must be a date"),
        ({"opponent_fighter": "Nobody", "winner": "Kenji", "face_cards": 3}, "no fighter named 'Nobody'"),
    ],
)
def test_bad_bouts_are_refused_and_write_nothing(pit: str, kwargs: dict, message: str) -> None:
    before = counts()
    with pytest.raises((ServiceError, NotFound), match=message):
        # named as the CLI names them (the argument layer's look-ups); the service takes ids and the side
        kenji = fighter_id("Kenji")
        if "opponent_fighter" in kwargs:
            kwargs = {**kwargs, "opponent_fighter": fighter_id(kwargs["opponent_fighter"])}
        side = lookup.bout_winner(kwargs["winner"], kenji, kwargs.get("opponent_fighter"), kwargs.get("opponent"))
        s.log_bout(kenji, **{**kwargs, "winner": side})
    assert counts() == before


def test_a_fighter_of_another_campaign_is_refused(pit: str) -> None:
    campaign_service.create_campaign("Dojo", "death-blow")
    s.create_fighter(campaign_id("Dojo"), "Ryu")
    before = counts()
    with pytest.raises(ServiceError, match="Ryu is a fighter of another campaign"):
        s.log_bout(fighter_id("Kenji"), opponent_fighter=fighter_id("Ryu"), winner=BoutWinner.FIGHTER, face_cards=1)
    ryu = Fighter.get(Fighter.name == "Ryu").id
    with pytest.raises(ServiceError, match="Ryu is a fighter of another campaign"):  # by id, as the GUI does
        s.log_bout(
            Fighter.get(Fighter.name == "Kenji").id, opponent_fighter=ryu, winner=BoutWinner.FIGHTER, face_cards=1
        )
    with pytest.raises(ServiceError, match="another campaign"):
        s.SoloBout(fighter_id("Kenji"), ryu)
    assert counts() == before


def test_a_solo_bout_is_played_recorded_and_undone_as_one(pit: str) -> None:
    before = counts()
    edit, solo = s.play_bout(
        fighter_id("Kenji"), fighter_id("Mara"), seed="table 3", dice=["7,3", "11,2", "5,5", "9,1"]
    )
    d = edit.result
    assert len(d.rounds) == len(solo.rounds) >= 1
    first = d.rounds[0]
    assert first["a"]["dice"] == [7, 3] and first["b"]["dice"] == [11, 2]
    assert d.rounds[2]["a"]["dice_source"] == "app" and solo.app_rolled_from == 3
    for key in (
        "card",
        "dice",
        "initiative",
        "style",
        "final_style",
        "attack",
        "defense",
        "damage",
        "discarded",
        "cards_left",
    ):
        assert key in first["a"] and key in first["b"]
    # the result is the engine's, from the same seed and dice
    deck_a, deck_b = rules.shuffled_decks("table 3")
    pairs = [tuple(r[side]["dice"]) for r in d.rounds for side in ("a", "b")]
    again = rules.replay(2, 0, deck_a, deck_b, pairs)
    assert {"a": "Kenji", "b": "Mara", "draw": "draw"}[again.winner] == d.winner
    assert again.face_cards_left == d.face_cards_left == d.xp_gained or d.winner == "draw"
    assert json.loads(json.dumps(s.show_bout(d.id).to_dict()))["rounds"] == json.loads(json.dumps(d.rounds))
    # one operation; undo removes bout, rounds and the XP
    ops = journal_read.list_operations(limit=1)
    assert ops[0].kind == "bout.play" and ops[0].id == edit.operation_id
    journal_replay.undo(edit.operation_id)
    assert counts() == before
    assert (s.show_fighter(fighter_id("Kenji")).lifetime_xp, s.show_fighter(fighter_id("Mara")).lifetime_xp) == (0, 0)


def test_the_same_seed_and_fighters_give_the_same_bout(pit: str) -> None:
    one = s.SoloBout(fighter_id("Kenji"), fighter_id("Mara"), seed=77)
    two = s.SoloBout(fighter_id("Kenji"), fighter_id("Mara"), seed="77")
    r1, r2 = one.play_to_end(), two.play_to_end()
    assert r1 == r2


def test_a_cancelled_solo_bout_writes_nothing(pit: str) -> None:
    before = counts()
    ops = len(journal_read.list_operations())
    solo = s.SoloBout(fighter_id("Kenji"), fighter_id("Mara"), seed=5)
    solo.next_round()
    solo.next_round([7, 3], [11, 2])
    assert solo.rounds[1].a.dice == (7, 3) and solo.rounds[1].a.dice_source == "entered"
    del solo
    assert counts() == before and len(journal_read.list_operations()) == ops


def test_a_solo_bout_is_refused_when_a_career_changed_meanwhile(pit: str) -> None:
    solo = s.SoloBout(fighter_id("Kenji"), fighter_id("Mara"), seed=5)
    solo.play_to_end()
    s.log_bout(fighter_id("Mara"), opponent="Old Wu", opponent_level=1, winner=BoutWinner.FIGHTER, face_cards=2)
    before = counts()
    with pytest.raises(ServiceError, match="changed since the bout started"):
        solo.save()
    assert counts() == before


def test_undo_of_an_earlier_bout_is_refused_while_a_later_one_changed_the_fighter(pit: str) -> None:
    first = s.log_bout(
        fighter_id("Kenji"), opponent_fighter=fighter_id("Mara"), winner=BoutWinner.FIGHTER, face_cards=5
    )
    s.log_bout(fighter_id("Kenji"), opponent_fighter=fighter_id("Mara"), winner=BoutWinner.FIGHTER, face_cards=5)
    with pytest.raises(journal.Conflict):
        journal_replay.undo(first.operation_id)
    assert s.show_fighter(fighter_id("Kenji")).lifetime_xp == 10


def test_typed_dice_are_checked(pit: str) -> None:
    with pytest.raises(ServiceError, match="two d12 faces"):
        s.play_bout(fighter_id("Kenji"), fighter_id("Mara"), dice=["7,3", "13,2"])
    with pytest.raises(ServiceError, match="two d12 faces"):
        s.play_bout(fighter_id("Kenji"), fighter_id("Mara"), dice=["7"])
    assert Bout.select().count() == 0


def test_corrections_are_journalled_with_their_reason(pit: str) -> None:
    e = s.set_fighter(fighter_id("Mara"), level=11, reason="the players agreed")
    assert (e.result.level, e.result.xp) == (11, 0)
    with pytest.raises(ServiceError, match="level 11"):
        s.set_fighter(fighter_id("Mara"), xp=3)
    change = FighterChange.get(FighterChange.field == "level")
    assert (change.old_value, change.new_value, change.reason) == ("0", "11", "the players agreed")
    s.log_bout(fighter_id("Mara"), opponent="Old Wu", opponent_level=3, winner=BoutWinner.FIGHTER, face_cards=9)
    mara = s.show_fighter(fighter_id("Mara"))
    assert (mara.level, mara.xp, mara.lifetime_xp) == (11, 0, 9)  # XP past level 11 counts in lifetime only


def test_rename_retire_delete(pit: str) -> None:
    s.rename_fighter(fighter_id("Mara"), "Mara the Swift")
    s.retire_fighter(fighter_id("Mara the Swift"))
    with pytest.raises(ServiceError, match="retired"):
        s.log_bout(
            fighter_id("Kenji"), opponent_fighter=fighter_id("Mara the Swift"), winner=BoutWinner.FIGHTER, face_cards=1
        )
    s.retire_fighter(fighter_id("Mara the Swift"), retired=False)
    s.log_bout(
        fighter_id("Kenji"), opponent_fighter=fighter_id("Mara the Swift"), winner=BoutWinner.FIGHTER, face_cards=1
    )
    with pytest.raises(ServiceError, match="retire the fighter instead"):
        s.delete_fighter(fighter_id("Kenji"))
    s.create_fighter(campaign_id("Pit"), "Solo")
    s.log_bout(fighter_id("Solo"), opponent="Old Wu", opponent_level=3, winner=BoutWinner.FIGHTER, face_cards=1)
    edit = s.delete_fighter(fighter_id("Solo"))
    assert not Fighter.select().where(Fighter.name == "Solo").exists()
    journal_replay.undo(edit.operation_id)
    assert s.show_fighter(fighter_id("Solo")).bouts == 1


def test_odds_estimate(pit: str) -> None:
    odds = s.bout_odds(fighter_id("Kenji"), fighter_id("Mara"), bouts=500, seed=3)
    assert odds.bouts == 500 and odds.estimate
    assert abs(odds.fighter_wins + odds.opponent_wins + odds.draws - 1) < 1e-9
    again = s.bout_odds(fighter_id("Kenji"), fighter_id("Mara"), bouts=500, seed=3)
    assert again == odds
    with pytest.raises(ServiceError, match="number of bouts"):
        s.bout_odds(fighter_id("Kenji"), fighter_id("Mara"), bouts=5)


def test_history_timeline_series_head_to_head_and_export(pit: str, tmp_path: Path) -> None:
    s.log_bout(
        fighter_id("Kenji"),
        opponent_fighter=fighter_id("Mara"),
        winner=BoutWinner.FIGHTER,
        face_cards=12,
        date=_dt.date(2026, 10, 1),
    )
    s.log_bout(
        fighter_id("Mara"),
        opponent_fighter=fighter_id("Kenji"),
        winner=BoutWinner.FIGHTER,
        face_cards=3,
        date=_dt.date(2026, 10, 5),
    )
    s.set_fighter(fighter_id("Kenji"), xp=4, reason="miscounted")
    h = s.fighter_history(fighter_id("Kenji"))
    kinds = [e.kind for e in h.events]
    assert kinds[-1] == "created" and "level" in kinds and "correction" in kinds
    assert [p["level"] for p in h.series] == [2, 3, 3]
    assert [p["lifetime_xp"] for p in h.series] == [0, 12, 12]
    assert h.head_to_head == [
        {"fighter": "Kenji", "opponent": "Mara", "bouts": 2, "fighter_wins": 1, "opponent_wins": 1, "draws": 0}
    ]
    n = s.export_history(fighter_id("Kenji"), tmp_path / "k.csv", "csv")
    lines = (tmp_path / "k.csv").read_text().splitlines()
    assert lines[0].startswith("date,kind,text") and len(lines) == n + 1
    s.export_history(fighter_id("Kenji"), tmp_path / "k.json", "json")
    data = json.loads((tmp_path / "k.json").read_text())
    assert data["fighter"]["name"] == "Kenji" and len(data["events"]) == n


def test_portable_file_round_trip(pit: str, tmp_path: Path) -> None:
    from campaign_app.services import portable

    s.log_bout(
        fighter_id("Kenji"),
        opponent_fighter=fighter_id("Mara"),
        winner=BoutWinner.FIGHTER,
        face_cards=12,
        date=_dt.date(2026, 10, 1),
    )
    s.play_bout(fighter_id("Kenji"), fighter_id("Mara"), seed="export", dice=["7,3", "11,2"])
    s.set_fighter(fighter_id("Mara"), xp=5, reason="house ruling")
    out = tmp_path / "pit.json"
    exported = portable.export_campaign(campaign_id("Pit"), out)
    assert (exported.counts.fighter, exported.counts.bout, exported.counts.fighter_change) == (2, 2, 1)
    imported = portable.import_campaign(out, "Pit again")
    assert imported.counts.bout_round == exported.counts.bout_round > 0
    for name in ("Kenji", "Mara"):
        a, b = s.show_fighter(fighter_id(name, "Pit")), s.show_fighter(fighter_id(name, "Pit again"))
        strip = ("id", "campaign_id", "campaign", "recent")
        assert {k: v for k, v in a.to_dict().items() if k not in strip} == {
            k: v for k, v in b.to_dict().items() if k not in strip
        }
        assert [(x.winner, x.face_cards_left, x.opponent) for x in a.recent] == [
            (x.winner, x.face_cards_left, x.opponent) for x in b.recent
        ]
    solo_a = next(x for x in s.show_fighter(fighter_id("Kenji", "Pit")).recent if x.mode == "solo")
    solo_b = next(x for x in s.show_fighter(fighter_id("Kenji", "Pit again")).recent if x.mode == "solo")
    assert s.show_bout(solo_a.id).rounds == s.show_bout(solo_b.id).rounds
    # a damaged round in the file is refused, nothing imported
    doc = json.loads(out.read_text())
    doc["tables"]["bout_round"][0]["a"] = json.dumps({"card": "A♠", "dice": [13, 1]})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    before = counts()
    with pytest.raises(ServiceError, match="bout_round row 1, a"):
        portable.import_campaign(bad, "Broken")
    assert counts() == before
