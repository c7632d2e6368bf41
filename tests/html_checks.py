"""Checks of a static HTML site (the HTML export): every page parses cleanly (tags balanced and closed in order,
no unknown entity), declares its charset and language, loads nothing from the network and runs no script, and every
link and image points to a file of the site."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
        "path",
        "rect",
        "line",
        "circle",
        "polyline",
        "polygon",
        "ellipse",
        "stop",
        "use",
    }
)


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.links: list[str] = []
        self.text: list[str] = []
        self.charset = False
        self.lang = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script":
            self.problems.append("a script")
        if tag == "html" and a.get("lang"):
            self.lang = True
        if tag == "meta" and a.get("charset", "").lower() == "utf-8":
            self.charset = True
        for key in ("href", "src"):
            if a.get(key):
                self.links.append(str(a[key]))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def check_site(folder: Path) -> dict[str, str]:
    """Check every page of ``folder``; returns each page's text."""
    texts = {}
    pages = sorted(folder.glob("*.html"))
    assert pages and (folder / "index.html").is_file()
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert html.startswith("<!DOCTYPE html>"), page
        checker = _Checker()
        checker.feed(html)
        checker.close()
        assert checker.problems == [], (page.name, checker.problems)
        assert checker.stack == [], (page.name, checker.stack)
        assert checker.charset and checker.lang, page.name
        for link in checker.links:
            url = urlparse(link)
            assert not url.scheme and not url.netloc, (page.name, link)  # nothing from the network
            target = folder / url.path
            assert target.is_file(), (page.name, link)
        texts[page.name] = " ".join(" ".join(checker.text).split())
    return texts
