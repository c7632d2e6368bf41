"""Qt settings for the widgets the window paints first, without building the ``Qt`` namespace's enums.

PySide6 builds the Python enums of a Qt class when the class is first reached. For the ``Qt`` namespace
(``from PySide6.QtCore import Qt``, or any call that takes or returns one of its values) that is 93 enums at
once, about 25 ms: a twentieth of the window's start, and a bare PySide6 window never pays it. So the code that
runs before the first paint (the main window's start-up, the navigator, the first-run page) sets its enum-typed
properties by the key's name (:func:`set_enum`), uses plain item-data role numbers and elides with
:func:`elide_middle`; code that runs later
reads ``QtCore.Qt`` as usual (``from PySide6 import QtCore`` reaches ``QtCore.Qt`` only when the line runs).
``tests/gui/test_start_cost.py`` keeps the window's start free of them.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QFontMetrics

USER_ROLE = 0x0100
"""``Qt.ItemDataRole.UserRole``: the first item-data role free for the app's own values."""


def set_enum(obj: QObject, prop: str, keys: str) -> None:
    """Set the Qt property ``prop`` (an enum or flags) by its key names, e.g. ``set_enum(label, "alignment",
    "AlignCenter")`` or ``"AlignHCenter|AlignTop"``. A misspelt property or key raises ``ValueError`` (Qt only
    returns False)."""
    if not obj.setProperty(prop, keys):
        raise ValueError(f"{type(obj).__name__} has no property {prop!r} that takes {keys!r}")


def elide_middle(metrics: QFontMetrics, text: str, width: int) -> str:
    """``text`` as it is when it fits in ``width`` pixels, else its two ends joined by "…" (as much of each as
    fits): ``QFontMetrics.elidedText(..., ElideMiddle, ...)`` without the ``Qt`` namespace."""
    if metrics.horizontalAdvance(text) <= width:
        return text

    def cut(kept: int) -> str:
        return text[: (kept + 1) // 2] + "…" + text[len(text) - kept // 2 :]

    low, high = 0, len(text) - 1  # the most characters kept that still fit (none: the ellipsis alone)
    while low < high:
        middle = (low + high + 1) // 2
        if metrics.horizontalAdvance(cut(middle)) <= width:
            low = middle
        else:
            high = middle - 1
    return cut(low)
