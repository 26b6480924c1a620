"""GUI benchmark: the Intelligence window's first paint with a huge activity log (budget ≤ 100 ms, DESIGN §5).

Builds a workspace whose subconscious.db holds ``--rows`` finished log rows (1,000,000 by default), starts
the real services on a qasync loop (offscreen Qt unless QT_QPA_PLATFORM says otherwise), then opens the
window ``--opens`` times. Each figure runs from constructing the window until the activity list has
painted its first rows (the list model reads one page; the rest stays in SQLite until scrolled to).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import qasync  # noqa: E402
from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bench.common import (  # noqa: E402
    CLOSED_PORT_URL,
    budget,
    bulk_insert_log,
    bulk_insert_tasks,
    config_text,
    figure,
    machine,
    ms_since,
    note,
    prepare_workspace,
)
from openhuman_desktop import bootstrap, config  # noqa: E402
from openhuman_desktop.paths import Paths  # noqa: E402
from openhuman_desktop.qt.bridge import CoreBridge  # noqa: E402
from openhuman_desktop.qt.intelligence import IntelligenceWindow  # noqa: E402
from openhuman_desktop.qt.wiring import window_ports  # noqa: E402

BUDGET_MS = 100.0  # DESIGN §5 (raised from 300 ms once that was met)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="20,000 rows, 3 opens")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--opens", type=int, default=7, help="windows opened (timed one by one)")
    parser.add_argument("--workspace", type=Path, help="keep the workspace here (default: a temporary folder)")
    parser.add_argument("--budget-ms", type=float, default=BUDGET_MS,
                        help=f"the budget the slowest open is reported against (default {BUDGET_MS:g}, DESIGN §5)")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.opens = 20_000, 3
    return args


class PaintWatch(QObject):
    """Resolves ``painted`` at the first paint of the list's viewport that shows rows."""

    def __init__(self, window: IntelligenceWindow, painted: asyncio.Future[float]) -> None:
        super().__init__(window)
        self._window = window
        self._painted = painted

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if (event.type() == QEvent.Type.Paint and not self._painted.done()
                and self._window.activity_view.model.rowCount() > 0):
            self._painted.set_result(time.perf_counter())
        return False


async def open_once(services: bootstrap.Services, bridge: CoreBridge) -> tuple[float, float, int]:
    """Open a window the way the app does (construct, show: its first show loads the data); returns
    (milliseconds until the first paint with rows, of which building the widgets, rows loaded)."""
    loop = asyncio.get_running_loop()
    painted: asyncio.Future[float] = loop.create_future()
    started = time.perf_counter()
    window = IntelligenceWindow(window_ports(services), bridge)
    built = (time.perf_counter() - started) * 1000
    watch = PaintWatch(window, painted)
    window.activity_view.list_view.viewport().installEventFilter(watch)
    window.show()
    try:
        done_at = await asyncio.wait_for(painted, 30)
        elapsed = (done_at - started) * 1000
        await window.jobs.wait_idle()
        rows = window.activity_view.model.rowCount()
    finally:
        await window.aclose()
        window.hide()
        window.deleteLater()
    return elapsed, built, rows


def prepare(args: argparse.Namespace, root: Path) -> Paths:
    """The workspace with ``args.rows`` finished log rows (written before the loop starts)."""
    paths = prepare_workspace(root, config_text(heartbeat=False, ollama_url=CLOSED_PORT_URL,
                                                max_rows=args.rows * 2))
    now = time.time()
    started = time.perf_counter()
    task_ids = bulk_insert_tasks(paths.subconscious_db, args.tasks, now=now, due=False)
    bulk_insert_log(paths.subconscious_db, args.rows, task_ids, newest_at=now - 60)
    note(f"database with {args.rows:,} log rows written in {ms_since(started) / 1000:.1f} s "
         f"({paths.subconscious_db.stat().st_size / 2**20:.0f} MiB)")
    return paths


async def run(args: argparse.Namespace, paths: Paths) -> None:
    services = await bootstrap.build(paths, config.load(paths.config_file))
    await services.start()
    bridge = CoreBridge(services.bus)
    try:
        times: list[float] = []
        builds: list[float] = []
        rows = 0
        for _ in range(args.opens):
            elapsed, built, rows = await open_once(services, bridge)
            times.append(elapsed)
            builds.append(built)
        note(f"rows in the list model after opening: {rows:,} of {args.rows:,}")
        note(f"first open (cold): {times[0]:.1f} ms, of which {builds[0]:.1f} ms building the widgets")
        figure("building the window's widgets", builds)
        figure(f"window first paint, {args.rows:,} log rows", times)
        budget(f"window first paint with {args.rows:,} log rows (slowest open)", max(times), args.budget_ms, "ms")
    finally:
        bridge.detach()
        await services.aclose()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    note(machine())
    note(f"Qt platform: {os.environ.get('QT_QPA_PLATFORM')}")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory(prefix="oh-bench-window-") as tmp:
        paths = prepare(args, args.workspace or Path(tmp) / "workspace")
        with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
            runner.run(run(args, paths))
    return 0  # a missed budget is reported (BUDGET MISSED); only a run that could not finish fails


if __name__ == "__main__":
    sys.exit(main())
