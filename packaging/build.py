"""Build the standalone download: ``python packaging/build.py`` (after ``pip install ".[build]"``).

Runs PyInstaller on packaging/campaign-app.spec and writes, for this computer's system and processor,
``dist/campaign-app-VERSION-linux-x86_64.tar.gz`` (``.zip`` on Windows, ``-macos-arm64.tar.gz`` on a Mac):
one folder ``campaign-app-VERSION/`` holding both programs (``campaign-app``, ``campaign-cli``), a README for
players, the licences of everything bundled (NOTICES.txt), the AppStream metadata and, on Linux, the
``install-desktop`` script that adds the menu entry. Exit status 0 built, 2 something to install first,
1 the build failed (the end of PyInstaller's log is shown).

Options: ``--dist DIR`` (default dist/), ``--work DIR`` (PyInstaller's cache, default build/frozen),
``--no-archive`` (only the folder), ``--all-qt`` (keep every Qt module, to measure what leaving them out saves).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import stat
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
SPEC = PACKAGING / "campaign-app.spec"
NAME = "campaign-app"
APP_BUNDLE = "Campaign App.app"  # macOS only


def version() -> str:
    namespace: dict[str, object] = {}
    exec((ROOT / "campaign_app" / "__init__.py").read_text(encoding="utf-8"), namespace)
    return str(namespace["__version__"])


def platform_tag() -> str:
    system = {"linux": "linux", "win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    return f"{system}-{machine}"


def programs_dir(folder: Path) -> Path:
    """Where ``campaign-app`` and ``campaign-cli`` are inside an unpacked download."""
    if sys.platform == "darwin":
        return folder / APP_BUNDLE / "Contents" / "MacOS"
    return folder


def program(folder: Path, name: str) -> Path:
    """The path of one program (``campaign-app`` or ``campaign-cli``) inside an unpacked download."""
    return programs_dir(folder) / (f"{name}.exe" if sys.platform == "win32" else name)


def bundle_dir(folder: Path) -> Path:
    """The folder holding the bundled libraries and data (``sys._MEIPASS`` of the programs)."""
    if sys.platform == "darwin":
        return folder / APP_BUNDLE / "Contents" / "Frameworks"
    return folder / "_internal"


def archive_name(tag: str | None = None) -> str:
    suffix = ".zip" if sys.platform == "win32" else ".tar.gz"
    return f"{NAME}-{version()}-{tag or platform_tag()}{suffix}"


ICON_SCRIPT = """
import sys
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
app = QGuiApplication([])
image = QImage(256, 256, QImage.Format.Format_ARGB32)
image.fill(Qt.GlobalColor.transparent)
painter = QPainter(image)
QSvgRenderer(sys.argv[1]).render(painter)
painter.end()
sys.exit(0 if image.save(sys.argv[2]) else 1)
"""


def render_icon(work: Path) -> Path:
    """The app's SVG icon as a 256 px PNG, for the Windows .exe and the macOS .app (PyInstaller converts it
    with Pillow)."""
    out = work / "icon" / "campaign-app.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    svg = ROOT / "campaign_app" / "icons" / "campaign-app.svg"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([sys.executable, "-c", ICON_SCRIPT, str(svg), str(out)], env=env, check=True, timeout=120)
    return out


def folder_size(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() or p.is_symlink())


def run_pyinstaller(work: Path, all_qt: bool) -> Path:
    """Runs PyInstaller; returns the folder it collected (``NAME/``, or the macOS ``.app`` beside it)."""
    log_file = work / "pyinstaller.log"
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    if sys.platform in ("win32", "darwin"):
        env["CAMPAIGN_APP_ICON"] = str(render_icon(work))
    if all_qt:
        env["CAMPAIGN_APP_ALL_QT"] = "1"
    else:
        env.pop("CAMPAIGN_APP_ALL_QT", None)
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
               "--distpath", str(work / "dist"), "--workpath", str(work / "work"), str(SPEC)]
    with log_file.open("w", encoding="utf-8") as log:
        result = subprocess.run(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        tail = log_file.read_text(encoding="utf-8", errors="replace").splitlines()[-30:]
        print("\n".join(tail), file=sys.stderr)
        raise SystemExit(f"build.py: PyInstaller failed (exit {result.returncode}); the whole log is {log_file}")
    return work / "dist"


def assemble(collected: Path, work: Path, target: Path) -> None:
    """The download's folder: the programs and their files, then what a player reads and runs first."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    if sys.platform == "darwin":
        shutil.move(str(collected / APP_BUNDLE), target / APP_BUNDLE)
    else:
        for item in (collected / NAME).iterdir():
            shutil.move(str(item), target / item.name)
    shutil.copyfile(PACKAGING / "README-download.txt", target / "README.txt")
    metainfo = PACKAGING / "io.github.campaign_app.CampaignApp.metainfo.xml"
    if metainfo.exists():
        shutil.copyfile(metainfo, target / metainfo.name)
    if sys.platform.startswith("linux"):
        script = target / "install-desktop"
        shutil.copyfile(PACKAGING / "install-desktop.sh", script)
        script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    from notices import write_notices  # packaging/notices.py

    contents = json.loads((work / "work" / NAME / "contents.json").read_text(encoding="utf-8"))
    write_notices(target / "NOTICES.txt", contents)


def archive(folder: Path, dist: Path) -> Path:
    out = dist / archive_name()
    if sys.platform == "win32":
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
            for path in sorted(folder.rglob("*")):
                zf.write(path, path.relative_to(folder.parent).as_posix())
        return out
    with tarfile.open(out, "w:gz", compresslevel=6) as tf:
        tf.add(folder, arcname=folder.name)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="packaging/build.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the download is written (dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "frozen", help="PyInstaller's work folder")
    parser.add_argument("--no-archive", action="store_true", help="only the folder, no .tar.gz / .zip")
    parser.add_argument("--all-qt", action="store_true", help="keep every Qt module (for measuring)")
    args = parser.parse_args(argv)
    import importlib.util

    if importlib.util.find_spec("PyInstaller") is None:
        print('build.py: PyInstaller is not installed; install the build tools with: pip install ".[build]"',
              file=sys.stderr)
        return 2
    sys.path.insert(0, str(PACKAGING))
    started = time.monotonic()
    collected = run_pyinstaller(args.work.resolve(), args.all_qt)
    frozen_s = time.monotonic() - started
    dist = args.dist.resolve()
    dist.mkdir(parents=True, exist_ok=True)
    folder = dist / f"{NAME}-{version()}"
    assemble(collected, args.work.resolve(), folder)
    size = folder_size(folder)
    print(f"folder   {folder}  ({size / 1e6:.0f} MB; PyInstaller {frozen_s:.0f} s)")
    if not args.no_archive:
        out = archive(folder, dist)
        print(f"download {out}  ({out.stat().st_size / 1e6:.0f} MB)")
    print(f"built in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
