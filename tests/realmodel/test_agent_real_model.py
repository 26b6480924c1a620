"""The agent on a real small model (issue 11): one chat through the real headless app, both tiers on
SmolLM2-135M (llama.cpp), completes with a streamed answer and the whole node sequence.

Opt-in like the rest of tests/realmodel: skipped unless ``OPENHUMAN_REAL_MODEL=1``; the server comes from
``OPENHUMAN_REAL_MODEL_URL`` or is started on a free port. What a tiny model manages beyond this (a valid plan,
a journaled tool call) varies from run to run: ``bench/agent_real_model.py`` measures it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

if os.environ.get("OPENHUMAN_REAL_MODEL") != "1":
    pytest.skip("real-model test: set OPENHUMAN_REAL_MODEL=1 (see tests/realmodel)", allow_module_level=True)

from bench import real_model_server  # noqa: E402
from bench.agent_real_model import CHATS, FILES, run_chat  # noqa: E402
from bench.model_proxy import ModelProxy  # noqa: E402
from bench.real_model import App, config_for  # noqa: E402

pytestmark = [pytest.mark.realmodel, pytest.mark.timeout(1500)]

NODES = ["channel_ingestion", "frontend_agent", "agent_execution", "frontend_agent", "context_manager_hook"]


def test_a_chat_on_the_real_model_completes_with_a_streamed_answer(server_url: str, tmp_path: Path) -> None:
    proxy = ModelProxy(server_url, safety_cap=512)
    app = App(tmp_path / "ws", proxy, config_for(proxy, real_model_server.MODEL_ALIAS,
                                                 real_model_server.DEFAULT_CONTEXT), FILES)
    try:
        # not "What is in notes.md?": a single-file question is answered by one sub-agent, not streamed by pass 2
        question = next(chat for chat in CHATS if chat.text == "Does my garden plan mention beans?")
        outcome = run_chat(app, proxy, 1, question)
    finally:
        app.close()
        proxy.close()
    assert outcome.status == "completed", outcome.run
    assert outcome.nodes == NODES
    assert outcome.pieces > 0 and outcome.answer and outcome.streamed == outcome.answer
    assert outcome.run["permission"] == "read" and outcome.timeline == []
    assert all(e.max_tokens is not None for e in proxy.chats())
