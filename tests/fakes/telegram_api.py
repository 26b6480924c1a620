"""A fake Telegram Bot API server: real HTTP on 127.0.0.1, real Bot API JSON, every request recorded.

It speaks what the Telegram channel uses — ``getMe``, ``deleteWebhook``, ``getUpdates`` (long polling; an
update is confirmed, and gone, once a later call passes an ``offset`` above its id), ``sendMessage``,
``sendMessageDraft``, ``editMessageText``, ``editMessageReplyMarkup``, ``deleteMessage``, ``sendChatAction``,
``answerCallbackQuery`` — and can fail on purpose: a revoked token (401), another poller (409), flood control
(429 with ``parameters.retry_after``). Tests inject what people send with :meth:`FakeTelegram.send_text` and
:meth:`FakeTelegram.press`. It runs in a daemon thread with its own loop, so sync tests (the real app in a
subprocess) and async tests can use it alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes.threaded_server import ThreadedServer

TOKEN = "123456789:AAFakeTokenForTestsOnly-abcdefghijkl"
BOT_ID = 123456789
BOT_USERNAME = "openhuman_test_bot"
# Parameters PTB sends form-encoded that are JSON (numbers, booleans, objects); the rest stay strings.
_JSON_FIELDS = {"chat_id", "message_id", "draft_id", "offset", "timeout", "limit", "reply_markup", "entities",
                "allowed_updates", "show_alert", "disable_notification", "drop_pending_updates",
                "link_preview_options", "reply_parameters", "message_thread_id", "cache_time"}


@dataclass(frozen=True)
class Call:
    """One request the fake answered: the Bot API method, its parameters (decoded) and when it came."""

    method: str
    params: Mapping[str, Any]
    at: float = field(default_factory=time.monotonic)
    token: str = ""


@dataclass
class _Failure:
    status: int
    description: str
    count: int | None  # None: until cleared
    retry_after: int | None = None


class FakeTelegram(ThreadedServer):
    """The fake Bot API. ``url`` is what ``[channels.telegram] api_url`` is set to.

    Args:
        token: the one token it accepts (others get 401 Unauthorized).
    """

    shutdown_timeout = 0.2

    def __init__(self, token: str = TOKEN) -> None:
        super().__init__()
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.calls: list[Call] = []
        self.sent: list[Call] = []  # the sendMessage calls that made a message (not the refused ones)
        self.refused: list[Call] = []  # the calls answered with a scripted failure
        self._updates: list[dict[str, Any]] = []  # not yet confirmed, oldest first
        self._confirmed: list[dict[str, Any]] = []  # confirmed by an offset (``rewind`` brings them back)
        self._update_ids = itertools.count(1000)
        self._message_ids = itertools.count(1)
        self._callback_ids = itertools.count(1)
        self._failures: dict[str, _Failure] = {}  # method (or "*") -> failure
        self._changed = threading.Condition()
        self._new_update: asyncio.Event | None = None
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}  # (chat, message_id) -> the bot's message
        self.ignore_offsets = False
        """True: offsets confirm nothing and every poll gets every unconfirmed update again, as when the app's
        confirmations never reach Telegram."""

    # --- life cycle --------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The Bot API base URL (``api_url``): requests go to ``{url}/bot{token}/{method}``."""
        return f"http://127.0.0.1:{self.port}"

    # --- what people do ----------------------------------------------------------------------------

    def send_text(self, chat_id: int, text: str, *, from_id: int | None = None) -> int:
        """Someone writes ``text`` in chat ``chat_id`` (> 0 private, < 0 a group); returns the update id."""
        chat = _chat(chat_id)
        user = {"id": from_id if from_id is not None else abs(chat_id), "is_bot": False, "first_name": "Ann"}
        message = {"message_id": next(self._message_ids), "date": int(time.time()), "chat": chat, "from": user,
                   "text": text}
        return self._add_update({"message": message})

    def send_sticker(self, chat_id: int) -> int:
        """Someone sends a message without text (a sticker)."""
        message = {"message_id": next(self._message_ids), "date": int(time.time()), "chat": _chat(chat_id),
                   "from": {"id": abs(chat_id), "is_bot": False, "first_name": "Ann"},
                   "sticker": {"file_id": "s1", "file_unique_id": "u1", "width": 512, "height": 512,
                               "is_animated": False, "is_video": False, "type": "regular"}}
        return self._add_update({"message": message})

    def press(self, chat_id: int, message_id: int, data: str, *, from_id: int | None = None) -> str:
        """Someone presses an inline button (callback ``data``) under the bot's message; returns the query id."""
        query_id = f"q{next(self._callback_ids)}"
        with self._changed:
            message = dict(self.messages.get((chat_id, message_id)) or {
                "message_id": message_id, "date": int(time.time()), "chat": _chat(chat_id), "text": "?"})
        user = {"id": from_id if from_id is not None else abs(chat_id), "is_bot": False, "first_name": "Ann"}
        self._add_update({"callback_query": {"id": query_id, "from": user, "message": message,
                                             "chat_instance": "ci", "data": data}})
        return query_id

    def rewind(self, update_id: int) -> None:
        """Pretend Telegram never got the confirmation of ``update_id`` (the app died before sending it): the
        next poll without a higher offset (the app's next start) gets it again."""
        with self._changed:
            seen = [u for u in self._confirmed if u["update_id"] >= update_id]
            self._updates = sorted(seen + self._updates, key=lambda u: int(u["update_id"]))
        self._wake()

    # --- failures ----------------------------------------------------------------------------------

    def fail(self, method: str, status: int, description: str, *, count: int | None = None,
             retry_after: int | None = None) -> None:
        """Answer ``method`` (``"*"``: every method) with an error, ``count`` times (None: until :meth:`heal`)."""
        with self._changed:
            self._failures[method] = _Failure(status, description, count, retry_after)

    def revoke(self) -> None:
        """Every call gets 401 Unauthorized, as when the token was revoked in @BotFather."""
        self.fail("*", 401, "Unauthorized")

    def conflict(self, count: int | None = None) -> None:
        """``getUpdates`` gets 409, as when another copy of the bot polls."""
        self.fail("getUpdates", 409,
                  "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
                  count=count)

    def flood(self, retry_after: int, count: int = 1, method: str = "getUpdates") -> None:
        """``method`` gets 429 Too Many Requests with ``parameters.retry_after``."""
        self.fail(method, 429, f"Too Many Requests: retry after {retry_after}", count=count, retry_after=retry_after)

    def heal(self) -> None:
        """No more failures."""
        with self._changed:
            self._failures.clear()

    # --- what the bot did --------------------------------------------------------------------------

    def calls_of(self, method: str, chat_id: int | None = None) -> list[Call]:
        with self._changed:
            return [c for c in self.calls if c.method == method
                    and (chat_id is None or c.params.get("chat_id") == chat_id)]

    def sent_texts(self, chat_id: int) -> list[str]:
        """The texts of every message ``sendMessage`` made in ``chat_id``, in order."""
        with self._changed:
            return [str(c.params.get("text", "")) for c in self.sent if c.params.get("chat_id") == chat_id]

    def wait_for(self, predicate: Callable[[], Any], timeout: float = 20.0, what: str = "condition") -> Any:
        """Block until ``predicate()`` is truthy after some request (returned), or raise TimeoutError."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{what} not reached within {timeout} s; calls: "
                                       f"{[c.method for c in self.calls][-30:]}")
                self._changed.wait(min(left, 0.2))

    def wait_call(self, method: str, chat_id: int | None = None, count: int = 1, timeout: float = 20.0) -> list[Call]:
        """Block until ``count`` calls of ``method`` (to ``chat_id``) arrived; returns them."""
        found: list[Call] = self.wait_for(
            lambda: (lambda calls: calls if len(calls) >= count else None)(self.calls_of(method, chat_id)),
            timeout, f"{count} {method} call(s)")
        return found

    async def await_call(self, method: str, chat_id: int | None = None, count: int = 1,
                         timeout: float = 20.0) -> list[Call]:
        """:meth:`wait_call` for async tests (waits in a thread, so the test's loop keeps running)."""
        return await asyncio.to_thread(self.wait_call, method, chat_id, count, timeout)

    @property
    def pending_updates(self) -> int:
        """Updates not yet confirmed by an offset."""
        with self._changed:
            return len(self._updates)

    # --- the server --------------------------------------------------------------------------------

    def _add_update(self, body: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        with self._changed:
            self._updates.append({"update_id": update_id, **body})
        self._wake()
        return update_id

    def _wake(self) -> None:
        loop, event = self._loop, self._new_update
        if loop is not None and event is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(event.set)

    def _on_loop(self) -> None:
        self._new_update = asyncio.Event()

    def _build_app(self) -> web.Application:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        return app

    async def _handle(self, request: web.Request) -> web.Response:
        token, method = request.match_info["token"], request.match_info["method"]
        params = await _params(request)
        with self._changed:
            self.calls.append(Call(method, params, token=token))
            self._changed.notify_all()
            failure = self._failures.get(method) or self._failures.get("*")
            if failure is not None and failure.count is not None:
                failure.count -= 1
                if failure.count <= 0:
                    self._failures = {k: v for k, v in self._failures.items() if v is not failure}
        if token != self.token:
            return _error(401, "Unauthorized")
        if failure is not None:
            with self._changed:
                self.refused.append(self.calls[-1] if self.calls[-1].method == method else Call(method, params))
            return _error(failure.status, failure.description, failure.retry_after)
        handler = getattr(self, f"_m_{method}", None)
        if handler is None:
            return _error(404, "Not Found")
        result = await handler(params)
        if isinstance(result, web.Response):
            return result
        return web.json_response({"ok": True, "result": result})

    # --- methods ----------------------------------------------------------------------------------

    async def _m_getMe(self, params: Mapping[str, Any]) -> Any:  # noqa: N802 - the Bot API's names
        return {"id": self.bot_id, "is_bot": True, "first_name": "OpenHuman", "username": BOT_USERNAME,
                "can_join_groups": True, "can_read_all_group_messages": False, "supports_inline_queries": False}

    async def _m_deleteWebhook(self, params: Mapping[str, Any]) -> Any:  # noqa: N802
        return True

    async def _m_getUpdates(self, params: Mapping[str, Any]) -> Any:  # noqa: N802
        offset = params.get("offset")
        offset = offset if isinstance(offset, int) and offset > 0 else None
        timeout = float(params.get("timeout") or 0)
        limit = int(params.get("limit") or 100)
        deadline = time.monotonic() + timeout
        assert self._new_update is not None
        with self._changed:  # like Telegram: the offset confirms what is below it when the request arrives
            if offset is not None and not self.ignore_offsets:
                self._confirmed.extend(u for u in self._updates if u["update_id"] < offset)
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
        while True:
            with self._changed:
                ready = [u for u in self._updates
                         if self.ignore_offsets or offset is None or u["update_id"] >= offset][:limit]
            left = deadline - time.monotonic()
            if ready or left <= 0 or self._stopping.is_set():
                return ready
            self._new_update.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(_first(self._new_update.wait(), self._stopping.wait()), left)

    def _message(self, params: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        message: dict[str, Any] = {"message_id": next(self._message_ids), "date": int(time.time()),
                                   "chat": _chat(chat_id), "text": params.get("text", ""),
                                   "from": {"id": self.bot_id, "is_bot": True, "first_name": "OpenHuman"}}
        if params.get("entities"):
            message["entities"] = params["entities"]
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        message.update(extra)
        with self._changed:
            self.messages[(chat_id, message["message_id"])] = message
        return message

    async def _m_sendMessage(self, params: Mapping[str, Any]) -> Any:  # noqa: N802
        text = str(params.get("text", ""))
        if not text:
            return _error(400, "Bad Request: message text is empty")
        if len(text.encode("utf-16-le")) // 2 > 4096:
            return _error(400, "Bad Request: message is too long")
        problem = entity_problem(text, params.get("entities") or [])
        if problem is not None:
            return _error(400, f"Bad Request: can't parse entities: {problem}")
        with self._changed:
            self.sent.append(Call("sendMessage", params))
        return self._message(params)

    async def _m_sendMessageDraft(self, params: Mapping[str, Any]) -> Any:  # noqa: N802
        if int(params["chat_id"]) <= 0:
            return _error(400, "Bad Request: drafts can be sent only to private chats")
        if not params.get("draft_id"):
            return _error(400, "Bad Request: draft_id must be non-zero")
        problem = entity_problem(str(params.get("text", "")), params.get("entities") or [])
        if problem is not None:
            return _error(400, f"Bad Request: can't parse entities: {problem}")
        return True

    async def _m_editMessageText(self, params: Mapping[str, Any]) -> Any:  # noqa: N802
        key = (int(params["chat_id"]), int(params["message_id"]))
        with self._changed:
            message = self.messages.get(key)
        if message is None:
            return _error(400, "Bad Request: message to edit not found")
        problem = entity_problem(str(params.get("text", "")), params.get("entities") or [])
        if problem is not None:
            return _error(400, f"Bad Request: can't parse entities: {problem}")
        if message.get("text") == params.get("text") and message.get("reply_markup") == params.get("reply_markup"):
            return _error(400, "Bad Request: message is not modified: specified new message content and reply "
                               "markup are exactly the same as a current content and reply markup of the message")
        updated = {**message, "text": params.get("text", ""), "edit_date": int(time.time())}
        updated.pop("reply_markup", None)
        if params.get("reply_markup"):
            updated["reply_markup"] = params["reply_markup"]
        with self._changed:
            self.messages[key] = updated
        return updated

    async def _m_editMessageReplyMarkup(self, params: Mapping[str, Any]) -> Any:  # noqa: N802
        key = (int(params["chat_id"]), int(params["message_id"]))
        with self._changed:
            message = self.messages.get(key)
            if message is None:
                return _error(400, "Bad Request: message to edit not found")
            updated = {k: v for k, v in message.items() if k != "reply_markup"}
            if params.get("reply_markup"):
                updated["reply_markup"] = params["reply_markup"]
            self.messages[key] = updated
        return updated

    async def _m_deleteMessage(self, params: Mapping[str, Any]) -> Any:  # noqa: N802
        with self._changed:
            self.messages.pop((int(params["chat_id"]), int(params["message_id"])), None)
        return True

    async def _m_sendChatAction(self, params: Mapping[str, Any]) -> Any:  # noqa: N802
        return True

    async def _m_answerCallbackQuery(self, params: Mapping[str, Any]) -> Any:  # noqa: N802
        return True


_NESTABLE = {"bold", "italic", "underline", "strikethrough", "spoiler"}


def entity_problem(text: str, entities: list[dict[str, Any]]) -> str | None:
    """What Telegram would refuse in ``entities`` (UTF-16 ranges inside the text; nesting only as allowed:
    one range inside the other, and only bold/italic/underline/strikethrough/spoiler around or inside
    anything but code and pre), or None."""
    size = len(text.encode("utf-16-le")) // 2
    spans = []
    for entity in entities:
        start, length = int(entity.get("offset", -1)), int(entity.get("length", 0))
        if start < 0 or length <= 0 or start + length > size:
            return f"entity {entity} is outside the text"
        spans.append((start, start + length, str(entity.get("type"))))
    for index, (start, end, kind) in enumerate(spans):
        for other_start, other_end, other_kind in spans[index + 1:]:
            if other_end <= start or end <= other_start:
                continue
            inside = (start <= other_start and other_end <= end) or (other_start <= start and end <= other_end)
            if not inside:
                return f"{kind} and {other_kind} overlap"
            if {kind, other_kind} & {"code", "pre"} or not ({kind, other_kind} & _NESTABLE):
                return f"{kind} and {other_kind} cannot be nested"
    return None


def _chat(chat_id: int) -> dict[str, Any]:
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": "Ann"}
    return {"id": chat_id, "type": "supergroup", "title": "Team"}


def _error(status: int, description: str, retry_after: int | None = None) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    return web.json_response(body, status=status)


async def _params(request: web.Request) -> dict[str, Any]:
    """The request's parameters, from a query string, a form or a JSON body, with JSON fields decoded."""
    raw: dict[str, Any] = dict(request.query)
    if request.can_read_body:
        if request.content_type == "application/json":
            with contextlib.suppress(ValueError):
                body = await request.json()
                if isinstance(body, dict):
                    return {**raw, **body}
        else:
            form = await request.post()
            raw.update({k: v for k, v in form.items() if isinstance(v, str)})
    decoded: dict[str, Any] = {}
    for key, value in raw.items():
        if key in _JSON_FIELDS and isinstance(value, str):
            try:
                decoded[key] = json.loads(value)
            except ValueError:
                decoded[key] = value
        else:
            decoded[key] = value
    return decoded


async def _first(*waits: Any) -> None:
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
