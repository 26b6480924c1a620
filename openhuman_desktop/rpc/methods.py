"""The ``openhuman.*`` methods: parameter checking and the call into the service layer."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.rpc.protocol import METHOD_NOT_FOUND, METHOD_PREFIX, RpcError
from openhuman_desktop.subconscious.approvals import ApprovalGate
from openhuman_desktop.subconscious.service import SubconsciousService

Json = Any
_MISSING = object()


@dataclass(frozen=True)
class Param:
    """One declared parameter: its name, JSON type and whether it must be given."""

    name: str
    kind: str  # "string", "integer", "number", "boolean", "any"
    required: bool = False


def _check(param: Param, value: Json) -> Json:
    if value is None and not param.required:
        return None
    if param.kind == "string" and not isinstance(value, str):
        raise InvalidInput(param.name, "must be a string")
    if param.kind == "boolean" and not isinstance(value, bool):
        raise InvalidInput(param.name, "must be true or false")
    if param.kind == "integer" and (isinstance(value, bool) or not isinstance(value, int)):
        raise InvalidInput(param.name, "must be a whole number")
    if param.kind == "number":
        return _finite(param.name, value)
    return value


def _finite(name: str, value: Json) -> float:
    """A number as a float; an integer too large for a float (or for SQLite) is refused, not a crash."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(name, "must be a finite number")
    try:
        number = float(value)
    except OverflowError:
        raise InvalidInput(name, "must be a finite number") from None
    if not math.isfinite(number):
        raise InvalidInput(name, "must be a finite number")
    return number


def bind(declared: tuple[Param, ...], params: dict[str, Json] | list[Json]) -> dict[str, Json]:
    """Match by-name or by-position params to the declaration.

    Raises:
        InvalidInput: an unknown, missing, surplus or mistyped parameter (named in the message).
    """
    names = [param.name for param in declared]
    if isinstance(params, list):
        if len(params) > len(declared):
            raise InvalidInput("params", f"takes at most {len(declared)} positional values, got {len(params)}")
        given = dict(zip(names, params, strict=False))
    else:
        unknown = sorted(set(params) - set(names))
        if unknown:
            allowed = ", ".join(names) or "no parameters"
            raise InvalidInput(unknown[0][:100], f"is not a parameter of this method (it takes {allowed})")
        given = params
    bound: dict[str, Json] = {}
    for param in declared:
        value = given.get(param.name, _MISSING)
        if value is _MISSING or (value is None and param.required):
            if param.required:
                raise InvalidInput(param.name, "is required")
            continue
        bound[param.name] = _check(param, value)
    return bound


@dataclass(frozen=True)
class Method:
    """A callable RPC method."""

    params: tuple[Param, ...]
    call: Callable[[dict[str, Json]], Awaitable[Json]]


def _limit(value: Json) -> int:
    if value is None:
        return 50
    if not 1 <= value <= 1000:
        raise InvalidInput("limit", "must be between 1 and 1000")
    return int(value)


def subconscious_methods(service: SubconsciousService, approvals: ApprovalGate) -> dict[str, Method]:
    """The ``subconscious_*`` methods of CONTRACT §4 (the escalations through the approval gate)."""

    async def status(p: dict[str, Json]) -> Json:
        return await service.status()

    async def trigger(p: dict[str, Json]) -> Json:
        service.trigger()
        return {"triggered": True}

    async def tasks_list(p: dict[str, Json]) -> Json:
        return [task.to_json() for task in await service.tasks_list(bool(p.get("enabled_only")))]

    async def tasks_add(p: dict[str, Json]) -> Json:
        task = await service.tasks_add(p["title"], p.get("recurrence") or "pending")
        return task.to_json()

    async def tasks_update(p: dict[str, Json]) -> Json:
        task = await service.tasks_update(
            p["task_id"], title=p.get("title"), enabled=p.get("enabled"),
            recurrence_text=p.get("recurrence"), intent=p.get("intent"),
        )
        return task.to_json()

    async def tasks_remove(p: dict[str, Json]) -> Json:
        return {"removed": await service.tasks_remove(p["task_id"])}

    async def tasks_rule_get(p: dict[str, Json]) -> Json:
        return dict(await service.tasks_rule(p["task_id"]))

    async def tasks_rule_set(p: dict[str, Json]) -> Json:
        rule = await service.tasks_rule_set(p["task_id"], watch=p.get("watch"), condition=p.get("condition"),
                                            action=p.get("action"), kind=p.get("kind"),
                                            reset=bool(p.get("reset")))
        return dict(rule)

    async def log_list(p: dict[str, Json]) -> Json:
        entries = await service.log_list(_limit(p.get("limit")), p.get("before"), p.get("task_id"))
        return [entry.to_json() for entry in entries]

    async def escalations_list(p: dict[str, Json]) -> Json:
        return [esc.to_json() for esc in await approvals.escalations_list(p.get("status"))]

    async def escalations_approve(p: dict[str, Json]) -> Json:
        return {"approved": await approvals.escalations_approve(p["escalation_id"])}

    async def escalations_dismiss(p: dict[str, Json]) -> Json:
        return {"dismissed": await approvals.escalations_dismiss(p["escalation_id"])}

    async def pause(p: dict[str, Json]) -> Json:
        await service.set_paused(True)
        return {"paused": True}

    async def resume(p: dict[str, Json]) -> Json:
        await service.set_paused(False)
        return {"paused": False}

    task_id = Param("task_id", "string", required=True)
    escalation_id = Param("escalation_id", "string", required=True)
    table = {
        "subconscious_status": Method((), status),
        "subconscious_trigger": Method((), trigger),
        "subconscious_pause": Method((), pause),
        "subconscious_resume": Method((), resume),
        "subconscious_tasks_list": Method((Param("enabled_only", "boolean"),), tasks_list),
        "subconscious_tasks_add": Method(
            (Param("title", "string", required=True), Param("recurrence", "string")), tasks_add
        ),
        "subconscious_tasks_update": Method(
            (task_id, Param("title", "string"), Param("enabled", "boolean"), Param("recurrence", "string"),
             Param("intent", "string")),
            tasks_update,
        ),
        "subconscious_tasks_remove": Method((task_id,), tasks_remove),
        # Beyond CONTRACT §4 (issue 24): what a task watches, waits for and does, as the user sees and edits it.
        "subconscious_tasks_rule_get": Method((task_id,), tasks_rule_get),
        "subconscious_tasks_rule_set": Method(
            (task_id, Param("watch", "string"), Param("condition", "string"), Param("action", "string"),
             Param("kind", "string"), Param("reset", "boolean")),
            tasks_rule_set,
        ),
        "subconscious_log_list": Method(
            (Param("limit", "integer"), Param("before", "number"), Param("task_id", "string")), log_list
        ),
        "subconscious_escalations_list": Method((Param("status", "string"),), escalations_list),
        "subconscious_escalations_approve": Method((escalation_id,), escalations_approve),
        "subconscious_escalations_dismiss": Method((escalation_id,), escalations_dismiss),
    }
    return {METHOD_PREFIX + name: method for name, method in table.items()}


class MethodTable:
    """All methods the server offers; parts of the app add theirs with :meth:`add`."""

    def __init__(self) -> None:
        self._methods: dict[str, Method] = {}

    def add(self, methods: dict[str, Method]) -> None:
        self._methods.update(methods)

    @property
    def names(self) -> list[str]:
        return sorted(self._methods)

    async def __call__(self, name: str, params: dict[str, Json] | list[Json]) -> Json:
        method = self._methods.get(name)
        if method is None:
            raise RpcError(METHOD_NOT_FOUND, f"Method not found: {name[:100]!r}")
        return await method.call(bind(method.params, params))
