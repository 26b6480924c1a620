"""Intent by a constant (issue 10, item 8): the model's intent counts only when it is confident and calibrated; and
then it may only narrow (issue 25): "write" → "read", never "read" → "write" without the user ("May write?")."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.intent import PROBES, classify_by_keywords
from tests.fakes.engine_harness import Harness, Reply, first_user_text, open_harness, schema_of

# "Check the weather" reads by its words; a model that hears a change in it says "write" (a test title).
SPECIAL = "Check the weather"
SEND = "Send the weekly summary to Anna"


def answering(h: Harness, answer: Callable[[str], object]) -> None:
    """The local model answers intent questions with ``answer(title)`` (a dict, sent as JSON)."""

    def respond(body: dict[str, object]) -> Reply:
        return Reply(content=json.dumps(answer(first_user_text(body).removeprefix("Task:").strip())))

    assert h.ollama is not None
    h.ollama.set_responder(respond)


def good(title: str) -> dict[str, object]:
    return {"intent": "write" if title == SPECIAL else PROBES.get(title, classify_by_keywords(title)),
            "confident": True}


@pytest.mark.parametrize("constant", ["write", "read"])
async def test_a_model_that_answers_a_constant_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, constant: str
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        answering(h, lambda title: {"intent": constant, "confident": True})
        send = await h.service.tasks_add(SEND)
        check = await h.service.tasks_add("Check whether the disk is full")
        await h.service.intents_refined()
        send, check = [await h.services.store.tasks.get(task.id) for task in (send, check)]
        assert send is not None and check is not None
        assert (send.intent, send.intent_source, send.intent_suggestion) == ("write", "keyword", None)
        assert (check.intent, check.intent_source, check.intent_suggestion) == ("read", "keyword", None)


async def refined(h: Harness, title: str) -> Task:
    """Add a task, wait for the model's answer in the background, and return the task as stored then."""
    task = await h.service.tasks_add(title)
    await h.service.intents_refined()
    stored = await h.services.store.tasks.get(task.id)
    assert stored is not None
    return stored


async def test_a_calibrated_model_agrees_or_asks_the_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        answering(h, good)
        task = await refined(h, SPECIAL)
        # the model hears a change the words do not: read-only, and "May write?" for the user
        assert (task.intent, task.intent_source, task.intent_suggestion) == ("read", "keyword", "write")
        assert task.to_json()["intent_suggestion"] == "write"
        second = await refined(h, SEND)
        assert (second.intent, second.intent_source, second.intent_suggestion) == ("write", "model", None)
        asked = [first_user_text(b).removeprefix("Task:").strip() for b in h.local_bodies("intent")]
        # the probes once per model, then one question per task
        assert sorted(asked) == sorted([*PROBES, SPECIAL, SEND])
        for body in h.local_bodies("intent"):
            assert 0 < body["options"]["num_predict"] <= 40
            assert schema_of(body) is not None and "confident" in schema_of(body)["properties"]


async def test_a_calibrated_model_narrows_a_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        answering(h, lambda title: {"intent": "read", "confident": True} if title == SEND else good(title))
        task = await refined(h, SEND)
        # the model hears no change: the task only reads, and the user may confirm the words' "write"
        assert (task.intent, task.intent_source, task.intent_suggestion) == ("read", "model", "write")


async def test_an_unsure_answer_leaves_it_to_keywords(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        answering(h, lambda title: {**good(title), "confident": title != SPECIAL})
        task = await refined(h, SPECIAL)
        assert (task.intent, task.intent_source, task.intent_suggestion) == ("read", "keyword", None)


async def test_a_model_that_gets_the_probes_wrong_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flipped = {"read": "write", "write": "read"}
    async with open_harness(tmp_path, monkeypatch) as h:
        answering(h, lambda title: {"intent": flipped[good(title)["intent"]], "confident": True})  # type: ignore[index]
        task = await refined(h, SPECIAL)
        assert (task.intent, task.intent_source, task.intent_suggestion) == ("read", "keyword", None)
        probes_asked = len(h.local_bodies("intent"))
        await refined(h, SEND)
        assert len(h.local_bodies("intent")) == probes_asked, "a model found wrong is not asked again"


def test_the_probes_are_balanced_and_the_keywords_agree() -> None:
    assert set(PROBES.values()) == {"read", "write"}
    assert {title: classify_by_keywords(title) for title in PROBES} == PROBES


async def test_one_probe_wrong_is_enough_to_distrust_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # SmolLM2-135M on a llama.cpp server: 5 of 6 probes right, then "write" for two of four reading tasks
    [missed] = [title for title, intent in PROBES.items() if title.startswith("Summarize")]
    async with open_harness(tmp_path, monkeypatch) as h:
        answering(h, lambda title: {**good(title), "intent": "write"} if title == missed else good(title))
        task = await refined(h, SPECIAL)
        assert (task.intent, task.intent_source, task.intent_suggestion) == ("read", "keyword", None)
