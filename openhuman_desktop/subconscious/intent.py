"""Write intent: does a task or message ask the assistant to change something (send, post, write) or only look?

The words decide first (:mod:`intent_words`). A local model that passed its probes is asked as well, and its
answer may only narrow: a "read" from it turns a "write" of the words into "read"; a "write" from it never
turns "read" into "write" on its own — the task stays read-only and shows "May write?" for the person to
confirm (DESIGN §2). A wrong "write" bypasses the approval gate; a wrong "read" costs one click on a card.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from openhuman_desktop.errors import AppError
from openhuman_desktop.llm.base import ChatRequest, LlmClient, Message
from openhuman_desktop.subconscious.intent_words import READ, WRITE, read_request

__all__ = ["INTENTS", "KEYWORD", "MODEL", "READ", "USER", "WRITE", "BackgroundIntents", "ChatIntentJudge",
           "IntentClassifier", "IntentJudgement", "KeywordIntentClassifier", "ModelIntentClassifier",
           "classify_by_keywords", "narrow", "parse_answer", "parse_intent"]

log = logging.getLogger(__name__)

INTENTS = (READ, WRITE)
KEYWORD = "keyword"
MODEL = "model"
USER = "user"
"""Where a task's intent came from (``intent_source``): the words, the model (it agreed or narrowed), the person."""


def classify_by_keywords(title: str) -> str:
    """The intent the words alone give: ``write`` only when the request's own instruction asks for a change."""
    return read_request(title).intent


@dataclass(frozen=True)
class IntentJudgement:
    """What a task gets, and what the person is asked to confirm.

    Attributes:
        intent: ``read`` or ``write``: what the task may do now.
        source: ``keyword`` or ``model``: where that came from.
        suggestion: ``write`` when the words or the model hear a change but the task stays read-only ("May
            write?"), else None.
        model: the model's own answer, or None when it gave none (not configured, not trusted, unsure, down).
    """

    intent: str
    source: str
    suggestion: str | None = None
    model: str | None = None


def narrow(words: str, model: str | None) -> IntentJudgement:
    """Combine the words' intent with the model's: the model may narrow "write" to "read", never widen.

    Args:
        words: the intent the words give.
        model: the model's answer, or None when it gave none.
    """
    if model is None:
        return IntentJudgement(words, KEYWORD)
    if model == words:
        return IntentJudgement(words, MODEL, model=model)
    if words == WRITE:   # the model hears no change: read-only, and the person may confirm the words' "write"
        return IntentJudgement(READ, MODEL, suggestion=WRITE, model=model)
    return IntentJudgement(READ, KEYWORD, suggestion=WRITE, model=model)   # never widened on the model's word


class IntentClassifier(Protocol):
    """Decides a task's intent (the words, narrowed by a model when one is trusted)."""

    async def classify(self, title: str) -> IntentJudgement:
        ...


class KeywordIntentClassifier:
    """Classifies by the words only (no model configured or reachable)."""

    async def classify(self, title: str) -> IntentJudgement:
        return IntentJudgement(classify_by_keywords(title), KEYWORD)


INTENT_SCHEMA = {
    "type": "object",
    "properties": {"intent": {"type": "string", "enum": list(INTENTS)}, "confident": {"type": "boolean"}},
    "required": ["intent", "confident"],
}
INTENT_PROMPT = (
    "Classify a task for a personal assistant. Answer \"write\" if doing the task means changing something "
    "(sending, posting, writing, creating, deleting, scheduling, notifying someone), or \"read\" if it only "
    "means looking, checking, monitoring or summarising. Say whether you are sure. Answer with JSON only, "
    "for example {\"intent\": \"read\", \"confident\": true}."
)
REQUEST_PREFIX = "Task: "
# The answer is ~15 tokens; the cap keeps a model that rambles from holding the server (issue 10, item 2).
INTENT_MAX_TOKENS = 40

# Titles with known answers, asked once per model before its answers count (issue 10, item 8): both small
# models tried answered every title with one constant. Half read, half write; the keywords get them all.
PROBES = {
    "Send the weekly report to Alex": WRITE,
    "Check whether the backup finished": READ,
    "Delete the old drafts in the notes folder": WRITE,
    "Summarize the new memories from today": READ,
    "Create a shopping list in notes/shopping.md": WRITE,
    "Monitor the free disk space": READ,
}
# How many probes a model may get wrong and still be trusted: none. SmolLM2-135M got 5 of 6 and then
# called two of four reading tasks "write" (the keywords got all eight right).
PROBE_MISSES_ALLOWED = 0


class ModelIntentClassifier:
    """The words' intent, narrowed by the local model (:func:`narrow`); the words alone when the model is not
    configured, not calibrated, not confident or does not answer.

    Before a model's answers count it gets the :data:`PROBES` (once per model, remembered in memory): a
    model that gets more than :data:`PROBE_MISSES_ALLOWED` wrong, or answers them all alike, is not asked
    again. An answer with ``"confident": false`` counts as no answer.

    Args:
        client: returns the local-tier client (None when not configured).
        timeout: seconds to wait for the model, per question.
    """

    def __init__(self, client: Callable[[], LlmClient | None], timeout: float = 20.0) -> None:
        self._client = client
        self._timeout = timeout
        self._calibrated: dict[str, bool] = {}  # by client description: are this model's answers usable?
        self._calibrating = asyncio.Lock()

    async def classify(self, title: str) -> IntentJudgement:
        return narrow(classify_by_keywords(title), await self.model_intent(title))

    async def model_intent(self, title: str, *, calibrate: bool = True) -> str | None:
        """The model's confident answer for ``title``, or None (no model, not trusted, unsure, no answer).

        Args:
            calibrate: probe a model not probed yet first; with False such a model gives no answer (a chat
                message must not wait for six probes).
        """
        client = self._client()
        if client is None:
            return None
        try:
            if not calibrate and client.description not in self._calibrated:
                return None
            if not await self._trusted(client):
                return None
            answer = await self._ask(client, title)
        except (AppError, TimeoutError) as exc:
            # DEBUG: one line per task would be 100,000 lines for a long HEARTBEAT.md (callers summarise).
            log.debug("intent of a task decided by keywords (model: %s)", exc or type(exc).__name__)
            return None
        if answer is None:
            return None
        intent, confident = answer
        if not confident:
            log.debug("intent of a task decided by keywords (the model was not sure)")
            return None
        return intent

    async def trusts_model(self) -> bool:
        """Whether the local model passed the probes (asking them now the first time); False without a model.

        Raises:
            AppError / TimeoutError: the model did not answer.
        """
        client = self._client()
        return client is not None and await self._trusted(client)

    async def raw_answer(self, title: str) -> tuple[str, bool] | None:
        """The model's own ``(intent, confident)`` for ``title``, probes or not (for measuring it), or None.

        Raises:
            AppError / TimeoutError: no model, or it did not answer.
        """
        client = self._client()
        if client is None:
            raise AppError("no local model is configured")
        return await self._ask(client, title)

    async def _trusted(self, client: LlmClient) -> bool:
        """Whether ``client``'s model passed the probes (asking them the first time).

        Raises:
            AppError / TimeoutError: the model did not answer (nothing is remembered: asked again later).
        """
        key = client.description
        async with self._calibrating:
            if key in self._calibrated:
                return self._calibrated[key]
            answers = [await self._ask(client, probe) for probe in PROBES]
            given = [answer[0] if answer else None for answer in answers]
            misses = sum(answer != expected for answer, expected in zip(given, PROBES.values(), strict=True))
            trusted = misses <= PROBE_MISSES_ALLOWED and len(set(given)) > 1
            self._calibrated[key] = trusted
        if trusted:
            log.info("intent: %s passed %d of %d probes; its answers count", key, len(PROBES) - misses, len(PROBES))
        else:
            log.info("intent: %s got %d of %d probes right (answers %s); keywords decide for it", key,
                     len(PROBES) - misses, len(PROBES), ", ".join(sorted({str(g) for g in given})))
        return trusted

    async def _ask(self, client: LlmClient, title: str) -> tuple[str, bool] | None:
        request = ChatRequest(
            [Message("system", INTENT_PROMPT), Message("user", f"{REQUEST_PREFIX}{title}")],
            json_schema=INTENT_SCHEMA, schema_name="intent", temperature=0, timeout=self._timeout,
            max_tokens=INTENT_MAX_TOKENS,
        )
        async with asyncio.timeout(self._timeout):
            response = await client.chat(request)
        answer = parse_answer(response.content)
        if answer is None:
            log.debug("the model's intent answer was unusable: %r", response.content[:80])
        return answer


def parse_answer(content: str) -> tuple[str, bool] | None:
    """``(intent, confident)`` from an answer like ``{"intent": "write", "confident": true}``.

    A missing ``confident`` counts as sure (the probes vouch for the model); anything but ``false`` (or
    "false", "no") too.
    """
    intent = parse_intent(content)
    if intent is None:
        return None
    answer = _json_object(content) or {}
    confident = answer.get("confident", True)
    if isinstance(confident, str):
        confident = confident.strip().lower() not in ("false", "no", "0")
    return intent, confident is not False


def _json_object(content: str) -> dict[str, object] | None:
    start, end = content.find("{"), content.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        answer = json.loads(content[start:end + 1])
    except ValueError:
        return None
    return answer if isinstance(answer, dict) else None


def parse_intent(content: str) -> str | None:
    """``read`` or ``write`` from an answer like ``{"intent": "write"}`` (fences and chatter tolerated)."""
    answer = _json_object(content)
    intent = answer.get("intent") if answer is not None else None
    if not isinstance(intent, str) or intent.strip().lower() not in INTENTS:
        return None
    return intent.strip().lower()


# After this many tasks in a row that the model did not classify, the rest of the queue keeps its keyword
# intent: a model that is down or hangs must not be asked (and waited for) once per task.
GIVE_UP_AFTER = 3
ApplyIntent = Callable[[str, str, IntentJudgement], Awaitable[object]]  # (task_id, title, judgement) -> anything


class BackgroundIntents:
    """Asks the model about the intent of new and renamed tasks in the background; they have the words'
    intent meanwhile.

    Adding or renaming a task, start-up and HEARTBEAT.md syncs never wait on a model: they store the words'
    intent and :meth:`submit` the tasks; :meth:`run` (a supervised task) asks the model one task at a time and
    calls ``apply`` with each judgement the model took part in (which keeps an intent the user chose
    meanwhile).

    Args:
        classifier: the model-backed classifier (its keyword fallback counts as "no answer").
        apply: stores a model's answer for one task.
    """

    def __init__(self, classifier: IntentClassifier, apply: ApplyIntent) -> None:
        self._classifier = classifier
        self._apply = apply
        self._queue: collections.deque[tuple[str, str]] = collections.deque()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def pending(self) -> int:
        return len(self._queue)

    def submit(self, tasks: Iterable[tuple[str, str]]) -> None:
        """Queue ``(task_id, title)`` pairs for the model."""
        before = len(self._queue)
        self._queue.extend(tasks)
        if len(self._queue) > before:
            self._idle.clear()
            self._wake.set()

    async def drained(self) -> None:
        """Return once every submitted task has been asked about (or given up on)."""
        await self._idle.wait()

    async def run(self) -> None:
        """Work through the queue until cancelled."""
        while True:
            if not self._queue:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            await self._work_through()

    async def _work_through(self) -> None:
        answered = failed_in_a_row = 0
        while self._queue:
            task_id, title = self._queue.popleft()
            judgement = await self._classifier.classify(title)
            if judgement.model is None:
                failed_in_a_row += 1
                if failed_in_a_row >= GIVE_UP_AFTER:
                    left = len(self._queue)
                    self._queue.clear()
                    log.info("the model did not classify %d tasks in a row; %d more keep their keyword intent",
                             failed_in_a_row, left)
                    break
                continue
            failed_in_a_row = 0
            try:
                await self._apply(task_id, title, judgement)
            except AppError as exc:  # e.g. the database is locked: the task keeps its keyword intent
                log.warning("the model's intent for task %s was not stored: %s", task_id, exc)
                continue
            answered += 1
        if answered:
            log.info("the model classified the intent of %d new tasks", answered)


class ChatIntentJudge:
    """Whether a chat message's own words ask for a change: the agent's ``IntentJudge`` port (one place decides,
    for tasks and messages alike).

    The words decide; a model that passed its probes may narrow a "write" to "read" (the run is then
    analysis-only and its ``RECOMMENDED ACTION:`` becomes a card). A message whose words read "read" stays read
    whatever a model would say, so the model is not asked about it; nor is a model that has not been probed yet
    (a chat never waits for six probes: tasks probe it in the background).

    Args:
        model: the model-backed classifier, or None for the words alone.
    """

    def __init__(self, model: ModelIntentClassifier | None = None) -> None:
        self._model = model

    async def asks_for_write(self, text: str) -> bool:
        if not read_request(text).is_write:
            return False
        if self._model is not None and await self._model.model_intent(text, calibrate=False) == READ:
            log.info("a chat message's words asked for a change; the model heard none: the run only reads")
            return False
        return True
