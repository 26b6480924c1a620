"""Honest status (issue 9): the reasoning tier and a rejected config edit show in ``subconscious_status``;
every tick that ran to its end counts; a config fix rechecks the models at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop import events
from tests.fakes.engine_harness import (
    LOCAL_MODEL,
    Harness,
    RecordingSleep,
    Reply,
    closed_port_url,
    config_text,
    open_harness,
)


def ollama_reasoning_config(h: Harness, model: str) -> str:
    """The harness config with the reasoning tier on the fake Ollama, asking for ``model``."""
    assert h.ollama is not None
    text = config_text(local_url=h.ollama.url, reasoning_url=None)
    return text + f'\n[models.reasoning]\nprovider = "ollama"\nbase_url = "{h.ollama.url}"\nmodel = "{model}"\n'


# --- item 7: the reasoning tier -------------------------------------------------------------------------


async def test_a_reasoning_model_that_is_not_pulled_makes_the_status_degraded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.reconfigure(ollama_reasoning_config(h, "qwen2.5:14b"))
        await h.services.models.check("local")
        await h.services.models.check("reasoning")

        status = await h.service.status()

        assert status["state"] == "degraded"
        reason = status["state_reason"]
        assert "reasoning model" in reason and "qwen2.5:14b" in reason
        assert "ollama pull qwen2.5:14b" in reason


async def test_an_unreachable_reasoning_model_makes_the_status_degraded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch, reasoning="down") as h:
        status = await h.service.status()
        assert status["state"] == "degraded"
        reason = status["state_reason"]
        assert reason.startswith("Escalations fail (reasoning model agentic-v1): cannot reach http://127.0.0.1:")
        assert "Start that server" in reason


@pytest.mark.logs_expected(r"model reasoning failed a call")
async def test_a_failing_escalation_marks_the_reasoning_tier_and_a_working_one_clears_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Draft a reply to the landlord", intent="write")
        h.local.decide_by_title({"Draft": "escalate"})
        h.reasoning.execution_replies.append(Reply(status=500, error="CUDA out of memory"))
        changes: list[events.StatusChanged] = []
        h.services.bus.subscribe(events.StatusChanged, changes.append)

        await h.tick()

        assert (await h.row(task.id)).decision == "failed"
        status = await h.service.status()
        assert status["state"] == "degraded", "the model check said ok, but the real call failed"
        assert "reasoning model" in status["state_reason"] and "CUDA out of memory" in status["state_reason"]
        assert changes, "the tray and window hear about it"

        await h.clock.advance(300)
        h.reasoning.execution_replies.extend([  # a write task's act must change something (issue 10, item 6)
            Reply(tool_calls=[{"name": "files_write", "arguments": {"path": "landlord.md", "text": "Dear …"}}]),
            Reply(content="Drafted the reply in landlord.md."),
        ])
        await h.tick()

        assert (await h.row(task.id)).decision == "act"
        status = await h.service.status()
        assert (status["state"], status["state_reason"]) == ("idle", "Waiting for the next tick.")


@pytest.mark.logs_expected(r"model reasoning failed a call")
async def test_a_rate_limit_that_outlasts_the_back_off_is_in_the_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch, backoff_sleep=RecordingSleep()) as h:
        await h.add_task("Create the weekly report in report.md", intent="write")
        h.local.decide = lambda task_id, title: "escalate"
        h.reasoning.execution_replies.extend([Reply(status=429)] * 4)

        await h.tick()

        status = await h.service.status()
        assert status["state"] == "degraded"
        assert "reasoning model" in status["state_reason"] and "HTTP 429" in status["state_reason"]
        assert "agentic-v1" in status["state_reason"], "it names the model"


async def test_a_local_problem_comes_before_a_reasoning_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch, local="down", reasoning="down") as h:
        status = await h.service.status()
        assert status["state"] == "degraded"
        assert status["state_reason"].startswith("Ollama is not running"), "local wording is unchanged"


# --- item 7: a rejected config edit ---------------------------------------------------------------------


@pytest.mark.logs_expected(r"config not reloaded, keeping the previous settings")
async def test_a_rejected_config_edit_is_in_the_status_until_fixed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        good = h.paths.config_file.read_text(encoding="utf-8")
        changes: list[events.StatusChanged] = []
        h.services.bus.subscribe(events.StatusChanged, changes.append)
        h.paths.config_file.write_text(good.replace("interval_minutes = ", "interval_minutes = -"), encoding="utf-8")

        assert not await h.services.settings.reload()

        status = await h.service.status()
        assert status["state"] == "degraded"
        reason = status["state_reason"]
        assert "config.toml" in reason and "interval_minutes" in reason
        assert "previous settings stay in force" in reason
        assert changes, "a rejected edit is a status change"

        changes.clear()
        h.paths.config_file.write_text(good, encoding="utf-8")
        assert not await h.services.settings.reload(), "the same settings as before: nothing new took effect"

        status = await h.service.status()
        assert (status["state"], status["state_reason"]) == ("idle", "Waiting for the next tick.")
        assert changes, "the fix is a status change too"


# --- item 8: total_ticks --------------------------------------------------------------------------------


@pytest.mark.logs_expected(r"model local failed a call: Ollama is not running at", r"start it with `ollama serve`")
async def test_a_failed_evaluation_still_counts_as_a_tick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch, local="down") as h:
        await h.add_task("Check my inbox")
        await h.tick()
        await h.clock.advance(60)
        await h.tick()

        status = await h.service.status()
        assert (status["total_ticks"], status["consecutive_failures"]) == (2, 2)
        assert status["last_tick_at"] is None, "a failed evaluation leaves last_tick_at alone"


# --- item 12: a config fix rechecks the models at once --------------------------------------------------


@pytest.mark.logs_expected(r"model local failed a call: Ollama is not running at", r"start it with `ollama serve`")
async def test_a_config_fix_rechecks_the_models_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        assert h.ollama is not None and h.openai is not None
        live = h.ollama.url
        down = closed_port_url()
        await h.add_task("Check my inbox")
        h.paths.config_file.write_text(config_text(local_url=down, reasoning_url=h.openai.url), encoding="utf-8")
        await h.clock.advance(2)  # the config watcher polls every 2 s
        await h.wait_until(lambda: _says(h, f"Ollama is not running at {down}"))
        await h.tick()
        assert f"Ollama is not running at {down}" in (await h.service.status())["state_reason"]

        h.paths.config_file.write_text(config_text(local_url=live, reasoning_url=h.openai.url), encoding="utf-8")
        await h.clock.advance(2)

        async def fixed() -> bool:
            health = h.services.models.health.get("local")
            return health is not None and health.ok and not await _says(h, down)

        await h.wait_until(fixed)
        status = await h.service.status()
        assert down not in status["state_reason"], "no tick ran, yet the status no longer blames the old address"
        assert status["consecutive_failures"] == 1
        assert LOCAL_MODEL in status["state_reason"]


async def _says(h: Harness, text: str) -> bool:
    return text in (await h.service.status())["state_reason"]
