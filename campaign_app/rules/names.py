"""Generated names for new leaders and pilots (RULES.md 4).

The letter-chart method: the first letter is drawn by how often English words start with it, the following
letters by how often each letter occurs in English text. To keep the result pronounceable, a draw that would
make three consonants or three vowels in a row is drawn again. Frequencies are the commonly published
figures for English (percent).
"""

from __future__ import annotations

import random
from itertools import accumulate

FIRST_LETTER_FREQUENCY: dict[str, float] = {
    "a": 11.7,
    "b": 4.4,
    "c": 5.2,
    "d": 3.2,
    "e": 2.8,
    "f": 4.0,
    "g": 1.6,
    "h": 4.2,
    "i": 7.3,
    "j": 0.51,
    "k": 0.86,
    "l": 2.4,
    "m": 3.8,
    "n": 2.3,
    "o": 7.6,
    "p": 4.3,
    "q": 0.22,
    "r": 2.8,
    "s": 6.7,
    "t": 16.0,
    "u": 1.2,
    "v": 0.82,
    "w": 5.5,
    "x": 0.045,
    "y": 0.76,
    "z": 0.045,
}
LETTER_FREQUENCY: dict[str, float] = {
    "a": 8.2,
    "b": 1.5,
    "c": 2.8,
    "d": 4.3,
    "e": 12.7,
    "f": 2.2,
    "g": 2.0,
    "h": 6.1,
    "i": 7.0,
    "j": 0.15,
    "k": 0.77,
    "l": 4.0,
    "m": 2.4,
    "n": 6.7,
    "o": 7.5,
    "p": 1.9,
    "q": 0.095,
    "r": 6.0,
    "s": 6.3,
    "t": 9.1,
    "u": 2.8,
    "v": 0.98,
    "w": 2.4,
    "x": 0.15,
    "y": 2.0,
    "z": 0.074,
}
VOWELS = frozenset("aeiouy")
DEFAULT_RANK_PREFIX = "Lt."


def _chart(freq: dict[str, float]) -> tuple[list[str], list[float]]:
    letters = sorted(freq)
    return letters, list(accumulate(freq[c] for c in letters))


_FIRST = _chart(FIRST_LETTER_FREQUENCY)
_REST = _chart(LETTER_FREQUENCY)


def _draw(rng: random.Random, chart: tuple[list[str], list[float]]) -> str:
    letters, cumulative = chart
    return rng.choices(letters, cum_weights=cumulative, k=1)[0]


def _ok(word: str) -> bool:
    tail = word[-3:]
    if len(tail) < 3:
        return not (len(tail) == 2 and tail[0] == tail[1] and tail[0] not in "lnrst")
    kinds = {c in VOWELS for c in tail}
    return (
        len(kinds) == 2 and tail[-1] != tail[-2] or (tail[-1] == tail[-2] and tail[-1] in "lnrst" and len(kinds) == 2)
    )


def suggest_word(rng: random.Random, min_len: int = 4, max_len: int = 7) -> str:
    """A pronounceable made-up word, capitalised (e.g. "Tanero")."""
    length = rng.randint(min_len, max_len)
    word = _draw(rng, _FIRST)
    while len(word) < length:
        for _ in range(50):
            candidate = word + _draw(rng, _REST)
            if _ok(candidate):
                word = candidate
                break
        else:  # pragma: no cover - the charts always offer a vowel and a consonant
            word += "a" if word[-1] not in VOWELS else "n"
    if not any(c in VOWELS for c in word):
        word += "a"
    return word.capitalize()


def suggest_name(rng: random.Random, rank_prefix: str = DEFAULT_RANK_PREFIX) -> str:
    """A leader's name such as "Lt. Tanero"."""
    word = suggest_word(rng)
    return f"{rank_prefix} {word}" if rank_prefix else word
