"""llm/pull: a model download through ollama's ``pull(stream=True)`` as progress, cancel, resume and sentences."""

from __future__ import annotations

import asyncio

import pytest

from openhuman_desktop.llm.catalog import list_models
from openhuman_desktop.llm.pull import PullFailed, PullProgress, format_bytes, pull_model
from tests.fakes.model_servers import FakeOllama

MB = 1_000_000


class Ticks:
    """A monotonic clock that moves 0.1 s each time it is read (progress throttling and speed without sleeping)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.1
        return self.now


async def test_progress_sums_the_layers_and_ends_done_with_the_model_installed() -> None:
    seen: list[PullProgress] = []
    with FakeOllama() as server:
        server.add_library_model("qwen2.5:0.5b", size_bytes=8 * MB)
        server.pull_chunk = MB
        final = await pull_model(server.url, "qwen2.5:0.5b", seen.append, clock=Ticks(), min_interval=0)
        installed = await list_models("ollama", server.url)
    assert final.is_done and final.completed == final.total == 8 * MB and final.layers == 3
    assert final.resumed_bytes == 0
    downloading = [p for p in seen if p.status.startswith("pulling ") and p.total]
    completed = [p.completed for p in downloading]
    assert completed == sorted(completed) and completed[-1] == 8 * MB
    assert all(0 <= (p.fraction or 0) <= 1 for p in seen)
    middle = next(p for p in downloading if p.completed == 4 * MB)
    assert middle.speed is not None and middle.speed > 0 and middle.seconds_left is not None
    assert "4.0 MB of" in middle.describe() and "left" in middle.describe()
    assert [p.status for p in seen[:2]] == ["starting", "pulling manifest"] and seen[-1].is_done
    assert [(m.name, m.size_bytes) for m in installed] == [("qwen2.5:0.5b", 8 * MB)]


async def test_updates_are_throttled_but_status_changes_always_come_through() -> None:
    seen: list[PullProgress] = []
    with FakeOllama() as server:
        server.add_library_model("qwen2.5:0.5b", size_bytes=50 * MB)
        server.pull_chunk = MB // 10          # 500 lines
        await pull_model(server.url, "qwen2.5:0.5b", seen.append, clock=Ticks(), min_interval=5.0)
    statuses = [p.status for p in seen]
    assert len(seen) < 50                        # one per 5 s of the (fake) clock, not one per line (500)
    for status in ("pulling manifest", "verifying sha256 digest", "writing manifest", "success"):
        assert status in statuses


async def test_a_failure_half_way_is_a_sentence_and_pulling_again_resumes() -> None:
    with FakeOllama() as server:
        server.add_library_model("llama3.2:3b", size_bytes=10 * MB)
        server.pull_chunk = MB
        server.fail_pull(after_bytes=6 * MB, error="write /root/.ollama/models/blobs/sha256-ab-partial: "
                                                     "no space left on device")
        with pytest.raises(PullFailed, match="disk .* is full") as failed:
            await pull_model(server.url, "llama3.2:3b", lambda _p: None, clock=Ticks())
        assert failed.value.can_resume and failed.value.progress is not None
        assert failed.value.progress.completed == 6 * MB
        assert "Resume" in str(failed.value)
        final = await pull_model(server.url, "llama3.2:3b", lambda _p: None, clock=Ticks())
    assert final.is_done and final.resumed_bytes == 6 * MB
    assert "6.0 MB" in final.describe_resume()


async def test_unknown_model_and_server_gone_and_server_down_are_sentences(unused_tcp_port: int) -> None:
    with FakeOllama() as server:
        with pytest.raises(PullFailed, match="no model called “no-such-model”") as unknown:
            await pull_model(server.url, "no-such-model", lambda _p: None)
        assert not unknown.value.can_resume
        server.add_library_model("llama3.2:3b", size_bytes=10 * MB)
        server.pull_chunk = MB
        server.fail_pull(after_bytes=2 * MB, error=None)
        with pytest.raises(PullFailed, match="stopped answering during the download") as gone:
            await pull_model(server.url, "llama3.2:3b", lambda _p: None)
        assert gone.value.can_resume
    with pytest.raises(PullFailed, match=f"does not answer at http://127.0.0.1:{unused_tcp_port}"):
        await pull_model(f"http://127.0.0.1:{unused_tcp_port}", "llama3.2:3b", lambda _p: None)


async def test_cancel_closes_the_stream_and_the_partial_download_stays_for_a_resume() -> None:
    seen: list[PullProgress] = []
    with FakeOllama() as server:
        server.add_library_model("llama3.2:3b", size_bytes=100 * MB)
        server.pull_chunk = MB
        server.pull_rate = 20 * MB                # 5 s for the whole model: cancelled long before
        task = asyncio.ensure_future(pull_model(server.url, "llama3.2:3b", seen.append, min_interval=0))
        while not any(p.completed >= 3 * MB for p in seen):
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        while server.pulls_in_flight:             # the server notices the closed connection
            await asyncio.sleep(0.01)
        kept = server.partial_bytes("llama3.2:3b")
        assert 3 * MB <= kept < 100 * MB
        server.pull_rate = None
        final = await pull_model(server.url, "llama3.2:3b", lambda _p: None)
    assert final.is_done and final.resumed_bytes >= 3 * MB


def test_bytes_read_like_ollama_says_them() -> None:
    assert [format_bytes(n) for n in (0, 485, 7_020, 398 * MB, 2_019_393_189)] == [
        "0 B", "485 B", "7.0 kB", "398 MB", "2.0 GB"]


def test_a_fresh_layer_whose_first_line_has_a_few_bytes_is_not_taken_for_a_resume() -> None:
    from openhuman_desktop.llm.pull import PullTracker

    tracker = PullTracker("llama3.2:3b", Ticks())
    fresh = tracker.feed("pulling 8934d96d3f08", "sha256:8934d96d3f08aa", 6 * MB, 2_000 * MB)   # 60 ms in
    assert fresh.resumed_bytes == 0 and fresh.completed == 6 * MB
    kept = tracker.feed("pulling 42ba7f8a01dd", "sha256:42ba7f8a01ddbb", 7_020, 7_020)          # already there
    assert kept.resumed_bytes == 7_020 and kept.total == 2_000 * MB + 7_020 and kept.layers == 2
