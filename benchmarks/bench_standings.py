"""Campaign standings of a big league: 50 platoons, 2,000 battles (many fought between platoons of the
campaign, logged by both sides, some disputed).

    python benchmarks/bench_standings.py [--platoons 50] [--battles 2000] [--runs 9]

Figures, each with its goal:

- ``services.standings.standings`` (the whole table, head to head and disputed games, as the tab and the CLI
  ask for it): goal < 100 ms; beside it the raw floor, the same three SQL statements through ``sqlite3`` straight
  to tuples (the ratio is the cost of the service around its queries);
- the raw ``GROUP BY`` of the table alone (the plain aggregate every league table needs), for scale.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
from pathlib import Path

from benchlib import figure, paired_inprocess, summary


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--platoons", type=int, default=50)
    ap.add_argument("--battles", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()

    from campaign_app.paths import AppPaths
    from campaign_app.services import standings as st
    from campaign_app.store import init_db
    from tests import overview_gen

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        paths = AppPaths(tmp, tmp / "campaign.db").ensure()
        init_db(paths.db_file, paths.backup_dir)
        cid = overview_gen.atomic_africa(2026, platoons=args.platoons, battles=args.battles)
        result = st.standings(cid)
        print(
            f"{len(result.platoons)} platoons, {sum(p.battles for p in result.platoons)} battles, "
            f"{len(result.head_to_head)} head-to-head pairs, {result.disputed} disputed games"
        )
        raw = sqlite3.connect(paths.db_file)

        def raw_all() -> None:
            raw.execute("SELECT * FROM campaign WHERE id = ?", (cid,)).fetchall()
            raw.execute(st.PLATOONS_SQL, (cid,)).fetchall()
            raw.execute(st.DISPUTED_SQL, (cid,)).fetchall()
            raw.execute(st.HEAD_TO_HEAD_SQL, (cid,)).fetchall()

        def raw_table() -> None:
            raw.execute(st.PLATOONS_SQL, (cid,)).fetchall()

        times = paired_inprocess(
            {"service": lambda: st.standings(cid), "raw": raw_all, "table": raw_table}, repeat=args.runs
        )
        figure("standings (service, whole)", times["service"], goal_ms=100, base_ms=times["raw"], base_label="raw SQL")
        figure("raw GROUP BY of the table only", times["table"])
        raw.close()
    return summary()


if __name__ == "__main__":
    sys.exit(main())
