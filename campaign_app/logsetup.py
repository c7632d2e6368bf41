"""Logging, configured once by the entry points: a rotating file in the user log folder."""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

_configured = False


def setup_logging(log_dir: Path, console: bool = False, level: int = logging.INFO) -> Path:
    global _configured
    log_dir.mkdir(parents=True, exist_ok=True)
    log_file = log_dir / "campaign_app.log"
    if _configured:
        return log_file
    root = logging.getLogger()
    root.setLevel(level)
    handler = logging.handlers.RotatingFileHandler(log_file, maxBytes=1_000_000, backupCount=5,
                                                   encoding="utf-8", errors="backslashreplace")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    if console:
        stream = logging.StreamHandler()
        stream.setLevel(logging.WARNING)
        root.addHandler(stream)
    _configured = True
    return log_file
