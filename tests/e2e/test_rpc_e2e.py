"""The local JSON-RPC API (CONTRACT §4) against the real app started as a subprocess."""

from __future__ import annotations

import contextlib
import gzip
import json
import socket
import sqlite3
import stat
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest

from tests.fakes.app_process import AppProcess, run_cli

pytestmark = pytest.mark.e2e

DEFAULT_TITLES = (
    "Check connected skills for errors or disconnections",
    "Review new memory updates for actionable items",
    "Monitor system health (Ollama, memory, connections)",
)
STATUS_KEYS = {
    "enabled", "inference_enabled", "interval_minutes", "state", "state_reason", "task_count", "total_ticks",
    "last_tick_at", "consecutive_failures", "pending_escalations", "next_tick_at",
}
STATES = {"idle", "ticking", "paused", "disabled", "degraded"}
TASK_KEYS = {"id", "title", "source", "recurrence", "enabled", "last_run_at", "next_run_at", "completed",
             "created_at", "intent"}
LOG_KEYS = {"id", "task_id", "tick_at", "decision", "result", "duration_ms", "created_at"}
ESCALATION_KEYS = {"id", "task_id", "log_id", "title", "description", "priority", "status", "created_at",
                   "resolved_at"}
DECISIONS = {"in_progress", "act", "noop", "escalate", "failed", "cancelled", "dismissed"}
MIB = 1024 * 1024


# --- helpers --------------------------------------------------------------------------------------


FILE_TASK = "Watch the build server"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    """One running app shared by the API tests of this module (tests use their own tasks).

    Its HEARTBEAT.md holds one task line, so a HEARTBEAT.md task exists from the start. The folder is
    created readable by others (0755): the app must make it private.
    """
    workspace = tmp_path_factory.mktemp("rpc-e2e") / "workspace"
    workspace.mkdir()
    workspace.chmod(0o755)
    (workspace / "HEARTBEAT.md").write_text(f"# Mine\n\n- {FILE_TASK}\n", encoding="utf-8")
    with AppProcess(workspace) as running:
        yield running


def unique(prefix: str = "Task") -> str:
    return f"{prefix} {uuid.uuid4().hex[:10]}"


def request(method: str, params: Any = None, request_id: Any = 1) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": f"openhuman.{method}"}
    if params is not None:
        body["params"] = params
    if request_id is not ...:
        body["id"] = request_id
    return body


def notification(method: str, params: Any = None) -> dict[str, Any]:
    return request(method, params, request_id=...)


def post_json(app: AppProcess, document: Any, **kwargs: Any) -> httpx.Response:
    return app.raw(json.dumps(document).encode(), **kwargs)


def titles(app: AppProcess, **params: Any) -> list[str]:
    return [task["title"] for task in app.result("subconscious_tasks_list", params or None)]


def wait_until(condition: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    """Poll ``condition`` until it returns something truthy (generous timeout, never a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@contextlib.contextmanager
def open_db(path: Path) -> Iterator[sqlite3.Connection]:
    """A second connection to the app's database (WAL lets it work next to the running app)."""
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        yield conn
    finally:
        conn.close()


def insert_log_row(conn: sqlite3.Connection, task_id: str, created_at: float, *, decision: str = "noop",
                   result: str = "Nothing new", title: str = "") -> str:
    log_id = str(uuid.uuid4())
    conn.execute(
        """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, duration_ms, created_at,
               task_title, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (log_id, task_id, created_at, decision, result, 12, created_at, title, created_at),
    )
    return log_id


def insert_escalation(app: AppProcess, *, created_at: float | None = None,
                      priority: str = "important") -> dict[str, str]:
    """A task (via RPC) with an ``escalate`` log row and a pending escalation (via SQL)."""
    task = app.result("subconscious_tasks_add", {"title": unique("Escalating task")})
    created = time.time() if created_at is None else created_at
    escalation_id = str(uuid.uuid4())
    with open_db(app.db_file) as conn:
        log_id = insert_log_row(conn, task["id"], created, decision="escalate",
                                result="Escalated: waiting for your approval", title=task["title"])
        conn.execute(
            """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority, status,
                   created_at, resolved_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, NULL)""",
            (escalation_id, task["id"], log_id, "Send the weekly report",
             "Email the weekly report to the team", priority, created),
        )
    return {"id": escalation_id, "task_id": task["id"], "log_id": log_id}


def log_row(app: AppProcess, task_id: str, log_id: str) -> dict[str, Any]:
    rows = [row for row in app.result("subconscious_log_list", {"task_id": task_id}) if row["id"] == log_id]
    assert len(rows) == 1, rows
    return rows[0]


def assert_error(document: dict[str, Any], code: int, *words: str) -> str:
    assert "result" not in document, document
    error = document["error"]
    assert error["code"] == code, error
    message: str = error["message"]
    assert isinstance(message, str) and message
    assert "Traceback" not in message
    for word in words:
        assert word in message, (word, message)
    return message


# --- status, trigger, pause -----------------------------------------------------------------------


def test_status_has_every_contract_field(app: AppProcess) -> None:
    status = app.result("subconscious_status")
    assert set(status) >= STATUS_KEYS
    assert status["enabled"] is True
    assert status["inference_enabled"] is True
    assert status["interval_minutes"] == 60
    assert status["state"] in STATES
    assert isinstance(status["state_reason"], str) and status["state_reason"]
    assert isinstance(status["task_count"], int) and status["task_count"] >= 3
    for key in ("total_ticks", "consecutive_failures", "pending_escalations"):
        assert isinstance(status[key], int) and not isinstance(status[key], bool)
    for key in ("last_tick_at", "next_tick_at"):
        assert status[key] is None or isinstance(status[key], float)
    # An empty array and an empty object both mean "no params".
    assert set(app.result("subconscious_status", [])) >= STATUS_KEYS
    assert set(app.result("subconscious_status", {})) >= STATUS_KEYS


def test_task_count_follows_the_task_list(app: AppProcess) -> None:
    app.result("subconscious_tasks_add", {"title": unique()})
    assert app.result("subconscious_status")["task_count"] == len(app.result("subconscious_tasks_list"))


def test_pause_and_resume(app: AppProcess) -> None:
    assert app.result("subconscious_pause") == {"paused": True}
    status = app.result("subconscious_status")
    assert status["state"] == "paused"
    assert status["next_tick_at"] is None
    assert app.result("subconscious_resume") == {"paused": False}
    status = app.result("subconscious_status")
    assert status["state"] != "paused"
    assert isinstance(status["next_tick_at"], float)


def test_trigger_returns_at_once_and_the_tick_runs_in_the_background(app: AppProcess) -> None:
    task = app.result("subconscious_tasks_add", {"title": unique("Check the weather")})
    assert app.result("subconscious_trigger") == {"triggered": True}

    def finished_row() -> dict[str, Any] | None:
        rows = app.result("subconscious_log_list", {"task_id": task["id"]})
        final = [row for row in rows if row["decision"] != "in_progress"]
        return final[0] if final else None

    row = wait_until(finished_row, what="the triggered tick to log the new task")
    assert set(row) >= LOG_KEYS
    assert row["decision"] in DECISIONS
    assert row["task_title"] == task["title"]
    # The model is unreachable: the tick fails cleanly and the status says so.
    assert row["decision"] == "failed"
    status = app.result("subconscious_status")
    assert status["consecutive_failures"] >= 1
    assert status["state"] in {"degraded", "ticking"}


# --- tasks ----------------------------------------------------------------------------------------


def test_three_default_system_tasks(app: AppProcess) -> None:
    tasks = app.result("subconscious_tasks_list")
    for title in DEFAULT_TITLES:
        matching = [task for task in tasks if task["title"] == title]
        assert len(matching) == 1, title
        assert matching[0]["source"] == "system"


def test_tasks_add_defaults_and_shape(app: AppProcess) -> None:
    before = time.time()
    title = unique("Summarize my notes")
    task = app.result("subconscious_tasks_add", {"title": f"  {title}  "})
    assert set(task) >= TASK_KEYS
    assert task["title"] == title
    assert task["source"] == "user"
    assert task["recurrence"] == "pending"
    assert task["enabled"] is True
    assert task["completed"] is False
    assert task["last_run_at"] is None
    assert task["next_run_at"] is None
    assert task["intent"] in {"read", "write"}
    assert before - 5 <= task["created_at"] <= time.time() + 5
    assert task in app.result("subconscious_tasks_list")


@pytest.mark.parametrize("params", [
    {"recurrence": "once"}, {"recurrence": "cron:0 9 * * 1-5"}, {"recurrence": "pending"},
])
def test_tasks_add_with_recurrence(app: AppProcess, params: dict[str, str]) -> None:
    task = app.result("subconscious_tasks_add", {"title": unique(), **params})
    assert task["recurrence"] == params["recurrence"]
    if params["recurrence"].startswith("cron:"):
        assert isinstance(task["next_run_at"], float) and task["next_run_at"] > time.time()
    else:
        assert task["next_run_at"] is None


def test_tasks_add_by_position_and_500_characters(app: AppProcess) -> None:
    title = unique("x") + "y" * (500 - len(unique("x")))
    assert len(title) == 500
    task = app.result("subconscious_tasks_add", [title, "once"])
    assert task["title"] == title
    assert task["recurrence"] == "once"


def test_tasks_list_enabled_only(app: AppProcess) -> None:
    task = app.result("subconscious_tasks_add", {"title": unique()})
    app.result("subconscious_tasks_update", {"task_id": task["id"], "enabled": False})
    every = [t["id"] for t in app.result("subconscious_tasks_list")]
    enabled = app.result("subconscious_tasks_list", {"enabled_only": True})
    assert task["id"] in every
    assert task["id"] not in [t["id"] for t in enabled]
    assert all(t["enabled"] is True for t in enabled)
    assert [t["id"] for t in app.result("subconscious_tasks_list", {"enabled_only": False})] == every
    assert app.result("subconscious_tasks_list", [True]) == enabled


def test_tasks_update_each_field(app: AppProcess) -> None:
    task = app.result("subconscious_tasks_add", {"title": unique("Check the inbox")})
    new_title = unique("Read the newsletter")
    updated = app.result("subconscious_tasks_update", {"task_id": task["id"], "title": new_title})
    assert updated["title"] == new_title
    assert updated["id"] == task["id"]
    updated = app.result("subconscious_tasks_update", {"task_id": task["id"], "enabled": False})
    assert updated["enabled"] is False
    assert updated["title"] == new_title
    updated = app.result("subconscious_tasks_update", {"task_id": task["id"], "recurrence": "cron:30 8 * * *"})
    assert updated["recurrence"] == "cron:30 8 * * *"
    assert isinstance(updated["next_run_at"], float)
    updated = app.result("subconscious_tasks_update", {"task_id": task["id"], "intent": "write"})
    assert updated["intent"] == "write"
    updated = app.result("subconscious_tasks_update", {"task_id": task["id"], "intent": "read", "enabled": True,
                                                       "recurrence": "once"})
    assert (updated["intent"], updated["enabled"], updated["recurrence"]) == ("read", True, "once")
    assert updated["next_run_at"] is None
    unchanged = app.result("subconscious_tasks_update", {"task_id": task["id"]})
    assert unchanged["title"] == new_title
    listed = [t for t in app.result("subconscious_tasks_list") if t["id"] == task["id"]]
    assert listed == [unchanged]


def test_tasks_update_disables_a_system_task(app: AppProcess) -> None:
    system = next(t for t in app.result("subconscious_tasks_list") if t["title"] == DEFAULT_TITLES[0])
    assert app.result("subconscious_tasks_update", {"task_id": system["id"], "enabled": False})["enabled"] is False
    assert app.result("subconscious_tasks_update", {"task_id": system["id"], "enabled": True})["enabled"] is True


def test_tasks_remove(app: AppProcess) -> None:
    task = app.result("subconscious_tasks_add", {"title": unique()})
    assert app.result("subconscious_tasks_remove", {"task_id": task["id"]}) == {"removed": task["id"]}
    assert task["id"] not in [t["id"] for t in app.result("subconscious_tasks_list")]
    assert_error(app.call("subconscious_tasks_remove", {"task_id": task["id"]}), -32001)


def test_removing_a_system_task_is_a_conflict(app: AppProcess) -> None:
    system = [t for t in app.result("subconscious_tasks_list") if t["source"] == "system"]
    assert system
    for task in system:
        assert_error(app.call("subconscious_tasks_remove", {"task_id": task["id"]}), -32002)
    assert [t["id"] for t in app.result("subconscious_tasks_list") if t["source"] == "system"] == [
        t["id"] for t in system
    ]


def test_a_heartbeat_md_task_is_a_system_task(app: AppProcess) -> None:
    [task] = [t for t in app.result("subconscious_tasks_list") if t["title"] == FILE_TASK]
    assert task["source"] == "system"
    assert_error(app.call("subconscious_tasks_remove", {"task_id": task["id"]}), -32002)
    assert_error(app.call("subconscious_tasks_update", {"task_id": task["id"], "title": "Renamed"}), -32002,
                 "HEARTBEAT.md")
    updated = app.result("subconscious_tasks_update", {"task_id": task["id"], "enabled": False})
    assert (updated["title"], updated["enabled"]) == (FILE_TASK, False)
    assert app.result("subconscious_tasks_update", {"task_id": task["id"], "enabled": True})["enabled"] is True


def test_concurrent_requests(app: AppProcess) -> None:
    prefix = unique("Concurrent")
    answers: list[dict[str, Any]] = []
    lock = threading.Lock()

    def client(number: int) -> None:
        with httpx.Client(timeout=60) as http:
            for i in range(10):
                body = request("subconscious_tasks_add", {"title": f"{prefix} {number}-{i}"}, f"{number}-{i}")
                response = http.post(app.url, json=body, headers={"Authorization": f"Bearer {app.token}"})
                reading = http.post(app.url, json=request("subconscious_status"),
                                    headers={"Authorization": f"Bearer {app.token}"})
                with lock:
                    answers.extend([response.json(), reading.json()])

    threads = [threading.Thread(target=client, args=(number,)) for number in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == 160
    assert all("result" in answer for answer in answers), [a for a in answers if "error" in a][:3]
    added = [title for title in titles(app) if title.startswith(prefix)]
    assert sorted(added) == sorted(f"{prefix} {n}-{i}" for n in range(8) for i in range(10))


# --- invalid params (-32602) ----------------------------------------------------------------------

TASK = "<an existing task id>"
INVALID_PARAMS = [
    ("subconscious_tasks_add", {"title": ""}, "title"),
    ("subconscious_tasks_add", {"title": "   \t "}, "title"),
    ("subconscious_tasks_add", {"title": "y" * 501}, "title"),
    ("subconscious_tasks_add", {"title": 5}, "title"),
    ("subconscious_tasks_add", {"title": None}, "title"),
    ("subconscious_tasks_add", {}, "title"),
    ("subconscious_tasks_add", [], "title"),
    ("subconscious_tasks_add", {"title": "Fine", "recurrence": "weekly"}, "recurrence"),
    ("subconscious_tasks_add", {"title": "Fine", "recurrence": "cron:61 * * * *"}, "recurrence"),
    ("subconscious_tasks_add", {"title": "Fine", "recurrence": "cron:* * *"}, "recurrence"),
    ("subconscious_tasks_add", {"title": "Fine", "recurrence": "cron:not a cron at all"}, "recurrence"),
    ("subconscious_tasks_add", {"title": "Fine", "recurrence": 5}, "recurrence"),
    ("subconscious_tasks_add", {"title": "Fine", "colour": "red"}, "colour"),
    ("subconscious_tasks_add", ["Fine", "pending", "surplus"], "params"),
    ("subconscious_tasks_list", {"enabled_only": "yes"}, "enabled_only"),
    ("subconscious_tasks_list", {"enabled_only": 1}, "enabled_only"),
    ("subconscious_tasks_update", {}, "task_id"),
    ("subconscious_tasks_update", {"task_id": 5}, "task_id"),
    ("subconscious_tasks_update", {"task_id": ""}, "task_id"),
    ("subconscious_tasks_update", {"task_id": TASK, "title": ""}, "title"),
    ("subconscious_tasks_update", {"task_id": TASK, "title": "z" * 501}, "title"),
    ("subconscious_tasks_update", {"task_id": TASK, "title": ["x"]}, "title"),
    ("subconscious_tasks_update", {"task_id": TASK, "enabled": "no"}, "enabled"),
    ("subconscious_tasks_update", {"task_id": TASK, "enabled": 0}, "enabled"),
    ("subconscious_tasks_update", {"task_id": TASK, "recurrence": "daily"}, "recurrence"),
    ("subconscious_tasks_update", {"task_id": TASK, "recurrence": "cron:0 25 * * *"}, "recurrence"),
    ("subconscious_tasks_update", {"task_id": TASK, "intent": "maybe"}, "intent"),
    ("subconscious_tasks_update", {"task_id": TASK, "intent": 1}, "intent"),
    ("subconscious_tasks_update", {"task_id": TASK, "priority": "high"}, "priority"),
    ("subconscious_tasks_remove", {}, "task_id"),
    ("subconscious_tasks_remove", {"task_id": {"id": "x"}}, "task_id"),
    ("subconscious_log_list", {"limit": 0}, "limit"),
    ("subconscious_log_list", {"limit": 1001}, "limit"),
    ("subconscious_log_list", {"limit": "10"}, "limit"),
    ("subconscious_log_list", {"limit": 2.5}, "limit"),
    ("subconscious_log_list", {"limit": True}, "limit"),
    ("subconscious_log_list", {"before": "yesterday"}, "before"),
    ("subconscious_log_list", {"before": 10**30}, None),  # not an error: a far-future bound
    ("subconscious_log_list", {"before": 10**400}, "before"),
    ("subconscious_log_list", {"task_id": 5}, "task_id"),
    ("subconscious_escalations_list", {"status": "open"}, "status"),
    ("subconscious_escalations_list", {"status": 1}, "status"),
    ("subconscious_escalations_approve", {}, "escalation_id"),
    ("subconscious_escalations_approve", {"escalation_id": 7}, "escalation_id"),
    ("subconscious_escalations_dismiss", {}, "escalation_id"),
    ("subconscious_escalations_dismiss", {"escalation_id": ["x"]}, "escalation_id"),
    ("subconscious_status", {"verbose": True}, "verbose"),
    ("subconscious_trigger", ["now"], "params"),
    ("memory_add", {}, "text"),
    ("memory_add", {"text": 5}, "text"),
    ("memory_search", {"query": None}, "query"),
    ("memory_list", {"limit": 0}, "limit"),
]


@pytest.mark.parametrize(("method", "params", "named"), INVALID_PARAMS)
def test_invalid_params_name_the_parameter(app: AppProcess, method: str, params: Any, named: str | None) -> None:
    task = app.result("subconscious_tasks_add", {"title": unique("Untouched")})
    if isinstance(params, dict):
        params = {key: task["id"] if value == TASK else value for key, value in params.items()}
    count = app.result("subconscious_status")["task_count"]
    document = app.call(method, params)
    if named is None:
        assert "result" in document, document
        return
    message = assert_error(document, -32602, named)
    assert len(message) < 1000
    # Nothing happened: no task was added, the existing one is unchanged.
    assert app.result("subconscious_status")["task_count"] == count
    assert task in app.result("subconscious_tasks_list")


# --- not found (-32001) ---------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "params"), [
    ("subconscious_tasks_update", {"task_id": "no-such-task", "title": "x"}),
    ("subconscious_tasks_update", {"task_id": "no-such-task"}),
    ("subconscious_tasks_remove", {"task_id": "no-such-task"}),
    ("subconscious_escalations_approve", {"escalation_id": "no-such-escalation"}),
    ("subconscious_escalations_dismiss", {"escalation_id": "no-such-escalation"}),
])
def test_unknown_ids_are_not_found(app: AppProcess, method: str, params: dict[str, Any]) -> None:
    assert_error(app.call(method, params), -32001)


def test_log_list_of_an_unknown_task_is_empty(app: AppProcess) -> None:
    assert app.result("subconscious_log_list", {"task_id": "no-such-task"}) == []


# --- activity log ---------------------------------------------------------------------------------


def test_log_list_pages_newest_first(app: AppProcess) -> None:
    task = app.result("subconscious_tasks_add", {"title": unique("Logged task")})
    base = time.time() - 3600
    with open_db(app.db_file) as conn:
        ids = [insert_log_row(conn, task["id"], base + i, title=task["title"]) for i in range(30)]
    newest_first = list(reversed(ids))

    every = app.result("subconscious_log_list", {"task_id": task["id"]})
    assert [row["id"] for row in every] == newest_first
    assert all(set(row) >= LOG_KEYS for row in every)
    assert all(row["task_id"] == task["id"] and row["decision"] == "noop" for row in every)
    assert every[0]["created_at"] == base + 29

    pages: list[list[str]] = []
    before = None
    while True:
        params: dict[str, Any] = {"task_id": task["id"], "limit": 7}
        if before is not None:
            params["before"] = before
        page = app.result("subconscious_log_list", params)
        if not page:
            break
        assert len(page) <= 7
        pages.append([row["id"] for row in page])
        before = page[-1]["created_at"]
    assert [len(page) for page in pages] == [7, 7, 7, 7, 2]
    assert [row_id for page in pages for row_id in page] == newest_first
    assert app.result("subconscious_log_list", [3, base + 10, task["id"]]) == [
        row for row in every if row["created_at"] < base + 10
    ][:3]


def test_log_list_without_a_task_filter(app: AppProcess) -> None:
    page = app.result("subconscious_log_list", {"limit": 5})
    assert len(page) <= 5
    stamps = [row["created_at"] for row in page]
    assert stamps == sorted(stamps, reverse=True)
    assert len(app.result("subconscious_log_list", {"limit": 1000})) <= 1000
    assert len(app.result("subconscious_log_list")) <= 50
    assert app.result("subconscious_log_list", {"before": 0}) == []


# --- escalations ----------------------------------------------------------------------------------


def test_escalations_list_and_status_filter(app: AppProcess) -> None:
    now = time.time()
    older = insert_escalation(app, created_at=now - 10, priority="normal")
    newer = insert_escalation(app, created_at=now - 5, priority="critical")
    listed = app.result("subconscious_escalations_list")
    ids = [item["id"] for item in listed]
    assert ids.index(newer["id"]) < ids.index(older["id"])
    item = next(item for item in listed if item["id"] == newer["id"])
    assert set(item) >= ESCALATION_KEYS
    assert item == {**item, "task_id": newer["task_id"], "log_id": newer["log_id"], "status": "pending",
                    "priority": "critical", "title": "Send the weekly report", "resolved_at": None,
                    "description": "Email the weekly report to the team"}
    pending = [item["id"] for item in app.result("subconscious_escalations_list", {"status": "pending"})]
    assert {older["id"], newer["id"]} <= set(pending)
    for status in ("approved", "dismissed"):
        others = app.result("subconscious_escalations_list", {"status": status})
        assert all(item["status"] == status for item in others)
        assert not {older["id"], newer["id"]} & {item["id"] for item in others}
    assert app.result("subconscious_status")["pending_escalations"] >= 2
    assert app.result("subconscious_escalations_list", ["pending"]) == app.result(
        "subconscious_escalations_list", {"status": "pending"})


def test_approve_without_a_reasoning_model_brings_the_card_back_and_then_conflicts(app: AppProcess) -> None:
    # Issue 9, item 2: Go ahead while no model answers does not consume the approval: the card comes back with
    # a note saying why. (That an approval runs exactly once with a model is test_approval_crash_window_e2e.py.)
    escalation = insert_escalation(app)
    assert app.result("subconscious_escalations_approve", {"escalation_id": escalation["id"]}) == {
        "approved": escalation["id"]
    }
    back = wait_until(
        lambda: next((e for e in app.result("subconscious_escalations_list", {"status": "pending"})
                      if e["id"] == escalation["id"] and e["note"]), None),
        what="the card to come back",
    )
    assert back["note"].startswith("Go ahead could not run: ") and back["resolved_at"] is None
    row = log_row(app, escalation["task_id"], escalation["log_id"])
    assert row["decision"] == "escalate" and "could not run" in row["result"]
    assert app.result("subconscious_escalations_dismiss", {"escalation_id": escalation["id"]}) == {
        "dismissed": escalation["id"]
    }
    assert_error(app.call("subconscious_escalations_approve", {"escalation_id": escalation["id"]}), -32002,
                 "dismissed")
    assert_error(app.call("subconscious_escalations_dismiss", {"escalation_id": escalation["id"]}), -32002)
    [skipped] = [e for e in app.result("subconscious_escalations_list") if e["id"] == escalation["id"]]
    assert skipped["status"] == "dismissed" and isinstance(skipped["resolved_at"], float)


def test_dismiss_skips_and_then_conflicts(app: AppProcess) -> None:
    escalation = insert_escalation(app)
    assert app.result("subconscious_escalations_dismiss", [escalation["id"]]) == {"dismissed": escalation["id"]}
    dismissed = [e for e in app.result("subconscious_escalations_list", {"status": "dismissed"})
                 if e["id"] == escalation["id"]]
    assert len(dismissed) == 1 and isinstance(dismissed[0]["resolved_at"], float)
    row = log_row(app, escalation["task_id"], escalation["log_id"])
    assert (row["decision"], row["result"]) == ("dismissed", "Skipped")
    assert_error(app.call("subconscious_escalations_dismiss", {"escalation_id": escalation["id"]}), -32002,
                 "dismissed")
    assert_error(app.call("subconscious_escalations_approve", {"escalation_id": escalation["id"]}), -32002)
    # Nothing was executed: the row still reads "Skipped" and the escalation stays dismissed.
    assert log_row(app, escalation["task_id"], escalation["log_id"]) == row
    assert [e for e in app.result("subconscious_escalations_list") if e["id"] == escalation["id"]] == dismissed


# --- memory ---------------------------------------------------------------------------------------


def test_memory_add_search_list(app: AppProcess) -> None:
    word = f"zebra{uuid.uuid4().hex[:8]}"
    first = app.result("memory_add", {"text": f"The {word} lives in parking spot B12", "tags": ["car"]})
    assert first["text"] == f"The {word} lives in parking spot B12"
    assert first["source"] == "user"
    assert first["tags"] == ["car"]
    second = app.result("memory_add", [f"Another {word} note"])
    found = app.result("memory_search", {"query": word})
    assert {item["id"] for item in found} == {first["id"], second["id"]}
    assert app.result("memory_search", {"query": word, "limit": 1})[0]["id"] in {first["id"], second["id"]}
    listed = app.result("memory_list", {"limit": 2})
    assert [item["id"] for item in listed] == [second["id"], first["id"]]
    older = app.result("memory_list", {"before": second["created_at"]})
    assert second["id"] not in [item["id"] for item in older]
    assert app.result("memory_remove", {"memory_id": first["id"]}) == {"removed": first["id"]}
    assert [item["id"] for item in app.result("memory_search", {"query": word})] == [second["id"]]


# --- protocol errors ------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [
    b"", b"{", b"[1, 2", b"{'jsonrpc': '2.0'}", b"\xff\xfe\xfd", b"nul", b'{"id": 1,}',
    b'{"jsonrpc": "2.0", "method": "openhuman.subconscious_status", "id": NaN}',
    b'{"jsonrpc": "2.0", "method": "openhuman.subconscious_log_list", "params": {"before": Infinity}, "id": 1}',
    b'{"jsonrpc": "2.0", "method": "openhuman.subconscious_tasks_add", "params": {"title": "\\ud800"}, "id": 1}',
    b"[" * 100_000, b'{"a":' * 50_000,
])
def test_parse_errors(app: AppProcess, body: bytes) -> None:
    response = app.raw(body)
    assert response.status_code == 200
    document = response.json()
    assert_error(document, -32700)
    assert document["id"] is None
    assert document["jsonrpc"] == "2.0"


@pytest.mark.parametrize("document", [
    1, "x", None, True, [1], {},
    {"method": "openhuman.subconscious_status", "id": 1},
    {"jsonrpc": "1.0", "method": "openhuman.subconscious_status", "id": 1},
    {"jsonrpc": 2.0, "method": "openhuman.subconscious_status", "id": 1},
    {"jsonrpc": "2.0", "id": 1},
    {"jsonrpc": "2.0", "method": 5, "id": 1},
    {"jsonrpc": "2.0", "method": None, "id": 1},
    {"jsonrpc": "2.0", "method": ["openhuman.subconscious_status"], "id": 1},
    {"jsonrpc": "2.0", "method": "", "id": 1},
    {"jsonrpc": "2.0", "method": "openhuman.subconscious_status", "params": "x", "id": 1},
    {"jsonrpc": "2.0", "method": "openhuman.subconscious_status", "params": 5, "id": 1},
    {"jsonrpc": "2.0", "method": "openhuman.subconscious_status", "params": None, "id": 1},
    {"jsonrpc": "2.0", "method": "openhuman.subconscious_status", "id": {"a": 1}},
    {"jsonrpc": "2.0", "method": "openhuman.subconscious_status", "id": [1]},
    {"jsonrpc": "2.0", "method": "openhuman.subconscious_status", "id": True},
])
def test_invalid_requests(app: AppProcess, document: Any) -> None:
    response = post_json(app, document)
    assert response.status_code == 200
    answer = response.json()
    if isinstance(document, list):
        assert isinstance(answer, list) and len(answer) == 1
        answer = answer[0]
    assert_error(answer, -32600)
    request_id = document.get("id") if isinstance(document, dict) else None
    assert answer["id"] == (request_id if isinstance(request_id, int | str) and request_id is not True else None)


def test_empty_batch_is_one_invalid_request(app: AppProcess) -> None:
    answer = app.raw(b"[]").json()
    assert isinstance(answer, dict)
    assert_error(answer, -32600)


def test_oversized_batch_is_refused(app: AppProcess) -> None:
    title = unique("Batch item")
    batch = [request("subconscious_tasks_add", {"title": title}, i) for i in range(1001)]
    assert_error(post_json(app, batch).json(), -32600)
    assert title not in titles(app)


@pytest.mark.parametrize("method", [
    "openhuman.nope", "openhuman.", "openhuman.subconscious_Status", "openhuman.subconscious_status ",
    "subconscious_status", "rpc.discover", "openhuman.__init__", "openhuman." + "x" * 10_000,
])
def test_unknown_methods(app: AppProcess, method: str) -> None:
    answer = post_json(app, {"jsonrpc": "2.0", "method": method, "id": "abc"}).json()
    message = assert_error(answer, -32601)
    assert len(message) < 300
    assert answer["id"] == "abc"


def test_ids_are_echoed(app: AppProcess) -> None:
    for request_id in ("a-string", 0, -5, 2**60, 1.5, None, "", "ü" * 50):
        answer = post_json(app, request("subconscious_status", request_id=request_id)).json()
        assert answer["id"] == request_id
        assert answer["jsonrpc"] == "2.0"
        assert "result" in answer


# --- batches and notifications --------------------------------------------------------------------


def test_mixed_batch(app: AppProcess) -> None:
    quiet_title = unique("Added by a notification")
    batch = [
        request("subconscious_status", request_id=1),
        42,
        request("no_such_method", request_id=2),
        notification("subconscious_tasks_add", {"title": quiet_title}),
        request("subconscious_tasks_add", {"title": ""}, request_id=3),
        request("subconscious_tasks_remove", {"task_id": "nope"}, request_id="four"),
        {"jsonrpc": "2.0", "method": 7, "id": 5},
        request("subconscious_tasks_list", {"enabled_only": True}, request_id=6),
        notification("no_such_method"),
    ]
    response = post_json(app, batch)
    assert response.status_code == 200
    answers = response.json()
    assert isinstance(answers, list)
    assert len(answers) == 7  # every item but the two notifications
    by_id = {answer["id"]: answer for answer in answers if answer["id"] is not None}
    assert set(by_id[1]["result"]) >= STATUS_KEYS
    assert_error(by_id[2], -32601)
    assert_error(by_id[3], -32602, "title")
    assert_error(by_id["four"], -32001)
    assert_error(by_id[5], -32600)
    assert isinstance(by_id[6]["result"], list)
    anonymous = [answer for answer in answers if answer["id"] is None]
    assert len(anonymous) == 1
    assert_error(anonymous[0], -32600)
    assert titles(app).count(quiet_title) == 1


def test_notifications_get_no_answer(app: AppProcess) -> None:
    first, second = unique("Quiet one"), unique("Quiet two")
    response = post_json(app, notification("subconscious_tasks_add", {"title": first}))
    assert response.status_code == 204
    assert response.content == b""
    response = post_json(app, [notification("subconscious_tasks_add", {"title": second}),
                               notification("subconscious_status"),
                               notification("subconscious_tasks_add", {"title": ""}),
                               notification("does_not_exist")])
    assert response.status_code == 204
    assert response.content == b""
    listed = titles(app)
    assert listed.count(first) == 1
    assert listed.count(second) == 1


# --- HTTP ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("auth", [
    {"authorize": False},
    {"token": "wrong"},
    {"headers": {"Authorization": "Token abc"}},
    {"headers": {"Authorization": "Basic dXNlcjpwYXNz"}},
    {"headers": {"Authorization": "Bearer"}},
    {"headers": {"Authorization": b"Bearer \xff\xfe"}},
])
def test_unauthorized_requests_are_refused_and_not_executed(app: AppProcess, auth: dict[str, Any]) -> None:
    title = unique("Must not exist")
    body = json.dumps(request("subconscious_tasks_add", {"title": title})).encode()
    response = app.raw(body, **auth)
    assert response.status_code == 401
    assert app.token not in response.text
    batch = json.dumps([request("subconscious_tasks_add", {"title": title}, 1)]).encode()
    assert app.raw(batch, **auth).status_code == 401
    assert title not in titles(app)


def test_wrong_token_of_the_right_length(app: AppProcess) -> None:
    wrong = ("A" if app.token[0] != "A" else "B") + app.token[1:]
    title = unique("Must not exist")
    assert post_json(app, request("subconscious_tasks_add", {"title": title}), token=wrong).status_code == 401
    assert title not in titles(app)


def test_body_limit(app: AppProcess) -> None:
    title = unique("Too big")
    document = json.dumps(request("subconscious_tasks_add", {"title": title})).encode()
    exactly = document + b" " * (MIB - len(document))
    assert len(exactly) == MIB
    response = app.raw(exactly)
    assert response.status_code == 200
    assert response.json()["result"]["title"] == title

    other = unique("Too big")
    document = json.dumps(request("subconscious_tasks_add", {"title": other})).encode()
    response = app.raw(document + b" " * (MIB + 1 - len(document)))
    assert response.status_code == 413
    chunks = iter([document] + [b" " * 65536] * 17)
    response = app.http.post(app.url, content=chunks, headers={"Authorization": f"Bearer {app.token}"})
    assert response.status_code == 413
    assert other not in titles(app)


def test_content_encoding_is_not_decoded(app: AppProcess) -> None:
    title = unique("Zipped")
    document = json.dumps(request("subconscious_tasks_add", {"title": title})).encode()
    bomb = gzip.compress(document + b" " * (3 * MIB))
    assert len(bomb) < MIB
    response = app.raw(bomb, headers={"Content-Encoding": "gzip"})
    assert response.status_code == 200
    assert_error(response.json(), -32700)
    assert title not in titles(app)
    response = app.raw(json.dumps(request("subconscious_status")).encode(), headers={"Content-Encoding": "gzip"})
    assert response.status_code == 200
    assert set(response.json()["result"]) >= STATUS_KEYS


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_other_http_methods(app: AppProcess, method: str) -> None:
    response = app.raw(b"", method=method)
    assert response.status_code == 405


def test_server_still_answers_after_the_abuse(app: AppProcess) -> None:
    assert app.result("subconscious_status")["state"] in STATES
    assert "Traceback" not in app.stderr_text()


@pytest.mark.parametrize("framing", [
    b"Transfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\nzz\r\n",
    b"Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n{}\r\n",
    b"Content-Length: -5\r\n\r\n{}",
    b"Content-Length: 10\r\nContent-Length: 2\r\n\r\n{}",
])
def test_broken_http_framing_only_closes_that_connection(app: AppProcess, framing: bytes) -> None:
    port = urlparse(app.url).port
    assert port is not None
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                     + app.token.encode() + b"\r\n" + framing)
        received = b""
        with contextlib.suppress(OSError):
            while chunk := sock.recv(65536):
                received += chunk
    status_line = received.split(b"\r\n", 1)[0]
    assert received == b"" or (status_line.startswith(b"HTTP/1.") and b" 4" in status_line), received[:200]
    assert b"Traceback" not in received
    assert app.result("subconscious_status")["state"] in STATES


# --- security ---------------------------------------------------------------------------------------


def non_loopback_addresses() -> list[tuple[int, str]]:
    """This machine's own addresses other than loopback (found without sending a packet)."""
    found: set[tuple[int, str]] = set()
    with contextlib.suppress(OSError):
        for family, _, _, _, sockaddr in socket.getaddrinfo(socket.gethostname(), None):
            if family in (socket.AF_INET, socket.AF_INET6):
                found.add((family, str(sockaddr[0])))
    for family, probe in ((socket.AF_INET, "192.0.2.123"), (socket.AF_INET6, "2001:db8::1")):
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as udp:
            udp.connect((probe, 9))
            found.add((family, str(udp.getsockname()[0])))
    return sorted(
        (family, address) for family, address in found
        if not address.startswith(("127.", "fe80", "::ffff:127.")) and address not in ("::1", "0.0.0.0", "::")
    )


def test_files_are_private_and_the_server_is_local(app: AppProcess) -> None:
    assert stat.S_IMODE(app.rpc_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(app.workspace.stat().st_mode) == 0o700
    assert stat.S_IMODE(app.rpc_file.parent.stat().st_mode) == 0o700
    data = app.read_rpc_file()
    assert data is not None
    assert data["pid"] == app.pid
    assert set(data) >= {"url", "token", "pid"}
    parsed = urlparse(app.url)
    assert parsed.hostname == "127.0.0.1"
    assert parsed.scheme == "http"
    assert parsed.path == "/rpc"
    port = parsed.port
    assert port is not None
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass
    with contextlib.suppress(OSError), socket.create_connection(("::1", port), timeout=5):
        pytest.fail("the server answers on ::1")


def test_the_token_is_not_logged(app: AppProcess) -> None:
    assert app.token not in app.stderr_text()
    assert app.token not in app.stdout_text()
    for log_file in (app.workspace / "logs").iterdir():
        assert app.token not in log_file.read_text(encoding="utf-8", errors="replace")


def test_not_reachable_from_other_addresses(app: AppProcess) -> None:
    addresses = non_loopback_addresses()
    if not addresses:
        pytest.skip("this machine has no non-loopback address")
    port = urlparse(app.url).port
    for family, address in addresses:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.settimeout(5)
            try:
                sock.connect((address, port))
            except OSError:
                continue
            pytest.fail(f"the RPC server accepts connections on {address}:{port}")


# --- process life ----------------------------------------------------------------------------------


def integrity(db: Path) -> str:
    with open_db(db) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def test_kill_9_loses_no_acknowledged_task(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    app = AppProcess(workspace).start()
    try:
        first = [app.result("subconscious_tasks_add", {"title": unique("Before the crash")}) for _ in range(20)]
        acknowledged: list[str] = []
        stop = threading.Event()

        def writer() -> None:
            with httpx.Client(timeout=30) as client:
                while not stop.is_set():
                    title = unique("During the crash")
                    try:
                        response = client.post(app.url, json=request("subconscious_tasks_add", {"title": title}),
                                               headers={"Authorization": f"Bearer {app.token}"})
                    except httpx.HTTPError:
                        return
                    if response.status_code == 200 and "result" in response.json():
                        acknowledged.append(response.json()["result"]["id"])

        thread = threading.Thread(target=writer)
        thread.start()
        wait_until(lambda: len(acknowledged) >= 10, what="writes in flight")
        app.kill()
        stop.set()
        thread.join(30)
    finally:
        app.kill()
    assert app.rpc_file.exists()  # a crash cannot clean up; the next start replaces it

    restarted = AppProcess(workspace).start()
    try:
        tasks = restarted.result("subconscious_tasks_list")
        ids = {task["id"] for task in tasks}
        assert {task["id"] for task in first} <= ids
        assert set(acknowledged) <= ids
        for title in DEFAULT_TITLES:
            assert [task["title"] for task in tasks].count(title) == 1
        assert restarted.result("subconscious_status")["task_count"] == len(tasks)
    finally:
        restarted.stop()
    assert not restarted.rpc_file.exists()
    assert integrity(restarted.db_file) == "ok"
    assert integrity(workspace / "memory" / "memory.db") == "ok"


def test_sigterm_exits_0_and_removes_rpc_json(tmp_path: Path) -> None:
    app = AppProcess(tmp_path / "workspace").start()
    title = unique("Survives a restart")
    app.result("subconscious_tasks_add", {"title": title})
    app.result("subconscious_pause")
    old_token = app.token
    assert app.rpc_file.exists()
    assert app.stop() == 0
    assert not app.rpc_file.exists()
    assert integrity(app.db_file) == "ok"
    with AppProcess(tmp_path / "workspace") as again:
        assert titles(again).count(title) == 1
        assert [t["title"] for t in again.result("subconscious_tasks_list")].count(DEFAULT_TITLES[2]) == 1
        assert again.result("subconscious_status")["state"] == "paused"  # remembered across restarts
        assert again.token != old_token
        assert post_json(again, request("subconscious_status"), token=old_token).status_code == 401


def test_a_second_instance_on_the_same_workspace_refuses(app: AppProcess) -> None:
    published = app.rpc_file.read_text(encoding="utf-8")
    second = run_cli("--headless", "--workspace", app.workspace, timeout=60)
    assert second.returncode != 0
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1, second.stderr
    assert "already running" in lines[0]
    assert str(app.pid) in lines[0]
    assert "Traceback" not in second.stderr
    assert app.rpc_file.read_text(encoding="utf-8") == published
    assert app.result("subconscious_status")["state"] in STATES


def test_two_workspaces_side_by_side(tmp_path: Path) -> None:
    with AppProcess(tmp_path / "one", config=None) as one, AppProcess(tmp_path / "two", config=None) as two:
        assert one.url != two.url
        for running in (one, two):  # workspaces the app created itself
            assert stat.S_IMODE(running.workspace.stat().st_mode) == 0o700
            assert stat.S_IMODE(running.rpc_file.stat().st_mode) == 0o600
        title = unique("Only in one")
        one.result("subconscious_tasks_add", {"title": title})
        assert title in titles(one)
        assert title not in titles(two)
        assert len(two.result("subconscious_tasks_list")) == 3
        assert one.token != two.token
        assert post_json(two, request("subconscious_status"), token=one.token).status_code == 401
