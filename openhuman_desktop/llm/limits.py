"""What every request is held to: an output cap, a context that fits the window; and what a refusal for
length looks like on each server."""

from __future__ import annotations

import json
import logging
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openhuman_desktop.errors import ContextOverflow
from openhuman_desktop.llm.base import ChatRequest, ModelInfo

log = logging.getLogger(__name__)

DEFAULT_MAX_TOKENS = 512
"""The answer cap of a request whose caller set none: a chat answer, a few tool calls (issue 10: runaways of
6,000+ tokens blocked the server for minutes)."""

DEFAULT_CONTEXT_WINDOW = 4096
"""The window assumed when neither config.toml nor the server says (llama.cpp's and Ollama's usual default)."""

MIN_CONTEXT = 4096
"""The smallest Ollama ``num_ctx`` asked for: a stable value, so Ollama seldom reloads the model."""

MIN_ANSWER_TOKENS = 64
"""The default cap never drops below this, even when the prompt seems to fill the window."""

COUNT_MARGIN = 1.2
"""What to multiply an offline (cl100k/o200k) count by to be safe for a local model's own tokenizer: measured
9–17 % more tokens with SmolLM2 and Qwen2.5 (issue 10). Not needed for ``LlmClient.count_tokens``' counts."""

_PUNCTUATION = string.punctuation.encode()
_DIGITS = string.digits.encode()
_TOKENS_PER_MESSAGE = 8  # the chat template's role markers and separators


@dataclass(frozen=True)
class Limits:
    """The cap and context of one request, and where the cap came from (``"asked"`` or ``"default"``)."""

    max_tokens: int
    context: int
    source: str


def prompt_estimate(request: ChatRequest) -> int:
    """About as many tokens as the request's prompt, rather more than fewer; no tokenizer involved.

    A token per four ASCII characters, plus one per punctuation mark and one per two digits (JSON and code
    split there), plus one and a half per other character (CJK text, emoji).
    """
    parts = [m.content for m in request.messages]
    parts += [json.dumps(dict(c.arguments)) for m in request.messages for c in m.tool_calls]
    if request.tools:
        parts.append(json.dumps([[t.name, t.description, dict(t.parameters)] for t in request.tools]))
    if request.json_schema is not None:
        parts.append(json.dumps(dict(request.json_schema)))
    return sum(_text_tokens(part) for part in parts) + _TOKENS_PER_MESSAGE * (len(request.messages) + 1)


def _text_tokens(text: str) -> int:
    ascii_text = text.encode("ascii", errors="ignore")
    marks = len(ascii_text) - len(ascii_text.translate(None, _PUNCTUATION))
    digits = len(ascii_text) - len(ascii_text.translate(None, _DIGITS))
    return len(ascii_text) // 4 + marks + digits // 2 + (len(text) - len(ascii_text)) * 3 // 2


def limits(request: ChatRequest, window: int) -> Limits:
    """The cap and context for ``request`` on a model with a ``window``-token context.

    A caller's ``max_tokens`` and ``context_window`` are kept. Otherwise the cap is ``DEFAULT_MAX_TOKENS``,
    less when the prompt leaves less room in the window; the context is what prompt and answer need,
    rounded up to a power of two (at least ``MIN_CONTEXT``), never more than the window.
    """
    prompt = prompt_estimate(request)
    fitted = request.context_window or window
    if request.max_tokens is not None:
        cap, source = request.max_tokens, "asked"
    else:
        cap, source = max(MIN_ANSWER_TOKENS, min(DEFAULT_MAX_TOKENS, fitted - prompt)), "default"
    context = request.context_window or stable_context(prompt + cap, window)
    return Limits(max_tokens=cap, context=context, source=source)


def stable_context(needed: int, window: int) -> int:
    """``needed`` rounded up to a power of two, at least ``MIN_CONTEXT``, at most ``window``."""
    size = MIN_CONTEXT
    while size < needed:
        size *= 2
    return min(size, window)


class WindowNote:
    """A client's context window: config.toml's, else the server's last report, else the assumed default.

    Args:
        model: the model's name.
        configured: ``context_window`` of the tier's table, or None.
        source: where the settings came from, e.g. ``"[models.local]"`` (for the note on an assumed window).
    """

    def __init__(self, model: str, configured: int | None, source: str) -> None:
        self._model = model
        self._configured = configured
        self._source = source
        self._reported: int | None = None
        self._said = False

    @property
    def tokens(self) -> int:
        return self._configured or self._reported or DEFAULT_CONTEXT_WINDOW

    def learn(self, reported: int | None) -> ModelInfo:
        """What a check found: ``reported`` is the server's window (None when it does not say)."""
        self._reported = reported
        if self._configured:
            return ModelInfo(self._model, self._configured, "config")
        if reported:
            return ModelInfo(self._model, reported, "server")
        if not self._said:  # once per client: the periodic check would repeat it every minute
            self._said = True
            log.info("the server of %s does not report its context window; assuming %d tokens "
                     "(set context_window in %s to change it)", self._model, DEFAULT_CONTEXT_WINDOW, self._source)
        return ModelInfo(self._model, DEFAULT_CONTEXT_WINDOW, "assumed")

    def refused(self, window: int | None) -> None:
        """The server refused a prompt for its length and named its window (llama.cpp, llama-cpp-python)."""
        if window and not self._configured and window != self._reported:
            log.info("the server of %s says its context window is %d tokens", self._model, window)
            self._reported = window


# --- refusals for length ---------------------------------------------------------------------------------

_OVERFLOW_CODES = frozenset({"context_length_exceeded", "exceed_context_size_error"})
_OVERFLOW_PHRASES = (
    "exceeds the available context size",  # llama.cpp (and Ollama with truncate: false)
    "exceed context window",  # llama-cpp-python before its error formatter
    "maximum context length",  # OpenAI, vLLM, llama-cpp-python
    "context length exceeded",
    "exceeds the context length",  # Ollama
    "longer than the context length",  # Ollama with shift: false
    "context window exceeded",
    "prompt is too long",
)
# Words that name the window, and words that say it was overrun: together they are a refusal for length
# (alone, "n_ctx" may be a model that failed to load).
_WINDOW_WORDS = ("n_ctx", "context length", "context size", "context window")
_OVERRUN_WORDS = ("exceed", "too long", "too large", "longer than", "larger than", "greater than")
_INT = r"(\d[\d,]*)"
_PROMPT_PATTERNS = (
    re.compile(r"request \(" + _INT + r" tokens\)"),
    re.compile(r"\(" + _INT + r" in the messages"),
    re.compile(r"requested tokens \(" + _INT + r"\)"),
)
_WINDOW_PATTERNS = (
    re.compile(r"context size \(" + _INT + r" tokens\)"),
    re.compile(r"maximum context length is " + _INT),
    re.compile(r"exceed context window of " + _INT),
)


def overflow(text: str, sentence: str) -> ContextOverflow | None:
    """A ``ContextOverflow`` saying ``sentence`` when the error body ``text`` refuses a prompt for its length.

    Reads OpenAI's and llama-cpp-python's ``code: context_length_exceeded``, llama.cpp's
    ``exceed_context_size_error`` (also inside Ollama's error string) and the messages of each; the
    prompt's tokens and the window are kept when the server gave them.
    """
    error = _error_object(text)
    fields = [str(error.get(key, "")) for key in ("code", "type")]
    lowered = text.lower()
    if not (_OVERFLOW_CODES & set(fields) or any(phrase in lowered for phrase in _OVERFLOW_PHRASES)
            or (any(w in lowered for w in _WINDOW_WORDS) and any(w in lowered for w in _OVERRUN_WORDS))):
        return None
    prompt = _int(error.get("n_prompt_tokens")) or _first(_PROMPT_PATTERNS, lowered)
    window = _int(error.get("n_ctx")) or _first(_WINDOW_PATTERNS, lowered)
    return ContextOverflow(sentence, prompt_tokens=prompt, context_window=window)


def _error_object(text: str) -> Mapping[str, Any]:
    """The innermost ``{"error": {...}}`` object of a body (Ollama wraps llama.cpp's as a string)."""
    value: Any = text
    for _ in range(3):
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                return {}
        if isinstance(value, Mapping) and "error" in value:
            value = value["error"]
            continue
        break
    return value if isinstance(value, Mapping) else {}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _first(patterns: tuple[re.Pattern[str], ...], text: str) -> int | None:
    for pattern in patterns:
        if match := pattern.search(text):
            return int(match.group(1).replace(",", ""))
    return None
