"""One reflection on the real ledger and a fake Ollama: skipped with no request when nothing is new, a
directive from the history log and the timeline (schema, cap, inputs), unchanged, failures that keep the
watermark, no subconscious tier, and triggers coalesced while one runs."""

from __future__ import annotations

import asyncio
import threading

import pytest

from openhuman_desktop.orchestration.events import ReflectionFinished, ReflectionStarted, SteeringChanged
from openhuman_desktop.orchestration.steering import DIRECTIVE, FAILED, REFLECTION, SKIPPED, UNCHANGED
from openhuman_desktop.subconscious import reflection_prompt
from openhuman_desktop.subconscious.reflection import NOT_CONFIGURED
from tests.fakes.model_servers import Reply
from tests.reflection.conftest import DEEP, World, directive_reply, settings_with


async def test_nothing_new_is_skipped_without_a_single_request(world: World) -> None:
    result = await world.reflector.reflect()
    assert (result.status, result.prompt_tokens, result.history_to, result.timeline_to) == (SKIPPED, 0, 0, 0)
    assert world.server.requests == []
    assert world.reflector.model_calls == 0
    assert [r.status for r in await world.ledger.reflections()] == [SKIPPED]


async def test_a_reflection_writes_a_directive_from_the_log_and_the_timeline(world: World) -> None:
    await world.add_history("Wrote the weekly report into notes/week.md", "Answered a question about the budget")
    await world.add_timeline("notes/week.md", "notes/budget.md")
    world.server.script_chat(directive_reply("Keep notes short and in notes/."))

    result = await world.reflector.reflect()

    assert result.status == DIRECTIVE, result.reason
    directive = await world.steering.current_directive()
    assert directive is not None and directive.version == result.directive_version
    assert (directive.text, directive.source, directive.model) == ("Keep notes short and in notes/.", REFLECTION, DEEP)
    assert directive.rationale == "Files keep piling up in notes/."
    assert directive.inputs.to_json() == {"history_entries": 2, "history_from": 1, "history_to": 2,
                                          "timeline_from": 1, "timeline_to": 2}
    assert (result.history_to, result.timeline_to, result.evicted) == (2, 2, 0)
    assert result.prompt_tokens > 0 and result.model == DEEP
    [request] = world.reflection_requests()
    body = request.json
    assert body["model"] == DEEP and body["format"] == reflection_prompt.SCHEMA
    assert body["options"]["num_predict"] == reflection_prompt.ANSWER_TOKENS
    prompt = world.prompt_of(request)
    assert "Wrote the weekly report into notes/week.md" in prompt and "File written: notes/week.md" in prompt
    assert "There is no directive in force yet." in prompt
    assert [type(e) for e in world.seen] == [ReflectionStarted, SteeringChanged,
                                             ReflectionFinished]

    # Its own steering change is not news: the next reflection is skipped, with no request.
    again = await world.reflector.reflect()
    assert again.status == SKIPPED and len(world.server.chat_requests) == 1


async def test_only_what_is_new_since_the_last_reflection_is_read(world: World) -> None:
    await world.add_history("old entry about the garden")
    world.server.script_chat(directive_reply("Mind the garden."), directive_reply("Mind the roses."))
    assert (await world.reflector.reflect()).status == DIRECTIVE
    await world.add_history("new entry about the roses")
    assert (await world.reflector.reflect()).status == DIRECTIVE
    second = world.prompt_of(world.reflection_requests()[1])
    assert "new entry about the roses" in second and "old entry about the garden" not in second
    assert "Mind the garden." in second  # the previous directive is shown


async def test_the_same_directive_again_is_unchanged(world: World) -> None:
    await world.add_history("one")
    world.server.script_chat(directive_reply("Be brief."), directive_reply("  be brief. "))
    first = await world.reflector.reflect()
    await world.add_history("two")
    second = await world.reflector.reflect()
    assert second.status == UNCHANGED and second.directive_version == first.directive_version
    assert [d.version for d in await world.steering.list()] == [first.directive_version]


@pytest.mark.logs_expected(r"model subconscious failed a call: Ollama at")
async def test_a_model_that_is_down_fails_in_one_sentence_and_keeps_the_watermark(world: World) -> None:
    await world.add_history("entry that must not be lost")
    world.server.script_chat(Reply(status=500, error="model crashed"))
    failed = await world.reflector.reflect()
    assert failed.status == FAILED
    assert failed.reason.startswith("The subconscious model") and failed.reason.endswith(".")
    assert await world.steering.current_directive() is None
    assert (await world.reflector.status()).problem is not None

    world.server.script_chat(directive_reply("Recovered now."))
    retried = await world.reflector.reflect()
    assert retried.status == DIRECTIVE
    assert "entry that must not be lost" in world.prompt_of(world.reflection_requests()[-1])


async def test_garbage_fails_and_nothing_is_written(world: World) -> None:
    await world.add_history("one")
    world.server.script_chat(Reply(content="I think the user likes notes."))
    result = await world.reflector.reflect()
    assert result.status == FAILED and "not the directive asked for" in result.reason
    assert await world.steering.list() == []
    assert (await world.ledger.reflection_news())[1] == (1, 0)  # still news for the next reflection


async def test_without_a_subconscious_tier_nothing_is_asked_and_the_status_says_so(world: World) -> None:
    world.live.settings = settings_with(world.server.url, subconscious=False)
    await world.add_history("one")
    result = await world.reflector.reflect()
    assert (result.status, result.reason) == (FAILED, NOT_CONFIGURED)
    assert world.server.chat_requests == []
    status = (await world.reflector.status()).to_json()
    assert status["problem"] == NOT_CONFIGURED and status["pending"] == {"history_entries": 1,
                                                                          "timeline_entries": 0}


async def test_triggers_while_one_runs_are_coalesced_into_one_more(world: World) -> None:
    await world.add_history("one")
    release = threading.Event()

    def hold(body: object) -> Reply:
        release.wait(10)
        return directive_reply("Hold on.")

    world.server.set_responder(hold)
    assert world.reflector.trigger() is True
    await asyncio.to_thread(world.server.wait_for_requests, 1, path="/api/chat")
    assert world.reflector.trigger() is False and world.reflector.trigger() is False
    assert (await world.reflector.status()).state == "reflecting"
    release.set()
    await world.reflector.wait_idle()
    assert [r.status for r in reversed(await world.ledger.reflections())] == [DIRECTIVE, SKIPPED]
    assert len(world.server.chat_requests) == 1


async def test_a_server_that_was_down_is_asked_again_and_the_problem_clears(world: World) -> None:
    await world.add_history("one")
    port = world.server.port
    world.server.stop()
    down = await world.reflector.reflect()
    assert down.status == FAILED and down.reason.startswith("The subconscious model is not available")
    assert (await world.reflector.status()).problem is not None
    world.server.start(port)
    world.server.script_chat(directive_reply("Back again."))
    assert (await world.reflector.reflect()).status == DIRECTIVE
    assert (await world.reflector.status()).problem is None


async def test_a_directive_that_is_no_guidance_is_refused_and_the_one_in_force_stays(world: World) -> None:
    await world.add_history("one")
    world.server.script_chat(directive_reply("Check the tasks before adding new ones."), directive_reply("1.2"),
                             directive_reply("x" * 2_001))
    kept = await world.reflector.reflect()
    for _ in range(2):
        await world.add_history("more")
        refused = await world.reflector.reflect()
        assert refused.status == FAILED and "unusable directive" in refused.reason, refused.reason
    current = await world.steering.current_directive()
    assert current is not None and current.version == kept.directive_version
