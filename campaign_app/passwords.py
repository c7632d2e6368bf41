"""Club server passwords, kept only in the system keyring (the ``keyring`` package), never in a file of ours.

Each login on each database is one entry: service :data:`~campaign_app.server_target.KEYRING_SERVICE`, user
``ana@club.example.org:5432/league``. :func:`keyring_problem` says why the keyring cannot be used (the package is
missing, or it found no working backend on this system), so the GUI can disable "Remember password" and say why.
Errors of the keyring (locked, refused by the user) never stop a connection: they are logged without the
password and the password is simply not remembered.
"""

from __future__ import annotations

import logging
from typing import Any

from .server_target import KEYRING_SERVICE, ServerTarget

log = logging.getLogger(__name__)


def _keyring() -> Any:
    try:
        import keyring  # type: ignore[import-not-found,import-untyped,unused-ignore]  # optional
    except ImportError:
        return None
    return keyring


def keyring_problem() -> str | None:
    """Why passwords cannot be remembered here (None when they can)."""
    keyring = _keyring()
    if keyring is None:
        return "the keyring package is not installed (pip install keyring), so passwords cannot be remembered"
    try:
        backend = keyring.get_keyring()
        priority = float(getattr(backend, "priority", 0) or 0)
    except Exception as exc:  # noqa: BLE001 - a broken backend configuration
        return f"the system keyring cannot be used ({type(exc).__name__})"
    name = type(backend).__module__ + "." + type(backend).__name__
    if name.startswith("keyring.backends.fail") or name.startswith("keyring.backends.null") or priority <= 0:
        return (
            "no system keyring was found on this computer (such as GNOME Keyring, KWallet, the macOS "
            "Keychain or the Windows Credential Locker), so passwords cannot be remembered"
        )
    if name.startswith("keyring.backends.chainer"):
        backends = getattr(backend, "backends", [])
        if not backends:
            return "no system keyring was found on this computer, so passwords cannot be remembered"
    return None


def saved_password(target: ServerTarget) -> str | None:
    """The remembered password of this login (None when none is kept or the keyring cannot be read)."""
    if keyring_problem() is not None:
        return None
    try:
        value = _keyring().get_password(KEYRING_SERVICE, target.keyring_key())
    except Exception as exc:  # noqa: BLE001 - locked, refused: ask instead
        log.warning("the keyring could not be read for %s (%s)", target.keyring_key(), type(exc).__name__)
        return None
    return str(value) if value else None


def remember_password(target: ServerTarget, password: str) -> str | None:
    """Keep the password in the keyring; returns the problem when it could not be kept (None when kept)."""
    problem = keyring_problem()
    if problem is not None:
        return problem
    try:
        _keyring().set_password(KEYRING_SERVICE, target.keyring_key(), password)
    except Exception as exc:  # noqa: BLE001 - never fail the connection for it
        log.warning("the keyring refused to keep the password for %s (%s)", target.keyring_key(), type(exc).__name__)
        return f"the system keyring did not keep the password ({type(exc).__name__})"
    return None


def forget_password(target: ServerTarget) -> None:
    """Remove a remembered password (nothing happens when none is kept)."""
    if keyring_problem() is not None:
        return
    keyring = _keyring()
    try:
        if keyring.get_password(KEYRING_SERVICE, target.keyring_key()) is not None:
            keyring.delete_password(KEYRING_SERVICE, target.keyring_key())
    except Exception as exc:  # noqa: BLE001 - nothing to forget, or the keyring is locked
        log.warning("the keyring could not forget the password for %s (%s)", target.keyring_key(), type(exc).__name__)


__all__ = ["forget_password", "keyring_problem", "remember_password", "saved_password"]
