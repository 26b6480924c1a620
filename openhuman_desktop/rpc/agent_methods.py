"""The agent's methods (CONTRACT §8): send a message, follow and read runs, the thread state, its history and the
world timeline."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.orchestration import graph, state
from openhuman_desktop.orchestration.ports import RUN_STATUSES, Run
from openhuman_desktop.orchestration.threads import thread_source
from openhuman_desktop.rpc.methods import Json, Method, Param
from openhuman_desktop.rpc.protocol import METHOD_PREFIX

MAX_TEXT = 100_000
"""Most characters of one message (the front-end agent keeps the first ~16,000 and says so)."""
MAX_LIST_LIMIT = 1_000
DEFAULT_FOLLOW_TIMEOUT = 10.0
MAX_FOLLOW_TIMEOUT = 30.0
DEFAULT_THREAD = "desktop"


class Follow(Protocol):
    """What a long-poll on a run returns: the streamed text past ``after``, where it ends, and (once the run has
    finished) the run."""

    @property
    def text(self) -> str: ...

    @property
    def offset(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def run(self) -> Run | None: ...


class AgentService(Protocol):
    """The part of ``orchestration.service.AgentService`` these methods call."""

    async def send(self, text: str, thread_id: str = DEFAULT_THREAD) -> Run:
        """Start a run for ``text`` on ``thread_id`` (its channel source is the part before ``:``)."""
        ...

    async def follow(self, run_id: str, after: int, timeout: float) -> Follow:
        """Wait up to ``timeout`` seconds for streamed text past ``after`` characters, or the run's end."""
        ...

    async def run_get(self, run_id: str) -> Run:
        ...

    async def stop(self, run_id: str) -> Run:
        """Stop a run that has not finished (it ends ``cancelled``, "Stopped by you."); Conflict when it had."""
        ...

    async def runs_list(self, thread_id: str | None, status: str | None, limit: int) -> list[Run]:
        ...

    async def state_get(self, thread_id: str) -> dict[str, Any]:
        ...

    async def state_update(self, thread_id: str, values: dict[str, Any], as_node: str) -> dict[str, Any]:
        ...

    async def history(self, thread_id: str, limit: int, before: int | None) -> list[dict[str, Any]]:
        ...

    async def world_timeline(self, after: int, limit: int) -> list[dict[str, Any]]:
        ...


def check_thread_id(value: Json, param: str = "thread_id") -> str:
    """A thread id as CONTRACT §8 names them: ``desktop``, ``cli``, ``cli:<name>``, ``webapp:<session>``,
    ``telegram:<chat_id>``, ``subconscious:<task_id>`` (the agent's own rule, ``threads.thread_source``).

    Raises:
        InvalidInput: not a string, empty, longer than 200 characters, with control or invisible characters,
            or not starting with a channel's name.
    """
    thread_source(value, param)
    assert isinstance(value, str)
    return value


def channel_source_of(thread_id: str) -> str:
    """The channel a thread belongs to: the part of its id before ``:``."""
    return thread_id.partition(":")[0]


def _text(value: Json) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("text", "must be a non-empty message")
    if len(value) > MAX_TEXT:
        raise InvalidInput("text", f"is {len(value):,} characters long; the limit is {MAX_TEXT:,}")
    return value


def _count(value: Json, name: str, default: int, *, minimum: int = 0, maximum: int | None = None) -> int:
    if value is None:
        return default
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise InvalidInput(name, f"must be {bound}")
    return int(value)


def _timeout(value: Json) -> float:
    if value is None:
        return DEFAULT_FOLLOW_TIMEOUT
    if not 0 <= value <= MAX_FOLLOW_TIMEOUT:
        raise InvalidInput("timeout", f"must be between 0 and {MAX_FOLLOW_TIMEOUT:g} seconds")
    return float(value)


def _status(value: Json) -> str | None:
    if value is not None and value not in RUN_STATUSES:
        raise InvalidInput("status", "must be one of " + ", ".join(RUN_STATUSES))
    return value if isinstance(value, str) else None


def _as_node(value: Json) -> str:
    if value not in graph.AS_NODES:
        raise InvalidInput("as_node", "must be one of " + ", ".join(graph.AS_NODES))
    return str(value)


def _values(value: Json) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput("values", "must be an object of state keys")
    unknown = sorted(key for key in value if key not in state.KEYS)
    if unknown:
        raise InvalidInput("values", f"{unknown[0][:60]!r} is not a state key (the keys are "
                                     + ", ".join(state.KEYS) + ")")
    return dict(value)


def follow_json(found: Follow) -> dict[str, Any]:
    """``agent_run_follow``'s answer: ``{text, offset, status, run}`` (``run`` null until it has finished)."""
    return {"text": found.text, "offset": found.offset, "status": found.status,
            "run": found.run.to_json() if found.run is not None else None}


def agent_methods(agent: AgentService) -> dict[str, Method]:
    """The ``openhuman.agent_*`` methods and ``openhuman.world_timeline`` (CONTRACT §8), plus
    ``openhuman.agent_run_follow``, the long-poll the ``chat`` command streams an answer with, and
    ``openhuman.agent_run_cancel`` (Stop: the Run, ended ``cancelled``; -32001 for an unknown run, -32002 for
    one that had already finished)."""

    async def send(p: dict[str, Json]) -> Json:
        given = p.get("thread_id")
        thread_id = check_thread_id(DEFAULT_THREAD if given is None else given)
        run = await agent.send(_text(p["text"]), thread_id)
        return {"run_id": run.id, "thread_id": run.thread_id}

    async def run_get(p: dict[str, Json]) -> Json:
        return (await agent.run_get(p["run_id"])).to_json()

    async def run_cancel(p: dict[str, Json]) -> Json:
        return (await agent.stop(p["run_id"])).to_json()

    async def run_follow(p: dict[str, Json]) -> Json:
        found = await agent.follow(p["run_id"], _count(p.get("after"), "after", 0), _timeout(p.get("timeout")))
        return follow_json(found)

    async def runs_list(p: dict[str, Json]) -> Json:
        thread_id = check_thread_id(p["thread_id"]) if p.get("thread_id") is not None else None
        runs = await agent.runs_list(thread_id, _status(p.get("status")),
                                     _count(p.get("limit"), "limit", 50, minimum=1, maximum=MAX_LIST_LIMIT))
        return [run.to_json() for run in runs]

    async def state_get(p: dict[str, Json]) -> Json:
        return await agent.state_get(check_thread_id(p["thread_id"]))

    async def state_update(p: dict[str, Json]) -> Json:
        thread_id, as_node, values = check_thread_id(p["thread_id"]), _as_node(p["as_node"]), _values(p["values"])
        try:
            return await agent.state_update(thread_id, values, as_node)
        except state.StateError as exc:  # a value of the wrong shape for its key's reducer
            raise InvalidInput("values", str(exc)) from None

    async def history(p: dict[str, Json]) -> Json:
        before = _count(p.get("before"), "before", 0, minimum=1) if p.get("before") is not None else None
        return await agent.history(check_thread_id(p["thread_id"]),
                                   _count(p.get("limit"), "limit", 50, minimum=1, maximum=MAX_LIST_LIMIT), before)

    async def world_timeline(p: dict[str, Json]) -> Json:
        return await agent.world_timeline(_count(p.get("after"), "after", 0),
                                          _count(p.get("limit"), "limit", 100, minimum=1, maximum=MAX_LIST_LIMIT))

    run_id = Param("run_id", "string", required=True)
    thread_id = Param("thread_id", "string", required=True)
    table = {
        "agent_send": Method((Param("text", "string", required=True), Param("thread_id", "string")), send),
        "agent_run_get": Method((run_id,), run_get),
        "agent_run_cancel": Method((run_id,), run_cancel),
        "agent_run_follow": Method((run_id, Param("after", "integer"), Param("timeout", "number")), run_follow),
        "agent_runs_list": Method(
            (Param("thread_id", "string"), Param("status", "string"), Param("limit", "integer")), runs_list),
        "agent_state_get": Method((thread_id,), state_get),
        "agent_state_update": Method(
            (thread_id, Param("values", "any", required=True), Param("as_node", "string", required=True)),
            state_update),
        "agent_history": Method((thread_id, Param("limit", "integer"), Param("before", "integer")), history),
        "world_timeline": Method((Param("after", "integer"), Param("limit", "integer")), world_timeline),
    }
    return {METHOD_PREFIX + name: method for name, method in table.items()}
