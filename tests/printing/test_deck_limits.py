"""User decks cannot hurt: only regular files of at most 256 KiB are read, nesting is limited, any failure of
one file is a message naming it, and the other decks (shipped ones included) still load and print."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from campaign_app.printing import decks as deck_module
from campaign_app.printing.decks import MAX_FILE_BYTES, load_decks, select_cards

GOOD_DECK = 'title = "House rules"\nsystem = "Our table"\n'
GOOD_CARD = 'title = "Night fighting"\n[[blocks]]\ntype = "paragraph"\ntext = "Range +2 at night."\n'


def make_user_deck(root: Path) -> Path:
    deck = root / "house"
    deck.mkdir(parents=True)
    (deck / "deck.toml").write_text(GOOD_DECK, encoding="utf-8")
    (deck / "01-night.toml").write_text(GOOD_CARD, encoding="utf-8")
    return deck


def problems_for(library, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [p.message for p in library.problems if p.path.name == name]


def assert_others_load(library) -> None:  # type: ignore[no-untyped-def]
    assert "atomic-africa" in library.decks and "sologear" in library.decks
    assert [c.id for c in library.decks["house"].cards] == ["night"]
    assert select_cards(library, ["atomic-africa"])


def test_deeply_nested_file(tmp_path: Path):
    deck = make_user_deck(tmp_path)
    (deck / "02-deep.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    library = load_decks(tmp_path)
    assert any("nested too deeply" in m for m in problems_for(library, "02-deep.toml"))
    assert_others_load(library)


def test_device_fifo_and_folder_are_not_read(tmp_path: Path):
    deck = make_user_deck(tmp_path)
    (deck / "02-zero.toml").symlink_to("/dev/zero")
    os.mkfifo(deck / "03-fifo.toml")
    (deck / "04-folder.toml").mkdir()
    started = time.monotonic()
    library = load_decks(tmp_path)
    assert time.monotonic() - started < 30  # nothing hangs (a FIFO without writer) or reads forever
    for name in ("02-zero.toml", "03-fifo.toml"):
        assert any("not a regular file" in m for m in problems_for(library, name)), library.problems
    assert_others_load(library)


def test_file_over_the_size_limit(tmp_path: Path):
    deck = make_user_deck(tmp_path)
    (deck / "02-big.toml").write_text('title = "x"\n# ' + "a" * MAX_FILE_BYTES + "\n", encoding="utf-8")
    library = load_decks(tmp_path)
    assert any("too large" in m for m in problems_for(library, "02-big.toml"))
    assert_others_load(library)


def test_any_exception_in_one_file_is_a_problem_of_that_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    deck = make_user_deck(tmp_path)
    (deck / "02-boom.toml").write_text(GOOD_CARD, encoding="utf-8")
    real = deck_module._read_card  # fault injection: no real card file makes the reader run out of memory

    def read_card(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if path.name == "02-boom.toml":
            raise MemoryError("simulated")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(deck_module, "_read_card", read_card)
    library = load_decks(tmp_path)
    assert any("MemoryError" in m and "simulated" in m for m in problems_for(library, "02-boom.toml"))
    assert_others_load(library)


def test_error_lines_are_found_fast_in_a_large_file(tmp_path: Path):
    """A file near the size limit with thousands of blocks, the last one bad: its line is named, quickly."""
    deck = make_user_deck(tmp_path)
    blocks = "".join('[[blocks]]\ntype = "paragraph"\ntext = "ok"\n' for _ in range(4000))
    text = 'title = "Long"\n' + blocks + '[[blocks]]\ntype = "nonsense"\n'
    assert len(text.encode()) < MAX_FILE_BYTES
    (deck / "02-long.toml").write_text(text, encoding="utf-8")
    started = time.monotonic()
    library = load_decks(tmp_path)
    elapsed = time.monotonic() - started
    (problem,) = [p for p in library.problems if p.path.name == "02-long.toml"]
    assert problem.line == text.count("\n")
    assert elapsed < 20  # generous bound: a quadratic search took minutes; see benchmarks for the figure
    assert_others_load(library)


def test_print_cards_of_a_shipped_deck_with_a_poisoned_user_deck(tmp_path: Path, app_paths, capsys):
    from campaign_app.cli import main

    deck = make_user_deck(app_paths.user_decks_dir)
    (deck / "02-deep.toml").write_text("x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n", encoding="utf-8")
    out = tmp_path / "cards.pdf"
    code = main(["print", "cards", "--deck", "atomic-africa", "-o", str(out), "--data-dir", str(app_paths.data_dir)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert out.stat().st_size > 1000
    assert "Traceback" not in captured.err
