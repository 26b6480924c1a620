"""The composition root: the only place that picks concrete implementations and wires them together."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from openhuman_desktop import config, events, workspace
from openhuman_desktop.channels import ChannelHub
from openhuman_desktop.channels.telegram import TelegramChannel
from openhuman_desktop.channels.webapp import WebappChannel
from openhuman_desktop.clock import Clock, SystemClock
from openhuman_desktop.live_config import LiveSettings
from openhuman_desktop.llm import LlmClient, OpenAICompatClient, make_client
from openhuman_desktop.llm.embeddings import Embedders
from openhuman_desktop.llm.pool import ModelClients
from openhuman_desktop.llm.schema_memory import SchemaMemory
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.memory import MemoryStore, open_memory_store
from openhuman_desktop.memory.ports import EvictionStore, ReportMemories, VectorRecall
from openhuman_desktop.memory.service import MemoryService
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
from openhuman_desktop.skills.mcp import McpSkills
from openhuman_desktop.skills.world import WorldSkills
from openhuman_desktop.store import SubconsciousStore, open_subconscious_store
from openhuman_desktop.subconscious import report
from openhuman_desktop.subconscious.approvals import ApprovalGate
from openhuman_desktop.subconscious.changes import FileHistory
from openhuman_desktop.subconscious.engine import SubconsciousEngine
from openhuman_desktop.subconscious.executor import TaskExecutor
from openhuman_desktop.subconscious.health import HealthSections
from openhuman_desktop.subconscious.intent import ChatIntentJudge, ModelIntentClassifier
from openhuman_desktop.subconscious.judgement import Judge
from openhuman_desktop.subconscious.model_watch import ModelWatch
from openhuman_desktop.subconscious.reflection import Reflector
from openhuman_desktop.subconscious.service import SubconsciousService
from openhuman_desktop.subconscious.task_rules import TaskRules
from openhuman_desktop.subconscious.workspace_index import WorkspaceIndex
from openhuman_desktop.supervisor import TaskSupervisor
from openhuman_desktop.watch import watch_file

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
    memories: MemoryService  # the one door memory is written through (it publishes what changed)
    workspace_index: WorkspaceIndex | None = None
    file_history: FileHistory | None = None
    vectors: VectorMemory | None = None
    embedders: Embedders | None = None
    model_watch: ModelWatch | None = None
    first_run: bool = False  # config.toml was created by this start: the first-run set-up opens
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
        if self.model_watch is not None:
            self.tasks.spawn(self.model_watch.run(), name="model-health")
            self.bus.subscribe(events.TickFinished, self.model_watch.on_tick_finished)
        await self.reflection.prepare()
        self.tasks.spawn(self.reflection.run(), name="reflection-schedule")
        if self.vectors is not None:  # memories without a vector of the embedding model get one
            self.tasks.spawn(self.vectors.run(), name="memory-vectors")
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
            self._check_models()
            self.tasks.spawn(self.channels.reconfigure(), name="channels-reconfigure")
            self.tasks.spawn(self.mcp.apply(), name="mcp-reconfigure")
            self.world.apply()
        elif was_rejected and self.settings.problem is None:
            # A rejected edit fixed back to the settings in force: what the models said may be old news too.
            self._check_models()

    def _check_models(self) -> None:
        if self.model_watch is not None:
            self.model_watch.check_soon()

    async def _on_heartbeat_file_changed(self) -> None:
        await self.subconscious.sync_heartbeat_file()

    async def aclose(self) -> None:
        """Stop producers first (channels, RPC, ticks, heartbeat, watchers), then close clients and databases.

        Safe to call twice. An in-flight tick is recorded as cancelled.
        """
        if self._closed:
            return
        self._closed = True
        if self.model_watch is not None:
            self.model_watch.close()
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
        memory = await open_memory_store(paths.memory_db, clock)
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
    schemas = SchemaMemory(paths.model_servers_file)  # issue 24: no 500 on every start

    def remembering(settings: config.Settings, tier: str) -> LlmClient | None:
        client = make_client(settings, tier)  # looked up at each call: tests put fakes there
        if isinstance(client, OpenAICompatClient):
            client.remember_schemas(schemas)
        return client

    models = ModelClients(live, remembering, on_change=lambda: bus.publish(events.StatusChanged()))
    tokens = TokenCounter()
    # One classifier for tasks and chats: the probes a task's classification ran count for the chat too.
    intents = ModelIntentClassifier(lambda: models.get("local"))
    rules = TaskRules(paths.judgement_db)
    service = SubconsciousService(store, clock, bus, live, paths.heartbeat_file, intents, rules=rules)
    skills = SkillRegistry()
    skills.add(WorkspaceFilesSkill(paths.workspace))
    memories = MemoryService(memory, bus)  # the one door memory is written through
    skills.add(MemorySkill(memories))
    skills.add(SubconsciousTasksSkill(service.tasks_list, service.tasks_add_by_assistant))
    skills.add(NotificationSkill(bus))
    # Mail, feeds, calendars, the web and Slack (CONTRACT §12.2): always listed, each on with its table.
    world = WorldSkills(skills, lambda: live().skills, clock, paths.skills_dir,
                        on_change=lambda: bus.publish(events.SkillsChanged()))
    mcp = McpSkills(skills, lambda: live().skills, clock, tokens, on_change=lambda: bus.publish(events.SkillsChanged()))

    embedders = Embedders(live)
    vectors = VectorMemory(memory, embedders, clock, on_change=lambda: bus.publish(events.StatusChanged()))
    report_memories = ReportMemories(memory)
    health = HealthSections(skills, world, mcp, models)
    files = WorkspaceIndex(paths.workspace)
    history = FileHistory(paths.judgement_db)
    reporter = report.SituationReporter(
        [
            report.environment_section(paths.workspace),
            report.memory_section(report_memories.recent, related=report_memories.related),
            report.files_section(paths.workspace, files, workspace.default_heartbeat_text(), history),
            # One section per watching skill: new mail, feed items, upcoming events (CONTRACT §12.3).
            *world.section_sources(report.news_section),
            *health.sections(),
        ],
        tokens,
        lambda: live().heartbeat.context_budget_tokens,
    )
    # The gate raises the agent's cards and carries approvals out through the agent: it reaches the agent
    # once it exists (this closure is called only after the agent below is built).
    gate = ApprovalGate(store, clock, bus, supervisor, skills, lambda: agent)
    steering = SteeringStore(ledger, clock, bus)
    reflection = Reflector(LedgerReflectionPort(ledger, steering), models, tokens, live, clock, bus, supervisor,
                           EvictionStore(memories))
    graph = build_graph(
        quick=lambda: models.reporting("local"), reasoning=lambda: models.reporting("reasoning"),
        window=models.context_window, skills=skills, tokens=tokens, intent=ChatIntentJudge(intents),
        steering=steering, cards=gate, evictions=EvictionStore(memories),
        settings=lambda: live().agent, set_permission=ledger.set_permission, clock=clock,
        recall=VectorRecall(memory, vectors), quick_worker=lambda: models.get("local"),
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
    table.add(memory_methods(memories, vectors=vectors))
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
        agent=agent, channels=hub, steering=steering, reflection=reflection, mcp=mcp, world=world, memories=memories,
        workspace_index=files, file_history=history,
        vectors=vectors,
        embedders=embedders,
        model_watch=ModelWatch(models, bus, clock, supervisor, gate.retry_waiting),
    )


class LedgerReflectionPort:
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
