"""Shared helpers of the benchmarks: medians, paired subprocess runs, and one line per figure with its goal.

Times on a shared machine are noisy; every figure is the median of several runs and is compared with a
baseline measured in the same run (a bare Qt window, ``import peewee``, a small database, raw sqlite3), so the
ratio is the number to read."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")

RESULTS: list[tuple[str, bool | None]] = []


def median_ms(func: Callable[[], Any], repeat: int = 7, setup: Callable[[], Any] | None = None) -> float:
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def paired_inprocess(funcs: dict[str, Callable[[], Any]], repeat: int = 7) -> dict[str, float]:
    """Median time (ms) of each function, the functions run in turn ``repeat`` times after a warm-up, so
    that a busy moment of the machine hits each of them alike."""
    for func in funcs.values():
        func()
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(repeat):
        for name, func in funcs.items():
            start = time.perf_counter()
            func()
            times[name].append(time.perf_counter() - start)
    return {name: 1000 * statistics.median(t) for name, t in times.items()}


def child_env() -> dict[str, str]:
    """The environment of the timed commands: as an installed app runs, with compiled bytecode (a
    PYTHONDONTWRITEBYTECODE=1 in the shell would make every start compile campaign_app's sources again)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_ms(cmd: Sequence[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    result = subprocess.run(list(cmd), capture_output=True, text=True, env=env or child_env())
    spent = 1000 * (time.perf_counter() - start)
    if result.returncode != 0:
        raise SystemExit(f"benchmark command failed ({result.returncode}): {' '.join(cmd)}\n{result.stderr}")
    return spent


def paired_ms(
    commands: dict[str, Sequence[str]], repeat: int = 9, env: dict[str, str] | None = None
) -> dict[str, float]:
    """Median wall time of each command, the commands run in turn (paired) ``repeat`` times after a warm-up
    (which also leaves the compiled bytecode in place)."""
    for cmd in commands.values():
        run_ms(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, cmd in commands.items():
            times[name].append(run_ms(cmd, env))
    return {name: statistics.median(t) for name, t in times.items()}


def figure(
    label: str,
    value_ms: float,
    *,
    goal_ms: float | None = None,
    base_ms: float | None = None,
    ratio_goal: float | None = None,
    base_label: str = "baseline",
) -> None:
    """One line: the figure, its baseline and ratio, the goal, and whether it is met."""
    bits = [f"{label:<46} {value_ms:9.1f} ms"]
    ok: bool | None = None
    if base_ms is not None:
        ratio = value_ms / base_ms if base_ms else float("inf")
        bits.append(f"{base_label} {base_ms:8.1f} ms  ratio {ratio:5.2f}")
        if ratio_goal is not None:
            bits.append(f"goal <= {ratio_goal:g}x")
            ok = ratio <= ratio_goal
    if goal_ms is not None:
        bits.append(f"goal < {goal_ms:g} ms")
        ok = (ok is not False) and value_ms < goal_ms
    if ok is not None:
        bits.append("MET" if ok else "NOT MET")
    RESULTS.append((label, ok))
    print("  ".join(bits), flush=True)


def summary() -> int:
    missed = [label for label, ok in RESULTS if ok is False]
    print(
        f"\n{len([1 for _, ok in RESULTS if ok])} goals met, {len(missed)} not met"
        + (f": {', '.join(missed)}" if missed else "")
    )
    return 0
