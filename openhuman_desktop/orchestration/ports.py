"""The agent's ports: what callers hand a run and get back, and what the core needs from the outside."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from openhuman_desktop.skills.base import Mutation

Permission = Literal["read", "write"]
READ: Final = "read"
WRITE: Final = "write"
"""A run's permission: ``read`` runs are analysis-only (write tools withheld), ``write`` runs may change things."""


RunStatus = Literal["queued", "running", "completed", "failed", "cancelled"]
QUEUED: Final = "queued"
RUNNING: Final = "running"
COMPLETED: Final = "completed"
FAILED: Final = "failed"
CANCELLED: Final = "cancelled"
RUN_STATUSES: tuple[RunStatus, ...] = (QUEUED, RUNNING, COMPLETED, FAILED, CANCELLED)
UNFINISHED: tuple[RunStatus, ...] = (QUEUED, RUNNING)

Failure = Literal["model", "limit", "error"]
MODEL_FAILURE: Final = "model"
LIMIT_FAILURE: Final = "limit"
ERROR_FAILURE: Final = "error"

Purpose = Literal["chat", "escalation", "approved", "call"]
CHAT: Final = "chat"
ESCALATION: Final = "escalation"
APPROVED: Final = "approved"
CALL: Final = "call"
PURPOSES: tuple[Purpose, ...] = (CHAT, ESCALATION, APPROVED, CALL)
"""Why a run exists: a message from a channel, the heartbeat's own work (its ``act`` and its escalations), an
action the user approved, or one exact tool call the user approved (no model: see :class:`ProposedCall`)."""

Tier = Literal["quick", "reasoning"]
QUICK_TIER: Final = "quick"
REASONING_TIER: Final = "reasoning"
TIERS: tuple[Tier, ...] = (QUICK_TIER, REASONING_TIER)
"""Which model does a run's tool-using work: the quick tier (``[models.local]``, the heartbeat's ``act``) or
the reasoning tier (agentic-v1, everything else)."""


@dataclass(frozen=True)
class ProposedCall:
    """One tool call that needs the user's approval on a card of its own (an **exact-call card**).

    Raised when an approved run tried a write the card did not license, when a write began before a kill
    and may or may not have happened, or when an MCP server's write came unasked. Go ahead on such a card
    carries out exactly this call, once (journaled; no model is asked).

    Attributes:
        tool: the tool's name as the model sees it (e.g. ``files_write``, ``server__tool``).
        arguments: the call's arguments (JSON values).
        reason: one sentence for the person: why this needs their approval.
        skill: the skill the tool belongs to (its ``name``), or None when unknown.
    """

    tool: str
    arguments: Mapping[str, Any]
    reason: str
    skill: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"tool": self.tool, "arguments": dict(self.arguments), "reason": self.reason, "skill": self.skill}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ProposedCall:
        arguments = data.get("arguments")
        skill = data.get("skill")
        return cls(str(data.get("tool", "")), dict(arguments) if isinstance(arguments, Mapping) else {},
                   str(data.get("reason", "")), skill if isinstance(skill, str) else None)


@dataclass(frozen=True)
class WriteLicense:
    """What an approval licenses a run to write: the write tools the approved action needs and the targets
    the card named (workspace paths, recipients …, compared as ``Tool.target`` gives them). A write outside it
    is not run; it becomes an exact-call card (:class:`ProposedCall`). Nothing a run reads widens it.

    Attributes:
        tools: the write tools the run is offered.
        targets: the targets the card named (folded: see :func:`fold_target`); a call of a tool that names a
            target must name one of these. A tool that names no target is licensed by being offered.
        action: the approved action in the card's words (for the reason on a card of its own).
    """

    tools: tuple[str, ...]
    targets: tuple[str, ...]
    action: str = ""

    def allows(self, tool: str, target: str | tuple[str, ...] | None) -> bool:
        """Whether a call of ``tool`` on ``target`` (None: the tool names none) is within the license: a target
        the card named, or one inside a folder it named ("the drafts in Notes/" licenses ``Notes/a.md``). A call
        that changes several things names them as a tuple (an e-mail's recipients): each must be licensed."""
        if tool not in self.tools:
            return False
        if target is None:
            return True
        parts = [fold_target(part) for part in ((target,) if isinstance(target, str) else target)]
        return bool(parts) and all(
            part and any(part == named or part.startswith(named + "/") for named in self.targets) for part in parts)

    def to_json(self) -> dict[str, Any]:
        return {"tools": list(self.tools), "targets": list(self.targets), "action": self.action}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WriteLicense:
        return cls(tuple(str(name) for name in data.get("tools") or ()),
                   tuple(str(target) for target in data.get("targets") or ()), str(data.get("action", "")))


def fold_target(target: str) -> str:
    """A target as licenses compare it: trimmed of quotes and ``./``, slashes forward, case folded."""
    text = target.strip().strip("\"'`“”‘’").replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    return text.rstrip("/.,;:!?").casefold()


@dataclass(frozen=True)
class RunRequest:
    """What starting a run takes (DESIGN §3).

    Attributes:
        thread_id: the conversation (``desktop``, ``cli``, ``webapp:<session>``, ``telegram:<chat_id>``,
            ``subconscious:<task_id>``); runs of one thread run one after another.
        channel_source: where the answer goes (:data:`CHANNEL_SOURCES`).
        text: the incoming text of this run (``raw_channel_payload``).
        permission: ``read`` / ``write`` when the caller decided it (the heartbeat: the task's intent; an
            approved action: ``write``); None lets the front-end agent decide it from the user's own words.
        purpose: :data:`PURPOSES`.
        task_id: the heartbeat task of an ``escalation`` / ``approved`` run.
        escalation_id: the card an ``approved`` run carries out.
        source_key: the channel's own id of the message (e.g. ``telegram:<bot>:<update_id>``): a second
            request with the same key starts no second run (a channel re-reading a message after a crash).
        tier: :data:`TIERS`: which model does the tool-using work.
        title: what the person sees for the run (the Agent tab, the log), e.g. "Approved: Archive the report";
            None shows its text.
        tools: the names of the tools it is offered (within what its permission allows); None: all of them.
        license: an approved run's :class:`WriteLicense` (None: the permission alone decides).
        call: a ``call`` run's one approved :class:`ProposedCall`.
    """

    thread_id: str
    channel_source: str
    text: str
    permission: Permission | None = None
    purpose: Purpose = CHAT
    task_id: str | None = None
    escalation_id: str | None = None
    source_key: str | None = None
    tier: Tier = REASONING_TIER
    title: str | None = None
    tools: tuple[str, ...] | None = None
    license: WriteLicense | None = None
    call: ProposedCall | None = None

    def spec_json(self) -> dict[str, Any] | None:
        """What the ledger keeps of ``tier``, ``tools``, ``license`` and ``call`` (None: all defaults)."""
        spec: dict[str, Any] = {}
        if self.tier != REASONING_TIER:
            spec["tier"] = self.tier
        if self.tools is not None:
            spec["tools"] = list(self.tools)
        if self.license is not None:
            spec["license"] = self.license.to_json()
        if self.call is not None:
            spec["call"] = self.call.to_json()
        return spec or None


@dataclass(frozen=True)
class Run:
    """A run as the ledger keeps it; :meth:`to_json` is CONTRACT §8's Run."""

    id: str
    thread_id: str
    channel_source: str
    status: RunStatus
    input: str
    created_at: float
    response: str | None = None
    error: str | None = None
    steps: int = 0
    steering_version: int | None = None
    finished_at: float | None = None
    permission: Permission | None = None
    purpose: Purpose = CHAT
    task_id: str | None = None
    escalation_id: str | None = None
    tools_used: tuple[str, ...] = ()
    recommended_action: str | None = None
    changed_something: bool = False
    failure: Failure | None = None
    """Why a failed run failed: ``model`` (a model was down or answered garbage: worth a retry once it is
    back), ``limit`` (step limit or deadline) or ``error``."""
    title: str | None = None
    tier: Tier = REASONING_TIER
    tools: tuple[str, ...] | None = None
    license: WriteLicense | None = None
    call: ProposedCall | None = None
    unexecuted: tuple[str, ...] = ()
    """Tools its last answer still asked for when its steps ran out (nothing of them happened)."""

    @property
    def display_title(self) -> str:
        """What the person sees for the run: its title, else its text."""
        return self.title or self.input

    @property
    def is_finished(self) -> bool:
        return self.status not in UNFINISHED

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "thread_id": self.thread_id, "channel_source": self.channel_source,
            "status": self.status, "input": self.input, "response": self.response, "error": self.error,
            "steps": self.steps, "steering_version": self.steering_version, "created_at": self.created_at,
            "finished_at": self.finished_at, "permission": self.permission, "purpose": self.purpose,
            "task_id": self.task_id, "escalation_id": self.escalation_id, "tools_used": list(self.tools_used),
            "recommended_action": self.recommended_action, "changed_something": self.changed_something,
            "failure": self.failure, "title": self.display_title, "tier": self.tier,
        }


class AgentRunner(Protocol):
    """The port everything that wants the agent calls (the heartbeat, the CLI, every channel, the UI)."""

    async def start(self, request: RunRequest) -> Run:
        """Record the run (``queued``, committed) and have it run in the background; returns at once."""
        ...

    async def wait(self, run_id: str) -> Run:
        """The run once it has finished (completed, failed or cancelled), also one resumed after a restart.

        Raises:
            NotFound: no such run.
        """
        ...

    async def cancel(self, run_id: str, reason: str) -> Run:
        """Stop a run that has not finished (it ends ``cancelled`` with ``reason``; nothing it did is undone)."""
        ...

    async def retry(self, run_id: str) -> Run:
        """Drive a failed (a model was down) or cancelled run again from its last checkpoint: what it had done
        (journaled model answers and tool calls) is replayed, not repeated."""
        ...

    async def runs_for_escalation(self, escalation_id: str) -> list[Run]:
        """The runs that carried out (or are carrying out) an approved card, newest first."""
        ...


@dataclass(frozen=True)
class TimelineEntry:
    """One real mutation in the world timeline (CONTRACT §8); ``sequence`` is global and gap-free."""

    sequence: int
    event_signature: str
    world_mutation: str
    delta_delta: str
    at: float
    run_id: str | None

    def to_json(self) -> dict[str, Any]:
        return {"sequence": self.sequence, "event_signature": self.event_signature,
                "world_mutation": self.world_mutation, "delta_delta": self.delta_delta, "at": self.at,
                "run_id": self.run_id}


@dataclass(frozen=True)
class JournalEntry:
    """What the effects journal holds for one key of one run step.

    ``result`` is None while the call has begun and not finished (an interruption came in between);
    ``intent`` is what was recorded before it ran (for a tool call: its arguments and the tool's
    observation of its target, see ``Tool.observe``).
    """

    run_id: str
    step: int
    key: str
    intent: Mapping[str, Any]
    result: Mapping[str, Any] | None
    timeline: tuple[TimelineEntry, ...] = ()


class StepJournal(Protocol):
    """The effects journal (DBOS-style): every model answer and tool call of a run step, by key.

    Keys are stable within a step, e.g. ``plan``, ``reply``, ``sub:0:model:2``, ``sub:0:call:2:1``. On
    resume a key with a result is answered from here instead of being asked or run again.
    """

    async def get(self, run_id: str, step: int, key: str) -> JournalEntry | None:
        ...

    async def begin(self, run_id: str, step: int, key: str, intent: Mapping[str, Any]) -> None:
        """Record that ``key`` is about to run (committed before it does)."""
        ...

    async def finish(self, run_id: str, step: int, key: str, result: Mapping[str, Any],
                     mutations: Sequence[Mutation] = ()) -> tuple[TimelineEntry, ...]:
        """Record ``key``'s result and append one timeline entry per mutation, in one commit.

        Returns:
            The timeline entries written (with their sequence numbers).
        """
        ...

    async def unfinished(self) -> Sequence[JournalEntry]:
        """Entries begun and never finished (a kill came in between) of runs that have not finished, oldest
        first: the tool calls a new write must settle before it runs (``subagent.py``)."""
        ...


# --- what the core needs from the outside (wired in bootstrap) -------------------------------------


class IntentJudge(Protocol):
    """Whether the user's own words ask for a change (like a task's intent, DESIGN §2)."""

    async def asks_for_write(self, text: str) -> bool:
        ...


class CardRaiser(Protocol):
    """Raises approval cards for runs (same table and buttons as the heartbeat's cards): a conversation run's
    ``RECOMMENDED ACTION:`` and a single tool call that needs its own approval."""

    async def raise_card(self, run: Run, action: str) -> None:
        """Raise the card of a conversation's recommended action (``task_id`` and ``log_id`` null);
        idempotent per run and action (a resumed run that asks again gets the card it has, not a second
        one)."""
        ...

    async def raise_call_card(self, run: Run, call: ProposedCall) -> None:
        """Raise an exact-call card: ``call`` (its tool, arguments, reason and skill) waits for Go ahead /
        Skip; Go ahead carries out exactly that call once. Idempotent per run and call (same tool and
        arguments): a resumed run that raises it again gets the card it has."""
        ...


class EvictionSink(Protocol):
    """Long-term memory for what the context hook evicts (stored tagged ``evicted``)."""

    async def store_evicted(self, text: str, *, thread_id: str, run_id: str) -> None:
        ...


class MemoryRecall(Protocol):
    """Long-term memories that bear on a request (hybrid search), for agentic-v1's prompt."""

    async def recall(self, query: str, limit: int) -> Sequence[str]:
        """At most ``limit`` memory texts, most relevant first (none when nothing is similar enough)."""
        ...


@dataclass(frozen=True)
class Steering:
    """A steering directive (CONTRACT §10): ``version`` 0 means none."""

    version: int
    text: str


class SteeringSource(Protocol):
    """The current steering directive for agentic-v1's prompt (``directives.SteeringStore``)."""

    async def current(self) -> Steering | None:
        ...

