"""Entry point of the frozen build: one script, two programs.

PyInstaller makes two executables from it (``campaign-app``, the window, and ``campaign-cli``, the commands);
each looks at its own file name to know which one it is. Not used in a checkout or a wheel (there the
``[project.scripts]`` of pyproject.toml are the entry points).
"""

import os
import sys
from pathlib import Path


def _run() -> int:
    if sys.platform.startswith("linux") and not any(os.environ.get(v) for v in ("LC_ALL", "LC_CTYPE", "LANG")):
        os.environ["LC_CTYPE"] = "C.UTF-8"  # started with no locale at all (e.g. env -i): Qt wants UTF-8
    if Path(sys.executable).stem.lower().startswith("campaign-cli"):
        from campaign_app.cli import main
    else:
        from campaign_app.app import main
    return main()


if __name__ == "__main__":
    sys.exit(_run())
