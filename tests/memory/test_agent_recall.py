"""The agent's automatic recall (``MemoryRecall`` port): memories in agentic-v1's prompt, journaled so a run
resumed after a kill sees the memories it began with."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path

import pytest

from openhuman_desktop.orchestration.graph import Graph
from openhuman_desktop.orchestration.nodes import RECALL_KEY, build_graph
from tests.fakes import agent_model as kinds
from tests.fakes.agent_harness import AgentHarness
from tests.fakes.agent_model import AgentScript, call, say
from tests.fakes.journal import Killed
from tests.fakes.model_servers import FakeOllama


class Recall:
    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = list(texts)
        self.asked: list[str] = []

    async def recall(self, query: str, limit: int) -> list[str]:
        self.asked.append(query)
        return self.texts[:limit]


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        fake.add_model("llama3.2:3b")
        fake.add_model("agentic-v1")
        yield fake


@pytest.fixture
async def harness(server: FakeOllama, tmp_path: Path) -> AsyncIterator[AgentHarness]:
    made = AgentHarness(server, tmp_path)
    yield made
    await made.aclose()


def with_recall(harness: AgentHarness, recall: Recall) -> None:
    def graph() -> Graph:
        return build_graph(quick=lambda: harness.quick_client, reasoning=lambda: harness.reasoning_client,
                           window=lambda tier: harness.windows[tier], skills=harness.skills, tokens=harness.tokens,
                           intent=harness.intent, steering=harness.steering, cards=harness.cards,
                           evictions=harness.evictions, settings=lambda: harness.settings,
                           set_permission=harness._set_permission, clock=harness.clock, recall=recall)

    harness.graph = graph  # type: ignore[method-assign]


async def test_recalled_memories_reach_the_plan_and_the_reply(harness: AgentHarness) -> None:
    recall = Recall(["Dr. Lee on Elm Street, by appointment.", "x" * 1_000])
    with_recall(harness, recall)
    harness.model.script = AgentScript(subtasks=[])
    outcome = await harness.run("When is my dentist appointment?")
    assert recall.asked == ["When is my dentist appointment?"]
    for kind in (kinds.PLAN, kinds.REPLY):
        prompt = harness.model.of(kind)[0].messages[-1]["content"]
        assert "From long-term memory, possibly related" in prompt
        assert "- Dr. Lee on Elm Street, by appointment.\n" in prompt and "x" * 401 not in prompt
    entries = [e for key, e in harness.journal.entries.items() if key[0] == outcome.run.id and key[2] == RECALL_KEY]
    assert len(entries) == 1 and entries[0].result is not None
    assert entries[0].result["memories"][0] == "Dr. Lee on Elm Street, by appointment."


async def test_nothing_recalled_changes_nothing(harness: AgentHarness) -> None:
    with_recall(harness, Recall([]))
    harness.model.script = AgentScript(subtasks=[])
    outcome = await harness.run("hi")
    assert "long-term memory" not in harness.model.of(kinds.PLAN)[0].messages[-1]["content"]
    assert not [key for key in harness.journal.entries if key[0] == outcome.run.id and key[2] == RECALL_KEY]


async def test_a_resumed_run_keeps_the_memories_it_began_with(harness: AgentHarness) -> None:
    recall = Recall(["The spare key is under the blue pot."])
    with_recall(harness, recall)
    harness.model.script = AgentScript(subtasks=[("Look", "List the workspace")],
                                       steps={"Look": [call("files_list", path="."), say("Listed.")]},
                                       reply="Done.")
    harness.journal.kill_before_finish.add("reply")  # killed after the reply came, before it was recorded
    run = harness.new_run("Where is the spare key?")
    with pytest.raises(Killed):
        await harness.execute(run, "channel_ingestion", 1)
    recall.texts = ["Something else entirely."]
    before = len(harness.model.of(kinds.REPLY))
    await harness.resume(run)
    replies = harness.model.of(kinds.REPLY)[before:]
    assert replies and all("The spare key is under the blue pot." in r.messages[-1]["content"] for r in replies)
    assert len(recall.asked) == 1
