"""Result.to_dict: the JSON shape of typed service results."""

import dataclasses
import enum

from campaign_app.services.results import Result, plain


class Colour(enum.StrEnum):
    RED = "red"


@dataclasses.dataclass(frozen=True)
class Inner(Result):
    n: int


@dataclasses.dataclass(frozen=True)
class Outer(Result):
    name: str
    items: tuple[Inner, ...]
    colour: Colour
    hidden: int = dataclasses.field(default=0, metadata={"json": False})
    renamed: int = dataclasses.field(default=1, metadata={"json": "other"})


def test_to_dict_nests_renames_and_hides():
    d = Outer("a", (Inner(1), Inner(2)), Colour.RED).to_dict()
    assert d == {"name": "a", "items": [{"n": 1}, {"n": 2}], "colour": "red", "other": 1}
    assert plain({"x": (Inner(3),)}) == {"x": [{"n": 3}]}
