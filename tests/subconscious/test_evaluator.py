"""Evaluation: the request of CONTRACT §7 on both providers, fitting the context window, tolerant parsing."""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.errors import LlmReplyError, LlmUnavailable
from openhuman_desktop.llm import OllamaClient, OpenAICompatClient
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.decisions import Decision, Report
from openhuman_desktop.subconscious.evaluator import (
    ANSWER_TOKENS_BASE,
    ANSWER_TOKENS_PER_TASK,
    MIN_CONTEXT,
    REASON_CHARS,
    REPORT_WINDOW_SHARE,
    ModelEvaluator,
    evaluation_schema,
    parse_items,
    task_line,
    validate_items,
)
from tests.fakes.engine_harness import (
    LOCAL_MODEL,
    Brain,
    bodies,
    first_user_text,
    messages_of,
    open_harness,
    schema_of,
    task_lines,
)
from tests.fakes.model_servers import FakeOllama, FakeOpenAI, Reply

TOKENS = TokenCounter()


def make_task(number: int, title: str | None = None) -> Task:
    return Task(id=f"task-{number:03}", title=title or f"Check mailbox number {number} for invoices", source="user",
                recurrence="pending", enabled=True, last_run_at=None, next_run_at=None, completed=False,
                created_at=0.0, intent="read", origin="user", intent_source="keyword", updated_at=0.0)


def report(text: str = "## Environment\nLocal time: Monday") -> Report:
    return Report(text=text, signature="sig", tokens=TOKENS.count(text))


@pytest.fixture
async def ollama() -> AsyncIterator[FakeOllama]:
    with FakeOllama() as server:
        server.add_model(LOCAL_MODEL)
        brain = Brain()
        server.set_responder(brain)
        yield server


@pytest.fixture
async def ollama_client(ollama: FakeOllama) -> AsyncIterator[OllamaClient]:
    client = OllamaClient(LOCAL_MODEL, ollama.url)
    yield client
    await client.aclose()


# --- the request on both providers ----------------------------------------------------------------------


def test_a_task_line_is_exactly_id_and_title() -> None:
    assert task_line(make_task(7, "Send the report")) == "- [task-007] Send the report"
    assert task_line(make_task(7, "Send the report"), "3") == "- [3] Send the report"


async def test_ollama_gets_the_schema_in_format(ollama: FakeOllama, ollama_client: OllamaClient) -> None:
    tasks = [make_task(1), make_task(2)]
    evaluation = await ModelEvaluator(lambda: ollama_client, TOKENS).evaluate(tasks, report())
    [body] = bodies(ollama)
    assert body["format"] == evaluation_schema(["1", "2"])
    assert body["options"]["temperature"] == 0
    assert body["options"]["num_predict"] == ANSWER_TOKENS_BASE + 2 * ANSWER_TOKENS_PER_TASK
    assert body["options"]["num_ctx"] == MIN_CONTEXT, "the window is unknown: the client still sends a small num_ctx"
    assert task_lines(body) == [("1", tasks[0].title), ("2", tasks[1].title)]
    assert set(evaluation.decisions) == {"task-001", "task-002"}
    assert evaluation.model_calls == 1


@pytest.mark.parametrize("rejects_json_schema", [False, True])
async def test_openai_compatible_servers_get_the_schema_in_response_format(rejects_json_schema: bool) -> None:
    with FakeOpenAI(reject_json_schema=rejects_json_schema) as server:
        server.set_responder(Brain())
        client = OpenAICompatClient("local-model", server.url, api_key_env=None)
        try:
            tasks = [make_task(1), make_task(2), make_task(3)]
            evaluation = await ModelEvaluator(lambda: client, TOKENS).evaluate(tasks, report())
        finally:
            await client.aclose()
        sent = bodies(server)
        body = sent[-1]
        pinned = evaluation_schema(["1", "2", "3"])
        assert schema_of(body) == pinned
        if rejects_json_schema:
            assert body["response_format"] == {"type": "json_object", "schema": pinned}
            assert sent[0]["response_format"]["type"] == "json_schema"
        else:
            assert len(sent) == 1
            assert body["response_format"]["type"] == "json_schema"
            assert body["response_format"]["json_schema"]["schema"] == pinned
        assert task_lines(body) == [(str(n), t.title) for n, t in enumerate(tasks, 1)]
        assert set(evaluation.decisions) == {t.id for t in tasks}


def test_a_capped_reason_leaves_the_answer_room_to_close_its_json() -> None:
    """A grammar cuts a rambling reason at REASON_CHARS; what is left of one task's room (and of the narrow
    question's cap) must hold the rest of its item, at three characters a token or fewer."""
    from openhuman_desktop.subconscious.judgement import ANSWER_TOKENS

    for schema in (evaluation_schema(["1", "2"]), evaluation_schema(["1"], ("act", "noop"), yes_no=True)):
        assert schema["properties"]["evaluations"]["items"]["properties"]["reason"]["maxLength"] == REASON_CHARS
    item = '{"task_id": "12", "reason": "", "condition_met": "yes", "decision": "escalate", "priority": "normal"}, '
    longest = (REASON_CHARS + len(item)) / 3
    assert longest < ANSWER_TOKENS_PER_TASK + ANSWER_TOKENS_BASE / 8
    assert longest + len('{"evaluations": []}') < ANSWER_TOKENS


def test_in_order_items_naming_one_task_twice_each_take_their_place() -> None:
    tasks = [make_task(n) for n in (1, 2, 3)]
    pairs = [(str(n), task) for n, task in enumerate(tasks, 1)]

    def answer(*names: str) -> list[dict[str, str]]:
        return [{"task_id": name, "decision": "noop", "reason": f"item {place}"} for place, name in enumerate(names)]

    decisions, problems = validate_items(answer("1", "3", "3"), pairs, in_order=True)
    assert [decisions[task.id].reason for task in tasks] == ["item 0", "item 1", "item 2"] and not problems
    decisions, _ = validate_items(answer("2", "2", "3"), pairs, in_order=True)
    assert [decisions[task.id].reason for task in tasks] == ["item 0", "item 1", "item 2"]
    # Without the order, or with an item missing or unnamed, the names stand: the first naming counts.
    decisions, problems = validate_items(answer("1", "3", "3"), pairs)
    assert decisions[tasks[2].id].reason == "item 1" and set(problems) == {tasks[1].id}
    decisions, problems = validate_items(answer("3", "3"), pairs, in_order=True)
    assert decisions[tasks[2].id].reason == "item 0" and set(problems) == {tasks[0].id, tasks[1].id}
    decisions, problems = validate_items(answer("1", "…", "3"), pairs, in_order=True)
    assert set(problems) == {tasks[1].id}


@pytest.mark.parametrize(("said", "shown"), [
    ("4." + "1." * 98, ""),  # SmolLM2-135M's reasons in a ten-task first look, cut by the grammar
    ("Nothing changed. " + "the " * 30, "Nothing changed…"),
    ("-" * 40, ""),
    ("Nothing in the report mentions a backup.", "Nothing in the report mentions a backup."),
    ("He said no no no no to it.", "He said no no no no to it."),
    ("  two\nlines  ", "two lines"),
])
def test_a_reason_that_loops_is_cut_before_the_loop(said: str, shown: str) -> None:
    task = make_task(1)
    decisions, _ = validate_items([{"task_id": "1", "reason": said, "decision": "noop"}], [("1", task)])
    assert decisions[task.id].reason == shown


async def test_no_local_model_is_a_clear_error() -> None:
    with pytest.raises(LlmUnavailable, match=r"\[models.local\]"):
        await ModelEvaluator(lambda: None, TOKENS).evaluate([make_task(1)], report())


# --- fitting the context window -------------------------------------------------------------------------


def prompt_tokens(body: dict[str, Any]) -> int:
    return sum(TOKENS.count(str(m.get("content") or "")) for m in messages_of(body))


async def test_many_tasks_are_split_so_every_request_fits_the_window(
    ollama: FakeOllama, ollama_client: OllamaClient
) -> None:
    tasks = [make_task(n) for n in range(60)]
    evaluator = ModelEvaluator(lambda: ollama_client, TOKENS, lambda: 2048)

    evaluation = await evaluator.evaluate(tasks, report())

    sent = bodies(ollama)
    assert len(sent) > 1
    seen = [title for body in sent for _, title in task_lines(body)]
    assert sorted(seen) == sorted(t.title for t in tasks), "every task exactly once"
    for body in sent:
        assert prompt_tokens(body) + body["options"]["num_predict"] <= body["options"]["num_ctx"] == 2048
    assert evaluation.model_calls == len(sent)
    assert set(evaluation.decisions) == {t.id for t in tasks}


async def test_a_report_larger_than_the_window_is_cut_and_says_so(
    ollama: FakeOllama, ollama_client: OllamaClient
) -> None:
    big = report("## Changed workspace files\n" + " ".join(f"word{i}" for i in range(6000)))
    evaluator = ModelEvaluator(lambda: ollama_client, TOKENS, lambda: 2048)
    tasks = [make_task(1), make_task(2)]

    await evaluator.evaluate(tasks, big)

    sent = bodies(ollama)
    assert sorted(title for body in sent for _, title in task_lines(body)) == [t.title for t in tasks]
    for body in sent:
        assert prompt_tokens(body) + body["options"]["num_predict"] <= body["options"]["num_ctx"] == 2048
        assert "[The situation report was cut to fit the local model's context window of 2048 tokens.]" \
            in first_user_text(body)
        assert "word0 word1" in first_user_text(body)


def uniform_tasks(count: int) -> list[Task]:
    """Tasks whose prompt lines all count the same number of tokens (so the expected batch count is exact)."""
    tasks = [make_task(0, "Check the mailbox for invoices") for _ in range(count)]
    return [replace(task, id=f"task-{n:04}") for n, task in enumerate(tasks)]


async def test_a_report_near_the_window_leaves_room_for_the_tasks(
    ollama: FakeOllama, ollama_client: OllamaClient
) -> None:
    window = 8192
    tasks = uniform_tasks(1003)
    big = report("## Changed workspace files\n" + " ".join(f"word{i}" for i in range(20_000)))
    assert len(big.text) > 120_000 and big.tokens > window
    evaluator = ModelEvaluator(lambda: ollama_client, TOKENS, lambda: window)

    evaluation = await evaluator.evaluate(tasks, big)

    sent = bodies(ollama)
    per_batch = len(task_lines(sent[0]))
    assert len(sent) == math.ceil(len(tasks) / per_batch), "packed into as few requests as fit"
    assert len(sent) <= 25, f"{len(sent)} requests for {len(tasks)} tasks"
    line_cost = TOKENS.count(task_line(tasks[0], "1")) + ANSWER_TOKENS_PER_TASK
    assert per_batch * line_cost >= 0.4 * window, "the tasks get a useful share of the window"
    assert len([title for body in sent for _, title in task_lines(body)]) == len(tasks)
    for body in sent:
        options = body["options"]
        assert options["num_ctx"] == window
        assert options["num_predict"] == ANSWER_TOKENS_BASE + ANSWER_TOKENS_PER_TASK * len(task_lines(body))
        assert prompt_tokens(body) + options["num_predict"] <= window
        assert "word0 word1" in first_user_text(body), "the report keeps its start"
        assert "cut to fit the local model's context window of 8192 tokens" in first_user_text(body)
    assert evaluation.model_calls == len(sent)
    assert set(evaluation.decisions) == {t.id for t in tasks}


async def test_a_small_prompt_asks_for_a_small_context_not_the_whole_window(
    ollama: FakeOllama, ollama_client: OllamaClient
) -> None:
    tasks = [make_task(1), make_task(2)]
    await ModelEvaluator(lambda: ollama_client, TOKENS, lambda: 131_072).evaluate(tasks, report())
    [body] = bodies(ollama)
    assert body["options"]["num_ctx"] == MIN_CONTEXT
    assert body["options"]["num_predict"] == ANSWER_TOKENS_BASE + 2 * ANSWER_TOKENS_PER_TASK
    assert prompt_tokens(body) + body["options"]["num_predict"] <= MIN_CONTEXT


async def test_openai_compatible_requests_cap_the_answer() -> None:
    with FakeOpenAI() as server:
        server.set_responder(Brain())
        client = OpenAICompatClient("local-model", server.url, api_key_env=None)
        try:
            await ModelEvaluator(lambda: client, TOKENS, lambda: 8192).evaluate([make_task(1)], report())
        finally:
            await client.aclose()
        [body] = bodies(server)
        assert body["max_tokens"] == ANSWER_TOKENS_BASE + ANSWER_TOKENS_PER_TASK


async def test_the_models_context_window_is_respected_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch, context_length=2048) as h:
        tasks = [await h.add_task(f"Check project {n} for overdue items") for n in range(25)]
        for n in range(20):
            h.write_file(f"projects/p{n}.md", " ".join(f"p{n}w{i}" for i in range(300)))

        await h.tick()

        sent = h.local_bodies("evaluation")
        assert sorted(title for body in sent for _, title in task_lines(body)) == sorted(t.title for t in tasks)
        for body in sent:
            assert prompt_tokens(body) + body["options"]["num_predict"] <= body["options"]["num_ctx"] == 2048
        assert {row.decision for row in await h.rows()} == {"noop"}


# --- reading the answer ---------------------------------------------------------------------------------


@pytest.mark.parametrize("content", [
    '{"evaluations": [{"task_id": "a", "decision": "noop"}]}',
    '```json\n{"evaluations": [{"task_id": "a", "decision": "noop"}]}\n```',
    'Here you go:\n{"evaluations": [{"task_id": "a", "decision": "noop"}]}\nHope that helps.',
])
def test_parse_items_tolerates_fences_and_chatter(content: str) -> None:
    assert parse_items(content) == [{"task_id": "a", "decision": "noop"}]


@pytest.mark.parametrize("content", [
    '{"evaluations": [{"task_id": "a", "decision": "noop"}, {"task_id": "b", "reason": "The tas',
    '{"evaluations": [{"task_id": "a", "decision": "noop"},\n  {"task_id": "b", "decision": }]}',
    '```json\n{ "evaluations" : [ {"task_id": "a", "decision": "noop"} ,',
])
def test_an_answer_cut_short_keeps_the_items_it_wrote_out_whole(content: str) -> None:
    assert parse_items(content) == [{"task_id": "a", "decision": "noop"}]


@pytest.mark.parametrize("content", [
    "", "no json here", '{"evaluations": {"a": 1}}', '{"evaluations": [', '{"evaluations": [{"task_id": "a"', "[1, 2]",
    '{"answers": [{"task_id": "a", "decision": "noop"}',
])
def test_parse_items_refuses_what_is_not_an_evaluation(content: str) -> None:
    with pytest.raises(LlmReplyError):
        parse_items(content)


def test_validate_items_checks_each_item_on_its_own() -> None:
    tasks = [make_task(n) for n in range(1, 7)]
    items: list[Any] = [
        {"task_id": "task-001", "decision": "noop", "reason": "Nothing.", "priority": "normal"},
        {"task_id": "task-001", "decision": "act", "reason": "a duplicate: the first one counts"},
        {"task_id": " [task-002] ", "decision": " Escalate ", "reason": "  spread\n over   lines ",
         "priority": "CRITICAL"},
        {"task_id": "task-003", "decision": "maybe"},
        {"task_id": "task-004", "decision": "act", "priority": "urgent", "reason": 5},
        {"task_id": "task-999", "decision": "act"},
        {"decision": "act"},
        "not an object",
        {"task_id": "task-005", "decision": None},
    ]

    decisions, problems = validate_items(items, tasks)

    assert decisions == {
        "task-001": Decision("task-001", "noop", "Nothing.", "normal"),
        "task-002": Decision("task-002", "escalate", "spread over lines", "critical"),
        "task-004": Decision("task-004", "act", "", "normal"),
    }
    assert set(problems) == {"task-003", "task-005", "task-006"}
    assert "'maybe'" in problems["task-003"]
    assert "did not mention" in problems["task-006"]


def test_a_long_reason_is_cut() -> None:
    [task] = [make_task(1)]
    long = " ".join(f"line {n} of the notes" for n in range(400))
    decisions, _ = validate_items([{"task_id": task.id, "decision": "noop", "reason": long}], [task])
    assert len(decisions[task.id].reason) == 500


async def test_the_repair_request_quotes_the_bad_answer(ollama: FakeOllama, ollama_client: OllamaClient) -> None:
    ollama.script_chat(Reply(content="I think everything is fine"),
                       Reply(content=json.dumps({"evaluations": [{"task_id": "1", "decision": "act"}]})))
    evaluation = await ModelEvaluator(lambda: ollama_client, TOKENS).evaluate([make_task(1)], report())
    first, repair = bodies(ollama)
    assert repair["format"] == evaluation_schema(["1"])
    assert messages_of(repair)[:2] == messages_of(first)
    assert messages_of(repair)[2] == {"role": "assistant", "content": "I think everything is fine"}
    assert "could not be used: the answer holds no JSON object." in messages_of(repair)[3]["content"]
    assert evaluation.decisions["task-001"].decision == "act"
    assert evaluation.model_calls == 2


@pytest.mark.parametrize(("window", "cut"), [(8192, True), (131_072, False)])
def test_a_report_keeps_to_a_share_of_a_small_window(window: int, cut: bool) -> None:
    """Small models lose the thread beside a long report (SmolLM2-135M: 10/10 decisions beside 650 tokens,
    1/10 beside 6,500), so a report never takes more than REPORT_WINDOW_SHARE of the window; a big window
    keeps the report's own budget."""
    text = "## Files changed since the last check\n" + "\n".join(
        f"- notes/file-{n:04d}.md (812 bytes): minutes of meeting {n} about the roadmap" for n in range(400))
    big = report(text)
    assert 8192 * REPORT_WINDOW_SHARE < big.tokens < 131_072 * REPORT_WINDOW_SHARE
    evaluator = ModelEvaluator(lambda: None, TOKENS, lambda: window)
    fitted = evaluator.fit_report([make_task(n) for n in range(10)], big)
    assert (fitted.tokens < big.tokens) is cut
    assert fitted.tokens <= window * REPORT_WINDOW_SHARE


def test_a_raw_line_break_inside_a_reason_does_not_lose_the_answer() -> None:
    content = '{"evaluations": [{"task_id": "a", "reason": "the statement\tcame\nin", "decision": "escalate"}]}'
    assert parse_items(content) == [{"task_id": "a", "reason": "the statement\tcame\nin", "decision": "escalate"}]
