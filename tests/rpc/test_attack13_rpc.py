"""Attack on the issue-13 RPC methods with bad params: every refusal is a -32602 (or -32001) one-sentence
error naming the parameter — never -32603 — and nothing is written or lost."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.llm.embeddings import OllamaEmbedder
from openhuman_desktop.llm.retry import RetryPolicy
from openhuman_desktop.memory import memory_db_path, open_memory_store
from openhuman_desktop.memory.vectors import VectorMemory
from openhuman_desktop.rpc.memory_methods import memory_methods
from openhuman_desktop.rpc.methods import MethodTable
from openhuman_desktop.rpc.protocol import INVALID_PARAMS, NOT_FOUND, PARSE_ERROR, Dispatcher
from openhuman_desktop.rpc.reflection_methods import reflection_methods
from tests.fakes.clock import FakeClock
from tests.reflection import conftest as reflection_fixtures
from tests.reflection.conftest import World

server = reflection_fixtures.server  # the reflection tests' fixtures (no conftest of our own here)
world = reflection_fixtures.world

Json = Any


@pytest.fixture
async def rpc(world: World, clock: FakeClock, tmp_path: Path) -> AsyncIterator[Dispatcher]:
    world.server.add_model("embed-a", capabilities=("embedding",))
    store = await open_memory_store(memory_db_path(tmp_path), clock)
    embedder = OllamaEmbedder("embed-a", world.server.url, retry=RetryPolicy(delays=()))
    vectors = VectorMemory(store, lambda: embedder, clock)
    table = MethodTable()
    table.add(memory_methods(store, None, vectors))
    table.add(reflection_methods(world.steering, world.reflector))
    dispatcher = Dispatcher(table)
    dispatcher.vectors = vectors  # type: ignore[attr-defined]
    yield dispatcher
    await embedder.aclose()
    await store.aclose()


async def call_raw(dispatcher: Dispatcher, method: str, params_json: str) -> dict[str, Json]:
    body = f'{{"jsonrpc": "2.0", "id": 1, "method": "openhuman.{method}", "params": {params_json}}}'
    answer = await dispatcher.handle_body(body.encode("utf-8", "surrogatepass"))
    assert isinstance(answer, dict)
    json.dumps(answer, allow_nan=False).encode()  # the answer can be sent as strict JSON
    return answer


async def call(dispatcher: Dispatcher, method: str, params: Json) -> dict[str, Json]:
    return await call_raw(dispatcher, method, json.dumps(params))


BIG = 10 ** 30


@pytest.mark.parametrize(("method", "params"), [
    ("steering_revert", f'{{"version": {BIG}}}'),
    ("steering_revert", f'{{"version": {2 ** 63}}}'),
    ("steering_revert", '{"version": -5}'),
    ("steering_revert", '{"version": 1.5}'),
    ("steering_revert", '{"version": 1.0}'),
    ("steering_revert", '{"version": true}'),
    ("steering_revert", '{"version": "2"}'),
    ("steering_revert", '{"version": null}'),
    ("steering_revert", '{"version": 1e400}'),
    ("steering_revert", '[1, 2]'),
    ("steering_list", f'{{"before": {BIG}}}'),
    ("steering_list", f'{{"limit": {BIG}}}'),
    ("steering_list", '{"before": -1}'),
    ("steering_list", '{"limit": 2.5}'),
    ("steering_set", '{"text": "   \\n\\t  "}'),
    ("steering_set", '{"text": "' + "x" * 2001 + '"}'),
    ("steering_set", '{"text": "bad\\u0000text"}'),
    ("steering_set", '{"text": "lone \\ud800 surrogate"}'),
    ("steering_set", '{"text": "ok text", "rationale": "lone \\udfff"}'),
    ("steering_set", '{"text": "ok text", "rationale": 5}'),
    ("steering_set", '{"text": "ok text", "rationale": "' + "r" * 5000 + '"}'),
    ("steering_set", '{"text": "ok text", "rationale": "nul\\u0000"}'),
    ("steering_set", '{"text": ["a"]}'),
    ("memory_search", '{"query": "x", "mode": 5}'),
    ("memory_search", '{"query": "x", "mode": ""}'),
    ("memory_search", '{"query": "x", "mode": "HYBRID"}'),
    ("memory_search", '{"query": "x", "limit": 1.5}'),
    ("memory_search", '{"query": "x", "limit": "5"}'),
    ("memory_search", f'{{"query": "x", "limit": {BIG}}}'),
    ("memory_search", '{"query": "x", "limit": true}'),
    ("memory_search", '{"query": "x", "limit": 0}'),
    ("memory_search", '{"query": "' + "word " * 300 + '"}'),
    ("memory_search", '{"query": "?!.,;:"}'),
    ("memory_search", '{"query": "\\ud800"}'),
    ("memory_search", '{"query": "lone \\ud800 surrogate"}'),
    ("memory_list", f'{{"before": {BIG * BIG * BIG * BIG * BIG * BIG * BIG * BIG * BIG * BIG * BIG}}}'),
    ("memory_list", '{"before": "yesterday"}'),
    ("memory_list", '{"tag": "a,b"}'),
    ("memory_list", '{"tag": "  "}'),
    ("memory_list", f'{{"limit": {BIG}}}'),
    ("memory_add", '{"text": "lone \\ud800 surrogate"}'),
    ("memory_add", '{"text": "ok", "tags": ["\\udc00"]}'),
    ("memory_status", '{"verbose": true}'),
])
async def test_bad_params_get_a_clear_error(rpc: Dispatcher, world: World, method: str, params: str) -> None:
    before = await world.steering.list(1000)
    answer = await call_raw(rpc, method, params)
    assert "error" in answer, answer
    code, message = answer["error"]["code"], answer["error"]["message"]
    assert code in (INVALID_PARAMS, NOT_FOUND, PARSE_ERROR), answer  # -32700: lone surrogates, 1e400
    assert "\n" not in message and len(message) < 300 and "Traceback" not in message
    assert await world.steering.list(1000) == before  # nothing written


async def test_unicode_oddities_that_are_valid_round_trip(rpc: Dispatcher) -> None:
    weird = "Zalgo z̷̢a̴l̶g̵o — RTL \u202eevil\u202c, emoji 🦷🦷, CJK 歯医者, accents Zähnärzt"
    added = await call(rpc, "memory_add", {"text": weird})
    assert added["result"]["text"] == weird
    for query in ("zahnarzt", "歯医者", "🦷", "z̷̢a̴l̶g̵o", "evil"):
        answer = await call(rpc, "memory_search", {"query": query})
        assert "result" in answer or answer["error"]["code"] == INVALID_PARAMS, answer


async def test_concurrent_edits_and_reverts_give_gap_free_versions_each_with_one_timeline_entry(
        rpc: Dispatcher, world: World) -> None:
    first = await call(rpc, "steering_set", {"text": "Prefer short answers."})
    assert first["result"]["version"] == 1
    calls = [call(rpc, "steering_set", {"text": f"Directive number {i}."}) for i in range(15)]
    calls += [call(rpc, "steering_revert", {"version": 1}) for _ in range(10)]
    calls += [call(rpc, "steering_revert", {"version": 0}) for _ in range(5)]
    answers = await asyncio.gather(*calls)
    assert all("result" in a for a in answers), [a for a in answers if "error" in a]
    versions = sorted(a["result"]["version"] for a in answers)
    assert versions == list(range(2, 32))
    listed = await world.steering.list(1000)
    assert [d.version for d in listed] == list(range(31, 0, -1))
    entries = await world.ledger.timeline(0, 1000)
    changes = [e for e in entries if e.event_signature.startswith("Steering changed")]
    assert len(changes) == 31, [e.event_signature for e in changes]
    current = await call(rpc, "steering_current", {})
    assert current["result"] is None or current["result"]["version"] == 31


async def test_search_answers_while_the_back_fill_runs(rpc: Dispatcher, world: World) -> None:
    for i in range(300):
        await call(rpc, "memory_add", {"text": f"memory {i} about teeth and dentists"})
    vectors: VectorMemory = rpc.vectors  # type: ignore[attr-defined]
    fill = asyncio.ensure_future(vectors.backfill())
    answers = []
    for mode in ("hybrid", "text", "vector") * 5:
        answers.append(await call(rpc, "memory_search", {"query": "dentists", "mode": mode, "limit": 5}))
        answers.append(await call(rpc, "memory_status", {}))
    await fill
    assert all("result" in a for a in answers), [a for a in answers if "error" in a]
    status = (await call(rpc, "memory_status", {}))["result"]
    assert (status["count"], status["with_vectors"], status["pending"]) == (300, 300, 0)


@pytest.mark.parametrize("text", ["Clear the screen \x1b[2J now", "Ring \x07 the bell", "back\bspace", "del\x7f"])
async def test_control_characters_in_a_directive_are_refused(rpc: Dispatcher, world: World, text: str) -> None:
    answer = await call(rpc, "steering_set", {"text": text})
    assert answer.get("error", {}).get("code") == INVALID_PARAMS, answer
    assert "control characters" in answer["error"]["message"]
    assert await world.steering.list() == []


async def test_newlines_and_tabs_in_a_directive_are_kept(rpc: Dispatcher) -> None:
    answer = await call(rpc, "steering_set", {"text": "First:\n\tkeep notes short.\r\nThen: check them."})
    assert answer["result"]["text"] == "First:\n\tkeep notes short.\r\nThen: check them."


async def test_after_concurrent_edits_the_directive_in_force_is_the_newest_version(
        rpc: Dispatcher, world: World) -> None:
    for round_ in range(5):
        answers = await asyncio.gather(*(call(rpc, "steering_set", {"text": f"Edit {round_}-{i} of the rules."})
                                         for i in range(12)))
        newest = max(a["result"]["version"] for a in answers)
        current = (await call(rpc, "steering_current", {}))["result"]
        assert current["version"] == newest, (current, newest)
        listed = await world.ledger.directives(limit=1)
        assert listed[0].version == newest and listed[0].text == current["text"]
        state = await world.ledger.timeline(0, 10_000)
        assert sum(e.event_signature.startswith("Steering changed") for e in state) == newest
