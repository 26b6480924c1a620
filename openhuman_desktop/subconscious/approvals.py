"""The approval gate: every approval card, from being raised to being carried out, in one room.

A card is raised by a tick (a read task's recommendation, with the declined-recommendation memory), by a
conversation run (its ``RECOMMENDED ACTION:``) or by any run that wants one tool call it may not make on its
own (an **exact-call card**). Its buttons (:data:`~openhuman_desktop.store.records.CHOICES`) and the skill it
is about are decided here, once, and every surface shows those. Go ahead and Skip happen exactly once (the
store's atomic transitions); Go ahead is carried out by the agent (``AgentRunner``): an action card as a run
that may write only what the card named (its :class:`~openhuman_desktop.orchestration.ports.WriteLicense`), an
exact-call card as a run that makes exactly that call. An approval whose run did not finish is carried on after
a crash (a few times at most, then it is a card again); one that found the reasoning model down waits for it;
one whose run changed nothing says so and comes back offering Retry / Skip.

The tray, the window, RPC, the notifier, Telegram and the web app all call this class.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from collections.abc import Callable, Sequence

from openhuman_desktop import events, recurrence
from openhuman_desktop.clock import Clock
from openhuman_desktop.errors import Conflict, InvalidInput, NotFound
from openhuman_desktop.orchestration.ports import (
    APPROVED,
    CALL,
    CANCELLED,
    COMPLETED,
    MODEL_FAILURE,
    UNFINISHED,
    WRITE,
    AgentRunner,
    ProposedCall,
    Run,
    RunRequest,
    WriteLicense,
    fold_target,
)
from openhuman_desktop.orchestration.tool_calls import describe_call
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.store import Escalation, LogEntry, Resolution, SubconsciousStore, Task
from openhuman_desktop.store.events import ActivityLogged, EscalationChanged, TaskChanged
from openhuman_desktop.store.records import (
    ACT_CHOICES,
    FIX_IN_SKILLS,
    GO_AHEAD,
    RETRY,
    RETRY_CHOICES,
    SKILL_CHOICES,
)
from openhuman_desktop.subconscious import declined as declined_memory
from openhuman_desktop.subconscious.decisions import NOOP, Outcome, ProposedEscalation
from openhuman_desktop.supervisor import TaskSupervisor

log = logging.getLogger(__name__)

ESCALATION_STATUSES = ("pending", "approved", "dismissed")
PRIORITIES = ("critical", "important", "normal")
APPROVED_RUNNING = "Approved — carrying out the recommended action…"
APPROVED_CARD = "Approved at {when}; carried out in the row above."
RETRYING_APPROVAL = "Approved — the reasoning model answers again; carrying out the recommended action…"
NOT_RUN_DISABLED = ("Not carried out: the task was disabled before the approved action ran; enable it and press "
                    "Go ahead, or Skip.")
MAX_RESTARTS = 2
STOPPED_EACH_TIME = ("Not finished: the app stopped each time it carried out this action. What it had done is kept "
                     "and is not repeated: press Go ahead to carry on, or Skip.")
TASK_GONE = "Cancelled: the task was removed before its approved action ran; nothing was done"
REMOVED_MID_TICK = "Cancelled: the task was removed while the assistant was looking at it."
DISABLED_MID_TICK = "Cancelled: the task was disabled while the assistant was looking at it; no card was raised."
CHANGED_NOTHING = "Go ahead did not change anything: "
CHANGED_NOTHING_TAIL = " Press Retry to try again, or Skip."
ASKED_FIRST = ("Go ahead asked first: the run wanted {count} change(s) the card did not name, and each waits on "
               "a card of its own ({cards}).")
APPROVED_TITLE = "Approved: "
MAX_TITLE = 80
MAX_DESCRIPTION = 2000

APPROVED_FOR_USER = ("The user approved the recommended action below for their task: carry out exactly this "
                     "action with the tools, nothing more, then summarise what you did in a few sentences.")
APPROVED_IN_CONVERSATION = ("The user approved the action below, which you recommended in this conversation: "
                            "carry out exactly this action with the tools, nothing more, then tell the user in a "
                            "few sentences what you did.")

# Words that make a card a skills problem: its fix is in the Skills tab (a connection, an authorisation), not
# something the agent could carry out.
SKILL_KEYWORDS = ("skill", "oauth", "notion", "gmail", "integration", "disconnect", "reconnect", "re-auth", "reauth")
# What a card names as the target of its action: a workspace path (a/b.md, notes.txt), a folder (Notes/), an
# e-mail address.
_TARGETS = re.compile(r"[\w@.+-]+@[\w-]+(?:\.[\w-]+)+|(?:[\w.~-]+/)*[\w~-][\w.~-]*\.[A-Za-z0-9]{1,8}\b"
                      r"|(?:[\w.~-]+/)+[\w.~-]+|[\w.~-]+/(?![\w.~-])")
_OPTIONAL_WRITES = (
    ("notify_", re.compile(r"\b(notif\w*|alert\w*|tell|let me know|warn\w*|remind\w*|ping)\b", re.I)),
    ("subconscious_tasks_", re.compile(r"\b(tasks?|remind\w*|schedul\w*|heartbeat)\b", re.I)),
    ("memory_", re.compile(r"\b(remember\w*|memor\w*|note that|keep in mind)\b", re.I)),
    ("slack_", re.compile(r"\bslack\b", re.I)),  # the webhook's one channel: only when the card says Slack
)


def is_skill_related(title: str, description: str) -> bool:
    """Whether a card's words make it a skills problem (a connection, an authorisation, an integration)."""
    text = f"{title} {description}".lower()
    return any(word in text for word in SKILL_KEYWORDS)


def card_choices(title: str, description: str,
                 skills: Sequence[tuple[str, str]]) -> tuple[tuple[str, ...], str | None]:
    """A card's buttons and the skill it is about (``skills``: name and title of each), decided once when it is
    raised: a skills problem offers Fix in Skills / Skip, anything else Go ahead / Skip."""
    text = f"{title} {description}".lower()
    skill = next((name for name, skill_title in skills
                  if name.lower() in text or (skill_title and skill_title.lower() in text)), None)
    return (SKILL_CHOICES if is_skill_related(title, description) else ACT_CHOICES), skill


def named_targets(text: str) -> tuple[str, ...]:
    """The targets a card's words name (workspace paths, e-mail addresses), folded as licenses compare them."""
    found = (fold_target(match.group(0)) for match in _TARGETS.finditer(text))
    return tuple(dict.fromkeys(target for target in found if target))


def short_title(text: str) -> str:
    title = " ".join(text.split())
    return title if len(title) <= MAX_TITLE else title[:MAX_TITLE - 1].rstrip() + "…"


def call_key(call: ProposedCall) -> str:
    """One exact-call card per run and call: the tool and its arguments, hashed."""
    text = json.dumps([call.tool, dict(call.arguments)], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode(errors="surrogatepass")).hexdigest()[:32]


def thread_of(task: Task) -> str:
    """The agent thread of a heartbeat task's runs."""
    return f"subconscious:{task.id}"


class ApprovalGate:
    """Raises, decides and carries out approval cards (see the module docstring).

    Args:
        store: subconscious.db (the escalations and their activity rows).
        agent: the agent that carries approvals out (a callable: the agent is built after the gate, which its
            graph raises cards through); None: not running yet.
        skills: the skills (a card's skill, the write tools an action needs, Fix in Skills' answer).
    """

    def __init__(self, store: SubconsciousStore, clock: Clock, bus: events.EventBus, supervisor: TaskSupervisor,
                 skills: SkillRegistry, agent: Callable[[], AgentRunner | None]) -> None:
        self._store = store
        self._clock = clock
        self._bus = bus
        self._supervisor = supervisor
        self._skills = skills
        self._agent = agent
        self._raising = asyncio.Lock()  # a card per run and action/call: check and insert as one

    # --- what every surface reads and decides -----------------------------------------------------------

    async def escalations_list(self, status: object = None) -> list[Escalation]:
        """The cards, newest first (only those with ``status`` when given).

        Raises:
            InvalidInput: ``status`` is not pending, approved or dismissed.
        """
        if status is not None and status not in ESCALATION_STATUSES:
            raise InvalidInput("status", 'must be "pending", "approved" or "dismissed"')
        return await self._store.escalations.list(status if isinstance(status, str) else None)

    async def escalations_approve(self, escalation_id: object) -> str:
        """Go ahead (or Retry) on a pending card: its action runs in the background, exactly once.

        The approval, its run marker and its new activity row are one commit: after a crash at any point the
        approval either runs at the next start or its card is back with a note saying why.

        Raises:
            InvalidInput: not an id. NotFound: no such card. Conflict: it is not pending any more.
        """
        resolved = await self._resolve(escalation_id, approve=True)
        log.info("escalation %s approved", resolved.escalation.id)
        self._start(resolved.escalation)
        return resolved.escalation.id

    async def escalations_dismiss(self, escalation_id: object) -> str:
        """Skip a pending card: nothing is executed, its row reads "Skipped", and the task's same
        recommendation is not raised again for a day.

        Raises:
            InvalidInput: not an id. NotFound: no such card. Conflict: it is not pending any more.
        """
        resolved = await self._resolve(escalation_id, approve=False)
        log.info("escalation %s dismissed", resolved.escalation.id)
        return resolved.escalation.id

    async def skill_advice(self, escalation_id: object) -> str:
        """Fix in Skills where there is no Skills tab (the web page, Telegram): the state of the skill the card
        is about and where to fix it, in a sentence or two.

        Raises:
            InvalidInput: not an id. NotFound: no such card.
        """
        escalation = await self._existing(escalation_id)
        where = "open the desktop app's Intelligence window, Skills tab"
        skill = self._skills.get(escalation.skill) if escalation.skill else None
        if skill is None:
            every = await self._skills.health()
            troubled = [f"{name} ({item.status}{': ' + item.message if item.message else ''})"
                        for name, item in every.items() if item.status != "connected"]
            state = ("These skills have a problem: " + "; ".join(troubled) + "." if troubled
                     else "Every skill says it is connected.")
            return f"This card is about a skill without naming which. {state} To fix one, {where}."
        try:
            health = await skill.health()
        except Exception as exc:  # a broken skill says so, never breaks the answer
            state, message = "error", f"its health check failed ({type(exc).__name__})"
        else:
            state, message = health.status, health.message
        said = f"The skill “{skill.title}” is {state}" + (f": {message.rstrip('.')}" if message else "") + "."
        return f"{said} To fix it, {where}, on “{skill.title}” (or its table in config.toml)."

    async def _existing(self, escalation_id: object) -> Escalation:
        if not isinstance(escalation_id, str) or not escalation_id:
            raise InvalidInput("escalation_id", "must be a non-empty string")
        existing = await self._store.escalations.get(escalation_id)
        if existing is None:
            raise NotFound(f"There is no escalation with id {escalation_id!r}.")
        return existing

    async def _resolve(self, escalation_id: object, *, approve: bool) -> Resolution:
        """Approve or skip a pending card, with its log rows, in one commit (so no crash can lose an approval)."""
        existing = await self._existing(escalation_id)
        now = self._clock.now()
        if approve:
            resolved = await self._store.escalations.approve(existing.id, now, APPROVED_RUNNING,
                                                             card_text=self._approved_text())
        else:
            resolved = await self._store.escalations.dismiss(existing.id, now, remember=True)
        if resolved is None:
            current = await self._store.escalations.get(existing.id)
            now_status = current.status if current else "gone"
            raise Conflict(f"This escalation is already {now_status}; nothing was done.")
        await self._publish(resolved, card_row=approve)
        return resolved

    def _approved_text(self) -> str:
        return APPROVED_CARD.format(when=declined_memory.when(self._clock.now()))

    # --- raising -------------------------------------------------------------------------------------------

    async def declined_for(self, task: Task) -> Sequence[tuple[str, float]]:
        """The recommendations the user skipped for ``task`` within the decline memory, newest first."""
        return await self._store.escalations.declined_since(
            task.id, self._clock.now() - declined_memory.DECLINE_MEMORY_SECONDS)

    async def raise_from_tick(self, task: Task, row: LogEntry, proposed: ProposedEscalation,
                              declined: Sequence[tuple[str, float]]) -> Outcome | None:
        """Raise a tick's card (see ``subconscious.ports.TickCards``)."""
        repeat = declined_memory.matching(proposed.description, declined)
        if repeat is not None:
            log.info("task %s: recommendation skipped by the user at %s; not asked again", task.id, repeat[1])
            return Outcome(NOOP, declined_memory.not_asked_again(repeat[0], repeat[1]))
        choices, skill = self._choices(proposed.title, proposed.description)
        escalation = await self._store.escalations.raise_for_task(
            task_id=task.id, log_id=row.id, title=proposed.title, description=proposed.description,
            priority=proposed.priority, now=self._clock.now(), run_id=proposed.run_id, thread_id=proposed.thread_id,
            choices=choices, skill=skill,
        )
        if escalation is None:  # removed or disabled while the analysis ran
            if await self._store.tasks.get(task.id) is None:
                return Outcome("cancelled", REMOVED_MID_TICK)
            return Outcome("cancelled", f"{DISABLED_MID_TICK} It would have recommended: {proposed.description}")
        log.info("card %s raised for task %s", escalation.id, task.id)
        self._bus.publish(EscalationChanged(escalation))   # also its announcement (no Notified)
        return None

    async def raise_card(self, run: Run, action: str) -> None:
        """A conversation run's recommended action (``CardRaiser``)."""
        await self.raise_conversation_card(run_id=run.id, thread_id=run.thread_id, request=run.input, action=action)

    async def raise_conversation_card(self, *, run_id: str, thread_id: str, request: str, action: str,
                                      priority: str = "normal") -> Escalation:
        """Raise the card for a conversation run's ``RECOMMENDED ACTION:`` (CONTRACT §8) and announce it: the
        title is the user's request (shortened), the description the action. A run raises one card per action:
        the same action again (a resumed run) gives the card it already has.

        Raises:
            InvalidInput: ``priority`` is not critical, important or normal, or ``action`` is blank.
        """
        if priority not in PRIORITIES:
            raise InvalidInput("priority", 'must be "critical", "important" or "normal"')
        description = action.strip()[:MAX_DESCRIPTION]
        if not description:
            raise InvalidInput("action", "must not be empty")
        async with self._raising:
            for existing in await self._store.escalations.for_run(run_id):
                if existing.description == description and not existing.is_call:
                    return existing
            title = short_title(request)
            choices, skill = self._choices(title, description)
            card = await self._store.escalations.raise_for_run(
                run_id=run_id, thread_id=thread_id, title=title, description=description, priority=priority,
                now=self._clock.now(), choices=choices, skill=skill)
        log.info("conversation card %s raised by run %s in thread %s", card.id, run_id, thread_id)
        self._bus.publish(EscalationChanged(card))   # also its announcement (no Notified)
        self._bus.publish(events.StatusChanged())
        return card

    async def raise_call_card(self, run: Run, call: ProposedCall) -> None:
        """An exact-call card (``CardRaiser``): Go ahead carries out exactly ``call``, once."""
        await self.raise_exact_call(run, call)

    async def raise_exact_call(self, run: Run, call: ProposedCall, priority: str = "normal") -> Escalation:
        """Raise (once per run and call) the card of one tool call, naming the tool, its skill and its arguments.

        Returns:
            The card (the one the run already has for this call, if any).
        """
        what = describe_call(call.tool, call.arguments)
        skill = call.skill or self._skills.skill_of(call.tool)
        arguments = json.dumps(dict(call.arguments), ensure_ascii=False, default=str)
        if len(arguments) > 600:
            arguments = arguments[:599] + "…"
        reason = " ".join(call.reason.split()) or "A run wants to make this change."
        description = (f"{reason}\nTool: {call.tool}" + (f" (skill: {skill})" if skill else "")
                       + f"\nArguments: {arguments}")[:MAX_DESCRIPTION]
        stored = ProposedCall(call.tool, dict(call.arguments), reason, skill)
        task_id = run.task_id
        if task_id is not None and await self._store.tasks.get(task_id) is None:
            task_id = None  # its task was removed meanwhile: the card stands on its run alone
        async with self._raising:
            known = await self._store.escalations.for_run(run.id)
            key = call_key(call)
            card = await self._store.escalations.raise_for_run(
                run_id=run.id, thread_id=run.thread_id, title=short_title(f"Allow {what}?"), description=description,
                priority=priority, now=self._clock.now(), task_id=task_id, choices=ACT_CHOICES, skill=skill,
                call=stored.to_json(), call_key=key)
        if any(existing.id == card.id for existing in known):
            return card
        log.info("exact-call card %s raised by run %s: %s", card.id, run.id, what)
        self._bus.publish(EscalationChanged(card))
        self._bus.publish(events.StatusChanged())
        return card

    def _choices(self, title: str, description: str) -> tuple[tuple[str, ...], str | None]:
        return card_choices(title, description, [(skill.name, skill.title) for skill in self._skills.skills])

    # --- carrying out ----------------------------------------------------------------------------------------

    def _start(self, escalation: Escalation) -> None:
        """Carry out an approved card in the background (the store already made it approved, once)."""
        self._supervisor.spawn(self._carry_out(escalation), name=f"approved-{escalation.id[:8]}")

    async def recover(self) -> None:
        """Approvals whose run did not finish (a crash or a shutdown came in between) are carried on: their
        agent run resumes from its last checkpoint, and a tool call it had completed is not repeated. One whose
        task was disabled meanwhile comes back as a card without running on; one that stopped the app each
        time comes back as a card too (never a crash loop). Call before the agent resumes its runs."""
        for escalation in await self._store.escalations.carrying_out():
            if escalation.task_id is not None:
                task = await self._store.tasks.get(escalation.task_id)
                if task is None or not task.enabled:
                    await self._stop_runs(escalation, NOT_RUN_DISABLED)
                    await self._reopen(escalation, NOT_RUN_DISABLED)
                    continue
            if await self._store.escalations.count_restart(escalation.id) > MAX_RESTARTS:
                await self._stop_runs(escalation, STOPPED_EACH_TIME)
                await self._reopen(escalation, STOPPED_EACH_TIME)  # never a crash loop
                continue
            log.info("approved escalation %s had not finished when the app stopped; carrying it on", escalation.id)
            self._start(escalation)

    async def retry_waiting(self) -> int:
        """Carry out the approvals that could not run because the reasoning model was down (call it once the
        model answers again). Each is approved again atomically, only if it still waits: a Skip or a Go
        ahead in between wins.

        Returns:
            How many approvals were started.
        """
        started = 0
        for escalation in await self._store.escalations.waiting_for_model():
            resolved = await self._store.escalations.approve_waiting(escalation.id, self._clock.now(),
                                                                     RETRYING_APPROVAL,
                                                                     card_text=self._approved_text())
            if resolved is None:
                continue
            log.info("approved escalation %s: retrying now that the reasoning model answers", escalation.id)
            await self._publish(resolved, card_row=True)
            self._start(resolved.escalation)
            started += 1
        return started

    async def _carry_out(self, escalation: Escalation) -> None:
        """Carry out an approved card; its outcome, the end of its run marker and (a ``once`` task's)
        completion are one commit. Its agent run journals every call, so a resumed or retried run does not
        repeat one. While the reasoning model is down the approval is not consumed: the card comes back and
        waits for the model."""
        task = None if escalation.task_id is None else await self._store.tasks.get(escalation.task_id)
        if escalation.task_id is not None:
            if task is None:  # gone despite the guards (another program changed the database)
                log.warning("approved escalation %s: its task is gone", escalation.id)
                await self._finish(escalation, Outcome("cancelled", TASK_GONE), None, 0.0)
                return
            if not task.enabled:
                await self._reopen(escalation, NOT_RUN_DISABLED)
                return
        started = self._clock.now()
        agent = self._agent()
        if agent is None:
            await self._reopen(escalation, "Go ahead could not run: the agent is not running. It runs by itself "
                                           "once the reasoning model answers again.", waits_for_model=True)
            return
        try:
            run = await self._run_of(agent, task, escalation)
        except asyncio.CancelledError:
            # Shutting down: the approval keeps its run marker and its agent run stays unfinished; the next
            # start resumes that run from its last checkpoint.
            raise
        except Exception as exc:  # never lose an approval silently: it ends failed and says where to look
            log.exception("approved escalation %s failed", escalation.id)
            outcome = Outcome("failed", f"Execution failed unexpectedly ({type(exc).__name__}); see the log file.")
            await self._finish(escalation, outcome, task, started)
            return
        if run.status != COMPLETED and run.failure == MODEL_FAILURE:
            reason = (run.error or "the reasoning model did not answer").rstrip(". ")
            note = (f"Go ahead could not run: {reason}. It runs by itself once the reasoning model answers again, "
                    "or press Go ahead again; what it had already done is not repeated.")
            log.info("approved escalation %s waits for the reasoning model: %s", escalation.id, reason)
            await self._reopen(escalation, note, waits_for_model=True)
            return
        label = "Approved call: " if escalation.is_call else "agentic-v1 (approved): "
        if run.status != COMPLETED:
            failed = Outcome("failed", _clip(label + (run.error or f"The run ended {run.status}.")))
            await self._finish(escalation, failed, task, started)
            return
        others = [card for card in await self._store.escalations.for_run(run.id) if card.is_call]
        if not run.changed_something and others:
            # Every change it wanted is on a card of its own: this approval is used, not retried (a Retry would
            # only ask for the same changes again, on cards of a new run).
            asked = "; ".join(card.title for card in others)
            await self._finish(escalation, Outcome("escalate", _clip(
                ASKED_FIRST.format(count=len(others), cards=asked) + f"\n{_tools(run)}")), None, started)
            return
        if not run.changed_something:
            said = " ".join((run.response or "").split()) or "the run gave no answer"
            note = _clip(CHANGED_NOTHING + said.rstrip(".") + "." + CHANGED_NOTHING_TAIL)
            log.info("approved escalation %s changed nothing; its card comes back", escalation.id)
            await self._reopen(escalation, note, choices=RETRY_CHOICES, ran_text=f"{note}\n{_tools(run)}",
                               duration_ms=_ms(started, self._clock.now()))
            return
        await self._finish(escalation, Outcome("act", f"{_clip(label + (run.response or ''))}\n{_tools(run)}",
                                               completes_task=True), task, started)
        await self.retry_waiting()  # the reasoning model answers: approvals waiting for it can run

    async def _run_of(self, agent: AgentRunner, task: Task | None, escalation: Escalation) -> Run:
        """The finished run that carries the approval out. Each Go ahead has its own run, keyed by the card and
        its approval's number, so a restart finds the run it had started (resumed, or finished before the app
        could record that on the card) and a Retry after a run that changed nothing gets a new one. A run that
        found the model down or was stopped is driven on from its checkpoint instead (nothing it did is
        repeated)."""
        earlier = next(iter(await agent.runs_for_escalation(escalation.id)), None)
        if earlier is not None and earlier.status in UNFINISHED:
            return await agent.wait(earlier.id)
        if earlier is not None and (earlier.status == CANCELLED or (earlier.status != COMPLETED
                                                                    and earlier.failure == MODEL_FAILURE)):
            return await agent.wait((await agent.retry(earlier.id)).id)
        run = await agent.start(self.request_for(task, escalation))
        return run if run.is_finished else await agent.wait(run.id)

    def request_for(self, task: Task | None, escalation: Escalation) -> RunRequest:
        """The run that carries out an approved card: on its task's thread or on the conversation it came from;
        an exact call as itself, an action with the license of what the card named."""
        thread = thread_of(task) if task is not None else (escalation.thread_id or "desktop")
        source = "subconscious" if task is not None else thread.split(":", 1)[0]
        key = f"approval:{escalation.id}:{escalation.approvals}"
        if escalation.call is not None:
            call = ProposedCall.from_json(escalation.call)
            what = describe_call(call.tool, call.arguments)
            return RunRequest(thread_id=thread, channel_source=source, permission=WRITE, purpose=CALL,
                              text=f"The user approved this one tool call as it is: {what}",
                              task_id=escalation.task_id, escalation_id=escalation.id, call=call, source_key=key,
                              title=APPROVED_TITLE + escalation.title.removeprefix("Allow ").rstrip("?"))
        if task is not None:
            text = f"{APPROVED_FOR_USER}\n\nTask: {task.title}\nApproved action: {escalation.description}"
        else:
            text = f"{APPROVED_IN_CONVERSATION}\n\nApproved action: {escalation.description}"
        return RunRequest(thread_id=thread, channel_source=source, text=text, permission=WRITE, purpose=APPROVED,
                          task_id=escalation.task_id, escalation_id=escalation.id, source_key=key,
                          title=short_title(APPROVED_TITLE + escalation.description),
                          license=self.license_for(escalation.description))

    def license_for(self, action: str) -> WriteLicense:
        """What approving ``action`` licenses: the write tools it needs (the optional ones only when its words
        ask for them) and the targets it names."""
        tools = []
        for tool in self._skills.tools(include_writes=True):
            if not tool.writes:
                continue
            needed = next((pattern for prefix, pattern in _OPTIONAL_WRITES if tool.name.startswith(prefix)), None)
            if needed is None or needed.search(action):
                tools.append(tool.name)
        return WriteLicense(tuple(tools), named_targets(action), " ".join(action.split())[:300])

    async def _stop_runs(self, escalation: Escalation, reason: str) -> None:
        """Cancel the unfinished runs of an approved card (before the agent resumes them)."""
        agent = self._agent()
        if agent is None:
            return
        for run in await agent.runs_for_escalation(escalation.id):
            if run.status in UNFINISHED:
                await agent.cancel(run.id, reason)

    async def _finish(self, escalation: Escalation, outcome: Outcome, task: Task | None, started: float) -> None:
        now = self._clock.now()
        resolved = await self._store.escalations.finish_run(
            escalation.id, now, decision=outcome.decision, result=outcome.result, duration_ms=_ms(started, now),
            complete_task=task is not None and outcome.decision not in ("failed", "cancelled"),
        )
        if resolved is not None:
            await self._publish(resolved)
        if task is not None and outcome.decision == "act" and task.recurrence == recurrence.ONCE:
            updated = await self._store.tasks.get(task.id)
            if updated:
                self._bus.publish(TaskChanged(updated))

    async def _reopen(self, escalation: Escalation, note: str, *, waits_for_model: bool = False,
                      choices: Sequence[str] | None = None, ran_text: str | None = None,
                      duration_ms: int | None = None) -> None:
        """An approval that did not (or not wholly) run: the card comes back with ``note`` saying why and what
        already ran, so the approval is never silently lost and nothing runs twice without the user saying so."""
        if choices is None:
            current = await self._store.escalations.get(escalation.id)
            if current is not None and RETRY in current.choices:
                choices = (GO_AHEAD, *[c for c in current.choices if c not in (RETRY, GO_AHEAD, FIX_IN_SKILLS)])
        resolved = await self._store.escalations.back_to_card(
            escalation.id, self._clock.now(), note=note, row_text=f"Waiting for approval again. {note}",
            ran_text=ran_text or note, waits_for_model=waits_for_model, choices=choices, duration_ms=duration_ms,
        )
        if resolved is None:
            return
        log.info("approved escalation %s is a card again: %s", escalation.id, note)
        await self._publish(resolved, card_row=True)

    async def _publish(self, resolved: Resolution, *, card_row: bool = False) -> None:
        """The card, its rows (the Go ahead's and, with ``card_row``, the card's own) and the status."""
        self._bus.publish(EscalationChanged(resolved.escalation))
        if card_row and resolved.escalation.log_id and (resolved.row is None
                                                        or resolved.row.id != resolved.escalation.log_id):
            own = await self._store.escalations.card_row(resolved.escalation)
            if own is not None:
                self._bus.publish(ActivityLogged(own))
        if resolved.row is not None:
            self._bus.publish(ActivityLogged(resolved.row))
        self._bus.publish(events.StatusChanged())


def _clip(text: str, limit: int = 4_000) -> str:
    text = text.strip() or "(the model gave no text)"
    return text if len(text) <= limit else text[:limit] + "…"


def _tools(run: Run) -> str:
    return "Tools used: " + ", ".join(run.tools_used) if run.tools_used else "No tools were used."


def _ms(started: float, now: float) -> int:
    return int(max(0.0, now - started) * 1000)

