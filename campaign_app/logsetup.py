"""Logging, configured once by the entry points: a rotating file in the user log folder."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

_configured = False
MAX_BYTES = 1_000_000
BACKUPS = 5


_URL_PASSWORD = re.compile(r"(postgres(?:ql)?://[^:/@\s]*:)([^@\s]*)(@)", re.I)
_PARAM_PASSWORD = re.compile(r"((?:^|[?&\s])password=)([^&\s]*)", re.I)


def mask_password(text: str) -> str:
    """``text`` with the password of every server address in it (``postgresql://ana:SECRET@...`` or
    ``?password=SECRET``) replaced by ``***``: what reaches a log file or a message."""
    return _PARAM_PASSWORD.sub(r"\1***", _URL_PASSWORD.sub(r"\1***\3", text))


class MaskingFormatter(logging.Formatter):
    """Every log line, traceback included, with server passwords masked (a ``--db`` address typed with its
    password must not land in clear in the log file)."""

    def format(self, record: logging.LogRecord) -> str:
        return mask_password(super().format(record))


class RotatingFile(logging.FileHandler):
    """A log file that rolls over before it passes ``max_bytes``, keeping ``backups`` older files as
    ``NAME.1`` (newest) … ``NAME.N``, as ``logging.handlers.RotatingFileHandler`` does; written here so that
    the start of the app does not import ``logging.handlers`` (with socket, pickle and queue: ~10 ms)."""

    def __init__(self, path: Path, max_bytes: int = MAX_BYTES, backups: int = BACKUPS) -> None:
        super().__init__(path, encoding="utf-8", errors="backslashreplace")
        self.max_bytes = max_bytes
        self.backups = backups

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self._full(record):
                self._roll_over()
        except Exception:
            self.handleError(record)
            return
        super().emit(record)

    def _full(self, record: logging.LogRecord) -> bool:
        if self.max_bytes <= 0 or not os.path.isfile(self.baseFilename):
            return False
        if self.stream is None:
            self.stream = self._open()
        self.stream.seek(0, 2)
        return self.stream.tell() + len(f"{self.format(record)}{self.terminator}") >= self.max_bytes

    def _roll_over(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        if self.backups > 0:
            for i in range(self.backups - 1, 0, -1):
                older = f"{self.baseFilename}.{i}"
                if os.path.exists(older):
                    os.replace(older, f"{self.baseFilename}.{i + 1}")
            os.replace(self.baseFilename, f"{self.baseFilename}.1")
        self.stream = self._open()


def setup_logging(log_dir: Path, console: bool = False, level: int = logging.INFO) -> Path:
    global _configured
    log_dir.mkdir(parents=True, exist_ok=True)
    log_file = log_dir / "campaign_app.log"
    if _configured:
        return log_file
    root = logging.getLogger()
    root.setLevel(level)
    handler = RotatingFile(log_file)
    handler.setFormatter(MaskingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    if console:
        stream = logging.StreamHandler()
        stream.setFormatter(MaskingFormatter())
        stream.setLevel(logging.WARNING)
        root.addHandler(stream)
    _configured = True
    return log_file
