"""Time d12 Death Blow's engine (RULES 5.2): one recorded solo bout, and the odds estimate (20,000 seeded bouts).

Run by hand:  python benchmarks/bench_death_blow.py
The baseline, in the same run, is the bare cost of the odds' randomness: shuffling two 54-card decks and drawing
four d12 per round for as many rounds as the bouts played (what no engine can avoid). Goal: the estimate within
8x that baseline (the GUI runs it in a worker thread; the CLI prints it in a couple of seconds).
"""

from __future__ import annotations

import random

import benchlib  # noqa: F401 - sets up the path and the environment

from campaign_app.rules import death_blow as db

BOUTS = 20_000


def baseline(rounds: int) -> None:
    rng = random.Random(1)
    deck = list(range(54))
    for _ in range(BOUTS):
        a, b = deck[:], deck[:]
        rng.shuffle(a)
        rng.shuffle(b)
    r = rng.random
    for _ in range(rounds):
        int(r() * 12), int(r() * 12), int(r() * 12), int(r() * 12)


def main() -> int:
    rounds = sum(len(db.play_bout(5, 5, seed=i)[0].rounds) for i in range(200)) * BOUTS // 200
    times = benchlib.paired_inprocess(
        {
            "baseline": lambda: baseline(rounds),
            "odds": lambda: db.estimate_odds(5, 5, BOUTS, seed=0),
            "one bout": lambda: db.play_bout(5, 5, seed=7),
        },
        repeat=3,
    )
    benchlib.figure(f"odds estimate, {BOUTS:,} bouts", times["odds"], base_ms=times["baseline"], ratio_goal=8)
    benchlib.figure("one recorded solo bout", times["one bout"], goal_ms=50)
    return benchlib.summary()


if __name__ == "__main__":
    raise SystemExit(main())
