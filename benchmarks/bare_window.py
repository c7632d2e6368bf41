"""The baseline of the start benchmark: a bare PySide6 window (menu bar, a splitter with a tree and a label,
a status bar) shown, waited for and grabbed exactly as ``campaign-app --screenshot`` does.

    QT_QPA_PLATFORM=offscreen python benchmarks/bare_window.py OUT.png
"""

import sys

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QSplitter, QTreeView


def main(path: str) -> int:
    app = QApplication(sys.argv[:1])
    window = QMainWindow()
    window.setWindowTitle("Bare window")
    for name in ("&File", "&Edit", "&View", "&Help"):
        window.menuBar().addMenu(name)
    splitter = QSplitter()
    splitter.addWidget(QTreeView())
    splitter.addWidget(QLabel("Pick a campaign, platoon or pilot in the navigator on the left."))
    window.setCentralWidget(splitter)
    window.statusBar().showMessage("ready")
    window.resize(1180, 760)
    # the same wait as campaign_app.app.take_screenshot: exposed, then 150 ms of events, then grab
    window.show()
    loop = QEventLoop()
    for _ in range(40):
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        if window.isVisible() and window.windowHandle() is not None and window.windowHandle().isExposed():
            break
    QTimer.singleShot(150, loop.quit)
    loop.exec()
    app.processEvents()
    image = window.grab()
    return 0 if image.save(path) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "bare.png"))
