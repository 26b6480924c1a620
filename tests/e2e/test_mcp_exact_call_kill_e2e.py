"""An MCP server's write under the gate and kill -9 (issue 21): a card for exactly one call of a write tool of a
configured MCP server (``fx__append_note``: not idempotent, so never re-run after a kill that may have let it
happen). Go ahead is sent and the real headless app killed at random points, restarted and checked, again and
again: the note was appended exactly once (the card approved, its run completed) or not at all (the card pending
again), or — killed while the call was under way — the person is asked whether it happened; never twice. The
server is started anew by every restart of the app, so the approved run also waits for its tool to come back.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_approval_crash_window_e2e import approve, card, database, where_killed
from tests.e2e.test_exact_call_kill_e2e import seed_call_card
from tests.fakes.app_process import AppProcess, wait_for
from tests.fakes.engine_harness import API_KEY, API_KEY_ENV, REASONING_MODEL, config_text
from tests.fakes.model_servers import FakeOpenAI
from tests.skills.mcp_support import FIXTURE

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(400),
              pytest.mark.logs_expected(r"^Error handling request")]  # a fake server sees the killed app drop a request

KILLS = 10
NOTE = "effects.txt"


def seed_mcp_card(db_file: Path, number: int) -> tuple[str, str]:
    """A task with a pending exact-call card: append the card's own id to the fixture server's note."""
    return seed_call_card(db_file, number, tool="fx__append_note", skill="fx", path=NOTE, newline="")


def appended(fixture_dir: Path) -> Counter[str]:
    path = fixture_dir / NOTE
    return Counter(path.read_text(encoding="utf-8").split()) if path.exists() else Counter()


def uncertain_cards(db_file: Path, task_id: str) -> list[tuple[str, str]]:
    """Pending cards of the task other than the seeded one that say the call may or may not have happened."""
    with database(db_file) as db:
        db.row_factory = sqlite3.Row
        rows = db.execute("SELECT id, title, description, proposed_call FROM subconscious_escalations "
                          "WHERE task_id = ? AND status = 'pending'", (task_id,)).fetchall()
    return [(row["id"], row["proposed_call"] or "") for row in rows
            if "may or may not have happened" in f"{row['title']} {row['description']}"]


def test_kill_9_around_go_ahead_on_an_mcp_write_never_runs_it_twice(tmp_path: Path) -> None:
    rng = random.Random(20261221)
    workspace, fixture_dir = tmp_path / "ws", tmp_path / "fixture"
    fixture_dir.mkdir()
    with FakeOpenAI(require_api_key=API_KEY) as openai:  # there, but never asked: an exact call needs no model
        openai.add_model(REASONING_MODEL)
        config = config_text(local_url=None, reasoning_url=openai.url) + f"""
[skills.mcp.fx]
command = {json.dumps(sys.executable)}
args = [{json.dumps(str(FIXTURE))}]
env = {{ FIXTURE_DIR = {json.dumps(str(fixture_dir))} }}
"""
        app = AppProcess(workspace, config=config, env={API_KEY_ENV: API_KEY}).start()
        try:
            for task in app.result("subconscious_tasks_list"):
                app.result("subconscious_tasks_update", {"task_id": task["id"], "enabled": False})
            outcomes: Counter[str] = Counter()
            killed_at: Counter[str] = Counter()
            done: list[str] = []
            escalation_id, task_id = seed_mcp_card(app.db_file, 0)
            for kill in range(KILLS):
                approve(app, escalation_id, rng)
                killed_at[where_killed(workspace, app.db_file, escalation_id)] += 1
                app.start()

                def settled(escalation_id: str = escalation_id) -> dict[str, Any] | None:
                    state = card(app.db_file, escalation_id)
                    return None if state["decision"] == "in_progress" else state

                state = wait_for(settled, 120, f"the MCP call of kill {kill} to settle")
                ran = appended(fixture_dir)[escalation_id]
                assert ran <= 1, f"kill {kill}: the approved MCP write ran {ran} times"
                asked = uncertain_cards(app.db_file, task_id)
                if state["status"] == "approved" and asked:
                    # killed while the call was under way: not run again, the person is asked about exactly it
                    [(_, proposed)] = asked
                    assert json.loads(proposed)["tool"] == "fx__append_note", proposed
                    outcomes["asked whether it happened"] += 1
                    if ran:
                        done.append(escalation_id)
                    escalation_id, task_id = seed_mcp_card(app.db_file, kill + 1)
                elif state["status"] == "approved":
                    assert state["decision"] == "act", f"kill {kill}: approved but not carried out: {state}"
                    assert ran == 1, f"kill {kill}: approved and done, but the MCP call did not happen: {state}"
                    [run] = app.result("agent_runs_list", {"thread_id": f"subconscious:{task_id}"})
                    assert (run["purpose"], run["status"]) == ("call", "completed"), run
                    outcomes["ran once"] += 1
                    done.append(escalation_id)
                    escalation_id, task_id = seed_mcp_card(app.db_file, kill + 1)
                else:
                    assert (state["status"], state["decision"]) == ("pending", "escalate"), (
                        f"kill {kill}: the card came back: {state}")
                    assert ran == 0, f"kill {kill}: a pending card's MCP call ran"
                    outcomes["never approved"] += 1
            final = appended(fixture_dir)
            assert all(count == 1 for count in final.values()), final
            assert set(done) <= set(final), (done, final)
            assert outcomes["ran once"] >= KILLS // 3, outcomes
            assert openai.chat_requests == [], "an exact call asks no model"
            app.stop()
        finally:
            app.kill()
    print(f"{KILLS} kills: {dict(outcomes)}; killed {dict(killed_at)}")
