"""Loading play-aid decks: the shipped ones, user decks, bad files (named with their line), card selection,
and the rule-table registry the cards name."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from campaign_app.printing.decks import DeckError, load_deck, load_decks, select_cards
from campaign_app.resources import templates_dir
from campaign_app.rules.sologear.table_text import card_tables
from campaign_app.rules.tables import RULE_TABLE_NAMES, RULE_TABLES, RuleTableError, rule_table

SHIPPED = ("atomic-africa", "sologear", "d12-death-blow", "one-hour-wwii", "space-fantasy", "mass-combat")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


GOOD_DECK = 'title = "House rules"\nsystem = "Our table"\n[back]\ntext = "ours"\ncolour = "#224466"\n'
GOOD_CARD = 'title = "Night fighting"\n[[blocks]]\ntype = "paragraph"\ntext = "Range +2 at night."\n'


# --- the shipped decks -------------------------------------------------------------------------------------


def test_shipped_decks_load_without_problems() -> None:
    library = load_decks()
    assert library.problems == []
    assert set(SHIPPED) <= set(library.decks)
    for deck in library.decks.values():
        assert deck.origin == "shipped"
        assert deck.cards, deck.id
        ids = [c.id for c in deck.cards]
        assert len(ids) == len(set(ids)), deck.id
        assert [c.number for c in deck.cards] == sorted(c.number for c in deck.cards)
        assert deck.back.colour.startswith("#")


def test_the_shipped_decks_cover_their_topics() -> None:
    """The shipped decks hold the cards a player needs at the table (found by title words)."""
    library = load_decks()
    titles = {deck_id: " | ".join(c.title.lower() for c in library.decks[deck_id].cards) for deck_id in SHIPPED}
    wanted = {
        "atomic-africa": [
            "orders",
            "turn sequence",
            "actions and dice",
            "shooting",
            "rally",
            "clean-up",
            "confusion",
            "close combat",
            "vehicles",
            "fire support",
            "recovery",
            "leader",
            "force generation",
        ],
        "sologear": ["battle turn", "combat table", "enemy quality", "recognition", "rewards", "punishments"],
        "d12-death-blow": ["scale of styles", "round", "fighter"],
        "one-hour-wwii": ["sequence", "fire", "movement", "rally"],
        "space-fantasy": ["to hit", "to wound", "saves", "dice conventions"],
        "mass-combat": ["turn", "combat"],
    }
    for deck_id, words in wanted.items():
        for word in words:
            assert word in titles[deck_id], (deck_id, word)


def test_reconstructed_rules_are_marked() -> None:
    library = load_decks()
    aa = {c.id: c for c in library.deck("atomic-africa").cards}
    assert aa["actions-dice"].tag == "reconstructed"
    assert aa["fire-support"].tag == "reconstructed"
    d12 = {c.id: c for c in library.deck("d12-death-blow").cards}
    assert d12["scale-of-styles"].tag == "reconstructed"
    combat = {c.id: c for c in library.deck("mass-combat").cards}["combat"]
    text = " ".join(b.text for b in combat.blocks)
    assert "not included" in text and combat.tag == "chart not included"


def test_force_generation_and_aftermath_cards_use_the_engine_odds() -> None:
    library = load_decks()
    names = {b.name for c in library.deck("atomic-africa").cards for b in c.blocks if b.type == "rule_table"}
    assert {
        "aa.recovery_odds",
        "aa.leader_casualty_odds",
        "aa.leader_stays_odds",
        "aa.force_generation_odds",
        "aa.replacement_die",
        "aa.orders_cards",
        "aa.experience_levels",
    } <= names
    sg = {b.name for c in library.deck("sologear").cards for b in c.blocks if b.type == "rule_table"}
    assert {
        "sologear.combat",
        "sologear.enemy_quality",
        "sologear.noticed",
        "sologear.rewards",
        "sologear.punishments",
        "sologear.postures",
    } <= sg


def test_no_card_copies_an_engine_table() -> None:
    """A plain table block never repeats the rows of a rule table: those must be named, not copied."""
    engine_rows = set()
    for name in RULE_TABLE_NAMES:
        _, rows = rule_table(name)
        engine_rows.update(tuple(r) for r in rows if len(r) > 1)
    for card in load_decks().cards():
        for block in card.blocks:
            if block.type == "table":
                copied = [r for r in block.rows if tuple(r) in engine_rows]
                assert len(copied) < 2, (card.full_id, copied)


# --- the rule-table registry -------------------------------------------------------------------------------


def test_every_rule_table_builds() -> None:
    for name in RULE_TABLE_NAMES:
        headers, rows = rule_table(name)
        assert headers and rows, name
        assert all(len(r) == len(headers) for r in rows), name
        assert all(isinstance(c, str) for r in rows for c in r), name
        assert RULE_TABLES[name].description


def test_sologear_registry_matches_the_engine() -> None:
    keys = set(card_tables())
    registered = {name.split(".", 1)[1] for name in RULE_TABLE_NAMES if name.startswith("sologear.")}
    assert registered == keys
    headers, rows = rule_table("sologear.combat")
    assert list(headers) == list(card_tables()["combat"][0])
    assert len(rows) == 15


def test_rule_tables_follow_the_engine() -> None:
    from campaign_app.rules.experience import orders_cards
    from campaign_app.rules.odds import leader_odds, recovery_odds

    headers, rows = rule_table("aa.orders_cards")
    assert headers[0] == "Platoon" and rows[2][0] == "Regular 4+"
    assert rows[2][headers.index("G")] == str(orders_cards(3, 2)) == "10"  # Regular platoon, Green leader
    _, rows = rule_table("aa.recovery_odds")
    two = dict(zip(("0", "1"), rows[0][1:3], strict=True))
    assert rows[0][0] == "2" and two["0"] == f"{float(recovery_odds(2, 32)[0]) * 100:.0f}%"
    _, rows = rule_table("aa.leader_stays_odds")
    row = next(r for r in rows if r[0] == "9")
    assert row[1] == f"{float(leader_odds(0, 9)['stays']) * 100:.0f}%"
    headers, rows = rule_table("aa.force_generation_odds")
    assert "L" not in headers  # force generation never reaches Legendary (at most 11 XP)
    assert rows[0][:2] == ("1 (d4)", "platoon")


def test_unknown_rule_table() -> None:
    with pytest.raises(RuleTableError, match="no rule table 'aa.nope'"):
        rule_table("aa.nope")


# --- user decks and bad files ------------------------------------------------------------------------------


def test_user_deck_loads_after_the_shipped_ones(tmp_path: Path) -> None:
    user = tmp_path / "decks"
    write(user / "house" / "deck.toml", GOOD_DECK)
    write(user / "house" / "01-night.toml", GOOD_CARD)
    library = load_decks(user)
    assert library.problems == []
    assert list(library.decks)[-1] == "house"
    house = library.deck("house")
    assert house.origin == "user" and house.system == "Our table" and house.back.colour == "#224466"
    assert house.back.title == "House rules"  # default: the deck title
    assert [c.full_id for c in house.cards] == ["house/night"]
    assert house.cards[0].system == "Our table"


def test_user_folder_adds_and_replaces_cards_of_a_shipped_deck(tmp_path: Path) -> None:
    user = tmp_path / "decks"
    write(user / "d12-death-blow" / "10-house.toml", GOOD_CARD)
    write(
        user / "d12-death-blow" / "03-round.toml",
        'title = "Our round"\nblocks = [{ type = "paragraph", text = "Faster rounds." }]\n',
    )
    library = load_decks(user)
    assert library.problems == []
    deck = library.deck("d12-death-blow")
    assert deck.origin == "shipped+user"
    cards = {c.id: c for c in deck.cards}
    assert cards["house"].title == "Night fighting"
    assert cards["round"].title == "Our round"  # the user's card with the same id replaces the shipped one
    assert [c.id for c in deck.cards][-1] == "house"


def test_malformed_user_file_names_file_and_line_and_others_still_load(tmp_path: Path) -> None:
    user = tmp_path / "decks"
    write(user / "house" / "deck.toml", GOOD_DECK)
    write(user / "house" / "01-night.toml", GOOD_CARD)
    bad = write(user / "house" / "02-bad.toml", 'title = "Bad"\n[[blocks]]\ntype = "paragraph"\ntext = "oops\n')
    broken_deck = write(user / "broken" / "deck.toml", 'title = "Broken"\nthis is not toml\n')
    write(user / "broken" / "01-x.toml", GOOD_CARD)
    library = load_decks(user)
    problems = {p.path: p for p in library.problems}
    assert problems[bad].line == 4 and "TOML syntax error" in problems[bad].message
    assert str(problems[bad]).startswith(f"{bad}:4: ")
    assert problems[broken_deck].line == 2
    assert "broken" not in library.decks
    assert [c.id for c in library.deck("house").cards] == ["night"]
    assert set(SHIPPED) <= set(library.decks)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            'title = "x"\n[[blocks]]\ntype = "paragraph"\ntext = "a"\n\n[[blocks]]\ntype = "poem"\ntext = "b"\n',
            7,
            "block 2: unknown type 'poem'",
        ),
        (
            'title = "x"\n[[blocks]]\ntype = "paragraph"\ntext = "a"\n\n[[blocks]]\ntype = "rule_table"\n'
            'name = "aa.nope"\n',
            8,
            "no rule table named 'aa.nope'",
        ),
        ('title = "x"\n[[blocks]]\ntype = "table"\nrows = [["a", "b"], ["c"]]\n', 3, "row 2 has 1 cells, expected 2"),
        ('title = "x"\n[[blocks]]\ntype = "bullets"\nitems = "not a list"\n', 3, "must be a list of texts"),
        ('title = "x"\n[[blocks]]\ntype = "boxes"\ncount = 0\n', 3, "needs 'count'"),
        ('title = "x"\n[[blocks]]\ntype = "paragraph"\ntxt = "a"\n', 3, "unknown key txt"),
        ('title = 5\nblocks = [{ type = "paragraph", text = "a" }]\n', 1, "'title' must be a text"),
        ('titel = "x"\nblocks = [{ type = "paragraph", text = "a" }]\n', 1, "unknown key titel"),
        ('title = "x"\n', None, "a card needs 'blocks'"),
        ('title = "x"\n[[blocks]]\ntype = "rule_table"\nname = "aa.armor"\nrows = [3, 1]\n', 3, "'rows' must be"),
    ],
)
def test_validation_errors_name_the_line(tmp_path: Path, text: str, line: int | None, message: str) -> None:
    user = tmp_path / "decks"
    write(user / "house" / "deck.toml", GOOD_DECK)
    write(user / "house" / "01-night.toml", GOOD_CARD)
    bad = write(user / "house" / "05-bad.toml", text)
    library = load_decks(user)
    [problem] = library.problems
    assert problem.path == bad
    assert problem.line == line
    assert message in problem.message
    assert [c.id for c in library.deck("house").cards] == ["night"]


def test_deck_file_problems(tmp_path: Path) -> None:
    user = tmp_path / "decks"
    write(user / "nodeck" / "01-a.toml", GOOD_CARD)
    write(user / "badcolour" / "deck.toml", 'title = "B"\n[back]\ncolour = "red"\n')
    write(user / "badcolour" / "01-a.toml", GOOD_CARD)
    write(user / "Bad Name" / "deck.toml", GOOD_DECK)
    write(user / "house" / "deck.toml", GOOD_DECK)
    write(user / "house" / "x-card.toml", GOOD_CARD)
    library = load_decks(user)
    messages = {p.path.relative_to(user).as_posix(): (p.line, p.message) for p in library.problems}
    assert "missing deck.toml" in messages["nodeck/deck.toml"][1]
    assert messages["badcolour/deck.toml"] == (3, "[back] colour must look like \"#3b4a5a\", not 'red'")
    assert "lower-case" in messages["Bad Name"][1]
    assert "01-card-name.toml" in messages["house/x-card.toml"][1]
    assert "no cards" in messages["house"][1]
    assert not {"nodeck", "badcolour", "house"} & set(library.decks)


def test_not_utf8(tmp_path: Path) -> None:
    user = tmp_path / "decks"
    write(user / "house" / "deck.toml", GOOD_DECK)
    write(user / "house" / "01-night.toml", GOOD_CARD)
    bad = user / "house" / "02-a.toml"
    bad.write_bytes(b'title = "ok"\ntext = "\xff"\n')
    [problem] = load_decks(user).problems
    assert problem.path == bad and problem.line == 2 and "UTF-8" in problem.message


def test_load_deck_raises_with_every_problem(tmp_path: Path) -> None:
    write(tmp_path / "house" / "deck.toml", GOOD_DECK)
    write(tmp_path / "house" / "01-a.toml", GOOD_CARD)
    assert load_deck(tmp_path / "house").cards[0].title == "Night fighting"
    write(tmp_path / "house" / "02-b.toml", "title = \n")
    with pytest.raises(DeckError, match=r"02-b\.toml:1: TOML syntax error"):
        load_deck(tmp_path / "house")


def test_missing_user_folder_is_fine(tmp_path: Path) -> None:
    library = load_decks(tmp_path / "nothing-here")
    assert library.problems == [] and set(SHIPPED) <= set(library.decks)


# --- choosing cards ----------------------------------------------------------------------------------------


def test_select_cards() -> None:
    library = load_decks()
    everything = select_cards(library)
    assert len(everything) == sum(len(d.cards) for d in library.decks.values())
    d12 = select_cards(library, ["d12-death-blow"])
    assert [c.deck_id for c in d12] == ["d12-death-blow"] * len(library.deck("d12-death-blow").cards)
    mixed = select_cards(library, ["d12-death-blow"], ["sologear/combat-1", "sologear/rewards"])
    assert [c.full_id for c in mixed][-2:] == ["sologear/combat-1", "sologear/rewards"]
    bare = select_cards(library, card_ids=["fighter"])
    assert [c.full_id for c in bare] == ["d12-death-blow/fighter"]
    with pytest.raises(DeckError, match="no deck 'nope'"):
        select_cards(library, ["nope"])
    with pytest.raises(DeckError, match="deck 'sologear' has no card 'nope'"):
        select_cards(library, card_ids=["sologear/nope"])
    with pytest.raises(DeckError, match="no card 'nope' in any deck"):
        select_cards(library, card_ids=["nope"])


def test_shipped_files_are_plain_toml() -> None:
    """Every shipped file parses with tomllib alone (users copy them as examples)."""
    for path in sorted(templates_dir().rglob("*.toml")):
        with path.open("rb") as fh:
            tomllib.load(fh)


def test_rule_tables_and_placeholders_follow_a_campaigns_house_rules() -> None:
    from campaign_app.rules.experience import Thresholds
    from campaign_app.rules.tables import CardRules, RuleTableError, fill_placeholders

    default = CardRules()
    house = CardRules(
        campaign="Katanga",
        thresholds=Thresholds(2, 5, 10, 20),
        objective_xp_to="platoon",
        replacement_dice=1,
        period=2,
        reward_dice="2d6",
    )
    assert default.note == "Rules: default rules" and house.note == "Rules: campaign Katanga"
    _, rows = rule_table("aa.experience_levels", house)
    assert [r[1] for r in rows] == ["0+", "2+", "5+", "10+", "20+"]
    _, rows = rule_table("aa.orders_cards", house)
    assert rows[2][0] == "Regular 5+"
    headers, rows = rule_table("aa.replacement_die", house)
    assert headers[1] == "Roll (house rule)" and rows[1] == ("2 (this campaign)", "1d6", "0\u20135")
    headers, rows = rule_table("aa.replacement_die")
    assert headers[1] == "Replacement roll" and rows[1] == ("2", "2d6", "0\u20135")
    # force generation odds with higher thresholds: fewer Regular platoons on a d4
    d_rows = rule_table("aa.force_generation_odds")[1]
    h_rows = rule_table("aa.force_generation_odds", house)[1]
    assert d_rows != h_rows
    text = "Roll {{reward_dice}} + Impression; objective XP to {{objective_xp}}; new leader: {{replacement}}."
    assert fill_placeholders(text) == (
        "Roll 1d6 + Impression; objective XP to platoon and leader; new leader: the lower of two dice \u2212 1."
    )
    assert fill_placeholders(text, house) == (
        "Roll 2d6 + Impression; objective XP to the platoon only (house "
        "rule); new leader: one die \u2212 1 (house rule)."
    )
    with pytest.raises(RuleTableError, match="no placeholder"):
        fill_placeholders("{{nonsense}}")


def test_every_shipped_deck_has_its_own_back_colour() -> None:
    """Decks are told apart by their colour: every two shipped decks differ in hue by at least 25°."""
    import colorsys

    decks = load_decks().decks
    hues = {}
    for deck in decks.values():
        r, g, b = (int(deck.back.colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        h, s, _v = colorsys.rgb_to_hsv(r, g, b)
        assert s > 0.2, deck.id
        hues[deck.id] = h * 360
    ids = list(hues)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            diff = abs(hues[a] - hues[b]) % 360
            assert min(diff, 360 - diff) >= 25, (a, b, hues[a], hues[b])
