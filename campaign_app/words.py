"""Words for people: counts with the right plural and numbers with the real minus sign. Qt-free, used by the
services, the CLI and the GUI alike, so a message reads the same wherever it is shown."""

from __future__ import annotations


def number(n: int) -> str:
    """A whole number for display: the minus sign (U+2212) for negatives."""
    return f"\u2212{-n}" if n < 0 else str(n)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 roll"``, ``"3 rolls"``, ``"2 wound counters"``, ``plural(2, "sheet", "sheets")``: the count with the
    right form of the word (``many`` for irregular plurals; by default the word plus "s")."""
    return f"{number(n)} {word if n == 1 else (many or word + 's')}"
