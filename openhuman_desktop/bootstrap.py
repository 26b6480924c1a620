"""The composition root: the only place that picks concrete implementations and wires them together."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from openhuman_desktop import config, events, workspace
from openhuman_desktop.channels import ChannelHub
from openhuman_desktop.channels.telegram import TelegramChannel
from openhuman_desktop.channels.webapp import WebappChannel
from openhuman_desktop.clock import Clock, SystemClock
from openhuman_desktop.errors import InvalidInput, StoreUnavailable
from openhuman_desktop.live_config import LiveSettings
from openhuman_desktop.llm import LlmClient, OpenAICompatClient, make_client
from openhuman_desktop.llm.embeddings import Embedders
from openhuman_desktop.llm.pool import TIERS, ModelClients
from openhuman_desktop.llm.schema_memory import SchemaMemory
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.memory import EVICTED_TAG, MemoryStore, open_memory_store
from openhuman_desktop.memory.store import text_parts
from openhuman_desktop.memory.vectors import VectorMemory
from openhuman_desktop.orchestration.directives import SteeringStore
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.nodes import build_graph
from openhuman_desktop.orchestration.ports import TimelineEntry
from openhuman_desktop.orchestration.service import AgentService
from openhuman_desktop.orchestration.steering import Directive, DirectiveDraft, HistoryRecord, Reflection
from openhuman_desktop.paths import Paths
from openhuman_desktop.rpc.agent_methods import agent_methods
from openhuman_desktop.rpc.channel_methods import channel_methods
from openhuman_desktop.rpc.memory_methods import memory_methods
from openhuman_desktop.rpc.methods import MethodTable, subconscious_methods
from openhuman_desktop.rpc.protocol import Dispatcher
from openhuman_desktop.rpc.reflection_methods import reflection_methods
from openhuman_desktop.rpc.server import RpcServer
from openhuman_desktop.rpc.skill_methods import skill_methods
from openhuman_desktop.skills import (
    MemorySkill,
    NotificationSkill,
    SubconsciousTasksSkill,
    WorkspaceFilesSkill,
)
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.skills.listing import describe_all, health_lines
from openhuman_desktop.skills.mcp import McpSkills
from openhuman_desktop.skills.world import WorldSkills
from openhuman_desktop.store import SubconsciousStore, open_subconscious_store
from openhuman_desktop.subconscious import report
from openhuman_desktop.subconscious.approvals import ApprovalGate
from openhuman_desktop.subconscious.changes import FileHistory
from openhuman_desktop.subconscious.engine import SubconsciousEngine
from openhuman_desktop.subconscious.executor import TaskExecutor
from openhuman_desktop.subconscious.intent import ChatIntentJudge, ModelIntentClassifier
from openhuman_desktop.subconscious.judgement import Judge
from openhuman_desktop.subconscious.reflection import Reflector
from openhuman_desktop.subconscious.service import SubconsciousService
from openhuman_desktop.subconscious.task_rules import TaskRules
from openhuman_desktop.subconscious.workspace_index import WorkspaceIndex
from openhuman_desktop.supervisor import TaskSupervisor
from openhuman_desktop.watch import watch_file

JUDGEMENT_DB = "judgement.db"
"""Under ``subconscious/``: the file versions the heartbeat saw, and the users' own task rules."""
log = logging.getLogger(__name__)


@dataclass
class Services:
    """Everything one running instance is made of. Built by :func:`build`, closed by :meth:`aclose`."""

    paths: Paths
    settings: LiveSettings
    bus: events.EventBus
    clock: Clock
    tasks: TaskSupervisor
    store: SubconsciousStore
    memory: MemoryStore
    models: ModelClients
    skills: SkillRegistry
    subconscious: SubconsciousService
    approvals: ApprovalGate
    engine: SubconsciousEngine
    rpc: RpcServer
    ledger: RunLedger
    agent: AgentService
    channels: ChannelHub
    steering: SteeringStore
    reflection: Reflector
    mcp: McpSkills
    world: WorldSkills
    workspace_index: WorkspaceIndex | None = None
    file_history: FileHistory | None = None
    vectors: VectorMemory | None = None
    embedders: Embedders | None = None
    first_run: bool = False  # config.toml was created by this start: the first-run set-up opens
    _closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    _closed: bool = False

    async def start(self) -> None:
        """Seed, sync HEARTBEAT.md, recover from a crash, start the heartbeat, watchers, the RPC server and the
        channels (after the unfinished runs have resumed).

        Nothing here waits on a model: the intent of new HEARTBEAT.md tasks is asked for in the background
        (``intent-classifier``), model health is checked in the background, and the RPC server listens
        as soon as the database is ready.
        """
        await self.subconscious.seed_defaults()
        await self.subconscious.sync_heartbeat_file(announce=False)  # announced below, once the UI listens
        # The approvals first: the gate stops the runs of approvals whose task was disabled meanwhile and
        # carries the others on; then every run a crash or a shutdown left unfinished resumes from its last
        # checkpoint (before any channel opens).
        await self.approvals.recover()
        await self.engine.start()
        await self.agent.resume_unfinished()
        self.tasks.spawn(self.subconscious.refine_intents(), name="intent-classifier")
        if self.workspace_index is not None:  # built in the background: the first tick finds it ready
            self.tasks.spawn(asyncio.to_thread(self.workspace_index.warm), name="workspace-index")
        self.tasks.spawn(watch_file(self.paths.config_file, self.clock, self._on_config_changed), name="watch-config")
        self.tasks.spawn(
            watch_file(self.paths.heartbeat_file, self.clock, self._on_heartbeat_file_changed), name="watch-heartbeat"
        )
        self.tasks.spawn(self._watch_models(), name="model-health")
        await self.reflection.prepare()
        self.tasks.spawn(self.reflection.run(), name="reflection-schedule")
        if self.vectors is not None:  # memories without a vector of the embedding model get one
            self.tasks.spawn(self.vectors.run(), name="memory-vectors")
        self.bus.subscribe(events.TickFinished, self._on_tick_finished)
        await self.rpc.start()
        await self.channels.start()
        # MCP servers last, and in the background: each starts (and its SDK is imported) off the start-up path.
        await self.mcp.apply()
        problem = self.subconscious.heartbeat_problem
        if problem is not None:  # after start() returns, when the window's bridge has subscribed
            asyncio.get_running_loop().call_soon(
                self.bus.publish, events.Notified("HEARTBEAT.md not read", problem)
            )

    async def _on_config_changed(self) -> None:
        was_rejected = self.settings.problem is not None
        if await self.settings.reload():
            self.engine.heartbeat.poke()
            self.reflection.poke()
            if self.vectors is not None:
                self.vectors.wake()  # [models.embedding] may have changed: re-embed, or try it again
            self.tasks.spawn(self._check_models(), name="model-check")
            self.tasks.spawn(self.channels.reconfigure(), name="channels-reconfigure")
            self.tasks.spawn(self.mcp.apply(), name="mcp-reconfigure")
            self.world.apply()
        elif was_rejected and self.settings.problem is None:
            # A rejected edit fixed back to the settings in force: what the models said may be old news too.
            self.tasks.spawn(self._check_models(), name="model-check")

    def _on_tick_finished(self, event: events.TickFinished) -> None:
        # A model that answered is healthy again: refresh at once rather than at the next periodic check.
        if event.outcome == "ok" and self.models.problem("local") and not self._closed:
            self.tasks.spawn(self._check_models(), name="model-check")

    async def _watch_models(self) -> None:
        """Check the models now, then again every minute while one is unhealthy (every 10 minutes if not)."""
        while True:
            healthy = await self._check_models()
            await self.clock.sleep(600.0 if healthy else 60.0)

    async def _on_heartbeat_file_changed(self) -> None:
        await self.subconscious.sync_heartbeat_file()

    async def _check_models(self) -> bool:
        """Check every tier at once; each answer is published as it comes (a hanging endpoint of one tier
        must not keep the other's news from the status). Returns whether all tiers are fine."""
        await asyncio.gather(*(self._check_model(tier) for tier in TIERS))
        return all(self.models.problem(tier) is None for tier in TIERS)

    async def _check_model(self, tier: str) -> None:
        before = self.models.health.get(tier)
        health = await self.models.check(tier)
        if health != before:
            if not health.ok:
                log.warning("model %s: %s", tier, health.message)
            self.bus.publish(events.StatusChanged())
        if tier == "reasoning" and health.ok and not self._closed:
            # A Go ahead that found the reasoning model down waits for it; it answers a check again, so try.
            # (Should the model still fail the real call, the card comes back, and the next check retries.)
            await self.approvals.retry_waiting()

    async def aclose(self) -> None:
        """Stop producers first (channels, RPC, ticks, heartbeat, watchers), then close clients and databases.

        Safe to call twice. An in-flight tick is recorded as cancelled.
        """
        if self._closed:
            return
        self._closed = True
        await self.channels.aclose()
        await self.rpc.aclose()
        await self.engine.aclose()
        await self.agent.aclose()  # unfinished runs stay so in the ledger and resume at the next start
        await self.mcp.aclose()  # every MCP server's process group stopped
        await self.world.aclose()  # the mailbox's connection closed, the feeds' client too
        await self.tasks.cancel_all()
        if self.workspace_index is not None:
            await self.workspace_index.aclose()
        if self.file_history is not None:
            await asyncio.to_thread(self.file_history.close)
        await self.models.aclose()
        if self.embedders is not None:
            await self.embedders.aclose()
        await self.memory.aclose()
        await self.ledger.aclose()
        await self.store.aclose()


def freeze_startup_objects() -> None:
    """Once the app has started: collect, then let the cycle collector skip every object alive now.

    What exists after start-up (modules, clients, settings, the window) lives as long as the process, yet
    every full collection walked it again: a collection in the middle of a tick took 40-70 ms here. Only
    for the app's own process (objects frozen here are never collected as cycles, which a test process
    that starts the app many times would feel).
    """
    gc.collect()
    gc.freeze()


async def build(paths: Paths, loaded: config.LoadedConfig, clock: Clock | None = None) -> Services:
    """Create the workspace files if needed and build every service (nothing runs until ``start``).

    Raises:
        UserFacingError: a workspace file or a database cannot be used; whatever was opened is closed again
            (an open database's thread would otherwise keep the process from exiting).
    """
    clock = clock or SystemClock()
    first_run = paths.config_file.name in workspace.prepare(paths)
    store = await open_subconscious_store(paths.subconscious_db)
    opened: list[Callable[[], Awaitable[None]]] = [store.aclose]
    try:
        memory = await open_memory_store(paths.workspace / "memory" / "memory.db", clock)
        opened.append(memory.aclose)
        ledger = await RunLedger.open(paths.ledger_db, clock)
        opened.append(ledger.aclose)
        services = _wire(paths, loaded, clock, store, memory, ledger)
        services.first_run = first_run
        return services
    except BaseException:
        for close in reversed(opened):
            await close()
        raise


def _wire(
    paths: Paths, loaded: config.LoadedConfig, clock: Clock, store: SubconsciousStore, memory: MemoryStore,
    ledger: RunLedger,
) -> Services:
    """Every service around the two open databases (constructors only: nothing runs, nothing is awaited)."""
    bus = events.EventBus()
    live = LiveSettings(paths.config_file, loaded, bus)
    supervisor = TaskSupervisor()
    schemas = SchemaMemory(paths.subconscious_dir / "model_servers.json")  # issue 24: no 500 on every start

    def remembering(settings: config.Settings, tier: str) -> LlmClient | None:
        client = make_client(settings, tier)  # looked up at each call: tests put fakes there
        if isinstance(client, OpenAICompatClient):
            client.remember_schemas(schemas)
        return client

    models = ModelClients(live, remembering, on_change=lambda: bus.publish(events.StatusChanged()))
    tokens = TokenCounter()
    # One classifier for tasks and chats: the probes a task's classification ran count for the chat too.
    intents = ModelIntentClassifier(lambda: models.get("local"))
    rules = TaskRules(paths.subconscious_dir / JUDGEMENT_DB)
    service = SubconsciousService(store, clock, bus, live, paths.heartbeat_file, intents, rules=rules)
    skills = SkillRegistry()
    skills.add(WorkspaceFilesSkill(paths.workspace))
    skills.add(MemorySkill(memory, bus))
    skills.add(SubconsciousTasksSkill(service.tasks_list, service.tasks_add_by_assistant))
    skills.add(NotificationSkill(bus))
    # Mail, feeds, calendars, the web and Slack (CONTRACT §12.2): always listed, each on with its table.
    world = WorldSkills(skills, lambda: live().skills, clock, paths.skills_dir,
                        on_change=lambda: bus.publish(events.SkillsChanged()))
    mcp = McpSkills(skills, lambda: live().skills, clock, tokens, on_change=lambda: bus.publish(events.SkillsChanged()))

    embedders = Embedders(live)
    vectors = VectorMemory(memory, embedders, clock, on_change=lambda: bus.publish(events.StatusChanged()))

    async def recent_memories(since: float | None) -> list[tuple[str, str, float]]:
        items = await memory.since(since or 0.0, 50)
        return [(item.id, item.text, item.created_at) for item in items]

    async def relevant_memories(query: str, limit: int) -> list[tuple[str, str, float]]:
        try:
            items = await memory.search(query, limit)
        except InvalidInput:  # task titles without a word to search for
            return []
        return [(item.id, item.text, item.created_at) for item in items]

    async def skill_lines() -> list[str]:
        await world.settled()  # the state this tick's reads of mail, feeds and calendars found
        # What the judge reads: the state and what is wrong, without addresses or configuration advice.
        return health_lines(await describe_all(skills), plain=report.for_the_judge)

    async def skill_verdicts() -> str:
        # Only the states: an MCP server's reason carries its stderr, which must not open the idle gate.
        await world.settled()
        return ",".join(f"{info.name}:{info.state}" for info in await describe_all(skills) if info.enabled)

    async def model_lines() -> list[str]:
        # A skill in error or disconnected is part of the model-health picture (CONTRACT §12.3).
        await world.settled()
        lines = [f"skill {info.name}: {info.state} — {info.state_reason}" for info in await describe_all(skills)
                 if info.enabled and info.is_problem]
        for tier in TIERS:
            problem, health = models.problem(tier), models.health.get(tier)
            if problem is not None:
                lines.append(f"{tier} model: problem — {report.for_the_judge(problem)}")
            elif health is not None:  # its address and what to set (an assumed window) are the user's
                lines.append(f"{tier} model: ok — {report.for_the_judge(health.message)}")
        return lines

    async def model_verdicts() -> str:
        # Only ok/problem per tier (not checked yet counts as ok): the idle gate ignores the details.
        await world.settled()
        tiers = ",".join(f"{tier}:{'ok' if ok else 'problem'}" for tier, ok in models.verdicts().items())
        problems = [f"{info.name}:{info.state}" for info in await describe_all(skills)
                    if info.enabled and info.is_problem]
        return ";".join([tiers, *problems])

    async def watched(tasks: object, since: float | None, now: float) -> report.Section | None:
        # What the skills watch, read at the start of the tick (CONTRACT §12.3): the lines say what changed since
        # the due tasks' oldest decision; the signature is what the resources hold, so it moves only with them.
        if not mcp.watching():
            return None
        await mcp.poll(now)
        lines = mcp.change_lines(since)
        text = "\n".join(f"- {report.one_line(line)}" for line in lines) or "Nothing watched has changed."
        return report.Section("Skills", text, signature=mcp.watch_signature())

    files = WorkspaceIndex(paths.workspace)
    history = FileHistory(paths.subconscious_dir / JUDGEMENT_DB)
    reporter = report.SituationReporter(
        [
            report.environment_section(paths.workspace),
            report.memory_section(recent_memories, related=relevant_memories),
            report.files_section(paths.workspace, files, workspace.default_heartbeat_text(), history),
            # One section per watching skill: new mail, feed items, upcoming events (CONTRACT §12.3).
            *world.section_sources(report.Section),
            watched,
            report.verdicts_section("Skill health", skill_lines, skill_verdicts),
            report.verdicts_section("Model health", model_lines, model_verdicts),
        ],
        tokens,
        lambda: live().heartbeat.context_budget_tokens,
    )
    # The gate raises the agent's cards and carries approvals out through the agent: it reaches the agent
    # once it exists (this closure is called only after the agent below is built).
    gate = ApprovalGate(store, clock, bus, supervisor, skills, lambda: agent)
    steering = SteeringStore(ledger, clock, bus)
    reflection = Reflector(_ReflectionPort(ledger, steering), models, tokens, live, clock, bus, supervisor,
                           _Evictions(memory, bus))
    graph = build_graph(
        quick=lambda: models.reporting("local"), reasoning=lambda: models.reporting("reasoning"),
        window=models.context_window, skills=skills, tokens=tokens, intent=ChatIntentJudge(intents),
        steering=steering, cards=gate, evictions=_Evictions(memory, bus),
        settings=lambda: live().agent, set_permission=ledger.set_permission, clock=clock,
        recall=_Recall(memory, vectors), quick_worker=lambda: models.get("local"),
    )
    agent = AgentService(ledger, lambda: graph, bus, clock, supervisor, lambda: live().agent)
    engine = SubconsciousEngine(
        store=store, sync_tasks=service.sync_heartbeat_file, cards=gate, clock=clock, bus=bus, settings=live,
        supervisor=supervisor,
        reporter=reporter,
        # Through ``reporting``, the evaluations and every reasoning call are the tiers' health in the status
        # (a failed local "act" fails only its row, as before).
        evaluator=Judge(lambda: models.reporting("local"), tokens, lambda: models.context_window("local"),
                        rules),
        executor=TaskExecutor(skills, agent, window=models.context_window, tokens=tokens),
        models=models, config_problem=lambda: live.problem_summary,
    )
    service.attach_engine(engine)
    table = MethodTable()
    table.add(subconscious_methods(service, gate))
    table.add(memory_methods(memory, bus, vectors))
    table.add(agent_methods(agent))
    table.add(reflection_methods(steering, reflection))
    hub = ChannelHub(agent, gate, bus, clock, supervisor)
    hub.add(WebappChannel(hub, lambda: live().channels.webapp, paths.webapp_file, paths.workspace, clock, supervisor,
                          on_change=lambda: bus.publish(events.StatusChanged())))
    hub.add(TelegramChannel(hub, lambda: live().channels.telegram, clock, supervisor, bus))
    table.add(channel_methods(hub))
    table.add(skill_methods(skills, mcp, world))
    rpc = RpcServer(Dispatcher(table), paths.rpc_file, live().rpc_port)
    return Services(
        paths=paths, settings=live, bus=bus, clock=clock, tasks=supervisor, store=store, memory=memory,
        models=models, skills=skills, subconscious=service, approvals=gate, engine=engine, rpc=rpc, ledger=ledger,
        agent=agent, channels=hub, steering=steering, reflection=reflection, mcp=mcp, world=world,
        workspace_index=files, file_history=history,
        vectors=vectors,
        embedders=embedders,
    )


class _Recall:
    """The agent's recall of long-term memory: a hybrid search for the request, keeping what the vectors found
    similar (words alone match too loosely to put into every prompt; the memory tool searches by words too).
    Nothing without a working embedding model."""

    def __init__(self, memory: MemoryStore, vectors: VectorMemory) -> None:
        self._memory = memory
        self._vectors = vectors

    async def recall(self, query: str, limit: int) -> list[str]:
        health = self._vectors.health()
        if health.model is None or not health.ok:
            return []
        try:
            found = await self._memory.search(query[:1_000], limit)
        except InvalidInput:  # no word to search for
            return []
        except StoreUnavailable as exc:  # the run goes on without it
            log.warning("recalling memories failed: %s", exc)
            return []
        return [memory.text for memory in found if "vector" in memory.matched_by]


class _Evictions:
    """What the context hook evicts goes to long-term memory, tagged ``evicted`` (and gets its vector from the
    back-fill, like every memory)."""

    def __init__(self, memory: MemoryStore, bus: events.EventBus) -> None:
        self._memory = memory
        self._bus = bus

    async def store_evicted(self, text: str, *, thread_id: str, run_id: str) -> None:
        for part in text_parts(text):  # longer than one memory may be: in parts, none of it dropped
            stored = await self._memory.add(part, source="assistant", tags=(EVICTED_TAG, thread_id.split(":", 1)[0]))
            self._bus.publish(events.MemoryAdded(stored))


class _ReflectionPort:
    """Reflection's only view of the ledger (``subconscious.reflection.ReflectionPort``): the compressed-history
    log, the world timeline, its own records and the steering directive — never messages, checkpoints or runs."""

    __slots__ = ("_ledger", "_steering")

    def __init__(self, ledger: RunLedger, steering: SteeringStore) -> None:
        self._ledger = ledger
        self._steering = steering

    async def news(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return await self._ledger.reflection_news()

    async def history(self, after: int, limit: int) -> list[HistoryRecord]:
        return await self._ledger.history_log(after, limit)

    async def timeline(self, after: int, limit: int) -> list[TimelineEntry]:
        return await self._ledger.timeline(after, limit)

    async def current_directive(self) -> Directive | None:
        return await self._steering.current_directive()

    async def write_directive(self, draft: DirectiveDraft) -> Directive:
        return await self._steering.write(draft)

    async def record(self, reflection: Reflection) -> Reflection:
        return await self._ledger.record_reflection(reflection)

    async def reflections(self, limit: int) -> list[Reflection]:
        return await self._ledger.reflections(limit)
