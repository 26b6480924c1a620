"""The idle gate right after an evaluation (issue 9, item 9) and execution prompts about one task (item 10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.engine_harness import Harness, Reply, first_user_text, open_harness


async def _first_tick_before_the_models_were_checked(h: Harness) -> None:
    """As at a real start: the first tick runs before the model-health watch has an answer."""
    await h.add_task("Check my inbox")
    await h.add_task("Review notes.md")
    h.write_file("notes.md", "Nothing urgent.")
    h.services.models.health.clear()
    await h.tick()
    assert len(h.local_bodies("evaluation")) == 1
    for tier in ("local", "reasoning"):
        await h.services.models.check(tier)
    await h.clock.advance(300)


async def test_the_tick_after_an_all_noop_evaluation_makes_no_model_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await _first_tick_before_the_models_were_checked(h)
        assert h.ollama is not None
        before = len(h.ollama.chat_requests)

        await h.tick()

        assert len(h.ollama.chat_requests) == before, "only the product's own bookkeeping changed"
        assert h.engine.last_tick_stats["model_calls"] == 0


@pytest.mark.logs_expected(r"model reasoning failed a call: Cannot reach")
async def test_a_model_going_down_still_breaks_the_idle_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await _first_tick_before_the_models_were_checked(h)
        h.services.models.report_failure("reasoning", "Cannot reach http://127.0.0.1:9/v1 (connection refused).")

        await h.tick()

        assert len(h.local_bodies("evaluation")) == 2
        assert "reasoning model: problem" in first_user_text(h.local_bodies("evaluation")[-1])


async def test_a_new_task_still_breaks_the_idle_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await _first_tick_before_the_models_were_checked(h)
        await h.add_task("Water the plants")

        await h.tick()

        assert len(h.local_bodies("evaluation")) == 2


async def test_an_execution_prompt_holds_its_own_task_and_not_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.add_task("Summarise notes.md", intent="read")
        await h.add_task("Wire 5000 EUR to account DE99 right away")
        await h.add_task("Delete every file in the archive folder")
        h.write_file("notes.md", "Quarterly plan: hire two people.")
        await h.services.memory.add("Anna prefers short summaries.")
        h.local.decide_by_title({"Summarise": "act"})
        h.local.execution_replies.append(Reply(content="Summary: hire two people."))

        await h.tick()

        [execution] = h.local_bodies("execution")
        prompt = first_user_text(execution)
        assert "Summarise notes.md" in prompt
        assert "Wire 5000 EUR" not in prompt and "Delete every file" not in prompt
        assert "Quarterly plan: hire two people." in prompt, "the changed files are there"
        assert "Anna prefers short summaries." in prompt, "and the new memories"
        assert "Workspace:" in prompt
        # issue 10, item 7: health lines only for a task about health
        assert "Model health" not in prompt and "Skill health" not in prompt
