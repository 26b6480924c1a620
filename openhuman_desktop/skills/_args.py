"""Argument checking every skill uses: models send garbage (wrong types, extra keys, nulls)."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from openhuman_desktop.errors import InvalidInput, UserFacingError
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.skills.base import Target, Tool, ToolContext, ToolResult

ToolRun = Callable[[dict[str, Any]], Awaitable[ToolResult]]
CheckedObserve = Callable[[dict[str, Any]], Awaitable[str | None]]
CheckedExpect = Callable[[dict[str, Any], str], Awaitable[str | None]]

INVALID_CALL = "invalid arguments"
"""The fingerprint of a call whose arguments are refused: such a call never changes anything."""

def _check_value(name: str, schema: Mapping[str, Any], value: Any) -> Any:
    kind = schema.get("type")
    if kind == "string":
        if not isinstance(value, str):
            raise InvalidInput(name, "must be a string")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise InvalidInput(name, f"may have at most {schema['maxLength']:,} characters")
        if "minLength" in schema and len(value) < schema["minLength"]:
            raise InvalidInput(name, f"must have at least {schema['minLength']} character(s)")
        return value
    if kind == "boolean":
        if not isinstance(value, bool):
            raise InvalidInput(name, "must be true or false")
        return value
    if kind in ("integer", "number"):
        number_ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        if not number_ok:
            raise InvalidInput(name, "must be a whole number" if kind == "integer" else "must be a number")
        if kind == "integer":
            if isinstance(value, float) and not value.is_integer():  # 10.0 is what some models send for 10
                raise InvalidInput(name, "must be a whole number")
            value = int(value)
        if "minimum" in schema and value < schema["minimum"]:
            raise InvalidInput(name, f"must be at least {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            raise InvalidInput(name, f"must be at most {schema['maximum']}")
        return value
    return value


def check_arguments(schema: Mapping[str, Any], arguments: object) -> dict[str, Any]:
    """Check tool ``arguments`` against the object ``schema`` of its spec (the subset our specs use:
    string/integer/number/boolean properties with lengths and bounds, ``required``, ``default``).

    A ``null`` counts as "not given". Unknown arguments are refused (``additionalProperties: false``).

    Returns:
        The arguments with defaults filled in.

    Raises:
        InvalidInput: naming the first wrong argument.
    """
    if not isinstance(arguments, Mapping):
        raise InvalidInput("arguments", "must be a JSON object")
    properties: Mapping[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    for name in arguments:
        if name not in properties:
            allowed = ", ".join(properties) or "none"
            raise InvalidInput(str(name), f"is not an argument of this tool (it takes: {allowed})")
    result: dict[str, Any] = {}
    for name, prop in properties.items():
        value = arguments.get(name)
        if value is None:
            if name in required:
                raise InvalidInput(name, "is required")
            if "default" in prop:
                result[name] = prop["default"]
            continue
        result[name] = _check_value(name, prop, value)
    return result


def error_result(exc: InvalidInput) -> ToolResult:
    """``Invalid <param>: <problem>.`` as an error result."""
    return ToolResult(f"Invalid {exc.param}: {exc.problem}.", is_error=True)


def checked_tool(spec: ToolSpec, *, writes: bool, run: ToolRun, observe: CheckedObserve | None = None,
                 target: Target | None = None, expect: CheckedExpect | None = None) -> Tool:
    """A :class:`Tool` whose ``run`` checks its arguments against ``spec.parameters`` first, and turns
    user-facing errors (invalid input, store unavailable …) into error results instead of exceptions.

    ``observe`` (write tools) gets the checked arguments too; arguments it would refuse observe as
    :data:`INVALID_CALL`, and a user-facing error while looking becomes ``"unobservable: <why>"``.
    ``target`` names what a call would change (``Tool.target``). ``expect`` (``Tool.expect``) gets the checked
    arguments and the fingerprint before; refused arguments or a user-facing error expect nothing (None): such
    a call changes nothing, or cannot be told.
    """

    async def call(arguments: Mapping[str, Any], context: ToolContext) -> ToolResult:
        try:
            checked = check_arguments(spec.parameters, arguments)
        except InvalidInput as exc:
            return error_result(exc)
        try:
            return await run(checked)
        except InvalidInput as exc:
            return error_result(exc)
        except UserFacingError as exc:
            return ToolResult(str(exc), is_error=True)

    if observe is None:
        return Tool(spec=spec, writes=writes, run=call, target=target)
    look = observe

    async def observed(arguments: Mapping[str, Any]) -> str | None:
        try:
            checked = check_arguments(spec.parameters, arguments)
        except InvalidInput:
            return INVALID_CALL
        try:
            return await look(checked)
        except InvalidInput:
            return INVALID_CALL
        except UserFacingError as exc:
            return f"unobservable: {exc}"

    foresee = expect

    async def expected(arguments: Mapping[str, Any], before: str) -> str | None:
        if foresee is None:
            return None
        try:
            return await foresee(check_arguments(spec.parameters, arguments), before)
        except UserFacingError:  # (InvalidInput is one)
            return None

    return Tool(spec=spec, writes=writes, run=call, observe=observed, target=target,
                expect=expected if expect else None)


def object_schema(properties: Mapping[str, Any], required: Sequence[str] = ()) -> dict[str, Any]:
    """A JSON schema object with ``required`` and ``additionalProperties: false``."""
    return {"type": "object", "properties": dict(properties), "required": list(required),
            "additionalProperties": False}
