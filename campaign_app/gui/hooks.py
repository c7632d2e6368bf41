"""Optional GUI parts: a function or class from a module that may not be installed/built."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def optional_hook(module: str, name: str) -> Callable[..., Any] | None:
    """``module.name``, or ``None`` when ``module`` itself does not exist (then the caller disables the
    action or shows a placeholder). An import error inside the module is not hidden."""
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise
    return getattr(mod, name, None)
