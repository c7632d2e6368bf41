"""d12 Death Blow (RULES.md §5), worked by hand: Reaction Speed, Initiative, every shift case, damage with the
signature bonus, decks emptied in mid-round, draws, XP with carry-over and the stop at level 11."""

from __future__ import annotations

import pytest

from campaign_app.rules import death_blow as db
from campaign_app.rules.death_blow import Bout, Card, Career, DeathBlowError, FallbackDice, gain_xp


def card(label: str) -> Card:
    return db.card_from_key(label)


# --- §5.1 careers ---------------------------------------------------------------------------------------------


def test_xp_carries_over_across_a_level():
    step = gain_xp(Career(level=2, xp=10, lifetime_xp=40), 5)  # the rules' own example: 10 + 5 → next level, 3 XP
    assert step.after == Career(3, 3, 45)
    assert step.levels_reached == (3,)


def test_exactly_twelve_xp_make_a_level_with_empty_boxes():
    assert gain_xp(Career(0, 0, 0), 12).after == Career(1, 0, 12)
    assert gain_xp(Career(0, 11, 11), 12).after == Career(1, 11, 23)  # 23 XP: one level only, 11 carried
    assert gain_xp(Career(4, 7, 55), 0).after == Career(4, 7, 55)
    assert not gain_xp(Career(4, 7, 55), 4).levelled_up


def test_xp_stops_at_level_eleven_and_goes_to_lifetime_only():
    step = gain_xp(Career(10, 8, 128), 12)  # 20 XP: level 11, the 8 over go to lifetime only
    assert step.after == Career(11, 0, 140)
    assert step.levels_reached == (11,)
    again = gain_xp(step.after, 7)
    assert again.after == Career(11, 0, 147) and not again.levelled_up


@pytest.mark.parametrize("bad", [-1, 13, True, 2.0])
def test_a_gain_outside_zero_to_twelve_is_refused(bad):
    with pytest.raises(DeathBlowError):
        gain_xp(Career(), bad)


def test_career_values_are_checked():
    with pytest.raises(DeathBlowError):
        Career(12, 0, 0)
    with pytest.raises(DeathBlowError):
        Career(3, 12, 0)
    with pytest.raises(DeathBlowError):
        Career(11, 3, 200)  # at level 11 XP toward the next level is always 0


# --- §5.2 cards, speed, initiative ----------------------------------------------------------------------------


def test_a_deck_is_54_cards_with_twelve_face_cards_and_two_jokers():
    deck = db.full_deck()
    assert len(deck) == len(set(deck)) == 54
    assert db.face_cards(deck) == 12
    assert [c.label for c in deck if c.is_joker] == ["Joker", "Joker"]
    assert {c.label for c in deck} >= {"A♠", "7♥", "10♦", "Q♣"}


@pytest.mark.parametrize(
    ("label", "level", "speed"),
    [
        ("A♠", 7, 1),
        ("7♥", 0, 7),
        ("10♦", 11, 10),
        ("J♣", 0, 0),
        ("Q♥", 3, 3),
        ("K♠", 7, 7),
        ("K♦", 11, 11),
        ("Joker1", 5, None),
    ],
)
def test_reaction_speed(label, level, speed):
    assert db.reaction_speed(card(label), level) == speed


@pytest.mark.parametrize(
    ("label", "level", "dice", "expected"),
    [
        ("7♠", 0, (3, 9), 1),  # 3 ≤ 7 < 9
        ("7♠", 0, (7, 7), 2),  # equal to the speed counts
        ("7♠", 0, (8, 12), 0),
        ("Q♥", 5, (5, 6), 1),  # a face card's speed is the level
        ("Q♥", 0, (1, 1), 0),  # level 0: a face card never has Initiative
        ("A♦", 3, (1, 2), 1),
        ("Joker2", 0, (12, 12), 2),  # a signature move: Initiative 2, no dice compared
    ],
)
def test_initiative_from_dice(label, level, dice, expected):
    assert db.initiative(card(label), level, dice) == expected


def test_styles_start_from_the_suit():
    assert db.starting_style(card("5♥")) == db.starting_style(card("5♦")) == "mixed-offense"
    assert db.starting_style(card("5♠")) == db.starting_style(card("5♣")) == "mixed-defense"
    assert db.starting_style(card("Joker1")) == "mixed-offense"


def test_scale_of_styles():
    assert db.attack_defense("all-out-attack", (9, 4)) == (13, 0)
    assert db.attack_defense("mixed-offense", (4, 9)) == (9, 4)
    assert db.attack_defense("mixed-defense", (9, 4)) == (4, 9)
    assert db.attack_defense("iron-defense", (9, 4)) == (0, 13)


# --- shifts ---------------------------------------------------------------------------------------------------


def test_equal_initiative_nobody_shifts():
    a, b = db.resolve_round(card("7♠"), 0, (3, 9), card("4♥"), 0, (2, 8))  # 1 against 1
    assert (a.initiative, b.initiative) == (1, 1)
    assert (a.style, a.final_style, b.style, b.final_style) == ("mixed-defense",) * 2 + ("mixed-offense",) * 2
    # a: Mixed Defense 3/9; b: Mixed Offense 8/2 → a deals 3 − 2 = 1, b deals 8 − 9 → 0
    assert (a.attack, a.defense, a.damage) == (3, 9, 1)
    assert (b.attack, b.defense, b.damage) == (8, 2, 0)


def test_difference_one_shifts_one_step_up():
    # a: 10♠ (Mixed Defense) 9,4 → Initiative 2; b: 3♥ (Mixed Offense) 5,2 → 1. a may shift one step:
    # Iron Defense 0/13: deals 0, takes 0 → 0; Mixed Defense 4/9: deals 2, takes 0 → 2;
    # Mixed Offense 9/4: deals 7, takes 1 → 6 (best).
    a, b = db.resolve_round(card("10♠"), 0, (9, 4), card("3♥"), 0, (5, 2))
    assert (a.initiative, b.initiative) == (2, 1)
    assert (a.style, a.final_style) == ("mixed-defense", "mixed-offense")
    assert b.final_style == b.style == "mixed-offense"  # the lower fighter never shifts
    assert (a.attack, a.defense, a.damage, b.damage) == (9, 4, 7, 1)


def test_difference_one_shifts_down_for_the_lower_side_the_other_way():
    # b has the Initiative this time: b: 8♣ (Mixed Defense) 2,3 → 2; a: 6♦ (Mixed Offense) 12,7 → 0.
    # a's Mixed Offense: 12/7. b within 2 steps of Mixed Defense: Iron 0/5: takes 7 → −7;
    # Mixed Defense 2/3: takes 9 → −9; Mixed Offense 3/2: takes 10 → −10; All-Out 5/0: takes 12 → −12.
    a, b = db.resolve_round(card("6♦"), 4, (12, 7), card("8♣"), 4, (2, 3))
    assert (a.initiative, b.initiative) == (0, 2)
    assert (b.style, b.final_style) == ("mixed-defense", "iron-defense")
    assert (b.attack, b.defense, b.damage) == (0, 5, 0)
    assert a.damage == 7 and a.final_style == "mixed-offense"


def test_difference_two_shifts_two_steps_down():
    # a: K♦ at level 10 (speed 10) 10,9 → 2; b: 3♣ 11,12 → 0. b's Mixed Defense: 11/12.
    # From Mixed Offense: Iron Defense 0/19 → 0; Mixed Defense 9/10 → −1; Mixed Offense 10/9 → −2;
    # All-Out Attack 19/0 → 7 − 11 = −4. Iron Defense, two steps down.
    a, b = db.resolve_round(card("K♦"), 10, (10, 9), card("3♣"), 0, (11, 12))
    assert (a.initiative, b.initiative, a.speed) == (2, 0, 10)
    assert (a.style, a.final_style, a.shifted) == ("mixed-offense", "iron-defense", -2)
    assert (a.damage, b.damage) == (0, 0)


def test_difference_two_shifts_two_steps_up():
    # a: 10♠ 10,9 → 2; b: A♣ 2,2 → 0 (Mixed Defense 2/2).
    # Iron 0/19 → 0; Mixed Defense 9/10 → 7; Mixed Offense 10/9 → 8; All-Out 19/0 → 17 − 2 = 15 (best).
    a, b = db.resolve_round(card("10♠"), 0, (10, 9), card("A♣"), 0, (2, 2))
    assert (a.style, a.final_style, a.shifted) == ("mixed-defense", "all-out-attack", 2)
    assert (a.attack, a.defense, a.damage, b.damage) == (19, 0, 17, 2)


def test_a_tie_keeps_the_cards_style():
    # b: 9♥ 9,8 → 2 against a: 2♥ 12,1 → 1 (a's Mixed Offense 12/1). b within one step of Mixed Offense:
    # Mixed Defense 8/9: 7 − 3 = 4; Mixed Offense 9/8: 8 − 4 = 4; All-Out 17/0: 16 − 12 = 4 → all equal: b keeps
    # Mixed Offense.
    a, b = db.resolve_round(card("2♥"), 0, (12, 1), card("9♥"), 0, (9, 8))
    assert (a.initiative, b.initiative) == (1, 2)
    assert b.final_style == "mixed-offense"
    assert (a.damage, b.damage) == (4, 8)


def test_a_tie_keeps_the_style_nearest_the_card():
    # start Mixed Defense, one step: own dice 6,6 make Mixed Defense and Mixed Offense the same (6/6); with the
    # other fighter's Iron Defense 0/20 every style nets 0 → the card's own style (nearest) is kept.
    assert db.choose_style("mixed-defense", 1, (6, 6), 0, "iron-defense", (10, 10), 0) == "mixed-defense"
    # starting All-Out Attack is not possible from a card, but the rule is general: from Mixed Offense two steps,
    # every style nets 0 against Iron Defense 0/24 (nothing gets through) → Mixed Offense kept;
    assert db.choose_style("mixed-offense", 2, (1, 1), 0, "iron-defense", (12, 12), 0) == "mixed-offense"
    # (a tie of two styles at the same distance that beat the card's own style does not arise with d12 dice and
    # the four styles of the scale; the brute force below checks the whole tie rule anyway)


def test_choose_style_agrees_with_a_brute_force_over_every_case():
    scale = list(db.SCALE)

    def table(index, d):
        return [(0, d[0] + d[1]), (min(d), max(d)), (max(d), min(d)), (d[0] + d[1], 0)][index]

    for start in ("mixed-defense", "mixed-offense"):
        for steps in (1, 2):
            for own in ((1, 12), (6, 6), (3, 9), (12, 12)):
                for other_style in scale:
                    for other in ((2, 11), (7, 7), (12, 1)):
                        for own_bonus, other_bonus in ((0, 0), (4, 0), (0, 3)):
                            oa, od = table(scale.index(other_style), other)
                            s = scale.index(start)
                            options = range(max(0, s - steps), min(3, s + steps) + 1)

                            def net(i, own=own, own_bonus=own_bonus, other_bonus=other_bonus, oa=oa, od=od):
                                a, d = table(i, own)
                                return max(0, a - od) + own_bonus - (max(0, oa - d) + other_bonus)

                            best = max(net(i) for i in options)
                            tied = [i for i in options if net(i) == best]
                            nearest = min(abs(i - s) for i in tied)
                            want = scale[min(i for i in tied if abs(i - s) == nearest)]
                            got = db.choose_style(start, steps, own, own_bonus, other_style, other, other_bonus)
                            assert got == want, (start, steps, own, other_style, other, own_bonus, other_bonus)


# --- signature moves ------------------------------------------------------------------------------------------


def test_a_signature_move_adds_the_level_after_defense():
    # a: Joker at level 4, 3,5: Initiative 2, Mixed Offense 5/3; b: 9♠ 2,8: Initiative 2 → nobody shifts.
    # b's Mixed Defense 2/8: a deals max(0, 5 − 8) + 4 = 4 (at least its level); b deals max(0, 2 − 3) = 0.
    a, b = db.resolve_round(card("Joker1"), 4, (3, 5), card("9♠"), 6, (2, 8))
    assert (a.initiative, b.initiative) == (2, 2)
    assert (a.style, a.final_style, a.speed, a.signature_bonus) == ("mixed-offense", "mixed-offense", None, 4)
    assert (a.damage, b.damage) == (4, 0)


def test_a_signature_move_may_shift_and_keeps_its_bonus():
    # a: Joker at level 6, 11,10 → Initiative 2; b: 2♦ 12,12 → 0 (Mixed Offense 12/12). a within two steps:
    # Iron 0/21 → 6 − 0 = 6; Mixed Defense 10/11 → 6 − 1 = 5; Mixed Offense 11/10 → 6 − 2 = 4;
    # All-Out 21/0 → 9 + 6 − 12 = 3. Iron Defense: its damage is the bonus alone.
    a, b = db.resolve_round(card("Joker2"), 6, (11, 10), card("2♦"), 0, (12, 12))
    assert a.final_style == "iron-defense"
    assert (a.attack, a.defense, a.damage, b.damage) == (0, 21, 6, 0)


# --- bouts: decks emptied ---------------------------------------------------------------------------------------


def _bout(deck_a: list[str], deck_b: list[str], pairs: list[tuple[int, int]], levels=(0, 0)) -> Bout:
    """A bout already under way: what is left of each deck is set by hand (the engine's state), dice typed."""
    bout = Bout(levels[0], levels[1], db.full_deck(), db.full_deck(), FallbackDice(pairs, "test"))
    bout.deck_a = [card(k) for k in deck_a]
    bout.deck_b = [card(k) for k in deck_b]
    bout.rounds.append(db.Round(0, *db.resolve_round(card("2♠"), 0, (1, 1), card("2♠"), 0, (1, 1))))
    return bout


def test_a_deck_emptied_by_damage_in_mid_round_loses():
    # a plays 2♥ (12,1: Mixed Offense 12/1), b plays 9♥ (9,8: Mixed Offense 9/8, see the tie test):
    # b deals 8 but a has only 2 cards left after drawing: a discards 2 and has none; b loses 4 of its 7.
    bout = _bout(["2♥", "3♠", "K♠"], ["9♥", "4♠", "5♠", "6♠", "7♠", "J♣", "Q♦", "K♥"], [(12, 1), (9, 8)])
    rnd = bout.next_round()
    assert (rnd.a.damage, rnd.b.damage) == (4, 8)
    assert (rnd.a.discarded, rnd.a.cards_left) == (2, 0)
    assert [c.label for c in rnd.discards_a] == ["3♠", "K♠"]
    assert (rnd.b.discarded, rnd.b.cards_left) == (4, 3)
    assert bout.over
    result = bout.result
    assert result.winner == "b"
    assert result.face_cards_left == 3 == result.xp_gained  # J♣ Q♦ K♥ still in b's deck


def test_both_decks_emptied_in_one_round_is_a_draw():
    bout = _bout(["2♥", "3♠", "K♠"], ["9♥", "4♠", "J♣", "Q♦", "K♥"], [(12, 1), (9, 8)])
    rnd = bout.next_round()
    assert (rnd.a.cards_left, rnd.b.cards_left) == (0, 0)
    assert (rnd.b.discarded, rnd.a.discarded) == (4, 2)
    assert bout.result.winner == "draw" and bout.result.xp_gained == 0


def test_last_cards_drawn_together_is_a_draw_and_the_winner_keeps_its_face_cards():
    bout = _bout(["5♠"], ["5♣"], [(12, 12), (12, 12)])  # both Mixed Defense 12/12: no damage, both decks empty
    bout.next_round()
    assert bout.result.winner == "draw"
    bout = _bout(["5♠", "K♦"], ["5♣"], [(12, 12), (12, 12)])
    bout.next_round()
    assert bout.result.winner == "a" and bout.result.face_cards_left == 1


def test_typed_dice_then_the_apps_dice():
    result, dice = db.play_bout(2, 3, seed=7, typed=[(7, 3), (11, 2)])
    first = result.rounds[0]
    assert first.a.dice == (7, 3) and first.b.dice == (11, 2)
    assert first.a.dice_source == first.b.dice_source == "entered"
    assert result.rounds[1].a.dice_source == "app"
    assert dice.switched_at == 3


def test_a_bad_typed_pair_is_refused():
    with pytest.raises(DeathBlowError, match="pair 2"):
        FallbackDice([(7, 3), (13, 2)], 1)


def test_the_same_seed_gives_the_same_bout():
    one, _ = db.play_bout(4, 4, seed=99)
    two, _ = db.play_bout(4, 4, seed=99)
    three, _ = db.play_bout(4, 4, seed=100)
    assert one == two
    assert one != three


def test_odds_are_probabilities_with_a_margin():
    odds = db.estimate_odds(0, 11, bouts=400, seed=1)
    assert odds.bouts == 400
    assert abs(odds.fighter_wins + odds.opponent_wins + odds.draws - 1) < 1e-9
    assert odds.opponent_wins > odds.fighter_wins  # a level 11 fighter beats a level 0 one more often
    assert 0 < odds.margin < 0.1
