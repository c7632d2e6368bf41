"""peewee models for the whole mission. The schema itself is created by the numbered scripts in
``db/migrations/`` (frozen SQL); a test checks that these models and the migrated schema agree.

CHECK constraints live in the database too: a die is 4/6/8/10/12, XP 0..32, Armor 1..5, ...
"""

from __future__ import annotations

import datetime as _dt
import json
import unicodedata
from collections.abc import Iterable
from typing import Any

from peewee import (
    SQL,
    AutoField,
    BooleanField,
    Check,
    DatabaseProxy,
    DateField,
    DateTimeField,
    FloatField,
    ForeignKeyField,
    IntegerField,
    Model,
    ModelIndex,
    TextField,
)

database_proxy = DatabaseProxy()

DIE_CHECK = "IN (4, 6, 8, 10, 12)"
END_REASON_SQL = "'turns_used_up', 'surrendered', 'routed', 'broke_through', 'pilot_dead', 'pilot_captured'"
"""The codes of ``rules.codes.END_REASONS`` (a test keeps them equal)."""
ROLL_OWNER_CHECK = (
    "(platoon_id IS NOT NULL AND sheet_id IS NULL AND turn_id IS NULL) OR "
    "(sheet_id IS NOT NULL AND platoon_id IS NULL AND battle_id IS NULL AND leader_id IS NULL)"
)
"""A roll has exactly one owner: an Atomic Africa platoon (with its battle and leader, if any: a battle's
rolls, a force generation or replacement roll) or a Sologear sheet (with its turn, if any: the campaign
length, a turn's rolls, the reckoning), never both, never neither."""


def now() -> _dt.datetime:
    return _dt.datetime.now().replace(microsecond=0)


def creator_login() -> str:
    """Who owns what is created now: the login connected to a club server (PostgreSQL's ``session_user``), or
    ``''`` on a file database (nobody in particular: everyone who can open the file may change everything)."""
    from .opened import Capability, current

    opened = current()
    if opened is None or not opened.can(Capability.SEVERAL_LOGINS):
        return ""
    return opened.login()


class JSONField(TextField):
    """A list/dict stored as JSON text."""

    def db_value(self, value: Any) -> str | None:
        return None if value is None else json.dumps(value)

    def python_value(self, value: Any) -> Any:
        return None if value is None else json.loads(value)


class BaseModel(Model):
    # For mypy only (annotations, no values: peewee never sees them): each ``ForeignKeyField`` named ``x`` also
    # gives its row the raw key as ``x_id`` (declared under each key below), and every model but
    # SchemaMigration (keyed by ``number``) has an integer ``id``; types-peewee knows neither.
    id: AutoField[int]

    class Meta:
        database = database_proxy
        legacy_table_names = False


def name_key(name: Any) -> str:
    """The one case rule for names: the key under which two names are the same name. Spaces are collapsed
    and the text is folded by Unicode's default caseless matching (NFKC, then case folding, then NFKC again;
    no language's special rules): "Über Front" = "über front" = "ÜBER  FRONT", "Straße" = "STRASSE",
    "İstanbul" = "İSTANBUL" (İ folds to i + combining dot, so "istanbul" is another name), a decomposed "Ü"
    = a composed one. Stored in ``name_key`` columns that carry the unique indexes, so the database and
    every look-up agree."""
    text = " ".join(str(name).split())
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


class NameKeyField(TextField):
    """``name_key(name)`` of the row, kept by the model itself (see :class:`NamedModel`); never set by hand,
    never exported (it is derived)."""


class NamedModel(BaseModel):
    """A model whose ``name_key`` column follows its ``name`` on every peewee write (``create``, ``save``,
    ``insert``, ``insert_many``, ``update``), whatever the caller passes for ``name_key``."""

    @classmethod
    def _keyed(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        name_field = cls._meta.fields["name"]
        key_field = cls._meta.fields["name_key"]
        for k, value in data.items():
            if (k == "name") if isinstance(k, str) else (k is name_field):
                out = {
                    k2: v2
                    for k2, v2 in data.items()
                    if not ((k2 == "name_key") if isinstance(k2, str) else (k2 is key_field))
                }
                out["name_key"] = name_key(value)
                return out
        return data

    def save(self, force_insert: bool = False, only: Any = None) -> Any:
        name = getattr(self, "name", None)
        if name is not None:
            self.name_key = name_key(name)
        return super().save(force_insert=force_insert, only=only)

    @classmethod
    def insert(cls, __data: Any = None, **insert: Any) -> Any:
        return super().insert(cls._keyed({**(__data or {}), **insert}))

    @classmethod
    def update(cls, __data: Any = None, **update: Any) -> Any:
        return super().update(cls._keyed({**(__data or {}), **update}))

    @classmethod
    def insert_many(cls, rows: Iterable[Any], fields: Any = None) -> Any:
        if fields is None:
            rows = [cls._keyed(dict(r)) if isinstance(r, dict) else r for r in rows]
            return super().insert_many(rows)
        names = [f if isinstance(f, str) else f.name for f in fields]
        if "name" not in names:
            return super().insert_many(rows, fields)
        at = names.index("name")
        keep = [i for i, n in enumerate(names) if n != "name_key"]
        rows = [(*(tuple(r)[i] for i in keep), name_key(tuple(r)[at])) for r in rows]
        return super().insert_many(rows, [*(fields[i] for i in keep), cls._meta.fields["name_key"]])


class SchemaMigration(BaseModel):
    """One row per applied migration script (``0001_initial`` ...)."""

    number = IntegerField(primary_key=True)
    name = TextField()
    applied_at = DateTimeField(default=now)
    app_version = TextField()


class Campaign(NamedModel):
    id = AutoField()
    name = TextField()
    name_key = NameKeyField(unique=True)
    system = TextField(constraints=[Check("system IN ('atomic_africa', 'sologear', 'death_blow')")])
    period = IntegerField(null=True, constraints=[Check("period IS NULL OR period BETWEEN 1 AND 5")])
    # ⚙ house rules (RULES.md 1.1, 1.2)
    threshold_green = IntegerField(default=1)
    threshold_regular = IntegerField(default=4)
    threshold_veteran = IntegerField(default=9)
    threshold_legendary = IntegerField(default=16)
    objective_xp_to = TextField(default="both", constraints=[Check("objective_xp_to IN ('both', 'platoon')")])
    # ⚙ replacement leader (RULES.md 1.2 step 4): 2 = lower of two dice − 1 (the rule), 1 = one die − 1
    replacement_dice = IntegerField(default=2, constraints=[Check("replacement_dice IN (1, 2)")])
    archived = BooleanField(default=False)
    notes = TextField(default="")
    created_at = DateTimeField(default=now)
    created_by = TextField(default=creator_login, constraints=[SQL("DEFAULT ''")])
    """The login that created the campaign on a club server ('' on a file database; migration 0005)."""

    class Meta:
        constraints = [
            Check(
                "threshold_green >= 1 AND threshold_green < threshold_regular AND "
                "threshold_regular < threshold_veteran AND threshold_veteran < threshold_legendary "
                "AND threshold_legendary <= 32"
            )
        ]


class Platoon(NamedModel):
    id = AutoField()
    campaign = ForeignKeyField(Campaign, backref="platoons", on_delete="CASCADE")
    campaign_id: int
    name = TextField()
    name_key = NameKeyField()
    training = IntegerField(constraints=[Check(f"training {DIE_CHECK}")])
    equipment = IntegerField(constraints=[Check(f"equipment {DIE_CHECK}")])
    morale = IntegerField(constraints=[Check(f"morale {DIE_CHECK}")])
    armor = IntegerField(constraints=[Check("armor BETWEEN 1 AND 5")])
    xp = IntegerField(default=0, constraints=[Check("xp BETWEEN 0 AND 32")])
    notes = TextField(default="")
    created_at = DateTimeField(default=now)
    owner = TextField(default=creator_login, constraints=[SQL("DEFAULT ''")])
    """The login that owns the platoon on a club server: only it (and the campaign's organisers) may change
    the platoon and every row under it. '' on a file database (nobody in particular; migration 0005)."""

    class Meta:
        indexes = ((("campaign", "name_key"), True),)


class CampaignMember(BaseModel):
    """Who belongs to a campaign on a club server, as a player or an organiser (migration 0005). A player sees
    the campaigns they belong to and changes what they own; an organiser changes anything in the campaign."""

    id = AutoField()
    campaign = ForeignKeyField(Campaign, backref="members", on_delete="CASCADE")
    campaign_id: int
    login = TextField()
    role = TextField(default="player", constraints=[Check("role IN ('player', 'organiser')")])

    class Meta:
        indexes = ((("campaign", "login"), True),)


class Battle(BaseModel):
    id = AutoField()
    platoon = ForeignKeyField(Platoon, backref="battles", on_delete="CASCADE")
    platoon_id: int
    number = IntegerField()
    date = DateField()
    scenario = TextField(default="")
    opponent = TextField(default="")
    opponent_platoon = ForeignKeyField(Platoon, null=True, on_delete="SET NULL", backref="opposed_battles")
    opponent_platoon_id: int | None
    outcome = TextField(null=True, constraints=[Check("outcome IS NULL OR outcome IN ('victory', 'defeat', 'draw')")])
    objectives = IntegerField(default=0, constraints=[Check("objectives BETWEEN 0 AND 2")])
    fire_support = BooleanField(default=False)
    notes = TextField(default="")
    wounds = IntegerField(default=0, constraints=[Check("wounds >= 0")])
    leader_wounds = IntegerField(default=0, constraints=[Check("leader_wounds >= 0")])
    platoon_xp_before = IntegerField(constraints=[Check("platoon_xp_before BETWEEN 0 AND 32")])
    platoon_xp_after = IntegerField(constraints=[Check("platoon_xp_after BETWEEN 0 AND 32")])
    leader_xp_before = IntegerField(
        null=True, constraints=[Check("leader_xp_before IS NULL OR leader_xp_before BETWEEN 0 AND 32")]
    )
    leader_xp_after = IntegerField(
        null=True, constraints=[Check("leader_xp_after IS NULL OR leader_xp_after BETWEEN 0 AND 32")]
    )
    leader_fate = TextField(
        null=True, constraints=[Check("leader_fate IS NULL OR leader_fate IN ('casualty', 'promoted', 'stays')")]
    )
    xp_lost = IntegerField(default=0)
    created_at = DateTimeField(default=now)

    class Meta:
        indexes = ((("platoon", "number"), True),)


class Leader(BaseModel):
    id = AutoField()
    platoon = ForeignKeyField(Platoon, backref="leaders", on_delete="CASCADE")
    platoon_id: int
    name = TextField()
    rank = TextField(default="Lieutenant")
    xp = IntegerField(default=0, constraints=[Check("xp BETWEEN 0 AND 32")])
    xp_at_join = IntegerField(default=0, constraints=[Check("xp_at_join BETWEEN 0 AND 32")])
    status = TextField(
        default="active", constraints=[Check("status IN ('active', 'casualty', 'promoted', 'replaced')")]
    )
    joined_battle = ForeignKeyField(Battle, null=True, on_delete="SET NULL", backref="leaders_joined")
    joined_battle_id: int | None
    left_battle = ForeignKeyField(Battle, null=True, on_delete="SET NULL", backref="leaders_left")
    left_battle_id: int | None
    joined_at = DateTimeField(default=now)
    left_at = DateTimeField(null=True)
    notes = TextField(default="")


Leader.add_index(
    ModelIndex(
        Leader, (Leader.platoon,), unique=True, where=Leader.status == "active", name="leader_one_active_per_platoon"
    )
)
"""At most one active leader per platoon."""


class AttachedUnit(NamedModel):
    id = AutoField()
    platoon = ForeignKeyField(Platoon, backref="attached", on_delete="CASCADE")
    platoon_id: int
    name = TextField()
    name_key = NameKeyField()
    kind = TextField(constraints=[Check("kind IN ('team', 'vehicle', 'fire_support')")])
    training = IntegerField(null=True, constraints=[Check(f"training IS NULL OR training {DIE_CHECK}")])
    equipment = IntegerField(null=True, constraints=[Check(f"equipment IS NULL OR equipment {DIE_CHECK}")])
    morale = IntegerField(null=True, constraints=[Check(f"morale IS NULL OR morale {DIE_CHECK}")])
    armor = IntegerField(null=True, constraints=[Check("armor IS NULL OR armor BETWEEN 1 AND 5")])
    support = TextField(null=True, constraints=[Check("support IS NULL OR support IN ('light', 'medium', 'heavy')")])
    notes = TextField(default="")
    position = IntegerField(default=0)

    class Meta:
        constraints = [
            Check(
                "(kind = 'fire_support' AND support IS NOT NULL) OR "
                "(kind != 'fire_support' AND training IS NOT NULL AND equipment IS NOT NULL "
                "AND morale IS NOT NULL AND armor IS NOT NULL)"
            )
        ]
        indexes = ((("platoon", "name_key"), True),)


class Equipment(BaseModel):
    """A heavy weapon or special equipment of the platoon or of one attached unit."""

    id = AutoField()
    platoon = ForeignKeyField(Platoon, null=True, backref="equipment_items", on_delete="CASCADE")
    platoon_id: int | None
    attached = ForeignKeyField(AttachedUnit, null=True, backref="equipment_items", on_delete="CASCADE")
    attached_id: int | None
    name = TextField()
    targets = TextField(default="both", constraints=[Check("targets IN ('dispersed', 'point', 'both')")])
    ap = IntegerField(null=True)
    ap_vs = TextField(null=True, constraints=[Check("ap_vs IS NULL OR ap_vs IN ('dispersed', 'point', 'both')")])
    notes = TextField(default="")
    position = IntegerField(default=0)

    class Meta:
        constraints = [Check("(platoon_id IS NULL) != (attached_id IS NULL)")]


class XpChange(BaseModel):
    id = AutoField()
    platoon = ForeignKeyField(Platoon, backref="xp_changes", on_delete="CASCADE")
    platoon_id: int
    leader = ForeignKeyField(Leader, null=True, backref="xp_changes", on_delete="CASCADE")
    leader_id: int | None
    who = TextField(constraints=[Check("who IN ('platoon', 'leader')")])
    delta = IntegerField()
    xp_after = IntegerField(constraints=[Check("xp_after BETWEEN 0 AND 32")])
    reason = TextField(default="")
    battle = ForeignKeyField(Battle, null=True, backref="xp_changes", on_delete="CASCADE")
    battle_id: int | None
    created_at = DateTimeField(default=now)


class AttributeChange(BaseModel):
    """Any other logged change of a platoon or battle field (dice, Armor, name, a battle's notes...)."""

    id = AutoField()
    platoon = ForeignKeyField(Platoon, backref="attribute_changes", on_delete="CASCADE")
    platoon_id: int
    battle = ForeignKeyField(Battle, null=True, backref="edits", on_delete="CASCADE")
    battle_id: int | None
    field = TextField()
    old_value = TextField(null=True)
    new_value = TextField(null=True)
    reason = TextField(default="")
    created_at = DateTimeField(default=now)


class SologearSheet(BaseModel):
    """A Sologear campaign sheet: one pilot's campaign (RULES.md 2.1); belongs to a sologear Campaign."""

    id = AutoField()
    campaign = ForeignKeyField(Campaign, backref="sologear_sheets", on_delete="CASCADE", unique=True)
    campaign_id: int
    date = TextField(default="")
    area = TextField(default="")
    pilot = TextField()
    gear_name = TextField(default="")
    gear_tv = IntegerField(constraints=[Check("gear_tv > 0")])
    player_unit = TextField(default="")
    player_affiliation = TextField(default="")
    enemy_unit = TextField(default="")
    enemy_affiliation = TextField(default="")
    length = IntegerField(null=True, constraints=[Check("length IS NULL OR length >= 1")])
    # ⚙ optional rules
    variable_tables = BooleanField(default=False)
    ferocious = BooleanField(default=False)
    reward_dice = TextField(default="1d6")
    # current state of the Gear and pilot
    gear_damaged = BooleanField(default=False)
    short_ammo = BooleanField(default=False)
    pilot_status = TextField(default="active", constraints=[Check("pilot_status IN ('active', 'dead', 'captured')")])
    status = TextField(default="active", constraints=[Check("status IN ('active', 'ended')")])
    end_reason = TextField(null=True, constraints=[Check(f"end_reason IS NULL OR end_reason IN ({END_REASON_SQL})")])
    # end-of-campaign reckoning (RULES.md 2.3)
    recognition = IntegerField(null=True)
    noticed = BooleanField(null=True)
    d66 = IntegerField(null=True)
    impression = IntegerField(null=True)
    result_table = TextField(null=True)
    result = IntegerField(null=True)
    outcome = TextField(null=True)
    notes = TextField(default="")
    created_at = DateTimeField(default=now)
    owner = TextField(default=creator_login, constraints=[SQL("DEFAULT ''")])
    """The login that owns the sheet on a club server ('' on a file database; migration 0005)."""


class SologearForce(BaseModel):
    id = AutoField()
    sheet = ForeignKeyField(SologearSheet, backref="forces", on_delete="CASCADE")
    sheet_id: int
    side = TextField(constraints=[Check("side IN ('player', 'enemy')")])
    name = TextField()
    company_tv = IntegerField(null=True)
    base_power = FloatField(constraints=[Check("base_power >= 0")])
    skill = TextField(constraints=[Check("skill IN ('rookie', 'regular', 'veteran', 'elite', 'legendary')")])
    loyalty = TextField(constraints=[Check("loyalty IN ('shaken', 'reliable', 'firm')")])
    position = IntegerField(default=0)


class SologearTurn(BaseModel):
    id = AutoField()
    sheet = ForeignKeyField(SologearSheet, backref="turns", on_delete="CASCADE")
    sheet_id: int
    number = IntegerField(constraints=[Check("number >= 1")])
    action = TextField(constraints=[Check("action IN ('dec', 'rep', 'fig')")])
    posture = IntegerField(null=True, constraints=[Check("posture IS NULL OR posture BETWEEN -2 AND 2")])
    combat_total = IntegerField(null=True)
    odds_column = TextField(null=True)
    cell = JSONField(null=True)
    repair_hours = IntegerField(null=True)
    glory_rolled = IntegerField(null=True)
    enemy_tv = IntegerField(null=True)
    battle_length = IntegerField(null=True)
    entry_edge = TextField(null=True)
    ends = TextField(
        null=True, constraints=[Check("ends IS NULL OR ends IN ('surrendered', 'routed', 'broke_through')")]
    )
    # what happened on the table, recorded by the player afterwards
    recorded = BooleanField(default=False)
    glory_collected = IntegerField(default=0, constraints=[Check("glory_collected >= 0")])
    enemy_tv_destroyed = IntegerField(default=0, constraints=[Check("enemy_tv_destroyed >= 0")])
    bunkers_destroyed = IntegerField(default=0, constraints=[Check("bunkers_destroyed BETWEEN 0 AND 6")])
    gear_damaged = BooleanField(default=False)
    short_ammo = BooleanField(default=False)
    pilot_dead = BooleanField(default=False)
    pilot_captured = BooleanField(default=False)
    state_before = JSONField(null=True)
    notes = TextField(default="")
    created_at = DateTimeField(default=now)

    class Meta:
        indexes = ((("sheet", "number"), True),)


class Roll(BaseModel):
    """Every roll the app made or the user typed in, with the rule and table row it used."""

    id = AutoField()
    platoon = ForeignKeyField(Platoon, null=True, backref="rolls", on_delete="CASCADE")
    platoon_id: int | None
    battle = ForeignKeyField(Battle, null=True, backref="rolls", on_delete="CASCADE")
    battle_id: int | None
    leader = ForeignKeyField(Leader, null=True, backref="rolls", on_delete="SET NULL")
    leader_id: int | None
    sheet = ForeignKeyField(SologearSheet, null=True, backref="rolls", on_delete="CASCADE")
    sheet_id: int | None
    turn = ForeignKeyField(SologearTurn, null=True, backref="rolls", on_delete="CASCADE")
    turn_id: int | None
    seq = IntegerField(default=0)
    purpose = TextField()
    expression = TextField()
    faces = JSONField()
    modifier = IntegerField(default=0)
    total = IntegerField()
    source = TextField(constraints=[Check("source IN ('app', 'entered')")])
    rule = TextField(default="")
    table_row = TextField(null=True)
    outcome = TextField(default="")
    created_at = DateTimeField(default=now)

    class Meta:
        constraints = [Check(ROLL_OWNER_CHECK)]


class Fighter(NamedModel):
    """A d12 Death Blow fighter (RULES.md §5.1) of a ``death_blow`` campaign (migration 0007). ``level``, ``xp``
    (toward the next level) and ``lifetime_xp`` are where the fighter stands now; every bout that changed them
    holds the before and after, so undoing a bout is refused while a later one changed the same fighter."""

    id = AutoField()
    campaign = ForeignKeyField(Campaign, backref="fighters", on_delete="CASCADE")
    campaign_id: int
    name = TextField()
    name_key = NameKeyField()
    start_level = IntegerField(default=0, constraints=[Check("start_level BETWEEN 0 AND 11")])
    level = IntegerField(default=0, constraints=[Check("level BETWEEN 0 AND 11")])
    xp = IntegerField(default=0, constraints=[Check("xp BETWEEN 0 AND 11")])
    lifetime_xp = IntegerField(default=0, constraints=[Check("lifetime_xp >= 0")])
    status = TextField(default="active", constraints=[Check("status IN ('active', 'retired')")])
    notes = TextField(default="")
    created_at = DateTimeField(default=now)
    owner = TextField(default=creator_login, constraints=[SQL("DEFAULT ''")])
    """The login that created the fighter on a club server (only it and the campaign's organisers change it)."""

    class Meta:
        constraints = [Check("level < 11 OR xp = 0")]
        indexes = ((("campaign", "name_key"), True),)


class Bout(BaseModel):
    """One bout of a fighter (RULES.md §5.3): against another fighter of the campaign (``opponent_fighter``) or
    a named outside opponent; logged from the table (``mode`` 'table') or played by the app ('solo', with its
    rounds). Each side's level, XP and lifetime XP before and after (the outside opponent's are not kept)."""

    id = AutoField()
    fighter = ForeignKeyField(Fighter, backref="bouts", on_delete="CASCADE")
    fighter_id: int
    opponent_fighter = ForeignKeyField(Fighter, null=True, backref="opposed_bouts", on_delete="CASCADE")
    opponent_fighter_id: int | None
    opponent_name = TextField()
    opponent_level = IntegerField(constraints=[Check("opponent_level BETWEEN 0 AND 11")])
    date = DateField()
    notes = TextField(default="")
    mode = TextField(constraints=[Check("mode IN ('table', 'solo')")])
    winner = TextField(constraints=[Check("winner IN ('fighter', 'opponent', 'draw')")])
    face_cards_left = IntegerField(constraints=[Check("face_cards_left BETWEEN 0 AND 12")])
    xp_gained = IntegerField(constraints=[Check("xp_gained BETWEEN 0 AND 12")])
    seed = TextField(null=True)
    fighter_level_before = IntegerField(constraints=[Check("fighter_level_before BETWEEN 0 AND 11")])
    fighter_xp_before = IntegerField(constraints=[Check("fighter_xp_before BETWEEN 0 AND 11")])
    fighter_lifetime_before = IntegerField(constraints=[Check("fighter_lifetime_before >= 0")])
    fighter_level_after = IntegerField(constraints=[Check("fighter_level_after BETWEEN 0 AND 11")])
    fighter_xp_after = IntegerField(constraints=[Check("fighter_xp_after BETWEEN 0 AND 11")])
    fighter_lifetime_after = IntegerField(constraints=[Check("fighter_lifetime_after >= 0")])
    opponent_xp_before = IntegerField(
        null=True, constraints=[Check("opponent_xp_before IS NULL OR opponent_xp_before BETWEEN 0 AND 11")]
    )
    opponent_lifetime_before = IntegerField(
        null=True, constraints=[Check("opponent_lifetime_before IS NULL OR opponent_lifetime_before >= 0")]
    )
    opponent_level_after = IntegerField(
        null=True, constraints=[Check("opponent_level_after IS NULL OR opponent_level_after BETWEEN 0 AND 11")]
    )
    opponent_xp_after = IntegerField(
        null=True, constraints=[Check("opponent_xp_after IS NULL OR opponent_xp_after BETWEEN 0 AND 11")]
    )
    opponent_lifetime_after = IntegerField(
        null=True, constraints=[Check("opponent_lifetime_after IS NULL OR opponent_lifetime_after >= 0")]
    )
    created_at = DateTimeField(default=now)

    class Meta:
        constraints = [
            Check("winner != 'draw' OR (xp_gained = 0 AND face_cards_left = 0)"),
            Check("opponent_fighter_id IS NULL OR opponent_fighter_id != fighter_id"),
        ]


class BoutRound(BaseModel):
    """One round of a solo bout (RULES.md §5.3): each side's card, dice and their source, Initiative, styles
    before and after the shift, Attack, Defense, damage, discards and cards left (JSON, as ``bout show``)."""

    id = AutoField()
    bout = ForeignKeyField(Bout, backref="rounds", on_delete="CASCADE")
    bout_id: int
    number = IntegerField(constraints=[Check("number >= 1")])
    a = JSONField()
    b = JSONField()

    class Meta:
        indexes = ((("bout", "number"), True),)


class FighterChange(BaseModel):
    """A change of a fighter other than a bout's: a correction of level or XP (with its reason), a rename,
    retiring or bringing back (RULES.md §5.1; the fighter's timeline)."""

    id = AutoField()
    fighter = ForeignKeyField(Fighter, backref="changes", on_delete="CASCADE")
    fighter_id: int
    field = TextField()
    old_value = TextField(null=True)
    new_value = TextField(null=True)
    reason = TextField(default="")
    created_at = DateTimeField(default=now)


class Operation(BaseModel):
    """One change a user made (the journal, ``store.journal``): written only by ``store.journal``."""

    id = AutoField()
    kind = TextField()
    label = TextField()
    campaign_id = IntegerField(null=True, index=True)
    platoon_id = IntegerField(null=True, index=True)
    sheet_id = IntegerField(null=True, index=True)
    merge_key = TextField(null=True)
    created_at = TextField()
    updated_at = TextField()
    user = TextField(default="", constraints=[SQL("DEFAULT ''")])
    undone = IntegerField(default=0, constraints=[SQL("DEFAULT 0"), Check("undone IN (0, 1)")])
    undone_at = TextField(null=True)
    undo_seq = IntegerField(null=True)


class OperationChange(BaseModel):
    """One row an operation inserted, updated or deleted, with its whole before and after image (JSON)."""

    id = AutoField()
    operation = ForeignKeyField(Operation, backref="changes", on_delete="CASCADE")
    operation_id: int
    table_name = TextField()
    row_id = IntegerField()
    action = TextField(constraints=[Check("action IN ('insert', 'update', 'delete')")])
    old = TextField(null=True)
    new = TextField(null=True)

    class Meta:
        indexes = ((("row_id",), False),)  # a row's history (migration 0009); by operation: the foreign key's


class JournalState(BaseModel):
    """The one row that says which operation is open and whether the journal's triggers record."""

    id = IntegerField(primary_key=True, constraints=[Check("id = 1")])
    operation_id = IntegerField(null=True)
    mode = TextField(default="record", constraints=[SQL("DEFAULT 'record'"), Check("mode IN ('record', 'off')")])


# --- the campaign at a glance (migration 0008) -----------------------------------------------------------

PRINT_KINDS = ("sheet", "history", "sologear", "cards", "standings", "chronicle")
"""What a remembered print can be (``print_record.kind``): see ``services.prints``."""


class ChronicleEntry(BaseModel):
    """A campaign entry between battles ("Season 2 begins"), dated in campaign time (migration 0008)."""

    id = AutoField()
    campaign = ForeignKeyField(Campaign, backref="chronicle_entries", on_delete="CASCADE")
    campaign_id: int
    date = DateField()
    title = TextField()
    text = TextField(default="")
    created_at = DateTimeField(default=now)
    owner = TextField(default=creator_login, constraints=[SQL("DEFAULT ''")])
    """The login that wrote the entry on a club server ('' on a file database)."""


class PrintRecord(BaseModel):
    """A printout the app remembers (migration 0008): what was printed (one row per platoon, sheet or campaign
    item), the journal position it reflects, and the fingerprint and snapshot of what it printed, so that the app
    can tell when it is out of date (``services.prints``)."""

    id = AutoField()
    campaign = ForeignKeyField(Campaign, backref="print_records", on_delete="CASCADE")
    campaign_id: int
    platoon = ForeignKeyField(Platoon, null=True, backref="print_records", on_delete="CASCADE")
    platoon_id: int | None
    sheet = ForeignKeyField(SologearSheet, null=True, backref="print_records", on_delete="CASCADE")
    sheet_id: int | None
    kind = TextField(constraints=[Check("kind IN ('sheet', 'history', 'sologear', 'cards', 'standings', 'chronicle')")])
    title = TextField()
    position = IntegerField(default=0)
    fingerprint = TextField()
    snapshot = JSONField()
    printed_at = DateTimeField(default=now)
    owner = TextField(default=creator_login, constraints=[SQL("DEFAULT ''")])
    """The login that printed it on a club server ('' on a file database)."""


OVERVIEW_MODELS: tuple[type[BaseModel], ...] = (ChronicleEntry, PrintRecord)
"""The tables of the campaign at a glance (migration 0008): journaled like every app table, owned per campaign on a club
server (``store.club_server.table_rules``), carried by a campaign file (``services.portable.TABLES``)."""


JOURNAL_MODELS: tuple[type[BaseModel], ...] = (Operation, OperationChange, JournalState)
"""The journal's own tables (not recorded by its triggers)."""

MODELS: tuple[type[BaseModel], ...] = (
    SchemaMigration,
    Campaign,
    CampaignMember,
    Platoon,
    Battle,
    Leader,
    AttachedUnit,
    Equipment,
    XpChange,
    AttributeChange,
    SologearSheet,
    SologearForce,
    SologearTurn,
    Roll,
    Fighter,
    Bout,
    BoutRound,
    FighterChange,
    *OVERVIEW_MODELS,
)
