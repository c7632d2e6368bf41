"""``campaign-cli campaign standings`` and ``battle log --opponent-platoon``, on both engines."""

from __future__ import annotations

import json

import pytest

from campaign_app.paths import AppPaths
from campaign_app.store import close_db

pytestmark = pytest.mark.usefixtures("fresh_db")


@pytest.fixture
def league(app_paths: AppPaths, congo_platoon) -> None:  # type: ignore[no-untyped-def]
    congo_platoon(rival=True)
    close_db()


def _log(cli, platoon: str, outcome: str, *more: str) -> dict:  # type: ignore[no-untyped-def]
    return json.loads(
        cli(
            "battle",
            "log",
            "--platoon",
            platoon,
            "--wounds",
            "0",
            "--leader-wounds",
            "0",
            "--outcome",
            outcome,
            "--seed",
            "1",
            *more,
            "--json",
        )
    )


def test_opponent_platoon_links_the_battle_and_counts_head_to_head(cli, league, db_engine: str) -> None:
    d = _log(cli, "2nd Platoon", "victory", "--opponent-platoon", "red company")
    assert d["details"]["opponent"] == "Red Company" and d["details"]["opponent_platoon_id"] is not None
    _log(cli, "Red Company", "defeat", "--opponent-platoon", "2nd Platoon")
    data = json.loads(cli("campaign", "standings", "--campaign", "Congo 1960", "--json"))
    fields = [
        "platoon",
        "battles",
        "victories",
        "draws",
        "defeats",
        "objective_xp",
        "wounds",
        "xp_lost",
        "leaders_lost",
        "xp",
        "level",
    ]
    if db_engine == "postgresql":
        fields.insert(1, "owner")
    assert [list(r) for r in data["platoons"]] == [fields, fields]
    assert [r["platoon"] for r in data["platoons"]] == ["2nd Platoon", "Red Company"]
    assert data["head_to_head"] == [
        {"platoons": ["2nd Platoon", "Red Company"], "a_victories": 1, "b_victories": 0, "draws": 0, "disagreements": 0}
    ]
    text = cli("campaign", "standings", "--campaign", "Congo 1960")
    assert "2nd Platoon – Red Company: 1–0" in text


def test_both_claiming_victory_is_reported_as_disputed(cli, league) -> None:
    _log(cli, "2nd Platoon", "victory", "--opponent-platoon", "Red Company")
    _log(cli, "Red Company", "victory", "--opponent-platoon", "2nd Platoon")
    data = json.loads(cli("campaign", "standings", "--campaign", "Congo 1960", "--json"))
    assert data["head_to_head"][0]["disagreements"] == 1
    assert "disputed" in cli("campaign", "standings", "--campaign", "Congo 1960")


def test_bad_opponent_platoon_is_refused_in_one_line_and_nothing_is_written(cli, league) -> None:
    err = cli(
        "battle",
        "log",
        "--platoon",
        "2nd Platoon",
        "--wounds",
        "0",
        "--leader-wounds",
        "0",
        "--opponent-platoon",
        "Nobody",
        "--seed",
        "1",
        rc=2,
    )
    assert "no platoon named 'Nobody'" in err
    err = cli(
        "battle",
        "log",
        "--platoon",
        "2nd Platoon",
        "--wounds",
        "0",
        "--leader-wounds",
        "0",
        "--opponent-platoon",
        "2nd Platoon",
        "--seed",
        "1",
        rc=2,
    )
    assert "cannot fight itself" in err
    err = cli("campaign", "standings", "--campaign", "Nowhere", rc=2)
    assert "no campaign named 'Nowhere'" in err
    data = json.loads(cli("campaign", "standings", "--campaign", "Congo 1960", "--json"))
    assert sum(r["battles"] for r in data["platoons"]) == 0  # nothing was written by the refusals


def test_chronicle_entries_reports_filter_and_search(cli, league) -> None:
    _log(cli, "2nd Platoon", "victory", "--opponent-platoon", "Red Company", "--date", "2026-03-02")
    added = json.loads(
        cli(
            "chronicle",
            "add",
            "--campaign",
            "Congo 1960",
            "--title",
            "Season 2 begins",
            "--text",
            "The rains end.",
            "--date",
            "2026-03-01",
            "--json",
        )
    )
    assert added["title"] == "Season 2 begins" and added["date"] == "2026-03-01"
    cli("chronicle", "report", "--platoon", "2nd Platoon", "--text", "Held the ford at dusk.")
    story = json.loads(cli("chronicle", "--campaign", "Congo 1960", "--json"))
    kinds = [(i["kind"], i["date"]) for i in story["items"]]
    assert kinds == [("entry", "2026-03-01"), ("battle", "2026-03-02")]
    battle = story["items"][1]
    assert battle["headline"] == "2nd Platoon won battle 1 against Red Company"
    assert battle["report"] == "Held the ford at dusk." and battle["aftermath"].startswith("XP 6 \u2192 ")
    only = json.loads(cli("chronicle", "--campaign", "Congo 1960", "--platoon", "Red Company", "--json"))
    assert [i["kind"] for i in only["items"]] == ["entry"]  # Red Company logged no battle: the entries stay
    found = json.loads(cli("chronicle", "--campaign", "Congo 1960", "--search", "FORD", "--json"))
    assert [i["kind"] for i in found["items"]] == ["battle"]
    cli("chronicle", "edit", str(added["id"]), "--title", "Season two begins")
    assert "Season two begins" in cli("chronicle", "--campaign", "Congo 1960")
    cli("chronicle", "remove", str(added["id"]))
    assert "Season two" not in cli("chronicle", "--campaign", "Congo 1960")
    cli("undo")  # the removal is one operation, undone like any other
    assert "Season two begins" in cli("chronicle", "--campaign", "Congo 1960")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["chronicle", "add", "--campaign", "Congo 1960", "--title", "", "--date", "2026-01-01"], "title"),
        (["chronicle", "add", "--campaign", "Congo 1960", "--title", "X", "--date", "1st of May"], "YYYY-MM-DD"),
        (["chronicle", "add", "--campaign", "Nowhere", "--title", "X"], "no campaign named 'Nowhere'"),
        (["chronicle", "edit", "99", "--title", "X"], "no chronicle entry with id 99"),
        (["chronicle", "edit", "x1"], "entry id"),
        (["chronicle", "report", "--platoon", "2nd Platoon", "--text", "x"], "has no battles"),
        (["chronicle"], "name the campaign"),
    ],
)
def test_chronicle_refusals_are_one_line(cli, league, argv: list[str], message: str) -> None:
    assert message in cli(*argv, rc=2)
    assert json.loads(cli("chronicle", "--campaign", "Congo 1960", "--json"))["items"] == []


def test_print_standings_and_chronicle_and_stale(cli, league, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pypdf import PdfReader

    _log(cli, "2nd Platoon", "victory", "--opponent-platoon", "Red Company")
    out = json.loads(
        cli("print", "standings", "--campaign", "Congo 1960", "-o", str(tmp_path / "s.pdf"), "--qr", "--json")
    )
    assert out["pages"] == 1 and out["campaign"] == "Congo 1960"
    text = PdfReader(tmp_path / "s.pdf").pages[0].extract_text()
    assert "2nd Platoon" in text and "Red Company" in text and "Congo 1960 \u00b7 Standings \u00b7 journal" in text
    cli("print", "chronicle", "--campaign", "Congo 1960", "-o", str(tmp_path / "c.pdf"))
    diary = "".join(p.extract_text() for p in PdfReader(tmp_path / "c.pdf").pages)
    assert "2nd Platoon won battle 1 against Red Company" in diary
    cli("print", "sheet", "--platoon", "2nd Platoon", "-o", str(tmp_path / "sheet.pdf"))
    assert json.loads(cli("print", "stale", "--campaign", "Congo 1960", "--json")) == []
    assert len(json.loads(cli("print", "stale", "--campaign", "Congo 1960", "--all", "--json"))) == 3
    cli("platoon", "set", "2nd Platoon", "--morale", "d12")
    stale = json.loads(cli("print", "stale", "--campaign", "Congo 1960", "--json"))
    assert [(s["title"], s["changes"]) for s in stale] == [("Unit Data Sheet: 2nd Platoon", ["Morale d8 \u2192 d12"])]
    assert "STALE" in cli("print", "stale", "--campaign", "Congo 1960")
    cli("undo")
    assert json.loads(cli("print", "stale", "--campaign", "Congo 1960", "--json")) == []


def test_export_html_writes_a_site_that_parses_and_has_no_broken_links(cli, league, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.html_checks import check_site

    _log(cli, "2nd Platoon", "victory", "--opponent-platoon", "Red Company")
    cli("chronicle", "add", "--campaign", "Congo 1960", "--title", "Season <2> & more", "--text", "A & B")
    out = json.loads(cli("export", "--campaign", "Congo 1960", "--html", str(tmp_path / "site"), "--json"))
    assert sorted(out["pages"]) == sorted(["index.html", "chronicle.html", *(f"platoon-{i}.html" for i in (1, 2))])
    texts = check_site(tmp_path / "site")
    assert "Season <2> & more" in texts["chronicle.html"] and "Red Company" in texts["index.html"]
    assert "Lt. Okafor" in texts["platoon-1.html"]
    # again into the same folder: replaced whole; a folder holding something else is refused
    cli("export", "--campaign", "Congo 1960", "--html", str(tmp_path / "site"))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "mine.txt").write_text("keep me")
    assert "not empty" in cli("export", "--campaign", "Congo 1960", "--html", str(tmp_path / "other"), rc=2)
    assert (tmp_path / "other" / "mine.txt").read_text() == "keep me"
