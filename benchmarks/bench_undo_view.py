"""What the journal's undo view costs the GUI: a write through ``perform`` (service + rebuilding the Qt undo
stack from the journal + the change feed) against the bare service call, on a journal of N operations, and a
rebuild of the view (``JournalUndoStack.sync``) when something changed and when nothing did.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_undo_view.py [N]
"""

import statistics
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication


def best(fn, repeat: int = 15) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main(n: int) -> None:
    from campaign_app.gui.context import AppContext
    from campaign_app.gui.undo_commands import perform
    from campaign_app.paths import AppPaths
    from campaign_app.services import campaigns, journal
    from campaign_app.services import platoons as platoon_service
    from campaign_app.store import init_db

    app = QApplication(sys.argv[:1])  # noqa: F841 - Qt objects need it
    folder = Path(tempfile.mkdtemp())
    paths = AppPaths(data_dir=folder, db_file=folder / "bench.db").ensure()
    init_db(paths.db_file, paths.backup_dir)
    bench = campaigns.create_campaign("Bench").id
    pid = platoon_service.create_platoon(bench, "1st", training=8, equipment=8, morale=8, armor=2, xp=0).id
    for i in range(n):  # notes edits: each its own operation (no merging)
        platoon_service.set_platoon(pid, notes=f"note {i}")
    for _ in range(n // 10):
        journal.undo()
    ctx = AppContext(paths=paths, settings=QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat))
    stack = ctx.undo_stack
    counter = iter(range(10**6))
    bare = best(lambda: platoon_service.set_platoon(pid, notes=f"bare {next(counter)}"))
    viewed = best(lambda: perform(ctx, platoon_service.set_platoon, pid, notes=f"gui {next(counter)}"))
    stack.sync()
    same = best(stack.sync)

    def changed() -> None:
        stack.clear()
        stack.sync()

    rebuild = best(changed)
    from campaign_app.gui.main_window import MainWindow

    window = MainWindow(ctx)  # the Edit menu's actions and the views listen to the stack and the feed
    window.open_item("platoon", pid)
    windowed = best(lambda: perform(ctx, platoon_service.set_platoon, pid, notes=f"window {next(counter)}"))
    rebuild_window = best(changed)
    print(f"journal: {n} operations, {n // 10} undone; view shows {stack.count()} commands")
    print(f"service call alone        {bare:7.2f} ms")
    print(f"perform (service + view)  {viewed:7.2f} ms  ratio {viewed / bare:.2f}")
    print(f"sync, nothing changed     {same:7.2f} ms")
    print(f"sync, full rebuild        {rebuild:7.2f} ms")
    print(
        f"with a main window showing the platoon: perform {windowed:7.2f} ms (ratio {windowed / bare:.2f} to the "
        f"bare service, the page reloads), full rebuild {rebuild_window:7.2f} ms"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
