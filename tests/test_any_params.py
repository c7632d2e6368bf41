"""The services' public functions take typed values: the number of parameters annotated ``Any`` may only go
down (``benchmarks/count_any_params.py`` counts them; it says what it counts)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.count_any_params import count

EXACT_MAX = 12
"""Parameters annotated exactly ``Any`` (Recorder's and the print fingerprints' generic data, the sheet's
``**fields``, roll links): lower this when one goes."""
CONTAINING_MAX = 16
"""Annotations that mention ``Any`` anywhere (``dict[str, Any]``, ...)."""


def test_the_services_take_no_more_any_parameters_than_before() -> None:
    found = count()
    assert found.exact <= EXACT_MAX, "\n".join(found.params)
    assert found.containing <= CONTAINING_MAX, "\n".join(found.params)


def test_the_counter_counts_public_parameters_only(tmp_path: Path) -> None:
    (tmp_path / "sample.py").write_text(
        "from typing import Any\n"
        "def take(a: Any, b: int, *rest: Any, c: dict[str, Any] | None = None, **kw: 'Any') -> Any: ...\n"
        "def _private(a: Any) -> None: ...\n"
        "class Public:\n"
        "    def __init__(self, a: Any) -> None: ...\n"
        "    def method(self, a: list[Any]) -> None: ...\n"
        "    def _hidden(self, a: Any) -> None: ...\n"
        "class _Private:\n"
        "    def method(self, a: Any) -> None: ...\n",
        encoding="utf-8",
    )
    found = count(tmp_path)
    assert (found.exact, found.containing) == (4, 6)
    assert found.functions_exact == ["sample.take", "sample.Public.__init__"]
    assert found.functions_containing == ["sample.take", "sample.Public.__init__", "sample.Public.method"]
