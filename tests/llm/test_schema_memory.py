"""The JSON-schema form a server accepts is remembered across starts (issue 24: llama.cpp answered every start's
first ``json_schema`` request with HTTP 500), and logprobs are asked for only where the server takes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from openhuman_desktop.llm import OpenAICompatClient
from openhuman_desktop.llm.base import ChatRequest, Message
from openhuman_desktop.llm.schema_memory import SchemaMemory

SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}}}


def server(seen: list[dict[str, Any]], *, refuse_logprobs: bool = False,
           refuse_penalty: bool = False) -> httpx.AsyncClient:
    """llama.cpp's manners: ``json_schema`` → HTTP 500; ``json_object`` with a schema works."""

    def handle(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        if body.get("response_format", {}).get("type") == "json_schema":
            return httpx.Response(500, json={"error": {"message": "response_format json_schema not supported"}})
        if refuse_logprobs and "logprobs" in body:
            return httpx.Response(400, json={"error": {"message": "unknown field: logprobs"}})
        if refuse_penalty and "repeat_penalty" in body:  # OpenAI's own API takes no llama.cpp fields
            return httpx.Response(400, json={"error": {"message": "Unrecognized request argument supplied: "
                                                                   "repeat_penalty"}})
        return httpx.Response(200, json={"choices": [{"message": {"content": '{"a": "b"}'}}]})

    return httpx.AsyncClient(transport=httpx.MockTransport(handle))


def request(logprobs: int = 0) -> ChatRequest:
    return ChatRequest([Message("user", "hi")], json_schema=SCHEMA, max_tokens=10, logprobs=logprobs)


async def test_the_accepted_form_is_remembered_across_clients_and_starts(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    memory_file = tmp_path / "model_servers.json"
    first = OpenAICompatClient("m", "http://llama.test/v1", api_key_env=None, http=server(seen),
                               schema_memory=SchemaMemory(memory_file))
    await first.chat(request())
    assert [body["response_format"]["type"] for body in seen] == ["json_schema", "json_object"]
    seen.clear()
    again = OpenAICompatClient("m", "http://llama.test/v1", api_key_env=None, http=server(seen),
                               schema_memory=SchemaMemory(memory_file))  # a new start reads the file
    await again.chat(request())
    assert [body["response_format"]["type"] for body in seen] == ["json_object"], "no refused request this time"
    other = OpenAICompatClient("m", "http://other.test/v1", api_key_env=None, http=server(seen := []),
                               schema_memory=SchemaMemory(memory_file))
    await other.chat(request())
    assert seen[0]["response_format"]["type"] == "json_schema", "per server"


async def test_logprobs_are_asked_for_and_dropped_once_a_server_refuses_them() -> None:
    seen: list[dict[str, Any]] = []
    client = OpenAICompatClient("m", "http://strict.test/v1", api_key_env=None,
                                http=server(seen, refuse_logprobs=True), schema_memory=SchemaMemory(None))
    answer = await client.chat(request(logprobs=3))
    assert answer.content == '{"a": "b"}'
    assert seen[-2]["logprobs"] is True and seen[-2]["top_logprobs"] == 3
    assert "logprobs" not in seen[-1]
    seen.clear()
    await client.chat(request(logprobs=3))
    assert len(seen) == 1 and "logprobs" not in seen[0], "remembered: not asked again"


async def test_the_repeat_penalty_is_turned_off_where_a_server_takes_it_and_dropped_where_refused() -> None:
    off = ChatRequest([Message("user", "hi")], json_schema=SCHEMA, max_tokens=10, repeat_penalty=1.0)
    to_llama: list[dict[str, Any]] = []
    llama = OpenAICompatClient("m", "http://llama.test/v1", api_key_env=None, http=server(to_llama),
                               schema_memory=SchemaMemory(None))
    await llama.chat(off)
    assert to_llama and all(body["repeat_penalty"] == 1.0 for body in to_llama)
    await llama.chat(request())
    assert "repeat_penalty" not in to_llama[-1], "other requests keep the server's default"
    to_openai: list[dict[str, Any]] = []
    strict = OpenAICompatClient("m", "http://strict.test/v1", api_key_env=None,
                                http=server(to_openai, refuse_penalty=True), schema_memory=SchemaMemory(None))
    assert (await strict.chat(off)).content == '{"a": "b"}'
    assert "repeat_penalty" in to_openai[0] and "repeat_penalty" not in to_openai[-1]
    to_openai.clear()
    await strict.chat(off)
    assert to_openai and all("repeat_penalty" not in body for body in to_openai), "remembered: not sent again"
