"""Reflection, the "subconscious LLM" (CONTRACT §10): on ``[reflection] schedule`` or when triggered, the
``[models.subconscious]`` tier reads what entered the compressed-history log and the world timeline since the
last reflection and writes a short steering directive for the reasoning model.

Structural isolation: a :class:`Reflector` is given only a :class:`ReflectionPort` — the history log, the
timeline, its own records and the directive in force. Nothing it holds can reach thread messages,
checkpoints, a run's input or a channel's payload (an import-linter contract keeps ledger, stores, channels
and RPC out of this module).

Nothing new since the last reflection means no model call at all (a ``skipped`` record). A model that is down
or answers garbage gives a ``failed`` record whose reason is one sentence; the watermark stays, so the next
reflection reads it all again.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from openhuman_desktop import events, recurrence
from openhuman_desktop.clock import Clock
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import (
    ContextOverflow,
    InvalidInput,
    LlmReplyError,
    LlmUnavailable,
    UserFacingError,
)
from openhuman_desktop.llm.base import ChatRequest, ChatResponse, LlmClient, Message
from openhuman_desktop.llm.pool import TierHealth
from openhuman_desktop.orchestration.events import ReflectionFinished, ReflectionStarted
from openhuman_desktop.orchestration.ports import EvictionSink, TimelineEntry
from openhuman_desktop.orchestration.steering import (
    DIRECTIVE,
    FAILED,
    REFLECTION,
    SKIPPED,
    UNCHANGED,
    Directive,
    DirectiveDraft,
    HistoryRecord,
    Inputs,
    Reflection,
    clean_directive_text,
)
from openhuman_desktop.subconscious import reflection_prompt
from openhuman_desktop.subconscious.reflection_prompt import AnswerError, Prompt, TokenCount
from openhuman_desktop.supervisor import TaskSupervisor

log = logging.getLogger(__name__)

TIER = "subconscious"
QUICK = "local"
"""The tier that map-reduce summarises old inputs when the context hook fires (as for the agent's hook)."""
SCHEDULE = "schedule"
MANUAL = "manual"
PAGE = 1_000
MAX_HISTORY = 5_000
MAX_TIMELINE = 50_000
"""The most entries one reflection reads; beyond them the watermark moves to what was read and another
reflection follows at once for the rest."""
WAKE_CHECK_SECONDS = 30.0
"""How long the schedule loop sleeps before looking at the clock again (a suspended laptop is noticed)."""
IDLE_CHECK_SECONDS = 300.0
GUARD_SECONDS = 5.0
MIN_WORDS = 2
"""A directive has at least this many words: a tiny model's ``"1.2"`` (seen with SmolLM2-135M) steers nothing."""
THREAD = "subconscious:reflection"
"""The thread name evicted digests are stored under in long-term memory."""
NOT_CONFIGURED = ("The subconscious model is not configured; add a [models.subconscious] table to config.toml "
                  "(the same keys as [models.reasoning]) to let OpenHuman reflect.")

T = TypeVar("T")


class ReflectionPort(Protocol):
    """All reflection may touch: the two stores it reads, its own records and the steering directive."""

    async def news(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """``((history_after, timeline_after), (new_history, new_timeline))``: the watermark and what came after."""
        ...

    async def history(self, after: int, limit: int) -> list[HistoryRecord]:
        """Compressed-history log entries after ``after``, oldest first."""
        ...

    async def timeline(self, after: int, limit: int) -> list[TimelineEntry]:
        """World-timeline entries after ``after``, oldest first."""
        ...

    async def current_directive(self) -> Directive | None:
        ...

    async def write_directive(self, draft: DirectiveDraft) -> Directive:
        ...

    async def record(self, reflection: Reflection) -> Reflection:
        ...

    async def reflections(self, limit: int) -> list[Reflection]:
        ...


class ModelSource(Protocol):
    """The part of ``llm.pool.ModelClients`` reflection uses."""

    health: dict[str, TierHealth]

    def reporting(self, tier: str) -> LlmClient | None:
        ...

    def context_window(self, tier: str) -> int:
        ...

    def is_configured(self, tier: str) -> bool:
        ...

    def problem(self, tier: str) -> str | None:
        ...

    def describe(self, tier: str) -> str:
        ...

    async def check(self, tier: str) -> TierHealth:
        ...


class ReflectionFailed(Exception):
    """One reflection cannot go on: ``str()`` is the one sentence its record keeps."""


@dataclass(frozen=True)
class ReflectionStatus:
    """``reflection_status``: whether and when reflection runs, how the last one went, and the model's problem."""

    enabled: bool
    schedule: str
    state: str
    next_at: float | None
    model: str
    problem: str | None
    last: Reflection | None
    pending_history: int
    pending_timeline: int

    def to_json(self) -> dict[str, Any]:
        return {"enabled": self.enabled, "schedule": self.schedule, "state": self.state, "next_at": self.next_at,
                "model": self.model, "problem": self.problem,
                "last": self.last.to_json() if self.last is not None else None,
                "pending": {"history_entries": self.pending_history, "timeline_entries": self.pending_timeline}}


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


class Reflector:
    """Reflects on the schedule (:meth:`run`) and on demand (:meth:`trigger`), one reflection at a time.

    Args:
        port: the only stores reflection sees (see the module docstring).
        models: the model tiers (``[models.subconscious]`` answers, ``[models.local]`` summarises old inputs).
        tokens: the product's token counter.
        settings: the live settings (``[reflection]``, ``[agent] context_threshold``).
        clock: time (a fake in tests).
        bus: where ``ReflectionStarted`` / ``ReflectionFinished`` are published.
        supervisor: owns the background reflections.
        evictions: long-term memory for what the context hook condensed (tagged ``evicted``).
        summarise_with_model: False condenses old inputs without a model (extractive; the benchmark's case).
    """

    def __init__(self, port: ReflectionPort, models: ModelSource, tokens: TokenCount, settings: Callable[[], Settings],
                 clock: Clock, bus: events.EventBus, supervisor: TaskSupervisor, evictions: EvictionSink | None = None,
                 *, summarise_with_model: bool = True) -> None:
        self._port = port
        self._models = models
        self._tokens = tokens
        self._settings = settings
        self._clock = clock
        self._bus = bus
        self._supervisor = supervisor
        self._evictions = evictions
        self._summarise_with_model = summarise_with_model
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._again: str | None = None
        self._wake = asyncio.Event()
        self.next_at: float | None = None
        self._last_started: float | None = None
        """When the last reflection began (this process's, or the ledger's at :meth:`prepare`)."""
        self.model_calls = 0
        """Chat requests made (reflection and summaries): the idle budget is 0."""

    # --- on demand -------------------------------------------------------------------------------------

    @property
    def is_reflecting(self) -> bool:
        return self._task is not None and not self._task.done()

    def trigger(self, trigger: str = MANUAL) -> bool:
        """Reflect in the background; returns at once. While one runs, triggers are coalesced into one more
        reflection after it (which is skipped, with no model call, when nothing new came meanwhile).

        Returns:
            True when a reflection started now, False when it was coalesced.
        """
        if self.is_reflecting:
            self._again = self._again or trigger
            return False
        try:
            self._task = self._supervisor.spawn(self._drain(trigger), name="reflection")
        except RuntimeError:  # shutting down: nothing starts any more
            return False
        return True

    async def wait_idle(self) -> None:
        """Until no reflection runs or is queued (tests, shutdown)."""
        while self._task is not None and not self._task.done():
            await asyncio.wait({self._task})

    async def _drain(self, trigger: str | None) -> None:
        while trigger is not None:
            self._again = None
            try:
                await self.reflect(trigger)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reflection failed")
            trigger, self._again = self._again, None

    # --- the schedule ----------------------------------------------------------------------------------

    def poke(self) -> None:
        """Look at the settings again (config.toml changed)."""
        self._wake.set()

    async def _wait(self, seconds: float) -> None:
        if self._wake.is_set():
            self._wake.clear()
            return
        sleeper = asyncio.ensure_future(self._clock.sleep(max(0.0, seconds)))
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for future in (sleeper, waker):
                future.cancel()
        self._wake.clear()

    async def run(self) -> None:
        """The schedule loop (runs until cancelled): reflect at each time ``[reflection] schedule`` names, in
        local time, while ``enabled``; config edits apply at once (:meth:`poke`). A time that passed while the
        app was closed (one after the last recorded reflection) is made up at once, like anacron; with no
        reflection recorded yet, the first time is the first one after the loop starts."""
        now = self._clock.now()
        anchor = now if self._last_started is None else min(self._last_started, now)
        known: tuple[bool, str] | None = None
        while True:
            settings = self._settings().reflection
            if (settings.enabled, settings.schedule) != known:
                if known is not None:  # a config edit: the new schedule counts from now
                    anchor = self._clock.now()
                known = (settings.enabled, settings.schedule)
            due = recurrence.next_run(recurrence.parse(settings.schedule), anchor) if settings.enabled else None
            self.next_at = due
            if due is None:
                await self._wait(IDLE_CHECK_SECONDS)
                continue
            now = self._clock.now()
            if now < due:
                await self._wait(min(due - now, WAKE_CHECK_SECONDS))
                continue
            anchor = now
            if not self._models.is_configured(TIER):
                log.info("reflection: due, but [models.subconscious] is not configured")
                continue
            self.trigger(SCHEDULE)
            await self.wait_idle()

    async def prepare(self) -> None:
        """Read when the last reflection began (before :meth:`run`, at start-up), so a time missed while the
        app was closed is made up."""
        try:
            last = await self._port.reflections(1)
        except UserFacingError as exc:  # the ledger cannot be read now: the schedule counts from now
            log.warning("reflection: the last reflection could not be read (%s)", exc)
            return
        if last and self._last_started is None:
            self._last_started = last[0].started_at

    # --- one reflection --------------------------------------------------------------------------------

    async def reflect(self, trigger: str = MANUAL) -> Reflection:
        """Reflect once now (waiting for one already running) and return its record."""
        async with self._lock:
            started = self._last_started = self._clock.now()
            self._bus.publish(ReflectionStarted(trigger))
            try:
                result = await self._reflect(trigger, started)
            except asyncio.CancelledError:
                raise
            except UserFacingError as exc:  # a store that failed: one sentence, recorded where possible
                log.warning("reflection failed: %s", exc)
                result = await self._record(started, trigger, FAILED, str(exc), 0, 0)
            except Exception:  # a bug: recorded, never lost silently
                log.exception("reflection failed")
                reason = "Reflection failed unexpectedly (details in the log)."
                result = await self._record(started, trigger, FAILED, reason, 0, 0)
            self._bus.publish(ReflectionFinished(result))
            return result

    async def _record(self, started: float, trigger: str, status: str, reason: str, history_to: int,
                      timeline_to: int, **extra: Any) -> Reflection:
        draft = Reflection(0, started, self._clock.now(), trigger, status, reason, history_to, timeline_to, **extra)
        try:
            recorded = await self._port.record(draft)
        except Exception:
            log.exception("reflection: could not record the outcome %s", status)
            return draft
        log.info("reflection %d (%s): %s — %s", recorded.id, trigger, status, reason)
        return recorded

    async def _reflect(self, trigger: str, started: float) -> Reflection:
        (history_after, timeline_after), (new_history, new_timeline) = await self._port.news()
        if not new_history and not new_timeline:
            return await self._record(started, trigger, SKIPPED, "Nothing new since the last reflection.",
                                      history_after, timeline_after)
        if not self._models.is_configured(TIER):
            return await self._record(started, trigger, FAILED, NOT_CONFIGURED, history_after, timeline_after)
        history = await _read(self._port.history, history_after, MAX_HISTORY, lambda r: r.seq)
        timeline = await _read(self._port.timeline, timeline_after, MAX_TIMELINE, lambda e: e.sequence)
        history_to = history[-1].seq if history else history_after
        timeline_to = timeline[-1].sequence if timeline else timeline_after
        model = self._model_name()
        prompt: Prompt | None = None
        try:
            prompt = await self._prompt(history, timeline)
            response = await self._ask(prompt)
            text, rationale = reflection_prompt.parse_answer(response.content)
        except ReflectionFailed as exc:
            return await self._record(started, trigger, FAILED, str(exc), history_to, timeline_to, model=model,
                                      prompt_tokens=prompt.tokens if prompt is not None else 0)
        except AnswerError as exc:
            assert prompt is not None
            return await self._record(started, trigger, FAILED, f"The subconscious model's answer was not the "
                                      f"directive asked for ({exc}); the next reflection reads these entries again.",
                                      history_to, timeline_to, model=model, prompt_tokens=prompt.tokens)
        current = await self._port.current_directive()
        counts = {"model": model, "prompt_tokens": prompt.tokens, "evicted": prompt.evicted}
        if not text.strip() or (current is not None and _same(text, current.text)):
            reason = "The directive in force still fits." if text.strip() else "The model proposed no directive."
            if rationale:
                reason = f"{reason} {rationale}"

            async def keep() -> Reflection:
                await self._store_evicted(prompt, history_to, timeline_to)
                return await self._record(started, trigger, UNCHANGED, reason[:1000], history_to, timeline_to,
                                          directive_version=current.version if current else None, **counts)

            return await _to_the_end(keep())
        try:
            clean = clean_directive_text(text)
            if len(re.findall(r"[^\W\d_]{2,}", clean)) < MIN_WORDS:
                raise InvalidInput("directive", f"fewer than {MIN_WORDS} words is no guidance")
        except InvalidInput as exc:
            return await self._record(started, trigger, FAILED, f"The subconscious model proposed an unusable "
                                      f"directive ({exc.problem}); the one in force stays.", history_to,
                                      timeline_to, **counts)
        inputs = Inputs(len(history), timeline[0].sequence if timeline else None, timeline_to if timeline else None,
                        history[0].seq if history else None, history_to if history else None)

        async def write() -> Reflection:
            await self._store_evicted(prompt, history_to, timeline_to)
            directive = await self._port.write_directive(DirectiveDraft(clean, REFLECTION, rationale, model, inputs))
            if new_history > len(history) or new_timeline > len(timeline):
                self._again = self._again or trigger  # more than one reflection reads: the rest right after
            return await self._record(started, trigger, DIRECTIVE, f"Directive v{directive.version} written.",
                                      history_to, timeline_to, directive_version=directive.version, **counts)

        return await _to_the_end(write())

    def _model_name(self) -> str | None:
        settings = self._settings().model(TIER)
        return settings.model if settings is not None else None

    async def _window(self) -> int:
        """The subconscious window: config.toml's, else the server's (asked once: no model call)."""
        settings = self._settings().model(TIER)
        known = self._models.health.get(TIER)
        if (settings is None or not settings.context_window) and (known is None or not known.ok):
            health = await self._models.check(TIER)
            if not health.ok:
                raise ReflectionFailed(_sentence(f"The subconscious model is not available: {health.message}"))
        return self._models.context_window(TIER)

    async def _prompt(self, history: Sequence[HistoryRecord], timeline: Sequence[TimelineEntry]) -> Prompt:
        window = await self._window()
        current = await self._port.current_directive()
        summarise = self._summarise if self._summarise_with_model and self._models.is_configured(QUICK) else None
        return await reflection_prompt.build(
            history, timeline, current, tokens=self._tokens, window=window,
            threshold=self._settings().agent.context_threshold, summarise=summarise,
            summary_window=self._models.context_window(QUICK) if summarise else None)

    def _timeout(self) -> float:
        return float(self._settings().agent.model_timeout_seconds)

    async def _ask(self, prompt: Prompt) -> ChatResponse:
        client = self._models.reporting(TIER)
        if client is None:
            raise ReflectionFailed(NOT_CONFIGURED)
        timeout = self._timeout()
        request = ChatRequest([Message("system", prompt.system), Message("user", prompt.user)],
                              json_schema=reflection_prompt.SCHEMA, schema_name="steering_directive",
                              temperature=0.2, timeout=timeout, max_tokens=reflection_prompt.ANSWER_TOKENS)
        self.model_calls += 1
        try:
            async with asyncio.timeout(timeout + GUARD_SECONDS):
                return await client.chat(request)
        except TimeoutError as exc:
            raise ReflectionFailed(f"The subconscious model did not answer within {timeout:.0f} seconds; the next "
                                   "reflection reads these entries again.") from exc
        except ContextOverflow as exc:
            raise ReflectionFailed(_sentence(f"The subconscious model refused the prompt as too long ({exc}); set "
                                             "context_window in [models.subconscious]")) from exc
        except LlmUnavailable as exc:
            raise ReflectionFailed(_sentence(f"The subconscious model failed: {exc}")) from exc
        except LlmReplyError as exc:
            raise ReflectionFailed(_sentence(f"The subconscious model gave an answer that could not be read "
                                             f"({exc})")) from exc

    async def _summarise(self, key: str, system: str, text: str, max_tokens: int) -> str:
        """One map or reduce summary from the quick tier; "" when it fails (the hook keeps an extractive one)."""
        client = self._models.reporting(QUICK)
        if client is None:
            return ""
        timeout = self._timeout()
        self.model_calls += 1
        try:
            async with asyncio.timeout(timeout + GUARD_SECONDS):
                response = await client.chat(ChatRequest([Message("system", system), Message("user", text)],
                                                         timeout=timeout, max_tokens=max_tokens))
        except (TimeoutError, LlmUnavailable, LlmReplyError) as exc:
            log.warning("reflection: the quick model could not summarise old entries (%s); extractive instead", exc)
            return ""
        return response.content

    async def _store_evicted(self, prompt: Prompt, history_to: int, timeline_to: int) -> None:
        if not prompt.digest or self._evictions is None:
            return
        try:
            await self._evictions.store_evicted(f"Reflection digest of older activity:\n{prompt.digest}",
                                                thread_id=THREAD, run_id=f"reflection:h{history_to}:t{timeline_to}")
        except Exception:  # memory is a convenience here: the reflection goes on without it
            log.exception("reflection: storing the evicted digest in long-term memory failed")

    # --- status ----------------------------------------------------------------------------------------

    async def status(self) -> ReflectionStatus:
        """Whether and when reflection runs, the last reflection and the model's problem, if any."""
        settings = self._settings().reflection
        last = await self._port.reflections(1)
        _, (pending_history, pending_timeline) = await self._port.news()
        if not self._models.is_configured(TIER):
            problem: str | None = NOT_CONFIGURED
        else:
            problem = self._models.problem(TIER)
            if problem is None and last and last[0].status == FAILED:
                problem = last[0].reason
        state = "reflecting" if self.is_reflecting or self._lock.locked() else (
            "idle" if settings.enabled else "disabled")
        return ReflectionStatus(settings.enabled, settings.schedule, state, self.next_at if settings.enabled else None,
                                self._models.describe(TIER), problem, last[0] if last else None, pending_history,
                                pending_timeline)


async def _read(page: Callable[[int, int], Awaitable[list[T]]], after: int, most: int,
                key: Callable[[T], int]) -> list[T]:
    """Entries after ``after`` in pages, oldest first, at most ``most``."""
    found: list[T] = []
    while len(found) < most:
        want = min(PAGE, most - len(found))
        batch = await page(after, want)
        found.extend(batch)
        if len(batch) < want:
            break
        after = key(batch[-1])
    return found


async def _to_the_end(work: Awaitable[T]) -> T:
    """``work`` run to its end even when the caller is cancelled meanwhile (the app stopping): a directive
    committed without its reflection's record would have the next reflection read the same entries and ask
    the model again. The cancellation follows once ``work`` is done."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await asyncio.wait({task})
        if not task.cancelled() and task.exception() is not None:
            log.warning("reflection: finishing it while stopping failed: %s", task.exception())
        raise


def _sentence(text: str) -> str:
    return text.rstrip(". ") + "."
