"""Shared service helpers: the error type, look-ups by name, storing roll records."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ..errors import CampaignError as CampaignError  # re-exported for the services and the GUI
from ..errors import Conflict as Conflict
from ..errors import NotFound as NotFound
from ..errors import Refused as Refused
from ..errors import ServiceError as ServiceError
from ..errors import StoreProblem as StoreProblem
from ..rules.codes import purpose_text, rule_text
from ..rules.dice import RollRecord
from ..rules.experience import Thresholds
from ..store.models import BaseModel, Campaign, Platoon, Roll, SologearSheet
from ..store.models import name_key as name_key  # re-exported: the one case rule for names
from .results import Result

if TYPE_CHECKING:
    from peewee import Field, ModelSelect

_M = TypeVar("_M", bound=BaseModel)


class Unset(Enum):
    """The type of :data:`UNSET`: an optional argument that was not given, where ``None`` means "clear it"."""

    UNSET = "unset"

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = Unset.UNSET
"""An argument left out (``period: int | None | Unset = UNSET``: ``None`` clears the period)."""

SQLITE_INT_MAX = 2**63 - 1
"""Row ids and every stored whole number fit in SQLite's 64-bit integers."""

_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _bad_char(text: str, multiline: bool) -> str | None:
    """A description of the first character a stored text must not hold, or ``None``."""
    for ch in text:
        if multiline and ch in "\n\r\t":
            continue
        if ch == "\x00":
            return "a NUL character"
        if ch in _LINE_BREAKS:
            return "a line break"
        code = ord(ch)
        if code < 0x20 or 0x7F <= code < 0xA0:
            return f"a control character (U+{code:04X})"
        if 0xD800 <= code <= 0xDFFF:
            return "text that is not valid Unicode"
    return None


def check_line(value: object, what: str, max_len: int, *, required: bool = False) -> str:
    """One line of text (a name, a title): spaces collapsed; no NUL, control characters or line breaks; at
    most ``max_len`` characters; with ``required``, not empty."""
    text = "" if value is None else value if isinstance(value, str) else str(value)
    bad = _bad_char(text.replace("\t", " "), multiline=False)
    if bad:
        raise ServiceError(f"{what} must not contain {bad}")
    text = " ".join(text.split())
    if required and not text:
        raise ServiceError(f"{what} must not be empty")
    if len(text) > max_len:
        raise ServiceError(f"{what} is too long ({len(text)} characters, at most {max_len})")
    return text


def check_multiline(value: object, what: str, max_len: int, verb: str = "is") -> str:
    """Free text (notes): line breaks and tabs allowed, other control characters and NUL refused, at most
    ``max_len`` characters."""
    text = "" if value is None else value if isinstance(value, str) else str(value)
    bad = _bad_char(text, multiline=True)
    if bad:
        raise ServiceError(f"{what} must not contain {bad}")
    if len(text) > max_len:
        raise ServiceError(f"{what} {verb} too long ({len(text)} characters, at most {max_len})")
    return text


REASON_MAX = 500


def check_reason(value: object) -> str:
    """The reason given for a change (logged with it)."""
    return check_multiline(value, "the reason", REASON_MAX).strip()


def check_row_id(value: object, what: str) -> int:
    """A row id from the GUI or the command line: a whole number SQLite can hold."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= SQLITE_INT_MAX:
        raise NotFound(f"no {what} with id {value}")
    return value


def _by_name(query: ModelSelect[_M], field: Field[str], name: str) -> list[_M]:
    """Rows of ``query`` whose name is ``name`` under :func:`name_key` (the one case rule, the one the unique
    indexes use); where several match (platoons of different campaigns), the ones spelt exactly like ``name``."""
    key_field = field.model._meta.fields["name_key"]
    found = list(query.where(key_field == name_key(name)).limit(50))
    exact = [row for row in found if getattr(row, field.name) == name]
    return (exact or found)[:2]


def resolve_campaign(ref: int | Campaign) -> Campaign:
    """What services accept as "a campaign": a Campaign or its row id (names are looked up by the faces: the
    CLI's argument layer, the GUI's lists)."""
    if isinstance(ref, Campaign):
        return ref
    found = Campaign.get_or_none(Campaign.id == check_row_id(ref, "campaign"))
    if found is None:
        raise NotFound(f"no campaign with id {ref}")
    return found


def resolve_platoon(ref: int | Platoon) -> Platoon:
    """What services accept as "a platoon": a Platoon or its row id (names are looked up by the faces: the
    CLI's argument layer, the GUI's lists)."""
    if isinstance(ref, Platoon):
        return ref
    found = Platoon.get_or_none(Platoon.id == check_row_id(ref, "platoon"))
    if found is None:
        raise NotFound(f"no platoon with id {ref}")
    return found


def resolve_sheet(ref: int | SologearSheet) -> SologearSheet:
    """What services accept as "a Sologear campaign": its sheet or the sheet's row id (the CLI's argument layer
    looks the campaign's name up)."""
    if isinstance(ref, SologearSheet):
        return ref
    found = SologearSheet.get_or_none(SologearSheet.id == check_row_id(ref, "Sologear campaign"))
    if found is None:
        raise NotFound(f"no Sologear campaign with id {ref}")
    return found


def thresholds_of(campaign: Campaign) -> Thresholds:
    return Thresholds(
        campaign.threshold_green, campaign.threshold_regular, campaign.threshold_veteran, campaign.threshold_legendary
    )


def store_rolls(records: Iterable[RollRecord], start_seq: int = 0, **links: Any) -> list[Roll]:
    """Write roll records (inside the caller's transaction), linked to battle/platoon/leader/sheet/turn."""
    rows = []
    for seq, rec in enumerate(records, start=start_seq):
        rows.append(
            Roll.create(
                seq=seq,
                purpose=rec.purpose,
                expression=rec.expression,
                faces=rec.faces,
                modifier=rec.modifier,
                total=rec.total,
                source=rec.source,
                rule=rec.rule,
                table_row=rec.table_row,
                outcome=rec.outcome,
                **links,
            )
        )
    return rows


@dataclass(frozen=True)
class RollResult(Result):
    """A stored roll as services answer it: what it was for (code and words), the dice, the faces, the
    total, who rolled (``source``: "app" or "entered"), the rule and table row it used, what it changed."""

    purpose: str
    purpose_text: str
    expression: str
    faces: tuple[int, ...]
    modifier: int
    total: int
    source: str
    rule: str
    rule_text: str
    table_row: str | None
    outcome: str


def roll_result(roll: Roll) -> RollResult:
    return RollResult(
        purpose=roll.purpose,
        purpose_text=purpose_text(roll.purpose),
        expression=roll.expression,
        faces=tuple(roll.faces),
        modifier=roll.modifier,
        total=roll.total,
        source=roll.source,
        rule=roll.rule,
        rule_text=rule_text(roll.rule),
        table_row=roll.table_row,
        outcome=roll.outcome,
    )


def check_date(value: _dt.date | None, what: str = "the date") -> _dt.date:
    """A date (``None``: today). Text a user typed is read by the faces: the CLI's argument layer
    (``commands/base.py`` ``date_arg``) and the GUI's date fields."""
    if value is None:
        return _dt.date.today()
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    raise ServiceError(f"{what} must be a date, not {value!r}")


def iso_text(value: object) -> str | None:
    """A stored date or time as ISO text (SQLite gives the text itself, the common case when reading)."""
    if value.__class__ is str:
        return value
    if value is None:
        return None
    if isinstance(value, _dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, _dt.date):
        return value.isoformat()
    return str(value)


def suggested_leader_name(*key: object) -> str:
    """A leader's name from the rules' name charts (RULES §4), e.g. "Lt. Tanero", for a leader the user did not
    name (the CLI without ``--replacement-name``; force generation without a leader name). The same ``key``
    (e.g. platoon id and battle number) gives the same name, so a run can be repeated."""
    import random

    from ..rules.names import suggest_name

    return suggest_name(random.Random(":".join(map(str, key))))
