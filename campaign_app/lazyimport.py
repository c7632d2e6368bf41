"""``lazy_module(name)``: a module object that is imported on its first attribute access.

The CLI's command modules use it for the services (and through them peewee and the database code), so that
building the parser, ``--help``, ``--version`` and the database-free rule commands start fast; the module is
really imported the first time a handler touches it. Use it only for plain modules (no import side effects
that must happen early)."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """``name`` from :data:`sys.modules` if already imported, else a lazily loading module."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
