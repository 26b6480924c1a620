"""An exact-call card under kill -9 (issue 25): Go ahead carries out exactly the card's one tool call, once. The
real headless app is killed at random points after Go ahead, restarted and checked, again and again: the call
has either run exactly once (its run completed, the card approved, its row done) or — killed before Go ahead
was committed — not at all (the card pending, nothing ran). No model is asked at any point.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_approval_crash_window_e2e import approve, card, database, executions, where_killed
from tests.fakes.app_process import AppProcess, wait_for
from tests.fakes.engine_harness import API_KEY, API_KEY_ENV, REASONING_MODEL, config_text
from tests.fakes.model_servers import FakeOpenAI

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300),
              pytest.mark.logs_expected(r"^Error handling request")]  # a fake server sees the killed app drop a request

KILLS = 20
EFFECTS_FILE = "effects.log"


def seed_call_card(db_file: Path, number: int, *, tool: str = "files_append", skill: str = "files",
                   path: str = EFFECTS_FILE, newline: str = "\n") -> tuple[str, str]:
    """A task with a pending exact-call card: append the card's own id to ``path`` with ``tool``."""
    now = time.time()
    task_id, log_id, escalation_id = (str(uuid.uuid4()) for _ in range(3))
    title = f"Exact-call task {number}"
    call = {"tool": tool, "arguments": {"path": path, "text": f"{escalation_id}{newline}"},
            "reason": "The approved run wanted to do this as well.", "skill": skill}
    with database(db_file) as db:
        db.execute("BEGIN IMMEDIATE")
        db.execute(
            """INSERT INTO subconscious_tasks (id, title, source, recurrence, enabled, created_at, origin, intent,
                   intent_source, updated_at) VALUES (?, ?, 'user', 'pending', 1, ?, 'user', 'read', 'user', ?)""",
            (task_id, title, now, now),
        )
        db.execute(
            """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, created_at, task_title)
               VALUES (?, ?, ?, 'escalate', 'Waiting for approval', ?, ?)""",
            (log_id, task_id, now, now, title),
        )
        db.execute(
            """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority, status,
                   created_at, run_id, thread_id, proposed_call, call_key)
               VALUES (?, ?, ?, ?, ?, 'normal', 'pending', ?, 'seeded-run', ?, ?, ?)""",
            (escalation_id, task_id, log_id, f"Allow {tool} ({path})?", "Append the id",
             now, f"subconscious:{task_id}", json.dumps(call), escalation_id),
        )
        db.execute("COMMIT")
    return escalation_id, task_id


def test_kill_9_between_go_ahead_and_the_exact_call_runs_it_exactly_once(tmp_path: Path) -> None:
    rng = random.Random(20261202)
    workspace = tmp_path / "ws"
    with FakeOpenAI(require_api_key=API_KEY) as openai:  # there, but never asked: an exact call needs no model
        openai.add_model(REASONING_MODEL)
        config = config_text(local_url=None, reasoning_url=openai.url)
        app = AppProcess(workspace, config=config, env={API_KEY_ENV: API_KEY}).start()
        try:
            for task in app.result("subconscious_tasks_list"):
                app.result("subconscious_tasks_update", {"task_id": task["id"], "enabled": False})
            outcomes: Counter[str] = Counter()
            killed_at: Counter[str] = Counter()
            done: list[str] = []
            escalation_id, task_id = seed_call_card(app.db_file, 0)
            for kill in range(KILLS):
                approve(app, escalation_id, rng)
                killed_at[where_killed(workspace, app.db_file, escalation_id)] += 1
                app.start()

                def settled(escalation_id: str = escalation_id) -> dict[str, Any] | None:
                    state = card(app.db_file, escalation_id)
                    return None if state["decision"] == "in_progress" else state

                state = wait_for(settled, what=f"the exact call of kill {kill} to settle")
                ran = executions(workspace)[escalation_id]
                assert ran <= 1, f"kill {kill}: the approved call ran {ran} times"
                if state["status"] == "approved":
                    assert state["decision"] == "act", f"kill {kill}: approved but not carried out: {state}"
                    assert ran == 1, f"kill {kill}: approved and done, but the call did not happen"
                    runs = app.result("agent_runs_list", {"thread_id": f"subconscious:{task_id}"})
                    [run] = runs  # resumed, never started twice
                    assert (run["purpose"], run["status"], run["changed_something"]) == ("call", "completed", True)
                    assert run["title"].startswith("Approved: ")
                    outcomes["ran once"] += 1
                    done.append(escalation_id)
                    escalation_id, task_id = seed_call_card(app.db_file, kill + 1)
                else:
                    assert (state["status"], state["decision"], state["note"]) == ("pending", "escalate", ""), (
                        f"kill {kill}: the card came back: {state}")
                    assert ran == 0, f"kill {kill}: a pending card's call ran"
                    outcomes["never approved"] += 1
            final = executions(workspace)
            assert all(final[key] == 1 for key in done) and sum(final.values()) == len(done), final
            assert outcomes["ran once"] > KILLS // 2, outcomes
            assert openai.chat_requests == [], "an exact call asks no model"
            timeline = app.result("world_timeline", {"limit": 1000})
            assert len(timeline) == len(done), "one world-timeline entry per call that ran"
            app.stop()
        finally:
            app.kill()
    print(f"{KILLS} kills: {dict(outcomes)}; killed {dict(killed_at)}")
