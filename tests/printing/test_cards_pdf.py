"""Card PDFs (checked with pypdf): pages and page size, embedded fonts, every card's text, identical bytes
for identical input, every shipped card fits every size, backs mirrored, fold-over, grayscale, overflow."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import DictionaryObject

from campaign_app.printing.card_face import CardFitError, check_card_fits
from campaign_app.printing.card_grid import plan_grid
from campaign_app.printing.card_style import MIN_FONT, markup
from campaign_app.printing.cards import build_cards_pdf
from campaign_app.printing.decks import DeckError, DeckLibrary, load_decks, select_cards
from campaign_app.printing.paper import default_paper, paper_for_locale
from campaign_app.printing.sizes import CARD_SIZES

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


@pytest.fixture(scope="module")
def library() -> DeckLibrary:
    return load_decks()


def pdf_bytes(cards: list[Any], library: DeckLibrary, **options: Any) -> bytes:
    out = io.BytesIO()
    build_cards_pdf(cards, out, decks=library, **options)
    return out.getvalue()


def reader(pdf: bytes) -> PdfReader:
    assert pdf.startswith(b"%PDF-")
    return PdfReader(io.BytesIO(pdf))


def squash(text: str) -> str:
    return " ".join(text.split())


def fonts_embedded(pdf: bytes) -> dict[str, bool]:
    found: dict[str, bool] = {}
    for page in reader(pdf).pages:
        resources = page.get("/Resources")
        fonts = resources.get_object().get("/Font") if resources is not None else None
        for _key, ref in fonts.get_object().items() if fonts is not None else []:
            font = ref.get_object()
            targets = [font]
            if font.get("/Subtype") == "/Type0":
                targets = [d.get_object() for d in font["/DescendantFonts"]]
            ok = True
            for target in targets:
                desc = target.get("/FontDescriptor")
                desc = desc.get_object() if desc is not None else DictionaryObject()
                ok &= any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(font.get("/BaseFont"))] = ok
    return found


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def custom_library(tmp_path: Path, cards: dict[str, str]) -> DeckLibrary:
    user = tmp_path / "decks"
    write(
        user / "test" / "deck.toml",
        'title = "Test deck"\nsystem = "Tests"\n[back]\ntext = "BACKTEXT"\ncolour = "#8e2c2c"\n',
    )
    for name, text in cards.items():
        write(user / "test" / name, text)
    library = load_decks(user, shipped_dir=tmp_path / "no-shipped")
    assert library.problems == []
    return library


# --- every shipped card ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(CARD_SIZES))
def test_every_shipped_card_fits_every_size(library: DeckLibrary, size: str) -> None:
    for card in library.cards():
        fit = check_card_fits(card, library.decks[card.deck_id], size)
        assert fit.min_font >= MIN_FONT - 1e-6, card.full_id


def test_all_shipped_cards_in_one_pdf(library: DeckLibrary) -> None:
    cards = select_cards(library)
    pdf = pdf_bytes(cards, library, paper="a4")
    doc = reader(pdf)
    assert len(doc.pages) == math.ceil(len(cards) / 9)
    for page in doc.pages:
        assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == A4
    fonts = fonts_embedded(pdf)
    assert fonts and all(fonts.values()), fonts
    assert {name.split("+")[-1] for name in fonts} == {"DejaVuSans", "DejaVuSans-Bold"}
    pages = [squash(p.extract_text()) for p in doc.pages]
    for i, card in enumerate(cards):
        page = pages[i // 9]
        assert squash(card.title) in page, card.full_id
        first_text = next(
            b for b in card.blocks if b.type in ("paragraph", "bullets", "steps", "heading", "table", "rule_table")
        )
        if first_text.type == "rule_table":
            from campaign_app.printing.card_content import resolve_rule_table

            headers, _rows = resolve_rule_table(first_text)
            sample = headers[0]
        elif first_text.type == "table":
            sample = first_text.rows[0][0] if not first_text.headers else first_text.headers[0]
        elif first_text.type in ("bullets", "steps"):
            sample = first_text.items[0]
        else:
            sample = first_text.text
        from campaign_app.rules.tables import fill_placeholders

        words = re.sub(r"\*\*", "", fill_placeholders(sample)).split()[:3]
        assert " ".join(words) in page, (card.full_id, words)


def test_identical_input_gives_identical_bytes(library: DeckLibrary) -> None:
    cards = select_cards(library, ["d12-death-blow", "sologear"])
    assert pdf_bytes(cards, library, paper="letter", layout="backs") == pdf_bytes(
        cards, library, paper="letter", layout="backs"
    )


def test_rule_table_values_print(library: DeckLibrary) -> None:
    cards = select_cards(library, card_ids=["sologear/combat-1", "atomic-africa/orders-table"])
    text = squash(" ".join(p.extract_text() for p in reader(pdf_bytes(cards, library, paper="a4")).pages))
    assert "9D6G,#" in text and "1D6G,**" in text  # the engine's combat table
    assert "Legendary 16+ 10 12 14 16 18 20" in text  # orders cards: 2 x platoon + 2 x leader


# --- layout ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "paper", "per_page"),
    [
        ("poker", "a4", 9),
        ("poker", "letter", 9),
        ("tarot", "a4", 4),
        ("index", "letter", 4),
        ("a6", "a4", 2),
    ],
)
def test_cards_per_page(library: DeckLibrary, size: str, paper: str, per_page: int) -> None:
    grid = plan_grid(paper, size)
    assert grid.per_page == per_page
    card = CARD_SIZES[size]
    w, h = (card.height, card.width) if grid.rotated else (card.width, card.height)
    for i in range(grid.per_page):  # inside the page, at least 4 mm from the edge, never overlapping
        x, y = grid.slot_origin(i)
        assert x >= 11 and y >= 11 and x + w <= grid.page_w - 11 and y + h <= grid.page_h - 11
        for j in range(i):
            x2, y2 = grid.slot_origin(j)
            assert x + w <= x2 or x2 + w <= x or y + h <= y2 or y2 + h <= y
    cards = select_cards(library, ["atomic-africa"])[: per_page + 1]
    pdf = pdf_bytes(cards, library, size=size, paper=paper)
    assert len(reader(pdf).pages) == 2  # one more card than fits: a second page, no card split
    expected = A4 if paper == "a4" else LETTER
    page = reader(pdf).pages[0]
    assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == expected


def _text_positions(page: Any, needle: str) -> list[tuple[float, float]]:
    found: list[tuple[float, float]] = []

    def visit(text: str, cm: Any, tm: Any, font_dict: Any, font_size: Any) -> None:
        if needle in text:
            # page position = text matrix origin transformed by the current matrix
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((x, y))

    page.extract_text(visitor_text=visit)
    return found


def test_duplex_backs_are_mirrored(tmp_path: Path) -> None:
    library = custom_library(
        tmp_path, {"01-a.toml": 'title = "FRONTONE"\nblocks = [{ type = "paragraph", text = "x" }]\n'}
    )
    cards = select_cards(library)
    pdf = pdf_bytes(cards, library, paper="a4", layout="backs")
    doc = reader(pdf)
    assert len(doc.pages) == 2
    [(fx, _)] = _text_positions(doc.pages[0], "FRONTONE")
    [(bx, _)] = _text_positions(doc.pages[1], "BACKTEXT")
    grid = plan_grid("a4", "poker", "backs")
    left, _ = grid.slot_origin(0)
    assert left <= fx <= left + grid.card_w  # the front sits in the top-left slot
    mirrored = grid.page_w - left - grid.card_w
    assert mirrored <= bx <= mirrored + grid.card_w  # its back in the top-right slot
    assert "Test deck" in doc.pages[1].extract_text()


def test_fold_over_puts_front_and_back_side_by_side(library: DeckLibrary) -> None:
    cards = select_cards(library, ["d12-death-blow"])
    pdf = pdf_bytes(cards, library, paper="a4", layout="fold")
    doc = reader(pdf)
    grid = plan_grid("a4", "poker", "fold")
    assert len(doc.pages) == math.ceil(len(cards) / grid.per_page)
    text = squash(doc.pages[0].extract_text())
    assert "Scale of styles" in text and "Duel play aids" in text
    with pytest.raises(DeckError, match="use duplex backs"):
        pdf_bytes(cards, library, size="a6", paper="a4", layout="fold")


def _colours(pdf: bytes) -> set[tuple[float, float, float]]:
    found = set()
    for page in reader(pdf).pages:
        data = page.get_contents().get_data().decode("latin-1")
        for r, g, b in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG)\b", data):
            found.add((float(r), float(g), float(b)))
    return found


def test_grayscale_has_no_colour(library: DeckLibrary) -> None:
    cards = select_cards(library, card_ids=["atomic-africa/orders", "d12-death-blow/round"])
    colour = _colours(pdf_bytes(cards, library, paper="a4", layout="backs"))
    assert any(abs(r - g) > 0.05 or abs(g - b) > 0.05 for r, g, b in colour)
    gray = _colours(pdf_bytes(cards, library, paper="a4", layout="backs", grayscale=True))
    assert gray and all(abs(r - g) < 0.01 and abs(g - b) < 0.01 for r, g, b in gray)


def test_progress_is_reported(library: DeckLibrary) -> None:
    cards = select_cards(library, ["mass-combat"])
    seen: list[tuple[int, int]] = []
    pdf_bytes(cards, library, paper="a4", progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, len(cards)) for i in range(1, len(cards) + 1)]


def test_writes_to_a_path(library: DeckLibrary, tmp_path: Path) -> None:
    cards = select_cards(library, ["mass-combat"])
    result = build_cards_pdf(cards, tmp_path / "out.pdf", decks=library, paper="letter")
    assert result.pages == 1 and result.cards == len(cards) and result.per_page == 9
    assert (tmp_path / "out.pdf").read_bytes().startswith(b"%PDF-")


# --- symbols, markup, overflow -----------------------------------------------------------------------------


def test_symbols_render_and_markup_is_escaped(tmp_path: Path) -> None:
    library = custom_library(
        tmp_path,
        {
            "01-a.toml": (
                'title = "Symbols ♠♥♦♣"\n[[blocks]]\ntype = "paragraph"\ntext = "Dice ⚀⚁⚂⚃⚄⚅ and **bold** & <tags>"\n'
                '[[blocks]]\ntype = "boxes"\ntext = "XP"\ncount = 12\n'
                '[[blocks]]\ntype = "fields"\nitems = ["Name"]\n'
            )
        },
    )
    pdf = pdf_bytes(select_cards(library), library, paper="a4")
    text = squash(reader(pdf).pages[0].extract_text())
    assert "⚀⚁⚂⚃⚄⚅" in text and "♠♥♦♣" in text and "& <tags>" in text and "bold" in text
    assert "**" not in text
    assert all(fonts_embedded(pdf).values())
    assert markup("a & b **c**") == "a &amp; b <b>c</b>"
    assert 'color="#c0392b"' in markup("♥") and "color" not in markup("♥", grayscale=True)


def test_a_card_that_does_not_fit_is_an_error_naming_it(tmp_path: Path) -> None:
    long = " ".join(["A long sentence that goes on and on."] * 60)
    library = custom_library(
        tmp_path,
        {
            "01-ok.toml": 'title = "Fine"\nblocks = [{ type = "paragraph", text = "short" }]\n',
            "02-long.toml": f'title = "Too long"\nblocks = [{{ type = "paragraph", text = "{long}" }}]\n',
        },
    )
    out = tmp_path / "never.pdf"
    with pytest.raises(CardFitError, match=r"card test/long \('Too long'.*02-long\.toml.*7 pt"):
        build_cards_pdf(select_cards(library), out, decks=library, paper="a4")
    assert not out.exists()
    # a little too long shrinks instead, but not below 7 pt
    medium = " ".join(["Some words to fill the card."] * 30)
    library = custom_library(
        tmp_path / "b", {"01-m.toml": f'title = "Medium"\nblocks = [{{ type = "paragraph", text = "{medium}" }}]\n'}
    )
    fit = check_card_fits(select_cards(library)[0], library.deck("test"), "poker")
    assert fit.scale > 1 and MIN_FONT <= fit.min_font < 9


def test_a_title_that_is_too_long(tmp_path: Path) -> None:
    title = "A title so very long that it cannot possibly fit on two lines of a small poker card at all"
    library = custom_library(
        tmp_path, {"01-t.toml": f'title = "{title}"\nblocks = [{{ type = "paragraph", text = "x" }}]\n'}
    )
    with pytest.raises(CardFitError, match="needs more than two lines"):
        check_card_fits(select_cards(library)[0], library.deck("test"), "poker")


def test_bad_options(library: DeckLibrary) -> None:
    cards = select_cards(library, ["mass-combat"])
    with pytest.raises(DeckError, match="unknown card size"):
        pdf_bytes(cards, library, size="huge")
    with pytest.raises(DeckError, match="unknown paper"):
        pdf_bytes(cards, library, paper="a3")
    with pytest.raises(DeckError, match="unknown layout"):
        pdf_bytes(cards, library, layout="sideways")
    with pytest.raises(DeckError, match="no cards"):
        pdf_bytes([], library)


def test_rule_table_columns_rows_and_labels(tmp_path: Path) -> None:
    library = custom_library(
        tmp_path,
        {
            "01-a.toml": (
                'title = "Cut"\n[[blocks]]\ntype = "rule_table"\nname = "sologear.combat"\n'
                'columns = ["2D6+X", "Losing"]\nlabels = ["Roll", "LOSINGCOL"]\nrows = [13, 15]\n'
            )
        },
    )
    text = squash(reader(pdf_bytes(select_cards(library), library, paper="a4")).pages[0].extract_text())
    assert "Roll LOSINGCOL 12 # 13 # 14 E,#" in text
    assert "Winning" not in text
    library = custom_library(
        tmp_path / "b",
        {
            "01-a.toml": (
                'title = "Bad"\n[[blocks]]\ntype = "rule_table"\nname = "sologear.combat"\ncolumns = ["Nope"]\n'
            )
        },
    )
    with pytest.raises(DeckError, match=r"test/a .*no column 'Nope'"):
        pdf_bytes(select_cards(library), library, paper="a4")


# --- paper ---------------------------------------------------------------------------------------------------


def test_default_paper_from_the_locale() -> None:
    assert paper_for_locale("en_US.UTF-8") == "letter"
    assert paper_for_locale("fr_CA") == "letter"
    assert paper_for_locale("English_United States.1252") == "letter"
    assert paper_for_locale("en_GB.UTF-8") == "a4"
    assert paper_for_locale("de_DE") == "a4"
    assert paper_for_locale(None) == "a4"
    assert default_paper({"LANG": "en_US.UTF-8"}) == "letter"
    assert default_paper({"LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}) == "a4"
    assert default_paper({"LC_PAPER": "en_CA.UTF-8", "LANG": "de_DE"}) == "letter"
    assert default_paper({"LANG": "C.UTF-8"}) == "a4"
    assert default_paper({}) == "a4"


def test_every_character_of_the_shipped_cards_is_in_the_fonts(library: DeckLibrary) -> None:
    """No missing-glyph boxes: every character the cards print exists in both DejaVu faces."""
    from reportlab.pdfbase import pdfmetrics

    from campaign_app.printing.card_content import resolve_rule_table
    from campaign_app.printing.fonts import FONT, FONT_BOLD, register_fonts

    register_fonts()
    texts: list[str] = []
    for deck in library.decks.values():
        texts += [deck.title, deck.system, deck.back.title, deck.back.text]
        for card in deck.cards:
            texts += [card.title, card.system, card.tag]
            for block in card.blocks:
                texts += [block.text, block.caption, *block.items, *block.headers, *block.labels]
                texts += [cell for row in block.rows for cell in row]
                if block.type == "rule_table":
                    headers, rows = resolve_rule_table(block)
                    texts += [*headers, *(cell for row in rows for cell in row)]
    chars = {ch for text in texts for ch in text if not ch.isspace()}
    for name in (FONT, FONT_BOLD):
        cmap = pdfmetrics.getFont(name).face.charToGlyph
        missing = sorted(ch for ch in chars if ord(ch) not in cmap)
        assert not missing, (name, missing)
    assert {"♠", "♥", "♦", "♣", "−", "×"} <= chars


def test_c_locale_gives_a4_from_the_real_environment(monkeypatch) -> None:
    """Python reports C.UTF-8 as en_US; a C/POSIX locale must not be read as a US one."""
    for var in ("LC_ALL", "LC_PAPER"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert default_paper() == "a4"


def _line_words(para: Any) -> list[list[str]]:
    lines = []
    for line in para.blPara.lines:
        words = line[1] if isinstance(line, tuple) else [getattr(w, "text", str(w)) for w in line.words]
        lines.append([part for w in words for part in str(w).split()])
    return lines


@pytest.mark.parametrize("size", list(CARD_SIZES))
def test_no_title_leaves_one_word_alone_and_bullets_hang(library: DeckLibrary, size: str) -> None:
    """Every shipped title fits one line, or two lines with at least two words on the second, at the text
    size the card is really printed at; bullets' wrapped lines start where their first line does."""
    from reportlab.pdfgen.canvas import Canvas

    from campaign_app.printing.card_face import _title_paragraph, lay_out_grown
    from campaign_app.printing.card_style import INSET, PAD, style_for
    from campaign_app.printing.fonts import register_fonts

    register_fonts()
    canvas = Canvas(io.BytesIO())
    card_size = CARD_SIZES[size]
    for deck in library.decks.values():
        for card in deck.cards:
            laid = lay_out_grown(card, deck, style_for(card_size, deck, False), canvas)
            para = _title_paragraph(card, laid.style, card_size.width - 2 * (INSET + PAD))
            lines = _line_words(para)
            assert len(lines) <= 2, (card.full_id, lines)
            if len(lines) == 2 and len(card.title.split()) > 2:
                assert len(lines[1]) >= 2, (card.full_id, size, lines)
            bullet = laid.style.bullet
            # reportlab starts the first line at bulletIndent + bullet width + 0.6 em when that is beyond
            # leftIndent: the wrapped lines are indented exactly that far
            from reportlab.pdfbase.pdfmetrics import stringWidth

            first_line = (
                bullet.bulletIndent + stringWidth("•", bullet.bulletFontName, bullet.fontSize) + bullet.fontSize * 0.6
            )
            assert bullet.leftIndent == pytest.approx(first_line, abs=0.01)


def test_dice_codes_and_signed_numbers_never_break() -> None:
    from campaign_app.printing.typeset import keep_dice_codes

    nb = "\u00a0"
    assert keep_dice_codes("roll 2d6 + X on the table") == f"roll 2d6{nb}+{nb}X on the table"
    assert keep_dice_codes("1d6 − 2 hours") == f"1d6{nb}−{nb}2 hours"
    assert keep_dice_codes("the lower of two dice − 1") == f"the lower of two dice{nb}−{nb}1"
    assert keep_dice_codes("D H, Rally +") == f"D{nb}H, Rally{nb}+"
    assert keep_dice_codes("4d6 rounds and 1–3 miss") == "4d6 rounds and 1–3 miss"
