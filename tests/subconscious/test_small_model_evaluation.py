"""Evaluation that small local models can follow (issue 10): short task aliases pinned by the schema, a follow-up
for the tasks an answer left out, a tick that mostly failed counts as failed, per-task report spans, shrinking
on a context-length refusal, each title once."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.errors import ContextOverflow
from openhuman_desktop.llm import OllamaClient, OpenAICompatClient
from openhuman_desktop.llm.base import ChatRequest, ChatResponse, ModelInfo
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.decisions import Report
from openhuman_desktop.subconscious.evaluator import (
    ANSWER_TOKENS_PER_TASK,
    FOLLOW_UP_REASON_CHARS,
    ITEM_FRAME_TOKENS,
    REASON_CHARS,
    SYSTEM_PROMPT,
    ModelEvaluator,
)
from tests.fakes.engine_harness import (
    LOCAL_MODEL,
    Brain,
    bodies,
    evaluation,
    first_user_text,
    open_harness,
    schema_of,
    task_lines,
)
from tests.fakes.model_servers import FakeOllama, FakeOpenAI, Reply

TOKENS = TokenCounter()
LLAMA_CPP_OVERFLOW = "the request exceeds the available context size, try increasing it"


def make_task(number: int, title: str | None = None) -> Task:
    return Task(id=f"0190aa{number:02}-7c1e-7e0b-9f3a-5a7d1c2b3e{number:02}",
                title=title or f"Check mailbox number {number} for invoices", source="user",
                recurrence="pending", enabled=True, last_run_at=None, next_run_at=None, completed=False,
                created_at=0.0, intent="read", origin="user", intent_source="keyword", updated_at=0.0)


def report(text: str = "## Environment\nLocal time: Monday") -> Report:
    return Report(text=text, signature="sig", tokens=TOKENS.count(text))


def item_schema(body: dict[str, Any]) -> dict[str, Any]:
    schema = schema_of(body)
    assert schema is not None
    return dict(schema["properties"]["evaluations"])


@pytest.fixture
async def ollama() -> AsyncIterator[FakeOllama]:
    with FakeOllama() as server:
        server.add_model(LOCAL_MODEL)
        server.set_responder(Brain())
        yield server


@pytest.fixture
async def ollama_client(ollama: FakeOllama) -> AsyncIterator[OllamaClient]:
    client = OllamaClient(LOCAL_MODEL, ollama.url)
    yield client
    await client.aclose()


# --- item 1: ids the model can echo ---------------------------------------------------------------------


async def test_tasks_get_short_aliases_that_the_schema_pins(ollama: FakeOllama, ollama_client: OllamaClient) -> None:
    tasks = [make_task(n) for n in range(1, 10)]

    result = await ModelEvaluator(lambda: ollama_client, TOKENS).evaluate(tasks, report())

    [body] = bodies(ollama)
    assert task_lines(body) == [(str(n), task.title) for n, task in enumerate(tasks, 1)], "`- [ID] TITLE` lines"
    assert not any(task.id in json.dumps(body) for task in tasks), "no task's real id costs the model tokens"
    array = item_schema(body)
    assert array["minItems"] == array["maxItems"] == 9
    assert array["items"]["properties"]["task_id"]["enum"] == [str(n) for n in range(1, 10)]
    assert set(result.decisions) == {task.id for task in tasks}, "the aliases map back to the real ids"
    assert all(result.decisions[task.id].task_id == task.id for task in tasks)


@pytest.mark.parametrize("rejects_json_schema", [False, True])
async def test_openai_compatible_servers_get_the_pinned_schema(rejects_json_schema: bool) -> None:
    with FakeOpenAI(reject_json_schema=rejects_json_schema) as server:
        server.set_responder(Brain())
        client = OpenAICompatClient("local-model", server.url, api_key_env=None)
        try:
            tasks = [make_task(1), make_task(2), make_task(3)]
            result = await ModelEvaluator(lambda: client, TOKENS).evaluate(tasks, report())
        finally:
            await client.aclose()
        body = bodies(server)[-1]
        if rejects_json_schema:  # llama.cpp: the json_object path with a schema is its grammar
            assert body["response_format"]["type"] == "json_object"
        array = item_schema(body)
        assert array["items"]["properties"]["task_id"]["enum"] == ["1", "2", "3"]
        assert array["minItems"] == array["maxItems"] == 3
        assert set(result.decisions) == {task.id for task in tasks}


def test_the_prompt_has_no_example_a_model_could_copy() -> None:
    assert "…" not in SYSTEM_PROMPT and '"..."' not in SYSTEM_PROMPT
    assert '"task_id": "' not in SYSTEM_PROMPT, "no literal example item"


async def test_copied_placeholder_ids_map_to_no_task(ollama: FakeOllama, ollama_client: OllamaClient) -> None:
    tasks = [make_task(1), make_task(2)]
    copied = evaluation(*({"task_id": placeholder, "decision": "act", "reason": "x", "priority": "normal"}
                          for placeholder in ("…", "...", "TASK_ID", "ID", "0", "3", "[ID]", "")))
    ollama.script_chat(copied, copied)

    result = await ModelEvaluator(lambda: ollama_client, TOKENS).evaluate(tasks, report())

    assert result.decisions == {}
    assert set(result.problems) == {task.id for task in tasks}


async def test_a_numeric_alias_is_accepted(ollama: FakeOllama, ollama_client: OllamaClient) -> None:
    tasks = [make_task(1), make_task(2)]
    ollama.script_chat(evaluation({"task_id": 2, "decision": "act", "reason": "x"},
                                  {"task_id": "[1]", "decision": "noop", "reason": "y"}))
    result = await ModelEvaluator(lambda: ollama_client, TOKENS).evaluate(tasks, report())
    assert result.decisions[tasks[1].id].decision == "act"
    assert result.decisions[tasks[0].id].decision == "noop"
    assert result.decisions[tasks[0].id].priority == "normal", "priority is only asked for escalations"


# --- item 3: answers that leave tasks out are repaired --------------------------------------------------


async def test_an_answer_naming_one_of_nine_tasks_gets_one_follow_up_for_the_eight(
    ollama: FakeOllama, ollama_client: OllamaClient
) -> None:
    tasks = [make_task(n) for n in range(1, 10)]
    ollama.script_chat(evaluation({"task_id": "1", "decision": "noop", "reason": "Nothing.", "priority": "normal"}))

    result = await ModelEvaluator(lambda: ollama_client, TOKENS).evaluate(tasks, report())

    first, follow_up = bodies(ollama)
    assert [title for _, title in task_lines(follow_up)] == [task.title for task in tasks[1:]]
    aliases = [alias for alias, _ in task_lines(follow_up)]
    array = item_schema(follow_up)
    assert array["items"]["properties"]["task_id"]["enum"] == aliases
    assert array["minItems"] == array["maxItems"] == 8
    # A reason short enough that an item closes inside its task's room even at one token a character.
    assert array["items"]["properties"]["reason"]["maxLength"] == FOLLOW_UP_REASON_CHARS
    assert FOLLOW_UP_REASON_CHARS + ITEM_FRAME_TOKENS <= ANSWER_TOKENS_PER_TASK
    assert item_schema(first)["items"]["properties"]["reason"]["maxLength"] == REASON_CHARS
    assert len(first_user_text(follow_up)) < len(first_user_text(first))
    assert set(result.decisions) == {task.id for task in tasks}
    assert result.model_calls == 2


async def test_a_follow_up_that_names_a_task_twice_gives_each_item_its_place(
    ollama: FakeOllama, ollama_client: OllamaClient
) -> None:
    """SmolLM2-135M's follow-up for tasks 5–10 answered 5, 6, 7, 8, 10, 10: in the order of the task lines."""
    tasks = [make_task(n) for n in range(1, 11)]
    ollama.script_chat(
        evaluation(*({"task_id": str(n), "decision": "noop", "reason": "Nothing."} for n in range(1, 5))),
        evaluation(*({"task_id": str(n), "decision": "noop", "reason": f"place {place}"}
                     for place, n in enumerate((5, 6, 7, 8, 10, 10), 5))),
    )

    result = await ModelEvaluator(lambda: ollama_client, TOKENS).evaluate(tasks, report())

    assert [alias for alias, _ in task_lines(bodies(ollama)[1])] == [str(n) for n in range(5, 11)]
    assert set(result.decisions) == {task.id for task in tasks}
    assert [result.decisions[task.id].reason for task in tasks[4:]] == [f"place {n}" for n in range(5, 11)]
    assert not result.problems


async def test_the_follow_up_is_asked_once(ollama: FakeOllama, ollama_client: OllamaClient) -> None:
    tasks = [make_task(n) for n in range(1, 10)]
    ollama.script_chat(evaluation({"task_id": "1", "decision": "noop", "reason": "Nothing."}),
                       evaluation({"task_id": "2", "decision": "explode", "reason": "?"}))

    result = await ModelEvaluator(lambda: ollama_client, TOKENS).evaluate(tasks, report())

    assert len(bodies(ollama)) == 2
    assert set(result.decisions) == {tasks[0].id}
    assert set(result.problems) == {task.id for task in tasks[1:]}


@pytest.mark.logs_expected(r"tasks; the others were left out of its answers or invalid")
async def test_a_tick_where_most_tasks_got_no_decision_counts_as_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        tasks = [await h.add_task(f"Check project {n} for overdue items") for n in range(9)]
        h.local.evaluation_replies.extend([
            evaluation({"task_id": "1", "decision": "noop", "reason": "Nothing new.", "priority": "normal"}),
            evaluation(),
        ])

        await h.tick()

        assert (await h.row(tasks[0].id)).decision == "noop", "the task that got a decision keeps it"
        for task in tasks[1:]:
            assert (await h.row(task.id)).decision == "failed"
        state = await h.state()
        assert state.consecutive_failures == 1 and state.last_tick_at is None
        status = h.engine.runtime_status()
        assert status.state == "degraded"
        assert "usable decisions for 1 of 9 tasks" in status.state_reason


async def test_a_tick_where_most_tasks_got_a_decision_is_not_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        tasks = [await h.add_task(f"Check project {n} for overdue items") for n in range(3)]
        items = [{"task_id": str(n), "decision": "noop", "reason": "Nothing."} for n in (1, 2)]
        h.local.evaluation_replies.extend([evaluation(*items), evaluation()])

        await h.tick()

        assert (await h.row(tasks[2].id)).decision == "failed"
        assert (await h.state()).consecutive_failures == 0
        assert h.engine.runtime_status().state == "idle"


# --- item 4: context is not lost after a partly failed tick ----------------------------------------------


async def test_an_urgent_memory_reaches_the_model_again_until_its_task_was_decided(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        urgent = await h.add_task("Watch for urgent notes")
        await h.add_task("Check my inbox")
        await h.add_task("Review notes.md")
        await h.tick()  # every task decided once
        await h.clock.advance(600)
        await h.services.memory.add("URGENT: the server certificate expires tonight.")

        def leave_out_urgent(task_id: str, title: str) -> str | None:
            return None if "urgent" in title else "noop"

        h.local.decide = leave_out_urgent
        await h.tick()  # two of three decided: a successful tick, but the urgent task got no decision
        assert (await h.row(urgent.id)).decision == "failed"
        assert (await h.state()).consecutive_failures == 0
        await h.clock.advance(600)
        h.local.decide = lambda task_id, title: "noop"
        await h.tick()

        third = h.local_bodies("evaluation")[-1]
        assert "URGENT: the server certificate expires tonight." in first_user_text(third)
        await h.clock.advance(600)
        await h.services.memory.add("Urgent too: the printer is out of toner.")  # the task is asked again
        await h.tick()
        fourth = h.local_bodies("evaluation")[-1]
        assert "the printer is out of toner" in first_user_text(fourth)
        assert "certificate" not in first_user_text(fourth), "decided on: the span moved past it"


# --- item 5: a context-length refusal shrinks the request -----------------------------------------------


class OverflowingClient:
    """A local model whose server refuses prompts longer than ``limit`` tokens (counted by cl100k)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.sizes: list[tuple[int, bool]] = []  # (prompt tokens, refused)
        self._brain = Brain()

    @property
    def description(self) -> str:
        return "overflowing fake"

    async def chat(self, request: ChatRequest) -> ChatResponse:
        size = sum(TOKENS.count(message.content or "") for message in request.messages)
        refused = size > self.limit
        self.sizes.append((size, refused))
        if refused:
            raise ContextOverflow("The local model refused the prompt: it exceeds the context size.")
        body = {"messages": [{"role": m.role, "content": m.content} for m in request.messages],
                "format": request.json_schema}
        return ChatResponse(content=self._brain(body).content, prompt_tokens=size)

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        raise NotImplementedError

    async def check(self) -> ModelInfo:
        raise NotImplementedError

    async def aclose(self) -> None:
        return None


def big_report(files: int = 50, memories: int = 50) -> Report:
    lines = [f"- notes/file{n:02}.md (2048 bytes): " + " ".join(f"w{n}x{i}" for i in range(40)) for n in range(files)]
    notes = [f"- memory {n}: " + " ".join(f"m{n}y{i}" for i in range(25)) for n in range(memories)]
    text = "## New memories\n" + "\n".join(notes) + "\n\n## Changed workspace files\n" + "\n".join(lines)
    return Report(text=text, signature="big", tokens=TOKENS.count(text))


@pytest.mark.parametrize("window", [None, 32_768])
async def test_a_context_overflow_shrinks_and_retries_shorter(window: int | None) -> None:
    client = OverflowingClient(limit=2500)
    tasks = [make_task(n) for n in range(1, 11)]
    evaluator = ModelEvaluator(lambda: client, TOKENS, lambda: window)

    result = await evaluator.evaluate(tasks, big_report())

    assert client.sizes[0][1], "the first request was refused"
    refused = [size for size, was_refused in client.sizes if was_refused]
    for earlier, later in zip(client.sizes, client.sizes[1:], strict=False):
        if earlier[1]:
            assert later[0] < earlier[0], "never retried longer"
    assert set(result.decisions) == {task.id for task in tasks}
    assert len(refused) <= 3
    # The next tick remembers what fitted: nothing is refused again.
    client.sizes.clear()
    await evaluator.evaluate(tasks, big_report())
    assert not any(was_refused for _, was_refused in client.sizes)


def overflow_reply(kind: str) -> Reply:
    if kind == "llama.cpp":
        return Reply(status=400, error=LLAMA_CPP_OVERFLOW)
    body = {"error": {"message": "This model's maximum context length is 2048 tokens. However, your messages "
                                 "resulted in 9063 tokens.", "type": "invalid_request_error", "param": "messages",
                      "code": "context_length_exceeded"}}
    return Reply(status=400, body=json.dumps(body), headers={"Content-Type": "application/json"})


async def _maps_overflow(server: FakeOpenAI, client: OpenAICompatClient, reply: Reply) -> bool:
    """Whether the client tells a context-length refusal apart (the llmio part of issue 10, item 5)."""
    server.script_chat(reply)
    try:
        await client.chat(ChatRequest([], max_tokens=8))
    except ContextOverflow:
        return True
    except Exception:  # noqa: BLE001 - any other error: the client does not recognise it yet
        return False
    return False


@pytest.mark.parametrize("kind", ["llama.cpp", "openai"])
async def test_a_server_refusing_the_prompt_for_its_length_gets_a_shorter_one(kind: str) -> None:
    with FakeOpenAI() as server:
        client = OpenAICompatClient("local-model", server.url, api_key_env=None)
        try:
            if not await _maps_overflow(server, client, overflow_reply(kind)):
                pytest.skip("the client does not raise ContextOverflow yet (llmio helper, issue 10 item 5)")
            brain = Brain()
            limit = 2500

            def respond(body: Any) -> Reply:
                size = sum(TOKENS.count(str(m.get("content") or "")) for m in body.get("messages", []))
                return overflow_reply(kind) if size > limit else brain(body)

            server.set_responder(respond)
            tasks = [make_task(n) for n in range(1, 11)]
            result = await ModelEvaluator(lambda: client, TOKENS, lambda: None).evaluate(tasks, big_report())
        finally:
            await client.aclose()
        sizes = [sum(TOKENS.count(str(m.get("content") or "")) for m in body["messages"])
                 for body in bodies(server)[1:]]
        assert sizes[0] > limit and min(sizes) <= limit
        assert all(later < earlier for earlier, later in zip(sizes, sizes[1:], strict=False) if earlier > limit)
        assert set(result.decisions) == {task.id for task in tasks}


# --- item 7: prompts for small models -------------------------------------------------------------------


async def test_each_title_appears_once_in_the_evaluation_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        titles = ["Check my inbox", "Review the project notes", "Water the plants"]
        for title in titles:
            await h.add_task(title)
        await h.tick()
        [body] = h.local_bodies("evaluation")
        text = "\n".join(str(m.get("content") or "") for m in body["messages"])
        for title in titles:
            assert text.count(title) == 1, title


async def test_the_packaged_heartbeat_file_is_not_a_changed_user_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        assert (h.workspace / "HEARTBEAT.md").exists()
        await h.add_task("Check my inbox")
        h.write_file("notes/today.md", "Call Anna.")
        await h.tick()
        first = first_user_text(h.local_bodies("evaluation")[0])
        assert "notes/today.md" in first
        assert "HEARTBEAT.md" not in first
        assert "Summarize new files in my workspace each morning" not in first


async def test_an_edited_heartbeat_file_is_still_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.add_task("Check my inbox")
        h.write_file("HEARTBEAT.md", "# My tasks\n\nNotes for the assistant: the backup disk is full.\n")
        await h.tick()
        assert "HEARTBEAT.md" in first_user_text(h.local_bodies("evaluation")[0])


async def test_a_report_with_a_tasks_section_is_shown_without_it(
    ollama: FakeOllama, ollama_client: OllamaClient
) -> None:
    tasks = [make_task(1, "Water the plants")]
    blocks = (("Environment", "## Environment\nLocal time: Monday\n"),
              ("Tasks", "## Tasks\nLast looked at never:\n- Water the plants (read-only; schedule pending)\n"),
              ("New memories", "## New memories\n- The plants are dry.\n"))
    text = "\n".join(block for _, block in blocks)
    await ModelEvaluator(lambda: ollama_client, TOKENS).evaluate(
        tasks, Report(text=text, signature="s", tokens=TOKENS.count(text), blocks=blocks))
    [body] = bodies(ollama)
    prompt = first_user_text(body)
    assert prompt.count("Water the plants") == 1 and "## Tasks" not in prompt
    assert "The plants are dry." in prompt
