"""A club server to connect to: host, port, database, login and SSL mode, read from or written as a
``postgresql://`` URL (Qt-free; the connect dialog, ``campaign-app --db URL`` and the listener share it).

A password is never part of a :class:`ServerTarget`: :func:`parse_server_url` hands a password found in a pasted
URL back separately, and :meth:`ServerTarget.url` never writes one, so what is shown, logged or kept in the
settings cannot leak it. Other libpq options of a URL (``connect_timeout``, ``application_name``,
``sslrootcert``...) pass through unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

from .errors import PasswordRequired, Refused, ServerSupportMissing, ServerUnavailable
from .paths import is_server_url

DEFAULT_PORT = 5432
SSL_MODES = ("prefer", "require", "verify-full", "disable")
"""The SSL modes the connect dialog offers (libpq's ``allow`` and ``verify-ca`` are kept when a URL has them)."""
ALL_SSL_MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
CONNECT_TIMEOUT = 10
"""Seconds libpq tries to reach the server before giving up (unless the URL says otherwise)."""
KEYRING_SERVICE = "campaign_app"
"""The system keyring's service name under which a remembered password is kept."""


class BadServerAddress(Refused):
    """A server URL, port or field that cannot name a server; the message says which part is wrong."""


def _os_login() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name on this system: the dialog asks for one
        return ""


def parse_port(text: str | int | None) -> int:
    """A TCP port from what was typed: a whole number from 1 to 65535 (empty means the usual 5432)."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return DEFAULT_PORT
    raw = str(text).strip()
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise BadServerAddress(f"the port must be a whole number from 1 to 65535 (usually {DEFAULT_PORT}), not {raw!r}")
    return int(raw)


@dataclass(frozen=True)
class ServerTarget:
    """Where a club campaign lives: never with a password."""

    host: str
    dbname: str
    user: str
    port: int = DEFAULT_PORT
    sslmode: str = "prefer"
    options: tuple[tuple[str, str], ...] = field(default=())
    """Other libpq options from a URL, in their order (``connect_timeout``, ``application_name``...)."""

    def __post_init__(self) -> None:
        if not self.host.strip():
            raise BadServerAddress("the server's host name is missing (e.g. club.example.org)")
        if not self.dbname.strip():
            raise BadServerAddress("the database name is missing (ask the club's organiser for it)")
        if not self.user.strip():
            raise BadServerAddress("the login is missing (the name the organiser gave you on the server)")
        if self.sslmode not in ALL_SSL_MODES:
            raise BadServerAddress(f"unknown SSL mode {self.sslmode!r} (use one of {', '.join(SSL_MODES)})")
        parse_port(self.port)
        if any(k in ("password", "passfile") for k, _ in self.options):
            raise BadServerAddress("a password is not kept in a server address")

    # --- the shapes it is written in ------------------------------------------------------------------------
    @property
    def socket_dir(self) -> bool:
        """A Unix socket folder (``/var/run/postgresql``) rather than a host name."""
        return self.host.startswith("/")

    def url(self, *, timeout: bool = False) -> str:
        """``postgresql://ana@club.example.org:5432/league?sslmode=require``: never with a password. With
        ``timeout`` it carries :data:`CONNECT_TIMEOUT` unless the options already say how long to wait."""
        host = quote(self.host, safe="") if self.socket_dir else (f"[{self.host}]" if ":" in self.host else self.host)
        query: list[tuple[str, str]] = []
        if self.sslmode != "prefer":
            query.append(("sslmode", self.sslmode))
        query.extend(self.options)
        if timeout and not any(k == "connect_timeout" for k, _ in self.options):
            query.append(("connect_timeout", str(CONNECT_TIMEOUT)))
        tail = f"?{urlencode(query)}" if query else ""
        return f"postgresql://{quote(self.user, safe='')}@{host}:{self.port}/{quote(self.dbname, safe='')}{tail}"

    @property
    def server(self) -> str:
        """The server as a person names it: ``club.example.org`` (``:5433`` when not the usual port)."""
        host = "localhost" if self.socket_dir else self.host
        return host if self.port == DEFAULT_PORT else f"{host}:{self.port}"

    def display(self) -> str:
        """``ana@club.example.org/league`` for titles and messages."""
        return f"{self.user}@{self.server}/{self.dbname}"

    def keyring_key(self) -> str:
        """The keyring entry of this login on this database: ``ana@club.example.org:5432/league``."""
        return f"{self.user}@{self.host}:{self.port}/{self.dbname}"

    def with_user(self, user: str) -> ServerTarget:
        return replace(self, user=user)


def parse_server_url(text: str) -> tuple[ServerTarget, str | None]:
    """A ``postgresql://user[:password]@host[:port]/dbname[?sslmode=...&...]`` URL as a target and the password
    it carried (None when it had none). A socket folder may be given percent-encoded as the host or as
    ``?host=/path``; ``?port=``, ``?user=`` and ``?dbname=`` work as in libpq."""
    raw = (text or "").strip()
    if not is_server_url(raw):
        raise BadServerAddress(f"a server address starts with postgresql://, not {raw[:40]!r}")
    try:
        parts = urlsplit(raw)
        port_text = parts.port  # raises ValueError for a port that is not a number
    except ValueError:
        bad = raw.split("://", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1].rpartition(":")[2]
        raise BadServerAddress(
            f"the port must be a whole number from 1 to 65535 (usually {DEFAULT_PORT}), not {bad!r}"
        ) from None
    query = parse_qsl(parts.query, keep_blank_values=True)
    known: dict[str, str] = {}
    options: list[tuple[str, str]] = []
    password = unquote(parts.password) if parts.password is not None else None
    for key, value in query:
        if key in ("host", "port", "user", "dbname", "sslmode"):
            known[key] = value
        elif key == "password":
            password = value
        else:
            options.append((key, value))
    hostport = parts.netloc.rsplit("@", 1)[-1]  # as typed (``hostname`` would lower a socket folder's case)
    # an IPv6 address is in brackets
    host = hostport[1:].partition("]")[0] if hostport.startswith("[") else unquote(hostport.partition(":")[0])
    host = known.get("host", host) or ""
    user = known.get("user", unquote(parts.username or "")) or _os_login()  # libpq's default: the OS login
    dbname = known.get("dbname", unquote(parts.path.lstrip("/")))
    port: str | int | None = known.get("port", port_text)
    if not host:
        raise BadServerAddress("the server address names no host (postgresql://login@HOST/database)")
    target = ServerTarget(
        host=host,
        dbname=dbname,
        user=user,
        port=parse_port(port),
        sslmode=known.get("sslmode", "prefer") or "prefer",
        options=tuple(options),
    )
    return target, (password or None)


__all__ = [
    "ALL_SSL_MODES",
    "BadServerAddress",
    "CONNECT_TIMEOUT",
    "DEFAULT_PORT",
    "KEYRING_SERVICE",
    "PasswordRequired",
    "SSL_MODES",
    "ServerSupportMissing",
    "ServerTarget",
    "ServerUnavailable",
    "parse_port",
    "parse_server_url",
]
