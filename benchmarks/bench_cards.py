"""How long the whole shipped card set takes as one PDF (goal: under 2 s).

Run by hand:  python benchmarks/bench_cards.py [--size poker|tarot|index|a6] [--layout fronts|backs|fold]
Prints the time of a cold first build (fonts registered, decks read) and the best of a few warm builds.
"""

from __future__ import annotations

import argparse
import io
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", default="poker")
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--layout", default="fronts")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    t0 = time.perf_counter()
    from campaign_app.printing.cards import build_cards_pdf
    from campaign_app.printing.decks import load_decks, select_cards

    library = load_decks()
    cards = select_cards(library)
    out = io.BytesIO()
    result = build_cards_pdf(cards, out, decks=library, size=args.size, paper=args.paper, layout=args.layout)
    cold = time.perf_counter() - t0

    warm = []
    for _ in range(args.runs):
        t = time.perf_counter()
        library = load_decks()
        build_cards_pdf(
            select_cards(library), io.BytesIO(), decks=library, size=args.size, paper=args.paper, layout=args.layout
        )
        warm.append(time.perf_counter() - t)
    print(
        f"{result.cards} cards in {len(library.decks)} decks, {result.pages} pages "
        f"({args.size}, {args.paper}, {args.layout}), {len(out.getvalue()) / 1024:.0f} KiB"
    )
    print(f"cold (imports, fonts, decks, PDF): {cold:.2f} s   goal < 2 s   {'MET' if cold < 2 else 'NOT MET'}")
    print(
        f"warm (decks + PDF), best of {args.runs}: {min(warm):.2f} s; mean {sum(warm) / len(warm):.2f} s   "
        f"goal < 2 s   {'MET' if max(warm) < 2 else 'NOT MET'}"
    )


if __name__ == "__main__":
    main()
