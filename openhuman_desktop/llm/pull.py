"""Downloading an Ollama model (``ollama pull``) with progress a person can read: bytes, speed, time left.

:func:`pull_model` drives ``ollama.AsyncClient.pull(model, stream=True)``. Ollama streams one JSON line per
step (``pulling manifest``; per layer ``pulling <digest>`` with ``total`` and ``completed`` bytes; ``verifying
sha256 digest``; ``writing manifest``; ``success``) or an ``{"error": ...}`` line. The layers are summed into
one :class:`PullProgress`, handed to a callback at most every ``min_interval`` seconds (status changes always).

Cancelling the task that awaits :func:`pull_model` closes the stream; Ollama keeps the bytes it has, and
pulling the same model again continues where it stopped (:attr:`PullProgress.resumed_bytes` says how much
was already there).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import sys
import time
from collections.abc import AsyncGenerator, Callable, Iterator
from dataclasses import dataclass, replace
from typing import cast

import httpx
import ollama

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.llm.base import short_server_message
from openhuman_desktop.llm.catalog import shared_tls_context

log = logging.getLogger(__name__)

MIN_INTERVAL = 0.1
"""Seconds between two progress updates of the same status (Ollama sends hundreds of lines a second)."""
SPEED_WINDOW = 0.25
"""Seconds of download a speed sample covers."""
SPEED_SMOOTHING = 3.0
"""Time constant (seconds) of the moving average of the speed: a stall shows, one slow sample does not."""
CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 120.0
"""Ollama may say nothing for a while (verifying a big blob); longer than that means it is gone."""


def format_bytes(count: float) -> str:
    """Bytes in decimal units, as Ollama shows them: ``485 B``, ``7.0 kB``, ``398 MB``, ``2.0 GB``."""
    if count < 1000:
        return f"{int(count)} B"
    for unit in ("kB", "MB", "GB", "TB"):
        count /= 1000
        if count < 1000 or unit == "TB":
            return f"{count:.1f} {unit}" if count < 10 else f"{count:.0f} {unit}"
    raise AssertionError("unreachable")


def format_duration(seconds: float) -> str:
    """``8 s``, ``4 min``, ``1 h 20 min``: a rough time left (to the minute once it is more than one)."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes = math.ceil(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min" if minutes % 60 else f"{minutes // 60} h"


@dataclass(frozen=True)
class PullProgress:
    """Where a pull stands; byte counts are summed over the model's layers seen so far.

    Attributes:
        model: the model being pulled.
        status: Ollama's last status (``pulling manifest``, ``pulling 8934d96d3f08``, ``success``, …).
        completed: bytes on the server's disk, including those an earlier pull left (resumed).
        total: bytes of every layer announced so far (it grows while new layers begin).
        speed: bytes per second, smoothed; None until measured.
        seconds_left: at that speed; None when unknown.
        resumed_bytes: bytes that were already there when this pull began (0 for a fresh one).
        layers: how many layers (blobs) Ollama announced.
        is_done: Ollama said ``success``.
    """

    model: str
    status: str = "starting"
    completed: int = 0
    total: int = 0
    speed: float | None = None
    seconds_left: float | None = None
    resumed_bytes: int = 0
    layers: int = 0
    is_done: bool = False

    @property
    def fraction(self) -> float | None:
        """Done share 0..1, or None while the size is not known yet."""
        if self.is_done:
            return 1.0
        return min(1.0, self.completed / self.total) if self.total else None

    def describe(self) -> str:
        """One line for the progress label: ``1.2 GB of 2.0 GB · 35 MB/s · about 25 s left``."""
        if self.is_done:
            return f"Downloaded {format_bytes(self.total)}" if self.total else "Downloaded"
        if not self.total:
            return "Asking Ollama for the model…" if self.status in ("starting", "pulling manifest") else (
                self.status.capitalize() + "…")
        parts = [f"{format_bytes(self.completed)} of {format_bytes(self.total)}"]
        if self.completed >= self.total and not self.status.startswith("pulling"):
            parts = [f"{format_bytes(self.total)} downloaded", self.status.capitalize() + "…"]
        elif self.speed:
            parts.append(f"{format_bytes(self.speed)}/s")
            if self.seconds_left is not None:
                parts.append(f"about {format_duration(self.seconds_left)} left")
        return " · ".join(parts)

    def describe_resume(self) -> str:
        """What a resumed pull found, or "" for a fresh one."""
        if not self.resumed_bytes:
            return ""
        return f"Resumed: {format_bytes(self.resumed_bytes)} were already downloaded."


class PullFailed(UserFacingError):
    """The pull stopped; ``str()`` says why and what to do.

    Attributes:
        progress: how far it got (None when it never began).
        can_resume: bytes are on the server's disk, so pulling again continues from there.
    """

    def __init__(self, message: str, progress: PullProgress | None) -> None:
        super().__init__(message)
        self.progress = progress
        self.can_resume = progress is not None and progress.completed > 0


ProgressCallback = Callable[[PullProgress], None]


RESUMED_SHARE = 0.02
"""A layer whose first line already has this share of its bytes was begun by an earlier pull (a fresh download
reports its first bytes after a few dozen milliseconds: far less of a model than that)."""


def _was_there(done: int, total: int) -> bool:
    return done > 0 and (done >= total or done >= max(total * RESUMED_SHARE, 1_000_000))


class PullTracker:
    """Folds Ollama's lines into :class:`PullProgress` values: per-layer bytes summed, speed smoothed."""

    def __init__(self, model: str, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._layers: dict[str, tuple[int, int]] = {}   # digest → (completed, total)
        self._sample: tuple[float, int] | None = None   # (time, completed) the speed is measured from
        self.progress = PullProgress(model)

    def feed(self, status: str, digest: str | None, completed: int | None, total: int | None) -> PullProgress:
        progress = replace(self.progress, status=status)
        if digest and total:
            is_new = digest not in self._layers
            done = min(completed or 0, total)
            if is_new and _was_there(done, total):  # an earlier pull left these bytes
                progress = replace(progress, resumed_bytes=progress.resumed_bytes + done)
            previous = self._layers.get(digest, (0, total))[0]
            self._layers[digest] = (max(previous, done), total)
            progress = replace(progress, completed=sum(c for c, _ in self._layers.values()),
                               total=sum(t for _, t in self._layers.values()), layers=len(self._layers))
            progress = self._measure(progress)
        if status == "success":
            progress = replace(progress, is_done=True, completed=progress.total, seconds_left=0.0)
        self.progress = progress
        return progress

    def _measure(self, progress: PullProgress) -> PullProgress:
        now = self._clock()
        if self._sample is None:
            self._sample = (now, progress.completed)  # resumed bytes are not downloaded by this pull
            return progress
        then, before = self._sample
        elapsed = now - then
        if elapsed < SPEED_WINDOW:
            return progress
        self._sample = (now, progress.completed)
        rate = max(0, progress.completed - before) / elapsed
        speed = progress.speed
        if speed is None:
            speed = rate
        else:
            weight = 1 - math.exp(-elapsed / SPEED_SMOOTHING)
            speed += weight * (rate - speed)
        left = (progress.total - progress.completed) / speed if speed > 0 else None
        return replace(progress, speed=speed, seconds_left=left)


async def pull_model(
    host: str,
    model: str,
    on_progress: ProgressCallback,
    *,
    clock: Callable[[], float] = time.monotonic,
    min_interval: float = MIN_INTERVAL,
) -> PullProgress:
    """Download ``model`` into the Ollama at ``host``; returns the final progress (``is_done``).

    Raises:
        PullFailed: unknown model, disk full, Ollama not running or gone mid-way, any other refusal (one
            sentence; ``can_resume`` when bytes were kept).
        asyncio.CancelledError: the caller cancelled; the stream is closed and Ollama keeps what it has.
    """
    tracker = PullTracker(model, clock)
    last_sent: tuple[str, float] | None = None

    def report(progress: PullProgress) -> None:
        nonlocal last_sent
        now = clock()
        if last_sent is not None and last_sent[0] == progress.status and now - last_sent[1] < min_interval:
            return
        last_sent = (progress.status, now)
        on_progress(progress)

    client = ollama.AsyncClient(host=host, timeout=httpx.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT),
                                verify=await shared_tls_context())
    report(tracker.progress)
    with _async_generators_closed_on_the_loop():
        try:
            failure = await _follow(client, host, model, tracker, report)
        finally:
            with contextlib.suppress(Exception):  # closing a client whose connection broke must not hide why
                await client.close()  # type: ignore[no-untyped-call]  # ollama leaves close() unannotated
    if failure is not None:
        # Raised here, not where the library's error was caught: its traceback (holding the half-read
        # response's async generators) is freed now, on the loop, not whenever a log record lets go of it.
        raise failure
    final = tracker.progress
    if not final.is_done:
        raise _gone(host, model, final)
    on_progress(final)
    log.info("pulled %s from %s (%d bytes, %d resumed)", model, host, final.total, final.resumed_bytes)
    return final


async def _follow(client: ollama.AsyncClient, host: str, model: str, tracker: PullTracker,
                  report: ProgressCallback) -> PullFailed | None:
    """Read the pull stream into ``tracker``; returns what went wrong (None: the stream ended)."""
    try:
        # ollama types it as an iterator; it is an async generator, closed here so the response is closed
        stream = cast(AsyncGenerator[ollama.ProgressResponse, None], await client.pull(model, stream=True))
        async with contextlib.aclosing(stream):
            async for part in stream:
                report(tracker.feed(part.status or "", part.digest, part.completed, part.total))
    except ollama.ResponseError as exc:
        return _refusal(host, model, exc, tracker.progress)
    except (httpx.ConnectError, httpx.ConnectTimeout, ConnectionRefusedError):
        return PullFailed(f"Ollama does not answer at {host}; start it (`ollama serve`) and press Retry.", None)
    except (httpx.HTTPError, ConnectionError) as exc:
        log.info("pull of %s from %s broke off: %s", model, host, type(exc).__name__)
        return _gone(host, model, tracker.progress)
    return None


@contextlib.contextmanager
def _async_generators_closed_on_the_loop() -> Iterator[None]:
    """Have the running loop finalize the async generators started inside (as ``asyncio.run`` arranges).

    WORKAROUND (qasync 0.28 installs no ``sys.set_asyncgen_hooks``): when Ollama sends an error line, the
    ollama client raises while httpx's and httpcore's response iterators are suspended; without the loop's
    hooks the garbage collector closes them with no loop ("async generator ignored GeneratorExit", "no
    running event loop"). With the hooks, the loop closes them in a task, as on a plain asyncio loop.
    """
    hooks = sys.get_asyncgen_hooks()
    loop = asyncio.get_running_loop()
    firstiter = getattr(loop, "_asyncgen_firstiter_hook", None)
    finalizer = getattr(loop, "_asyncgen_finalizer_hook", None)
    if hooks.finalizer is not None or firstiter is None or finalizer is None:
        yield
        return
    sys.set_asyncgen_hooks(firstiter=firstiter, finalizer=finalizer)
    try:
        yield
    finally:
        sys.set_asyncgen_hooks(*hooks)


def _again(progress: PullProgress) -> str:
    if progress.completed > 0:
        return "press Resume: the download continues where it stopped"
    return "press Retry"


def _gone(host: str, model: str, progress: PullProgress) -> PullFailed:
    return PullFailed(f"Ollama at {host} stopped answering during the download of {model}; start it again, "
                      f"then {_again(progress)}.", progress)


def _refusal(host: str, model: str, exc: ollama.ResponseError, progress: PullProgress) -> PullFailed:
    text = str(exc.error)
    lowered = text.lower()
    if "file does not exist" in lowered or "manifest unknown" in lowered or exc.status_code == 404:
        return PullFailed(f"Ollama has no model called “{model}”; check the spelling (ollama.com/library lists "
                          "the names) or pick another model.", None)
    if "no space left" in lowered or "disk full" in lowered:
        return PullFailed("The disk where Ollama keeps its models is full; free some space, then "
                          f"{_again(progress)}.", progress)
    return PullFailed(f"Ollama could not download {model}: {short_server_message(text)[:-1]}; "
                      f"{_again(progress)}.", progress)
