"""Count the parameters of public service functions annotated with ``Any``.

A public function is a module-level ``def`` in ``campaign_app/services/*.py`` whose name does not start with
``_``, or a public method (not ``_``-prefixed, ``__init__`` included) of a public class there. Parameters are
every positional, keyword-only, ``*args`` and ``**kwargs`` parameter except ``self``/``cls``. Two numbers:

- ``exact``: the annotation is exactly ``Any`` (or ``typing.Any``);
- ``containing``: the annotation mentions ``Any`` anywhere (``dict[str, Any]``, ``Any | None`` ...).

Run: ``python benchmarks/count_any_params.py [-v]``. ``tests/services/test_any_params.py`` holds the counts
from growing.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

SERVICES = Path(__file__).resolve().parent.parent / "campaign_app" / "services"


@dataclass
class AnyCount:
    exact: int = 0
    containing: int = 0
    functions_exact: list[str] = field(default_factory=list)
    functions_containing: list[str] = field(default_factory=list)
    params: list[str] = field(default_factory=list)


def _mentions_any(node: ast.expr) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id == "Any":
            return True
        if isinstance(sub, ast.Attribute) and sub.attr == "Any":
            return True
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and "Any" in sub.value:
            return True
    return False


def _is_any(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "Any"
    if isinstance(node, ast.Attribute):
        return node.attr == "Any"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.strip() in ("Any", "typing.Any")
    return False


def _public_functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                    not item.name.startswith("_") or item.name == "__init__"
                ):
                    found.append((f"{node.name}.{item.name}", item))
    return found


def count(services: Path = SERVICES) -> AnyCount:
    result = AnyCount()
    for path in sorted(services.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, func in _public_functions(tree):
            args = func.args
            params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
            if args.vararg is not None:
                params.append(args.vararg)
            if args.kwarg is not None:
                params.append(args.kwarg)
            exact = containing = 0
            for param in params:
                if param.arg in ("self", "cls") or param.annotation is None:
                    continue
                if _is_any(param.annotation):
                    exact += 1
                if _mentions_any(param.annotation):
                    containing += 1
                    result.params.append(f"{path.stem}.{name}({param.arg}: {ast.unparse(param.annotation)})")
            result.exact += exact
            result.containing += containing
            if exact:
                result.functions_exact.append(f"{path.stem}.{name}")
            if containing:
                result.functions_containing.append(f"{path.stem}.{name}")
    return result


def main(argv: list[str]) -> None:
    result = count()
    print(
        f"exact Any: {result.exact} parameters in {len(result.functions_exact)} functions; "
        f"annotations containing Any: {result.containing} in {len(result.functions_containing)} functions"
    )
    if "-v" in argv:
        for line in result.params:
            print("  " + line)


if __name__ == "__main__":
    main(sys.argv[1:])
