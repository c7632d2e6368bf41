"""The page a new user sees: create a campaign, or load the sample campaigns."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from .. import APP_TITLE
from .lazy_qt import set_enum


class FirstRunPage(QWidget):
    create_requested = Signal()
    sample_requested = Signal()
    import_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        title = QLabel(f"<h1>Welcome to {APP_TITLE}</h1>", self)
        set_enum(title, "alignment", "AlignCenter")  # built before the first paint (lazy_qt.py)
        text = QLabel(
            "<p>Keep your platoons, their leaders and every battle they fight in one place — "
            "no more paper Unit Data Sheets.</p>"
            "<p>Start a campaign of your own, or load the sample campaigns to look around: "
            "a regular platoon with a green lieutenant, an attached weapons team and a few battles "
            "already logged, and a Sologear pilot one day into her campaign.</p>",
            self,
        )
        text.setWordWrap(True)
        set_enum(text, "alignment", "AlignCenter")
        text.setFixedWidth(560)
        text.setMinimumHeight(text.heightForWidth(560))
        self.create_button = QPushButton("&Create a campaign…", self)
        self.sample_button = QPushButton("Load the &sample campaigns", self)
        self.import_button = QPushButton("&Import a campaign file…", self)
        self.import_button.setToolTip(
            "Read a campaign file made with File ▸ Export campaign (a friend's, or yours from another computer)"
        )
        self.create_button.setDefault(True)
        for b in (self.create_button, self.sample_button, self.import_button):
            b.setMinimumHeight(36)
            b.setMinimumWidth(220)
        self.create_button.clicked.connect(self.create_requested)
        self.sample_button.clicked.connect(self.sample_requested)
        self.import_button.clicked.connect(self.import_requested)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.create_button)
        buttons.addWidget(self.sample_button)
        buttons.addWidget(self.import_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(title)
        centred = QHBoxLayout()  # the fixed-width text in the middle (an alignment flag is a Qt namespace enum)
        centred.addStretch(1)
        centred.addWidget(text)
        centred.addStretch(1)
        layout.addLayout(centred)
        layout.addSpacing(16)
        layout.addLayout(buttons)
        layout.addStretch(2)
