"""The approve window under kill -9: the real headless app is killed at random points after Go ahead,
restarted and checked, again and again. The approved action is an agent run (issue 11): a kill after Go
ahead was committed leaves the run unfinished in the ledger, and the restart resumes it from its last
checkpoint, so after every restart the approval has either run to its end (its write exactly once, one run,
completed) or — killed before Go ahead was committed — was never approved (the card is pending, untouched,
nothing ran). Never approved-with-nothing, never a card back while its run goes on, never a write twice.
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.fakes.app_process import AppProcess, wait_for
from tests.fakes.engine_harness import (
    API_KEY,
    API_KEY_ENV,
    REASONING_MODEL,
    Brain,
    Json,
    config_text,
    first_user_text,
    last_is_tool_result,
)
from tests.fakes.model_servers import FakeOpenAI, Reply

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300),
              pytest.mark.logs_expected(r"^Error handling request")]  # a fake server sees the killed app drop a request

KILLS = 50
MAX_KILL_DELAY = 0.030
EFFECTS_FILE = "effects.log"
ACTION_PREFIX = "append the line "


@contextlib.contextmanager
def database(path: Path) -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(path, timeout=10, isolation_level=None)
    try:
        yield connection
    finally:
        connection.close()


def seed_card(db_file: Path, number: int) -> tuple[str, str]:
    """A read-only task whose analysis recommended an action: the task, its row and its pending card."""
    now = time.time()
    task_id, log_id, escalation_id = (str(uuid.uuid4()) for _ in range(3))
    title = f"Crash-window task {number}"
    with database(db_file) as db:
        db.execute("BEGIN IMMEDIATE")
        db.execute(
            """INSERT INTO subconscious_tasks (id, title, source, recurrence, enabled, created_at, origin, intent,
                   intent_source, updated_at) VALUES (?, ?, 'user', 'once', 1, ?, 'user', 'read', 'user', ?)""",
            (task_id, title, now, now),
        )
        db.execute(
            """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, created_at, task_title)
               VALUES (?, ?, ?, 'escalate', 'Waiting for approval', ?, ?)""",
            (log_id, task_id, now, now, title),
        )
        db.execute(
            """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority, status,
                   created_at) VALUES (?, ?, ?, ?, ?, 'normal', 'pending', ?)""",
            (escalation_id, task_id, log_id, title, f"{ACTION_PREFIX}{escalation_id} to {EFFECTS_FILE}", now),
        )
        db.execute("COMMIT")
    return escalation_id, task_id


def card(db_file: Path, escalation_id: str) -> dict[str, Any]:
    """The card's status and note and the decision and result of its row: the row its Go ahead added (issue 25),
    else its own."""
    with database(db_file) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(subconscious_escalations)")}
        note = "e.note" if "note" in columns else "''"
        row = "coalesce(e.run_log_id, e.log_id)" if "run_log_id" in columns else "e.log_id"
        status, note, decision, result = db.execute(
            f"""SELECT e.status, {note}, l.decision, l.result FROM subconscious_escalations AS e
                JOIN subconscious_log AS l ON l.id = {row} WHERE e.id = ?""",
            (escalation_id,),
        ).fetchone()
    return {"status": status, "note": note, "decision": decision, "result": result}


def where_killed(workspace: Path, db_file: Path, escalation_id: str) -> str:
    """Where the kill found the approval: its card and its agent run (read from the files it left)."""
    with database(db_file) as db:
        status, decision = db.execute(
            """SELECT e.status, l.decision FROM subconscious_escalations AS e JOIN subconscious_log AS l
               ON l.id = coalesce(e.run_log_id, e.log_id) WHERE e.id = ?""", (escalation_id,)).fetchone()
    ledger = workspace / "agent" / "ledger.db"
    runs: list[str] = []
    if ledger.exists():
        with database(ledger) as db:
            runs = [row[0] for row in db.execute("SELECT status FROM runs WHERE escalation_id = ?", (escalation_id,))]
    if status == "pending":
        return "before Go ahead was committed"
    if not runs:
        return "approved, its run not created yet"
    if runs[0] in ("queued", "running"):
        return "mid-run"
    return "run ended, card not yet updated" if decision == "in_progress" else "after everything"


def executions(workspace: Path) -> Counter[str]:
    """How often the tool really appended each escalation's line."""
    path = workspace / EFFECTS_FILE
    return Counter(path.read_text(encoding="utf-8").split()) if path.exists() else Counter()


def approving_model() -> Brain:
    """The reasoning model of an approved run: append the escalation's id to effects.log, then say so."""
    brain = Brain()

    def execute(body: Json) -> Reply:
        if last_is_tool_result(body):
            return Reply(content="Appended the line.")
        text = first_user_text(body)
        marker = text.split(ACTION_PREFIX, 1)[1].split()[0] if ACTION_PREFIX in text else "unknown"
        return Reply(tool_calls=[{"name": "files_append",
                                  "arguments": {"path": EFFECTS_FILE, "text": f"{marker}\n"}}], delay=0.005)

    brain.execute = execute
    return brain


def approve(app: AppProcess, escalation_id: str, rng: random.Random) -> None:
    """Send Go ahead over RPC and kill -9 the app at a random point: mostly 0-30 ms after the answer (the
    run's window), sometimes while the request is still being handled (the commit's window)."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "openhuman.subconscious_escalations_approve",
                       "params": {"escalation_id": escalation_id}})
    url, headers = app.url, {"Authorization": f"Bearer {app.token}", "Content-Type": "application/json"}
    answered = threading.Event()

    def send() -> None:  # its own client, closed here: the kill closes app.http while this request may be in flight
        with httpx.Client(timeout=30.0) as http, contextlib.suppress(httpx.HTTPError):
            http.post(url, content=body, headers=headers)
        answered.set()

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    if rng.random() < 0.25:
        time.sleep(rng.uniform(0.0, 0.005))
    else:
        answered.wait(10)
        time.sleep(rng.uniform(0.0, MAX_KILL_DELAY))
    app.kill()
    thread.join(10)


def test_kill_9_anywhere_in_the_approve_window_resumes_the_approved_run_and_writes_once(tmp_path: Path) -> None:
    rng = random.Random(20261201)
    workspace = tmp_path / "ws"
    with FakeOpenAI(require_api_key=API_KEY) as openai:
        openai.add_model(REASONING_MODEL)
        openai.set_responder(approving_model())
        config = config_text(local_url=None, reasoning_url=openai.url)
        app = AppProcess(workspace, config=config, env={API_KEY_ENV: API_KEY}).start()
        try:
            for task in app.result("subconscious_tasks_list"):  # only the seeded tasks matter
                app.result("subconscious_tasks_update", {"task_id": task["id"], "enabled": False})
            outcomes: Counter[str] = Counter()
            killed_at: Counter[str] = Counter()
            done: list[str] = []
            escalation_id, task_id = seed_card(app.db_file, 0)
            for kill in range(KILLS):
                approve(app, escalation_id, rng)
                killed_at[where_killed(workspace, app.db_file, escalation_id)] += 1
                app.start()

                def settled(escalation_id: str = escalation_id) -> dict[str, Any] | None:
                    state = card(app.db_file, escalation_id)
                    return None if state["decision"] == "in_progress" else state

                state = wait_for(settled, what=f"the approval of kill {kill} to settle")
                ran = executions(workspace)[escalation_id]
                runs = app.result("agent_runs_list", {"thread_id": f"subconscious:{task_id}"})
                assert ran <= 1, f"kill {kill}: the approved write ran {ran} times"
                if state["status"] == "approved":
                    assert state["decision"] == "act", f"kill {kill}: approved but not carried out: {state}"
                    assert ran == 1, f"kill {kill}: approved and done, but the write did not happen"
                    assert "Tools used: files_append" in state["result"]
                    [run] = runs  # resumed, not started again
                    assert (run["purpose"], run["status"], run["escalation_id"]) == (
                        "approved", "completed", escalation_id), run
                    outcomes["resumed or ran"] += 1
                    done.append(escalation_id)
                    escalation_id, task_id = seed_card(app.db_file, kill + 1)
                else:  # the kill came before Go ahead was committed: nothing happened
                    assert (state["status"], state["decision"], state["note"], state["result"]) == (
                        "pending", "escalate", "", "Waiting for approval"), f"kill {kill}: the card came back: {state}"
                    assert ran == 0 and runs == [], f"kill {kill}: a pending card has a run: {runs}"
                    outcomes["never approved"] += 1
            final = executions(workspace)
            assert all(final[key] == 1 for key in done) and sum(final.values()) == len(done), final
            assert outcomes["resumed or ran"] > KILLS // 2, outcomes
            assert killed_at["mid-run"] >= 10, killed_at  # the window that matters is really hit
            app.stop()
            with database(workspace / "agent" / "ledger.db") as ledger:
                assert ledger.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            app.kill()
    print(f"{KILLS} kills: {dict(outcomes)}; killed {dict(killed_at)}")
