"""What goes into the frozen build, worked out from the source tree (used by packaging/campaign-app.spec).

No hand-kept lists of the app's own files: every module under ``campaign_app/`` (the CLI imports
``campaign_app.commands.*`` by name, the window its pages by name), every data folder that pyproject.toml
force-includes into the wheel (same place as in the wheel: ``campaign_app/_shipped/...``), every non-Python file
of the package (fonts, icons), and every module a migration imports (migrations are loaded by path at run time,
so PyInstaller's import scan never sees them). The Qt parts the app does not use are left out by
:func:`wanted_binary` / :func:`wanted_data` and, on Linux, :func:`prune_libraries` drops the system libraries
only those parts needed. Plain Python, no PyInstaller import: tests/packaging checks it without building.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path

_SKIP_SUFFIXES = (".py", ".pyc", ".pyo")


def _source_files(folder: Path) -> list[Path]:
    return [p for p in sorted(folder.rglob("*")) if p.is_file() and "__pycache__" not in p.parts]


def package_modules(root: Path, package: str = "campaign_app") -> list[str]:
    """Every importable module of the package, by dotted name."""
    names = []
    for path in _source_files(root / package):
        if path.suffix != ".py":
            continue
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


def package_data(root: Path, package: str = "campaign_app") -> list[tuple[str, str]]:
    """Every file of the package that is not Python (fonts, icons, py.typed), as (source, folder in the build)."""
    return [(str(p), p.parent.relative_to(root).as_posix()) for p in _source_files(root / package)
            if p.suffix not in _SKIP_SUFFIXES]


def shipped_data(root: Path) -> list[tuple[str, str]]:
    """The folders pyproject.toml force-includes into the wheel, with their Python files (the migrations), at the
    same place in the frozen build."""
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, str] = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    found = []
    for source, target in mapping.items():
        for path in _source_files(root / source):
            if path.suffix not in (".pyc", ".pyo"):
                found.append((str(path), (Path(target) / path.parent.relative_to(root / source)).as_posix()))
    return found


def imports_of_migrations(root: Path) -> list[str]:
    """Every module the migrations import (absolute imports; ``__future__`` is not a module to collect)."""
    names: set[str] = set()
    for path in sorted((root / "db" / "migrations").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    names.discard("__future__")
    return sorted(names)


# Qt modules the app never imports. It uses QtCore, QtGui, QtWidgets, QtPrintSupport, QtCharts, QtPdf and
# QtPdfWidgets (and what they link to: QtDBus, QtNetwork, QtOpenGL, QtOpenGLWidgets, QtSvg for the icons).
QT_UNUSED_MODULES = (
    "Qt3DAnimation", "Qt3DCore", "Qt3DExtras", "Qt3DInput", "Qt3DLogic", "Qt3DRender", "QtAxContainer",
    "QtBluetooth", "QtConcurrent", "QtDataVisualization", "QtDesigner", "QtGraphs", "QtGraphsWidgets", "QtHelp",
    "QtHttpServer", "QtLocation", "QtMultimedia", "QtMultimediaWidgets", "QtNetworkAuth", "QtNfc", "QtPositioning",
    "QtQml", "QtQuick", "QtQuick3D", "QtQuickControls2", "QtQuickTest", "QtQuickWidgets", "QtRemoteObjects",
    "QtScxml", "QtSensors", "QtSerialBus", "QtSerialPort", "QtSpatialAudio", "QtSql", "QtStateMachine", "QtTest",
    "QtTextToSpeech", "QtUiTools", "QtWebChannel", "QtWebEngineCore", "QtWebEngineQuick", "QtWebEngineWidgets",
    "QtWebSockets", "QtWebView", "QtXml",
)
# Python packages that are installed next to the app (tests, optional extras of libraries) but never used by it.
# Pillow stays (reportlab imports it at start), without its AVIF codec and Tk bridge (it runs without them).
NOT_SHIPPED = ("tkinter", "_tkinter", "pytest", "_pytest", "hypothesis", "pytestqt", "mypy", "IPython",
               "PIL._avif", "PIL._imagingtk", "PIL.ImageTk")

# Parts of Qt pulled in by plugins the app has no use for (matched in the path inside the build, any system):
# the virtual keyboard (drags in QML and Quick), the GTK theme (drags in the build machine's GTK), embedded
# platforms and input devices, network information and TLS back ends (no networking through Qt), PDF as an
# image format, and Qt's own translations (the app is in English and loads none).
QT_UNUSED_PARTS = (
    "qtvirtualkeyboardplugin", "Qt6VirtualKeyboard", "QtVirtualKeyboard", "Qt6Qml", "QtQml", "Qt6Quick", "QtQuick",
    "qgtk3", "/egldeviceintegrations/", "Qt6EglFS", "qeglfs", "qlinuxfb", "qminimalegl", "qvnc", "qvkkhrdisplay",
    "/generic/", "/networkinformation/", "/tls/", "imageformats/libqpdf", "imageformats/qpdf", "/translations/",
)


def _unused_part(dest: str) -> bool:
    dest = "/" + dest.replace("\\", "/")
    name = Path(dest).name.lower()
    return (dest.startswith("/PySide6/") and any(part.lower() in dest.lower() for part in QT_UNUSED_PARTS)
            or name.startswith(_UNUSED_LIBRARIES))


_UNUSED_LIBRARIES = ("libqt6qml", "libqt6quick", "libqt6virtualkeyboard", "libqt6eglfs", "qt6qml", "qt6quick",
                     "qt6virtualkeyboard")


def wanted_binary(dest: str) -> bool:
    return not _unused_part(dest)


def wanted_data(dest: str) -> bool:
    return not _unused_part(dest)


def _is_extension(dest: str) -> bool:
    name = Path(dest).name
    return ".cpython-" in name or ".abi3." in name or name.endswith(".pyd")


def prune_libraries(binaries: Iterable[tuple[str, str, str]],
                    needs: Callable[[str], Iterable[str]]) -> list[tuple[str, str, str]]:
    """Keep the libraries something kept needs (Linux): start from the Python extension modules, the Qt plugins
    and the Python library, follow ``needs(source)`` (the names it links to), drop the rest. ``binaries`` are
    PyInstaller's (dest, source, kind) entries."""
    entries = list(binaries)
    roots = [e for e in entries if _is_extension(e[0]) or "/plugins/" in "/" + e[0].replace("\\", "/")
             or Path(e[0]).name.startswith("libpython")]
    wanted: set[str] = set()
    for dest, source, _kind in roots:
        wanted.add(Path(dest).name)
        wanted.update(Path(n).name for n in needs(source))
    return [e for e in entries if e in roots or Path(e[0]).name in wanted]
