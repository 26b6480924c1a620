"""The context hook on reflection's prompt (a month of activity fits the subconscious window; what was
condensed goes to long-term memory tagged evicted) and the schedule loop on the fake clock (cron in local
time, config edits apply live)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from openhuman_desktop import events, recurrence
from openhuman_desktop.bootstrap import LedgerReflectionPort
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration.ports import TimelineEntry
from openhuman_desktop.orchestration.steering import DIRECTIVE, HistoryRecord
from openhuman_desktop.subconscious import reflection_prompt
from openhuman_desktop.subconscious.reflection import SCHEDULE, Reflector
from tests.fakes.model_servers import Reply
from tests.reflection.conftest import LOCAL, World, directive_reply, is_reflection, settings_with

WINDOW = 4096


def answer(body: Any) -> Reply:
    if is_reflection(body):
        return directive_reply("Batch the note edits.")
    system = next((m["content"] for m in body["messages"] if m["role"] == "system"), "")
    assert prompts.MAP_ROLE in system or prompts.REDUCE_ROLE in system, system
    return Reply(content="Mostly notes were written and tasks checked.")


async def test_a_month_of_activity_fits_the_window_and_the_condensed_part_is_evicted(world: World) -> None:
    world.live.settings = settings_with(world.server.url, window=WINDOW)
    world.server.set_responder(answer)
    await world.add_history(*(f"Run {n}: wrote notes/day{n % 30}.md and checked task {n % 7}" for n in range(300)))
    for day in range(30):
        await world.add_timeline(*(f"notes/day{day}.md" for _ in range(10)))

    result = await world.reflector.reflect()

    assert result.status == DIRECTIVE, result.reason
    assert result.evicted > 0 and result.prompt_tokens <= WINDOW * 0.85
    [request] = world.reflection_requests()
    prompt = world.prompt_of(request)
    assert TokenCounter().count(prompt) <= WINDOW * 0.85 - reflection_prompt.ANSWER_TOKENS
    assert "Run 299:" in prompt  # the newest entries stay verbatim
    assert "Mostly notes were written" in prompt and "File written: " in prompt
    summaries = [r for r in world.server.chat_requests if not is_reflection(r.json)]
    assert summaries and all(r.json["model"] == LOCAL for r in summaries)  # the quick tier map-reduces
    [(text, thread, _run)] = world.evictions.stored
    assert thread == "subconscious:reflection" and "Mostly notes were written" in text
    assert "File written: " in text  # the timeline's tally by kind


def record(seq: int, text: str) -> HistoryRecord:
    return HistoryRecord(seq, None, "telegram:12345", text, 400, 20, 1_790_000_000.0 + seq)


def entry(seq: int) -> TimelineEntry:
    return TimelineEntry(seq, f"File written: notes/{seq % 5}.md", "appended a line", "10 → 20 bytes (+10)",
                         1_790_000_000.0 + seq, None)


async def test_without_a_model_the_old_part_is_condensed_without_any_request() -> None:
    history = [record(n, f"entry {n} " + "words " * 30) for n in range(1, 1001)]
    timeline = [entry(n) for n in range(1, 10_001)]
    built = await reflection_prompt.build(history, timeline, None, tokens=TokenCounter(), window=8192,
                                          threshold=0.85)
    assert built.hook_fired and built.evicted > 10_000
    assert built.tokens <= 8192 * 0.85 and TokenCounter().count(built.system + built.user) <= built.tokens
    assert "[extractive]" in built.digest and "- File written: " in built.digest  # the tally by kind
    assert "12345" not in built.user  # a chat id is not the model's business: only the channel kind


def test_the_answer_parses_from_plain_or_fenced_json() -> None:
    assert reflection_prompt.parse_answer('```json\n{"directive": "x", "rationale": "y"}\n```') == ("x", "y")
    assert reflection_prompt.parse_answer(json.dumps({"directive": "a", "rationale": 3})) == ("a", "3")


async def settle(world: World) -> None:
    for _ in range(5):
        await asyncio.sleep(0)
    await world.reflector.wait_idle()


async def test_the_schedule_fires_at_its_local_time_and_follows_config_edits(world: World) -> None:
    world.live.settings = settings_with(world.server.url, schedule="cron:0 3 * * *")
    await world.add_history("something happened")
    world.server.script_chat(directive_reply("Scheduled guidance."))
    loop = world.supervisor.spawn(world.reflector.run(), name="reflection-schedule")
    await settle(world)
    due = recurrence.next_run(recurrence.parse("cron:0 3 * * *"), world.clock.now())
    assert due is not None and world.reflector.next_at == due
    assert world.server.requests == []

    await world.clock.advance(due - world.clock.now() + 1)
    await settle(world)
    [fired] = await world.ledger.reflections()
    assert (fired.trigger, fired.status) == (SCHEDULE, DIRECTIVE)
    assert world.reflector.next_at == due + 86_400

    # Disabled by a config edit: the next time passes without a reflection.
    world.live.settings = settings_with(world.server.url, enabled=False)
    world.reflector.poke()
    await settle(world)
    assert world.reflector.next_at is None
    await world.add_history("more")
    await world.clock.advance(86_400 + 60)
    await settle(world)
    assert len(await world.ledger.reflections()) == 1

    # A new schedule applies at once: every hour.
    world.live.settings = settings_with(world.server.url, schedule="cron:0 * * * *")
    world.reflector.poke()
    await settle(world)
    assert world.reflector.next_at is not None and world.reflector.next_at - world.clock.now() <= 3600
    world.server.script_chat(directive_reply("Hourly guidance."))
    await world.clock.advance(3600)
    await settle(world)
    assert [r.trigger for r in await world.ledger.reflections()] == [SCHEDULE, SCHEDULE]
    assert not loop.done()


async def test_a_due_time_with_nothing_new_costs_no_request(world: World) -> None:
    world.supervisor.spawn(world.reflector.run(), name="reflection-schedule")
    await settle(world)
    assert world.reflector.next_at is not None
    await world.clock.advance(world.reflector.next_at - world.clock.now() + 1)
    await settle(world)
    assert [r.status for r in await world.ledger.reflections()] == ["skipped"]
    assert world.server.requests == []




def test_the_answer_schema_has_no_length_bounds() -> None:
    # llama.cpp compiles maxLength 2000 into 2000 nested grammar rules, refuses it and drops the connection
    # (seen with SmolLM2-135M): the cap is max_tokens, the check clean_directive_text.
    schema = json.dumps(reflection_prompt.SCHEMA)
    assert "maxLength" not in schema and "maxItems" not in schema
    assert reflection_prompt.SCHEMA["required"] == ["directive", "rationale"]


async def test_a_time_missed_while_the_app_was_closed_is_made_up_at_start(world: World) -> None:
    world.live.settings = settings_with(world.server.url, schedule="cron:0 3 * * *")
    await world.add_history("yesterday's work")
    world.server.script_chat(directive_reply("Guidance from yesterday."))
    await world.reflector.reflect()                    # the last reflection before the app was closed
    await world.add_history("what happened since")
    await world.clock.advance(2 * 86_400)              # closed for two days: two 03:00s passed
    world.server.script_chat(directive_reply("Made-up guidance."))
    # The app starts again: a new reflector learns from the ledger when the last reflection was.
    world.reflector = Reflector(LedgerReflectionPort(world.ledger, world.steering), world.models, TokenCounter(),
                                world.live, world.clock, events.EventBus(), world.supervisor)
    await world.reflector.prepare()
    world.supervisor.spawn(world.reflector.run(), name="reflection-schedule")
    await settle(world)
    fired = await world.ledger.reflections()
    assert [(r.trigger, r.status) for r in fired] == [(SCHEDULE, DIRECTIVE), ("manual", DIRECTIVE)]  # once
    assert (await world.steering.current()).text == "Made-up guidance."  # type: ignore[union-attr]
    due = recurrence.next_run(recurrence.parse("cron:0 3 * * *"), world.clock.now())
    assert world.reflector.next_at == due              # then the schedule as usual
