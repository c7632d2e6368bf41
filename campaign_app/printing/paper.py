"""Paper sizes for printed pages, and the default one from the user's locale.

US and Canadian locales default to Letter, every other locale to A4 (the sheets and the card decks share this
helper; a setting or ``--paper`` overrides it).
"""

from __future__ import annotations

import locale
import os
import re

from ..errors import Refused
from .sizes import PAPER_SIZES

__all__ = ["PAPER_SIZES", "default_paper", "paper_for_locale", "paper_size"]

LETTER_TERRITORIES = frozenset({"US", "CA"})
_LETTER_WORDS = ("united states", "canada")  # Windows names its locales "English_United States.1252"
_ENV_VARS = ("LC_ALL", "LC_PAPER", "LANG")


def paper_for_locale(name: str | None) -> str:
    """``"letter"`` for a US/Canada locale name (``en_US.UTF-8``, ``fr_CA``, ``English_United States``),
    else ``"a4"`` (also for an empty or unknown name)."""
    if not name:
        return "a4"
    text = name.strip()
    m = re.match(r"^[A-Za-z]{2,3}[_-]([A-Za-z]{2})\b", text)
    if m and m.group(1).upper() in LETTER_TERRITORIES:
        return "letter"
    lowered = text.lower()
    return "letter" if any(word in lowered for word in _LETTER_WORDS) else "a4"


def default_paper(environ: dict[str, str] | None = None) -> str:
    """The paper name for this user: from LC_ALL, LC_PAPER or LANG (first one set, ignoring C/POSIX), else
    from Python's locale; ``"a4"`` when nothing tells."""
    env = os.environ if environ is None else environ
    plain_c = False
    for var in _ENV_VARS:
        value = env.get(var, "")
        if value and value.split(".")[0] not in ("C", "POSIX"):
            return paper_for_locale(value)
        plain_c = plain_c or bool(value)
    # C/POSIX says nothing about paper (and Python reports "C.UTF-8" as en_US): use A4
    if environ is not None or plain_c:
        return "a4"
    try:
        name = locale.getlocale()[0]
    except ValueError:  # pragma: no cover - unusual locale strings
        name = None
    return paper_for_locale(name)


def paper_size(name: str) -> tuple[float, float]:
    """(width, height) in points for ``"a4"`` or ``"letter"`` (case-insensitive)."""
    try:
        return PAPER_SIZES[name.lower()]
    except KeyError:
        raise Refused(f"unknown paper {name!r}: use one of {', '.join(PAPER_SIZES)}") from None
