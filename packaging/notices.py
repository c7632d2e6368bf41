"""NOTICES.txt of the frozen build: every bundled component, its version and licence, then the licence texts.

Worked out from what PyInstaller put in (the spec writes ``contents.json``: the Python modules and the
libraries with their source paths): a module or library belongs to the installed distribution that owns the file
(its metadata gives the licence, its ``License-File`` entries the texts), to Python itself (the standard library,
libpython), or, on Debian-like Linux, to the system package that owns the library (``dpkg -S``; its
``/usr/share/doc/PACKAGE/copyright`` is the text). Anything left over is listed as "unknown" so that it is
seen, not hidden. Used by packaging/build.py.
"""

from __future__ import annotations

import importlib.metadata as md
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LICENCE_NAMES = ("LICENSE", "LICENCE", "COPYING", "NOTICE", "COPYRIGHT")


@dataclass
class Component:
    name: str
    version: str
    licence: str
    texts: list[Path] = field(default_factory=list)
    parts: set[str] = field(default_factory=set)


def _licence_of(dist: md.Distribution) -> str:
    meta = dist.metadata
    expression = meta["License-Expression"]
    if expression:
        return str(expression)
    classifiers = [c.split("::")[-1].strip() for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    text = (meta["License"] or "").strip()
    if text and len(text) < 80 and "\n" not in text and text.upper() != "UNKNOWN":
        return text
    return " / ".join(classifiers) or (text.splitlines()[0][:80] if text else "see the licence text")


def _licence_files(dist: md.Distribution) -> list[Path]:
    found = []
    for name in dist.files or []:
        base = Path(str(name)).name.upper()
        in_meta = ".dist-info" in str(name)
        if in_meta and (base.startswith(LICENCE_NAMES) or "/licenses/" in str(name).replace("\\", "/")):
            path = Path(str(dist.locate_file(name)))
            if path.is_file():
                found.append(path)
    return sorted(set(found))


def _distribution_files() -> dict[Path, md.Distribution]:
    owners: dict[Path, md.Distribution] = {}
    for dist in md.distributions():
        for name in dist.files or []:
            try:
                owners[Path(str(dist.locate_file(name))).resolve()] = dist
            except OSError:
                continue
    return owners


def _python_component() -> Component:
    texts = [p for p in (Path(sysconfig.get_path("stdlib")) / "LICENSE.txt",) if p.is_file()]
    return Component("Python", sys.version.split()[0], "PSF-2.0 (Python Software Foundation License)", texts)


def _dpkg_owners(paths: list[Path]) -> dict[Path, str]:
    """System library -> Debian package (one ``dpkg -S`` for all; the path as found, resolved, and under /lib
    as well as /usr/lib, since dpkg records the path the package installed)."""
    if not paths or shutil.which("dpkg") is None:
        return {}
    candidates: dict[str, Path] = {}
    for path in paths:
        for form in (str(path), str(path.resolve())):
            candidates.setdefault(form, path)
            candidates.setdefault(form.replace("/usr/lib/", "/lib/", 1), path)
    result = subprocess.run(["dpkg", "-S", *candidates], capture_output=True, text=True, timeout=120)
    owners: dict[Path, str] = {}
    for line in result.stdout.splitlines():
        packages, _, file = line.partition(": ")
        if file in candidates and not line.startswith("diversion"):
            owners.setdefault(candidates[file], packages.split(",")[0].split(":")[0].strip())
    return owners


def _dpkg_version(package: str) -> str:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True,
                            timeout=60)
    return result.stdout.strip() if result.returncode == 0 else ""


def _from_python(src: Path, prefixes: set[Path]) -> bool:
    """libpython, lib-dynload, and the libraries Python's own installer ships (its LICENSE covers them); with a
    system Python (prefix /usr) only the first two, the rest being the system's packages."""
    if src.name.lower().startswith(("libpython", "python3")) or "lib-dynload" in src.parts:
        return True
    return any(p in src.parents and p not in (Path("/usr"), Path("/usr/local"), Path("/")) for p in prefixes)


def collect(contents: dict[str, list[Any]]) -> list[Component]:
    from importlib.metadata import packages_distributions

    owners = _distribution_files()
    top_level = packages_distributions()
    stdlib = set(sys.stdlib_module_names)
    python = _python_component()
    components: dict[str, Component] = {"Python": python}

    def of_dist(dist: md.Distribution) -> Component:
        name = dist.metadata["Name"]
        if name not in components:
            components[name] = Component(name, dist.version, _licence_of(dist), _licence_files(dist))
        return components[name]

    for module in contents["modules"]:
        top = module.split(".")[0]
        if top == "campaign_app":
            continue
        if top in stdlib or top.startswith("_"):
            python.parts.add(top)
            continue
        for dist_name in top_level.get(top, []):
            of_dist(md.distribution(dist_name)).parts.add(top)
    system: list[Path] = []
    prefixes = {Path(p).resolve() for p in (sys.base_prefix, sys.base_exec_prefix)}
    for dest, source in contents["binaries"]:
        src = Path(source).resolve()
        dist = owners.get(src)
        if dist is not None:
            of_dist(dist).parts.add(Path(dest).name)
        elif _from_python(src, prefixes):
            python.parts.add(Path(dest).name)
        else:
            system.append(Path(source))
    packages = _dpkg_owners(system)
    for path in system:
        package = packages.get(path)
        if package is None:
            components.setdefault("unknown", Component("unknown (no package owns it)", "", "unknown")).parts.add(
                path.name)
            continue
        if package not in components:
            copyright_file = Path("/usr/share/doc") / package / "copyright"
            components[package] = Component(package, _dpkg_version(package), "see the Debian copyright file",
                                            [copyright_file] if copyright_file.is_file() else [])
        components[package].parts.add(path.name)
    return sorted(components.values(), key=lambda c: c.name.lower())


def write_notices(path: Path, contents: dict[str, list[Any]]) -> None:
    from campaign_app import __version__  # the checkout's package (build.py runs from it)

    components = collect(contents)
    fonts = ROOT / "campaign_app" / "printing" / "fonts" / "LICENSE-DejaVu.txt"
    lines = [
        f"Campaign App {__version__}: licences of the components bundled in this folder",
        "=" * 78,
        "",
        "Campaign App itself: MIT licence (see pyproject.toml of its source).",
        "DejaVu fonts (campaign_app/printing/fonts): Bitstream Vera / DejaVu licence, text below.",
        "Qt for Python (PySide6, shiboken6) and the Qt libraries are used under the LGPL-3.0: they are",
        "separate shared libraries in _internal/ and can be replaced with compatible builds.",
        "",
        f"{'Component':36} {'Version':24} Licence",
        f"{'-' * 36} {'-' * 24} {'-' * 20}",
    ]
    for c in components:
        lines.append(f"{c.name[:36]:36} {c.version[:24]:24} {c.licence}")
    lines += ["", "What each component provides in this folder:", ""]
    for c in components:
        lines.append(f"{c.name}: " + ", ".join(sorted(c.parts)) if c.parts else f"{c.name}:")
    texts: list[tuple[str, Path]] = [("DejaVu fonts", fonts)] if fonts.is_file() else []
    for c in components:
        texts += [(c.name, t) for t in c.texts]
    seen: set[Path] = set()
    for owner, text in texts:
        if text in seen:
            continue
        seen.add(text)
        lines += ["", "", "=" * 78, f"{owner}: {text.name}", "=" * 78, "",
                  text.read_text(encoding="utf-8", errors="replace").rstrip()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
