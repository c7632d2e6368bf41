"""The base of typed service results.

A service returns a frozen dataclass that derives from :class:`Result` instead of a ``dict[str, Any]``: the GUI,
the CLI and the printing code read attributes that mypy checks. :meth:`Result.to_dict` gives the plain JSON
shape the CLI prints with ``--json`` (field names are the keys; nested results, lists and dicts are converted;
a field declared with ``field(metadata={"json": False})`` is left out, one with ``{"json": "name"}`` is printed
under that key).
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any


def plain(value: Any) -> Any:
    """``value`` as plain JSON-ready data: results and other dataclasses become dicts, tuples become lists;
    enums stay as they are (they are ``str``/``int`` enums, printed as their value)."""
    if isinstance(value, Result):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        to_dict = getattr(value, "to_dict", None)
        if callable(to_dict):
            return to_dict()
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, enum.Enum) and not isinstance(value, (str, int)):
        return value.value
    return value


class Result:
    """Mixin for ``@dataclass(frozen=True)`` service results."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]  # every subclass is a dataclass
            key = f.metadata.get("json", f.name)
            if key is False:
                continue
            out[str(key)] = plain(getattr(self, f.name))
        return out


@dataclass(frozen=True)
class Renamed(Result):
    """A row's name before and after."""

    id: int
    old: str
    new: str


@dataclass(frozen=True)
class FieldsChanged(Result):
    """The fields a change touched, each as shown before and after (``{"training": "d8"}``, ``{"armor": 3}``):
    the values are of the fields' several types. Empty when the values given were the stored ones."""

    id: int
    old: dict[str, Any]
    new: dict[str, Any]
