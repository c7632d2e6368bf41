"""The log file rolls over at its size limit and keeps a fixed number of older files."""

from __future__ import annotations

import logging
import subprocess
import sys

from campaign_app.logsetup import RotatingFile


def test_log_file_rolls_over_and_keeps_backups(tmp_path):
    path = tmp_path / "app.log"
    handler = RotatingFile(path, max_bytes=200, backups=2)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger("test_logsetup_roll")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        for i in range(30):
            logger.warning("line %02d %s", i, "x" * 40)
    finally:
        logger.removeHandler(handler)
        handler.close()
    files = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("app.log"))
    assert files == ["app.log", "app.log.1", "app.log.2"]
    for name in files:
        assert (tmp_path / name).stat().st_size < 200
    newest = path.read_text(encoding="utf-8").splitlines()
    assert newest[-1].startswith("line 29 ")
    # the backups hold the lines just before, in order, with nothing lost in between
    kept = [
        *(tmp_path / "app.log.2").read_text().splitlines(),
        *(tmp_path / "app.log.1").read_text().splitlines(),
        *newest,
    ]
    numbers = [int(line.split()[1]) for line in kept]
    assert numbers == list(range(numbers[0], 30))


def test_start_of_logging_does_not_import_logging_handlers(tmp_path):
    code = (
        "import sys\nfrom pathlib import Path\nfrom campaign_app.logsetup import setup_logging\n"
        f"setup_logging(Path({str(tmp_path)!r}))\nprint('logging.handlers' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_a_server_password_never_reaches_the_log_file(tmp_path):
    """Every path into the log (a failing command's own line with its arguments, a message, a traceback) masks
    the password of a server address; the control shows the address itself is logged."""
    # fault injection through a private seam: the journal command's function is replaced by one that fails
    code = (
        "import sys\n"
        "import campaign_app.commands.journal as j\n"
        "def boom(args, ctx):\n"
        "    raise RuntimeError('lost postgresql://ana:s3cret-pw@club.example/league?password=other-pw')\n"
        "j._cmd_journal = boom\n"
        "from campaign_app.cli import main\n"
        f"sys.exit(main(['--data-dir', {str(tmp_path)!r}, '--db', "
        "'postgresql://ana:s3cret-pw@club.example/league', 'journal']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    log = (tmp_path / "logs" / "campaign_app.log").read_text(encoding="utf-8")
    assert "postgresql://ana:***@club.example/league" in log  # the control: the address is there
    assert "RuntimeError" in log  # with its traceback
    assert "s3cret-pw" not in log and "other-pw" not in log
    assert "s3cret-pw" not in done.stderr
