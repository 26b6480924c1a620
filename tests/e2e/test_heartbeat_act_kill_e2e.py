"""The heartbeat's own writes are journaled agent runs (issue 25): kill -9 the real headless app at random points
while a tick's ``act`` writes status.md, restart it, and every act run that began finishes with its write
exactly once — none lost, none repeated — and each write is one world-timeline entry.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.app_process import AppProcess, wait_for
from tests.fakes.engine_harness import LOCAL_MODEL, Brain, Json, config_text, first_user_text, last_is_tool_result
from tests.fakes.model_servers import FakeOllama, Reply

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300),
              pytest.mark.logs_expected(r"^Error handling request")]  # a fake server sees the killed app drop a request

KILLS = 15
MAX_KILL_DELAY = 0.4
STATUS_FILE = "status.md"
CLOCK_FILE = "clock.md"
_MARK = re.compile(r"Why now: (mark-\d+)")


def act_model() -> Brain:
    """The local model: every evaluation says act on the status task (with a fresh mark as its reason); an act
    appends its mark to status.md, then says so."""
    brain = Brain()
    marks = iter(range(1, 1_000_000))
    brain.decide = lambda task_id, title: {"decision": "act", "reason": f"mark-{next(marks)}"}

    def execute(body: Json) -> Reply:
        if last_is_tool_result(body):
            return Reply(content="Wrote the status.", delay=0.02)
        found = _MARK.search(first_user_text(body))
        mark = found.group(1) if found else "unknown"
        return Reply(tool_calls=[{"name": "files_append", "arguments": {"path": STATUS_FILE, "text": f"{mark}\n"}}],
                     delay=0.02)

    brain.execute = execute
    return brain


def writes(workspace: Path) -> Counter[str]:
    path = workspace / STATUS_FILE
    return Counter(path.read_text(encoding="utf-8").split()) if path.exists() else Counter()


def test_kill_9_mid_act_neither_loses_nor_repeats_the_heartbeats_write(tmp_path: Path) -> None:
    rng = random.Random(20261203)
    workspace = tmp_path / "ws"
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL_MODEL)
        ollama.set_responder(act_model())
        config = config_text(local_url=ollama.url, reasoning_url=None)
        app = AppProcess(workspace, config=config, ollama_url=ollama.url).start()
        try:
            for task in app.result("subconscious_tasks_list"):
                app.result("subconscious_tasks_update", {"task_id": task["id"], "enabled": False})
            task = app.result("subconscious_tasks_add", {"title": "Write the time to status.md"})
            task = app.result("subconscious_tasks_update", {"task_id": task["id"], "intent": "write"})
            thread = f"subconscious:{task['id']}"
            killed_mid_run = 0
            for kill in range(KILLS):
                with (workspace / CLOCK_FILE).open("a", encoding="utf-8") as clock:
                    clock.write(f"time check {kill}\n")  # news that touches the task: each tick acts
                app.result("subconscious_trigger")
                time.sleep(rng.uniform(0.0, MAX_KILL_DELAY))
                runs = app.result("agent_runs_list", {"thread_id": thread, "limit": 1000})
                killed_mid_run += any(run["status"] in ("queued", "running") for run in runs)
                app.kill()
                app.start()

                def settled() -> list[dict[str, Any]] | None:
                    runs = app.result("agent_runs_list", {"thread_id": thread, "limit": 1000})
                    return None if any(run["status"] in ("queued", "running") for run in runs) else runs

                runs = wait_for(settled, what=f"the act runs of kill {kill} to finish")
                counts = writes(workspace)
                assert all(count == 1 for count in counts.values()), f"kill {kill}: a write repeated: {counts}"
                for run in runs:
                    found = _MARK.search(run["input"])
                    assert found, run["input"][:200]
                    assert run["status"] == "completed", f"kill {kill}: {run['status']}: {run['error']}"
                    assert counts[found.group(1)] == 1, f"kill {kill}: run {run['id']}'s write was lost"
                    assert (run["tier"], run["purpose"]) == ("quick", "escalation")
            final = writes(workspace)
            runs = app.result("agent_runs_list", {"thread_id": thread, "limit": 1000})
            assert len(final) == len(runs) > KILLS // 2, (len(final), len(runs))
            timeline = app.result("world_timeline", {"limit": 1000})
            assert len(timeline) == len(runs), "one world-timeline entry per heartbeat write"
            assert {entry["run_id"] for entry in timeline} == {run["id"] for run in runs}
            assert killed_mid_run >= 3, killed_mid_run  # the window that matters is really hit
            app.stop()
        finally:
            app.kill()
    print(f"{KILLS} kills, {killed_mid_run} mid-run; {len(final)} writes: {json.dumps(sorted(final))[:200]}")
