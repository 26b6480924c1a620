"""The model clients of this instance, one per configured tier, rebuilt when config.toml changes them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, replace

from openhuman_desktop.config import ModelSettings, Settings
from openhuman_desktop.errors import ContextOverflow, LlmReplyError, LlmUnavailable
from openhuman_desktop.llm.base import ChatRequest, ChatResponse, LlmClient, ModelInfo
from openhuman_desktop.llm.limits import DEFAULT_CONTEXT_WINDOW
from openhuman_desktop.llm.ollama import OllamaClient

log = logging.getLogger(__name__)

Factory = Callable[[Settings, str], LlmClient | None]
Key = tuple[ModelSettings | None, str | None]
TIERS = ("local", "reasoning")
_WINDOW_SOURCES = {
    "config": "set in config.toml",
    "server": "reported by the server",
    "assumed": "assumed: the server does not say; set context_window in [models.{tier}]",
}


@dataclass(frozen=True)
class TierHealth:
    """The last check of one tier: ``ok`` with the model's context window (and where it came from, as in
    ``ModelInfo.window_source``), or the problem in words."""

    ok: bool
    message: str
    context_window: int | None = None
    window_source: str | None = None


class ModelClients:
    """Gives the current client of a tier; remembers each tier's last health check and real call.

    Two things say whether a tier works: the periodic :meth:`check` (is the endpoint up, is the model
    there) and the outcome of the real calls made through :meth:`reporting` (a server that lists the
    model can still answer every chat with HTTP 500). A failed real call is the tier's problem until a
    later call succeeds or config.toml changes the tier; a check that passes does not clear it.

    Args:
        settings: the live settings.
        factory: builds a client for a tier (``llm.make_client``).
        on_change: called when a real call changed a tier's state (it failed, or worked again after a
            failure), e.g. to publish ``StatusChanged``; :meth:`check`'s callers publish its answers.
    """

    def __init__(self, settings: Callable[[], Settings], factory: Factory,
                 on_change: Callable[[], None] | None = None) -> None:
        self._settings = settings
        self._factory = factory
        self._on_change = on_change
        self._clients: dict[str, tuple[Key, LlmClient | None]] = {}
        self._retired: list[LlmClient] = []
        self._keys: dict[str, Key] = {}  # the settings ``health`` and ``_failed`` were learnt under
        self._failed: dict[str, str] = {}
        self.health: dict[str, TierHealth] = {}

    def _key(self, tier: str) -> Key:
        settings = self._settings()
        return (settings.model(tier), settings.base_url_for(tier))

    def _forget_if_changed(self, tier: str, key: Key) -> None:
        """What was learnt about a tier under other settings no longer says anything about it."""
        known = self._keys.get(tier)
        if known is not None and known != key:
            self.health.pop(tier, None)
            self._failed.pop(tier, None)
        self._keys[tier] = key

    def get(self, tier: str) -> LlmClient | None:
        """The client for ``tier`` under the current settings (None when the tier is not configured)."""
        key = self._key(tier)
        self._forget_if_changed(tier, key)
        cached = self._clients.get(tier)
        if cached is not None and cached[0] == key:
            return cached[1]
        if cached is not None and cached[1] is not None:
            self._retired.append(cached[1])
        client = self._factory(self._settings(), tier)
        self._clients[tier] = (key, client)
        return client

    def reporting(self, tier: str) -> LlmClient | None:
        """The tier's client (as :meth:`get`), wrapped so that every chat's outcome is reported here."""
        client = self.get(tier)
        return None if client is None else _Reporting(client, self, tier, self._key(tier))

    def context_window(self, tier: str) -> int:
        """The tier's context window in tokens: config.toml's ``context_window``, else what the last check
        (or a refusal for length) learnt from the server, else ``DEFAULT_CONTEXT_WINDOW``."""
        self._forget_if_changed(tier, self._key(tier))
        model = self._settings().model(tier)
        if model is not None and model.context_window:
            return model.context_window
        health = self.health.get(tier)
        if health is not None and health.context_window:
            return health.context_window
        return DEFAULT_CONTEXT_WINDOW

    def learn_window(self, tier: str, window: int, *, key: Key | None = None) -> None:
        """The server said (refusing a prompt for length) that its window is ``window`` tokens."""
        current = self._key(tier)
        model = self._settings().model(tier)
        if (key is not None and key != current) or (model is not None and model.context_window):
            return
        self._forget_if_changed(tier, current)
        health = self.health.get(tier)
        if health is None:
            self.health[tier] = TierHealth(True, f"{self.describe(tier)} refused a prompt for its length",
                                           window, "server")
        elif health.context_window != window:
            log.info("model %s: the server's context window is %d tokens", tier, window)
            self.health[tier] = replace(health, context_window=window, window_source="server")

    async def check(self, tier: str) -> TierHealth:
        """Ask the tier's endpoint whether it is reachable and has the model; remembers the answer."""
        client = self.get(tier)
        asked = self._key(tier)
        if client is None:
            health = TierHealth(False, f"no [models.{tier}] table in config.toml")
        else:
            try:
                info = await client.check()
            except LlmUnavailable as exc:
                health = TierHealth(False, str(exc))
            else:
                window = ""
                if info.context_window:
                    source = _WINDOW_SOURCES.get(info.window_source, info.window_source).format(tier=tier)
                    window = f", context window {info.context_window} tokens ({source})"
                health = TierHealth(True, f"{client.description} is ready{window}", info.context_window,
                                    info.window_source)
        if self._key(tier) == asked:  # an answer about settings replaced meanwhile is not kept
            self._forget_if_changed(tier, asked)
            self.health[tier] = health
        return health

    def report_failure(self, tier: str, message: str, *, key: Key | None = None) -> None:
        """A real call to ``tier`` failed with ``message`` (a user-facing sentence): the tier is failing.

        ``key`` is the settings the call was made under; a call to a client config.toml has replaced
        meanwhile says nothing about the tier now.
        """
        current = self._key(tier)
        if key is not None and key != current:
            return
        self._forget_if_changed(tier, current)
        if self._failed.get(tier) != message:
            self._failed[tier] = message
            log.warning("model %s failed a call: %s", tier, message)
            self._changed()

    def report_success(self, tier: str, *, key: Key | None = None) -> None:
        """A real call to ``tier`` answered: a failure reported earlier is over (``key`` as above)."""
        current = self._key(tier)
        if key is not None and key != current:
            return
        self._forget_if_changed(tier, current)
        if self._failed.pop(tier, None) is not None:
            log.info("model %s answers again", tier)
            self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    def problem(self, tier: str) -> str | None:
        """Why the tier is unusable: its last failed call, else its last check (None when fine or unknown)."""
        self._forget_if_changed(tier, self._key(tier))
        failed = self._failed.get(tier)
        if failed is not None:
            return failed
        health = self.health.get(tier)
        return None if health is None or health.ok else health.message

    def is_ready(self, tier: str) -> bool:
        """The tier's last check passed and no real call failed since (under the current settings)."""
        self._forget_if_changed(tier, self._key(tier))
        health = self.health.get(tier)
        return health is not None and health.ok and tier not in self._failed

    def is_configured(self, tier: str) -> bool:
        return self._settings().model(tier) is not None

    def verdicts(self) -> dict[str, bool]:
        """``ok`` per tier (a tier not checked yet counts as ok): what the idle gate looks at."""
        return {tier: self.problem(tier) is None for tier in TIERS}

    def describe(self, tier: str) -> str:
        client = self.get(tier)
        return client.description if client else f"[models.{tier}] (not configured)"

    async def aclose(self) -> None:
        clients = [client for _, client in self._clients.values() if client is not None] + self._retired
        self._clients.clear()
        self._retired.clear()
        results = await asyncio.gather(*(client.aclose() for client in clients), return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):
                log.warning("closing a model client failed: %s", result)


class _Reporting:
    """An :class:`LlmClient` that tells the pool how each chat went: ``LlmUnavailable`` and an answer the client
    could not read at all (``LlmReplyError``, a server that answers garbage) mark the tier failing; a refusal for
    length (``ContextOverflow``) is the prompt's fault, not the tier's."""

    def __init__(self, client: LlmClient, pool: ModelClients, tier: str, key: Key) -> None:
        self._client = client
        self._pool = pool
        self._tier = tier
        self._key = key

    @property
    def description(self) -> str:
        return self._client.description

    async def chat(self, request: ChatRequest) -> ChatResponse:
        with self._reported():
            return await self._client.chat(request)

    @contextlib.contextmanager
    def _reported(self) -> Iterator[None]:
        """Report how the call inside went: success, a failing tier, or a refusal for length."""
        try:
            yield
        except ContextOverflow as exc:
            self._overflowed(exc)
            raise
        except (LlmUnavailable, LlmReplyError) as exc:
            self._pool.report_failure(self._tier, str(exc), key=self._key)
            raise
        self._pool.report_success(self._tier, key=self._key)

    def _overflowed(self, exc: ContextOverflow) -> None:
        """A refusal for length is the prompt's fault, not the tier's; it may tell the server's window.

        Ollama's refusal names the ``num_ctx`` that was asked for, not the model's window: not learnt.
        """
        if exc.context_window and not isinstance(self._client, OllamaClient):
            self._pool.learn_window(self._tier, exc.context_window, key=self._key)

    async def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        with self._reported():
            async for piece in self._client.stream(request):
                yield piece

    async def check(self) -> ModelInfo:
        return await self._client.check()

    async def count_tokens(self, text: str) -> int | None:
        return await self._client.count_tokens(text)

    async def aclose(self) -> None:
        """The pool owns the client: closing the wrapper leaves it open."""
