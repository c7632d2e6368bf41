"""Typesetting rules shared by every printed page (cards, sheets, reports), without reportlab."""

from __future__ import annotations

import re

_DICE_CODE = re.compile(r"(?<![\w])(\d*[dD]\d+[A-Z]?)(\s*)([+\-\u2212\u00d7])(\s*)(\d+|[A-Z](?![a-z]))")
_NBSP = "\u00a0"


_TRAILING_SIGN = re.compile(r"(?<=\S) ([+\u2212])(?=,|;|\)|$)", re.MULTILINE)
_LETTER_PAIR = re.compile(r"\b([A-Z]) (?=[A-Z]\b)")
_SIGNED_NUMBER = re.compile(r"(?<=\S) ([+\u2212]) (?=\d)")


def keep_dice_codes(text: str) -> str:
    """Dice codes never break across lines: "2d6 + X" and "1d6 − 2" get non-breaking spaces, the sign
    sticks to both sides, a trailing sign ("Rally +") to its word, "x − 1" together, and die letters ("D H")
    to each other."""
    text = _DICE_CODE.sub(
        lambda m: f"{m.group(1)}{_NBSP if m.group(2) else ''}{m.group(3)}{_NBSP if m.group(4) else ''}{m.group(5)}",
        text,
    )
    text = _TRAILING_SIGN.sub(lambda m: _NBSP + m.group(1), text)
    text = _SIGNED_NUMBER.sub(lambda m: _NBSP + m.group(1) + _NBSP, text)  # "dice − 1" stays together
    return _LETTER_PAIR.sub(lambda m: m.group(1) + _NBSP, text)
