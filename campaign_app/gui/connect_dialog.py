"""File ▸ Connect to Club Server… (Ctrl+Shift+O): open a campaign shared by a club on a PostgreSQL server.

The dialog asks for the host, port, database, login, password and SSL mode, or takes a pasted
``postgresql://`` URL, which fills the fields (a password in it goes to the masked field, never on screen).
Recent servers (never with passwords) are kept in the app's settings; "Remember password" keeps the password in
the system keyring only (disabled, with the reason as its tooltip, when no keyring works here).

**Connect** tries the login on a worker thread within libpq's ``connect_timeout``: the window never freezes;
while it tries, the fields are locked and Cancel stops waiting. A refused password puts the focus back in the
password field with the server's reason; any other problem is shown with the server's name.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from PySide6.QtCore import QSettings, Qt, QThread, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ..errors import CampaignError
from ..passwords import forget_password, keyring_problem, remember_password, saved_password
from ..paths import is_server_url
from ..server_target import (
    ALL_SSL_MODES,
    CONNECT_TIMEOUT,
    DEFAULT_PORT,
    SSL_MODES,
    BadServerAddress,
    PasswordRequired,
    ServerTarget,
    parse_port,
    parse_server_url,
)
from .widgets import ErrorLabel

log = logging.getLogger(__name__)

RECENT_KEY = "club/recent_servers"
RECENT_KEPT = 8
SHORTCUT = "Ctrl+Shift+O"
SSL_TEXTS = {
    "prefer": "prefer: encrypted when the server offers it",
    "require": "require: always encrypted",
    "verify-full": "verify-full: encrypted, and the server's certificate checked",
    "disable": "disable: never encrypted (a trusted local network only)",
    "allow": "allow: encrypted only when the server insists",
    "verify-ca": "verify-ca: encrypted, the certificate's authority checked",
}


@dataclass(frozen=True)
class Login:
    """What the dialog hands back: the server, the password typed (None: libpq's PGPASSWORD/.pgpass) and
    whether to remember it."""

    target: ServerTarget
    password: str | None
    remember: bool


# --- recent servers (settings) -------------------------------------------------------------------------------
def recent_servers(settings: QSettings) -> list[ServerTarget]:
    """The servers connected to lately, newest first (never with passwords)."""
    try:
        urls = json.loads(str(settings.value(RECENT_KEY, "") or "[]"))
    except json.JSONDecodeError:  # edited by hand
        return []
    found: list[ServerTarget] = []
    for url in urls if isinstance(urls, list) else []:
        try:
            target, _password = parse_server_url(str(url))
        except CampaignError:
            continue
        if target not in found:
            found.append(target)
    return found[:RECENT_KEPT]


def add_recent_server(settings: QSettings, target: ServerTarget) -> None:
    kept = [t for t in recent_servers(settings) if t != target]
    settings.setValue(RECENT_KEY, json.dumps([t.url() for t in [target, *kept][:RECENT_KEPT]]))


# --- the login attempt off the GUI thread ----------------------------------------------------------------------
class ProbeWorker(QThread):
    """Tries the login once (``services.server_link.probe``); ``done`` carries None or the CampaignError."""

    done = Signal(object)

    def __init__(self, target: ServerTarget, password: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.target = target
        self._password = password

    def run(self) -> None:  # noqa: D401 - QThread override
        from ..services.server_link import probe

        result: object = None
        try:
            probe(self.target, self._password)
        except CampaignError as exc:
            result = exc
        except Exception as exc:  # a bug: logged (without the password), shown as not connected
            log.exception("trying the server %s failed", self.target.display())
            result = exc
        self.done.emit(result)


class ConnectDialog(QDialog):
    """Host, port, database, login, password, remember, SSL mode; or a pasted URL. ``login()`` after
    ``exec()`` returns Accepted."""

    def __init__(
        self,
        settings: QSettings,
        parent: QWidget | None = None,
        *,
        initial: ServerTarget | None = None,
        password: str | None = None,
        problem: str = "",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Connect to Club Server")
        self.settings = settings
        self.result_login: Login | None = None
        self.worker: ProbeWorker | None = None
        self._workers: list[ProbeWorker] = []
        self._filling = False

        intro = QLabel(
            "Open a campaign your club keeps on a PostgreSQL server. The organiser gives you the "
            "server, the database and your login; or paste the address they sent you.",
            self,
        )
        intro.setWordWrap(True)

        self.recent = QComboBox(self)
        self.recent.setAccessibleName("Recent servers")
        self.recent.setToolTip("Servers you connected to lately (passwords are never kept here)")
        self.url = QLineEdit(self)
        self.url.setPlaceholderText("postgresql://login@host:5432/database")
        self.url.setAccessibleName("Server address")
        self.url.setToolTip("Paste a postgresql:// address: it fills the fields below")
        self.url.setClearButtonEnabled(True)
        self.host = QLineEdit(self)
        self.host.setPlaceholderText("club.example.org")
        self.host.setAccessibleName("Host")
        self.port = QLineEdit(str(DEFAULT_PORT), self)
        self.port.setAccessibleName("Port")
        self.port.setMaxLength(5)
        self.port.setToolTip(f"The server's port: {DEFAULT_PORT} unless the organiser says otherwise")
        self.dbname = QLineEdit(self)
        self.dbname.setPlaceholderText("league")
        self.dbname.setAccessibleName("Database")
        self.user = QLineEdit(self)
        self.user.setAccessibleName("Login")
        self.password = QLineEdit(self)
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setAccessibleName("Password")
        self.password.setPlaceholderText("empty: the password from PGPASSWORD or .pgpass, if any")
        self.remember = QCheckBox("&Remember password", self)
        self.keyring_problem = keyring_problem()
        if self.keyring_problem is None:
            self.remember.setToolTip("Keep the password in the system keyring (never in a file of this app)")
        else:
            self.remember.setEnabled(False)
            self.remember.setToolTip(f"Not available: {self.keyring_problem}.")
        self.sslmode = QComboBox(self)
        self.sslmode.setAccessibleName("SSL mode")
        for mode in SSL_MODES:
            self.sslmode.addItem(SSL_TEXTS[mode], mode)

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.recent_label = QLabel("R&ecent:", self)
        self.recent_label.setBuddy(self.recent)
        form.addRow(self.recent_label, self.recent)
        for text, widget in (
            ("&Address:", self.url),
            ("&Host:", self.host),
            ("&Port:", self.port),
            ("&Database:", self.dbname),
            ("&Login:", self.user),
            ("Pass&word:", self.password),
            ("", self.remember),
            ("&SSL mode:", self.sslmode),
        ):
            if text:
                label = QLabel(text, self)
                label.setBuddy(widget)
                form.addRow(label, widget)
            else:
                form.addRow("", widget)
        self.status = QLabel(self)  # beside the buttons: it never moves the dialog's fields
        self.status.setWordWrap(True)
        self.message = ErrorLabel(self, lines=3)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.connect_button = self.buttons.addButton("&Connect", QDialogButtonBox.ButtonRole.AcceptRole)
        self.connect_button.setDefault(True)
        self.connect_button.setAutoDefault(True)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.message)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.buttons)
        layout.addLayout(bottom)
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("x") * 84)
        self.recent.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

        self._fill_recent()
        self.url.textChanged.connect(self._url_typed)
        for field in (self.host, self.port, self.dbname, self.user):
            field.textEdited.connect(self._field_edited)
        self.sslmode.currentIndexChanged.connect(lambda _i: self._field_edited())
        self.recent.activated.connect(self._recent_chosen)
        self.buttons.rejected.connect(self.reject)
        self.connect_button.clicked.connect(self.try_connect)
        QShortcut(QKeySequence("Ctrl+L"), self, self.url.setFocus)  # like a browser's address bar

        if initial is not None:
            self.fill(initial, password)
        elif self.recent.count() > 1:
            self._recent_chosen(1)
        self.message.show_problem(_sentence(problem) if problem else None)
        self._focus_first_empty()

    # --- filling -------------------------------------------------------------------------------------------
    def _fill_recent(self) -> None:
        servers = recent_servers(self.settings)
        self.recent.clear()
        self.recent.addItem("\u2014 choose a server you used before \u2014", None)
        for target in servers:
            self.recent.addItem(target.display(), target.url())
        self.recent.setVisible(bool(servers))
        self.recent_label.setVisible(bool(servers))

    def _recent_chosen(self, index: int) -> None:
        url = self.recent.itemData(index)
        if not url:
            return
        target, _none = parse_server_url(str(url))
        self.fill(target, None)
        self.recent.setCurrentIndex(index)
        self._focus_first_empty()

    def fill(self, target: ServerTarget, password: str | None) -> None:
        """Put a target in the fields (and its remembered password when none is given)."""
        self._filling = True
        try:
            self.host.setText(target.host)
            self.port.setText(str(target.port))
            self.dbname.setText(target.dbname)
            self.user.setText(target.user)
            index = self.sslmode.findData(target.sslmode)
            if index < 0:  # allow / verify-ca from a URL
                self.sslmode.addItem(SSL_TEXTS.get(target.sslmode, target.sslmode), target.sslmode)
                index = self.sslmode.count() - 1
            self.sslmode.setCurrentIndex(index)
            self._options = target.options
            if not self.url.hasFocus():
                self.url.setText(target.url())
                self.url.setCursorPosition(0)  # the start of the address shows: postgresql://login@host
            remembered = saved_password(target) if password is None else None
            self.password.setText(password or remembered or "")
            self.remember.setChecked(
                self.remember.isEnabled() and (remembered is not None or self.remember.isChecked())
            )
        finally:
            self._filling = False

    _options: tuple[tuple[str, str], ...] = ()

    def _url_typed(self, text: str) -> None:
        if self._filling:
            return
        text = text.strip()
        if not text:
            self.message.show_problem(None)
            return
        if not is_server_url(text):
            self.message.show_problem("A server address starts with postgresql:// (or fill in the fields below).")
            return
        try:
            target, password = parse_server_url(text)
        except BadServerAddress as exc:
            self.message.show_problem(_sentence(str(exc)))
            return
        self.message.show_problem(None)
        self.fill(target, password)
        if password:  # never left on screen: the field shows the address without it
            self._filling = True
            try:
                self.url.setText(target.url())
            finally:
                self._filling = False

    def _field_edited(self, *_args: object) -> None:
        """The address follows the fields (without a password), when they name a server."""
        if self._filling:
            return
        try:
            target = self.target()
        except CampaignError:
            return
        self._filling = True
        try:
            self.url.setText(target.url())
        finally:
            self._filling = False

    def _focus_first_empty(self) -> None:
        for field in (self.host, self.dbname, self.user, self.password):
            if not field.text():
                field.setFocus()
                return
        self.connect_button.setFocus()

    # --- reading -------------------------------------------------------------------------------------------
    def target(self) -> ServerTarget:
        """The server named by the fields; BadServerAddress names the field that is wrong."""
        mode = str(self.sslmode.currentData() or "prefer")
        return ServerTarget(
            host=self.host.text().strip(),
            port=parse_port(self.port.text()),
            dbname=self.dbname.text().strip(),
            user=self.user.text().strip(),
            sslmode=mode if mode in ALL_SSL_MODES else "prefer",
            options=self._options,
        )

    def _problem_field(self, text: str) -> QLineEdit:
        for word, field in (("port", self.port), ("host", self.host), ("database", self.dbname), ("login", self.user)):
            if word in text:
                return field
        return self.url

    # --- connecting ----------------------------------------------------------------------------------------
    def try_connect(self) -> None:
        if self.worker is not None:
            return
        try:
            target = self.target()
        except BadServerAddress as exc:
            self.message.show_problem(_sentence(str(exc)))
            field = self._problem_field(str(exc))
            field.setFocus()
            field.selectAll()
            return
        password = self.password.text() or None
        self.message.show_problem(None)
        self.status.setText(f"Connecting to {target.server}\u2026 (at most {_timeout_of(target)} seconds)")
        self._set_busy(True)
        worker = ProbeWorker(target, password, self)
        self.worker = worker
        self._workers.append(worker)
        worker.done.connect(lambda result, w=worker: self._probed(w, result))
        worker.finished.connect(lambda w=worker: self._worker_ended(w))
        worker.start()

    def _worker_ended(self, worker: ProbeWorker) -> None:
        worker.wait()
        if worker in self._workers:
            self._workers.remove(worker)
        worker.deleteLater()

    def _set_busy(self, busy: bool) -> None:
        for widget in (
            self.recent,
            self.url,
            self.host,
            self.port,
            self.dbname,
            self.user,
            self.password,
            self.sslmode,
            self.connect_button,
        ):
            widget.setEnabled(not busy)
        self.remember.setEnabled(not busy and self.keyring_problem is None)
        if busy:
            self.setCursor(Qt.CursorShape.BusyCursor)
        else:
            self.unsetCursor()

    def _probed(self, worker: ProbeWorker, result: object) -> None:
        if worker is not self.worker:
            return  # a try the user stopped waiting for
        self.worker = None
        self._set_busy(False)
        self.status.setText("")
        if result is None:
            target, password = worker.target, self.password.text() or None
            self.result_login = Login(target, password, self.remember.isChecked())
            self.store_choices(self.result_login)
            self.accept()
            return
        text = str(result) if isinstance(result, CampaignError) else f"could not connect ({type(result).__name__})"
        self.message.show_problem(_sentence(text))
        if isinstance(result, PasswordRequired):
            self.password.setFocus()
            self.password.selectAll()
        else:
            self.connect_button.setFocus()

    def store_choices(self, login: Login) -> None:
        """Recent servers in the settings; the password in the keyring, or forgotten when unticked."""
        add_recent_server(self.settings, login.target)
        if self.keyring_problem is not None:
            return
        if login.remember and login.password:
            problem = remember_password(login.target, login.password)
            if problem:
                log.warning("password not remembered: %s", problem)
        elif not login.remember:
            forget_password(login.target)

    def reject(self) -> None:
        self.worker = None  # a try still under way is ignored when it ends
        super().reject()

    def closeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        self.worker = None
        super().closeEvent(event)  # type: ignore[arg-type]

    def login(self) -> Login | None:
        return self.result_login


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _timeout_of(target: ServerTarget) -> int:
    for key, value in target.options:
        if key == "connect_timeout" and value.isdigit():
            return int(value)
    return CONNECT_TIMEOUT


def ask_login(
    settings: QSettings,
    parent: QWidget | None = None,
    *,
    initial: ServerTarget | None = None,
    password: str | None = None,
    problem: str = "",
) -> Login | None:
    """Show the dialog; the login that connected, or None when cancelled."""
    dialog = ConnectDialog(settings, parent, initial=initial, password=password, problem=problem)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.login()
    finally:
        for worker in list(dialog._workers):  # a try the user stopped waiting for ends on its own timeout
            worker.setParent(None)
            _orphans.append(worker)
            worker.finished.connect(lambda w=worker: _orphans.remove(w) if w in _orphans else None)
        dialog.deleteLater()


_orphans: list[ProbeWorker] = []
"""Tries still running after their dialog closed (kept alive until their thread ends)."""


__all__ = [
    "ConnectDialog",
    "Login",
    "ProbeWorker",
    "RECENT_KEY",
    "SHORTCUT",
    "add_recent_server",
    "ask_login",
    "recent_servers",
]
