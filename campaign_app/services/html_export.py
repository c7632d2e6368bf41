"""A read-only campaign for people without the app: ``campaign-cli export --campaign C --html DIR``
writes a static, self-contained site that opens from the file system in any browser.

Pages: ``index.html`` (the standings, head to head, the pilots and links to everything), ``chronicle.html`` (the
diary, with the platoons' XP over campaign time) and one page per platoon (``platoon-<id>.html``: its sheet, XP and
wounds charts, battles, leaders). No scripts at all, no fonts or styles from the network: the style sheet is in
each page, the charts are inline SVG drawn by the same code as the printed ones (``printing.history_report``,
``printing.chronicle_report``). The folder is written whole in a temporary folder next to it, then moved into
place; an existing folder is replaced only when it holds a site this function wrote (its ``index.html`` says so).
"""

from __future__ import annotations

import datetime as _dt
import os
import shutil
import tempfile
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from .. import __version__
from .common import ServiceError, resolve_campaign
from .results import Result

GENERATOR = "campaign_app static export"
CSS = """
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 0; color: #1a1a1a; background: #fff; }
header { background: #3b4a5a; color: #fff; padding: 14px 24px; }
header a { color: #fff; }
header h1 { margin: 0 0 4px 0; font-size: 1.6em; }
nav a { margin-right: 14px; }
main { padding: 8px 24px 32px 24px; max-width: 1100px; }
h2 { color: #3b4a5a; border-bottom: 2px solid #3b4a5a; padding-bottom: 2px; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 8px 0; }
th { background: #3b4a5a; color: #fff; text-align: left; padding: 4px 8px; font-size: 0.9em; }
td { border: 1px solid #ccc; padding: 4px 8px; font-size: 0.9em; }
td.num { text-align: right; }
tr.disputed td { background: #fbe9e7; }
.muted { color: #6b6b6b; font-size: 0.85em; }
.entry { border-left: 4px solid #3b4a5a; padding-left: 10px; margin: 12px 0; }
.battle { margin: 10px 0; }
.report { margin: 4px 0 0 14px; }
.charts svg { max-width: 100%; height: auto; }
footer { color: #6b6b6b; font-size: 0.8em; padding: 12px 24px; border-top: 1px solid #ddd; }
@media (prefers-color-scheme: dark) {
  body { background: #1e1f22; color: #e6e6e6; } td { border-color: #444; } tr.disputed td { background: #4a2a26; }
  .charts svg { background: #fff; }
}
"""


@dataclass(frozen=True)
class SiteWritten(Result):
    """The static site written: its folder, the pages and the campaign."""

    folder: Path
    campaign: str
    pages: tuple[str, ...]


def _page(title: str, campaign: str, body: str, *, nav: str) -> str:
    now = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="{GENERATOR} {escape(__version__)}">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"<header><h1>{escape(title)}</h1><nav>{nav}</nav></header>\n<main>\n{body}\n</main>\n"
        f"<footer>{escape(campaign)} \u00b7 written by campaign_app {escape(__version__)} on {now}; a read-only "
        f"copy (no scripts).</footer>\n</body>\n</html>\n"
    )


def _table(
    headers: list[str],
    rows: list[list[Any]],
    numeric: frozenset[int] | set[int] = frozenset(),
    row_class: list[str] | None = None,
) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    lines = []
    for i, row in enumerate(rows):
        cls = f' class="{row_class[i]}"' if row_class and row_class[i] else ""
        cells = "".join(
            f"<td{NUM if j in numeric else ''}>{c if isinstance(c, _Html) else escape(str(c))}</td>"
            for j, c in enumerate(row)
        )
        lines.append(f"<tr{cls}>{cells}</tr>")
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(lines) + "\n</tbody>\n</table>"


NUM = ' class="num"'


class _Html(str):
    """Text that is already HTML (a link)."""


def _link(href: str, text: str) -> _Html:
    return _Html(f'<a href="{escape(href)}">{escape(text)}</a>')


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{escape(p.strip())}</p>" for p in text.split("\n\n") if p.strip())


def platoon_file(platoon_id: int) -> str:
    return f"platoon-{platoon_id}.html"


def site(campaign: int) -> dict[str, str]:
    """The pages of the site: file name -> HTML text."""
    from ..printing.web_charts import history_svgs, xp_time_svg
    from . import printing
    from .chronicle import chronicle, printable
    from .standings import standings

    camp = resolve_campaign(campaign)
    table = standings(camp.id)
    story = chronicle(camp.id)
    pages: dict[str, str] = {}
    platoon_links = {p.platoon: platoon_file(p.platoon_id) for p in table.platoons}
    nav = (
        _link("index.html", "Standings")
        + _link("chronicle.html", "Chronicle")
        + "".join(_link(f, name) for name, f in platoon_links.items())
    )

    # index: the standings
    body = [
        f'<p class="muted">{escape(camp.system.replace("_", " ").title())} campaign. Ranked by victories, '
        "then victories \u2212 defeats, then current XP, then name.</p>"
    ]
    if table.platoons:
        body.append("<h2>Standings</h2>")
        rows = [
            [
                i,
                _link(platoon_links[p.platoon], p.platoon),
                p.battles,
                p.victories,
                p.draws,
                p.defeats,
                p.objective_xp,
                p.wounds,
                p.xp_lost,
                p.leaders_lost,
                p.xp,
                p.level,
            ]
            for i, p in enumerate(table.platoons, start=1)
        ]
        body.append(
            _table(
                [
                    "#",
                    "Platoon",
                    "Battles",
                    "Won",
                    "Drawn",
                    "Lost",
                    "Obj. XP",
                    "Wounds",
                    "XP lost",
                    "Leaders lost",
                    "XP",
                    "Level",
                ],
                rows,
                numeric=set(range(2, 11)),
            )
        )
    if table.head_to_head:
        body.append("<h2>Head to head</h2>")
        rows = []
        classes = []
        for h in table.head_to_head:
            a, b = h.platoons
            rows.append(
                [
                    " \u2013 ".join(h.platoons),
                    h.a_victories,
                    h.b_victories,
                    h.draws,
                    h.disagreements or "",
                    "; ".join(g.text(a, b) for g in h.games),
                ]
            )
            classes.append("disputed" if h.disagreements else "")
        body.append(
            _table(
                ["Pair (A \u2013 B)", "A won", "B won", "Draws", "Disputed", "The disputed games"],
                rows,
                numeric={1, 2, 3, 4},
                row_class=classes,
            )
        )
    if table.pilots:
        body.append("<h2>Pilots</h2>")
        body.append(
            _table(
                ["Pilot", "Turns", "Recognition", "Noticed", "Result"],
                [
                    [
                        p.pilot,
                        p.turns,
                        "\u2013" if p.recognition is None else p.recognition,
                        "\u2013" if p.noticed is None else ("yes" if p.noticed else "no"),
                        f"{p.result}: {p.outcome}" if p.result else "not reckoned yet",
                    ]
                    for p in table.pilots
                ],
                numeric={1, 2},
            )
        )
    if not (table.platoons or table.pilots):
        body.append("<p>Nothing to rank yet.</p>")
    body.append(
        f"<p>{_link('chronicle.html', 'Read the chronicle')} \u2014 {len(story.items)} battles, turns and "
        "entries in campaign time.</p>"
    )
    pages["index.html"] = _page(camp.name, camp.name, "\n".join(body), nav=nav)

    # the chronicle
    data = printable(story)
    body = []
    if data.series:
        body.append(f'<h2>The platoons\u2019 experience</h2>\n<div class="charts">{xp_time_svg(data)}</div>')
    body.append("<h2>Diary</h2>")
    for item in story.items:
        who = _link(platoon_links[item.who], item.who) if item.who in platoon_links else escape(item.who)
        if item.kind == "entry":
            body.append(
                f'<div class="entry"><h3>{escape(item.date)} \u00b7 {escape(item.headline)}</h3>'
                f"{_paragraphs(item.report)}</div>"
            )
            continue
        headline = (
            who + escape(item.headline[len(item.who) :])
            if item.headline.startswith(item.who)
            else escape(item.headline)
        )
        body.append(
            f'<div class="battle"><b>{escape(item.date)}</b> \u00b7 {headline}'
            f'<div class="muted">{escape(item.aftermath)}</div>'
            + (f'<div class="report">{_paragraphs(item.report)}</div>' if item.report else "")
            + "</div>"
        )
    if not story.items:
        body.append("<p>Nothing has happened yet.</p>")
    pages["chronicle.html"] = _page(f"Chronicle: {camp.name}", camp.name, "\n".join(body), nav=nav)

    # each platoon
    for p in table.platoons:
        sheet = printing.unit_sheet_data(p.platoon_id)
        hist = printing.history_data(p.platoon_id)
        leader = f"{sheet.leader.rank} {sheet.leader.name} ({sheet.leader.xp} XP)" if sheet.leader else "none"
        body = [
            f'<p class="muted">{escape(camp.name)} \u00b7 place {table.platoons.index(p) + 1} of '
            f"{len(table.platoons)} in the {_link('index.html', 'standings')}</p>",
            "<h2>Unit data</h2>",
            _table(
                ["Training", "Equipment", "Morale", "Armor", "XP", "Level", "Leader"],
                [
                    [
                        f"d{sheet.training}",
                        f"d{sheet.equipment}",
                        f"d{sheet.morale}",
                        sheet.armor,
                        sheet.xp,
                        p.level,
                        leader,
                    ]
                ],
            ),
        ]
        if sheet.weapons:
            body.append(
                _table(
                    ["Weapon or equipment", "Targets", "AP"],
                    [[w.name, w.targets_text(), w.ap_text()] for w in sheet.weapons],
                )
            )
        if sheet.attached:
            body.append(
                _table(
                    ["Attached unit", "Kind", "Dice", "Armor"],
                    [
                        [
                            a.name,
                            a.kind.replace("_", " "),
                            " / ".join(f"d{x}" for x in (a.training, a.equipment, a.morale) if x) or (a.support or ""),
                            a.armor or "",
                        ]
                        for a in sheet.attached
                    ],
                )
            )
        if sheet.notes:
            body.append(_paragraphs(sheet.notes))
        if hist.battles:
            xp_svg, wounds_svg = history_svgs(hist)
            body.append(f'<h2>Experience and wounds</h2>\n<div class="charts">{xp_svg}{wounds_svg}</div>')
        body.append("<h2>Battles</h2>")
        if hist.battles:
            rows = []
            for fought in hist.battles:
                rows.append(
                    [
                        fought.number,
                        fought.date,
                        fought.scenario,
                        fought.opponent,
                        fought.outcome or "\u2013",
                        fought.wounds,
                        f"{fought.xp_before} \u2192 {fought.xp_after}",
                        fought.xp_lost,
                        fought.leader_fate or "",
                        fought.notes,
                    ]
                )
            body.append(
                _table(
                    [
                        "#",
                        "Date",
                        "Scenario",
                        "Opponent",
                        "Outcome",
                        "Wounds",
                        "XP",
                        "XP lost",
                        "Leader",
                        "After-action report",
                    ],
                    rows,
                    numeric={0, 5, 7},
                )
            )
        else:
            body.append("<p>No battles logged yet.</p>")
        if hist.leaders:
            body.append("<h2>Leaders</h2>")
            body.append(
                _table(
                    ["Leader", "Rank", "Joined", "Left", "How", "Battles", "XP"],
                    [
                        [
                            ld.name + (" (now)" if ld.current else ""),
                            ld.rank,
                            ld.joined or "\u2013",
                            ld.left or "\u2013",
                            ld.how,
                            ld.battles_led,
                            f"{ld.xp_at_join} \u2192 {ld.xp} ({ld.level})",
                        ]
                        for ld in hist.leaders
                    ],
                    numeric={5},
                )
            )
        pages[platoon_links[p.platoon]] = _page(p.platoon, camp.name, "\n".join(body), nav=nav)
    return pages


def export_html(campaign: int, folder: str | os.PathLike[str]) -> SiteWritten:
    """Write the campaign's static site into ``folder`` (made if missing; replaced whole if it holds an earlier
    export; refused if it holds anything else)."""
    target = Path(folder).expanduser()
    if target.exists() and not target.is_dir():
        raise ServiceError(f"{target} is a file, not a folder: name a folder for the site")
    if target.is_dir() and any(target.iterdir()):
        index = target / "index.html"
        try:
            ours = index.is_file() and GENERATOR in index.read_text(encoding="utf-8", errors="replace")[:2000]
        except OSError:
            ours = False
        if not ours:
            raise ServiceError(f"{target} is not empty and holds no earlier export: choose an empty or new folder")
    parent = target.parent
    if not parent.is_dir():
        raise ServiceError(f"cannot write {target}: the folder {parent} does not exist")
    pages = site(campaign)
    camp = resolve_campaign(campaign)
    try:
        work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=parent))
        for name, text in pages.items():
            (work / name).write_text(text, encoding="utf-8")
        os.chmod(work, 0o755)
        if target.exists():
            old = target.with_name(f".{target.name}-old")
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
            work.rename(target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            work.rename(target)
    except OSError as exc:
        raise ServiceError(f"cannot write {target}: {exc.strerror or exc}") from None
    return SiteWritten(folder=target, campaign=camp.name, pages=tuple(pages))
