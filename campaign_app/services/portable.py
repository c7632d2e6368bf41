"""A portable campaign file: one campaign, whole, as versioned JSON (``campaign-cli export|import``,
File ▸ Export campaign… / Import campaign…).

The file holds the campaign row (house rules included) and every row that belongs to it: platoons, battles,
leaders and former leaders, attached units and weapons, XP and attribute changes, Sologear sheets, forces and
turns, and every roll, as stored (row ids are kept in the file only to link the rows; import gives new ones).
Its top says what it is::

    {"format": "campaign_app-campaign", "format_version": 1, "app_version": "0.1.0", "schema_version": 1,
     "exported_at": "...", "campaign": {...}, "tables": {"platoon": [...], ...}}

Import checks every field the way the services do (types, names and free-text limits, allowed values, links
between rows, the platoon invariants), refuses a name already used unless a new name is given, refuses a
newer format, backs the database up first and writes everything in one transaction or nothing.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NotRequired, TypedDict, cast

import peewee
from peewee import BooleanField, DateField, DateTimeField, FloatField, ForeignKeyField, IntegerField, TextField

from .. import __version__, fileio
from ..rules.codes import upgrade_row
from ..store import access
from ..store.database import db
from ..store.journal import operation
from ..store.migrate import schema_version_supported
from ..store.models import (
    AttachedUnit,
    AttributeChange,
    Battle,
    Bout,
    BoutRound,
    Campaign,
    ChronicleEntry,
    Equipment,
    Fighter,
    FighterChange,
    JSONField,
    Leader,
    NameKeyField,
    Platoon,
    PrintRecord,
    Roll,
    SologearForce,
    SologearSheet,
    SologearTurn,
    XpChange,
    creator_login,
    name_key,
)
from ..store.opened import require
from .campaigns import NAME_MAX, NOTES_MAX, check_name
from .common import SQLITE_INT_MAX, ServiceError, check_line, check_multiline, resolve_campaign
from .results import Result

FORMAT = "campaign_app-campaign"
FORMAT_VERSION = 1
MAX_FILE_BYTES = 256 * 1024 * 1024

# tables in the order they are written back (every link points to a table written before it)
TABLES: tuple[tuple[str, type[peewee.Model]], ...] = (
    ("platoon", Platoon),
    ("battle", Battle),
    ("leader", Leader),
    ("attached_unit", AttachedUnit),
    ("equipment", Equipment),
    ("xp_change", XpChange),
    ("attribute_change", AttributeChange),
    ("sologear_sheet", SologearSheet),
    ("sologear_force", SologearForce),
    ("sologear_turn", SologearTurn),
    ("roll", Roll),
    ("fighter", Fighter),
    ("bout", Bout),
    ("bout_round", BoutRound),
    ("fighter_change", FighterChange),
    # the campaign at a glance (migration 0008): the chronicle's entries and the remembered printouts
    ("chronicle_entry", ChronicleEntry),
    ("print_record", PrintRecord),
)
_MODEL_TABLE = {model: name for name, model in TABLES}
_MODEL_TABLE[Campaign] = "campaign"

# one-line texts and their limits (the services' limits); every other text column is free text
LINE_LIMITS: dict[tuple[str, str], int] = {
    ("campaign", "name"): NAME_MAX,
    ("platoon", "name"): NAME_MAX,
    ("leader", "name"): NAME_MAX,
    ("leader", "rank"): NAME_MAX,
    ("attached_unit", "name"): NAME_MAX,
    ("equipment", "name"): NAME_MAX,
    ("battle", "scenario"): 200,
    ("battle", "opponent"): 80,
    ("chronicle_entry", "title"): 200,
    ("print_record", "title"): 200,
    ("print_record", "fingerprint"): 200,
    ("sologear_force", "name"): 120,
    ("fighter", "name"): NAME_MAX,
    ("bout", "opponent_name"): NAME_MAX,
    ("bout", "seed"): 80,
    **{
        ("sologear_sheet", c): 120
        for c in (
            "date",
            "area",
            "pilot",
            "gear_name",
            "player_unit",
            "player_affiliation",
            "enemy_unit",
            "enemy_affiliation",
        )
    },
}
REQUIRED_NAMES = {
    ("campaign", "name"),
    ("platoon", "name"),
    ("leader", "name"),
    ("attached_unit", "name"),
    ("equipment", "name"),
    ("sologear_sheet", "pilot"),
    ("fighter", "name"),
    ("bout", "opponent_name"),
}
FREE_TEXT_MAX = NOTES_MAX

Row = dict[str, Any]
"""A stored row as the file holds it: column name -> value (text, number, true/false or None, by column)."""


class CampaignDocument(TypedDict):
    """A campaign file's content (the format itself: what :func:`export_campaign` writes; a file read may lack the
    facts about its making)."""

    format: str
    format_version: int
    app_version: NotRequired[str]
    schema_version: NotRequired[int]
    exported_at: NotRequired[str]
    campaign: Row
    tables: dict[str, list[Row]]


@dataclass(frozen=True)
class TableCounts(Result):
    """How many rows of each table a campaign file holds (the tables of :data:`TABLES`)."""

    platoon: int = 0
    battle: int = 0
    leader: int = 0
    attached_unit: int = 0
    equipment: int = 0
    xp_change: int = 0
    attribute_change: int = 0
    sologear_sheet: int = 0
    sologear_force: int = 0
    sologear_turn: int = 0
    roll: int = 0
    fighter: int = 0
    bout: int = 0
    bout_round: int = 0
    fighter_change: int = 0
    chronicle_entry: int = 0
    print_record: int = 0

    @classmethod
    def of(cls, counts: dict[str, int]) -> TableCounts:
        return cls(**counts)

    def in_order(self, tables: list[str]) -> dict[str, int]:
        """The counts as JSON keys, in the order given (each command has always printed its own order)."""
        values: dict[str, int] = self.to_dict()
        return {name: values[name] for name in tables}


EXPORT_ORDER = [
    "platoon",
    "battle",
    "leader",
    "attached_unit",
    "xp_change",
    "attribute_change",
    "equipment",
    "sologear_sheet",
    "sologear_force",
    "sologear_turn",
    "roll",
    "fighter",
    "bout",
    "bout_round",
    "fighter_change",
    "chronicle_entry",
    "print_record",
]
"""The tables in the order a campaign file lists them (:func:`campaign_document`)."""


@dataclass(frozen=True)
class Exported(Result):
    """A campaign file written: where, which campaign, its size and how many rows of each table."""

    file: Path
    campaign: str
    bytes: int
    counts: TableCounts

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": str(self.file),
            "campaign": self.campaign,
            "bytes": self.bytes,
            **self.counts.in_order(EXPORT_ORDER),
        }


@dataclass(frozen=True)
class Imported(Result):
    """A campaign file read in: from where, the new campaign's name and id, how many rows of each table."""

    file: Path
    campaign: str
    campaign_id: int
    counts: TableCounts

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": str(self.file),
            "campaign": self.campaign,
            "campaign_id": self.campaign_id,
            **self.counts.in_order([name for name, _m in TABLES]),
        }


# ------------------------------------------------------------------------------------------------ export


def _columns(model: type[peewee.Model]) -> list[str]:
    """The columns a campaign file holds: every stored one but the derived ``name_key``."""
    return [f.column_name for f in model._meta.sorted_fields if not isinstance(f, NameKeyField)]


def _rows(model: type[peewee.Model], where: str, params: list[Any]) -> list[Row]:
    cols = _columns(model)
    table = model._meta.table_name
    sql = f'SELECT {", ".join(chr(34) + c + chr(34) for c in cols)} FROM "{table}" WHERE {where} ORDER BY id'
    return [{c: _stored(v) for c, v in zip(cols, row, strict=True)} for row in db.execute_sql(sql, params).fetchall()]


def _stored(value: Any) -> Any:
    """A value as the file database stores it, whichever engine it came from (a server gives dates, times and
    booleans as such): the campaign file is the same from both."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, _dt.datetime):
        return str(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    return value


def _in(ids: list[int]) -> tuple[str, list[Any]]:
    return (f"({', '.join('?' for _ in ids)})", list(ids)) if ids else ("(NULL)", [])


def campaign_document(campaign: int) -> CampaignDocument:
    """The whole campaign as plain data (stored values; read in one read transaction)."""
    # one consistent reading of every table: a deferred transaction of the file, a repeatable-read one on a server
    with require().reading():
        camp = resolve_campaign(campaign)
        tables: dict[str, list[Row]] = {}
        (campaign_row,) = _rows(Campaign, "id = ?", [camp.id])
        tables["platoon"] = _rows(Platoon, "campaign_id = ?", [camp.id])
        pids = [r["id"] for r in tables["platoon"]]
        in_p, p_params = _in(pids)
        for name, model in (
            ("battle", Battle),
            ("leader", Leader),
            ("attached_unit", AttachedUnit),
            ("xp_change", XpChange),
            ("attribute_change", AttributeChange),
        ):
            tables[name] = _rows(model, f"platoon_id IN {in_p}", p_params)
        aids = [r["id"] for r in tables["attached_unit"]]
        in_a, a_params = _in(aids)
        tables["equipment"] = _rows(Equipment, f"platoon_id IN {in_p} OR attached_id IN {in_a}", p_params + a_params)
        tables["sologear_sheet"] = _rows(SologearSheet, "campaign_id = ?", [camp.id])
        sids = [r["id"] for r in tables["sologear_sheet"]]
        in_s, s_params = _in(sids)
        tables["sologear_force"] = _rows(SologearForce, f"sheet_id IN {in_s}", s_params)
        tables["sologear_turn"] = _rows(SologearTurn, f"sheet_id IN {in_s}", s_params)
        bids = [r["id"] for r in tables["battle"]]
        tids = [r["id"] for r in tables["sologear_turn"]]
        in_b, b_params = _in(bids)
        in_t, t_params = _in(tids)
        tables["roll"] = _rows(
            Roll,
            f"platoon_id IN {in_p} OR battle_id IN {in_b} OR sheet_id IN {in_s} OR turn_id IN {in_t}",
            p_params + b_params + s_params + t_params,
        )
        # d12 Death Blow: fighters, their bouts (both fighters are of this campaign), rounds, changes
        tables["fighter"] = _rows(Fighter, "campaign_id = ?", [camp.id])
        in_f, f_params = _in([r["id"] for r in tables["fighter"]])
        tables["bout"] = _rows(Bout, f"fighter_id IN {in_f}", f_params)
        in_bt, bt_params = _in([r["id"] for r in tables["bout"]])
        tables["bout_round"] = _rows(BoutRound, f"bout_id IN {in_bt}", bt_params)
        tables["fighter_change"] = _rows(FighterChange, f"fighter_id IN {in_f}", f_params)
        tables["chronicle_entry"] = _rows(ChronicleEntry, "campaign_id = ?", [camp.id])
        tables["print_record"] = _rows(PrintRecord, "campaign_id = ?", [camp.id])
    pid_set = set(pids)
    for battle in tables["battle"]:  # an opponent platoon of another campaign does not travel along
        if battle["opponent_platoon_id"] not in pid_set:
            battle["opponent_platoon_id"] = None
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "schema_version": schema_version_supported(),
        "exported_at": _dt.datetime.now().isoformat(timespec="seconds"),
        "campaign": campaign_row,
        "tables": tables,
    }


def export_campaign(campaign: int, path: str | os.PathLike[str]) -> Exported:
    """Write the campaign file (through a temporary file and a rename). Returns a summary."""
    out = fileio.check_output(path, "campaign.json")
    doc = campaign_document(campaign)
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    fileio.write_atomic(out, text, "campaign.json")
    return Exported(
        file=out,
        campaign=doc["campaign"]["name"],
        bytes=len(text.encode("utf-8")),
        counts=TableCounts.of({name: len(rows) for name, rows in doc["tables"].items()}),
    )


# ------------------------------------------------------------------------------------------------ import


def read_document(path: str | os.PathLike[str]) -> CampaignDocument:
    """Read and parse a campaign file (a regular file, at most 256 MiB, UTF-8 JSON of this format)."""
    src = fileio.check_path(path)
    try:
        info = src.stat()
    except FileNotFoundError:
        raise ServiceError(f"{src} does not exist") from None
    except OSError as exc:
        raise ServiceError(f"cannot read {src}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ServiceError(f"{src} is not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        raise ServiceError(f"{src} is too large for a campaign file ({info.st_size} bytes)")
    try:
        with open(src, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
        doc = json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise ServiceError(f"cannot read {src}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ServiceError(f"{src} is not a campaign file (not UTF-8 text)") from None
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ServiceError(f"{src} is not a campaign file (not valid JSON: {exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ServiceError(f"{src} is not a campaign_app campaign file")
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ServiceError(f"{src}: its format version {version!r} is not valid")
    if version > FORMAT_VERSION:
        raise ServiceError(
            f"{src} was written by a newer campaign_app (format {version}, app "
            f"{doc.get('app_version', '?')}); this version reads format {FORMAT_VERSION}. "
            "Please update campaign_app"
        )
    if not isinstance(doc.get("campaign"), dict) or not isinstance(doc.get("tables"), dict):
        raise ServiceError(f"{src} is not a whole campaign file (no campaign or tables)")
    return cast(CampaignDocument, doc)  # its top is checked here; every row is checked by import_campaign


def _where(table: str, index: int | None, column: str) -> str:
    return f"{table} row {index + 1}, {column}" if index is not None else f"campaign {column}"


MAX_FACE = 1_000_000
CELL_KEYS = frozenset({"glory", "hit", "enemy", "ends"})


def _json_shape_problem(table: str, column: str, data: Any) -> str | None:
    """What is wrong with the shape of a JSON column's data (what the services store there), or ``None``."""
    from .sologear_sheet import STATE_FIELDS

    if (table, column) == ("roll", "faces"):
        if (
            not isinstance(data, list)
            or len(data) > 1000
            or not all(isinstance(f, int) and not isinstance(f, bool) and 0 <= f <= MAX_FACE for f in data)
        ):
            return f"must be a list of die faces (whole numbers 0..{MAX_FACE:,}), not {data!r:.80}"
        return None
    if (table, column) == ("sologear_turn", "cell"):
        if (
            not isinstance(data, dict)
            or set(data) - CELL_KEYS
            or not all(v is None or (isinstance(v, str) and len(v) <= 20) for v in data.values())
        ):
            return f"must be a combat table cell ({', '.join(sorted(CELL_KEYS))}), not {data!r:.80}"
        return None
    if (table, column) == ("sologear_turn", "state_before"):
        if (
            not isinstance(data, dict)
            or set(data) - set(STATE_FIELDS)
            or not all(
                v is None or isinstance(v, bool) or (isinstance(v, str) and len(v) <= 120) for v in data.values()
            )
        ):
            return f"must be a sheet state ({', '.join(STATE_FIELDS)}), not {data!r:.80}"
        return None
    if table == "bout_round" and column in ("a", "b"):
        keys = {
            "card",
            "dice",
            "initiative",
            "style",
            "final_style",
            "attack",
            "defense",
            "damage",
            "discarded",
            "cards_left",
        }
        if (
            not isinstance(data, dict)
            or not keys <= set(data)
            or len(data) > 20
            or not (
                isinstance(data["dice"], list)
                and len(data["dice"]) == 2
                and all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 12 for f in data["dice"])
            )
        ):
            return f"must be one fighter's side of a round ({', '.join(sorted(keys))}), not {data!r:.80}"
        return None
    if (table, column) == ("print_record", "snapshot"):
        if not isinstance(data, dict):
            return f"must be a record of what was printed, not {data!r:.80}"
        return None
    return f"is an unexpected JSON column {column!r}"  # pragma: no cover - every JSON column is above


def _check_value(table: str, index: int | None, field: peewee.Field, value: Any) -> Any:
    """One stored value checked like the services check input; returns the value to store."""
    column = field.column_name
    where = _where(table, index, column)
    if value is None:
        if field.null or isinstance(field, peewee.AutoField):
            return None
        raise ServiceError(f"{where} must not be empty")
    if isinstance(field, BooleanField):
        if value in (0, 1) and not isinstance(value, float):
            return bool(value)  # stored as 1/0 in the file, true/false on a server
        raise ServiceError(f"{where} must be true or false, not {value!r}")
    if isinstance(field, IntegerField | ForeignKeyField | peewee.AutoField):
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > SQLITE_INT_MAX:
            raise ServiceError(f"{where} must be a whole number, not {value!r}")
        return value
    if isinstance(field, FloatField):
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value or abs(value) > 1e15:
            raise ServiceError(f"{where} must be a number, not {value!r}")
        return float(value)
    if not isinstance(value, str):
        raise ServiceError(f"{where} must be text, not {value!r}")
    if isinstance(field, DateField | DateTimeField):
        try:
            (_dt.date if isinstance(field, DateField) else _dt.datetime).fromisoformat(value)
        except ValueError:
            raise ServiceError(f"{where} is not a date: {value!r}") from None
        return value
    if isinstance(field, JSONField):
        if len(value) > FREE_TEXT_MAX:
            raise ServiceError(f"{where} is too long")
        try:
            data = json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            raise ServiceError(f"{where} is not valid JSON data") from None
        problem = _json_shape_problem(table, column, data)
        if problem:
            raise ServiceError(f"{where} {problem}")
        return value
    if isinstance(field, TextField):
        key = (table, column)
        if key in LINE_LIMITS:
            text = check_line(value, where, LINE_LIMITS[key], required=key in REQUIRED_NAMES)
            return text
        return check_multiline(value, where, FREE_TEXT_MAX)
    raise ServiceError(f"{where}: unexpected column type")  # pragma: no cover - every model field is above


def _check_row(table: str, model: type[peewee.Model], index: int | None, row: Any) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise ServiceError(f"{table} row {(index or 0) + 1} is not a record")
    fields = {f.column_name: f for f in model._meta.sorted_fields}
    row = upgrade_row(table, row)  # a file from a version before schema 4 stored labels, not codes
    unknown = set(row) - set(fields)
    if unknown:
        raise ServiceError(f"{table} row {(index or 0) + 1} has unknown columns: {', '.join(sorted(unknown))}")
    out: dict[str, Any] = {}
    for column, fld in fields.items():
        if isinstance(fld, NameKeyField):
            continue  # derived from the name below, whatever the file says
        if column not in row:
            if fld.default is None and not fld.null and not isinstance(fld, peewee.AutoField):
                raise ServiceError(f"{_where(table, index, column)} is missing")
            continue
        out[column] = _check_value(table, index, fld, row[column])
    if "name_key" in fields and "name" in out:
        out["name_key"] = name_key(out["name"])
    return out


def _insert(model: type[peewee.Model], values: dict[str, Any]) -> int:
    cols = list(values)
    table = model._meta.table_name
    booleans = {f.column_name for f in model._meta.sorted_fields if isinstance(f, BooleanField)}
    params = [bool(values[c]) if c in booleans and values[c] is not None else values[c] for c in cols]
    sql = (
        f'INSERT INTO "{table}" ({", ".join(chr(34) + c + chr(34) for c in cols)}) '
        f"VALUES ({', '.join('?' for _ in cols)})"
    )
    return require().insert_returning_id(sql, params)


def _invariants(campaign_id: int) -> list[str]:
    problems = []
    for name, n in db.execute_sql(
        "SELECT p.name, count(l.id) FROM platoon p JOIN leader l ON l.platoon_id = p.id AND l.status = "
        "'active' WHERE p.campaign_id = ? GROUP BY p.id HAVING count(l.id) > 1",
        [campaign_id],
    ).fetchall():
        problems.append(f"platoon {name!r} has {n} active leaders")
    for name, n, top in db.execute_sql(
        "SELECT p.name, count(b.id), max(b.number) FROM platoon p JOIN battle b ON b.platoon_id = p.id "
        "WHERE p.campaign_id = ? GROUP BY p.id HAVING count(b.id) != max(b.number) OR min(b.number) != 1",
        [campaign_id],
    ).fetchall():
        problems.append(f"platoon {name!r}: battle numbers are not 1..{n} (highest {top})")
    for name, xp, after in db.execute_sql(
        "SELECT p.name, p.xp, x.xp_after FROM platoon p JOIN xp_change x ON x.id = "
        "(SELECT max(id) FROM xp_change WHERE platoon_id = p.id AND who = 'platoon') "
        "WHERE p.campaign_id = ? AND p.xp != x.xp_after",
        [campaign_id],
    ).fetchall():
        problems.append(f"platoon {name!r}: XP is {xp} but its last XP change says {after}")
    for name, n in db.execute_sql(
        "SELECT f.name, count(*) FROM bout b JOIN fighter f ON f.id = b.fighter_id JOIN fighter o "
        "ON o.id = b.opponent_fighter_id WHERE f.campaign_id = ? AND o.campaign_id != f.campaign_id "
        "GROUP BY f.name",
        [campaign_id],
    ).fetchall():
        problems.append(f"fighter {name!r}: {n} bouts against fighters of another campaign")
    for name, number, wounds, leader_wounds in db.execute_sql(
        "SELECT p.name, b.number, b.wounds, b.leader_wounds FROM battle b JOIN platoon p ON p.id = "
        "b.platoon_id WHERE p.campaign_id = ? AND b.leader_wounds > b.wounds",
        [campaign_id],
    ).fetchall():
        problems.append(
            f"platoon {name!r}, battle {number}: {leader_wounds} wound counters on the leader's "
            f"element but only {wounds} in all"
        )
    return problems


def import_campaign(path: str | os.PathLike[str], new_name: str | None = None) -> Imported:
    """Read a campaign file into the open database as a new campaign (named ``new_name`` if given). Nothing is
    written unless every row is accepted."""
    doc = read_document(path)
    src = fileio.check_path(path)
    tables = doc["tables"]
    unknown = set(tables) - {name for name, _m in TABLES}
    if unknown:
        raise ServiceError(f"{src} has unknown tables: {', '.join(sorted(unknown))}")
    campaign = _check_row("campaign", Campaign, None, doc["campaign"])
    name = check_name(new_name if new_name is not None else campaign.get("name", ""), "campaign")
    campaign["name"], campaign["name_key"] = name, name_key(name)
    checked: dict[str, list[dict[str, Any]]] = {}
    for table, model in TABLES:
        rows = tables.get(table, [])
        if not isinstance(rows, list):
            raise ServiceError(f"{src}: {table} is not a list of rows")
        checked[table] = [_check_row(table, model, i, row) for i, row in enumerate(rows)]
        ids = [r.get("id") for r in checked[table]]
        if None in ids or len(set(ids)) != len(ids):
            raise ServiceError(f"{src}: every {table} row needs its own id")
    from .backups import backup_before
    from .campaigns import name_problem

    clash = name_problem(name)
    if clash:
        raise ServiceError(f"{clash}; import it under another name with --as NEW_NAME" if new_name is None else clash)
    backup_before("import")
    new_ids: dict[str, dict[int, int]] = {name: {} for name, _m in TABLES}
    counts: dict[str, int] = {}
    try:
        with operation("campaign.import", f"Import campaign {name} from {src.name}") as op:
            if name_problem(name):  # taken while we waited for the write lock
                raise ServiceError(name_problem(name) or "")
            campaign.pop("id", None)
            # club play: the importer created the campaign, organises it and owns what it holds ('' on a file)
            access.require_campaign_creator()
            importer = creator_login()
            campaign["created_by"] = importer
            campaign_id = _insert(Campaign, campaign)
            access.enrol_creator(campaign_id)
            op.target(campaign=campaign_id)
            for table, model in TABLES:
                fks = [f for f in model._meta.sorted_fields if isinstance(f, ForeignKeyField)]
                for index, row in enumerate(checked[table]):
                    values = dict(row)
                    old_id = values.pop("id")
                    if "owner" in values:
                        values["owner"] = importer
                    for fk in fks:
                        ref = values.get(fk.column_name)
                        if ref is None:
                            continue
                        target = fk.rel_model
                        if target is Campaign:
                            values[fk.column_name] = campaign_id
                            continue
                        mapped = new_ids[_MODEL_TABLE[target]].get(ref)
                        if mapped is None:
                            raise ServiceError(
                                f"{table} row {index + 1}, {fk.column_name}: it points to "
                                f"{_MODEL_TABLE[target]} {ref}, which is not in the file"
                            )
                        values[fk.column_name] = mapped
                    new_ids[table][old_id] = _insert(model, values)
                counts[table] = len(checked[table])
            problems = _invariants(campaign_id)
            if problems:
                raise ServiceError(f"{src} does not hold a consistent campaign: {'; '.join(problems[:3])}")
    except peewee.IntegrityError as exc:
        raise ServiceError(f"{src} holds a value the database refuses ({exc}); nothing was imported") from None
    return Imported(file=src, campaign=name, campaign_id=campaign_id, counts=TableCounts.of(counts))
