"""Execution with small models (issue 10, items 6 and 7): no false success, no template cards, lean prompts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.skills import WorkspaceFilesSkill
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.decisions import Decision, Report
from openhuman_desktop.subconscious.executor import ANALYSIS_PROMPT, TaskExecutor, recommended_action
from tests.fakes.engine_harness import Reply, all_text, first_user_text, open_harness, tool_names

NO_TOOL = "The model answered without using a tool, so nothing was changed: "


def make_task(title: str, intent: str, recurrence: str = "once") -> Task:
    return Task(id="t1", title=title, source="user", recurrence=recurrence, enabled=True, last_run_at=None,
                next_run_at=None, completed=False, created_at=0.0, intent=intent, origin="user",
                intent_source="user", updated_at=0.0)


REPORT = Report(text="## Environment\nLocal time: now", signature="s", tokens=5)


# --- item 6: a write task whose act changed nothing is not a success ----------------------------------


def task_title_of(body: dict[str, object]) -> str:
    """The task an execution request is about (its ``Task:`` line)."""
    return next(line for line in first_user_text(body).splitlines() if line.startswith("Task: "))[6:]


async def test_a_write_act_without_tools_fails_and_does_not_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:  # act is an agent run of the quick tier (issue 25)
        h.local.execution_replies.append(Reply(content="I wrote the date to notes/todo.md."))
        executor = TaskExecutor(SkillRegistry(), h.services.agent)
        outcome = await executor.execute(make_task("Write the date to notes/todo.md", "write"),
                                         Decision("t1", "act", "due"), REPORT)
    assert outcome.decision == "failed" and not outcome.completes_task
    assert outcome.result == NO_TOOL + "I wrote the date to notes/todo.md.\nNo tools were used."


async def test_a_raw_call_to_an_unknown_tool_is_not_logged_as_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = json.dumps({"name": "send_email", "arguments": {"to": "alex"}})
    async with open_harness(tmp_path, monkeypatch) as h:
        h.local.execute = lambda body: Reply(content=raw)
        executor = TaskExecutor(SkillRegistry(), h.services.agent)
        outcome = await executor.execute(make_task("Check urgent emails", "read"), Decision("t1", "act", "due"),
                                         REPORT)
    assert outcome.decision == "failed" and not outcome.completes_task
    assert "send_email" in outcome.result and "not carried out" in outcome.result


async def test_a_once_write_task_that_only_talked_stays_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Write today's date to notes/todo.md", "once", intent="write")
        h.local.decide = lambda task_id, title: "act"
        h.local.execution_replies.append(Reply(content="Done, the date is in notes/todo.md."))
        await h.tick()
        row = await h.row(task.id)
        assert row.decision == "failed"
        assert row.result.startswith(NO_TOOL) and row.result.endswith("No tools were used.")
        assert not (await h.task(task.id)).completed
        assert not (h.workspace / "notes/todo.md").exists()


async def test_a_once_write_task_done_with_a_text_tool_call_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Write today's date to notes/todo.md", "once", intent="write")
        h.local.decide = lambda task_id, title: "act"
        call = {"name": "files_write", "arguments": {"path": "notes/todo.md", "text": "2026-12-01"}}
        h.local.execution_replies.extend([Reply(content="```json\n" + json.dumps(call) + "\n```"),
                                          Reply(content="Wrote the date.")])
        await h.tick()
        row = await h.row(task.id)
        assert row.decision == "act", row.result
        assert row.result.endswith("Tools used: files_write (notes/todo.md)")
        assert (h.workspace / "notes/todo.md").read_text(encoding="utf-8") == "2026-12-01"
        assert (await h.task(task.id)).completed


# --- item 7: RECOMMENDED ACTION only when warranted, never a template ---------------------------------


@pytest.mark.parametrize("text", [
    "Nothing new.\nRECOMMENDED ACTION: <the action, specific enough to carry out>",
    "RECOMMENDED ACTION: the action, specific enough to carry out",
    "RECOMMENDED ACTION: <describe the change>",
    "RECOMMENDED ACTION: None",
    "RECOMMENDED ACTION: n/a",
    "RECOMMENDED ACTION: No action needed.",
    "All fine.\nRECOMMENDED ACTION: " + ANALYSIS_PROMPT.rsplit("RECOMMENDED ACTION:", 1)[-1].strip(),
])
def test_a_placeholder_recommendation_is_no_action(text: str) -> None:
    assert recommended_action(text) is None


@pytest.mark.parametrize("action", ["Send Alex the action items from notes/meeting.md",
                                    "Archive the 40 newsletters in mail/inbox"])
def test_a_real_recommendation_still_counts(action: str) -> None:
    assert recommended_action(f"Found them.\nRECOMMENDED ACTION: {action}") == action


async def test_a_template_recommendation_raises_no_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        h.local.execution_replies.append(
            Reply(content="No urgent mail.\nRECOMMENDED ACTION: <the action, specific enough to carry out>"))
        executor = TaskExecutor(SkillRegistry(), h.services.agent)
        outcome = await executor.execute(make_task("Check urgent emails", "read", "pending"),
                                         Decision("t1", "act", "due"), REPORT)
    assert outcome.escalation is None and outcome.decision == "act"


def test_the_analysis_prompt_has_no_fill_in_template() -> None:
    assert "<" not in ANALYSIS_PROMPT and "specific enough to carry out" not in ANALYSIS_PROMPT
    assert "only" in ANALYSIS_PROMPT.lower()


# --- item 7: only the tools and report sections a task can use ----------------------------------------


async def test_a_write_task_gets_no_notification_or_task_tools_unless_it_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        plain = await h.add_task("Write today's date to notes/todo.md", intent="write")
        notify = await h.add_task("Notify me when notes/todo.md is longer than a page", intent="write")
        h.local.decide = lambda task_id, title: "act"
        offered: dict[str, list[str]] = {}

        def execute(body: dict[str, object]) -> Reply:
            offered.setdefault(task_title_of(body), tool_names(body))
            return Reply(content="ok")

        h.local.execute = execute
        await h.tick()
        assert "notify_user" not in offered[plain.title]
        assert not any(name.startswith("subconscious_tasks") for name in offered[plain.title])
        assert "files_write" in offered[plain.title] and "files_read" in offered[plain.title]
        assert "notify_user" in offered[notify.title]


async def test_execution_prompts_leave_out_health_unless_the_task_is_about_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        notes = await h.add_task("Summarise notes/todo.md", intent="read")
        health = await h.add_task("Check the health of the model connections", intent="read")
        h.local.decide = lambda task_id, title: "act"
        prompts: dict[str, str] = {}

        def execute(body: dict[str, object]) -> Reply:
            prompts[task_title_of(body)] = all_text(body)
            return Reply(content="ok")

        h.local.execute = execute
        await h.tick()
        assert "Model health" not in prompts[notes.title] and "Skill health" not in prompts[notes.title]
        assert "Model health" in prompts[health.title]


async def test_tool_schemas_are_compact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.add_task("Write today's date to notes/todo.md", intent="write")
        h.local.decide = lambda task_id, title: "act"
        h.local.execute = lambda body: Reply(content="ok")
        await h.tick()
        [body] = h.local_bodies("execution")
        tools = json.dumps(body["tools"])
        assert "maxLength" not in tools and "maximum" not in tools and "notify_user" not in tools
        # files and memory only: ~550 tokens (the notification and task tools and every bound made ~1,100)
        assert len(tools) < 2_200, len(tools)


def test_a_compact_spec_keeps_arguments_named_like_schema_keywords() -> None:
    from openhuman_desktop.llm import ToolSpec
    from openhuman_desktop.orchestration import compact_spec

    spec = ToolSpec("t", "T.", {"type": "object", "properties": {
        "default": {"type": "string", "maxLength": 9, "default": "x"}, "minimum": {"type": "integer"}},
        "required": [], "additionalProperties": False})
    assert compact_spec(spec).parameters == {"type": "object", "properties": {
        "default": {"type": "string"}, "minimum": {"type": "integer"}}}


# --- item 5 (execution side): the first request fits the tier's window ----------------------------------


def big_report(lines: int) -> Report:
    files = "\n".join(f"- notes/file-{n:03d}.md (2,000 bytes): meeting notes about project {n}, owner Sam, due "
                      f"in {n % 9 + 1} weeks; open questions about the budget and the roadmap" for n in range(lines))
    text = f"## Environment\nLocal time: now\n\n## Files changed since the last check\n{files}"
    return Report(text=text, signature="s", tokens=len(text), blocks=(("Environment", text),))


@pytest.mark.parametrize("window", [4096, 8192])
async def test_an_execution_prompt_is_cut_to_fit_a_small_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, window: int
) -> None:
    skills = SkillRegistry()
    skills.add(WorkspaceFilesSkill(Path(".")))
    tokens = TokenCounter()
    async with open_harness(tmp_path, monkeypatch, context_length=window) as h:
        h.local.execution_replies.append(Reply(content="Nothing needs doing."))
        executor = TaskExecutor(skills, h.services.agent, window=lambda tier: window, tokens=tokens)
        report = big_report(600)  # ~25,000 tokens: far over either window
        await executor.execute(make_task("Summarise my notes", "read"), Decision("t1", "act", "due"), report)
        [body] = h.local_bodies("execution")
    sent = tokens.count(all_text(body)) + tokens.count(json.dumps(body.get("tools", [])))
    assert sent * 1.2 + body["options"]["num_predict"] <= window, "prompt (with the margin) and answer fit"
    text = first_user_text(body)
    assert "Summarise my notes" in text and "notes/file-000.md" in text, "the task and the report's start stay"
    assert "cut here to fit the model's context window" in text


async def test_an_execution_prompt_that_fits_is_not_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        h.local.execution_replies.append(Reply(content="Nothing needs doing."))
        executor = TaskExecutor(SkillRegistry(), h.services.agent, window=lambda tier: 8192, tokens=TokenCounter())
        await executor.execute(make_task("Summarise my notes", "read"), Decision("t1", "act", "due"),
                               big_report(5))
        [body] = h.local_bodies("execution")
    assert "notes/file-004.md" in first_user_text(body) and "cut here" not in first_user_text(body)
