"""Idle benchmark: resident memory and CPU of the real headless app while it has nothing to do."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (  # noqa: E402
    AppProcess,
    RpcCaller,
    budget,
    config_text,
    cpu_seconds,
    load_note,
    machine,
    note,
    prepare_workspace,
    rss_mb,
    stats,
    status_kb,
)
from bench.responders import noop_responder  # noqa: E402
from tests.fakes.model_servers import FakeOllama  # noqa: E402

RSS_BUDGET_MB = 80.0
CPU_EXPECTATION_PERCENT = 1.0


EMBEDDING_MODEL = "nomic-embed-text"
MEMORIES = 200


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="settle 3 s, sample 5 s")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds to wait after start-up")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds to sample")
    parser.add_argument("--vectors", action="store_true",
                        help="with [models.embedding] and [models.subconscious] set and 200 memories embedded")
    args = parser.parse_args(argv)
    if args.quick:
        args.settle, args.seconds = 3.0, 5.0
    return args


def context_switches(pid: int) -> int:
    """Voluntary + involuntary context switches of every thread: how often the process woke up."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "status").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                total += int(line.split()[1])
    return total


def baseline_rss(code: str) -> float:
    """RSS (MiB) of a fresh interpreter after running ``code``: what imports alone cost.

    (VmRSS, not ru_maxrss: a child's ru_maxrss includes the parent's size at fork time.)
    """
    report = "\nfrom pathlib import Path\nprint(Path('/proc/self/status').read_text().split('VmRSS:')[1].split()[0])"
    result = subprocess.run(
        [sys.executable, "-c", code + report],
        capture_output=True, text=True, check=True, cwd=str(Path(__file__).resolve().parent.parent),
    )
    return int(result.stdout.split()[-1]) / 1024


def sample(pid: int, seconds: float) -> tuple[list[float], float, float]:
    """RSS every second, CPU seconds used and context switches per second over ``seconds``."""
    rss = [rss_mb(pid)]
    cpu_start, switches_start, started = cpu_seconds(pid), context_switches(pid), time.monotonic()
    while time.monotonic() - started < seconds:
        time.sleep(1.0)
        rss.append(rss_mb(pid))
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(pid) - cpu_start
    wakeups = (context_switches(pid) - switches_start) / elapsed
    return rss, cpu / elapsed * 100, wakeups


def idle_window(app: AppProcess, fake: FakeOllama, seconds: float, label: str) -> tuple[float, float, int]:
    """Sample one idle window; print its figures; return (max RSS MB, CPU %, chat requests during it)."""
    chats_before = len(fake.chat_requests)
    requests_before = len(fake.requests)
    rss, cpu_percent, wakeups = sample(app.pid, seconds)
    chats = len(fake.chat_requests) - chats_before
    other_requests = len(fake.requests) - requests_before
    peak = status_kb(app.pid, "VmHWM") / 1024
    threads = status_kb(app.pid, "Threads")
    summary = stats(rss)
    print(f"idle RSS headless, {label}: median {summary.median:.1f} MB, max {summary.maximum:.1f} MB "
          f"(peak since start VmHWM {peak:.1f} MB, {threads} threads, n={summary.count})", flush=True)
    print(f"idle CPU headless, {label}, over {seconds:.0f} s: {cpu_percent:.2f} % of one core, "
          f"{wakeups:.1f} context switches/s", flush=True)
    print(f"idle model requests, {label}: {chats} chat, {other_requests} requests of any kind", flush=True)
    return summary.maximum, cpu_percent, chats


def tick_once(app: AppProcess, timeout: float = 60.0) -> dict[str, Any]:
    """Run Now through RPC and wait until the tick is over; the status after it."""
    with RpcCaller(app.url, app.token) as rpc:
        before = rpc.call("subconscious_status")["total_ticks"]
        rpc.call("subconscious_trigger")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status: dict[str, Any] = rpc.call("subconscious_status")
            if status["state"] != "ticking" and (status["total_ticks"] > before or status["consecutive_failures"]):
                return status
            time.sleep(0.2)
    raise TimeoutError("the tick did not finish")


def run(args: argparse.Namespace, root: Path, fake: FakeOllama) -> int:
    config = config_text(heartbeat=True, ollama_url=fake.url)
    if args.vectors:
        config += (f'\n[models.embedding]\nprovider = "ollama"\nmodel = "{EMBEDDING_MODEL}"\n'
                   '\n[models.subconscious]\nprovider = "ollama"\nmodel = "qwen2.5:14b"\n')
    paths = prepare_workspace(root, config)
    with AppProcess(paths) as app:
        if args.vectors:
            with RpcCaller(app.url, app.token) as rpc:
                for n in range(MEMORIES):
                    rpc.call("memory_add", {"text": f"Note {n}: the garden needs water on day {n % 7}."})
                deadline = time.monotonic() + 60
                while rpc.call("memory_status")["with_vectors"] < MEMORIES and time.monotonic() < deadline:
                    time.sleep(0.2)
                note(f"{rpc.call('memory_status')['with_vectors']} of {MEMORIES} memories have vectors")
        note(f"app pid {app.pid} answering after {app.started_in_ms:.0f} ms; settling {args.settle:.0f} s")
        time.sleep(args.settle)
        before_rss, before_cpu, before_chats = idle_window(app, fake, args.seconds, "before any tick")
        fake.set_responder(noop_responder)
        status = tick_once(app)
        fake.set_responder(None)
        note(f"one tick over the {status['task_count']} default tasks: state {status['state']}, "
             f"{len(fake.chat_requests)} chat request(s) so far; settling {args.settle / 2:.0f} s")
        time.sleep(args.settle / 2)
        after_rss, after_cpu, after_chats = idle_window(app, fake, args.seconds, "after a tick")
        code = app.stop()
        note(f"app stopped with exit code {code}")
    print(f"baseline RSS: bare interpreter {baseline_rss('pass'):.1f} MB, after importing the headless core "
          f"{baseline_rss('import openhuman_desktop.headless'):.1f} MB", flush=True)
    budget("idle RSS headless (max over both windows)", max(before_rss, after_rss), RSS_BUDGET_MB, "MB")
    budget("idle CPU headless (expectation, not a DESIGN budget)", max(before_cpu, after_cpu),
           CPU_EXPECTATION_PERCENT, "%")
    budget("idle model chat calls during the windows", before_chats + after_chats, 0, "calls")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    note(machine())
    load_note()
    with FakeOllama() as fake, tempfile.TemporaryDirectory(prefix="oh-idle-bench-") as tmp:
        fake.add_model("llama3.2:3b")
        fake.add_model("qwen2.5:14b")
        fake.add_model(EMBEDDING_MODEL)
        return run(args, Path(tmp) / "workspace", fake)


if __name__ == "__main__":
    sys.exit(main())
