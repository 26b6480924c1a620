"""The model may narrow "write" to "read", never widen "read" to "write" on its own (DESIGN §2, issue 25): for tasks
(the rule, "May write?") and for chat messages (``ChatIntentJudge``, the agent's one judge of permission)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from openhuman_desktop.llm import OllamaClient
from openhuman_desktop.orchestration.direct import direct_kind
from openhuman_desktop.subconscious.intent import (
    PROBES,
    ChatIntentJudge,
    IntentJudgement,
    ModelIntentClassifier,
    narrow,
)
from tests.fakes import agent_model as kinds
from tests.fakes.agent_harness import QUICK_MODEL, REASONING_MODEL, AgentHarness
from tests.fakes.agent_model import AgentScript
from tests.fakes.engine_harness import first_user_text
from tests.fakes.model_servers import FakeOllama, Reply
from tests.intent_phrasings import MEASURED, PHRASINGS

# --- the rule ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("words", "model", "expected"), [
    ("write", None, IntentJudgement("write", "keyword")),                              # no model: the words
    ("read", None, IntentJudgement("read", "keyword")),
    ("write", "write", IntentJudgement("write", "model", None, "write")),               # agreed
    ("read", "read", IntentJudgement("read", "model", None, "read")),
    ("write", "read", IntentJudgement("read", "model", "write", "read")),               # narrowed; user may confirm
    ("read", "write", IntentJudgement("read", "keyword", "write", "write")),            # never widened: "May write?"
])
def test_the_model_narrows_and_never_widens(words: str, model: str | None, expected: IntentJudgement) -> None:
    assert narrow(words, model) == expected


# --- a model on a real (fake) server ---------------------------------------------------------------------


Answer = Callable[[str], str]


@pytest.fixture
async def ollama() -> AsyncIterator[FakeOllama]:
    with FakeOllama() as fake:
        fake.add_model(QUICK_MODEL)
        fake.add_model(REASONING_MODEL)
        yield fake


@pytest.fixture
async def client(ollama: FakeOllama) -> AsyncIterator[OllamaClient]:
    made = OllamaClient(QUICK_MODEL, ollama.url, timeout=10)
    yield made
    await made.aclose()


def answering(ollama: FakeOllama, answer: Answer) -> list[str]:
    """The model answers the probes right and every other text with ``answer(text)``; returns what it was asked."""
    asked: list[str] = []

    def respond(body: dict[str, object]) -> Reply:
        text = first_user_text(body).removeprefix("Task: ")
        asked.append(text)
        return Reply(content=json.dumps({"intent": PROBES.get(text) or answer(text), "confident": True}))

    ollama.set_responder(respond)
    return asked


async def test_a_task_the_model_would_widen_stays_read_and_asks(ollama: FakeOllama, client: OllamaClient) -> None:
    answering(ollama, lambda text: "write")
    classifier = ModelIntentClassifier(lambda: client)
    assert await classifier.classify("Check the weather") == IntentJudgement("read", "keyword", "write", "write")
    assert await classifier.classify("Delete the old drafts") == IntentJudgement("write", "model", None, "write")


async def test_a_model_that_says_read_to_everything_is_not_trusted(ollama: FakeOllama, client: OllamaClient) -> None:
    # it would narrow every write: the probes (half of them writes) keep it out
    ollama.set_responder(lambda body: Reply(content=json.dumps({"intent": "read", "confident": True})))
    classifier = ModelIntentClassifier(lambda: client)
    assert await classifier.classify("Delete the old drafts") == IntentJudgement("write", "keyword")


async def test_a_chat_message_the_model_narrows_is_a_read(ollama: FakeOllama, client: OllamaClient) -> None:
    asked = answering(ollama, lambda text: "read")
    classifier = ModelIntentClassifier(lambda: client)
    await classifier.classify("Check the weather")  # the probes run (for a task, in the background)
    judge = ChatIntentJudge(classifier)
    assert await judge.asks_for_write("Delete the old drafts") is False
    assert asked[-1] == "Delete the old drafts"


async def test_a_chat_message_the_model_would_widen_stays_read(ollama: FakeOllama, client: OllamaClient) -> None:
    asked = answering(ollama, lambda text: "write")
    classifier = ModelIntentClassifier(lambda: client)
    await classifier.classify("Check the weather")
    before = len(asked)
    judge = ChatIntentJudge(classifier)
    assert await judge.asks_for_write("Please look into the state of the backups") is False
    assert len(asked) == before, "a message the words read as read is not put to the model at all"
    assert await judge.asks_for_write("Delete the old drafts") is True


async def test_a_chat_never_waits_for_the_probes(ollama: FakeOllama, client: OllamaClient) -> None:
    asked = answering(ollama, lambda text: "read")
    judge = ChatIntentJudge(ModelIntentClassifier(lambda: client))
    assert await judge.asks_for_write("Delete the old drafts") is True   # the words decide: not probed yet
    assert asked == []


async def test_without_a_model_the_words_decide() -> None:
    judge = ChatIntentJudge(ModelIntentClassifier(lambda: None))
    assert await judge.asks_for_write("Delete the old drafts") is True
    assert await judge.asks_for_write("Why did the backup fail last night?") is False


# --- the agent: read requests are offered no write tool --------------------------------------------------


@pytest.fixture
async def harness(ollama: FakeOllama, tmp_path: Path) -> AsyncIterator[AgentHarness]:
    made = AgentHarness(ollama, tmp_path)
    made.intent = ChatIntentJudge()  # type: ignore[assignment]
    yield made
    await made.aclose()


READ_CHATS = [*MEASURED, *[p.text for p in PHRASINGS if p.kind == "chat" and p.intent == "read"][::25]]


@pytest.mark.parametrize("text", READ_CHATS)
async def test_a_read_request_is_offered_no_write_tool_and_its_action_becomes_a_card(
    harness: AgentHarness, text: str
) -> None:
    harness.model.script = AgentScript(subtasks=[("Look", "List the files")],
                                       steps={"Look": [kinds.call("files_list", path="")]},
                                       reply="RECOMMENDED ACTION: Archive the old report")
    outcome = await harness.run(text)
    assert outcome.run.permission == "read"
    offered = harness.model.every_offered_tool()
    assert offered & {"files_list", "files_read"}
    assert not offered & {tool.name for tool in harness.skills.tools(include_writes=True) if tool.writes}
    if direct_kind(text) is not None:
        # One file or the file list: its one sub-agent's answer is the reply (issue 24), with no reply request
        # that could recommend an action; nothing to approve.
        assert harness.cards.raised == [] and kinds.REPLY not in harness.model.kinds()
        return
    assert harness.cards.raised == [(outcome.run.id, "Archive the old report")]
