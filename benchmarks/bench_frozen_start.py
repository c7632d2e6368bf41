"""Start-up of the standalone (frozen) build against the same code run from the virtual environment.

    python packaging/build.py --no-archive          # once: dist/campaign-app-VERSION/
    QT_QPA_PLATFORM=offscreen python benchmarks/bench_frozen_start.py [FOLDER] [--runs 9]

- the window: ``campaign-app --screenshot`` (start to a painted, grabbed window, empty data folder), the frozen
  program against ``python -m campaign_app``: goal <= 1.5x (a download should not feel slower than pip);
- the CLI: ``campaign-cli --version`` and ``campaign-cli level --xp 6``, frozen against ``python -m
  campaign_app.cli``: printed with their ratio (a frozen program unpacks nothing, so it should be close).
Paired runs, medians; the first run of each (cold caches) is left out.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from benchlib import ROOT, figure, paired_ms, summary

sys.path.insert(0, str(ROOT / "packaging"))
import build  # noqa: E402  # packaging/build.py: where the programs are in the folder


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=ROOT / "dist" / f"{build.NAME}-{build.version()}",
        help="the unpacked download (default dist/campaign-app-VERSION)",
    )
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    app, cli = build.program(args.folder, "campaign-app"), build.program(args.folder, "campaign-cli")
    if not app.exists():
        raise SystemExit(f"no frozen build at {args.folder}: run python packaging/build.py --no-archive first")
    py = sys.executable
    tmp = Path(tempfile.mkdtemp(prefix="bench-frozen-"))
    print(f"python {sys.version.split()[0]}, frozen build {args.folder}, {args.runs} paired runs, medians\n")

    def window(*program: str, name: str) -> list[str]:
        return [*program, "--data-dir", str(tmp / name), "--size", "1180x760", "--screenshot", str(tmp / f"{name}.png")]

    gui = paired_ms(
        {"venv": window(py, "-m", "campaign_app", name="venv"), "frozen": window(str(app), name="frozen")},
        repeat=args.runs,
    )
    figure(
        "frozen campaign-app start (painted window)",
        gui["frozen"],
        base_ms=gui["venv"],
        ratio_goal=1.5,
        base_label="venv",
    )
    times = paired_ms(
        {
            "venv-version": [py, "-m", "campaign_app.cli", "--version"],
            "frozen-version": [str(cli), "--version"],
            "venv-level": [py, "-m", "campaign_app.cli", "--data-dir", str(tmp / "venv"), "level", "--xp", "6"],
            "frozen-level": [str(cli), "--data-dir", str(tmp / "frozen"), "level", "--xp", "6"],
        },
        repeat=args.runs,
    )
    figure("frozen campaign-cli --version", times["frozen-version"], base_ms=times["venv-version"], base_label="venv")
    figure("frozen campaign-cli level --xp 6", times["frozen-level"], base_ms=times["venv-level"], base_label="venv")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
