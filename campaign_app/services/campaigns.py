"""Campaigns: create, rename, set the house rules, archive, delete (and put back), list and show.

Every write is one transaction and returns an :class:`~.edits.Edit`; its journal operation can be undone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from ..rules.aftermath import (
    DEFAULT_REPLACEMENT_DICE,
    check_period,
    check_replacement_dice,
    period_sides,
    replacement_rule_text,
)
from ..rules.experience import DEFAULT_THRESHOLDS, RulesError, Thresholds
from ..store import access
from ..store.database import db
from ..store.journal import OpChanges
from ..store.models import Campaign, Platoon, SologearSheet
from .common import (
    UNSET,
    NotFound,
    ServiceError,
    Unset,
    check_line,
    check_multiline,
    iso_text,
    name_key,
    resolve_campaign,
    thresholds_of,
)
from .edits import Edit, Recorder
from .results import FieldsChanged, Renamed, Result

if TYPE_CHECKING:
    from ..store.journal_budget import Forgotten
    from .platoons import PlatoonRow

SYSTEMS: dict[str, str] = {"atomic_africa": "Atomic Africa", "sologear": "Sologear", "death_blow": "d12 Death Blow"}
"""Stored system value -> label."""
_SYSTEM_ALIASES = {
    "atomic-africa": "atomic_africa",
    "atomic_africa": "atomic_africa",
    "atomic africa": "atomic_africa",
    "aa": "atomic_africa",
    "sologear": "sologear",
    "death-blow": "death_blow",
    "death_blow": "death_blow",
    "death blow": "death_blow",
    "d12-death-blow": "death_blow",
    "d12 death blow": "death_blow",
}
OBJECTIVE_XP_TARGETS: dict[str, str] = {"both": "platoon and leader", "platoon": "platoon only"}
DEFAULT_OBJECTIVE_XP_TO = "both"
NAME_MAX = 80


# --- validation ---------------------------------------------------------------------------------------------


def parse_system(system: str) -> str:
    key = str(system).strip().lower()
    if key not in _SYSTEM_ALIASES:
        raise ServiceError(f"unknown game system {system!r} (atomic-africa, sologear or death-blow)")
    return _SYSTEM_ALIASES[key]


def check_name(name: str, what: str) -> str:
    """A name: one line (no NUL, control characters or line breaks), not empty, at most NAME_MAX characters."""
    if not isinstance(name, str) or not name.strip():
        raise ServiceError(f"{what} name must not be empty")
    return check_line(name, f"{what} name", NAME_MAX, required=True)


NOTES_MAX = 10_000


def check_notes(notes: object, what: str = "notes") -> str:
    """Free text: at most NOTES_MAX characters (None -> "")."""
    return check_multiline(notes, what, NOTES_MAX, verb="are")


def _check_period(period: int | None) -> int | None:
    """A campaign period, 1..5, or None (the CLI reads "none")."""
    if period is None:
        return None
    if isinstance(period, bool) or not isinstance(period, int):
        raise ServiceError(f"campaign period must be 1 to 5 (or none), not {period!r}")
    try:
        return check_period(period)
    except RulesError as exc:
        raise ServiceError(str(exc)) from None


def _check_thresholds(value: Thresholds) -> Thresholds:
    """XP thresholds (the CLI reads "1,4,9,16"; the GUI's four fields give a :class:`Thresholds`)."""
    if not isinstance(value, Thresholds):
        raise ServiceError(f"XP thresholds must be four whole numbers like 1,4,9,16, not {value!r}")
    return value


def _check_objective_to(value: str) -> str:
    if value not in OBJECTIVE_XP_TARGETS:
        raise ServiceError(f"objective XP goes to 'both' (platoon and leader) or 'platoon', not {value!r}")
    return value


def _name_taken(name: str, exclude_id: int | None = None) -> bool:
    query = Campaign.select(Campaign.id).where(Campaign.name_key == name_key(name))
    if exclude_id is not None:
        query = query.where(Campaign.id != exclude_id)
    return query.exists()


def _campaign(ref: int | Campaign) -> Campaign:
    return ref if isinstance(ref, Campaign) else resolve_campaign(ref)


# --- reading -----------------------------------------------------------------------------------------------

RuleValue = int | str | tuple[int, ...] | None
"""A house rule's value: the period (or ``None``), the four thresholds, the objective XP target word, the
replacement leader's number of dice."""


@dataclass(frozen=True)
class HouseRule(Result):
    """One ⚙ setting of a campaign with its default: ``text`` says the value in words, ``default_text`` the
    default in words where the number alone would not say it (the replacement leader's dice)."""

    key: str
    label: str
    value: RuleValue
    default: RuleValue
    default_text: str | None
    text: str
    is_default: bool

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.default_text is None:  # ``campaign show --json`` has the key only where it says something
            del out["default_text"]
        return out


def house_rules(c: Campaign) -> list[HouseRule]:
    """The ⚙ settings of a campaign with their defaults, in the order the rules list them."""
    t = thresholds_of(c)
    sides = period_sides(c.period)
    return [
        HouseRule(
            key="period",
            label="Campaign period",
            value=c.period,
            default=None,
            default_text=None,
            text=f"{c.period if c.period is not None else 'not set'} (replacement leader and force "
            f"generation roll d{sides})",
            is_default=c.period is None,
        ),
        HouseRule(
            key="thresholds",
            label="XP thresholds (Green, Regular, Veteran, Legendary)",
            value=t.as_tuple(),
            default=DEFAULT_THRESHOLDS.as_tuple(),
            default_text=None,
            text=str(t),
            is_default=t == DEFAULT_THRESHOLDS,
        ),
        HouseRule(
            key="objective_xp_to",
            label="Objective XP goes to",
            value=c.objective_xp_to,
            default=DEFAULT_OBJECTIVE_XP_TO,
            default_text=None,
            text=OBJECTIVE_XP_TARGETS[c.objective_xp_to],
            is_default=c.objective_xp_to == DEFAULT_OBJECTIVE_XP_TO,
        ),
        HouseRule(
            key="replacement_dice",
            label="Replacement leader's XP",
            value=c.replacement_dice,
            default=DEFAULT_REPLACEMENT_DICE,
            default_text=replacement_rule_text(DEFAULT_REPLACEMENT_DICE, sides),
            text=replacement_rule_text(c.replacement_dice, sides),
            is_default=c.replacement_dice == DEFAULT_REPLACEMENT_DICE,
        ),
    ]


@dataclass(frozen=True)
class CampaignInfo(Result):
    """A campaign and its house rules (``die``: the period's die, ``"d10"``; ``created_at`` the stored time as
    text). A campaign is an :class:`AtomicAfricaCampaign` or a :class:`SologearCampaign`."""

    id: int
    name: str
    system: str
    """``atomic_africa`` or ``sologear`` (:data:`SYSTEMS` gives the label)."""
    system_label: str
    period: int | None
    die: str
    thresholds: tuple[int, int, int, int]
    objective_xp_to: str
    replacement_dice: int
    archived: bool
    notes: str
    created_at: str | None
    house_rules: tuple[HouseRule, ...]


@dataclass(frozen=True)
class AtomicAfricaCampaign(CampaignInfo):
    platoon_count: int


@dataclass(frozen=True)
class AtomicAfricaCampaignDetail(AtomicAfricaCampaign):
    """An Atomic Africa campaign with its platoons (``campaign show``, the campaign page)."""

    platoons: tuple[PlatoonRow, ...]


@dataclass(frozen=True)
class SologearCampaign(CampaignInfo):
    sheet_count: int
    sheet_ids: tuple[int, ...]
    """The campaign's pilot sheets, oldest first."""


@dataclass(frozen=True)
class DeathBlowCampaign(CampaignInfo):
    """A d12 Death Blow campaign (RULES.md §5): its fighters are listed by ``services.death_blow``."""

    fighter_count: int


ListedCampaign = AtomicAfricaCampaign | SologearCampaign | DeathBlowCampaign
"""What :func:`list_campaigns` lists."""
CampaignDetail = AtomicAfricaCampaignDetail | SologearCampaign | DeathBlowCampaign
"""What :func:`show_campaign` shows."""


def _check_replacement_dice(value: int) -> int:
    try:
        return check_replacement_dice(value)
    except RulesError as exc:
        raise ServiceError(str(exc)) from None


class _CampaignValues(TypedDict):
    """The fields every :class:`CampaignInfo` has (built once, then given to the system's class)."""

    id: int
    name: str
    system: str
    system_label: str
    period: int | None
    die: str
    thresholds: tuple[int, int, int, int]
    objective_xp_to: str
    replacement_dice: int
    archived: bool
    notes: str
    created_at: str | None
    house_rules: tuple[HouseRule, ...]


def _campaign_values(c: Campaign) -> _CampaignValues:
    return _CampaignValues(
        id=c.id,
        name=c.name,
        system=c.system,
        system_label=SYSTEMS[c.system],
        period=c.period,
        die=f"d{period_sides(c.period)}",
        thresholds=thresholds_of(c).as_tuple(),
        objective_xp_to=c.objective_xp_to,
        replacement_dice=c.replacement_dice,
        archived=bool(c.archived),
        notes=c.notes,
        created_at=iso_text(c.created_at),
        house_rules=tuple(house_rules(c)),
    )


def _campaign_result(c: Campaign, with_platoons: bool) -> ListedCampaign | AtomicAfricaCampaignDetail:
    values = _campaign_values(c)
    if c.system == "death_blow":
        from ..store.models import Fighter

        return DeathBlowCampaign(**values, fighter_count=Fighter.select().where(Fighter.campaign == c).count())
    if c.system != "atomic_africa":
        sheets = tuple(
            s.id
            for s in SologearSheet.select(SologearSheet.id)
            .where(SologearSheet.campaign == c)
            .order_by(SologearSheet.id)
        )
        return SologearCampaign(**values, sheet_count=len(sheets), sheet_ids=sheets)
    count = Platoon.select().where(Platoon.campaign == c).count()
    if not with_platoons:
        return AtomicAfricaCampaign(**values, platoon_count=count)
    from .platoons import list_platoons

    return AtomicAfricaCampaignDetail(**values, platoon_count=count, platoons=tuple(list_platoons(c.id)))


def campaign_info(c: Campaign) -> ListedCampaign:
    """A campaign with its count of platoons (Atomic Africa) or its pilot sheets (Sologear)."""
    return _campaign_result(c, with_platoons=False)


def campaign_detail(c: Campaign) -> CampaignDetail:
    """:func:`campaign_info` with the platoons of an Atomic Africa campaign."""
    found = _campaign_result(c, with_platoons=True)
    assert isinstance(found, AtomicAfricaCampaignDetail | SologearCampaign | DeathBlowCampaign)
    return found


def list_campaigns(include_archived: bool = True) -> list[ListedCampaign]:
    query = Campaign.select().order_by(Campaign.name)
    if not include_archived:
        query = query.where(Campaign.archived == False)  # noqa: E712
    return [campaign_info(c) for c in query]


def show_campaign(ref: int) -> CampaignDetail:
    return campaign_detail(_campaign(ref))


# --- writing -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Archived(Result):
    """Whether the campaign was archived before and is after."""

    id: int
    old: bool
    new: bool


@dataclass(frozen=True)
class CampaignDeleted(Result):
    """A deleted campaign: how many platoons and Sologear sheets went with it, and (deleted with ``forget``)
    what the journal let go of its history."""

    id: int
    name: str
    platoons: int
    sheets: int
    forgotten: Forgotten | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "name": self.name, "platoons": self.platoons, "sheets": self.sheets}
        if self.forgotten is not None:
            data["forgotten"] = self.forgotten.to_dict()
        return data


def create_campaign(
    name: str,
    system: str = "atomic_africa",
    period: int | None = None,
    thresholds: Thresholds | None = None,
    objective_xp_to: str = DEFAULT_OBJECTIVE_XP_TO,
    notes: str = "",
    replacement_dice: int = DEFAULT_REPLACEMENT_DICE,
) -> Edit[ListedCampaign]:
    name = check_name(name, "campaign")
    system = parse_system(system)
    period = _check_period(period)
    t = _check_thresholds(thresholds) if thresholds is not None else DEFAULT_THRESHOLDS
    objective_xp_to = _check_objective_to(objective_xp_to)
    replacement_dice = _check_replacement_dice(replacement_dice)
    rec = Recorder()
    with rec.operation("campaign.create", f"Create campaign {name}") as op:
        access.require_campaign_creator()  # club play: organisers create campaigns (anyone, on a file)
        if _name_taken(name):
            raise ServiceError(f"a campaign named {name!r} already exists")
        c = rec.create(
            Campaign,
            name=name,
            system=system,
            period=period,
            threshold_green=t.green,
            threshold_regular=t.regular,
            threshold_veteran=t.veteran,
            threshold_legendary=t.legendary,
            objective_xp_to=objective_xp_to,
            replacement_dice=replacement_dice,
            notes=check_notes(notes, "campaign notes"),
        )
        access.enrol_creator(c.id)  # club play: the creator is its organiser (nothing on a file)
        op.target(campaign=c.id)
        info = campaign_info(c)
    return Edit("campaign", c.id, f"created campaign {name!r}", info, rec.changes)


def rename_campaign(ref: int, new_name: str) -> Edit[Renamed]:
    new_name = check_name(new_name, "campaign")
    rec = Recorder()
    with rec.operation("campaign.rename") as op:
        c = _campaign(ref)
        old = c.name
        op.target(campaign=c.id)
        rec.label(f"Rename campaign {old} \u2192 {new_name}")
        if _name_taken(new_name, exclude_id=c.id):
            raise ServiceError(f"a campaign named {new_name!r} already exists")
        rec.update(c, name=new_name)
    return Edit(
        "campaign",
        c.id,
        f"renamed campaign {old!r} to {new_name!r}",
        Renamed(id=c.id, old=old, new=new_name),
        rec.changes,
    )


SETTING_WORDS = {
    "period": "period",
    "threshold_green": "XP for Green",
    "threshold_regular": "XP for Regular",
    "threshold_veteran": "XP for Veteran",
    "threshold_legendary": "XP for Legendary",
    "objective_xp_to": "objective XP to",
    "replacement_dice": "replacement leader's dice",
    "notes": "notes",
}
"""A house rule's column -> the words a message says for it (never the stored key)."""


def _shown(value: Any) -> str:
    """A house rule's value in a message: "not set", a number, the objective's words, notes in quotes."""
    if value is None:
        return "not set"
    if isinstance(value, str):
        return OBJECTIVE_XP_TARGETS.get(value, repr(value))
    return str(value)


def set_campaign(
    ref: int,
    *,
    period: int | None | Unset = UNSET,
    thresholds: Thresholds | None = None,
    objective_xp_to: str | None = None,
    notes: str | None = None,
    replacement_dice: int | None = None,
) -> Edit[FieldsChanged]:
    """Change the house rules (period, thresholds, objective XP, replacement leader's dice) and notes.
    ``period=None`` clears it."""
    values: dict[str, int | str | None] = {}
    if period is not UNSET:
        values["period"] = _check_period(period)
    if thresholds is not None:
        t = _check_thresholds(thresholds)
        values.update(
            threshold_green=t.green,
            threshold_regular=t.regular,
            threshold_veteran=t.veteran,
            threshold_legendary=t.legendary,
        )
    if objective_xp_to is not None:
        values["objective_xp_to"] = _check_objective_to(objective_xp_to)
    if replacement_dice is not None:
        values["replacement_dice"] = _check_replacement_dice(replacement_dice)
    if notes is not None:
        values["notes"] = check_notes(notes, "campaign notes")
    rec = Recorder()
    with rec.operation("campaign.set") as op:
        c = _campaign(ref)
        op.target(campaign=c.id)
        rec.label(f"Change the house rules of {c.name}" if set(values) - {"notes"} else f"Edit the notes of {c.name}")
        changed = rec.update(c, **values)
    text = (
        ", ".join(
            f"{SETTING_WORDS.get(k, k.replace('_', ' '))} {_shown(old)} \u2192 {_shown(new)}"
            for k, (old, new) in changed.items()
        )
        or "nothing changed"
    )
    return Edit(
        "campaign",
        c.id,
        f"campaign {c.name!r}: {text}",
        FieldsChanged(id=c.id, old={k: v[0] for k, v in changed.items()}, new={k: v[1] for k, v in changed.items()}),
        rec.changes,
    )


def archive_campaign(ref: int, archived: bool = True) -> Edit[Archived]:
    rec = Recorder()
    with rec.operation("campaign.archive") as op:
        c = _campaign(ref)
        old = bool(c.archived)
        op.target(campaign=c.id)
        rec.label(f"{'Archive' if archived else 'Unarchive'} campaign {c.name}")
        rec.update(c, archived=archived)
    verb = "archived" if archived else "unarchived"
    return Edit(
        "campaign",
        c.id,
        f"{verb} campaign {c.name!r}" if old != archived else f"campaign {c.name!r} was already {verb}",
        Archived(id=c.id, old=old, new=archived),
        rec.changes,
    )


def unarchive_campaign(ref: int) -> Edit[Archived]:
    return archive_campaign(ref, archived=False)


def delete_campaign(ref: int, forget: bool = False) -> Edit[CampaignDeleted]:
    """Delete a campaign with all its platoons, battles, leaders, rolls, Sologear sheets. The change set
    holds every row, so undo puts it all back with the same ids.

    With ``forget``, what the journal holds of the campaign goes too, in the same transaction and overwritten on
    disk (:func:`~campaign_app.store.journal_budget.forget_deleted`; on a club server the server's own
    ``campaign_app_forget``, which checks who may): the deletion stays in the history as a summary naming
    nothing and cannot be undone; on a file the backup made first (reason ``delete``) is the way back."""
    from .backups import backup_before

    _campaign(ref)  # an unknown name is refused before anything is written
    backup_before("delete")
    if forget:
        return _delete_and_forget(ref)
    rec = Recorder()
    with rec.operation("campaign.delete") as op:
        c = _campaign(ref)
        name = c.name
        op.target(campaign=c.id)
        rec.label(f"Delete campaign {name}")
        gone = CampaignDeleted(
            id=c.id,
            name=name,
            platoons=Platoon.select().where(Platoon.campaign == c).count(),
            sheets=SologearSheet.select().where(SologearSheet.campaign == c).count(),
        )
        rec.delete(Campaign, c.id)
    return Edit("campaign", c.id, f"deleted campaign {name!r}", gone, rec.changes)


def _delete_and_forget(ref: int) -> Edit[CampaignDeleted]:
    from ..store.journal_budget import FORGOTTEN_LABEL, forget, secure_deletes
    from ..store.opened import Capability, can

    with secure_deletes(), db.atomic():  # the deletion and the forgetting: one transaction
        rec = Recorder()
        with rec.operation("campaign.delete") as op:
            c = _campaign(ref)
            name = c.name
            op.target(campaign=c.id)
            rec.label(f"Delete campaign {name}")
            platoons = Platoon.select().where(Platoon.campaign == c).count()
            sheets = SologearSheet.select().where(SologearSheet.campaign == c).count()
            rec.delete(Campaign, c.id)
        assert op.id is not None
        forgotten = forget(op.id, c.id)
    way_back = "; the backup made first can bring it back" if can(Capability.BACKUP) else ""
    changes = OpChanges(op.id, "campaign.delete", FORGOTTEN_LABEL, op.changes.rows, None, None, None)
    return Edit(
        "campaign",
        c.id,
        f"deleted campaign {name!r} and removed it from the journal (it cannot be undone{way_back})",
        CampaignDeleted(id=c.id, name=name, platoons=platoons, sheets=sheets, forgotten=forgotten),
        changes,
    )


def name_problem(name: str, exclude_id: int | None = None) -> str | None:
    """Why ``name`` cannot be a (new) campaign name, or ``None`` when it can (for forms that check as the
    user types)."""
    try:
        name = check_name(name, "campaign")
    except ServiceError as exc:
        return str(exc)
    if _name_taken(name, exclude_id):
        return f"a campaign named {name!r} already exists"
    return None


def campaign_id(ref: int) -> int:
    return _campaign(ref).id


__all__ = [
    "SYSTEMS",
    "OBJECTIVE_XP_TARGETS",
    "NotFound",
    "ServiceError",
    "house_rules",
    "HouseRule",
    "CampaignInfo",
    "AtomicAfricaCampaign",
    "AtomicAfricaCampaignDetail",
    "SologearCampaign",
    "DeathBlowCampaign",
    "ListedCampaign",
    "CampaignDetail",
    "campaign_info",
    "campaign_detail",
    "list_campaigns",
    "show_campaign",
    "create_campaign",
    "rename_campaign",
    "set_campaign",
    "archive_campaign",
    "unarchive_campaign",
    "delete_campaign",
    "campaign_id",
    "parse_system",
    "name_problem",
]
