"""``campaign-cli install-desktop``: add (or remove) the Linux menu entry and icon."""

from __future__ import annotations

import argparse
from typing import Any

from .base import Context, add_json, emit


def register(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "install-desktop", parents=[parent], help="add the app to the Linux desktop menu (a .desktop file and its icon)"
    )
    p.add_argument(
        "--target", metavar="DIR", help="data folder to install into (default $XDG_DATA_HOME or ~/.local/share)"
    )
    p.add_argument("--uninstall", action="store_true", help="remove the menu entry and icon again")
    add_json(p)
    p.set_defaults(handler=_cmd_install_desktop)


def _cmd_install_desktop(args: argparse.Namespace, ctx: Context) -> int:
    from ..desktop import install_desktop, uninstall_desktop

    if args.uninstall:
        removed = uninstall_desktop(args.target)
        text = ("removed " + ", ".join(str(p) for p in removed)) if removed else "nothing to remove"
        return emit(args, {"removed": [str(p) for p in removed]}, text)
    written = install_desktop(args.target)
    return emit(
        args,
        {"installed": [str(p) for p in written]},
        "installed " + ", ".join(str(p) for p in written) + "\n(log out and in again if the menu does not show it yet)",
    )
