"""RPC benchmark: subconscious_tasks_list over many tasks and subconscious_log_list paging over a huge log."""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (  # noqa: E402
    CLOSED_PORT_URL,
    AppProcess,
    RpcCaller,
    budget,
    bulk_insert_log,
    bulk_insert_tasks,
    config_text,
    depths,
    figure,
    load_note,
    log_created_at_at_depth,
    machine,
    ms_since,
    note,
    prepare_workspace,
    timed,
    timed_async,
)
from openhuman_desktop import bootstrap, config  # noqa: E402
from openhuman_desktop.paths import Paths  # noqa: E402
from openhuman_desktop.rpc.methods import MethodTable, subconscious_methods  # noqa: E402
from openhuman_desktop.rpc.protocol import Dispatcher  # noqa: E402
from openhuman_desktop.store import SubconsciousStore  # noqa: E402
from openhuman_desktop.store.activity import MAX_PAGE  # noqa: E402

PAGE = 50
RECENT_ROWS = 10_000  # as many as wait to be filed at most (a 1,000-task log between upkeeps)
PAGE_BUDGET_MS = 5.0
WANTED_DEPTHS = (0, 1_000, 100_000, 500_000, 999_000)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny sizes (1,000 tasks, 20,000 rows, 5 calls)")
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--calls", type=int, default=30, help="timed calls per figure")
    parser.add_argument("--workspace", type=Path, help="keep the workspace here (default: a temporary folder)")
    args = parser.parse_args(argv)
    if args.quick:
        args.tasks, args.rows, args.calls = 1_000, 20_000, 5
    return args


def fill(paths: Paths, tasks: int, rows: int) -> None:
    started = time.perf_counter()
    ids = bulk_insert_tasks(paths.subconscious_db, tasks, now=time.time())
    note(f"inserted {tasks:,} tasks in {ms_since(started) / 1000:.1f} s")
    started = time.perf_counter()
    bulk_insert_log(paths.subconscious_db, rows, ids, newest_at=time.time() - 60)
    note(f"inserted {rows:,} log rows in {ms_since(started) / 1000:.1f} s")


def timed_calls(rpc: RpcCaller, method: str, params: dict[str, object], calls: int) -> tuple[list[float], object]:
    timed(2, rpc.call, method, params)  # warm up: connection, caches
    return timed(calls, rpc.call, method, params)


def floor(rpc: RpcCaller, calls: int) -> None:
    """A request that does no work (an unknown method): HTTP, token check and JSON-RPC framing only."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "openhuman.bench_no_such_method"}).encode()
    timed(2, rpc.post_raw, body)  # warm up
    samples, _ = timed(calls, rpc.post_raw, body)
    figure("rpc floor: unknown method, no work (round trip)", samples)


def over_rpc(app: AppProcess, args: argparse.Namespace, befores: dict[int, float | None]) -> float:
    """Round trips through the running app; returns the worst median of a log page over the depths."""
    worst = 0.0
    with RpcCaller(app.url, app.token) as rpc:
        floor(rpc, args.calls)
        for depth, before in befores.items():
            params: dict[str, object] = {"limit": PAGE} if before is None else {"limit": PAGE, "before": before}
            samples, result = timed_calls(rpc, "subconscious_log_list", params, args.calls)
            assert isinstance(result, list) and len(result) == PAGE, f"depth {depth}: got {len(result)} rows"
            summary = figure(f"rpc log_list page of {PAGE} at depth {depth:,} of {args.rows:,} rows (round trip)",
                             samples)
            worst = max(worst, summary.median)
        samples, result = timed_calls(rpc, "subconscious_tasks_list", {}, args.calls)
        assert isinstance(result, list)
        figure(f"rpc tasks_list {len(result):,} tasks (round trip)", samples)
        note(f"tasks_list answer is {len(json.dumps(result)) / 1e6:.1f} MB of JSON")
    return worst


async def in_process(paths: Paths, args: argparse.Namespace, befores: dict[int, float | None]) -> float:
    """The same work in this process (real services, no HTTP); returns the worst median of ``page()``."""
    services = await bootstrap.build(paths, config.load(paths.config_file))
    worst = 0.0
    try:
        table = MethodTable()
        table.add(subconscious_methods(services.subconscious, services.approvals))
        dispatcher = Dispatcher(table)
        store = services.store
        samples, tasks = await timed_async(max(3, args.calls // 3), store.tasks.list)
        figure(f"in-process TaskRepository.list {len(tasks):,} tasks", samples)
        samples, _ = timed(max(3, args.calls // 3), lambda: json.dumps([task.to_json() for task in tasks]))
        figure(f"in-process to_json + json.dumps of {len(tasks):,} tasks", samples)
        for depth, before in befores.items():
            await store.log.page(PAGE, before)
            samples, page = await timed_async(args.calls, store.log.page, PAGE, before)
            assert len(page) == PAGE
            summary = figure(f"in-process ActivityLogRepository.page {PAGE} at depth {depth:,}", samples)
            worst = max(worst, summary.median)
            params = {"limit": PAGE} if before is None else {"limit": PAGE, "before": before}
            body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "openhuman.subconscious_log_list",
                               "params": params}).encode()
            samples, _ = await timed_async(args.calls, dispatched, dispatcher, body)
            figure(f"in-process Dispatcher.handle_body log_list {PAGE} at depth {depth:,} + json.dumps", samples)
        await task_pages(store, args.calls)
    finally:
        await services.aclose()
    return worst


async def dispatched(dispatcher: Dispatcher, body: bytes) -> str:
    """What the server does with a request body, up to the JSON it sends back."""
    return json.dumps(await dispatcher.handle_body(body))


async def task_pages(store: SubconsciousStore, calls: int) -> None:
    """One task's pages, with the newest rows still waiting to be filed under their task (schema v3)."""
    await store.db.execute(
        "UPDATE subconscious_log SET filed = 0 WHERE rowid > (SELECT max(rowid) FROM subconscious_log) - ?",
        (RECENT_ROWS,),
    )
    newest = await store.log.page(1)
    task_id = newest[0].task_id
    rows = await store.log.page(MAX_PAGE, None, task_id)
    for label, before in (("newest", None), ("from the middle of its rows", rows[len(rows) // 2].created_at)):
        samples, page = await timed_async(calls, store.log.page, PAGE, before, task_id)
        assert page and all(entry.task_id == task_id for entry in page)
        figure(f"in-process page {PAGE} of one task's rows, {label} ({len(rows):,} rows of the task, "
               f"the newest {RECENT_ROWS:,} of the log not filed yet)", samples)


def fetchall(conn: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> list[Any]:
    return conn.execute(sql, params).fetchall()


def plain_sqlite(paths: Paths, args: argparse.Namespace, befores: dict[int, float | None]) -> None:
    """The bare queries with the stdlib sqlite3 module: the floor under the figures above."""
    conn = sqlite3.connect(paths.subconscious_db)
    try:
        samples, rows = timed(max(3, args.calls // 3), lambda: conn.execute(
            "SELECT * FROM subconscious_tasks ORDER BY (source = 'user'), (origin = 'heartbeat_md'), created_at, id"
        ).fetchall())
        figure(f"plain sqlite3 SELECT * of {len(rows):,} tasks (tuples)", samples)
        for depth, before in befores.items():
            sql = "SELECT * FROM subconscious_log {} ORDER BY created_at DESC, id DESC LIMIT ?"
            query = (sql.format(""), (PAGE,)) if before is None else (sql.format("WHERE created_at < ?"),
                                                                      (before, PAGE))
            samples, _ = timed(args.calls, fetchall, conn, *query)
            figure(f"plain sqlite3 page {PAGE} at depth {depth:,}", samples)
    finally:
        conn.close()


def run(args: argparse.Namespace, root: Path) -> int:
    paths = prepare_workspace(root, config_text(heartbeat=False, ollama_url=CLOSED_PORT_URL))
    fill(paths, args.tasks, args.rows)
    befores: dict[int, float | None] = {
        depth: (None if depth == 0 else log_created_at_at_depth(paths.subconscious_db, depth))
        for depth in depths(args.rows, WANTED_DEPTHS)
    }
    with AppProcess(paths) as app:
        note(f"app pid {app.pid} answering on {app.url} after {app.started_in_ms:.0f} ms")
        rpc_worst = over_rpc(app, args, befores)
    in_process_worst = asyncio.run(in_process(paths, args, befores))
    plain_sqlite(paths, args, befores)
    budget(f"log_list page of {PAGE}, round trip, worst depth (median)", rpc_worst, PAGE_BUDGET_MS, "ms")
    budget(f"log_list page of {PAGE}, in-process page(), worst depth (median)", in_process_worst, PAGE_BUDGET_MS,
           "ms")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    note(machine())
    load_note()
    if args.workspace:
        args.workspace.mkdir(parents=True, exist_ok=True)
        return run(args, args.workspace)
    with tempfile.TemporaryDirectory(prefix="oh-rpc-bench-") as tmp:
        return run(args, Path(tmp) / "workspace")


if __name__ == "__main__":
    sys.exit(main())
