"""The standalone download, tested as a player runs it (slow: builds it with PyInstaller, ~1-2 min).

``python packaging/build.py`` makes the .tar.gz (.zip on Windows); it is unpacked into an empty home folder and
its programs are run with an empty environment (only HOME, and the Qt platform or DISPLAY for the window: no PATH,
no Python, no virtual environment), as ``env -i`` would: the commands a player uses, the PDFs (only the shipped
DejaVu fonts, embedded), the window offscreen and, on Linux, on X11 under Xvfb and the menu-entry script. Any
traceback, on the terminal or in the app's log files, fails the test. The same tests run on the Windows and macOS
runners of .github/workflows/standalone.yml (there a few variables Windows cannot start without are kept, and
the data folder is given with CAMPAIGN_APP_DATA_DIR).

PyInstaller comes with ``pip install ".[build]"``; Xvfb with the system's xvfb package. Without them these tests
are skipped with the reason shown, except when CAMPAIGN_APP_FROZEN_TEST=required (as .ci/run sets it): then they
fail. CAMPAIGN_APP_TEST_XVFB_DISPLAY=N makes the X11 test use display :N (else Xvfb picks a free one).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from campaign_app import __version__
from tests.printing.sheet_pdf_checks import assert_fonts_embedded, text

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("CAMPAIGN_APP_FROZEN_TEST") == "required"
FOLDER = f"campaign-app-{__version__}"
RUN_TIMEOUT = 120
LINUX = sys.platform.startswith("linux")
WINDOWS = sys.platform == "win32"


def _load_build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("packaging_build", ROOT / "packaging" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _load_build()


def _missing(what: str) -> None:
    if REQUIRED:
        pytest.fail(f"{what} (CAMPAIGN_APP_FROZEN_TEST=required)")
    pytest.skip(what)


@pytest.fixture(scope="module")
def download(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("PyInstaller") is None:
        _missing('PyInstaller is not installed (pip install ".[build]")')
    out = tmp_path_factory.mktemp("frozen")
    started = time.monotonic()
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "packaging" / "build.py"),
            "--dist",
            str(out / "dist"),
            "--work",
            str(out / "work"),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    print(f"\nbuild: {time.monotonic() - started:.0f} s\n{result.stdout}")
    archives = [p for p in (out / "dist").iterdir() if p.is_file()]
    assert [a.name for a in archives] == [build.archive_name()]
    if LINUX:
        assert archives[0].name == f"{FOLDER}-linux-{build.platform_tag().split('-')[1]}.tar.gz"
    return archives[0]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new player's empty home folder (the download is unpacked into Downloads/)."""
    path = tmp_path_factory.mktemp("player") / "home"
    (path / "Downloads").mkdir(parents=True)
    return path


@pytest.fixture(scope="module")
def unpacked(download: Path, home: Path) -> Path:
    if download.suffix == ".zip":
        with zipfile.ZipFile(download) as zf:
            names = zf.namelist()
            zf.extractall(home / "Downloads")
    else:
        with tarfile.open(download) as tf:
            names = tf.getnames()
            tf.extractall(home / "Downloads", filter="tar")
    assert all(n.rstrip("/") == FOLDER or n.startswith(FOLDER + "/") for n in names), sorted(
        {n.split("/")[0] for n in names}
    )
    return home / "Downloads" / FOLDER


def data_folder(home: Path) -> Path:
    """Where the programs keep the data: the platform's user data folder (Linux, macOS), found from HOME alone;
    on Windows the folder comes from the system, not HOME, so the tests name one."""
    if WINDOWS:
        return home / "AppData" / "Local" / "campaign_app"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "campaign_app"
    return home / ".local" / "share" / "campaign_app"


def base_env(home: Path) -> dict[str, str]:
    env = {"HOME": str(home)}
    if WINDOWS:  # Windows programs cannot start without SYSTEMROOT; the user's folders come from the system
        env.update({k: os.environ[k] for k in ("SYSTEMROOT", "WINDIR", "TEMP", "TMP") if k in os.environ})
        env.update(USERPROFILE=str(home), CAMPAIGN_APP_DATA_DIR=str(data_folder(home)))
    return env


def run(
    unpacked: Path, home: Path, program: str, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> str:
    """Runs one program of the download with an empty environment (only HOME and ``env``); returns stdout.
    Fails on a non-zero exit status or a traceback anywhere in its output."""
    path = unpacked / program if program == "install-desktop" else build.program(unpacked, program)
    result = subprocess.run(
        [str(path), *args],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        env={**base_env(home), **(env or {})},
        cwd=cwd or home,
    )
    shown = f"{program} {' '.join(args)} -> {result.returncode}\n{result.stdout}\n{result.stderr}"
    assert result.returncode == 0, shown
    assert "Traceback" not in result.stdout + result.stderr, shown
    assert "No module named" not in result.stderr, shown
    return result.stdout


def assert_no_traceback_in_logs(home: Path) -> None:
    logs = list((data_folder(home) / "logs").glob("*.log*"))
    assert logs, "the app wrote no log file"
    for log in logs:
        content = log.read_text(encoding="utf-8", errors="replace")
        assert "Traceback" not in content, f"{log}:\n{content[-3000:]}"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def all_files(folder: Path) -> list[Path]:
    """Every file below ``folder``, through symbolic links (the macOS .app links its data folders)."""
    found = []
    for base, _dirs, files in os.walk(folder, followlinks=True):
        found += [Path(base) / f for f in files]
    return found


def test_download_is_one_folder_with_both_programs_and_everything_shipped(download: Path, unpacked: Path):
    for name in ("campaign-app", "campaign-cli"):
        assert os.access(build.program(unpacked, name), os.X_OK), name
    for name in ("README.txt", "NOTICES.txt", "io.github.campaign_app.CampaignApp.metainfo.xml"):
        assert (unpacked / name).is_file(), name
    if LINUX:
        assert os.access(unpacked / "install-desktop", os.X_OK)
    package = build.bundle_dir(unpacked) / "campaign_app"
    shipped = package / "_shipped"
    migrations = sorted(p.name for p in (ROOT / "db" / "migrations").glob("*.py"))
    assert sorted(p.name for p in (shipped / "db" / "migrations").glob("*.py")) == migrations
    decks = sorted(p.parent.name for p in (ROOT / "templates").glob("*/deck.toml"))
    assert sorted(p.parent.name for p in (shipped / "templates").glob("*/deck.toml")) == decks
    assert (shipped / "guide" / "user-guide.md").is_file()
    info = json.loads((shipped / "build-info.json").read_text())
    assert info["version"] == __version__ and info["built"].endswith("UTC")
    assert (package / "printing" / "fonts" / "DejaVuSans.ttf").is_file()
    assert (package / "icons" / "campaign-app.svg").is_file()
    bundled = " ".join(p.name.lower() for p in all_files(unpacked))
    for unused in (
        "qt6qml",
        "qtqml",
        "qt6quick",
        "qtquick",
        "virtualkeyboard",
        "webengine",
        "qgtk3",
        "libgtk-3",
        "qtbase_de.qm",
    ):
        assert unused not in bundled, unused
    platform_plugin = {"win32": "qwindows", "darwin": "libqcocoa"}.get(sys.platform, "libqxcb")
    for used in ("widgets", "charts", "pdf", platform_plugin, "qoffscreen", "qsvgicon", "dejavusans.ttf"):
        assert used in bundled, used
    if LINUX:
        assert "libqwayland" in bundled and "libcupsprintersupport" in bundled
    notices = (unpacked / "NOTICES.txt").read_text(encoding="utf-8")
    for component in ("PySide6", "Python", "reportlab", "peewee", "platformdirs", "shiboken6", "pillow"):
        assert f"\n{component.lower()} " in notices.lower(), component
    if LINUX:  # every library is owned by an installed Python package, Python itself or a Debian package
        assert "unknown (no package owns it)" not in notices
    readme = (unpacked / "README.txt").read_text(encoding="utf-8")
    assert "./install-desktop" in readme and "NOTICES.txt" in readme
    size_mb = sum(p.lstat().st_size for p in unpacked.rglob("*") if not p.is_dir() or p.is_symlink()) / 1e6
    print(f"\nfolder {size_mb:.0f} MB, download {download.stat().st_size / 1e6:.0f} MB")


def test_commands_work_with_an_empty_environment(unpacked: Path, home: Path):
    out = run(unpacked, home, "campaign-cli", "--version")
    assert out.startswith(f"campaign-cli {__version__} (built ") and "UTC" in out
    if not WINDOWS:  # the Windows window program has no console to print to
        assert run(unpacked, home, "campaign-app", "--version").startswith(f"campaign-app {__version__} (built ")
    assert "created campaign" in run(unpacked, home, "campaign-cli", "demo")
    assert (data_folder(home) / "campaign.db").is_file()  # the platform's data folder, found without any setting
    assert "OK" in run(unpacked, home, "campaign-cli", "check")
    logged = json.loads(
        run(
            unpacked,
            home,
            "campaign-cli",
            "battle",
            "log",
            "--platoon",
            "2nd Platoon",
            "--wounds",
            "3",
            "--leader-wounds",
            "1",
            "--outcome",
            "victory",
            "--seed",
            "7",
            "--json",
        )
    )
    assert logged["platoon"]["xp_after"] == logged["platoon"]["xp_before"] + logged["platoon"]["award"]
    assert "Undone: Log battle" in run(unpacked, home, "campaign-cli", "undo")
    assert "Redone" in run(unpacked, home, "campaign-cli", "redo")
    out_dir = home / "Documents"
    out_dir.mkdir(exist_ok=True)
    run(unpacked, home, "campaign-cli", "print", "cards", "-o", str(out_dir / "cards.pdf"))
    run(unpacked, home, "campaign-cli", "print", "sheet", "--platoon", "2nd Platoon", "-o", str(out_dir / "sheet.pdf"))
    for pdf in ("cards.pdf", "sheet.pdf"):
        content = (out_dir / pdf).read_bytes()
        assert_fonts_embedded(content)  # every font embedded, and only the shipped DejaVu ones
    assert "2nd Platoon" in text((out_dir / "sheet.pdf").read_bytes())
    run(
        unpacked, home, "campaign-cli", "export", "--campaign", "Congo 1960 (sample)", "-o", str(out_dir / "congo.json")
    )
    run(unpacked, home, "campaign-cli", "import", str(out_dir / "congo.json"), "--as", "Congo again")
    assert "Congo again" in run(unpacked, home, "campaign-cli", "campaign", "list")
    assert "OK" in run(unpacked, home, "campaign-cli", "check")
    assert_no_traceback_in_logs(home)


def test_window_offscreen(unpacked: Path, home: Path):
    shot = home / "offscreen.png"
    run(
        unpacked,
        home,
        "campaign-app",
        "--screenshot",
        str(shot),
        "--size",
        "1280x800",
        env={"QT_QPA_PLATFORM": "offscreen"},
    )
    assert png_size(shot) == (1280, 800)
    assert_no_traceback_in_logs(home)


@pytest.fixture(scope="module")
def x_display(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not LINUX:
        pytest.skip("X11 is the Linux desktop's")
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        _missing("Xvfb is not installed (apt-get install xvfb)")
    assert xvfb is not None
    wanted = os.environ.get("CAMPAIGN_APP_TEST_XVFB_DISPLAY")
    read_fd, write_fd = os.pipe()
    args = [xvfb, f":{wanted}"] if wanted else [xvfb, "-displayfd", str(write_fd)]
    server = subprocess.Popen(
        [*args, "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    os.close(write_fd)
    try:
        if wanted:
            display = f":{wanted}"
            socket = Path(f"/tmp/.X11-unix/X{wanted}")
            deadline = time.monotonic() + 20
            while not socket.exists() and server.poll() is None and time.monotonic() < deadline:
                time.sleep(0.1)
        else:
            with os.fdopen(read_fd) as pipe:
                display = ":" + pipe.readline().strip()
        if server.poll() is not None or display == ":":
            pytest.fail(f"Xvfb did not start: {server.stderr.read().decode() if server.stderr else ''}")
        yield display
    finally:
        if wanted:
            os.close(read_fd)
        server.terminate()
        server.wait(timeout=20)
        if server.stderr is not None:
            server.stderr.close()


def test_window_on_x11(unpacked: Path, home: Path, x_display: str):
    shot = home / "x11.png"
    run(
        unpacked,
        home,
        "campaign-app",
        "--screenshot",
        str(shot),
        "--size",
        "1280x800",
        "--palette",
        "dark",
        env={"DISPLAY": x_display, "QT_QPA_PLATFORM": "xcb"},
    )
    assert png_size(shot) == (1280, 800)
    assert_no_traceback_in_logs(home)


@pytest.mark.skipif(not LINUX, reason="the menu entry script is for Linux desktops")
def test_install_desktop_points_the_menu_at_the_download(unpacked: Path, home: Path):
    out = run(unpacked, home, "install-desktop")
    entry = home / ".local" / "share" / "applications" / "campaign-app.desktop"
    assert str(entry) in out
    lines = entry.read_text(encoding="utf-8").splitlines()
    assert f"Exec={unpacked.resolve() / 'campaign-app'}" in lines
    assert (home / ".local" / "share" / "icons" / "hicolor" / "scalable" / "apps" / "campaign-app.svg").is_file()
    validate = shutil.which("desktop-file-validate")
    if validate is not None:
        result = subprocess.run([validate, str(entry)], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr
    run(unpacked, home, "install-desktop", "--uninstall")
    assert not entry.exists()
