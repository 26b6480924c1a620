"""Reflection and steering methods (CONTRACT §10): trigger a reflection, read, list, revert and edit the
steering directive, and the reflection's status."""

from __future__ import annotations

from typing import Any, Protocol

from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.orchestration.steering import Directive
from openhuman_desktop.rpc.methods import Json, Method, Param
from openhuman_desktop.rpc.protocol import METHOD_PREFIX

DEFAULT_LIMIT = 50
MAX_LIMIT = 1_000
MAX_VERSION = 2 ** 63 - 1
"""The largest number SQLite can hold: a larger ``version`` or ``before`` is no version at all."""


class Steering(Protocol):
    """The part of ``orchestration.directives.SteeringStore`` these methods call."""

    async def current_directive(self) -> Directive | None:
        ...

    async def list(self, limit: int = DEFAULT_LIMIT, before: int | None = None) -> list[Directive]:
        ...

    async def revert(self, version: object) -> Directive:
        ...

    async def edit(self, text: object, rationale: str = "") -> Directive:
        ...


class StatusLike(Protocol):
    def to_json(self) -> dict[str, Any]:
        ...


class Reflection(Protocol):
    """The part of ``subconscious.reflection.Reflector`` these methods call."""

    def trigger(self, trigger: str = "manual") -> bool:
        ...

    async def status(self) -> StatusLike:
        ...


def _limit(value: Json) -> int:
    if value is None:
        return DEFAULT_LIMIT
    if not 1 <= value <= MAX_LIMIT:
        raise InvalidInput("limit", f"must be between 1 and {MAX_LIMIT}")
    return int(value)


def _version(value: Json) -> int:
    if not 0 <= value <= MAX_VERSION:
        raise InvalidInput("version", "must be a version number (0 clears the directive)")
    return int(value)


def reflection_methods(steering: Steering, reflection: Reflection | None) -> dict[str, Method]:
    """``openhuman.reflection_trigger``, ``steering_current``, ``steering_list``, ``steering_revert`` (CONTRACT
    §10), plus ``steering_set`` (the user's own directive) and ``reflection_status``."""

    async def trigger(p: dict[str, Json]) -> Json:
        if reflection is not None:
            reflection.trigger("manual")
        return {"triggered": True}

    async def current(p: dict[str, Json]) -> Json:
        found = await steering.current_directive()
        return found.to_json() if found is not None else None

    async def listed(p: dict[str, Json]) -> Json:
        before = p.get("before")
        if before is not None and not 1 <= before <= MAX_VERSION:
            raise InvalidInput("before", "must be a version number")
        return [d.to_json() for d in await steering.list(_limit(p.get("limit")), before)]

    async def revert(p: dict[str, Json]) -> Json:
        return (await steering.revert(_version(p["version"]))).to_json()

    async def set_text(p: dict[str, Json]) -> Json:
        rationale = p.get("rationale") or ""
        return (await steering.edit(p["text"], rationale.strip())).to_json()

    async def status(p: dict[str, Json]) -> Json:
        if reflection is None:
            return None
        return (await reflection.status()).to_json()

    table = {
        "reflection_trigger": Method((), trigger),
        "reflection_status": Method((), status),
        "steering_current": Method((), current),
        "steering_list": Method((Param("limit", "integer"), Param("before", "integer")), listed),
        "steering_revert": Method((Param("version", "integer", required=True),), revert),
        "steering_set": Method((Param("text", "string", required=True), Param("rationale", "string")), set_text),
    }
    return {METHOD_PREFIX + name: method for name, method in table.items()}
