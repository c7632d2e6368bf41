"""Independent checks of the Death Blow engine (RULES.md §5.2): seeded bouts conserve cards, the recorded rounds
replay to the same result, and the odds estimate agrees with a plain re-simulation written here."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign_app.rules import death_blow as db

levels = st.integers(min_value=0, max_value=11)
seeds = st.integers(min_value=0, max_value=2**32)
typed_pairs = st.lists(st.tuples(st.integers(1, 12), st.integers(1, 12)), max_size=12)


@settings(max_examples=150, deadline=None)
@given(levels, levels, seeds, typed_pairs)
def test_every_card_is_drawn_discarded_or_left_exactly_once(level_a, level_b, seed, typed):
    result, _ = db.play_bout(level_a, level_b, seed, typed)
    deck_a, deck_b = db.shuffled_decks(seed)
    for side, deck, left in (("a", deck_a, result.deck_a), ("b", deck_b, result.deck_b)):
        drawn = [getattr(r, side).card for r in result.rounds]
        discarded = [c for r in result.rounds for c in (r.discards_a if side == "a" else r.discards_b)]
        seen = Counter([*drawn, *discarded, *left])
        assert seen == Counter(deck), side  # every card exactly once, no card invented
        assert all(n == 1 for n in seen.values())
        # and in the deck's order: drawn and discarded cards come off the top in turn
        order = []
        for r in result.rounds:
            order.append(getattr(r, side).card)
            order.extend(r.discards_a if side == "a" else r.discards_b)
        assert order + list(left) == deck
        # the counts the rounds record agree with the cards
        running = len(deck)
        for r in result.rounds:
            me = getattr(r, side)
            running -= 1 + me.discarded
            assert me.cards_left == running
    # the end: at least one deck empty, only at the last round, and the winner is the side with cards
    assert not result.deck_a or not result.deck_b
    assert all(r.a.cards_left and r.b.cards_left for r in result.rounds[:-1])
    expected = "draw" if not result.deck_a and not result.deck_b else ("a" if result.deck_a else "b")
    assert result.winner == expected
    kept = result.deck_a if expected == "a" else result.deck_b if expected == "b" else ()
    assert result.xp_gained == sum(1 for c in kept if c.label[0] in "JQK" and c.label != "Joker")
    assert 0 <= result.xp_gained <= 12


@settings(max_examples=100, deadline=None)
@given(levels, levels, seeds)
def test_the_recorded_rounds_replay_to_the_same_result(level_a, level_b, seed):
    result, _ = db.play_bout(level_a, level_b, seed)
    pairs = [p for r in result.rounds for p in (r.a.dice, r.b.dice)]
    deck_a, deck_b = db.shuffled_decks(seed)
    again = db.replay(level_a, level_b, deck_a, deck_b, pairs)
    assert again.winner == result.winner
    assert again.face_cards_left == result.face_cards_left
    strip = [(r.a.to_dict() | {"dice_source": ""}, r.b.to_dict() | {"dice_source": ""}) for r in result.rounds]
    assert [(r.a.to_dict() | {"dice_source": ""}, r.b.to_dict() | {"dice_source": ""}) for r in again.rounds] == strip


@settings(max_examples=200, deadline=None)
@given(levels, levels, st.lists(st.integers(1, 12), min_size=4, max_size=4), st.integers(0, 53), st.integers(0, 53))
def test_a_round_agrees_with_a_plain_reading_of_the_rules(level_a, level_b, faces, ia, ib):
    """The round written out plainly here (one style choice by trying every style in reach)."""
    card_a, card_b = db.full_deck()[ia], db.full_deck()[ib]
    a, b = db.resolve_round(card_a, level_a, faces[:2], card_b, level_b, faces[2:])
    _check_round(card_a, level_a, faces[:2], card_b, level_b, faces[2:], a, b)


SCALE = ["iron-defense", "mixed-defense", "mixed-offense", "all-out-attack"]


def _ad(style: str, d: list[int] | tuple[int, ...]) -> tuple[int, int]:
    return {
        "all-out-attack": (d[0] + d[1], 0),
        "mixed-offense": (max(d), min(d)),
        "mixed-defense": (min(d), max(d)),
        "iron-defense": (0, d[0] + d[1]),
    }[style]


def _plain(card, level):
    if card.label == "Joker":
        return None, "mixed-offense", level
    speed = level if card.label[0] in "JQK" else (1 if card.label[0] == "A" else int(card.label[:-1]))
    return speed, ("mixed-offense" if card.label[-1] in "♥♦" else "mixed-defense"), 0


def _check_round(card_a, level_a, da, card_b, level_b, dbb, a, b):
    speed_a, style_a, bonus_a = _plain(card_a, level_a)
    speed_b, style_b, bonus_b = _plain(card_b, level_b)
    ini_a = 2 if speed_a is None else sum(f <= speed_a for f in da)
    ini_b = 2 if speed_b is None else sum(f <= speed_b for f in dbb)
    assert (a.initiative, b.initiative) == (ini_a, ini_b)
    final_a, final_b = style_a, style_b

    def pick(start, steps, own, bonus, other_style, other, other_bonus):
        oa, od = _ad(other_style, other)
        s = SCALE.index(start)
        scored = []
        for i in range(len(SCALE)):
            if abs(i - s) <= steps:
                at, de = _ad(SCALE[i], own)
                scored.append((max(0, at - od) + bonus - max(0, oa - de) - other_bonus, -abs(i - s), -i, SCALE[i]))
        return max(scored)[3]

    if ini_a > ini_b:
        final_a = pick(style_a, ini_a - ini_b, da, bonus_a, style_b, dbb, bonus_b)
    elif ini_b > ini_a:
        final_b = pick(style_b, ini_b - ini_a, dbb, bonus_b, style_a, da, bonus_a)
    assert (a.final_style, b.final_style) == (final_a, final_b)
    (aa, ad), (ba, bd) = _ad(final_a, da), _ad(final_b, dbb)
    assert (a.attack, a.defense, b.attack, b.defense) == (aa, ad, ba, bd)
    assert a.damage == max(0, aa - bd) + bonus_a
    assert b.damage == max(0, ba - ad) + bonus_b


def _plain_bout(level_a: int, level_b: int, rng: random.Random) -> str:
    """A whole solo bout written out plainly, with this test's own dice and shuffles."""
    deck_a, deck_b = db.full_deck(), db.full_deck()
    rng.shuffle(deck_a)
    rng.shuffle(deck_b)
    while True:
        ca, cb = deck_a.pop(0), deck_b.pop(0)
        da = [rng.randint(1, 12), rng.randint(1, 12)]
        dbb = [rng.randint(1, 12), rng.randint(1, 12)]
        a, b = db.resolve_round(ca, level_a, da, cb, level_b, dbb)
        _check_round(ca, level_a, da, cb, level_b, dbb, a, b)
        del deck_a[: b.damage]
        del deck_b[: a.damage]
        if not deck_a or not deck_b:
            return "draw" if not deck_a and not deck_b else ("a" if deck_a else "b")


def test_the_odds_estimate_agrees_with_a_plain_re_simulation():
    for level_a, level_b in ((0, 0), (2, 9), (11, 4)):
        odds = db.estimate_odds(level_a, level_b, bouts=4000, seed=f"test {level_a} {level_b}")
        rng = random.Random(12345 + level_a * 100 + level_b)
        n = 3000
        counts = Counter(_plain_bout(level_a, level_b, rng) for _ in range(n))
        plain = {k: counts[k] / n for k in ("a", "b", "draw")}
        plain_margin = max(db.margin_95(p, n) for p in plain.values())
        for ours, theirs in (
            (odds.fighter_wins, plain["a"]),
            (odds.opponent_wins, plain["b"]),
            (odds.draws, plain["draw"]),
        ):
            assert abs(ours - theirs) <= odds.margin + plain_margin, (level_a, level_b, odds, plain)
    # equal fighters: the two sides' chances agree within the margin too
    even = db.estimate_odds(5, 5, bouts=4000, seed="even")
    assert abs(even.fighter_wins - even.opponent_wins) <= 2 * even.margin
