"""20:1 compression: the bound holds for every trace, counted with the product's token counter."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openhuman_desktop.llm.base import Message
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.orchestration._calls import TierFailed
from openhuman_desktop.orchestration.compression import bound, compress, summarise
from tests.fakes import agent_model as kinds
from tests.fakes.agent_harness import AgentHarness
from tests.fakes.agent_model import AgentScript, call, say
from tests.fakes.model_servers import FakeOllama

COUNTER = TokenCounter()

words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=40)
traces = st.lists(words, min_size=0, max_size=400).map(lambda parts: "\n".join(parts))


def test_the_bound_is_a_twentieth_with_a_floor() -> None:
    assert bound(0) == 32 and bound(640) == 32 and bound(641) == 33 and bound(20_000) == 1_000


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trace=traces, answer=st.text(min_size=0, max_size=6_000), second=st.text(min_size=0, max_size=6_000),
       down=st.booleans())
@pytest.mark.logs_expected(r"the entry is an extractive summary")
def test_every_summary_is_within_the_bound(trace: str, answer: str, second: str, down: bool) -> None:
    asked: list[int] = []

    async def ask(messages: list[Message], max_tokens: int) -> str:
        asked.append(max_tokens)
        if down:
            raise TierFailed("The reasoning model (agentic-v1) failed: down; check it.", "reasoning")
        return answer if len(asked) == 1 else second

    text, trace_tokens, summary_tokens = asyncio.run(summarise(trace, COUNTER, ask))
    assert trace_tokens == COUNTER.count(trace)
    assert summary_tokens == COUNTER.count(text) <= max(math.ceil(trace_tokens / 20), 32)
    assert len(asked) <= 2  # re-asked at most once
    if trace_tokens > bound(trace_tokens):
        assert text  # never an empty entry for a real trace


def test_an_over_long_summary_is_re_asked_once_then_cut() -> None:
    trace = "\n".join(f"call files_read notes/{i}.md → ok: line {i} of a long trace" for i in range(400))
    answers = ["word " * 2_000, "still too long " * 1_000]
    asked: list[list[Message]] = []

    async def ask(messages: list[Message], max_tokens: int) -> str:
        asked.append(messages)
        return answers[len(asked) - 1]

    text, trace_tokens, summary_tokens = asyncio.run(summarise(trace, COUNTER, ask))
    assert len(asked) == 2 and "Too long" in asked[1][-1].content
    assert summary_tokens == bound(trace_tokens) and text.startswith("still too long")


def test_without_a_model_the_summary_is_extractive_and_deterministic() -> None:
    trace = "\n".join(f"sub-agent step {i}: read file {i}" for i in range(500))
    first = asyncio.run(summarise(trace, COUNTER, None))
    assert first == asyncio.run(summarise(trace, COUNTER, None))
    assert first[0].startswith("[extractive] ") and first[2] <= bound(first[1])


def test_a_short_trace_is_its_own_summary() -> None:
    assert asyncio.run(summarise("plan: no sub-tasks\nreply: hi", COUNTER, None))[0] == "plan: no sub-tasks\nreply: hi"


async def test_a_runs_trace_is_compressed_by_the_reasoning_tier(server: FakeOllama, tmp_path: Path) -> None:
    for i in range(40):
        (tmp_path / f"n{i}.md").write_text(f"note {i} " * 200, encoding="utf-8")
    steps = [call("files_read", path=f"n{i}.md") for i in range(5)] + [say("Read them all.")]
    script = AgentScript(subtasks=[("Read", "Read the notes")], steps={"Read": steps},
                         compression="Read five notes; nothing changed.")
    harness = AgentHarness(server, tmp_path, script)
    try:
        outcome = await harness.run("what do my notes say?")
    finally:
        await harness.aclose()
    [entry] = outcome.values["compressed_history"]
    assert entry["text"] == "Read five notes; nothing changed."
    assert entry["trace_tokens"] > 640 and entry["summary_tokens"] <= bound(entry["trace_tokens"])
    [request] = harness.model.of(kinds.COMPRESS)
    assert request.body["options"]["num_predict"] == bound(entry["trace_tokens"])
    assert "n4.md" in request.messages[-1]["content"]


async def test_compress_makes_the_contract_entry() -> None:
    entry = await compress("short trace", tokens=COUNTER, caller=None, run_id="r9", at=12.5)
    assert entry == {"run_id": "r9", "text": "short trace", "trace_tokens": COUNTER.count("short trace"),
                     "summary_tokens": COUNTER.count("short trace"), "at": 12.5}
