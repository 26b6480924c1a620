"""How the agent's nodes call a model tier: a cap and a timeout on every call, failures as one sentence."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from openhuman_desktop.clock import Clock
from openhuman_desktop.errors import ContextOverflow, LlmReplyError, LlmUnavailable, UserFacingError
from openhuman_desktop.llm.base import ChatRequest, ChatResponse, LlmClient, ToolCall
from openhuman_desktop.orchestration.ports import StepJournal

log = logging.getLogger(__name__)

QUICK = "local"
REASONING = "reasoning"
"""Tier names, as ``window(tier)`` and ``ModelClients`` know them."""

_NAMES = {QUICK: "The quick model ([models.local])", REASONING: "The reasoning model (agentic-v1)"}
_TABLES = {QUICK: "[models.local]", REASONING: "[models.reasoning]"}
_GUARD_SECONDS = 5.0
"""Past a call's own timeout (which the clients enforce), how long before the node gives up on it anyway."""


class TokenCount(Protocol):
    """Counts and cuts text in tokens (``llm.tokens.TokenCounter``)."""

    def count(self, text: str) -> int:
        ...

    def truncate(self, text: str, max_tokens: int) -> str:
        ...


class AgentError(UserFacingError):
    """A run cannot go on: ``str()`` is one sentence naming the tier (or limit) and the fix."""


class TierFailed(AgentError):
    """A model tier failed (down, refused, timed out, answered garbage)."""

    def __init__(self, message: str, tier: str) -> None:
        super().__init__(message)
        self.tier = tier


class DeadlinePassed(AgentError):
    """The run used up its total time (``[agent] run_deadline_seconds``)."""


def tier_name(tier: str) -> str:
    """e.g. "The reasoning model (agentic-v1)"."""
    return _NAMES.get(tier, f"The {tier} model")


def failed(tier: str, problem: str, fix: str | None = None) -> TierFailed:
    """``<Tier> <problem>; <fix>.`` as a :class:`TierFailed` (one sentence)."""
    fix = fix or f"check {_TABLES.get(tier, 'its [models.*] table')} in config.toml and that its server is running"
    return TierFailed(f"{tier_name(tier)} {problem.rstrip('. ')}; {fix}.", tier)


def unavailable(tier: str, exc: LlmUnavailable) -> TierFailed:
    """The tier's client gave up (down, refused, rate limited after its retries)."""
    reason = str(exc).rstrip(". ")
    if "HTTP 429" in reason or "rate limit" in reason.lower():
        return failed(tier, f"failed: {reason}", "wait a minute and try again, or use a plan with higher limits")
    return failed(tier, f"failed: {reason}")


def missing(tier: str) -> TierFailed:
    return TierFailed(f"{tier_name(tier)} is not configured; add a {_TABLES.get(tier, '[models.*]')} table to "
                      "config.toml.", tier)


@dataclass
class Caller:
    """Calls one tier with the run's limits: ``max_tokens`` always set, the timeout the smaller of
    ``[agent] model_timeout_seconds`` and the time left before the run's deadline (wall clock)."""

    tier: str
    client: LlmClient
    clock: Clock
    deadline: float
    model_timeout: float

    def timeout(self) -> float:
        left = self.deadline - self.clock.now()
        if left <= 0:
            raise DeadlinePassed("The run went past its time limit ([agent] run_deadline_seconds) and was "
                                 "stopped; ask for less at once or raise the limit in config.toml.")
        return max(1.0, min(self.model_timeout, left))

    def _request(self, request: ChatRequest, max_tokens: int) -> ChatRequest:
        return ChatRequest(request.messages, tools=request.tools, json_schema=request.json_schema,
                           schema_name=request.schema_name, temperature=request.temperature,
                           timeout=self.timeout(), max_tokens=max_tokens, context_window=request.context_window)

    async def chat(self, request: ChatRequest, *, max_tokens: int) -> ChatResponse:
        """One answer.

        Raises:
            TierFailed: the tier is down, refused the request or answered unreadably.
            DeadlinePassed: no time left.
        """
        sized = self._request(request, max_tokens)
        try:
            async with asyncio.timeout(sized.timeout + _GUARD_SECONDS):
                return await self.client.chat(sized)
        except TimeoutError as exc:
            raise failed(self.tier, f"did not answer within {sized.timeout:.0f} seconds") from exc
        except ContextOverflow as exc:
            raise failed(self.tier, f"refused a prompt longer than its context window ({exc})",
                         "give it a larger context window or shorten the conversation") from exc
        except LlmUnavailable as exc:
            raise unavailable(self.tier, exc) from exc
        except LlmReplyError as exc:
            raise failed(self.tier, f"gave an answer that could not be read ({exc})") from exc

    async def stream(self, request: ChatRequest, *, max_tokens: int) -> AsyncIterator[str]:
        """The answer as it is generated; failures as for :meth:`chat`."""
        sized = self._request(request, max_tokens)
        parts = self.client.stream(sized)
        try:
            while True:
                try:
                    async with asyncio.timeout(sized.timeout + _GUARD_SECONDS):
                        piece = await anext(parts)
                except StopAsyncIteration:
                    return
                yield piece
        except TimeoutError as exc:
            raise failed(self.tier, f"stopped answering for {sized.timeout:.0f} seconds") from exc
        except LlmUnavailable as exc:
            raise unavailable(self.tier, exc) from exc
        except LlmReplyError as exc:
            raise failed(self.tier, f"gave an answer that could not be read ({exc})") from exc
        finally:
            closer = getattr(parts, "aclose", None)
            if closer is not None:
                await closer()


def caller(tier: str, get: Callable[[], LlmClient | None], clock: Clock, deadline: float,
           model_timeout: float) -> Caller:
    """A :class:`Caller` for the tier's current client.

    Raises:
        TierFailed: no client is configured for the tier.
    """
    client = get()
    if client is None:
        raise missing(tier)
    return Caller(tier, client, clock, deadline, model_timeout)


# --- journal records of model answers --------------------------------------------------------------


def response_json(response: ChatResponse) -> dict[str, Any]:
    """What the journal keeps of a model answer."""
    return {"content": response.content,
            "tool_calls": [{"name": c.name, "arguments": dict(c.arguments), "id": c.id} for c in response.tool_calls]}


def response_from(recorded: Mapping[str, Any]) -> ChatResponse:
    calls = tuple(ToolCall(str(c.get("name", "")), dict(c.get("arguments") or {}), c.get("id"))
                  for c in recorded.get("tool_calls") or ())
    return ChatResponse(str(recorded.get("content", "")), calls)


async def recorded(journal: StepJournal, run_id: str, step: int, key: str) -> Mapping[str, Any] | None:
    """The result recorded under ``key``, or None (not yet, or begun and not finished)."""
    entry = await journal.get(run_id, step, key)
    return None if entry is None or entry.result is None else entry.result


async def record(journal: StepJournal, run_id: str, step: int, key: str, result: Mapping[str, Any]) -> None:
    """Record a model answer (no side effect, so no intent first)."""
    await journal.finish(run_id, step, key, result)


def compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
