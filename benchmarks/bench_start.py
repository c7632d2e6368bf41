"""Start-up times: the desktop window and the CLI, each against a baseline measured in the same run.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_start.py [--runs 9]

- ``campaign-app --screenshot`` (start to a painted, grabbed window: a new data folder, and one with the sample
  campaigns, whose navigator is filled before the first paint) against ``benchmarks/bare_window.py`` (a bare
  PySide6 window shown, waited for and grabbed the same way): goal <= 1.5x.
- ``campaign-cli --version`` and ``campaign-cli level --xp 6`` against ``python -c "import peewee"``: goal <= 2x
  (``python -c pass`` is printed for reference).
- Which heavy modules a started window and a built parser have loaded (reportlab, QtCharts, QtPdf: none).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchlib import ROOT, figure, paired_ms, summary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    py = sys.executable
    tmp = Path(tempfile.mkdtemp(prefix="bench-start-"))
    print(f"python {sys.version.split()[0]}, {args.runs} paired runs, medians\n")

    samples = tmp / "samples"  # a data folder with the sample campaigns: the navigator has the user's data
    subprocess.run([py, "-m", "campaign_app.cli", "--data-dir", str(samples), "demo"], check=True, capture_output=True)

    def app(data: Path, shot: str) -> list[str]:
        return [
            py,
            "-m",
            "campaign_app",
            "--data-dir",
            str(data),
            "--size",
            "1180x760",
            "--screenshot",
            str(tmp / shot),
        ]

    gui = paired_ms(
        {
            "bare": [py, str(ROOT / "benchmarks" / "bare_window.py"), str(tmp / "bare.png")],
            "app": app(tmp / "data", "app.png"),
            "samples": app(samples, "samples.png"),
        },
        repeat=args.runs,
    )
    figure(
        "campaign-app start to a painted, grabbed window",
        gui["app"],
        base_ms=gui["bare"],
        ratio_goal=1.5,
        base_label="bare window",
    )
    figure(
        "  the same with the sample campaigns",
        gui["samples"],
        base_ms=gui["bare"],
        ratio_goal=1.5,
        base_label="bare window",
    )

    cli = [py, "-m", "campaign_app.cli"]
    env_dir = ["--data-dir", str(tmp / "data")]
    times = paired_ms(
        {
            "pass": [py, "-c", "pass"],
            "peewee": [py, "-c", "import peewee"],
            "version": [*cli, "--version"],
            "level": [*cli, *env_dir, "level", "--xp", "6"],
        },
        repeat=args.runs,
    )
    print(f"{'python -c pass (reference)':<46} {times['pass']:9.1f} ms")
    figure(
        "campaign-cli --version", times["version"], base_ms=times["peewee"], ratio_goal=2.0, base_label="import peewee"
    )
    figure(
        "campaign-cli level --xp 6", times["level"], base_ms=times["peewee"], ratio_goal=2.0, base_label="import peewee"
    )

    code = (
        "import json, sys\n"
        "from campaign_app.cli import build_parser\n"
        "build_parser()\n"
        "import campaign_app.app as app\n"
        f"app.main(['--data-dir', {str(tmp / 'data')!r}, '--screenshot', {str(tmp / 'x.png')!r}])\n"
        "heavy = sorted({m.split('.')[0] if m.startswith('reportlab') else m for m in sys.modules\n"
        "                if m.startswith(('reportlab', 'PySide6.QtCharts', 'PySide6.QtPdf'))})\n"
        "print(json.dumps(heavy))\n"
    )
    out = subprocess.run([py, "-c", code], capture_output=True, text=True, check=True).stdout.strip().splitlines()
    heavy = json.loads(out[-1])
    print(f"\nheavy modules loaded by a started window and a built parser: {', '.join(heavy) or 'none'}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
