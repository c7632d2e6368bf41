"""Words for people: real plurals and the minus sign, and no "(s)" left in any message of the app."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from campaign_app.words import number, plural

ROOT = Path(__file__).resolve().parents[1] / "campaign_app"


def test_plural_and_number() -> None:
    assert plural(1, "battle") == "1 battle"
    assert plural(0, "battle") == "0 battles"
    assert plural(3, "wound counter") == "3 wound counters"
    assert plural(2, "sheet", "sheets of paper") == "2 sheets of paper"
    assert plural(-1, "XP", "XP") == "\u22121 XP"
    assert number(-9) == "\u22129" and number(4) == "4"


def test_no_message_says_s_in_brackets() -> None:
    """'1 platoon(s)' reads like a form; every count in a message uses :func:`plural`."""
    found = []
    for path in ROOT.rglob("*.py"):
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        for tok in tokens:
            if (
                tok.type in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1))
                and not tok.string.startswith(('"""', "'''", 'r"""'))
                and re.search(r"[a-z]\(s\)", tok.string)
            ):
                found.append(f"{path.relative_to(ROOT)}:{tok.start[0]}: {tok.string.strip()[:60]}")
    assert not found, "\n".join(found)


def test_one_error_style_in_the_gui() -> None:
    """Problems are shown in the one palette-aware red of ``widgets.error_color``: no page or dialog sets a
    colour of its own in a style sheet."""
    found = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in (ROOT / "gui").rglob("*.py")
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if "setStyleSheet(" in line and re.search(r"color:\s*#", line)
    ]
    assert not found, found
