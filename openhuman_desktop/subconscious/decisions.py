"""What the engine, evaluator and executor pass between them: decisions, outcomes and their ports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, Protocol

from openhuman_desktop.store import Task

DecisionKind = Literal["noop", "act", "escalate"]
"""What the judgement decides for a due task."""
NOOP: Final = "noop"
ACT: Final = "act"
ESCALATE: Final = "escalate"
DECISIONS: tuple[DecisionKind, ...] = (NOOP, ACT, ESCALATE)
RowDecision = Literal["noop", "act", "escalate", "failed", "cancelled"]
"""What an activity row ends with: the decision carried out, or why none was."""
PRIORITIES = ("critical", "important", "normal")


@dataclass(frozen=True)
class Decision:
    """The local model's verdict on one task."""

    task_id: str
    decision: DecisionKind
    reason: str
    priority: str = "normal"


@dataclass(frozen=True)
class Evaluation:
    """The decisions of one tick, plus what it cost and the per-task problems.

    ``problems`` maps a task id to why it has no valid decision (the item failed validation or was
    missing from the answer); only that task's row fails.
    """

    decisions: dict[str, Decision]
    problems: dict[str, str] = field(default_factory=dict)
    model_calls: int = 0
    prompt_tokens: int = 0
    touched: int = 0
    """Due tasks that something that changed concerned (asked about one by one)."""
    changes: int = 0
    """What changed since the report's span began (files and memories), when the evaluator knows."""


TASKS_SECTION = "Tasks"


@dataclass(frozen=True)
class ChangeItem:
    """One thing that changed, as the judgement sees it (the report's text says the same in prose).

    Attributes:
        source: ``file`` (a workspace file), ``memory`` (a new memory), ``world`` (an item a skill saw
            appear: a mail, a feed item, an event), ``skills`` (skill health) or ``models`` (model and system
            health).
        name: the file's path relative to the workspace; the skill's name for a world item; empty for the
            others.
        text: what changed: a file's added and removed lines (all its lines when it is new), a memory's text,
            a health line.
        status: ``new``, ``changed`` or ``removed`` for files; ``new`` for memories; ``problem`` or ``ok``
            for health lines.
        removed: a changed file's removed lines (``text`` holds the added ones).
        at: when it changed (a file's modification time, a memory's creation), when known: a task that looked
            later has seen it already.
        title: a changed file's heading or a table's header row (its first line), which its diff may not show.
        columns: a changed file's table header row further down (a Markdown table under its heading).
        context: a changed file's unchanged lines just before the change (the readings an added one follows);
            never shown to the model, read by the app's own comparisons (:mod:`.series`).
    """

    source: str
    name: str
    text: str
    status: str = "new"
    removed: str = ""
    at: float | None = None
    title: str = ""
    columns: str = ""
    context: str = ""


WORLD = "world"
NEWS = frozenset({"file", "memory", WORLD})
"""The sources whose items are news about the user's world (the others are health)."""


@dataclass(frozen=True)
class Report:
    """The situation report: text for the prompt, a signature for the idle gate, its size.

    ``tokens`` is never less than the real count: exact when the report came near its budget, otherwise
    the UTF-8 length (``llm.tokens.upper_bound``), which spares loading the tokenizer for small reports.
    ``blocks`` holds the report's parts as ``(section title, text as in the report)``, in order.
    """

    text: str
    signature: str
    tokens: int
    blocks: tuple[tuple[str, str], ...] = ()
    items: tuple[ChangeItem, ...] | None = None
    """What changed since the report's span began, item by item (what relevance and the narrow questions
    use); None from a reporter that does not say (then every task is asked, as before relevance)."""

    def for_task(self) -> str:
        """The report for a prompt about one task: every section but the list of due tasks, whose other
        titles have no business in it (a model would act on their words)."""
        if not self.blocks:
            return self.text
        return "\n".join(text for title, text in self.blocks if title != TASKS_SECTION)


@dataclass(frozen=True)
class ProposedEscalation:
    """An action the assistant recommends but may not take without the user's approval."""

    title: str
    description: str
    priority: str
    run_id: str | None = None
    thread_id: str | None = None


@dataclass(frozen=True)
class Outcome:
    """The result of executing one decision.

    Attributes:
        decision: the final log decision (``act``, ``noop``, ``escalate`` or ``failed``).
        result: the text shown in the activity log.
        escalation: set when the user must approve a recommended action.
        completes_task: a ``once`` task is done.
    """

    decision: RowDecision
    result: str
    escalation: ProposedEscalation | None = None
    completes_task: bool = False


class Reporter(Protocol):
    """Builds the situation report."""

    async def build(self, tasks: Sequence[Task], since: float | None, now: float) -> Report:
        ...


class Evaluator(Protocol):
    """Asks the local model what to do with each due task."""

    async def evaluate(self, tasks: Sequence[Task], report: Report) -> Evaluation:
        """Raises LlmUnavailable / LlmReplyError when the evaluation as a whole failed."""
        ...


class Executor(Protocol):
    """Carries out a tick's decisions (approved escalations are the approval gate's)."""

    async def execute(self, task: Task, decision: Decision, report: Report, declined: Sequence[str] = ()) -> Outcome:
        """``declined``: recommendations the user skipped for this task lately (for the analysis prompt)."""
        ...
