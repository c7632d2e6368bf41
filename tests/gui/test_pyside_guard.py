"""The installed PySide6 must not drop references on Python-side emits (6.12.0 does; it crashes Python 3.11
with "bool_dealloc" after a few hundred emits, so pyproject.toml excludes it)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    fired = Signal()
    with_args = Signal(str, int)


def test_emit_keeps_reference_counts_of_true_and_none():
    obj = _Emitter()
    before = (sys.getrefcount(True), sys.getrefcount(None))
    for _ in range(200):
        obj.fired.emit()
        obj.with_args.emit("platoon", 1)
    after = (sys.getrefcount(True), sys.getrefcount(None))
    assert abs(after[0] - before[0]) < 50, "PySide6 loses references to True on emit"
    assert abs(after[1] - before[1]) < 50, "PySide6 loses references to None on emit"
