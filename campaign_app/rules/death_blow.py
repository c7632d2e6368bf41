"""d12 Death Blow (RULES.md §5): a fighter's career (levels and XP) and a bout, round by round.

Pure and Qt-free: no database, no I/O, no global ``random``. Dice come from a :class:`~.dice.DiceSource`
(the app's seeded dice or faces the user typed); decks are shuffled by a ``random.Random`` the caller owns
(:func:`shuffled_decks`, seeded, so the same seed gives the same bout).

One source of truth: :data:`SCALE` and :func:`attack_defense` are the Scale of Styles; :func:`resolve_round`
is the one round resolution that the bout engine (:class:`Bout`), the odds estimate (:func:`estimate_odds`),
the help text and the printed cards rely on.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import Refused
from .dice import Dice, DiceSource, SeededDice

# ----------------------------------------------------------------------------------------------- §5.1 careers

MAX_LEVEL = 11
"""Experience Levels run 0..11 (§5.1)."""
XP_PER_LEVEL = 12
"""The sheet's 12 boxes: 12 XP advance one level."""
MAX_XP_GAIN = 12
"""A deck holds 12 face cards (J, Q, K of four suits): a victor gains 0..12 XP."""


class DeathBlowError(Refused):
    """A value outside what §5 allows (a level of 12, 13 XP toward the next level ...)."""


def check_level(level: int) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= MAX_LEVEL:
        raise DeathBlowError(f"{level!r} is not an Experience Level (0..{MAX_LEVEL})")
    return level


def check_xp(xp: int, level: int) -> int:
    """XP toward the next level: 0..11 below level 11; always 0 at level 11 (§5.1 ▶)."""
    top = 0 if level == MAX_LEVEL else XP_PER_LEVEL - 1
    if isinstance(xp, bool) or not isinstance(xp, int) or not 0 <= xp <= top:
        where = "at level 11 (the last level) it is always 0" if level == MAX_LEVEL else f"0..{top}"
        raise DeathBlowError(f"{xp!r} is not XP toward the next level ({where})")
    return xp


def check_gain(gain: int) -> int:
    if isinstance(gain, bool) or not isinstance(gain, int) or not 0 <= gain <= MAX_XP_GAIN:
        raise DeathBlowError(f"{gain!r} face cards is impossible: a deck holds 0..{MAX_XP_GAIN} face cards (J, Q, K)")
    return gain


@dataclass(frozen=True)
class Career:
    """Where a fighter stands: level 0..11, XP toward the next level, lifetime XP (all XP ever earned)."""

    level: int = 0
    xp: int = 0
    lifetime_xp: int = 0

    def __post_init__(self) -> None:
        check_level(self.level)
        check_xp(self.xp, self.level)
        if self.lifetime_xp < 0:
            raise DeathBlowError(f"lifetime XP cannot be negative ({self.lifetime_xp})")


@dataclass(frozen=True)
class XpGain:
    """What ``gain`` XP did to a career: before, after, and the levels reached on the way (in order)."""

    before: Career
    after: Career
    gained: int
    levels_reached: tuple[int, ...]

    @property
    def levelled_up(self) -> bool:
        return bool(self.levels_reached)


def gain_xp(career: Career, gained: int) -> XpGain:
    """Add ``gained`` XP (0..12): every 12 XP toward the next level advance one level and the boxes are cleared,
    the rest carries over (10 XP + 5 → next level with 3 XP); at level 11 XP toward the next level stays 0 and
    all XP goes to lifetime XP only (§5.1 ▶)."""
    check_gain(gained)
    level, xp = career.level, career.xp + gained
    reached: list[int] = []
    while level < MAX_LEVEL and xp >= XP_PER_LEVEL:
        level += 1
        xp -= XP_PER_LEVEL
        reached.append(level)
    if level == MAX_LEVEL:
        xp = 0
    after = Career(level, xp, career.lifetime_xp + gained)
    return XpGain(career, after, gained, tuple(reached))


# ----------------------------------------------------------------------------------------------- cards

SUITS = ("♠", "♥", "♦", "♣")
"""The four suits; ♥♦ are red (Mixed Offense), ♠♣ black (Mixed Defense)."""
RED_SUITS = frozenset({"♥", "♦"})
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
FACE_RANKS = frozenset({11, 12, 13})
JOKER = 0
DECK_SIZE = 54


@dataclass(frozen=True, order=True)
class Card:
    """One card of a 54-card deck: ``rank`` 1 (Ace) .. 13 (King), or 0 for a Joker (``suit`` '', ``copy`` 1 or 2
    tells the two Jokers apart)."""

    rank: int
    suit: str = ""
    copy: int = 0

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_face(self) -> bool:
        """J, Q or K (Jokers are not face cards, §5.2 XP)."""
        return self.rank in FACE_RANKS

    @property
    def label(self) -> str:
        if self.is_joker:
            return "Joker"
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit}"

    @property
    def key(self) -> str:
        """A label unique within one deck (the two Jokers are ``Joker1`` and ``Joker2``)."""
        return f"Joker{self.copy}" if self.is_joker else self.label

    def __str__(self) -> str:
        return self.label


def full_deck() -> list[Card]:
    """The 54 cards in a fixed order: A..K of ♠ ♥ ♦ ♣, then the two Jokers."""
    cards = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]
    return [*cards, Card(JOKER, "", 1), Card(JOKER, "", 2)]


_BY_KEY = {c.key: c for c in full_deck()}


def card_from_key(key: str) -> Card:
    try:
        return _BY_KEY[key]
    except KeyError:
        raise DeathBlowError(f"{key!r} is not a card of a Death Blow deck") from None


def shuffled_decks(seed: int | str) -> tuple[list[Card], list[Card]]:
    """Both fighters' decks shuffled by the bout's seed (the first card of each list is the top of the deck)."""
    rng = random.Random(f"d12-death-blow decks {seed}")
    a, b = full_deck(), full_deck()
    rng.shuffle(a)
    rng.shuffle(b)
    return a, b


# ----------------------------------------------------------------------------------------------- §5.2 styles

Style = Literal["iron-defense", "mixed-defense", "mixed-offense", "all-out-attack"]
SCALE: tuple[Style, ...] = ("iron-defense", "mixed-defense", "mixed-offense", "all-out-attack")
"""The Scale of Styles, most defensive first: a shift of one step moves one place along it."""
STYLE_NAMES: dict[str, str] = {
    "iron-defense": "Iron Defense",
    "mixed-defense": "Mixed Defense",
    "mixed-offense": "Mixed Offense",
    "all-out-attack": "All-Out Attack",
}
STYLE_RULES: dict[str, str] = {
    "all-out-attack": "Attack = both dice, Defense 0",
    "mixed-offense": "Attack = the high die, Defense = the low die",
    "mixed-defense": "Attack = the low die, Defense = the high die",
    "iron-defense": "Attack 0, Defense = both dice",
}
"""The Scale of Styles in words (help text, fighter sheet, cards): the same rule as :func:`attack_defense`."""


def _attack_defense_at(index: int, d1: int, d2: int) -> tuple[int, int]:
    """(Attack, Defense) of the style at ``index`` of :data:`SCALE` (0 Iron Defense .. 3 All-Out Attack)."""
    if index == 3:
        return d1 + d2, 0
    if index == 2:
        return (d1, d2) if d1 >= d2 else (d2, d1)
    if index == 1:
        return (d2, d1) if d1 >= d2 else (d1, d2)
    return 0, d1 + d2


def attack_defense(style: str, dice: Sequence[int]) -> tuple[int, int]:
    """(Attack, Defense) of a style with the fighter's two d12 (§5.2 ▶ the Scale of Styles)."""
    if style not in SCALE:
        raise DeathBlowError(f"{style!r} is not a style of the Scale of Styles")
    return _attack_defense_at(SCALE.index(style), dice[0], dice[1])


def starting_style(card: Card) -> Style:
    """♥♦ and Jokers start Mixed Offense; ♣♠ start Mixed Defense."""
    return "mixed-offense" if card.is_joker or card.suit in RED_SUITS else "mixed-defense"


def reaction_speed(card: Card, level: int) -> int | None:
    """Ace 1, 2..10 as printed, J/Q/K the fighter's level; ``None`` for a Joker (no dice compared)."""
    if card.is_joker:
        return None
    if card.is_face:
        return check_level(level)
    return card.rank


def initiative(card: Card, level: int, dice: Sequence[int]) -> int:
    """How many of the two d12 are ≤ the Reaction Speed (0..2); a Joker (signature move) has 2."""
    return _initiative(reaction_speed(card, level), dice[0], dice[1])


def _initiative(speed: int | None, d1: int, d2: int) -> int:
    if speed is None:
        return 2
    return (d1 <= speed) + (d2 <= speed)


def damage(attack: int, defense: int, signature_bonus: int = 0) -> int:
    """Attack − the opponent's Defense (minimum 0), plus a signature move's bonus after the Defense (§5.2 ▶)."""
    return (attack - defense if attack > defense else 0) + signature_bonus


def reachable_styles(start: Style, steps: int) -> list[Style]:
    """The styles within ``steps`` of ``start`` on the scale (``start`` included)."""
    at = SCALE.index(start)
    return [SCALE[i] for i in range(max(0, at - steps), min(len(SCALE), at + steps + 1))]


def _choose_at(
    start: int, steps: int, d1: int, d2: int, bonus: int, other_attack: int, other_defense: int, other_bonus: int
) -> int:
    best: tuple[int, int, int] | None = None
    chosen = start
    for index in range(max(0, start - steps), min(len(SCALE), start + steps + 1)):
        attack, defense = _attack_defense_at(index, d1, d2)
        net = damage(attack, other_defense, bonus) - damage(other_attack, defense, other_bonus)
        rank = (net, -abs(index - start), -index)
        if best is None or rank > best:
            best, chosen = rank, index
    return chosen


def choose_style(
    start: Style,
    steps: int,
    own_dice: Sequence[int],
    own_bonus: int,
    other_style: str,
    other_dice: Sequence[int],
    other_bonus: int,
) -> Style:
    """The solo bout's choice (§5.2 ▶): the style within reach that maximises damage dealt − damage taken
    (before the cards left limit it); ties keep the style nearest the card's style, then the more defensive."""
    other_attack, other_defense = attack_defense(other_style, other_dice)
    return SCALE[
        _choose_at(
            SCALE.index(start), steps, own_dice[0], own_dice[1], own_bonus, other_attack, other_defense, other_bonus
        )
    ]


def _exchange(
    speed_a: int | None,
    start_a: int,
    bonus_a: int,
    a1: int,
    a2: int,
    speed_b: int | None,
    start_b: int,
    bonus_b: int,
    b1: int,
    b2: int,
) -> tuple[int, ...]:
    """The round's exchange, styles as indexes of :data:`SCALE`: (Initiative a, b; final style a, b; Attack a,
    Defense a, Attack b, Defense b; damage a deals, damage b deals). The one resolution every caller uses."""
    ini_a, ini_b = _initiative(speed_a, a1, a2), _initiative(speed_b, b1, b2)
    final_a, final_b = start_a, start_b
    if ini_a > ini_b:
        atk, dfn = _attack_defense_at(start_b, b1, b2)
        final_a = _choose_at(start_a, ini_a - ini_b, a1, a2, bonus_a, atk, dfn, bonus_b)
    elif ini_b > ini_a:
        atk, dfn = _attack_defense_at(start_a, a1, a2)
        final_b = _choose_at(start_b, ini_b - ini_a, b1, b2, bonus_b, atk, dfn, bonus_a)
    atk_a, def_a = _attack_defense_at(final_a, a1, a2)
    atk_b, def_b = _attack_defense_at(final_b, b1, b2)
    return (
        ini_a,
        ini_b,
        final_a,
        final_b,
        atk_a,
        def_a,
        atk_b,
        def_b,
        damage(atk_a, def_b, bonus_a),
        damage(atk_b, def_a, bonus_b),
    )


# ----------------------------------------------------------------------------------------------- a round


@dataclass(frozen=True)
class Side:
    """One fighter's half of a round, as recorded (§5.3) and shown (``--json``: ``a`` / ``b``)."""

    card: Card
    dice: tuple[int, int]
    dice_source: str
    speed: int | None
    initiative: int
    style: Style
    final_style: Style
    attack: int
    defense: int
    signature_bonus: int
    damage: int
    """Damage dealt to the other fighter (before it is limited by the cards the other has left)."""
    discarded: int = 0
    """Cards this fighter lost to the other's damage this round."""
    cards_left: int = 0
    """Cards in this fighter's deck at the end of the round."""

    @property
    def shifted(self) -> int:
        return SCALE.index(self.final_style) - SCALE.index(self.style)

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card.label,
            "dice": list(self.dice),
            "dice_source": self.dice_source,
            "reaction_speed": self.speed,
            "initiative": self.initiative,
            "style": self.style,
            "final_style": self.final_style,
            "attack": self.attack,
            "defense": self.defense,
            "signature_bonus": self.signature_bonus,
            "damage": self.damage,
            "discarded": self.discarded,
            "cards_left": self.cards_left,
        }


def resolve_round(
    card_a: Card, level_a: int, dice_a: Sequence[int], card_b: Card, level_b: int, dice_b: Sequence[int]
) -> tuple[Side, Side]:
    """One round without the decks: cards, dice → Initiative, shift, Attack, Defense, damage (both at once).
    ``discarded`` and ``cards_left`` are left 0 (the bout fills them in)."""
    for dice in (dice_a, dice_b):
        if len(dice) != 2 or any(not 1 <= f <= 12 for f in dice):
            raise DeathBlowError(f"a fighter rolls two d12 a round, not {list(dice)}")
    speed_a, speed_b = reaction_speed(card_a, level_a), reaction_speed(card_b, level_b)
    start_a, start_b = starting_style(card_a), starting_style(card_b)
    bonus_a = level_a if card_a.is_joker else 0
    bonus_b = level_b if card_b.is_joker else 0
    ini_a, ini_b, fa, fb, atk_a, def_a, atk_b, def_b, dmg_a, dmg_b = _exchange(
        speed_a,
        SCALE.index(start_a),
        bonus_a,
        dice_a[0],
        dice_a[1],
        speed_b,
        SCALE.index(start_b),
        bonus_b,
        dice_b[0],
        dice_b[1],
    )
    side_a = Side(card_a, (dice_a[0], dice_a[1]), "", speed_a, ini_a, start_a, SCALE[fa], atk_a, def_a, bonus_a, dmg_a)
    side_b = Side(card_b, (dice_b[0], dice_b[1]), "", speed_b, ini_b, start_b, SCALE[fb], atk_b, def_b, bonus_b, dmg_b)
    return side_a, side_b


# ----------------------------------------------------------------------------------------------- a bout

D12_PAIR = Dice(2, 12)

Winner = Literal["a", "b", "draw"]


@dataclass(frozen=True)
class Round:
    number: int
    a: Side
    b: Side
    discards_a: tuple[Card, ...] = ()
    """The cards ``a`` discarded this round (taken off the top of a's deck by b's damage)."""
    discards_b: tuple[Card, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "a": {**self.a.to_dict(), "discarded_cards": [c.label for c in self.discards_a]},
            "b": {**self.b.to_dict(), "discarded_cards": [c.label for c in self.discards_b]},
        }


@dataclass(frozen=True)
class BoutResult:
    winner: Winner
    face_cards_left: int
    """Face cards (J, Q, K) still in the victor's deck (0 for a draw): the victor's XP (§5.2)."""
    rounds: tuple[Round, ...]
    deck_a: tuple[Card, ...]
    """What is left of each deck at the end (top first)."""
    deck_b: tuple[Card, ...]

    @property
    def xp_gained(self) -> int:
        return 0 if self.winner == "draw" else self.face_cards_left


class FallbackDice:
    """Typed dice pairs first (each pair checked), then the app's seeded dice: ``switched_at`` is the number of
    the first pair the app rolled (``None`` while typed dice last). More typed pairs can be added as play goes on
    (the GUI: dice typed for the next round)."""

    def __init__(self, typed: Sequence[Sequence[int]], seed: int | str) -> None:
        self._typed: list[tuple[int, int]] = []
        self._given = 0
        self.add(typed)
        self._next = 0
        self._app = SeededDice(_dice_seed(seed))
        self.switched_at: int | None = None

    def add(self, typed: Sequence[Sequence[int]]) -> None:
        """Queue typed pairs (a's pair, then b's, round after round)."""
        checked = []
        for pair in typed:
            self._given += 1
            if len(pair) != 2 or any(isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 12 for f in pair):
                shown = ",".join(map(str, pair))
                raise DeathBlowError(f"dice pair {self._given} ({shown}) is not two d12 faces (1..12 each, e.g. 7,3)")
            checked.append((pair[0], pair[1]))
        self._typed.extend(checked)

    @property
    def typed_left(self) -> int:
        return len(self._typed)

    def pair(self) -> tuple[tuple[int, int], str]:
        self._next += 1
        if self._typed:
            return self._typed.pop(0), "entered"
        if self.switched_at is None:
            self.switched_at = self._next
        faces = self._app.roll(D12_PAIR, "Death Blow round")
        return (faces[0], faces[1]), "app"


def _dice_seed(seed: int | str) -> int:
    """The app's dice of a bout: a whole number derived from the bout's seed (not the decks' stream)."""
    digest = hashlib.sha256(f"d12-death-blow dice {seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Bout:
    """A solo bout (§5.2) played round by round: both decks (top first), both fighters' levels and a source of
    dice pairs. :meth:`next_round` plays one round; :meth:`play_to_end` the rest; :attr:`result` once over."""

    def __init__(
        self,
        level_a: int,
        level_b: int,
        deck_a: Sequence[Card],
        deck_b: Sequence[Card],
        dice: FallbackDice | DiceSource,
    ) -> None:
        check_level(level_a)
        check_level(level_b)
        for deck in (deck_a, deck_b):
            if len(deck) != DECK_SIZE or len(set(deck)) != DECK_SIZE:
                raise DeathBlowError("a Death Blow deck is 54 different cards (52 and two Jokers)")
        self.level_a, self.level_b = level_a, level_b
        self.deck_a, self.deck_b = list(deck_a), list(deck_b)
        self._dice = dice
        self.rounds: list[Round] = []

    def _pair(self) -> tuple[tuple[int, int], str]:
        if isinstance(self._dice, FallbackDice):
            return self._dice.pair()
        faces = self._dice.roll(D12_PAIR, "Death Blow round")
        return (faces[0], faces[1]), self._dice.source

    @property
    def over(self) -> bool:
        return bool(self.rounds) and (not self.deck_a or not self.deck_b)

    def next_round(self) -> Round:
        if self.over:
            raise DeathBlowError("the bout is over")
        card_a, card_b = self.deck_a.pop(0), self.deck_b.pop(0)
        dice_a, src_a = self._pair()
        dice_b, src_b = self._pair()
        a, b = resolve_round(card_a, self.level_a, dice_a, card_b, self.level_b, dice_b)
        lost_a = tuple(self.deck_a[: b.damage])
        lost_b = tuple(self.deck_b[: a.damage])
        del self.deck_a[: len(lost_a)]
        del self.deck_b[: len(lost_b)]
        a = _with(a, src_a, len(lost_a), len(self.deck_a))
        b = _with(b, src_b, len(lost_b), len(self.deck_b))
        rnd = Round(len(self.rounds) + 1, a, b, lost_a, lost_b)
        self.rounds.append(rnd)
        return rnd

    def play_to_end(self) -> BoutResult:
        while not self.over:
            self.next_round()
        return self.result

    @property
    def result(self) -> BoutResult:
        if not self.over:
            raise DeathBlowError("the bout is not over yet")
        winner: Winner
        if not self.deck_a and not self.deck_b:
            winner, left = "draw", 0
        elif self.deck_a:
            winner, left = "a", face_cards(self.deck_a)
        else:
            winner, left = "b", face_cards(self.deck_b)
        return BoutResult(winner, left, tuple(self.rounds), tuple(self.deck_a), tuple(self.deck_b))


def _with(side: Side, source: str, discarded: int, left: int) -> Side:
    return Side(
        side.card,
        side.dice,
        source,
        side.speed,
        side.initiative,
        side.style,
        side.final_style,
        side.attack,
        side.defense,
        side.signature_bonus,
        side.damage,
        discarded,
        left,
    )


def face_cards(cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if c.is_face)


def play_bout(
    level_a: int, level_b: int, seed: int | str, typed: Sequence[Sequence[int]] = ()
) -> tuple[BoutResult, FallbackDice]:
    """A whole solo bout from its seed (decks and the app's dice) and any typed dice pairs (a's, b's, ...)."""
    deck_a, deck_b = shuffled_decks(seed)
    dice = FallbackDice(typed, seed)
    bout = Bout(level_a, level_b, deck_a, deck_b, dice)
    return bout.play_to_end(), dice


def replay(
    level_a: int, level_b: int, deck_a: Sequence[Card], deck_b: Sequence[Card], pairs: Sequence[Sequence[int]]
) -> BoutResult:
    """Play a bout again from its decks and its recorded dice (a's pair, b's pair, round after round)."""
    return Bout(level_a, level_b, deck_a, deck_b, FallbackDice(pairs, "replay")).play_to_end()


# ----------------------------------------------------------------------------------------------- odds

DEFAULT_ODDS_BOUTS = 20_000
"""How many seeded bouts the odds estimate plays (§5.2 ▶ "say 20,000")."""


@dataclass(frozen=True)
class Odds:
    """An estimate (§5.2 ▶), not exact: the share of seeded solo bouts each side won, with the half-width of the
    95 % interval (the widest of the three)."""

    bouts: int
    fighter_wins: float
    opponent_wins: float
    draws: float
    margin: float
    seed: int | str

    def to_dict(self) -> dict[str, Any]:
        return {
            "fighter_wins": self.fighter_wins,
            "opponent_wins": self.opponent_wins,
            "draws": self.draws,
            "margin": self.margin,
            "bouts": self.bouts,
            "estimate": True,
            "seed": self.seed,
        }


def margin_95(p: float, n: int) -> float:
    """Half-width of the 95 % (normal approximation) interval of a share ``p`` of ``n`` trials."""
    return 1.96 * math.sqrt(max(p * (1 - p), 0.0) / n) if n else 1.0


def _kinds(level: int) -> list[tuple[int | None, int, int]]:
    """Each card of :func:`full_deck` as (Reaction Speed, starting style index, signature bonus) at ``level``."""
    return [(reaction_speed(c, level), SCALE.index(starting_style(c)), level if c.is_joker else 0) for c in full_deck()]


def _fast_bout(
    kinds_a: list[tuple[int | None, int, int]], kinds_b: list[tuple[int | None, int, int]], rng: random.Random
) -> Winner:
    """One solo bout for the odds: the same exchange (:func:`_exchange`), decks as shuffled card kinds, no
    records."""
    deck_a, deck_b = kinds_a[:], kinds_b[:]
    rng.shuffle(deck_a)
    rng.shuffle(deck_b)
    ia = ib = 0
    na = nb = DECK_SIZE
    rand = rng.random
    while True:
        sa, ta, ba = deck_a[ia]
        sb, tb, bb = deck_b[ib]
        ia += 1
        ib += 1
        na -= 1
        nb -= 1
        out = _exchange(
            sa,
            ta,
            ba,
            int(rand() * 12) + 1,
            int(rand() * 12) + 1,
            sb,
            tb,
            bb,
            int(rand() * 12) + 1,
            int(rand() * 12) + 1,
        )
        lost_a = out[9] if out[9] < na else na
        lost_b = out[8] if out[8] < nb else nb
        ia += lost_a
        na -= lost_a
        ib += lost_b
        nb -= lost_b
        if na == 0 or nb == 0:
            if na == 0 and nb == 0:
                return "draw"
            return "a" if na else "b"


def odds_runs(
    level_a: int, level_b: int, bouts: int = DEFAULT_ODDS_BOUTS, seed: int | str = 0
) -> Iterator[tuple[int, int, int]]:
    """Play the odds' bouts one by one, yielding the running counts (a wins, b wins, draws) after each: the GUI
    shows progress and may stop; :func:`estimate_odds` takes the last."""
    check_level(level_a)
    check_level(level_b)
    if bouts < 1:
        raise DeathBlowError("the odds need at least one bout")
    rng = random.Random(f"d12-death-blow odds {seed}")
    counts = {"a": 0, "b": 0, "draw": 0}
    kinds_a, kinds_b = _kinds(level_a), _kinds(level_b)
    for _ in range(bouts):
        counts[_fast_bout(kinds_a, kinds_b, rng)] += 1
        yield counts["a"], counts["b"], counts["draw"]


def odds_from_counts(a: int, b: int, draws: int, seed: int | str = 0) -> Odds:
    n = a + b + draws
    shares = [x / n for x in (a, b, draws)]
    return Odds(n, shares[0], shares[1], shares[2], max(margin_95(p, n) for p in shares), seed)


def estimate_odds(level_a: int, level_b: int, bouts: int = DEFAULT_ODDS_BOUTS, seed: int | str = 0) -> Odds:
    """Each side's chance to win a solo bout (and of a draw), estimated by playing ``bouts`` seeded bouts."""
    counts = (0, 0, 0)
    for running in odds_runs(level_a, level_b, bouts, seed):
        counts = running
    return odds_from_counts(*counts, seed=seed)
