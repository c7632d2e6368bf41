"""A property test: generated argument lists for every campaign-cli command never give a traceback, a
refused call prints one line and leaves the database exactly as it was."""

from __future__ import annotations

import argparse
import io
import sqlite3
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign_app.cli import build_parser, main
from campaign_app.services.demo import create_demo
from campaign_app.store import close_db

SKIP_OPTIONS = {"--data-dir", "--db", "--busy-timeout", "-h", "--help", "--version"}


def _commands() -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    found = []

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            found.append((path, parser))
            return
        for name, child in subs[0].choices.items():
            walk(child, (*path, name))

    walk(build_parser(), ())
    return found


COMMANDS = _commands()
NAMES = ["2nd Platoon", "Congo 1960 (sample)", "Hill 214 (sample)", "Lt. Okafor"]
VALUES = st.one_of(
    st.sampled_from(NAMES),
    st.sampled_from(
        [
            "0",
            "1",
            "-1",
            "6",
            "d8",
            "10",
            "99999999999999999999999",
            "-99999999999999999999",
            "1,2",
            "3,4,5",
            "",
            " ",
            "victory",
            "team",
            "dec",
            "nan",
            "1e999",
            "out.pdf",
            "x.json",
        ]
    ),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
    st.text(alphabet="ab\x00\n\r\t\x1b", max_size=6),
    st.just("bad\udcff\udcfe"),
)


@st.composite
def argv_lists(draw: st.DrawFn) -> list[str]:
    path, parser = draw(st.sampled_from(COMMANDS))
    argv = list(path)
    positionals = [a for a in parser._actions if not a.option_strings and not isinstance(a, argparse._HelpAction)]
    for _action in positionals[:2]:
        argv.append(draw(VALUES))
    options = [a for a in parser._actions if a.option_strings and not (set(a.option_strings) & SKIP_OPTIONS)]
    for action in draw(st.lists(st.sampled_from(options), max_size=4, unique_by=id)) if options else []:
        argv.append(action.option_strings[-1])
        if action.nargs != 0:
            argv.append(draw(VALUES))
    return argv


def _snapshot(db_file: Path) -> list[str]:
    con = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()


@pytest.fixture
def demo(app_paths, fresh_db, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    create_demo()
    close_db()
    monkeypatch.chdir(tmp_path)  # relative output paths land in the test's folder
    return app_paths


def test_every_command_fails_cleanly(demo):
    outcomes: list[tuple[str, int]] = []

    @settings(max_examples=120, deadline=None)
    @given(argv=argv_lists())
    def check(argv: list[str]) -> None:
        before = _snapshot(demo.db_file)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main([*argv, "--data-dir", str(demo.data_dir), "--busy-timeout", "2"])
            except SystemExit as exc:  # argparse: usage errors and --help
                code = int(exc.code or 0)
        close_db()
        text = err.getvalue()
        outcomes.append((argv[0], code))
        assert "Traceback" not in text and "unexpected problem" not in text, (argv, text)
        if code != 0:
            assert code in (1, 2), (argv, code, text)
            assert len(text.strip().splitlines()) == 1, (argv, text)
            assert _snapshot(demo.db_file) == before, argv

    check()
    # the generator reached many commands and both outcomes, not only usage errors
    assert len({cmd for cmd, _code in outcomes}) >= 8, outcomes
    assert {0, 2} <= {code for _cmd, code in outcomes}, outcomes
