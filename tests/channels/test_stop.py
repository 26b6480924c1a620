"""Stop (issue 25): a run stopped over RPC, from the web page (a real browser) or mid-write ends ``cancelled``
"Stopped by you.", says so on its channel, and its journal stays true — a write in flight finishes and is
recorded, and nothing runs again after a restart."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import pytest
from playwright.async_api import Browser, expect

from openhuman_desktop.orchestration.events import RunFinished
from openhuman_desktop.orchestration.service import STOPPED_BY_YOU
from openhuman_desktop.skills.files import WorkspaceFilesSkill
from tests.channels.conftest import WebApp, open_page, wait_until
from tests.fakes.agent_model import AgentModel, AgentScript, call
from tests.fakes.telegram_harness import slow_stream

SCREENSHOTS = os.environ.get("OPENHUMAN_SCREENSHOTS")
"""A folder to keep the page's screenshot in (the test always takes one; without it, it goes to tmp_path)."""


class HeldWrite:
    """Every workspace write waits, in its thread, until the test lets it go (``started`` says one began)."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.writes = 0


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldWrite]:
    state = HeldWrite()
    real = WorkspaceFilesSkill._write_sync

    def held_write(self: WorkspaceFilesSkill, raw: str, text: str, append: bool) -> Any:
        state.started.set()
        assert state.release.wait(30), "the test never let the write go"
        state.writes += 1
        return real(self, raw, text, append)

    monkeypatch.setattr(WorkspaceFilesSkill, "_write_sync", held_write)
    yield state
    state.release.set()


async def rpc(web_app: WebApp, method: str, params: dict[str, Any]) -> dict[str, Any]:
    published = json.loads(web_app.paths.rpc_file.read_text(encoding="utf-8"))
    async with httpx.AsyncClient(timeout=30) as client:
        response = await client.post(published["url"], json={"jsonrpc": "2.0", "method": f"openhuman.{method}",
                                                              "params": params, "id": 1},
                                     headers={"Authorization": f"Bearer {published['token']}"})
    document: dict[str, Any] = response.json()
    return document


APPEND = AgentScript(subtasks=[("Add the line", "append 'buy milk' to todo.md")],
                     steps={"Add the line": [call("files_append", path="todo.md", text="buy milk\n")]},
                     reply="Added 'buy milk' to todo.md.")


async def test_a_run_stopped_mid_write_records_the_write_and_never_repeats_it(
        web_app: WebApp, model: AgentModel, held: HeldWrite) -> None:
    model.script = APPEND
    assert web_app.services is not None
    sent = await rpc(web_app, "agent_send", {"text": "Append 'buy milk' to todo.md", "thread_id": "cli:chores"})
    run_id = sent["result"]["run_id"]
    assert await asyncio.to_thread(held.started.wait, 30), "the write never began"

    stopping = asyncio.ensure_future(rpc(web_app, "agent_run_cancel", {"run_id": run_id}))
    await asyncio.sleep(0.3)
    assert not stopping.done(), "the stop did not wait for the write in flight"
    held.release.set()
    stopped = (await stopping)["result"]
    assert (stopped["id"], stopped["status"], stopped["error"]) == (run_id, "cancelled", STOPPED_BY_YOU)

    todo = web_app.paths.workspace / "todo.md"
    assert todo.read_text(encoding="utf-8") == "buy milk\n"
    ledger = web_app.services.ledger
    timeline = [entry for entry in await ledger.timeline(0, 100) if entry.run_id == run_id]
    assert len(timeline) == 1 and "todo.md" in json.dumps(timeline[0].to_json())
    assert await ledger.unfinished() == []  # the call's result is recorded: nothing is left begun

    again = await rpc(web_app, "agent_run_cancel", {"run_id": run_id})
    assert again["error"]["code"] == -32002 and "already finished (cancelled)" in again["error"]["message"]
    unknown = await rpc(web_app, "agent_run_cancel", {"run_id": "no-such-run"})
    assert unknown["error"]["code"] == -32001

    await web_app.stop()  # a restart: the stopped run is not resumed, its write not repeated
    await web_app.start()
    await asyncio.sleep(0.5)
    run = (await rpc(web_app, "agent_run_get", {"run_id": run_id}))["result"]
    assert run["status"] == "cancelled" and run["error"] == STOPPED_BY_YOU
    assert todo.read_text(encoding="utf-8") == "buy milk\n" and held.writes == 1
    assert [e for e in await web_app.services.ledger.timeline(0, 100) if e.run_id == run_id] == timeline


async def test_a_run_that_finished_is_not_stopped(web_app: WebApp) -> None:
    assert web_app.services is not None
    run = await web_app.services.agent.send("hello", "cli")
    done = await web_app.services.agent.wait(run.id)
    assert done.status == "completed"
    answer = await rpc(web_app, "agent_run_cancel", {"run_id": run.id})
    assert answer["error"]["code"] == -32002
    assert (await web_app.services.agent.run_get(run.id)).status == "completed"


async def test_two_stops_at_once_are_one(web_app: WebApp, model: AgentModel) -> None:
    assert web_app.services is not None
    model.delays = {"plan": 30}
    finished: list[str] = []
    web_app.services.bus.subscribe(RunFinished, lambda event: finished.append(event.run.id))
    run = await web_app.services.agent.send("What is on my list?", "cli")
    await wait_until(lambda: _is_running(web_app, run.id), what="the run at work")
    first, second = await asyncio.gather(web_app.services.agent.stop(run.id), web_app.services.agent.stop(run.id))
    assert first == second and first.status == "cancelled" and first.error == STOPPED_BY_YOU
    assert finished.count(run.id) == 1


async def _is_running(web_app: WebApp, run_id: str) -> bool:
    assert web_app.services is not None
    return (await web_app.services.agent.run_get(run_id)).status == "running"


ANSWER = ("Here is your week, one day at a time:\n\n"
          "- **Monday**: the dentist at ten, then the report for Anna.\n"
          "- **Tuesday**: water the garden; call Sam about the bill.\n"
          "- **Wednesday**: nothing planned yet.\n")


async def test_the_page_stops_an_answer_while_it_streams(browser: Browser, web_app: WebApp, model: AgentModel,
                                                         tmp_path: Path) -> None:
    model.script = AgentScript(answer=ANSWER)
    with slow_stream(1.5):
        page = await open_page(browser, web_app)
        stop = page.locator("#stop")
        await expect(stop).to_be_hidden()
        await page.locator("#composer-input").fill("How does my week look?")
        await page.locator("#composer-input").press("Enter")
        bubble = page.locator(".msg-assistant .bubble")
        await expect(bubble).to_contain_text("Here is your week", timeout=20_000)
        await expect(stop).to_be_visible()
        folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
        folder.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(folder / "webapp-stop-while-streaming.png"))

        await stop.click()
        await expect(page.locator(".msg-stopped .stopped-note")).to_have_text(STOPPED_BY_YOU)
        await expect(stop).to_be_hidden()
        await expect(bubble).to_contain_text("Here is your week")  # what it had written stays
        await expect(page.locator("#announcer")).to_contain_text("stopped")
        await page.screenshot(path=str(folder / "webapp-stopped.png"))
        frames: list[dict[str, Any]] = page.frames_received  # type: ignore[attr-defined]
        thread = next(frame["thread_id"] for frame in frames if frame["type"] == "session")
        [run] = await web_app.runs(thread)
        assert run.status == "cancelled" and run.error == STOPPED_BY_YOU
        assert run.response and run.response.startswith("Here is your week")
        [reply] = [frame for frame in frames if frame["type"] == "reply"]
        assert (reply["status"], reply["text"]) == ("cancelled", STOPPED_BY_YOU)

        await page.reload()  # the history shows it stopped too
        await expect(page.locator(".msg-stopped .stopped-note")).to_have_text(STOPPED_BY_YOU)
        await expect(page.locator(".msg-stopped .bubble")).to_contain_text("Here is your week")
        assert page.errors == []  # type: ignore[attr-defined]


async def test_a_stop_frame_for_another_sessions_run_is_refused(web_app: WebApp, model: AgentModel) -> None:
    assert web_app.services is not None
    model.delays = {"plan": 30}
    other = await web_app.services.agent.send("What is on my list?", "webapp:someone-elses-session")
    async with aiohttp.ClientSession() as http, http.ws_connect(
            web_app.socket_url(session="my-own-session-1"), origin=f"http://{web_app.host}") as socket:
        await socket.send_json({"type": "stop", "run_id": other.id})
        while (frame := await socket.receive_json(timeout=20))["type"] != "error":
            pass
        assert "No run with id" in frame["message"] and frame["run_id"] == other.id
        await socket.send_json({"type": "stop"})
        while (frame := await socket.receive_json(timeout=20))["type"] != "error":
            pass
        assert "run_id" in frame["message"]
    assert (await web_app.services.agent.run_get(other.id)).status in ("queued", "running")
    await web_app.services.agent.stop(other.id)
