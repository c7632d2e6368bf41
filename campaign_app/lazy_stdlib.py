"""Standard-library modules that peewee imports at its own import but uses only in a few functions.

peewee's import loads ``socket``, ``calendar``, ``hashlib`` and ``uuid`` (about a twentieth of the desktop
window's start) for an IP-address field, a timestamp conversion, a constraint name and cursor and savepoint
names. Inside :func:`loaded_on_first_use` each of them is a stand-in module that imports the real one on the
first attribute read and from then on is the real one in ``sys.modules``, so every later user sees no difference.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

LAZY = ("socket", "calendar", "hashlib", "uuid")


class _OnFirstUse(types.ModuleType):
    """Stands in for a module not imported yet; the first attribute read imports it."""

    def __getattr__(self, attr: str) -> Any:
        name = self.__name__
        if sys.modules.get(name) is self:
            del sys.modules[name]
        real = importlib.import_module(name)
        self.__dict__.update(real.__dict__)  # later reads find the real module's names directly
        return getattr(real, attr)


@contextmanager
def loaded_on_first_use(names: tuple[str, ...] = LAZY) -> Iterator[None]:
    """While inside, ``import NAME`` of these (not yet imported) gives a stand-in that imports the module on
    the first attribute read. No effect on a module imported already; afterwards imports are as usual."""
    standing: list[str] = []
    for name in names:
        if name not in sys.modules:
            stand_in = _OnFirstUse(name)
            stand_in.__spec__ = importlib.util.find_spec(name)
            sys.modules[name] = stand_in
            standing.append(name)
    try:
        yield
    finally:
        for name in standing:  # a later ``import NAME`` imports the real module
            if isinstance(sys.modules.get(name), _OnFirstUse):
                del sys.modules[name]
