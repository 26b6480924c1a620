"""Skills through MCP (issue 21): start-up with 5 servers, the client's overhead per tool call over stdio, listing
200 tools and choosing the ones a task needs (and whether the prompt then fits SmolLM2's 8k window), and the idle
memory of the app with 5 servers (the servers' own counted apart).

The servers are the test suite's fixture (tests/skills/mcp_fixture_server.py, the SDK's server side), started
with this Python.

    python bench/mcp_bench.py            # ~2 min
    python bench/mcp_bench.py --quick    # a few runs of each, what the smoke test uses
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.common import (  # noqa: E402
    AppProcess,
    RpcCaller,
    budget,
    figure,
    load_note,
    machine,
    ms_since,
    note,
    prepare_workspace,
    rss_mb,
)
from openhuman_desktop.clock import SystemClock  # noqa: E402
from openhuman_desktop.config_skills import McpServerSettings  # noqa: E402
from openhuman_desktop.llm.base import ToolSpec  # noqa: E402
from openhuman_desktop.llm.tokens import TokenCounter  # noqa: E402
from openhuman_desktop.orchestration import prompts  # noqa: E402
from openhuman_desktop.orchestration.subagent import tools_text  # noqa: E402
from openhuman_desktop.orchestration.tool_calls import compact_spec  # noqa: E402
from openhuman_desktop.skills.base import SkillRegistry, ToolContext  # noqa: E402
from openhuman_desktop.skills.mcp.server import McpSkill  # noqa: E402

FIXTURE = REPO / "tests" / "skills" / "mcp_fixture_server.py"
SMOLLM2_WINDOW = 8192
ANSWER_TOKENS = 1024
SERVERS = 5


def server_settings(name: str, fixture_dir: Path, *extra: str) -> McpServerSettings:
    return McpServerSettings(name, command=sys.executable, args=(str(FIXTURE), *extra),
                             env={"FIXTURE_DIR": str(fixture_dir)})


def servers_toml(fixture_dir: Path, count: int) -> str:
    return "".join(f'\n[skills.mcp.s{n}]\ncommand = {json.dumps(sys.executable)}\nargs = [{json.dumps(str(FIXTURE))}]\n'
                   f'env = {{ FIXTURE_DIR = {json.dumps(str(fixture_dir))} }}\n' for n in range(count))


async def connected(skill: McpSkill) -> McpSkill:
    skill.start()
    deadline = time.monotonic() + 120
    while skill.state != "connected":
        if skill.state == "error" or time.monotonic() > deadline:
            raise RuntimeError(f"{skill.name}: {skill.state} {skill.reason}")
        await asyncio.sleep(0.02)
    return skill


# --- start-up -----------------------------------------------------------------------------------


def startup(root: Path, repeats: int) -> None:
    fixture_dir = root / "fixture"
    fixture_dir.mkdir(parents=True, exist_ok=True)
    base = "[heartbeat]\nenabled = false\n\n[channels.webapp]\nenabled = false\n"
    times: dict[int, list[float]] = {0: [], SERVERS: []}
    for attempt in range(repeats):
        for count in (0, SERVERS):  # alternated, so the machine's load falls on both alike
            paths = prepare_workspace(root / f"start-{count}-{attempt}", base + servers_toml(fixture_dir, count))
            with AppProcess(paths) as app:
                times[count].append(app.started_in_ms)
    without = figure("app start to RPC, no MCP server", times[0])
    with_servers = figure(f"app start to RPC, {SERVERS} MCP servers configured", times[SERVERS])
    budget(f"start-up cost of {SERVERS} MCP servers (median difference)", with_servers.median - without.median,
           50, "ms")


# --- the call overhead --------------------------------------------------------------------------------


async def call_overhead(root: Path, calls: int) -> None:
    skill = await connected(McpSkill(server_settings("fx", root), SystemClock(), TokenCounter()))
    try:
        tool = next(t for t in skill.tools() if t.name == "fx__env_value")
        session = skill._connection.session  # the SDK's own call, for comparison
        for _ in range(10):  # warm up both paths
            await tool.run({"name": "HOME"}, ToolContext())
            await session.call_tool("env_value", {"name": "HOME"})
        ours, sdk = [], []
        cpu_ours = 0.0
        for _ in range(calls):   # alternated, so the machine's load falls on both alike
            cpu_before, started = time.process_time(), time.perf_counter()
            await tool.run({"name": "HOME"}, ToolContext())
            ours.append(ms_since(started))
            cpu_ours += (time.process_time() - cpu_before) * 1000 / calls
            started = time.perf_counter()
            await session.call_tool("env_value", {"name": "HOME"}, read_timeout_seconds=60.0)
            sdk.append(ms_since(started))
        figure(f"tool call round trip over stdio, {calls} calls (the server's work included)", ours)
        figure(f"the SDK's call_tool alone, {calls} calls", sdk)
        note(f"this process's CPU per call (client side only; the server is another process): {cpu_ours:.2f} ms")
        ordered_ours, ordered_sdk = sorted(ours), sorted(sdk)
        added = ordered_ours[len(ours) // 2] - ordered_sdk[len(sdk) // 2]
        note(f"what our layer adds to the SDK's call, median: {added:.2f} ms")
        budget("tool call overhead over stdio, client side (CPU per call)", cpu_ours, 2, "ms")
    finally:
        await skill.stop()


# --- 200 tools ---------------------------------------------------------------------------------------------


async def many_tools(root: Path, repeats: int) -> None:
    tokens = TokenCounter()
    skill = await connected(McpSkill(server_settings("big", root, "--many", "200"), SystemClock(), tokens))
    try:
        listed = await skill._connection.list_tools()
        registry = SkillRegistry()
        registry.add(skill)
        task = "Which flights do I have booked next week, and is any of them delayed?"
        samples, cpu = [], []
        offer = registry.offer(include_writes=False, task=task)
        for _ in range(repeats):
            cpu_before, started = time.process_time(), time.perf_counter()
            skill._apply(listed)   # the listing as the app takes it in: names, access, Tool objects
            offer = registry.offer(include_writes=False, task=task)
            samples.append(ms_since(started))
            cpu.append((time.process_time() - cpu_before) * 1000)
        figure(f"take in {len(listed)} listed tools and choose the ones a task needs (wall)", samples)
        figure(f"take in {len(listed)} listed tools and choose the ones a task needs (this process's CPU)", cpu)
        # The CPU figure: on a machine shared by other work the wall time is mostly waiting for a core.
        budget("listing 200 tools and choosing (median CPU)", sorted(cpu)[len(cpu) // 2], 20, "ms")
        note(f"offered {len(offer.tools)} tools ({', '.join(t.name for t in offer.tools[:3])} …), "
             f"left out {offer.left_out}")

        def prompt_tokens(specs: list[ToolSpec]) -> int:
            user = f"Sub-task: Find the flights\n{task}\n\n{tools_text(specs)}\n\n{offer.note()}"
            schemas = json.dumps([{"type": "function", "function": {"name": s.name, "description": s.description,
                                                                     "parameters": s.parameters}} for s in specs])
            return tokens.count(prompts.SUBAGENT_READ) + tokens.count(user) + tokens.count(schemas)

        chosen = prompt_tokens([compact_spec(t.spec) for t in offer.tools])
        every = prompt_tokens([compact_spec(t.spec) for t in skill.tools()])
        note(f"a sub-agent's first request with every one of the {len(skill.tools())} tools: {every:,} tokens "
             f"(over the {SMOLLM2_WINDOW:,}-token window)")
        budget(f"the sub-agent's prompt with the chosen tools plus a {ANSWER_TOKENS}-token answer, in SmolLM2's "
               "window", chosen + ANSWER_TOKENS, SMOLLM2_WINDOW, "tokens")
    finally:
        await skill.stop()


# --- idle memory -------------------------------------------------------------------------------------------


def children_rss(pid: int) -> tuple[int, float]:
    """How many processes descend from ``pid`` and their RSS in MiB, summed."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
            except (OSError, ValueError):
                continue
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        kids = [child for child, ppid in parents.items() if ppid == parent]
        found += kids
        frontier += kids
    total = 0.0
    for child in found:
        try:
            total += rss_mb(child)
        except (OSError, KeyError):
            continue
    return len(found), total


def idle_memory(root: Path, settle: float) -> None:
    fixture_dir = root / "fixture"
    fixture_dir.mkdir(parents=True, exist_ok=True)
    base = "[heartbeat]\nenabled = false\n\n[channels.webapp]\nenabled = false\n"
    for count in (0, SERVERS):
        paths = prepare_workspace(root / f"idle-{count}", base + servers_toml(fixture_dir, count))
        with AppProcess(paths) as app, RpcCaller(app.url, app.token) as rpc:
            deadline = time.monotonic() + 180
            while count and not all(s["state"] == "connected" for s in rpc.call("skills_list") if s["kind"] == "mcp"):
                if time.monotonic() > deadline:
                    raise RuntimeError("the MCP servers did not connect")
                time.sleep(0.2)
            time.sleep(settle)
            processes, servers = children_rss(app.pid)
            note(f"idle RSS of the headless app with {count} MCP servers: {rss_mb(app.pid):.1f} MiB"
                 + (f"; the servers' {processes} processes: {servers:.1f} MiB together" if count else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a few runs of each (the smoke test)")
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args()
    note(machine())
    load_note()
    with tempfile.TemporaryDirectory(prefix="oh-mcp-bench-") as tmp:
        root = Path(tmp)
        os.environ["FIXTURE_DIR"] = str(root)
        asyncio.run(call_overhead(root, 20 if args.quick else args.calls))
        asyncio.run(many_tools(root, 5 if args.quick else 50))
        startup(root, 1 if args.quick else args.starts)
        if not args.quick:
            idle_memory(root, settle=5.0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
