"""``campaign-cli backup [list] | restore FILE | export | import``: backups of the database and the portable
campaign file.

``backup`` makes a backup now (SQLite's backup API: safe while the GUI or another command is writing);
``backup list`` lists them (file, time, reason, size, campaigns, battles); ``restore FILE`` checks the file,
backs up the current database and puts FILE's content in its place. ``export --campaign NAME -o FILE`` writes
one campaign whole as versioned JSON; ``import FILE [--as NEW_NAME]`` reads it back in one transaction.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..words import plural
from . import lookup
from .base import Context, add_json, emit

if TYPE_CHECKING:
    from ..services.backups import Backup
    from ..services.portable import TableCounts


def _size(n: Any) -> str:
    if not isinstance(n, int):
        return "?"
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)  # pragma: no cover


def _backup_line(b: Backup) -> str:
    facts = (
        f"{plural(b.campaigns or 0, 'campaign')}, {plural(b.battles or 0, 'battle')}"
        if b.good
        else f"NOT USABLE: {b.problem}"
    )
    return f"{b.time.isoformat(timespec='seconds')}  {b.reason:<8} {_size(b.size):>10}  {facts}  {b.file}"


def _contents(counts: TableCounts) -> str:
    return (
        f"{plural(counts.platoon, 'platoon')}, {plural(counts.battle, 'battle')}, "
        f"{plural(counts.sologear_sheet, 'Sologear sheet')}, {plural(counts.roll, 'roll')}"
    )


def _cmd_backup(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import backups

    ctx.open_db(daily_backup=False, reading=True)
    if args.action == "list":
        items = backups.backups()
        return emit(
            args, [b.to_dict() for b in items], lambda: "\n".join(_backup_line(b) for b in items) or "no backups yet"
        )
    info = backups.backup_now("manual")
    return emit(
        args,
        info.to_dict(),
        f"backed up to {info.file} ({_size(info.size)}, "
        f"{plural(info.campaigns or 0, 'campaign')}, "
        f"{plural(info.battles or 0, 'battle')})",
    )


def _cmd_restore(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import backups
    from ..store.errors import ForeignWalError

    try:
        ctx.open_db(daily_backup=False)
    except ForeignWalError:  # a -wal that is not the file's own: restoring is the way out
        result = backups.restore_unopened(ctx.paths.db_file, ctx.paths.backup_dir, args.file, ctx.busy_timeout)
    else:
        result = backups.restore(args.file)
    return emit(
        args,
        result.to_dict(),
        f"restored {result.database} from {result.restored_from} "
        f"({plural(result.campaigns, 'campaign')}, "
        f"{plural(result.battles, 'battle')}); the "
        f"previous content was saved as {result.previous_saved_as}",
    )


def _cmd_export(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import portable

    ctx.open_db(reading=True)
    if args.html:
        from ..services.html_export import export_html

        site = export_html(lookup.campaign_id(args.campaign), args.html)
        return emit(
            args,
            site.to_dict(),
            f"wrote {site.folder}: {plural(len(site.pages), 'page')} of campaign "
            f"{site.campaign!r} (open {site.folder / 'index.html'} in a browser)",
        )
    from .. import fileio

    fileio.check_output(args.output, "campaign.json")  # a bad path is named before the campaign is looked up
    result = portable.export_campaign(lookup.campaign_id(args.campaign), args.output)
    return emit(
        args, result.to_dict(), f"wrote {result.file}: campaign {result.campaign!r}, " + _contents(result.counts)
    )


def _cmd_import(args: argparse.Namespace, ctx: Context) -> int:
    from ..services import portable

    ctx.open_db()
    result = portable.import_campaign(args.file, args.new_name)
    return emit(
        args, result.to_dict(), f"imported campaign {result.campaign!r} from {result.file}: " + _contents(result.counts)
    )


def register(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "backup",
        parents=[parent],
        help="back the database up now, or list the backups",
        description="'backup' makes a backup now; 'backup list' lists the backups (file, time, "
        "reason, size, campaigns, battles). Backups are also made before every "
        "upgrade, restore, import and campaign deletion, and once per day of use.",
    )
    p.add_argument("action", nargs="?", choices=["list"], help="list the backups instead of making one")
    add_json(p)
    p.set_defaults(handler=_cmd_backup)

    p = sub.add_parser(
        "restore",
        parents=[parent],
        help="put a backup back in place of the database",
        description="Check FILE (whole, undamaged, a campaign database), back up the current "
        "database, then restore FILE's content.",
    )
    p.add_argument("file", metavar="FILE", help="a backup (see 'backup list') or another campaign database")
    add_json(p)
    p.set_defaults(handler=_cmd_restore)

    p = sub.add_parser(
        "export",
        parents=[parent],
        help="write one campaign to a portable file (JSON)",
        description="Write one campaign whole (house rules, platoons, leaders, attached units, "
        "battles, every roll, XP and leader changes, Sologear sheets and turns) as "
        "versioned JSON, to move it to another computer or give it to an opponent.",
    )
    p.add_argument("--campaign", required=True, metavar="NAME", help="the campaign to export")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("-o", "--output", metavar="FILE", help="the file to write (e.g. congo.json)")
    where.add_argument(
        "--html",
        metavar="DIR",
        help="instead: a read-only web site of the campaign in folder DIR (standings, chronicle, each "
        "platoon's sheet, history and charts) that opens in any browser, no scripts",
    )
    add_json(p)
    p.set_defaults(handler=_cmd_export)

    p = sub.add_parser(
        "import",
        parents=[parent],
        help="read a campaign file made by 'export'",
        description="Read a campaign file into this database in one transaction. A campaign "
        "of the same name is not replaced: give --as NEW_NAME.",
    )
    p.add_argument("file", metavar="FILE", help="the campaign file")
    p.add_argument("--as", dest="new_name", metavar="NEW_NAME", help="import under this campaign name")
    add_json(p)
    p.set_defaults(handler=_cmd_import)
