"""Write intent: does a task ask the assistant to change something (send, post, write) or only look?"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Protocol

from openhuman_desktop.errors import AppError
from openhuman_desktop.llm.base import ChatRequest, LlmClient, Message

log = logging.getLogger(__name__)

READ = "read"
WRITE = "write"
INTENTS = (READ, WRITE)

# Verbs that ask for a change in the world. Reading verbs (check, review, summarize, monitor, find)
# are the default and need no list.
_WRITE_VERBS = (
    "send", "post", "publish", "write", "create", "delete", "remove", "add", "append", "save", "update",
    "edit", "modify", "move", "rename", "reply", "respond", "forward", "schedule", "book", "cancel",
    "archive", "notify", "remind", "email", "message", "tweet", "commit", "push", "upload", "share",
    "invite", "order", "pay", "buy", "file", "record", "log", "store", "remember", "draft", "put",
    "set", "turn", "mark", "label", "tag", "assign", "close", "open", "submit", "sync", "backup",
    "back up", "copy", "clean", "organize", "organise", "sort", "download", "install",
)
_WRITE_PATTERN = re.compile(r"\b(" + "|".join(re.escape(v) for v in _WRITE_VERBS) + r")(s|es|ed|ing)?\b", re.I)
# "check whether X was sent" is a read: the verb is only described, not asked for.
_READ_LEAD = re.compile(
    r"^\s*(check|review|monitor|watch|look|see|find|list|summari[sz]e|read|scan|report|tell|show|"
    r"count|track|verify|inspect|analy[sz]e|search)\b", re.I
)


def classify_by_keywords(title: str) -> str:
    """The fallback classifier: "write" when the task's leading instruction is a changing verb."""
    if _READ_LEAD.match(title):
        return READ
    return WRITE if _WRITE_PATTERN.search(title) else READ


class IntentClassifier(Protocol):
    """Decides a task's intent; the model-backed one arrives with the model providers."""

    async def classify(self, title: str) -> tuple[str, str]:
        """Returns ``(intent, how)`` where ``how`` is ``model`` or ``keyword``."""
        ...


class KeywordIntentClassifier:
    """Classifies by keywords only (no model configured or reachable)."""

    async def classify(self, title: str) -> tuple[str, str]:
        return classify_by_keywords(title), "keyword"


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
    """Asks the local model; keywords decide when the model is not confident, not calibrated, or no answer.

    Before a model's answers count it gets the :data:`PROBES` (once per model, remembered in memory): a
    model that gets more than :data:`PROBE_MISSES_ALLOWED` wrong, or answers them all alike, is not asked
    again and keywords decide for it. An answer with ``"confident": false`` also leaves it to keywords.

    Args:
        client: returns the local-tier client (None when not configured).
        timeout: seconds to wait for the model, per question.
    """

    def __init__(self, client: Callable[[], LlmClient | None], timeout: float = 20.0) -> None:
        self._client = client
        self._timeout = timeout
        self._calibrated: dict[str, bool] = {}  # by client description: are this model's answers usable?
        self._calibrating = asyncio.Lock()

    async def classify(self, title: str) -> tuple[str, str]:
        client = self._client()
        if client is None:
            return classify_by_keywords(title), "keyword"
        try:
            if not await self._trusted(client):
                return classify_by_keywords(title), "keyword"
            answer = await self._ask(client, title)
        except (AppError, TimeoutError) as exc:
            # DEBUG: one line per task would be 100,000 lines for a long HEARTBEAT.md (callers summarise).
            log.debug("intent of a task decided by keywords (model: %s)", exc or type(exc).__name__)
            return classify_by_keywords(title), "keyword"
        if answer is None:
            return classify_by_keywords(title), "keyword"
        intent, confident = answer
        if not confident:
            log.debug("intent of a task decided by keywords (the model was not sure)")
            return classify_by_keywords(title), "keyword"
        return intent, "model"

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
            [Message("system", INTENT_PROMPT), Message("user", f"Task: {title}")],
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
ApplyIntent = Callable[[str, str, str], Awaitable[object]]  # (task_id, title, intent) -> anything


class BackgroundIntents:
    """Asks the model for the intent of new tasks in the background; they have the keyword intent meanwhile.

    Start-up and HEARTBEAT.md syncs never wait on a model: they store the keyword intent and
    :meth:`submit` the tasks; :meth:`run` (a supervised task) asks the model one task at a time and
    calls ``apply`` with each answer (which keeps an intent the user chose meanwhile).

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
            intent, how = await self._classifier.classify(title)
            if how != "model":
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
                await self._apply(task_id, title, intent)
            except AppError as exc:  # e.g. the database is locked: the task keeps its keyword intent
                log.warning("the model's intent for task %s was not stored: %s", task_id, exc)
                continue
            answered += 1
        if answered:
            log.info("the model classified the intent of %d new tasks", answered)
