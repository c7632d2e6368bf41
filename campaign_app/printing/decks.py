"""Play-aid card decks: TOML files, one folder per deck and one file per card.

The shipped decks live in ``templates/`` (found through :func:`campaign_app.resources.templates_dir`); the
user's own decks live in ``<data folder>/decks/`` (``AppPaths.user_decks_dir``) and load after them. A user
folder with the id of a shipped deck adds cards to it (a card with the same id replaces the shipped one) and
its ``deck.toml``, if present, overrides the deck's title, system or back face.

A broken file never stops the others: :func:`load_decks` collects a :class:`DeckProblem` (file, line,
message) for it and loads everything else. ``templates/README.md`` describes the format for users.
"""

from __future__ import annotations

import bisect
import functools
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import Refused

DECK_FILE = "deck.toml"
BLOCK_TYPES = ("heading", "paragraph", "bullets", "steps", "numbers", "table", "rule_table", "fields", "boxes")
PHASES: dict[str, str] = {
    # phase word -> what it is for (printed as a marker with a colour strip on the card)
    "setup": "before the game or the campaign",
    "turn": "during a turn, in play order",
    "action": "while a unit acts",
    "aftermath": "after the battle",
    "campaign": "between battles",
    "reference": "look-up tables and rules",
}
"""A card's ``phase``: when it is used. The printed marker is the word capitalised."""
DECK_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
CARD_FILE = re.compile(r"^(\d{1,3})-([a-z0-9][a-z0-9-]*)\.toml$")
COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")
DEFAULT_BACK_COLOUR = "#3b4a5a"
MAX_BOXES = 60
MAX_NUMBERS = 4
"""At most this many large numerals in one ``numbers`` block."""


class DeckError(Refused):
    """A deck or card that cannot be used (unknown id, a card that does not fit, a bad file)."""


@dataclass(frozen=True)
class DeckProblem:
    """One file that could not be loaded (or one bad part of it); ``line`` is 1-based when known."""

    path: Path
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Block:
    """One part of a card's text. Which fields matter depends on ``type`` (see templates/README.md)."""

    type: str
    text: str = ""
    items: tuple[str, ...] = ()
    headers: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    widths: tuple[float, ...] = ()
    name: str = ""
    columns: tuple[str, ...] = ()
    row_range: tuple[int, int] | None = None  # rule_table: first and last row to print (1-based)
    labels: tuple[str, ...] = ()  # rule_table: headers to print instead of the engine's (same count)
    caption: str = ""
    count: int = 0
    line: int | None = None


@dataclass(frozen=True)
class BackFace:
    title: str
    text: str = ""
    colour: str = DEFAULT_BACK_COLOUR


@dataclass(frozen=True)
class Card:
    deck_id: str
    id: str
    number: int
    title: str
    system: str
    blocks: tuple[Block, ...]
    source: Path
    tag: str = ""
    phase: str = ""  # one of PHASES ("" = none): printed as a marker and a colour strip

    @property
    def full_id(self) -> str:
        return f"{self.deck_id}/{self.id}"


@dataclass(frozen=True)
class Deck:
    id: str
    title: str
    system: str
    back: BackFace
    cards: tuple[Card, ...]
    source: Path
    origin: str = "shipped"  # "shipped" | "user" | "shipped+user"
    description: str = ""
    short: str = ""  # a shorter system name for the card footer when the full one does not fit

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "system": self.system,
            "source": str(self.source),
            "origin": self.origin,
            "cards": [
                {"id": c.id, "full_id": c.full_id, "title": c.title, "source": str(c.source)} for c in self.cards
            ],
        }


@dataclass
class DeckLibrary:
    """Every deck that loaded, in order (shipped first, then the user's), and the problems met."""

    decks: dict[str, Deck] = field(default_factory=dict)
    problems: list[DeckProblem] = field(default_factory=list)

    def deck(self, deck_id: str) -> Deck:
        try:
            return self.decks[deck_id]
        except KeyError:
            known = ", ".join(self.decks) or "none"
            raise DeckError(f"no deck {deck_id!r} (decks: {known})") from None

    def cards(self) -> list[Card]:
        return [card for deck in self.decks.values() for card in deck.cards]


# ---------------------------------------------------------------------------------------------- reading


class _FileError(Refused):
    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


_TOML_LINE = re.compile(r"\(at line (\d+), column \d+\)")


MAX_FILE_BYTES = 256 * 1024
"""A card or deck file is at most 256 KiB (the shipped ones are a few KiB)."""
MAX_DEPTH = 24
"""Tables and lists nested deeper than this are refused (a card needs 4 or 5 levels)."""


def _read_limited(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES. Devices, FIFOs, sockets and folders are refused
    without waiting (``O_NONBLOCK``) and without reading them."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise _FileError(f"cannot read the file ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _FileError("not a regular file (only plain files are read)")
        if info.st_size > MAX_FILE_BYTES:
            raise _FileError(f"too large ({info.st_size} bytes; a card file is at most {MAX_FILE_BYTES // 1024} KiB)")
        chunks = []
        left = MAX_FILE_BYTES + 1
        while left > 0:
            chunk = os.read(fd, min(65536, left))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        raw = b"".join(chunks)
    except OSError as exc:
        raise _FileError(f"cannot read the file ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_FILE_BYTES:
        raise _FileError(f"too large (a card file is at most {MAX_FILE_BYTES // 1024} KiB)")
    return raw


def _nesting(text: str) -> int:
    """The deepest nesting of [ and { outside strings and comments (a cheap scan before parsing)."""
    depth = deepest = 0
    quote = ""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if quote:
            if ch == "\\" and quote.startswith('"'):
                i += 2
                continue
            if text.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
        elif ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            i += len(quote)
            continue
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1
    return deepest


def _read_toml(path: Path) -> tuple[dict[str, Any], str]:
    raw = _read_limited(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _FileError("not UTF-8 text", line) from None
    if _nesting(text) > MAX_DEPTH:
        raise _FileError(f"lists or tables are nested too deeply (more than {MAX_DEPTH} levels)")
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise _FileError(f"lists or tables are nested too deeply (more than {MAX_DEPTH} levels)") from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        m = _TOML_LINE.search(message)
        toml_line = int(m.group(1)) if m else None
        raise _FileError(f"TOML syntax error: {_TOML_LINE.sub('', message).strip()}", toml_line) from None
    return data, text


@functools.lru_cache(maxsize=32)
def _match_lines(text: str, pattern: str) -> tuple[int, ...]:
    """1-based lines of every match of ``pattern`` in ``text`` (one pass; cached, so naming the line of the
    n-th block of a big file does not rescan it n times)."""
    starts = [m.start() for m in re.finditer(pattern, text, flags=re.MULTILINE)]
    if not starts:
        return ()
    newlines = [i for i, ch in enumerate(text) if ch == "\n"] if len(starts) > 1 else None
    if newlines is None:
        return (text.count("\n", 0, starts[0]) + 1,)
    return tuple(bisect.bisect_left(newlines, pos) + 1 for pos in starts)


def _line_of(text: str, pattern: str, occurrence: int = 0) -> int | None:
    """1-based line of the ``occurrence``-th regex match in ``text`` (None when not found)."""
    lines = _match_lines(text, pattern)
    return lines[occurrence] if 0 <= occurrence < len(lines) else None


def _key_line(text: str, key: str) -> int | None:
    return _line_of(text, rf"^\s*{re.escape(key)}\s*=")


def _string(data: dict[str, Any], key: str, text: str, *, required: bool = False, default: str = "") -> str:
    value = data.get(key)
    if value is None:
        if required:
            raise _FileError(f"missing '{key}' (a text, e.g. {key} = \"...\")")
        return default
    if not isinstance(value, str):
        raise _FileError(f"'{key}' must be a text in quotes, not {type(value).__name__}", _key_line(text, key))
    if required and not value.strip():
        raise _FileError(f"'{key}' is empty", _key_line(text, key))
    return value


def _str_list(value: Any, what: str, line: int | None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, str | int | float) and not isinstance(v, bool) for v in value
    ):
        raise _FileError(f"{what} must be a list of texts", line)
    return tuple(str(v) for v in value)


def _block(raw: Any, index: int, text: str) -> Block:
    # Each block starts with its 'type' key; the n-th 'type =' line is the best line we can name.
    line = _line_of(text, r"(^|[{,])\s*type\s*=", index)
    where = f"block {index + 1}"
    if not isinstance(raw, dict):
        raise _FileError(f'{where} must be a table like {{ type = "paragraph", text = "..." }}', line)
    kind = raw.get("type")
    if kind not in BLOCK_TYPES:
        raise _FileError(f"{where}: unknown type {kind!r} (use one of: {', '.join(BLOCK_TYPES)})", line)
    allowed = {
        "heading": {"text"},
        "paragraph": {"text"},
        "bullets": {"items"},
        "steps": {"items"},
        "numbers": {"items", "caption"},
        "table": {"headers", "rows", "widths", "caption"},
        "rule_table": {"name", "columns", "rows", "labels", "caption", "widths"},
        "fields": {"items"},
        "boxes": {"text", "count"},
    }[kind]
    extra = sorted(set(raw) - allowed - {"type"})
    if extra:
        keys = "key" if len(extra) == 1 else "keys"
        raise _FileError(
            f"{where} ({kind}): unknown {keys} {', '.join(extra)} (a {kind} block takes: {', '.join(sorted(allowed))})",
            line,
        )

    def need_text(key: str) -> str:
        value = raw.get(key)
        if not isinstance(value, str) or not value.strip():
            raise _FileError(f"{where} ({kind}) needs a non-empty '{key}' text", line)
        return value

    caption = raw.get("caption", "")
    if not isinstance(caption, str):
        raise _FileError(f"{where}: 'caption' must be a text", line)
    widths: tuple[float, ...] = ()
    if "widths" in raw:
        w = raw["widths"]
        if (
            not isinstance(w, list)
            or not w
            or not all(isinstance(x, int | float) and not isinstance(x, bool) and x > 0 for x in w)
        ):
            raise _FileError(f"{where}: 'widths' must be a list of positive numbers (relative widths)", line)
        widths = tuple(float(x) for x in w)

    if kind in ("heading", "paragraph"):
        return Block(kind, text=need_text("text"), line=line)
    if kind == "numbers":
        items = _str_list(raw.get("items"), f"{where} (numbers) 'items'", line)
        if not items or len(items) > MAX_NUMBERS or not all("|" in item for item in items):
            raise _FileError(
                f'{where} (numbers) needs 1 to {MAX_NUMBERS} items like "10 | orders cards" '
                f"(the value, a bar, its label)",
                line,
            )
        return Block(kind, items=items, caption=caption, line=line)
    if kind in ("bullets", "fields", "steps"):
        items = _str_list(raw.get("items"), f"{where} ({kind}) 'items'", line)
        if not items:
            raise _FileError(f"{where} ({kind}) needs at least one item", line)
        return Block(kind, items=items, line=line)
    if kind == "boxes":
        count = raw.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_BOXES:
            raise _FileError(f"{where} (boxes) needs 'count', a whole number from 1 to {MAX_BOXES}", line)
        label = raw.get("text", "")
        if not isinstance(label, str):
            raise _FileError(f"{where}: 'text' must be a text", line)
        return Block(kind, text=label, count=count, line=line)
    if kind == "rule_table":
        from ..rules.tables import RULE_TABLE_NAMES

        name = need_text("name")
        if name not in RULE_TABLE_NAMES:
            raise _FileError(
                f"{where}: no rule table named {name!r} (known: {', '.join(RULE_TABLE_NAMES)})",
                _line_of(text, re.escape(f'"{name}"')) or line,
            )
        columns = _str_list(raw.get("columns", []), f"{where} 'columns'", line)
        if widths and columns and len(widths) != len(columns):
            raise _FileError(f"{where}: 'widths' has {len(widths)} numbers for {len(columns)} columns", line)
        row_range = None
        if "rows" in raw:
            r = raw["rows"]
            if (
                not isinstance(r, list)
                or len(r) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in r)
                or not 1 <= r[0] <= r[1]
            ):
                raise _FileError(f"{where}: 'rows' must be [first, last], row numbers from 1, e.g. rows = [1, 5]", line)
            row_range = (r[0], r[1])
        labels = _str_list(raw.get("labels", []), f"{where} 'labels'", line)
        if labels and columns and len(labels) != len(columns):
            raise _FileError(f"{where}: 'labels' has {len(labels)} names for {len(columns)} columns", line)
        return Block(
            kind,
            name=name,
            columns=columns,
            row_range=row_range,
            labels=labels,
            caption=caption,
            widths=widths,
            line=line,
        )
    # table
    headers = _str_list(raw.get("headers", []), f"{where} (table) 'headers'", line)
    rows_raw = raw.get("rows")
    if not isinstance(rows_raw, list) or not rows_raw:
        raise _FileError(f'{where} (table) needs \'rows\', a list of rows like ["a", "b"]', line)
    rows = tuple(_str_list(r, f"{where} (table) row {i + 1}", line) for i, r in enumerate(rows_raw))
    ncols = len(headers) if headers else len(rows[0])
    for i, r in enumerate(rows):
        if len(r) != ncols:
            raise _FileError(f"{where} (table): row {i + 1} has {len(r)} cells, expected {ncols}", line)
    if widths and len(widths) != ncols:
        raise _FileError(f"{where}: 'widths' has {len(widths)} numbers for {ncols} columns", line)
    return Block(kind, headers=headers, rows=rows, widths=widths, caption=caption, line=line)


def _read_card(path: Path, deck_id: str, system: str) -> Card:
    m = CARD_FILE.match(path.name)
    if not m:
        raise _FileError("card files are named like 01-card-name.toml (number, dash, lower-case id)")
    data, text = _read_toml(path)
    known = {"title", "system", "tag", "phase", "blocks"}
    extra = sorted(set(data) - known)
    if extra:
        keys = "key" if len(extra) == 1 else "keys"
        raise _FileError(
            f"unknown {keys} {', '.join(extra)} (a card takes: {', '.join(sorted(known))})",
            _key_line(text, extra[0]) or _line_of(text, rf"^\s*\[+\s*{re.escape(extra[0])}"),
        )
    title = _string(data, "title", text, required=True)
    card_system = _string(data, "system", text, default=system)
    tag = _string(data, "tag", text)
    phase = _string(data, "phase", text).strip().lower()
    if phase and phase not in PHASES:
        raise _FileError(f"unknown phase {phase!r} (use one of: {', '.join(PHASES)})", _key_line(text, "phase"))
    raw_blocks = data.get("blocks")
    if not isinstance(raw_blocks, list) or not raw_blocks:
        raise _FileError(
            "a card needs 'blocks': a list of [[blocks]] tables",
            _key_line(text, "blocks") or _line_of(text, r"^\s*\[\[\s*blocks"),
        )
    blocks = tuple(_block(b, i, text) for i, b in enumerate(raw_blocks))
    return Card(
        deck_id=deck_id,
        id=m.group(2),
        number=int(m.group(1)),
        title=title,
        system=card_system,
        blocks=blocks,
        source=path,
        tag=tag,
        phase=phase,
    )


def _read_deck_file(path: Path, deck_id: str, base: Deck | None) -> Deck:
    data, text = _read_toml(path)
    known = {"title", "system", "short", "description", "back"}
    extra = sorted(set(data) - known)
    if extra:
        keys = "key" if len(extra) == 1 else "keys"
        raise _FileError(
            f"unknown {keys} {', '.join(extra)} (deck.toml takes: {', '.join(sorted(known))})",
            _key_line(text, extra[0]) or _line_of(text, rf"^\s*\[\s*{re.escape(extra[0])}"),
        )
    title = _string(data, "title", text, required=base is None, default=base.title if base else "")
    system = _string(data, "system", text, default=base.system if base else title)
    description = _string(data, "description", text, default=base.description if base else "")
    short = _string(data, "short", text, default=base.short if base else "")
    back_raw = data.get("back", {})
    back_line = _line_of(text, r"^\s*\[\s*back\s*\]") or _key_line(text, "back")
    if not isinstance(back_raw, dict):
        raise _FileError("'back' must be a table: [back] with title, text and colour", back_line)
    bad = sorted(set(back_raw) - {"title", "text", "colour"})
    if bad:
        keys = "key" if len(bad) == 1 else "keys"
        raise _FileError(f"[back]: unknown {keys} {', '.join(bad)} (use title, text, colour)", back_line)
    old = base.back if base else BackFace(title=title)
    values: dict[str, str] = {}
    for key in ("title", "text", "colour"):
        value = back_raw.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise _FileError(f"[back] '{key}' must be a text", _key_line(text, key) or back_line)
        values[key] = value
    back = replace(old, **values)
    if not back.title:
        back = replace(back, title=title)
    if not COLOUR.match(back.colour):
        raise _FileError(
            f'[back] colour must look like "#3b4a5a", not {back.colour!r}', _key_line(text, "colour") or back_line
        )
    return Deck(
        id=deck_id,
        title=title,
        system=system,
        back=back,
        cards=base.cards if base else (),
        source=path.parent,
        origin=base.origin if base else "shipped",
        description=description,
        short=short,
    )


def _load_folder(folder: Path, origin: str, base: Deck | None, problems: list[DeckProblem]) -> Deck | None:
    deck_id = folder.name
    if not DECK_ID.match(deck_id):
        problems.append(DeckProblem(folder, None, "deck folder names are lower-case letters, digits and dashes"))
        return None
    deck_file = folder / DECK_FILE
    if deck_file.is_file():
        try:
            deck = _read_deck_file(deck_file, deck_id, base)
        except _FileError as exc:
            problems.append(DeckProblem(deck_file, exc.line, exc.message))
            return base
        except Exception as exc:  # any failure of one file is a problem of that file, never of the others
            problems.append(DeckProblem(deck_file, None, f"cannot be loaded ({type(exc).__name__}: {exc})"))
            return base
    elif base is not None:
        deck = base
    else:
        problems.append(DeckProblem(deck_file, None, f"missing {DECK_FILE} (every deck folder needs one)"))
        return None
    if base is not None:
        deck = replace(deck, origin="shipped+user" if base.origin != "user" else "user", source=folder)
    elif origin == "user":
        deck = replace(deck, origin="user")

    cards: dict[str, Card] = {c.id: c for c in deck.cards}
    for path in sorted(folder.glob("*.toml")):
        if path.name == DECK_FILE:
            continue
        try:
            card = _read_card(path, deck_id, deck.system)
        except _FileError as exc:
            problems.append(DeckProblem(path, exc.line, exc.message))
            continue
        except Exception as exc:  # any failure of one file is a problem of that file, never of the others
            problems.append(DeckProblem(path, None, f"cannot be loaded ({type(exc).__name__}: {exc})"))
            continue
        cards[card.id] = card
    ordered = tuple(sorted(cards.values(), key=lambda c: (c.number, c.id)))
    if not ordered:
        problems.append(DeckProblem(folder, None, "the deck has no cards that loaded"))
        return None if base is None else base
    return replace(deck, cards=ordered)


def _deck_folders(root: Path | None) -> list[Path]:
    if root is None or not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def load_decks(user_dir: Path | None = None, shipped_dir: Path | None = None) -> DeckLibrary:
    """Load the shipped decks, then the user's (``user_dir`` may be missing or None).

    Never raises for a bad file: the library's ``problems`` name each file and line that failed.
    """
    if shipped_dir is None:
        from ..resources import templates_dir

        shipped_dir = templates_dir()
    library = DeckLibrary()
    for origin, root in (("shipped", shipped_dir), ("user", user_dir)):
        try:
            folders = _deck_folders(root)
        except OSError as exc:
            library.problems.append(
                DeckProblem(Path(root) if root else Path("."), None, f"cannot list the folder ({exc.strerror or exc})")
            )
            continue
        for folder in folders:
            base = library.decks.get(folder.name) if origin == "user" else None
            try:
                deck = _load_folder(folder, origin, base, library.problems)
            except Exception as exc:  # e.g. an unreadable folder: that deck only
                library.problems.append(DeckProblem(folder, None, f"cannot be loaded ({type(exc).__name__}: {exc})"))
                deck = base
            if deck is not None:
                library.decks[deck.id] = deck
    return library


def load_deck(folder: Path) -> Deck:
    """Load one deck folder; raises DeckError with every problem (file and line) when any file is bad."""
    problems: list[DeckProblem] = []
    deck = _load_folder(Path(folder), "user", None, problems)
    if problems or deck is None:
        raise DeckError("; ".join(str(p) for p in problems) or f"{folder}: no deck")
    return deck


def select_cards(library: DeckLibrary, deck_ids: Sequence[str] = (), card_ids: Sequence[str] = ()) -> list[Card]:
    """The cards to print, in deck order: every card of ``deck_ids`` plus each card in ``card_ids``
    (``deck/card`` or a bare card id, which picks that card in every deck that has it). Nothing chosen means
    every card of every deck. Unknown ids raise DeckError."""
    chosen: set[str] = set()
    for deck_id in deck_ids:
        chosen.update(c.full_id for c in library.deck(deck_id).cards)
    all_cards = library.cards()
    for wanted in card_ids:
        if "/" in wanted:
            deck_id, card_id = wanted.split("/", 1)
            deck = library.deck(deck_id)
            hits = [c for c in deck.cards if c.id == card_id]
            if not hits:
                raise DeckError(
                    f"deck {deck_id!r} has no card {card_id!r} (cards: {', '.join(c.id for c in deck.cards)})"
                )
        else:
            hits = [c for c in all_cards if c.id == wanted]
            if not hits:
                raise DeckError(f"no card {wanted!r} in any deck (name it as deck/card, see 'print decks')")
        chosen.update(c.full_id for c in hits)
    if not deck_ids and not card_ids:
        return all_cards
    return [c for c in all_cards if c.full_id in chosen]


def deck_ids(cards: Iterable[Card]) -> list[str]:
    """The decks the cards come from, in first-seen order."""
    seen: dict[str, None] = {}
    for card in cards:
        seen.setdefault(card.deck_id, None)
    return list(seen)
