"""The context hook: below the threshold it only measures; at it, the oldest history and timeline fragments
are summarised (map-reduce over the quick tier), stored as evicted memories and dropped from the working state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.orchestration.context import KEEP_MESSAGES, KEEP_TIMELINE, measure, share
from openhuman_desktop.orchestration.graph import CONTEXT_MANAGER_HOOK, NodeContext
from openhuman_desktop.orchestration.state import apply, initial_values
from tests.fakes import agent_model as kinds
from tests.fakes.agent_harness import AgentHarness
from tests.fakes.agent_model import AgentScript
from tests.fakes.model_servers import FakeOllama


def long_thread(turns: int, timeline: int = 30) -> dict[str, Any]:
    messages = [{"role": "user" if i % 2 == 0 else "assistant",
                 "content": f"turn {i}: " + "the quarterly numbers for the garden project " * 12, "at": float(i)}
                for i in range(turns)]
    entries = [{"sequence": i + 1, "event_signature": f"file_written notes/{i}.md", "world_mutation": "appended",
                "delta_delta": "10 → 20 bytes", "at": float(i), "run_id": "old"} for i in range(timeline)]
    history = [{"run_id": f"r{i}", "text": "compressed log " * 30, "trace_tokens": 900, "summary_tokens": 45,
                "at": float(i)} for i in range(6)]
    return apply(initial_values(), {"messages": messages, "compressed_history": history,
                                    "world_state_diff": {"evolution_timeline": entries}})


async def hook(harness: AgentHarness, values: dict[str, Any]) -> dict[str, Any]:
    run = harness.new_run("hi")
    context = NodeContext(run, 5, harness.journal, harness.clock.now() + 900)
    return dict(await harness.graph().nodes[CONTEXT_MANAGER_HOOK](context, values))


async def test_below_the_threshold_the_hook_only_measures(server: FakeOllama, tmp_path: Path) -> None:
    harness = AgentHarness(server, tmp_path, windows={"local": 8192, "reasoning": 1_000_000})
    try:
        values = long_thread(10)
        update = await hook(harness, values)
    finally:
        await harness.aclose()
    assert set(update) == {"context_utilization"}
    assert update["context_utilization"] == share(measure(values, harness.tokens), 1_000_000) < 0.85
    assert harness.evictions.stored == [] and harness.model.seen == []


async def test_at_the_threshold_the_oldest_part_is_summarised_stored_and_dropped(
    server: FakeOllama, tmp_path: Path
) -> None:
    values = long_thread(40)
    harness = AgentHarness(server, tmp_path, AgentScript(summary="Garden numbers were discussed."),
                           windows={"local": 700, "reasoning": 5_000})
    try:
        before = share(measure(values, harness.tokens), 5_000)
        assert before >= 0.85
        update = await hook(harness, values)
    finally:
        await harness.aclose()
    dropped = update["messages"]["drop_oldest"]
    assert 0 < dropped <= 40 - KEEP_MESSAGES
    timeline_dropped = update["world_state_diff"]["evolution_timeline"]["drop_oldest"]
    assert 0 < timeline_dropped <= 30 - KEEP_TIMELINE
    after = apply(values, update)
    assert after["messages"] == values["messages"][dropped:]  # the recent turns stay, in order
    assert update["context_utilization"] == share(measure(after, harness.tokens), 5_000) < 0.85
    [(text, thread_id, run_id)] = harness.evictions.stored
    assert text == "Garden numbers were discussed." and thread_id == "desktop"
    assert harness.model.kinds().count(kinds.MAP) > 1 and kinds.REDUCE in harness.model.kinds()  # map-reduce
    for seen in harness.model.seen:
        assert seen.body["options"]["num_predict"] <= 256


async def test_a_resumed_hook_does_not_ask_or_store_again(server: FakeOllama, tmp_path: Path) -> None:
    values = long_thread(40)
    harness = AgentHarness(server, tmp_path, windows={"local": 700, "reasoning": 5_000})
    try:
        run = harness.new_run("hi")
        context = NodeContext(run, 5, harness.journal, harness.clock.now() + 900)
        node = harness.graph().nodes[CONTEXT_MANAGER_HOOK]
        first = await node(context, values)
        asked = len(harness.model.seen)
        again = await node(context, values)
    finally:
        await harness.aclose()
    assert again == first and len(harness.model.seen) == asked and len(harness.evictions.stored) == 1


@pytest.mark.logs_expected(r"in config\.toml and that its server is running")
async def test_with_the_quick_tier_down_the_summary_is_extractive(server: FakeOllama, tmp_path: Path) -> None:
    values = long_thread(40)
    harness = AgentHarness(server, tmp_path, windows={"local": 700, "reasoning": 5_000},
                           quick_url="http://127.0.0.1:9")
    try:
        update = await hook(harness, values)
    finally:
        await harness.aclose()
    [(text, _thread, _run)] = harness.evictions.stored
    assert text.startswith("[extractive] ") and update["context_utilization"] < 0.85
