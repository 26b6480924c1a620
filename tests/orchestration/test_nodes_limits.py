"""Every model call of a run is capped and timed out, sub-agents run bounded, and a run has a deadline;
the same graph runs on an OpenAI-compatible server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop.config import AgentSettings
from openhuman_desktop.errors import AppError
from openhuman_desktop.llm.base import ChatRequest, ChatResponse, LlmClient, ModelInfo
from openhuman_desktop.orchestration._calls import DeadlinePassed
from tests.fakes import agent_model as kinds
from tests.fakes.agent_harness import AgentHarness
from tests.fakes.agent_model import AgentScript, call, say
from tests.fakes.model_servers import FakeOllama, FakeOpenAI, Reply


class Recording:
    """Wraps a client: records every request and the most calls in flight at once."""

    def __init__(self, inner: LlmClient) -> None:
        self.inner = inner
        self.requests: list[ChatRequest] = []
        self.in_flight = 0
        self.most_in_flight = 0

    @property
    def description(self) -> str:
        return self.inner.description

    async def chat(self, request: ChatRequest) -> ChatResponse:
        self.requests.append(request)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            return await self.inner.chat(request)
        finally:
            self.in_flight -= 1

    async def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        self.requests.append(request)
        async for piece in self.inner.stream(request):
            yield piece

    async def check(self) -> ModelInfo:
        return await self.inner.check()

    async def count_tokens(self, text: str) -> int | None:
        return None

    async def aclose(self) -> None:
        await self.inner.aclose()


def looking(n: int) -> AgentScript:
    titles = [f"Look {i}" for i in range(n)]
    return AgentScript(subtasks=[(t, f"list the folder for {t}") for t in titles],
                       steps={t: [call("files_list"), say(f"seen {t}")] for t in titles})


async def test_every_request_has_a_cap_and_a_timeout_within_the_settings(server: FakeOllama, tmp_path: Path) -> None:
    harness = AgentHarness(server, tmp_path, looking(3), settings=AgentSettings(model_timeout_seconds=42,
                                                                               concurrent_subagents=2))
    assert harness.quick_client is not None and harness.reasoning_client is not None
    quick, reasoning = Recording(harness.quick_client), Recording(harness.reasoning_client)
    harness.quick_client, harness.reasoning_client = quick, reasoning
    try:
        await harness.run("look around")
    finally:
        await harness.aclose()
    requests = quick.requests + reasoning.requests
    # quick: pass 1, pass 2 and the compression; reasoning: plan, reply and each sub-agent's two steps
    assert len(quick.requests) == 3 and len(reasoning.requests) >= 2 + 3 * 2
    for request in requests:
        assert request.max_tokens is not None and 0 < request.max_tokens <= 1_024
        assert 0 < request.timeout <= 42
    assert reasoning.most_in_flight == 2  # three sub-agents, two at a time


@pytest.mark.logs_expected(r"and was stopped; ask for less at once or raise the limit in")
async def test_a_run_past_its_deadline_stops_with_one_sentence(server: FakeOllama, tmp_path: Path) -> None:
    harness = AgentHarness(server, tmp_path, looking(1), settings=AgentSettings(run_deadline_seconds=100))
    try:
        run = harness.new_run("look around")
        await harness.clock.advance(200)  # the deadline is on the wall clock: created_at + 100 s has passed
        with pytest.raises(DeadlinePassed, match=r"^The run went past its time limit .*config\.toml\.$"):
            await harness.execute(run, "channel_ingestion", 1)
    finally:
        await harness.aclose()
    assert harness.model.seen == []


async def test_a_model_that_never_answers_times_out(server: FakeOllama, tmp_path: Path) -> None:
    harness = AgentHarness(server, tmp_path, looking(1), settings=AgentSettings(model_timeout_seconds=1))
    original = harness.model._answer
    harness.model._answer = lambda kind, messages: (  # type: ignore[method-assign]
        Reply(content="late", delay=30) if kind == kinds.PLAN else original(kind, messages))
    try:
        with pytest.raises(AppError, match=r"^The reasoning model \(agentic-v1\) "):
            await harness.run("look around")
    finally:
        await harness.aclose()


async def test_the_graph_runs_on_an_openai_compatible_server(tmp_path: Path) -> None:
    script = AgentScript(subtasks=[("Write", "Write hi to a.md")],
                         steps={"Write": [call("files_write", path="a.md", text="hi"), say("Wrote it.")]},
                         reply="Wrote hi to a.md.", answer="Done, a.md says hi.")
    with FakeOpenAI(reject_json_schema=True) as server:
        harness = AgentHarness(server, tmp_path, script)
        try:
            outcome = await harness.run("please write hi to a.md")
        finally:
            await harness.aclose()
    assert (tmp_path / "a.md").read_text() == "hi"
    assert outcome.values["channel_response"] == "Done, a.md says hi." == outcome.streamed
    plan = harness.model.of(kinds.PLAN)[-1]
    assert plan.body["response_format"]["type"] == "json_object"  # the fallback llama.cpp accepts
    assert all(seen.body["max_tokens"] > 0 for seen in harness.model.seen)
