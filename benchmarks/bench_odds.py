"""Time the exact aftermath odds (RULES 1.2): recovery for W wound counters up to 200 (and beyond), leader's fate.

Run by hand:  python benchmarks/bench_odds.py
Each figure is the best of a few runs with the per-W cache cleared first (a cold computation), plus the time
of a warm call (cache hit) and of the CLI's decimal formatting. Goals: odds for 200 wounds under
0.1 s in-process; ``campaign-cli odds recovery --wounds 2000`` is timed as a whole command too, with how the
cold computation grows with W (the exponent k of time ~ W^k between W = 500 and 2000).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction

from campaign_app.rules import odds
from campaign_app.rules.experience import XP_MAX


def best_of(fn: Callable[[], object], repeat: int = 3, clear: bool = True) -> float:
    best = float("inf")
    for _ in range(repeat):
        if clear:
            odds._counters_left.cache_clear()
            odds.dice_sum_counts.cache_clear()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print(
        f"{'W':>6} {'X':>3} {'cold recovery_odds':>19} {'+ mean':>9} {'warm':>9} {'format':>9} {'outcomes':>8}  sum==1"
    )
    worst_200 = 0.0
    for wounds in (1, 7, 20, 50, 100, 150, 200, 500, 1000, 5000):
        for xp in (5, XP_MAX):
            cold = best_of(lambda w=wounds, x=xp: odds.recovery_odds(w, x))
            both = best_of(lambda w=wounds, x=xp: (odds.recovery_odds(w, x), odds.recovery_mean(w, x)))
            odds.recovery_odds(wounds, xp)
            warm = best_of(lambda w=wounds, x=xp: odds.recovery_odds(w, x), repeat=5, clear=False)
            dist = odds.recovery_odds(wounds, xp)
            fmt = best_of(lambda d=dist: odds.probability_strings(d), repeat=3, clear=False)
            total = sum(dist.values(), Fraction(0))
            if wounds <= 200:
                worst_200 = max(worst_200, both + fmt)
            print(
                f"{wounds:>6} {xp:>3} {cold * 1000:>16.2f} ms {both * 1000:>6.2f} ms {warm * 1000:>6.3f} ms "
                f"{fmt * 1000:>6.2f} ms {len(dist):>8}  {total == 1}"
            )
    # every W from 0 to 200 with XP 32, one after another (cold cache)
    odds._counters_left.cache_clear()
    start = time.perf_counter()
    for wounds in range(201):
        odds.recovery_odds(wounds, XP_MAX)
    sweep = time.perf_counter() - start
    leader = best_of(lambda: [odds.leader_odds(w, x) for w in range(0, 25) for x in range(0, 33)], clear=True)
    print(f"\nworst single answer for W <= 200 (odds + mean + formatting): {worst_200 * 1000:.1f} ms")
    print(f"all W = 0..200 at XP 32, cold: {sweep * 1000:.0f} ms in total")
    print(f"leader_odds for 25 x 33 (wounds, XP) pairs: {leader * 1000:.1f} ms")
    verdict = "MET" if worst_200 < 0.1 else "NOT MET"
    print(f"odds for 200 wounds (worst, in-process): {worst_200 * 1000:.1f} ms   goal < 100 ms   {verdict}")

    import math
    import subprocess
    import sys

    scale = {}
    for wounds in (250, 500, 1000, 2000):
        scale[wounds] = best_of(lambda w=wounds: (odds.recovery_odds(w, XP_MAX), odds.recovery_mean(w, XP_MAX)))
        print(f"recovery odds + mean, W = {wounds:>4}, XP 32, cold: {scale[wounds] * 1000:8.1f} ms")
    k = math.log(scale[2000] / scale[500]) / math.log(4)
    print(f"growth from W = 500 to 2000: x{scale[2000] / scale[500]:.1f} for x4 wounds (time ~ W^{k:.2f})")
    cmd = [sys.executable, "-m", "campaign_app.cli", "odds", "recovery", "--wounds", "2000", "--xp", "32"]
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        runs.append(time.perf_counter() - start)
    print(f"campaign-cli odds recovery --wounds 2000 --xp 32 (whole command): {min(runs) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
