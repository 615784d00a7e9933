"""The Parts tab over a database, in a child process (offscreen Qt): how long until the rows a user
asked for are shown, and the longest the GUI thread was blocked meanwhile (a timer that should tick
every 5 ms measures the gaps), for opening the tab, a search ("24 nvlink") and a sort (price, down).

Run as ``python -m benchmarks.bench_parts_tab DB RUNS``; prints one JSON object of medians."""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def measure(db: Path, runs: int) -> dict[str, dict[str, float]]:
    from PySide6.QtCore import QElapsedTimer, QSettings, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from configurator.store.database import open_store
    from configurator.store.repository import PartsRepository
    from configurator.store.seed import seed_store
    from configurator.ui.parts import PartsBrowser
    from configurator.ui.tasks import TaskRunner

    app = QApplication.instance() or QApplication([])
    store = open_store(db, seed=seed_store)
    tasks = TaskRunner()
    repo = PartsRepository(store)
    clock = QElapsedTimer()
    gaps = [0.0]
    last = [0]

    def tick() -> None:  # the gap since the last tick: how long events waited
        now = clock.elapsed()
        if last[0]:
            gaps[0] = max(gaps[0], (now - last[0]) / 1000)
        last[0] = now

    ticker = QTimer()
    ticker.setInterval(5)
    ticker.timeout.connect(tick)

    def timed(action: Callable[[], Any], done: Callable[[], bool]) -> tuple[float, float]:
        """Seconds until ``done``, and the longest gap between the GUI thread's ticks meanwhile."""
        clock.start()
        last[0] = 0
        gaps[0] = 0.0
        ticker.start()
        start = time.perf_counter()
        action()
        called = time.perf_counter() - start  # the GUI thread was in the call all this time
        while not done():
            app.processEvents()
            time.sleep(0.001)
        took = time.perf_counter() - start
        ticker.stop()
        return took, max(called, gaps[0])

    out: dict[str, list[tuple[float, float]]] = {"open": [], "search": [], "sort": []}
    settings = QSettings(str(db.with_suffix(".ini")), QSettings.Format.IniFormat)

    def one_run() -> None:
        b = PartsBrowser(repo, settings, tasks=tasks, load=False)
        b.resize(1400, 800)
        b.show()
        app.processEvents()
        model = b.model
        out["open"].append(timed(b.ensure_loaded, lambda: not b.busy and model.rowCount() > 0))
        # The search as the box runs it once typing pauses (the pause itself is not counted).
        out["search"].append(timed(lambda: model.set_search("24 nvlink"), lambda: not model.busy))
        col = model.column_names.index("price_cny")
        out["sort"].append(timed(lambda: b.table.sortByColumn(col, Qt.SortOrder.DescendingOrder),
                                 lambda: not model.busy))
        b.close()
        b.deleteLater()
        app.processEvents()

    try:
        for _ in range(runs):
            one_run()
    finally:
        tasks.wait()
        store.close()
    return {k: {"s": statistics.median(t for t, _ in v), "blocked_s": statistics.median(g for _, g in v)}
            for k, v in out.items()}


if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1]), int(sys.argv[2]))))
