"""The model port: one small interface for every provider (Ollama, OpenAI-compatible)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True)
class Message:
    """One chat message. ``tool_calls`` on assistant messages, ``tool_name``/``tool_call_id`` on tool results."""

    role: Role
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_name: str | None = None
    tool_call_id: str | None = None


@dataclass(frozen=True)
class ToolSpec:
    """A tool offered to the model: name, description and JSON schema of its arguments."""

    name: str
    description: str
    parameters: Mapping[str, Any]


@dataclass(frozen=True)
class ToolCall:
    """A tool call the model asked for; ``arguments`` already decoded from JSON."""

    name: str
    arguments: Mapping[str, Any]
    id: str | None = None


@dataclass(frozen=True)
class ChatRequest:
    """What to send: messages, optional tools, optional JSON schema the answer must follow.

    ``max_tokens`` caps the answer (Ollama ``num_predict``, OpenAI ``max_tokens``); ``context_window`` is the
    context the prompt was sized for (Ollama ``num_ctx``; OpenAI-compatible servers fix it themselves).
    None lets the client choose (``llm.limits``): no request is ever sent without a cap.
    """

    messages: Sequence[Message]
    tools: Sequence[ToolSpec] = ()
    json_schema: Mapping[str, Any] | None = None
    schema_name: str = "answer"
    temperature: float | None = None
    timeout: float = 120.0
    max_tokens: int | None = None
    context_window: int | None = None
    logprobs: int = 0
    """Ask for each answer token's log-probability and this many alternatives (0: none). Servers that do not
    give them answer without; see :func:`token_logprobs`."""
    repeat_penalty: float | None = None
    """1.0 turns off the penalty on tokens already written that Ollama and llama.cpp apply by default (1.1):
    in a JSON answer it pushes ``condition_met`` away from the "yes" the reason just wrote. None: the server's
    default."""


@dataclass(frozen=True)
class TokenLogprob:
    """One answer token, its log-probability and the alternatives the server listed (best first)."""

    token: str
    logprob: float
    top: tuple[tuple[str, float], ...] = ()


def token_logprobs(raw: Mapping[str, Any]) -> list[TokenLogprob]:
    """The answer tokens' log-probabilities in a chat completion's raw JSON (OpenAI's ``choices[0].logprobs.
    content`` or Ollama's ``logprobs``), empty when the server gave none."""
    entries: Any = None
    choices = raw.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        logprobs = choices[0].get("logprobs")
        entries = logprobs.get("content") if isinstance(logprobs, dict) else None
    elif isinstance(raw.get("logprobs"), list):
        entries = raw["logprobs"]
    result: list[TokenLogprob] = []
    for entry in entries if isinstance(entries, list) else ():
        if not isinstance(entry, dict) or not isinstance(entry.get("token"), str):
            return []
        value = entry.get("logprob")
        if not isinstance(value, int | float):
            return []
        top = tuple((str(alt["token"]), float(alt["logprob"])) for alt in entry.get("top_logprobs") or ()
                    if isinstance(alt, dict) and isinstance(alt.get("logprob"), int | float) and "token" in alt)
        result.append(TokenLogprob(entry["token"], float(value), top))
    return result


@dataclass(frozen=True)
class ChatResponse:
    """What came back: text, tool calls and token counts (when the server reports them)."""

    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    raw: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ModelInfo:
    """What a provider knows about its model.

    ``window_source`` says where ``context_window`` came from: ``"config"`` (``context_window`` of its
    ``[models.*]`` table), ``"server"`` (the server's own report) or ``"assumed"`` (neither said:
    ``llm.limits.DEFAULT_CONTEXT_WINDOW``).
    """

    name: str
    context_window: int | None
    window_source: str = "server"


class LlmClient(Protocol):
    """A chat model behind some provider. Every failure surfaces as ``LlmUnavailable`` (a user-facing
    sentence) or ``LlmReplyError`` (the server answered, but not usably)."""

    @property
    def description(self) -> str:
        """e.g. "Ollama model llama3.2:3b at http://127.0.0.1:11434" — for status lines and errors."""
        ...

    async def chat(self, request: ChatRequest) -> ChatResponse:
        """One complete answer."""
        ...

    def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """The answer's text as it is generated."""
        ...

    async def check(self) -> ModelInfo:
        """Is the endpoint reachable and the model present? Raises LlmUnavailable with a fix if not."""
        ...

    async def count_tokens(self, text: str) -> int | None:
        """``text``'s length in the model's own tokens when the server has a tokenizer endpoint, else None.

        One HTTP request: for prompts near the window, not for every prompt (cl100k under-counts a local
        model's tokens by 9–17 %; without a count, keep a ×1.2 margin).
        """
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...


MAX_SERVER_MESSAGE = 200
"""The most characters of a server's own error text a message quotes."""


def short_server_message(text: str) -> str:
    """A server's error text as the end of one sentence: on one line, cut at :data:`MAX_SERVER_MESSAGE`."""
    text = " ".join(text.split())
    if not text:
        return "no details."
    if len(text) > MAX_SERVER_MESSAGE:
        text = text[: MAX_SERVER_MESSAGE - 1] + "…"
    return text.rstrip(".") + "."
