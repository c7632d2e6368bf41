"""Finding a campaign and a platoon by a name typed in another case: the indexed ``name_key`` look-up of
schema 4 against the look-up before it (exact match, then every row folded in Python), in the same run.

    python benchmarks/bench_name_lookup.py [--campaigns 2000]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchlib import median_ms


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--campaigns", type=int, default=2000)
    args = parser.parse_args()
    from campaign_app.services.names import campaign_id, platoon_id
    from campaign_app.store import close_db, init_db
    from campaign_app.store.journal import operation
    from campaign_app.store.models import Campaign, Platoon

    def old_by_name(query, field, name):  # type: ignore[no-untyped-def]
        """The look-up of schema 3 (services/common.py before 0004)."""
        exact = list(query.where(field == name).limit(2))
        if exact:
            return exact
        key = " ".join(str(name).split()).casefold()
        return [row for row in query if " ".join(getattr(row, field.name).split()).casefold() == key][:2]

    with tempfile.TemporaryDirectory() as tmp:
        init_db(Path(tmp) / "c.db", Path(tmp) / "b", daily_backup=False)
        with operation("bench.setup", "campaigns"):
            for i in range(args.campaigns):
                c = Campaign.create(name=f"Über Front {i:05d}", system="atomic_africa")
                Platoon.create(campaign=c, name=f"Straße {i:05d}", training=8, equipment=8, morale=8, armor=1)
        target = args.campaigns // 2
        typed_c, typed_p = f"über front {target:05d}", f"STRASSE {target:05d}"
        assert Campaign.get_by_id(campaign_id(typed_c)).name == f"Über Front {target:05d}"
        assert Platoon.get_by_id(platoon_id(typed_p)).name == f"Straße {target:05d}"
        old_c = median_ms(lambda: old_by_name(Campaign.select(), Campaign.name, typed_c), repeat=9)
        new_c = median_ms(lambda: campaign_id(typed_c), repeat=9)
        old_p = median_ms(lambda: old_by_name(Platoon.select(), Platoon.name, typed_p), repeat=9)
        new_p = median_ms(lambda: platoon_id(typed_p), repeat=9)
        close_db()
    print(f"{args.campaigns} campaigns, one platoon each; the name typed in another case")
    print(
        f"campaign: before (fold every row) {old_c:.2f} ms, name_key index {new_c:.2f} ms (ratio {old_c / new_c:.0f}x)"
    )
    print(
        f"platoon:  before (fold every row) {old_p:.2f} ms, name_key index {new_p:.2f} ms (ratio {old_p / new_p:.0f}x)"
    )


if __name__ == "__main__":
    main()
