"""The Bot API through python-telegram-bot's ``Bot``: our calls and our errors.

PTB's own exceptions never leave this module: each becomes one of ``telegram_base``'s
:class:`~openhuman_desktop.channels.telegram_base.TelegramProblem` subclasses (``raise … from None``, so no
traceback carries PTB's text — ``Bot.initialize`` puts the token itself into the message of the
``InvalidToken`` it raises). Imported only once Telegram is enabled (PTB is not loaded otherwise).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, MessageEntity, Update
from telegram import error as tg
from telegram.request import HTTPXRequest

from openhuman_desktop.channels.telegram_base import (
    REDACTED,
    BadToken,
    Incoming,
    PollConflict,
    SlowDown,
    TelegramProblem,
    Undeliverable,
    Unreachable,
)
from openhuman_desktop.channels.telegram_format import Rendered, api_entities

ALLOWED_UPDATES = ("message", "callback_query")


class TelegramClient:
    """One bot on one Bot API server.

    Args:
        token: the bot's token (from the environment; never logged).
        api_url: the Bot API base URL (``https://api.telegram.org`` or a self-hosted server / a fake).
    """

    def __init__(self, token: str, api_url: str) -> None:
        # WORKAROUND: PTB 22 warns (PTBDeprecationWarning) each time it builds a RetryAfter unless time periods
        # are opted in as timedelta; we read them as timedelta anyway.
        os.environ.setdefault("PTB_TIMEDELTA", "true")
        base = api_url.rstrip("/")
        self._token = token
        self._bot = Bot(
            token, base_url=f"{base}/bot", base_file_url=f"{base}/file/bot",
            request=HTTPXRequest(connection_pool_size=32, connect_timeout=10.0, read_timeout=20.0,
                                 write_timeout=20.0, pool_timeout=10.0),
            get_updates_request=HTTPXRequest(connection_pool_size=2, connect_timeout=10.0, read_timeout=10.0,
                                             pool_timeout=10.0),
        )
        self.bot_id: int | None = None
        self.username = ""

    async def connect(self) -> None:
        """``getMe`` (the token works?) and ``deleteWebhook`` (so that ``getUpdates`` may poll; pending
        updates are kept)."""
        try:
            await self._bot.initialize()
            await self._bot.delete_webhook(drop_pending_updates=False)
        except Exception as exc:  # translated, never passed on (PTB's text may hold the token)
            raise self._translate(exc) from None
        self.bot_id = self._bot.id
        self.username = self._bot.username or ""

    async def who(self) -> None:
        """``getMe`` only: does the token work (``bot_id``, ``username``)?"""
        try:
            await self._bot.initialize()
        except Exception as exc:
            raise self._translate(exc) from None
        self.bot_id = self._bot.id
        self.username = self._bot.username or ""

    async def updates(self, offset: int | None, timeout: float) -> list[Incoming]:
        """``getUpdates``: updates from ``offset`` on (which confirms all before it), waiting up to ``timeout`` s."""
        try:
            found = await self._bot.get_updates(offset=offset, timeout=int(timeout),
                                                allowed_updates=list(ALLOWED_UPDATES))
        except Exception as exc:
            raise self._translate(exc) from None
        return [_incoming(update) for update in found]

    async def send(self, chat_id: int, message: Rendered, buttons: Sequence[tuple[str, str]] = ()) -> int:
        """``sendMessage``; returns the new message's id. ``buttons``: (label, callback data), one row."""
        sent = await self._call("send_message", chat_id=chat_id, text=message.text,
                                entities=_entities(message), reply_markup=_keyboard(buttons))
        return int(sent.message_id)

    async def draft(self, chat_id: int, draft_id: int, message: Rendered) -> None:
        """``sendMessageDraft``: a streamed preview in a private chat."""
        await self._call("send_message_draft", chat_id=chat_id, draft_id=draft_id, text=message.text,
                         entities=_entities(message))

    async def edit(self, chat_id: int, message_id: int, message: Rendered,
                   buttons: Sequence[tuple[str, str]] = ()) -> None:
        """``editMessageText`` (no ``buttons``: the keyboard goes)."""
        await self._call("edit_message_text", chat_id=chat_id, message_id=message_id, text=message.text,
                         entities=_entities(message), reply_markup=_keyboard(buttons))

    async def delete(self, chat_id: int, message_id: int) -> None:
        await self._call("delete_message", chat_id=chat_id, message_id=message_id)

    async def typing(self, chat_id: int) -> None:
        """``sendChatAction`` typing (shown for about 5 s)."""
        await self._call("send_chat_action", chat_id=chat_id, action="typing")

    async def answer(self, callback_id: str, text: str) -> None:
        """``answerCallbackQuery``: the little notice after a button press."""
        await self._call("answer_callback_query", callback_query_id=callback_id, text=text[:200])

    async def aclose(self) -> None:
        try:
            await self._bot.shutdown()
        except Exception as exc:
            raise self._translate(exc) from None

    async def _call(self, method: str, **arguments: Any) -> Any:
        try:
            return await getattr(self._bot, method)(**arguments)
        except Exception as exc:
            raise self._translate(exc) from None

    def _translate(self, exc: Exception) -> TelegramProblem:
        text = str(exc).replace(self._token, REDACTED) if self._token else str(exc)
        if isinstance(exc, tg.RetryAfter):
            return SlowDown(max(exc._retry_after.total_seconds(), 0.0))  # noqa: SLF001 - see WORKAROUND above
        if isinstance(exc, tg.InvalidToken):
            return BadToken("Telegram refused the bot token (401 Unauthorized)")
        if isinstance(exc, tg.Conflict):
            return PollConflict("another program is reading this bot's updates (409 Conflict)")
        if isinstance(exc, tg.TimedOut):
            return Unreachable("Telegram did not answer in time")
        if isinstance(exc, tg.Forbidden | tg.BadRequest | tg.ChatMigrated):
            return Undeliverable(text)
        if isinstance(exc, tg.NetworkError):
            return Unreachable(_network_sentence(text))
        if isinstance(exc, tg.TelegramError):
            return Unreachable(text)
        raise exc  # a bug of ours, not Telegram's: let it surface


def _network_sentence(text: str) -> str:
    if "ConnectError" in text or "connection" in text.lower():
        return "cannot connect"
    return text.removeprefix("httpx.HTTPError: ")


def _entities(message: Rendered) -> list[MessageEntity] | None:
    entities = api_entities(message)
    return [MessageEntity(**entity) for entity in entities] or None


def _keyboard(buttons: Sequence[tuple[str, str]]) -> InlineKeyboardMarkup | None:
    if not buttons:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=data) for label, data in buttons]])


def _incoming(update: Update) -> Incoming:
    if update.callback_query is not None:
        query = update.callback_query
        message = query.message
        chat_id = message.chat.id if message is not None else (query.from_user.id if query.from_user else None)
        return Incoming(update.update_id, chat_id, callback_id=query.id, data=query.data,
                        message_id=message.message_id if message is not None else None,
                        user_id=query.from_user.id if query.from_user else None)
    message = update.effective_message
    chat = update.effective_chat
    user = update.effective_user
    return Incoming(update.update_id, chat.id if chat is not None else None,
                    text=message.text if message is not None else None,
                    message_id=message.message_id if message is not None else None,
                    user_id=user.id if user is not None else None)
