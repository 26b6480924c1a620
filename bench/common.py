"""Shared benchmark helpers: statistics, /proc readers, workspace and database preparation, the app process."""

from __future__ import annotations

import asyncio
import json
import math
import os
import platform
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # so ``python bench/x.py`` finds openhuman_desktop and tests.fakes
    sys.path.insert(0, str(REPO))

from openhuman_desktop.paths import Paths  # noqa: E402
from openhuman_desktop.store import open_subconscious_store  # noqa: E402
from openhuman_desktop.store.ids import time_ordered_id  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# --- statistics and output ----------------------------------------------------------------------


T = TypeVar("T")

@dataclass(frozen=True)
class Stats:
    """Summary of a list of samples (milliseconds, unless the caller says otherwise)."""

    count: int
    median: float
    p95: float
    minimum: float
    maximum: float
    mean: float


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile (0..1) with linear interpolation between the closest ranks."""
    if not values:
        raise ValueError("no samples")
    ordered = sorted(values)
    position = (len(ordered) - 1) * fraction
    low = math.floor(position)
    high = math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def stats(values: Sequence[float]) -> Stats:
    """Median, p95, min, max and mean of ``values``."""
    return Stats(
        count=len(values), median=percentile(values, 0.5), p95=percentile(values, 0.95),
        minimum=min(values), maximum=max(values), mean=sum(values) / len(values),
    )


def figure(label: str, values_ms: Sequence[float]) -> Stats:
    """Print ``label: median X ms, p95 Y ms`` (plus min/max and the sample count) and return the stats."""
    summary = stats(values_ms)
    print(f"{label}: median {summary.median:.2f} ms, p95 {summary.p95:.2f} ms "
          f"(min {summary.minimum:.2f}, max {summary.maximum:.2f}, n={summary.count})", flush=True)
    return summary


def note(text: str) -> None:
    """An informational line (not a figure)."""
    print(f"# {text}", flush=True)


def budget(name: str, measured: float, limit: float, unit: str) -> bool:
    """Print ``BUDGET ok|MISSED name: measured <= limit unit``; returns whether the budget holds."""
    ok = measured <= limit
    print(f"BUDGET {'ok' if ok else 'MISSED'} {name}: {measured:.2f} {unit} (budget <= {limit:g} {unit})",
          flush=True)
    return ok


def machine() -> str:
    """A one-line description of this machine, for the README table."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores {model}, Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}"


def load_note() -> None:
    """Print the load average: other processes on a 2-core machine move every figure."""
    try:
        load = Path("/proc/loadavg").read_text().split()[:3]
    except OSError:
        return
    note(f"load average {' '.join(load)} (other processes share the {os.cpu_count()} cores)")


def ms_since(started: float) -> float:
    """Milliseconds elapsed since ``started`` (a ``time.perf_counter()`` value)."""
    return (time.perf_counter() - started) * 1000


def timed(times: int, call: Callable[..., T], *args: Any) -> tuple[list[float], T]:
    """``call(*args)`` ``times`` times (at least once): the milliseconds of each call, and the last result."""
    samples = []
    for _ in range(max(1, times)):
        started = time.perf_counter()
        result = call(*args)
        samples.append(ms_since(started))
    return samples, result


async def timed_async(times: int, call: Callable[..., Awaitable[T]], *args: Any) -> tuple[list[float], T]:
    """:func:`timed` for a coroutine function."""
    samples = []
    for _ in range(max(1, times)):
        started = time.perf_counter()
        result = await call(*args)
        samples.append(ms_since(started))
    return samples, result


# --- /proc readers ------------------------------------------------------------------------------


def status_kb(pid: int, field: str) -> int:
    """A ``kB`` field of ``/proc/PID/status`` such as ``VmRSS`` or ``VmHWM``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(f"{field} not in /proc/{pid}/status")


def rss_mb(pid: int) -> float:
    """Resident set size in MiB (``VmRSS``)."""
    return status_kb(pid, "VmRSS") / 1024


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process so far (``utime + stime`` of ``/proc/PID/stat``)."""
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw[raw.rindex(")") + 2:].split()  # after "pid (comm) "; fields[0] is the state (field 3)
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of proc(5)
    return (utime + stime) / CLOCK_TICKS


def thread_count(pid: int) -> int:
    return status_kb(pid, "Threads")


# --- workspace and databases --------------------------------------------------------------------


def config_text(*, heartbeat: bool = False, ollama_url: str | None = None, budget_tokens: int = 40_000,
                max_rows: int = 100_000_000, retention_days: int = 90) -> str:
    """A config.toml for a benchmark: heartbeat on/off, both model tiers at ``ollama_url``, a big log."""
    lines = [
        "[heartbeat]",
        f"enabled = {'true' if heartbeat else 'false'}",
        "interval_minutes = 5",
        f"context_budget_tokens = {budget_tokens}",
        "",
        "[activity_log]",
        f"retention_days = {retention_days}",
        f"max_rows = {max_rows}",
        "",
    ]
    if ollama_url:
        lines += [
            "[ollama]", f'host = "{ollama_url}"', "",
            "[models.local]", 'provider = "ollama"', 'model = "llama3.2:3b"', "",
            "[models.reasoning]", 'provider = "ollama"', 'model = "qwen2.5:14b"', "",
        ]
    return "\n".join(lines)


def prepare_workspace(root: Path, config: str) -> Paths:
    """Create the workspace folders, write ``config``, and create subconscious.db with the app's schema."""
    paths = Paths(root)
    paths.ensure()
    paths.config_file.write_text(config, encoding="utf-8")
    os.chmod(paths.config_file, 0o600)

    async def create() -> None:
        store = await open_subconscious_store(paths.subconscious_db)
        await store.aclose()

    asyncio.run(create())
    return paths


def _bulk_connection(db_path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")  # no giant WAL; the app switches back to WAL on open
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -262144")  # 256 MiB: the task-keyed index stays in memory
    return conn


def bulk_insert_tasks(db_path: Path, count: int, *, now: float, due: bool = True) -> list[str]:
    """Insert ``count`` user tasks (``pending``, so due on every tick when ``due``) in one transaction."""
    ids = [time_ordered_id(now - count + n) for n in range(count)]
    next_run = None if due else now + 86_400 * 365
    rows = (
        (task_id, f"Bench task {n}: check the project folder for changes and summarise them", "pending",
         next_run, now - count + n, "write" if n % 5 == 0 else "read", now)
        for n, task_id in enumerate(ids)
    )
    conn = _bulk_connection(db_path)
    try:
        conn.execute("BEGIN")
        conn.executemany(
            """INSERT INTO subconscious_tasks (id, title, source, recurrence, enabled, last_run_at, next_run_at,
                   completed, created_at, origin, seed_key, intent, intent_source, updated_at)
               VALUES (?, ?, 'user', ?, 1, NULL, ?, 0, ?, 'user', NULL, ?, 'keyword', ?)""",
            rows,
        )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return ids


DECISION_MIX = ("noop",) * 8 + ("act", "escalate", "failed")


def bulk_insert_log(db_path: Path, count: int, task_ids: Sequence[str], *, newest_at: float,
                    spacing: float = 0.5, seed: int = 1) -> None:
    """Insert ``count`` finished log rows, one every ``spacing`` seconds ending at ``newest_at``."""
    rng = random.Random(seed)
    oldest = newest_at - (count - 1) * spacing
    ids = list(task_ids) or ["no-task"]

    def rows() -> Iterator[tuple[Any, ...]]:
        for n in range(count):
            created = oldest + n * spacing
            decision = DECISION_MIX[n % len(DECISION_MIX)]
            task_id = ids[rng.randrange(len(ids))]
            yield (time_ordered_id(created), task_id, created, decision,
                   f"Nothing new in the project folder since the last check ({n})", 12 + n % 900, created,
                   "Bench task: check the project folder for changes", n // 1000, created)

    conn = _bulk_connection(db_path)
    try:
        conn.execute("BEGIN")
        conn.executemany(
            """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, duration_ms, created_at,
                   task_title, generation, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            rows(),
        )
        conn.execute("COMMIT")
        conn.execute("ANALYZE")
    finally:
        conn.close()


def log_created_at_at_depth(db_path: Path, depth: int) -> float:
    """``created_at`` of the log row ``depth`` rows from the newest (the ``before`` that pages past it)."""
    conn = sqlite3.connect(db_path)
    try:
        row = conn.execute(
            "SELECT created_at FROM subconscious_log ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?", (depth,)
        ).fetchone()
    finally:
        conn.close()
    if row is None:
        raise ValueError(f"the log has fewer than {depth + 1} rows")
    return float(row[0])


def depths(total: int, wanted: Sequence[int]) -> list[int]:
    """The wanted depths that still have a full page of 50 older rows, plus the deepest such depth."""
    result = [depth for depth in wanted if depth <= total - 51]
    deepest = total - 51 if total > 51 else 0
    if deepest not in result:
        result.append(deepest)
    return sorted(set(result))


CLOSED_PORT_URL = "http://127.0.0.1:9"  # a model endpoint where nothing listens: the app's checks fail fast


# --- a fake model server in a process of its own -------------------------------------------------

_MODEL_SERVER = """
import importlib, sys
from tests.fakes.model_servers import FakeOllama
module, _, name = sys.argv[2].partition(":")
with FakeOllama() as fake:
    for model in sys.argv[3:]:
        fake.add_model(model, context_length=int(sys.argv[1]))
    fake.set_responder(getattr(importlib.import_module(module), name))
    print(fake.url, flush=True)
    sys.stdin.read()  # until the bench closes our stdin
"""


class ModelServerProcess:
    """The fake Ollama server in a child process, as a real Ollama is: its work never holds our GIL.

    Args:
        responder: ``"module:function"`` answering each chat body (see ``FakeOllama.set_responder``).
        models: the model names it knows, each with ``context`` tokens of context window.
    """

    def __init__(self, responder: str, models: Sequence[str], *, context: int = 131_072) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _MODEL_SERVER, str(context), responder, *models],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=str(REPO), text=True,
        )
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()
        if not self.url:
            self.close()
            raise RuntimeError("the fake model server did not start")

    def close(self) -> None:
        process = self.process
        if process.stdin is not None and not process.stdin.closed:
            process.stdin.close()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


# --- the real app as a subprocess ---------------------------------------------------------------


class AppProcess:
    """``python -m openhuman_desktop --headless --workspace DIR``, started and stopped cleanly.

    Output goes to ``DIR/bench-app.out`` (not a pipe, so it can never fill up and block the app).
    """

    def __init__(self, paths: Paths, *, start_timeout: float = 60.0) -> None:
        self.paths = paths
        self.start_timeout = start_timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.token = ""
        self.started_in_ms = 0.0
        self._out: Any = None

    @property
    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError("the app is not running")
        return self.process.pid

    def start(self) -> Self:
        """Start the app and wait until it published ``run/rpc.json`` for its own pid."""
        self.paths.rpc_file.unlink(missing_ok=True)
        self._out = (self.paths.workspace / "bench-app.out").open("wb")
        env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        env.pop("OLLAMA_HOST", None)
        started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "openhuman_desktop", "--headless", "--workspace", str(self.paths.workspace)],
            stdin=subprocess.DEVNULL, stdout=self._out, stderr=subprocess.STDOUT, env=env, cwd=str(REPO),
        )
        deadline = started + self.start_timeout
        while time.perf_counter() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the app exited with {self.process.returncode}: {self.output()[-2000:]}")
            info = self._rpc_info()
            if info is not None:
                self.url, self.token = info["url"], info["token"]
                self.started_in_ms = ms_since(started)
                return self
            time.sleep(0.05)
        self.stop()
        raise TimeoutError(f"the app did not publish {self.paths.rpc_file} in {self.start_timeout} s")

    def _rpc_info(self) -> dict[str, Any] | None:
        try:
            info = json.loads(self.paths.rpc_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return info if isinstance(info, dict) and info.get("pid") == self.pid else None

    def output(self) -> str:
        try:
            return (self.paths.workspace / "bench-app.out").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def stop(self, timeout: float = 30.0) -> int | None:
        """SIGTERM, wait for a clean exit (SIGKILL after ``timeout``); returns the exit code."""
        process, self.process = self.process, None
        code = None
        if process is not None:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            code = process.returncode
        if self._out is not None:
            self._out.close()
            self._out = None
        return code

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


class RpcCaller:
    """A persistent ``httpx.Client`` calling ``openhuman.*`` methods with the bearer token."""

    def __init__(self, url: str, token: str) -> None:
        import httpx

        self._url = url
        self._client = httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=60.0)
        self._next_id = 0

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """Call ``openhuman.<method>`` and return its result (raises on a JSON-RPC error)."""
        self._next_id += 1
        body = {"jsonrpc": "2.0", "id": self._next_id, "method": f"openhuman.{method}", "params": params or {}}
        response = self._client.post(self._url, json=body)
        response.raise_for_status()
        answer = response.json()
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer["result"]

    def post_raw(self, body: bytes) -> int:
        """POST ``body`` as it is and read the whole answer; returns the HTTP status."""
        response = self._client.post(self._url, content=body, headers={"Content-Type": "application/json"})
        response.read()
        return response.status_code

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
