"""The Telegram channel (CONTRACT §9): Bot API long polling inside the app's own loop.

Why our own ``getUpdates`` loop rather than PTB's ``Updater.start_polling``: the Updater does hand each update
to its queue before it moves the offset (so a queue whose ``put`` records the message would be durable), but
its retry loop gives up for good on a 401 (a token fixed on the server side would need a restart), tells
nobody about a 429 or about the recovery (so the status could not say ``degraded`` / ``connected``), and dies
on any exception from the queue. The loop below keeps the same order — record, then confirm with the next
offset — and owns its back-off and status. PTB's ``Bot`` does the HTTP (``telegram_client``).

Durability: an update's offset is passed to Telegram (which confirms it) only after ``hub.submit`` committed
its run with ``source_key = telegram:<bot id>:<update id>``. Killed before the commit, Telegram sends the
update again; killed after it, the update comes again and finds the run it already has.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import zlib
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from openhuman_desktop import events
from openhuman_desktop.channels.base import (
    CONNECTED,
    DEGRADED,
    DISABLED,
    STARTING,
    STOPPED,
    ChannelState,
    ChannelStatus,
    InboundMessage,
)
from openhuman_desktop.channels.hub import ChannelHub
from openhuman_desktop.channels.telegram_base import (
    BadToken,
    Incoming,
    PollConflict,
    SlowDown,
    TelegramProblem,
    TokenRedactor,
    Undeliverable,
    Unreachable,
)
from openhuman_desktop.channels.telegram_format import Rendered, render, split
from openhuman_desktop.clock import Clock
from openhuman_desktop.config import TelegramSettings
from openhuman_desktop.errors import Conflict, InvalidInput, NotFound, UserFacingError
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.secret_env import secret_from
from openhuman_desktop.store.records import FIX_IN_SKILLS, GO_AHEAD, RETRY, SKIP, Escalation
from openhuman_desktop.supervisor import TaskSupervisor, cancel_and_wait

if TYPE_CHECKING:
    from openhuman_desktop.channels.telegram_client import TelegramClient

log = logging.getLogger(__name__)

POLL_SECONDS = 25.0
FIRST_RETRY_SECONDS = 1.0
LONGEST_RETRY_SECONDS = 60.0
TYPING_EVERY_SECONDS = 4.0  # Telegram shows "typing…" for about 5 s
TYPING_AT_MOST = 150  # refreshes (10 minutes): a run that long still gets its answer, just no more "typing…"
DRAFT_EVERY_SECONDS = 0.5
EDIT_EVERY_SECONDS = 1.0  # group previews: at most one edit a second
STRANGER_EVERY_SECONDS = 86_400.0
SEND_ATTEMPTS = 3  # a 429 while sending the answer: wait as told, this many times, then let the hub retry
APPROVE, DISMISS, FIX = "approve", "dismiss", "fix"
# A card's choices (decided by the core, the same on every surface) as Telegram's inline buttons.
_BUTTONS = {GO_AHEAD: ("Go ahead", APPROVE), RETRY: ("Retry", APPROVE), FIX_IN_SKILLS: ("Fix in Skills", FIX),
            SKIP: ("Skip", DISMISS)}


@dataclass
class _RunView:
    """What a chat sees of one run while it works: "typing…" and the streamed preview."""

    chat_id: int
    draft_id: int
    text: str = ""
    shown: str = ""
    shown_part: str = ""  # the preview's text as last sent
    preview_id: int | None = None
    finished: bool = False
    sending: bool = False
    flusher: asyncio.Task[None] | None = None
    typing: asyncio.Task[None] | None = None
    sent_parts: int = 0


@dataclass
class _Card:
    """A pending card as this channel shows it."""

    id: str
    title: str
    description: str = ""
    choices: tuple[str, ...] = (GO_AHEAD, SKIP)
    note: str = ""
    messages: list[tuple[int, int]] = field(default_factory=list)  # (chat id, message id) of the card
    missing: list[int] = field(default_factory=list)  # chats to send it to once Telegram can be reached


class TelegramChannel:
    """The Telegram channel as the hub drives it.

    Args:
        hub: where messages go and approvals are decided.
        settings: the current ``[channels.telegram]`` (read anew each time: allow-list edits apply at once).
        clock: for back-off and throttling.
        supervisor: owns the background tasks.
        bus: ``StatusChanged`` is published when the state changes.
        environ: where the token is read (``os.environ``).
        poll_seconds: the long-poll timeout.
    """

    name = "telegram"

    def __init__(self, hub: ChannelHub, settings: Callable[[], TelegramSettings], clock: Clock,
                 supervisor: TaskSupervisor, bus: events.EventBus, environ: Mapping[str, str] | None = None,
                 poll_seconds: float = POLL_SECONDS) -> None:
        self._hub = hub
        self._settings = settings
        self._clock = clock
        self._supervisor = supervisor
        self._bus = bus
        self._environ = environ if environ is not None else os.environ
        self._poll_seconds = poll_seconds
        self._in_use: TelegramSettings | None = None
        self._client: TelegramClient | None = None
        self._redactor: TokenRedactor | None = None
        self._poller: asyncio.Task[None] | None = None
        self._offset: int | None = None
        self._state: ChannelState = STOPPED
        self._reason = "Not started."
        self._views: dict[str, _RunView] = {}
        self._cards: dict[str, _Card] = {}
        self._told: dict[int, float] = {}  # stranger chat -> when it was last told its id (memory only)
        self._tasks: set[asyncio.Task[None]] = set()
        self._drafts_work = True  # sendMessageDraft (Bot API 9.3+); an older self-hosted server lacks it

    # --- life cycle ------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Begin polling in the background; a missing or refused token shows in the status, never raises."""
        settings = self._in_use = self._settings()
        if not settings.enabled:
            self._set(DISABLED, "Off ([channels.telegram] enabled = false in config.toml).")
            return
        token = secret_from(self._environ, settings.token_env).strip()
        if not token:
            self._set(DEGRADED, f"No bot token: the environment variable {settings.token_env} is not set or empty — "
                                f"put the token @BotFather gave you in {settings.token_env} and restart OpenHuman.")
            return
        self._redactor = TokenRedactor(token)
        self._redactor.install()
        self._client = _new_client(token, settings.api_url)
        self._offset = None
        self._drafts_work = True
        self._set(STARTING, "Connecting to Telegram.")
        self._poller = self._supervisor.spawn(self._poll(self._client), name="telegram-poll")

    async def stop(self) -> None:
        """Stop polling, confirm what was recorded, let go of the connection."""
        poller, self._poller = self._poller, None
        await cancel_and_wait(poller)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._views.clear()
        client, self._client = self._client, None
        if client is not None:
            if self._offset is not None and self._state == CONNECTED:  # confirm what was recorded (else it is
                with contextlib.suppress(TelegramProblem, TimeoutError):  # sent again, and found recorded)
                    await asyncio.wait_for(client.updates(self._offset, 0), 2.0)
            with contextlib.suppress(TelegramProblem):
                await client.aclose()
        if self._redactor is not None:
            self._redactor.remove()
            self._redactor = None
        if self._state != DISABLED:
            self._set(STOPPED, "Stopped with the app.")

    async def reconfigure(self) -> None:
        """Restart when enabled, token_env or api_url changed (the allow-list applies without a restart)."""
        new, old = self._settings(), self._in_use
        if old is not None and (new.enabled, new.token_env, new.api_url) == (old.enabled, old.token_env, old.api_url):
            return
        await self.stop()
        await self.start()

    def status(self) -> ChannelStatus:
        enabled = bool(self._in_use and self._in_use.enabled)
        return ChannelStatus(enabled=enabled, state=self._state, state_reason=self._reason)

    def _set(self, state: ChannelState, reason: str) -> None:
        if (state, reason) == (self._state, self._reason):
            return
        was = self._state
        self._state, self._reason = state, reason
        if state == DEGRADED:
            log.warning("telegram: %s", reason)
        elif state == CONNECTED and was in (DEGRADED, STARTING):
            log.info("telegram: connected%s", " again" if was == DEGRADED else "")
        self._bus.publish(events.StatusChanged())

    # --- polling ---------------------------------------------------------------------------------------

    async def _poll(self, client: TelegramClient) -> None:
        """getUpdates forever: record each update, then confirm it with the next offset; back off on trouble."""
        wait = FIRST_RETRY_SECONDS
        while True:
            try:
                if client.bot_id is None:
                    await client.connect()
                    self._connected(client)
                # After trouble, a quick poll first: its answer shows at once that Telegram works again.
                timeout = self._poll_seconds if self._state == CONNECTED else 0.0
                updates = await client.updates(self._offset, timeout)
            except SlowDown as exc:
                self._set(DEGRADED, f"Telegram asked the bot to slow down (429 Too Many Requests) — waiting "
                                    f"{exc.retry_after:.0f} s as told, then going on by itself.")
                await self._clock.sleep(exc.retry_after)
                continue
            except TelegramProblem as exc:
                self._set(DEGRADED, self._reason_for(exc))
                await self._clock.sleep(wait)
                wait = min(wait * 2, LONGEST_RETRY_SECONDS)
                continue
            except Exception:  # a bug, not Telegram: said in the log, and polling goes on
                log.exception("telegram: polling failed")
                self._set(DEGRADED, "Reading Telegram messages failed unexpectedly — details are in the log file; "
                                    "retrying by itself.")
                await self._clock.sleep(wait)
                wait = min(wait * 2, LONGEST_RETRY_SECONDS)
                continue
            wait = FIRST_RETRY_SECONDS
            self._connected(client)
            for update in updates:
                try:
                    await self._take(client, update)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # not recorded: the offset stays, Telegram sends it again
                    log.exception("telegram: update %s could not be recorded", update.update_id)
                    self._set(DEGRADED, f"A Telegram message could not be recorded ({_sentence(exc)}) — it is "
                                        f"fetched again and retried by itself; see the log file.")
                    await self._clock.sleep(wait)
                    wait = min(wait * 2, LONGEST_RETRY_SECONDS)
                    break
                self._offset = update.update_id + 1

    def _connected(self, client: TelegramClient) -> None:
        was = self._state
        self._set(CONNECTED, f"Connected as @{client.username}." if client.username else "Connected.")
        if was != CONNECTED and any(card.missing for card in self._cards.values()):
            self._spawn(self._send_waiting_cards(client), "telegram-cards-again")

    def _reason_for(self, exc: TelegramProblem) -> str:
        settings = self._in_use or self._settings()
        if isinstance(exc, BadToken):
            return (f"Telegram refused the bot token in {settings.token_env} (401 Unauthorized: wrong or revoked) — "
                    f"get the token from @BotFather, put it in {settings.token_env} and restart OpenHuman; "
                    f"retrying by itself meanwhile.")
        if isinstance(exc, PollConflict):
            return ("Another program is reading this bot's messages (409 Conflict) — stop the other copy of the bot "
                    "or give this one a token of its own; retrying by itself.")
        return (f"Telegram cannot be reached at {settings.api_url} ({exc}) — check the network connection "
                f"(or [channels.telegram] api_url); retrying by itself.")

    async def _take(self, client: TelegramClient, update: Incoming) -> None:
        """Handle one update; returns once it is durably recorded (or needs no record). Raises to be retried."""
        if update.chat_id is None:
            return
        if update.callback_id is not None:
            await self._pressed(client, update)
            return
        if update.chat_id not in self._settings().allowed_chat_ids:
            await self._tell_stranger(client, update.chat_id)
            return
        if not update.text or not update.text.strip():
            await self._say(client, update.chat_id, "I can only read text messages.")
            return
        command = update.text.split()[0].split("@", 1)[0]
        if command == "/start":  # what Telegram sends when a chat opens the bot
            await self._say(client, update.chat_id, "Hello! Write to me here like you would in the desktop chat "
                                                    "(/stop stops an answer in progress).")
            return
        if command == "/stop":  # the stopped run's own answer says "Stopped by you."
            if not await self._hub.stop_thread(f"telegram:{update.chat_id}"):
                await self._say(client, update.chat_id, "Nothing is running here to stop.")
            return
        message = InboundMessage(f"telegram:{update.chat_id}", update.text,
                                 source_key=f"telegram:{client.bot_id}:{update.update_id}")
        try:
            run = await self._hub.submit(message)  # commits the run: only now may the offset move on
        except InvalidInput as exc:  # too long: say so (nothing to record, nothing to retry)
            await self._say(client, update.chat_id, f"I could not take that message: {exc}")
            return
        if not run.is_finished:
            self._view(run.id, run.thread_id)

    async def _tell_stranger(self, client: TelegramClient, chat_id: int) -> None:
        now = self._clock.monotonic()
        told = self._told.get(chat_id)
        if told is not None and now - told < STRANGER_EVERY_SECONDS:
            return
        self._told[chat_id] = now
        log.info("telegram: a message from chat %s, which is not in allowed_chat_ids, was ignored", chat_id)
        await self._say(client, chat_id, f"Sorry, this assistant only talks to its owner's chats. Your chat id is "
                                         f"{chat_id}: the owner can add it to allowed_chat_ids in config.toml.")

    async def _say(self, client: TelegramClient, chat_id: int, text: str) -> None:
        """A short notice; failing to send it is logged, not retried."""
        try:
            await client.send(chat_id, Rendered(text))
        except TelegramProblem as exc:
            log.info("telegram: a notice to chat %s was not sent (%s)", chat_id, exc)

    # --- approval buttons ------------------------------------------------------------------------------

    async def _pressed(self, client: TelegramClient, update: Incoming) -> None:
        """Go ahead / Skip, when the person who pressed may decide: the chat must be allowed *and* the presser one
        of ``allowed_user_ids`` (by default the owner's private chats) — in an allowed group, any member could
        press otherwise."""
        assert update.callback_id is not None and update.chat_id is not None
        settings = self._settings()
        if update.chat_id not in settings.allowed_chat_ids:
            log.info("telegram: a button press from chat %s, which is not allowed, was ignored", update.chat_id)
            await self._answer(client, update.callback_id, "Only the owner's chats can decide this.")
            return
        if update.user_id is None or update.user_id not in settings.approvers:
            log.info("telegram: a button press in chat %s by user %s, who is not in allowed_user_ids, was ignored",
                     update.chat_id, update.user_id)
            await self._answer(client, update.callback_id, "Only the owner can decide this. (Your user id is "
                                                           f"{update.user_id}: the owner can add it to "
                                                           "allowed_user_ids in config.toml.)")
            return
        action, _, escalation_id = (update.data or "").partition(":")
        try:
            if action == APPROVE:
                await self._hub.approve(escalation_id)
                answer = "Going ahead."
            elif action == DISMISS:
                await self._hub.dismiss(escalation_id)
                answer = "Skipped."
            elif action == FIX:  # no Skills tab here: the skill's state, and where to fix it (in full, in the chat)
                answer = await self._hub.skill_advice(escalation_id)
                await self._say(client, update.chat_id, answer)
            else:
                answer = "This button is not one of mine."
        except NotFound:
            answer = "This card does not exist any more."
        except Conflict as exc:
            answer = str(exc)
        await self._answer(client, update.callback_id, answer)

    async def _answer(self, client: TelegramClient, callback_id: str, text: str) -> None:
        try:
            await client.answer(callback_id, text)
        except TelegramProblem as exc:
            log.info("telegram: a button press was not answered (%s)", exc)

    def card_changed(self, escalation: Escalation) -> None:
        """Pending: a card with Go ahead / Skip to its chat (a heartbeat card: every allowed private chat);
        resolved: the card says so and loses its buttons."""
        if self._client is None:
            return
        self._spawn(self._show_card(self._client, escalation), f"telegram-card-{escalation.id}")

    async def _show_card(self, client: TelegramClient, card: Escalation) -> None:
        if card.status == "pending":
            if card.id in self._cards:
                return
            shown = self._cards[card.id] = _Card(card.id, card.title, card.description, card.choices, card.note,
                                                 missing=self._card_chats(card))
            await self._send_card(client, shown)
            return
        resolved = self._cards.pop(card.id, None)
        if resolved is None:
            return
        verdict = "Approved" if card.status == "approved" else "Skipped"
        for chat_id, message_id in resolved.messages:
            try:
                await client.edit(chat_id, message_id, render(f"{verdict}: {card.title}"))
            except TelegramProblem as exc:
                log.info("telegram: card %s in chat %s was not updated (%s)", card.id, chat_id, exc)

    async def _send_card(self, client: TelegramClient, card: _Card) -> None:
        """Send the card to the chats that do not have it yet; a chat Telegram cannot be reached for now keeps
        waiting (sent once the channel is connected again)."""
        note = f"\n_{card.note}_" if card.note else ""
        text = render(f"**Approval needed: {card.title}**\n{card.description}{note}".rstrip())
        buttons = tuple((_BUTTONS[choice][0], f"{_BUTTONS[choice][1]}:{card.id}")
                        for choice in card.choices if choice in _BUTTONS)
        waiting, card.missing = card.missing, []
        for chat_id in waiting:
            try:
                card.messages.append((chat_id, await client.send(chat_id, text, buttons)))
            except (Unreachable, SlowDown, BadToken) as exc:
                log.info("telegram: card %s waits for chat %s (%s)", card.id, chat_id, exc)
                card.missing.append(chat_id)
            except TelegramProblem as exc:
                log.warning("telegram: card %s cannot be shown in chat %s (%s)", card.id, chat_id, exc)

    async def _send_waiting_cards(self, client: TelegramClient) -> None:
        for card in list(self._cards.values()):
            if card.missing and self._cards.get(card.id) is card:  # still pending
                await self._send_card(client, card)

    def _card_chats(self, card: Escalation) -> list[int]:
        """A conversation's card: its chat; a heartbeat card: the allowed private chats of people who may press."""
        settings = self._settings()
        chat = _chat_of(card.thread_id)
        if chat is not None:
            return [chat] if chat in settings.allowed_chat_ids else []
        return [chat_id for chat_id in settings.allowed_chat_ids if chat_id > 0 and chat_id in settings.approvers]

    # --- a run at work: typing, streaming --------------------------------------------------------------

    def run_started(self, run: Run) -> None:
        self._view(run.id, run.thread_id)

    def progress(self, run_id: str, thread_id: str, node: str) -> None:
        """Nothing to show per node in Telegram ("typing…" runs until the answer)."""

    def text_streamed(self, run_id: str, thread_id: str, delta: str) -> None:
        view = self._view(run_id, thread_id)
        if view is None or view.finished:
            return
        view.text += delta
        if (view.flusher is None or view.flusher.done()) and self._client is not None:
            view.flusher = self._spawn(self._flush(self._client, view), f"telegram-stream-{run_id}")

    def _view(self, run_id: str, thread_id: str) -> _RunView | None:
        view = self._views.get(run_id)
        if view is not None:
            return view
        chat = _chat_of(thread_id)
        if chat is None or self._client is None:
            return None
        view = self._views[run_id] = _RunView(chat, draft_id=zlib.crc32(run_id.encode()) % 2_000_000_000 + 1)
        view.typing = self._spawn(self._keep_typing(self._client, view), f"telegram-typing-{run_id}")
        return view

    async def _keep_typing(self, client: TelegramClient, view: _RunView) -> None:
        for _ in range(TYPING_AT_MOST):
            if view.finished:
                return
            with contextlib.suppress(TelegramProblem):
                await client.typing(view.chat_id)
            await self._clock.sleep(TYPING_EVERY_SECONDS)

    async def _flush(self, client: TelegramClient, view: _RunView) -> None:
        """Show the text so far, then at most once per interval while more comes (drafts in private chats,
        one edited preview message in groups)."""
        while not view.finished and view.text != view.shown:
            text = view.text
            parts = split(render(text))
            drafting = view.chat_id > 0 and self._drafts_work
            if parts and parts[0].text != view.shown_part:
                view.sending = True
                try:
                    if drafting:
                        await client.draft(view.chat_id, view.draft_id, parts[0])
                    elif view.preview_id is None:
                        view.preview_id = await client.send(view.chat_id, parts[0])
                    else:
                        await client.edit(view.chat_id, view.preview_id, parts[0])
                except SlowDown as exc:
                    view.sending = False
                    await self._clock.sleep(exc.retry_after)
                    continue
                except TelegramProblem as exc:  # a preview is a nicety: the answer still comes
                    if drafting and not isinstance(exc, Unreachable):  # a Bot API server without drafts
                        log.info("telegram: drafts do not work here (%s); private chats get a preview message", exc)
                        self._drafts_work = False
                        continue
                    log.info("telegram: a streamed preview in chat %s failed (%s)", view.chat_id, exc)
                    return
                finally:
                    view.sending = False
                view.shown_part = parts[0].text
            view.shown = text
            if view.finished:
                return
            await self._clock.sleep(DRAFT_EVERY_SECONDS if drafting else EDIT_EVERY_SECONDS)

    # --- the answer ------------------------------------------------------------------------------------

    async def deliver(self, run: Run) -> None:
        """Send the run's answer (or its one-sentence error) as real messages, split at Telegram's limit.

        Raises:
            TelegramProblem: Telegram is not reachable now (the hub tries again later).
        """
        chat = _chat_of(run.thread_id)
        if chat is None:
            log.warning("telegram: run %s has no chat to answer (thread %s)", run.id, run.thread_id)
            return
        client = self._client
        if client is None:
            raise Unreachable(f"the Telegram channel is {self._state}")
        view = self._views.get(run.id) or _RunView(chat, draft_id=1)
        view.finished = True
        flusher = view.flusher
        if flusher is not None and not flusher.done():
            if not view.sending:  # waiting for its next turn: no more previews
                flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await flusher  # a preview call in flight finishes first: it must not land after the answer
        parts = split(render(_answer_of(run)))
        for index in range(view.sent_parts, len(parts)):
            try:
                await self._send_part(client, chat, parts[index])
            except Undeliverable as exc:
                log.warning("telegram: the answer of run %s cannot be delivered to chat %s (%s); it is dropped",
                            run.id, chat, exc)
                break
            view.sent_parts = index + 1
            self._views[run.id] = view  # a retry after a failed part sends only the parts still missing
        if view.typing is not None:
            view.typing.cancel()
        if view.preview_id is not None:
            with contextlib.suppress(TelegramProblem):
                await client.delete(chat, view.preview_id)  # the answer above replaces the preview
        self._views.pop(run.id, None)

    async def _send_part(self, client: TelegramClient, chat: int, part: Rendered) -> None:
        """One message of an answer: flood control waited out as told; formatting Telegram refuses is dropped
        rather than the answer (the same text, plain)."""
        for attempt in range(SEND_ATTEMPTS):
            try:
                await client.send(chat, part)
                return
            except SlowDown as exc:
                if attempt == SEND_ATTEMPTS - 1:
                    raise
                await self._clock.sleep(exc.retry_after)
            except Undeliverable as exc:
                if not part.entities:
                    raise
                log.warning("telegram: chat %s refused the answer's formatting (%s); it is sent as plain text",
                            chat, exc)
                part = Rendered(part.text)

    # --- helpers ---------------------------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None] | None:
        """A background task of this channel (None once the app is shutting down: nothing more to show)."""
        try:
            task: asyncio.Task[None] = self._supervisor.spawn(coro, name=name)
        except RuntimeError:  # the supervisor is closing (spawn closed the coroutine)
            return None
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

def _new_client(token: str, api_url: str) -> TelegramClient:
    """PTB is loaded here, once Telegram is enabled: importing it costs every start-up tens of ms otherwise."""
    from openhuman_desktop.channels.telegram_client import TelegramClient

    return TelegramClient(token, api_url)


def _chat_of(thread_id: str | None) -> int | None:
    """``telegram:<chat id>`` → the chat id (None for any other thread)."""
    source, _, chat = (thread_id or "").partition(":")
    if source != "telegram":
        return None
    try:
        return int(chat)
    except ValueError:
        return None


def _answer_of(run: Run) -> str:
    if run.status == "completed" and run.response and run.response.strip():
        return run.response
    if run.error:
        return run.error
    return "This message ended without an answer." if run.status != "cancelled" else "This message was cancelled."


def _sentence(exc: Exception) -> str:
    return str(exc) if isinstance(exc, UserFacingError) else type(exc).__name__


async def doctor_check(settings: TelegramSettings, environ: Mapping[str, str] | None = None,
                       timeout: float = 15.0) -> tuple[bool, str, str]:
    """``doctor``'s Telegram line: (ok, what was found, the fix). Asks ``getMe`` only (nothing is changed)."""
    if not settings.enabled:
        return True, "off ([channels.telegram] enabled = false)", ""
    env = settings.token_env
    token = secret_from(environ, env).strip()
    if not token:
        return False, f"the environment variable {env} is not set or empty", \
            f"export {env}=<the token @BotFather gave you> before starting OpenHuman"
    client = _new_client(token, settings.api_url)
    try:
        await asyncio.wait_for(client.who(), timeout)
    except BadToken:
        return False, f"Telegram refused the bot token in {env} (401 Unauthorized: wrong or revoked)", \
            f"get the bot's token from @BotFather (/mybots → API Token) and put it in {env}"
    except (TelegramProblem, TimeoutError) as exc:
        reason = str(exc) or "no answer in time"
        return False, f"Telegram cannot be reached at {settings.api_url} ({reason})", \
            "check the network connection or [channels.telegram] api_url in config.toml"
    finally:
        with contextlib.suppress(TelegramProblem):
            await client.aclose()
    if not settings.allowed_chat_ids:
        return False, f"@{client.username} works, but allowed_chat_ids is empty, so nobody can talk to it", \
            "send the bot a message (it answers with your chat id) and put that id in allowed_chat_ids in config.toml"
    count = len(settings.allowed_chat_ids)
    return True, f"@{client.username} answers; {count} allowed chat{'s' if count != 1 else ''}", ""
