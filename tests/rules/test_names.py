from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from campaign_app.rules.names import FIRST_LETTER_FREQUENCY, LETTER_FREQUENCY, VOWELS, suggest_name, suggest_word


def test_charts_cover_the_alphabet():
    assert set(FIRST_LETTER_FREQUENCY) == set(LETTER_FREQUENCY) == set("abcdefghijklmnopqrstuvwxyz")


@given(st.integers(min_value=0, max_value=2**32))
def test_words_are_pronounceable(seed: int):
    word = suggest_word(random.Random(seed)).lower()
    assert 4 <= len(word) <= 8 and word.isalpha()
    assert any(c in VOWELS for c in word)
    for i in range(len(word) - 2):
        chunk = word[i : i + 3]
        assert not all(c in VOWELS for c in chunk), word
        assert not all(c not in VOWELS for c in chunk), word


def test_same_seed_same_name_and_first_letters_follow_chart():
    assert suggest_name(random.Random(7)) == suggest_name(random.Random(7))
    assert suggest_name(random.Random(7)).startswith("Lt. ")
    rng = random.Random(1)
    firsts = [suggest_word(rng)[0].lower() for _ in range(3000)]
    # "t" starts far more English words than "z" does
    assert firsts.count("t") > 10 * max(1, firsts.count("z"))
