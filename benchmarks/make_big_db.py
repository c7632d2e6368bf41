"""Build a big campaign database through the real services, for the size benchmarks.

    python benchmarks/make_big_db.py --platoons 200 --battles 250 -o /tmp/big.db

Each platoon gets its leader, an attached team, two weapons and its battles logged with ``log_battle`` (the
app's dice, seeded: the same file every time), one operation (one transaction) per platoon (a batch); leaders
fall and are replaced as the rolls say. Campaigns hold 20 platoons each. A Sologear campaign with a few turns is
added too. A progress line shows platoons done, battles a second and the time left. 200 x 250 takes 10-15
minutes on a busy 2-core machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PER_CAMPAIGN = 20


def build(path: Path, platoons: int, battles_each: int, quiet: bool = False) -> dict[str, float]:
    from campaign_app.rules.dice import SeededDice, TypedDice
    from campaign_app.services import attachments as attachment_service
    from campaign_app.services import battles, campaigns
    from campaign_app.services import platoons as platoon_service
    from campaign_app.services import sologear_play as play_service
    from campaign_app.services import sologear_sheet as sheet_service
    from campaign_app.store import close_db, init_db
    from campaign_app.store.journal import operation

    if path.exists():
        raise SystemExit(f"make_big_db: {path} exists; remove it or pick another name")
    path.parent.mkdir(parents=True, exist_ok=True)
    init_db(path, path.parent / (path.stem + "-backups"))
    dice = SeededDice(13)
    start = time.perf_counter()
    total = platoons * battles_each
    camp_id = None
    for i in range(platoons):
        with operation("bench.platoon", f"Big database: platoon {i + 1}"):  # one transaction per platoon
            if i % PER_CAMPAIGN == 0:
                camp_id = campaigns.create_campaign(f"Campaign {i // PER_CAMPAIGN + 1:03d}", "atomic_africa").id
            p = platoon_service.create_platoon(
                camp_id,
                f"Platoon {i + 1:04d}",
                training=8,
                equipment=10,
                morale=8,
                armor=2,
                xp=i % 7,
                leader_name=f"Lt. Start {i + 1}",
                leader_xp=i % 5,
            )
            team = attachment_service.add_attached(
                p.id, "Weapons team", "team", training=8, equipment=10, morale=8, armor=2
            )
            attachment_service.add_equipment(
                p.id, "Medium machine gun", attached=team.result.unit.id, targets="dispersed"
            )
            attachment_service.add_equipment(p.id, "Recoilless rifle", targets="point", ap=-2, ap_vs="point")
            for n in range(battles_each):
                wounds = (n * 7 + i) % 13
                battles.log_battle(
                    p.id,
                    wounds=wounds,
                    leader_wounds=min((n * 5 + i) % 8, wounds),
                    objectives=n % 3,
                    outcome=battles.OUTCOMES[(n + i) % 3],
                    scenario=f"Scenario {n + 1}",
                    opponent=f"Enemy {n % 11 + 1}",
                    dice=dice,
                    replacement_name=f"Lt. {i + 1}-{n + 1}",
                )
        done = (i + 1) * battles_each
        spent = time.perf_counter() - start
        if not quiet:
            rate = done / spent if spent else 0.0
            left = (total - done) / rate if rate else 0.0
            print(
                f"\r{i + 1}/{platoons} platoons, {done}/{total} battles, {rate:.0f} battles/s, "
                f"about {left:.0f} s left   ",
                end="",
                file=sys.stderr,
                flush=True,
            )
    with operation("bench.sologear", "Big database: a Sologear campaign"):
        sheet = sheet_service.create_sheet(
            "Big Sologear",
            "Janne",
            250,
            date="TN1932",
            area="Badlands hill",
            gear_name="Hunter",
            player_unit="Janne's Regiment",
            player_affiliation="Northern",
            enemy_unit="Johnboy's Company",
            enemy_affiliation="Southern",
        )
        sheet_service.add_force(sheet.id, "player", "1st Company", base_power=350, skill="regular", loyalty="reliable")
        sheet_service.add_force(sheet.id, "enemy", "Johnboy's Company", base_power=400, skill="veteran", loyalty="firm")
        play_service.roll_length(sheet.id, TypedDice([[5]]))
    close_db()
    spent = time.perf_counter() - start
    if not quiet:
        print(file=sys.stderr)
    return {"seconds": spent, "battles": total, "bytes": path.stat().st_size}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--platoons", type=int, default=200)
    ap.add_argument("--battles", type=int, default=250, help="battles per platoon")
    ap.add_argument("-o", "--output", required=True, type=Path, metavar="FILE")
    ap.add_argument("--quiet", action="store_true", help="no progress line")
    args = ap.parse_args(argv)
    if args.platoons < 1 or args.battles < 0:
        ap.error("--platoons must be 1 or more and --battles 0 or more")
    result = build(args.output, args.platoons, args.battles, args.quiet)
    print(
        f"wrote {args.output}: {args.platoons} platoons x {args.battles} battles in {result['seconds']:.0f} s "
        f"({result['bytes'] / 2**20:.1f} MiB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
