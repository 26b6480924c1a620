"""20:1 compression of an execution trace into one ``compressed_history`` entry (CONTRACT §8).

The bound is ``summary_tokens ≤ max(ceil(trace_tokens / 20), 32)``, both counted with the product's token
counter. A summary over the bound is re-asked once, then cut at a token boundary; with the model down (or
no model at all) the entry is an extractive summary of the trace within the same bound.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

from openhuman_desktop.llm.base import ChatRequest, Message
from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration._calls import AgentError, Caller, TokenCount

log = logging.getLogger(__name__)

RATIO = 20
FLOOR = 32
MAX_TRACE_CHARS = 400_000
"""Of a trace, what goes to the model (the rest is counted, not sent); the reasoning tier's window is large,
but a runaway sub-agent must not make the request unsendable."""


def bound(trace_tokens: int) -> int:
    """The most tokens a summary of a ``trace_tokens``-token trace may have."""
    return max(math.ceil(trace_tokens / RATIO), FLOOR)


def fit(text: str, limit: int, tokens: TokenCount) -> str:
    """``text`` cut at a token boundary so that it counts at most ``limit`` tokens."""
    if tokens.count(text) <= limit:
        return text
    budget = limit
    cut = tokens.truncate(text, budget)
    while budget > 0 and tokens.count(cut) > limit:  # a counter whose cut re-counts longer: cut again
        budget -= max(1, tokens.count(cut) - limit)
        cut = tokens.truncate(text, budget)
    return cut if budget > 0 else ""


def extractive(trace: str, limit: int, tokens: TokenCount) -> str:
    """A deterministic summary without a model: the first line of every trace item, then cut to ``limit``."""
    lines: list[str] = []
    for line in trace.splitlines():
        line = " ".join(line.split())
        if line and (not lines or lines[-1] != line):
            lines.append(line[:200])
    return fit("[extractive] " + " | ".join(lines), limit, tokens)


Ask = Callable[[list[Message], int], Awaitable[str]]


async def summarise(trace: str, tokens: TokenCount, ask: Ask | None) -> tuple[str, int, int]:
    """The summary of ``trace`` within :func:`bound`, with ``(summary, trace_tokens, summary_tokens)``.

    ``ask(messages, max_tokens)`` calls the model; None (or a failure) gives the extractive summary.
    """
    trace_tokens = await asyncio.to_thread(tokens.count, trace)
    limit = bound(trace_tokens)
    if trace_tokens <= limit:
        return trace, trace_tokens, trace_tokens
    summary = ""
    if ask is not None:
        system = prompts.fill(prompts.COMPRESS, max_tokens=limit)
        messages = [Message("system", system), Message("user", trace[:MAX_TRACE_CHARS])]
        try:
            summary = (await ask(messages, limit)).strip()
            if summary and await asyncio.to_thread(tokens.count, summary) > limit:
                log.info("compression: the summary was over %d tokens; asking once more", limit)
                messages += [Message("assistant", summary),
                             Message("user", prompts.fill(prompts.COMPRESS_SHORTER, max_tokens=limit))]
                summary = (await ask(messages, limit)).strip() or summary
        except AgentError as exc:
            log.warning("compression: the model failed (%s); the entry is an extractive summary", exc)
            summary = ""
    if summary:
        summary = await asyncio.to_thread(fit, summary, limit, tokens)
    if not summary:
        summary = await asyncio.to_thread(extractive, trace, limit, tokens)
    return summary, trace_tokens, await asyncio.to_thread(tokens.count, summary)


async def compress(trace: str, *, tokens: TokenCount, caller: Caller | None, run_id: str,
                   at: float) -> dict[str, Any]:
    """The ``compressed_history`` entry ``{run_id, text, trace_tokens, summary_tokens, at}`` of ``trace``."""

    async def ask(messages: list[Message], max_tokens: int) -> str:
        assert caller is not None
        return (await caller.chat(ChatRequest(messages), max_tokens=max_tokens)).content

    text, trace_tokens, summary_tokens = await summarise(trace, tokens, ask if caller is not None else None)
    return {"run_id": run_id, "text": text, "trace_tokens": trace_tokens, "summary_tokens": summary_tokens,
            "at": at}
