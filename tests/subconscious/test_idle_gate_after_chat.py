"""A chat writes the run ledger (``agent/ledger.db*``) and the web app its key (``channels/``): neither is the
user's news, so the tick after them costs no model call and quotes neither (issue 25, "No secret in any
prompt")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fakes.engine_harness import Harness, first_user_text, open_harness


async def _settled(h: Harness) -> None:
    """One tick that evaluated (all noop) after the models were checked: the next one may stay idle."""
    await h.add_task("Check my inbox")
    h.write_file("notes.md", "Nothing urgent.")
    await h.tick()
    assert len(h.local_bodies("evaluation")) == 1
    await h.clock.advance(300)


async def test_the_tick_after_a_chat_makes_no_model_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await _settled(h)
        run = await h.services.agent.send("What is on my plate today?", "desktop")
        finished = await h.services.agent.wait(run.id)
        assert finished.status == "completed", finished
        assert list((h.workspace / "agent").glob("ledger.db*")), "the chat wrote the ledger"
        assert h.ollama is not None and h.openai is not None
        before = len(h.ollama.chat_requests) + len(h.openai.chat_requests)

        await h.tick()

        assert len(h.ollama.chat_requests) + len(h.openai.chat_requests) == before, \
            "nothing of the user's changed: the ledger is the app's own"
        assert h.engine.last_tick_stats["model_calls"] == 0


async def test_the_apps_new_folders_are_not_news_and_never_quoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await _settled(h)
        for relative in ("channels/webapp-link.json", "skills/mail/state.json", "agent/ledger.db-wal"):
            h.write_file(relative, json.dumps({"token": "KEY-MARKER-7f3a", "port": 4242}))
        h.write_file(".config.toml.x1y2.tmp", '[models.reasoning]\napi_key_env = "KEY-MARKER-7f3a"\n')

        await h.tick()
        assert len(h.local_bodies("evaluation")) == 1, "the app's own files changed, nothing of the user's"

        await h.clock.advance(300)
        h.write_file("todo.md", "Call the bank.")
        await h.add_task("Tell me what is new in todo.md")  # a first look reads the whole report (judgement.py)
        await h.tick()
        [_, second] = h.local_bodies("evaluation")
        prompt = first_user_text(second)
        assert "todo.md" in prompt and "Call the bank." in prompt
        assert "KEY-MARKER" not in prompt and "channels/" not in prompt and "skills/" not in prompt
