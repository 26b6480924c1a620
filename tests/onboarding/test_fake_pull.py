"""The fake Ollama's /api/pull speaks the real NDJSON stream: manifest, layers with total/completed, verify, success."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.fakes.model_servers import FakeOllama

MB = 1_000_000


async def pull_lines(server: FakeOllama, model: str) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    async with httpx.AsyncClient(timeout=10) as http, http.stream(
        "POST", f"{server.url}/api/pull", json={"model": model, "stream": True}
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/x-ndjson"
        async for line in response.aiter_lines():
            lines.append(json.loads(line))
    return lines


async def test_a_pull_streams_the_real_sequence_and_the_model_is_then_installed() -> None:
    with FakeOllama() as server:
        server.add_library_model("qwen2.5:0.5b", size_bytes=5 * MB)
        server.pull_chunk = MB
        lines = await pull_lines(server, "qwen2.5:0.5b")
        async with httpx.AsyncClient() as http:
            tags = (await http.get(f"{server.url}/api/tags")).json()["models"]
    statuses = [line["status"] for line in lines]
    assert statuses[0] == "pulling manifest"
    assert statuses[-3:] == ["verifying sha256 digest", "writing manifest", "success"]
    layers = [line for line in lines if "digest" in line]
    digests = {line["digest"] for line in layers}
    assert len(digests) == 3 and all(d.startswith("sha256:") for d in digests)
    assert all(line["status"] == f"pulling {line['digest'][7:19]}" for line in layers)
    assert sum({line["digest"]: line["total"] for line in layers}.values()) == 5 * MB
    big = [line for line in layers if line["total"] > MB]
    assert [line.get("completed", 0) for line in big] == [0, MB, 2 * MB, 3 * MB, 4 * MB, big[0]["total"]]
    assert [(m["name"], m["size"]) for m in tags] == [("qwen2.5:0.5b", 5 * MB)]


async def test_an_unknown_model_is_the_real_error_line() -> None:
    with FakeOllama() as server:
        lines = await pull_lines(server, "no-such-model")
    assert lines == [{"status": "pulling manifest"}, {"error": "pull model manifest: file does not exist"}]


async def test_a_failure_half_way_keeps_the_partial_bytes_and_the_next_pull_resumes() -> None:
    with FakeOllama() as server:
        server.add_library_model("llama3.2:3b", size_bytes=10 * MB)
        server.pull_chunk = MB
        server.fail_pull(after_bytes=4 * MB, error="write /root/.ollama/models/blobs/sha256-x-partial: "
                                                     "no space left on device")
        first = await pull_lines(server, "llama3.2:3b")
        assert first[-1] == {"error": "write /root/.ollama/models/blobs/sha256-x-partial: no space left on device"}
        assert server.partial_bytes("llama3.2:3b") == 4 * MB
        second = await pull_lines(server, "llama3.2:3b")
    big = [line for line in second if line.get("total", 0) > MB]
    assert big[0]["completed"] == 4 * MB          # the first line of the layer says what was already there
    assert second[-1] == {"status": "success"}


async def test_a_server_that_dies_mid_pull_drops_the_connection() -> None:
    with FakeOllama() as server:
        server.add_library_model("llama3.2:3b", size_bytes=10 * MB)
        server.pull_chunk = MB
        server.fail_pull(after_bytes=3 * MB, error=None)
        with pytest.raises(httpx.RemoteProtocolError):
            await pull_lines(server, "llama3.2:3b")
        assert server.partial_bytes("llama3.2:3b") == 3 * MB
